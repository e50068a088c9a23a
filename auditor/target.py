"""Read a pinned target without touching it: git plumbing at a revision, or an npm tarball."""

from __future__ import annotations

import atexit
import hashlib
import io
import json
import os
import posixpath
import re
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from auditor.errors import AuditorError
from auditor.model import SourceFile, Target


def git_blob_hash(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _git(repo: Path, *args: str, input: bytes | None = None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(
            ["git", "--no-optional-locks", "-C", str(repo), *args],
            input=input,
            capture_output=True,
            check=False,
        )
    except FileNotFoundError:
        raise AuditorError("git is not installed or not on PATH") from None


def _git_out(repo: Path, *args: str) -> str:
    proc = _git(repo, *args)
    if proc.returncode != 0:
        msg = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise AuditorError(f"{repo}: git {' '.join(args)} failed: {msg[-1] if msg else 'no message'}")
    return proc.stdout.decode("utf-8", "backslashreplace")  # file names and subjects need not be UTF-8


class _BlobReader:
    """One `git cat-file --batch` process per repository and process, asked one blob at a time (a request
    is answered before the next is written, so neither pipe can fill up and stall the other)."""

    def __init__(self, repo: Path) -> None:
        self.repo, self.pid = repo, os.getpid()
        try:
            self.proc = subprocess.Popen(["git", "--no-optional-locks", "-C", str(repo), "cat-file", "--batch"],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        except FileNotFoundError:
            raise AuditorError("git is not installed or not on PATH") from None

    def read(self, blob: str) -> bytes:
        proc = self.proc
        try:
            proc.stdin.write(blob.encode() + b"\n")
            proc.stdin.flush()
            header = proc.stdout.readline().split()
        except OSError:
            header = []
        if len(header) != 3 or header[1] != b"blob":
            raise AuditorError(f"{self.repo}: git cat-file cannot read blob {blob}")
        data = proc.stdout.read(int(header[2]) + 1)
        return data[:-1]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait()
        self.proc.stdout.close()


_readers: dict[Path, _BlobReader] = {}


def read_blobs(repo: Path, blobs: list[str]) -> dict[str, bytes]:
    """Read blobs through this process's `git cat-file --batch` of REPO (started on first use)."""
    reader = _readers.get(repo)
    if reader is None or reader.pid != os.getpid() or reader.proc.poll() is not None:  # a fork needs its own
        reader = _readers[repo] = _BlobReader(repo)
    return {b: reader.read(b) for b in blobs}


@atexit.register
def _close_readers() -> None:
    for reader in _readers.values():
        if reader.pid == os.getpid():
            reader.close()
    _readers.clear()


@dataclass(frozen=True, kw_only=True, slots=True)
class GitPin:
    """A repository pinned at one commit, with its whole tree listed (path -> blob); no subtree chosen yet."""

    path: Path
    locator: str  # the repository as the user gave it
    requested: str  # the commit-ish the user asked for
    commit: str
    commit_date: str
    worktree_clean: bool | None
    tree: dict[str, str]


def _repository(path: Path, repo: str) -> bool | None:
    """Check that REPO is the top of a git repository; its work tree's cleanliness (None when bare)."""
    probe = _git(path, "rev-parse", "--git-dir", "--show-prefix", "--is-bare-repository")
    if probe.returncode != 0:
        raise AuditorError(f"{repo}: not a git repository")
    _, prefix, bare = (probe.stdout.decode("utf-8", "backslashreplace").split("\n") + ["", "", ""])[:3]
    inner = prefix.strip().rstrip("/")
    if inner:  # git would silently read the enclosing repository's whole tree
        raise AuditorError(f"{repo}: a folder inside a repository, not its top; give the repository with --subtree {inner}")
    if bare.strip() == "true":
        return None
    return _git_out(path, "status", "--porcelain", "--untracked-files=no") == ""


def pin_revisions(repo: str, revisions: list[str]) -> list[GitPin]:
    """Resolve each revision in REPO and list its tree through git plumbing (never a checkout); the repository
    itself is checked once."""
    path = Path(repo)
    if not path.exists():
        raise AuditorError(f"{repo}: no such directory")
    clean = _repository(path, repo)
    pins = []
    for revision in revisions:
        proc = _git(path, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
        if proc.returncode != 0 or not proc.stdout.strip():
            raise AuditorError(f"{repo}: unknown revision {revision!r}")
        commit = proc.stdout.decode().strip()
        date = _git_out(path, "show", "-s", "--format=%cI", commit).strip()
        pins.append(GitPin(path=path, locator=repo, requested=revision, commit=commit, commit_date=date,
                           worktree_clean=clean, tree=_ls_tree(path, commit)))
    return pins


def pin_git(repo: str, revision: str) -> GitPin:
    return pin_revisions(repo, [revision])[0]


def check_subtree(pin: GitPin, subtree: str) -> dict[str, str]:
    """The files (path -> blob) of SUBTREE at the pinned commit; an input error when it holds none."""
    subtree = subtree.strip("/")
    prefix = subtree + "/" if subtree else ""
    inside = {p: b for p, b in pin.tree.items() if p.startswith(prefix)}
    if not inside:
        raise AuditorError(f"{pin.locator}: subtree {subtree!r} does not exist at revision {pin.commit[:12]}")
    return inside


def at_subtree(pin: GitPin, subtree: str = "") -> Target:
    """The Target of one subtree of a pinned repository: its files, build context and history."""
    path, commit, tree = pin.path, pin.commit, pin.tree
    subtree = subtree.strip("/")
    inside = check_subtree(pin, subtree)
    context = _context_paths(tree, subtree, path, inside)
    blobs = read_blobs(path, sorted(set(inside.values()) | {tree[p] for p in context}))
    files = tuple(SourceFile(path=p, blob=b, data=blobs[b]) for p, b in sorted(inside.items()))
    ctx = tuple(SourceFile(path=p, blob=tree[p], data=blobs[tree[p]]) for p in sorted(context))
    scope = ["--", subtree] if subtree else []
    # One walk for both: the commits rev-list --count would count, newest first, NUL-separated.
    history = [h for h in _git_out(path, "log", "-z", "--format=%h %s", commit, *scope).split("\0") if h]
    count, last = len(history), (history[0].strip() or None) if history else None
    return Target(kind="git", locator=pin.locator, revision=commit, requested=pin.requested, commit_date=pin.commit_date,
                  worktree_clean=pin.worktree_clean, subtree=subtree, files=files, context_files=ctx,
                  subtree_commits=count, last_change=last)


def open_git(repo: str, revision: str, subtree: str = "") -> Target:
    return at_subtree(pin_git(repo, revision), subtree)


def _ls_tree(repo: Path, commit: str) -> dict[str, str]:
    out = _git_out(repo, "ls-tree", "-r", "-z", "--full-tree", commit)
    tree: dict[str, str] = {}
    for entry in out.split("\0"):
        if not entry:
            continue
        meta, p = entry.split("\t", 1)
        mode, kind, blob = meta.split()
        if kind == "blob" and mode != "120000":
            tree[p] = blob
    return tree


def _context_paths(tree: dict[str, str], subtree: str, repo: Path, inside: dict[str, str]) -> set[str]:
    """Build context outside the subtree: tsconfig `extends` chains and the workspace root manifest."""
    if not subtree:
        return set()
    found: set[str] = set()
    todo = [p for p in inside if posixpath.basename(p).startswith("tsconfig") and p.endswith(".json")]
    while todo:
        cfg = todo.pop()
        data = read_blobs(repo, [tree[cfg]])[tree[cfg]]
        ext = _json_extends(data)
        if ext and ext.startswith("."):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(cfg), ext))
            if not target.endswith(".json"):
                target += ".json"
            if target in tree and target not in inside and target not in found:
                found.add(target)
                todo.append(target)
    if "package.json" in tree and "package.json" not in inside:
        found.add("package.json")
    return found


def _json_extends(data: bytes) -> str | None:
    try:
        value = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return None
    ext = value.get("extends") if isinstance(value, dict) else None
    return ext if isinstance(ext, str) else None


def _npm_reason(stderr: bytes) -> str:
    """The line of npm's error output that says what went wrong (not its error code, nor where its log is)."""
    lines = [ln.strip() for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
    said = [ln for ln in lines if not re.match(r"npm (error|ERR!) (code |errno |A complete log|\S+$)", ln)]
    best = said[0] if said else lines[-1] if lines else "no message"
    return re.sub(r"^npm (error|ERR!) ", "", best)


def check_npm_spec(spec: str) -> None:
    """An input error unless SPEC names a package (npm would read `-x` as an option, and `npm pack ""` packs the
    current folder)."""
    if not spec or spec != spec.strip() or spec.startswith("-") or (spec.startswith("@") and "/" not in spec):
        raise AuditorError(f"npm:{spec}: expected npm:NAME@VERSION (a package name, optionally @scope/NAME)")


def open_npm(spec: str) -> Target:
    """Fetch NAME@VERSION with the user's own `npm pack` and read the tarball in memory."""
    check_npm_spec(spec)
    npm = shutil.which("npm")
    if npm is None:
        raise AuditorError("npm is not installed or not on PATH (needed for npm: targets)")
    with tempfile.TemporaryDirectory(prefix="auditor-npm-") as tmp:
        proc = subprocess.run([npm, "pack", spec, "--json", "--pack-destination", tmp],
                              capture_output=True, cwd=tmp, check=False)
        if proc.returncode != 0:
            raise AuditorError(f"npm:{spec}: npm pack failed: {_npm_reason(proc.stderr)}")
        try:
            info = json.loads(proc.stdout)[0]
        except (ValueError, IndexError, KeyError):
            raise AuditorError(f"npm:{spec}: npm pack printed no JSON description") from None
        tarball = Path(tmp) / info["filename"]
        files = _read_tarball(tarball.read_bytes(), spec)
    return Target(kind="npm", locator=f"npm:{spec}", revision=info.get("integrity", ""),
                  requested=f"{info.get('name', spec)}@{info.get('version', '')}", commit_date=None,
                  worktree_clean=None, subtree="", files=files)


def _read_tarball(data: bytes, spec: str) -> tuple[SourceFile, ...]:
    files = []
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar.getmembers():
            if not member.isfile():  # every file is read; sources.register decides what is too large to analyse
                continue
            name = member.name.split("/", 1)[1] if "/" in member.name else member.name
            # tarfile gives undecodable name bytes as surrogates, which no report can encode: escape them.
            name = posixpath.normpath(name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace"))
            if name.startswith("..") or name.startswith("/"):
                continue
            body = tar.extractfile(member).read()
            files.append(SourceFile(path=name, blob=git_blob_hash(body), data=body))
    if not files:
        raise AuditorError(f"npm:{spec}: the tarball holds no files")
    return tuple(sorted(files, key=lambda f: f.path))
