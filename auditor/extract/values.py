"""What an expression stands for across modules, under bindings: a function's parameters bound to a call's
arguments, a loop's variable to one element (frames.Frame). Follows identifiers to their initialisers through imports,
members of object literals and of class instances (field initialisers, methods, constructor arguments, statics); the
elements of lists and the values of calls are lists.py's part of the same class."""

from __future__ import annotations

from typing import Callable

import tree_sitter as ts

from auditor.extract import envdefault, strings, taken, tslib, webpack
from auditor.extract.bindings import value_of
from auditor.extract.frames import (MAX_DEPTH, REST, Frame, _lookup, _parameter_of_scope, destructured, loop_element,
                                    parameter_default, parameter_property, parameters, returned)
from auditor.extract.held import possible
from auditor.extract.lists import Lists, _bundled_namespace, _placeholder_list, shorthand_key
from auditor.extract.program import Module, class_name_of, holding_name
from auditor.extract.syntax import (CLASS_TYPES, FUNCTION_TYPES, NOT_LITERAL, ancestors, call_args, call_function,
                                    callee_text, class_base, enclosing, enclosing_function, find, literal, member_chain,
                                    nullish, object_pairs, pair_value, plus_chain, string_value, strip_casts, text,
                                    unescape)

# Globals of the language whose functions are not helpers handed a tool's object (`Object.values({...})`).
_CLASSES = CLASS_TYPES
_BUILTINS = frozenset({"Object", "Array", "JSON", "Reflect", "Promise", "Math", "String", "Number", "Boolean",
                       "Symbol", "Map", "Set", "WeakMap", "structuredClone"})
_OWN_THIS = FUNCTION_TYPES - {"arrow_function"}  # the functions that bind `this` (an arrow function's is its outer one's)
# Nested member lookups one outermost lookup may make (framed_member): on six of the corpus's largest servers the
# most any took was 261 (bench/README.md, session 42); a bundle whose functions return calls of functions with
# several returns took millions.
MAX_MEMBER_STEPS = 2000
MAX_HANDING = 12  # `_hands_back` questions nested in one another


def _member_assignments(module: Module) -> dict[tuple[str, str], ts.Node]:
    """`(NAME, KEY)` -> the value of the first `NAME.KEY = value` the module writes: read once per module, not once
    per static member looked up (a bundle writes thousands of assignments)."""
    hit = module.memo.get("member_assignments")
    if hit is None:
        hit = module.memo["member_assignments"] = {}
        for node in module.nodes("assign"):
            if node.type == "assignment_expression":
                chain = member_chain(node.child_by_field_name("left"))
                right = node.child_by_field_name("right")
                if chain is not None and len(chain) == 2 and right is not None:
                    hit.setdefault(chain, right)
    return hit


def _typeof_of(node: ts.Node | None) -> ts.Node | None:
    """The operand of `typeof X`, or None."""
    if node is None or node.type != "unary_expression" or text(node.child_by_field_name("operator")) != "typeof":
        return None
    return node.child_by_field_name("argument")


_KINDS = {**{t: "function" for t in FUNCTION_TYPES}, "class": "function", "object": "object", "array": "object",
          "new_expression": "object", "null": "object", "string": "string", "template_string": "string",
          "number": "number", "true": "boolean", "false": "boolean"}


def _kind_of(value: ts.Node | None) -> str | None:
    """What `typeof` says of a value written as VALUE (a function, an object or list literal, a construction, a
    string, a number, a boolean); None when the written value does not say."""
    return _KINDS.get(value.type) if value is not None else None


