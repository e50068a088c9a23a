"""Registrations nothing can run: a tool registered inside a function of the server's own that no code of the boundary
calls or even names (an exported `registerXTool(server)` the entry never calls) is not served. Its tool is set
aside as unserved (listed in the coverage ledger with the function), not counted as the server's."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

import tree_sitter as ts

from auditor.extract.syntax import FUNCTION_TYPES, find, text

if TYPE_CHECKING:
    from auditor.extract.facts import Program


_MOST = 6  # a name written more often than this is surely used somewhere: no need to tell its exports apart


def unserved(p: "Program", reached: set[str], entries: list[str]) -> "Program":
    """P with the tools registered in functions nothing names moved to `unserved`. Only when the reached code
    constructs its own server (a package that only exports registration functions leaves them to its users), and
    never for a function of an entry module (the package's API). A function is named when its name is written in
    reached code other than to declare or export it, or when a module imports one of its exports (under any name,
    through re-exports: `import addX from "./x.js"` of a default export, `import { Y }` of `export { addX as Y }`), or
    imports whole a module that exports it (`import * as tools` of an index that does `export * from "./x.js"`)."""
    if not any(s.module.path in reached for s in p.servers):
        return p
    owners = {}
    exports = p.linker.exports if p.linker is not None else {}
    imports = p.linker.imports if p.linker is not None else {}
    imported = {(b.module, b.name) for table in imports.values() for b in table.values() if b.module is not None}
    for t in p.tools:
        owner = _owner(t.node) if t.module.path not in entries else None
        name = _name_of(owner) if owner is not None else None
        if name is not None:
            owners[id(t)] = name
    if not owners:
        return p
    # modules a reached module imports whole (`import * as tools`, then `Object.values(tools)`): every export named
    by_path = {m.path: m for m in p.modules if m.path in reached}
    spaces = {b.module for path, table in imports.items() if path in by_path for local, b in table.items()
              if b.module is not None and b.name == "*" and _used_whole(by_path[path], local)}
    stars = p.linker.star if p.linker is not None else {}
    counts = _counts(set(owners.values()), list(by_path.values()))
    keep, drop, plumbing = [], [], {}
    for t in p.tools:
        name, path = owners.get(id(t)), t.module.path
        if name is not None and counts.get(name, 0) <= _MOST and (name, path) not in plumbing:
            own = [e for e, hit in exports.get(path, {}).items() if hit == (path, name)]  # (`name`, or "default")
            names = _export_names(path, own, exports)
            plumbing[name, path] = -1 if names & imported or _star_holders({m for m, _ in names}, stars) & spaces else \
                _plumbing(name, t.module) + sum(_plumbing(name, by_path[m]) - 1 for m in {m for m, _ in names}
                                                if m != path and m in by_path)
        if name is not None and counts.get(name, 0) <= plumbing.get((name, path), 0):
            drop.append(replace(t, binding=name))
        else:
            keep.append(t)
    if not drop:
        return p
    kept_names = {t.name for t in keep}
    dropped = {t.name for t in drop} - kept_names
    dispatches = tuple(d for d in p.dispatches if d.tool not in dropped)
    return replace(p, tools=tuple(keep), dispatches=dispatches, unserved=tuple(drop))


def _export_names(path: str, names: list[str], exports: dict) -> set[tuple[str, str]]:
    """(module, exported name) of each export NAMES of PATH and of every re-export of them, however deep
    (`export { default as addX } from "./x.js"` in an index)."""
    found = {(path, n) for n in names}
    todo = list(found)
    while todo and len(found) < 200:
        target = todo.pop()
        for mpath, table in exports.items():
            for ename, hit in table.items():
                if hit == target and (mpath, ename) not in found:
                    found.add((mpath, ename))
                    todo.append((mpath, ename))
    return found


def _used_whole(module, local: str) -> bool:
    """Whether MODULE uses the namespace LOCAL as a whole (`Object.values(tools)`, `tools[name]`, handed on), not
    only its members by name (`tools_1.registerX(server)`, named where it is written)."""
    if not re.search(rf"(?<![\w$.]){re.escape(local)}(?![\w$])(?!\s*\??\.\s*[\w$])", module.tree.root_node.text.decode("utf-8", "replace")):
        return False
    for node in find(module.tree.root_node, {"identifier"}):
        if text(node) != local:
            continue
        parent = node.parent
        if parent is None or parent.type in {"namespace_import", "import_specifier", "import_clause"} \
                or parent.type == "variable_declarator" and parent.child_by_field_name("name") == node \
                or parent.type == "member_expression" and parent.child_by_field_name("object") == node:
            continue
        return True
    return False


def _star_holders(paths: set[str], stars: dict[str, list[str]]) -> set[str]:
    """PATHS and every module that re-exports all of one of them (`export * from "./x.js"`), however deep."""
    found, todo = set(paths), list(paths)
    while todo and len(found) < 200:
        target = todo.pop()
        for mpath, targets in stars.items():
            if target in targets and mpath not in found:
                found.add(mpath)
                todo.append(mpath)
    return found


def _owner(node: ts.Node) -> ts.Node | None:
    """The outermost function around NODE that is not a callback (a function declaration, or a function held by a
    top-level or exported variable), if NODE is inside one."""
    found, cur = None, node.parent
    while cur is not None:
        if cur.type in FUNCTION_TYPES:
            found = cur
        cur = cur.parent
    return found


def _name_of(fn: ts.Node) -> str | None:
    """The name a top-level function is bound to: `function f`, `const f = (...) => ...`, exported or not."""
    if fn.type == "function_declaration":
        name = fn.child_by_field_name("name")
        return text(name) if name is not None else None
    parent = fn.parent
    if parent is not None and parent.type == "variable_declarator" and parent.child_by_field_name("value") == fn:
        name = parent.child_by_field_name("name")
        return text(name) if name is not None and name.type == "identifier" else None
    return None


def _counts(names: set[str], modules) -> dict[str, int]:
    """How often each of NAMES is written in the text of MODULES (one pass over each: bundles are large)."""
    word = re.compile(r"(?<![\w$])(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True)) + r")(?![\w$])")
    out: dict[str, int] = {}
    for m in modules:
        for hit in word.findall(m.tree.root_node.text.decode("utf-8", "replace")):
            out[hit] = out.get(hit, 0) + 1
    return out


def _plumbing(name: str, module) -> int:
    """How often NAME is written in its module only to declare or export it (`export { f }`, `exports.f = f`):
    any other occurrence (a call, an argument, an array element, an import, a string) may run it."""
    word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    plumbing = 1  # the declaration
    for node in find(module.tree.root_node, {"export_specifier", "assignment_expression"}):
        written = text(node)
        if node.type == "export_specifier":  # (`f as g`, `default as f`: an importer of g is asked for apart)
            plumbing += len(word.findall(written))
        elif re.fullmatch(rf"(?:module\.)?exports\.{re.escape(name)}\s*=\s*{re.escape(name)}", written):
            plumbing += 2
    return plumbing
