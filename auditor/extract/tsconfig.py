"""tsconfig files: JSON with comments and trailing commas, and the build folders they declare (outDir from rootDir),
through `extends` and project `references`, as a map from build output back to its source."""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping

import tree_sitter as ts

from auditor.extract import parse
from auditor.extract.limits import MAX_DEPTH, load_json

_DEEPEST = 64  # a tsconfig nests a few levels; deeper values are not read (the conversion recurses)
# The sources a compiled file may come from, by its suffix: TypeScript first, then the same suffix (allowJs).
_SOURCES = {".js": (".ts", ".tsx", ".js", ".jsx"), ".jsx": (".tsx", ".jsx"), ".mjs": (".mts", ".mjs"),
            ".cjs": (".cts", ".cjs")}


def read_jsonc(data: bytes) -> object | None:
    """The value of JSON that may hold comments and trailing commas (as tsc reads tsconfig), read with tree-sitter's
    JSON grammar, whose comments are extras and whose recovery skips a trailing comma; None when it is not JSON."""
    root = parse.parse(data, "json").root_node
    values = [c for c in root.named_children if c.type != "comment"]
    return _value(values[0], 0) if len(values) == 1 else None


def _value(node: ts.Node, depth: int) -> object | None:
    if depth > _DEEPEST or node.is_missing:
        return None
    kind = node.type
    if kind == "object":
        out = {}
        for pair in (c for c in node.named_children if c.type == "pair"):
            key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            if key is not None and key.type == "string" and value is not None:
                out[_value(key, depth + 1)] = _value(value, depth + 1)
        return out
    if kind == "array":
        return [_value(c, depth + 1) for c in node.named_children if c.type not in {"comment", "ERROR"} and not c.is_missing]
    if kind in {"string", "number", "true", "false", "null"}:
        try:
            return json.loads(node.text.decode("utf-8", "replace"))
        except ValueError:
            return None
    return None


@dataclass(frozen=True, kw_only=True, slots=True)
class BuildMap:
    """Build output -> the file analysed in its place: files registered as build output (`aliases`), and output
    folders (`dirs`, (output folder, source folder) repo paths: tsconfig ones first, then kb/method.yaml
    compiled_output beside each package.json) for output that is not in the tree (a checkout before its build)."""

    aliases: Mapping[str, str] = field(default_factory=dict)
    dirs: tuple[tuple[str, str], ...] = ()
    # package.json `imports` (subpath imports, `#tools/*` -> `./dist/tools/*.js`): (package folder, key, target)
    subpaths: tuple[tuple[str, str, str], ...] = ()
    # dependencies read with the target: (name, folder, its package.json `exports`, (module, main))
    packages: tuple[tuple[str, str, object, tuple[str, ...]], ...] = ()
    # tsconfig `compilerOptions.paths` (`"#tools/*": ["./src/tools/*"]`, `"@app/core": ["packages/core/src"]`):
    # (the config's folder, key, target repo paths), a config's own after those it extends
    paths: tuple[tuple[str, str, tuple[str, ...]], ...] = ()

    def subpath(self, importer: str, spec: str) -> str | None:
        """The repo path `import "#x/y"` names from IMPORTER: by the `imports` of the nearest package.json above it
        (an exact key, or a key with one `*` whose match replaces the target's)."""
        best = None
        for base, key, target in self.subpaths:
            if base and not importer.startswith(base + "/"):
                continue
            if best is not None and len(best[0]) > len(base):
                continue
            match = star_match(key, spec)
            if match is not None:
                best = (base, target if "*" not in key else target.replace("*", match))
        return posixpath.normpath(posixpath.join(best[0], best[1])) if best is not None else None

    def mapped(self, importer: str, spec: str) -> list[str]:
        """The repo paths the tsconfig `paths` of the nearest config folder above IMPORTER map SPEC to (an exact key,
        or the longest key with one `*` whose match replaces the targets'), in order."""
        best: tuple[str, int, list[str]] | None = None
        for base, key, targets in self.paths:
            if base and not importer.startswith(base + "/"):
                continue
            match = star_match(key, spec)
            if match is None:
                continue
            found, weight = (list(targets), len(key) + 1) if "*" not in key else \
                ([t.replace("*", match) for t in targets], key.index("*"))
            if best is None or (len(base), weight) > (len(best[0]), best[1]):
                best = (base, weight, found)
        return best[2] if best is not None else []

    def package(self, spec: str) -> list[str]:
        """The repo paths a bare specifier (`@v/toolkit/mcp`) may name in a dependency read with the target
        (Target.packages): by its package.json `exports` (a subpath's conditions: node, import, require, default),
        else `module`, `main`, `index.js` for the package itself, or the subpath as a path."""
        parts = spec.split("/")
        name, sub = ("/".join(parts[:2]), "/".join(parts[2:])) if spec.startswith("@") else (parts[0], "/".join(parts[1:]))
        for pname, folder, exports, fields in self.packages:
            if pname != name:
                continue
            out = _exported(exports, "." if not sub else "./" + sub)
            if not out:
                out = [f for f in fields if f] + ["index.js"] if not sub else [sub]
            return [_norm(posixpath.join(folder, t)) for t in out]
        return []

    def sources(self, path: str) -> list[str]:
        """Where the code of output file `path` is, most likely first."""
        out = [self.aliases[path]] if path in self.aliases else []
        stem, ext = posixpath.splitext(path)
        for built, src in self.dirs:
            if built and path.startswith(built + "/"):
                rest = stem[len(built) + 1:]
                out += [posixpath.join(src, rest) + s for s in _SOURCES.get(ext, ())]
        return [p for p in out if p != path]


