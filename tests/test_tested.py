"""Tests as evidence: test blocks read (never run), linked to the routes and claims they exercise, tier 'tested'."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from auditor.cli import main

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "memo-pad"
HEAD = "76d64c822f5125032f89eb71dbdb94e42b434821"


def _audit(repo: Path, out: Path, *extra: str) -> dict:
    result = CliRunner().invoke(main, ["audit", str(repo), "--revision", "HEAD" if not extra else extra[0], *extra[1:],
                                       "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    return json.loads((out / "audit.json").read_text(encoding="utf-8"))


def _committed(tmp_path: Path, files: dict[str, str] | None = None) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE, repo)
    for name, body in (files or {}).items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(body, encoding="utf-8")
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@invalid", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@invalid",
           "GIT_AUTHOR_DATE": "2024-05-06T07:08:09+00:00", "GIT_COMMITTER_DATE": "2024-05-06T07:08:09+00:00"}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "fixture"]):
        subprocess.run(["git", "-c", "init.defaultBranch=main", *args], cwd=repo, env=env, check=True, capture_output=True)
    return repo


def _links(audit: dict, kind: str) -> dict[str, list[dict]]:
    return {r["id"]: r.get("tests", []) for r in audit["routes"] if r["kind"] == kind}


def test_fixture_tests_are_records_with_their_block_anchor(tmp_path):
    audit = _audit(_committed(tmp_path), tmp_path / "out")
    tests = {t["attrs"]["title"] if "attrs" in t else t["title"]: t for t in audit["tests"]}
    # The skipped block states nothing and is no record; the node:test file is read like the vitest one.
    assert sorted(tests) == ["MemoPad > adds two numbers", "MemoPad > caps a priority at five",
                             "MemoPad > counts every memo", "MemoPad > files tagged memos under their tag",
                             "MemoPad > keeps a priority of seven", "MemoPad > rejects a blank memo",
                             "add_memo answers through a client"]
    caps = tests["MemoPad > caps a priority at five"]
    assert caps["anchors"] == [{"path": "test/pad.test.ts", "start_line": 14, "end_line": 18}]
    assert caps["calls"] == ["MemoPad.add of src/pad.ts at test/pad.test.ts:15",
                             "MemoPad.constructor of src/pad.ts at test/pad.test.ts:9 (in a hook)"]
    assert {"line": 17, "subject": "data.priority", "matcher": "toBe", "expected": "5"} in caps["assertions"]
    assert tests["MemoPad > adds two numbers"]["routes"] == []
    assert tests["add_memo answers through a client"]["tools"] == ["add_memo at test/server.test.ts:13"]


def test_tier_is_tested_only_where_a_test_asserts_what_the_route_determines(tmp_path):
    audit = _audit(_committed(tmp_path), tmp_path / "out")
    tiers = {r["id"]: r["tier"] for r in audit["routes"]}
    assert tiers["RTE:mutate:src/pad#MemoPad.add/memo.priority"] == "tested"
    assert tiers["RTE:state-write:src/pad#MemoPad.memos@add"] == "tested"
    assert tiers["RTE:dispatch:src/index#add_memo"] == "tested"
    # Reached by the tests but nothing asserted of it (the launch and the stderr line are not called at all).
    assert tiers["RTE:unchecked-copy:src/pad#checkMemo"] == "code-grounded"
    assert tiers["RTE:launch:src/index#main"] == "code-grounded"
    clamp = _links(audit, "mutate")["RTE:mutate:src/pad#MemoPad.add/memo.priority"]
    assert [(t["anchor"], t["verdict"]) for t in clamp] == [("test/pad.test.ts:14-18", "confirms"),
                                                            ("test/pad.test.ts:21-24", "contradicts")]
    assert "the lower-only clamp gives 5" in clamp[1]["detail"]


def test_a_test_that_calls_nothing_of_the_boundary_links_nothing(tmp_path):
    body = ('import { it, expect } from "vitest";\nimport { MemoPad } from "../src/other.js";\n'
            'it("reads a memo", () => {\n  const pad = new MemoPad();\n  expect(pad.add({ text: "a", priority: 9 }).priority).toBe(5);\n});\n')
    repo = _committed(tmp_path, {"test/pad.test.ts": body, "test/server.test.ts": "export {};\n"})
    audit = _audit(repo, tmp_path / "out")
    assert [t["unresolved_imports"] for t in audit["tests"]] == [["../src/other.js"]]
    assert all(r["tier"] == "code-grounded" for r in audit["routes"])


def test_markdown_lists_the_tests_and_a_tier_column(tmp_path):
    out = tmp_path / "out"
    _audit(_committed(tmp_path), out)
    packet = (out / "evidence-packet.md").read_text(encoding="utf-8")
    assert "### 4j. Tests" in packet and "`TST:test/pad.test#memopad-keeps-a-priority-of-seven`" in packet
    assert "| Endpoints | Tier | Anchors |" in packet
    assert "| tested: `test/pad.test.ts:14-18`, `test/pad.test.ts:21-24` |" in packet
    assert "Evidence tier: **code-grounded; 6 of 13 route(s) tested" in packet
    ledger = (out / "epistemic-ledger.md").read_text(encoding="utf-8")
    assert "tested (read, not run): test/pad.test.ts:27-31" in ledger  # block 4, the memos container
    # A claim resting on a tested route: its tier and tests in 4d, what they state in block 5.
    row = next(l for l in packet.splitlines() if l.startswith("| <a id=")
               and "`CLM:readme-tool:add_memo@readme:README.md` |" in l)
    assert "| tested: `test/server.test.ts:8-16` |" in row
    row = next(l for l in ledger.splitlines() if l.startswith("| `CLM:readme-tool:add_memo@readme:README.md` | `RTE:"))
    assert "exercised without a stated outcome by 1 test(s): test/server.test.ts:8-16 | **supported** |" in row
    assert "are read, not run" in ledger


SERVERS = os.environ.get("AUDITOR_SERVERS_REPO")


@pytest.mark.skipif(not SERVERS or not Path(SERVERS).exists(), reason="set AUDITOR_SERVERS_REPO to a clone of "
                    "github.com/modelcontextprotocol/servers to audit sequentialthinking at its HEAD")
def test_sequentialthinking_tests_link_to_history_clamp_and_branch_routes(tmp_path):
    audit = _audit(Path(SERVERS), tmp_path / "out", HEAD, "--subtree", "src/sequentialthinking")
    test_file = "src/sequentialthinking/__tests__/lib.test.ts"
    assert audit["tests"] and all(t["anchors"][0]["path"] == test_file for t in audit["tests"])
    routes = [r for r in audit["routes"] if r["anchors"][0]["path"].endswith("/lib.ts")]

    def tested(kind: str, line: int) -> dict:  # by kind and anchor: route ids may change
        hit = [r for r in routes if r["kind"] == kind and any(a["start_line"] <= line <= a["end_line"] for a in r["anchors"])]
        assert len(hit) == 1, (kind, line, [r["id"] for r in routes])
        assert hit[0]["tier"] == "tested", hit[0]["id"]
        return {t["anchor"].rpartition(":")[2]: t for t in hit[0]["tests"]}

    clamp = tested("mutate", 57)  # if (input.thoughtNumber > input.totalThoughts) input.totalThoughts = ...
    assert clamp["97-109"]["verdict"] == "confirms"  # 'should auto-adjust totalThoughts if thoughtNumber exceeds it'
    history = tested("state-write", 60)  # this.thoughtHistory.push(input)
    assert history["66-95"]["verdict"] == "confirms" and "is 3" in history["66-95"]["detail"]
    branches = tested("state-write", 66)  # this.branches[input.branchId].push(input)
    assert {"113-148", "150-175"} <= set(branches)
    claims = {c["id"]: c for c in audit["claims"]}
    adjust = [c for c in claims.values() if c["id"].startswith("CLM:adjust-total@")]
    assert adjust and all(c["tier"] == "tested" and "confirmed by" in c["test_support"] for c in adjust)


SHAPES = '''\
const assert = require("node:assert");
const { MemoPad } = require("../src/pad.js");
describe("outer", function () {
  describe.skip("skipped suite", () => {
    it("inside a skipped suite", () => { expect(1).toBe(1); });
  });
  describe("inner", () => {
    it.each([[9], [7]])("row %s", (p) => {
      assert.strictEqual(JSON.parse(new MemoPad().add({ text: "a", priority: p }).content[0].text).priority, 5);
    });
    test.only("only", () => {
      const pad = new MemoPad();
      expect(JSON.parse(pad.add({ text: "b", priority: 8 }).content[0].text).priority).not.toBe(8);
    });
  });
  it();
  it("no callback");
  xit("x-skipped", () => {});
  it("same title", () => {});
  it("same title", () => {});
});
'''


def test_suite_shapes_require_and_odd_blocks(tmp_path):
    repo = _committed(tmp_path, {"test/pad.test.ts": "export {};\n", "test/server.test.ts": "export {};\n",
                                 "test/shapes.test.js": SHAPES})
    audit = _audit(repo, tmp_path / "out")
    tests = {t["title"]: t for t in audit["tests"]}
    assert sorted(tests) == ["outer > inner > only", "outer > inner > row %s", "outer > same title",
                             "outer > same title (2)"]
    assert len({t["id"] for t in audit["tests"]}) == 4
    row = tests["outer > inner > row %s"]
    assert row["calls"] == ["MemoPad.add of src/pad.ts at test/shapes.test.js:9",
                            "MemoPad.constructor of src/pad.ts at test/shapes.test.js:9"]
    assert row["assertions"][0]["matcher"] == "strictEqual" and row["assertions"][0]["expected"] == "5"
    only = tests["outer > inner > only"]
    assert only["assertions"][0]["matcher"] == "not.toBe"
    clamp = [r for r in audit["routes"] if r["kind"] == "mutate"][0]
    # A negated assertion states nothing about the bound; the row's priority is no literal: exercised only.
    assert {t["anchor"]: t["verdict"] for t in clamp["tests"]} == {"test/shapes.test.js:8-10": "exercised",
                                                                  "test/shapes.test.js:11-14": "exercised"}


def test_a_bad_kb_tests_file_is_a_one_line_error(tmp_path):
    kb_dir = tmp_path / "kb"
    shutil.copytree(Path(__file__).resolve().parent.parent / "kb", kb_dir)
    text = (kb_dir / "tests.yaml").read_text(encoding="utf-8")
    (kb_dir / "tests.yaml").write_text(text.replace("blocks: [it, test, specify]", "blocks: it"), encoding="utf-8")
    repo = _committed(tmp_path)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["audit", str(repo), "--revision", "HEAD", "--out", str(out), "--kb", str(kb_dir), "-q"])
    assert result.exit_code == 2, result.output
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.startswith("blocks:"))
    assert f"tests.yaml:{line}: blocks:" in result.output and "Traceback" not in result.output
    assert not out.exists() or not any(out.iterdir())


def test_a_message_is_matched_as_whole_words_and_a_regex_only_as_plain_text(tmp_path):
    body = ('import { it, expect } from "vitest";\nimport { checkMemo } from "../src/pad.js";\n'
            'it("part of a word", () => {\n  expect(() => checkMemo({ text: " ", priority: 1 })).toThrow("must not be blan");\n});\n'
            'it("plain regex", () => {\n  expect(() => checkMemo({ text: " ", priority: 1 })).toThrow(/must not be blank/);\n});\n'
            'it("a real pattern", () => {\n  expect(() => checkMemo({ text: " ", priority: 1 })).toThrow(/must (not)+ be blank/);\n});\n')
    repo = _committed(tmp_path, {"test/pad.test.ts": body, "test/server.test.ts": "export {};\n"})
    audit = _audit(repo, tmp_path / "out")
    assert {t["title"]: t["routes"] for t in audit["tests"]} == {
        "part of a word": [], "plain regex": ["RTE:gate:src/pad#checkMemo"], "a real pattern": []}
