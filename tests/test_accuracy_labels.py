"""The accuracy corpus of bench/accuracy: every label file loads, is pinned and well formed, and each split is totalled."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

RUN = Path(__file__).resolve().parent.parent / "bench" / "accuracy" / "run.py"


@pytest.fixture(scope="module")
def run():
    spec = importlib.util.spec_from_file_location("accuracy_run", RUN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_label_loads_pinned_and_well_formed(run):
    labs = run.load_labels(None)
    seen = set()
    for lab in labs:
        name, _, version = lab["npm"].rpartition("@")
        assert name and re.fullmatch(r"\d+\.\d+\.\d+", version), lab["slug"]  # an exact version, never a tag
        assert name not in seen, lab["slug"]  # one label per package
        seen.add(name)
        assert not name.startswith("@modelcontextprotocol/"), lab["slug"]
        assert lab["checked"] in ("code", "live"), lab["slug"]
        assert lab["shape"] and lab["how"], lab["slug"]
        names = [t["name"] for t in lab["tools"]]
        assert names and len(names) == len(set(names)), lab["slug"]
        assert not set(names) & set(lab.get("dispatch_only") or []), lab["slug"]


def test_second_holdout_is_its_own_split_of_at_least_eight(run):
    labs = run.load_labels(None)
    holdout2 = [lab for lab in labs if lab["split"] == "holdout2"]
    assert len(holdout2) >= 8
    earlier = {lab["npm"].rpartition("@")[0] for lab in labs if lab["split"] != "holdout2"}
    assert not earlier & {lab["npm"].rpartition("@")[0] for lab in holdout2}


def test_third_holdout_is_its_own_split_of_at_least_ten(run):
    labs = run.load_labels(None)
    holdout3 = [lab for lab in labs if lab["split"] == "holdout3"]
    assert len(holdout3) >= 10
    earlier = {lab["npm"].rpartition("@")[0] for lab in labs if lab["split"] != "holdout3"}
    assert not earlier & {lab["npm"].rpartition("@")[0] for lab in holdout3}


def test_fourth_holdout_is_its_own_split_of_at_least_ten(run):
    labs = run.load_labels(None)
    holdout4 = [lab for lab in labs if lab["split"] == "holdout4"]
    assert len(holdout4) >= 10
    earlier = {lab["npm"].rpartition("@")[0] for lab in labs if lab["split"] != "holdout4"}
    assert not earlier & {lab["npm"].rpartition("@")[0] for lab in holdout4}


def test_fifth_holdout_is_its_own_split_of_at_least_ten(run):
    labs = run.load_labels(None)
    holdout5 = [lab for lab in labs if lab["split"] == "holdout5"]
    assert len(holdout5) >= 10
    earlier = {lab["npm"].rpartition("@")[0] for lab in labs if lab["split"] != "holdout5"}
    assert not earlier & {lab["npm"].rpartition("@")[0] for lab in holdout5}


def test_sixth_holdout_is_its_own_split_of_at_least_eight(run):
    labs = run.load_labels(None)
    holdout6 = [lab for lab in labs if lab["split"] == "holdout6"]
    assert len(holdout6) >= 8
    earlier = {lab["npm"].rpartition("@")[0] for lab in labs if lab["split"] != "holdout6"}
    assert not earlier & {lab["npm"].rpartition("@")[0] for lab in holdout6}


def test_unknown_split_is_refused(run, tmp_path, monkeypatch):
    (tmp_path / "x.yaml").write_text("npm: x@1.0.0\nsplit: holdout9\ntools: [a]\n", encoding="utf-8")
    monkeypatch.setattr(run, "LABELS", tmp_path)
    with pytest.raises(SystemExit, match="split must be one of"):
        run.load_labels(None)


def _row(run, split, expected, found):
    lab = {"slug": f"s-{split}", "npm": f"s-{split}@1.0.0", "split": split, "tools": [{"name": n} for n in expected],
           "findings": {}, "claims": {}}
    audit = {"coverage": {"tools": [{"name": n} for n in found], "complete": True}, "findings": [], "claims": []}
    return run.score(lab, {"audit": audit, "wall": 0.0})


def test_each_split_is_totalled_apart_and_in_all(run):
    rows = [_row(run, "dev", ["a", "b"], ["a", "b"]), _row(run, "holdout2", ["c", "d"], ["c", "x"]),
            _row(run, "holdout3", ["e", "f", "g"], ["e"])]
    summary = run.summarize(rows)
    assert list(summary) == ["dev", "holdout2", "holdout3", "all"]
    assert summary["holdout2"]["tool_recall"] == 0.5 and summary["holdout2"]["invented"] == 1
    assert summary["holdout3"]["tools_found"] == 1 and summary["holdout3"]["tools_expected"] == 3
    assert summary["dev"]["tool_recall"] == 1.0
    assert summary["all"]["tools_found"] == 4 and summary["all"]["tools_expected"] == 7
