"""Several revisions in one run (`--revision A --revision B`), worker processes (`--jobs`), and output
written as it is rendered: each revision's folder holds exactly what a run of that revision alone writes,
whatever the number of workers; a server whose audit fails is named, and the rest is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from auditor.cli import _folders
from contract_helpers import cli, commit, fail_audit_of, git, init_repo
from test_monorepo import ALPHA, BETA, MONO, _server


def _tree(root: Path) -> dict[str, bytes]:
    """The reports under root (without OUT's manifest, which only OUT has)."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != ".auditor-manifest.json"}


@pytest.fixture(scope="module")
def history(tmp_path_factory) -> Path:
    """v1: the two servers of test_monorepo; main: beta changed and a third server added."""
    repo = tmp_path_factory.mktemp("history") / "repo"
    init_repo(repo, MONO)
    git(repo, "tag", "v1")
    commit(repo, {"servers/beta/index.ts": BETA.replace("Counts the stored notes.", "Counts every stored note."),
                  **_server("servers/gamma", "gamma-server", ALPHA.replace('"greet"', '"wave"'))}, "second")
    return repo


@pytest.fixture(scope="module")
def alone(history, tmp_path_factory) -> dict[str, dict[str, bytes]]:
    """Each revision audited on its own, in one process."""
    out = {}
    for rev in ("v1", "main"):
        dest = tmp_path_factory.mktemp(f"alone-{rev}") / "out"
        result = cli("audit", history, "--revision", rev, "--out", dest, "-q", "--jobs", "1")
        assert result.exit_code == 0, result.stderr
        out[rev] = _tree(dest)
    return out


def test_each_revision_gets_the_folder_a_run_of_it_alone_writes(history, alone, tmp_path):
    dest = tmp_path / "out"
    result = cli("audit", history, "-r", "v1", "-r", "main", "--out", dest)
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in dest.iterdir()) == [".auditor-manifest.json", "index.json", "index.md", "main", "v1"]
    for rev in ("v1", "main"):
        assert _tree(dest / rev) == alone[rev], rev
    assert "gamma" in {p.name for p in (dest / "main").iterdir()} - {p.name for p in (dest / "v1").iterdir()}
    # Progress names the revision of each server, and counts the servers of both revisions.
    assert "[5/5]" in result.stderr and "servers/beta at v1:" in result.stderr and "servers/beta at main:" in result.stderr


@pytest.mark.parametrize("jobs", ["1", "2", "3"])
def test_the_number_of_workers_changes_no_byte(history, alone, tmp_path, jobs):
    dest = tmp_path / "out"
    result = cli("audit", history, "-r", "v1", "-r", "main", "--out", dest, "-q", "--jobs", jobs)
    assert result.exit_code == 0, result.stderr
    assert {rev: _tree(dest / rev) for rev in ("v1", "main")} == alone


def test_an_index_lists_the_revisions_and_links_their_folders(history, tmp_path):
    import json

    from markdown_it import MarkdownIt

    dest = tmp_path / "out"
    assert cli("audit", history, "-r", "v1", "-r", "main", "--out", dest, "-q").exit_code == 0
    doc = json.loads((dest / "index.json").read_text(encoding="utf-8"))
    assert doc["schema"] == "auditor.revisions/1"
    rows = {r["requested"]: r for r in doc["revisions"]}
    assert list(rows) == ["v1", "main"]  # in the order asked for
    assert rows["v1"]["commit"] == git(history, "rev-parse", "v1").strip()
    assert (rows["v1"]["audits"], rows["main"]["audits"]) == (2, 3)
    assert rows["main"]["scope"] == "monorepo" and rows["main"]["coverage"]["complete"] <= 3
    for r in rows.values():
        index = json.loads((dest / r["folder"] / "index.json").read_text(encoding="utf-8"))
        assert index["target"]["commit"] == r["commit"] and len(index["servers"]) == r["audits"]
        assert r["coverage"]["complete"] == sum(s["coverage"]["complete"] for s in index["servers"])
    tokens = MarkdownIt("commonmark").enable("table").parse((dest / "index.md").read_text(encoding="utf-8"))
    links = [c.attrs["href"] for t in tokens if t.children for c in t.children if c.type == "link_open"]
    assert links == ["v1/", "main/"] and all((dest / h).is_dir() for h in links)
    json_only = tmp_path / "json"
    assert cli("audit", history, "-r", "v1", "-r", "main", "--out", json_only, "-q", "--format", "json").exit_code == 0
    assert sorted(p.name for p in json_only.iterdir()) == [".auditor-manifest.json", "index.json", "main", "v1"]


def test_subtree_at_two_revisions(history, alone, tmp_path):
    dest = tmp_path / "out"
    result = cli("audit", history, "-r", "v1", "-r", "main", "--subtree", "servers/beta", "--out", dest, "-q")
    assert result.exit_code == 0, result.stderr
    for rev in ("v1", "main"):
        assert sorted(p.name for p in (dest / rev).iterdir()) == sorted(
            n.split("/", 1)[1] for n in alone[rev] if n.startswith("beta/"))
        assert (dest / rev / "audit.json").read_bytes() == alone[rev]["beta/audit.json"]
    assert (dest / "v1" / "audit.json").read_bytes() != (dest / "main" / "audit.json").read_bytes()


