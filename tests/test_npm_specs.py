"""npm: targets are registry specs only. Anything npm would build from a folder, a file or a git repository (and
run lifecycle scripts for) is refused before npm runs; npm always runs with --ignore-scripts; a dist-tag is
resolved to the exact version it names, and said. Offline: a stand-in npm (tests/data/fake-npm) logs its calls."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from contract_helpers import DATA, proc


@pytest.fixture
def fake_npm(tmp_path):
    log = tmp_path / "npm-calls.log"
    env = {"PATH": f"{DATA / 'fake-npm'}{os.pathsep}{os.environ['PATH']}", "FAKE_NPM_LOG": str(log)}
    return env, log


def _calls(log: Path) -> list[list[str]]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


@pytest.mark.parametrize("spec", [
    "./some/folder", "../x", "/abs/path", "file:../pkg", "git+https://example.invalid/x.git", "github:owner/repo",
    "owner/repo", "https://example.invalid/x.tgz", "x@npm:other@1.0.0", "left-pad@^1.0.0", "left-pad@1.x",
    "left-pad@>=1", "left-pad@v1", "left-pad@1.0.0 || 2.0.0", "--userconfig=/tmp/x", "_private", ".hidden",
])
def test_specs_npm_would_build_or_that_pin_nothing_are_refused_before_npm_runs(spec, fake_npm, tmp_path):
    env, log = fake_npm
    result = proc("audit", f"npm:{spec}", "--out", tmp_path / "out", env=env)
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("auditor: error: npm:")
    assert _calls(log) == []  # npm never ran
    assert not (tmp_path / "out").exists()


def test_an_exact_version_is_packed_with_scripts_ignored(fake_npm, tmp_path):
    env, log = fake_npm
    result = proc("audit", "npm:left-pad@1.2.3", "--out", tmp_path / "out", "--format", "json", env=env)
    assert result.returncode == 0, result.stderr
    calls = _calls(log)
    assert [c[0] for c in calls] == ["pack"]  # nothing to resolve
    assert "left-pad@1.2.3" in calls[0] and "--ignore-scripts" in calls[0]
    assert "resolved to" not in result.stderr


@pytest.mark.parametrize("spec", ["left-pad", "left-pad@latest", "left-pad@next"])
def test_a_dist_tag_is_resolved_to_the_exact_version_and_said(spec, fake_npm, tmp_path):
    env, log = fake_npm
    out = tmp_path / "out"
    result = proc("audit", f"npm:{spec}", "--out", out, "--format", "json", "-q", env=env)
    assert result.returncode == 0, result.stderr
    assert f"npm:{spec} resolved to npm:left-pad@1.2.3" in result.stderr  # said even with -q
    calls = _calls(log)
    assert calls[0][:2] == ["view", spec if "@" in spec else "left-pad@latest"] and "--ignore-scripts" in calls[0]
    assert calls[1][:2] == ["pack", "left-pad@1.2.3"] and "--ignore-scripts" in calls[1]
    doc = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    assert doc["target"]["requested"] == "left-pad@1.2.3"


def test_a_package_that_is_not_an_mcp_server_says_so(fake_npm, tmp_path):
    env, _ = fake_npm
    out = tmp_path / "out"
    result = proc("audit", "npm:left-pad@1.2.3", "--out", out, "--format", "json", env=env)
    assert result.returncode == 0, result.stderr
    assert "not an MCP server, as far as the code shows" in result.stderr
    doc = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    assert doc["coverage"]["complete"] is False
    assert any("not an MCP server" in u["what"] for u in doc["coverage"]["unresolved"])
