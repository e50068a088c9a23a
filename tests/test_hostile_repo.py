"""The audited repository is hostile: its configuration, attributes, hooks, remotes and odd tree entries must never
make the auditor run a command, fetch, write into the repository, or write outside --out.

Each repository is built on the fly. Every command a setting could run is `touch MARKER/<name>`: the test asserts
the marker folder stays empty and the repository (refs, objects, index, config, work tree) is byte-identical."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest

from contract_helpers import GIT_ENV, git, init_repo, ledger_files, proc


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under FOLDER (the .git folder too) with the hash of its bytes."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


def _signed_commit(repo: Path) -> None:
    """A commit carrying a (fake) signature, so that `log.showSignature` would run `gpg.program` on it."""
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    head = git(repo, "rev-parse", "HEAD").strip()
    body = (f"tree {tree}\nparent {head}\nauthor A <a@b.invalid> 1700000000 +0000\n"
            "committer A <a@b.invalid> 1700000000 +0000\n"
            "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n")
    made = subprocess.run(["git", "-C", str(repo), "hash-object", "-t", "commit", "-w", "--stdin"], input=body,
                          capture_output=True, text=True, env={**os.environ, **GIT_ENV}, check=True).stdout.strip()
    git(repo, "update-ref", "refs/heads/main", made)


def hostile_repo(root: Path) -> tuple[Path, Path]:
    """A server repository whose own configuration would run a command in every git call it could reach."""
    repo, marker = root / "repo", root / "marker"
    marker.mkdir()
    files = {**ledger_files("srv/"), ".gitattributes": "* filter=evil diff=evil\n"}
    init_repo(repo, files)
    _signed_commit(repo)
    touch = lambda name: f"touch {marker}/{name}; cat"  # noqa: E731 - a filter must still pass the bytes on
    settings = {
        "core.fsmonitor": f"touch {marker}/fsmonitor; false", "filter.evil.clean": touch("clean"),
        "filter.evil.smudge": touch("smudge"), "filter.evil.process": f"touch {marker}/process",
        "filter.evil.required": "true", "diff.evil.textconv": touch("textconv"), "diff.external": touch("external"),
        "core.pager": touch("pager"), "pager.log": touch("pagerlog"), "log.showSignature": "true",
        "gpg.program": touch("gpg"), "core.sshCommand": touch("ssh"), "credential.helper": touch("credential"),
        "remote.origin.url": f"ext::sh -c touch% {marker}/ext", "protocol.ext.allow": "always",
        "protocol.allow": "always", "core.hooksPath": str(repo / "hooks"), "core.untrackedCache": "true",
    }
    for key, value in settings.items():
        git(repo, "config", key, value)
    hooks = repo / "hooks"
    hooks.mkdir()
    for hook in ("post-index-change", "reference-transaction", "post-checkout", "pre-auto-gc"):
        (hooks / hook).write_text(f"#!/bin/sh\ntouch {marker}/hook-{hook}\n")
        (hooks / hook).chmod(0o755)
    with open(repo / "srv" / "index.ts", "a", encoding="utf-8") as fh:  # git status re-hashes (and would filter) it
        fh.write("// edited in the work tree\n")
    return repo, marker


@pytest.mark.parametrize("mode", ["subtree", "monorepo", "revisions"])
def test_repository_configuration_runs_no_command_and_the_repository_is_unchanged(tmp_path, mode):
    repo, marker = hostile_repo(tmp_path)
    before = snapshot(repo)
    out = tmp_path / "out"
    args = {"subtree": ["--subtree", "srv"], "monorepo": [], "revisions": ["-r", "HEAD", "-r", "HEAD~1"]}[mode]
    result = proc("audit", repo, *args, "--out", out, "--format", "json")
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in marker.iterdir()) == []
    assert snapshot(repo) == before
    doc = json.loads(next(out.rglob("audit.json")).read_text(encoding="utf-8"))
    assert doc["target"]["worktree_clean"] is False  # the touched file is reported, yet no filter ran


def _partial_clone(tmp_path: Path, remote_url: str | None) -> Path:
    source = tmp_path / "source"
    init_repo(source, ledger_files("srv/"))
    git(source, "config", "uploadpack.allowFilter", "true")
    clone = tmp_path / "clone"
    subprocess.run(["git", "-c", "protocol.file.allow=always", "clone", "-q", "--no-checkout", "--filter=blob:none",
                    f"file://{source}", str(clone)], check=True, capture_output=True, env={**os.environ, **GIT_ENV})
    git(clone, "config", "protocol.file.allow", "always")
    if remote_url:
        git(clone, "config", "remote.origin.url", remote_url)
        git(clone, "config", "protocol.ext.allow", "always")
    return clone


@pytest.mark.parametrize("remote", ["file", "ext"])
def test_a_partial_clone_is_never_fetched_into_and_missing_blobs_are_gaps(tmp_path, remote):
    marker = tmp_path / "marker"
    marker.mkdir()
    clone = _partial_clone(tmp_path, f"ext::sh -c touch% {marker}/ext" if remote == "ext" else None)
    before = snapshot(clone)
    out = tmp_path / "out"
    result = proc("audit", clone, "--subtree", "srv", "--out", out, "--format", "json")
    assert result.returncode == 0, result.stderr
    assert snapshot(clone) == before  # no pack fetched, nothing written
    assert list(marker.iterdir()) == []
    doc = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    assert doc["coverage"]["complete"] is False
    gaps = [g for g in doc["coverage"]["gaps"] if g["kind"] == "missing"]
    assert {g["anchor"]["path"] for g in gaps} >= {"srv/index.ts", "srv/package.json"}
    assert "missing" in result.stderr and "never fetched" in result.stderr


def test_a_partial_clone_in_monorepo_mode_says_why_a_folder_cannot_be_judged(tmp_path):
    clone = _partial_clone(tmp_path, None)
    before = snapshot(clone)
    result = proc("audit", clone, "--out", tmp_path / "out", "--format", "json")
    assert result.returncode in (0, 2), result.stderr
    assert "Traceback" not in result.stderr
    assert snapshot(clone) == before


def _mktree(repo: Path, listing: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "mktree"], input=listing, capture_output=True, text=True,
                          check=True).stdout.strip()


def _odd_tree_repo(tmp_path: Path) -> Path:
    """A commit (made with git mktree, as no work tree can hold it) whose root has a server folder named `..` and
    one named `.git` beside an ordinary server `ok`, which itself holds a `..` folder, a symbolic link and a
    submodule."""
    repo = tmp_path / "repo"
    init_repo(repo, {"ok/" + k: v for k, v in ledger_files().items()})
    server = git(repo, "rev-parse", "HEAD:ok").strip()
    link = subprocess.run(["git", "-C", str(repo), "hash-object", "-w", "--stdin"], input="index.ts",
                          capture_output=True, text=True, check=True).stdout.strip()
    head = git(repo, "rev-parse", "HEAD").strip()
    entries = git(repo, "ls-tree", "HEAD:ok")
    ok = _mktree(repo, entries + f"040000 tree {server}\t..\n120000 blob {link}\tlinked.ts\n"
                                 f"160000 commit {head}\tvendor\n")
    root = _mktree(repo, f"040000 tree {server}\t..\n040000 tree {server}\t.git\n040000 tree {ok}\tok\n")
    made = subprocess.run(["git", "-C", str(repo), "commit-tree", root, "-p", head, "-m", "odd"], capture_output=True,
                          text=True, env={**os.environ, **GIT_ENV}, check=True).stdout.strip()
    git(repo, "update-ref", "refs/heads/main", made)
    return repo


def test_a_tree_entry_named_dotdot_never_writes_outside_out(tmp_path):
    repo = _odd_tree_repo(tmp_path)
    parent = tmp_path / "parent"
    parent.mkdir()
    out = parent / "out"
    result = proc("audit", repo, "--out", out, "--format", "json", "-q")
    assert result.returncode == 0, result.stderr
    assert [p.name for p in parent.iterdir()] == ["out"]  # nothing beside --out
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == ["index.json", "ok"]
    doc = json.loads((out / "ok" / "audit.json").read_text(encoding="utf-8"))
    rows = {f["path"]: f for f in doc["coverage"]["files"]}
    assert rows["ok/linked.ts"]["status"] == "not followed" and "symbolic link" in rows["ok/linked.ts"]["reason"]
    assert rows["ok/vendor"]["status"] == "not followed" and "submodule" in rows["ok/vendor"]["reason"]
    assert rows["ok/../index.ts"]["status"] == "not followed"
    assert "ok/index.ts" in rows and rows["ok/index.ts"]["status"] == "analysed"


def test_out_inside_the_audited_repository_is_refused(tmp_path):
    repo = tmp_path / "repo"
    init_repo(repo, ledger_files("srv/"))
    before = snapshot(repo)
    for out in (repo / "reports", repo / ".git" / "reports", repo):
        result = proc("audit", repo, "--subtree", "srv", "--out", out)
        assert result.returncode == 2, result.stderr
        assert "inside the audited repository" in result.stderr and "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    assert snapshot(repo) == before


def test_a_revision_that_looks_like_an_option_is_refused(tmp_path):
    repo = tmp_path / "repo"
    init_repo(repo, ledger_files("srv/"))
    result = proc("audit", repo, "--subtree", "srv", "--revision=--output=x", "--out", tmp_path / "out")
    assert result.returncode == 2 and "is not a revision" in result.stderr
    assert not (tmp_path / "out").exists()
