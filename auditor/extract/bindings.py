"""What a name refers to inside one module: the value a variable is initialised with, or the import binding it."""

from __future__ import annotations

from bisect import bisect_right

import tree_sitter as ts

from auditor.extract import inlined
from auditor.extract.program import Module
from auditor.extract.syntax import (CLASS_TYPES, FUNCTION_TYPES, ancestors, call_args, direct, enclosing, find,
                                    member_chain, memo, string_value, strip_casts, text)


def literal_env(link, fallback: Module):
    """An identifier's value for syntax.literal(): in its own scope, else the top level of its module (FALLBACK when
    LINK does not know the node's), through imports when LINK is given."""
    def env(ident: ts.Node) -> ts.Node | None:
        m = (link.module_of(ident) if link is not None else None) or fallback
        local = value_of(m, ident)
        if local is not None or link is None:
            return local
        where = link.binding(m, text(ident))
        return link.value(*where) if where is not None else None
    return env


def value_of(module: Module, ident: ts.Node) -> ts.Node | None:
    """The initializer of the variable `ident` names: declared in an enclosing `for ... of` loop's body or function,
    else at top level."""
    ident = strip_casts(ident)
    if ident is None or ident.type not in {"identifier", "shorthand_property_identifier"}:
        return None
    name = text(ident)
    for scope in ancestors(ident):
        body = scope.child_by_field_name("body") if scope.type == "for_in_statement" else None
        if body is not None and body.start_byte <= ident.start_byte:  # `const n = ...` in the body, per element
            for n in _declared(module, body)[0].get(name, ()):
                if _loop_owner(n) == scope:
                    return n.child_by_field_name("value")
            continue
        if scope.type not in FUNCTION_TYPES:
            continue
        named, patterns = _declared(module, scope)
        for n in named.get(name, ()):
            if _owner(n) == scope and _in_scope(n, ident):
                value = n.child_by_field_name("value")
                return value if value is not None else assigned_later(scope, name)
        # A parameter of the function, or a name a declaration of it destructures, shadows any outer one: its
        # value is not known here (a caller's), and certainly not the top level's of the same name.
        params = scope.child_by_field_name("parameters") or scope.child_by_field_name("parameter")
        if params is not None and _binds(params, name):
            return None
        if any(_owner(n) == scope for n in patterns.get(name, ())):
            return None
    found = module.toplevel.get(name)
    return found if found is not None else _in_block(module, ident, name)


def _in_scope(declarator: ts.Node, ident: ts.Node) -> bool:
    """Whether a declaration DECLARATOR is in scope at IDENT: a `const` or `let` only within the block that declares
    it (two `if` blocks of one function may each declare `const original = ...`), a `var` in all its function."""
    declaration = declarator.parent
    block = declaration.parent if declaration is not None and declaration.type == "lexical_declaration" else None
    return block is None or block.start_byte <= ident.start_byte < block.end_byte


def shadowed(module: Module, ident: ts.Node) -> bool:
    """Whether IDENT's name is declared by a function around it (a parameter, a variable of its own, a destructured
    name) or a `catch` clause: it is not the module's binding of that name (a minifier reuses one-letter names)."""
    name = text(ident)
    for scope in ancestors(ident):
        if scope.type == "catch_clause":
            param = scope.child_by_field_name("parameter")
            if param is not None and _binds(param, name):
                return True
        if scope.type not in FUNCTION_TYPES:
            continue
        params = scope.child_by_field_name("parameters") or scope.child_by_field_name("parameter")
        if params is not None and _binds(params, name):
            return True
        named, patterns = _declared(module, scope)
        if any(_owner(n) == scope for n in (*named.get(name, ()), *patterns.get(name, ()))):
            return True
    return False


def assigned_later(scope: ts.Node, name: str) -> ts.Node | None:
    """The value of a local declared without one (`let tool;`) that SCOPE assigns by statements of their own: the one
    value, or the first when every value constructs the same class (`if (c) t = new T(a); else t = new T();`)."""
    values = []
    for node in find(scope, {"assignment_expression"}):
        left = node.child_by_field_name("left")
        if left is None or left.type != "identifier" or text(left) != name:
            continue
        if node.parent is None or node.parent.type != "expression_statement":
            return None
        values.append(strip_casts(node.child_by_field_name("right")))
    if len(values) == 1:
        return values[0]
    made = {text(v.child_by_field_name("constructor")) for v in values if v is not None and v.type == "new_expression"}
    return values[0] if values and len(made) == 1 and all(v is not None and v.type == "new_expression" for v in values) \
        else None


