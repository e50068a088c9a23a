"""Functions that return a copy of a parameter: `{ ...args }`, `Object.assign({}, args)`, `structuredClone(args)`,
`Object.fromEntries(Object.entries(args)...)`, or an object filled in a loop over the parameter's entries
(`for (const [k, v] of Object.entries(args)) out[rename(k)] = v; return out`). What is read from the call's result is
what was passed in: a check of `normalize(args).x` checks the input's `x`."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract.frames import plain_parameters
from auditor.extract.syntax import call_args, condition_terms, enclosing_function, find, member_chain, strip_casts, text

_WHOLE = {"structuredClone", "Object.assign", "Object.fromEntries", "JSON.parse"}  # calls whose result is a copy
_OVER = _WHOLE | {"Object.entries", "Object.keys", "JSON.stringify"}  # calls over the value, inside such a copy


def returns_copy(fn: ts.Node | None) -> bool:
    """Whether every value FN returns is a parameter or a copy of one."""
    if fn is None:
        return False
    params = set(plain_parameters(fn))
    body = fn.child_by_field_name("body")
    if not params or body is None:
        return False
    if body.type != "statement_block":  # `(args) => ({ ...args })`
        return _copy(body, params, fn)
    returns = [r for r in find(body, {"return_statement"}) if enclosing_function(r) == fn]
    values = [strip_casts(r.named_children[0]) if r.named_children else None
              for r in returns if not _not_an_object(r, params, fn)]
    return bool(values) and all(v is not None and _copy(v, params, fn) for v in values)


_NOT_OBJECT_TYPES = frozenset({"string", "number", "boolean", "undefined", "bigint", "symbol", "function"})


def _not_an_object(ret: ts.Node, params: set[str], fn: ts.Node) -> bool:
    """Whether RET is returned only for a parameter that is no object: under `if (typeof p === "string")`,
    `if (Array.isArray(p))`, `if (p === null || p === undefined)` (a function that also sanitises strings and lists,
    `sanitize(args)`, copies what a tool's arguments are: an object)."""
    cur = ret
    while cur is not None and cur != fn:
        up = cur.parent
        if up is not None and up.type == "if_statement" and up.child_by_field_name("consequence") == cur \
                and all(_tests_not_object(t, params) for t in condition_terms(up.child_by_field_name("condition"))):
            return True
        cur = up
    return False


def _tests_not_object(term: ts.Node, params: set[str]) -> bool:
    """`typeof p === "string"`, `Array.isArray(p)`, `p === null`, `p === undefined`, `p == null`."""
    if term.type == "call_expression":
        args = call_args(term)
        return ".".join(member_chain(term.child_by_field_name("function")) or ()) == "Array.isArray" \
            and len(args) == 1 and text(strip_casts(args[0])) in params
    if term.type != "binary_expression" or text(term.child_by_field_name("operator")) not in {"===", "=="}:
        return False
    left, right = strip_casts(term.child_by_field_name("left")), strip_casts(term.child_by_field_name("right"))
    if left is not None and left.type == "unary_expression" and text(left.child_by_field_name("operator")) == "typeof":
        subject = strip_casts(left.child_by_field_name("argument"))
        return subject is not None and text(subject) in params and right is not None and right.type == "string" \
            and text(right).strip("'\"") in _NOT_OBJECT_TYPES
    return left is not None and text(left) in params and right is not None and text(right) in {"null", "undefined"}


def _copy(node: ts.Node | None, params: set[str], fn: ts.Node) -> bool:
    node = strip_casts(node)
    if node is None:
        return False
    if node.type == "identifier":
        name = text(node)
        return name in params or _filled(fn, name, params)
    if node.type == "object":  # `{ ...args }`, `{ ...args, extra: 1 }`
        return any(c.type == "spread_element" and _names(c.named_children[0], params) for c in node.named_children)
    if node.type == "call_expression":
        callee = ".".join(member_chain(node.child_by_field_name("function")) or ())
        return callee in _WHOLE and any(_names(a, params) for a in call_args(node))
    return False


def _names(node: ts.Node | None, params: set[str]) -> bool:
    """Whether NODE is a parameter, or a call over one (`Object.entries(args).map(...)`, `JSON.stringify(args)`)."""
    node = strip_casts(node)
    if node is None:
        return False
    if node.type == "identifier":
        return text(node) in params
    if node.type == "call_expression":
        fn = node.child_by_field_name("function")
        if fn is not None and fn.type == "member_expression" and _names(fn.child_by_field_name("object"), params):
            return True  # `Object.entries(args).map(f)`
        callee = ".".join(member_chain(fn) or ())
        return callee in _OVER and any(_names(a, params) for a in call_args(node))
    return False


def _filled(fn: ts.Node, name: str, params: set[str]) -> bool:
    """NAME is declared `{}` (or a copy) in FN and written under keys in a loop over a parameter's entries."""
    declared = next((d for d in find(fn, {"variable_declarator"}) if enclosing_function(d) == fn
                     and text(d.child_by_field_name("name")) == name), None)
    value = strip_casts(declared.child_by_field_name("value")) if declared is not None else None
    if value is None or value.type != "object":
        return False
    if any(c.type == "spread_element" and _names(c.named_children[0], params) for c in value.named_children):
        return True
    if value.named_children:
        return False
    for loop in find(fn, {"for_in_statement"}):
        if not _names(loop.child_by_field_name("right"), params):
            continue
        for a in find(loop, {"assignment_expression"}):
            left = a.child_by_field_name("left")
            if left is not None and left.type == "subscript_expression" and text(left.child_by_field_name("object")) == name:
                return True
    return False


def rekeyed(fn: ts.Node | None) -> ts.Node | None:
    """The object whose keys the one object FN returns has, each under the same key, when FN fills it in a loop over
    that object's entries (`const out = {}; for (const [k, v] of Object.entries(T)) out[k] = wrap(v); return out`:
    T, each entry's value in the hands of the wrapper); else None."""
    body = fn.child_by_field_name("body") if fn is not None else None
    if body is None or body.type != "statement_block":
        return None
    returns = [r for r in find(body, {"return_statement"}) if enclosing_function(r) == fn]
    out = strip_casts(returns[0].named_children[0]) if len(returns) == 1 and returns[0].named_children else None
    if out is None or out.type != "identifier":
        return None
    declared = next((d for d in find(fn, {"variable_declarator"}) if enclosing_function(d) == fn
                     and text(d.child_by_field_name("name")) == text(out)), None)
    value = strip_casts(declared.child_by_field_name("value")) if declared is not None else None
    if value is None or value.type != "object" or value.named_children:
        return None
    for loop in find(body, {"for_in_statement"}):
        over = strip_casts(loop.child_by_field_name("right"))
        if over is None or over.type != "call_expression" or len(call_args(over)) != 1 or \
                ".".join(member_chain(over.child_by_field_name("function")) or ()) not in {"Object.entries", "Object.keys"}:
            continue
        left = loop.child_by_field_name("left")
        key = left.named_children[0] if left is not None and left.type == "array_pattern" and left.named_children \
            else left
        if key is None or key.type != "identifier":
            continue
        for a in find(loop, {"assignment_expression"}):
            target = a.child_by_field_name("left")
            if target is not None and target.type == "subscript_expression" \
                    and text(target.child_by_field_name("object")) == text(out) \
                    and text(strip_casts(target.child_by_field_name("index"))) == text(key):
                return call_args(over)[0]
    return None


_ENTRY_STEPS = frozenset({"filter", "sort", "slice", "concat", "reverse"})  # (array methods that keep entries whole)


def entries_source(value: ts.Node | None) -> ts.Node | None:
    """The object whose keys VALUE, an object built from its entries, has, each under the same key: `Object.entries(T)`
    (kept whole by `.filter(...)`, `.sort(...)`) reduced into `{}` by `(acc, [k, v]) => { acc[k] = ...; return acc }`,
    or mapped to `[k, ...]` pairs and made an object by `Object.fromEntries`: T, each entry's value in the hands of what
    the callback makes of it (as `rekeyed`); else None."""
    value = strip_casts(value)
    if value is None or value.type != "call_expression":
        return None
    callee = value.child_by_field_name("function")
    paired = ".".join(member_chain(callee) or ()) == "Object.fromEntries"
    if paired:
        value = strip_casts(call_args(value)[0]) if len(call_args(value)) == 1 else None
        callee = value.child_by_field_name("function") if value is not None and value.type == "call_expression" else None
    if callee is None or callee.type != "member_expression":
        return None
    args = call_args(value)
    method = text(callee.child_by_field_name("property"))
    if method != ("map" if paired else "reduce") or len(args) != (1 if paired else 2) or not paired and not (
            (init := strip_casts(args[1])) is not None and init.type == "object" and not init.named_children):
        return None
    fn = strip_casts(args[0])
    params = fn.child_by_field_name("parameters") if fn is not None else None
    items = [c for c in params.named_children if c.type != "comment"] if params is not None else []
    entry = items[0 if paired else 1] if len(items) == (1 if paired else 2) else None
    entry = entry.child_by_field_name("pattern") or entry if entry is not None and entry.type == "required_parameter" \
        else entry
    key = entry.named_children[0] if entry is not None and entry.type == "array_pattern" and entry.named_children else None
    if key is None or key.type != "identifier" or not _keeps_key(fn, text(key), None if paired else items[0]):
        return None
    source = strip_casts(callee.child_by_field_name("object"))
    while source is not None and source.type == "call_expression":
        inner = source.child_by_field_name("function")
        if ".".join(member_chain(inner) or ()) == "Object.entries" and len(call_args(source)) == 1:
            return call_args(source)[0]
        if inner is None or inner.type != "member_expression" or text(inner.child_by_field_name("property")) not in _ENTRY_STEPS:
            return None
        source = strip_casts(inner.child_by_field_name("object"))
    return None


def _keeps_key(fn: ts.Node, key: str, acc: ts.Node | None) -> bool:
    """Whether FN, a callback over entries, puts each under its own KEY: stores `acc[KEY] = ...` (ACC its accumulator
    parameter), or, with ACC None, returns the pair `[KEY, ...]`."""
    if acc is not None:
        acc = acc.child_by_field_name("pattern") or acc if acc.type == "required_parameter" else acc
        return any(t is not None and t.type == "subscript_expression" and text(t.child_by_field_name("object")) == text(acc)
                   and text(strip_casts(t.child_by_field_name("index"))) == key
                   for a in find(fn, {"assignment_expression"}) for t in [a.child_by_field_name("left")])
    body = strip_casts(fn.child_by_field_name("body"))
    outs = [body] if body is not None and body.type != "statement_block" else \
        [strip_casts(r.named_children[0]) for r in find(body, {"return_statement"}) if r.named_children] if body else []
    return bool(outs) and all(o is not None and o.type == "array" and o.named_children
                              and text(strip_casts(o.named_children[0])) == key for o in outs)