class Values(Lists):
    """What an expression stands for across modules, under a chain of frames."""

    def __init__(self, link) -> None:
        self.link = link
        self._members: dict[str, list[ts.Node]] | None = None
        self._methods: dict[str, list[tuple[str, ts.Node]]] | None = None
        self._chains: dict[str, dict[tuple[str, ...], ts.Node]] = {}
        self._reading: set[int] = set()  # the calls `_item` is reading the list of (a cycle reads none again)
        self._member_steps = -1  # framed_member() lookups made by the outermost one running (-1: none runs)
        self._handing: set[int] = set()  # the calls `_hands_back` is answering for, nested
        self._handed_memo: dict[tuple[int, tuple[str, ...]], tuple[ts.Node, ts.Node | None]] = {}  # Lists._handed:
        # (function, member chain of its parameter) -> (the function, the one function its callers hand there)
        self.refused: set[tuple[str, int, int]] = set()  # (path, bytes) of each object a filter read refuses

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
                    if where is not None and where[0] is not module and where[1] != "*":
                        value = self.link.value(where[0], where[1])  # (CommonJS, `export default [...]`)
                        if value is None and where[1] != text(node):  # a default or renamed import of a function: it;
                            value = where[0].functions.get(where[1])  # else the name where it is written (the other
                        module = where[0] if value is not None or where[1] == text(node) else module  # module's is not)
                if value is None:
                    return node, module
                node = value
                continue
            if node.type == "call_expression" and (member_chain(node.child_by_field_name("function")) or ("",))[0] \
                    not in _BUILTINS:  # defineTool({...}): a helper handed the tool's object
                args = call_args(node)
                if len(args) == 1 and strip_casts(args[0]) is not None and strip_casts(args[0]).type == "object" \
                        and self._hands_back(node, module):
                    node = args[0]
                    continue
            spec = tslib.required_spec(node) if node.type == "call_expression" and self.link is not None else None
            target = self.link.resolve_spec(module.path, spec) if spec is not None else None
            if target is not None and self.link.value(self.link.by_path[target], "") is not None:
                module = self.link.by_path[target]  # `require("./tool")`: what that module's `module.exports` is
                node = self.link.value(module, "")
                continue
            if node.type == "await_expression" and node.named_children:
                node = node.named_children[0]
                continue
            if node.type == "sequence_expression" and node.named_children:  # `(init_x(), x_exports)`: its last
                node = node.named_children[-1]
                continue
            if node.type == "subscript_expression":  # `CONFIGS[0]`, `TABLE["x"]` of a constant list or record
                item = self._item(node, module)
                if item[0] is not None:
                    node, module = item
                    continue
                return node, module
            chain = member_chain(node) if node.type == "member_expression" else None
            if chain and len(chain) == 2 and chain[0] == "exports" and self.link is not None:  # CommonJS: the value
                value = self.link.assigned.get(module.path, {}).get(chain[1])  # this module assigns `exports.x = {...}`
                if value is not None:
                    node = value
                    continue
            if chain and len(chain) == 2 and self.link is not None:  # `defs_1.listUsers` of a namespace: the export
                found = self._exported(node.child_by_field_name("object"), module, chain[1])
                if found[0] is not None:
                    node, module = found
                    continue
                found = self._entry(node, module, chain[1])
                if found[0] is not None:  # `all.read` of `const all = { read: new ReadTool() }`: that entry
                    node, module = found
                    continue
            return node, module
        return node, module

    def _holder(self, node: ts.Node, module: Module) -> tuple[ts.Node | None, Module]:
        """What the object of a member or subscript NODE stands for; (None, MODULE) while NODE is being read already
        (values made of each other: `let r = e.all(t)`, `e = r[0]`, a minifier's shadowing names)."""
        if node.id in self._reading:
            return None, module
        self._reading.add(node.id)
        try:
            holder, hmod = self.definition(node.child_by_field_name("object"), module)
        finally:
            self._reading.discard(node.id)
        return strip_casts(holder), hmod

    def _entry(self, node: ts.Node, module: Module, key: str) -> tuple[ts.Node | None, Module]:
        """The entry KEY of the object literal a name stands for (`all.read` of `const all = { read: ... }`, written
        out, no spread in it), or (None, MODULE)."""
        holder, hmod = self._holder(node, module)
        if holder is None or holder.type != "object" or any(c.type == "spread_element" for c in holder.named_children):
            return None, module
        pair = object_pairs(holder).get(key)
        return (pair_value(pair), hmod) if pair is not None and pair.type == "pair" else (None, module)

    def _item(self, node: ts.Node, module: Module) -> tuple[ts.Node | None, Module]:
        """The item a subscript with a literal index names (`CONFIGS[0]`: the first element of a constant list written
        out, no spread before it; `TABLE["x"]`: that entry of an object literal), or (None, MODULE)."""
        index = strip_casts(node.child_by_field_name("index"))
        key = string_value(index) if index is not None and index.type == "string" else \
            text(index) if index is not None and index.type == "number" and text(index).isdigit() else None
        if key is None:
            return None, module
        holder, hmod = self._holder(node, module)
        if holder is not None and holder.type == "call_expression" and self.link is not None \
                and holder.id not in self._reading:
            self._reading.add(holder.id)
            try:
                made = [(strip_casts(v), vmod) for v, vmod, _ in self.call_values(holder, hmod, None)]
            finally:
                self._reading.discard(holder.id)
            if len(made) == 1 and made[0][0] is not None and made[0][0].type in {"array", "object"}:
                holder, hmod = made[0]  # `defs = createDefinitions(runtime); defs[0]`: the list the function returns
        if holder is not None and holder.type == "array" and key.isdigit():
            items = [c for c in holder.named_children if c.type != "comment"]
            k = int(key)
            if k < len(items) and not any(c.type == "spread_element" for c in items[:k + 1]):
                return items[k], hmod
        if holder is not None and holder.type == "object" and key in object_pairs(holder):
            return pair_value(object_pairs(holder)[key]), hmod
        return None, module

    def resolved(self, node: ts.Node | None, module: Module, frame: Frame | None, depth: int = 0
                 ) -> tuple[ts.Node | None, Module]:
        """What NODE stands for under FRAME: bound, then its definition, bound again while that is a name FRAME's chain
        binds or a default (`const group = shared ?? build(api)`, `shared` a parameter)."""
        node, module = self.definition(*self.bound(node, module, frame, depth))
        for _ in range(4):
            if node is None or frame is None or not (node.type == "identifier" or (
                    node.type == "binary_expression" and text(node.child_by_field_name("operator")) in {"||", "??"})):
                break
            again, where = self.definition(*self.bound(node, module, frame, depth + 1))
            if again is not None and again.id == node.id:
                break
            node, module = again, where
        return node, module

    def _hands_back(self, call: ts.Node, module: Module) -> bool:
        """Whether a call gives back the object it is handed (`defineTool({...})`): a helper outside the boundary
        is taken to, a function of the boundary when it returns its first parameter. Asked again while it is being
        answered (the function called is found through a value made by that call), or with MAX_HANDING such
        questions open, the answer is no: each question starts a lookup of its own, which the depth bounds do not
        see."""
        if call.id in self._handing or len(self._handing) >= MAX_HANDING:
            return False
        self._handing.add(call.id)
        try:
            return self._gives_back(call, module)
        finally:
            self._handing.discard(call.id)

    def _gives_back(self, call: ts.Node, module: Module) -> bool:
        hit = self.link.resolve(module, call) if self.link is not None else None
        fn = hit[1] if hit is not None else self.function_of(call.child_by_field_name("function"), module, None)[0]
        if fn is None or (fn.type not in FUNCTION_TYPES and fn.type != "method_definition"):
            # a library's helper; not a function handed in as a parameter (`make({})`)
            return not _parameter_of_scope(call.child_by_field_name("function"))
        first = next(iter(sorted(parameters(fn).items(), key=lambda kv: kv[1])), None)
        return first is not None and not first[1][1] and any(
            strip_casts(v) is not None and strip_casts(v).type == "identifier" and text(strip_casts(v)) == first[0]
            for v in returned(fn))

    def member(self, node: ts.Node | None, module: Module, key: str, frame: Frame | None, depth: int
               ) -> tuple[ts.Node | None, Module]:
        """The member KEY of what NODE stands for: an object literal's entry, a class instance's field or method."""
        return self.framed_member(node, module, key, frame, depth)[:2]

    def member_path(self, node: ts.Node | None, module: Module, path, frame: Frame | None, depth: int
                    ) -> tuple[ts.Node | None, Module]:
        """The member PATH of what NODE stands for, each read under the frame the one before was read in: `t.mcp.name`
        of `t = tool("core", opts)` whose `mcp` is `{ ...opts, schema }`: `name` of opts, bound by tool()'s call."""
        for key in path:
            found = self.framed_member(node, module, key, frame, depth)
            node, module = found[0], found[1]
            if node is None:
                break
            frame = found[2] if len(found) > 2 else frame
        return node, module

    def framed_member(self, node: ts.Node | None, module: Module, key: str, frame: Frame | None, depth: int
                      ) -> tuple[ts.Node | None, Module] | tuple[ts.Node | None, Module, Frame]:
        """member(), with a third item when the value is read under a frame of its own rather than FRAME: a field
        of an instance its constructor computes from its parameters (`this.items = items.map(f)`), the frame
        binding them to the arguments of `new C(...)`. One outermost lookup makes at most MAX_MEMBER_STEPS of them,
        nested: past that the member is not known (None), as past the depth bound, so that a bundle whose calls
        return calls of calls (each return followed) cannot grow a lookup exponentially."""
        if self._member_steps < 0:  # the outermost lookup
            self._member_steps = 0
            try:
                return self._framed_member(node, module, key, frame, depth)
            finally:
                self._member_steps = -1
        self._member_steps += 1
        if self._member_steps > MAX_MEMBER_STEPS:
            return None, module
        return self._framed_member(node, module, key, frame, depth)

    def _framed_member(self, node: ts.Node | None, module: Module, key: str, frame: Frame | None, depth: int
                       ) -> tuple[ts.Node | None, Module] | tuple[ts.Node | None, Module, Frame]:
        node, module = self.resolved(node, module, frame, depth)
        if node is None:
            return None, module
        if node.type == "identifier" and depth <= 3 * MAX_DEPTH:  # `let { Tools: t } = await load()`: that
            value, where = self.unpacked(node, module, depth, frame)  # member of what it is destructured from (when read)
            if value is not None:
                node, module = value, where
        for _ in range(4):  # `this.library.x`: of the field's value, which may be a field of the class constructing it
            this = strip_casts(node.child_by_field_name("object")) if node.type == "member_expression" else None
            if this is None or this.type != "this" or depth > 3 * MAX_DEPTH:
                break
            held = self.member(this, module, text(node.child_by_field_name("property")), frame, depth + 1)
            if held[0] is None or held[0].id == node.id:
                break
            node, module = self.definition(*held)
            if node is None:
                return None, module
        if node.type == "member_expression" and depth <= 3 * MAX_DEPTH:  # `runtime.deps.adapters`: member `adapters`
            held = self.framed_member(node.child_by_field_name("object"), module,  # of what `runtime.deps` is
                                      text(node.child_by_field_name("property")), frame, depth + 1)
            if held[0] is not None and held[0].id != node.id:
                inner = held[2] if len(held) > 2 else frame
                found = self.framed_member(held[0], held[1], key, inner, depth + 1)
                if found[0] is not None:
                    return found if len(found) > 2 or inner is frame else (*found, inner)
        getters = _bundled_namespace(node, module) if node.type in {"object", "call_expression"} else None
        if getters is not None:  # a bundler's namespace object (`__export(ns, {key: () => value})`): the getter's value
            pair = object_pairs(getters).get(key)
            getter = pair_value(pair) if pair is not None else None
            body = getter.child_by_field_name("body") if getter is not None and getter.type == "arrow_function" else None
            return self.bound(body, module, frame, depth + 1) if body is not None and body.type != "statement_block" \
                else (None, module)
        if node.type == "object":
            pair = object_pairs(node).get(key)
            if pair is not None:
                return self.bound(pair_value(pair), module, frame, depth + 1)
            for spread in reversed([c for c in node.named_children if c.type == "spread_element"]):
                if spread.named_children and depth <= 3 * MAX_DEPTH:  # `{...tool, schema}`: the spread's KEY
                    found = self.member(spread.named_children[0], module, key, frame, depth + 1)
                    if found[0] is not None:
                        return found
            return None, module
        if node.type == "array" and key.isdigit():  # `[a, b][1]`, `const [first] = [...]`
            items = [c for c in node.named_children if c.type != "comment"]
            k = int(key)
            if k < len(items) and not any(c.type == "spread_element" for c in items[:k + 1]):
                return self.bound(items[k], module, frame, depth + 1)
            return None, module
        if node.type == "call_expression" and callee_text(node) == "Object.assign" and depth <= 3 * MAX_DEPTH:
            for source in reversed(call_args(node)):  # `Object.assign(Object.assign({}, base), { name, run })` (tsc's
                if source.type == "spread_element":   # `{ ...base, name, run }`): KEY of the last source holding it
                    break
                found = self.framed_member(source, module, key, frame, depth + 1)
                if found[0] is not None:
                    return found
            return None, module
        if node.type == "call_expression" and depth <= 3 * MAX_DEPTH:  # `make(args).name`: of what it returns,
            for value, vmod, vframe in self.call_values(node, module, frame, depth + 1):  # read under the call's frame
                found = self.framed_member(value, vmod, key, vframe, depth + 1)
                if found[0] is not None:
                    return found if len(found) > 2 or vframe is None or vframe is frame else (*found, vframe)
        if node.type == "new_expression" and self.link is not None:
            cls = self.constructed(node, module, frame)
            args = tuple((a, module, frame) for a in call_args(node))
            found = self._instance_member(cls[0], cls[1], key, args=args, site=node) if cls is not None \
                else self._class_node_member(node, module, frame, key, args)
            if found[0] is not None:
                return found
        if node.type == "ternary_expression" and depth <= 3 * MAX_DEPTH:  # `c ? new C(a) : new C()`: the member
            sides = [k for k in ("consequence", "alternative")  # both give; of `c ? make(key) : null`, the one
                     if not nullish(strip_casts(node.child_by_field_name(k)))]  # value (a member of null throws)
            found = [self.framed_member(node.child_by_field_name(k), module, key, frame, depth + 1) for k in sides]
            if found and found[0][0] is not None and all(f[0] is not None and f[0].id == found[0][0].id for f in found):
                return found[0]
        if node.type == "identifier" and self.link is not None and self.link._class(module, text(node)) is not None:
            return self._static(module, text(node), key)  # `Registry.tools`: a static member of the class
        if node.type == "identifier":  # `nw.uploadTool` within `xR = class nw {...}`: the class's own name
            own = next((a for a in ancestors(node) if a.type == "class" and a.child_by_field_name("name") is not None
                        and text(a.child_by_field_name("name")) == text(node)), None)
            node = own if own is not None else node
        if node.type in {"class", "class_declaration"} and self.link is not None and class_name_of(node):
            found = self._static(module, class_name_of(node), key)  # the same, `var Registry = class {...}`
            held = holding_name(node)
            if found[0] is None and held is not None and held != class_name_of(node):
                found = self._static(module, held, key)  # `xR = class nw {...}`: by the name that holds it
            return found
        if node.type == "class_body" and self.link is not None and class_name_of(node.parent):  # an instance of
            return self.class_member(module, class_name_of(node.parent), key)  # the class (summaries._handed_calls)
        if node.type == "this" and self.link is not None:  # `this.tools` in a method no receiver is bound for
            cls = enclosing(node, {"class_declaration", "abstract_class_declaration", "class"})
            method = enclosing(node, {"method_definition"})
            if cls is not None and class_name_of(cls):
                name = class_name_of(cls)
                static = method is not None and any(c.type == "static" for c in method.children)
                return self._static(module, name, key) if static else self.class_member(module, name, key)
        return self._exported(node, module, key)

    def unpacked(self, node: ts.Node, module: Module, depth: int = 0, frame: Frame | None = None
                 ) -> tuple[ts.Node | None, Module]:
        """What a name a declaration destructures stands for (`const { f } = await load()`: member `f` of what the
        call returns; `const { f } = await import("pkg")`: that export), or (None, MODULE) when not known. FRAME:
        the instantiation the declaration is read under (`const { handler } = make()` in a loop over factories)."""
        found = destructured(node)
        if found is None or node.id in self._reading:
            return None, module
        self._reading.add(node.id)
        try:
            value, where = found[0], module
            for step in found[1]:
                value, where = self.member(value, where, step, frame, depth + 1)
                if value is None:
                    return None, module
        finally:
            self._reading.discard(node.id)
        return self.resolved(value, where, None, depth + 1)

    def constructed(self, node: ts.Node, module: Module, frame: Frame | None) -> tuple[Module, str] | None:
        """The class `new C(...)` (NODE) makes, as (a module that sees it, its name there): C when it names a class,
        else the class C stands for under FRAME (an element of a list of classes: `for (const C of TOOLS) new C()`)."""
        ctor = node.child_by_field_name("constructor")
        if self.link is None or ctor is None:
            return None
        if self.link._class(module, text(ctor)) is not None:
            return module, text(ctor)
        value, vmod = self.definition(*self.bound(ctor, module, frame))
        if value is not None and value.type == "identifier" and self.link._class(vmod, text(value)) is None:
            found = self.unpacked(value, vmod)  # `const { Client } = await import("pkg")`: that export
            value, vmod = found if found[0] is not None else (value, vmod)
        if value is None or value.id == ctor.id:
            return None
        name = class_name_of(value) if value.type in _CLASSES else text(value) if value.type == "identifier" else ""
        return (vmod, name) if name and self.link._class(vmod, name) is not None else None

    def from_package(self, value: ts.Node, module: Module) -> bool:
        """Whether VALUE is made from a name imported from a package (a call or member chain starting at it, such as
        `z.string().register`): a library's object, never an instance of a class of the server; not when a call of
        the chain is handed such a class (`container.resolve(MyTool)`: a library may make it)."""
        while value is not None and value.type in {"call_expression", "member_expression"}:
            if value.type == "call_expression" and self.link is not None and any(
                    a.type == "identifier" and self.link._class(module, text(a)) is not None for a in call_args(value)):
                return False
            value = strip_casts(value.child_by_field_name("function" if value.type == "call_expression" else "object"))
        if value is None or value.type != "identifier" or self.link is None:
            return False
        imported = self.link.imports.get(module.path, {}).get(text(value))
        return imported is not None and imported.module is None

    def _static(self, module: Module, name: str, key: str) -> tuple[ts.Node | None, Module]:
        """Static member KEY of class NAME: its field (`static tools = [...]`), or `NAME.KEY = value` written in the
        class's module (static fields as tsc compiles them)."""
        found = self.class_member(module, name, key)
        if found[0] is not None:
            return found
        found = self.link._class(module, name)
        if found is None:  # `var Ke = class e {...}`: a class expression's own name, not bound in the module
            return None, module
        cmod, info = found
        right = _member_assignments(cmod).get((info.name, key))
        return (right, cmod) if right is not None else (None, module)

    def class_member(self, module: Module, name: str, key: str, depth: int = 0,
                     args: tuple[tuple, ...] | None = None) -> tuple[ts.Node | None, Module]:
        return self._instance_member(module, name, key, depth, args)[:2]

    def _class_node_member(self, node: ts.Node, module: Module, frame: Frame | None, key: str, args: tuple[tuple, ...]
                          ) -> tuple[ts.Node | None, Module] | tuple[ts.Node | None, Module, Frame]:
        """Member KEY of `new C(...)` (NODE) where C stands for a class expression with no name (an element of
        `[class extends Tool { ... }, ...]` bound under FRAME), read from its node, or (None, MODULE)."""
        value, vmod = self.definition(*self.bound(node.child_by_field_name("constructor"), module, frame))
        if value is None or value.type != "class" or class_name_of(value):
            return None, module
        return self._instance_member(vmod, "", key, args=args, site=node, found=(vmod, self.link.class_at(vmod, value)))

    def _instance_member(self, module: Module, name: str, key: str, depth: int = 0,
                         args: tuple[tuple, ...] | None = None, site: ts.Node | None = None, found=None,
                         origin: tuple | None = None
                         ) -> tuple[ts.Node | None, Module] | tuple[ts.Node | None, Module, Frame]:
        """Member KEY of an instance of class NAME: a field's initialiser, a method, a `this.KEY = value` of its
        constructor (class fields as tsc compiles them), else the same of the class it extends. ARGS, the arguments
        the instance was constructed with (each with its module, and the frame it is read under when it has one),
        when known: a constructor parameter stored in the field is that argument, and the arguments of `super(...)`
        are the base class's (`super(schema, {name})`). SITE, the `new C(...)` those arguments are written at: a
        value the constructor computes from its parameters (`this.items = items.map(f)`) comes with the frame binding
        them (a third item). FOUND: (module, class info) of a class found by its node (_class_node_member)."""
        found = found or (self.link._class(module, name) if self.link is not None and depth <= 8 else None)
        if found is None:
            return None, module
        origin = origin or (found, args)  # (the class constructed: what a base class's getter reads of `this`)
        cmod, info = found
        ctor = info.methods.get("constructor")
        stores = self._stores(ctor).get(key, []) if ctor is not None else []
        initial = info.fields[key].child_by_field_name("value") if key in info.fields else None
        if initial is not None and not (stores and _placeholder(initial)):  # (`tools = []`, then set by the constructor:
            return initial, cmod                                            # what the constructor sets)
        if key in info.methods:
            method = info.methods[key]
            got = returned(method) if any(c.type == "get" for c in method.children) else []
            chain = member_chain(strip_casts(got[0])) if len(got) == 1 and depth else None
            if chain and chain[0] == "this" and len(chain) > 1 and depth <= 8:  # a base class's getter reading the
                value, where = self._instance_member(origin[0][0], "", chain[1], depth + 1, origin[1],  # instance's
                                                     found=origin[0], origin=origin)[:2]  # own field: `this.config.name`
                for k in chain[2:]:
                    value, where = self.member(value, where, k, None, depth + 1) if value is not None else (None, where)
                if value is not None:
                    return value, where
            return (got[0], cmod) if len(got) == 1 else (method, cmod)  # (a getter: the value it returns)
        if args is None and ctor is not None and depth == 0:  # the arguments of the one `new C(...)` of the boundary
            only = self._only_construction(info)
            if only is not None:
                smod, site = only
                args = tuple((a, smod, None) for a in call_args(site))
        prop = parameter_property(ctor, key)
        if prop is not None:  # `constructor(private readonly tools)`: the argument
            value, where, _ = self._argument(prop, cmod, ctor, args)
            return value, where
        for node in stores or find(ctor, {"assignment_expression"}) if ctor is not None else ():
            if member_chain(node.child_by_field_name("left")) == ("this", key):  # (`this.tools = []` first, then its
                right = node.child_by_field_name("right")                          # value: that value)
                value, where, _ = self._argument(right, cmod, ctor, args)
                own = _constructor_frame(ctor, cmod, args, site) if value is not None and value.id == right.id else None
                return (value, where, own) if own is not None else (value, where)
        late = self._late_store(info, key) if initial is None and not stores else None
        if late is not None:  # `coreTools;` set by one method (`async init() { this.coreTools = new Core(db); }`)
            return late, cmod
        base = class_base(info.node)
        if base is None:
            return None, module
        # What the base class is constructed with: the arguments of super(...), read under this instance's own
        # arguments; a class without a constructor hands its arguments on as they are.
        up = args
        if ctor is not None:
            call = next((c for c in find(ctor, {"call_expression"})
                         if c.child_by_field_name("function") is not None and c.child_by_field_name("function").type == "super"), None)
            up = args if call is not None and _hands_on(call, ctor) else \
                tuple(self._argument(a, cmod, ctor, args) for a in call_args(call)) if call is not None else None
        return self._instance_member(cmod, text(base), key, depth + 1, up, origin=origin)

    def _late_store(self, info, key: str) -> ts.Node | None:
        """The value the methods of class INFO other than its constructor store in field KEY (`this.KEY = value`, in
        the method or an arrow function of it: _stores of each), when they store one: one assignment, or several
        that each construct the same class (the first); None when none or different values."""
        values = [v for name, method in info.methods.items() if name != "constructor"
                  for n in self._stores(method).get(key, ()) if enclosing(n, _OWN_THIS) == method
                  and (v := strip_casts(n.child_by_field_name("right"))) is not None]
        if len(values) == 1:
            return values[0]
        made = {text(v.child_by_field_name("constructor")) if v.type == "new_expression" else None for v in values}
        return values[0] if len(made) == 1 and None not in made else None

    def _stores(self, ctor: ts.Node) -> dict[str, list[ts.Node]]:
        """Field -> the assignments `this.field = value` of constructor CTOR (or of another method) whose value is no
        placeholder (`[]`, `null`), in order; read once per function."""
        memo = self.link.memo.setdefault("values.stores", {})
        hit = memo.get(ctor.id)
        if hit is None or hit[0] != ctor:
            found: dict[str, list[ts.Node]] = {}
            for n in find(ctor, {"assignment_expression"}):
                chain = member_chain(n.child_by_field_name("left"))
                if chain and len(chain) == 2 and chain[0] == "this" and not _placeholder(n.child_by_field_name("right")):
                    found.setdefault(chain[1], []).append(n)
            hit = memo[ctor.id] = (ctor, found)
        return hit[1]

    def _only_construction(self, info) -> tuple[Module, ts.Node] | None:
        """(module, `new C(...)`) when the boundary constructs class INFO at one place only: every instance is made
        there, so a field its constructor stores from a parameter holds that argument."""
        sites = self.constructions(info)
        return sites[0] if len(sites) == 1 else None

    def constructions(self, info) -> list[tuple[Module, ts.Node]]:
        """(module, `new C(...)`) of every place the boundary constructs class INFO by its name (linker.constructions)."""
        return [(m, new) for m, new in self.link.constructions(info.node)
                if new.child_by_field_name("constructor") is not None
                and new.child_by_field_name("constructor").type == "identifier"]

    def _argument(self, node: ts.Node | None, module: Module, ctor: ts.Node,
                  args: tuple[tuple, ...] | None) -> tuple[ts.Node | None, Module, Frame | None]:
        """NODE of a constructor, as this instance has it: a parameter of the constructor (or a member of one) is the
        argument the instance was constructed with (with the frame that argument is read under); anything else is
        itself."""
        value = strip_casts(node)
        chain = member_chain(value) if value is not None else None
        names = parameters(ctor) if args is not None and chain else {}
        if not chain or chain[0] not in names:
            return node, module, None
        index, path = names[chain[0]]
        if index >= len(args):
            return None, module, None
        found, where, frame = (*args[index], None)[:3]
        found, where = self.bound(found, where, frame)
        for k in (*path, *chain[1:]):
            found, where = self.member(found, where, k, frame, 0)
            if found is None:
                break
        return found, where, frame

    def extends(self, module: Module, name: str, cls: ts.Node, depth: int = 0) -> bool | None:
        """Whether class NAME (as MODULE sees it) is CLS or extends it; None when a class of the chain is not found."""
        found = self.link._class(module, name) if self.link is not None and depth <= 8 else None
        if found is None:
            return None
        cmod, info = found
        if info.node.id == cls.id:
            return True
        base = class_base(info.node)
        return self.extends(cmod, text(base), cls, depth + 1) if base is not None else False

    def _exported(self, node: ts.Node, module: Module, key: str) -> tuple[ts.Node | None, Module]:
        """Export KEY of the module a namespace stands for: `import * as ns` or `const ns = require("./x")`, or the
        module itself, by its root node (one of those a dynamic import of a folder loads: Lists.loaded)."""
        if self.link is None:
            return None, module
        target = module.path if node.type == "program" else self.namespace(node, module)
        found = self.link.exported(target, key) if target else None
        if found is None and not target and node.type == "identifier":  # `r("./src/x.ts").P` of a webpack bundle
            ident = webpack.required(value_of(module, node))
            table = webpack.modules(self.link, self.link.by_path.values()).get(ident, {}) if ident is not None else {}
            return (table[key][1], table[key][0]) if key in table else (None, module)
        if found is None:
            return None, module
        mod, local = found
        value = mod.functions.get(local) or self.link.value(mod, local)
        if value is None and local in mod.classes:  # `new ns.Handler()` of a class the module exports
            value = mod.classes[local].node
        return (value, mod) if value is not None else (None, module)

    def bound(self, node: ts.Node | None, module: Module, frame: Frame | None, depth: int = 0
              ) -> tuple[ts.Node | None, Module]:
        """NODE as its value under FRAME: a bound name (or a member of one) is replaced by the argument it stands for."""
        node = strip_casts(node)
        if node is not None and node.type == "binary_expression" and depth <= 3 * MAX_DEPTH \
                and text(node.child_by_field_name("operator")) in {"||", "??"}:  # `name || "default"`
            left = strip_casts(node.child_by_field_name("left"))
            value, where = self.bound(left, module, frame, depth + 1)
            if value is not None and value.type not in {"undefined", "null"} and not (
                    value.type == "identifier" and text(value) == "undefined"):
                return (node, module) if left is not None and value.id == left.id else (value, where)
            return self.bound(node.child_by_field_name("right"), module, frame, depth + 1)
        if frame is not None and node is not None and node.type in {"member_expression", "subscript_expression"} \
                and depth <= 3 * MAX_DEPTH:
            keyed = self._keyed(node, module, frame, depth)
            if keyed is not None:
                return keyed
        while frame is not None and node is not None and depth <= 3 * MAX_DEPTH:
            if module is frame.module and frame.scope.start_byte <= node.start_byte < frame.scope.end_byte:
                hit = _lookup(node, frame)
                if hit is None:  # `t.name` of a local `const t = make(x)`, or a closure's parameter, or none
                    local = self._local_member(node, module, frame, depth) or self._destructured(node, module, frame, depth)
                    if local is not None:
                        return local
                    frame = frame.outer
                    continue
                value, where = self._argument_at(frame, *hit, depth)
                obj = strip_casts(node.child_by_field_name("object")) if node.type == "member_expression" else None
                if value is None and obj is not None and obj.type == "this":
                    # A receiver not known (`server.add(...)` on a parameter): `this.m` is the method's class's m.
                    return self.member(obj, module, text(node.child_by_field_name("property")), None, depth + 1)
                return value, where
            frame = frame.outer
        return node, module

    def _keyed(self, node: ts.Node, module: Module, frame: Frame, depth: int) -> tuple[ts.Node, Module] | None:
        """`tools[key].config`, KEY a name FRAME binds to a known string (`for (const key in tools)`): that entry's
        member; None when NODE has no such subscript or its key is not known."""
        path, cur = [], node
        while cur is not None and cur.type == "member_expression":
            path.append(text(cur.child_by_field_name("property")))
            cur = strip_casts(cur.child_by_field_name("object"))
        index = strip_casts(cur.child_by_field_name("index")) if cur is not None and cur.type == "subscript_expression" \
            else None
        if index is None or index.type in {"string", "number"}:  # (a literal index: definition() reads it)
            return None
        key = self.string(*self.bound(index, module, frame, depth + 1), depth + 1, frame)
        value, where = self.member(cur.child_by_field_name("object"), module, key, frame, depth + 1) \
            if key is not None else (None, module)
        for k in reversed(path):
            if value is None:
                break
            value, where = self.member(value, where, k, frame, depth + 1)
        return (value, where) if value is not None else None

    def _argument_at(self, frame: Frame, index: int, path: tuple[str, ...], depth: int
                     ) -> tuple[ts.Node | None, Module]:
        """Argument INDEX of FRAME's site, then its members PATH. A rest parameter's item k is the argument at index
        + k, the caller's spreads (`f(...args)`) expanded; a name the caller binds in turn, with members still to
        read, is read with the paths joined (`args[0]` of a rest list handed on as `parse(args)`)."""
        while depth <= 3 * MAX_DEPTH:
            if path[:1] == (REST,):
                if len(path) < 2 or not path[1].isdigit():  # the list itself, or its length: no one value
                    return None, frame.caller
                index, path = index + int(path[1]), path[2:]
            items, known = self.positional(frame, depth)
            if index >= len(items) and not known:  # after a spread this cannot expand: not known
                return None, frame.caller
            if index >= len(items) or items[index][0] is None:
                shift = 1 if "this" in frame.names else 0  # not passed: the parameter's default, if it has one
                default = parameter_default(frame.scope, index - shift) \
                    if frame.scope.type in FUNCTION_TYPES and not path and index >= shift else None
                return (default, frame.module) if default is not None else (None, frame.caller)
            arg, caller, outer = items[index]
            arg = strip_casts(arg)
            if index == 0 and not path and len(items) == 2 and arg is not None and items[1][0] is not None \
                    and arg.type == "shorthand_property_identifier" and items[1][0].id == arg.id:
                return shorthand_key(arg, caller), caller  # the key of an Object.entries item `{ note_add }`: its name
            up = _lookup(arg, outer) if path and arg is not None and outer is not None and caller is outer.module \
                and outer.scope.start_byte <= arg.start_byte < outer.scope.end_byte else None
            if up is None:
                value, where = self.bound(arg, caller, outer, depth + 1)
                return self.member_path(value, where, path, outer, depth + 1)
            frame, index, path, depth = outer, up[0], up[1] + path, depth + 1
        return None, frame.caller

    def positional(self, frame: Frame, depth: int = 0
                    ) -> tuple[list[tuple[ts.Node | None, Module, Frame | None]], bool]:
        """FRAME's arguments in order, each with the module and frame it is read under: a spread of a rest parameter
        the caller's frame binds (`register("read", ...args)`) is that frame's arguments from the rest's index on.
        The second item says whether the list is whole (False: it stops at a spread of something else)."""
        out: list[tuple[ts.Node | None, Module, Frame | None]] = []
        for arg in frame.args:
            if arg is None or arg.type != "spread_element":
                out.append((arg, frame.caller, frame.outer))
                continue
            inner = strip_casts(arg.named_children[0]) if arg.named_children else None
            outer = frame.outer
            while outer is not None and inner is not None and not (
                    frame.caller is outer.module and outer.scope.start_byte <= inner.start_byte < outer.scope.end_byte
                    and _lookup(inner, outer) is not None):
                outer = outer.outer
            hit = _lookup(inner, outer) if outer is not None and inner is not None else None
            if hit is None or hit[1] != (REST,) or depth > 3 * MAX_DEPTH:
                return out, False
            items, known = self.positional(outer, depth + 1)
            out += items[hit[0]:]
            if not known:
                return out, False
        return out, True

    def _destructured(self, node: ts.Node, module: Module, frame: Frame, depth: int
                      ) -> tuple[ts.Node | None, Module] | None:
        """A name destructured in FRAME's scope (`const { name } = this.parse(args)`, `const [name] = args`): that
        member of its initialiser, read under FRAME; None when NODE is no such name."""
        found = destructured(node) if depth <= 3 * MAX_DEPTH else None
        if found is None or not frame.scope.start_byte <= found[0].start_byte < frame.scope.end_byte:
            return None
        init, path = strip_casts(found[0]), found[1]
        f = frame
        while f is not None and init is not None:  # a name a frame binds: its argument, the paths joined
            if module is f.module and f.scope.start_byte <= init.start_byte < f.scope.end_byte:
                hit = _lookup(init, f)
                if hit is not None:
                    return self._argument_at(f, hit[0], hit[1] + path, depth + 1)
            f = f.outer
        value, where = self.bound(init, module, frame, depth + 1)
        if not path:
            return value, where
        value, where = self.member_path(value, where, path, frame, depth + 1)
        return (value, where) if value is not None else None  # (None: not read, the name as it is written)

    def _local_member(self, node: ts.Node, module: Module, frame: Frame, depth: int
                      ) -> tuple[ts.Node | None, Module] | None:
        """A member of a variable declared in FRAME's scope (`const t = make(opts)` then `t.name`), read under
        FRAME; None when NODE is no such member."""
        chain = member_chain(node)
        if chain and len(chain) == 1 and node.type == "identifier" and chain[0] != "this" and depth <= 3 * MAX_DEPTH:
            init = value_of(module, node)  # `const n = d.name` in a loop over d, then `n`: what it is made from
            if init is not None and init.id != node.id and frame.scope.start_byte <= init.start_byte < frame.scope.end_byte \
                    and (init.type in {"template_string", "binary_expression"} or member_chain(init)):
                return self.bound(init, module, frame, depth + 1)  # (a local list stays itself: its pushes are read)
            return None
        if not chain or len(chain) < 2 or chain[0] == "this" or depth > 3 * MAX_DEPTH:
            return None
        root = node
        while root is not None and root.type in {"member_expression", "subscript_expression"}:
            root = strip_casts(root.child_by_field_name("object"))
        init = value_of(module, root) if root is not None else None
        if init is None or not frame.scope.start_byte <= init.start_byte < frame.scope.end_byte:
            return None
        node, where, own = init, module, frame
        for key in chain[1:]:
            found = self.framed_member(node, where, key, own, depth + 1)
            node, where = found[0], found[1]
            if node is None:
                break
            own = found[2] if len(found) > 2 else own
        return (node, where) if own is frame else None  # (a member read under a call's frame of its own: not
        # known as a node alone; the caller reads the member under FRAME: string(), framed_member())

    def string(self, node: ts.Node | None, module: Module, depth: int = 0, frame: Frame | None = None,
               callers: bool = False) -> str | None:
        """The string NODE stands for, through imports and members of constant objects (`TOOL_NAMES.search` with
        TOOL_NAMES imported), a template's substitutions read under FRAME (`web_data_${d.id}` in a loop), or None.
        CALLERS: a parameter no frame binds is read at the calls of its function (from_callers)."""
        if node is not None and node.type == "identifier" and node.parent is not None and (
                node.parent.type in {"variable_declarator", "function_declaration", "class_declaration"}
                and node.parent.child_by_field_name("name") == node
                or node.parent.type == "assignment_expression" and node.parent.child_by_field_name("left") == node):
            return text(node)  # a declaration's (an assignment's) name: a key of a record (Lists.entries)
        node, module = self.definition(node, module)
        if node is None or depth > _STRING_DEPTH:
            return None
        if node.type == "template_string":
            parts = []
            for child in node.named_children:
                if child.type == "template_substitution":
                    inner = child.named_children[0] if child.named_children else None
                    value = self.string(*self.bound(inner, module, frame), depth + 1, frame) if inner is not None else None
                    if value is None:
                        return None
                    parts.append(value)
                else:
                    parts.append(unescape(text(child)))
            return "".join(parts)
        # A name definition() leaves as it is is not known here (shadowed by a parameter or a destructuring, or
        # imported and not read): never the top level's value of the same name.
        value = literal(node, module.toplevel) if node.type != "identifier" else None
        if isinstance(value, str):
            return value
        if node.type == "binary_expression" and text(node.child_by_field_name("operator")) == "+" and frame is not None:
            parts = [self.string(*self.bound(o, module, frame), depth + 1, frame) for o in plus_chain(node)]
            return "".join(parts) if all(isinstance(x, str) for x in parts) else None  # `"x_" + t.name` in a loop
        if node.type == "binary_expression" and text(node.child_by_field_name("operator")) in {"||", "??"}:
            left = node.child_by_field_name("left")
            found = self.string(left, module, depth + 1)
            if found is not None or _made_of_input(left):
                # `toolName || "x"`, `raw.name ?? ""` of a loop's element, `value.trim() || "x"` of a parameter: the
                # caller's (the list's) to say
                return found
            return self.string(node.child_by_field_name("right"), module, depth + 1)
        if node.type == "property_identifier":  # a key of an object (Object.entries)
            return text(node)
        if node.type == "call_expression" and callee_text(node) == "String" and len(call_args(node)) == 1:
            return self.string(*self.bound(call_args(node)[0], module, frame), depth + 1, frame)  # (`String(s)`: s)
        if node.type == "call_expression":  # `tool.getName()`: what the method returns
            made = self._string_method(node, module, frame, depth + 1)
            if made is not strings.UNKNOWN:  # `t.name.replace(/\./g, "_")`: a string method of a known string
                return made if isinstance(made, str) else None
            value, vmod = self.returned(node, module, frame, depth + 1)
            if value is not None:
                return self.string(value, vmod, depth + 1)
            return self._computed(node, module, frame, depth + 1)
        if node.type == "ternary_expression":  # `kind === "add" ? ...` with KIND known: the branch it takes;
            cond = node.child_by_field_name("condition")  # `prefix ? `${prefix}_${name}` : name`, PREFIX from the
            pick = envdefault.decide(cond, module, self.link)  # environment: the default branch, when the other is
            truth = pick.value if pick is not None else self._truth(cond, module, frame, depth + 1)  # not a known
            if truth is not None:  # string (two known strings are two names: the caller lists both, conditioned)
                branch, other = ("consequence", "alternative") if truth else ("alternative", "consequence")
                tested = {text(n) for n in find(cond, {"identifier"})}
                if pick is not None and not tested & {text(n) for n in find(node.child_by_field_name(other), {"identifier"})} \
                        and self.string(*self.bound(node.child_by_field_name(other), module, frame), depth + 1, frame) is not None:
                    return None  # (the other branch read with what it tests at its default is no name it can take)
                return self.string(*self.bound(node.child_by_field_name(branch), module, frame), depth + 1, frame,
                                   callers)
        if node.type == "member_expression":
            enum = module.enums.get(text(node))
            if enum is not None:
                return enum
            if frame is not None:  # `definition.name` of an element made by `make("add", "email")`: read under its call
                found = self.framed_member(node.child_by_field_name("object"), module,
                                           text(node.child_by_field_name("property")), frame, depth + 1)
                if len(found) > 2 and found[0] is not None:
                    return self.string(found[0], found[1], depth + 1, found[2])
                if found[0] is not None and found[0].type in {"string", "template_string"}:  # `config.name` of
                    return self.string(found[0], found[1], depth + 1, frame)  # `const { config } = make()` in a loop
            holder, hmod = self._chained(node.child_by_field_name("object"), module, 0)
            prop = node.child_by_field_name("property")
            if holder is not None and holder.type == "object" and prop is not None:
                pair = object_pairs(holder).get(text(prop))
                return self.string(pair_value(pair), hmod, depth + 1) if pair is not None else None
            if holder is not None and holder.type == "identifier" and prop is not None \
                    and f"{text(holder)}.{text(prop)}" in hmod.enums:  # an imported enum
                return hmod.enums[f"{text(holder)}.{text(prop)}"]
            if holder is not None and holder.type == "identifier" and prop is not None and text(prop) == "name" \
                    and self.link is not None:  # `Codegen.name` of a class of the boundary with no static `name`
                found = self.link._class(hmod, text(holder))
                if found is not None and "name" not in found[1].fields and "name" not in found[1].methods:
                    return _class_name(found[1].node)
                if found is not None:  # `static name = "custom"`
                    value, vmod = self.member(node.child_by_field_name("object"), module, "name", frame, depth + 1)
                    return self.string(value, vmod, depth + 1) if value is not None else None
            if holder is not None and holder.type in {"class", "class_declaration"} and prop is not None:
                found = self.member(node.child_by_field_name("object"), module, text(prop), frame, depth + 1)
                if found[0] is None and text(prop) == "name":  # `Codegen.name` of `class Codegen`: its own name
                    return _class_name(holder)
                return self.string(found[0], found[1], depth + 1) if found[0] is not None else None  # a static
                # (`GetTool.TOOL_NAME` of `static TOOL_NAME = "get"`)
            target = self.namespace(holder, hmod) if holder is not None and prop is not None and self.link is not None \
                else None
            if target is not None:  # `tools_1.scrapeToolName` of `const tools_1 = require("./tools")`: its export
                found = self.link.exported(target, text(prop))
                mod = found[0] if found is not None else self.link.by_path.get(target)
                value = self.link.value(mod, found[1] if found is not None else text(prop)) if mod is not None else None
                return self.string(value, mod, depth + 1) if value is not None else None
            if holder is not None and holder.type == "identifier" and prop is not None and destructured(holder):
                # `docsMcp.name` of a name a destructuring sets (`({ docs: { mcp: docsMcp } } = tools)`): its member
                found = self.member(holder, hmod, text(prop), frame, depth + 1)
                return self.string(found[0], found[1], depth + 1) if found[0] is not None else None
            if prop is not None and text(prop) == "value":  # Schema.shape.name.value: a z.literal's value
                field, fmod = self._shape_field(node.child_by_field_name("object"), module)
                literal_call = _through_chain(field, "literal")
                args = call_args(literal_call) if literal_call is not None else []
                return self.string(args[0], fmod, depth + 1) if args else None
        if callers and node.type in {"identifier", "member_expression"} and _parameter_of_scope(node) \
                and not _bound_in(node, module, frame):  # `options.case`, `options` a parameter
            held, hmod = self.from_callers(node, module, (), depth + 1)
            return self.string(held, hmod, depth + 1) if held is not None else None
        return None

    def from_callers(self, node: ts.Node, module: Module, path: tuple[str, ...], depth: int
                     ) -> tuple[ts.Node | None, Module]:
        """The value NODE (a parameter of the function around it, or a member of one), then its members PATH, has at
        every call of that function the boundary makes whose branches reach NODE (`initServer(opts)` read at
        `main`'s `initServer({...DEFAULTS, ...cli})`, the parameters of the caller read at its own callers in turn):
        when all of them give one string, or one node; else (None, MODULE). A function no call of the boundary
        resolves to (a callback, an export) gives none."""
        chain = member_chain(strip_casts(node))
        fn = next((a for a in ancestors(node) if a.type in FUNCTION_TYPES and chain and chain[0] in parameters(a)),
                  None) if self.link is not None and depth <= 8 else None
        if fn is None:
            return None, module
        index, inner = parameters(fn)[chain[0]]
        path = inner + tuple(chain[1:]) + path
        key = (node.id, path)
        memo = self.link.memo.setdefault("values.from_callers", {})
        if key in memo:
            return memo[key] or (None, module)
        memo[key] = None  # (a cycle of callers gives nothing)
        found: list[tuple[ts.Node, Module]] = []
        calls = self.link.callers(fn)
        for cmod, call in calls if len(calls) <= _MAX_CALLERS else ():
            args = tuple(call_args(call))
            frame = Frame(scope=fn, module=module, names=parameters(fn), args=args, caller=cmod, site=call,
                          evaluated=True)
            if self.branch_not_taken(node, fn, module, frame):
                continue  # `if (kind === "oapi") init(options)` called with "recall": not this caller's
            arg = args[index] if index < len(args) and args[index].type != "spread_element" else None
            value, where = self._walk(arg, cmod, path, depth + 1) if arg is not None else (None, cmod)
            if value is None:
                found = []
                break
            found.append((value, where))
        strs = {self.string(v, m, depth + 1) for v, m in found}
        agreed = found[0] if found and (len({v.id for v, _ in found}) == 1 or len(strs) == 1 and None not in strs) \
            else None
        memo[key] = agreed
        return agreed or (None, module)

    def _walk(self, node: ts.Node | None, module: Module, path: tuple[str, ...], depth: int
              ) -> tuple[ts.Node | None, Module]:
        """Members PATH of NODE read with no frame, through object literals and their spreads (last first; a spread
        whose value is not known is taken not to hold the member: `{ ...DEFAULTS, ...cliOptions }` with the option
        left unset), and through the callers of a parameter (from_callers)."""
        node, module = self.definition(node, module)
        node = strip_casts(node)
        if node is None or depth > 3 * MAX_DEPTH:
            return None, module
        if node.type in {"identifier", "member_expression"} and _parameter_of_scope(node):
            return self.from_callers(node, module, path, depth + 1)
        if not path:
            return node, module
        if node.type == "object":
            pair = object_pairs(node).get(path[0])
            if pair is not None:
                return self._walk(pair_value(pair), module, path[1:], depth + 1)
            for spread in reversed([c for c in node.named_children if c.type == "spread_element"]):
                found = self._walk(spread.named_children[0], module, path, depth + 1) if spread.named_children \
                    else (None, module)
                if found[0] is not None:
                    return found
            return None, module
        found, where = self.member(node, module, path[0], None, depth + 1)
        return self._walk(found, where, path[1:], depth + 1) if found is not None else (None, module)

    def _chained(self, node: ts.Node | None, module: Module, depth: int) -> tuple[ts.Node | None, Module]:
        """definition(), and for a member of a constant object's member (`TOOL_NAMES.GET_PROJECTS` of an imported
        `TOOL_NAMES = { GET_PROJECTS: { TITLE: "..." } }`) that nested object."""
        value, where = self.definition(node, module)
        value = strip_casts(value)
        if value is None or value.type != "member_expression" or depth > 8:
            return value, where
        holder, hmod = self._chained(value.child_by_field_name("object"), where, depth + 1)
        prop = value.child_by_field_name("property")
        pair = object_pairs(holder).get(text(prop)) if holder is not None and holder.type == "object" \
            and prop is not None else None
        return self.definition(pair_value(pair), hmod) if pair is not None else (value, where)

    def _string_method(self, call: ts.Node, module: Module, frame: Frame | None, depth: int):
        """What a string method gives (extract/strings.py) when its receiver and arguments are known under FRAME
        (`t.name.slice("x_".length)`, `id.split(".").join("_")`); strings.UNKNOWN when not."""
        fn = strip_casts(call.child_by_field_name("function"))
        prop = fn.child_by_field_name("property") if fn is not None and fn.type == "member_expression" else None
        if prop is None or depth > _STRING_DEPTH or text(prop) not in strings.METHODS:
            return strings.UNKNOWN
        receiver = self._scalar(fn.child_by_field_name("object"), module, frame, depth + 1)
        if receiver is strings.UNKNOWN:
            return strings.UNKNOWN
        args = [self._scalar(a, module, frame, depth + 1) for a in call_args(call)]
        return strings.UNKNOWN if strings.UNKNOWN in args else strings.evaluate(text(prop), receiver, args)

    def _scalar(self, node: ts.Node | None, module: Module, frame: Frame | None, depth: int):
        """A string method's receiver or argument as a Python value: a string, a number, `"x_".length`, a regular
        expression literal (strings.regex), the list a `split` gives; strings.UNKNOWN when not known."""
        node = strip_casts(node)
        if node is None or depth > _STRING_DEPTH:
            return strings.UNKNOWN
        if node.type == "regex":
            pattern, flags = node.child_by_field_name("pattern"), node.child_by_field_name("flags")
            found = strings.regex(text(pattern) if pattern is not None else "", text(flags) if flags is not None else "")
            return found if found is not None else strings.UNKNOWN
        if node.type == "number" or node.type == "unary_expression" and text(node.child_by_field_name("operator")) == "-":
            value = literal(node)
            return value if isinstance(value, (int, float)) and not isinstance(value, bool) else strings.UNKNOWN
        if node.type == "member_expression" and text(node.child_by_field_name("property")) == "length":
            inner = self._scalar(node.child_by_field_name("object"), module, frame, depth + 1)
            return len(inner) if isinstance(inner, (str, list)) else strings.UNKNOWN
        if node.type == "call_expression":
            made = self._string_method(node, module, frame, depth + 1)
            if made is not strings.UNKNOWN:
                return made
        written, wmod = self.definition(*self.bound(node, module, frame)) if node.type == "identifier" else (node, module)
        written = strip_casts(written)
        if written is not None and written.type == "new_expression" and text(written.child_by_field_name("constructor")) \
                == "Set" and len(call_args(written)) == 1:  # `new Set(["a", "b"])`: its strings, for `has`
            written = strip_casts(call_args(written)[0])
        if written is not None and written.type == "array" and len(written.named_children) <= _LISTED:
            # (a written list of strings: `["a", "b"].includes(t.name)`, or a constant holding one)
            items = [string_value(i) for i in written.named_children if i.type != "comment"]
            return items if None not in items else strings.UNKNOWN
        found = self.string(*self.bound(node, module, frame), depth + 1, frame)
        return found if found is not None else strings.UNKNOWN

    def _truth(self, cond: ts.Node | None, module: Module, frame: Frame | None, depth: int, callers: bool = False
               ) -> bool | None:
        """Whether a comparison of two strings holds (`kind === "add members"`, KIND bound under FRAME); None when
        either side is not known. CALLERS: a parameter no frame binds is read at the calls of its function
        (from_callers), as the branch a function computing a name takes (not a registration's own branches: those
        an option turns on are the server's tools too)."""
        cond = strip_casts(cond)
        if cond is not None and cond.type == "call_expression":  # `t.name.startsWith("x_")`, else `isShown(t)`
            made = self._string_method(cond, module, frame, depth + 1)
            return made if isinstance(made, bool) else self._value_truth(cond, module, frame, depth, callers)
        if cond is not None and cond.type == "unary_expression" and text(cond.child_by_field_name("operator")) == "!":
            inner = self._truth(cond.child_by_field_name("argument"), module, frame, depth + 1, callers)
            return None if inner is None else not inner
        op = text(cond.child_by_field_name("operator")) if cond is not None and cond.type == "binary_expression" else ""
        if op in {"&&", "||"} and depth <= 8:
            sides = [self._truth(cond.child_by_field_name(k), module, frame, depth + 1, callers)
                     for k in ("left", "right")]
            decided = sides[0] if sides[0] is (op == "||") else None  # (`true || x`, `false && x`)
            return decided if decided is not None else None if None in sides else \
                (sides[0] or sides[1]) if op == "||" else (sides[0] and sides[1])
        if op == "in":  # `d.name in RETRY` of a constant record: whether it has that key
            key = self.string(*self.bound(cond.child_by_field_name("left"), module, frame), depth + 1, frame)
            record, rmod = self.definition(*self.bound(cond.child_by_field_name("right"), module, frame))
            record, rframe = strip_casts(record), frame
            if record is not None and record.type == "call_expression" and depth <= 8:  # `names(x)`: what it returns
                made = [(strip_casts(v), vmod, vframe) for v, vmod, vframe in self.call_values(record, rmod, frame,
                                                                                               depth + 1)]
                record, rmod, rframe = made[0] if len(made) == 1 else (None, rmod, frame)  # (its keys read under
            keys = self._keys(record, rmod, rframe, depth) if record is not None else None  # the call's frame)
            return None if key is None or keys is None else key in keys
        if op == "??" and depth <= 8:  # `e.exposed ?? fallback`: the left side unless it is null or undefined
            left, _ = self.definition(*self.bound(cond.child_by_field_name("left"), module, frame, depth + 1))
            left = strip_casts(left)
            if nullish(left) \
                    or self._absent(cond.child_by_field_name("left"), module, frame, depth):
                return self._truth(cond.child_by_field_name("right"), module, frame, depth + 1, callers)
            known = literal(left) if left is not None and left.type in _NOT_NULLISH | {"unary_expression"} else NOT_LITERAL
            return self._truth(cond.child_by_field_name("left"), module, frame, depth + 1, callers) \
                if known is not NOT_LITERAL and known is not None else None
        if op:
            return self._equality(cond.child_by_field_name("left"), cond.child_by_field_name("right"), op, module,
                                  frame, depth, callers) if op in {"===", "==", "!==", "!="} else None
        return self._value_truth(cond, module, frame, depth, callers)

    def _kind(self, node: ts.Node | None, module: Module, frame: Frame | None, depth: int) -> str | None:
        """What `typeof` says of the value NODE stands for under FRAME: by how it is written, or, for a call, the one
        kind of every value the called function may return there (a return in a branch the call does not take, or
        after a branch it takes that returns, left out: `if (typeof d === "function") return (a) => ...; return d`)."""
        value, vmod = self.definition(*self.bound(node, module, frame, depth + 1))
        value = strip_casts(value)
        if value is None or value.type != "call_expression" or depth > 8:
            return _kind_of(value)
        kinds = set()
        for made, mmod, inner in self.call_values(value, vmod, frame, depth + 1):
            if self.branch_not_taken(made, inner.scope, mmod, inner) or self._returned_before(made, mmod, inner, depth):
                continue
            kinds.add(_kind_of(strip_casts(made)) if strip_casts(made) is not None
                      and strip_casts(made).type in _KINDS else self._kind(made, mmod, inner, depth + 1))
        return next(iter(kinds)) if len(kinds) == 1 else None

    def _returned_before(self, node: ts.Node, module: Module, frame: Frame, depth: int) -> bool:
        """Whether the function FRAME binds has left before NODE's statement: an `if` before it in its block whose
        branch returns and whose condition holds under FRAME."""
        stmt = next((a for a in ancestors(node) if a.type == "return_statement"), None)
        block = stmt.parent if stmt is not None else None
        if block is None or block.type != "statement_block":
            return False
        for prior in block.named_children:
            if prior.start_byte >= stmt.start_byte:
                return False
            then = prior.child_by_field_name("consequence") if prior.type == "if_statement" else None
            last = then.named_children[-1] if then is not None and then.type == "statement_block" \
                and then.named_children else then
            if last is not None and last.type == "return_statement" and prior.child_by_field_name("alternative") is None \
                    and self._truth(prior.child_by_field_name("condition"), module, frame, depth + 1) is True:
                return True
        return False

    def _keys(self, record: ts.Node, module: Module, frame: Frame | None, depth: int) -> set[str] | None:
        """The keys of an object literal, computed ones (`[NAMES.run]: ...`) read as strings; None when one is not
        known or the object copies another (a spread)."""
        if record.type != "object" or any(c.type == "spread_element" for c in record.named_children):
            return None
        keys = set()
        for child in record.named_children:
            if child.type == "comment":
                continue
            key = child.child_by_field_name("key") if child.type in {"pair", "method_definition"} else child
            if key is not None and key.type == "computed_property_name":
                inner = strip_casts(key.named_children[0]) if key.named_children else None
                got = self.string(inner, module, depth + 1, frame) if inner is not None else None
            elif key is not None and key.type in {"property_identifier", "shorthand_property_identifier"}:
                got = text(key)
            else:
                got = string_value(key) if key is not None and key.type == "string" else \
                    text(key) if key is not None and key.type == "number" else None
            if got is None:
                return None
            keys.add(got)
        return keys

    def _absent(self, node: ts.Node | None, module: Module, frame: Frame | None, depth: int) -> bool:
        """Whether member NODE (`t.enabled`, or a name destructured from the object: `const { enabled } = t`) reads a
        key the object literal it is of does not hold (undefined): no spread in it, and no assignment of that member
        anywhere in its module."""
        node = strip_casts(node)
        taken = destructured(node) if node is not None and node.type == "identifier" and depth <= 8 else None
        if taken is not None and len(taken[1]) == 1 and isinstance(taken[1][0], str):  # `const { key } = obj`
            scope = enclosing_function(node)
            if scope is None or any(text(d.child_by_field_name("left")) == text(node)
                                    for d in find(scope, {"object_assignment_pattern", "assignment_pattern"})):
                return False  # (`const { key = "x" } = obj`: its default, when the key is absent)
            key, holder = taken[1][0], taken[0]
        elif node is None or node.type != "member_expression" or depth > 8:
            return False
        else:
            key, holder = text(node.child_by_field_name("property")), node.child_by_field_name("object")
        obj, omod = self.definition(*self.bound(holder, module, frame, depth + 1))
        obj = strip_casts(obj)
        if obj is not None and obj.type == "call_expression" and self.link is not None:  # `tool: makeTool()`: the one
            made = list(self.call_values(obj, omod, frame, depth + 1))                  # object it returns
            obj, omod = (strip_casts(made[0][0]), made[0][1]) if len(made) == 1 else (None, omod)
        if obj is None or obj.type != "object" or any(c.type == "spread_element" for c in obj.named_children) \
                or key in object_pairs(obj):
            return False
        return not any(a.type == "assignment_expression" and (member_chain(a.child_by_field_name("left")) or ())[-1:] == (key,)
                       for a in omod.nodes("assign"))

    def _value_truth(self, node: ts.Node | None, module: Module, frame: Frame | None, depth: int, callers: bool
                     ) -> bool | None:
        """Whether a value that is no comparison is truthy, when it is known: a boolean literal (`!1` of a
        minifier), a member or name bound to one under FRAME (`t.enabled` of a listed `{ enabled: false }`), or a
        call of a function of the boundary whose one return is such a test (`isExposed(t)`), its parameters bound
        to the arguments; None otherwise."""
        if node is None or depth > 8:
            return None
        if self._absent(node, module, frame, depth):
            return False  # (undefined)
        value, where = self.definition(*self.bound(node, module, frame, depth + 1))
        value = strip_casts(value)
        if value is None:
            return None
        if value.type in {"true", "false"} or value.type == "unary_expression":
            known = literal(value)
            return known if isinstance(known, bool) else None
        if value.type in {"object", "array", "new_expression", *FUNCTION_TYPES} and value.id != node.id:
            return True  # (an object, a list, a function: never false)
        if value.type == "binary_expression" and value.id != node.id:  # (a member bound to `a ?? b`, `a && b`)
            return self._truth(value, where, frame, depth + 1, callers)
        if value.type != "call_expression" or self.link is None or not call_args(value):
            return None
        fn, fmod, ret = self._one_return(value, where, frame, depth + 1)
        if fn is None or ret is None:
            return None
        inner = Frame(scope=fn, module=fmod, names=parameters(fn), args=tuple(call_args(value)), caller=where,
                      site=value, outer=frame)
        return self._truth(ret, fmod, inner, depth + 1, callers)

    def _equality(self, left: ts.Node | None, right: ts.Node | None, op: str, module: Module, frame: Frame | None,
                  depth: int, callers: bool = False) -> bool | None:
        """Whether LEFT OP RIGHT holds (an equality operator): two known strings compared, or a nullish literal
        (`options === void 0`) compared with a value known to be an object, a list, a string or a function."""
        equal = op in {"===", "=="}
        operands = [_typeof_of(strip_casts(n)) for n in (left, right)]  # `typeof t === "function"` of a known value
        if operands[0] is not None or operands[1] is not None:
            operand, other = (operands[0], right) if operands[0] is not None else (operands[1], left)
            wanted = string_value(strip_casts(other))
            kind = self._kind(operand, module, frame, depth + 1)
            return None if wanted is None or kind is None else (kind == wanted) == equal
        flags = [literal(strip_casts(n)) if strip_casts(n) is not None and strip_casts(n).type in {"true", "false", "unary_expression"}
                 else NOT_LITERAL for n in (left, right)]
        if any(isinstance(f, bool) for f in flags) and op in {"===", "!=="}:  # `t.hidden === false`, `!== !0`
            other = right if isinstance(flags[0], bool) else left
            flag = flags[0] if isinstance(flags[0], bool) else flags[1]
            if self._absent(other, module, frame, depth):
                return not equal  # (undefined is no boolean)
            value, _ = self.definition(*self.bound(other, module, frame, depth + 1))
            value = strip_casts(value)
            known = literal(value) if value is not None and value.type in _NOT_NULLISH | {"unary_expression"} else NOT_LITERAL
            return None if known is NOT_LITERAL else (known is flag) == equal
        empty = [nullish(n) for n in (left, right)]
        if empty[0] != empty[1]:
            other = right if empty[0] else left
            if self._absent(other, module, frame, depth):  # undefined: equal to `void 0`, and to `null` loosely
                loose = op in {"==", "!="} or strip_casts(left if empty[0] else right).type != "null"
                return loose == equal
            value, _ = self.definition(*self.bound(other, module, frame))
            value = strip_casts(value)
            boolean = value is not None and value.type == "unary_expression" \
                and text(value.child_by_field_name("operator")) == "!"  # (`!1` of a minifier)
            return None if value is None or value.type not in _NOT_NULLISH and not boolean else not equal
        numbers = [self._number(n, module, frame, depth) for n in (left, right)]
        if None not in numbers:  # `t.tier === 2`
            return (numbers[0] == numbers[1]) == equal
        if numbers != [None, None] and self._absent(left if numbers[0] is None else right, module, frame, depth):
            return not equal  # (undefined is no number)
        sides = [self.string(*self.bound(n, module, frame), depth + 1, frame, callers) for n in (left, right)]
        if sides == [None, None]:
            return None
        if None in sides:  # `s.name === i`, i a name no frame binds: a string none of its values is, never equal
            other = left if sides[0] is None else right
            known = sides[1] if sides[0] is None else sides[0]
            values = possible(self, other, module) if not _bound_in(strip_casts(other), module, frame) else None
            if values is None or not all(isinstance(v, str) or v is None for v in values) or known in values:
                return None
            return not equal
        return (sides[0] == sides[1]) == equal

    def _number(self, node: ts.Node | None, module: Module, frame: Frame | None, depth: int) -> float | None:
        """The number literal NODE stands for under FRAME (`t.tier` of a listed `{ tier: 2 }`), or None."""
        value, _ = self.definition(*self.bound(node, module, frame, depth + 1))
        value = strip_casts(value)
        known = literal(value) if value is not None and value.type in {"number", "unary_expression"} else None
        return known if isinstance(known, (int, float)) and not isinstance(known, bool) else None

    def _computed(self, call: ts.Node, module: Module, frame: Frame | None, depth: int) -> str | None:
        """The string a function of the boundary returns for literal arguments (`getToolName("linear_x")`), its
        parameters bound to them; None when it has not one return, or what it returns is not known."""
        args = call_args(call)
        fn, fmod, value = self._one_return(call, module, frame, depth) if args else (None, module, None)
        if fn is None:
            return None
        inner = Frame(scope=fn, module=fmod, names=parameters(fn), args=tuple(args), caller=module, site=call, outer=frame)
        if value is None:  # `if (kind === "snake") return ...; return name`: the return its tests take
            value = taken.taken_return(fn, lambda c: self._truth(c, fmod, inner, depth + 1, callers=True),
                                       lambda a, b: self._equality(a, b, "===", fmod, inner, depth + 1, callers=True))
        return self.string(*self.bound(value, fmod, inner), depth + 1, inner) if value is not None else None

    def returned(self, call: ts.Node | None, module: Module, frame: Frame | None, depth: int = 0
                 ) -> tuple[ts.Node | None, Module]:
        """What a call with no arguments of a method or function (`tool.getInputSchema()`, the receiver bound under
        FRAME) returns, when it has one return: its value; else (None, module)."""
        call = strip_casts(call)
        if call is None or call.type != "call_expression" or call_args(call):
            return None, module
        _, fmod, value = self._one_return(call, module, frame, depth)
        return (value, fmod) if value is not None else (None, module)

    def _one_return(self, call: ts.Node, module: Module, frame: Frame | None, depth: int
                    ) -> tuple[ts.Node | None, Module, ts.Node | None]:
        """(the function CALL calls, its module, the one value it returns), the value None when it returns not one
        (frames.returned: an arrow's expression, or the operands of its own return statements)."""
        if depth > _STRING_DEPTH:
            return None, module, None
        fn, fmod = self.function_of(call_function(call), module, frame, depth + 1)
        if fn is None or (fn.type not in FUNCTION_TYPES and fn.type != "method_definition"):
            return None, module, None
        values = returned(fn)
        return fn, fmod, values[0] if len(values) == 1 else None

    def _shape_field(self, node: ts.Node | None, module: Module) -> tuple[ts.Node | None, Module]:
        """The schema of field KEY for `X.shape.KEY`, X a zod object schema (`z.object({KEY: ...})`)."""
        node = strip_casts(node)
        if node is None or node.type != "member_expression":
            return None, module
        holder = strip_casts(node.child_by_field_name("object"))
        if holder is None or holder.type != "member_expression" or text(holder.child_by_field_name("property")) != "shape":
            return None, module
        schema, smod = self.definition(holder.child_by_field_name("object"), module)
        if schema is not None and schema.type == "object":  # definition() reads `z.object({...})` as its argument
            shape = schema
        else:
            call = _through_chain(schema, "object")
            args = call_args(call) if call is not None else []
            shape = strip_casts(args[0]) if args else None
        if shape is None or shape.type != "object":
            return None, module
        pair = object_pairs(shape).get(text(node.child_by_field_name("property")))
        return (pair_value(pair), smod) if pair is not None else (None, module)

    def frontier(self, node: ts.Node | None, module: Module, frame: Frame | None) -> tuple[ts.Node | None, Module]:
        """The argument NODE comes from where the bindings of FRAME's chain end: the expression a caller or a loop of
        its own must give a value to (`tool` of `tool.installTo(server)`, for `this.name` in installTo)."""
        node = strip_casts(node)
        while frame is not None and node is not None:
            if node.type == "call_expression" and not _parameter_of_scope(call_function(node)) \
                    and not loop_element(call_function(node)):
                free = None  # `caseTransf(tool.name, options.case)`: the first argument not known that a frame
                for arg in call_args(node):  # reads on elsewhere (`params.title` of a `register(tool.spec)`), else
                    if self._scalar(arg, module, frame, 0) is not strings.UNKNOWN:  # the first no frame binds
                        continue
                    name = _first_name(arg)
                    found = self.frontier(name, module, frame)
                    if found[0] is not None and found[0].id != name.id:
                        return found
                    if free is None and not _bound_in(name, module, frame):
                        free = found
                if free is not None:
                    return free
            if node.type in {"call_expression", "await_expression"}:  # `group.toolsets.map(f)`: what its receiver
                node = strip_casts(node.child_by_field_name("function") if node.type == "call_expression"  # needs
                                   else (node.named_children[0] if node.named_children else None))
                continue
            if node.type == "template_string":  # the first substitution the chain does not give a value to
                for sub in (c.named_children[0] for c in node.named_children
                            if c.type == "template_substitution" and c.named_children):
                    if self.string(*self.bound(sub, module, frame), frame=frame) is None:
                        return self.frontier(sub, module, frame)
                return node, module
            if module is frame.module and frame.scope.start_byte <= node.start_byte < frame.scope.end_byte:
                hit = _lookup(node, frame)
                if hit is None:
                    local = strip_casts(value_of(module, node)) if node.type == "identifier" else None
                    if local is not None and local.type in {"template_string", "call_expression"} \
                            and frame.scope.start_byte <= local.start_byte < frame.scope.end_byte:
                        node = local  # `const full = `${prefix}${t.name}``: what the template still needs
                        continue
                    if local is not None and local.type == "ternary_expression" \
                            and frame.scope.start_byte <= local.start_byte < frame.scope.end_byte \
                            and tested_name(local.child_by_field_name("condition")) is not None:
                        node = tested_name(local.child_by_field_name("condition"))  # `const p = lib === "s2" ? ...`:
                        continue  # what its test compares picks the branch
                    return node, module
                index, path = hit
                if path[:1] == (REST,) and len(path) > 1 and path[1].isdigit():  # `args[0]` of a rest parameter
                    index, path = index + int(path[1]), path[2:]
                items, _ = self.positional(frame)
                arg, caller, outer = items[index] if index < len(items) else (None, frame.caller, frame.outer)
                arg = strip_casts(arg)
                for key in path:  # a member of an object literal handed over (`{ toolsets: group.toolsets }`)
                    pair = object_pairs(arg).get(key) if arg is not None and arg.type == "object" else None
                    if pair is None:
                        break
                    arg = strip_casts(pair_value(pair))
                node, module, frame = arg, caller, outer
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
        if self.link is not None and node is not None and node.type in {"identifier", "shorthand_property_identifier"}:
            item = self.tuple_item(node, module)  # `const [tool] = createRegisterTool(server)`: its item
            if item[0] is not None:
                return item
        node, module = self.definition(node, module)
        if node is None:
            return None, module
        if node.type in {"identifier", "shorthand_property_identifier"} and self.link is not None:
            value, where = self.unpacked(node, module, depth, frame)  # `const { register } = await load()`: what it
            if value is not None and value.id != node.id:  # takes
                return self.function_of(value, where, None, depth + 1)
        if node.type in FUNCTION_TYPES:
            return node, module
        if node.type == "method_definition":
            return node, module
        if node.type in {"identifier", "shorthand_property_identifier"} and node.parent is not None:  # a function of the module
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
            callee = strip_casts(node.child_by_field_name("function"))
            if callee is not None and callee.type == "member_expression" \
                    and text(callee.child_by_field_name("property")) == "bind":  # `this.invoke.bind(this)`
                return self.function_of(callee.child_by_field_name("object"), module, frame, depth + 1)
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

    def _returned_function(self, call: ts.Node, module: Module, depth: int = 0) -> tuple[ts.Node | None, Module]:
        """The function a factory of the boundary returns: written in its return, held by a local of it (`const fn =
        async (args) => ...; return fn;`), or what a factory it calls in turn returns (`const fn = build(ctx, name,
        reply); return fn;`)."""
        hit = self.link.resolve(module, call) if self.link is not None and depth <= 4 else None
        if hit is None:
            return None, module
        fmod, fn = hit[0], hit[1]
        body = fn.child_by_field_name("body")
        values = [body] if body is not None and body.type != "statement_block" else \
            [ret.named_children[0] for ret in (body.named_children if body is not None else [])
             if ret.type == "return_statement" and ret.named_children]
        for value in map(strip_casts, values):
            if value is not None and value.type == "identifier":  # `return fn` of a local
                value = strip_casts(value_of(fmod, value))
            if value is not None and value.type in FUNCTION_TYPES:
                return value, fmod
            if value is not None and value.type == "call_expression":
                made = self._returned_function(value, fmod, depth + 1)
                if made[0] is not None:
                    return made
        return None, module

    def binder(self, frame: Frame) -> Callable[[ts.Node | None, Module], tuple[ts.Node | None, Module]]:
        return lambda node, module: self.bound(node, module, frame)


