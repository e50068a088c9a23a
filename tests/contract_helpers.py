"""Helpers for the pipeline-contract tests: throwaway git repositories and ways to run the CLI.

Repositories are built in tmp_path at test time with fixed author/committer identity and dates,
so commit hashes are reproducible and nothing depends on the user's git configuration.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from auditor.cli import main

DATA = Path(__file__).resolve().parent / "data"
LEDGER = DATA / "ledger"  # a tiny MCP server written for these tests

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Auditor Tests",
    "GIT_AUTHOR_EMAIL": "tests@auditor.invalid",
    "GIT_AUTHOR_DATE": "2024-01-02T03:04:05+00:00",
    "GIT_COMMITTER_NAME": "Auditor Tests",
    "GIT_COMMITTER_EMAIL": "tests@auditor.invalid",
    "GIT_COMMITTER_DATE": "2024-01-02T03:04:05+00:00",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(repo: Path, *args: str, check: bool = True) -> str:
    proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV}, check=False)
    if check and proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr}")
    return proc.stdout


def init_repo(repo: Path, files: dict[str, bytes | str] | None = None, message: str = "first") -> str:
    """Create a repository with `files` committed on branch main; returns the commit hash."""
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q", "-b", "main")
    return commit(repo, files or {}, message)


def commit(repo: Path, files: dict[str, bytes | str], message: str, date: str | None = None) -> str:
    for rel, body in files.items():
        p = repo / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(body, str):
            p.write_text(body, encoding="utf-8")
        else:
            p.write_bytes(body)
    git(repo, "add", "-A")
    extra = {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date} if date else {}
    proc = subprocess.run(["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", message],
                          capture_output=True, text=True, env={**os.environ, **GIT_ENV, **extra}, check=False)
    assert proc.returncode == 0, proc.stderr
    return git(repo, "rev-parse", "HEAD").strip()


def ledger_files(prefix: str = "") -> dict[str, str]:
    return {prefix + p.name: p.read_text(encoding="utf-8") for p in sorted(LEDGER.iterdir()) if p.is_file()}


def cli(*args: str):
    """Run the CLI in-process; stdout and stderr are kept apart."""
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=True)


def proc(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run `python -m auditor` as a real process (real stderr, real exit status)."""
    return subprocess.run([sys.executable, "-m", "auditor", *map(str, args)], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, check=False)


def audit(target: Path | str, out: Path, *extra: str) -> dict:
    """Audit into `out` (json only) and return audit.json, failing loudly on a non-zero exit."""
    result = cli("audit", target, "--out", out, "--format", "json", "-q", *extra)
    assert result.exit_code == 0, (result.exit_code, result.stderr, result.exception)
    return json.loads((out / "audit.json").read_text(encoding="utf-8"))


RECORD_LISTS = ("sources", "components", "objects", "routes", "absences", "paths", "findings", "advisories", "claims")


def records(doc: dict):
    for name in RECORD_LISTS:
        yield from doc[name]


def anchors_in(value) -> list[dict]:
    """Every anchor-shaped dict (path, start_line, end_line) anywhere inside `value`, in document order."""
    out = []
    if isinstance(value, dict):
        if {"path", "start_line", "end_line"} <= value.keys():
            out.append(value)
        for v in value.values():
            out += anchors_in(v)
    elif isinstance(value, list):
        for v in value:
            out += anchors_in(v)
    return out


def snapshot(repo: Path) -> dict:
    """Everything an audit must leave untouched: status, index bytes and mtime, every file and folder."""
    listing = {}
    for root, dirs, files in os.walk(repo):
        for name in dirs + files:
            p = Path(root, name)
            st = p.lstat()
            listing[p.relative_to(repo).as_posix()] = (st.st_mode, st.st_size, st.st_mtime_ns)
    index = next((p for p in (repo / ".git" / "index", repo / "index") if p.is_file()), None)
    return {
        # --no-optional-locks: the snapshot itself must not refresh (rewrite) the index.
        "status": subprocess.run(["git", "--no-optional-locks", "-C", str(repo), "status", "--porcelain",
                                  "--untracked-files=all"], capture_output=True, text=True,
                                 env={**os.environ, **GIT_ENV}).stdout,
        "index": None if index is None else (index.read_bytes(), index.stat().st_mtime_ns),
        "listing": listing,
    }


def copy_tree(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def fail_audit_of(monkeypatch, subtree: str) -> None:
    """Make the audit of one subtree raise (a simulated bug in the auditor); every other audit runs as it would."""
    from auditor import audit as audit_mod

    real = audit_mod.run

    def failing(target, *args, **kwargs):
        if target.subtree == subtree:
            raise RuntimeError("simulated bug")
        return real(target, *args, **kwargs)

    monkeypatch.setattr(audit_mod, "run", failing)
