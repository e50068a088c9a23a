"""Functions nothing calls: a registration written in one registers nothing. A function value is never called when
the boundary has no call of it and every place its value goes is a name that is itself never called nor handed on:
held by a local that nothing reads, or only in an object literal held by such a local (`const prompt =
createRegisterPrompt(server); const register = { tool, prompt }; void register;`, a generated server's registrars
for kinds it has none of). A function that is exported, passed as an argument, stored in a field or returned further
may be called where this cannot see: it is not taken for dead."""

from __future__ import annotations

import re
from collections import Counter
from typing import Callable, Iterable

import tree_sitter as ts

from auditor.extract import parse
from auditor.extract.frames import parameters
from auditor.extract.syntax import FUNCTION_TYPES, ancestors, find, member_chain, strip_casts, text

MAX_HOPS = 3  # a local held in an object held by a local ..., followed this deep

_WRAPPERS = {"parenthesized_expression", "await_expression", "as_expression", "satisfies_expression",
             "non_null_expression"}


def never_called(fn: ts.Node, calls_of: Callable[[ts.Node], list]) -> bool:
    """Whether the function FN (a node of FUNCTION_TYPES) is a value nothing calls (CALLS_OF: the boundary's calls
    of a function)."""
    if calls_of(fn):
        return False
    if fn.type == "function_declaration":  # `function f() {}`: dead when nothing but dead names refer to it
        name = fn.child_by_field_name("name")
        return name is not None and fn.parent is not None and fn.parent.type != "export_statement" \
            and _dead_name(text(name), fn.parent, name, 0)
    holder = value_position(fn)
    if holder is None:
        return False
    if holder.type == "variable_declarator":
        return _dead_declarator(holder, 0)
    if holder.type in {"return_statement", "arrow_function"}:  # the result of a factory: dead at each of its calls
        factory = holder if holder.type == "arrow_function" else next(
            (a for a in ancestors(holder) if a.type in FUNCTION_TYPES), None)
        calls = calls_of(factory) if factory is not None else []
        return bool(calls) and all(_dead_result(call) for _, call in calls)
    return False


def unused_export(fn: ts.Node, link) -> bool:
    """Whether FN is an exported `function f` of an internal module that nothing can call: the boundary's code writes
    its name once (its declaration: no import, call, re-export or string names it), other modules of the boundary import
    from its module (a module of the program's insides, not a package's public face) and none re-exports that module
    wholesale (`export * from`)."""
    if fn.type != "function_declaration" or fn.parent is None or fn.parent.type != "export_statement" or link is None:
        return False
    name = fn.child_by_field_name("name")
    module = link.module_of(fn)
    if name is None or module is None or boundary_words(link).get(text(name).encode(), 0) != 1:
        return False
    if any(module.path in targets for targets in link.star.values()):
        return False
    return any(b.module == module.path for path, names in link.imports.items() if path != module.path
               for b in names.values())


def unused_in_dependency(fn: ts.Node | None, link, calls_of: Callable[[ts.Node], list]) -> bool:
    """Whether FN is a function of a dependency read with the target (a module under node_modules/) that the program
    never runs: no chain of places that name it leads back to code that runs. A place names it when it calls it (a
    call of the boundary that resolves to it) or writes its name (but where it is declared, exported or imported); a
    function with no name of its own (a callback) is named where it is written. Code runs when it is the target's, or
    the top-level code of a module the target's modules load (directly or not), or in a function that runs; a module
    outside the dependency's package that imports it by name (or reads it off a namespace it imports) runs it. A
    dependency's exports serve the programs that import them; the audited server is the one program here."""
    module = link.module_of(fn) if fn is not None and link is not None else None
    if module is None or not _dependency(module.path):
        return False
    memo = link.memo.setdefault("dead.unused_in_dependency", {})
    if fn.id in memo:
        return memo[fn.id]
    seen, todo = {fn.id}, [(fn, module)]
    while todo:  # backwards from FN through the functions naming it, until code that runs
        for holder in _namers(*todo.pop(), link, calls_of):
            if holder is None or memo.get(holder[0].id) is False:
                memo[fn.id] = False
                return False
            if holder[0].id not in seen and holder[0].id not in memo:
                seen.add(holder[0].id)
                todo.append(holder)
    memo.update((i, True) for i in seen)  # (none of them is named by code that runs)
    return True


