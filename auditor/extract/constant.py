"""Conditions the code itself fixes: a registration in a branch of an `if` whose condition has one value in every
run (`if (DEBUG)` of `const DEBUG = false`, `if (opts.http)` of every caller's `{ http: flag && !isPublished() }`
where `isPublished()` compares two constants) registers nothing. Unknown stays unknown: anything read from the
environment, the command line, a parameter no caller fixes or a value computed at run time is not decided."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract.bindings import value_of
from auditor.extract.frames import plain_parameters
from auditor.extract.program import Module
from auditor.extract.syntax import (FUNCTION_TYPES, NOT_LITERAL, ancestors, call_args, literal, member_chain,
                                    object_pairs, pair_value, strip_casts, text, within)

MAX_DEPTH = 8
_NOT_KNOWN = object()


def dead(node: ts.Node, module: Module, link=None) -> bool:
    """Whether NODE is written in a branch of an `if`, within its function, that no run takes."""
    cur = node
    while cur.parent is not None and cur.type not in FUNCTION_TYPES:
        parent = cur.parent
        if parent.type == "if_statement":
            taken = parent.child_by_field_name("consequence")
            other = parent.child_by_field_name("alternative")
            if taken is not None and within(node, taken) or other is not None and within(node, other):
                value = truth(parent.child_by_field_name("condition"), module, link)
                if value is not None and value != within(node, taken):
                    return True
        cur = parent
    return False


def truth(node: ts.Node | None, module: Module, link=None, depth: int = 0) -> bool | None:
    """The truth value NODE has in every run, or None when that is not fixed."""
    value = _value(node, module, link, depth)
    return None if value is _NOT_KNOWN else bool(value)


def _value(node: ts.Node | None, module: Module, link, depth: int):
    node = strip_casts(node)
    if node is None or depth > MAX_DEPTH:
        return _NOT_KNOWN
    t, d = node.type, depth + 1
    if t in {"true", "false", "number", "string", "null"} or t == "template_string" and not node.named_children:
        found = literal(node, {})
        return _NOT_KNOWN if found is NOT_LITERAL else found
    if t == "unary_expression" and text(node.child_by_field_name("operator")) == "!":
        inner = _value(node.child_by_field_name("argument"), module, link, d)
        return _NOT_KNOWN if inner is _NOT_KNOWN else not inner
    if t == "binary_expression":
        return _binary(node, module, link, d)
    if t == "identifier":
        value = value_of(module, node)
        if value is None or _assigned(module, text(node)):
            return _NOT_KNOWN
        return _value(value, module, link, d)
    if t == "member_expression":
        return _member(node, module, link, d)
    if t == "call_expression" and not call_args(node) and link is not None:
        hit = link.resolve(module, node)  # `isPublished()`: a function that returns one expression, no parameter
        fn = hit[1] if hit is not None else None
        body = fn.child_by_field_name("body") if fn is not None else None
        if body is None or plain_parameters(fn):
            return _NOT_KNOWN
        if body.type != "statement_block":
            return _value(body, hit[0], link, d)
        statements = [c for c in body.named_children if c.type != "comment"]
        if len(statements) == 1 and statements[0].type == "return_statement" and statements[0].named_children:
            return _value(statements[0].named_children[0], hit[0], link, d)
    return _NOT_KNOWN


def _binary(node: ts.Node, module: Module, link, d: int):
    op = text(node.child_by_field_name("operator"))
    left = _value(node.child_by_field_name("left"), module, link, d)
    if op in {"&&", "||"}:
        if left is not _NOT_KNOWN and (not left if op == "&&" else bool(left)):
            return left  # decided by the left side
        right = _value(node.child_by_field_name("right"), module, link, d)
        if left is _NOT_KNOWN:  # `x && false` is false, `x || true` true, whatever x is
            return right if right is not _NOT_KNOWN and (not right if op == "&&" else bool(right)) else _NOT_KNOWN
        return right
    if op == "+":
        right = _value(node.child_by_field_name("right"), module, link, d)
        if isinstance(left, str) and isinstance(right, str):
            return left + right
        return _NOT_KNOWN
    if op in {"===", "!==", "==", "!="}:
        right = _value(node.child_by_field_name("right"), module, link, d)
        if left is _NOT_KNOWN or right is _NOT_KNOWN or not all(isinstance(x, (str, int, float, bool)) or x is None
                                                               for x in (left, right)):
            return _NOT_KNOWN
        same = left == right and type(left) is type(right) if op in {"===", "!=="} else left == right
        return same if op in {"===", "=="} else not same
    return _NOT_KNOWN


def _member(node: ts.Node, module: Module, link, d: int):
    """`CONFIG.flag` of a constant object literal, or `opts.flag` of a parameter every call of the function hands an
    object literal whose `flag` has one value."""
    chain = member_chain(node)
    if not chain or len(chain) != 2:
        return _NOT_KNOWN
    root = node.child_by_field_name("object")
    fn = next((a for a in ancestors(node) if a.type in FUNCTION_TYPES | {"method_definition"}), None)
    params = plain_parameters(fn) if fn is not None else {}
    if chain[0] in params and link is not None:
        values = []
        for cmod, call in link.callers(fn):
            args = call_args(call)
            arg = strip_casts(args[params[chain[0]]]) if params[chain[0]] < len(args) else None
            if arg is not None and arg.type == "identifier":
                arg = strip_casts(value_of(cmod, arg))
            pair = object_pairs(arg).get(chain[1]) if arg is not None and arg.type == "object" else None
            values.append(_value(pair_value(pair), cmod, link, d) if pair is not None else _NOT_KNOWN)
        if values and all(v is not _NOT_KNOWN for v in values) and len({bool(v) for v in values}) == 1:
            return values[0]
        return _NOT_KNOWN
    holder = strip_casts(value_of(module, root)) if root.type == "identifier" else None
    if holder is None or holder.type != "object" or _assigned(module, chain[0]) \
            or link is not None and link.exported(module.path, chain[0]) is not None:
        return _NOT_KNOWN  # (an object other modules import may be changed there)
    pair = object_pairs(holder).get(chain[1])
    return _value(pair_value(pair), module, link, d) if pair is not None else _NOT_KNOWN


def _assigned(module: Module, name: str) -> bool:
    """Whether the module assigns NAME (or a member of it) anywhere: no constant."""
    for node in module.nodes("assign"):
        left = node.child_by_field_name("left") if node.type == "assignment_expression" else \
            node.child_by_field_name("argument") if node.type == "update_expression" else node.child_by_field_name("left")
        chain = member_chain(left) if left is not None else None
        if chain and chain[0] == name:
            return True
    return False

