"""Follows an expression back to the object literals it may stand for, as a value or as the elements of a list,
across modules: constants and imports (named and namespace), spreads, `concat`/`filter`/`map`/`slice` over a list,
`push` onto it, a ternary or `||`, a function or method that returns it, a class field (`this.x = ...` anywhere in the
class), a parameter (its default and the argument of every call site, `new` for a constructor), `Object.values`. A
namespace (`import * as tool`) and an instance of a class of the boundary stand for themselves: objects whose members
are read where they are used (extract/listing.py). What it cannot follow is recorded as unread with its place, and
with the files it may stand for when that is known."""

from __future__ import annotations

from typing import Callable, Iterator

import tree_sitter as ts

from auditor.extract import bindings, dead, envdefault, folders, tslib
from auditor.extract.bindings import bound_names, value_of
from auditor.extract.program import Module
from auditor.extract.frames import (_pattern, loop_names, parameter_default, parameter_property, parameters,
                                    plain_parameters)
from auditor.extract.values import Values
from auditor.extract.syntax import (FUNCTION_TYPES, ancestors, call_args, enclosing, find, member_chain, nullish,
                                    object_pairs, pair_value, string_value, strip_casts, text)

MAX_DEPTH = 24  # hops from the handler's result to a descriptor
# Array methods whose result holds (some of) the receiver's elements, in the same or another order.
_KEEPS = frozenset({"filter", "slice", "sort", "toSorted", "reverse", "toReversed", "flat", "concat", "map",
                    "flatMap", "splice", "with", "values", "entries",  # (entries: [key, element] of each)
                    "find", "findLast", "at", "pop", "shift"})  # one of its elements
_FINDS = frozenset({"find", "findLast"})  # an element the callback's test refuses is never the one found
_ADDS = frozenset({"push", "unshift", "concat"})  # the arguments become elements
_COLLECTIONS = frozenset({"Map", "Set", "WeakMap"})  # `new Map()`: filled by set/add/push later
_OBJECT_VALUES = {("Object", "values"), ("Object", "entries")}  # (entries: [key, value] pairs; the values listed)
_STORES = {"set": 1, "add": 0}  # `registry.set(key, value)`, `set.add(value)`: the argument stored
_LOOKUP = "get"  # `byName.get(key)`: a value of the Map


