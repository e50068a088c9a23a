"""The git target: any commit-ish pins a full hash, bare repositories work, the work tree is never
read or touched, and the repository is left exactly as it was."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from contract_helpers import audit, commit, git, init_repo, ledger_files, snapshot

FIRST_DATE = "2024-01-02T03:04:05+00:00"
SECOND_DATE = "2024-02-03T04:05:06+00:00"


@pytest.fixture(scope="module")
def repos(tmp_path_factory) -> dict:
    """A work-tree repository with two commits (tags on the first), and a bare clone of it."""
    base = tmp_path_factory.mktemp("git")
    work = base / "work"
    first = init_repo(work, {**ledger_files("srv/"), "top.md": "# top\n"})
    git(work, "tag", "v1")
    git(work, "tag", "-a", "v1-annotated", "-m", "annotated tag")
    files = ledger_files("srv/")
    files["srv/index.ts"] = files["srv/index.ts"].replace("record_entry", "store_entry")
    second = commit(work, files, "rename the tool", date=SECOND_DATE)
    git(work, "branch", "old", first)
    bare = base / "bare.git"
    git(base, "clone", "-q", "--bare", str(work), str(bare))
    return {"work": work, "bare": bare, "first": first, "second": second}


def _tool_of(doc: dict) -> str:
    (dispatch,) = [r for r in doc["routes"] if r["kind"] == "dispatch"]
    return dispatch["tool"]


@pytest.mark.parametrize("kind", ["work", "bare"])
@pytest.mark.parametrize("rev, which", [
    ("HEAD", "second"), ("main", "second"), ("old", "first"), ("v1", "first"), ("v1-annotated", "first"),
    ("short-first", "first"), ("short-second", "second"), ("full-first", "first"),
])
def test_commit_ish_is_pinned_to_full_hash(repos, tmp_path, kind, rev, which):
    if rev.startswith("short-"):
        rev = repos[rev[6:]][:8]
    elif rev.startswith("full-"):
        rev = repos[rev[5:]]
    doc = audit(repos[kind], tmp_path / "out", "--revision", rev, "--subtree", "srv")
    t = doc["target"]
    assert t["kind"] == "git"
    assert t["commit"] == repos[which] and len(t["commit"]) == 40
    assert t["requested"] == rev
    assert t["subtree"] == "srv"
    assert t["commit_date"] == (FIRST_DATE if which == "first" else SECOND_DATE)
    assert _tool_of(doc) == ("record_entry" if which == "first" else "store_entry")
    # Anchors are repository-relative paths inside the subtree.
    assert {a["path"] for r in doc["routes"] for a in r["anchors"]} <= {"srv/index.ts", "srv/package.json", "srv/README.md"}
    assert not any(s["id"] == "SRC:top.md" for s in doc["sources"])


def test_worktree_clean_is_null_for_bare(repos, tmp_path):
    assert audit(repos["bare"], tmp_path / "out", "--subtree", "srv")["target"]["worktree_clean"] is None


def test_worktree_clean_true_then_false(tmp_path):
    repo = tmp_path / "repo"
    init_repo(repo, ledger_files())
    assert audit(repo, tmp_path / "o1")["target"]["worktree_clean"] is True
    # Untracked files do not make the checkout dirty; a modified tracked file does.
    (repo / "scratch.txt").write_text("untracked\n")
    assert audit(repo, tmp_path / "o2")["target"]["worktree_clean"] is True
    with (repo / "README.md").open("a") as fh:
        fh.write("\nlocal edit\n")
    assert audit(repo, tmp_path / "o3")["target"]["worktree_clean"] is False


def test_reads_the_revision_not_the_work_tree(tmp_path):
    repo = tmp_path / "repo"
    committed = ledger_files()
    init_repo(repo, committed)
    # Change the work tree after the commit: rename the tool, add lines, add an untracked script.
    edited = "// local edit 1\n// local edit 2\n" + committed["index.ts"].replace("record_entry", "worktree_only_tool")
    (repo / "index.ts").write_text(edited)
    (repo / "extra.ts").write_text("export const notCommitted = 1;\n")
    (repo / "package.json").unlink()
    doc = audit(repo, tmp_path / "out", "--revision", "HEAD")
    assert doc["target"]["worktree_clean"] is False
    assert _tool_of(doc) == "record_entry"
    assert "worktree_only_tool" not in (tmp_path / "out" / "audit.json").read_text()
    sources = {s["id"]: s for s in doc["sources"]}
    assert "SRC:extra.ts" not in sources
    assert "SRC:package.json" in sources
    body = committed["index.ts"].encode()
    src = sources["SRC:index.ts"]
    assert src["blob"] == hashlib.sha1(b"blob %d\0" % len(body) + body).hexdigest()
    assert src["blob"] == git(repo, "rev-parse", "HEAD:index.ts").strip()
    assert src["lines"] == len(committed["index.ts"].splitlines())
    assert src["bytes"] == len(body)


def _make_index_stat_stale(repo: Path, rel: str) -> None:
    """Give a tracked file a new mtime without changing it: a plain `git status` would now rewrite
    .git/index to refresh its stat cache, so an audit that lets git do that is caught."""
    p = repo / rel
    st = p.stat()
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))


@pytest.mark.parametrize("state", ["clean", "dirty"])
def test_audit_never_modifies_a_checkout(tmp_path, state):
    repo = tmp_path / "repo"
    init_repo(repo, ledger_files("srv/"))
    _make_index_stat_stale(repo, "srv/README.md")
    if state == "dirty":
        with (repo / "srv" / "index.ts").open("a") as fh:
            fh.write("\n// uncommitted\n")
        (repo / "untracked.txt").write_text("x\n")
    before = snapshot(repo)
    for rev in ("HEAD", "main"):
        audit(repo, tmp_path / f"out-{rev}", "--revision", rev, "--subtree", "srv")
    after = snapshot(repo)
    assert after["status"] == before["status"]
    assert after["index"] == before["index"], ".git/index was rewritten"
    assert after["listing"] == before["listing"]
    if state == "dirty":
        assert " M srv/index.ts" in after["status"]


def test_audit_never_modifies_a_bare_repository(repos, tmp_path):
    before = snapshot(repos["bare"])
    audit(repos["bare"], tmp_path / "out", "--revision", "v1", "--subtree", "srv")
    assert snapshot(repos["bare"]) == before
