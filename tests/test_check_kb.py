"""`auditor check-kb`: the real kb/ is valid; a broken copy yields one located line per problem."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import yaml

from auditor import kb as kb_mod
from contract_helpers import cli

KB = Path(kb_mod.__file__).resolve().parent.parent / "kb"
PROBLEM = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<field>\S+): (?P<message>.+)$")


def test_real_kb_is_valid():
    result = cli("check-kb", "--kb", KB)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert "all files valid" in result.stdout


def _break_absences(path: Path) -> dict[str, tuple[int, str]]:
    """Add an unknown key to one probe and give another a wrong type; return field -> (line, message part)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    probes = [p["id"] for p in yaml.safe_load("".join(lines))["probes"]]

    def line_of(pattern: str, after: int = 0) -> int:
        return next(i for i in range(after, len(lines)) if re.search(pattern, lines[i]))

    # (b) wrong type: search.calls of no-scheduling becomes a string (schema: array of strings).
    sched = line_of(r"^\s*- id: no-scheduling\b")
    calls = line_of(r"^\s+calls:", sched)
    indent = lines[calls][: len(lines[calls]) - len(lines[calls].lstrip())]
    lines[calls] = f"{indent}calls: setTimeout\n"
    # (a) unknown key: inserted right after the `probe:` line of no-tests.
    tests = line_of(r"^\s*- id: no-tests\b")
    probe = line_of(r"^\s+probe:", tests)
    indent = lines[probe][: len(lines[probe]) - len(lines[probe].lstrip())]
    lines.insert(probe + 1, f"{indent}severity: high\n")
    path.write_text("".join(lines), encoding="utf-8")
    # The insertion comes after the edited `calls:` line, so that line number is unaffected.
    assert calls < probe
    return {
        f"probes.{probes.index('no-tests')}.severity": (probe + 2, "unknown key 'severity'"),
        f"probes.{probes.index('no-scheduling')}.search.calls": (calls + 1, "is not of type 'array'"),
    }


def test_broken_copy_reports_each_problem_with_its_line(tmp_path):
    copy = tmp_path / "kb"
    shutil.copytree(KB, copy)
    target = copy / "absences.yaml"
    expected = _break_absences(target)

    result = cli("check-kb", "--kb", copy)
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert lines[-1].startswith("auditor: ") and "problem" in lines[-1]
    problems = [PROBLEM.match(ln) for ln in lines[:-1]]
    assert all(problems), lines
    found = {m["field"]: m for m in problems if m["file"] == str(target)}
    assert set(found) == set(expected), lines
    for field, (line, message) in expected.items():
        assert int(found[field]["line"]) == line, (field, found[field].group(0))
        assert message in found[field]["message"], found[field].group(0)
    # Only the edited file has problems: the rest of the copy is the valid real kb.
    assert len(problems) == len(expected), lines
    assert lines[-1] == f"auditor: {len(expected)} problem(s) in {copy}"


def test_audit_refuses_a_broken_kb_with_one_line(tmp_path):
    copy = tmp_path / "kb"
    shutil.copytree(KB, copy)
    _break_absences(copy / "absences.yaml")
    kb_mod.load.cache_clear()
    from contract_helpers import init_repo, ledger_files
    repo = tmp_path / "repo"
    init_repo(repo, ledger_files())
    out = tmp_path / "out"
    result = cli("audit", repo, "--kb", copy, "--out", out, "-q")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("auditor: error: ") and "absences.yaml:" in lines[0], lines
    assert not out.exists()