def unrun_in_dependency(node: ts.Node, module, link, calls_of: Callable[[ts.Node], list]) -> bool:
    """Whether NODE, written in MODULE, is code of a dependency the program never runs: in a function of it that never
    runs (unused_in_dependency), or in the top-level code of a module of it that no module of the target loads,
    directly or not (an example or a command-line script the package ships)."""
    if link is None or not _dependency(module.path):
        return False
    fn = next((a for a in ancestors(node) if a.type in FUNCTION_TYPES), None)
    return unused_in_dependency(fn, link, calls_of) if fn is not None else module.path not in _loaded(link)


def _dependency(path: str) -> bool:
    return "node_modules/" in path


def _loaded(link) -> frozenset[str]:
    """The modules the target's own modules load, directly or not (their top-level code runs)."""
    loaded = link.memo.get("dead.loaded")
    if loaded is None:
        loaded = link.memo["dead.loaded"] = frozenset(link.closure(
            [path for path in link.by_path if not _dependency(path)], dynamic=True))
    return loaded


def _namers(fn: ts.Node, module, link, calls_of: Callable[[ts.Node], list]):
    """The functions of the dependency whose code names FN (function, module), each once per place; None for a place
    that runs whatever the dependency's functions do (see unused_in_dependency)."""
    name = _function_name(fn)
    places = [(call, cmod) for cmod, call in calls_of(fn)]
    if not name:  # (a callback: where it is written)
        places.append((fn, module))
    else:
        package = _package_folder(module.path)
        places += [(ref, module) for ref in _identifiers(link, module).get(name, ()) if ref.type != "property_identifier"]
        # (and a member of that name read off something not followed, `import("./server.mjs").then((m) =>
        # m.createServer())`, in the package or the target: it may be this function)
        places += [(ref.parent, where) for where in _readers(link, package)
                   for ref in _identifiers(link, where).get(name, ()) if ref.type == "property_identifier"
                   and ref.parent is not None and ref.parent.type == "member_expression"
                   and _off_a_dynamic_import(ref.parent)]
        for path, names in link.imports.items():
            for local, b in names.items():
                found = link.exported(b.module, name if b.name == "*" else b.name) if b.module is not None else None
                if found is None or found[0] is not module or found[1] != name:
                    continue
                importer = link.by_path.get(path)
                if importer is not None and b.name == "*" and _members_only(link, importer, local, name):
                    continue  # (`import * as lib` then only `lib.other(...)`: not this one)
                if importer is None or not path.startswith(package):
                    yield None  # (the target, or another package, imports it)
                    return
                places += [(ref, importer) for ref in _identifiers(link, importer).get(local, ())
                           if ref.type != "property_identifier"]
    for node, where in places:
        if node.type != "call_expression" and node != fn and (_named_aside(node) or node.parent == fn):
            continue  # (its declaration, an export or import of it)
        holder = next((a for a in ancestors(node) if a.type in FUNCTION_TYPES), None)
        if holder is None:
            if not _dependency(where.path) or where.path in _loaded(link):
                yield None
        elif holder.id != fn.id:
            yield (holder, where) if _dependency(where.path) else None


def _off_a_dynamic_import(member: ts.Node) -> bool:
    """Whether MEMBER reads a member of a module loaded by `import()`: `(await import(p)).f`, `m.f` of `const m =
    await import(p)`, or of the parameter of `import(p).then((m) => ...)`."""
    obj = strip_casts(member.child_by_field_name("object"))
    while obj is not None and obj.type in {"parenthesized_expression", "await_expression"} and obj.named_children:
        obj = strip_casts(obj.named_children[0])
    if obj is None:
        return False
    if obj.type == "call_expression":
        return _dynamic_import(obj)
    if obj.type != "identifier":
        return False
    name = text(obj)
    for scope in ancestors(obj):
        if scope.type in FUNCTION_TYPES and name in parameters(scope):  # `.then((m) => m.f())` on `import(p)`
            call = scope.parent.parent if scope.parent is not None and scope.parent.type == "arguments" else None
            callee = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
            return callee is not None and callee.type == "member_expression" \
                and text(callee.child_by_field_name("property")) == "then" \
                and _dynamic_import(strip_casts(callee.child_by_field_name("object")))
        for decl in (c for c in scope.named_children if c.type in {"lexical_declaration", "variable_declaration"}):
            for d in decl.named_children:
                value = d.child_by_field_name("value") if d.type == "variable_declarator" else None
                if value is not None and text(d.child_by_field_name("name")) == name:
                    while value is not None and value.type in {"await_expression", "parenthesized_expression"}:
                        value = value.named_children[0] if value.named_children else None
                    return value is not None and _dynamic_import(value)
    return False


