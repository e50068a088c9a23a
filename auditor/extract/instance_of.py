"""The class of a value by data flow, so a method called on a parameter or a local resolves (`(client, input) =>
client.getBuild(input.job)`): what a value holds when every way it gets one gives an instance of one class of the
boundary.

- `new C(...)`: C;
- a name: a local's initializer; a parameter's declared type (`client: Client`), else what every call of its function
  hands it (direct calls, and calls through a lookup table of functions: `const h = HANDLERS[name]; h(client, args)`);
  a module's name as the linker reads it (its `new`, a factory's result);
- a call of a function of the boundary: what each of its returns holds;
- `m.get(k)` of a `Map` the module fills with `m.set(k, v)`: what each such `v` holds;
- `this.f`: the field's class (linker).

Nothing else is guessed: a value with two classes, or one not known, has none. (extract/instances.py, read by
analyse/uses.py after this, adds a member destructured from a function's result and inherited methods.)"""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract import bindings, dead
from auditor.extract.frames import own_declarators, plain_parameters, returned
from auditor.extract.syntax import (FUNCTION_TYPES, ancestors, call_args, call_function, enclosing, member_chain,
                                    object_pairs, pair_value, strip_casts, text, unawaited)

_DEPTH = 6  # data-flow steps followed from the value asked about
_CLASSES = {"class_declaration", "abstract_class_declaration", "class"}


def class_of(link, m, node: ts.Node | None, depth: int = 0):
    """(module, class info) of the instance NODE, an expression of module M, holds; None when not one known class."""
    node = unawaited(node)
    if node is None or depth > _DEPTH:
        return None
    key = ("instance_of", m.path, node.start_byte, node.end_byte, node.type)
    if key in link.memo:
        return link.memo[key]
    link.memo[key] = None  # (while it is read: a value made of itself has no class)
    link.memo[key] = found = _class_of(link, m, node, depth)
    return found


def parameter_class(link, m, fn: ts.Node, name: str, depth: int = 0):
    """(module, class info) of what parameter NAME of FN holds: its declared type, a class of the boundary, else the
    class of what every call of FN hands it (None when no call is found, or two calls hand different classes)."""
    param = _parameter_node(fn, name)
    typed = param.child_by_field_name("type") if param is not None else None
    tname = text(typed).lstrip(":").strip() if typed is not None else ""
    if tname.isidentifier():
        return link._class(m, tname)
    index = plain_parameters(fn).get(name)
    if index is None or depth > _DEPTH:
        return None
    found = {}
    for cm, call in link.callers(fn) + table_calls(link, fn):
        args = call_args(call)
        got = class_of(link, cm, args[index], depth + 1) if index < len(args) else None
        if got is None:
            return None
        found[(got[0].path, got[1].node.id)] = got
    return next(iter(found.values())) if len(found) == 1 else None


def table_calls(link, fn: ts.Node) -> list:
    """(module, call) of the calls through a lookup table of functions that may call FN: `HANDLERS[name](a)`, or `h(a)`
    with `const h = HANDLERS[name]`, HANDLERS an object literal whose entry FN is (an index built on first use)."""
    index = link.memo.get("instance_of.tables")
    if index is None:
        index = link.memo["instance_of.tables"] = {}
        indexing, link._indexing = link._indexing, True  # (read without classes, as callers() is)
        try:
            for m in link.by_path.values():
                for call in m.nodes("call"):
                    for target in _table_targets(link, m, call):
                        index.setdefault(target.id, []).append((m, call))
        finally:
            link._indexing = indexing
    return index.get(fn.id, [])


def _table_targets(link, m, call: ts.Node) -> list[ts.Node]:
    callee = unawaited(call_function(call))
    if callee is not None and callee.type == "identifier" and bindings.shadowed(m, callee):
        callee = unawaited(bindings.value_of(m, callee))
    if callee is None or callee.type != "subscript_expression":
        return []
    table = unawaited(callee.child_by_field_name("object"))
    if table is not None and table.type == "identifier":
        table = unawaited(bindings.value_of(m, table))
    out = []
    for pair in object_pairs(table).values():
        value = unawaited(pair_value(pair))
        if value is not None and value.type in FUNCTION_TYPES:
            out.append(value)
        elif value is not None and value.type in {"identifier", "member_expression"}:
            hit = link.resolve(m, value)
            out += [hit[1]] if hit is not None else []
    return out


