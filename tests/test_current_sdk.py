"""The current SDK shape (issue 11, section 1): McpServer.registerTool with zod input and output schemas, a class of
lib.ts instantiated in index.ts, an environment switch gating a stderr log, a README documenting the variable.

Each point is checked on our fixture (fixtures/step-journal) and on modelcontextprotocol/servers at 76d64c82
(src/sequentialthinking): audited live from the mirror named by $AUDITOR_SERVERS_REPO when it is there, else read from
the committed report (reports/sequentialthinking-76d64c82, which `reports/regenerate.py --check --servers-repo`
keeps equal to a fresh run)."""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from auditor.cli import main
from auditor.extract.documented import documented_env
from auditor.extract.readme import read_markdown
from test_fixtures import _commit_copy

ROOT = Path(__file__).resolve().parent.parent
HEAD = "76d64c822f5125032f89eb71dbdb94e42b434821"


@dataclass(frozen=True)
class Case:
    """What a point is checked against in one audit: the names of that server."""
    audit: dict
    baseline: str  # runtime-baseline.md
    tool: str
    cls: str  # module#Class holding the state
    switch: str  # Class.field of the environment switch
    env: str  # the environment variable it is set from
    record: str  # the record type the input schema validates
    unconsumed: str
    content: str
    reference: str
    entry: str  # the file that instantiates the class