_COMPARISONS = frozenset({"===", "!==", "==", "!="})


def _class_name(cls: ts.Node) -> str | None:
    """The name a class has at run time (`Function.prototype.name`): its declared name, or, for a class expression
    without one, the name of the variable its declaration sets (`const Tool = class { ... }`)."""
    name = cls.child_by_field_name("name")
    if name is None and cls.parent is not None and cls.parent.type == "variable_declarator":
        name = cls.parent.child_by_field_name("name")
    return text(name) if name is not None and name.type in {"identifier", "type_identifier"} else None


def tested_name(cond: ts.Node | None) -> ts.Node | None:
    """The name a test compares with a literal (`lib === "s2"`, either side; `!flag`, `flag`): None for other tests."""
    cond = strip_casts(cond)
    while cond is not None and cond.type == "unary_expression" and text(cond.child_by_field_name("operator")) == "!":
        cond = strip_casts(cond.child_by_field_name("argument"))
    if cond is not None and cond.type == "binary_expression" \
            and text(cond.child_by_field_name("operator")) in _COMPARISONS:
        sides = [strip_casts(cond.child_by_field_name(k)) for k in ("left", "right")]
        named = [x for x in sides if x is not None and member_chain(x)]
        return named[0] if len(named) == 1 else None
    return cond if cond is not None and member_chain(cond) else None


