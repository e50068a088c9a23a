"""What an expression stands for across modules, under bindings: a function's parameters bound to a call's
arguments, a loop's variable to one element (Frame). Follows identifiers to their initialisers through imports,
members of object literals and of class instances (field initialisers, methods), and the elements of lists."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

import tree_sitter as ts

from auditor.extract.bindings import value_of
from auditor.extract.program import Module
from auditor.extract.syntax import (FUNCTION_TYPES, parameter_pattern, call_args, callee_text, find, string_value, literal, member_chain, object_pairs, pair_value,
                                    strip_casts, text)

MAX_DEPTH = 4  # wrappers of wrappers followed


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
            found = self.class_member(module, text(node.child_by_field_name("constructor")), key,
                                      args=tuple((a, module) for a in call_args(node)))
            if found[0] is not None:
                return found
        return self._exported(node, module, key)

    def class_member(self, module: Module, name: str, key: str, depth: int = 0,
                     args: tuple[tuple[ts.Node, Module], ...] | None = None) -> tuple[ts.Node | None, Module]:
        """Member KEY of an instance of class NAME: a field's initialiser, a method, a `this.KEY = value` of its
        constructor (class fields as tsc compiles them), else the same of the class it extends. ARGS, the arguments
        the instance was constructed with (with their modules), when known: a constructor parameter stored in the
        field is that argument, and the arguments of `super(...)` are the base class's (`super(schema, {name})`)."""
        found = self.link._class(module, name) if self.link is not None and depth <= 8 else None
        if found is None:
            return None, module
        cmod, info = found
        if key in info.fields and info.fields[key].child_by_field_name("value") is not None:
            return info.fields[key].child_by_field_name("value"), cmod
        if key in info.methods:
            return info.methods[key], cmod
        ctor = info.methods.get("constructor")
        for node in find(ctor, {"assignment_expression"}) if ctor is not None else ():
            if member_chain(node.child_by_field_name("left")) == ("this", key):
                return self._argument(node.child_by_field_name("right"), cmod, ctor, args)
        heritage = next((c for c in info.node.named_children if c.type == "class_heritage"), None)
        base = next((c for c in heritage.named_children if c.type in {"identifier", "extends_clause"}), None) \
            if heritage is not None else None
        if base is not None and base.type == "extends_clause":
            base = base.child_by_field_name("value") or (base.named_children[0] if base.named_children else None)
        if base is None:
            return None, module
        # What the base class is constructed with: the arguments of super(...), read under this instance's own
        # arguments; a class without a constructor hands its arguments on as they are.
        up = args
        if ctor is not None:
            call = next((c for c in find(ctor, {"call_expression"})
                         if c.child_by_field_name("function") is not None and c.child_by_field_name("function").type == "super"), None)
            up = tuple(self._argument(a, cmod, ctor, args) for a in call_args(call)) if call is not None else None
        return self.class_member(cmod, text(base), key, depth + 1, up)

    def _argument(self, node: ts.Node | None, module: Module, ctor: ts.Node,
                  args: tuple[tuple[ts.Node, Module], ...] | None) -> tuple[ts.Node | None, Module]:
        """NODE of a constructor, as this instance has it: a parameter of the constructor (or a member of one) is the
        argument the instance was constructed with; anything else is itself."""
        value = strip_casts(node)
        chain = member_chain(value) if value is not None else None
        names = parameters(ctor) if args is not None and chain else {}
        if not chain or chain[0] not in names:
            return node, module
        index, path = names[chain[0]]
        if index >= len(args):
            return None, module
        found, where = args[index]
        for k in (*path, *chain[1:]):
            found, where = self.member(found, where, k, None, 0)
            if found is None:
                break
        return found, where

    def _exported(self, node: ts.Node, module: Module, key: str) -> tuple[ts.Node | None, Module]:
        """Export KEY of the module a namespace stands for: `import * as ns` or `const ns = require("./x")`."""
        if self.link is None:
            return None, module
        target = None
        if node.type == "identifier":
            b = self.link.imports.get(module.path, {}).get(text(node))
            target = b.module if b is not None and b.name == "*" else None
        elif node.type == "call_expression" and callee_text(node) == "require" and call_args(node):
            spec = string_value(call_args(node)[0])
            target = self.link.resolve_spec(module.path, spec) if spec is not None else None
        found = self.link.exported(target, key) if target else None
        if found is None:
            return None, module
        mod, local = found
        value = mod.functions.get(local) or mod.toplevel.get(local)
        return (value, mod) if value is not None else (None, module)

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

    def string(self, node: ts.Node | None, module: Module, depth: int = 0) -> str | None:
        """The string NODE stands for, through imports and members of constant objects (`TOOL_NAMES.search` with
        TOOL_NAMES imported), or None."""
        node, module = self.definition(node, module)
        if node is None or depth > 8:
            return None
        value = literal(node, module.toplevel)
        if isinstance(value, str):
            return value
        if node.type == "property_identifier":  # a key of an object (Object.entries)
            return text(node)
        if node.type == "member_expression":
            enum = module.enums.get(text(node))
            if enum is not None:
                return enum
            holder, hmod = self.definition(node.child_by_field_name("object"), module)
            prop = node.child_by_field_name("property")
            if holder is not None and holder.type == "object" and prop is not None:
                pair = object_pairs(holder).get(text(prop))
                return self.string(pair_value(pair), hmod, depth + 1) if pair is not None else None
            if holder is not None and holder.type == "identifier" and prop is not None:  # an imported enum
                return hmod.enums.get(f"{text(holder)}.{text(prop)}")
        return None

    def frontier(self, node: ts.Node | None, module: Module, frame: Frame | None) -> tuple[ts.Node | None, Module]:
        """The argument NODE comes from where the bindings of FRAME's chain end: the expression a caller or a loop of
        its own must give a value to (`tool` of `tool.installTo(server)`, for `this.name` in installTo)."""
        node = strip_casts(node)
        while frame is not None and node is not None:
            if module is frame.module and frame.scope.start_byte <= node.start_byte < frame.scope.end_byte:
                hit = _lookup(node, frame)
                if hit is None:
                    return node, module
                arg = frame.args[hit[0]] if hit[0] < len(frame.args) else None
                node, module, frame = strip_casts(arg), frame.caller, frame.outer
                continue
            frame = frame.outer
        return node, module

    def function_of(self, node: ts.Node | None, module: Module, frame: Frame | None, depth: int = 0
                    ) -> tuple[ts.Node | None, Module]:
        """The function a callback expression stands for: a function, a name or a member bound to one, an entry of a
        table picked by a known key (`HANDLERS[tool.name]`), or the function a wrapper call is handed
        (`wrap(tool.name, handler)`: its last argument that is one); (None, module) when none is known."""
        if node is None or depth > 8:
            return None, module
        node, module = self.bound(node, module, frame)
        node, module = self.definition(node, module)
        if node is None:
            return None, module
        if node.type in FUNCTION_TYPES:
            return node, module
        if node.type == "method_definition":
            return node, module
        if node.type == "identifier" and node.parent is not None:  # a function declaration of the module
            fn = module.functions.get(text(node))
            if fn is None and self.link is not None:
                where = self.link.binding(module, text(node))
                fn = where[0].functions.get(where[1]) if where is not None else None
                module = where[0] if fn is not None else module
            return (fn, module) if fn is not None else (None, module)
        if node.type == "subscript_expression":
            key = self.string(*self.bound(node.child_by_field_name("index"), module, frame))
            if key is not None:
                value, vmod = self.member(node.child_by_field_name("object"), module, key, frame, depth + 1)
                return self.function_of(value, vmod, frame, depth + 1)
            return None, module
        if node.type == "member_expression":
            prop = node.child_by_field_name("property")
            value, vmod = self.member(node.child_by_field_name("object"), module, text(prop), frame, depth + 1)
            return self.function_of(value, vmod, frame, depth + 1) if value is not None else (None, module)
        if node.type == "call_expression":
            # A factory of the boundary that returns a function: that function (it closes over what it is handed).
            made = self._returned_function(node, module)
            if made[0] is not None:
                return made
            # A higher-order wrapper: the function it is handed.
            for arg in reversed(call_args(node)):
                fn, fmod = self.function_of(arg, module, frame, depth + 1)
                if fn is not None:
                    return fn, fmod
        return None, module

    def handed(self, node: ts.Node | None, module: Module, frame: Frame | None) -> tuple[tuple[Module, ts.Node], ...]:
        """The functions a callback made by a call (`timed(name, handler)`, `createHandler("GET", handleGet)`) is
        handed: what the made function runs."""
        node, module = self.definition(*self.bound(node, module, frame))
        if node is None or node.type != "call_expression":
            return ()
        out = []
        for arg in call_args(node):
            fn, fmod = self.function_of(arg, module, frame)
            if fn is not None:
                out.append((fmod, fn))
        return tuple(out)

    def _returned_function(self, call: ts.Node, module: Module) -> tuple[ts.Node | None, Module]:
        hit = self.link.resolve(module, call) if self.link is not None else None
        if hit is None:
            return None, module
        fmod, fn = hit[0], hit[1]
        body = fn.child_by_field_name("body")
        if body is not None and body.type != "statement_block":
            value = strip_casts(body)
            return (value, fmod) if value is not None and value.type in FUNCTION_TYPES else (None, module)
        for ret in (n for n in (body.named_children if body is not None else []) if n.type == "return_statement"):
            value = strip_casts(ret.named_children[0]) if ret.named_children else None
            if value is not None and value.type in FUNCTION_TYPES:
                return value, fmod
        return None, module

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
    if node.type in {"identifier", "shorthand_property_identifier", "this"}:
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
        pattern = parameter_pattern(p)
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
