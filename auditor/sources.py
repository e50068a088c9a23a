"""Source register: every file of the boundary with its evidence layer, blob hash and size."""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from auditor.model import DECLARATIONS, Anchor, Record, SourceFile, Target


@lru_cache(maxsize=None)
def _glob_regex(pattern: str) -> re.Pattern:
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def glob_match(path: str, pattern: str) -> bool:
    return _glob_regex(pattern).match(path) is not None


DEPENDENCY = "dependency"  # coupling: kb/method.yaml layers (installed packages: outside the boundary)


def manifest(e: "Entry") -> bool:
    """Whether E is a package.json of the boundary (not one of an installed dependency, nor a context file)."""
    return not e.context and e.rel.split("/")[-1] == "package.json" and e.layer != DEPENDENCY and e.package is None


def layer_of(rel: str, method: dict, lang: str | None = None) -> str:
    """The evidence layer of the file at REL: that of the first rule a glob of which matches it; else, for code known
    by its `#!` line (LANG: an executable with no suffix), implementation; else the default layer."""
    for rule in method["layers"]:
        if any(glob_match(rel, g) for g in rule["globs"]):
            return rule["layer"]
    return "implementation" if lang not in {None, "json"} else method["default_layer"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Entry:
    file: SourceFile
    rel: str  # relative to the subtree
    layer: str
    context: bool  # outside the subtree, read only for build context
    text: str | None  # None when not read (`omitted`); bytes that are not UTF-8 are read as U+FFFD (`replaced`)
    lines: int
    omitted: str | None = None  # why the content was not read (over the size limit of kb/method.yaml)
    compiled_from: str | None = None  # the TypeScript source this file is the build output of (analysed instead)
    built_to: str | None = None  # its build output, analysed instead: this TypeScript source does not parse whole
    replaced: tuple[int, ...] = ()  # lines (1-based) holding bytes that are not UTF-8, read as U+FFFD in `text`
    shipped_test: bool = False  # its path is of the test layer, but an entry of the server imports it (promoted)
    package: str | None = None  # the dependency it is a file of (Target.packages), read as the server's code
    # A bundle over the size limits read with its dependencies' regions blanked (extract/bundled.py): (first line,
    # last line, package) of each, and the limit it is over.
    blanked: tuple[tuple[int, int, str], ...] = ()
    blanked_why: str = ""
    blanked_code: bytes = b""  # the bytes parsed in its place: the file's, those regions blanked
    lang: str | None = None  # its language (parse.language_of: by its suffix, else by its `#!` line); None: not code

    def code(self) -> bytes:
        """The bytes the analyses parse: the file's own, or its text re-encoded when bytes of it are not UTF-8 (a line
        break is never part of such a sequence, so every line, and every anchor, is the file's own)."""
        if self.blanked:
            return self.blanked_code
        return self.file.data if not self.replaced else self.text.encode("utf-8")


def relative(path: str, subtree: str) -> str:
    return path[len(subtree) + 1:] if subtree and path.startswith(subtree + "/") else path


def register(target: Target, method: dict) -> tuple[Entry, ...]:
    from auditor.extract import parse

    out = []
    limit = method["max_file_bytes"]
    folders = {pk.folder: pk.name for pk in target.packages}
    for f, ctx in [(f, False) for f in target.files] + [(f, True) for f in target.context_files]:
        rel = relative(f.path, target.subtree)
        lang = parse.language_of(f.path, f.data)
        package = next((folders[d] for d in folders if rel.startswith(d + "/")), None) if folders and not ctx else None
        if package is not None:  # a dependency read as the server's code: its code by the layers of its own paths
            inner = rel.split("/", 3 if package.startswith("@") else 2)[-1]
            layer = layer_of(inner, method, lang)
            layer = layer if layer in {"implementation", "test"} else DEPENDENCY
        else:
            layer = layer_of(rel if not ctx else f.path, method, lang)
        omitted = f"blob {f.blob} is not in the repository (a partial or shallow clone); never fetched" if f.missing \
            else f"{f.bytes:,} bytes, over the read limit of {limit:,} (kb/method.yaml max_file_bytes)" \
            if f.bytes > limit else None
        body, replaced = (None, ()) if omitted else decode(f.data)
        n = 0 if body is None else len(body.splitlines())
        e = Entry(file=f, rel=rel, layer=layer, context=ctx, text=body, lines=n, omitted=omitted, replaced=replaced,
                  package=package, lang=lang)
        bundle = omitted and f.data and not f.missing and not ctx and f.bytes <= method.get("max_bundle_bytes", limit)
        out.append(without_bundled(e, limit, omitted) if bundle else e)
    rels = [e.rel for e in out if not e.context]
    twins = compiled_twins(rels, method["compiled_output"], _tsconfig_dirs(out, target.subtree))
    twins.update(_second_builds([r for r in rels if r not in twins], out, method))
    return tuple(replace(e, compiled_from=twins[e.rel]) if not e.context and e.rel in twins else e for e in out)


def without_bundled(e: Entry, limit: int, why: str, keep: bool = True) -> Entry:
    """Entry E of a code file over a size limit (WHY), read with the regions of the packages a bundler inlined in it
    blanked (outside the boundary, as when they are not bundled), when its markers name some and what is left is
    within LIMIT bytes; else E. KEEP: the statements of those regions that bind names stay (bundled.blank)."""
    from auditor.extract import bundled

    found = bundled.blank(e.file.data, keep) if e.lang not in {None, "json"} else None
    if found is None or found.kept > limit:
        return e
    body, replaced = decode(found.data)
    return replace(e, text=body, lines=len(body.splitlines()), omitted=None, replaced=replaced, blanked=found.regions,
                   blanked_why=why, blanked_code=body.encode("utf-8") if replaced else found.data)


def unblanked(e: Entry, limit: int) -> Entry:
    """E as read before its bundled packages were blanked: not read when over LIMIT bytes, else its own text."""
    if not e.blanked:
        return e
    plain = replace(e, blanked=(), blanked_why="", blanked_code=b"")
    if e.file.bytes > limit:
        return replace(plain, text=None, lines=0, omitted=e.blanked_why, replaced=())
    body, replaced = decode(e.file.data)
    return replace(plain, text=body, lines=len(body.splitlines()), replaced=replaced)


def _tsconfig_dirs(entries: list[Entry], subtree: str) -> list[tuple[str, str]]:
    """(outDir, rootDir) of the tsconfig files, relative to the subtree (those outside it left out)."""
    from auditor.extract.tsconfig import build_dirs

    configs = {e.file.path: e.file.data for e in entries if e.file.path.endswith(".json") and e.text is not None}
    inside = lambda p: not subtree or p == subtree or p.startswith(subtree + "/")  # noqa: E731
    return [(relative(o, subtree), relative(s, subtree)) for o, s in build_dirs(configs) if inside(o) and inside(s)]


def _second_builds(rels: list[str], entries: list[Entry], method: dict) -> dict[str, str]:
    """The files of a second build of the same code -> the copy analysed (kb/method.yaml entry_points)."""
    from auditor.extract import entrypoints

    rule = method.get("entry_points") or {}
    manifest = next((e for e in entries if not e.context and e.rel == "package.json" and e.text is not None), None)
    try:
        value = json.loads(manifest.file.data) if manifest is not None else None
    except (ValueError, RecursionError):
        value = None
    found, _ = entrypoints.targets(value, rule.get("development_scripts", []))
    if isinstance(value, dict) and value.get("exports") is not None:  # Node reads `main` only without `exports`:
        found = sorted(found, key=lambda row: row[0] == "main")  # the build `exports` names comes first
    return entrypoints.duplicate_builds(rels, [t for _, t in found], rule.get("build_variants") or {})


def decode(data: bytes) -> tuple[str, tuple[int, ...]]:
    """A file's text as UTF-8, and the lines (1-based) holding bytes that are not UTF-8: those read as U+FFFD."""
    try:
        return data.decode("utf-8"), ()
    except UnicodeDecodeError:
        pass
    bad = []
    for i, line in enumerate(data.split(b"\n"), 1):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            bad.append(i)
    return data.decode("utf-8", "replace"), tuple(bad)


_COMPILED = {".js": (".ts", ".tsx"), ".mjs": (".mts",), ".cjs": (".cts",)}


_TS_SOURCES = (".ts", ".tsx", ".mts", ".cts")


_MAP_SOURCES = re.compile(rb'"sources"\s*:\s*(\[[^\[\]]*\])')
_MAP_ROOT = re.compile(rb'"sourceRoot"\s*:\s*("(?:[^"\\]|\\.)*")')


def mapped_twins(entries: list[Entry]) -> dict[str, str]:
    """Compiled file -> its TypeScript source, by the source map the build wrote beside it (`server.js.map` whose
    `sources` is `["src/server.ts"]`): one source, shipped too (paths relative to the subtree). The build's own record,
    wherever it put its output (beside the package.json, in a folder of any name). Only the map's `sources` and
    `sourceRoot` are read, not its mappings (a bundle's map runs to megabytes)."""
    by_rel = {e.rel: e for e in entries if not e.context}
    out = {}
    for rel, e in by_rel.items():
        built = rel[:-len(".map")] if rel.endswith(".map") else None
        if built is None or built not in by_rel or not built.endswith(tuple(_COMPILED)) or e.text is None:
            continue
        found, root = _MAP_SOURCES.search(e.file.data), _MAP_ROOT.search(e.file.data)
        try:
            sources = json.loads(found.group(1)) if found is not None else None
            root = json.loads(root.group(1)) if root is not None else ""
        except ValueError:
            continue
        if not isinstance(sources, list) or len(sources) != 1 or not isinstance(sources[0], str) \
                or not isinstance(root, str):
            continue
        source = posixpath.normpath(posixpath.join(posixpath.dirname(rel), root, sources[0]))
        if source.endswith(_TS_SOURCES) and source in by_rel and not source.startswith("../"):
            out[built] = source
    return out


def compiled_twins(rels: list[str], rule: dict, dirs: list[tuple[str, str]] = ()) -> dict[str, str]:
    """Compiled file -> its TypeScript source, for the build output shipped beside its source (paths relative to the
    subtree): by the (outDir, rootDir) pairs DIRS of the package's tsconfig files, else by kb/method.yaml
    compiled_output. A file of a tsconfig's outDir whose source that tsconfig does not hold has none (a build of
    another layout, left in the folder: `dist/index.js` beside `dist/src/index.js` of rootDir "."), not the convention's."""
    present = set(rels)
    out = {}
    for rel in rels:
        stem, dot, suffix = rel.rpartition(".")
        if dot and f".{suffix}" in _COMPILED and not rel.endswith(DECLARATIONS):
            found = next((c for built, src in dirs if built and rel.startswith(built + "/")
                          for ext in _COMPILED[f".{suffix}"]
                          if (c := posixpath.join(src, stem[len(built) + 1:]) + ext) in present), None)
            if found is not None:
                out[rel] = found
                continue
            if any(built and rel.startswith(built + "/") for built, _ in dirs):
                continue  # a tsconfig builds this folder and names no source of this file: not the convention's
        head, _, rest = rel.partition("/")
        stem, dot, suffix = rest.rpartition(".")
        if head not in rule["output_dirs"] or not dot or rest.endswith(DECLARATIONS) or f".{suffix}" not in _COMPILED:
            continue
        for src_dir in rule["source_dirs"]:
            found = next((c for ext in _COMPILED[f".{suffix}"] if (c := f"{src_dir}/{stem}{ext}".lstrip("/")) in present), None)
            if found is not None:
                out[rel] = found
                break
    return out


def promoted(entries: tuple[Entry, ...], paths: set[str]) -> tuple[Entry, ...]:
    """ENTRIES with the files PATHS (of the test layer, which an entry of the server imports) in the implementation
    layer: what the server imports is its code, whatever the name of its folder."""
    return tuple(replace(e, layer="implementation", shipped_test=True) if e.file.path in paths and not e.context
                 else e for e in entries)


def repo_path(rel: str, e: Entry) -> str:
    """A path relative to the subtree of entry `e`, as a path from the repository root (like e.file.path)."""
    return e.file.path[: len(e.file.path) - len(e.rel)] + rel


def source_records(entries: tuple[Entry, ...], regions: list[Record]) -> tuple[Record, ...]:
    records = []
    for e in entries:
        attrs = {"layer": e.layer, "blob": e.file.blob, "lines": e.lines, "bytes": e.file.bytes,
                 "scope": "build context (outside the subtree)" if e.context else "boundary",
                 "utf8": e.text is not None and not e.replaced, **({"omitted": e.omitted} if e.omitted else {}),
                 **({"compiled_from": repo_path(e.compiled_from, e)} if e.compiled_from else {}),
                 **({"built_to": repo_path(e.built_to, e)} if e.built_to else {}),
                 **({"layer_reason": "its path is of the test layer, but an entry of the server imports it"}
                    if e.shipped_test else {})}
        summary = f"{e.file.path}: {e.layer}, " + (f"not read ({e.omitted})" if e.omitted else f"{e.lines} lines") \
            + (" (build context)" if e.context else "")
        anchor = Anchor(path=e.file.path, start_line=1, end_line=max(e.lines, 1))
        records.append(Record(category="source", id=f"SRC:{e.file.path}", kind="file", summary=summary,
                              anchors=(anchor,), rule="sources.register", attrs=attrs))
    return tuple(sorted(records + list(regions), key=lambda r: r.id))
