"""Name predicates: a function of the server's own that tells whether a tool name is one of a few literals
(`const isNotesRequest = (r) => ["add_note", "list_notes"].includes(r.params.name)`), so that a dispatch written
`if (isNotesRequest(request)) return handleNotes(request)` names its tools."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract.frames import returned
from auditor.extract.program import Module
from auditor.extract.syntax import call_args, condition_terms, member_chain, strip_casts, text


def names(fn: ts.Node, module: Module, is_subject) -> list[str] | None:
    """The tool names FN returns true for, when every value it returns is a disjunction of `subject === "x"` terms
    and `[...literals].includes(subject)` (IS_SUBJECT(node, module) tells a name subject); None for any other function."""
    values = returned(fn)
    if not values:
        return None
    out: list[str] = []
    for value in values:
        for term in condition_terms(value):
            found = _term(term, module, is_subject)
            if found is None:
                return None
            out += [n for n in found if n not in out]
    return out or None


def _term(term: ts.Node, module: Module, is_subject) -> list[str] | None:
    if term.type == "binary_expression" and text(term.child_by_field_name("operator")) in {"===", "=="}:
        left, right = term.child_by_field_name("left"), term.child_by_field_name("right")
        for subj, lit in ((left, right), (right, left)):
            value = module.name_value(lit)
            if value is not None and is_subject(strip_casts(subj), module):
                return [value]
        return None
    if term.type == "call_expression":
        chain = member_chain(term.child_by_field_name("function")) or ()
        callee = strip_casts(term.child_by_field_name("function"))
        args = call_args(term)
        if not chain or chain[-1] != "includes" or len(args) != 1 or not is_subject(strip_casts(args[0]), module):
            return None
        items = strip_casts(callee.child_by_field_name("object")) if callee is not None else None
        if items is not None and items.type == "identifier":  # `TOOLS.includes(name)` of `const TOOLS = [...]`
            items = strip_casts(module.toplevel.get(text(items)))
        if items is None or items.type != "array":
            return None
        values = [module.name_value(e) for e in items.named_children if e.type != "comment"]
        return values if values and all(v is not None for v in values) else None
    return None
