"""Read a pinned target without touching it: git plumbing at a revision, or an npm tarball."""

from __future__ import annotations

import atexit
import json
import os
import posixpath
import subprocess
from dataclasses import dataclass
from pathlib import Path

from auditor import gitcmd
from auditor.remote import web_base
from auditor.errors import AuditorError
from auditor.model import SourceFile, Target, git_blob_hash  # noqa: F401 - git_blob_hash stays importable here


def _git(repo: Path, *args: str, extra: tuple[tuple[str, str], ...] = ()) -> subprocess.CompletedProcess:
    return gitcmd.run(repo, *args, extra=extra)


def _last_line(stderr: bytes) -> str:
    msg = stderr.decode("utf-8", "replace").strip().splitlines()
    return msg[-1] if msg else "no message"


def _git_out(repo: Path, *args: str) -> str:
    proc = _git(repo, *args)
    if proc.returncode != 0:
        raise AuditorError(f"{repo}: git {' '.join(args)} failed: {_last_line(proc.stderr)}")
    return proc.stdout.decode("utf-8", "backslashreplace")  # file names and subjects need not be UTF-8


class _BlobReader:
    """One `git cat-file --batch` process per repository and process, asked one blob at a time (a request
    is answered before the next is written, so neither pipe can fill up and stall the other)."""

    def __init__(self, repo: Path) -> None:
        self.repo, self.pid = repo, os.getpid()
        self.proc = gitcmd.popen(repo, "cat-file", "--batch")

    def read(self, blob: str) -> bytes | None:
        """The blob's bytes; None when the repository does not hold it (it is never fetched: see gitcmd)."""
        proc = self.proc
        try:
            proc.stdin.write(blob.encode() + b"\n")
            proc.stdin.flush()
            header = proc.stdout.readline().split()
        except OSError:
            header = []
        if len(header) == 2 and header[1] == b"missing":
            return None
        if not header and proc.poll() is not None:  # git died on it (an older git cannot fetch it, and says so)
            return None
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


def read_blobs(repo: Path, blobs: list[str], missing: frozenset[str] = frozenset()) -> dict[str, bytes | None]:
    """Read blobs through this process's `git cat-file --batch` of REPO (started on first use); None for a blob the
    repository does not hold (MISSING: known beforehand, so git is not even asked)."""
    out: dict[str, bytes | None] = {}
    for blob in blobs:
        reader = _readers.get(repo)
        if reader is None or reader.pid != os.getpid() or reader.proc.poll() is not None:  # a fork needs its own
            reader = _readers[repo] = _BlobReader(repo)
        out[blob] = None if blob in missing else reader.read(blob)
    return out


def _missing_objects(repo: Path, commit: str) -> frozenset[str]:
    """The objects of COMMIT's tree that a partial clone does not hold (listed without fetching them); empty for a
    repository with no promisor remote."""
    promisor = _git(repo, "config", "--get-regexp", r"^(extensions\.partialclone|remote\..*\.promisor)$")
    if promisor.returncode != 0 or not promisor.stdout.strip():
        return frozenset()
    listing = _git(repo, "rev-list", "--objects", "--no-walk", "--missing=print", commit)
    return frozenset(ln[1:].strip() for ln in listing.stdout.decode("ascii", "replace").splitlines() if ln.startswith("?"))


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
    not_followed: dict[str, str]  # path -> why: symbolic links, submodules, unsafe names
    missing: frozenset[str] = frozenset()  # blobs of the tree that a partial clone does not hold
    web: str | None = None  # the repository's web address, for links to its files (--link-base or the origin remote)


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
    filters = gitcmd.filter_overrides(path)
    if filters is None:
        raise AuditorError(f"{repo}: git cannot read the repository's configuration")
    # The work tree is the folder given, whatever core.worktree says; filters are emptied, submodules not entered.
    status = _git(path, "--work-tree=.", "status", "--porcelain", "--untracked-files=no", "--ignore-submodules=all",
                  extra=filters)
    if status.returncode != 0:
        raise AuditorError(f"{repo}: git status failed: {_last_line(status.stderr)}")
    return status.stdout == b""


