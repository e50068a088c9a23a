"""The class a name local to a function holds where a method is called on it, so that a use of a value handed to
the method can be followed into it: `const s = new Store()`, `const s: Store = ...` or a parameter `s: Store`, a
factory's `new` (`const s = makeStore()`), and a member of the object a function returns (`const { memory } =
createServices(id)` with `return { memory: new MemoryService(...) }`). Read by analyse/uses.py only, after
`Linker.resolve`, which reads a parameter's or a local's class by data flow itself (extract/instance_of.py: declared
types, every caller's argument, factories, Maps); what this adds there is a member destructured from a function's
result and a method inherited from a base class."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract.frames import returned
from auditor.extract.syntax import (FUNCTION_TYPES, ancestors, call_function, class_base, enclosing, enclosing_function,
                                    find, member_chain, object_pairs, pair_value, strip_casts, text, unawaited)


def method_of(link, m, call: ts.Node) -> tuple | None:
    """(module, method node, "Class.method") of `name.method(...)` where NAME, local to a function around the call,
    holds an instance of one class of the boundary, or of `this.method(...)` / `this.field.method(...)` where the
    method is inherited (`class SessionManager extends SessionManagerOperations`); None otherwise."""
    callee = call_function(call) if call.type == "call_expression" else None
    chain = member_chain(callee) if callee is not None else None
    if link is None or not chain or len(chain) not in (2, 3):
        return None
    if chain[0] == "this":
        cls = enclosing(call, {"class_declaration", "abstract_class_declaration", "class"})
        found = None if cls is None else (m, link.class_at(m, cls)) if len(chain) == 2 \
            else link._field_instance(m, cls, chain[1])
    else:
        obj = strip_casts(callee.child_by_field_name("object"))
        found = local_class(link, m, obj) if len(chain) == 2 and obj is not None and obj.type == "identifier" else None
    return _inherited(link, found[0], found[1], chain[-1]) if found is not None else None


def static_method(link, m, call: ts.Node) -> tuple | None:
    """(module, method node) of `Class.method(...)` / `ns.Class.method(...)` where Class is a class of the boundary
    (a static method, or one inherited); None otherwise."""
    callee = call_function(call) if call.type == "call_expression" else None
    chain = member_chain(callee) if callee is not None else None
    found = link._class(m, ".".join(chain[:-1])) if link is not None and chain and len(chain) in (2, 3) else None
    hit = _inherited(link, found[0], found[1], chain[-1]) if found is not None else None
    return hit[:2] if hit is not None else None


def _inherited(link, m, info, name: str, depth: int = 0) -> tuple | None:
    """(module, method, "Class.method") of method NAME of the class INFO, or of the class it extends, up the chain."""
    if name in info.methods:
        return m, info.methods[name], f"{info.name}.{name}"
    base = class_base(info.node)
    parent = link._class(m, text(base)) if base is not None and depth < 8 else None
    return _inherited(link, parent[0], parent[1], name, depth + 1) if parent is not None else None


def local_class(link, m, ident: ts.Node):
    """(module, class info) of what IDENT holds, declared in a function around it; None when that is not known."""
    name = text(ident)
    for scope in ancestors(ident):
        if scope.type not in FUNCTION_TYPES:
            continue
        params = scope.child_by_field_name("parameters")
        for prm in params.named_children if params is not None else ():
            pat = prm.child_by_field_name("pattern") if prm.type in {"required_parameter", "optional_parameter"} else prm
            if pat is not None and pat.type == "identifier" and text(pat) == name:
                return _typed(link, m, prm.child_by_field_name("type"))
        body = scope.child_by_field_name("body")
        for d in find(body, {"variable_declarator"}) if body is not None else ():
            if enclosing_function(d) != scope or d.start_byte > ident.start_byte:
                continue
            pat = d.child_by_field_name("name")
            if pat is not None and pat.type == "identifier" and text(pat) == name:
                return _typed(link, m, d.child_by_field_name("type")) or _made(link, m, d.child_by_field_name("value"))
            key = _key_bound(pat, name)
            if key is not None:
                return _member_of_result(link, m, d.child_by_field_name("value"), key)
    return None


def _typed(link, m, annotation: ts.Node | None):
    """The class a type annotation (`: Store`) names, when it is a class of the boundary."""
    name = text(annotation).lstrip(":").strip() if annotation is not None else ""
    return link._class(m, name) if name.isidentifier() else None


def _made(link, m, value: ts.Node | None):
    """The class of `new C(...)`, or of what a factory of the boundary always returns (`makeStore()`)."""
    value = unawaited(value)
    if value is None:
        return None
    if value.type == "new_expression":
        return link._class(m, text(value.child_by_field_name("constructor")))
    built = link._factory_class(m, value) if value.type == "call_expression" else None
    return link._class(*built) if built is not None else None


def _key_bound(pattern: ts.Node | None, name: str) -> str | None:
    """The key of an object pattern that binds NAME (`{ memory }`, `{ memory: mem }`)."""
    if pattern is None or pattern.type != "object_pattern":
        return None
    for c in pattern.named_children:
        if c.type == "shorthand_property_identifier_pattern" and text(c) == name:
            return name
        if c.type == "pair_pattern" and text(c.child_by_field_name("value")) == name:
            return text(c.child_by_field_name("key"))
    return None


def _member_of_result(link, m, value: ts.Node | None, key: str):
    """The class of member KEY of what the function VALUE calls returns, when each return of it that is an object
    literal (written there, or held by a local) holds an instance of that one class under KEY; a return of another
    value (`if (cached) return cached`: a cache of what it made) is not read."""
    value = unawaited(value)
    hit = link.resolve(m, value) if value is not None and value.type == "call_expression" else None
    if hit is None:
        return None
    fmod, fn = hit[0], hit[1]
    found = {}
    for ret in returned(fn):
        ret = strip_casts(ret)
        if ret is not None and ret.type == "identifier":
            ret = _local_value(fn, text(ret))
        if ret is None or ret.type != "object":
            continue
        pair = object_pairs(ret).get(key)
        got = _held(link, fmod, fn, pair_value(pair)) if pair is not None else None
        if got is None:
            return None
        found[(got[0].path, got[1].node.id)] = got
    return next(iter(found.values())) if len(found) == 1 else None


def _held(link, m, fn: ts.Node, node: ts.Node | None):
    """The class of an object member's value: a `new`, a local of FN holding one, or an instance of the module."""
    node = strip_casts(node)
    if node is not None and node.type in {"identifier", "shorthand_property_identifier"}:
        local = _local_value(fn, text(node))
        return _made(link, m, local) if local is not None else link._instance(m, text(node))
    return _made(link, m, node)


def _local_value(fn: ts.Node, name: str) -> ts.Node | None:
    body = fn.child_by_field_name("body")
    for d in find(body, {"variable_declarator"}) if body is not None else ():
        if enclosing_function(d) == fn and text(d.child_by_field_name("name")) == name:
            return strip_casts(d.child_by_field_name("value"))
    return None