class Reach:
    """Follows expressions back to object literals; one instance answers many questions (reset() between)."""

    def __init__(self, link, calls_of: Callable[[ts.Node], list[tuple[Module, ts.Node]]], modules: list[Module],
                 tables: frozenset[str] = frozenset(), registrations: frozenset[str] = frozenset()):
        self.link, self.calls_of, self.modules = link, calls_of, modules
        self.tables = tables  # kb/sdk.yaml handler_tables
        self.registrations = registrations  # the tool registration methods of kb/sdk.yaml high_level
        self.values = Values(link)
        self._seen: set[ts.Node] = set()
        # What each expression walked whole stands for, and the parts of it not read: met again (another use of the
        # same constant, the loop variable read once as a list and once through `Object.values`), it stands for
        # the same objects; only an expression met again within its own walk (a cycle) stands for nothing.
        self._done: dict[ts.Node, tuple[list[tuple[ts.Node, Module]], list]] = {}
        self._unread: list[tuple[Module, ts.Node, frozenset[str] | None]] = []
        self.delegated = False  # the result met is (or holds) what the SDK's own handler of the method returns
        self.sites: set[ts.Node] = set()  # calls of functions of the boundary followed to what they return
        self.gated: list[tuple[frozenset[ts.Node], tuple[str, ...]]] = []  # (objects, env): Reach._gate
        self.copies: set[ts.Node] = set()  # literals copying the name of descriptors reached (`{name: t.name, ...}`)
        self.copied: set[ts.Node] = set()  # the objects those copy (each a tool, named by its own name)
        self._imported_by: dict[tuple[str, str], list[tuple[Module, str]]] | None = None  # see _importers
        self._counts = None  # see _words

    def _words(self):
        """The words of the boundary's code, counted (dead.words), read once (shared with held.py through the link)."""
        if self._counts is None:
            self._counts = dead.boundary_words(self.link) if self.link is not None \
                else dead.words(m.tree for m in self.modules)
        return self._counts

    def reset(self) -> list[tuple[Module, ts.Node, frozenset[str] | None]]:
        """Start a new question: forget what was met; the list of unread parts it returns fills as it goes."""
        self._seen, self._unread, self.delegated, self.sites, self.copies, self.copied = set(), [], False, set(), set(), set()
        self._done, self.gated = {}, []
        return self._unread

    def miss(self, module: Module, node: ts.Node, scope: frozenset[str] | None = None) -> None:
        self._unread.append((module, node, scope))

    def scope_of(self, node: ts.Node, module: Module) -> frozenset[str] | None:
        """The files whose descriptors an object listed as it is may stand for: a namespace's module and what it
        imports; None (any file) for an instance."""
        space = self.values.namespace(node, module) if node.type == "identifier" else None
        return self._closure(space) if space is not None else None

    def _closure(self, path: str) -> frozenset[str]:
        """PATH and the boundary modules it imports, directly or not."""
        return frozenset(self.link.closure([path]))

    # -- expressions ------------------------------------------------------------------------
    def expr(self, node: ts.Node | None, module: Module, depth: int) -> Iterator[tuple[ts.Node, Module]]:
        """The object literals NODE may stand for (as a value, or as the elements of a list)."""
        node = strip_casts(node)
        done = self._done.get(node) if node is not None else None
        if done is not None:
            self._unread.extend(done[1])
            yield from done[0]
            return
        if node is None or node in self._seen:
            return
        if depth > MAX_DEPTH:
            self.miss(module, node)
            return
        self._seen.add(node)
        mark, out = len(self._unread), []
        for found in self._expr(node, module, depth):
            out.append(found)
            yield found
        self._done[node] = (out, self._unread[mark:])

    def _expr(self, node: ts.Node, module: Module, depth: int) -> Iterator[tuple[ts.Node, Module]]:
        t, d = node.type, depth + 1
        if t == "sequence_expression" and node.named_children:  # `(log("list"), { tools })`: its last operand
            yield from self.expr(node.named_children[-1], module, d)
            return
        if t == "object":
            yield node, module
            yield from self._borrowed(node, module, d)
            if "name" not in object_pairs(node):  # `{ ...definition, handler }`: named by the object it copies
                for spread in (c for c in node.named_children if c.type == "spread_element" and c.named_children):
                    yield from self.expr(spread.named_children[0], module, d)
        elif t == "array":
            for child in node.named_children:
                if child.type != "comment":
                    yield from self.expr(child, module, d)
        elif t in {"spread_element", "await_expression"} and node.named_children:
            yield from self.expr(node.named_children[0], module, d)
        elif t in {"identifier", "shorthand_property_identifier"}:
            yield from self._name(node, module, d)
        elif t == "member_expression":
            yield from self._member(node, module, d)
        elif t == "call_expression":
            yield from self._call(node, module, d)
        elif t == "subscript_expression":
            yield from self._subscript(node, module, d)
        elif t == "new_expression":
            yield from self._new(node, module, d)
        elif t == "ternary_expression":
            pick = envdefault.decide(node.child_by_field_name("condition"), module, self.link)
            if pick is None:
                for f in ("consequence", "alternative"):
                    yield from self.expr(node.child_by_field_name(f), module, d)
            else:  # both are listed: the branch the default environment picks, and the other, listed only under
                chosen, other = ("consequence", "alternative") if pick.value else ("alternative", "consequence")
                yield from self.expr(node.child_by_field_name(chosen), module, d)  # another environment (`gated`)
                self._gate(node.child_by_field_name(other), node.child_by_field_name(chosen), module, d, pick.env)
                yield from self.expr(node.child_by_field_name(other), module, d)
        elif t == "binary_expression" and text(node.child_by_field_name("operator")) in {"||", "??", "&&"}:
            if text(node.child_by_field_name("operator")) != "&&":
                yield from self.expr(node.child_by_field_name("left"), module, d)
            yield from self.expr(node.child_by_field_name("right"), module, d)
        elif t == "ERROR":  # a region that does not parse: it may name anything this module can reach
            self.miss(module, node, self._closure(module.path))
        elif t not in {"null", "undefined"}:
            self.miss(module, node)

    def _gate(self, node: ts.Node | None, default: ts.Node | None, module: Module, d: int, env: tuple[str, ...]) -> None:
        """The objects NODE stands for and DEFAULT (the branch the default environment picks) does not, listed only
        when an environment variable of ENV is set: recorded (`gated`), so that the ledger says on what their tools
        depend; what is met here leaves no trace on the question."""
        objects = self._held(node, module, d) - self._held(default, module, d)
        if objects:
            self.gated.append((frozenset(objects), env))

    def _held(self, node: ts.Node | None, module: Module, d: int) -> set[ts.Node]:
        """The objects NODE stands for, and what a record of them holds (a branch may be a record of lists of
        descriptors), read without a trace on the question."""
        kept = (len(self._unread), set(self._seen), dict(self._done), set(self.sites), set(self.copies), set(self.copied),
                self.delegated)
        objects: set[ts.Node] = set()
        todo = list(self.expr(node, module, d))
        while todo:
            obj, omod = todo.pop()
            if obj not in objects:
                objects.add(obj)
                todo += self._values(obj, omod, d) if obj.type == "object" and not _descriptor(obj) else []
        del self._unread[kept[0]:]
        self._seen, self._done, self.sites, self.copies, self.copied, self.delegated = kept[1:]
        return objects

    def _borrowed(self, obj: ts.Node, module: Module, d: int):
        """The descriptor whose fields an object literal copies (`{name: definition.name, ...}`): it is listed too.
        What cannot be followed here is no gap of the list: the object itself is what is listed."""
        pair = object_pairs(obj).get("name")
        value = strip_casts(pair_value(pair)) if pair is not None and pair.type == "pair" else None
        if value is None or value.type != "member_expression" or text(value.child_by_field_name("property")) != "name":
            return
        mark = self._mark()
        copied = []
        source = member_chain(strip_casts(value.child_by_field_name("object")))
        needs = frozenset(k for k in _SCHEMA_KEYS if k in object_pairs(obj) and object_pairs(obj)[k].type == "pair"
                          and source and member_chain(strip_casts(pair_value(object_pairs(obj)[k]))) == (*source, k))
        for found in self.expr(value.child_by_field_name("object"), module, d):
            if found[0].type == "object" and not holds(found[0], needs):
                continue  # (`{ name: t.name, inputSchema: t.inputSchema }` of an object with no schema: no tool's)
            copied += [found[0]] if found[0].type == "object" else []
            yield found
        if copied and len(self._unread) == mark[0]:  # a copy of descriptors read whole: named by theirs
            self.copies.add(obj)
            self.copied.update(copied)
        self._rewind(mark)  # what was met here is met again, with its gaps, where the list itself leads to it

    def _mark(self) -> tuple[int, set[ts.Node]]:
        """Where the question stands: how many parts are unread, and what was met (`_rewind` goes back to it)."""
        return len(self._unread), set(self._seen)

    def _rewind(self, mark: tuple[int, set[ts.Node]]) -> None:
        """Forget the parts left unread and what was met since MARK: a trial reading leaves no trace."""
        del self._unread[mark[0]:]
        self._seen = mark[1]

    def _name(self, node: ts.Node, module: Module, d: int) -> Iterator[tuple[ts.Node, Module]]:
        name = text(node)
        for scope in ancestors(node):
            if scope.type in FUNCTION_TYPES:
                break
            left = scope.child_by_field_name("left") if scope.type == "for_in_statement" else None
            if left is not None and left.type == "identifier" and text(left) == name \
                    and text(scope.child_by_field_name("operator")) == "of":
                yield from self.expr(scope.child_by_field_name("right"), module, d)  # each element of the list
                return
            if left is not None and left.type == "object_pattern" and text(scope.child_by_field_name("operator")) == "of":
                path = dict(_pattern(left)).get(name)  # `for (const { name, meta } of DESCRIPTORS)`: member meta
                if path is not None:  # of each
                    for element, emod in self.expr(scope.child_by_field_name("right"), module, d):
                        yield from self._at_path(element, emod, path, d)
                    return
            if left is not None and left.type == "array_pattern" and text(scope.child_by_field_name("operator")) == "of" \
                    and [text(c) for c in left.named_children if c.type != "comment"][1:2] == [name] \
                    and self._keyed_pairs(scope.child_by_field_name("right"), module):
                # `for (const [key, tool] of this.tools)` over a Map (or `.entries()`, `Object.entries(r)`): the value
                yield from self.expr(scope.child_by_field_name("right"), module, d)
                return
        for scope in ancestors(node):
            if scope.type not in FUNCTION_TYPES:
                continue
            decl = next((n for n in find(scope, {"variable_declarator"}) if _owner(n) == scope
                         and text(n.child_by_field_name("name")) == name), None)
            if decl is not None:
                yield from self._variable(name, decl.child_by_field_name("value"), scope, module, d)
                return
            picked = _destructured(scope, name)
            if picked is not None:  # const { tools } = options: member `tools` of what options stands for
                yield from self._member_of(picked[0], picked[1], scope, module, d)
                return
            if name in parameters(scope):
                yield from self._parameter(scope, name, module, d)
                return
        local = bindings.visible(node, name) if name not in module.toplevel else None
        if local is not None and _owner(local) is None and local.child_by_field_name("name") is not None \
                and local.child_by_field_name("name").type == "identifier":
            # a block's variable at the top level (a loop's body): its initializer, what is assigned and pushed in it
            block = next((a for a in ancestors(local) if a.type == "statement_block"), module.tree.root_node)
            yield from self._variable(name, local.child_by_field_name("value"), block, module, d)
            return
        picked = _destructured_top(module, name) if name not in module.toplevel else None
        if picked is not None:  # `const { meta, aliases } = createMetaTool({...})` at the top: that member of it
            yield from self._member_of(picked[0], picked[1], module.tree.root_node, module, d)
            return
        if name not in module.toplevel and _declared_bare(module, name):  # `let tools;` at the top, assigned later
            yield from self._variable(name, None, module.tree.root_node, module, d)
            return
        where = self.link.binding(module, name) if self.link is not None else (module, name)
        if where is not None and where[1] in where[0].toplevel:  # a constant of this module, or imported
            mod, local = where
            yield from self._variable(local, mod.toplevel[local], mod.tree.root_node, mod, d)
            return
        if where is not None and where[0] is not module and self.link.value(*where) is not None:
            yield from self._commonjs(where[0], where[1], d)  # `export default [...]`, `exports.x = [...]`
            return
        imported = self.link.imports.get(module.path, {}).get(name) if self.link is not None else None
        data = self.link.by_path.get(imported.module) if imported is not None and imported.name == "*" \
            and imported.module is not None and imported.module.endswith(".json") else None
        if data is not None and self.link.value(data, "") is not None:  # `require("./tools.json")`: its data
            yield from self.expr(self.link.value(data, ""), data, d)
            return
        if self.values.namespace(node, module) is not None:  # `import * as tool`: an object of the module's exports
            yield node, module
            return
        if where is not None and where[1] in where[0].functions:  # a function listed as it is (its members assigned:
            yield node, module                                    # `chatTool.description = ...`): read by a template
            return
        if imported is not None:  # an export not read (a gap in its module), or a package's: only its own files
            self.miss(module, node, self._closure(imported.module) if imported.module else frozenset())
            return
        value, vmod = self.values.definition(node, module)
        if value is None or value.type in {"identifier", "shorthand_property_identifier"}:
            self.miss(module, node)
        else:
            yield from self.expr(value, vmod, d)

    def _variable(self, name: str, value: ts.Node | None, scope: ts.Node, module: Module, d: int):
        """A variable's initializer, the values assigned to it, and what is pushed onto it, within SCOPE; also by a
        function of the boundary it is handed to (`collect(server, list)` that pushes onto its parameter), and, for a
        top-level one, by the modules that import it (`registry.push(toolA, toolB)` in a module of its own)."""
        yield from self.expr(value, module, d)
        for later in _assigned(module, scope, (name,)):
            if not envdefault.unreached(later, module, self.link):  # (`case "admin": list = adminTools` of a reader)
                yield from self.expr(later, module, d)
        for imod, local in self._importers(module, name) if scope == module.tree.root_node else ():
            for later in _assigned(imod, imod.tree.root_node, (local,)):
                yield from self.expr(later, imod, d)
        for fmod, fn, param in self._handed_to(name, scope, module):
            for later in _assigned(fmod, fn, (param,)):
                yield from self.expr(later, fmod, d)

    def _importers(self, module: Module, name: str) -> list[tuple[Module, str]]:
        """(module, local name) of each import of top-level NAME of MODULE by another module of the boundary (named
        imports, re-exports followed)."""
        if self.link is None:
            return []
        if self._imported_by is None:  # (exporting module path, its local name) -> importers: built once
            self._imported_by = {}
            for m in self.modules:
                for local in self.link.imports.get(m.path, {}):
                    where = self.link.binding(m, local)
                    if where is not None and where[0] is not m:
                        self._imported_by.setdefault((where[0].path, where[1]), []).append((m, local))
        return self._imported_by.get((module.path, name), [])

    def _handed_to(self, name: str, scope: ts.Node, module: Module) -> Iterator[tuple[Module, ts.Node, str]]:
        """(module, function, parameter) of each call within SCOPE that hands NAME, as it is, to a function of the
        boundary, whose parameter of that place is a plain name."""
        for call in module.nodes("call") if self.link is not None else ():
            if not (scope.start_byte <= call.start_byte < scope.end_byte):
                continue
            places = [i for i, a in enumerate(call_args(call)) if a.type == "identifier" and text(a) == name]
            hit = self.link.resolve(module, call) if places else None
            if hit is None or hit[1].type not in FUNCTION_TYPES:
                continue
            for param, (index, path) in parameters(hit[1]).items():
                if index in places and not path:
                    yield hit[0], hit[1], param

    def _member_of(self, value: ts.Node | None, path: tuple[str, ...], scope: ts.Node, module: Module, d: int):
        """Member PATH of VALUE, written in SCOPE: of the arguments when VALUE is a parameter of SCOPE."""
        value = strip_casts(value)
        if value is not None and value.type == "identifier" and text(value) in parameters(scope):
            yield from self._parameter(scope, text(value), module, d, path)
            return
        member, where = value, module
        for key in path:
            member, where = self.values.member(member, where, key, None, 0)
        made = self._made_objects(value, module, d) if member is None else None
        if member is None and made is None:
            self.miss(module, value if value is not None else scope)
        elif member is None:
            for o, omod in made:  # (what a call returns, read by reach: `return { meta, aliases }`)
                yield from self._at_path(o, omod, path, d)
        else:
            yield from self.expr(member, where, d)

    def _parameter(self, fn: ts.Node, name: str, module: Module, d: int, more: tuple[str, ...] = ()):
        if self._wraps_registration(fn):  # what a registration method is handed: a tool the registrations read
            self.delegated = True
            return
        index, path = parameters(fn)[name]
        path = path + more
        default = parameter_default(fn, index)
        sites: list[tuple[Module, ts.Node]] = []
        receiver = _iterated(fn) if index == 0 and default is None else None
        if receiver is not None:  # `list.flatMap((c) => ...)`: c is each element of the list
            for element, emod in self.expr(receiver, module, d):
                yield from self._at_path(element, emod, path, d) if path else iter([(element, emod)])
            return
        if fn.type == "method_definition" and text(fn.child_by_field_name("name")) == "constructor":
            sites = self._constructions(enclosing(fn, {"class_declaration", "class"}))
        else:  # (a callback: the calls the function it is handed to makes of it, summaries.Expander.calls_of)
            sites = self.calls_of(fn)
        if not sites and default is None:
            if not dead.unreferenced_method(fn, self._words()):  # (a method nothing can call holds nothing)
                self.miss(module, fn)
            return
        if default is not None:
            yield from self.expr(default, module, d)
        for cmod, call in sites:
            args = call_args(call)
            if index >= len(args):
                continue
            value, where = args[index], cmod
            for key in path:
                value, where = self.values.member(value, where, key, None, 0)
            if value is None and path and strip_casts(args[index]) is not None \
                    and strip_casts(args[index]).type == "identifier":  # `register(t)` of a loop's variable: the
                for obj, omod in list(self.expr(args[index], cmod, d)):  # member of each element it stands for
                    yield from self._at_path(obj, omod, path, d)
            elif value is None:
                self.miss(cmod, args[index])
            else:
                yield from self.expr(value, where, d)

    def _constructions(self, cls: ts.Node | None) -> list[tuple[Module, ts.Node]]:
        if cls is None or self.link is None:
            return []
        read = {m.path for m in self.modules}
        return [(m, new) for m, new in self.link.constructions(cls) if m.path in read]

    def _member(self, node: ts.Node, module: Module, d: int):
        chain = member_chain(node)
        if chain and len(chain) == 2 and chain[0] == "this":
            yield from self._class_member(enclosing(node, {"class_declaration", "class"}), chain[1], node, module, d)
            return
        obj, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
        if chain and len(chain) == 2 and chain[0] == "exports" and self.link is not None:  # CommonJS: this module's own
            value = self.link.assigned.get(module.path, {}).get(chain[1])               # `exports.x = {...}`
            if value is not None:
                yield from self._commonjs(module, chain[1], d)
                return
        space = self._namespace(obj, module)
        if space is not None:  # `defs.gamma` of `import * as defs`
            yield from self._export(space, text(prop), node, module, d)
            return
        spaces = self._loaded(obj, module)
        if spaces is not None:  # `mod.toolDefinition` of `const mod = await import(join(toolsDir, file))`: each
            for m in spaces:     # module of the folder's export
                yield from self._export(m.path, text(prop), node, module, d)
            return
        scope = _parameter_scope(obj)
        if scope is not None:  # `config.tools` of a parameter: that member of the argument of every call site
            yield from self._parameter(scope, text(obj), module, d, (text(prop),))
            return
        value, where = self.values.member(obj, module, text(prop), None, 0)
        if value is None and self._sdk_result(obj, module):  # `result.tools` of the SDK's own handler's result
            self.delegated = True
        elif value is None:
            made = self._made_objects(obj, module, d)
            if made is None:
                self.miss(module, node)
            for o, omod in made or ():  # `getContext().registry` of a function returning a module's `let` that
                yield from self._at_path(o, omod, (text(prop),), d)  # holds `{ registry: new Registry() }`
        else:
            held = bindings.collection_field(value)
            if held is not None:  # `this.host.tools` of a host whose class makes `this.tools = new Map()`: what that
                yield from self._class_member(held[0], held[1], node, where, d)  # class stores into its field
            else:
                yield from self.expr(value, where, d)

    def _class_member(self, cls: ts.Node | None, name: str, node: ts.Node, module: Module, d: int):
        """`this.NAME` within CLS: what its method of that name returns, or the field's value and what the class
        assigns or stores into it later (`this.tools.set(t.name, t)`), or the argument of a constructor parameter
        property."""
        info = next((i for i in module.classes.values() if i.node == cls), None) if cls is not None else None
        if info is not None and name in info.methods:
            yield from self._returned(info.methods[name], module, d)
            return
        field = info.fields.get(name) if info is not None else None
        later = _assigned(module, cls, ("this", name)) if cls is not None else []
        ctor = info.methods.get("constructor") if info is not None else None
        if field is None and not later and parameter_property(ctor, name) is not None:
            yield from self._parameter(ctor, name, module, d)  # `constructor(private tools)`: the argument
            return
        if field is None and not later:
            self.miss(module, node)
            return
        if field is not None:
            yield from self.expr(field.child_by_field_name("value"), module, d)
        for value in later:
            yield from self.expr(value, module, d)

    def _made_objects(self, obj: ts.Node | None, module: Module, d: int) -> list[tuple[ts.Node, Module]] | None:
        """The object literals OBJ (a call, a name) stands for, read whole by reach (every value it may have is one:
        a function's returns, a variable's initializer and what is assigned to it, `null` aside); else None."""
        obj = strip_casts(obj)
        if obj is None or obj.type not in {"call_expression", "identifier", "await_expression"}:
            return None
        mark = self._mark()
        found = [(o, om) for o, om in self.expr(obj, module, d) if o.type != "null"]
        if found and len(self._unread) == mark[0] and all(o.type == "object" for o, _ in found):
            return found
        self._rewind(mark)
        return None

    def _keyed_pairs(self, node: ts.Node | None, module: Module) -> bool:
        """Whether iterating NODE yields [key, value] pairs whose values `expr` reads as its elements: `m.entries()`,
        `Object.entries(r)`, or a Map (`new Map()`, a field or variable initialised to one)."""
        node = strip_casts(node)
        if node is None:
            return False
        if node.type == "call_expression":
            chain = member_chain(node.child_by_field_name("function")) or ()
            return chain[-1:] == ("entries",)
        chain = member_chain(node)
        if chain and len(chain) == 2 and chain[0] == "this":
            cls = enclosing(node, {"class_declaration", "class"})
            info = next((i for i in module.classes.values() if i.node == cls), None) if cls is not None else None
            field = info.fields.get(chain[1]) if info is not None else None
            value = strip_casts(field.child_by_field_name("value")) if field is not None else None
        else:
            value, _ = self.values.definition(node, module)
            value = strip_casts(value)
        return value is not None and value.type == "new_expression" \
            and text(value.child_by_field_name("constructor")) in _COLLECTIONS - {"Set"}  # (a Set yields its values)

    def _wraps_registration(self, fn: ts.Node) -> bool:
        """Whether FN replaces a tool registration method of kb/sdk.yaml high_level on an object
        (`server.addTool = (tool) => { ...; add(tool) }`): its parameters are what each registration is handed."""
        parent = fn.parent
        while parent is not None and parent.type in {"parenthesized_expression", "as_expression"}:
            parent = parent.parent
        left = parent.child_by_field_name("left") if parent is not None and parent.type == "assignment_expression" else None
        return left is not None and left.type == "member_expression" \
            and text(left.child_by_field_name("property")) in self.registrations

    def _registered(self, node: ts.Node, module: Module) -> bool:
        """Whether `this.x` (NODE) is the record of a high-level server class of its own tools: its class defines
        a tool registration method of kb/sdk.yaml high_level (the SDK's McpServer, inlined by a bundler, or a class
        of the package shaped like it) and stores into that member by key (the identifier is no part of it)."""
        cls = enclosing(node, {"class_declaration", "class"})
        info = next((i for i in module.classes.values() if i.node == cls), None) if cls is not None else None
        return info is not None and bool(self.registrations & set(info.methods)) and bool(_keyed(module, node))

    def _sdk_result(self, node: ts.Node | None, module: Module) -> bool:
        """Whether NODE stands for what a handler of the SDK's table returns (`await original(request, extra)`)."""
        value, where = self.values.definition(node, module)
        value = strip_casts(value)
        return value is not None and value.type == "call_expression" and \
            self._sdk_handler(value.child_by_field_name("function"), where)

    def _call(self, node: ts.Node, module: Module, d: int):
        callee = node.child_by_field_name("function")
        chain = member_chain(callee) or ()
        args = call_args(node)
        space = self._namespace(args[0], module) if chain in _OBJECT_VALUES and args else None
        if space is not None:  # Object.values(defs) of `import * as defs`: every export
            for name in sorted(self.values.export_names(space)):
                yield from self._export(space, name, node, module, d)
            return
        if args and (chain in _OBJECT_VALUES or chain == ("Object", "keys") and _indexed_by_callback(node, args[0])):
            # the values of an object of descriptors (of entries: [key, value]; of keys a callback takes each entry by:
            # `Object.keys(TOOLS).map((k) => ({ name: k, ...TOOLS[k] }))`)
            record = member_chain(strip_casts(args[0]))
            if record and record[0] == "this" and len(record) == 2 and self._registered(args[0], module):
                self.delegated = True  # the high-level server's own record of what it registers
                return
            for obj, omod in self.expr(args[0], module, d):
                if _descriptor(obj):  # an element of a list whose values are taken (`Object.values(array)`)
                    yield obj, omod
                else:
                    yield from self._values(obj, omod, d)
            for key, value in _keyed(module, args[0]) if record else ():  # `record[key] = value`
                if chain[1] == "entries" and string_value(key) is None:  # the key names the entry: not known
                    self.miss(module, key.parent)
                else:
                    yield from self.expr(value, module, d)
            return
        if chain == ("Object", "fromEntries") and len(args) == 1:  # a record made of [key, value] pairs: its values
            yield from self._paired(args[0], module, d)
            return
        if chain in {("Array", "from"), ("Array", "of"), ("Promise", "all"), ("Promise", "resolve"), ("Object", "freeze")}:
            # (all: what each element resolves to; resolve, freeze: their argument)
            for a in args if chain[1] == "of" else args[:1]:
                yield from self.expr(a, module, d)
            return
        hit = self.link.resolve(module, node) if self.link is not None else None
        if hit is not None:  # the call stands for what it returns (a descriptor made per call: extract/summaries.py)
            self.sites.add(node)
            index = self._hands_back(hit[1], hit[0])
            if index is not None:  # `defineTool(t) { return t; }`: this call's argument, not every call's
                yield from self.expr(args[index] if index < len(args) else None, module, d)
                return
            yield from self._returned(hit[1], hit[0], d)
            return
        handed = self._handed_functions(callee, module) if callee is not None and callee.type == "identifier" else None
        if handed:  # `({ creator }) => creator(client)` over a list of `{ creator: makeTools }`: what each returns
            for fn, fmod in handed:
                yield from self._returned(fn, fmod, d)
            return
        if self._sdk_handler(callee, module):  # the SDK's own handler: the tools registered on the server
            self.delegated = True
            return
        method = text(callee.child_by_field_name("property")) if callee is not None and callee.type == "member_expression" else ""
        entries = self._map_entries(callee.child_by_field_name("object"), module) if method == _LOOKUP else None
        if entries is not None:  # `byName.get(KEY)` of `new Map(LIST.map((t) => [t.name, t]))`: one of its values
            for value, vmod in entries:
                yield from self.expr(value, vmod, d)
            return
        if method in _SETTLES and callee.type == "member_expression":
            yield from self._settled(callee.child_by_field_name("object"), method, args, module, d)
            return
        if method in _KEEPS:
            receiver = callee.child_by_field_name("object")
            read = False
            cb, cmod = strip_casts(args[0]) if args else None, module
            if cb is not None and cb.type not in FUNCTION_TYPES:  # `tools.map(convert)`: the function it names
                fn, fmod = self.values.function_of(cb, module, None)
                cb, cmod = (fn, fmod) if fn is not None and fn.type in FUNCTION_TYPES else (cb, module)
            cb, cmod = self._forwarded(cb, cmod) if cb is not None and cb.type in FUNCTION_TYPES else (cb, cmod)
            exact = False  # the callback returns only members of its element (`(d) => d.def`): not the element
            if method in {"map", "flatMap"} and cb is not None:
                paths = self._paths(cb, cmod)
                read = bool(paths)
                exact = read and self._members_only(cb, cmod)
                yield from self._mapped(receiver, paths, module, d)
                made = None if paths else self._made(cb, cmod, d) or self._made_per_element(node, module, cb, cmod)
                if made:  # `sets.flatMap((s) => s.tools())`: what the callback makes of each element
                    yield from made
                    return
            renames = method in {"map", "flatMap"} and cb is not None and self._copies_name(cb, cmod)
            # (`(t) => ({ name: t.name, inputSchema: t.inputSchema })` lists tools: an element with no input schema to
            # copy, a prompt of a list that shares its source, is not one; nor is what a copy with no input schema
            # makes, `(p) => ({ name: p.name, title: p.title })`)
            needs = _SCHEMA_KEYS & self._copied_keys(cb, cmod, read=True) if renames else frozenset()
            renames = renames and all(holds(r, _SCHEMA_KEYS) for r in (strip_casts(x) for x, _ in self.returns(cb, cmod))
                                      if r is not None and r.type == "object")
            renamed = self._renamed(cb, cmod) if method in {"map", "flatMap"} and cb is not None and not read \
                and not renames else None
            if renamed:  # `(t) => ({ ...t, name: `${p}_${t.name}` })`: the object the callback builds, each
                yield from renamed  # element's name written anew there; not the element, whose name it is not
                return
            refused = self._refused(receiver, args[0], module) if method == "filter" and args else frozenset()
            found = self._found(args[0], module) if method in _FINDS and args else None
            prefix = self._copied_from(cb, cmod) if renames else ()
            for element, emod in self.expr(receiver, module, d):
                if element.id in refused:
                    continue  # (`list.filter((t) => t.exposed)` of an element `{ ..., exposed: false }`: not listed)
                if found is not None and found(element, emod) is False:
                    continue  # (`defs.find((d) => d.name === n)`, n never "close_all": not the element named so)
                if exact:
                    continue
                if not (read and element.type != "object"):  # an instance, a namespace: the member mapped is listed
                    if renames and element.type == "object" and prefix:  # `(t) => ({ name: t.schema.name, ... })`:
                        for member, mmod in self._members_at(element, emod, prefix, d):  # the member it copies, a
                            if holds(member, needs | self._schema_source(cb, cmod, prefix)):  # descriptor itself,
                                # named by its name
                                self.copied.add(member)
                                yield member, mmod
                    elif renames and element.type == "object" and holds(element, needs):
                        self.copied.add(element)  # `(t) => ({ name: t.name, ... })`: named by its name
                    yield element, emod
            for a in args if method == "concat" else ():
                yield from self.expr(a, module, d)
            return
        value, where = self.values.definition(node, module)  # defineTool({...}): the object it is handed
        if value is not None and value.type == "object":
            yield from self.expr(value, where, d)
            return
        fns = self._methods(callee, module, d) if callee is not None and callee.type == "member_expression" else None
        if fns is None:
            self.miss(module, node)
            return
        for fn, fmod in fns:  # `config.tools()`: what the function member of each object it stands for returns
            yield from self._returned(fn, fmod, d)

    def _paired(self, pairs: ts.Node, module: Module, d: int):
        """The values of the `[key, value]` pairs PAIRS holds: written out, or made by a `map` callback
        (`NAMES.map((n) => [n, [...GROUPS[n]]])`: what it pairs each key with)."""
        pairs = strip_casts(pairs)
        callee = pairs.child_by_field_name("function") if pairs is not None and pairs.type == "call_expression" else None
        fn = strip_casts(call_args(pairs)[0]) if callee is not None and call_args(pairs) else None
        if pairs is not None and pairs.type == "array":
            made = [(e, module) for e in pairs.named_children if e.type != "comment"]
        elif callee is not None and callee.type == "member_expression" and fn is not None and fn.type in FUNCTION_TYPES \
                and text(callee.child_by_field_name("property")) in {"map", "flatMap"}:
            made = self.returns(fn, module)
        else:
            self.miss(module, pairs)
            return
        for pair, pmod in made:
            items = [c for c in strip_casts(pair).named_children if c.type != "comment"] \
                if strip_casts(pair) is not None and strip_casts(pair).type == "array" else []
            if len(items) == 2:
                yield from self.expr(items[1], pmod, d)
            else:
                self.miss(pmod, pair)

    def _settled(self, promise: ts.Node, method: str, args: list[ts.Node], module: Module, d: int):
        """What `PROMISE.then(f, g)`, `.catch(g)` or `.finally(h)` resolves to: what PROMISE resolves to, where a
        handler hands it on (`.then((tools) => tools.flat())`, a chain of list methods of its parameter keeping its
        elements; `.catch` and `.finally` pass it through), and what else a handler returns (`.catch(() => [])`)."""
        handlers = [] if method == "finally" else args[:2] if method == "then" else args[:1]
        passes = method != "then" or not args
        for i, handler in enumerate(handlers):
            fn, fmod = strip_casts(handler), module
            if fn is not None and fn.type not in FUNCTION_TYPES:
                got, gmod = self.values.function_of(fn, module, None)
                fn, fmod = (got, gmod) if got is not None and got.type in FUNCTION_TYPES else (None, module)
            if fn is None:
                if method == "then" and i == 0:
                    self.miss(module, handler)
                continue
            value = next((k for k, at in plain_parameters(fn).items() if at == 0), None) \
                if method == "then" and i == 0 else None
            for ret, rmod in self.returns(fn, fmod):
                if value is not None and _kept_from(ret, value):
                    passes = True
                else:
                    yield from self.expr(ret, rmod, d)
        if passes:
            yield from self.expr(promise, module, d)

    def _forwarded(self, fn: ts.Node, module: Module) -> tuple[ts.Node, Module]:
        """The function of the boundary a callback hands its element to, first, and whose result it returns as it is,
        when that function returns a copy of its parameter that keeps its name (`(tool) => toPublic(tool, { mode })`,
        toPublic returning `{ name: tool.name, ... }`): read in the callback's place; else the callback itself."""
        element = next((k for k, i in plain_parameters(fn).items() if i == 0), None)
        rets = [strip_casts(r) for r, _ in self.returns(fn, module)]
        call = rets[0] if len(rets) == 1 and rets[0] is not None and rets[0].type == "call_expression" else None
        args = call_args(call) if call is not None else []
        if element is None or not args or text(strip_casts(args[0])) != element or self.link is None \
                or any(text(n) == element for a in args[1:] for n in find(a, {"identifier"})):
            return fn, module
        hit = self.link.resolve(module, call)
        ok = hit is not None and hit[1].type in FUNCTION_TYPES and 0 in plain_parameters(hit[1]).values() \
            and self._copies_name(hit[1], hit[0])
        return (hit[1], hit[0]) if ok else (fn, module)

    def _refused(self, receiver: ts.Node, callback: ts.Node, module: Module) -> frozenset[int]:
        """The ids of the elements of RECEIVER that `RECEIVER.filter(CALLBACK)` is known to leave out: the callback's
        test is false for the element wherever the list holds it, each read as the list holds it (an element a
        `map` makes is the object its callback returns, under that element's binding: Values.elements)."""
        test = self.values._element_test(callback, module, None, 0)
        if test is None:
            return frozenset()
        verdicts: dict[int, bool] = {}
        for element, emod, eframe in self.values.elements(receiver, module, None):
            if len(element) == 1 and element[0] is not None:
                node = strip_casts(element[0])
                verdicts[node.id] = verdicts.get(node.id, True) and test(node, emod, eframe) is False
        return frozenset(k for k, out in verdicts.items() if out)

    def _found(self, callback: ts.Node, module: Module):
        """For `list.find(CALLBACK)`: a function of (element, its module) -> whether the callback's test can hold
        for that element as reach reads it (False: never found), or None for a callback not read."""
        test = self.values._element_test(callback, module, None, 0)
        if test is None:
            return None
        memo = self.link.memo.setdefault("reach.found", {}) if self.link is not None else {}

        def found(element: ts.Node, emod: Module) -> bool | None:
            key = (callback.id, element.id)
            if key not in memo:
                memo[key] = test(strip_casts(element), emod, None)
            return memo[key]
        return found

    def _handed_functions(self, callee: ts.Node, module: Module, seen: frozenset[int] = frozenset()
                          ) -> list[tuple[ts.Node, Module]] | None:
        """The functions a parameter CALLEE names is given: the member it names of each element of the list, for the
        callback of `list.flatMap(fn)` (and the like), else the argument at each call of its function (a parameter
        of the caller handed on, or a variable it assigns functions to, is followed: `start(() => new Backend())`
        reaching `const backend = factory()` two calls down); None when one of those is no function known."""
        name = text(callee)
        scope = next((a for a in ancestors(callee) if a.type in FUNCTION_TYPES | {"method_definition"}
                      and name in parameters(a)), None)
        if scope is None or scope.id in seen or len(seen) > _HANDED_DEPTH:
            return None
        seen = seen | {scope.id}
        index, path = parameters(scope)[name]
        receiver = _iterated(scope) if index == 0 and parameter_default(scope, index) is None else None
        values: list[tuple[ts.Node | None, Module]] = []
        if receiver is not None:
            mark = self._mark()
            elements = list(self.expr(receiver, module, 0))
            unread = len(self._unread) > mark[0]
            self._rewind(mark)
            if unread or not elements:
                return None
            values = [(e, emod) for e, emod in elements]
        elif not _is_callback(scope):
            values = [(call_args(call)[index] if index < len(call_args(call)) else None, cmod)
                      for cmod, call in self.calls_of(scope)]
        out = []
        for value, where in values:
            for key in path:
                value, where = self.values.member(value, where, key, None, 0) if value is not None else (None, where)
            fns = self._functions_named(value, where, seen) if value is not None else None
            if fns is None:
                return None
            out += [f for f in fns if all(f[0].id != o[0].id for o in out)]
        return out or None

    def _functions_named(self, value: ts.Node, module: Module, seen: frozenset[int]
                         ) -> list[tuple[ts.Node, Module]] | None:
        """The functions VALUE, an argument handed to a parameter, stands for: itself or the function it names; for
        a parameter of its own function, what that one is handed; for a variable declared bare, each function
        assigned to it (`let make; if (c) make = () => a(); else make = () => b();`). None when one is not known."""
        fn, fmod = self.values.function_of(value, module, None)
        if fn is not None and fn.type in FUNCTION_TYPES | {"method_definition"}:
            return [(fn, fmod)]
        value = strip_casts(value)
        if value is None or value.type != "identifier":
            return None
        name = text(value)
        for scope in (a for a in ancestors(value) if a.type in FUNCTION_TYPES | {"method_definition"}):
            if name in parameters(scope):
                return self._handed_functions(value, module, seen)
            decl = next((n for n in find(scope, {"variable_declarator"}) if _owner(n) == scope
                         and text(n.child_by_field_name("name")) == name), None)
            if decl is not None:
                break
        else:  # a variable of the module's top level
            decl, scope = None, module.tree.root_node
            if not _declared_bare(module, name):
                return None
        if decl is not None and decl.child_by_field_name("value") is not None:
            return None
        out = []
        for later in _assigned(module, scope, (name,)):
            fn, fmod = self.values.function_of(later, module, None)
            if fn is None or fn.type not in FUNCTION_TYPES | {"method_definition"}:
                return None
            out.append((fn, fmod))
        return out or None

    def _map_entries(self, receiver: ts.Node | None, module: Module) -> list[tuple[ts.Node, Module]] | None:
        """The values a Map is made with: `new Map([["k", v], ...])` (each v), `new Map(LIST.map((t) => [key, t]))`
        (LIST, whose elements the values are), or, made empty, what the scope declaring it stores into it (`m.set(k,
        v)`: each v); None for any other receiver."""
        made, where = self.values.definition(receiver, module) if receiver is not None else (None, module)
        made = strip_casts(made)
        if made is None or made.type != "new_expression" or text(made.child_by_field_name("constructor")) != "Map":
            return None
        args = call_args(made)
        receiver = strip_casts(receiver)
        if not args and receiver is not None and receiver.type == "identifier":  # `const byOwner = new Map()`
            scope = next((a for a in ancestors(made) if a.type in FUNCTION_TYPES), where.tree.root_node)
            stored = [call_args(c)[1] for c in where.nodes("call") if scope.start_byte <= c.start_byte < scope.end_byte
                      and member_chain(c.child_by_field_name("function")) == (text(receiver), "set")
                      and len(call_args(c)) == 2]  # (what each `byOwner.set(key, value)` stores)
            return [(v, where) for v in stored] or None
        arg = strip_casts(args[0]) if len(args) == 1 else None
        if arg is not None and arg.type == "array":
            pairs = [[c for c in strip_casts(e).named_children if c.type != "comment"] for e in arg.named_children
                     if strip_casts(e) is not None and strip_casts(e).type == "array"]
            return [(p[1], where) for p in pairs if len(p) == 2] or None
        callee = arg.child_by_field_name("function") if arg is not None and arg.type == "call_expression" else None
        fn = strip_casts(call_args(arg)[0]) if callee is not None and call_args(arg) else None
        if callee is None or callee.type != "member_expression" or text(callee.child_by_field_name("property")) != "map" \
                or fn is None or fn.type not in FUNCTION_TYPES:
            return None
        element = next((k for k, (i, path) in parameters(fn).items() if i == 0 and not path), None)
        for ret, _ in self.returns(fn, where):
            items = [c for c in strip_casts(ret).named_children if c.type != "comment"] \
                if strip_casts(ret) is not None and strip_casts(ret).type == "array" else []
            if len(items) != 2 or text(strip_casts(items[1])) != element:
                return None
        return [(callee.child_by_field_name("object"), where)]

    def _made(self, fn: ts.Node, module: Module, d: int) -> list[tuple[ts.Node, Module]] | None:
        """What a `map`/`flatMap` callback FN returns, its element parameter each element of the list, when that is
        read whole and is no object literal the callback builds (a copy of the element: read through the elements,
        _borrowed); None otherwise (the list's elements stand for what it makes, as before)."""
        if fn.type not in FUNCTION_TYPES:
            return None
        rets = self.returns(fn, module)
        if not rets or any(strip_casts(r) is None or strip_casts(r).type == "object" for r, _ in rets):
            return None
        mark = self._mark()
        made = [found for r, rmod in rets for found in self.expr(r, rmod, d)]
        built = any(fn.start_byte <= o.start_byte < fn.end_byte and omod is module for o, omod in made)
        if len(self._unread) > mark[0] or not made or built:
            self._rewind(mark)
            return None
        return made

    def _renamed(self, fn: ts.Node, module: Module) -> list[tuple[ts.Node, Module]] | None:
        """The object literals a `map` callback FN returns when each is written in it and names its tool anew, itself
        or in an object literal it holds (`{ ...t, name: `x_${t.name}` }`, `{ ...t, mcp: { ...t.mcp, name: n } }`);
        None otherwise (a copy of the element, or a member path of it: the elements stand for what it makes)."""
        if fn.type not in FUNCTION_TYPES:
            return None
        rets = [(strip_casts(r), rmod) for r, rmod in self.returns(fn, module)]
        if not rets or any(r is None or r.type != "object" or rmod is not module
                           or not fn.start_byte <= r.start_byte < fn.end_byte for r, rmod in rets):
            return None
        params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
        bound = frozenset(bound_names(params)) if params is not None else frozenset()  # (`([key, schema]) =>
        # ({ name: key, ... })`: the element's own key)
        return rets if all(_names_anew(r, bound) for r, _ in rets) else None

    def _made_per_element(self, call: ts.Node, module: Module, fn: ts.Node, fmod: Module
                          ) -> list[tuple[ts.Node, Module]] | None:
        """What a `map` callback FN that calls a function it takes from its element returns (`(d) => { const make =
        d.factory; return make(server) }`, `pick(d)(server)`), read element by element with the callback's parameter
        bound (values.elements): the object literals those calls return, when every one returns only such; None
        otherwise."""
        if fn.type not in FUNCTION_TYPES or not (rets := self.returns(fn, fmod)) or any(
                strip_casts(r) is None or strip_casts(r).type != "call_expression" for r, _ in rets):
            return None
        made: list[tuple[ts.Node, Module]] = []
        for element, emod, eframe in self.values.elements(call, module, None):
            value = strip_casts(element[0]) if len(element) == 1 else None
            if value is None or value.type != "call_expression":
                return None
            found = [(strip_casts(r), rmod) for r, rmod, _ in self.values.call_values(value, emod, eframe)]
            if not found or any(r is None or r.type != "object" for r, _ in found):
                return None
            made += [x for x in found if x not in made]
        return made or None

    def _methods(self, callee: ts.Node, module: Module, d: int) -> list[tuple[ts.Node, Module]] | None:
        """The functions member `m` of `x.m` is in each object literal x stands for; None when x stands for
        anything else, or a member that is no known function."""
        mark = self._mark()
        key = text(callee.child_by_field_name("property"))
        fns = []
        for obj, omod in self.expr(callee.child_by_field_name("object"), module, d):
            pair = object_pairs(obj).get(key) if obj.type == "object" else None
            value = strip_casts(pair_value(pair)) if pair is not None and pair.type == "pair" else None
            fn, fmod = (value, omod) if value is not None and value.type in FUNCTION_TYPES else \
                self.values.function_of(value, omod, None) if value is not None else (None, omod)
            if fn is None and obj.type == "new_expression":  # `tool.getDefinition()` of `new GetTool(...)`: its
                fn, fmod = self.values.member(obj, omod, key, None, 0)  # class's method
                fn = fn if fn is not None and fn.type == "method_definition" else None
            if fn is None or fn.type not in FUNCTION_TYPES | {"method_definition"}:
                fns = None
                break
            fns.append((fn, fmod))
        if len(self._unread) > mark[0] or not fns:
            self._rewind(mark)
            return None
        return fns

    def _subscript(self, node: ts.Node, module: Module, d: int):
        """`record[key]`: the member a constant key names; with a key not known, any value of the record (any
        element of a list)."""
        obj, index = node.child_by_field_name("object"), node.child_by_field_name("index")
        key = string_value(index) if index is not None else None
        if key is not None:
            value, where = self.values.member(obj, module, key, None, 0)
            if value is None:
                self.miss(module, node)
            else:
                yield from self.expr(value, where, d)
            return
        for found, fmod in self.expr(obj, module, d):
            if found.type == "object" and not _descriptor(found):
                yield from self._values(found, fmod, d)
            else:
                yield found, fmod

    def _new(self, node: ts.Node, module: Module, d: int):
        """`new C(...)`: an instance of a class of the boundary (C, or `ns.C` of a module's namespace) stands for
        itself (a tool object, whose members `_mapped` reads); a collection made empty holds what is added to it later, one made from a list its elements."""
        ctor = node.child_by_field_name("constructor")
        if self.link is not None and (self.values.constructed(node, module, None) is not None
                                      or self._looped_classes(ctor, module)):
            yield node, module
        elif text(ctor) in _COLLECTIONS:
            for a in call_args(node)[:1]:
                yield from self.expr(a, module, d)
        else:
            self.miss(module, node)

    def _looped_classes(self, ctor: ts.Node | None, module: Module) -> bool:
        """Whether CTOR is the variable of a `for (const C of LIST)` loop around it, LIST a list of classes of the
        boundary (`new C(conn)` is an instance of each)."""
        if ctor is None or ctor.type != "identifier":
            return False
        loop = next((a for a in ancestors(ctor) if a.type == "for_in_statement"
                     and text(a.child_by_field_name("operator")) == "of"
                     and text(ctor) in loop_names(a.child_by_field_name("left"))), None)
        if loop is None:
            return False
        elements = list(self.values.elements(loop.child_by_field_name("right"), module, None))
        return bool(elements) and all(e[-1] is not None and e[-1].type == "identifier"
                                      and self.link._class(emod, text(e[-1])) is not None for e, emod, _ in elements)

    def _sdk_handler(self, callee: ts.Node | None, module: Module) -> bool:
        """Whether CALLEE is a handler taken from the SDK's table of registered handlers (kb/sdk.yaml
        handler_tables): `const list = server.server._requestHandlers.get("tools/list")`."""
        if not self.tables:
            return False
        got, where = self.values.definition(callee, module)
        got = strip_casts(got)
        if got is None or got.type != "call_expression" or len(call_args(got)) != 1:
            return False
        fn = strip_casts(got.child_by_field_name("function"))
        if fn is None or fn.type != "member_expression" or text(fn.child_by_field_name("property")) != "get":
            return False
        table, _ = self.values.definition(fn.child_by_field_name("object"), where)
        chain = member_chain(strip_casts(table)) if table is not None else None
        return bool(chain) and chain[-1] in self.tables

    def _paths(self, fn: ts.Node, module: Module) -> list[tuple[str, ...]]:
        """The member paths of its element that a `map` callback returns (`(t) => t.spec`: [("spec",)]), also as the
        copy an object literal with no name of its own spreads (`(t) => ({ ...t.definition, annotations })`)."""
        if fn.type not in FUNCTION_TYPES:
            return []
        names = parameters(fn)
        paths = []
        for ret, _ in self.returns(fn, module):
            ret = strip_casts(ret)
            spreads = [c.named_children[0] for c in ret.named_children if c.type == "spread_element"
                       and c.named_children] if ret is not None and ret.type == "object" \
                and "name" not in object_pairs(ret) else []
            ret = spreads[0] if len(spreads) == 1 else ret
            chain = member_chain(strip_casts(ret))
            if chain and chain[0] in names and names[chain[0]][0] == 0 and names[chain[0]][1] + chain[1:]:
                paths.append(names[chain[0]][1] + chain[1:])
        return paths

    def _members_only(self, fn: ts.Node, module: Module) -> bool:
        """Whether every value the `map` callback FN returns is a member of its element as it is (`(d) => d.def`),
        not an object built from it."""
        names = parameters(fn)
        rets = [strip_casts(r) for r, _ in self.returns(fn, module)]
        return bool(rets) and all(r is not None and r.type == "member_expression" and (member_chain(r) or ("",))[0]
                                  in names for r in rets)

    def _copied_keys(self, fn: ts.Node, module: Module, read: bool = False) -> frozenset[str]:
        """The members a `map` callback copies from its element (or from the member of it at _copied_from's path)
        into every object it returns (`{ name: t.name }`, `{ name: t.schema.name }`); with READ, also those it
        makes of that member (`{ inputSchema: convert(t.inputSchema) }`): members every element must have."""
        element, aliases = _element_of(fn)
        prefix = self._copied_from(fn, module)
        found = [strip_casts(r) for r, _ in self.returns(fn, module)]

        def takes(value: ts.Node | None, k: str) -> bool:
            wanted = (element, *prefix, k)
            return _chain_of(value, aliases) == wanted or read and value is not None and any(
                _chain_of(n, aliases) == wanted for n in find(value, {"member_expression", "identifier"}))
        keys = [frozenset(k for k, pair in object_pairs(r).items() if takes(pair_value(pair), k))
                for r in found if r is not None and r.type == "object"]
        return frozenset.intersection(*keys) if keys and len(keys) == len(found) else frozenset()

    def _copied_from(self, fn: ts.Node, module: Module) -> tuple[str, ...]:
        """The member path of its element whose `name` a `map` callback copies into the objects it returns: () for
        `{ name: t.name }`, ("schema",) for `{ name: t.schema.name, description: t.schema.description }`."""
        element, aliases = _element_of(fn)
        paths = set()
        for r, _ in self.returns(fn, module):
            pair = object_pairs(strip_casts(r)).get("name") if strip_casts(r) is not None else None
            chain = _chain_of(pair_value(pair), aliases) if pair is not None else None
            paths.add(tuple(chain[1:-1]) if chain and chain[0] == element and chain[-1] == "name" else None)
        return next(iter(paths)) if len(paths) == 1 and None not in paths else ()

    def _schema_source(self, fn: ts.Node, module: Module, prefix: tuple[str, ...]) -> frozenset[str]:
        """The key of the member at PREFIX of its element that a `map` callback copies as the input schema of every
        object it returns (`{ name, inputSchema: parameters }` of `const { name, parameters } = tool.function`:
        `parameters`); `inputSchema` when it copies none the same way."""
        element, aliases = _element_of(fn)
        keys = set()
        for r, _ in self.returns(fn, module):
            pair = object_pairs(strip_casts(r)).get(SCHEMA_KEY) if strip_casts(r) is not None else None
            chain = _chain_of(pair_value(pair), aliases) if pair is not None else None
            keys.add(chain[-1] if chain and chain[:-1] == (element, *prefix) else None)
        return frozenset(keys) if len(keys) == 1 and None not in keys else _SCHEMA_KEYS

    def _copies_name(self, fn: ts.Node | None, module: Module) -> bool:
        """Whether a `map` callback returns, each time, an object literal whose `name` is its element's
        (`(tool) => ({ name: tool.name, inputSchema: convert(tool.schema) })`), or a member's (`tool.schema.name`)."""
        return fn is not None and fn.type in FUNCTION_TYPES and "name" in self._copied_keys(fn, module)

    def _members_at(self, obj: ts.Node, module: Module, path: tuple[str, ...], d: int):
        """The object literals the member at PATH of the object literal OBJ stands for (`schema` of `{ schema: {...}
        }`)."""
        if not path:
            yield obj, module
            return
        pair = object_pairs(obj).get(path[0])
        if pair is None or pair.type != "pair":
            return
        for value, vmod in self.expr(pair_value(pair), module, d):
            if value.type == "object":
                yield from self._members_at(value, vmod, path[1:], d)

    def _mapped(self, receiver: ts.Node, paths: list[tuple[str, ...]], module: Module, d: int):
        """`list.map((t) => t.spec)`: the member the callback returns of each element (the elements themselves are
        candidates too, for callbacks that rebuild a descriptor from them)."""
        if not paths:
            return
        mark = self._mark()
        elements = list(self.expr(receiver, module, d))
        self._rewind(mark)
        for path in paths:
            for obj, omod in elements:
                yield from self._at_path(obj, omod, path, d)

    def _at_path(self, obj: ts.Node, module: Module, path: tuple[str, ...], d: int):
        """What member PATH of OBJ (an element of a list) stands for; unread when that member is not known. A key an
        object literal does not write is the key of what it spreads (`{ ...registration, aliases }.tool`)."""
        value, where = obj, module
        for i, key in enumerate(path):
            held, hmod = self.values.member(value, where, key, None, 0)
            if held is None and value.type == "object" and key not in object_pairs(value) \
                    and any(c.type == "spread_element" for c in value.named_children):
                for spread in (c for c in value.named_children if c.type == "spread_element" and c.named_children):
                    for copied, cmod in list(self.expr(spread.named_children[0], where, d)):
                        yield from self._at_path(copied, cmod, path[i:], d + 1)
                return
            value, where = held, hmod
            if value is None:
                break
        if value is None:
            self.miss(module, obj)
        else:
            yield from self.expr(value, where, d)

    def _loaded(self, node: ts.Node | None, module: Module) -> list[Module] | None:
        """The modules a name bound to a dynamic import of a folder's files stands for (extract/folders.py)."""
        node = strip_casts(node)
        value = strip_casts(value_of(module, node)) if node is not None and node.type == "identifier" else None
        if value is not None and value.type == "await_expression" and value.named_children:
            value = strip_casts(value.named_children[0])
        if value is None or value.type != "call_expression" or self.link is None:
            return None
        return folders.loaded(value, module, self.link.by_path)

    def _namespace(self, node: ts.Node | None, module: Module) -> str | None:
        """The module a namespace import (`import * as defs`) names, when NODE is that name."""
        node = strip_casts(node)
        if node is None or node.type != "identifier" or self.link is None:
            return None
        b = self.link.imports.get(module.path, {}).get(text(node))
        return b.module if b is not None and b.name == "*" else None

    def _export(self, path: str, name: str, node: ts.Node, module: Module, d: int):
        found = self.link.exported(path, name)
        if found is not None and found[1] in found[0].toplevel:
            yield from self._variable(found[1], found[0].toplevel[found[1]], found[0].tree.root_node, found[0], d)
        elif found is not None and self.link.value(*found) is not None:  # CommonJS `exports.x = [...]`
            yield from self._commonjs(found[0], found[1], d)
        elif found is None or found[1] not in found[0].functions and found[1] not in found[0].classes:
            self.miss(module, node, self._closure(path))

    def _commonjs(self, module: Module, name: str, d: int):
        """What MODULE exports as NAME by CommonJS (`exports.x = [...]`, `export default`): the value, and what the
        module pushes onto `exports.x` anywhere (`function add(e) { exports.endpoints.push(e); }`)."""
        value = self.link.value(module, name)
        yield from self.expr(value, module, d)
        for later in _assigned(module, module.tree.root_node, ("exports", name)):
            while later is not None and later.type == "assignment_expression":  # `exports.a = exports.b = v`
                later = later.child_by_field_name("right")
            if later is not None and (value is None or later.id != value.id) and not nullish(later):
                yield from self.expr(later, module, d)  # (not tsc's `exports.x = void 0;` before the value)

    def _values(self, obj: ts.Node, module: Module, d: int):
        for child in obj.named_children:
            if child.type == "pair":
                yield from self.expr(pair_value(child), module, d)
            elif child.type == "shorthand_property_identifier":
                yield from self.expr(child, module, d)
            elif child.type == "spread_element" and child.named_children:
                for inner, imod in self.expr(child.named_children[0], module, d):
                    yield from self._values(inner, imod, d)
            elif child.type != "comment":
                self.miss(module, child)

    def _hands_back(self, fn: ts.Node, module: Module) -> int | None:
        """The index of the parameter FN returns as it is from every return (an identity: `(t) => t`), else None."""
        names = plain_parameters(fn) if fn.type in FUNCTION_TYPES else {}
        found = {names.get(text(r)) if r is not None and r.type == "identifier" else None
                 for r in (strip_casts(ret) for ret, _ in self.returns(fn, module))}
        return next(iter(found)) if len(found) == 1 and None not in found else None

    def _returned(self, fn: ts.Node, module: Module, d: int):
        for ret, rmod in self.returns(fn, module):
            yield from self.expr(ret, rmod, d)

    def returns(self, fn: ts.Node, module: Module) -> list[tuple[ts.Node, Module]]:
        gen = tslib.awaited(fn)
        if gen is not None:  # tsc's async downlevel: what the generator returns
            return [(tslib.unyield(r), m) for r, m in self.returns(gen, module)]
        body = fn.child_by_field_name("body")
        if body is not None and body.type != "statement_block":  # `() => ({...})`
            return [(body, module)]
        return [(r.named_children[0], module) for r in find(fn, {"return_statement"})
                if r.named_children and _owner(r) == fn]


