"""The elements of lists of tool objects and what calls return (Lists, a part of values.Values): literals and their
spreads, namespaces, `Object.values`/`entries`, pushes in loops, array methods that keep elements, and the values of
calls of the server's own functions, factories and closures, each read under the frame that binds it."""

from __future__ import annotations

from typing import Iterator

import tree_sitter as ts

from auditor.extract import envdefault, folders
from auditor.extract.bindings import class_fields, collection_field, value_of
from auditor.extract.frames import (MAX_DEPTH, Frame, _array_names, _parameter_of_scope, _sites, destructured,
                                    loop_names, parameters, plain_parameters, returned)
from auditor.extract.program import Module, class_name_of
from auditor.extract.syntax import (ARRAY_SPREAD_HELPERS, CLASS_TYPES, array_spread_parts, FUNCTION_TYPES, ancestors, call_args, call_function, callee_text,
                                    enclosing, enclosing_function, find, local_values_of, member_chain, memo,
                                    object_pairs, pair_value, parameter_pattern, property_name, string_value, strip_casts,
                                    text)

_SCOPES = frozenset(FUNCTION_TYPES | {"program"})  # where a local's pushes and assignments are looked for

# Array methods whose result holds some of the receiver's elements, in some order.
_SUBSETS = {"filter", "slice", "sort", "reverse", "toSorted", "toReversed", "toSpliced"}
# Array methods whose result holds what a callback returns for each element (flatMap: the elements of that).
_MAPS = {"map", "flatMap"}
_STORES = {"set": 1, "add": 0, "push": 0}  # a Map's `set(key, value)`, a Set's `add(value)`: the value stored
MAX_HANDED = 4  # levels of callers a parameter is followed out through (`registerAll(ctx)` of a caller's parameter)


def _around(node: ts.Node, module: Module, frame: Frame | None) -> Frame | None:
    """The first of FRAME and the frames around it whose scope NODE is written in, or None."""
    while frame is not None and not (module is frame.module
                                     and frame.scope.start_byte <= node.start_byte < frame.scope.end_byte):
        frame = frame.outer
    return frame


