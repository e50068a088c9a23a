"""`auditor check-kb`: the real kb/ is valid; a broken copy yields one located line per problem."""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest
import yaml

from auditor import kb as kb_mod
from contract_helpers import cli, proc

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


def _bomb(levels: int = 9, width: int = 9) -> str:
    """A YAML alias bomb: `levels` anchors of `width` aliases each (9 x 9: about 387 million nodes, 1.5 KB)."""
    out = ["bomb_0: &b0 [" + ", ".join(["lol"] * width) + "]"]
    out += [f"bomb_{i}: &b{i} [" + ", ".join([f"*b{i - 1}"] * width) + "]" for i in range(1, levels + 1)]
    return "\n".join(out) + "\n"


def _kb_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "kb"
    shutil.copytree(KB, copy)
    kb_mod.load.cache_clear()
    return copy


def _one_problem(stderr: str, path: Path) -> re.Match:
    lines = [ln for ln in stderr.splitlines() if not ln.startswith("auditor: ")]
    assert "Traceback" not in stderr and len(lines) == 1, stderr
    m = PROBLEM.match(lines[0])
    assert m and m["file"] == str(path), lines
    return m


def test_an_alias_bomb_is_refused_with_one_located_line(tmp_path):
    copy = _kb_copy(tmp_path)
    target = copy / "lens.yaml"
    text = target.read_text(encoding="utf-8")
    first = text.count("\n") + 1  # the bomb's first line
    target.write_text(text + _bomb(), encoding="utf-8")
    started = time.monotonic()
    result = proc("check-kb", "--kb", copy)
    assert result.returncode == 2, result.stderr
    m = _one_problem(result.stderr, target)
    # The alias that crosses the bound is named, on its own line; nothing was expanded.
    assert first < int(m["line"]) <= first + 9 and "alias" in m["message"], m.group(0)
    repo = tmp_path / "repo"
    from contract_helpers import init_repo, ledger_files
    init_repo(repo, ledger_files())
    out = tmp_path / "out"
    result = proc("audit", repo, "--kb", copy, "--out", out, "-q")
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"auditor: error: {target}:{m['line']}: (yaml): alias"), result.stderr
    assert len(result.stderr.splitlines()) == 1 and not out.exists()
    assert time.monotonic() - started < 30  # seconds, for two processes; the bomb took minutes and GBs


def test_a_recursive_alias_is_refused(tmp_path):
    copy = _kb_copy(tmp_path)
    target = copy / "lens.yaml"
    text = target.read_text(encoding="utf-8")
    target.write_text(text + "loop: &loop [1, *loop]\n", encoding="utf-8")
    result = cli("check-kb", "--kb", copy)
    assert result.exit_code == 2
    m = _one_problem(result.stderr, target)
    assert int(m["line"]) == text.count("\n") + 1 and "recursive" in m["message"], m.group(0)


def test_the_kb_own_alias_is_allowed(tmp_path):
    # kb/effects.yaml writes one mapping once and refers to it (methods: *http_verbs): a bounded expansion.
    assert "*http_verbs" in (KB / "effects.yaml").read_text(encoding="utf-8")
    data, problems = kb_mod.validate_file(KB / "effects.yaml", "effects", KB)
    assert problems == []


@pytest.mark.parametrize("name", ["absences.yaml", "claims/field-notes.yaml"])
def test_a_duplicate_key_is_refused_naming_file_line_and_key(tmp_path, name):
    copy = _kb_copy(tmp_path)
    target = copy / name
    lines = target.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, ln in enumerate(lines) if ln.startswith("version:"))
    lines.insert(at + 1, "version: 1\n")  # the same key twice: YAML would keep the last one silently
    target.write_text("".join(lines), encoding="utf-8")
    result = cli("check-kb", "--kb", copy)
    assert result.exit_code == 2
    m = _one_problem(result.stderr, target)
    assert (int(m["line"]), m["field"]) == (at + 2, "version"), m.group(0)
    assert f"duplicate key 'version' (first at line {at + 1})" in m["message"], m.group(0)
    from contract_helpers import init_repo, ledger_files
    repo = tmp_path / "repo"
    init_repo(repo, ledger_files())
    out = tmp_path / "out"
    kb_mod.load.cache_clear()
    result = cli("audit", repo, "--kb", copy, "--out", out, "-q")
    assert result.exit_code == 2, result.stderr
    assert result.stderr == f"auditor: error: {m.group(0)}\n" and not out.exists()


def test_a_duplicate_key_deep_inside_names_its_path(tmp_path):
    copy = _kb_copy(tmp_path)
    target = copy / "absences.yaml"
    lines = target.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, ln in enumerate(lines) if re.match(r"^\s+title: No scheduling", ln))
    lines.insert(at + 1, lines[at])
    target.write_text("".join(lines), encoding="utf-8")
    result = cli("check-kb", "--kb", copy)
    m = _one_problem(result.stderr, target)
    probes = [p["id"] for p in yaml.safe_load((KB / "absences.yaml").read_text(encoding="utf-8"))["probes"]]
    assert (int(m["line"]), m["field"]) == (at + 2, f"probes.{probes.index('no-scheduling')}.title"), m.group(0)