SCHEMA_KEY = "inputSchema"  # coupling: Tool.inputSchema, required by the MCP specification
_SCHEMA_KEYS = frozenset({SCHEMA_KEY})
_SETTLES = frozenset({"then", "catch", "finally"})  # a promise's handlers (Reach._settled)
_KEEPS_ALL = frozenset({"flat", "slice", "filter", "sort", "toSorted", "reverse", "toReversed"})  # (no callback
# that makes new elements)


def _kept_from(node: ts.Node | None, name: str) -> bool:
    """Whether NODE is the value NAME holds, or a chain of list methods over it that keeps its elements
    (`tools.flat()`, `list.filter(f).slice(0, 5)`): some of the elements of what NAME holds, and no others."""
    node = strip_casts(node)
    while node is not None and node.type == "call_expression":
        callee = node.child_by_field_name("function")
        if callee is None or callee.type != "member_expression" \
                or text(callee.child_by_field_name("property")) not in _KEEPS_ALL:
            return False
        node = strip_casts(callee.child_by_field_name("object"))
    return node is not None and node.type == "identifier" and text(node) == name


def _names_anew(obj: ts.Node, bound: frozenset[str], depth: int = 0) -> bool:
    """Whether the object literal OBJ writes a tool's `name` of its own, as its own member or in an object literal one
    of its members holds (a descriptor nested in a record): not a copy of a member of the element (`t.name`) nor a
    name the callback's parameters bind (BOUND: `name: key` of `([key, schema]) => ...`)."""
    for key, pair in object_pairs(obj).items():
        value = strip_casts(pair_value(pair)) if pair.type == "pair" else None
        if key == "name" and value is not None and value.type != "member_expression" \
                and not (value.type == "identifier" and text(value) in bound) and not _kept_unless(value):
            return True
        if value is not None and value.type == "object" and depth < 2 and _names_anew(value, bound, depth + 1):
            return True
    return False