class Lists:
    """Lists and call values, for Values (whose definition, bound, member and function_of these read)."""

    def entries(self, node: ts.Node | None, module: Module, frame: Frame | None, depth: int = 0
                ) -> Iterator[tuple[ts.Node, ts.Node, Module]]:
        """(key node, value node, module) of each own entry of what NODE stands for: an object literal (its spreads
        included) or a namespace (`import * as tools`: each export of the module, following re-exports)."""
        obj, omod = self.definition(*self.bound(node, module, frame))
        if obj is None and frame is not None:  # not read under FRAME (`mod.allTools ?? ...` of a namespace that may be
            obj, omod = self.definition(*self.bound(node, module, None))  # one of several modules): as it is written
        if obj is None or depth > 6:
            return
        if obj.type == "member_expression" and self.link is not None:  # `Object.entries(this.tools)`: the record
            held: dict[tuple[int, int], tuple] = {}  # the field holds (`this.tools = { a: new A() }` in its
            for value, vmod, vframe in self.members(obj.child_by_field_name("object"), omod,  # constructor)
                                                    text(obj.child_by_field_name("property")), frame, depth + 1):
                if value.id != obj.id:
                    for key, item, imod in self.entries(value, vmod, vframe, depth + 1):
                        held.setdefault((key.id, item.id), (key, item, imod))
            if held:
                yield from held.values()
                return
        getters = _bundled_namespace(obj, omod)
        if getters is not None:  # `__export({a: () => a})`: the values the getters return
            for pair in object_pairs(getters).values():
                value = pair_value(pair)
                body = value.child_by_field_name("body") if value.type == "arrow_function" else None
                if body is not None and body.type != "statement_block":
                    yield pair.child_by_field_name("key") if pair.type == "pair" else pair, body, omod
            return
        either = ("consequence", "alternative") if obj.type == "ternary_expression" else ("left", "right") \
            if obj.type == "binary_expression" and text(obj.child_by_field_name("operator")) in {"??", "||"} else None
        if either:  # `readonly ? subset : all`, `mod.allTools ?? mod.default?.allTools`: the entries of each, once
            seen: set[tuple[int, int]] = set()
            for branch in either:
                for key, value, vmod in self.entries(obj.child_by_field_name(branch), omod,
                                                     frame if omod is module else None, depth + 1):
                    if (key.id, value.id) not in seen:
                        seen.add((key.id, value.id))
                        yield key, value, vmod
            return
        if obj.type == "call_expression" and callee_text(obj) == "Object.fromEntries" and call_args(obj):
            for element, emod, _ in self.elements(call_args(obj)[0], omod, frame if omod is module else None, depth + 1):
                if len(element) == 2 and element[0] is not None:  # [key, value] pairs (of Object.entries)
                    yield element[0], element[1], emod
            return
        if obj.type == "call_expression" and self.link is not None:  # `getTools(config)`: the records it returns
            seen = set()
            for value, vmod, vframe in self.call_values(obj, omod, frame, depth + 1):
                for key, item, imod in self.entries(value, vmod, vframe, depth + 1):
                    if (key.id, item.id) not in seen:
                        seen.add((key.id, item.id))
                        yield key, item, imod
            return
        if obj.type == "object" and not obj.named_children and node is not None:
            source = self._copied_from(strip_casts(node), module, obj)
            if source is not None:  # `const picked = {}; for (const [k, v] of Object.entries(all)) picked[k] = v`
                yield from self.entries(source, module, frame, depth + 1)
            return
        if obj.type == "object":
            for child in obj.named_children:
                if child.type == "spread_element" and child.named_children:
                    yield from self.entries(child.named_children[0], omod, None, depth + 1)
            for pair in object_pairs(obj).values():
                yield (pair.child_by_field_name("key") if pair.type == "pair" else pair), pair_value(pair), omod
            return
        target = self.namespace(obj, omod)
        for name in sorted(self.export_names(target)) if target is not None else ():
            found = self.link.exported(target, name)
            if found is None:
                continue
            mod, local = found
            value = mod.toplevel.get(local) or mod.functions.get(local)
            if value is None and local in mod.classes:
                value = mod.classes[local].node
            if value is not None:
                yield _declared_name(value), value, mod

    def namespace(self, node: ts.Node, module: Module) -> str | None:
        """The module path a namespace import (`import * as ns`) or `require("./x")` stands for, or None."""
        if self.link is None:
            return None
        if node.type == "identifier":
            b = self.link.imports.get(module.path, {}).get(text(node))
            if b is not None and b.name == "*":
                return b.module
            where = self.link.binding(module, text(node)) if b is not None else None
            return where[0].path if where is not None and where[1] == "*" else None  # `export * as ns`, imported
        if node.type == "member_expression":  # `mcp.tools` of a module that re-exports a namespace as `tools`
            outer = self.namespace(node.child_by_field_name("object"), module)
            found = self.link.exported(outer, text(node.child_by_field_name("property"))) if outer else None
            return found[0].path if found is not None and found[1] == "*" else None
        fn = node.child_by_field_name("function") if node.type == "call_expression" else None
        if fn is not None and (callee_text(node) == "require" or fn.type == "import") and call_args(node):
            spec = string_value(call_args(node)[0])  # `require("./x")`, `await import("pkg")` (awaited: a namespace)
            if spec is not None:
                return self.link.resolve_spec(module.path, spec)
            loads = self._dynamic_loads(node, module) if fn.type == "import" else None
            # (`import(pathToFileURL(resolve(root, "dist/index.js")).href)`: the one file of the boundary it may load)
            return loads[0].path if loads is not None and len(loads) == 1 else None
        return None

    def export_names(self, path: str, depth: int = 0) -> set[str]:
        """The names module PATH exports, its `export *` re-exports included (not `default`)."""
        names = set(self.link.exports.get(path, {})) - {"default"}
        for target in self.link.star.get(path, []) if depth < 10 else []:
            names |= self.export_names(target, depth + 1)
        return names

    def call_values(self, call: ts.Node, module: Module, frame: Frame | None, depth: int = 0
                    ) -> Iterator[tuple[ts.Node, Module, Frame]]:
        """What a call returns: each returned expression of each function the callee may be (a function of the
        boundary, a function value, the function a factory returns: `definePageTool(fn)(args)`), with a frame
        binding that function's parameters to the call's arguments (its closure's frame outside it)."""
        if depth > 3 * MAX_DEPTH:
            return
        args = tuple(call_args(call))
        function = strip_casts(call.child_by_field_name("function"))
        if function is not None and function.type == "member_expression" and args \
                and text(function.child_by_field_name("property")) == "then":
            # `promise.then((m) => ...)`, awaited: what the callback returns (esbuild's lazily loaded module:
            # `await Promise.resolve().then(() => (init_x(), x_exports))`)
            for fn, fmod, closure in self.callables(args[0], module, frame, depth + 1):
                inner = Frame(scope=fn, module=fmod, names={}, args=(), caller=module, site=call, outer=closure,
                              evaluated=True)
                for value in returned(fn):
                    yield value, fmod, inner
            return
        if function is not None and function.type == "member_expression" and len(args) == 2 \
                and text(function.child_by_field_name("property")) == "reduce":
            # `layers.reduce((acc, layer) => ({...}), initial)`: the initial value, and what the callback returns
            # with its accumulator bound to it (one step: the elements it reduces are not known)
            yield args[1], module, frame
            for fn, fmod, closure in self.callables(args[0], module, frame, depth + 1):
                accumulator = {k: v for k, v in parameters(fn).items() if v[0] == 0}
                inner = Frame(scope=fn, module=fmod, names=accumulator, args=args[1:], caller=module, site=call,
                              outer=closure if closure is not None else frame, evaluated=True)
                for value in returned(fn):
                    yield value, fmod, inner
            return
        for fn, fmod, closure in self.callables(call_function(call), module, frame, depth + 1):
            # (its arguments read under the function's closure, else under the frame around FRAME, FRAME's own
            # included, whose scope the call is written in: `const tool = make(t)` in a loop over t)
            around = closure if closure is not None else _around(call, module, frame)
            inner = Frame(scope=fn, module=fmod, names=parameters(fn), args=args, caller=module, site=call,
                          outer=around, evaluated=True)
            for value in returned(fn):
                yield value, fmod, inner

    def _copied_from(self, name: ts.Node | None, module: Module, made: ts.Node) -> ts.Node | None:
        """The record R an empty record MADE (`const picked = {}`, NAME) is filled from, when every write to it is
        `picked[k] = v` in a loop `for (const [k, v] of Object.entries(R))`: a subset of R's entries."""
        scope = enclosing(made, _SCOPES)
        if name is None or name.type != "identifier" or scope is None:
            return None
        sources = set()
        for a in find(scope, {"assignment_expression"}):
            left = strip_casts(a.child_by_field_name("left"))
            if left is None or left.type != "subscript_expression" or text(left.child_by_field_name("object")) != text(name):
                continue
            loop = next((x for x in ancestors(a) if x.type == "for_in_statement"), None)
            pattern = loop.child_by_field_name("left") if loop is not None else None
            right = strip_casts(loop.child_by_field_name("right")) if loop is not None else None
            items = [c for c in pattern.named_children] if pattern is not None and pattern.type == "array_pattern" else []
            if right is None or callee_text(right) != "Object.entries" or len(items) != 2 or len(call_args(right)) != 1 \
                    or text(left.child_by_field_name("index")) != text(items[0]) \
                    or text(strip_casts(a.child_by_field_name("right"))) != text(items[1]):
                return None
            sources.add(call_args(right)[0])
        return next(iter(sources)) if len(sources) == 1 else None

    def callables(self, node: ts.Node | None, module: Module, frame: Frame | None, depth: int = 0
                  ) -> Iterator[tuple[ts.Node, Module, Frame | None]]:
        """The functions NODE may stand for, each with the frame its body is read under (a factory's)."""
        if node is None or depth > 3 * MAX_DEPTH:
            return
        written, here = strip_casts(node), module
        node, module = self.definition(*self.bound(node, module, frame, depth))
        if (node is None or node.type not in FUNCTION_TYPES and node.type != "method_definition") and written is not None \
                and written.type == "member_expression" and self.link is not None:
            hit = self.link.resolve(here, written)  # `this.registry.list` of a field whose class the linker knows
            if hit is not None:
                yield hit[1], hit[0], None
                return
        if node is None:
            return
        if node.type in FUNCTION_TYPES or node.type == "method_definition":
            yield node, module, frame
        elif node.type == "ternary_expression" or (node.type == "binary_expression" and text(
                node.child_by_field_name("operator")) in {"||", "??"}):  # `overrides?.make ?? (() => ...)`: either
            for side in ("consequence", "alternative") if node.type == "ternary_expression" else ("left", "right"):
                yield from self.callables(node.child_by_field_name(side), module, frame, depth + 1)
        elif node.type == "call_expression":  # a factory's result: the functions it returns
            for value, vmod, vframe in self.call_values(node, module, frame, depth + 1):
                yield from self.callables(value, vmod, vframe, depth + 1)
        else:  # (`runtime.make` of what a call returns: under the call's frame)
            found = list(self._member_callables(node, module, frame, depth)) if node.type == "member_expression" else []
            fn, fmod = self.function_of(node, module, frame, depth) if not found else (None, module)
            yield from found or ([(fn, fmod, frame)] if fn is not None else [])

    def members(self, node: ts.Node | None, module: Module, key: str, frame: Frame | None, depth: int = 0
                ) -> Iterator[tuple[ts.Node, Module, Frame | None]]:
        """Each value member KEY of what NODE stands for may be, with the frame it is read under: of each value a call
        returns (`adapters.accountTools` of `adapters = await make(c)`, one return per mode), through members of
        members (`runtime.deps.adapters`); else the one framed_member() reads."""
        held, hmod = self.resolved(node, module, frame, depth) if depth <= 2 * MAX_DEPTH else (None, module)
        if held is not None and held.type == "await_expression" and held.named_children:
            held = strip_casts(held.named_children[0])
        out: list[tuple[ts.Node, Module, Frame | None]] = []
        loads = self._loads(held, hmod)
        if loads:  # `(await import(pathToFileURL(resolve(root, "dist/index.js")).href)).allTools`: of each it may be
            for m in loads:
                value, vmod = self._exported(m.tree.root_node, m, key)
                out += [(value, vmod, None)] if value is not None else []
        elif held is not None and held.type == "call_expression" and self.link is not None:
            for value, vmod, vframe in self.call_values(held, hmod, frame, depth + 1):
                out += self.members(value, vmod, key, vframe, depth + 1)
        elif held is not None and held.type == "member_expression":
            for inner, imod, iframe in self.members(held.child_by_field_name("object"), hmod,
                                                    text(held.child_by_field_name("property")), frame, depth + 1):
                out += self.members(inner, imod, key, iframe, depth + 1)
        if not out:
            value, vmod, *own = self.framed_member(node, module, key, frame, depth)
            out = [(value, vmod, own[0] if own else frame)] if value is not None else []
        seen: set[tuple] = set()
        for value, vmod, vframe in out:
            if (value.id, _sites(vframe)) not in seen:
                seen.add((value.id, _sites(vframe)))
                yield value, vmod, vframe

    def _loads(self, node: ts.Node | None, module: Module) -> list[Module]:
        """The modules of the boundary a dynamic import NODE of a path made at run time may load, when it may load
        more than one (extract/folders.py; one is the namespace itself: namespace())."""
        fn = node.child_by_field_name("function") if node is not None and node.type == "call_expression" else None
        if fn is None or fn.type != "import" or self.link is None or len(call_args(node)) != 1 \
                or string_value(call_args(node)[0]) is not None:
            return []
        loads = self._dynamic_loads(node, module) or []
        return loads if len(loads) > 1 else []

    def _dynamic_loads(self, call: ts.Node, module: Module) -> list[Module] | None:
        """folders.loaded() of the dynamic import CALL, read once (asked at every member lookup of its namespace)."""
        memo = self.link.memo.setdefault("dynamic_loads", {})
        if call.id not in memo:
            memo[call.id] = (call, folders.loaded(call, module, self.link.by_path))
        return memo[call.id][1]

    def _member_callables(self, node: ts.Node, module: Module, frame: Frame | None, depth: int
                          ) -> Iterator[tuple[ts.Node, Module, Frame | None]]:
        """The functions a member stands for, read under the frame its value is read under (`runtime.make` of
        `runtime = await createRuntime()`, whose `make` is `overrides?.make ?? (() => ...)`)."""
        value, vmod, *own = self.framed_member(node.child_by_field_name("object"), module,
                                               text(node.child_by_field_name("property")), frame, depth + 1)
        if value is not None and value.id != node.id:
            yield from self.callables(value, vmod, own[0] if own else frame, depth + 1)

    def callee(self, call: ts.Node, module: Module) -> ts.Node | None:
        """The function a call calls when the linker does not say: a local function value (`const tool = (name) =>
        ...` then `tool("x")`), a method of the class of an instance (`m.add(...)` of `const m = new My()`), or a
        function assigned to the member called (`s.add = (name) => ...` then `s.add("x")`)."""
        callee = strip_casts(call.child_by_field_name("function"))
        if callee is None:
            return None
        if callee.type == "identifier":
            value = strip_casts(value_of(module, callee))
            if value is not None and value.type == "call_expression" and self.link is not None:
                return self._made(value, module)  # `const tool = createRegisterTool(server)` then `tool(x)`
            if value is None and self.link is not None:  # `const [tool, list] = createRegisterTool(server)`
                found = self.tuple_item(callee, module)[0]
                if found is not None:
                    return found
                found = self.function_of(callee, module, None)[0] if destructured(callee) is not None else None
                if found is not None:  # `const { register } = await import("pkg")` or from what a loader returns
                    return found
            return value if value is not None and value.type in FUNCTION_TYPES else self._handed(callee)
        if callee.type != "member_expression":
            return None
        prop = text(callee.child_by_field_name("property"))
        obj, omod = self.definition(callee.child_by_field_name("object"), module)
        made = {text(b.child_by_field_name("constructor")) if b.type == "new_expression" else "" for b in _branches(obj)}
        if obj is not None and obj.type == "ternary_expression" and len(made) == 1 and "" not in made:
            obj = _branches(obj)[0]  # `o.auth ? new S({ auth }) : new S(base)`: an instance of S either way
        if obj is not None and obj.type == "new_expression" and self.link is not None:
            found, _ = self.class_member(omod, text(obj.child_by_field_name("constructor")), prop)
            if found is not None and (found.type in FUNCTION_TYPES or found.type == "method_definition"):
                return found
        chain = member_chain(callee)
        here = self._assigned_chains(module).get(chain) if chain else None
        if here is not None:
            return here
        # `server.registerOnce(...)` of a `s.registerOnce = (name) => ...` written on another name for the same
        # object (a wrapper's parameter): the one function the boundary assigns to a member of that name.
        assigned = self._assigned_members().get(prop, [])
        if assigned:
            return assigned[0] if len(assigned) == 1 else None
        # `server.registerTool(def)` on a parameter (`function registerX(server)`): the one method of that name among
        # the server's own classes (not those of a library a bundle inlines, `Module.vendored`).
        methods = self._class_methods().get(prop, [])
        if len(methods) == 1 and _parameter_of_scope(callee.child_by_field_name("object")) \
                and not methods[0][1].start_byte <= call.start_byte < methods[0][1].end_byte:
            return methods[0][1]  # (not a call written in that method: `registerTool(server, t) { server.registerTool(...)`
        return self._handed(callee)  # calls the server's method, not itself)

    def _handed(self, callee: ts.Node) -> ts.Node | None:
        """The one function every call of the function whose parameter CALLEE names hands over there: `ctx.tool(...)`
        in `function f(ctx)` called as `f({ tool })`, `tool(...)` in `function f({ tool })` or `function f(tool)`.
        None when a call hands something else, or nothing calls that function."""
        chain = member_chain(callee)
        if self.link is None or not chain or len(chain) > 2 or chain[0] == "this":
            return None
        taken = destructured(callee) if callee.type == "identifier" else None
        if taken is not None and strip_casts(taken[0]) is not None and strip_casts(taken[0]).type == "identifier":
            chain = (text(strip_casts(taken[0])), *taken[1])  # `const { tool } = ctx; tool(...)`: ctx.tool
            callee = strip_casts(taken[0])
        return self._handed_chain(callee, chain, 0)

    def _handed_chain(self, at: ts.Node, chain: tuple[str, ...], depth: int) -> ts.Node | None:
        """The one function every call of the function whose parameter CHAIN (read at AT) starts from hands over."""
        scope = next((a for a in ancestors(at) if a.type in FUNCTION_TYPES | {"method_definition"}
                      and chain[0] in parameters(a)), None)
        if scope is None:
            return None
        index, path = parameters(scope)[chain[0]]
        if any(not isinstance(k, str) or not k for k in path):
            return None
        hit = self._handed_memo.get((scope.id, chain))  # (asked again for each call on that parameter: a
        if hit is None:  # bundle's `e.x(...)`, thousands of them)
            self._handed_memo[(scope.id, chain)] = (scope, None)  # (a cycle of callers hands over nothing known)
            hit = self._handed_memo[(scope.id, chain)] = (scope, self._handed_by_callers(scope, index, path, chain,
                                                                                         depth))
        return hit[1]

    def _handed_by_callers(self, scope: ts.Node, index: int, path: tuple[str, ...], chain: tuple[str, ...],
                           depth: int) -> ts.Node | None:
        found = set()
        for cmod, call in self.link.callers(scope):
            args = call_args(call)
            arg = strip_casts(args[index]) if index < len(args) else None
            node, nmod = arg, cmod
            for key in (*path, *chain[1:]):
                node, nmod = self.member(node, nmod, key, None, 0)[:2] if node is not None else (None, nmod)
            fn = self.function_of(node, nmod, None)[0] if node is not None else None
            passed = member_chain(arg) if fn is None and arg is not None and depth < MAX_HANDED else None
            if passed and passed[0] != "this":  # `registerAll(ctx)` in `function setup(ctx)`: what setup's callers
                fn = self._handed_chain(arg, (*passed, *path, *chain[1:]), depth + 1)  # hand over, one level out
            if fn is None or fn.type not in FUNCTION_TYPES | {"method_definition"}:
                return None
            found.add(fn)
        return next(iter(found)) if len(found) == 1 else None

    def _class_methods(self) -> dict[str, list[tuple[str, ts.Node]]]:
        """Method name -> (class name, method) of every class of the boundary."""
        if self._methods is None:
            self._methods = {}
            for m in (self.link.by_path.values() if self.link is not None else ()):
                for info in m.classes.values():
                    if any(a <= info.node.start_byte < b for a, b, _ in m.vendored):
                        continue
                    for name, fn in info.methods.items():
                        if name != "constructor":
                            self._methods.setdefault(name, []).append((info.name, fn))
        return self._methods

    def _made(self, call: ts.Node, module: Module) -> ts.Node | None:
        """The one function a factory call returns (`return (tool) => { ... }`), if the factory is of the boundary."""
        hit = self.link.resolve(module, call)
        fn = hit[1] if hit is not None else None
        made = [strip_casts(r) for r in returned(fn)] if fn is not None and fn.type in FUNCTION_TYPES else []
        made = [r for r in made if r is not None and r.type in FUNCTION_TYPES]
        return made[0] if len(made) == 1 else None

    def tuple_item(self, ident: ts.Node, module: Module) -> tuple[ts.Node | None, Module]:
        """The function a name destructured from a factory's array takes (`const [tool, tools] = createRegister(...)`
        of a factory of the boundary that returns `[registerTool, tools]`): the item at its place, when every array
        the factory returns has a function there; (None, MODULE) else."""
        index = module.memo.get("lists.tuples")
        if index is None:  # name -> (declarator, place, its function) of every `const [a, b] = ...` (once per module)
            index = module.memo["lists.tuples"] = {}
            for decl in find(module.tree.root_node, {"array_pattern"}):
                holder = decl.parent
                if holder is None or holder.type != "variable_declarator" or holder.child_by_field_name("name") != decl:
                    continue
                items = [c for c in decl.named_children if c.type != "comment"]
                for at, item in enumerate(items):
                    if item.type == "identifier":
                        index.setdefault(text(item), []).append((holder, at, enclosing_function(holder)))
        fn = enclosing_function(ident)
        found = [(d, at) for d, at, owner in index.get(text(ident), ()) if owner == fn]
        if len(found) != 1:
            return None, module
        decl, at = found[0]
        value = strip_casts(decl.child_by_field_name("value"))
        while value is not None and value.type == "await_expression" and value.named_children:
            value = strip_casts(value.named_children[0])
        hit = self.link.resolve(module, value) if value is not None and value.type == "call_expression" else None
        made = []
        for r in returned(hit[1]) if hit is not None and hit[1].type in FUNCTION_TYPES else ():
            r = strip_casts(r)
            items = [c for c in r.named_children if c.type != "comment"] if r is not None and r.type == "array" else []
            item = items[at:at + 1]
            node = strip_casts(item[0]) if item else None
            node = strip_casts(value_of(hit[0], node)) if node is not None and node.type == "identifier" else node
            made.append(node if node is not None and node.type in FUNCTION_TYPES else None)
        return (made[0], hit[0]) if made and None not in made and len({m.id for m in made}) == 1 else (None, module)

    def _assigned_chains(self, module: Module) -> dict[tuple[str, ...], ts.Node]:
        """Member chain -> the first function assigned to it in MODULE (`s.add = (name) => ...`), indexed once."""
        index = self._chains.get(module.path)
        if index is None:
            index = self._chains[module.path] = {}
            for node in module.nodes("assign"):
                if node.type != "assignment_expression":
                    continue
                chain = member_chain(node.child_by_field_name("left"))
                value = strip_casts(node.child_by_field_name("right"))
                if chain and value is not None and value.type in FUNCTION_TYPES:
                    index.setdefault(chain, value)
        return index

    def _assigned_members(self) -> dict[str, list[ts.Node]]:
        """Member name -> the functions assigned to a member of that name (`x.name = () => ...`), boundary-wide."""
        if self._members is None:
            self._members = {}
            for m in (self.link.by_path.values() if self.link is not None else ()):
                for node in m.nodes("assign"):
                    left = node.child_by_field_name("left") if node.type == "assignment_expression" else None
                    value = strip_casts(node.child_by_field_name("right")) if left is not None else None
                    if left is not None and left.type == "member_expression" and value is not None \
                            and value.type in FUNCTION_TYPES:
                        self._members.setdefault(text(left.child_by_field_name("property")), []).append(value)
        return self._members

    def _pushed(self, value: ts.Node, module: Module, frame: Frame | None, depth: int
                ) -> Iterator[tuple[tuple[ts.Node | None, ...], Module, Frame | None]]:
        """The elements a list declared (`const tools = []`, or with elements; CommonJS `exports.tools = []`) gets from
        `tools.push(x)` in its scope; a push in a `for (const t of LIST)` loop is read once per element of LIST, `t`
        bound to it; a push of a parameter (`function add(e) { tools.push(e) }`) once per call of that function."""
        holder = value.parent
        record = holder.parent.parent if holder is not None and holder.type == "pair" and holder.parent is not None \
            and holder.parent.type == "object" else None
        if record is not None and record.type == "variable_declarator" \
                and record.child_by_field_name("name").type == "identifier":
            # `const byGroup = { core: [], extra: [] }`: what `byGroup.core.push(x)` or `byGroup[g].push(x)` adds
            name, key = text(record.child_by_field_name("name")), property_name(holder.child_by_field_name("key"))
            scope = enclosing(record, _SCOPES)
            for target in ((name, key), (name, "[]")):
                yield from self._stored(scope, target, {"push": 0}, module, frame, depth)
            return
        if holder is not None and holder.type == "variable_declarator" and holder.child_by_field_name("name").type == "identifier":
            target = (text(holder.child_by_field_name("name")),)
        elif holder is not None and holder.type == "assignment_expression" and holder.child_by_field_name("right") == value \
                and (member_chain(holder.child_by_field_name("left")) or ("",))[0] == "exports":
            target = member_chain(holder.child_by_field_name("left"))
        else:
            return
        scope = enclosing(holder, _SCOPES)
        yield from self._stored(scope, target, {"push": 0}, module, frame, depth)
        if scope is not None and scope.type == "program" and len(target) == 1:
            for imod, local in self._importers(module, target[0]):  # `import { registry } from "./r.js";
                yield from self._stored(imod.tree.root_node, (local,), {"push": 0}, imod, None, depth)  # registry.push(t)`

    def _importers(self, module: Module, name: str) -> list[tuple[Module, str]]:
        """The modules that import the top-level NAME of MODULE (by any exported name, re-exports followed), each with
        the local name it has there: their top-level pushes onto a list it exports are the list's elements too."""
        if self.link is None:
            return []
        memo = self.link.memo.setdefault("lists.importers", {})  # (asked again at each reading of the list)
        key = (module.path, name)
        if key in memo:
            return memo[key]
        out = memo[key] = []
        for path, names in self.link.imports.items():
            imod = self.link.by_path.get(path)
            for local, b in names.items():
                if imod is not None and imod is not module and b.module is not None and b.name != "*" \
                        and self.link.binding(imod, local) == (module, name):  # (through a barrel's re-export too)
                    out.append((imod, local))
        return out

    def _collected(self, holder: ts.Node, module: Module, frame: Frame | None, depth: int
                   ) -> Iterator[tuple[tuple[ts.Node | None, ...], Module, Frame | None]]:
        """The values of a Map or Set `this.F` (`this.tools.values()`) or of a local one (`const byName = new Map()`):
        what the class, or the function declaring the local, stores into it (`this.tools.set(tool.getName(), tool)`,
        `byName.set(t.name, t)`, `this.tools.add(t)`), per element of the loop around each store."""
        chain = member_chain(strip_casts(holder)) or ()
        scope = enclosing(holder, {"class_declaration", "class"}) if len(chain) == 2 and chain[0] == "this" else None
        if len(chain) == 1:  # a local made `new Map()` / `new Set()` in the function that reads it
            made = strip_casts(value_of(module, strip_casts(holder)))
            scope = enclosing(made, _SCOPES) \
                if made is not None and made.type == "new_expression" \
                and text(made.child_by_field_name("constructor")) in {"Map", "Set"} else None
        yield from self._stored(scope, chain, _STORES, module, frame, depth)

    def _stored(self, scope: ts.Node | None, target: tuple[str, ...], methods: dict[str, int], module: Module,
                frame: Frame | None, depth: int) -> Iterator[tuple[tuple[ts.Node | None, ...], Module, Frame | None]]:
        """The arguments stored into TARGET within SCOPE by its METHODS (method -> the index of the value stored)."""
        for call, chain in _calls_on(scope, module).get(target, ()) if scope is not None else ():
            if chain[-1] not in methods or envdefault.unreached(call, module, self.link):
                continue
            # The loop the stored value is read per element of: the innermost `for...of` in SCOPE that binds a name
            # the stored expression uses (`for (const g of t.groups) byGroup[g].push(t)` stores `t`, of the loop
            # around that one, not one value per `g`).
            used = {text(n) for a in call_args(call) for n in find(a, {"identifier"})}
            loop = next((a for a in ancestors(call) if a.type == "for_in_statement"
                         and text(a.child_by_field_name("operator")) == "of"
                         and scope.start_byte <= a.start_byte < scope.end_byte
                         and used & (set(loop_names(a.child_by_field_name("left"))) | _declared_in(a))), None)
            for arg in call_args(call)[methods[chain[-1]]:][:1 if methods[chain[-1]] else None]:
                arg_value = arg.named_children[0] if arg.type == "spread_element" and arg.named_children else arg
                loaded = self.loaded(arg, module)
                if loaded:  # `tools.push(await import(join(dir, file)))` in a loop over a folder's entries
                    yield from loaded
                    continue
                if loop is None:
                    if arg.type == "spread_element":
                        yield from self.elements(arg_value, module, frame, depth + 1)
                    else:
                        yield from self._handed_values(arg, module, frame) or [((arg,), module, frame)]
                    continue
                for bound in self._element_frames(loop, module, frame, depth):
                    if self.branch_not_taken(call, loop, module, bound):
                        continue  # `if (t.name.startsWith("x_")) out.push({...t, name}) else out.push(t)`: one of two
                    if arg.type == "spread_element":
                        yield from self.elements(arg_value, module, bound, depth + 1)
                    else:
                        yield (arg,), module, bound

    def branch_not_taken(self, node: ts.Node, loop: ts.Node, module: Module, frame: Frame) -> bool:
        """Whether NODE, in the body of LOOP (a `for...of`, a function), is in a branch of an `if` between them that
        the element or the arguments FRAME binds do not take (its condition known under FRAME:
        `t.name.startsWith("x_")`)."""
        child = node
        for scope in ancestors(node):
            if scope.id == loop.id:
                return False
            if scope.type == "if_statement":
                truth = self._truth(scope.child_by_field_name("condition"), module, frame, 0)
                taken = "alternative" if child.type == "else_clause" else "consequence"
                if truth is not None and truth != (taken == "consequence"):
                    return True
            child = scope
        return False

    def loaded(self, node: ts.Node, module: Module, depth: int = 0
               ) -> list[tuple[tuple[ts.Node | None, ...], Module, Frame | None]]:
        """When NODE holds what a dynamic import of a folder gives (`const m = await import(join(toolsDir, file))`,
        extract/folders.py), one element per module of that folder, each standing for its namespace by its root node
        (Values reads its exports as members); else empty."""
        value = strip_casts(node)
        if value is not None and value.type == "identifier":  # (a local: the cheap look first, for every element)
            local = strip_casts(value_of(module, value))
            value = local if local is not None else self._settled(value, module, depth)
        while value is not None and value.type == "await_expression" and value.named_children:
            value = strip_casts(value.named_children[0])
        if self.link is None or value is None or value.type != "call_expression" \
                or value.child_by_field_name("function") is None \
                or value.child_by_field_name("function").type != "import":
            return []
        return [((m.tree.root_node,), m, None) for m in folders.loaded(value, module, self.link.by_path) or ()]

    def _settled(self, name: ts.Node, module: Module, depth: int) -> ts.Node | None:
        """The value a name destructured from a settled result holds (`const { mod } = result.value` in `for (const
        result of await Promise.allSettled(files.map(async (f) => ({ mod: await import(...) }))))`, or from an
        element of Promise.all's): the member of the object the mapping callback returns; else None."""
        found = destructured(name) if depth < 3 else None
        init = strip_casts(found[0]) if found is not None and len(found[1]) == 1 else None
        if init is not None and init.type == "member_expression" and text(init.child_by_field_name("property")) == "value":
            init = strip_casts(init.child_by_field_name("object"))  # (allSettled's `{ status, value }`)
        loop = next((a for a in ancestors(name) if a.type == "for_in_statement"), None) \
            if init is not None and init.type == "identifier" else None
        if loop is None or text(loop.child_by_field_name("left")) != text(init):
            return None
        listed = strip_casts(loop.child_by_field_name("right"))
        listed = strip_casts(value_of(module, listed)) if listed is not None and listed.type == "identifier" else listed
        while listed is not None and listed.type == "await_expression" and listed.named_children:
            listed = strip_casts(listed.named_children[0])
        if listed is None or listed.type != "call_expression" \
                or member_chain(listed.child_by_field_name("function")) not in {("Promise", "all"), ("Promise", "allSettled")} \
                or not call_args(listed):
            return None
        mapped = strip_casts(call_args(listed)[0])
        callee = strip_casts(mapped.child_by_field_name("function")) if mapped is not None and mapped.type == "call_expression" else None
        if callee is None or callee.type != "member_expression" or text(callee.child_by_field_name("property")) != "map" \
                or not call_args(mapped) or strip_casts(call_args(mapped)[0]).type not in FUNCTION_TYPES:
            return None
        for ret in returned(strip_casts(call_args(mapped)[0])):
            ret = strip_casts(ret)
            pair = object_pairs(ret).get(found[1][0]) if ret is not None and ret.type == "object" else None
            member = strip_casts(pair_value(pair)) if pair is not None else None
            if member is not None and member.type in {"identifier", "shorthand_property_identifier"}:
                member = strip_casts(value_of(module, member))
            if member is not None:
                return member
        return None

    def _handed_values(self, arg: ts.Node, module: Module, frame: Frame | None
                       ) -> list[tuple[tuple[ts.Node | None, ...], Module, Frame | None]]:
        """When ARG is a plain parameter of the function it is written in (and no FRAME binds it), the argument of
        each call of that function in its place (`addEndpoint(listUsers)`); else empty."""
        fn = enclosing_function(arg)
        index = plain_parameters(fn).get(text(arg)) if fn is not None and arg.type == "identifier" and frame is None else None
        if index is None or self.link is None:
            return []
        return [((call_args(call)[index],), cmod, None) for cmod, call in self.link.callers(fn)
                if index < len(call_args(call))]

    def empty(self, node: ts.Node | None, module: Module, frame: Frame | None, depth: int = 0) -> bool:
        """Whether the list NODE stands for is known to have no element: `[]` that nothing pushes to, a spread or a
        subset of such a list, or a call of the server's own function whose every return is one."""
        made = self._destructured_from_call(node, module, frame, depth)
        if made is not None:  # `const { writeTools } = categorize(list)`: that member of what the call returns
            return bool(made) and all(self.empty(v, vmod, vframe, depth + 1) for v, vmod, vframe in made)
        name, module = self.bound(node, module, frame)
        node, module = self.definition(name, module)
        if node is None or depth > 6:
            return False
        if node.type == "array":
            if any(c.type != "spread_element" or not c.named_children for c in _items(node)):
                return False
            if not _items(node) and next(self._pushed(node, module, frame, depth), None) is not None:
                return False
            return all(self.empty(c.named_children[0], module, frame, depth + 1) for c in _items(node))
        if node.type != "call_expression":
            return False
        callee = member_chain(node.child_by_field_name("function")) or ()
        if not callee and node.child_by_field_name("function") is not None \
                and node.child_by_field_name("function").type == "member_expression":
            callee = ("", text(node.child_by_field_name("function").child_by_field_name("property")))
        if len(callee) >= 2 and callee[-1] in _SUBSETS:
            receiver = node.child_by_field_name("function").child_by_field_name("object")
            if self.empty(receiver, module, frame, depth + 1):
                return True
            args = call_args(node)
            if callee[-1] != "filter" or not args:
                return False
            # `list.filter((t) => t.hints.readOnly === false)`: empty when the test is false for every element
            test = self._element_test(args[0], module, frame, depth)
            elements = list(self.elements(receiver, module, frame, depth + 1)) if test is not None else []
            return bool(elements) and all(e[-1] is not None and test(e[-1], emod, eframe) is False
                                          for e, emod, eframe in elements)
        values = list(self.call_values(node, module, frame, depth + 1))
        return bool(values) and all(self.empty(v, vmod, vframe, depth + 1) for v, vmod, vframe in values)

    def _destructured_from_call(self, node: ts.Node | None, module: Module, frame: Frame | None, depth: int
                                ) -> list[tuple[ts.Node | None, Module, Frame | None]] | None:
        """For a name destructured in FRAME's scope from a call of the boundary (`const { a } = f(list)`): member `a`
        of each value the call returns, with the frame binding f's parameters; None for any other name."""
        node = strip_casts(node)
        found = destructured(node) if node is not None and frame is not None and depth <= 6 else None
        init = strip_casts(found[0]) if found is not None else None
        if init is None or init.type != "call_expression" \
                or not (module is frame.module and frame.scope.start_byte <= init.start_byte < frame.scope.end_byte):
            return None
        out = []
        for value, vmod, vframe in self.call_values(init, module, frame, depth + 1):
            got: tuple = (value, vmod, vframe)
            for key in found[1]:
                step = self.framed_member(got[0], got[1], key, got[2], depth + 1)
                got = (step[0], step[1], step[2] if len(step) > 2 else got[2])
                if got[0] is None:
                    break
            out.append(got)
        return out if out and all(v is not None for v, _, _ in out) else None

    def _element_test(self, callback: ts.Node, module: Module, frame: Frame | None, depth: int):
        """For `list.filter(callback)`: a function of (element, its module, its frame) -> whether the callback keeps
        that element (its one returned test read with its parameter bound to the element: `(t) => t.exposed`,
        `(t) => isPublic(t)`), None when not known; None for a callback this cannot read."""
        fn, fmod = self.function_of(callback, module, frame, depth + 1)
        if fn is None or fn.type not in FUNCTION_TYPES or depth > 6:
            return None
        names = {k: v for k, v in parameters(fn).items() if v[0] == 0}
        body = returned(fn)
        if not names or len(body) != 1:
            return None

        def test(element: ts.Node, emod: Module, eframe: Frame | None) -> bool | None:
            bound = Frame(scope=fn, module=fmod, names=names, args=(element,), caller=emod, site=element,
                          outer=eframe if eframe is not None else frame, evaluated=True)
            return self._truth(body[0], fmod, bound, 0)
        return test

    def elements(self, node: ts.Node | None, module: Module, frame: Frame | None, depth: int = 0
                 ) -> Iterator[tuple[tuple[ts.Node | None, ...], Module, Frame | None]]:
        """The elements of a list of tool objects, each as a tuple (one value; key and value for Object.entries),
        with its module and the frame it is read under (None: as it is written). An element that is what a dynamic
        import of a folder gives is each module of that folder (`loaded`)."""
        for element, emod, eframe in self._elements(node, module, frame, depth):
            loaded = self.loaded(element[0], emod) if len(element) == 1 and element[0] is not None else []
            yield from loaded or [(element, emod, eframe)]

    def _elements(self, node: ts.Node | None, module: Module, frame: Frame | None, depth: int = 0
                  ) -> Iterator[tuple[tuple[ts.Node | None, ...], Module, Frame | None]]:
        written, wmod = strip_casts(node), module
        name, nmod = self.bound(node, module, frame)
        node, module = self.resolved(name, nmod, frame)
        assigned = local_values_of(node, text(node), top=True) if node is not None and node.type in {
            "identifier", "shorthand_property_identifier"} and depth <= 6 and value_of(module, node) is None else []
        # A list held empty first stands for each value assigned to it later, read at the same depth, one reading of
        # a name at a time: a local (`let a = []; ... a = [...ALL]`), a field of `this` (`this.tools = []` in the
        # constructor, `this.tools = this.load(c)` in a method).
        later: list[ts.Node] = []
        if not assigned and name is not None and name.type == "identifier" and depth <= 6 and _placeholder_list(node):
            later = local_values_of(name, text(name), top=True)
            later = later if len(later) > 1 else []
        elif written is not None and written.type == "member_expression" and depth <= 6 \
                and (node is None or _placeholder_list(node) or name is not None and node.id == name.id):
            later = self._assigned_field(written)
            name, nmod = (written, wmod) if later else (name, nmod)
        if later and name.id not in self._reading:
            self._reading.add(name.id)
            try:
                items = [item for value in later for item in self.elements(value, nmod, frame, depth)]
            finally:
                self._reading.discard(name.id)
            yield from items
            if name.type == "identifier":  # (and what is pushed onto it: `a.push(...extra)`)
                scope = enclosing(later[0], _SCOPES)
                yield from self._stored(scope, (text(name),), {"push": 0}, nmod, frame, depth)
            return
        if assigned:  # `let tools; switch (tier) { case "reader": tools = readers(all); break; ... }`: each value
            for value in assigned:  # assigned (but in a case the program rules out: the entry passes `tier: "reader"`),
                if not envdefault.unreached(value, module, self.link):  # and what is pushed onto it
                    yield from self.elements(value, module, frame, depth + 1)  # (`tools.push(...extra(all))`)
            scope = enclosing(assigned[0], _SCOPES)
            yield from self._stored(scope, (text(node),), {"push": 0}, module, frame, depth)
            return
        if node is None or depth > 6:
            return
        field = collection_field(node)
        if field is not None:  # `this.providers.forEach(...)`, the field made `new Map()`: what its class stores into it
            yield from self._stored(field[0], ("this", field[1]), _STORES, module, None, depth)
            return
        sites = self._constructions_of(node, module) if node.type == "identifier" else None
        if sites:  # `this.tools` of a class constructed at several places: each construction's argument
            for smod, site, index in sites:
                if index < len(call_args(site)):
                    yield from self.elements(call_args(site)[index], smod, None, depth + 1)
            return
        if node.type == "ternary_expression":  # `cond ? some : all`: the elements of either, each once; of the
            seen: set[tuple[int, ...]] = set()  # one its test picks where a call's arguments decide it
            cond = node.child_by_field_name("condition")
            truth = self._truth(cond, module, frame, depth) if frame is not None and frame.module is module \
                and frame.scope.start_byte <= node.start_byte < frame.scope.end_byte else None
            for branch in ("consequence", "alternative") if truth is None else ("consequence" if truth else "alternative",):
                for element, emod, eframe in self.elements(node.child_by_field_name(branch), module, frame, depth + 1):
                    key = tuple(e.id if e is not None else 0 for e in element) + _sites(eframe)
                    if key not in seen:
                        seen.add(key)
                        yield element, emod, eframe
            return
        if node.type == "array":
            for child in node.named_children:
                if child.type == "spread_element" and child.named_children:
                    yield from self.elements(child.named_children[0], module, frame, depth + 1)
                elif child.type != "comment":
                    yield (child,), module, frame
            yield from self._pushed(node, module, frame, depth)  # (and what is pushed onto it later)
            return
        if node.type == "binary_expression" and text(node.child_by_field_name("operator")) in {"||", "??"}:
            for side in ("left", "right"):  # `tools ?? ALL_TOOLS`: a list given, or the default
                yield from self.elements(node.child_by_field_name(side), module, frame, depth + 1)
            return
        if node.type == "subscript_expression":  # `byGroup[group]`, a key not known: every list the record holds
            yield from self._record_lists(node.child_by_field_name("object"), module, frame, depth)
            return
        if node.type == "member_expression":  # `Registry.tools`, `group.tools`: the member's value (of each value a
            for value, vmod, vframe in self.members(node.child_by_field_name("object"), module,  # call may return)
                                                    text(node.child_by_field_name("property")), frame, depth + 1):
                if value.id != node.id:  # (a field its constructor computes: under its frame)
                    yield from self.elements(value, vmod, vframe, depth + 1)
            return
        if node.type == "call_expression":
            function = call_function(node)  # (`(0, utils_1.pick)(TOOLS, opts)`: pick's)
            callee = member_chain(function) or ()
            if not callee and function is not None and function.type == "member_expression":  # `[...].map`, `f().filter`
                callee = ("", text(function.child_by_field_name("property")))
            args = call_args(node)
            if callee in {("Object", "values"), ("Object", "entries"), ("Object", "keys")} and len(args) == 1:
                reduced = list(self._reduced(args[0], module, frame, depth)) \
                    or list(self._written(args[0], module, frame, depth))
                for k, value, vmod, vframe in reduced:  # a record a `reduce` fills: one entry per element
                    yield {"values": (value,), "entries": (k, value), "keys": (k,)}[callee[1]], vmod, vframe
                for k, value, vmod in self.entries(args[0], module, frame) if not reduced else ():
                    yield {"values": (value,), "entries": (k, value), "keys": (k,)}[callee[1]], vmod, None
            elif callee and callee[-1] in ARRAY_SPREAD_HELPERS:  # `__spreadArray(__spreadArray([], a, true), b, true)`
                for a in array_spread_parts(node) or ():
                    yield from self.elements(a, module, frame, depth + 1)
            elif len(callee) >= 2 and callee[-1] == "concat":
                yield from self.elements(node.child_by_field_name("function").child_by_field_name("object"), module,
                                         frame, depth + 1)
                for a in args:
                    yield from self.elements(a, module, frame, depth + 1)
            elif len(callee) >= 2 and callee[-1] in _MAPS and args:  # TOOLS.map((t) => ({name: t.id})): per element
                yield from self._mapped(node, args[0], module, frame, depth)
            elif len(callee) >= 2 and callee[-1] == "flat" and len(args) <= 1:  # `Object.values(GROUPS).flat()`: the
                for element, emod, eframe in self.elements(function.child_by_field_name("object"), module, frame,
                                                           depth + 1):  # elements of each element (a list of lists)
                    if len(element) == 1 and element[0] is not None:
                        items = list(self.elements(element[0], emod, eframe, depth + 1))
                        yield from items if items else [(element, emod, eframe)]  # (a non-list item stays as it is)
            elif len(callee) >= 2 and callee[-1] in _SUBSETS:  # TOOLS.filter(enabled): some of TOOLS' elements
                test = self._element_test(args[0], module, frame, depth) if callee[-1] == "filter" and args else None
                for element, emod, eframe in self.elements(function.child_by_field_name("object"), module, frame,
                                                           depth + 1):
                    if test is None or len(element) != 1 or element[0] is None or test(element[0], emod, eframe) is not False:
                        yield element, emod, eframe  # (an element the test is known to refuse is not kept)
                    else:
                        self._refuse(element[0], emod, eframe, depth)
            elif callee in {("Array", "from"), ("Promise", "all"), ("Promise", "resolve")} and args:
                # (Promise.all: what each element gives; Promise.resolve(list): the list, once awaited)
                yield from self.elements(args[0], module, frame, depth + 1)
            elif (len(callee) == 3 and callee[0] == "this" or len(callee) == 2) and callee[-1] == "values" and not args:
                yield from self._collected(function.child_by_field_name("object"), module, frame, depth)
            else:  # getTools(config): the elements of what the function returns, its parameters bound
                seen: set[tuple[int, ...]] = set()  # two returns of one list give its elements once
                for value, vmod, inner in self.call_values(node, module, frame, depth + 1):
                    for element, emod, eframe in self.elements(value, vmod, inner, depth + 1):
                        key = tuple(e.id if e is not None else 0 for e in element) + _sites(eframe)
                        if key not in seen:
                            seen.add(key)
                            yield element, emod, eframe

    def _record_lists(self, holder: ts.Node | None, module: Module, frame: Frame | None, depth: int
                      ) -> Iterator[tuple[tuple[ts.Node | None, ...], Module, Frame | None]]:
        """The elements of every list a record of lists holds, for an entry of it read by a key not known: the
        record a local names (`const byGroup = {...}`, or one a function returns: `const r = await collect(p)`), its
        literal lists and what `byGroup[k].push(x)` (or `byGroup.core.push(x)`) adds to them in its scope."""
        value, vmod = self.resolved(holder, module, frame)
        if value is None or depth > 6:
            return
        name = strip_casts(holder)
        declarator = value.parent if value.parent is not None and value.parent.type == "variable_declarator" else None
        if name is None or name.type != "identifier" or declarator is None \
                or text(declarator.child_by_field_name("name")) != text(name):
            if value.type == "call_expression":  # a function's record: each of its returns, under the call's frame
                for ret, rmod, inner in self.call_values(value, vmod, frame, depth + 1):
                    if strip_casts(ret) is not None and strip_casts(ret).type == "identifier":
                        yield from self._record_lists(ret, rmod, inner, depth + 1)
            return
        if value.type == "object":
            for pair in object_pairs(value).values():
                if pair.type == "pair":
                    yield from self.elements(pair_value(pair), vmod, frame, depth + 1)
        else:  # `Object.fromEntries(GROUPS.map((g) => [g, []]))`: what is pushed onto its entries
            scope = enclosing(declarator, _SCOPES)
            yield from self._stored(scope, (text(name), "[]"), {"push": 0}, vmod, frame, depth)

    def _assigned_field(self, node: ts.Node) -> list[ts.Node]:
        """For `this.F` (NODE) of a field that starts empty (`this.F = []` or `F = []`, or `null`): the other values
        the methods of its class assign to it, in order; [] when NODE is no such field of `this`."""
        obj = strip_casts(node.child_by_field_name("object"))
        cls = enclosing(node, CLASS_TYPES) if obj is not None and obj.type == "this" else None
        if cls is None:
            return []
        values = class_fields(cls).get(text(node.child_by_field_name("property")), [])
        if not any(_placeholder_list(v) for v in values):
            return []  # (a field that does not start empty: read as its class holds it)
        return [v for v in values if v is not None and not _placeholder_list(v)]

    def _refuse(self, element: ts.Node, module: Module, frame: Frame | None, depth: int) -> None:
        """Note the object literal a refused element is (written out, or what the call it is returns): a filter
        on the path was seen to leave it out (Values.refused)."""
        element = strip_casts(element)
        values = [(element, module)] if element.type == "object" else \
            [(strip_casts(v), vmod) for v, vmod, _ in self.call_values(element, module, frame, depth + 1)] \
            if element.type == "call_expression" else [self.definition(element, module)]
        self.refused |= {(vmod.path, v.start_byte, v.end_byte) for v, vmod in values
                         if v is not None and v.type == "object"}

    def _constructions_of(self, value: ts.Node, module: Module) -> list[tuple[Module, ts.Node, int]] | None:
        """When VALUE is a plain parameter of a class's constructor (the field `this.tools = tools` read with no
        construction known) and the boundary constructs that class at several places: (module, `new C(...)`, the
        parameter's index) of each; else None."""
        ctor = next((a for a in ancestors(value) if a.type in FUNCTION_TYPES), None) \
            if value.type == "identifier" and self.link is not None else None
        if ctor is None or ctor.type != "method_definition" or text(ctor.child_by_field_name("name")) != "constructor":
            return None
        hit = plain_parameters(ctor).get(text(value))
        cls = enclosing(ctor, {"class_declaration", "abstract_class_declaration", "class"})
        found = self.link._class(module, class_name_of(cls)) if hit is not None and cls is not None \
            and class_name_of(cls) else None
        sites = self.constructions(found[1]) if found is not None and found[1].node.id == cls.id else []
        return [(m, new, hit) for m, new in sites] if len(sites) > 1 else None

    def _reduced(self, node: ts.Node, module: Module, frame: Frame | None, depth: int
                 ) -> Iterator[tuple[ts.Node, ts.Node, Module, Frame]]:
        """(key, value, module, frame) of each entry of a record made by `LIST.reduce((acc, el) => { acc[KEY] = VALUE;
        return acc; }, {})` (also returned by a function of the boundary: `buildRecord(tools)`), one per element of
        LIST, KEY and VALUE read under a frame binding `el` to it."""
        value, vmod = self.resolved(*self.bound(node, module, frame), frame)
        value = strip_casts(value)
        if value is None or value.type != "call_expression" or depth > 6:
            return
        function = strip_casts(value.child_by_field_name("function"))
        if function is None or function.type != "member_expression" or text(function.child_by_field_name("property")) != "reduce":
            for ret, rmod, rframe in self.call_values(value, vmod, frame if vmod is module else None, depth + 1):
                yield from self._reduced(ret, rmod, rframe, depth + 1)  # `buildRecord(tools)`: what it returns, its
            return  # parameters bound
        args = call_args(value)
        fn, fmod = self.function_of(args[0], vmod, frame, depth + 1) if len(args) == 2 else (None, vmod)
        names = list(parameters(fn)) if fn is not None and fn.type in FUNCTION_TYPES else []
        if len(names) < 2 or strip_casts(args[1]).type != "object" or object_pairs(strip_casts(args[1])):
            return
        stores = [(strip_casts(a.child_by_field_name("left")), a.child_by_field_name("right"))
                  for a in find(fn, {"assignment_expression"}) if enclosing_function(a) == fn]
        stores = [(left.child_by_field_name("index"), right) for left, right in stores
                  if left is not None and left.type == "subscript_expression"
                  and text(strip_casts(left.child_by_field_name("object"))) == names[0]]
        if not stores:
            return
        for element, emod, eframe in self.elements(function.child_by_field_name("object"), vmod, frame, depth + 1):
            inner = Frame(scope=fn, module=fmod, names={names[1]: (0, ())}, args=element[-1:], caller=emod,
                          site=element[-1], outer=eframe if eframe is not None else frame, evaluated=True)
            for key, stored in stores:
                yield key, stored, fmod, inner

    def _written(self, node: ts.Node, module: Module, frame: Frame | None, depth: int
                 ) -> Iterator[tuple[ts.Node, ts.Node, Module, Frame | None]]:
        """(key, value, module, frame) of each entry of a record made empty (`const TOOLS = {}`, in this module or
        one it is imported from) and filled by writes in the code that declares it (`TOOLS.alpha = {...}`,
        `TOOLS[tool.name] = tool`): a write inside `for...of` loops is one entry per element, the loops' names bound
        to it (nested loops: per element of the inner list read under the outer element). A write in a function
        nested there (a helper called elsewhere) is not read: none of its values is known here."""
        made, mmod = self.resolved(*self.bound(node, module, frame), frame)
        made = strip_casts(made)
        holder = made.parent if made is not None else None
        if made is None or made.type != "object" or made.named_children or depth > 6 or holder is None \
                or holder.type != "variable_declarator" or holder.child_by_field_name("name").type != "identifier":
            return
        name, scope = text(holder.child_by_field_name("name")), enclosing(holder, _SCOPES)
        own = scope if scope is not None and scope.type != "program" else None
        for a in mmod.nodes("assign") if scope is not None else ():
            if a.type != "assignment_expression" or not scope.start_byte <= a.start_byte < scope.end_byte:
                continue
            left = strip_casts(a.child_by_field_name("left"))
            if left is None or left.type not in {"subscript_expression", "member_expression"} \
                    or text(strip_casts(left.child_by_field_name("object"))) != name or enclosing_function(a) != own:
                continue
            key = left.child_by_field_name("index") if left.type == "subscript_expression" \
                else left.child_by_field_name("property")
            loops = [x for x in ancestors(a) if x.type == "for_in_statement" and text(x.child_by_field_name("operator")) == "of"
                     and scope.start_byte <= x.start_byte < scope.end_byte]
            for bound in self._loop_frames(list(reversed(loops)), mmod, None, depth + 1):
                yield key, a.child_by_field_name("right"), mmod, bound

    def _loop_frames(self, loops: list[ts.Node], module: Module, frame: Frame | None, depth: int
                     ) -> Iterator[Frame | None]:
        """One frame per combination of elements of the nested `for...of` LOOPS (outermost first), each inner list
        read under the frame of the element of the loops around it; FRAME alone when there is no loop."""
        if not loops:
            yield frame
            return
        for bound in self._element_frames(loops[0], module, frame, depth):
            yield from self._loop_frames(loops[1:], module, bound, depth)

    def _element_frames(self, loop: ts.Node, module: Module, frame: Frame | None, depth: int) -> Iterator[Frame]:
        """One frame per element of the list the `for...of` LOOP walks (read under FRAME), binding the loop's names
        to it (`[k, v]` to the items of an Object.entries pair)."""
        left = loop.child_by_field_name("left")
        names = loop_names(left)
        for element, emod, eframe in self.elements(loop.child_by_field_name("right"), module, frame, depth + 1):
            yield Frame(scope=loop, module=module, names=names,
                        args=element if left is not None and left.type == "array_pattern" else element[-1:],
                        caller=emod, site=element[-1], outer=eframe if eframe is not None else frame)

    def _mapped(self, call: ts.Node, callback: ts.Node, module: Module, frame: Frame | None, depth: int
                ) -> Iterator[tuple[tuple[ts.Node | None, ...], Module, Frame | None]]:
        """The elements of `list.map(callback)`: what the callback returns, its first parameter bound to each element
        of the list (`([name, tool]) => ...` to the key and value of an Object.entries element,
        `toolsets.map((ts) => ({ ...ts, enabled }))`); of `flatMap`, the elements of that."""
        fn, fmod = self.function_of(callback, module, frame, depth + 1)
        if fn is None or fn.type not in FUNCTION_TYPES:
            return
        params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
        items = [c for c in params.named_children if c.type != "comment"] if params is not None and params.type != "identifier" else []
        first = parameter_pattern(items[0]) if items else None
        tuples = first is not None and first.type == "array_pattern"
        names = _array_names(first) if tuples else {k: v for k, v in parameters(fn).items() if v[0] == 0}
        function = call.child_by_field_name("function")
        receiver = function.child_by_field_name("object")
        flat = text(function.child_by_field_name("property")) == "flatMap"
        results = []
        for value in returned(fn):  # `files.map((f) => import(join(dir, f)))`: the folder's modules, whatever the list
            loaded = self.loaded(value, fmod)
            if loaded:
                yield from loaded
            else:
                results.append(value)
        for element, emod, eframe in self.elements(receiver, module, frame, depth + 1) if results else ():
            inner = Frame(scope=fn, module=fmod, names=names, args=element if tuples else element[-1:], caller=emod,
                          site=element[-1] if element[-1] is not None else call,
                          outer=eframe if eframe is not None else frame, evaluated=True)
            for value in (v for r in results if not self._returned_before(r, fmod, inner, depth)
                          for v in self._taken(r, fmod, inner)):  # (not a return the callback leaves before for
                # this element: `if (c.name === extra.name && !options.chat) return [];`)
                if not flat and not tuples and _whole_parameter(value, names):
                    yield element[-1:], emod, eframe  # `(e) => { ...; return e; }`: the element itself
                    continue
                if flat:
                    yield from self.elements(value, fmod, inner, depth + 1)
                else:
                    yield (value,), fmod, inner

    def _taken(self, value: ts.Node, module: Module, frame: Frame, depth: int = 0) -> list[ts.Node]:
        """The values a callback's result VALUE may be for the element FRAME binds: the branch of a conditional its
        test picks for that element (`d.name in RETRY ? withRetry(d) : d`), both when the test is not known."""
        value = strip_casts(value)
        if value is None or value.type != "ternary_expression" or depth > 4:
            return [value] if value is not None else []
        truth = self._truth(value.child_by_field_name("condition"), module, frame, 0)
        picks = ["consequence", "alternative"] if truth is None else ["consequence" if truth else "alternative"]
        return [v for k in picks for v in self._taken(value.child_by_field_name(k), module, frame, depth + 1)]


