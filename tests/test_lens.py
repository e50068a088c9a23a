"""The lens requirements of the reports: materiality of each loop, computed surfaces, voice, ledger without repeats."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from auditor.cli import main

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("regenerate", ROOT / "reports" / "regenerate.py")
regenerate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regenerate)


def _kb_copy(tmp: Path, edit) -> Path:
    """A copy of kb/ with EDIT(name -> dict) applied to its YAML files (each edited file is rewritten)."""
    kb = tmp / "kb"
    shutil.copytree(ROOT / "kb", kb)
    for name, change in edit.items():
        path = kb / f"{name}.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return kb


def _audit(tmp: Path, fixture: str, *extra: str) -> dict[str, str]:
    repo = tmp / "repo" / fixture
    if not repo.exists():
        regenerate.fixture_repo(ROOT / "fixtures" / fixture, repo)
    out = tmp / ("out-" + "-".join(e.replace("/", "_") for e in extra) if extra else "out")
    result = CliRunner().invoke(main, ["audit", str(repo), "--out", str(out), "-q", *extra])
    assert result.exit_code == 0, result.output
    return {p.name: p.read_text(encoding="utf-8") for p in out.iterdir() if p.suffix in {".md", ".json"}}


def _section(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end, text.index(start))]


@pytest.fixture(scope="module")
def field_notes(tmp_path_factory) -> dict[str, str]:
    return _audit(tmp_path_factory.mktemp("lens"), "field-notes")


def test_each_loop_states_what_its_gaps_mean_for_a_user(field_notes):
    baseline = field_notes["runtime-baseline.md"]
    kinds = yaml.safe_load((ROOT / "kb" / "findings.yaml").read_text(encoding="utf-8"))["kinds"]
    call = _section(baseline, "### Loop C: tool call", "## 5.3")
    lifecycle = _section(baseline, "### Loop A: server lifecycle", "### Loop B")
    # a call finding of the tool is in its call loop, with the impact kb/findings.yaml gives its kind
    assert "Materiality, what this loop's gaps mean for a user:" in call
    assert "`FND:schema-unenforced:record_observation/step`" in call
    assert kinds["schema-unenforced"]["impact"].split(":")[0] in call
    assert "FND:schema-unenforced" not in lifecycle
    # a README claim the code contradicts bears on the operator's install decision, with the verdict's impact
    assert "`CLM:tool-name@readme:README.md`" in lifecycle and "relies on something its code rules out" in lifecycle
    assert "`FND:tool-name-mismatch:README.md/record_note`" in lifecycle
    # what the loop's own records mean: nothing schedules the next call, and what is stored never comes back
    assert "- **next-step owner** (`ABS:scheduling:no-scheduling`): nothing in the server continues" in call
    assert "- **retention** (`ABS:state-content-reads:content-never-read-back`, `RTE:state-write:" in call


def test_materiality_is_read_from_the_kb(tmp_path):
    def findings(data):
        data["kinds"]["schema-unenforced"]["impact"] = "IMPACT-MARKER for the user"
        data["kinds"]["schema-unenforced"]["loop"] = "lifecycle"

    def verdicts(data):
        data["impacts"]["contradicted"] = "VERDICT-MARKER {subject}"
    def method(data):
        data["loop_impacts"][0]["impact"] = "OWN-MARKER"
        data["loop_impacts"][1]["routes"] = ["no-such-route-kind"]
    kb = _kb_copy(tmp_path, {"findings": findings, "verdicts": verdicts, "method": method})
    baseline = _audit(tmp_path, "field-notes", "--kb", str(kb))["runtime-baseline.md"]
    lifecycle = _section(baseline, "### Loop A: server lifecycle", "### Loop B")
    assert "IMPACT-MARKER for the user" in lifecycle
    assert "VERDICT-MARKER the server to provide a tool" in lifecycle
    call = _section(baseline, "### Loop C", "## 5.3")
    assert "IMPACT-MARKER" not in call and "OWN-MARKER" in call and "**retention**" not in call


def test_governance_surface_names_the_checks_and_the_search_boundary(field_notes, tmp_path):
    row = next(ln for ln in field_notes["runtime-baseline.md"].splitlines() if ln.startswith("| Permissions / governance"))
    assert "RTE:gate:index#FieldNotesServer.checkObservation (falsy-guard, type-check)" in row
    assert "argument shape" not in row  # no fixed sentence: the forms are the gate's own
    assert "ABS:names:no-caller-authorization: holds" in row and "was not searched" not in row

    def method(data):
        data["surface_searches"]["authorization"]["probes"] = []
    kb = _kb_copy(tmp_path, {"method": method})
    row = next(ln for ln in _audit(tmp_path, "field-notes", "--kb", str(kb))["runtime-baseline.md"].splitlines()
               if ln.startswith("| Permissions / governance"))
    assert "looks for an authorization step" in row and "was not searched" in row and "ABS:names" not in row


@pytest.fixture(scope="module")
def puzzle_coach(tmp_path_factory) -> dict[str, str]:
    return _audit(tmp_path_factory.mktemp("lens"), "puzzle-coach")


def _claim(reports: dict[str, str], cid: str) -> dict:
    import json
    return next(c for c in json.loads(reports["audit.json"])["claims"] if c["id"] == cid)


def test_a_feature_list_inside_text_addressed_to_the_model_is_ambiguous(puzzle_coach):
    c = _claim(puzzle_coach, "CLM:suggests-move@tool-description:coach_step")
    assert c["voice_kind"] == "ambiguous" and c["readings"] == ["server", "model", "pair"]
    assert c["voice"].startswith("ambiguous between server, model and pair")
    # the verdict says which reading it judged, and which it did not
    assert c["reading"] == "server" and c["summary"].endswith(": unsupported (server reading)")
    assert "judged under the server reading" in c["reading_note"] and "model, pair" in c["reading_note"]
    assert _claim(puzzle_coach, "CLM:checks-moves@tool-description:coach_step")["voice_kind"] == "ambiguous"


def test_voice_follows_subject_and_channel_not_the_words_of_one_server(puzzle_coach):
    grant = _claim(puzzle_coach, "CLM:revisit-steps@tool-description:coach_step")
    assert grant["voice_kind"] == "addressee" and grant["reading"] == "pair" and grant["voice"].startswith("the model")
    assert _claim(puzzle_coach, "CLM:keeps-steps@tool-description:coach_step")["voice_kind"] == "server"  # "This tool ..."
    # a list in a description that never says "you" speaks for the server; so does the README's own list
    assert _claim(puzzle_coach, "CLM:counts-steps@tool-description:coach_stats")["voice_kind"] == "server"
    readme = _claim(puzzle_coach, "CLM:suggests-move@readme:README.md")
    assert readme["voice_kind"] == "server" and readme["reading"] == "server"
    # the structured README statements get a computed voice too
    assert _claim(puzzle_coach, "CLM:readme-tool:coach_step@readme:README.md")["voice_kind"] == "server"
    packet = puzzle_coach["evidence-packet.md"]
    assert "ambiguous between server, model and pair" in packet
    ledger = puzzle_coach["epistemic-ledger.md"]
    row = next(ln for ln in ledger.splitlines() if ln.startswith("| `CLM:suggests-move@tool-description:coach_step`") and "judged" in ln)
    assert "**unsupported** | the text does not say who does it: judged under the server reading" in row


def test_the_voice_rules_are_kb_data(tmp_path):
    def doctrine(data):
        data["voice"]["ambiguous_channels"] = []
    kb = _kb_copy(tmp_path, {"doctrine": doctrine})
    c = _claim(_audit(tmp_path, "puzzle-coach", "--kb", str(kb)), "CLM:suggests-move@tool-description:coach_step")
    assert c["voice_kind"] == "server"


VERDICTS = ("supported", "partial", "unsupported", "contradicted", "out-of-boundary")


def test_bounded_conclusion_states_bounds_not_a_tally(field_notes, puzzle_coach):
    import re
    for reports in (field_notes, puzzle_coach):
        block = _section(reports["epistemic-ledger.md"], "## Block 6", "## Amendments")
        assert not re.search(r"\b(" + "|".join(VERDICTS) + r")\b\s*:\s*\d", block), block
        assert "**Claims.**" not in block and "Unsupported or contradicted" not in block
        assert "**Why these statements are bounded.**" in block and "evidence-packet.md" in block
    block = _section(puzzle_coach["epistemic-ledger.md"], "## Block 6", "## Amendments")
    # what the verdicts leave unjudged is named, claim by claim
    assert "the other readings of CLM:suggests-move@tool-description:coach_step" in block
    assert "the model's own share of CLM:revisit-steps@tool-description:coach_step, addressed to the model" in block


def _table_rows(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.startswith("| ") and not ln.startswith("| Field |") and not ln.startswith("| ---")]


@pytest.mark.parametrize("name", ["field_notes", "puzzle_coach"])
def test_ledger_repeats_no_block_of_the_evidence_packet(name, request):
    import json
    reports = request.getfixturevalue(name)
    ledger, packet = reports["epistemic-ledger.md"], reports["evidence-packet.md"]
    identity = {ln for ln in ledger.splitlines() if ln.startswith("| ")} & {ln for ln in packet.splitlines() if ln.startswith("| ")}
    identity = {ln for ln in identity if not ln.startswith("| `")}  # the run identity table opens both reports
    rows = [r for r in _table_rows(ledger) if r not in identity]
    assert rows and not set(rows) & set(packet.splitlines())
    audit = json.loads(reports["audit.json"])
    shown = 0
    for key in ("objects", "routes", "absences", "findings", "claims"):
        for r in audit[key]:
            for row in (ln for ln in rows if ln.startswith(f"| `{r['id']}` |")):
                shown += 1
                # the record is named by id; its summary, quote and anchors stay in the packet
                assert "`index.ts:" not in row and "README.md:" not in row, row
                if r.get("quote"):
                    assert f"| {r['quote']} |" not in row, row
    assert shown
    holding = [a["id"] for a in audit["absences"] if a["status"] == "holds"]
    section = _section(ledger, "### No relevant route found", "## Block 4")
    assert all(f"`{i}`" in section for i in holding) and "Searched:" not in section


def test_renderers_only_format_what_the_analysis_put_on_the_audit(tmp_path):
    from dataclasses import replace

    from auditor import audit as audit_mod
    from auditor import target
    from auditor.model import Baseline, Loop, Responsibility, Statement
    from auditor.report import markdown, views

    repo = tmp_path / "repo"
    regenerate.fixture_repo(ROOT / "fixtures" / "field-notes", repo)
    audit = audit_mod.run(target.open_git(str(repo), "HEAD"), ROOT / "kb")
    # the analysis is on the Audit, as frozen records
    assert isinstance(audit.baseline, Baseline) and audit.baseline.loops and audit.conclusion
    call = next(lp for lp in audit.baseline.loops if lp.kind == "call")
    assert call.tool == "record_observation" and any(s.head.startswith("schema-unenforced") for s in call.materiality)
    # a renderer shows what those records say, and computes nothing of its own
    made = Baseline(responsibilities=(Responsibility(name="R-NAME", inside="R-INSIDE", actual="R-ACTUAL"),), hub="HUB-TEXT",
                    loops=(Loop(kind="call", name="LOOP-NAME", fields=(Statement(head="F-HEAD", text="F-TEXT"),),
                                materiality=(Statement(head="M-HEAD", text="M-TEXT", records=("FND:x",)),)),),
                    anti_conflation=(Statement(head="A-RULE", text="A-TEXT"),), surfaces=(Statement(head="S-HEAD", text="S-TEXT"),))
    text = markdown.runtime_baseline(replace(audit, baseline=made))
    for word in ("R-NAME", "R-INSIDE", "R-ACTUAL", "HUB-TEXT", "LOOP-NAME", "F-TEXT", "M-TEXT", "A-TEXT", "S-TEXT"):
        assert word in text
    assert "Permissions / governance" not in text and "server lifecycle" not in text
    ledger = markdown.epistemic_ledger(replace(audit, conclusion=(Statement(head="C-HEAD", text="C-TEXT"),)))
    assert "- **C-HEAD.** C-TEXT" in ledger and "What it retains" not in ledger
    assert not any(hasattr(views, name) for name in ("_holds", "_abs", "_routes", "conclusion", "surfaces", "ANTI_CONFLATION"))


def test_the_advertisement_loop_reads_the_state_accesses_inside_its_handler():
    from auditor.analyse import runtime
    from auditor.model import Audit, Record, Target, span

    def rec(category, rid, kind, anchors, **attrs):
        return Record(category=category, id=rid, kind=kind, summary=rid, anchors=tuple(anchors), rule="test", attrs=attrs)
    lst = rec("route", "RTE:list:x#tools/list", "list", [span("x.ts", 10, 14)], static=True, tools=["a"])
    access = {"kind": "metadata-read", "how": "size", "function": "f", "anchor": {"path": "x.ts", "start_line": 12, "end_line": 12}}
    outside = {"kind": "write", "how": "set", "function": "g", "anchor": {"path": "x.ts", "start_line": 30, "end_line": 30}}
    tools = rec("object", "OBJ:state:x#tools", "state", [span("x.ts", 2)], name="tools", accesses=[access, outside])
    target = Target(kind="git", locator="x", revision="0" * 40, requested="HEAD", commit_date=None, worktree_clean=None,
                    subtree="", files=())
    audit = Audit(target=target, sources=(), components=(), objects=(tools,), routes=(lst,), absences=(), paths=(), findings=())
    field = next(f for f in runtime.advertisement_loops(audit)[0].fields if f.head == "State reads and writes")
    assert field.text == "reads or writes tools (size)"
    audit = Audit(target=target, sources=(), components=(), objects=(), routes=(lst,), absences=(), paths=(), findings=())
    field = next(f for f in runtime.advertisement_loops(audit)[0].fields if f.head == "State reads and writes")
    assert field.text.startswith("none: no state container is accessed inside the handler")


def test_each_call_loop_holds_the_records_of_its_own_tool(tmp_path):
    baseline = _audit(tmp_path, "bookmark-shelf")["runtime-baseline.md"]
    loops = {name: _section(baseline, f"tool call '{name}'", "\n### " if name != "save_bookmark" else "## 5.3")
             for name in ("list_bookmarks", "remove_bookmark", "save_bookmark")}
    assert "success result of `listBookmarks`" in loops["list_bookmarks"]
    assert "saveBookmark" not in loops["list_bookmarks"] and "removeBookmark" not in loops["list_bookmarks"]
    assert "gate RTE:gate:index#parseBookmark" in loops["save_bookmark"] and "parseBookmark" not in loops["remove_bookmark"]
    assert "effects outside the process: RTE:effect-fs-write:index#persist" in loops["save_bookmark"]
    assert "none of the effects outside the process" in loops["list_bookmarks"]


def test_materiality_of_a_call_loop_is_scoped_to_the_code_of_its_tool(puzzle_coach):
    baseline = puzzle_coach["runtime-baseline.md"]
    stats, step = _section(baseline, "tool call 'coach_stats'", "### Loop D"), _section(baseline, "tool call 'coach_step'", "## 5.3")
    assert "**retention**" in step and "**retention**" not in stats  # coach_stats stores nothing
    assert "**next-step owner**" in stats and "CLM:suggests-move@tool-description" not in stats


def test_a_finding_that_names_no_tool_bears_on_the_loop_whose_code_holds_it():
    from auditor.analyse import materiality
    from auditor.kb import load
    from auditor.model import Audit, Record, Target, span

    def rec(category, rid, kind, anchors, **attrs):
        return Record(category=category, id=rid, kind=kind, summary=rid, anchors=tuple(anchors), rule="test", attrs=attrs)
    target = Target(kind="git", locator="x", revision="0" * 40, requested="HEAD", commit_date=None, worktree_clean=None,
                    subtree="", files=())
    dispatches = (rec("route", "RTE:dispatch:x#a", "dispatch", [span("x.ts", 5)], tool="a"),
                  rec("route", "RTE:dispatch:x#b", "dispatch", [span("x.ts", 6)], tool="b"))
    wbt = rec("finding", "FND:write-before-throw:x#f", "write-before-throw", [span("x.ts", 21, 24)], function="f")
    audit = Audit(target=target, sources=(), components=(), objects=(), routes=dispatches, absences=(), paths=(), findings=(),
                  advisories=(wbt,))
    kbs = {name: load(ROOT / "kb", name) for name in ("method", "findings", "verdicts")}
    heads = lambda tool, spans: [s.head for s in materiality.bearing(audit, "call", tool, kbs, spans)]  # noqa: E731
    assert heads("a", (span("x.ts", 20, 30),)) == ["write-before-throw (advisory)"]
    assert heads("b", (span("x.ts", 40, 50),)) == []
    assert heads("b", None) == ["write-before-throw (advisory)"]  # a tool not traced: every call finding may bear on it


def test_a_tool_behind_an_exclusion_guard_keeps_the_code_after_the_guard(tmp_path):
    baseline = _audit(tmp_path, "unit-convert")["runtime-baseline.md"]
    call = _section(baseline, "tool call 'convert'", "## 5.3")
    assert "writes: write to `conversions` (push)" in call and "**retention**" in call


def test_no_conclusion_or_check_reads_a_missing_record_as_present():
    for path in sorted((ROOT / "reports").glob("*/epistemic-ledger.md")) + sorted((ROOT / "reports").glob("*/runtime-baseline.md")):
        text = path.read_text(encoding="utf-8")
        for phrase in ("routes are none", "through none", "none reshape", "none derive", "a content check exists", "none retain"):
            assert phrase not in text, f"{path}: {phrase}"


def test_a_probe_the_method_names_but_absences_lacks_is_a_located_error(tmp_path):
    def method(data):
        data["loop_impacts"][1]["holds"] = ["content-never-read-bak"]
    kb = _kb_copy(tmp_path, {"method": method})
    lines = (kb / "method.yaml").read_text(encoding="utf-8").splitlines()
    result = CliRunner().invoke(main, ["check-kb", "--kb", str(kb)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    problem = next(ln for ln in result.output.splitlines() if "content-never-read-bak" in ln)
    assert "method.yaml:" in problem and "loop_impacts.1.holds.0: no absence probe 'content-never-read-bak'" in problem
    line = int(problem.split("method.yaml:")[1].split(":")[0])
    assert "content-never-read-bak" in lines[line - 1]
    repo = tmp_path / "repo"
    regenerate.fixture_repo(ROOT / "fixtures" / "field-notes", repo)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["audit", str(repo), "--out", str(out), "--kb", str(kb)])
    errors = [ln for ln in result.output.splitlines() if ln.startswith("auditor: error:")]
    assert result.exit_code == 2 and len(errors) == 1 and "loop_impacts.1.holds.0" in errors[0]
    assert "Traceback" not in result.output and (not out.exists() or not any(out.iterdir()))
