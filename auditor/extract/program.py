"""Index of one parsed script: classes, functions, top-level bindings, imports and calls."""

from __future__ import annotations

import posixpath
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field, replace

import tree_sitter as ts

from auditor.extract import parse
from auditor.specifiers import package_of
from auditor.extract.syntax import (FUNCTION_TYPES, ancestors, call_args, call_function, callee_text, enclosing, find,
                                    literal, nullish, pair_value, string_value, strip_casts, text)


@dataclass(frozen=True, kw_only=True, slots=True)
class ClassInfo:
    name: str
    node: ts.Node
    fields: dict[str, ts.Node]
    methods: dict[str, ts.Node]


@dataclass(frozen=True, kw_only=True, slots=True)
class Module:
    """A parsed script of the boundary and the entry points the combined query found."""

    path: str  # relative to the repository root (anchors use it)
    name: str  # relative to the subtree, without suffix: the prefix of stable ids
    tree: ts.Tree
    caps: dict[str, list[ts.Node]]
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    functions: dict[str, ts.Node] = field(default_factory=dict)
    toplevel: dict[str, ts.Node] = field(default_factory=dict)  # name -> value node
    instances: dict[str, str] = field(default_factory=dict)  # top-level var -> class name
    imports: tuple[tuple[str, ts.Node], ...] = ()
    enums: dict[str, str] = field(default_factory=dict)  # "Enum.MEMBER" -> its string value
    # Regions of a bundle holding a dependency's code (start line, end line, package), by the bundler's markers; no
    # capture of the module lies in one (the dependency is not part of the boundary, as when it is not bundled).
    vendored: tuple[tuple[int, int, str], ...] = ()
    # Top-level functions of those regions that the module's own code calls by name, with their captures: a library's
    # helper inlined by the bundler (minified names) that the server may register its tools through (`adopt`).
    borrowed: tuple[tuple[str, ts.Node, dict[str, list[ts.Node]]], ...] = ()
    # The package's own source files a bundle holds, as its bundler's markers name them (`// src/tools/x.ts`, not
    # under node_modules): a second build of one of them (tsc's `dist/tools/x.js`) is code analysed here.
    sources: tuple[str, ...] = ()
    # What the analyses derive from this module's code and would otherwise compute again for each question (its
    # imports, the declarations of a function by name): a cache that lives and dies with the module, not a fact.
    memo: dict = field(default_factory=dict, compare=False, repr=False)

    def name_value(self, node: ts.Node | None) -> str | None:
        """A string literal, an enum member of this module with a string value (`ToolName.ECHO`), or a top-level
        constant of this module, or a member of one (`TOOL_NAMES.search` of `const TOOL_NAMES = {search: "search"}`)."""
        value = string_value(node)
        if value is None and node is not None:
            value = self.enums.get(text(strip_casts(node)))
        plain = strip_casts(node) if value is None and node is not None else None
        if plain is not None and plain.type in {"identifier", "member_expression"}:
            found = literal(plain, self.toplevel)
            value = found if isinstance(found, str) else None
        return value

    def nodes(self, capture: str) -> list[ts.Node]:
        return self.caps.get(capture, [])

    def qualified(self, func: ts.Node | None) -> str:
        """Stable name of a function node: `Class.method`, `name`, or `<module>` at top level."""
        if func is None:
            return "<module>"
        names = self.memo.setdefault("qualified", {})  # asked again for every node a function holds
        hit = names.get(func.id)
        if hit is None:
            hit = names[func.id] = self._qualified(func)
        return hit

    def _qualified(self, func: ts.Node) -> str:
        # A callback is named within the function that holds it (`main/server.tool(echo)`): a loop outwards, not
        # recursion, since callbacks may nest as deep as the code does.
        parts: list[str] = []
        while True:
            name, outer = self._own_name(func)
            parts.append(name)
            if outer is None:
                return "/".join(reversed(parts))
            func = outer

    def _own_name(self, func: ts.Node) -> tuple[str, ts.Node | None]:
        """The name of `func` itself, and the function whose name prefixes it (a callback's), if any."""
        name = func.child_by_field_name("name")
        if func.type == "method_definition":
            cls = enclosing(func, {"class_declaration", "abstract_class_declaration", "class"})
            cname = (class_name_of(cls) or "<class>") if cls is not None else "<class>"
            return f"{cname}.{text(name)}", None
        if name is not None:
            return text(name), None
        parent = func.parent
        if parent is not None and parent.type == "variable_declarator":
            return text(parent.child_by_field_name("name")), None
        if parent is not None and parent.type == "arguments":
            call = parent.parent
            outer = enclosing(func, FUNCTION_TYPES)
            args = [a for a in parent.named_children if a.type != "comment"]
            # Name a callback by what it is registered for, never by its line: ids must be stable.
            first = (string_value(args[0]) or text(args[0])) if args and args[0] != func else ""
            label = first if first and len(first) <= 60 else "callback"
            return (f"{callee_text(call)}({label})", outer) if call is not None else ("<anonymous>", None)
        if parent is not None and parent.type == "pair" and parent.parent is not None:
            # An entry of an object of functions (`const HANDLERS = { jot: async () => ... }`): `HANDLERS.jot`.
            key = parent.child_by_field_name("key")
            holder = parent.parent.parent
            owner = text(holder.child_by_field_name("name")) if holder is not None and holder.type == "variable_declarator" else ""
            if holder is not None and holder.type == "arguments" and holder.parent is not None:
                # An object of callbacks passed to a call: `server.addTool({ name: "jot", execute })` gives
                # `server.addTool(jot)/execute`; named by its `name` entry, else by the call's first string argument.
                site = holder.parent
                named = next((string_value(pair_value(c)) for c in parent.parent.named_children if c.type == "pair"
                              and text(c.child_by_field_name("key")) == "name"), None)
                first = next((a for a in holder.named_children if a.type != "comment"), None)
                named = named or (string_value(first) if first is not None else None)
                callee = callee_text(site) if site.type == "call_expression" else \
                    "new " + text(site.child_by_field_name("constructor")) if site.type == "new_expression" else "<call>"
                label = (string_value(key) or text(key)) if key is not None else ""
                call = f"{callee}({named if named and len(named) <= 60 else 'object'})"
                return (f"{call}/{label}" if label and len(label) <= 60 else call), None
            label = (string_value(key) or text(key)) if key is not None else ""
            if label and len(label) <= 60:
                return (f"{owner}.{label}" if owner else label), None
        outer = enclosing(func, FUNCTION_TYPES)
        if parent is not None and outer is not None and (parent.type == "return_statement" or parent is outer):
            # The function a factory returns (`return async (args) => ...`, `(h) => (args) => ...`): `factory/return`.
            return "return", outer
        return "<anonymous>", None