# The runtime helper bundlers (esbuild, rolldown, tsup) write for a module's namespace object: `__export({a: () => a})`
# returns it, `__export(target, {a: () => a})` fills `var target = {}`; each getter returns an export.
_BUNDLER_EXPORT = "__export"


_EXPORT_HELPERS: dict[int, tuple[ts.Node, bool]] = memo()  # function node id -> (the node, whether it is one);
# dropped with the other memos by node id (syntax.forget), so it does not grow over the audits of one process


def _export_helper(call: ts.Node, module: Module) -> bool:
    """Whether CALL is of a bundler's `__export(target, getters)` helper: by its name, or, as a minifier renames it
    (`var Pn = (e, t) => { for (var r in t) hM(e, r, { get: t[r], enumerable: !0 }) }`), by what it does: a
    function of two parameters that defines, for each key of the second, a property of the first whose getter is
    that entry."""
    if callee_text(call) == _BUNDLER_EXPORT:
        return True
    callee = strip_casts(call.child_by_field_name("function"))
    fn = strip_casts(value_of(module, callee)) if callee is not None and callee.type == "identifier" else None
    if fn is None or fn.type not in FUNCTION_TYPES:
        return False
    hit = _EXPORT_HELPERS.get(fn.id)
    if hit is None or hit[0] != fn:
        hit = _EXPORT_HELPERS[fn.id] = (fn, _defines_getters(fn))
    return hit[1]