def _in_block(module: Module, ident: ts.Node, name: str) -> ts.Node | None:
    """The initializer of NAME declared in a block of the top level (`if (x) { const n = ...; use(n) }`, outside any
    function) that holds IDENT: the innermost such block."""
    best = None
    for start, end, value in _block_declared(module).get(name, ()):
        if start <= ident.start_byte < end and (best is None or start > best[0]):
            best = (start, value)
    return best[1] if best is not None else None


def _block_declared(module: Module) -> dict[str, list[tuple[int, int, ts.Node | None]]]:
    """Name -> (block start, block end, initializer) of the declarators in blocks of the top level, outside every
    function (a walk of the module that does not enter functions, once per module: module.memo)."""
    memo = module.memo.get("block_declared")
    if memo is not None:
        return memo
    memo = module.memo["block_declared"] = {}
    stack = [c for c in module.tree.root_node.named_children if c.type not in _DECLARATIONS]
    while stack:
        node = stack.pop()
        if node.type in FUNCTION_TYPES or node.type in {"class_declaration", "class"}:
            continue
        if node.type == "variable_declarator":
            target, holder = node.child_by_field_name("name"), node.parent
            block = holder.parent if holder is not None else None
            if target is not None and target.type == "identifier" and block is not None:
                memo.setdefault(text(target), []).append((block.start_byte, block.end_byte,
                                                          node.child_by_field_name("value")))
        stack.extend(node.named_children)
    return memo


_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})  # of the top level itself: module.toplevel


def _declared(module: Module, scope: ts.Node) -> tuple[dict[str, list[ts.Node]], dict[str, list[ts.Node]]]:
    """The declarators written in SCOPE by name, and those that destructure by each name they bind: a function of
    thousands of lines is walked once (per module, module.memo), not once per name looked up in it."""
    memo = module.memo.setdefault("declared", {})
    hit = memo.get(scope.id)
    if hit is not None and hit[0] == scope:
        return hit[1], hit[2]
    named: dict[str, list[ts.Node]] = {}
    patterns: dict[str, list[ts.Node]] = {}
    for n in find(scope, {"variable_declarator"}):
        target = n.child_by_field_name("name")
        if target is None:
            continue
        named.setdefault(text(target), []).append(n)
        if target.type in {"object_pattern", "array_pattern"}:
            for bound in bound_names(target):
                patterns.setdefault(bound, []).append(n)
    memo[scope.id] = (scope, named, patterns)
    return named, patterns


_PATTERN_VALUES = {"type_annotation", "type_identifier", "predefined_type"}


def _binds(pattern: ts.Node, name: str) -> bool:
    """Whether a parameter list or a destructuring pattern declares NAME (not in a default value or a type)."""
    return name in bound_names(pattern)


_PATTERN_PARTS = {"assignment_pattern": "left", "object_assignment_pattern": "left", "pair_pattern": "value",
                  "required_parameter": "pattern", "optional_parameter": "pattern"}  # the part that declares


def bound_names(pattern: ts.Node) -> set[str]:
    """The names a parameter list or a destructuring pattern declares (not in a default value or a type). Read with a
    stack of its own: a pattern of damaged code may nest deeper than Python's recursion allows."""
    out, todo = set(), [pattern]
    while todo:
        node = todo.pop()
        if node.type in {"identifier", "shorthand_property_identifier_pattern"}:
            out.add(text(node))
        elif node.type in _PATTERN_PARTS:
            part = node.child_by_field_name(_PATTERN_PARTS[node.type])
            todo += [part] if part is not None else []
        elif node.type not in _PATTERN_VALUES:
            todo += node.named_children
    return out


def _owner(node: ts.Node) -> ts.Node | None:
    """The innermost function NODE is written in (syntax.enclosing: asked of every declarator of a bundle's one-letter
    name, a walk up the tree each time would be quadratic)."""
    return enclosing(node, FUNCTION_TYPES)


_LOOP_OWNERS = FUNCTION_TYPES | {"for_in_statement"}


def _loop_owner(node: ts.Node) -> ts.Node | None:
    """The innermost function or `for ... of` loop NODE is written in."""
    return enclosing(node, _LOOP_OWNERS)