def _dynamic_import(node: ts.Node | None) -> bool:
    """Whether NODE is `import(...)` (or `require(...)`, a CommonJS module loaded where it is needed)."""
    return node is not None and node.type == "call_expression" \
        and node.child_by_field_name("function") is not None \
        and node.child_by_field_name("function").type in {"import", "identifier"} \
        and text(node.child_by_field_name("function")) in {"import", "require"}


def _readers(link, package: str) -> list:
    """The modules of the dependency PACKAGE and those of the target (once per package)."""
    memo = link.memo.setdefault("dead.readers", {})
    if package not in memo:
        memo[package] = [m for path, m in sorted(link.by_path.items()) if path.startswith(package) or not _dependency(path)]
    return memo[package]


def _identifiers(link, module) -> dict[str, list[ts.Node]]:
    """Name -> the identifiers MODULE writes it in, shorthand entries (`{ register }`) and member names (`.register`)
    too (read once per module)."""
    index = link.memo.setdefault("dead.identifiers", {})
    if module.path not in index:
        found: dict[str, list[ts.Node]] = {}
        for ref in find(module.tree.root_node, {"identifier", "shorthand_property_identifier", "property_identifier"}):
            found.setdefault(text(ref), []).append(ref)
        index[module.path] = found
    return index[module.path]


def _package_folder(path: str) -> str:
    """The folder of the dependency a path under node_modules/ is in (`node_modules/@s/p/`, `node_modules/p/`)."""
    head, _, rest = path.rpartition("node_modules/")
    parts = rest.split("/")
    return head + "node_modules/" + "/".join(parts[:2 if parts[0].startswith("@") else 1]) + "/"


def _members_only(link, module, space: str, name: str) -> bool:
    """Whether MODULE writes SPACE, a namespace it imports, only to read members of it other than NAME."""
    for ref in _identifiers(link, module).get(space, ()):
        if _named_aside(ref) or ref.type == "property_identifier":
            continue
        parent = ref.parent
        if parent is None or parent.type != "member_expression" or parent.child_by_field_name("object") != ref \
                or text(parent.child_by_field_name("property")) == name:
            return False
    return True


def _named_aside(ref: ts.Node) -> bool:
    """Whether the identifier REF is a name declared, exported or imported, not used: `export { f }`, `import { f }`,
    `import f from`, `import * as f`, `function f`, `const f = ...`."""
    parent = ref.parent
    return parent is not None and (parent.type in {"export_specifier", "import_specifier", "import_clause",
                                                   "namespace_import"}
                                   or parent.type in {"function_declaration", "variable_declarator"}
                                   and parent.child_by_field_name("name") == ref)


def _function_name(fn: ts.Node) -> str:
    """The name a function is declared under (`function f`, `const f = () => ...`), "" for none."""
    if fn.type == "function_declaration":
        name = fn.child_by_field_name("name")
        return text(name) if name is not None else ""
    holder = value_position(fn)
    name = holder.child_by_field_name("name") if holder is not None and holder.type == "variable_declarator" else None
    return text(name) if name is not None and name.type == "identifier" else ""


_WORD = re.compile(rb"[A-Za-z_$][A-Za-z0-9_$]*")
_SPACE = re.compile(r"\s")  # (any white space, Unicode too: prose)


def words(trees: Iterable[ts.Tree]) -> Counter:
    """How often each name-like word occurs in the code of TREES: identifiers, members, and the words of strings that
    may name something (`obj["addTool"]`, a table of method names). Comments and prose (a string's text with a space
    in it: `"add tools via addTool()"` is a message, which names nothing that runs) are not counted."""
    counts: Counter = Counter()
    for tree in trees:
        counts.update(_WORD.findall(tree.root_node.text))
        if parse.grammar_of(tree) == "json":
            continue
        for name, nodes in parse.own_captures(tree, "prose").items():
            for node in nodes:
                if name == "prose.comment" or _SPACE.search(node.text.decode("utf-8", "replace")):
                    counts.subtract(_WORD.findall(node.text))
    return +counts


