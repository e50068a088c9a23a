"""Frozen records shared by every stage: anchors, the pinned target, sources and audit facts."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Mapping

SCHEMA_VERSION = "auditor.audit/1"
# Type declaration files, of every module kind: types alone, no code that runs (never parsed as code).
DECLARATIONS = (".d.ts", ".d.mts", ".d.cts")


@dataclass(frozen=True, kw_only=True, slots=True, order=True)
class Anchor:
    """A 1-based, inclusive line span in a file, path relative to the repository root."""

    path: str
    start_line: int
    end_line: int

    def as_json(self) -> dict[str, Any]:
        return {"path": self.path, "start_line": self.start_line, "end_line": self.end_line}

    def __str__(self) -> str:
        if self.start_line == self.end_line:
            return f"{self.path}:{self.start_line}"
        return f"{self.path}:{self.start_line}-{self.end_line}"


def git_blob_hash(data: bytes) -> str:
    """The hash git gives a blob of DATA (npm tarball members are named the same way)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@dataclass(frozen=True, kw_only=True, slots=True)
class SourceFile:
    """One file of the boundary as read at the pinned revision."""

    path: str  # relative to the repository (or package) root
    blob: str  # git blob hash (computed the git way for npm tarballs too)
    data: bytes
    missing: bool = False  # the repository does not hold the blob (a partial or shallow clone): data is empty
    size: int | None = None  # set when the file was too large to read (data is empty): its size as declared

    @property
    def bytes(self) -> int:
        return self.size if self.size is not None else len(self.data)

    @property
    def text(self) -> str:
        return self.data.decode("utf-8")


@dataclass(frozen=True, kw_only=True, slots=True)
class Package:
    """A dependency read with an npm target (auditor/npm.py follow): its files lie under FOLDER in the target's."""

    name: str
    version: str  # the exact version read
    range: str  # what the target's package.json asks for
    folder: str  # node_modules/NAME
    integrity: str  # of its tarball
    why: str  # what made it the server's code: "builds on @modelcontextprotocol/sdk", "is of the same scope, @v"


@dataclass(frozen=True, kw_only=True, slots=True)
class Target:
    """What was audited, pinned: a git commit or an npm tarball's integrity hash."""

    kind: str  # "git" | "npm"
    locator: str  # repository path or npm spec, as the user gave it
    revision: str  # full commit hash, or the tarball integrity for npm
    requested: str  # what the user asked for (commit-ish or NAME@VERSION)
    commit_date: str | None
    worktree_clean: bool | None  # None: bare repository or npm tarball
    subtree: str  # "" for the whole repository or package
    files: tuple[SourceFile, ...]  # the boundary, sorted by path
    context_files: tuple[SourceFile, ...] = ()  # outside the subtree, read for build context
    subtree_commits: int | None = None  # commits that touched the subtree up to the revision
    last_change: str | None = None  # "<short hash> <subject>" of the newest of them
    not_followed: tuple[tuple[str, str], ...] = ()  # (path, why): symbolic links, submodules, unsafe tree names
    web: str | None = None  # the repository's web address (https), for links to files at the commit; None: no links
    packages: tuple[Package, ...] = ()  # dependencies read with the target (npm: the vendor's own MCP layer)


@dataclass(frozen=True, kw_only=True, slots=True)
class Record:
    """One fact or finding of the audit; `category` says which list of audit.json holds it."""

    category: str  # source | component | object | route | absence | path | finding | claim | test
    id: str
    kind: str
    summary: str
    anchors: tuple[Anchor, ...]
    rule: str  # the query, extractor or kb rule that produced it
    attrs: Mapping[str, Any] = field(default_factory=dict)

    def sort_key(self) -> tuple:
        first = self.anchors[0] if self.anchors else Anchor(path="", start_line=0, end_line=0)
        return (first.path, first.start_line, first.end_line, self.id)


@dataclass(frozen=True, kw_only=True, slots=True)
class Gap:
    """Something the tool could not see: a parse error region, an unreadable file."""

    kind: str
    detail: str
    anchor: Anchor


@dataclass(frozen=True, kw_only=True, slots=True)
class Statement:
    """One computed sentence of a report: a heading, its text and the records it rests on."""

    head: str
    text: str
    records: tuple[str, ...] = ()  # record ids
    evidence: tuple[Anchor, ...] = ()


@dataclass(frozen=True, kw_only=True, slots=True)
class Responsibility:
    """A causal responsibility of the runtime baseline: where it lives inside the boundary, and where it actually lives."""

    name: str
    inside: str
    actual: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Loop:
    """A material loop of the runtime baseline: its ten fields and what its gaps mean for a user."""

    kind: str  # lifecycle | advertisement | call
    name: str
    fields: tuple[Statement, ...]
    tool: str | None = None  # the tool of a call loop
    materiality: tuple[Statement, ...] = ()


@dataclass(frozen=True, kw_only=True, slots=True)
class Baseline:
    """Record 5, the runtime baseline, computed from the audit's records (auditor/analyse/runtime.py)."""

    responsibilities: tuple[Responsibility, ...]
    hub: str
    loops: tuple[Loop, ...]
    anti_conflation: tuple[Statement, ...]
    surfaces: tuple[Statement, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Audit:
    """Everything one audit produced; renderers take only this."""

    target: Target
    sources: tuple[Record, ...]
    components: tuple[Record, ...]
    objects: tuple[Record, ...]
    routes: tuple[Record, ...]
    absences: tuple[Record, ...]
    paths: tuple[Record, ...]
    findings: tuple[Record, ...]  # kinds of level `finding` in kb/findings.yaml
    claims: tuple[Record, ...] = ()
    advisories: tuple[Record, ...] = ()  # kinds of level `advisory`: heuristics below the precision bar
    candidates: tuple[Record, ...] = ()  # capability statements no registered claim covers
    tests: tuple[Record, ...] = ()  # the boundary's test blocks, read (never run), with the routes they exercise
    registries: tuple[str, ...] = ()  # the claims registries that applied
    method: Mapping[str, Any] = field(default_factory=dict)  # kb/method.yaml excerpts the reports state
    ledger: Mapping[str, Any] = field(default_factory=dict)  # coverage: files reached, tools analysed, and why not
    gaps: tuple[Gap, ...] = ()
    summary: Mapping[str, Any] = field(default_factory=dict)  # what a reviewer reads first (analyse/summary.py)
    baseline: Baseline | None = None  # the runtime baseline (auditor/analyse/runtime.py)
    conclusion: tuple[Statement, ...] = ()  # the ledger's bounded conclusion (auditor/analyse/conclusion.py)
    amendments: tuple[Statement, ...] = ()  # head: a finding's id; records: the routes and objects it amends


def span(path: str, start: int, end: int | None = None) -> Anchor:
    return Anchor(path=path, start_line=start, end_line=start if end is None else end)


def merge_anchors(anchors) -> tuple[Anchor, ...]:
    """Sort, de-duplicate and merge overlapping or touching spans of the same file."""
    out: list[Anchor] = []
    for a in sorted(set(anchors)):
        if out and out[-1].path == a.path and a.start_line <= out[-1].end_line + 1:
            last = out[-1]
            out[-1] = Anchor(path=a.path, start_line=last.start_line, end_line=max(last.end_line, a.end_line))
        else:
            out.append(a)
    return tuple(out)
