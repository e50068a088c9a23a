"""A tools/list result made from a record of tools keyed by name: each entry copied under its key
(`Object.entries(TOOLS).map(([name, t]) => ({ name, ...t }))`, the name first or last, or
`Object.keys(TOOLS).map((k) => ({ name: k, ...TOOLS[k] }))`, also through a local). Each entry is a tool named by its
key, with the description and the input schema the entry holds; the list is read whole. Every server here is written
for the test."""

from __future__ import annotations

import pytest

from auditor.analyse import coverage
from program_helpers import SDK, program

RECORD = '''const TOOLS = {
  query: { description: "Query the menu.", inputSchema: { type: "object", properties: {} } },
  order: { description: "Order an item.", inputSchema: { type: "object", properties: { item: { type: "string" } },
    required: ["item"] } },
};
'''

LOW_LEVEL = SDK + RECORD + '''const server = new Server({ name: "cafe", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: LIST }));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  switch (req.params.name) {
    case "query": return { content: [] };
    case "order": return { content: [{ type: "text", text: req.params.arguments.item }] };
    default: throw new Error("unknown tool");
  }
});
await server.connect(new StdioServerTransport());
'''

# A server written with no SDK: a JSON-RPC switch over the request's method.
PROTOCOL = RECORD + '''async function handle(request) {
  const { method, params, id } = request;
  switch (method) {
    case "initialize":
      return { jsonrpc: "2.0", id, result: { protocolVersion: "2024-11-05", capabilities: { tools: {} } } };
    case "tools/list":
      return { jsonrpc: "2.0", id, result: { tools: LIST } };
    case "tools/call":
      if (params.name === "query") return { jsonrpc: "2.0", id, result: { content: [] } };
      if (params.name === "order") return { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: params.arguments.item }] } };
      throw new Error("unknown tool");
  }
}
process.stdin.on("data", async (d) => process.stdout.write(JSON.stringify(await handle(JSON.parse(String(d)))) + "\\n"));
'''

LISTS = [
    "Object.entries(TOOLS).map(([name, t]) => ({ name, ...t }))",
    "Object.entries(TOOLS).map(([key, t]) => ({ name: key, ...t }))",
    "Object.entries(TOOLS).map(([key, t]) => ({ ...t, name: key }))",
    "Object.keys(TOOLS).map((k) => ({ name: k, ...TOOLS[k] }))",
    "Object.keys(TOOLS).map((k) => ({ ...TOOLS[k], name: k }))",
    "Object.keys(TOOLS).map((k) => { const t = TOOLS[k]; return { name: k, ...t }; })",
]


@pytest.mark.parametrize("server", [LOW_LEVEL, PROTOCOL], ids=["sdk", "no-sdk"])
@pytest.mark.parametrize("made", LISTS)
def test_each_entry_of_a_record_copied_under_its_key_is_a_tool(server, made):
    p = program({"index.js": server.replace("LIST", made), "package.json": '{"name": "cafe", "main": "index.js"}'})
    tools = {t.name: t for t in p.tools}
    assert sorted(tools) == ["order", "query"]
    assert tools["order"].description == "Order an item."
    assert tools["order"].schema["required"] == ["item"]
    led = coverage.ledger(p)
    assert [(t["name"], t["form"]) for t in led["tools"]] == [("order", "descriptor"), ("query", "descriptor")]
    assert led["unresolved"] == [], led["unresolved"]


def test_keys_mapped_to_their_own_text_list_no_entry_of_the_record():
    """`Object.keys(TOOLS).map((k) => ({ name: k, description: "x", inputSchema: {} }))` builds its own object per
    key; the record's entries are not what is listed (nor are they named by the keys)."""
    made = 'Object.keys(TOOLS).map((k) => ({ name: k, description: "Same for all.", inputSchema: { type: "object" } }))'
    p = program({"index.js": LOW_LEVEL.replace("LIST", made), "package.json": '{"name": "cafe", "main": "index.js"}'})
    assert sorted((t.name, t.description) for t in p.tools) == [("order", "Same for all."), ("query", "Same for all.")]


def test_a_record_of_results_copied_with_conditional_parts_lists_no_tool():
    """`Object.entries(checks).map(([name, item]) => ({ name, status: item.Status, ...(item.Code ? { code: item.Code }
    : {}) }))` builds a report of checks, not tools: what it spreads is a conditional part, not the entry, so no entry
    of the record is a tool named by its key, even where a tools/list not read whole keeps every descriptor-shaped
    object."""
    report = SDK + '''import { moreTools } from "tool-pack";
export function failed(result) {
  const checks = { ownership: result.Ownership, quota: result.Quota };
  return Object.entries(checks).map(([name, item]) => ({ name, status: item.Status,
    ...(item.Code ? { code: item.Code } : {}) }));
}
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "verify", description: "Verify.", inputSchema: { type: "object", properties: {} } }, ...moreTools()] }));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  if (req.params.name === "verify") return { content: [{ type: "text", text: JSON.stringify(failed({})) }] };
  throw new Error("unknown tool");
});
await server.connect(new StdioServerTransport());
'''
    p = program({"index.js": report, "package.json": '{"name": "s", "main": "index.js"}'})
    assert sorted(t.name for t in p.tools) == ["verify"]
