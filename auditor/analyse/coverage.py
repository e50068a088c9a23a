"""Coverage ledger: which files were read and reached, which tools were found and analysed, and why not."""

from __future__ import annotations

import posixpath
import re

from auditor.extract.facts import Program, reads
from auditor.extract.records import at
from auditor.extract.routes import listed_tools
from auditor.extract.syntax import NOT_LITERAL, excerpt
from auditor.model import Anchor
from auditor.sources import repo_path


# A script command that runs a file of the package: `node dist/sse.js`, `tsx src/index.ts` (options before it allowed).
_RUNS = re.compile(r"(?:^|[;&|]\s*|\s)(?:node|tsx|ts-node)(?:\s+-{1,2}[\w-]+(?:=\S+)?)*\s+(\.?/?[\w./-]+\.(?:m?js|cjs|m?ts|tsx))\b")


def _entry_modules(p: Program) -> list[str]:
    """Entry files: the manifest's bin/main and the files its scripts run with node (`"start:sse": "node
    dist/sse.js"`), mapped back to sources; and the files that launch a server."""
    paths = {m.path for m in p.modules}
    out = []
    for doc in p.manifests():
        value = doc.value if isinstance(doc.value, dict) else {}
        bins = value.get("bin")
        targets = list(bins.values()) if isinstance(bins, dict) else [bins] if isinstance(bins, str) else []
        if isinstance(value.get("main"), str):
            targets.append(value["main"])
        scripts = value.get("scripts") if isinstance(value.get("scripts"), dict) else {}
        targets += [m.group(1) for cmd in scripts.values() if isinstance(cmd, str) for m in _RUNS.finditer(cmd)]
        base = posixpath.dirname(doc.path)
        for t in targets:
            stem = posixpath.splitext(posixpath.normpath(posixpath.join(base, t)))[0]
            tail = stem[len(base) + 1:] if base else stem
            first, _, rest = tail.partition("/")
            options = [stem, posixpath.join(base, rest) if rest else stem]
            options += [posixpath.join(base, "src", rest)] if rest else []
            for o in options:
                for suffix in (".ts", ".tsx", ".mts", ".js", ".mjs"):
                    if o + suffix in paths and o + suffix not in out:
                        out.append(o + suffix)
    out += [l.module.path for l in p.launches if l.module.path not in out]
    return out


def _reached(p: Program, entries: list[str]) -> set[str]:
    if p.linker is None:
        return set(entries)
    seen, todo = set(), list(entries)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo += [b.module for b in p.linker.imports.get(path, {}).values() if b.module]
        # require() and dynamic import() count too (a launcher may pick its transport at run time).
        module = p.linker.by_path.get(path)
        todo += [t for t in (p.linker.resolve_spec(path, src) for src, _ in (module.imports if module else ())) if t]
        todo += p.linker.star.get(path, [])
        todo += [t for t, _ in p.linker.exports.get(path, {}).values()]
    return seen


def _inline_traced(p: Program, d) -> bool:
    """An implementation written inline in a traced function (a switch case of the handler) is analysed there."""
    return any(f.fn.start_byte <= d.node.start_byte and d.node.end_byte <= f.fn.end_byte and f.module is d.module
               for f in p.flows)


def tool_names_unknown(p: Program) -> list[str]:
    """Why the tools found may not be all the tools the server has: registrations whose name is not a literal, and
    the unresolved parts of the ledger (empty when every name is known)."""
    out = [f"{r.method}() at {r.module.path}:{r.node.start_point[0] + 1} registers a name that is not a literal"
           for r in p.registrations if r.kind == "tool" and r.name is None]
    return out + [u["what"] for u in _unresolved(p, _entry_modules(p))]


def _unresolved(p: Program, entries: list[str]) -> list[dict]:
    """What the ledger cannot account for: tool names that are not literals, lists whose descriptors are not read,
    and servers the extractors cannot see."""
    out = [{"what": f"a dispatch branch names a tool by `{excerpt(n.child_by_field_name('value'))}`, which is not a literal",
            "anchor": at(m.path, n).as_json()} for m, n in p.unread]
    by_binding = {(t.module.path, t.binding): t for t in p.tools if t.binding}
    for h in p.handlers:
        if h.method == "tools/list" and h.fn is not None and not listed_tools(p, h.module, h.fn, by_binding) \
                and not any(h.fn.start_byte <= t.node.start_byte < h.fn.end_byte for t in p.tools if t.module is h.module):
            out.append({"what": "the tools/list handler returns a list whose descriptors the tool could not read",
                        "anchor": at(h.module.path, h.node).as_json()})
    return out + _unread_servers(p, entries)