def _through_chain(node: ts.Node | None, method: str) -> ts.Node | None:
    """The call `x.METHOD(...)` that a chain of calls starts from: `z.literal("a").describe("...")` for `literal`."""
    node = strip_casts(node)
    while node is not None and node.type == "call_expression":
        callee = strip_casts(node.child_by_field_name("function"))
        if callee is None or callee.type != "member_expression":
            return None
        if text(callee.child_by_field_name("property")) == method:
            return node
        node = strip_casts(callee.child_by_field_name("object"))
    return None


_MAX_CALLERS = 32  # calls of one function read for the value of its parameter (more: not read)
_LISTED = 256  # strings of a written list read as one value (`["a", "b"].includes(x)`)
_STRING_DEPTH = 12  # steps of one string's reading (`${c.prefix}_${title.replace(...).toLowerCase()}` of a title an
# element's member holds, `TOOL_NAMES.GET_PROJECTS.TITLE` of an imported constant)


def _bound_in(node: ts.Node, module: Module, frame: Frame | None) -> bool:
    """Whether a frame of FRAME's chain binds the name NODE starts from."""
    return any(f.module is module and f.scope.start_byte <= node.start_byte < f.scope.end_byte
               and _lookup(node, f) is not None for f in _chain(frame))


def _chain(frame: Frame | None):
    while frame is not None:
        yield frame
        frame = frame.outer


