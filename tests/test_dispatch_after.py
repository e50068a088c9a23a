"""A function the tools/call handler hands the tool name after the dispatch has run (`clean(result, name)` after
`await execute(name, args)`, whose `default` throws for any other name) compares the name with what it cleans up for;
a name only it compares names no tool (the dispatch rejected it first). When the dispatch may not have run first (it
sits in a branch), that function's names are read as before. Every server here is written for the test."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import SDK, program

BASE = SDK + '''const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "check", description: "Check.", inputSchema: { type: "object", properties: {} } },
  { name: "run", description: "Run.", inputSchema: { type: "object", properties: {} } } ] }));
async function execute(name, args) {
  switch (name) {
    case "check": return { valid: true };
    case "run": return { ok: true };
    default: throw new Error(`Unknown tool: ${name}`);
  }
}
function clean(result, name) {
  if (name === "check_minimal") return { valid: !!result.valid };
  else if (name === "check") return { valid: result.valid };
  return result;
}
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const name = req.params.name;
  BODY
  return { content: [{ type: "text", text: JSON.stringify(out) }] };
});
await server.connect(new StdioServerTransport());
'''


def _tools(body: str) -> list[tuple[str, str]]:
    p = program({"index.js": BASE.replace("BODY", body), "package.json": '{"name": "s", "main": "index.js"}'})
    return [(t["name"], t["status"]) for t in coverage.ledger(p)["tools"]]


def test_a_name_compared_only_after_a_dispatch_that_rejects_any_other_is_no_tool():
    body = 'const result = await execute(name, req.params.arguments);\n  const out = clean(result, name);'
    assert _tools(body) == [("check", "analysed"), ("run", "analysed")]


def test_a_name_compared_where_the_dispatch_may_not_have_run_is_read_as_before():
    body = ('let result = {};\n  if (req.params.arguments?.live) { result = await execute(name, req.params.arguments); }\n'
            '  const out = clean(result, name);')
    assert ("check_minimal", "dispatch only") in _tools(body)


GROUPS = SDK + '''const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "a_one", description: "A.", inputSchema: { type: "object", properties: {} } },
  { name: "b_one", description: "B.", inputSchema: { type: "object", properties: {} } } ] }));
async function connect() { return { ok: true }; }
async function runA(name) {
  switch (name) { case "a_one": return { content: [] }; default: throw new Error(`Unknown tool: ${name}`); }
}
async function runB(name) {
  switch (name) { case "b_one": return { content: [] }; default: throw new Error(`Unknown tool: ${name}`); }
}
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const conn = await connect();
  if (req.params.name.startsWith("a_")) { return await runA(req.params.name); }
  return await runB(req.params.name);
});
await server.connect(new StdioServerTransport());
'''


def test_dispatches_of_groups_behind_a_call_that_dispatches_nothing_are_all_read():
    """`const conn = await connect()` runs first on every path, and dispatches no name: the functions of each group
    of tools after it still dispatch theirs (only a function that dispatched, and rejects any other name, makes the
    comparisons after it no tool's)."""
    p = program({"index.js": GROUPS, "package.json": '{"name": "s", "main": "index.js"}'})
    assert [(t["name"], t["status"]) for t in coverage.ledger(p)["tools"]] == [("a_one", "analysed"), ("b_one", "analysed")]