def _element_of(fn: ts.Node) -> tuple[str | None, dict[str, tuple[str, ...]]]:
    """The name of a callback FN's element parameter (its first, a plain name), and the locals FN binds to members
    of it, each with its member chain: `const { name, description } = tool.function` -> {name: (tool, function,
    name), ...}; `const f = tool.function` too."""
    element = next((k for k, (i, p) in parameters(fn).items() if i == 0 and not p), None)
    body = fn.child_by_field_name("body")
    out: dict[str, tuple[str, ...]] = {}
    for d in find(body, {"variable_declarator"}) if element is not None and body is not None else ():
        if _owner(d) != fn:
            continue
        chain = member_chain(strip_casts(d.child_by_field_name("value")))
        if chain and chain[0] == element:
            out.update({local: (*chain, *path) for local, path in _pattern(d.child_by_field_name("name"))})
    return element, out


def _chain_of(value: ts.Node | None, aliases: dict[str, tuple[str, ...]]) -> tuple[str, ...] | None:
    """The member chain VALUE reads, a local of ALIASES read as the chain it stands for (`name` of `const { name } =
    tool.function`: tool.function.name)."""
    value = strip_casts(value)
    if value is None:
        return None
    if value.type in {"identifier", "shorthand_property_identifier"}:
        return aliases.get(text(value), (text(value),))
    chain = member_chain(value)
    return (*aliases[chain[0]], *chain[1:]) if chain and chain[0] in aliases else chain


