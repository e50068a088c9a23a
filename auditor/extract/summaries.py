"""Registrations through the server's own layer. A function whose parameters flow into an SDK registration is itself
a registration: it is instantiated at each call site, with its parameters bound to the call's arguments (a member of
a parameter to that member of the argument), transitively and across modules. A registration inside a loop over a
list of tool objects (`for (const t of TOOLS)`, `TOOLS.forEach(t => ...)`, `Object.entries(MAP)`) is one registration
per element. Tool objects may be object literals, class instances (their field initialisers and methods), or an
object literal handed to a helper (`defineTool({...})`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

import tree_sitter as ts

from auditor.extract import highlevel
from auditor.extract.bindings import value_of
from auditor.extract.program import Module
from auditor.extract.syntax import (FUNCTION_TYPES, ancestors, call_args, callee_text, member_chain, object_pairs,
                                    pair_value, strip_casts, text)

MAX_DEPTH = 4  # wrappers of wrappers followed
MAX_SITES = 2000  # instances of one registration (a loop inside a wrapper called in a loop)
_LOOP_METHODS = {"forEach", "map", "flatMap"}


@dataclass(frozen=True, slots=True)
class Frame:
    """Names of one scope bound to values: a function's parameters to a call's arguments, or a loop's variable to
    one element. A name maps to (argument index, member path)."""

    scope: ts.Node
    module: Module
    names: dict[str, tuple[int, tuple[str, ...]]]
    args: tuple[ts.Node | None, ...]
    caller: Module
    site: ts.Node  # the call (or the loop's element) that gives the values, in `caller`
    outer: "Frame | None" = None  # the frame of the scope the site is written in, when that is bound too


class Values:
    """What an expression stands for across modules, under a chain of frames."""

    def __init__(self, link) -> None:
        self.link = link

    def definition(self, node: ts.Node | None, module: Module) -> tuple[ts.Node | None, Module]:
        """An identifier's initializer (in its module, through imports), a helper call's object argument, or itself."""
        for _ in range(8):
            node = strip_casts(node)
            if node is None:
                return None, module
            if node.type in {"identifier", "shorthand_property_identifier"}:
                value = value_of(module, node)
                if value is None and self.link is not None:
                    where = self.link.binding(module, text(node))
                    if where is not None and where[0] is not module:
                        module, value = where[0], where[0].toplevel.get(where[1])
                if value is None:
                    return node, module
                node = value
                continue
            if node.type == "call_expression":  # defineTool({...}): a helper handed the tool's object
                args = call_args(node)
                if len(args) == 1 and strip_casts(args[0]) is not None and strip_casts(args[0]).type == "object":
                    node = args[0]
                    continue
            if node.type == "await_expression" and node.named_children:
                node = node.named_children[0]
                continue
            return node, module
        return node, module

    def member(self, node: ts.Node | None, module: Module, key: str, frame: Frame | None, depth: int
               ) -> tuple[ts.Node | None, Module]:
        """The member KEY of what NODE stands for: an object literal's entry, a class instance's field or method."""
        node, module = self.bound(node, module, frame, depth)
        node, module = self.definition(node, module)
        if node is None:
            return None, module
        if node.type == "object":
            pair = object_pairs(node).get(key)
            if pair is None:
                return None, module
            return self.bound(pair_value(pair), module, frame, depth + 1)
        if node.type == "new_expression" and self.link is not None:
            found = self.link._class(module, text(node.child_by_field_name("constructor")))
            if found is not None:
                cmod, info = found
                if key in info.fields:
                    return info.fields[key].child_by_field_name("value"), cmod
                if key in info.methods:
                    return info.methods[key], cmod
        return None, module

    def bound(self, node: ts.Node | None, module: Module, frame: Frame | None, depth: int = 0
              ) -> tuple[ts.Node | None, Module]:
        """NODE as its value under FRAME: a bound name (or a member of one) is replaced by the argument it stands for."""
        node = strip_casts(node)
        while frame is not None and node is not None and depth <= 3 * MAX_DEPTH:
            if module is frame.module and frame.scope.start_byte <= node.start_byte < frame.scope.end_byte:
                hit = _lookup(node, frame)
                if hit is None:
                    return node, module
                index, path = hit
                arg = frame.args[index] if index < len(frame.args) else None
                if arg is None:
                    return None, frame.caller
                value, where = self.bound(arg, frame.caller, frame.outer, depth + 1)
                for key in path:
                    value, where = self.member(value, where, key, frame.outer, depth + 1)
                    if value is None:
                        break
                return value, where
            frame = frame.outer
        return node, module

    def binder(self, frame: Frame) -> Callable[[ts.Node | None, Module], tuple[ts.Node | None, Module]]:
        return lambda node, module: self.bound(node, module, frame)

    def elements(self, node: ts.Node | None, module: Module, frame: Frame | None, depth: int = 0
                 ) -> Iterator[tuple[tuple[ts.Node | None, ...], Module]]:
        """The elements of a list of tool objects, each as a tuple (one value; key and value for Object.entries)."""
        node, module = self.bound(node, module, frame)
        node, module = self.definition(node, module)
        if node is None or depth > 6:
            return
        if node.type == "array":
            for child in node.named_children:
                if child.type == "spread_element" and child.named_children:
                    yield from self.elements(child.named_children[0], module, None, depth + 1)
                elif child.type != "comment":
                    yield (child,), module
            return
        if node.type == "call_expression":
            callee = member_chain(node.child_by_field_name("function")) or ()
            args = call_args(node)
            if callee in {("Object", "values"), ("Object", "entries"), ("Object", "keys")} and len(args) == 1:
                obj, omod = self.definition(*self.bound(args[0], module, frame))
                for key, pair in object_pairs(obj).items() if obj is not None and obj.type == "object" else ():
                    k = pair.child_by_field_name("key") if pair.type == "pair" else pair
                    yield {"values": (pair_value(pair),), "entries": (k, pair_value(pair)), "keys": (k,)}[callee[1]], omod
            elif len(callee) >= 2 and callee[-1] == "concat":
                yield from self.elements(node.child_by_field_name("function").child_by_field_name("object"), module,
                                         frame, depth + 1)
                for a in args:
                    yield from self.elements(a, module, frame, depth + 1)


def _lookup(node: ts.Node, frame: Frame) -> tuple[int, tuple[str, ...]] | None:
    if node.type in {"identifier", "shorthand_property_identifier"}:
        return frame.names.get(text(node))
    if node.type == "member_expression":
        chain = member_chain(node)
        if chain and chain[0] in frame.names:
            index, path = frame.names[chain[0]]
            return index, path + tuple(chain[1:])
    return None


def parameters(fn: ts.Node) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Parameter name -> (index, member path): plain names, and names destructured from an object or array."""
    params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
    if params is None:
        return {}
    if params.type == "identifier":
        return {text(params): (0, ())}
    out: dict[str, tuple[int, tuple[str, ...]]] = {}
    for i, p in enumerate(c for c in params.named_children if c.type != "comment"):
        pattern = p.child_by_field_name("pattern") if p.type in {"required_parameter", "optional_parameter"} else p
        out.update({name: (i, path) for name, path in _pattern(pattern)})
    return out