def imports(module: Module) -> dict[str, tuple[str, str]]:
    """Local name -> (import source, imported name); `*` for a namespace import, `default` for a default one.
    Import statements, and the declarators that receive a require("x") or import("x"). Read only: the dict is shared
    (read once per module: a module of hundreds of imports is looked up for every schema, value and effect)."""
    hit = module.memo.get("imports")
    if hit is not None:
        return hit
    # (a name an import statement binds is the module's: a require() of the same name in a function, as a minifier
    # reuses short names, binds it only there)
    found = module.memo["imports"] = {**_required(module), **static_imports(module)}
    return found


def class_name(module: Module, ctor: ts.Node | None, packages: list[str]) -> str:
    """The name a constructor has in the package it is imported from, when that is one of `packages`
    (`import { McpServer as S }` then `new S()`; `const sdk = require(...)` then `new sdk.McpServer()`, as compiled
    and bundled code writes them, `new (0, sdk_1.McpServer)(...)` too); else the constructor as written."""
    ctor = (direct(ctor) or ctor) if ctor is not None else None
    shown = text(ctor)
    chain = member_chain(ctor) if ctor is not None else None
    if not chain or len(chain) > 2:
        return shown
    src = imports(module).get(chain[0], ("", ""))[0]
    if not any(src == p or src.startswith(p + "/") for p in packages):
        copied = inlined.sdk_class(module, shown) if len(chain) == 1 else None
        return copied or shown  # (`new gt()` of a minified bundle's copy of the SDK's class: that class)
    return package_name(module, chain, packages) or shown


def package_name(module: Module, chain: tuple[str, ...], packages: list[str]) -> str | None:
    """The name CHAIN (`S`, `sdk.McpServer`, `serveStdio`) has in the package it is imported from, when that is one of
    PACKAGES (`import { McpServer as S }`, `const sdk = require(...)`); None otherwise."""
    src, name = imports(module).get(chain[0], ("", "")) if chain else ("", "")
    if not any(src == p or src.startswith(p + "/") for p in packages):
        return None
    if len(chain) == 1 and name not in {"*", "default"}:
        return name
    return chain[1] if len(chain) == 2 and name in {"*", "default"} else None


def static_imports(module: Module) -> dict[str, tuple[str, str]]:
    """The bindings of `import ... from "x"` statements only: the one scanner of them (linker, zod, effects)."""
    out: dict[str, tuple[str, str]] = {}
    for source, node in module.imports:
        if node.type == "import_statement":
            clause = next((c for c in node.named_children if c.type == "import_clause"), None)
            for c in clause.named_children if clause is not None else []:
                if c.type == "identifier":
                    out[text(c)] = (source, "default")
                elif c.type == "namespace_import":
                    name = next((x for x in c.named_children if x.type == "identifier"), None)
                    if name is not None:
                        out[text(name)] = (source, "*")
                elif c.type == "named_imports":
                    for spec in c.named_children:
                        if spec.type != "import_specifier":
                            continue
                        imported, alias = spec.child_by_field_name("name"), spec.child_by_field_name("alias")
                        original = string_value(imported) or text(imported)
                        out[text(alias or imported)] = (source, original)
    return out


def _required(module: Module) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for names in loading_declarators(module).values():
        out.update(names)
    return out


def loading_declarators(module: Module) -> dict[int, dict[str, tuple[str, str]]]:
    """Declarator id -> the names it binds of a module it loads (`const { a } = await import("./x.js")`, `const x =
    require("x")`): local name -> (source, imported name), in code order."""
    hit = module.memo.get("loading_declarators")
    if hit is not None:
        return hit
    out: dict[int, dict[str, tuple[str, str]]] = {}
    for source, node in module.imports:
        if node.type != "import_statement":  # require("x") or import("x"): the declarator that receives it
            decl = _receiver(node)
            target = decl.child_by_field_name("name") if decl is not None else None
            if target is not None:
                out.setdefault(decl.id, {}).update(declared(target, source))
    module.memo["loading_declarators"] = out
    return out


_PASSED = frozenset({"parenthesized_expression", "await_expression", "as_expression", "non_null_expression",
                     "satisfies_expression"})