def pin_revisions(repo: str, revisions: list[str], web: str | None = None) -> list[GitPin]:
    """Resolve each revision in REPO and list its tree through git plumbing (never a checkout); the repository
    itself is checked once. WEB (--link-base) is the repository's web address, else its origin remote's if that is
    a known host (auditor/remote.py)."""
    path = Path(repo)
    if not path.exists():
        raise AuditorError(f"{repo}: no such directory")
    clean = _repository(path, repo)
    web = web or web_base(gitcmd.origin_url(path))
    pins = []
    for revision in revisions:
        if revision.startswith("-") or not revision.strip():
            raise AuditorError(f"{repo}: {revision!r} is not a revision (expected a commit hash, tag or branch)")
        proc = _git(path, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
        if proc.returncode != 0 or not proc.stdout.strip():
            raise AuditorError(f"{repo}: unknown revision {revision!r}")
        commit = proc.stdout.decode().strip()
        date = _git_out(path, "show", "--no-show-signature", "-s", "--format=%cI", commit).strip()
        tree, skipped = _ls_tree(path, commit)
        pins.append(GitPin(path=path, locator=repo, requested=revision, commit=commit, commit_date=date,
                           worktree_clean=clean, tree=tree, not_followed=skipped,
                           missing=_missing_objects(path, commit), web=web))
    return pins


def refuse_out_inside(out: Path, pins: list[GitPin]) -> None:
    """An input error when OUT lies inside an audited repository's work tree or git folder: the audit never
    writes into what it audits."""
    where = out.resolve()
    for pin in pins:
        gitdir = _git(pin.path, "rev-parse", "--absolute-git-dir").stdout.decode("utf-8", "surrogateescape").strip()
        for folder in filter(None, (pin.path.resolve(), Path(gitdir).resolve() if gitdir else None)):
            if where == folder or folder in where.parents:
                raise AuditorError(f"--out {out}: inside the audited repository ({folder}); "
                                   "choose a folder outside it (the audit never writes into what it audits)")


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
    context = _context_paths(tree, subtree, path, inside, pin.missing)
    blobs = read_blobs(path, sorted(set(inside.values()) | {tree[p] for p in context}), pin.missing)
    files = tuple(SourceFile(path=p, blob=b, data=blobs[b] or b"", missing=blobs[b] is None) for p, b in sorted(inside.items()))
    ctx = tuple(SourceFile(path=p, blob=tree[p], data=blobs[tree[p]] or b"", missing=blobs[tree[p]] is None)
                for p in sorted(context))
    scope = ["--", subtree] if subtree else []
    prefix = subtree + "/" if subtree else ""
    # One walk for both: the commits rev-list --count would count, newest first, NUL-separated.
    history = [h for h in _git_out(path, "log", "--no-show-signature", "-z", "--format=%h %s", commit, *scope).split("\0") if h]
    count, last = len(history), (history[0].strip() or None) if history else None
    return Target(kind="git", locator=pin.locator, revision=commit, requested=pin.requested, commit_date=pin.commit_date,
                  worktree_clean=pin.worktree_clean, subtree=subtree, files=files, context_files=ctx,
                  subtree_commits=count, last_change=last, web=pin.web,
                  not_followed=tuple((p, why) for p, why in sorted(pin.not_followed.items()) if p.startswith(prefix)))


def open_git(repo: str, revision: str, subtree: str = "") -> Target:
    return at_subtree(pin_git(repo, revision), subtree)


_UNSAFE_PARTS = {"", ".", ".."}


def _unsafe(path: str) -> str | None:
    """Why a tree path cannot be a file of the audit (git writes no such entry, `git mktree` can), or None."""
    parts = path.split("/")
    if any(p in _UNSAFE_PARTS for p in parts):
        return "a path with an empty, '.' or '..' component"
    if any(p.casefold().rstrip(". ") == ".git" for p in parts):
        return "a path through a '.git' folder"
    return None


def _ls_tree(repo: Path, commit: str) -> tuple[dict[str, str], dict[str, str]]:
    """(path -> blob of every regular file, path -> why it is not followed: symbolic links, submodules and names
    that are not safe paths)."""
    out = _git_out(repo, "ls-tree", "-r", "-z", "--full-tree", commit)
    tree: dict[str, str] = {}
    skipped: dict[str, str] = {}
    for entry in out.split("\0"):
        if not entry:
            continue
        meta, p = entry.split("\t", 1)
        mode, kind, blob = meta.split()
        why = _unsafe(p)
        if why is None and mode == "120000":
            why = "a symbolic link: not followed"
        elif why is None and kind == "commit":
            why = f"a submodule (commit {blob[:12]}): its code is in another repository, not read"
        if why is not None:
            skipped[p] = why
        elif kind == "blob":
            tree[p] = blob
    return tree, skipped


def _context_paths(tree: dict[str, str], subtree: str, repo: Path, inside: dict[str, str],
                   missing: frozenset[str]) -> set[str]:
    """Build context outside the subtree: tsconfig `extends` chains and the workspace root manifest."""
    if not subtree:
        return set()
    found: set[str] = set()
    todo = [p for p in inside if posixpath.basename(p).startswith("tsconfig") and p.endswith(".json")]
    while todo:
        cfg = todo.pop()
        data = read_blobs(repo, [tree[cfg]], missing)[tree[cfg]]
        ext = _json_extends(data) if data is not None else None
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
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested ~1,000 deep
        return None
    ext = value.get("extends") if isinstance(value, dict) else None
    return ext if isinstance(ext, str) else None


# npm targets live in auditor/npm.py; these names stay importable from here.
from auditor.npm import check_npm_spec, follow, open_npm, resolve_npm, _read_tarball  # noqa: E402,F401
