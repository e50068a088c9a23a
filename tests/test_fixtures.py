"""Audit every server under fixtures/ and check the expectations written in its files.

Each fixture folder is copied into tmp_path, committed there as a fresh git repository (fixed
identity and dates, so the commit is reproducible), audited through the CLI, and every
`expect` comment of its files is checked against audit.json; all failures are reported at once.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from auditor.cli import main
from expectations import check, parse_tree

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CASES = sorted(p for p in FIXTURES.iterdir() if p.is_dir())

DATE = "2024-05-06T07:08:09+00:00"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Fixture Author", "GIT_AUTHOR_EMAIL": "fixtures@auditor.invalid", "GIT_AUTHOR_DATE": DATE,
    "GIT_COMMITTER_NAME": "Fixture Author", "GIT_COMMITTER_EMAIL": "fixtures@auditor.invalid", "GIT_COMMITTER_DATE": DATE,
    "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
}


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args], cwd=repo,
                   env={**os.environ, **GIT_ENV}, check=True, capture_output=True)


def _commit_copy(fixture: Path, repo: Path) -> None:
    shutil.copytree(fixture, repo, ignore=shutil.ignore_patterns("node_modules", "dist", ".git"))
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", f"fixture {fixture.name}")


def test_fixtures_exist():
    assert len(CASES) >= 3, f"expected at least 3 fixture folders under {FIXTURES}"


@pytest.mark.parametrize("fixture", CASES, ids=lambda p: p.name)
def test_fixture(fixture: Path, tmp_path: Path) -> None:
    expectations = parse_tree(fixture)
    assert expectations, f"fixtures/{fixture.name}: no expectation comments found"
    repo, out = tmp_path / "repo", tmp_path / "out"
    _commit_copy(fixture, repo)
    result = CliRunner().invoke(main, ["audit", str(repo), "--revision", "HEAD", "--out", str(out), "--format", "json", "-q"])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, f"auditor exited {result.exit_code}: {result.output}"
    audit = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    failures = check(expectations, audit)
    assert not failures, f"{len(failures)} of {len(expectations)} expectation(s) failed in fixtures/{fixture.name}:\n" + \
        "\n".join(f"  fixtures/{fixture.name}/{f}" for f in failures)
