"""Low-level tools/call dispatch in the shapes servers write besides `switch (name)` and `if (name === ...)`: a lookup
table of implementations indexed by the name, and a name held in a variable of another name."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import SDK, line_of, program

SERVER = SDK + '''
const log: string[] = [];

async function purge(request: any) {
  log.length = 0;
  return { content: [] };
}

const HANDLERS = {
  jot: async (request: any) => {
    log.push(String(request.params.arguments?.text));
    return { content: [] };
  },
  purge,
  "count-lines": async () => ({ content: [{ type: "text", text: String(log.length) }] }),
};

const server = new Server({ name: "jar", version: "1.0.0" }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: "jot", description: "Jot", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
    { name: "purge", description: "Purge", inputSchema: { type: "object", properties: {} } },
    { name: "count-lines", description: "Count", inputSchema: { type: "object", properties: {} } },
    { name: "stamp", description: "Stamp", inputSchema: { type: "object", properties: {} } },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const toolName = request.params.name;
  if (toolName === "stamp") {
    return { content: [{ type: "text", text: new Date().toISOString() }] };
  }
  if (toolName in HANDLERS) {
    return await HANDLERS[toolName as keyof typeof HANDLERS](request);
  }
  throw new Error(`Unknown tool: ${toolName}`);
});
'''


def test_lookup_table_and_aliased_name_dispatch():
    p = program({"index.ts": SERVER, "package.json": '{"name": "jar", "version": "1.0.0"}'})
    got = {d.tool: (d.form, d.target_name, d.node.start_point[0] + 1) for d in p.dispatches}
    assert got == {
        "jot": ("table", "HANDLERS.jot", line_of(SERVER, "  jot: async")),
        "purge": ("table", "purge", line_of(SERVER, "  purge,")),
        "count-lines": ("table", "HANDLERS.count-lines", line_of(SERVER, '"count-lines": async')),
        "stamp": ("name-equality", None, line_of(SERVER, 'if (toolName === "stamp")')),
    }
    (fallback,) = p.fallbacks  # the throw after the last dispatch inside the handler, not a table entry
    assert fallback.node.start_point[0] + 1 == line_of(SERVER, "throw new Error(`Unknown tool")
    ledger = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in ledger["tools"]] == [
        ("count-lines", "analysed"), ("jot", "analysed"), ("purge", "analysed"), ("stamp", "analysed")]
    assert any(f.name == "HANDLERS.jot" and f.writes for f in p.flows)  # the table's functions are traced