def build_dirs(configs: Mapping[str, bytes]) -> list[tuple[str, str]]:
    """(outDir, rootDir) of every tsconfig that sets outDir, as repo paths. CONFIGS: path -> bytes of the tsconfig
    files of the tree (and of build context); `extends` (a string or a list) and `references` are followed among them.
    Without rootDir the source folder is the common folder of `include` (tsc's default: the inputs' common root), else
    the config's own folder."""
    doc = _reader(configs)
    todo, seen = sorted(p for p in configs if posixpath.basename(p).startswith("tsconfig")), set()
    out = []
    while todo:
        path = todo.pop(0)
        if path in seen:
            continue
        seen.add(path)
        for ref in doc(path).get("references") or []:
            target = _config_path(path, ref.get("path") if isinstance(ref, dict) else None, folder_ok=True)
            if target in configs:
                todo.append(target)
        opts = _options(path, doc, configs)
        if "outDir" in opts:
            root = opts["rootDir"] if "rootDir" in opts else \
                _include_root(opts.get("include")) or posixpath.dirname(path)  # (rootDir ".": the config's folder)
            pair = (opts["outDir"], root)
            if pair not in out:
                out.append(pair)
    return out


def _reader(configs: Mapping[str, bytes]) -> Callable[[str], dict]:
    """The object of each config of CONFIGS by path, read once ({} when it is no object or not there)."""
    read: dict[str, dict] = {}

    def doc(path: str) -> dict:
        if path not in read:
            value = read_jsonc(configs[path]) if path in configs else None
            read[path] = value if isinstance(value, dict) else {}
        return read[path]
    return doc


def _options(path: str, doc, configs: Mapping[str, bytes], depth: int = 0) -> dict[str, str | list[str]]:
    """outDir, rootDir, baseUrl (repo paths), paths (key -> target repo paths: relative to baseUrl, else to the config
    that sets them) and include (patterns from the repo root) of a config after its `extends` chain; a path is
    relative to the config that sets it."""
    value = doc(path)
    out: dict = {}
    parents = value.get("extends")
    for parent in ([parents] if isinstance(parents, str) else parents if isinstance(parents, list) else []):
        target = _config_path(path, parent) if depth < 16 else None
        if target in configs:
            out.update(_options(target, doc, configs, depth + 1))
    base = posixpath.dirname(path)
    opts = value.get("compilerOptions") if isinstance(value.get("compilerOptions"), dict) else {}
    for key in ("outDir", "rootDir", "baseUrl"):
        if isinstance(opts.get(key), str):
            out[key] = _norm(posixpath.join(base, opts[key]))
    if isinstance(opts.get("paths"), dict):  # (relative to baseUrl, else to the config that sets them)
        root = out["baseUrl"] if "baseUrl" in out else base
        out["paths"] = {k: tuple(_norm(posixpath.join(root, t)) for t in v if isinstance(t, str))
                        for k, v in opts["paths"].items() if isinstance(k, str) and isinstance(v, list)}
    if isinstance(value.get("include"), list):
        out["include"] = [_norm(posixpath.join(base, p)) for p in value["include"] if isinstance(p, str)]
    return out


def build_paths(configs: Mapping[str, bytes]) -> list[tuple[str, str, tuple[str, ...]]]:
    """(config folder, key, target repo paths) of the `compilerOptions.paths` of every tsconfig of CONFIGS (after
    its `extends` chain): how its sources name modules by alias (`import { x } from "#tools/index.js"`)."""
    doc = _reader(configs)
    out = []
    for path in sorted(p for p in configs if posixpath.basename(p).startswith("tsconfig")):
        for key, targets in (_options(path, doc, configs).get("paths") or {}).items():
            out.append((posixpath.dirname(path), key, targets))
    return out


def _config_path(config: str, ref: object, folder_ok: bool = False) -> str | None:
    """The tree path of a config named by `extends` or a reference, when it is relative (a package's is not read)."""
    if not isinstance(ref, str) or not ref.startswith("."):
        return None
    target = posixpath.normpath(posixpath.join(posixpath.dirname(config), ref))
    if target.endswith(".json"):
        return target
    return posixpath.join(target, "tsconfig.json") if folder_ok else target + ".json"


