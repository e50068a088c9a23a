"""Statements that throw in every run, so that what follows them in their block never runs: a call of a method the
class does not have (`this.ensureInitialized()` in a class that defines no such method and extends nothing), and
the import of a module of the package's own that is not there (`await import("../utils/x.js")` of a relative path
that names no file of the boundary). A value used only after such a statement reaches nothing."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract import tslib
from auditor.extract.linker import candidates
from auditor.extract.program import Module, class_name_of
from auditor.extract.syntax import (CLASS_TYPES, FUNCTION_TYPES, ancestors, call_args, class_base, find, member_chain,
                                    parameter_pattern, string_value, strip_casts, text, within)

_CODE_SUFFIXES = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx")


def after_throw(node: ts.Node, fn: ts.Node, module: Module, link, files: frozenset[str]) -> bool:
    """Whether NODE, in function FN, comes after a statement of a block around it (within FN) that always throws
    (FILES: every file of the boundary, read or not)."""
    cur = node
    while cur.parent is not None and cur.id != fn.id:
        block = cur.parent
        if block.type in {"statement_block", "program"}:
            for stmt in block.named_children:
                if stmt.start_byte >= cur.start_byte:
                    break
                if throws(stmt, module, link, files):
                    return True
        cur = block
    return False


def throws(stmt: ts.Node, module: Module, link, files: frozenset[str], depth: int = 0) -> bool:
    """Whether STMT (an expression statement or a declaration) always throws, by a call it makes unconditionally
    (remembered per statement: every read after it in its block asks again)."""
    if stmt.type not in {"expression_statement", "lexical_declaration", "variable_declaration"}:
        return False
    memo = link.memo.setdefault("throws", {}) if link is not None else {}
    hit = memo.get((stmt.id, depth))
    if hit is None or hit[0] != stmt:
        hit = memo[(stmt.id, depth)] = (stmt, any(
            not _conditional(call, stmt) and (_missing_method(call) or _missing_module(call, module, files)
                                              or _nothing_called(call, link)
                                              or _throwing_method(call, module, link, files, depth))
            for call in find(stmt, {"call_expression"})))
    return hit[1]


def _nothing_called(call: ts.Node, link) -> bool:
    """`this.f.m(...)` where field f holds nothing in every instance: its class sets it only to `null`/`undefined`,
    or to a constructor parameter (`f || null` too) that every construction of the class leaves out (a TypeError)."""
    callee = strip_casts(call.child_by_field_name("function"))
    chain = member_chain(callee) if callee is not None else None
    if link is None or not chain or len(chain) != 3 or chain[0] != "this" or "?." in text(callee):
        return False
    cls = next((a for a in ancestors(call) if a.type in CLASS_TYPES), None)
    ctor = next((m for m in (cls.child_by_field_name("body").named_children if cls is not None else [])
                 if m.type == "method_definition" and text(m.child_by_field_name("name")) == "constructor"), None)
    if cls is None or ctor is None or class_base(cls) is not None or not class_name_of(cls):
        return False
    params = [parameter_pattern(c) for c in (ctor.child_by_field_name("parameters").named_children
                                            if ctor.child_by_field_name("parameters") else []) if c.type != "comment"]
    names = [text(p) if p is not None and p.type == "identifier" else None for p in params]
    index = None
    for a in find(cls, {"assignment_expression"}):
        if member_chain(a.child_by_field_name("left")) != ("this", chain[1]):
            continue
        value = strip_casts(a.child_by_field_name("right"))
        while value is not None and value.type == "binary_expression" \
                and text(value.child_by_field_name("operator")) in {"||", "??"} \
                and strip_casts(value.child_by_field_name("right")).type in {"null", "undefined"}:
            value = strip_casts(value.child_by_field_name("left"))  # `connectionManager || null`
        if value is not None and (value.type in {"null", "undefined"} or text(value) == "undefined"):
            continue
        if value is None or value.type != "identifier" or text(value) not in names or index is not None \
                or not within(a, ctor):
            return False
        index = names.index(text(value))
    if index is None:
        return False
    made = link.constructions(cls)
    return bool(made) and all(len(call_args(new)) <= index for _, new in made)


def _throwing_method(call: ts.Node, module: Module, link, files: frozenset[str], depth: int) -> bool:
    """`this.m(...)` of a method of the class whose first statements, run whatever its arguments, always throw."""
    callee = strip_casts(call.child_by_field_name("function"))
    chain = member_chain(callee) if callee is not None else None
    if depth > 1 or not chain or len(chain) != 2 or chain[0] != "this":
        return False
    cls = next((a for a in ancestors(call) if a.type in CLASS_TYPES), None)
    method = next((m for m in (cls.child_by_field_name("body").named_children if cls is not None else [])
                   if m.type == "method_definition" and text(m.child_by_field_name("name")) == chain[1]), None)
    body = method.child_by_field_name("body") if method is not None else None
    if body is None:
        return False
    for stmt in body.named_children:  # the statements before the first that may leave or branch
        if stmt.type in {"return_statement"} and stmt.named_children:
            inner = stmt.named_children[0]
            return any(not _conditional(c, inner) and (_nothing_called(c, link) or _missing_method(c))
                       for c in [inner, *find(inner, {"call_expression"})] if c.type == "call_expression")
        if stmt.type not in {"expression_statement", "lexical_declaration", "variable_declaration"}:
            return False
        if throws(stmt, module, link, files, depth + 1):
            return True
    return False


def _conditional(call: ts.Node, stmt: ts.Node) -> bool:
    """Whether CALL runs only sometimes within STMT: inside a function written there, a branch, a `?.` chain, or
    after `&&`/`||`/`??`."""
    for a in ancestors(call):
        if a.id == stmt.id:
            return False
        if a.type in FUNCTION_TYPES or a.type in {"ternary_expression", "optional_chain"} \
                or a.type == "binary_expression" and text(a.child_by_field_name("operator")) in {"&&", "||", "??"}:
            return True
    return False


def _missing_method(call: ts.Node) -> bool:
    """`this.m(...)` in a method of a class that extends nothing and defines no member m (a TypeError)."""
    callee = strip_casts(call.child_by_field_name("function"))
    chain = member_chain(callee) if callee is not None else None
    if not chain or len(chain) != 2 or chain[0] != "this" or "?." in text(callee):
        return False
    method = next((a for a in ancestors(call) if a.type in FUNCTION_TYPES | {"method_definition"}), None)
    cls = next((a for a in ancestors(call) if a.type in CLASS_TYPES), None)
    if method is None or method.type != "method_definition" or cls is None or class_base(cls) is not None \
            or not class_name_of(cls):
        return False
    body = cls.child_by_field_name("body")
    names = {text(m.child_by_field_name("name")) for m in (body.named_children if body is not None else [])
             if m.type in {"method_definition", "public_field_definition", "field_definition"}
             and m.child_by_field_name("name") is not None}
    if chain[1] in names:
        return False
    assigned = any(member_chain(a.child_by_field_name("left")) == ("this", chain[1])
                   for a in find(cls, {"assignment_expression"}))  # (a member set in the constructor)
    return not assigned


def _missing_module(call: ts.Node, module: Module, files: frozenset[str]) -> bool:
    """`await import("./x.js")` / `require("./x.js")` of a relative code path that names no file of the boundary (the
    import rejects, the require throws)."""
    fn = call.child_by_field_name("function")
    args = call.child_by_field_name("arguments")
    if fn is None or args is None or not files:
        return False
    spec = string_value(args.named_children[0]) if fn.type == "import" and args.named_children else \
        tslib.required_spec(call)
    if spec is None or not spec.startswith(".") or not spec.endswith(_CODE_SUFFIXES):
        return False
    return not any(c in files for c in candidates(module.path, spec))
