"""A tools/list handler that lists what a backend object's method returns, the backend made by a factory handed down
through parameters (`start(make)` -> `serve(make)` -> `connect(make)`, `const backend = make()`), the factory a
variable declared bare and assigned in branches: the tools are what the backend class's method returns, read through
`Object.freeze(...)` and through an object that copies another by a spread. A descriptor-shaped object the server
never lists (a tool offered to a language model's API) is no tool once the list is read. Every server here is written
for the test."""

from __future__ import annotations

import pytest

from auditor.analyse import coverage
from program_helpers import SDK, program

BASE = SDK + '''const LIST = [
  { schema: { name: "alpha", description: "A.", inputSchema: { type: "object", properties: {} } }, group: "x" },
  { schema: { name: "beta", description: "B.", inputSchema: { type: "object", properties: {} } }, group: "y" },
];
function withAliases(registration) { return Object.freeze({ ...registration, aliases: [] }); }
class Registry {
  constructor(registrations) {
    const byName = new Map();
    for (const registration of registrations) { byName.set(registration.schema.name, withAliases(registration)); }
    this.entries = Object.freeze([...byName.values()]);
  }
}
class Backend {
  _entries = REGISTERED;
  tools() { return this._entries.map((e) => e.schema); }
  call(name) { return this._entries.find((e) => e.schema.name === name); }
}
export function conversation(task, tools) {
  const offered = tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
  offered.push({ name: "finish", description: "Call when the task is done.", inputSchema: { type: "object", properties: {} } });
  return { messages: [task], tools: offered };
}
function createServer(backend) {
  const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: backend.tools() }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const entry = backend.call(req.params.name);
    if (!entry) throw new Error("Unknown tool");
    return { content: [{ type: "text", text: entry.group }] };
  });
  return server;
}
async function connect(factory, transport) {
  const backend = factory();
  const server = createServer(backend);
  await server.connect(transport);
}
async function serveHttp(factory, http) {
  http.on("request", async (req, res) => { await connect(factory, req.transport); });
}
async function serve(factory, http) {
  if (http) { await serveHttp(factory, http); } else { await connect(factory, new StdioServerTransport()); }
}
export async function start(factory, http) { await serve(factory, http); }
let make;
if (process.env.WIDE) { make = () => new Backend(); } else { make = () => new Backend(); }
await start(make, null);
'''


@pytest.mark.parametrize("registered", [
    "LIST",
    "Object.freeze(LIST)",
    "new Registry(LIST).entries",
])
def test_a_backend_a_handed_factory_makes_lists_its_tools(registered):
    p = program({"index.js": BASE.replace("REGISTERED", registered), "package.json": '{"name": "s", "main": "index.js"}'})
    led = coverage.ledger(p)
    assert sorted(t["name"] for t in led["tools"]) == ["alpha", "beta"], led["tools"]
