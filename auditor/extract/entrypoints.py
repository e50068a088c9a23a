"""Entry files a package.json names (bin, main, exports, module, and the files its scripts run), in that order, and the
copy of a package shipping two builds of the same code that is analysed (kb/method.yaml entry_points)."""

from __future__ import annotations

import posixpath
import re
from fnmatch import fnmatchcase
from typing import Iterable

from auditor.model import DECLARATIONS

# A script command that runs a file of the package: `node dist/sse.js`, `tsx src/index.ts` (options before it allowed).
_RUNS = re.compile(r"(?:^|[;&|]\s*|\s)(?:node|tsx|ts-node)(?:\s+-{1,2}[\w-]+(?:=\S+)?)*\s+(\.?/?[\w./-]+\.(?:m?js|cjs|m?ts|tsx))\b")
_DEEPEST = 16  # exports nest conditions a few levels


def targets(manifest: object, development: Iterable[str]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """((how, path), ...) of the entries, in the order of kb/method.yaml entry_points, and of the files that only
    development scripts run; paths relative to the package folder, normalised (`./dist/x.js` -> dist/x.js)."""
    value = manifest if isinstance(manifest, dict) else {}
    out: list[tuple[str, str]] = []
    bins = value.get("bin")
    if isinstance(bins, str):
        out.append(("bin", bins))
    elif isinstance(bins, dict):
        out += [(f"bin {name}", t) for name, t in bins.items() if isinstance(t, str)]
    if isinstance(value.get("main"), str):
        out.append(("main", value["main"]))
    out += _exports(value.get("exports"), "exports", 0)
    if isinstance(value.get("module"), str):
        out.append(("module", value["module"]))
    scripts = value.get("scripts") if isinstance(value.get("scripts"), dict) else {}
    patterns = list(development)
    dev: list[tuple[str, str]] = []
    for name, cmd in scripts.items():
        if not isinstance(cmd, str):
            continue
        runs = [(f"script {name}", m.group(1)) for m in _RUNS.finditer(cmd)]
        (dev if any(fnmatchcase(name, p) for p in patterns) else out).extend(runs)
    norm = lambda rows: [(how, p) for how, t in rows if (p := _norm(t)) is not None]  # noqa: E731
    return norm(out), norm(dev)


def _exports(value: object, how: str, depth: int) -> list[tuple[str, str]]:
    """The files of an `exports` value: a string, an array of fallbacks, subpaths (`"./x": ...`) or conditions
    (`{import, require, default}`, in the order written; `types` are declarations, left out)."""
    if depth > _DEEPEST:
        return []
    if isinstance(value, str):
        return [(how, value)]
    if isinstance(value, list):
        return [row for v in value for row in _exports(v, how, depth + 1)]
    if not isinstance(value, dict):
        return []
    out = []
    for key, v in value.items():
        if key == "types" or "*" in key:
            continue
        label = f"{how} {key}" if key.startswith(".") else f"{how} ({key})"
        out += _exports(v, label, depth + 1)
    return out


def _norm(target: str) -> str | None:
    path = posixpath.normpath(target)
    if path.startswith("..") or path.startswith("/") or path == "." or path.endswith((*DECLARATIONS, ".json")):
        return None
    return path


def duplicate_builds(rels: Iterable[str], entries: list[str], variants: dict) -> dict[str, str]:
    """Each file of a second build of the same code -> its copy in the build that is analysed. Two builds: the same
    path under two variant folders (dist/esm/x.js, dist/cjs/x.js), or the same path with two suffixes (dist/x.js,
    dist/x.cjs). The build analysed is the one the first entry (ENTRIES, in order) is in, else the first variant
    of kb/method.yaml entry_points build_variants the package has."""
    dirs, suffixes = list(variants.get("dirs", [])), list(variants.get("suffixes", []))
    code = sorted(r for r in rels if posixpath.splitext(r)[1] in suffixes)
    out: dict[str, str] = {}
    # Variant folders: family (the folder above the variant) -> variant -> {rest without suffix: file}.
    families: dict[str, dict[str, dict[str, str]]] = {}
    for rel in code:
        parts = rel.split("/")
        for i, part in enumerate(parts[:-1]):
            if part in dirs:
                rest = posixpath.splitext("/".join(parts[i + 1:]))[0]
                families.setdefault("/".join(parts[:i]), {}).setdefault(part, {})[rest] = rel
                break
    for family, builds in sorted(families.items()):
        if len(builds) < 2:
            continue
        prefix = family + "/" if family else ""
        chosen = next((v for e in entries for v in builds if e.startswith(f"{prefix}{v}/")), None) \
            or next(v for v in dirs if v in builds)
        for variant, files in builds.items():
            if variant != chosen:
                out.update({rel: builds[chosen][rest] for rest, rel in files.items() if rest in builds[chosen]})
    # Variant suffixes: stem -> suffix -> file.
    stems: dict[str, dict[str, str]] = {}
    for rel in code:
        if rel not in out:
            stem, ext = posixpath.splitext(rel)
            stems.setdefault(stem, {})[ext] = rel
    twins = {s: by for s, by in stems.items() if len(by) > 1}
    if twins:
        chosen_ext = next((posixpath.splitext(e)[1] for e in entries if posixpath.splitext(e)[0] in twins
                           and posixpath.splitext(e)[1] in twins[posixpath.splitext(e)[0]]), None)
        for stem, by in sorted(twins.items()):
            keep = chosen_ext if chosen_ext in by else next(s for s in suffixes if s in by)
            out.update({rel: by[keep] for ext, rel in by.items() if ext != keep})
    return out


# Statements that declare types only, which compile to nothing.
_TYPE_STATEMENTS = {"interface_declaration", "type_alias_declaration", "ambient_declaration", "comment",
                    "empty_statement", "hash_bang_line"}


def types_only(root) -> bool:
    """Whether a module's code is types alone: what tsc emits for a file of types (`export {};`, or "use strict" and
    `Object.defineProperty(exports, "__esModule", ...)`), or a TypeScript file of interfaces, type aliases, `declare`
    and `import type`/`export type` statements. An empty file is not (nothing says it holds types)."""
    seen = False
    for node in root.named_children:
        seen = seen or node.type != "comment"
        if node.type in _TYPE_STATEMENTS or _marker(node):
            continue
        if node.type in {"import_statement", "export_statement"} and _type_only_port(node):
            continue
        return False
    return seen


def reexports_only(root) -> bool:
    """Whether a module's code only imports other modules and re-exports names (`import "./a.js"; export { x as y }
    ...`, a bundler's entry over its chunks): nothing of its own runs."""
    seen = False
    for node in root.named_children:
        seen = seen or node.type != "comment"
        if node.type in _TYPE_STATEMENTS or _marker(node):
            continue
        if node.type == "import_statement":
            continue
        if node.type == "export_statement" and node.child_by_field_name("declaration") is None \
                and node.child_by_field_name("value") is None:
            continue
        return False
    return seen


def _type_only_port(node) -> bool:
    """`export {};`, `import type ...`, `export type {...}`, `export interface/type X`."""
    words = [c.type for c in node.children]
    if "type" in words[:2]:
        return True
    decl = node.child_by_field_name("declaration")
    if decl is not None:
        return decl.type in {"interface_declaration", "type_alias_declaration"}
    clause = next((c for c in node.named_children if c.type == "export_clause"), None)
    return node.type == "export_statement" and clause is not None and not clause.named_children \
        and node.child_by_field_name("source") is None


def _marker(node) -> bool:
    """"use strict"; and the CommonJS `Object.defineProperty(exports, "__esModule", { value: true })`."""
    if node.type != "expression_statement" or not node.named_children:
        return False
    expr = node.named_children[0]
    if expr.type == "string":
        return expr.text.strip(b"'\"") == b"use strict"
    text = expr.text.replace(b" ", b"")
    return expr.type == "call_expression" and text.startswith(b"Object.defineProperty(exports,") and b"__esModule" in text