def _pattern(pattern: ts.Node | None, path: tuple[str, ...] = ()) -> list[tuple[str, tuple[str, ...]]]:
    if pattern is None:
        return []
    if pattern.type == "identifier":
        return [(text(pattern), path)]
    if pattern.type == "assignment_pattern":
        return _pattern(pattern.child_by_field_name("left"), path)
    out = []
    if pattern.type == "object_pattern":
        for c in pattern.named_children:
            if c.type == "shorthand_property_identifier_pattern":
                out.append((text(c), path + (text(c),)))
            elif c.type == "object_assignment_pattern":
                left = c.child_by_field_name("left")
                if left is not None:
                    out.append((text(left), path + (text(left),)))
            elif c.type == "pair_pattern":
                key = c.child_by_field_name("key")
                out += _pattern(c.child_by_field_name("value"), path + (text(key),)) if key is not None else []
    return out


def _array_names(pattern: ts.Node | None) -> dict[str, tuple[int, tuple[str, ...]]]:
    """`[name, tool]` of a loop over Object.entries: each name bound to that element of the tuple."""
    if pattern is None or pattern.type != "array_pattern":
        return {}
    out = {}
    for i, c in enumerate(c for c in pattern.named_children if c.type != "comment"):
        out.update({n: (i, p) for n, p in _pattern(c)})
    return out


