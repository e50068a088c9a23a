"""Writing OUT (auditor/outdir.py): every file or none even when a move fails half-way, one run at a time, workers
and staging folders that do not outlive a killed run, files of an earlier run removed by the manifest (and never a
user's own), and output names that cannot leave OUT."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from auditor import outdir
from contract_helpers import cli, commit, git, init_repo
from test_monorepo import ALPHA, MONO, _server

MANIFEST = ".auditor-manifest.json"


@pytest.fixture(scope="module")
def history(tmp_path_factory) -> Path:
    """v1: servers alpha and beta; main: beta changed and a third server, gamma, added."""
    repo = tmp_path_factory.mktemp("outdir") / "repo"
    init_repo(repo, MONO)
    git(repo, "tag", "v1")
    commit(repo, {"servers/beta/index.ts": MONO["servers/beta/index.ts"].replace("Counts", "Tallies"),
                  **_server("servers/gamma", "gamma-server", ALPHA.replace('"greet"', '"wave"'))}, "second")
    return repo


def _snapshot(root: Path) -> dict[str, bytes | None]:
    """Every path under root (dotfiles too), with the bytes of the files."""
    return {p.relative_to(root).as_posix(): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def _written(history: Path, out: Path, *args: str) -> None:
    result = cli("audit", history, "--out", out, "-q", "--jobs", "1", *args)
    assert result.exit_code == 0, result.stderr


def _fail_replace(monkeypatch, out: Path, nth: int, undo_fails: bool = False) -> None:
    """os.replace fails on the nth move of a report into OUT (and, with undo_fails, on every move after it)."""
    real, seen = os.replace, []

    def flaky(src, dst, *a, **k):
        into_out = Path(dst).parent.resolve().is_relative_to(out.resolve()) and ".auditor-staging-" not in str(dst)
        if into_out:
            seen.append(dst)
        if (into_out and len(seen) == nth) or (undo_fails and len(seen) >= nth):
            raise OSError(errno.EIO, "Input/output error")
        return real(src, dst, *a, **k)

    monkeypatch.setattr(os, "replace", flaky)


def test_a_move_that_fails_half_way_leaves_out_as_it_was(history, tmp_path, monkeypatch):
    out = tmp_path / "out"
    _written(history, out, "-r", "v1")
    (out / "notes.txt").write_text("mine\n", encoding="utf-8")
    before = _snapshot(out)
    _fail_replace(monkeypatch, out, nth=2)  # the first report is already in place when the second fails
    result = cli("audit", history, "--out", out, "-q", "--jobs", "1", "-r", "main")
    assert result.exit_code == 2, result.stderr
    assert result.stderr.strip().splitlines() == [
        f"auditor: error: {out}: cannot write reports (Input/output error); {out} is left as it was"]
    assert _snapshot(out) == before  # byte for byte, no staging folder, no lock file


def test_a_failure_that_cannot_be_undone_says_so_and_keeps_the_earlier_files(history, tmp_path, monkeypatch):
    out = tmp_path / "out"
    _written(history, out, "-r", "v1")
    first = (out / "alpha" / "audit.json").read_bytes()
    _fail_replace(monkeypatch, out, nth=2, undo_fails=True)
    result = cli("audit", history, "--out", out, "-q", "--jobs", "1", "-r", "main")
    assert result.exit_code == 2 and "could not put every earlier file back" in result.stderr, result.stderr
    kept = Path(result.stderr.split("the earlier ones are in ")[1].strip())
    assert kept.parent.name.startswith(".auditor-staging-") and (kept / "alpha" / "audit.json").read_bytes() == first


def test_a_second_run_into_a_locked_out_fails_at_once(history, tmp_path):
    import fcntl

    out = tmp_path / "out"
    _written(history, out, "-r", "v1")
    assert not (out / ".auditor.lock").exists()  # removed by the run that held it
    before = _snapshot(out)
    with open(out / ".auditor.lock", "w") as held:  # as a run writing into OUT holds it
        fcntl.flock(held, fcntl.LOCK_EX)
        before[".auditor.lock"] = b""
        result = cli("audit", history, "--out", out, "-q", "-r", "main")
        assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1, result.stderr
        assert "another auditor run is writing into it" in result.stderr
        assert _snapshot(out) == before
        assert cli("audit", history, "--out", out, "-q", "-r", "v1", "--check").exit_code == 0  # --check takes no lock
    _written(history, out, "-r", "main")  # released: the next run goes ahead


def test_two_runs_started_together_one_writes_and_one_fails(history, tmp_path):
    out = tmp_path / "out"
    runs = [subprocess.Popen([sys.executable, "-m", "auditor", "audit", str(history), "-r", rev, "--out", str(out), "-q"],
                             stderr=subprocess.PIPE, text=True) for rev in ("v1", "main", "v1", "main")]
    codes = sorted((p.wait(timeout=60), p.stderr.read()) for p in runs)
    assert codes[0][0] == 0 and all(c in (0, 2) for c, _ in codes)
    assert all("another auditor run" in err for c, err in codes if c == 2)
    # Whoever wrote last, OUT holds exactly one run's files: a --check of v1 or of main finds no drift.
    checks = [cli("audit", history, "-r", rev, "--out", out, "-q", "--check").exit_code for rev in ("v1", "main")]
    assert sorted(checks) == [0, 1]


SLOW = """
import time
import auditor.audit as _audit

