"""Cross-file resolution: relative imports and exports, so calls and bindings resolve across modules."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

import tree_sitter as ts

from auditor.extract import bindings, folders, instance_of, tslib
from auditor.extract.frames import plain_parameters, returned
from auditor.extract.program import Module, class_info, class_name_of
from auditor.extract.syntax import (FUNCTION_TYPES, ancestors, call_args, call_function, enclosing, find, member_chain,
                                    object_pairs, pair_value, string_value, strip_casts, text)
from auditor.extract.tsconfig import BuildMap

# A relative specifier names a file by its emitted name (`./lib.js`) or none (`./lib`); try the
# sources that compile to it, then a folder's index.
_SOURCE_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


@dataclass(frozen=True, kw_only=True, slots=True)
class Binding:
    module: str | None  # path of the module it comes from; None for a package import
    name: str  # the exported name; "default" or "*" (a namespace import)
    spec: str


def candidates(base: str, spec: str) -> list[str]:
    target = posixpath.normpath(posixpath.join(posixpath.dirname(base), spec))
    stem, ext = posixpath.splitext(target)
    out = [target] if ext in _SOURCE_SUFFIXES or ext == ".json" else []  # (a JSON file the code loads: its data)
    if ext in {".js", ".jsx", ".mjs", ".cjs"}:
        out += [stem + s for s in (".ts", ".tsx", ".mts", ".cts")]
    out += [target + s for s in _SOURCE_SUFFIXES] + [posixpath.join(target, "index" + s) for s in _SOURCE_SUFFIXES]
    return out


class Linker:
    """Resolves names across the modules of one program; built once per audit."""

    def __init__(self, modules: list[Module], build: BuildMap | None = None):
        self.by_path = {m.path: m for m in modules}
        self.build = build or BuildMap()
        self._root = {m.tree.root_node: m for m in modules}
        self.imports: dict[str, dict[str, Binding]] = {}
        self.exports: dict[str, dict[str, tuple[str, str]]] = {}  # name -> (module path, local name)
        self.star: dict[str, list[str]] = {}  # `export * from` targets
        self.assigned: dict[str, dict[str, ts.Node]] = {}  # CommonJS `exports.x = <value>`: name -> the value
        self._blocks: dict[int, tuple] = {}  # block id -> (block, its function declarations by name)
        self._constructions: dict[int, list[tuple[Module, ts.Node]]] | None = None  # class id -> its `new`s
        self._making: set[tuple[str, str]] = set()  # (module, name) of the instances `_instance` is reading
        self.default_values: dict[str, ts.Node] = {}  # `export default <expression>` (not a name): the expression
        self._fields: dict[tuple[int, str], tuple[Module, object] | None] = {}  # (class, field) -> its instances' class
        self._closures: dict[tuple[tuple[str, ...], bool], frozenset[str]] = {}  # closure() asked before
        self._callers: dict[int, list[tuple[Module, ts.Node]]] | None = None  # callers(): function id -> calls
        self._indexing = False  # while callers() builds its index
        self._folder_loads: dict[str, list[Module]] = {}  # folder_loads(): module path -> what it may load
        self.memo: dict = {}  # what an analysis of this audit's program remembers (keys of its own)
        for m in modules:
            self._scan(m)

    # -- imports and exports -------------------------------------------------------------
    def resolve_spec(self, importer: str, spec: str) -> str | None:
        if not spec.startswith("."):  # an alias of the tsconfig's `paths` (the sources' own names of their modules)
            mapped = next((c for t in self.build.mapped(importer, spec) for c in candidates(t, "./" + posixpath.basename(t))
                           if c in self.by_path), None)
            if mapped is not None:
                return mapped
        if spec.startswith("#"):  # a subpath import of the package's own (package.json `imports`)
            target = self.build.subpath(importer, spec)
            if target is None:
                return None
            spec, importer = "./" + posixpath.basename(target), target
        if not spec.startswith("."):  # a package: one read with the target (Target.packages), else outside
            return next((c for t in self.build.package(spec) for c in candidates(t, "./" + posixpath.basename(t))
                         if c in self.by_path), None) if self.build.packages else None
        found = candidates(importer, spec)
        # Build output (`./dist/x.js`, registered or not built yet) resolves to the file analysed in its place.
        return next((c for c in found if c in self.by_path), None) or \
            next((s for c in found for s in self.build.sources(c) if s in self.by_path), None)

    def _scan(self, m: Module) -> None:
        imports: dict[str, Binding] = {}
        exports: dict[str, tuple[str, str]] = {}
        star: list[str] = []
        assigned: dict[str, ts.Node] = {}
        for local, (spec, name) in bindings.static_imports(m).items():
            imports[local] = Binding(module=self.resolve_spec(m.path, spec), name=name, spec=spec)
        for local, (spec, name) in _top_level_requires(m).items():  # compiled CommonJS: the same bindings
            imports.setdefault(local, Binding(module=self.resolve_spec(m.path, spec), name=name, spec=spec))
        inner = {k: b for k, b in bindings.imports(m).items() if k not in imports}
        once = _declared_once(m, set(inner)) if inner else set()
        for local, (spec, name) in inner.items():  # `const { A } = await import("./a.js")` in a function: A, when
            if local in once:  # no other declaration in the module has its name (a minifier reuses `e`, `t`, ...)
                imports[local] = Binding(module=self.resolve_spec(m.path, spec), name=name, spec=spec)
        required = None
        for node in m.tree.root_node.named_children:
            if node.type == "export_statement":
                self._scan_export(m, node, exports, star)
            elif node.type == "expression_statement" and node.named_children:
                expr = node.named_children[0]
                _commonjs_exports(expr, m.path, exports, assigned, lambda spec: self.resolve_spec(m.path, spec))
                spec = tslib.export_star(expr)
                target = self.resolve_spec(m.path, spec) if spec is not None else None
                if target is not None:  # `__exportStar(require("./x"), exports)`: export * from "./x"
                    star.append(target)
                created = tslib.created_binding(expr)
                held = imports.get(created[1]) if created is not None else None
                if held is not None and held.module is not None and held.name == "*":
                    exports[created[0]] = (held.module, created[2])
                if required is None and _is_define_property(node.named_children[0]):
                    required = {local: self.resolve_spec(m.path, spec) for local, (spec, name) in bindings.imports(m).items()
                                if name == "*"}
                if required is not None:
                    _commonjs_reexport(node.named_children[0], m.path, required, exports)
        self.imports[m.path], self.exports[m.path], self.star[m.path] = imports, exports, star
        self.assigned[m.path] = assigned

    def _scan_export(self, m: Module, node: ts.Node, exports: dict, star: list) -> None:
        source = node.child_by_field_name("source")
        is_default = any(c.type == "default" for c in node.children)
        decl, value = node.child_by_field_name("declaration"), node.child_by_field_name("value")
        if source is not None:
            target = self.resolve_spec(m.path, string_value(source) or "")
            clause = next((c for c in node.named_children if c.type == "export_clause"), None)
            space = next((c for c in node.named_children if c.type == "namespace_export"), None)
            if space is not None:  # `export * as ns from "./x"`: one name, the module's namespace
                if target and space.named_children:
                    exports[string_value(space.named_children[-1]) or text(space.named_children[-1])] = (target, "*")
                return
            if clause is None:
                if target:
                    star.append(target)
                return
            for s in clause.named_children:
                name = text(s.child_by_field_name("name"))
                alias = s.child_by_field_name("alias")
                if target:
                    exports[text(alias) if alias is not None else name] = (target, name)
            return
        if decl is not None:
            names = [text(decl.child_by_field_name("name"))] if decl.child_by_field_name("name") is not None else \
                [text(d.child_by_field_name("name")) for d in decl.named_children if d.type == "variable_declarator"]
            for n in names:
                exports["default" if is_default else n] = (m.path, n)
            return
        if value is not None and is_default:
            exports["default"] = (m.path, text(value) if value.type == "identifier" else "")
            if value.type != "identifier":
                self.default_values[m.path] = value  # `export default [a, b]`: read by value(m, "")
            return
        clause = next((c for c in node.named_children if c.type == "export_clause"), None)
        for s in clause.named_children if clause is not None else []:
            name = text(s.child_by_field_name("name"))
            alias = s.child_by_field_name("alias")
            exports[text(alias) if alias is not None else name] = (m.path, name)

    def exported(self, path: str, name: str, depth: int = 0) -> tuple[Module, str] | None:
        """The module and local name behind `name` exported by `path` (following re-exports)."""
        if depth > 10 or path not in self.by_path:
            return None
        hit = self.exports.get(path, {}).get(name)
        if hit is not None:
            target, local = hit
            if local == "*":  # a namespace re-exported under a name: (that module, "*")
                return (self.by_path[target], "*") if target in self.by_path else None
            if target != path:
                return self.exported(target, local, depth + 1)
            # a local name may itself be an import being re-exported
            b = self.imports.get(path, {}).get(local)
            if b is not None and b.module is not None and b.name != "*":
                return self.exported(b.module, b.name, depth + 1)
            if b is not None and b.module in self.by_path and b.name == "*":  # `import * as t; export { t as tools }`
                return self.by_path[b.module], "*"
            return self.by_path[path], local
        for target in self.star.get(path, []):
            found = self.exported(target, name, depth + 1)
            if found is not None:
                return found
        return None

    def binding(self, m: Module, name: str) -> tuple[Module, str] | None:
        """Where a name used in module `m` is defined: (module, local name there)."""
        b = self.imports.get(m.path, {}).get(name)
        if b is None:
            return m, name
        if b.module is None or b.name == "*":
            return None
        return self.exported(b.module, b.name)

    def value(self, m: Module, local: str) -> ts.Node | None:
        """The value of top-level name LOCAL of module M: its declaration's initialiser, or what a CommonJS
        `exports.LOCAL = value` assigns (tsc writes an exported constant so, with no local of that name)."""
        found = m.toplevel.get(local)
        if found is None and local == "" and m.path in self.default_values:  # the expression of `export default [...]`
            return self.default_values.get(m.path)
        return found if found is not None else self.assigned.get(m.path, {}).get(local)

    def module_of(self, node: ts.Node) -> Module | None:
        cur = node
        while cur.parent is not None:
            cur = cur.parent
        return self._root.get(cur)

    # -- calls ---------------------------------------------------------------------------
    def _class(self, m: Module, name: str):
        space, dot, member = name.partition(".")
        if dot and member.isidentifier():  # `tools_1.ToolConfigurator`: a class of a module imported whole
            b = self.imports.get(m.path, {}).get(space)
            where = self.exported(b.module, member) if b is not None and b.name == "*" and b.module is not None else None
            info = where[0].classes.get(where[1]) if where is not None else None
            return (where[0], info) if info is not None else None
        where = self.binding(m, name)
        if where is None:
            return None
        mod, local = where
        info = mod.classes.get(local)
        return (mod, info) if info is not None else None

    def class_at(self, m: Module, cls: ts.Node):
        """The class info of the class node CLS: the module's, or, for a class the module's index leaves out (one
        written inside a function: a bundler's lazily initialised module, `init_x = __esm(() => { A = class _A {...}
        })`), read from its body once."""
        name = class_name_of(cls)
        info = m.classes.get(name)
        if info is not None and info.node == cls:
            return info
        key = ("class_at", cls.id)
        if key not in self.memo:
            self.memo[key] = class_info(cls, name)
        return self.memo[key]

    def _instance(self, m: Module, name: str):
        where = self.binding(m, name)
        if where is None:
            return None
        mod, local = where
        cls = mod.instances.get(local)
        if cls:
            return self._class(mod, cls)
        value = strip_casts(mod.toplevel.get(local))  # `const registry = createRegistry(defs)`: what a factory makes
        if value is None or value.type != "call_expression" or (mod.path, local) in self._making:
            return None  # (`const a = b.get(); const b = a.get()`: no class of each other's)
        self._making.add((mod.path, local))
        try:
            built = self._factory_class(mod, value)
        finally:
            self._making.discard((mod.path, local))
        return self._class(*built) if built is not None else None

    def _field_instance(self, m: Module, cls: ts.Node, name: str, depth: int = 0):
        """(module, class info) of what field NAME of class CLS holds: the class its declaration names as its type
        (`private registry: Registry`), or that every value it is given is a `new` of (`this.registry = new
        Registry()`, `registry = new Registry()`), or, given from a constructor parameter, of what each construction
        of CLS hands there (`new Configurator(config, new Registry())`, or a field of the constructing class); None
        when that is not one class of the boundary."""
        key = (cls.id, name)
        if key not in self._fields:
            self._fields[key] = None  # (while it is read: a cycle of fields is no class)
            made: list = []  # (module, constructor or type name) of each value
            info = m.classes.get(class_name_of(cls))
            decl = info.fields.get(name) if info is not None else None
            if decl is not None:
                typed = decl.child_by_field_name("type")
                tname = text(typed).lstrip(":").strip() if typed is not None else ""
                value = strip_casts(decl.child_by_field_name("value"))
                made += [(m, tname)] if tname.isidentifier() else []
                made += [(m, text(value.child_by_field_name("constructor")))] \
                    if value is not None and value.type == "new_expression" else []
            for node in m.nodes("assign"):
                left, right = node.child_by_field_name("left"), strip_casts(node.child_by_field_name("right"))
                if node.type == "assignment_expression" and member_chain(left) == ("this", name) \
                        and cls.start_byte <= node.start_byte < cls.end_byte and not _nothing(right):
                    made += [(m, text(right.child_by_field_name("constructor")))] if right is not None \
                        and right.type == "new_expression" else [(m, single)] if (single := self._singleton(m, right)) \
                        else [built] if (built := self._factory_class(m, right)) is not None \
                        else self._handed_instances(m, cls, right, depth)
            classes = [self._class(mod, cname) if cname else None for mod, cname in made]
            found = {(c[0].path, c[1].node.id): c for c in classes if c is not None} if None not in classes else {}
            self._fields[key] = next(iter(found.values())) if len(found) == 1 else None
        return self._fields[key]

    def _singleton(self, m: Module, value: ts.Node | None) -> str:
        """The class C of `C.getInstance()`, a static method of C (of the boundary) every return of which is a `new C`
        or a static member of C that is only ever set to one (`C._instance = new C()`); "" otherwise."""
        chain = member_chain(value.child_by_field_name("function")) if value is not None \
            and value.type == "call_expression" else None
        found = self._class(m, chain[0]) if chain and len(chain) == 2 else None
        method = found[1].methods.get(chain[1]) if found is not None else None
        if method is None or not any(c.type == "static" for c in method.children):
            return ""
        cmod, name = found[0], found[1].name
        for ret in find(method, {"return_statement"}):
            got = strip_casts(ret.named_children[0]) if ret.named_children else None
            if got is not None and got.type == "new_expression" and text(got.child_by_field_name("constructor")) == name:
                continue
            held = member_chain(got) if got is not None else None
            if not held or len(held) != 2 or held[0] not in {name, "this"}:
                return ""
            sets = [strip_casts(a.child_by_field_name("right")) for a in cmod.nodes("assign")
                    if a.type == "assignment_expression" and member_chain(a.child_by_field_name("left")) in {
                        (name, held[1]), ("this", held[1])}]
            if not sets or any(s is None or s.type != "new_expression"
                               or text(s.child_by_field_name("constructor")) != name for s in sets):
                return ""
        return chain[0]

    def _factory_class(self, m: Module, value: ts.Node | None) -> tuple[Module, str] | None:
        """(module, class name) of what a factory function of the boundary returns, when every return of it is a
        `new C(...)` of one class C, written there or held by a local (`const registry = new ToolRegistry(config);
        ...; return registry`) or an instance of the module (a singleton's getter: `if (!instance) instance = new C();
        return instance`); of what a method that returns `this` is called on, that method's class."""
        hit = self.resolve(m, value) if value is not None and value.type == "call_expression" else None
        if hit is not None and hit[1].type == "method_definition" and _returns_this(hit[1]):
            cls = enclosing(hit[1], {"class_declaration", "abstract_class_declaration", "class"})
            name = class_name_of(cls) if cls is not None else None  # `new Registry().add(a)`: a builder's chain
            return (hit[0], name) if name else None
        if hit is None or hit[1].type == "method_definition":
            return None
        fmod, fn = hit[0], hit[1]
        names = set()
        for ret in find(fn, {"return_statement"}):
            if enclosing(ret, {"function_declaration", "function_expression", "arrow_function", "method_definition",
                               "function", "generator_function_declaration"}) != fn:
                continue
            got = strip_casts(ret.named_children[0]) if ret.named_children else None
            if got is not None and got.type == "identifier":
                decl = next((d for d in find(fn, {"variable_declarator"}) if text(d.child_by_field_name("name")) == text(got)), None)
                if decl is None and text(got) in fmod.instances:  # `if (!instance) instance = new C(); return instance`:
                    names.add(fmod.instances[text(got)])  # the module's instance, a singleton's getter
                    continue
                got = strip_casts(decl.child_by_field_name("value")) if decl is not None else None
            if got is None or got.type != "new_expression":
                return None
            names.add(text(got.child_by_field_name("constructor")))
        return (fmod, names.pop()) if len(names) == 1 else None

    def _handed_instances(self, m: Module, cls: ts.Node, value: ts.Node | None, depth: int) -> list:
        """(module, class name) of what each construction of CLS hands the constructor parameter VALUE names: a `new`
        written there, or a field of the constructing class (`new C(cfg, this.registry)`); [(m, "")] when unknown."""
        ctor = next((a for a in ancestors(value) if a.type == "method_definition"), None) if value is not None else None
        if ctor is None or text(ctor.child_by_field_name("name")) != "constructor" or value.type != "identifier" \
                or depth > 3:
            return [(m, "")]
        index = plain_parameters(ctor).get(text(value))
        out: list = []
        if not self.constructions(cls) and index is not None:  # constructed by a framework's injector (NestJS, with
            typed = _parameter_types(m, cls)  # the compiler's `__metadata("design:paramtypes", [A, B])` on the class)
            if index < len(typed):
                return [(m, typed[index])]
        for mod, new in self.constructions(cls):
            args = call_args(new)
            arg = strip_casts(args[index]) if index is not None and index < len(args) else None
            chain = member_chain(arg) if arg is not None else None
            if arg is not None and arg.type == "new_expression":
                out.append((mod, text(arg.child_by_field_name("constructor"))))
            elif chain and len(chain) == 2 and chain[0] == "this":
                around = next((a for a in ancestors(arg) if a.type in {"class_declaration", "class"}), None)
                got = self._field_instance(mod, around, chain[1], depth + 1) if around is not None else None
                out.append((got[0], got[1].name) if got is not None else (mod, ""))
            else:
                out.append((mod, ""))
        return out or [(m, "")]

    def constructions(self, cls: ts.Node) -> list[tuple[Module, ts.Node]]:
        """(module, `new C(...)`) of every place the boundary constructs the class CLS (its node), by name or through
        a module's namespace (`new tools_1.C()`), in module order (index built on first use)."""
        if self._constructions is None:
            self._constructions = {}
            for m in self.by_path.values():
                for new in m.nodes("new"):
                    made = self._class(m, text(new.child_by_field_name("constructor")))
                    if made is not None:
                        self._constructions.setdefault(made[1].node.id, []).append((m, new))
        return self._constructions.get(cls.id, [])

    def resolve(self, m: Module, call: ts.Node) -> tuple[Module, ts.Node, str] | None:
        """The function a call (or a callee expression such as a callback identifier) refers to."""
        callee = call_function(call) if call.type == "call_expression" else call  # `(0, m_1.f)(x)` calls m_1.f
        chain = member_chain(callee)
        if not chain:
            return self._chained(m, callee)
        if len(chain) == 2 and chain[0] == "this":
            cls = enclosing(call, {"class_declaration", "abstract_class_declaration", "class"})
            info = self.class_at(m, cls) if cls is not None else None
            if info and chain[1] in info.methods:
                return m, info.methods[chain[1]], f"{info.name}.{chain[1]}"
            return None
        if len(chain) == 3 and chain[0] == "this":  # `this.registry.dispatch(...)`: a method of the field's class
            cls = enclosing(call, {"class_declaration", "abstract_class_declaration", "class"})
            owner = self._field_instance(m, cls, chain[1]) if cls is not None else None
            if owner is not None and chain[2] in owner[1].methods:
                return owner[0], owner[1].methods[chain[2]], f"{owner[1].name}.{chain[2]}"
            return None
        if len(chain) == 2:
            owner = self._instance(m, chain[0])
            receiver = strip_casts(callee.child_by_field_name("object")) if owner is None else None
            if receiver is not None and receiver.type == "identifier" and not self._indexing \
                    and bindings.shadowed(m, receiver):  # a parameter or a local: what data flow gives it
                owner = instance_of.class_of(self, m, receiver)
            if owner is not None:
                mod, info = owner
                if chain[1] in info.methods:
                    return mod, info.methods[chain[1]], f"{info.name}.{chain[1]}"
            b = self.imports.get(m.path, {}).get(chain[0])
            if b is not None and b.name == "*" and b.module is not None:
                found = self.exported(b.module, chain[1])
                if found is not None and found[1] in found[0].functions:
                    return found[0], found[0].functions[found[1]], found[1]
            return None
        if len(chain) == 1:
            where = self.binding(m, chain[0])
            if where is not None and where[1] in where[0].functions:
                return where[0], where[0].functions[where[1]], where[1]
            made = strip_casts(self.default_values.get(where[0].path)) if where is not None and where[1] == "" else None
            if made is not None and made.type in FUNCTION_TYPES:  # `export default (flag) => [...]`, imported by name
                return where[0], made, "default"
            nested = self._declared_function(callee, chain[0]) if where is not None and where[0] is m else None
            if nested is not None:  # a function declared in a function around the call (a bundle's module function)
                return m, nested, chain[0]
        return None

    def _chained(self, m: Module, callee: ts.Node | None) -> tuple[Module, ts.Node, str] | None:
        """`registry.add(a).add(b)`: the method of a call's result, when the call is of a method that returns
        `this` (a builder's chain): that method's class's method; `new Registry().add(a)`: the constructed class's."""
        receiver = strip_casts(callee.child_by_field_name("object")) if callee is not None \
            and callee.type == "member_expression" else None
        while receiver is not None and receiver.type == "await_expression" and receiver.named_children:
            receiver = strip_casts(receiver.named_children[0])
        name = text(callee.child_by_field_name("property")) if receiver is not None else ""
        if receiver is not None and receiver.type == "new_expression":  # `new Registry().add(a)`: Registry's method
            made = self._class(m, text(receiver.child_by_field_name("constructor")))
            return (made[0], made[1].methods[name], f"{made[1].name}.{name}") if made and name in made[1].methods \
                else None
        if receiver is None or receiver.type != "call_expression":
            return None
        inner = self.resolve(m, receiver)
        if inner is not None and inner[1].type != "method_definition" and not self._indexing:
            made = instance_of.class_of(self, m, receiver)  # `registry().add(t)`: a method of the class of the
            return (made[0], made[1].methods[name], f"{made[1].name}.{name}") \
                if made and name in made[1].methods else None  # instance the function returns
        if inner is None or inner[1].type != "method_definition" or not _returns_this(inner[1]):
            return None
        cls = enclosing(inner[1], {"class_declaration", "abstract_class_declaration", "class"})
        info = self.class_at(inner[0], cls) if cls is not None else None
        return (inner[0], info.methods[name], f"{info.name}.{name}") if info and name in info.methods else None

    def _declared_function(self, node: ts.Node, name: str) -> ts.Node | None:
        """The `function NAME` a block around NODE declares (the nearest; each block's declarations read once)."""
        for scope in ancestors(node):
            if scope.type not in {"statement_block", "program"}:
                continue
            declared = self._blocks.get(scope.id)
            if declared is None or declared[0] != scope:
                declared = self._blocks[scope.id] = (scope, {
                    text(s.child_by_field_name("name")): s for s in scope.named_children
                    if s.type in {"function_declaration", "generator_function_declaration"}})
            if name in declared[1]:
                return declared[1][name]
            if scope.type == "program":
                return None
        return None

    def resolver(self, m: Module):
        """The call resolver of module `m`: call -> (function node, qualified name) or None."""
        def resolve(call: ts.Node):
            hit = self.resolve(m, call)
            return None if hit is None else (hit[1], hit[2])
        return resolve

    def folder_loads(self, module: Module) -> list[Module]:
        """The modules M's dynamic imports may load from a folder at run time (extract/folders.py), remembered."""
        found = self._folder_loads.get(module.path)
        if found is None:
            found = self._folder_loads[module.path] = [m for call in folders.dynamic_imports(module)
                                                       for m in folders.loaded(call, module, self.by_path) or ()]
        return found

    def callers(self, fn: ts.Node) -> list[tuple[Module, ts.Node]]:
        """The calls of the boundary that resolve to FN, with their modules (an index built on first use); for a
        function written as an argument of a call of a function of the boundary, the calls that function makes of
        the parameter it binds (`registerAll((entry) => this.add(entry))`, `function registerAll(register) { ...
        register(entry) }`: the callback is called there)."""
        if self._callers is None:
            self._callers = {}
            self._indexing = True  # (the index is of calls resolved without it: a parameter's class is read from it)
            resolved: list[tuple[Module, ts.Node, Module, ts.Node]] = []
            try:
                for m in self.by_path.values():
                    for call in m.nodes("call"):
                        hit = self.resolve(m, call)
                        if hit is not None:
                            self._callers.setdefault(hit[1].id, []).append((m, call))
                            resolved.append((m, call, hit[0], hit[1]))
                for key, calls in callback_calls(resolved).items():
                    self._callers.setdefault(key, []).extend(calls)
            finally:
                self._indexing = False
        return self._callers.get(fn.id, [])

    def closure(self, paths: list[str], dynamic: bool = False) -> set[str]:
        """PATHS and the boundary modules they import, directly or not (re-exports too); with DYNAMIC, also what a
        require() or a dynamic import() of them names (a launcher may pick its transport at run time)."""
        key = (tuple(sorted(paths)), dynamic)  # (asked again for the same entries: the coverage ledger, facts)
        if key in self._closures:
            return set(self._closures[key])
        seen, todo = set(), list(paths)
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            todo += [b.module for b in self.imports.get(path, {}).values() if b.module]
            if dynamic:
                module = self.by_path.get(path)
                todo += [t for t in (self.resolve_spec(path, src) for src, _ in (module.imports if module else ())) if t]
                todo += [m.path for m in self.folder_loads(module)] if module is not None else []
            todo += self.star.get(path, [])
            todo += [t for t, _ in self.exports.get(path, {}).values()]
        self._closures[key] = frozenset(seen)
        return seen

    def reachable(self, roots: list[tuple[Module, ts.Node]]) -> list[tuple[Module, ts.Node]]:
        """The functions ROOTS call, transitively: functions and methods the linker resolves, and static methods of
        the boundary's classes (`Guard.check(schema, input)`)."""
        from auditor.extract import instances

        seen: dict[ts.Node, Module] = {}
        todo = list(roots)
        while todo:
            m, fn = todo.pop(0)
            if fn in seen:
                continue
            seen[fn] = m
            for n in _calls(fn):
                hit = self.resolve(m, n) or instances.static_method(self, m, n)
                if hit is not None and hit[1] not in seen:
                    todo.append((hit[0], hit[1]))
        return list((m, fn) for fn, m in seen.items())


def _calls(fn: ts.Node):
    stack = [fn]
    while stack:
        n = stack.pop()
        if n.type == "call_expression":
            yield n
        stack.extend(reversed(n.named_children))


def _commonjs_exports(expr: ts.Node, path: str, exports: dict, assigned: dict, resolve=lambda spec: None) -> None:
    """CommonJS exports of a top-level statement: `exports.x = y`, `module.exports.x = y`, `module.exports = { x, y: z }`
    (each exported name -> its local name; a value that is not a name is exported under its own name, and is the
    value ASSIGNED holds for that name; `exports.x = void 0`, tsc's declaration ahead of the value, is none).
    `exports.a = exports.b = void 0` chains its targets."""
    while expr is not None and expr.type == "assignment_expression":
        left, value = expr.child_by_field_name("left"), strip_casts(expr.child_by_field_name("right"))
        target = member_chain(left)
        if value is None or not target:
            return
        if target[-1] == "[]" and left.type == "subscript_expression":  # exports["my-name"] = ...: a name that is no identifier
            key = string_value(strip_casts(left.child_by_field_name("index")))
            target = target[:-1] + (key,) if key is not None else target[:-1]
        holders = (("exports",), ("module", "exports"))
        if target == ("module", "exports") and value.type == "object":  # module.exports = { x, y: z }
            assigned[""] = value  # (the module's value, as `require("./m")` gives it)
            for key, pair in object_pairs(value).items():
                v = pair_value(pair)
                exports[key] = (path, text(v) if v.type in {"identifier", "shorthand_property_identifier"} else key)
        elif len(target) > 1 and target[:-1] in holders and (spec := tslib.required_spec(value)) is not None \
                and resolve(spec) is not None:  # exports.ns = __importStar(require("./x")): export * as ns
            exports[target[-1]] = (resolve(spec), "*")
        elif len(target) > 1 and target[:-1] in holders:  # exports.x = y, module.exports.x = y
            exports[target[-1]] = (path, text(value) if value.type == "identifier" else target[-1])
            if value.type not in {"identifier", "unary_expression", "assignment_expression"}:
                assigned[target[-1]] = value
        expr = value


def _nothing(node: ts.Node | None) -> bool:
    """`null` or `undefined`: a field cleared (before, or after, what it holds): no value of another class."""
    return node is not None and (node.type in {"null", "undefined"} or node.type == "identifier" and text(node) == "undefined")


def callback_calls(resolved: list[tuple[Module, ts.Node, Module, ts.Node]]) -> dict[int, list[tuple[Module, ts.Node]]]:
    """Callback id -> its calls: of each call RESOLVED (module, call, the called function's module, that function)
    handed a function written as an argument, the calls the called function makes of the parameter binding it
    (`registerAll((entry) => this.add(entry))` and `function registerAll(register) { ...; register(entry) }`)."""
    out: dict[int, list[tuple[Module, ts.Node]]] = {}
    for _, call, fmod, called in resolved:
        for index, arg in enumerate(map(strip_casts, call_args(call))):
            if arg is None or arg.type not in FUNCTION_TYPES:
                continue
            name = next((n for n, i in plain_parameters(called).items() if i == index), None)
            for inner in find(called, {"call_expression"}) if name is not None else ():
                callee = strip_casts(inner.child_by_field_name("function"))
                if callee is not None and callee.type == "identifier" and text(callee) == name \
                        and bindings.visible(inner, name) is None:
                    out.setdefault(arg.id, []).append((fmod, inner))
    return out


def _declared_once(m: Module, names: set[str]) -> set[str]:
    """Those of NAMES that one declaration of the module binds, no other (variables, destructured names, parameters,
    functions, classes), or that every declaration binds to the same name of the same module loaded (`const { list }
    = await import("./registry.js")` in each of three methods)."""
    seen: dict[str, set] = {}
    loads = bindings.loading_declarators(m)
    field = {"variable_declarator": "name", "function_declaration": "name", "class_declaration": "name",
             "arrow_function": "parameter", "catch_clause": "parameter", "formal_parameters": None}  # what binds
    for node in find(m.tree.root_node, set(field)):
        target = node if field[node.type] is None else node.child_by_field_name(field[node.type])
        loaded = loads.get(node.id, {}) if node.type == "variable_declarator" else {}
        for ident in ([target] if target is not None and target.type == "identifier" else
                      find(target, {"identifier", "shorthand_property_identifier_pattern"}) if target is not None else []):
            if text(ident) in names:
                seen.setdefault(text(ident), set()).add(loaded.get(text(ident)) or ident.id)
    return {n for n, kinds in seen.items() if len(kinds) == 1}


def _top_level_requires(m: Module) -> dict[str, tuple[str, str]]:
    """The bindings of top-level `const x_1 = require("./x")` declarations (through tsc's `__importStar` and
    `__importDefault`), what compiled CommonJS writes for an import statement: local name -> (spec, "*"), or the names
    a destructuring declaration takes. A require() inside a function is a dynamic load, not one of these."""
    out: dict[str, tuple[str, str]] = {}
    for stmt in m.tree.root_node.named_children:
        if stmt.type not in {"lexical_declaration", "variable_declaration"}:
            continue
        for decl in stmt.named_children:
            name, value = decl.child_by_field_name("name"), decl.child_by_field_name("value")
            spec = tslib.required_spec(value) if decl.type == "variable_declarator" and value is not None else None
            if spec is None or name is None:
                continue
            out.update(bindings.declared(name, spec))
    return out


def _is_define_property(expr: ts.Node) -> bool:
    return expr.type == "call_expression" and member_chain(expr.child_by_field_name("function")) == ("Object", "defineProperty")


def _commonjs_reexport(expr: ts.Node, path: str, required: dict[str, str | None], exports: dict) -> None:
    """tsc's re-export of an imported name, `Object.defineProperty(exports, "x", { get: function () { return m_1.y; } })`
    (`export { y as x } from "./m"`): the name x -> (the module m_1 requires, y)."""
    if not _is_define_property(expr):
        return
    args = [a for a in (expr.child_by_field_name("arguments").named_children) if a.type != "comment"]
    if len(args) != 3 or member_chain(args[0]) != ("exports",) or string_value(args[1]) is None:
        return
    getter = object_pairs(args[2]).get("get")
    fn = strip_casts(pair_value(getter)) if getter is not None else None
    body = fn.child_by_field_name("body") if fn is not None else None
    if body is None:
        return
    ret = next((c for c in body.named_children if c.type == "return_statement"), None) if body.type == "statement_block" else None
    value = strip_casts(ret.named_children[0]) if ret is not None and ret.named_children else strip_casts(body)
    chain = member_chain(value) if value is not None else None
    if chain and len(chain) == 2 and required.get(chain[0]):
        exports[string_value(args[1])] = (required[chain[0]], chain[1])
    elif chain and len(chain) == 1:
        exports[string_value(args[1])] = (path, chain[0])


def _returns_this(fn: ts.Node) -> bool:
    """Whether every return of method FN gives `this` (`return this`, `return this.tools.set(k, v), this`)."""
    values = returned(fn)
    for value in values:
        value = strip_casts(value)
        while value is not None and value.type == "sequence_expression" and value.named_children:
            value = strip_casts(value.named_children[-1])
        if value is None or value.type != "this":
            return False
    return bool(values)


def _parameter_types(m: Module, cls: ts.Node) -> list[str]:
    """The classes the constructor of CLS takes, as the TypeScript compiler records them for a decorated class
    (emitDecoratorMetadata: `C = __decorate([Injectable(), __metadata("design:paramtypes", [Store, Clock])], C)`,
    also swc's `_ts_metadata`): the text of each element, "" for one that is no name (`Object` stays, and names no
    class of the boundary). Empty when the module records none."""
    name = class_name_of(cls)
    for call in m.nodes("call"):
        args = call_args(call)
        if len(args) != 2 or string_value(args[0]) != "design:paramtypes" or strip_casts(args[1]).type != "array":
            continue
        holder = call.parent.parent if call.parent is not None and call.parent.type == "array" else None
        decorate = holder.parent if holder is not None and holder.type == "arguments" else None
        outer = call_args(decorate) if decorate is not None and decorate.type == "call_expression" else []
        if len(outer) >= 2 and text(strip_casts(outer[-1])) == name:
            return [text(e) if member_chain(e) else "" for e in strip_casts(args[1]).named_children]
    return []
