"""What a zod expression is read through besides zod itself: a conditional (`C ? A : B`, both branches possible) and
a call of a server function that returns a schema (its live returns, its parameters bound to the call's constants)."""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from auditor.extract.bindings import value_of
from auditor.extract.frames import parameters, plain_parameters
from auditor.extract.syntax import (FUNCTION_TYPES, NOT_LITERAL, Known, call_args, excerpt, find, literal, member_chain,
                                    strip_casts, text)
from auditor.extract.zod_methods import object_schema

# Calls of schema-building functions followed inside one another (a function that recurses on a constant depth
# stops by itself; one that does not is cut here, and the cut is a gap).
MAX_CALLS = 8


@dataclass(frozen=True, kw_only=True, slots=True)
class Call:
    """A function being followed: its node, its module, and the constants its parameters are bound to."""
    fn: ts.Node
    module: object
    bound: dict


def either(a: dict, b: dict, condition: ts.Node) -> dict:
    """The schema of `C ? A : B`: one of the two; two object schemas are one object with the properties of both."""
    if a == b:
        return a
    if a.get("type") == "object" and b.get("type") == "object" and "properties" in a and "properties" in b:
        props, required = merged(a["properties"], a.get("required") or [], b["properties"], b.get("required") or [], condition)
        return object_schema(props, required, a)
    return {"anyOf": [a, b]}


def merged(pa: dict, ra: list, pb: dict, rb: list, condition: ts.Node) -> tuple[dict, list]:
    """Properties of two shapes of which one is used, by configuration: all of them; one of only one branch may be
    left out (it is not required) and says so in a `$comment`; a name required on both branches stays required."""
    props: dict = {}
    for name in list(pa) + [n for n in pb if n not in pa]:
        if name in pa and name in pb:
            props[name] = pa[name] if pa[name] == pb[name] else {"anyOf": [pa[name], pb[name]]}
        else:
            side = "true" if name in pa else "false"
            props[name] = {**(pa.get(name) or pb.get(name) or {}),
                           "$comment": f"only when `{excerpt(condition, 40)}` is {side}"}
    return props, [n for n in ra if n in rb]


def branches(node: ts.Node, env=None) -> tuple[ts.Node, ts.Node, ts.Node] | None:
    """(condition, consequence, alternative) of a conditional expression, else None; when ENV makes the condition a
    constant (a parameter bound by the call being followed), the branch taken twice."""
    node = strip_casts(node)
    if node is None or node.type != "ternary_expression":
        return None
    parts = (node.child_by_field_name("condition"), node.child_by_field_name("consequence"),
             node.child_by_field_name("alternative"))
    if any(p is None for p in parts):
        return None
    known = literal(parts[0], env) if env is not None else NOT_LITERAL
    return parts if not isinstance(known, bool) else (parts[0],) + (parts[1] if known else parts[2],) * 2


def callee(r, call: ts.Node) -> tuple[ts.Node, object] | None:
    """(function, module) of a call of a top-level function of the boundary by its name, here or imported."""
    chain = member_chain(call.child_by_field_name("function"))
    if chain is None or len(chain) != 1:
        return None
    where = (r.module, chain[0]) if r.link is None else r.link.binding(r.module, chain[0])
    if where is None:
        return None
    fn = where[0].functions.get(where[1])
    return (strip_casts(fn), where[0]) if fn is not None else None


def passed_through(r, call: ts.Node) -> ts.Node | None:
    """The argument CALL hands a function of the boundary that returns it as it is (`asSchema(s)` of `(x) => x`), also
    one a call of a top-level function makes (`typeSafeSchema()(s)`, `const typeSafeSchema = () => (x) => x`): a
    typing helper; None otherwise."""
    fn_node = strip_casts(call.child_by_field_name("function"))
    if fn_node is not None and fn_node.type == "call_expression":  # curried: what the inner call's function returns
        made = callee(r, fn_node)
        returns = [strip_casts(e) for e in live_returns(made[0], {})] if made is not None else []
        fn = returns[0] if len(returns) == 1 and returns[0] is not None and returns[0].type in FUNCTION_TYPES else None
    else:
        made = callee(r, call)
        fn = made[0] if made is not None else None
    returns = [strip_casts(e) for e in live_returns(fn, {})] if fn is not None else []
    if len(returns) != 1 or returns[0] is None or returns[0].type != "identifier":
        return None
    index = plain_parameters(fn).get(text(returns[0]))
    args = call_args(call)
    return args[index] if index is not None and index < len(args) else None