def _receiver(load: ts.Node) -> ts.Node | None:
    """The declarator whose value is the module LOAD (a require() or import() call) gives: `const x = require("x")`,
    through `await`, a member of it (`require("x").default`) and a wrapper handed it alone (`__importStar(...)`); not
    one whose value only holds it somewhere (`const tools = { a: require("./a"), b: require("./b") }`)."""
    cur = load
    while (up := cur.parent) is not None:
        if up.type == "variable_declarator":
            return up if up.child_by_field_name("value") == cur else None
        if up.type == "assignment_expression" and up.child_by_field_name("right") == cur:
            # `mod = await import("./x.js")` of a `let mod;` (or `= null`) declared with no value: a module loaded on
            # first use, the one thing the name ever holds
            left = up.child_by_field_name("left")
            decl = visible(up, text(left)) if left is not None and left.type == "identifier" else None
            value = decl.child_by_field_name("value") if decl is not None else None
            empty = value is None or value.type in {"null", "undefined"} or text(value) == "undefined"
            return decl if decl is not None and empty else None
        if up.type in _PASSED or up.type == "member_expression" and up.child_by_field_name("object") == cur:
            cur = up
        elif up.type == "arguments" and up.parent is not None and up.parent.type == "call_expression" \
                and len(up.named_children) == 1:
            cur = up.parent
        else:
            return None
    return None


def declared(target: ts.Node, source: str) -> dict[str, tuple[str, str]]:
    """The names a declaration of a module's value binds (`const x = require(s)`: x is the namespace; `const {a, b:
    c} = ...`: a and c are its members a and b): local name -> (SOURCE, imported name)."""
    if target.type == "identifier":
        return {text(target): (source, "*")}
    out: dict[str, tuple[str, str]] = {}
    for p in target.named_children if target.type == "object_pattern" else ():
        if p.type == "shorthand_property_identifier_pattern":
            out[text(p)] = (source, text(p))
        elif p.type == "pair_pattern" and (v := p.child_by_field_name("value")) is not None and v.type == "identifier":
            out[text(v)] = (source, text(p.child_by_field_name("key")))
    return out


def bundled_bindings(module: Module) -> dict[str, tuple[str, str]]:
    """Local name -> (package, name) of the top-level bindings a bundle takes from a dependency bundled into it, as
    `imports` gives those of an import: a name declared in the dependency's region (`var { Command } = x.default;` in
    `// node_modules/commander/esm.mjs`: ("commander", "Command")), and a name of the module's own code initialised from
    one or from the dependency's loader (`var import_commander = __toESM(require_commander())`: ("commander", "*")). A
    function or call result declared in the region (`var require_commander = __commonJS(...)`) is its loader: calling
    it loads the dependency, it is not a function of it."""
    if not module.vendored:
        return {}
    starts = [first for first, _, _ in module.vendored]
    out: dict[str, tuple[str, str]] = {}
    loaders: dict[str, tuple[str, str]] = {}  # require_x = __commonJS(...): the module's loader, not a function of it
    for decl in module.tree.root_node.named_children:
        if decl.type not in {"variable_declaration", "lexical_declaration"}:
            continue
        line = decl.start_point[0] + 1
        i = bisect_right(starts, line) - 1
        package = module.vendored[i][2] if i >= 0 and line <= module.vendored[i][1] else None
        for d in decl.named_children:
            target = d.child_by_field_name("name") if d.type == "variable_declarator" else None
            if target is None:
                continue
            value = strip_casts(d.child_by_field_name("value"))
            pkg = package or _bundled_source(value, {**loaders, **out})
            if pkg is None:
                continue
            if target.type == "identifier" and package and value is not None and value.type in {"call_expression", *FUNCTION_TYPES}:
                loaders[text(target)] = (pkg, "*")
            else:
                out.update(declared(target, pkg))
    return out


def _bundled_source(value: ts.Node | None, bound: dict[str, tuple[str, str]]) -> str | None:
    """The package a value of the module's own code comes from: a bundled binding, read (`x.default`), called
    (`require_x()`) or wrapped in a call (`__toESM(require_x(), 1)`)."""
    value = strip_casts(value)
    for _ in range(3):
        if value is None:
            return None
        if value.type == "call_expression":
            fn = member_chain(value.child_by_field_name("function"))
            if fn and fn[0] in bound:
                return bound[fn[0]][0]
            args = value.child_by_field_name("arguments")
            value = strip_casts(args.named_children[0]) if args is not None and args.named_children else None
            continue
        chain = member_chain(value)
        return bound[chain[0]][0] if chain and chain[0] in bound else None
    return None


_BLOCKS = frozenset({"statement_block", "switch_body", "program", "for_statement", "for_in_statement"})


def declaration_scope(decl: ts.Node) -> ts.Node | None:
    """Where the local a declarator declares is visible: a `var`'s whole function, a `let`/`const`'s block (the
    case braces of a `switch`, the loop it heads)."""
    holder = decl.parent
    if holder is None:
        return None
    if holder.type == "variable_declaration":  # (`var`)
        return next((a for a in ancestors(holder) if a.type in FUNCTION_TYPES or a.type == "program"), None)
    return next((a for a in ancestors(holder) if a.type in _BLOCKS or a.type in FUNCTION_TYPES), None)


