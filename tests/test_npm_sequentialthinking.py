"""Integration: the published baseline server, fetched by the tool itself with `npm pack`.

Needs the npm registry (CI has it): marked `network`, never skipped. The CLI runs once per module.
"""

from __future__ import annotations

import json

import pytest

from contract_helpers import anchors_in, cli, records

pytestmark = pytest.mark.network

SPEC = "@modelcontextprotocol/server-sequential-thinking@0.6.2"
CLS = "SequentialThinkingServer"
MOD = "dist/index"


@pytest.fixture(scope="module")
def doc(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("npm") / "out"
    result = cli("audit", f"npm:{SPEC}", "--out", out, "--format", "json", "-q")
    assert result.exit_code == 0, (result.stderr, result.exception)
    return json.loads((out / "audit.json").read_text(encoding="utf-8"))


def by_id(doc: dict, category: str) -> dict[str, dict]:
    return {r["id"]: r for r in doc[category]}


def route(doc: dict, kind: str, where=lambda r: True) -> dict:
    """The one route of `kind` that satisfies `where` (matched on what it is, not on its exact id)."""
    found = [r for r in doc["routes"] if r["kind"] == kind and where(r)]
    assert len(found) == 1, (kind, [r["id"] for r in doc["routes"] if r["kind"] == kind])
    return found[0]


def in_id(*parts: str):
    return lambda r: all(p in r["id"] for p in parts)


def writes(container: str):
    return lambda r: f"OBJ:state:{MOD}#{CLS}.{container}" in r["endpoints"]


def test_target_is_pinned_by_integrity(doc):
    t = doc["target"]
    assert t["kind"] == "npm"
    assert t["requested"] == SPEC
    assert t["integrity"].startswith("sha512-")
    assert t["worktree_clean"] is None and t["commit_date"] is None
    assert {s["id"] for s in doc["sources"] if s["kind"] == "file"} >= {"SRC:dist/index.js", "SRC:package.json", "SRC:README.md"}
    cov = doc["coverage"]
    assert cov["gaps"] == [] and cov["complete"] is True and cov["entries"] == ["dist/index.js"]
    assert [(t["name"], t["status"], t["implementation"]) for t in cov["tools"]] == \
        [("sequentialthinking", "analysed", "SequentialThinkingServer.processThought")]


def test_every_anchor_points_into_a_registered_file(doc):
    lines = {s["anchors"][0]["path"]: s["lines"] for s in doc["sources"] if s["kind"] == "file"}
    for rec in records(doc):
        assert rec["anchors"] or rec["id"].startswith("ABS:"), rec["id"]
        for a in anchors_in(rec):
            assert a["path"] in lines, (rec["id"], a)
            assert 1 <= a["start_line"] <= a["end_line"] <= lines[a["path"]], (rec["id"], a)


def test_gate_route(doc):
    gate = route(doc, "gate", in_id(f"{CLS}.validateThoughtData"))
    assert gate["kind"] == "gate"
    assert {p["field"] for p in gate["predicates"]} == {"thought", "thoughtNumber", "totalThoughts", "nextThoughtNeeded"}
    assert all(p["message"] for p in gate["predicates"])


def test_unchecked_copy_route(doc):
    copy = route(doc, "unchecked-copy", in_id(f"{CLS}.validateThoughtData"))
    assert {f["field"] for f in copy["fields"]} == {
        "isRevision", "revisesThought", "branchFromThought", "branchId", "needsMoreThoughts"}


def test_raise_only_clamp(doc):
    mutate = route(doc, "mutate", in_id("totalThoughts"))
    assert mutate["kind"] == "mutate"
    assert mutate["form"] == "raise-only clamp"
    assert "thoughtNumber" in mutate["condition"] and "totalThoughts" in mutate["condition"]


def test_state_writes_unconditional_and_conditional_lazy(doc):
    history = route(doc, "state-write", writes("thoughtHistory"))
    assert history["condition"] is None and history["lazy_init"] is False
    assert "push" in history["operations"]
    branches = route(doc, "state-write", writes("branches"))
    assert branches["condition"] and "branchId" in branches["condition"]
    assert branches["lazy_init"] is True


def test_emit_stderr(doc):
    emit = route(doc, "emit-stderr", in_id(f"{CLS}.processThought"))
    assert emit["renderer"] == f"{CLS}.formatThought"


def test_respond_reads_only_metadata(doc):
    respond = route(doc, "respond", in_id(f"{CLS}.processThought"))
    assert {r["container"] for r in respond["reads"]} == {f"{CLS}.thoughtHistory", f"{CLS}.branches"}
    assert {r["kind"] for r in respond["reads"]} == {"metadata-read"}


def test_error_capture(doc):
    capture = route(doc, "error-capture", in_id(f"{CLS}.processThought"))
    assert capture["first_write_line"] < min(c["line"] for c in capture["throwing_after_write"])


def test_dispatch_fallback_launch_fatal_exit_build(doc):
    dispatch = route(doc, "dispatch", lambda r: r["tool"] == "sequentialthinking")
    assert dispatch["tool"] == "sequentialthinking" and dispatch["target"] == f"{CLS}.processThought"
    assert route(doc, "fallback")["kind"] == "fallback"
    assert route(doc, "launch", in_id("runServer"))["transport"] == "StdioServerTransport"
    assert route(doc, "fatal-exit", in_id("runServer"))["exit_code"] == 1
    build = route(doc, "build", in_id("package.json"))
    assert build["kind"] == "build" and build["function"] == "build/distribution"


@pytest.mark.parametrize("aid", [
    "ABS:effects:configuration-surface",
    "ABS:effects:external-effects",
    "ABS:state-content-reads:content-never-read-back",
    "ABS:unconsumed-fields:fields-without-consumer",
    "ABS:scheduling:no-scheduling",
    "ABS:tests:no-tests",
    "ABS:capabilities:undeclared-capabilities",
])
def test_absence_holds(doc, aid):
    absences = by_id(doc, "absences")
    assert aid in absences, sorted(absences)
    assert absences[aid]["status"] == "holds"
    assert absences[aid]["boundary"]["files"]


def test_absence_details(doc):
    absences = by_id(doc, "absences")
    assert "needsMoreThoughts" in absences["ABS:unconsumed-fields:fields-without-consumer"]["fields"]
    assert "nextThoughtNeeded" in absences["ABS:scheduling:no-scheduling"]["passthrough_fields"]
    assert absences["ABS:capabilities:undeclared-capabilities"]["declared"] == ["tools"]


@pytest.mark.parametrize("kind", [
    "false-diagnostic", "param-name-mismatch", "tool-name-mismatch", "unused-dependency", "write-before-throw",
    "unpinned-launch",
])
def test_finding_present(doc, kind):
    both = doc["findings"] + doc["advisories"]
    assert any(f["kind"] == kind for f in both), sorted({f["kind"] for f in both})


def test_findings_and_advisories_are_apart_by_the_level_of_their_kind(doc):
    from auditor import kb

    levels = {k: v["level"] for k, v in kb.load(kb.default_kb_dir(), "findings")["kinds"].items()}
    assert {levels[f["kind"]] for f in doc["findings"]} == {"finding"}
    assert {levels[f["kind"]] for f in doc["advisories"]} == {"advisory"}


def test_finding_details(doc):
    def of(kind: str) -> list[dict]:
        return [f for f in doc["findings"] + doc["advisories"] if f["kind"] == kind]

    assert [f["dependency"] for f in of("unused-dependency")] == ["yargs"]
    assert any("sequential_thinking" in f["summary"] and "sequentialthinking" in f["summary"] for f in of("tool-name-mismatch"))
    (params,) = of("param-name-mismatch")
    assert params["tool"] == "sequentialthinking"
    assert params["names"]["next_thought_needed"] == "nextThoughtNeeded"
    assert any("!data.thought" in f["summary"] for f in of("false-diagnostic"))
    assert any("npx" in f["summary"] for f in of("unpinned-launch"))
    (wbt,) = of("write-before-throw")
    assert {c["call"] for c in wbt["calls"]} >= {"JSON.stringify"}