def module_name(path: str, subtree: str) -> str:
    rel = path[len(subtree) + 1:] if subtree and path.startswith(subtree + "/") else path
    stem, ext = posixpath.splitext(rel)
    return stem if ext else rel


# esbuild (and tsup, which uses it) opens each bundled module with a top-level comment naming its source file.
_BUNDLE_MARK = re.compile(rb"// ((?:node_modules/)?[\w@.+-][\w@.+/-]*\.(?:[cm]?js|[cm]?ts|jsx|tsx|json))")


# rolldown and rollup (with output.sourcemap regions) wrap each bundled module in `//#region PATH` ... `//#endregion`.
_REGION_MARK = re.compile(rb"//#region (\S+)\s*")
_REGION_END = re.compile(rb"//#endregion\s*")


def vendored_path(where: str) -> bool:
    """Whether a bundler's marker path names a file of an installed package: under `node_modules/`, also one of a
    workspace's root reached from the package's folder (`../../node_modules/.bun/zod@3.25.76/node_modules/zod/...`)."""
    return where.startswith("node_modules/") or "/node_modules/" in where


def _package(where: str) -> str:
    return package_of(where.rsplit("node_modules/", 1)[1])


def _regions(tree: ts.Tree) -> list[tuple[int, int, int, int, str]]:
    """The `//#region` ... `//#endregion` spans of a rolldown bundle whose path is under node_modules."""
    out, opened = [], None
    for c in tree.root_node.named_children:
        if c.type != "comment":
            continue
        if (m := _REGION_MARK.fullmatch(c.text)) is not None:
            opened = (c, m.group(1).decode("utf-8", "replace"))
        elif opened is not None and _REGION_END.fullmatch(c.text) is not None:
            mark, where = opened
            if "node_modules/" in where:
                out.append((mark.start_byte, c.end_byte, mark.start_point[0] + 1, c.end_point[0] + 1, _package(where)))
            opened = None
    return out