def references(decl: ts.Node, name: str) -> list[ts.Node]:
    """The identifiers after DECL that read the local NAME it declares: those in its scope that `visible` takes to DECL
    (one `switch` over the tools declares `const limit` in several cases, and each case's is its own; an inner
    parameter or local of the same name hides it)."""
    scope = declaration_scope(decl)
    return [n for n in find(scope, {"identifier", "shorthand_property_identifier"})
            if text(n) == name and n.start_byte > decl.end_byte and (d := visible(n, name)) is not None
            and d.id == decl.id] if scope is not None else []


_SCOPES: dict[int, tuple[ts.Node, dict[str, list[ts.Node]]]] = memo()  # (syntax.forget() drops it)


def visible(node: ts.Node, name: str) -> ts.Node | None:
    """The declarator of the local NAME that NODE reads: the nearest block or function around NODE that declares
    NAME before it (a `let`/`const` in another case of the same switch is not seen); None when a parameter binds it
    first or nothing around does."""
    for scope in ancestors(node):
        if scope.type not in _BLOCKS and scope.type not in FUNCTION_TYPES:
            continue
        memo = _SCOPES.get(scope.id)
        if memo is None or memo[0] != scope:
            names: dict[str, list[ts.Node]] = {}
            for d in find(scope, {"variable_declarator"}):
                target = d.child_by_field_name("name")
                own = declaration_scope(d)
                if target is not None and own is not None and own.id == scope.id:
                    for n in bound_names(target):
                        names.setdefault(n, []).append(d)
            memo = _SCOPES[scope.id] = (scope, names)
        # (`<=`: a declarator's own name is its own, no read of an outer local of that name)
        found = [d for d in memo[1].get(name, ()) if d.start_byte <= node.start_byte]
        if found:
            return found[-1]
        params = scope.child_by_field_name("parameters") or scope.child_by_field_name("parameter") \
            if scope.type in FUNCTION_TYPES else None
        if params is not None and name in bound_names(params):
            return None
    return None


_FIELDS: dict[int, tuple[ts.Node, dict[str, list[ts.Node | None]]]] = memo()  # (syntax.forget() drops it)


def class_fields(cls: ts.Node) -> dict[str, list[ts.Node | None]]:
    """Field name -> the values the class CLS gives it, in order: each `this.F = value` its methods write (not those of
    a class written inside it) and its declaration's value (`F = []`, None for `F;`). Read once per class."""
    hit = _FIELDS.get(cls.id)
    if hit is None or hit[0] != cls:
        fields: dict[str, list[ts.Node | None]] = {}
        for a in find(cls, {"assignment_expression"}):
            chain = member_chain(a.child_by_field_name("left"))
            if chain and len(chain) == 2 and chain[0] == "this" and enclosing(a, CLASS_TYPES) == cls:
                fields.setdefault(chain[1], []).append(a.child_by_field_name("right"))
        for f in find(cls, {"public_field_definition", "field_definition"}):
            key = f.child_by_field_name("name") or f.child_by_field_name("property")
            if key is not None and enclosing(f, CLASS_TYPES) == cls:
                fields.setdefault(text(key).lstrip("#"), []).append(f.child_by_field_name("value"))
        hit = _FIELDS[cls.id] = (cls, fields)
    return hit[1]


def collection_field(node: ts.Node) -> tuple[ts.Node, str] | None:
    """(class, field) when NODE is the empty `new Map()` / `new Set()` a class's field starts as (`this.F = new Map()`
    in its constructor, or `F = new Map()`), else None."""
    if node.type != "new_expression" or call_args(node) \
            or text(node.child_by_field_name("constructor")) not in {"Map", "Set"}:
        return None
    parent = node.parent
    name = None
    if parent is not None and parent.type == "assignment_expression":
        chain = member_chain(parent.child_by_field_name("left")) or ()
        name = chain[1] if len(chain) == 2 and chain[0] == "this" else None
    elif parent is not None and parent.type in {"public_field_definition", "field_definition"}:
        key = parent.child_by_field_name("name") or parent.child_by_field_name("property")
        name = text(key).lstrip("#") if key is not None else None
    cls = enclosing(node, CLASS_TYPES) if name else None
    return (cls, name) if cls is not None else None
