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