def live_returns(fn: ts.Node, env) -> list[ts.Node]:
    """What FN may return: an arrow's expression, else its return statements, leaving out those under an `if` whose
    condition is a constant false (a parameter bound to a constant) and those after an `if` that always returns."""
    body = fn.child_by_field_name("body")
    if body is None:
        return []
    if body.type != "statement_block":
        return [body]
    out: list[ts.Node] = []
    for st in body.named_children:
        if st.type == "return_statement":
            return out + _returns_in(st)
        if st.type != "if_statement":
            out += _returns_in(st)
            continue
        cond = literal(st.child_by_field_name("condition"), env)
        then, other = st.child_by_field_name("consequence"), st.child_by_field_name("alternative")
        if cond is not False and then is not None:
            out += _returns_in(then)
        if cond is not True and other is not None:
            out += _returns_in(other)
        if cond is True and then is not None and _always_returns(then):
            return out
    return out


def _returns_in(node: ts.Node) -> list[ts.Node]:
    nested = [f for f in find(node, FUNCTION_TYPES)]
    return [r.named_children[0] for r in find(node, {"return_statement"}) if r.named_children
            and not any(f.start_byte <= r.start_byte < f.end_byte for f in nested)]


def _always_returns(node: ts.Node) -> bool:
    if node.type == "return_statement":
        return True
    last = [c for c in node.named_children if c.type != "comment"][-1:] if node.type == "statement_block" else []
    return bool(last) and last[0].type == "return_statement"


def bind(r, fn: ts.Node, module, call: ts.Node) -> Call:
    """The parameters of FN bound to the constants the call passes (`build(DEPTH + 1)`); the others stay unknown."""
    args = call_args(call)
    bound = {}
    for name, (index, path) in parameters(fn).items():
        value = literal(args[index], r.constants) if index < len(args) and not path else NOT_LITERAL
        if value is not NOT_LITERAL:
            bound[name] = value
    return Call(fn=fn, module=module, bound=bound)


def parameter_value(calls: list[Call], module, ident: ts.Node):
    """The constant a parameter of a function being followed stands for at IDENT, or NOT_LITERAL."""
    name = text(ident)
    for c in reversed(calls):
        if c.module is module and c.fn.start_byte <= ident.start_byte < c.fn.end_byte and name in c.bound:
            return c.bound[name]
    return NOT_LITERAL


def enum_values(r, node: ts.Node | None) -> list | None:
    """The values of a string enum of the boundary that NODE names (`E`, `Object.values(E)`) or its member names
    (`Object.keys(E)`): a TypeScript `enum` or one compiled to `(function (E) { E["A"] = "a"; })(E || (E = {}))`.
    None unless every member of the enum has a string value (a numeric one has a reverse mapping, not listed)."""
    node = strip_casts(node)
    keys = False
    if node is not None and node.type == "call_expression" and len(call_args(node)) == 1 \
            and member_chain(node.child_by_field_name("function")) in {("Object", "values"), ("Object", "keys")}:
        keys = member_chain(node.child_by_field_name("function"))[1] == "keys"
        node = strip_casts(call_args(node)[0])
    if node is None or node.type != "identifier":
        return None
    where = (r.module, text(node)) if r.link is None else r.link.binding(r.link.module_of(node) or r.module, text(node))
    members = _string_enum(*where) if where is not None else None
    if members is None and where is not None:  # `const Status = { Active: "active", ... } as const`
        members = _string_object(where[0], where[0].toplevel.get(where[1]))
    if members is None:
        return None
    return [k for k, _ in members] if keys else [v for _, v in members]


def _string_object(module, value: ts.Node | None) -> list[tuple[str, str]] | None:
    """(key, value) of an object literal whose every entry is a string (through the constants of MODULE), in order."""
    value = strip_casts(value)
    got = literal(value, module.toplevel) if value is not None and value.type == "object" else None
    if not isinstance(got, dict) or not got or not all(isinstance(v, str) for v in got.values()):
        return None
    return list(got.items())