class Expander:
    """Finds the registrations whose name comes from a parameter or a loop, and instantiates them."""

    def __init__(self, modules: list[Module], link, vocab: dict) -> None:
        self.modules, self.link, self.vocab = modules, link, vocab
        self.values = Values(link)
        self._calls: dict[int, list[tuple[Module, ts.Node]]] | None = None

    def calls_of(self, fn: ts.Node) -> list[tuple[Module, ts.Node]]:
        """Every call of the boundary that resolves to FN (index built on first use)."""
        if self._calls is None:
            self._calls = {}
            for m in self.modules:
                for call in m.nodes("call"):
                    hit = self.link.resolve(m, call) if self.link is not None else None
                    if hit is not None:
                        self._calls.setdefault(hit[1].id, []).append((m, call))
        return self._calls.get(fn.id, [])

    def frames(self, node: ts.Node, module: Module, outer: Frame | None, depth: int = 0) -> Iterator[Frame]:
        """The frames that bind NODE's name: for each enclosing function or loop that binds it, each instantiation."""
        if depth > MAX_DEPTH:
            return
        chain = member_chain(strip_casts(node)) if node is not None else None
        if not chain:
            return
        root = chain[0]
        for scope in ancestors(node):
            if scope.type in FUNCTION_TYPES:
                names = parameters(scope)
                if root not in names:
                    continue
                loop = _loop_call(scope)
                if loop is not None:  # TOOLS.forEach((t) => server.tool(t.name, ...))
                    holder = loop.child_by_field_name("function").child_by_field_name("object")
                    for element, emod in self.values.elements(holder, module, outer):
                        yield Frame(scope=scope, module=module, names=names, args=element[-1:], caller=emod,
                                    site=element[-1], outer=outer)
                    return
                for cmod, call in self.calls_of(scope):
                    yield Frame(scope=scope, module=module, names=names, args=tuple(call_args(call)), caller=cmod,
                                site=call, outer=outer)
                return
            if scope.type == "for_in_statement" and text(scope.child_by_field_name("operator")) == "of":
                left = scope.child_by_field_name("left")
                names = {text(left): (0, ())} if left is not None and left.type == "identifier" else _array_names(left)
                if root not in names:
                    continue
                tuples = left is not None and left.type == "array_pattern"  # [key, value] of Object.entries
                for element, emod in self.values.elements(scope.child_by_field_name("right"), module, outer):
                    yield Frame(scope=scope, module=module, names=names, args=element if tuples else element[-1:],
                                caller=emod, site=element[-1], outer=outer)
                return

    def expand(self, reg: highlevel.Registration, resolve_of) -> list[tuple]:
        """(tool, dispatch, registration, implementations) of every instantiation of REG that names its tool (empty
        when none does); implementations: the functions its call sites and elements hand over, traced as tool code."""
        rule = self.vocab["high_level"]["registrations"][reg.method]
        args = tuple(call_args(reg.node))
        name_node = _name_node(rule, args, self.vocab, reg.module)
        if name_node is None:
            return []
        out: list[tuple] = []
        todo = [(f, 1) for f in self.frames(name_node, reg.module, None)]
        while todo and len(out) < MAX_SITES:
            frame, depth = todo.pop(0)
            bind = self.values.binder(frame)
            site_module, site_call = _outermost(frame).caller, _outermost(frame).site
            site = highlevel.Site(module=reg.module, call=reg.node, rule=rule, method=reg.method, args=args, bind=bind,
                                  at=(site_module, site_call), via=_via(frame))
            result = highlevel.read(site, self.vocab, resolve_of(reg.module), self.link)
            if result[2].name is not None:
                out.append((*result, tuple(self.implementations(frame))))
                continue
            # Still not a literal: the call site may forward a name of its own (a wrapper of a wrapper, a loop).
            value, where = bind(name_node, reg.module)
            if value is not None and depth < MAX_DEPTH:
                todo += [(_attach(frame, g), depth + 1) for g in self.frames(value, where, None, depth)]
        return out


    def implementations(self, frame: Frame | None) -> Iterator[tuple[Module, ts.Node]]:
        """The functions handed to the registration through FRAME's chain: function arguments, the functions of an
        object argument, the methods of a class instance."""
        while frame is not None:
            for arg in frame.args:
                node, module = self.values.definition(arg, frame.caller)
                if node is None:
                    continue
                if node.type in FUNCTION_TYPES:
                    yield module, node
                elif node.type == "object":
                    for pair in object_pairs(node).values():
                        value, vmod = self.values.definition(pair_value(pair) if pair.type == "pair" else pair, module)
                        if pair.type == "method_definition":
                            value, vmod = pair, module
                        if value is not None and value.type in FUNCTION_TYPES:
                            yield vmod, value
                elif node.type == "new_expression" and self.link is not None:
                    found = self.link._class(module, text(node.child_by_field_name("constructor")))
                    if found is not None:
                        yield from ((found[0], m) for k, m in found[1].methods.items() if k != "constructor")
            frame = frame.outer


def _loop_call(fn: ts.Node) -> ts.Node | None:
    """The `X.forEach(fn)` / `X.map(fn)` call that FN is the callback of, if it is."""
    args = fn.parent
    call = args.parent if args is not None and args.type == "arguments" else None
    if call is None or call.type != "call_expression":
        return None
    callee = call.child_by_field_name("function")
    if callee is None or callee.type != "member_expression":
        return None
    return call if text(callee.child_by_field_name("property")) in _LOOP_METHODS else None


def _name_node(rule: dict, args: tuple[ts.Node, ...], vocab: dict, module: Module) -> ts.Node | None:
    if rule["signature"] == "object":
        spec = strip_casts(args[0])
        if spec is not None and spec.type == "object":
            pair = object_pairs(spec).get(vocab["high_level"]["object"]["name"])
            return pair_value(pair) if pair is not None else None
        return spec
    return args[0] if args else None


def _outermost(frame: Frame) -> Frame:
    while frame.outer is not None:
        frame = frame.outer
    return frame


def _attach(frame: Frame, outer: Frame) -> Frame:
    """FRAME with OUTER bound beyond the end of its chain (the frame of the scope its outermost site is in)."""
    from dataclasses import replace

    return replace(frame, outer=outer if frame.outer is None else _attach(frame.outer, outer))


def _via(frame: Frame) -> str:
    """How the registration is reached, for its method: `registerSearch() -> ` for a wrapper, `loop -> ` for a loop."""
    parts = []
    while frame is not None:
        wrapper = frame.scope.type in FUNCTION_TYPES and _loop_call(frame.scope) is None
        parts.append(f"{callee_text(frame.site)}()" if wrapper and frame.site.type == "call_expression" else "loop")
        frame = frame.outer
    return " -> ".join(reversed(parts)) + " -> "