def _kept_unless(value: ts.Node) -> bool:
    """Whether VALUE, a name written in a copy, falls back to a member of what is copied (`renames.get(t.name) ??
    t.name`, `aliases[t.name] || t.name`): the element's own name wherever the other side gives none, so the copy is
    read as the element (each keeps its name unless renamed at run time)."""
    return value.type == "binary_expression" and text(value.child_by_field_name("operator")) in {"??", "||"} \
        and strip_casts(value.child_by_field_name("right")) is not None \
        and strip_casts(value.child_by_field_name("right")).type == "member_expression"


def holds(obj: ts.Node, keys: frozenset[str]) -> bool:
    """Whether the object literal OBJ has every member of KEYS (or may have it: a spread)."""
    return keys <= set(object_pairs(obj)) or any(c.type == "spread_element" for c in obj.named_children)


def _indexed_by_callback(call: ts.Node, record: ts.Node) -> bool:
    """Whether CALL (a list of RECORD's keys) is the receiver of a `map`/`flatMap` whose callback takes RECORD's entry
    by its element (`(k) => ({ name: k, ...RECORD[k] })`)."""
    member = call.parent
    outer = member.parent if member is not None and member.type == "member_expression" else None
    if outer is None or outer.type != "call_expression" or text(member.child_by_field_name("property")) not in {
            "map", "flatMap"} or not call_args(outer):
        return False
    cb = strip_casts(call_args(outer)[0])
    first = next((n for n, i in plain_parameters(cb).items() if i == 0), None) \
        if cb is not None and cb.type in FUNCTION_TYPES else None
    return first is not None and any(text(strip_casts(x.child_by_field_name("object"))) == text(strip_casts(record))
                                     and text(strip_casts(x.child_by_field_name("index"))) == first
                                     for x in find(cb, {"subscript_expression"}))


