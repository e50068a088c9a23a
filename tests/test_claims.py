"""Claims registry: validation errors, quote finding per channel, stale claims, verdicts from kb rules."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from auditor.cli import main

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("regenerate", ROOT / "reports" / "regenerate.py")
regenerate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regenerate)


@pytest.fixture(scope="module")
def field_notes(tmp_path_factory) -> dict:
    repo = tmp_path_factory.mktemp("repo") / "field-notes"
    regenerate.fixture_repo(ROOT / "fixtures" / "field-notes", repo)
    out = tmp_path_factory.mktemp("out")
    result = CliRunner().invoke(main, ["audit", str(repo), "--out", str(out), "--format", "json", "-q"])
    assert result.exit_code == 0, result.output
    return json.loads((out / "audit.json").read_text(encoding="utf-8"))


def _claims(audit: dict) -> dict[str, dict]:
    return {c["id"]: c for c in audit["claims"]}


def test_one_instance_per_channel_with_computed_anchors(field_notes):
    claims = _claims(field_notes)
    assert {"CLM:grow-plan@readme:README.md", "CLM:grow-plan@tool-description:record_observation"} <= set(claims)
    readme = claims["CLM:grow-plan@readme:README.md"]
    lines = (ROOT / "fixtures/field-notes/README.md").read_text().splitlines()
    a = readme["anchors"][0]
    assert "Grow the plan when the work turns out longer than expected" in lines[a["start_line"] - 1]
    assert readme["section"] == "Features"
    assert readme["consumer"].startswith("human operator")
    assert claims["CLM:grow-plan@tool-description:record_observation"]["consumer"].startswith("host LLM")


def test_verdicts_follow_the_kb_rules(field_notes):
    claims = _claims(field_notes)
    assert claims["CLM:grow-plan@readme:README.md"]["verdict"] == "supported"  # a raise-only clamp, claim says "grow"
    assert any(r.startswith("RTE:mutate:") for r in claims["CLM:grow-plan@readme:README.md"]["routes"])
    trail = claims["CLM:visible-trail@tool-description:record_observation"]
    assert trail["verdict"] == "partial" and "never read back" in trail["mismatch"]
    assert "ABS:state-content-reads:content-never-read-back" in trail["routes"]
    assert claims["CLM:visible-trail@manifest:package.json"]["verdict"] == "partial"
    name = claims["CLM:tool-name@readme:README.md"]
    assert name["verdict"] == "contradicted" and "'record_observation'" in name["mismatch"]
    assert any(r.startswith("RTE:fallback:") for r in name["routes"])
    assert claims["CLM:group-topics@readme:README.md"]["verdict"] == "partial"


def test_stale_claim_is_reported_not_a_crash(field_notes):
    stale = _claims(field_notes)["CLM:exports-markdown@stale"]
    assert stale["verdict"] == "stale"
    a = stale["anchors"][0]
    assert a["path"] == "kb/claims/field-notes.yaml"
    assert "Exports the trail as Markdown" in (ROOT / a["path"]).read_text().splitlines()[a["start_line"] - 1]


def test_quotes_in_html_comments_are_not_claims(field_notes):
    name = _claims(field_notes)["CLM:tool-name@readme:README.md"]
    line = (ROOT / "fixtures/field-notes/README.md").read_text().splitlines()[name["anchors"][0]["start_line"] - 1]
    assert line.startswith("### ")


def test_unregistered_candidates_exclude_registered_lines(field_notes):
    texts = {c["text"] for c in field_notes["claim_candidates"]}
    assert "Record numbered observations as you go" in texts
    assert "Grow the plan when the work turns out longer than expected" not in texts


BAD_REGISTRY = """version: 1
target: broken
applies_to:
  packages: [x]
claims:
  - id: ok-claim
    quotes: ["Something"]
    operations: [generate content]
  - id: bad-claim
    quotes: ["Something else"]
    operations: [fly to the moon]
    colour: blue
"""


def _bad_kb(tmp_path: Path) -> Path:
    kb = tmp_path / "kb"
    shutil.copytree(ROOT / "kb", kb)
    (kb / "claims" / "broken.yaml").write_text(BAD_REGISTRY, encoding="utf-8")
    return kb


def test_check_kb_reports_each_registry_problem_with_file_line_field(tmp_path):
    result = CliRunner().invoke(main, ["check-kb", "--kb", str(_bad_kb(tmp_path))])
    assert result.exit_code == 2
    lines = [ln for ln in result.output.splitlines() if "broken.yaml" in ln]
    assert any(ln.endswith(":12: claims.1.colour: unknown key 'colour'") or ":12: claims.1.colour:" in ln for ln in lines), lines
    assert any(":11: claims.1.operations.0:" in ln and "fly to the moon" in ln for ln in lines), lines
    assert len(lines) == 2
    assert "Traceback" not in result.output


def test_audit_with_a_malformed_registry_fails_cleanly(tmp_path):
    repo = tmp_path / "repo"
    regenerate.fixture_repo(ROOT / "fixtures" / "field-notes", repo)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["audit", str(repo), "--out", str(out), "--kb", str(_bad_kb(tmp_path))])
    assert result.exit_code == 2
    errors = [ln for ln in result.output.splitlines() if ln.startswith("auditor: error:")]
    assert len(errors) == 1 and "broken.yaml:" in errors[0]
    assert not out.exists() or not any(out.iterdir())


def _channel(kind: str, data: bytes):
    from auditor.analyse.claims import Channel

    return Channel(name=f"{kind}:x", kind=kind, path="src/x.ts", data=data, start=0, end=len(data), sections=())


@pytest.mark.parametrize("source", [
    b'const d = "Keeps notes.\\nDon\'t store secrets in them.";\n',
    b"const d = 'Keeps notes. Don\\'t store ' +\n  'secrets in them.';\n",
    b'const d = `Keeps notes.\n  Don\'t store secrets in them.`;\n',
    b'const d = ["Keeps notes.", "Don\'t store", "secrets in them."].join("\\n");\n',
])
def test_a_quote_is_found_across_escapes_and_concatenated_literals(source):
    from auditor.analyse.claims import find

    found = find(_channel("tool-description", source), "Don't store secrets in them.")
    if b".join(" in source:  # array items joined at run time: separate literals, not one text in the source
        assert found == []
    else:
        line = lambda word: source.count(b"\n", 0, source.index(word)) + 1  # noqa: E731
        assert [(a.start_line, a.end_line) for a in found] == [(line(b"Don"), line(b"them"))]


def test_a_readme_quote_needs_the_words_in_order_with_only_white_space_between():
    from auditor.analyse.claims import find

    readme = _channel("readme", b"# x\n\nDon't store\nsecrets in them.\n\nDon't store ' + ' secrets in them.\n")
    assert [(a.start_line, a.end_line) for a in find(readme, "Don't store secrets in them.")] == [(3, 4)]
