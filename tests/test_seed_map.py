"""Every record of the manual audit in shared/seeds/ is computed, at its lines: in the committed baseline
audit, and in a fresh audit of the published package of the same revision (which CI can fetch)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from contract_helpers import audit

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "tests" / "baseline"
AUDIT = ROOT / "reports" / "sequentialthinking-2ecb382a" / "audit.json"
SUBTREE = "src/sequentialthinking/"
PACKAGE = "npm:@modelcontextprotocol/server-sequential-thinking@0.6.2"


def _records(doc: dict) -> dict[str, dict]:
    return {r["id"]: r for key, value in doc.items() if isinstance(value, list) for r in value
            if isinstance(r, dict) and "id" in r}


def _problems(records: dict[str, dict], seed_map: dict, spans_key: str, prefix: str) -> list[str]:
    """What of the seed map the records lack: a record, its status, an anchor overlapping each span."""
    problems = []
    for seed_id, entry in seed_map.items():
        if "id" not in entry:  # nothing of it can exist in this target (see seed-map-npm.yaml)
            continue
        for rid in [entry["id"], *entry.get("also", [])]:
            if rid not in records:
                problems.append(f"{seed_id}: no record {rid}")
        rec = records.get(entry["id"])
        if rec is None:
            continue
        if "status" in entry and rec.get("status") != entry["status"]:
            problems.append(f"{seed_id}: {entry['id']} status {rec.get('status')!r}, seed says {entry['status']!r}")
        for span in entry[spans_key]:
            path, lines = span.rsplit(":", 1)
            start, end = (int(x) for x in lines.split("-"))
            full = prefix + path
            if not any(a["path"] == full and a["start_line"] <= end and start <= a["end_line"] for a in rec["anchors"]):
                problems.append(f"{seed_id}: seed span {span} overlaps no anchor of {entry['id']}: "
                                + ", ".join(f"{a['path']}:{a['start_line']}-{a['end_line']}" for a in rec["anchors"]))
    return problems


def _load(name: str) -> dict:
    return yaml.safe_load((BASELINE / name).read_text(encoding="utf-8"))


def test_every_seed_record_is_computed_at_the_seed_lines():
    records = _records(json.loads(AUDIT.read_text(encoding="utf-8")))
    problems = _problems(records, _load("seed-map.yaml"), "seed", SUBTREE)
    assert not problems, "\n".join(problems)


def test_committed_baseline_is_the_pinned_revision():
    doc = json.loads(AUDIT.read_text(encoding="utf-8"))
    assert doc["target"]["commit"] == "2ecb382a02d7921511180dfbadcef24eb66a052f"
    assert doc["target"]["subtree"] == "src/sequentialthinking"


def test_the_npm_seed_map_carries_every_seed_entry():
    """seed-map-npm.yaml is derived from seed-map.yaml: same entries, and each seed span either carried
    over to the package or named as TypeScript-only."""
    seed, npm = _load("seed-map.yaml"), _load("seed-map-npm.yaml")
    assert list(npm) == list(seed)
    for seed_id, entry in seed.items():
        carried = npm[seed_id]
        assert len(carried.get("npm", [])) + len(carried["ts_only"]) >= len(entry["seed"]), seed_id
        assert carried.get("status") == entry.get("status"), seed_id
    assert sum("id" in e for e in npm.values()) >= 60  # the TypeScript-only records are few


@pytest.mark.network
def test_a_fresh_audit_of_the_published_package_computes_the_seed_records(tmp_path):
    """What CI can check without the servers repository: the package 0.6.2 is the tsc output of the
    pinned revision, and a fresh audit of it has the seed's records at the carried-over lines."""
    doc = audit(PACKAGE, tmp_path / "out")
    problems = _problems(_records(doc), _load("seed-map-npm.yaml"), "npm", "")
    assert not problems, "\n".join(problems)
