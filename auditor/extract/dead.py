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
    """Whether FN is a named function of a dependency read with the target (a module under node_modules/) that the
    program never runs: no call of the boundary resolves to it, no module imports it (by its name, or a namespace of a
    module exporting it), and its own module names it nowhere but where it is declared and exported. A dependency's
    exports serve the programs that import them; the audited server is the one program here."""
    module = link.module_of(fn) if fn is not None and link is not None else None
    if module is None or "node_modules/" not in module.path or calls_of(fn):
        return False
    memo = link.memo.setdefault("dead.unused_in_dependency", {})
    if fn.id not in memo:
        memo[fn.id] = _unused_export_of(fn, module, link)
    return memo[fn.id]


def _unused_export_of(fn: ts.Node, module, link) -> bool:
    name = _function_name(fn)
    if not name:
        return False
    for path, names in link.imports.items():
        for b in names.values():
            if b.module is None:
                continue
            found = link.exported(b.module, name if b.name == "*" else b.name)
            if found is not None and found[0] is module and found[1] == name:
                return False
    declared = fn.child_by_field_name("name") if fn.type == "function_declaration" else fn.parent.child_by_field_name("name")
    return not any(ref.id != declared.id and (ref.parent is None or ref.parent.type != "export_specifier")
                   for ref in find(module.tree.root_node, {"identifier"}) if text(ref) == name)


def _function_name(fn: ts.Node) -> str:
    """The name a function is declared under (`function f`, `const f = () => ...`), "" for none."""
    if fn.type == "function_declaration":
        name = fn.child_by_field_name("name")
        return text(name) if name is not None else ""
    holder = value_position(fn)
    name = holder.child_by_field_name("name") if holder is not None and holder.type == "variable_declarator" else None
    return text(name) if name is not None and name.type == "identifier" else ""


_WORD = re.compile(rb"[A-Za-z_$][A-Za-z0-9_$]*")


def words(sources: Iterable[bytes]) -> Counter:
    """How often each name-like word occurs in SOURCES (identifiers, members, and the words of strings alike)."""
    counts: Counter = Counter()
    for source in sources:
        counts.update(_WORD.findall(source))
    return counts


def boundary_words(link) -> Counter:
    """words() of the code of LINK's modules (the boundary), counted once per program (link.memo)."""
    if "dead.words" not in link.memo:
        link.memo["dead.words"] = words(m.tree.root_node.text for m in link.by_path.values())
    return link.memo["dead.words"]


def module_words(link, module) -> Counter:
    """words() of MODULE's code, counted once per program (link.memo)."""
    memo = link.memo.setdefault("dead.module_words", {})
    if module.path not in memo:
        memo[module.path] = words([module.tree.root_node.text])
    return memo[module.path]


def unreferenced_method(fn: ts.Node, counts: Counter) -> bool:
    """Whether FN is a method (not a constructor, getter or setter) whose name the boundary's code (COUNTS: words())
    writes only once, where FN is defined: no call, no member read, no string naming it (`obj[name]()` of a name
    written in a table), no destructuring takes it; nothing can call it."""
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

