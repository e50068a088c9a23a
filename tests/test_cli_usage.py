"""Usage mistakes are one line and exit 2; a bug in auditor exits 3 (never 1, which means drift)."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner

from auditor import audit as audit_mod
from auditor.cli import main


@pytest.mark.parametrize("args, needle", [
    (["audit"], "Missing argument 'TARGET'"),
    (["audit", "somewhere"], "Missing option '--out'"),
    (["audit", "x", "--out", "o", "--format", "xml"], "'xml' is not one of"),
    (["no-such-command"], "No such command"),
])
def test_usage_errors_are_one_line_with_exit_2(args, needle):
    proc = subprocess.run([sys.executable, "-m", "auditor", *args], capture_output=True, text=True)
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("auditor: error: ") and needle in lines[0], proc.stderr
    assert proc.stdout == ""


def _repo(tmp_path):
    """A git repository of one committed TypeScript file."""
    repo = tmp_path / "r"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    (repo / "index.ts").write_text("export const x = 1;\n")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"], cwd=repo, check=True)
    return repo


def test_an_internal_error_exits_3_with_one_line(tmp_path, monkeypatch):
    def boom(*_a, **_k):
        raise RuntimeError("simulated bug")

    repo = _repo(tmp_path)
    monkeypatch.setattr(audit_mod, "run", boom)
    result = CliRunner().invoke(main, ["audit", str(repo), "--out", str(tmp_path / "out"), "-q"])
    assert result.exit_code == 3
    assert "auditor: internal error: RuntimeError: simulated bug" in result.output
    assert not (tmp_path / "out").exists()


def test_an_interrupted_run_in_process_leaves_the_signal_handlers_as_they_were(tmp_path, monkeypatch):
    # Run in-process (as a test or a caller does), a Ctrl-C exits 130 and leaves Ctrl-C and SIGTERM handled as they
    # were, not ignored for the rest of the process and every child it starts later.
    def interrupted(*_a, **_k):
        raise KeyboardInterrupt

    repo = _repo(tmp_path)
    monkeypatch.setattr(audit_mod, "run", interrupted)
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    try:
        result = CliRunner().invoke(main, ["audit", str(repo), "--out", str(tmp_path / "out"), "-q"])
        after = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    finally:
        signal.signal(signal.SIGINT, before[0])
        signal.signal(signal.SIGTERM, before[1])
    assert result.exit_code == 130 and "auditor: interrupted" in result.output
    assert after == before
    assert not (tmp_path / "out").exists()