def _run(repo: Path, out: Path, *extra: str) -> tuple[dict, str]:
    result = CliRunner().invoke(main, ["audit", str(repo), *extra, "--out", str(out), "-q"])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, result.output
    return json.loads((out / "audit.json").read_text(encoding="utf-8")), (out / "runtime-baseline.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def fixture_case(tmp_path_factory) -> Case:
    tmp = tmp_path_factory.mktemp("step-journal")
    _commit_copy(ROOT / "fixtures" / "step-journal", tmp / "repo")
    audit, baseline = _run(tmp / "repo", tmp / "out", "--revision", "HEAD")
    return Case(audit=audit, baseline=baseline, tool="log_step", cls="lib#StepJournal", switch="StepJournal.quiet",
                env="STEP_JOURNAL_QUIET", record="StepEntry", unconsumed="mood", content="note", reference="replyTo",
                entry="index.ts")


@pytest.fixture(scope="module")
def head_case(tmp_path_factory) -> Case:
    mirror = os.environ.get("AUDITOR_SERVERS_REPO")
    if mirror and Path(mirror).exists():
        out = tmp_path_factory.mktemp("head") / "out"
        audit, baseline = _run(Path(mirror), out, "--revision", HEAD, "--subtree", "src/sequentialthinking")
    else:  # CI: no mirror; the committed report of the same run
        folder = ROOT / "reports" / "sequentialthinking-76d64c82"
        audit = json.loads((folder / "audit.json").read_text(encoding="utf-8"))
        baseline = (folder / "runtime-baseline.md").read_text(encoding="utf-8")
    assert audit["target"]["commit"] == HEAD
    return Case(audit=audit, baseline=baseline, tool="sequentialthinking", cls="lib#SequentialThinkingServer",
                switch="SequentialThinkingServer.disableThoughtLogging", env="DISABLE_THOUGHT_LOGGING",
                record="ThoughtData", unconsumed="needsMoreThoughts", content="thought", reference="revisesThought",
                entry="src/sequentialthinking/index.ts")


@pytest.fixture(params=["fixture", "head"])
def case(request) -> Case:
    return request.getfixturevalue(f"{request.param}_case")


def _records(audit: dict) -> list[dict]:
    return [r for k in ("components", "objects", "routes", "absences", "paths", "findings", "advisories", "claims")
            for r in audit.get(k, [])]


def _by_id(audit: dict, rid: str) -> dict:
    hits = [r for r in _records(audit) if r["id"] == rid]
    assert len(hits) == 1, f"{rid}: {len(hits)} record(s)"
    return hits[0]


def _absence(audit: dict, probe: str) -> dict:
    return next(a for a in audit["absences"] if a["id"].endswith(":" + probe))


# 1. A value set once from the environment is configuration, and the output it gates says so.

def test_switch_is_configuration_not_state(case: Case) -> None:
    module = case.cls.split("#")[0]
    assert not [o for o in case.audit["objects"] if o["kind"] == "state" and o["id"].endswith("." + case.switch.split(".")[1])]
    conf = _by_id(case.audit, f"OBJ:configuration:{module}#{case.switch}")
    assert "set once" in conf["summary"]
    assert _absence(case.audit, "content-never-read-back")["status"] == "holds"
    grow = next(line for line in case.baseline.splitlines() if line.startswith("| Performance"))
    assert case.switch not in grow
    assert case.switch.split(".")[0] in _by_id(case.audit, f"CMP:class:{case.cls}")["summary"]
    assert case.switch.split(".")[1] not in _by_id(case.audit, f"CMP:class:{case.cls}")["summary"].split("holds state")[1].split(";")[0]


def test_gated_log_is_conditional_and_names_the_variable(case: Case) -> None:
    emits = [r for r in case.audit["routes"] if r["kind"] == "emit-stderr" and any(g["key"] == case.switch for g in r.get("settings", []))]
    assert len(emits) == 1
    emit = emits[0]
    field = case.switch.split(".")[1]
    assert emit["condition"] == f"!this.{field}"
    assert emit["settings"][0]["key"] == case.switch and emit["settings"][0]["env"] == [case.env]
    assert f"when `!this.{field}`" in emit["trigger"]
    row = next(line for line in case.baseline.splitlines() if line.startswith("| Observability"))
    assert "can be turned off" in row and case.env in row


def test_module_constant_switch_gates_too(fixture_case: Case) -> None:
    emit = _by_id(fixture_case.audit, "RTE:emit-stderr:index#server.registerTool(log_step)")
    assert emit["condition"] == "VERBOSE"
    assert [(g["key"], g["env"]) for g in emit["settings"]] == [("VERBOSE", ["STEP_JOURNAL_VERBOSE"])]
    assert "can be turned off" in emit["summary"]


# 2. The record and its validation come from the zod schema: the absences hold or not by the code.

def test_absences_over_schema_record_are_decided(case: Case) -> None:
    unconsumed = _absence(case.audit, "fields-without-consumer")
    assert unconsumed["status"] == "holds" and unconsumed["fields"] == [case.unconsumed]
    evaluator = _absence(case.audit, "no-content-evaluator")
    assert evaluator["status"] == "holds" and evaluator["content_fields"] == [case.content]
    linkage = _absence(case.audit, "no-revision-linkage")
    assert linkage["status"] == "holds" and case.reference in linkage["reference_fields"]
    gate = _by_id(case.audit, f"RTE:gate:index#{case.tool}/inputSchema")
    assert gate["record_type"] == case.record
    record = _by_id(case.audit, f"OBJ:record:lib#{case.record}")
    assert f"the input of tool(s) '{case.tool}', parsed with its zod input schema" in record["summary"]
    assert any(a["path"] == case.entry for a in record["anchors"])


# 3. registerTool advertises: tools/list, its authority path, the advertisement loop; the zod parse enforces.

def test_registered_tools_are_advertised(case: Case) -> None:
    lst = _by_id(case.audit, "RTE:list:index#tools/list")
    assert lst["tools"] == [case.tool] and f"OBJ:tool-description:{case.tool}" in lst["endpoints"]
    assert _by_id(case.audit, "BAP:list:index#tools/list")["consumer"] == "host LLM"
    assert "### Loop B: tool advertisement (RTE:list:index#tools/list)" in case.baseline
    assert "none places tool descriptors" not in case.baseline


def test_zod_input_schema_is_an_enforcing_path(case: Case) -> None:
    gate = _by_id(case.audit, f"RTE:gate:index#{case.tool}/inputSchema")
    assert gate["enforcer"] == "sdk-zod"
    forms = {p["field"]: p["form"].split("+") for p in gate["predicates"]}
    assert {"required", "type-check", "min"} <= set(forms[next(f for f, x in forms.items() if "min" in x)])
    assert any("required" in x for x in forms.values()) and any("type-check" in x for x in forms.values())
    path = _by_id(case.audit, f"BAP:gate:index#{case.tool}/inputSchema")
    assert path["force"].startswith("enforcing: the SDK rejects a call that fails the parse")
    assert "envelope shape only" not in path["force"] and "required" in path["force"] and "min" in path["force"]


# 4. A class of one module instantiated in another: one instance per process.

def test_instantiation_across_modules(case: Case) -> None:
    cls = _by_id(case.audit, f"CMP:class:{case.cls}")
    assert "1 instantiation site(s), module scope: one instance per process" in cls["summary"]
    assert any(a["path"] == case.entry for a in cls["anchors"])


# 5. outputSchema and structuredContent are objects of the audit.

def test_output_schema_and_structured_content(case: Case) -> None:
    out = _by_id(case.audit, f"OBJ:tool-output-schema:{case.tool}")
    assert out["properties"] and "structuredContent" in out["summary"]
    results = [o for o in case.audit["objects"] if o["kind"] == "result" and o.get("structured_content")]
    assert len(results) == 1 and f"OBJ:tool-output-schema:{case.tool}" in results[0]["summary"]
    assert f"OBJ:tool-output-schema:{case.tool}" in _by_id(case.audit, "RTE:list:index#tools/list")["endpoints"]


# 6. Ids are unique; the README's variable is documented.

def test_ids_unique(case: Case) -> None:
    counts = Counter(r["id"] for r in _records(case.audit))
    assert [i for i, n in counts.items() if n > 1] == []
    launch = _by_id(case.audit, "BAP:readme-launch:README.md")
    assert len(launch["anchors"]) >= 2


def test_documented_variable_found(case: Case) -> None:
    env = _by_id(case.audit, f"CLM:readme-env:{case.env}@readme:README.md")
    assert env["verdict"] == "supported"
    config = _by_id(case.audit, "CLM:readme-config@readme:README.md")
    assert case.env in config["summary"] and config["verdict"] == "supported"


def test_env_in_prose_and_tables() -> None:
    doc = read_markdown("README.md", "\n".join([
        "# x", "", "To turn off the log, set env var `QUIET_MODE` to `true`.", "",
        "Set `Not_Env` and `ALSO_NOT` here: no word about it.", "",
        "## Environment", "", "| Name | Meaning |", "| --- | --- |", "| `API_TOKEN` | the token |", "",
        "## Other", "", "| Variable | Meaning |", "| --- | --- |", "| LOG_DIR | where |", "",
        "| Name | Meaning |", "| --- | --- |", "| `NOT_A_VAR` | a table of names elsewhere |", ""]))
    env = documented_env(doc)
    assert sorted(env) == ["API_TOKEN", "LOG_DIR", "QUIET_MODE"]
    assert [a.start_line for a in env["QUIET_MODE"]] == [3] and [a.start_line for a in env["API_TOKEN"]] == [11]


# A content field handed to a function named as a decision over it is a hit of the content-evaluator probe; the
# schema may live in another module.

_SCHEMAS = '''import { z } from "zod";
export const SaveShape = { path: z.string().min(1), body: z.string() };
'''

_SERVER = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SaveShape } from "./schemas.js";

