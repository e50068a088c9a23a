"""Tool annotations checked against what each tool reaches (analyse/annotations.py), from in-memory sources."""

from __future__ import annotations

from dataclasses import replace

import pytest

from auditor import kb
from auditor.analyse import annotations, effect_routes, effects
from auditor.extract.components import components
from auditor.extract.routes import routes
from auditor.model import Anchor
from program_helpers import KB, SDK, effects_kb, program

RULES = kb.load(KB, "annotations")

SERVER = SDK + """\
import { promises as fs } from "fs";
class Journal {
  entries: string[] = [];
  add(text: string) { this.entries.push(text); }
}
const TOOLS = [
  { name: "peek", inputSchema: { type: "object" }, annotations: { readOnlyHint: true, openWorldHint: false } },
  { name: "note", inputSchema: { type: "object" },
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false } },
  { name: "wipe", inputSchema: { type: "object" }, annotations: { destructiveHint: false, readOnlyHint: false } },
  { name: "ghost", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "stamp", inputSchema: { type: "object" }, annotations: { idempotentHint: true } },
];
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
function main() {
  const journal = new Journal();
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    if (request.params.name === "peek") {
      return { content: [{ type: "text", text: await fs.readFile("/tmp/x", "utf8") }] };
    } else if (request.params.name === "note") {
      journal.add(String(request.params.arguments?.text));
      return { content: [{ type: "text", text: "ok" }] };
    } else if (request.params.name === "wipe") {
      await fs.rm("/tmp/x");
      return { content: [{ type: "text", text: "gone" }] };
    } else if (request.params.name === "stamp") {
      await fs.appendFile("/tmp/log", "stamp");
      return { content: [{ type: "text", text: "stamped" }] };
    }
    throw new Error("unknown tool");
  });
  server.connect(new StdioServerTransport());
}
main();
"""


@pytest.fixture(scope="module")
def audit():
    p = program({"index.ts": SERVER})
    fx = effects.scan(p, effects_kb())
    rtes = routes(p) + effect_routes.routes(p, fx, components(p))
    return p, {c.id: c for c in annotations.claims(p, fx, rtes, RULES, effects_kb())}


def test_each_hint_is_a_claim_with_a_verdict(audit):
    _, got = audit
    verdicts = {k.split(":", 1)[1]: c.attrs["verdict"] for k, c in got.items()}
    assert verdicts == {
        "annotation-readOnlyHint@tool:peek": "supported",
        "annotation-openWorldHint@tool:peek": "supported",
        # the branch of `note` only: the fs.rm of the `wipe` branch is not reached from it
        "annotation-readOnlyHint@tool:note": "contradicted",
        "annotation-idempotentHint@tool:note": "contradicted",
        "annotation-destructiveHint@tool:note": "supported",
        "annotation-destructiveHint@tool:wipe": "contradicted",
        "annotation-readOnlyHint@tool:wipe": "supported",
        "annotation-readOnlyHint@tool:ghost": "unsupported",  # listed, never dispatched
        "annotation-idempotentHint@tool:stamp": "contradicted",  # the dispatch `if` is not a branch of the tool
    }


def test_the_instance_made_inside_a_function_is_followed(audit):
    _, got = audit
    note = got["CLM:annotation-idempotentHint@tool:note"]
    assert note.attrs["routes"][0] == "OBJ:state:index#Journal.entries"  # Journal.add is not traced: the container is cited
    assert "every call of 'note' adds again" in note.attrs["mismatch"]
    assert note.attrs["meaningful"] is False and "meaningful only when readOnlyHint is false" in note.attrs["note"]


def test_anchor_is_the_hint_in_the_annotations_literal(audit):
    _, got = audit
    (a,) = got["CLM:annotation-destructiveHint@tool:wipe"].anchors
    assert a.path == "index.ts" and SERVER.splitlines()[a.start_line - 1].lstrip().startswith('{ name: "wipe"')


def test_hints_fall_back_to_the_descriptor_literal(audit):
    p, _ = audit
    t = next(t for t in p.tools if t.name == "peek")
    values, node = annotations.hints(replace(t, annotations={}, annotations_node=None), p.vocab)
    assert values == {"readOnlyHint": True, "openWorldHint": False} and node is not None


def _item(cls: str, kind: str = "effect-fs-write", conditional: bool = False, world=None) -> annotations.Reached:
    return annotations.Reached(kind=kind, cls=cls, conditional=conditional, world=world,
                               anchor=Anchor(path="a.ts", start_line=3, end_line=3), what="x", route="RTE:x")


@pytest.mark.parametrize("hint,value,items,verdict,conservative", [
    ("readOnlyHint", False, [_item("read", "effect-fs-read")], "supported", True),
    ("readOnlyHint", True, [_item("unknown", "effect-network", world="open")], "unsupported", False),
    ("readOnlyHint", True, [_item("call", "dependency")], "out-of-boundary", False),
    ("destructiveHint", True, [_item("append")], "supported", True),
    ("destructiveHint", False, [_item("overwrite")], "unsupported", False),
    ("idempotentHint", True, [_item("append", conditional=True)], "unsupported", False),
    ("idempotentHint", True, [_item("append")], "contradicted", False),
    ("openWorldHint", True, [_item("read", "effect-fs-read")], "supported", True),
    ("openWorldHint", False, [_item("read", "effect-network", world="closed")], "supported", False),
    ("openWorldHint", False, [_item("execute", "effect-subprocess")], "unsupported", False),
    ("openWorldHint", False, [_item("launch", "effect-browser", world="open")], "contradicted", False),
])
def test_rules_of_the_kb(hint, value, items, verdict, conservative):
    rule, _ = annotations.decide(hint, value, items, True, RULES, "t")
    assert (rule["verdict"], bool(rule.get("conservative"))) == (verdict, conservative)