def _defines_getters(fn: ts.Node) -> bool:
    names = list(parameters(fn))
    if len(names) != 2:
        return False
    for loop in find(fn, {"for_in_statement"}):
        if text(loop.child_by_field_name("operator")) != "in" or text(strip_casts(loop.child_by_field_name("right"))) != names[1]:
            continue
        for obj in find(loop, {"object"}):
            getter = object_pairs(obj).get("get")
            value = strip_casts(pair_value(getter)) if getter is not None and getter.type == "pair" else None
            if value is not None and value.type == "subscript_expression" \
                    and text(strip_casts(value.child_by_field_name("object"))) == names[1]:
                return True
    return False


def _bundled_namespace(obj: ts.Node, module: Module) -> ts.Node | None:
    """The getter object of a namespace a bundler's `__export` helper builds, for OBJ (a value of MODULE)."""
    if obj.type == "call_expression" and _export_helper(obj, module):
        args = call_args(obj)
        return strip_casts(args[-1]) if args and strip_casts(args[-1]).type == "object" else None
    holder = obj.parent.parent if obj.type == "object" and obj.parent is not None else None
    if holder is not None and holder.type == "call_expression" and _export_helper(holder, module):
        return obj  # the getters themselves (a helper the bindings see handing its argument back)
    name = _declared_name(obj) if obj.type == "object" and not obj.named_children else None
    if name is not None and name.type == "identifier":
        for stmt in module.nodes("toplevel.stmt"):
            call = stmt.named_children[0] if stmt.named_children else None
            if call is not None and call.type == "call_expression" and _export_helper(call, module):
                args = call_args(call)
                if len(args) == 2 and text(args[0]) == text(name) and strip_casts(args[1]).type == "object":
                    return strip_casts(args[1])
    return None