def test_check_covers_every_revision(history, tmp_path):
    dest = tmp_path / "out"
    assert cli("audit", history, "-r", "v1", "-r", "main", "--out", dest, "-q").exit_code == 0
    assert cli("audit", history, "-r", "v1", "-r", "main", "--out", dest, "-q", "--check").exit_code == 0
    victim = dest / "v1" / "beta" / "evidence-packet.md"
    victim.write_bytes(victim.read_bytes() + b"\n")
    result = cli("audit", history, "-r", "v1", "-r", "main", "--out", dest, "-q", "--check")
    assert result.exit_code == 1 and f"drift: {victim} differs" in result.stderr
    victim.write_bytes(victim.read_bytes()[:-1])
    stale = dest / "main" / "delta"
    stale.mkdir()
    (stale / "audit.json").write_text("{}\n", encoding="utf-8")
    result = cli("audit", history, "-r", "v1", "-r", "main", "--out", dest, "-q", "--check")
    assert result.exit_code == 1 and f"drift: {stale} holds reports" in result.stderr
    (stale / "audit.json").unlink()
    stale.rmdir()
    old_revision = dest / "v0"  # written by an earlier run over other revisions
    old_revision.mkdir()
    (old_revision / "index.json").write_text("{}\n", encoding="utf-8")
    result = cli("audit", history, "-r", "v1", "-r", "main", "--out", dest, "-q", "--check")
    assert result.exit_code == 1 and f"drift: {old_revision} holds reports of a revision" in result.stderr
    (old_revision / "index.json").unlink()  # a folder without reports is not ours
    assert cli("audit", history, "-r", "v1", "-r", "main", "--out", dest, "-q", "--check").exit_code == 0


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_failing_server_is_named_and_the_rest_is_written(history, tmp_path, monkeypatch, jobs):
    fail_audit_of(monkeypatch, "servers/gamma")
    out = tmp_path / "reports" / "deep" / "out"
    result = cli("audit", history, "-r", "v1", "-r", "main", "--out", out, "-q", "--jobs", jobs)
    assert result.exit_code == 4, result.stderr
    failed = []
    for index in sorted(out.glob("*/index.json")):
        doc = json.loads(index.read_text(encoding="utf-8"))
        failed += [(index.parent.name, f["subtree"]) for f in doc["failed"]]
        assert doc["servers"] and not (index.parent / "gamma").exists()
    assert failed == [("main", "servers/gamma")]
    assert result.stderr.count("servers/gamma at main: audit failed (RuntimeError: simulated bug)") == 1
    assert not list(out.parent.glob(".auditor-*"))  # no staging folder left


def test_an_unknown_revision_among_several_is_an_input_error(history, tmp_path):
    result = cli("audit", history, "-r", "v1", "-r", "no-such-ref", "--out", tmp_path / "out", "-q")
    assert result.exit_code == 2 and "unknown revision 'no-such-ref'" in result.stderr
    assert not (tmp_path / "out").exists()


def test_revision_folders_are_safe_and_distinct():
    commits = ["a" * 40, "b" * 40, "c" * 40]
    assert _folders(("HEAD",), commits[:1]) == [""]
    assert _folders(("origin/main", "v1.2.0", "HEAD~1"), commits) == ["origin-main", "v1.2.0", "HEAD-1"]
    assert _folders(("a/b", "a-b"), commits[:2]) == ["a-b-aaaaaaaaaaaa", "a-b-bbbbbbbbbbbb"]
    assert _folders(("../..", "main"), commits[:2]) == ["aaaaaaaaaaaa", "main"]
    assert _folders(("index.md", "main"), commits[:2]) == ["index.md-aaaaaaaaaaaa", "main"]  # OUT's own index


SLOW_BETA = """
import time
import auditor.audit as _audit

_real = _audit.run


def _slow(target, *args, **kwargs):
    if target.subtree == "servers/beta":
        time.sleep(60)  # long enough to be killed while the staging folder holds the other servers' files
    return _real(target, *args, **kwargs)


_audit.run = _slow
"""


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_killed_run_leaves_nothing_behind(history, tmp_path, signame, jobs):
    import os
    import signal
    import subprocess
    import sys
    import time

    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(SLOW_BETA, encoding="utf-8")
    parent = tmp_path / "reports"
    parent.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(hook), os.environ.get("PYTHONPATH", "")])}
    def as_from_a_shell() -> None:  # the run starts as a shell starts it: Ctrl-C and SIGTERM neither ignored nor
        for sig in (signal.SIGINT, signal.SIGTERM):  # blocked, whatever this test process inherited or left behind
            signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})

    child = subprocess.Popen([sys.executable, "-m", "auditor", "audit", str(history), "-r", "v1", "-r", "main",
                              "--out", str(parent / "out"), "-q", "--jobs", jobs],
                             env=env, stderr=subprocess.PIPE, text=True, start_new_session=True,
                             preexec_fn=as_from_a_shell)
    deadline = time.monotonic() + 30
    staging = parent / "out"  # the staging folder is inside OUT, which the run creates (and removes on failure)
    while not (staging.is_dir() and any(p.name.startswith(".auditor-staging-") for p in staging.iterdir())):
        assert child.poll() is None and time.monotonic() < deadline, child.stderr.read() if child.poll() is not None else ""
        time.sleep(0.05)
    time.sleep(0.5)
    started = time.monotonic()
    os.killpg(child.pid, getattr(signal, signame))
    stderr = child.communicate(timeout=30)[1]
    assert child.returncode == 130 and stderr.strip().endswith("auditor: interrupted"), stderr
    assert time.monotonic() - started < 20  # it did not wait for the slow audit
    assert list(parent.iterdir()) == []