def _vendored(tree: ts.Tree) -> list[tuple[int, int, int, int, str]]:
    """(start byte, end byte, start line, end line, package) of the regions of a bundle that hold node_modules code."""
    regions = _regions(tree)
    if regions:
        return regions
    marks = [(c, m.group(1).decode("utf-8", "replace")) for c in tree.root_node.named_children
             if c.type == "comment" and (m := _BUNDLE_MARK.fullmatch(c.text)) is not None]
    if len(marks) < 2 or not any(vendored_path(p) for _, p in marks):
        return []  # one marker is a comment, not a bundle
    root = tree.root_node
    ends = [(c.start_byte, c.start_point[0]) for c, _ in marks[1:]] + [(root.end_byte, root.end_point[0] + 1)]
    out = []
    for (mark, where), (end, end_line) in zip(marks, ends):
        if vendored_path(where):
            out.append((mark.start_byte, end, mark.start_point[0] + 1, max(end_line, mark.start_point[0] + 1), _package(where)))
    return out


def _own_sources(tree: ts.Tree) -> tuple[str, ...]:
    """The paths not under node_modules that a bundle's markers name (esbuild's `// src/x.ts`, rolldown's `//#region
    src/x.ts`), sorted; none for a file with fewer than two such markers (one is a comment, not a bundle)."""
    marks = {m.group(1).decode("utf-8", "replace") for c in tree.root_node.named_children if c.type == "comment"
             and (m := _BUNDLE_MARK.fullmatch(c.text) or _REGION_MARK.fullmatch(c.text)) is not None}
    own = sorted(p for p in marks if "node_modules/" not in p)
    return tuple(own) if len(marks) >= 2 and own else ()


def class_name_of(cls: ts.Node) -> str:
    """A class's name: its own (`class A {}`), or the variable's a class expression is assigned to (`var A = class
    {}`, as bundlers write classes)."""
    own = cls.child_by_field_name("name")
    return text(own) if own is not None else holding_name(cls) or ""


def holding_name(cls: ts.Node) -> str | None:
    """The name a class expression is held by, whatever its own: `var A = class B {}`, or `A = class B {}` of a name
    declared before; None when it is held by none."""
    parent = cls.parent
    if parent is not None and parent.type == "variable_declarator" and parent.child_by_field_name("value") == cls:
        name = parent.child_by_field_name("name")
    elif parent is not None and parent.type == "assignment_expression" and parent.child_by_field_name("right") == cls:
        name = parent.child_by_field_name("left")
    else:
        return None
    return text(name) if name is not None and name.type == "identifier" else None


def class_info(cls: ts.Node, name: str) -> ClassInfo:
    """The fields and methods a class node CLS declares in its body, under NAME."""
    body = cls.child_by_field_name("body")
    fields, methods = {}, {}
    for member in body.named_children if body is not None else []:
        if member.type in {"public_field_definition", "field_definition"}:
            key = member.child_by_field_name("name") or member.child_by_field_name("property")
            if key is not None:
                fields[text(key).lstrip("#")] = member
        elif member.type == "method_definition":
            methods[text(member.child_by_field_name("name"))] = member
    return ClassInfo(name=name, node=cls, fields=fields, methods=methods)