def _class_of(link, m, node: ts.Node, depth: int):
    if node.type == "new_expression":  # (a constructor named by a parameter or a local is not the module's class)
        ctor = strip_casts(node.child_by_field_name("constructor"))
        shadowed = ctor is not None and ctor.type == "identifier" and bindings.shadowed(m, ctor)
        return None if ctor is None or shadowed else link._class(m, text(ctor))
    if node.type == "identifier":
        return _name_class(link, m, node, depth)
    chain = member_chain(node) if node.type == "member_expression" else None
    if chain and len(chain) == 2 and chain[0] == "this":
        cls = enclosing(node, _CLASSES)
        return link._field_instance(m, cls, chain[1]) if cls is not None else None
    if node.type == "member_expression":  # `context().registry` of `{ registry: new Registry() }`: that member's
        key = text(node.child_by_field_name("property"))  # class, in every object the receiver may be
        held = _objects(link, m, node.child_by_field_name("object"), depth + 1)
        found = {}
        for omod, obj in held or ():
            pair = object_pairs(obj).get(key)
            got = class_of(link, omod, pair_value(pair), depth + 1) if pair is not None else None
            if got is None:
                return None
            found[(got[0].path, got[1].node.id)] = got
        return next(iter(found.values())) if len(found) == 1 else None
    if node.type != "call_expression":
        return None
    callee = unawaited(call_function(node))
    if callee is not None and callee.type == "member_expression" and text(callee.child_by_field_name("property")) == "get":
        held = _map_values(link, m, callee.child_by_field_name("object"), depth)
        if held is not None:
            return held
    hit = link.resolve(m, node)
    if hit is None:
        return None
    found = {}
    for value in returned(hit[1]):
        got = class_of(link, hit[0], value, depth + 1)
        if got is None:
            return None
        found[(got[0].path, got[1].node.id)] = got
    return next(iter(found.values())) if len(found) == 1 else None


def _objects(link, m, node: ts.Node | None, depth: int) -> list | None:
    """(module, object literal) of every value NODE may hold, when each is one: an object literal; a call of a
    function of the boundary (its returns); a module's variable (its initializer and what the module assigns to it,
    `let context = null; ... context = { registry: new Registry() }`, `null` aside); None when not known."""
    node = unawaited(node)
    if node is None or depth > _DEPTH:
        return None
    if node.type == "object":
        return [(m, node)]
    values: list = []
    if node.type == "call_expression":
        hit = link.resolve(m, node)
        if hit is None:
            return None
        values = [(hit[0], v) for v in returned(hit[1])]
    elif node.type == "identifier" and not bindings.shadowed(m, node):
        where = link.binding(m, text(node))
        if where is None or where[1] not in where[0].toplevel:
            return None
        mod, local = where
        words = dead.boundary_words(link)  # (an assignment in a function nothing calls never runs)
        values = [(mod, mod.toplevel[local])] + [(mod, a.child_by_field_name("right")) for a in mod.nodes("assign")
                                                 if a.type == "assignment_expression"
                                                 and text(a.child_by_field_name("left")) == local
                                                 and not _in_dead_function(a, words)]
    out = []
    for vmod, value in values:
        value = unawaited(value)
        if value is None or value.type in {"null", "undefined"}:
            continue
        held = _objects(link, vmod, value, depth + 1)
        if held is None:
            return None
        out += held
    return out or None


def _in_dead_function(node: ts.Node, words) -> bool:
    """Whether NODE is written in a function nothing of the boundary calls (dead.unreferenced_method)."""
    fn = next((a for a in ancestors(node) if a.type in FUNCTION_TYPES), None)
    return fn is not None and dead.unreferenced_method(fn, words)


def _name_class(link, m, ident: ts.Node, depth: int):
    if not bindings.shadowed(m, ident):
        return link._instance(m, text(ident))
    name = text(ident)
    for scope in ancestors(ident):  # (a closure's name is a parameter of a function around it: `handler: (args) =>
        if scope.type in FUNCTION_TYPES and _parameter_node(scope, name) is not None:  # manager.send(args.id)`)
            return parameter_class(link, m, scope, name, depth + 1)
        if scope.type in FUNCTION_TYPES and name in own_declarators(scope):
            break  # (a local of its own: read below)
    value = bindings.value_of(m, ident)
    return class_of(link, m, value, depth + 1) if value is not None else None


def _map_values(link, m, node: ts.Node | None, depth: int):
    """The class of every value a `Map` (a `new Map()` a name of M holds) is given by `name.set(key, value)` in M."""
    node = unawaited(node)
    if node is None or node.type != "identifier":
        return None
    made = unawaited(bindings.value_of(m, node))
    if made is None or made.type != "new_expression" or text(made.child_by_field_name("constructor")) != "Map" \
            or call_args(made):
        return None
    found = {}
    for call in m.nodes("call"):
        callee = unawaited(call_function(call))
        if callee is None or member_chain(callee) != (text(node), "set"):
            continue
        args = call_args(call)
        got = class_of(link, m, args[1], depth + 1) if len(args) == 2 else None
        if got is None:
            return None
        found[(got[0].path, got[1].node.id)] = got
    return next(iter(found.values())) if len(found) == 1 else None


def _parameter_node(fn: ts.Node, name: str) -> ts.Node | None:
    """The parameter of FN that is the plain name NAME (`client`, `client: Client`, `client = x`), or None."""
    params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
    if params is None:
        return None
    if params.type == "identifier":
        return params if text(params) == name else None
    for p in params.named_children:
        pattern = p.child_by_field_name("pattern") if p.type in {"required_parameter", "optional_parameter"} else p
        if pattern is not None and pattern.type == "identifier" and text(pattern) == name:
            return p
    return None