def _unread_servers(p: Program, entries: list[str]) -> list[dict]:
    """What serves tools the extractors cannot see: imports of another MCP framework, or no server object at all."""
    out = []
    others = p.vocab["other_frameworks"]
    for m in p.modules:
        for src, node in m.imports:
            if any(src == f or src.startswith(f + "/") for f in others):
                out.append({"what": f"imports {src}, an MCP framework whose registrations the auditor does not read "
                                    "(kb/sdk.yaml other_frameworks): what it serves is not analysed",
                            "anchor": at(m.path, node).as_json()})
    if p.modules and not p.servers:
        where = p.entry(entries[0] if entries else p.modules[0].path)
        manifests = p.manifests()
        sdk = set(p.vocab["sdk_packages"])
        named = any(sdk & set(d.value.get(f) or {}) for d in manifests if isinstance(d.value, dict)
                    for f in _DEPENDENCY_FIELDS if isinstance(d.value.get(f), dict))
        what = ("no MCP server object is constructed in the code read (kb/sdk.yaml server_classes): the tools, "
                "resources and prompts it serves, if any, are not known")
        if manifests and not named and not out:  # (a module importing another MCP framework is one)
            what = ("not an MCP server, as far as the code shows: package.json depends on no MCP SDK package "
                    "(kb/sdk.yaml sdk_packages), and " + what)
        out.append({"what": what,
                    "anchor": Anchor(path=where.file.path, start_line=1, end_line=max(where.lines, 1)).as_json()})
    return out


# A bundled server names the SDK among its devDependencies only: it is still a server's manifest.
_DEPENDENCY_FIELDS = ("dependencies", "peerDependencies", "optionalDependencies", "devDependencies")


def _bundled(m) -> list[dict]:
    """Per package bundled in a module: how many regions and lines of it the bundler wrote there."""
    out: dict[str, dict] = {}
    for first, last, package in m.vendored:
        row = out.setdefault(package, {"package": package, "regions": 0, "lines": 0})
        row["regions"] += 1
        row["lines"] += last - first + 1
    return sorted(out.values(), key=lambda r: (-r["lines"], r["package"]))


def ledger(p: Program) -> dict:
    entries = _entry_modules(p)
    reached = _reached(p, entries)
    gaps_by_file: dict[str, int] = {}
    for g in p.gaps:
        gaps_by_file[g.anchor.path] = gaps_by_file.get(g.anchor.path, 0) + 1
    modules = {m.path for m in p.modules}
    by_path = {m.path: m for m in p.modules}
    files = []
    for e in p.entries:
        if e.context:
            continue
        path = e.file.path
        if (e.text is None or e.replaced) and not reads(path):
            status, why = "read", f"{e.layer} file ({e.omitted or 'not valid UTF-8'}); no analysis reads its text"
        elif e.text is None:
            status, why = "not analysed", e.omitted or "not valid UTF-8"
        elif e.compiled_from:
            status, why = "read", f"build output of {repo_path(e.compiled_from, e)}, which is analysed in its place"
        elif path in p.skipped:  # too deep, or over the time budget
            status, why = "not analysed", p.skipped[path]
        elif path in modules:
            status = "analysed" if path in reached or not entries else "parsed, not reached"
            why = "" if status == "analysed" else "not imported, directly or through other modules, by an entry file"
        elif e.layer == "test":
            status, why = "read", "test file: parsed for gaps, not analysed as server code"
        else:
            status, why = "read", f"{e.layer} file"
        row = {"path": path, "layer": e.layer, "status": status, "reason": why,
               "gaps": gaps_by_file.get(path, 0), "entry": path in entries}
        bundled = _bundled(by_path[path]) if path in by_path else []
        if bundled:  # a bundle: its dependencies' code is out of the boundary, as when it is not bundled
            names = [b["package"] for b in bundled]
            row["reason"] = "; ".join(filter(None, [why, f"{len(names)} bundled package(s) not read as its code: "
                                                    + ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")]))
            row["bundled"] = bundled
        files.append(row)
    dispatched = {d.tool: d for d in p.dispatches}
    tools = []
    for t in sorted(p.tools, key=lambda t: (t.name, t.module.path)):
        reasons = []
        if t.schema is NOT_LITERAL:
            reasons.append(f"input schema is not a literal ({t.schema_form})")
        if t.description is None and t.described:
            reasons.append("description is not a literal")
        d = dispatched.get(t.name)
        if d is None:
            reasons.append("no dispatch branch or registration names this tool")
        elif d.target is None and not _inline_traced(p, d):
            reasons.append("the implementation does not resolve to a function of the boundary")
        impl = (d.target_name or ("inline in the handler" if _inline_traced(p, d) else None)) if d is not None else None
        tools.append({"name": t.name, "file": t.module.path, "form": t.form, "schema_form": t.schema_form,
                      "dispatch": d.form if d is not None else None, "implementation": impl,
                      "status": "analysed" if not reasons else "partially analysed", "reasons": reasons})
    advertised = {t.name for t in p.tools}
    for name, d in sorted(dispatched.items()):
        if name not in advertised:
            tools.append({"name": name, "file": d.module.path, "form": "dispatch only", "schema_form": "unknown",
                          "dispatch": d.form, "implementation": d.target_name, "status": "partially analysed",
                          "reasons": ["dispatched but no descriptor or registration advertises it"]})
    unresolved = _unresolved(p, entries)
    complete = not p.gaps and not unresolved and all(t["status"] == "analysed" for t in tools) and \
        all(f["status"] != "parsed, not reached" for f in files)
    return {"entries": entries, "files": files, "tools": tools, "unresolved": unresolved, "complete": complete}
