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


@pytest.fixture(scope="module")
def labels(run):
    """Every label file, loaded once for the module (each split's test reads them all)."""
    return run.load_labels(None)


def test_every_label_loads_pinned_and_well_formed(labels):
    labs = labels
    seen = set()
    for lab in labs:
        name, _, version = lab["npm"].rpartition("@")
        assert name and re.fullmatch(r"\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?", version), lab["slug"]  # an exact version, never a tag
        assert name not in seen, lab["slug"]  # one label per package
        seen.add(name)
        assert not name.startswith("@modelcontextprotocol/"), lab["slug"]
        assert lab["checked"] in ("code", "live"), lab["slug"]
        assert lab["shape"] and lab["how"], lab["slug"]
        names = [t["name"] for t in lab["tools"]]
        assert names and len(names) == len(set(names)), lab["slug"]
        assert not set(names) & set(lab.get("dispatch_only") or []), lab["slug"]


@pytest.mark.parametrize("split, least", [("holdout2", 8), ("holdout3", 10), ("holdout4", 10), ("holdout5", 10),
                                          ("holdout6", 8), ("holdout7", 8), ("holdout8", 8), ("holdout9", 18), ("holdout10", 18), ("holdout11", 12), ("holdout12", 12),
                                          ("holdout13", 12), ("holdout14", 12),
                                          ("holdout15", 12), ("holdout16", 12), ("holdout17", 12), ("holdout18", 12),
                                          ("holdout19", 12), ("holdout20", 12), ("holdout21", 12),
                                          ("holdout22", 12), ("holdout23", 12), ("holdout24", 12), ("holdout25", 12), ("holdout26", 12), ("holdout27", 12), ("holdout28", 12), ("holdout29", 11), ("holdout30", 12), ("holdout31", 12), ("holdout32", 12), ("holdout33", 12), ("holdout34", 12), ("holdout35", 12), ("holdout36", 12), ("holdout37", 11), ("holdout38", 12), ("holdout39", 12), ("holdout40", 7), ("holdout41", 14), ("holdout42", 8), ("holdout43", 7), ("holdout44", 8), ("holdout45", 8), ("holdout46", 8), ("holdout47", 6), ("holdout48", 7), ("holdout49", 8), ("holdout50", 8), ("holdout51", 8), ("holdout52", 8), ("holdout53", 7), ("holdout54", 8), ("holdout55", 8), ("holdout56", 7), ("holdout57", 5), ("holdout58", 5), ("holdout59", 6), ("holdout60", 6), ("holdout61", 6), ("holdout62", 6), ("holdout63", 4), ("holdout64", 4), ("holdout65", 4), ("holdout66", 3), ("holdout67", 6), ("holdout68", 6), ("holdout69", 6), ("holdout70", 6), ("holdout71", 6), ("holdout72", 3), ("holdout73", 5), ("holdout74", 3), ("holdout75", 6), ("holdout76", 4), ("holdout77", 3), ("holdout78", 5), ("holdout79", 6), ("holdout80", 3), ("holdout81", 3), ("holdout82", 3), ("holdout83", 3), ("holdout84", 3), ("holdout85", 3), ("holdout86", 2), ("holdout87", 3), ("holdout88", 3), ("holdout89", 3), ("holdout90", 3), ("holdout91", 2), ("holdout92", 3), ("holdout93", 3), ("holdout94", 3), ("holdout95", 3), ("holdout96", 3), ("holdout97", 3), ("holdout98", 3), ("holdout99", 3), ("holdout100", 3), ("holdout101", 3), ("holdout102", 3), ("holdout103", 3), ("holdout104", 3), ("holdout105", 3), ("holdout106", 3), ("holdout107", 3), ("holdout108", 3), ("holdout109", 3), ("holdout110", 3), ("holdout111", 3), ("holdout112", 3), ("holdout113", 3), ("holdout114", 3), ("holdout115", 3), ("holdout116", 3), ("holdout117", 3), ("holdout118", 3), ("holdout119", 3), ("holdout120", 3), ("holdout121", 2), ("holdout122", 2), ("holdout123", 3), ("holdout124", 3), ("holdout125", 3), ("holdout126", 3), ("holdout127", 3), ("holdout128", 3), ("holdout129", 2), ("holdout130", 2), ("holdout131", 3), ("holdout132", 3), ("holdout133", 2), ("holdout134", 3), ("holdout135", 3), ("holdout136", 3), ("holdout137", 1), ("holdout138", 3), ("holdout139", 2), ("holdout140", 3), ("holdout141", 3), ("holdout142", 3), ("holdout143", 3), ("holdout144", 3), ("holdout145", 3), ("holdout146", 3), ("holdout147", 3), ("holdout148", 3), ("holdout149", 3), ("holdout150", 3), ("holdout151", 3), ("holdout152", 2), ("holdout153", 2), ("holdout154", 1), ("holdout156", 3), ("holdout157", 3), ("holdout158", 2), ("holdout159", 2), ("holdout160", 3), ("holdout161", 3), ("holdout162", 3), ("holdout163", 3), ("holdout164", 1), ("holdout165", 1), ("holdout166", 3), ("holdout167", 3), ("holdout168", 3), ("holdout169", 3), ("holdout170", 1), ("holdout171", 3), ("holdout172", 3), ("holdout173", 3), ("holdout174", 3), ("holdout175", 3), ("holdout176", 3), ("holdout177", 3), ("holdout178", 3), ("holdout179", 3), ("holdout180", 3), ("holdout181", 3), ("holdout182", 3), ("holdout183", 3), ("holdout184", 3), ("holdout185", 3), ("holdout187", 3), ("holdout188", 3), ("holdout189", 2), ("holdout190", 3), ("holdout191", 3), ("holdout192", 3), ("holdout193", 3), ("holdout194", 3), ("holdout195", 3), ("holdout196", 3), ("holdout197", 3), ("holdout198", 3), ("holdout199", 3), ("holdout200", 3), ("holdout201", 3), ("holdout202", 2), ("holdout203", 3), ("holdout204", 3), ("holdout205", 3), ("holdout206", 3), ("holdout207", 2), ("holdout208", 3), ("holdout209", 2), ("holdout210", 3), ("holdout211", 2), ("holdout212", 3), ("holdout213", 3), ("holdout214", 3), ("holdout215", 2), ("holdout216", 3), ("holdout217", 2), ("holdout218", 2), ("holdout219", 2), ("holdout220", 3), ("holdout221", 2), ("holdout222", 3), ("holdout223", 1), ("holdout224", 3), ("holdout225", 3), ("holdout226", 1), ("holdout227", 1), ("holdout228", 3), ("holdout229", 3), ("holdout230", 3), ("holdout231", 2), ("holdout232", 3), ("holdout233", 1), ("holdout234", 3), ("holdout235", 3), ("holdout236", 2), ("holdout237", 3), ("holdout238", 2), ("holdout239", 2), ("holdout240", 1), ("holdout241", 3), ("holdout242", 2), ("holdout243", 3), ("holdout244", 2)])
def test_each_later_holdout_is_its_own_split(labels, split, least):
    """Each later holdout holds servers no earlier split has (labelled before the auditor was run on them)."""
    labs = labels
    held = [lab for lab in labs if lab["split"] == split]
    assert len(held) >= least
    earlier = {lab["npm"].rpartition("@")[0] for lab in labs if lab["split"] != split}
    assert not earlier & {lab["npm"].rpartition("@")[0] for lab in held}


def test_unknown_split_is_refused(run, tmp_path, monkeypatch):
    (tmp_path / "x.yaml").write_text("npm: x@1.0.0\nsplit: holdout99999\ntools: [a]\n", encoding="utf-8")
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