def _whole_parameter(value: ts.Node | None, names: dict[str, tuple[int, tuple[str, ...]]]) -> bool:
    """Whether VALUE (a callback's result) is the element its first parameter binds, whole."""
    value = strip_casts(value)
    return value is not None and value.type == "identifier" and names.get(text(value)) == (0, ())


def _items(array: ts.Node) -> list[ts.Node]:
    return [c for c in array.named_children if c.type != "comment"]


def shorthand_key(node: ts.Node, module: Module) -> ts.Node:
    """The key of a shorthand entry (`{ note_add }`) as a node that reads as the key's text: the name of the
    declaration of the variable it copies (`var note_add = tool(...)`), or of the assignment that gives it its value,
    whose text it is; else the entry itself."""
    value = value_of(module, node) if node.type == "shorthand_property_identifier" else None
    named = _declared_name(value) if value is not None else None
    if value is not None and value.parent is not None and value.parent.type == "assignment_expression":
        named = value.parent.child_by_field_name("left")  # (`skills_list = tool({...})` of a `var skills_list;`)
    return named if named is not None and named.type == "identifier" and text(named) == text(node) else node


def _declared_name(node: ts.Node) -> ts.Node:
    """The name node of the declaration a value is written in (`export const x = ...`, `function x`), or the value."""
    parent = node.parent
    if parent is not None and parent.type == "variable_declarator":
        return parent.child_by_field_name("name")
    named = node.child_by_field_name("name") if node.type in {"function_declaration", "class_declaration"} else None
    return named if named is not None else node