def build(path: str, name: str, tree: ts.Tree, lang: str) -> Module:
    caps = parse.captures(tree, lang)
    vendored = _vendored(tree)
    if vendored:
        starts = [v[0] for v in vendored]

        def own(n: ts.Node) -> bool:
            i = bisect_right(starts, n.start_byte) - 1
            return i < 0 or n.start_byte >= vendored[i][1]

        borrowed = _borrowed(caps, own)
        caps = {k: [n for n in nodes if own(n)] for k, nodes in caps.items()}
    else:
        borrowed = ()
    classes: dict[str, ClassInfo] = {}
    for cls in caps.get("class", []):
        cname = class_name_of(cls)
        if cname:
            classes[cname] = class_info(cls, cname)
    functions = {text(f.child_by_field_name("name")): f for f in caps.get("function", [])
                 if f.parent is not None and f.parent.type in {"program", "export_statement"}}
    toplevel: dict[str, ts.Node] = {}
    instances: dict[str, str] = {}
    later: set[str] = set()  # top-level names declared without a value
    unset: set[str] = set()  # `let instance = null;`: set later (`if (!instance) instance = new C()`)
    for decl in caps.get("toplevel.var", []):
        vname, value = decl.child_by_field_name("name"), decl.child_by_field_name("value")
        if vname is not None and vname.type == "identifier" and nullish(value) and decl.parent is not None \
                and decl.parent.type == "lexical_declaration" and text(decl.parent.children[0]) == "let":
            unset.add(text(vname))
        if vname is not None and value is None and vname.type == "identifier":
            # `let manager: Manager;` assigned later (e.g. in main()): an instance of that class.
            tnode = decl.child_by_field_name("type")
            tname = text(tnode).lstrip(":").strip() if tnode is not None else ""
            if tname.isidentifier():
                instances[text(vname)] = tname
            later.add(text(vname))
            continue
        if vname is None or value is None or vname.type != "identifier":
            continue
        toplevel[text(vname)] = value
        inner = strip_casts(value)
        if inner.type in {"arrow_function", "function_expression", "function"}:
            functions.setdefault(text(vname), inner)
        if inner.type == "new_expression":
            instances[text(vname)] = text(inner.child_by_field_name("constructor"))
    # Without a type (JavaScript), `let tool;` (or `let tool = null;`) assigned `tool = new Tool(...)` in a function: an
    # instance of Tool, when every such assignment names the same class.
    made: dict[str, set[str]] = {}
    assigned: dict[str, list[ts.Node]] = {}  # a name declared without a value -> every value assigned to it
    for node in caps.get("assign", []):
        left, right = node.child_by_field_name("left"), strip_casts(node.child_by_field_name("right"))
        if left is not None and left.type == "identifier" and text(left) in unset and right is not None \
                and right.type == "new_expression" and node.type == "assignment_expression":
            made.setdefault(text(left), set()).add(text(right.child_by_field_name("constructor")))
        if left is None or left.type != "identifier" or text(left) not in later:
            continue
        holder = node.parent
        while holder is not None and holder.type == "sequence_expression":  # `a = {...}, B = class {...};` of a
            holder = holder.parent                                          # minifier: statements of their own
        statement = node.type == "assignment_expression" and holder is not None \
            and holder.type == "expression_statement"  # (not `E || (E = {})` of a compiled enum)
        assigned.setdefault(text(left), []).append(node.child_by_field_name("right") if statement else None)
        if node.type == "assignment_expression" and text(left) not in instances and right is not None \
                and right.type == "new_expression":
            made.setdefault(text(left), set()).add(text(right.child_by_field_name("constructor")))
    instances.update({name: next(iter(classes_)) for name, classes_ in made.items() if len(classes_) == 1})
    # `var tool$search; ... tool$search = {...}` (a bundler's lazily initialised module, `let config;` set once in
    # main()): a name assigned exactly once, by a statement of its own, has that value, as if it were its initializer.
    shadows: dict[int, set[str]] = {}  # a function -> the names it declares itself (memo)
    for vname, values in assigned.items():
        if len(values) == 1 and values[0] is not None and vname not in toplevel \
                and not _shadowed(values[0], vname, shadows):
            toplevel[vname] = values[0]
            inner = strip_casts(values[0])
            if inner is not None and inner.type in {"arrow_function", "function_expression", "function"}:
                functions.setdefault(vname, inner)
            if inner is not None and inner.type == "class":  # `var A; ... A = class { ... }` (esbuild's lazy module)
                classes.setdefault(vname, class_info(inner, vname))
    imports = tuple((src, imp) for src, imp in zip(
        [text(s)[1:-1] for s in caps.get("import.source", [])], caps.get("import", []))) + _made_requires(caps) \
        + _evaluated_imports(caps)
    enums = {}
    for enum in caps.get("enum", []):
        ename, body = enum.child_by_field_name("name"), enum.child_by_field_name("body")
        for member in body.named_children if body is not None else []:
            if member.type == "enum_assignment" and string_value(member.child_by_field_name("value")) is not None:
                enums[f"{text(ename)}.{text(member.child_by_field_name('name'))}"] = string_value(member.child_by_field_name("value"))
    for call in caps.get("call", []):  # (a bundle's module function holds them too: any statement that is one)
        args = call.child_by_field_name("arguments")
        if call.parent is not None and call.parent.type == "expression_statement" and args is not None \
                and args.named_child_count == 1 and args.named_children[0].type == "binary_expression":
            enums.update(_compiled_enum(call.parent))
    return Module(path=path, name=name, tree=tree, caps=caps, classes=classes, functions=functions,
                  toplevel=toplevel, instances=instances, imports=imports, enums=enums,
                  vendored=tuple((first, last, pkg) for _, _, first, last, pkg in vendored), borrowed=borrowed,
                  sources=_own_sources(tree))


