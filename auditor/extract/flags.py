"""Compile-time flags: code under a branch that can never run. `export const EXPORT_ENABLED = false;` in one module
and `if (EXPORT_ENABLED) { server.registerTool(...) }` in another registers nothing: a `const` bound to a boolean
literal cannot change while the server runs. Only such constants (and the literals `true`/`false` as written) decide
a branch here; a flag read from the environment, the command line or a mutable binding decides none."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract.frames import parameters
from auditor.extract.program import Module
from auditor.extract.syntax import FUNCTION_TYPES, ancestors, strip_casts, text

_DEPTH = 4  # imports followed to a constant


def switched_off(node: ts.Node, module: Module, link) -> bool:
    """Whether NODE lies in the branch of an `if` or `? :` that a constant condition never takes."""
    child = node
    for a in ancestors(node):
        if a.type in {"if_statement", "ternary_expression"}:
            taken = _constant(a.child_by_field_name("condition"), module, link, 0)
            if taken is not None:
                branch = a.child_by_field_name("alternative" if taken else "consequence")
                if branch is not None and branch.start_byte <= child.start_byte and child.end_byte <= branch.end_byte:
                    return True
        child = a
    return False


def _constant(cond: ts.Node | None, module: Module, link, depth: int) -> bool | None:
    cond = strip_casts(cond)
    while cond is not None and cond.type == "parenthesized_expression" and cond.named_children:
        cond = strip_casts(cond.named_children[0])
    if cond is None:
        return None
    if cond.type in {"true", "false"}:
        return cond.type == "true"
    if cond.type == "unary_expression" and text(cond.child_by_field_name("operator")) == "!":
        inner = _constant(cond.child_by_field_name("argument"), module, link, depth)
        return None if inner is None else not inner
    if cond.type != "identifier" or link is None or depth > _DEPTH:
        return None
    where = link.binding(module, text(cond))
    if where is None:
        return None
    home, name = where
    value = home.toplevel.get(name)
    decl = value.parent if value is not None else None
    kind = decl.parent.child(0) if decl is not None and decl.parent is not None and decl.parent.child_count else None
    if decl is None or decl.type != "variable_declarator" or kind is None or text(kind) != "const" \
            or _shadowed(cond, name):
        return None
    value = strip_casts(value)
    if value.type == "identifier":
        return _constant(value, home, link, depth + 1)
    return value.type == "true" if value.type in {"true", "false"} else None


def _shadowed(use: ts.Node, name: str) -> bool:
    """Whether a function around USE declares NAME itself (a parameter or a local of the same name)."""
    for a in ancestors(use):
        if a.type in {"statement_block"}:
            for c in a.named_children:
                if c.type in {"lexical_declaration", "variable_declaration"} and any(
                        d.type == "variable_declarator" and d.child_by_field_name("name") is not None
                        and text(d.child_by_field_name("name")) == name for d in c.named_children):
                    return True
        if a.type in FUNCTION_TYPES and name in parameters(a):
            return True
    return False
