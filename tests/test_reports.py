"""The committed reports under reports/ are what a fresh run produces (golden files for every template)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.network  # one of the report targets is the published npm package of the baseline
def test_committed_reports_match_a_fresh_run():
    proc = subprocess.run([sys.executable, str(ROOT / "reports" / "regenerate.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, (
        "reports/ differ from a fresh run; if the change is intended, run `python reports/regenerate.py` "
        "and review the diff:\n" + proc.stderr)


def test_every_fixture_has_its_reports():
    fixtures = {p.name for p in (ROOT / "fixtures").iterdir() if p.is_dir()}
    for name in fixtures:
        for report in ("audit.json", "evidence-packet.md", "runtime-baseline.md", "epistemic-ledger.md"):
            assert (ROOT / "reports" / name / report).is_file(), f"reports/{name}/{report} is missing"


@pytest.mark.parametrize("name", ["sequentialthinking-2ecb382a", "unit-convert", "word-crate"])
def test_audit_json_carries_the_baseline_and_the_conclusion_the_markdown_shows(name):
    """audit.json is the machine contract: record 5 (loops, checks, surfaces) and block 6 (the bounded conclusion,
    the amendments) are in it, as the Markdown renders them."""
    import html
    import json

    audit = json.loads((ROOT / "reports" / name / "audit.json").read_text(encoding="utf-8"))
    baseline = (ROOT / "reports" / name / "runtime-baseline.md").read_text(encoding="utf-8")
    ledger = (ROOT / "reports" / name / "epistemic-ledger.md").read_text(encoding="utf-8")
    loops = [lp["name"] for lp in audit["baseline"]["loops"]]
    assert loops and all(lp["fields"] for lp in audit["baseline"]["loops"])
    headings = [html.unescape(ln.split(": ", 1)[1]) for ln in baseline.splitlines() if ln.startswith("### Loop ")]
    assert headings == loops
    assert audit["conclusion"] and all(f"**{s['head']}.**" in ledger for s in audit["conclusion"])
    ids = {r["id"] for key in ("routes", "objects", "findings", "advisories", "claims") for r in audit[key]}
    for s in audit["amendments"]:
        assert s["head"] in ids and set(s["records"]) <= ids | {"OBJ:readme:README.md"}