def boundary_words(link) -> Counter:
    """words() of the code of LINK's modules (the boundary), counted once per program (link.memo)."""
    if "dead.words" not in link.memo:
        link.memo["dead.words"] = words(m.tree for m in link.by_path.values())
    return link.memo["dead.words"]


def module_words(link, module) -> Counter:
    """words() of MODULE's code, counted once per program (link.memo)."""
    memo = link.memo.setdefault("dead.module_words", {})
    if module.path not in memo:
        memo[module.path] = words([module.tree])
    return memo[module.path]


def unreferenced_method(fn: ts.Node, counts: Counter) -> bool:
    """Whether FN is a method (not a constructor, getter or setter), or a function declaration, whose name the
    boundary's code (COUNTS: words()) writes only once, where FN is defined: no call, no member read, no string naming
    it (`obj[name]()` of a name written in a table), no destructuring or import takes it; nothing of the server can
    call it (an exported setter only tests call: `export function setDefaultContext(ctx) { current = ctx; }`)."""
    if fn.type == "function_declaration":
        name = fn.child_by_field_name("name")
        return name is not None and counts.get(text(name).encode(), 0) <= 1
    if fn.type != "method_definition" or any(c.type in {"get", "set"} for c in fn.children):
        return False
    name = fn.child_by_field_name("name")
    if name is None or name.type != "property_identifier" or text(name) == "constructor":
        return False
    return counts.get(text(name).encode(), 0) <= 1


def value_position(node: ts.Node) -> ts.Node | None:
    """Where the value NODE is goes: the declarator it initialises, the return statement it is returned by, or the
    arrow function whose body it is; None for anywhere else."""
    while node.parent is not None and node.parent.type in _WRAPPERS:
        node = node.parent
    parent = node.parent
    if parent is None:
        return None
    if parent.type == "variable_declarator" and parent.child_by_field_name("value") == node:
        return parent
    if parent.type == "return_statement":
        return parent
    if parent.type == "arrow_function" and parent.child_by_field_name("body") == node:
        return parent
    return None


def _dead_result(call: ts.Node) -> bool:
    """Whether what CALL returns is held by a local that is never called nor handed on."""
    holder = value_position(call)
    return holder is not None and holder.type == "variable_declarator" and _dead_declarator(holder, 0)


def _dead_declarator(decl: ts.Node, depth: int) -> bool:
    name = decl.child_by_field_name("name")
    if name is None or name.type != "identifier" or depth > MAX_HOPS:
        return False
    statement = decl.parent
    if statement is None or statement.parent is None or statement.parent.type == "export_statement":
        return False
    return _dead_name(text(name), statement.parent, name, depth)


def _dead_name(name: str, scope: ts.Node, declared: ts.Node, depth: int) -> bool:
    """Whether every reference to NAME in SCOPE (but its declaration DECLARED) is `void name` or a value of an object
    literal held by a local that is itself dead."""
    for ref in find(scope, {"identifier", "shorthand_property_identifier"}):
        if ref.id == declared.id or text(ref) != name:
            continue
        parent = ref.parent
        if parent is not None and parent.type == "unary_expression" and text(parent).startswith("void"):
            continue
        obj = parent if ref.type == "shorthand_property_identifier" else \
            parent.parent if parent is not None and parent.type == "pair" and parent.child_by_field_name("value") == ref \
            else None
        holder = value_position(obj) if obj is not None and obj.type == "object" else None
        if holder is not None and holder.type == "variable_declarator" and _dead_declarator(holder, depth + 1):
            continue
        return False
    return True


def binding_function(node: ts.Node | None) -> ts.Node | None:
    """The innermost function around NODE whose parameters bind the name NODE's member chain starts with
    (`prompt.name`: the function of `prompt`), or None."""
    chain = member_chain(strip_casts(node)) if node is not None else None
    for scope in ancestors(node) if chain else ():
        if scope.type in FUNCTION_TYPES and chain[0] in parameters(scope):
            return scope
    return None