def _shadowed(node: ts.Node, name: str, memo: dict[int, set[str]]) -> bool:
    """Whether a function around NODE declares NAME itself (a parameter or a variable of its own)."""
    for scope in ancestors(node):
        if scope.type not in FUNCTION_TYPES:
            continue
        if scope.id not in memo:
            params = scope.child_by_field_name("parameters") or scope.child_by_field_name("parameter")
            memo[scope.id] = {text(n) for n in find(params, {"identifier", "shorthand_property_identifier_pattern"})} \
                if params is not None else set()
            memo[scope.id] |= {text(d.child_by_field_name("name")) for d in find(scope, {"variable_declarator"})
                               if d.child_by_field_name("name") is not None}
        if name in memo[scope.id]:
            return True
    return False


def _borrowed(caps: dict[str, list[ts.Node]], own) -> tuple[tuple[str, ts.Node, dict[str, list[ts.Node]]], ...]:
    """(name, function, its captures) of each top-level function declaration outside the module's own code (OWN)
    that a call of its own code names (`uZ(server, ...)`), when its own code declares no function of that name."""
    outside = {text(f.child_by_field_name("name")): f for f in caps.get("function", [])
               if not own(f) and f.parent is not None and f.parent.type == "program"}
    if not outside:
        return ()
    mine = {text(f.child_by_field_name("name")) for f in caps.get("function", []) if own(f)}
    named = {text(c.child_by_field_name("function")) for c in caps.get("call", []) if own(c)
             and c.child_by_field_name("function") is not None and c.child_by_field_name("function").type == "identifier"}
    picked = sorted(named & set(outside) - mine)
    if not picked:
        return ()
    # Each capture list once, sorted by position: a function's captures are a slice of it (no scan per function).
    ordered = {k: sorted((n for n in nodes if not own(n)), key=lambda n: n.start_byte) for k, nodes in caps.items()}
    starts = {k: [n.start_byte for n in nodes] for k, nodes in ordered.items()}
    out = []
    for name in picked:
        fn = outside[name]
        inside = {k: ordered[k][bisect_left(starts[k], fn.start_byte):bisect_left(starts[k], fn.end_byte)]
                  for k in ordered}
        out.append((name, fn, {k: v for k, v in inside.items() if v}))
    return tuple(out)


def adopt(module: Module, methods: frozenset[str]) -> Module:
    """MODULE with those of its borrowed functions (a bundled library's helpers its own code calls) that call one of
    METHODS on something (`Z.registerTool($, config, X)`) read as its own code: their captures and their names join
    the module's, so the registrations they make are read, and instantiated at the server's calls of them."""
    taken = [(name, fn, caps) for name, fn, caps in module.borrowed if any(
        (f := c.child_by_field_name("function")) is not None and f.type == "member_expression"
        and text(f.child_by_field_name("property")) in methods for c in caps.get("call", []))]
    if not taken:
        return module
    merged = {k: list(v) for k, v in module.caps.items()}
    for _, _, caps in taken:
        for k, nodes in caps.items():
            merged.setdefault(k, []).extend(nodes)
    merged = {k: sorted(v, key=lambda n: n.start_byte) for k, v in merged.items()}  # stable: ties keep their order
    functions = {**module.functions, **{name: fn for name, fn, _ in taken}}
    return replace(module, caps=merged, functions=functions, memo={})