def _descriptor(obj: ts.Node) -> bool:
    """Whether OBJ is a tool descriptor literal (a name and a schema or description), not a record of them."""
    pairs = object_pairs(obj) if obj.type == "object" else {}
    return "name" in pairs and ("inputSchema" in pairs or "description" in pairs)


def entry_value(pair: ts.Node) -> ts.Node:
    return pair_value(pair) if pair.type == "pair" else pair


def _destructured(scope: ts.Node, name: str) -> tuple[ts.Node, tuple[str, ...]] | None:
    """(value, member path) of a declaration of SCOPE that destructures NAME (`const { a: { b } } = value`)."""
    for n in find(scope, {"variable_declarator"}):
        pattern = n.child_by_field_name("name")
        if _owner(n) != scope or pattern is None or pattern.type != "object_pattern":
            continue
        path = dict(_pattern(pattern)).get(name)
        if path is not None:
            return n.child_by_field_name("value"), path
    return None


def _destructured_top(module: Module, name: str) -> tuple[ts.Node, tuple[str, ...]] | None:
    """(value, member path) of a top-level declaration of MODULE that destructures NAME."""
    for stmt in module.tree.root_node.named_children:
        decl = stmt.named_children[0] if stmt.type == "export_statement" and stmt.named_children else stmt
        for n in decl.named_children if decl.type in {"lexical_declaration", "variable_declaration"} else ():
            pattern = n.child_by_field_name("name") if n.type == "variable_declarator" else None
            path = dict(_pattern(pattern)).get(name) if pattern is not None and pattern.type == "object_pattern" else None
            if path is not None:
                return n.child_by_field_name("value"), path
    return None