function validatePath(p: string): string {
  if (p.includes("..")) throw new Error("outside");
  return p;
}

const server = new McpServer({ name: "saver", version: "1.0.0" });
server.registerTool("save", { description: "Save a file", inputSchema: SaveShape }, async (args) => {
  const where = validatePath(args.path);
  return { content: [{ type: "text", text: where + args.body.length }] };
});
'''


def _absence_of(files: dict[str, str], probe: str) -> dict:
    from auditor import kb
    from auditor.analyse.absences import absences
    from program_helpers import KB, program

    rec = next(a for a in absences(program(files), kb.load(KB, "absences")) if a.id.endswith(":" + probe))
    return {"status": rec.attrs["status"], "summary": rec.summary, **rec.attrs}


def test_content_field_handed_to_a_deciding_function_is_a_hit() -> None:
    files = {"package.json": '{"name": "saver", "main": "index.ts", "dependencies": {"@modelcontextprotocol/sdk": "1"}}',
             "schemas.ts": _SCHEMAS, "index.ts": _SERVER}
    found = _absence_of(files, "no-content-evaluator")
    assert found["content_fields"] == ["path", "body"]
    assert found["status"] == "does not hold" and "validatePath" in found["summary"]
    quiet = _absence_of({**files, "index.ts": _SERVER.replace("validatePath(args.path)", "args.path")}, "no-content-evaluator")
    assert quiet["status"] == "holds"


def test_field_initialized_from_the_environment_is_a_setting() -> None:
    from auditor.analyse import effects
    from auditor.extract.routes import routes
    from program_helpers import effects_kb, program

    code = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
class Tally {
  private readonly chatty = process.env.TALLY_CHATTY === "on";
  private counts: number[] = [];
  private total = 0;
  add(n: number): number {
    this.counts.push(n);
    this.total += n;
    if (this.chatty) console.error(`added ${n}`);
    return this.counts.length;
  }
}
const tally = new Tally();
const server = new McpServer({ name: "tally", version: "1.0.0" });
server.registerTool("add", { description: "Add" }, async () => ({ content: [{ type: "text", text: String(tally.add(1)) }] }));
'''
    p = program({"package.json": '{"name": "tally", "main": "index.ts"}', "index.ts": code})
    assert [c.key for c in p.settings] == ["Tally.chatty"]
    assert [c.key for c in p.containers] == ["Tally.counts"]  # a written scalar is neither (as before)
    emit = next(r for r in routes(p, effects.scan(p, effects_kb())) if r.kind == "emit-stderr")
    assert emit.attrs["condition"] == "this.chatty"
    assert [(g["key"], g["env"]) for g in emit.attrs["settings"]] == [("Tally.chatty", ["TALLY_CHATTY"])]
    assert "set once from the environment variable TALLY_CHATTY" in emit.summary