def _string_enum(module, name: str) -> list[tuple[str, str]] | None:
    """(member, value) of the string enum NAME declared or compiled at the top level of MODULE, in order."""
    prefix = f"{name}."
    found = [(k[len(prefix):], v) for k, v in module.enums.items() if k.startswith(prefix)]
    if not found:
        return None
    for decl in module.nodes("enum"):
        if text(decl.child_by_field_name("name")) == name:
            body = decl.child_by_field_name("body")
            members = [c for c in body.named_children if c.type != "comment"] if body is not None else []
            return found if len(members) == len(found) else None
    for stmt in module.nodes("toplevel.stmt"):  # the compiled form: one string assignment per statement
        call = strip_casts(stmt.named_children[0]) if stmt.named_children else None
        args = call_args(call) if call is not None and call.type == "call_expression" else []
        arg = strip_casts(args[0]) if len(args) == 1 else None
        if arg is None or arg.type != "binary_expression" or text(arg.child_by_field_name("left")).split(".")[-1] != name:
            continue
        body = strip_casts(call.child_by_field_name("function")).child_by_field_name("body")
        statements = [c for c in body.named_children if c.type != "comment"] if body is not None else []
        return found if len(statements) == len(found) else None
    return None


def either_list(r, node: ts.Node | None) -> tuple[list, ts.Node] | None:
    """The values of `C ? LIST_A : LIST_B` (through names): those of both lists, in order, and the condition (None
    when both lists are the same)."""
    node = strip_casts(node)
    for _ in range(10):
        if node is None or node.type != "identifier":
            break
        value = r.constants(node)
        node = strip_casts(value) if value is not None and not isinstance(value, Known) else None
    parts = branches(node, r.constants)
    if parts is None:
        return None
    a, b = literal(parts[1], r.constants), literal(parts[2], r.constants)
    if not isinstance(a, list) or not isinstance(b, list):
        return None
    return a + [v for v in b if v not in a], (parts[0] if a != b else None)


def returned(r, call: ts.Node, fn: ts.Node, module, path: str, depth: int) -> tuple[dict | None, bool] | None:
    """The schema a server function returns (`buildSchema(DEPTH)`), read by the zod reader R with the function's
    parameters bound to the call's constants: one return, or anyOf of its live returns; None when what it returns
    is not a schema (then the call is the gap)."""
    where = path or "input"
    if len(r.calls) >= MAX_CALLS:
        r.problem(f"`{excerpt(call)}` at `{where}` nests schema-building calls deeper than {MAX_CALLS}; not followed", call)
        return None, False
    frame = bind(r, fn, module, call)
    sub = r.sibling(module)
    r.calls.append(frame)
    try:
        returns = live_returns(fn, sub.constants)
        if not returns or not all(_schema_like(sub, e) for e in returns):
            return None
        read = [sub.read(e, path, depth + 1) for e in returns]
    finally:
        r.calls.pop()
    if sub is not r:
        r.problems += sub.problems
        r.coercions += sub.coercions  # anchored in their own file
    specs = [s for s, _ in read]
    if any(s is None for s in specs):
        return None, False
    distinct = [s for i, s in enumerate(specs) if s not in specs[:i]]
    return (distinct[0] if len(distinct) == 1 else {"anyOf": distinct}), any(o for _, o in read)


def _schema_like(r, node: ts.Node, depth: int = 0) -> bool:
    """A zod expression, a conditional of two, or a call of another server function (read, or a gap, there)."""
    parts = branches(node)
    if parts is not None:
        return depth < 10 and _schema_like(r, parts[1], depth + 1) and _schema_like(r, parts[2], depth + 1)
    node = strip_casts(node)
    return r.is_zod(node) or (node.type == "call_expression" and callee(r, node) is not None)


def outside(r, node: ts.Node | None, depth: int = 0) -> str:
    """Why a value list is unknown when it comes from a package outside the boundary (` (X is imported from 'pkg',
    ...)`), through the local names it is built from; else ""."""
    names = [n for n in find(node, {"identifier"}) if n.parent is None or n.parent.type != "member_expression"
             or n.parent.child_by_field_name("object") == n] if node is not None else []
    for n in names:
        value = value_of(r.module, n) if depth < 5 else None
        if value is not None:  # `const KEYS = keysOf(Outside)`, then `z.enum(KEYS)`
            found = outside(r, value, depth + 1)
            if found:
                return found
            continue
        src = r.imported.get(text(n), ("", ""))[0]
        if src and not src.startswith("."):
            return f" (`{text(n)}` is imported from {src!r}, outside the boundary)"
    return ""