def _parameter_scope(node: ts.Node | None) -> ts.Node | None:
    """The function whose parameter the identifier NODE is (the nearest that binds the name: a local of the same
    name in a nearer function hides it), or None."""
    node = strip_casts(node)
    if node is None or node.type != "identifier":
        return None
    name = text(node)
    for scope in ancestors(node):
        if scope.type not in FUNCTION_TYPES:
            continue
        if any(_owner(n) == scope and text(n.child_by_field_name("name")) == name
               for n in find(scope, {"variable_declarator"})) or _destructured(scope, name) is not None:
            return None
        if name in parameters(scope):
            return scope
    return None


def _owner(node: ts.Node) -> ts.Node | None:
    return next((a for a in ancestors(node) if a.type in FUNCTION_TYPES), None)


def _declared_bare(module: Module, name: str) -> bool:
    """Whether a top-level statement of MODULE declares NAME with no value (`let tools;`); the names read once per
    module (module.memo)."""
    bare = module.memo.get("reach.bare")
    if bare is None:
        bare = set()
        for stmt in module.tree.root_node.named_children:
            stmt = stmt.named_children[0] if stmt.type == "export_statement" and stmt.named_children else stmt
            if stmt.type in {"lexical_declaration", "variable_declaration"}:
                bare |= {text(d.child_by_field_name("name")) for d in stmt.named_children
                         if d.type == "variable_declarator" and d.child_by_field_name("value") is None}
        module.memo["reach.bare"] = bare
    return name in bare