def test_unknown_tool_is_rejected_by_the_sdk_without_a_fallback(head_case: Case) -> None:
    found = _by_id(head_case.audit, "FND:tool-name-mismatch:README.md/sequential_thinking")
    assert "rejected by the SDK as an unknown tool" in found["summary"] and "fallback of its own" in found["summary"]


def test_a_write_gated_by_a_setting_says_so() -> None:
    from auditor.analyse import effects
    from auditor.extract.routes import routes
    from program_helpers import effects_kb, program

    code = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
class Ledger {
  private rows: string[] = [];
  private keep: boolean;
  constructor() {
    this.keep = process.env.LEDGER_KEEP !== "0";
  }
  add(row: string): number {
    if (this.keep) {
      this.rows.push(row);
    }
    return this.rows.length;
  }
}
const ledger = new Ledger();
const server = new McpServer({ name: "ledger", version: "1.0.0" });
server.registerTool("add", { description: "Add" }, async () => ({ content: [{ type: "text", text: String(ledger.add("x")) }] }));
'''
    p = program({"package.json": '{"name": "ledger", "main": "index.ts"}', "index.ts": code})
    write = next(r for r in routes(p, effects.scan(p, effects_kb())) if r.kind == "state-write")
    assert write.attrs["condition"] == "this.keep"
    assert [(g["key"], g["env"]) for g in write.attrs["settings"]] == [("Ledger.keep", ["LEDGER_KEEP"])]
    assert "this write can be turned off" in write.summary