def _include_root(patterns: Iterable[str] | None) -> str | None:
    """The common folder of include patterns before their first wildcard (`src/**/*` -> src)."""
    heads = []
    for p in patterns or []:
        parts = p.split("/") if p else []
        cut = next((i for i, part in enumerate(parts) if any(ch in part for ch in "*?[")), len(parts))
        if cut == len(parts) and parts and "." in parts[-1]:  # a file: its folder
            cut -= 1
        heads.append(parts[:cut])
    if not heads:
        return None
    return "/".join(posixpath.commonprefix(heads)) or None


def _norm(path: str) -> str:
    path = posixpath.normpath(path)
    return "" if path == "." else path


def build_map(entries, method: Mapping | None) -> BuildMap:
    """The BuildMap of registered entries (sources.Entry): their compiled_from, the tsconfig folders, and
    kb/method.yaml compiled_output beside each package.json."""
    from auditor.sources import manifest, repo_path

    aliases = {e.file.path: repo_path(e.compiled_from, e) for e in entries if e.compiled_from and not e.context}
    aliases |= {e.file.path: repo_path(e.built_to, e) for e in entries if e.built_to and not e.context}
    configs = {e.file.path: e.file.data for e in entries if e.file.path.endswith(".json") and e.text is not None}
    dirs = build_dirs(configs)
    rule = (method or {}).get("compiled_output") or {}
    for e in entries:
        if manifest(e):
            base = posixpath.dirname(e.file.path)
            dirs += [(posixpath.join(base, o), _norm(posixpath.join(base, s)))
                     for o in rule.get("output_dirs", []) for s in rule.get("source_dirs", [])]
    subpaths = []
    for e in entries:
        if manifest(e) and e.text is not None:
            data, _ = load_json(e.file.data, MAX_DEPTH)  # (a manifest nested a thousand deep is no manifest)
            table = data.get("imports") if isinstance(data, dict) else None
            base = posixpath.dirname(e.file.path)
            for key, target in (table.items() if isinstance(table, dict) else ()):
                chosen = _condition(target)
                if isinstance(key, str) and key.startswith("#") and chosen is not None:
                    subpaths.append((base, key, chosen))
    packages = []
    for e in entries:  # a dependency read as the server's code (Target.packages): its own package.json
        if e.package is not None and e.rel == _package_folder(e.rel, e.package) + "/package.json" and e.text is not None:
            data, _ = load_json(e.file.data, MAX_DEPTH)
            data = data if isinstance(data, dict) else {}
            fields = tuple(f for f in (data.get("module"), data.get("main")) if isinstance(f, str))
            packages.append((e.package, posixpath.dirname(e.file.path), data.get("exports"), fields))
    return BuildMap(aliases=aliases, dirs=tuple(dict.fromkeys(dirs)), subpaths=tuple(subpaths),
                    packages=tuple(packages), paths=tuple(build_paths(configs)))


def _package_folder(rel: str, name: str) -> str:
    """The folder of package NAME a path under it lies in (`node_modules/@v/x/dist/a.js` -> `node_modules/@v/x`)."""
    return rel[:rel.index(name) + len(name)] if name in rel else ""


def star_match(key: str, spec: str) -> str | None:
    """What the one `*` of a pattern KEY (package.json `imports`/`exports`, tsconfig `paths`) stands for in SPEC, ""
    for a KEY without `*` equal to SPEC; None when SPEC is not of KEY's form."""
    head, star, tail = key.partition("*")
    if not star:
        return "" if spec == key else None
    ok = spec.startswith(head) and spec.endswith(tail) and len(spec) >= len(head) + len(tail)
    return spec[len(head):len(spec) - len(tail)] if ok else None


def _exported(exports, key: str, depth: int = 0) -> list[str]:
    """The targets package.json `exports` gives the subpath KEY (`.`, `./mcp`; a `*` pattern too), each condition's
    (node, import, require, module, default) in that order: the file any of them names may be the one loaded."""
    if isinstance(exports, (str, list)) or isinstance(exports, dict) and not any(
            isinstance(k, str) and k.startswith(".") for k in exports):
        exports = {".": exports}
    if not isinstance(exports, dict):
        return []
    value = exports.get(key)
    if value is None:
        for k, v in exports.items():
            matched = star_match(k, key) if isinstance(k, str) and "*" in k else None
            if matched is not None:
                return [t.replace("*", matched) for t in _conditions(v)]
    return _conditions(value)


def _conditions(value, depth: int = 0) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and depth < 4:
        return [t for v in value for t in _conditions(v, depth + 1)]
    if isinstance(value, dict) and depth < 4:
        return [t for k in ("node", "import", "require", "module", "default") if k in value
                for t in _conditions(value[k], depth + 1)]
    return []


def _condition(target, depth: int = 0) -> str | None:
    """The path a package.json `imports` target gives Node: a string, or of a conditions object the first of
    `node`, `import`, `require`, `default` that gives one."""
    if isinstance(target, str):
        return target if target.startswith("./") else None
    if isinstance(target, dict) and depth < 4:
        for k in ("node", "import", "require", "default"):
            if k in target:
                found = _condition(target[k], depth + 1)
                if found is not None:
                    return found
    return None