_real = _audit.run


def _slow(target, *args, **kwargs):
    time.sleep(120)  # every audit: the run is killed while its workers are busy
    return _real(target, *args, **kwargs)


_audit.run = _slow
"""


def _children(pid: int) -> list[int]:
    """The worker processes of pid (forked, so their command line is the parent's)."""
    mine = Path(f"/proc/{pid}/cmdline").read_bytes()
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            if ppid == pid and (stat.parent / "cmdline").read_bytes() == mine:
                found.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG and /proc are Linux's")
def test_sigkill_of_the_parent_takes_its_workers_and_the_next_run_removes_its_staging(history, tmp_path):
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(SLOW, encoding="utf-8")
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(hook), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.Popen([sys.executable, "-m", "auditor", "audit", str(history), "-r", "v1", "--out", str(out),
                            "-q", "--jobs", "2"], env=env, stderr=subprocess.PIPE, text=True, start_new_session=True)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while not workers:  # forked once the staging folder exists
            assert run.poll() is None and time.monotonic() < deadline, run.stderr.read() if run.poll() is not None else ""
            time.sleep(0.2)
            first = set(_children(run.pid))
            time.sleep(0.1)
            workers = sorted(first & set(_children(run.pid)))  # still there: a worker, not a git being started
        run.kill()  # SIGKILL: no clean-up runs
        run.wait(timeout=10)
        deadline = time.monotonic() + 5
        while any(_running(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_running(w) for w in workers), "a worker outlived its killed parent"
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
        for w in workers:
            if _running(w):
                os.kill(w, signal.SIGKILL)
    staging = [p for p in out.iterdir() if p.name.startswith(".auditor-staging-")]
    assert len(staging) == 1 and json.loads((staging[0] / "owner.json").read_text())["pid"] == run.pid
    result = cli("audit", history, "-r", "v1", "--out", out, "-q", "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    assert f"removed {staging[0]}: staging folder of an interrupted run (pid {run.pid})" in result.stderr
    assert not staging[0].exists()
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, "alpha", "beta", "index.json", "index.md"]


def test_a_staging_folder_of_a_live_process_is_left_alone(history, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    live = out / f".auditor-staging-{os.getppid()}-abc"  # our parent is alive: not stale, whatever it is
    live.mkdir()
    (live / "owner.json").write_text(json.dumps({"pid": os.getppid()}), encoding="utf-8")
    dead = out / ".auditor-staging-999999999-xyz"  # no such pid
    dead.mkdir()
    _written(history, out, "-r", "v1")
    assert live.is_dir() and not dead.exists()


def test_files_this_run_does_not_write_are_removed_and_reported_never_the_users(history, tmp_path):
    out = tmp_path / "out"
    _written(history, out, "-r", "main")
    (out / "notes.txt").write_text("mine\n", encoding="utf-8")
    (out / "gamma" / "mine.txt").write_text("mine too\n", encoding="utf-8")
    (out / "beta" / "evidence-packet.md").unlink()  # a file of ours the user removed: nothing to remove
    written = json.loads((out / MANIFEST).read_text(encoding="utf-8"))["files"]
    assert written == sorted(written) and "gamma/audit.json" in written and "notes.txt" not in written

    check = cli("audit", history, "-r", "v1", "--out", out, "-q", "--format", "json", "--check")
    assert check.exit_code == 1
    assert f"drift: {out / 'alpha' / 'runtime-baseline.md'} was written by an earlier run" in check.stderr
    assert f"drift: {out / 'gamma' / 'audit.json'} was written by an earlier run" in check.stderr

    result = cli("audit", history, "-r", "v1", "--out", out, "-q", "--format", "json")
    assert result.exit_code == 0, result.stderr
    removed = sorted(ln.split()[2].rstrip(":") for ln in result.stderr.splitlines() if ln.startswith("auditor: removed "))
    gone = sorted(str(out / n) for n in written if n.endswith(".md") or n.startswith("gamma/"))
    gone.remove(str(out / "beta" / "evidence-packet.md"))
    assert removed == gone
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == [
        MANIFEST, "alpha", "alpha/audit.json", "beta", "beta/audit.json", "gamma", "gamma/mine.txt", "index.json",
        "notes.txt"]
    assert json.loads((out / MANIFEST).read_text(encoding="utf-8"))["files"] == [
        "alpha/audit.json", "beta/audit.json", "index.json"]
    assert cli("audit", history, "-r", "v1", "--out", out, "-q", "--format", "json", "--check").exit_code == 0

    (out / "gamma" / "mine.txt").unlink()
    _written(history, out, "-r", "main")
    _written(history, out, "-r", "v1")
    assert not (out / "gamma").exists()  # a folder that held only our files goes with them


def test_a_manifest_that_names_a_path_outside_out_removes_nothing(history, tmp_path):
    out = tmp_path / "out"
    _written(history, out, "-r", "v1")
    victim = tmp_path / "victim.txt"
    victim.write_text("keep\n", encoding="utf-8")
    (out / MANIFEST).write_text(json.dumps({"files": ["../victim.txt"]}), encoding="utf-8")
    before = _snapshot(out)
    result = cli("audit", history, "-r", "v1", "--out", out, "-q")
    assert result.exit_code == 2 and f"{out / MANIFEST}: not a manifest written by auditor" in result.stderr
    assert victim.read_text(encoding="utf-8") == "keep\n" and _snapshot(out) == before


@pytest.mark.parametrize("name", ["", "/etc/passwd", "../x", "a/../../x", "a//b", "a/", "./a", "a/./b",
                                  ".auditor-manifest.json", ".auditor.lock", "a\0b"])
def test_unsafe_output_names_are_refused(name):
    with pytest.raises(outdir.UnsafeName):
        outdir.checked(name)


def test_an_unsafe_name_from_upstream_is_an_internal_error_before_anything_is_written(history, tmp_path, monkeypatch):
    import auditor.cli

    monkeypatch.setattr(auditor.cli, "_folders", lambda revisions, commits: ["..", "main"])
    parent = tmp_path / "parent"
    parent.mkdir()
    result = cli("audit", history, "-r", "v1", "-r", "main", "--out", parent / "out", "-q", "--jobs", "1")
    assert result.exit_code == 3 and "UnsafeName" in result.stderr and "'../alpha/" in result.stderr, result.stderr
    assert list(parent.iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["parent"]


def test_a_symbolic_link_in_out_that_leads_outside_is_not_written_through(history, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "alpha").symlink_to(elsewhere)
    result = cli("audit", history, "-r", "v1", "--out", out, "-q")
    assert result.exit_code == 2 and "symbolic link" in result.stderr and "leads outside it" in result.stderr
    assert list(elsewhere.iterdir()) == [] and sorted(p.name for p in out.iterdir()) == ["alpha"]
