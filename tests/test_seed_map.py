"""The committed baseline audit covers every record of the manual audit in shared/seeds/, at its lines."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
AUDIT = ROOT / "reports" / "sequentialthinking-2ecb382a" / "audit.json"
SUBTREE = "src/sequentialthinking/"


def _records() -> dict[str, dict]:
    doc = json.loads(AUDIT.read_text(encoding="utf-8"))
    return {r["id"]: r for key, value in doc.items() if isinstance(value, list) for r in value
            if isinstance(r, dict) and "id" in r}


def test_every_seed_record_is_computed_at_the_seed_lines():
    records = _records()
    seed_map = yaml.safe_load((ROOT / "tests" / "baseline" / "seed-map.yaml").read_text(encoding="utf-8"))
    problems = []
    for seed_id, entry in seed_map.items():
        for rid in [entry["id"], *entry.get("also", [])]:
            if rid not in records:
                problems.append(f"{seed_id}: no record {rid}")
        rec = records.get(entry["id"])
        if rec is None:
            continue
        if "status" in entry and rec.get("status") != entry["status"]:
            problems.append(f"{seed_id}: {entry['id']} status {rec.get('status')!r}, seed says {entry['status']!r}")
        for span in entry["seed"]:
            path, lines = span.rsplit(":", 1)
            start, end = (int(x) for x in lines.split("-"))
            full = SUBTREE + path
            if not any(a["path"] == full and a["start_line"] <= end and start <= a["end_line"] for a in rec["anchors"]):
                problems.append(f"{seed_id}: seed span {span} overlaps no anchor of {entry['id']}: "
                                + ", ".join(f"{a['path']}:{a['start_line']}-{a['end_line']}" for a in rec["anchors"]))
    assert not problems, "\n".join(problems)


def test_committed_baseline_is_the_pinned_revision():
    doc = json.loads(AUDIT.read_text(encoding="utf-8"))
    assert doc["target"]["commit"] == "2ecb382a02d7921511180dfbadcef24eb66a052f"
    assert doc["target"]["subtree"] == "src/sequentialthinking"