def _first_name(node: ts.Node) -> ts.Node:
    """The name an argument reads (`o.case` of `o === null || o === void 0 ? void 0 : o.case`, the optional chain
    compiled, or of `o?.case`): itself when it is a name or a member chain, else the first name in it."""
    node = strip_casts(node)
    if node is None or member_chain(node):
        return node
    if node.type == "ternary_expression":
        kept = [b for b in (node.child_by_field_name(k) for k in ("consequence", "alternative"))
                if not nullish(b)]
        if len(kept) == 1:
            return _first_name(kept[0])
    return next(iter(find(node, {"identifier"})), node)


# Values that are never null or undefined.
_NOT_NULLISH = frozenset({"object", "array", "string", "template_string", "number", "true", "false", "arrow_function",
                          "function_expression", "function_declaration", "class", "class_declaration",
                          "new_expression"})


def _placeholder(node: ts.Node | None) -> bool:
    """An empty list or object, `null` or `undefined`: what a field holds until it is set (`this.tools = []`)."""
    node = strip_casts(node)
    return _placeholder_list(node) or node is not None and (
        node.type == "undefined" or node.type == "identifier" and text(node) == "undefined"
        or node.type == "object" and not node.named_children)


def _constructor_frame(ctor: ts.Node, module: Module, args: tuple[tuple, ...] | None, site: ts.Node | None
                       ) -> Frame | None:
    """The frame binding CTOR's parameters to the arguments of SITE (`new C(...)`; each argument with its module and
    frame, all written at SITE), read for its value; None when not known."""
    if args is None or site is None or not parameters(ctor):
        return None
    callers = {(a[1].path, id(a[2]) if len(a) > 2 else 0) for a in args}
    if len(callers) > 1:
        return None
    caller, outer = (args[0][1], args[0][2] if len(args[0]) > 2 else None) if args else (module, None)
    return Frame(scope=ctor, module=module, names=parameters(ctor), args=tuple(a[0] for a in args), caller=caller,
                 site=site, outer=outer, evaluated=True)