def _compiled_enum(stmt: ts.Node) -> dict[str, str]:
    """The string members of an enum as tsc compiles it: `(function (E) { E["A"] = "a"; })(E || (E = {}));`."""
    call = strip_casts(stmt.named_children[0]) if stmt.named_children else None
    if call is None or call.type != "call_expression":
        return {}
    fn = strip_casts(call.child_by_field_name("function"))
    args = call_args(call)
    arg = strip_casts(args[0]) if len(args) == 1 else None
    if fn is None or fn.type not in FUNCTION_TYPES or arg is None or arg.type != "binary_expression" \
            or text(arg.child_by_field_name("operator")) != "||":
        return {}
    formal = fn.child_by_field_name("parameters")
    params = [c for c in formal.named_children if c.type != "comment"] if formal is not None else []
    inner = text(params[0].child_by_field_name("pattern") or params[0]) if len(params) == 1 else None
    outer = text(arg.child_by_field_name("left")).split(".")[-1]  # E, or exports.E in CommonJS
    body = fn.child_by_field_name("body")
    out = {}
    for st in body.named_children if inner and body is not None else []:
        a = st.named_children[0] if st.type == "expression_statement" and st.named_children else None
        if a is None or a.type != "assignment_expression":
            continue
        left, value = a.child_by_field_name("left"), string_value(a.child_by_field_name("right"))
        if value is None or left is None or text(left.child_by_field_name("object")) != inner:
            continue
        key = string_value(left.child_by_field_name("index")) if left.type == "subscript_expression" else \
            text(left.child_by_field_name("property")) if left.type == "member_expression" else None
        if key is not None:
            out[f"{outer}.{key}"] = value
    return out


# `import("x")` / `require("x")` with a literal specifier, in the text of code handed to eval.
_EVALUATED_LOAD = re.compile(r"""\b(?:import|require)\(\s*(['"])([^'"\\]+)\1\s*\)""")


def _evaluated_imports(caps: dict[str, list[ts.Node]]) -> tuple[tuple[str, ts.Node], ...]:
    """The modules loaded by code an `eval("...")` of a literal string runs (a launcher that keeps `import()` away
    from a CommonJS parser: `eval("import('../dist/esm/index.js').then(...)")`): (source, the eval call), as a
    dynamic import is."""
    out = []
    for call in caps.get("call", []):
        fn = call.child_by_field_name("function")
        args = call.child_by_field_name("arguments")
        code = string_value(args.named_children[0]) if fn is not None and text(fn) == "eval" and args is not None \
            and args.named_children else None
        out += [(m.group(2), call) for m in _EVALUATED_LOAD.finditer(code or "")]
    return tuple(out)


def made_requires(caps: dict[str, list[ts.Node]]) -> set[str]:
    """The names of the require functions an ES module makes: `const req = createRequire(import.meta.url)`, also
    through a renamed import (`import { createRequire as createRequire2 } from "module"`, a bundler's), compiled
    CommonJS's `(0, mod.createRequire)(f)`, and a branch of a ternary that picks where it is made from (`typeof f <
    "u" ? createRequire(f) : createRequire(meta.url)`)."""
    makers = {"createRequire"} | {text(alias) for imp in caps.get("import", [])
                                  for spec in find(imp, {"import_specifier"})
                                  if text(spec.child_by_field_name("name")) == "createRequire"
                                  and (alias := spec.child_by_field_name("alias")) is not None}
    made = set()
    for call in caps.get("call", []):
        fn, value = call_function(call), call
        decl = call.parent
        while decl is not None and (decl.type == "parenthesized_expression" or decl.type == "ternary_expression"
                                    and decl.child_by_field_name("condition") != value):
            value, decl = decl, decl.parent
        if fn is not None and text(fn).rsplit(".", 1)[-1] in makers and decl is not None \
                and decl.type == "variable_declarator" and decl.child_by_field_name("name") is not None:
            made.add(text(decl.child_by_field_name("name")))
    return made


def _made_requires(caps: dict[str, list[ts.Node]]) -> tuple[tuple[str, ts.Node], ...]:
    """The loads of a require function an ES module makes (`const req = createRequire(import.meta.url)`, then
    `req("pkg")`): (source, call), as a require() is."""
    made = made_requires(caps)
    out = []
    for call in caps.get("call", []) if made else ():
        fn = call.child_by_field_name("function")
        args = call.child_by_field_name("arguments")
        first = args.named_children[0] if args is not None and args.named_children else None
        source = string_value(first) if first is not None else None
        if fn is not None and fn.type == "identifier" and text(fn) in made and source:
            out.append((source, call))
    return tuple(out)

