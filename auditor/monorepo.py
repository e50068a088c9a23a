"""Monorepo mode: find every TypeScript/JavaScript MCP server of a pinned repository and audit each one."""

from __future__ import annotations

import json
import posixpath
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Mapping

from auditor import target as target_mod
from auditor.model import Audit

# Dependency fields of package.json that make the SDK part of what a package runs.
RUNTIME_FIELDS = ("dependencies", "peerDependencies", "optionalDependencies")
INDEX_FILES = ("index.json", "index.md")
_SKIP_PARTS = {"node_modules", ".git"}


@dataclass(frozen=True, kw_only=True, slots=True)
class Server:
    """A folder to audit, and the folder under OUT its reports go to."""

    subtree: str
    name: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Skipped:
    """A project folder that holds no TypeScript/JavaScript MCP server, with the reason."""

    subtree: str
    reason: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Plan:
    """What monorepo mode will audit at one pinned commit."""

    pin: target_mod.GitPin
    servers: tuple[Server, ...]
    skipped: tuple[Skipped, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Summary:
    """One row of the index: what the audit of one server found."""

    name: str
    subtree: str
    package: str | None  # the manifest's name
    files: int
    tools: int
    routes: int
    claims: tuple[tuple[str, int], ...]  # (verdict, count), sorted by verdict
    complete: bool  # coverage.complete of its audit.json
    gaps: int
    reports: tuple[str, ...]  # paths relative to OUT
    failed: str | None = None  # why its audit failed (then it has no reports and every count is 0)


@dataclass(frozen=True, kw_only=True, slots=True)
class Index:
    """Everything index.md and index.json show."""

    locator: str
    requested: str
    commit: str
    commit_date: str
    worktree_clean: bool | None
    servers: tuple[Summary, ...]
    skipped: tuple[Skipped, ...]


def _inside(path: str, folder: str) -> bool:
    return folder == "" or path == folder or path.startswith(folder + "/")


def _outermost(folders: Iterable[str]) -> list[str]:
    out: list[str] = []
    for f in sorted(folders, key=lambda f: (f.count("/"), f)):
        if not any(_inside(f, o) for o in out):
            out.append(f)
    return sorted(out)


def _manifest_verdict(data: bytes | None, packages: tuple[str, ...], has_scripts: bool) -> str | None:
    """None when package.json makes its folder a server; otherwise why it does not."""
    if data is None:
        return "package.json is not in the repository (a partial or shallow clone; never fetched): not judged"
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested ~1,000 deep
        return "package.json is not valid JSON"
    if not isinstance(doc, dict):
        return "package.json is not a JSON object"

    def named(fields) -> list[str]:
        found = set()
        for f in fields:
            deps = doc.get(f)
            if isinstance(deps, dict):
                found |= {p for p in packages if p in deps}
        return sorted(found)

    runtime = named(RUNTIME_FIELDS)
    if runtime and has_scripts:
        return None
    if runtime:
        return f"package.json names {', '.join(runtime)}, but the folder holds no TypeScript or JavaScript file"
    dev = named(("devDependencies",))
    if dev and has_scripts and doc.get("bin") and isinstance(doc.get("bin"), (str, dict)):
        return None  # a command that names the SDK only for its build: the SDK is bundled into it
    if dev:
        return f"package.json names {', '.join(dev)} only in devDependencies: not a server's runtime dependency"
    return f"package.json names no MCP SDK package ({', '.join(packages)}) in its dependencies"


def safe_folder_name(name: str) -> str:
    """A folder name made from text of the audited repository: letters, digits and `._@+-` only, never hidden,
    never `.` or `..` (so that it stays one folder inside OUT, on any file system)."""
    return re.sub(r"[^\w.@+-]+", "-", name).strip(".-") or "server"


def _names(subtrees: list[str]) -> dict[str, str]:
    """Output folder per server: the folder's own name, or its path when names repeat; never an index file."""
    base = Counter(posixpath.basename(s).casefold() for s in subtrees)
    taken = {n.casefold() for n in INDEX_FILES}
    out = {}
    for s in sorted(subtrees):
        name = posixpath.basename(s) if base[posixpath.basename(s).casefold()] == 1 else s.replace("/", "-")
        name = safe_folder_name(name)
        cand, n = name, 2
        while cand.casefold() in taken:
            cand, n = f"{name}-{n}", n + 1
        taken.add(cand.casefold())
        out[s] = cand
    return out


def discover(pin: target_mod.GitPin, packages: Iterable[str], other_projects: Mapping[str, str] | None = None,
             ) -> tuple[bool, tuple[Server, ...], tuple[Skipped, ...]]:
    """(root is itself a server, servers below the root, skipped project folders), from the listed tree.
    PACKAGES: the SDK's npm packages; OTHER_PROJECTS: project file -> ecosystem (kb/sdk.yaml)."""
    from auditor.extract import parse

    packages = tuple(packages)
    tree = {p: b for p, b in pin.tree.items() if not _SKIP_PARTS & set(p.split("/"))}
    children: dict[str, set[str]] = {}
    scripted: set[str] = set()
    for p in tree:
        folder, _, base = p.rpartition("/")
        children.setdefault(folder, set()).add(base)
        if parse.language_for(p) in {"typescript", "tsx", "javascript"}:
            parts = p.split("/")[:-1]
            scripted |= {"/".join(parts[:i]) for i in range(len(parts) + 1)}
    manifests = sorted(f for f, names in children.items() if "package.json" in names)
    paths = {f: posixpath.join(f, "package.json") for f in manifests}
    blobs = target_mod.read_blobs(pin.path, sorted({tree[p] for p in paths.values()}), pin.missing)
    verdicts = {f: _manifest_verdict(blobs[tree[paths[f]]], packages, f in scripted) for f in manifests}
    root_server = "" in verdicts and verdicts[""] is None
    servers = _outermost(f for f, v in verdicts.items() if f and v is None)
    reasons = {f: v for f, v in verdicts.items() if f and v is not None}
    for f, names in children.items():
        hit = next(((n, lang) for n, lang in (other_projects or {}).items() if n in names), None)
        if f and f not in reasons and hit is not None:
            reasons[f] = f"{hit[1]} project ({hit[0]}): not a TypeScript or JavaScript server"
    skipped = _outermost(f for f in reasons if not any(_inside(f, s) or _inside(s, f) for s in servers))
    names = _names(servers)
    return (root_server, tuple(Server(subtree=s, name=names[s]) for s in servers),
            tuple(Skipped(subtree=f, reason=reasons[f]) for f in skipped))


def plan(pin: target_mod.GitPin, packages: Iterable[str], other_projects: Mapping[str, str] | None = None) -> Plan | None:
    """A Plan when the repository holds servers below its root and is not itself one; None for a single audit."""
    root_server, servers, skipped = discover(pin, packages, other_projects)
    if root_server or not servers:
        return None
    return Plan(pin=pin, servers=servers, skipped=skipped)


def summarise(server: Server, audit: Audit, reports: Iterable[str]) -> Summary:
    from auditor.report import json as json_report

    manifest = next((o for o in audit.objects if o.kind == "manifest"), None)
    tools = {o.attrs.get("tool") for o in audit.objects if o.kind == "tool-schema"}
    verdicts = Counter(str(c.attrs.get("verdict")) for c in audit.claims)
    return Summary(name=server.name, subtree=server.subtree, package=manifest.attrs.get("name") if manifest else None,
                   files=len(audit.target.files), tools=len(tools), routes=len(audit.routes),
                   claims=tuple(sorted(verdicts.items())), complete=json_report.complete(audit), gaps=len(audit.gaps),
                   reports=tuple(f"{server.name}/{r}" for r in reports))


def failed(server: Server, reason: str) -> Summary:
    """The row of a server whose audit failed."""
    return Summary(name=server.name, subtree=server.subtree, package=None, files=0, tools=0, routes=0, claims=(),
                   complete=False, gaps=0, reports=(), failed=reason)


def index(plan: Plan, rows: Iterable[Summary]) -> Index:
    p = plan.pin
    return Index(locator=p.locator, requested=p.requested, commit=p.commit, commit_date=p.commit_date,
                 worktree_clean=p.worktree_clean, servers=tuple(rows), skipped=plan.skipped)


def index_files(plan: Plan, rows: Iterable[Summary], renderers: Mapping[str, object]) -> dict[str, str]:
    """index.json and/or index.md of one plan, by file name."""
    from auditor.report import index as index_report

    idx, files = index(plan, rows), {}
    if "audit.json" in renderers:
        files["index.json"] = index_report.render_json(idx)
    if any(n.endswith(".md") for n in renderers):
        files["index.md"] = index_report.render_md(idx)
    return files


def run(plan: Plan, kb_dir: Path, renderers: Mapping[str, Callable[[Audit], str]],
        progress: Callable[[str], None] = lambda _: None, jobs: int = 1) -> dict[str, str]:
    """Audit every server of the plan; returns every file, by path relative to OUT (the Python API; the
    command line streams the files of `execute` to disk instead of holding them)."""
    from auditor.batch import Unit, describe, execute

    units = [Unit(pin=plan.pin, server=s, folder=s.name, label=s.subtree) for s in plan.servers]
    files: dict[str, str] = {}
    rows: dict[int, Summary] = {}
    for done in execute(units, kb_dir, renderers, jobs):
        files.update(done.files)
        rows[done.unit] = done.summary
        progress(describe(done, units, len(rows)))
    files.update(index_files(plan, [rows[i] for i in range(len(units))], renderers))
    return files


def stale(out: Path, files: Mapping[str, str]) -> list[str]:
    """Server folders under OUT holding reports that this run no longer produces (for --check)."""
    folders = {n.split("/", 1)[0] for n in files if "/" in n}
    reports = {n.split("/", 1)[1] for n in files if "/" in n}
    if not out.is_dir():
        return []
    return sorted(d.name for d in out.iterdir()
                  if d.is_dir() and d.name not in folders and any((d / r).is_file() for r in reports))