def _hands_on(call: ts.Node, ctor: ts.Node) -> bool:
    """Whether `super(...)` (CALL) gets the constructor's own arguments as they are: `super(...arguments)` of a
    constructor without parameters (how tsc writes the constructor of a subclass with fields), or `super(...args)`
    of `constructor(...args)`."""
    args = call_args(call)
    spread = args[0].named_children[0] if len(args) == 1 and args[0].type == "spread_element" \
        and args[0].named_children else None
    if spread is None or spread.type != "identifier":
        return False
    params = ctor.child_by_field_name("parameters")
    items = [c for c in params.named_children if c.type != "comment"] if params is not None else []
    if not items:
        return text(spread) == "arguments"
    rest = items[0] if len(items) == 1 else None
    if rest is not None and rest.type == "required_parameter":
        rest = rest.named_children[0] if rest.named_children else None
    return rest is not None and rest.type == "rest_pattern" and bool(rest.named_children) \
        and text(rest.named_children[0]) == text(spread)


def _made_of_input(node: ts.Node | None) -> bool:
    """Whether NODE is a parameter of a function around it or the element of a loop around it, a member of one, or a
    value a chain of calls makes of one (`value.trim().replace(/\\W/g, "_")`): what it is, the caller's to say."""
    node = strip_casts(node)
    while node is not None and node.type in {"call_expression", "member_expression", "subscript_expression"} \
            and member_chain(node) is None:
        node = strip_casts(node.child_by_field_name("function") if node.type == "call_expression"
                           else node.child_by_field_name("object"))
    return node is not None and (_parameter_of_scope(node) or loop_element(node))