def _assigned(module: Module, scope: ts.Node, target: tuple[str, ...]) -> list[ts.Node]:
    """Within SCOPE: the values assigned to TARGET (`x = v`, `this.x = v`) and the arguments pushed onto it."""
    out = []
    for n in module.nodes("assign"):
        left = n.child_by_field_name("left")
        if n.type == "assignment_expression" and scope.start_byte <= n.start_byte < scope.end_byte \
                and member_chain(strip_casts(left)) == target:
            out.append(n.child_by_field_name("right"))
    for call in module.nodes("call"):
        chain = member_chain(call.child_by_field_name("function"))
        if chain and chain[:-1] == target and chain[-1] in _ADDS - {"concat"} \
                and scope.start_byte <= call.start_byte < scope.end_byte:
            out += call_args(call)
        elif chain and chain[:-1] == target and chain[-1] in _STORES \
                and scope.start_byte <= call.start_byte < scope.end_byte:
            out += call_args(call)[_STORES[chain[-1]]:][:1]
    return out


def _keyed(module: Module, record: ts.Node) -> list[tuple[ts.Node, ts.Node]]:
    """(key, value) of each store into RECORD by key (`record[key] = value`): within its class for `this.x`, else in
    the module."""
    target = member_chain(strip_casts(record))
    scope = enclosing(record, {"class_declaration", "class"}) if target and target[0] == "this" else module.tree.root_node
    out = []
    for n in module.nodes("assign") if target and scope is not None else ():
        left = strip_casts(n.child_by_field_name("left")) if n.type == "assignment_expression" else None
        if left is not None and left.type == "subscript_expression" and scope.start_byte <= n.start_byte < scope.end_byte \
                and member_chain(strip_casts(left.child_by_field_name("object"))) == target:
            out.append((left.child_by_field_name("index"), n.child_by_field_name("right")))
    return out


_HANDED_DEPTH = 6  # parameters a function is handed on through (`start(f)` -> `serve(f)` -> `connect(f)`)
_ELEMENT_CALLBACKS = frozenset({"map", "flatMap", "filter", "forEach", "find", "findLast", "some", "every"})


def _iterated(fn: ts.Node) -> ts.Node | None:
    """The list whose elements FN's first parameter stands for, when FN is the callback of `list.flatMap(fn)` (or
    another array method that calls it per element)."""
    if not _is_callback(fn) or fn.parent.named_children[:1] != [fn]:
        return None
    call = fn.parent.parent
    callee = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
    if callee is None or callee.type != "member_expression" \
            or text(callee.child_by_field_name("property")) not in _ELEMENT_CALLBACKS:
        return None
    return callee.child_by_field_name("object")


def _is_callback(fn: ts.Node) -> bool:
    """A function written as an argument (`list.filter((t) => ...)`): its parameters come from the callee."""
    return fn.parent is not None and fn.parent.type == "arguments"