def _placeholder_list(node: ts.Node | None) -> bool:
    """Whether NODE is a list's placeholder before its value: `[]` or `null`."""
    node = strip_casts(node)
    return node is not None and (node.type == "null" or node.type == "array" and not node.named_children)


def _calls_on(scope: ts.Node, module: Module) -> dict[tuple[str, ...], list[tuple[ts.Node, tuple[str, ...]]]]:
    """The method calls within SCOPE by their receiver (`tools.push(x)`: `("tools",)`), with the callee's whole chain,
    in the order of the code (read once per scope: every list declared there asks what is stored into it)."""
    key = ("lists.calls_on", scope.id)
    hit = module.memo.get(key)
    if hit is None:
        hit = module.memo[key] = {}
        for call in find(scope, {"call_expression"}):
            chain = member_chain(call.child_by_field_name("function")) or ()
            if len(chain) > 1:
                hit.setdefault(chain[:-1], []).append((call, chain))
    return hit


def _declared_in(loop: ts.Node) -> set[str]:
    """The names declared in the body of LOOP (`const p = provider.load(deps)`): values of each element too."""
    body = loop.child_by_field_name("body")
    return {text(d.child_by_field_name("name")) for d in find(body, {"variable_declarator"})} if body is not None else set()


def _branches(node: ts.Node | None) -> list[ts.Node]:
    """The expressions each branch of a conditional NODE gives (nested conditionals too): `new C(...)`, or anything."""
    node = strip_casts(node)
    if node is not None and node.type == "ternary_expression":
        return [b for k in ("consequence", "alternative") for b in _branches(node.child_by_field_name(k))]
    return [node] if node is not None else []
