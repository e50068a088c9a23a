"""Tools a list makes by calling, for each element of a list of tool definitions, a factory it takes from the element
(`ALL.map((d) => { const make = d.factory; return make(server); })`, or one a helper picks: `pick(d, groups)`), then
looked up by name in that list by the tools/call handler: each factory's returned descriptor is a tool, read element by
element. Every server here is written for the test."""

from __future__ import annotations

import pytest

from auditor.analyse import coverage
from program_helpers import SDK, program

BASE = SDK + '''function aTool(server) {
  return { name: "a_tool", description: "A.", inputSchema: { type: "object", properties: {} }, handler: async () => ({ content: [] }) };
}
function bTool(server) {
  return { name: "b_tool", description: "B.", inputSchema: { type: "object", properties: {} }, handler: async () => ({ content: [] }) };
}
const ALL = [{ factory: aTool, group: "x" }, { factory: bTool, group: "y" }];
function pick(d, groups) { if (groups.includes(d.group)) { return d.factory; } return d.factory; }
export function register(server, groups) {
  const tools = MAKE;
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })) }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const tool = tools.find((t) => t.name === req.params.name);
    if (!tool) throw new Error("Unknown tool");
    return await tool.handler(req.params.arguments);
  });
}
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
register(server, ["x"]);
await server.connect(new StdioServerTransport());
'''


@pytest.mark.parametrize("make", [
    "ALL.map((d) => { const make = d.factory; return make(server); })",
    "ALL.map((d) => { const make = pick(d, groups); return make(server); })",
    "ALL.filter((d) => groups.includes(d.group)).map((d) => { const make = pick(d, groups); return make(server); })",
])
def test_a_factory_taken_from_each_element_makes_its_tool(make):
    p = program({"index.js": BASE.replace("MAKE", make), "package.json": '{"name": "s", "main": "index.js"}'})
    led = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("a_tool", "analysed"), ("b_tool", "analysed")]
    assert led["unresolved"] == [] and led["complete"] is True, led["unresolved"]


MODULES = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
function createPlain() {
  const hello = { name: "plain_hello", description: "d", inputSchema: z.object({}), handler: async () => ({ content: [] }) };
  return { name: "plain", tools: [hello] };
}
function createKeyed(key) {
  const quote = { name: "keyed_quote", description: "d", inputSchema: z.object({}),
                  handler: async () => ({ content: [{ type: "text", text: key }] }) };
  return { name: "keyed", tools: [quote] };
}
const CATALOG = [
  { name: "plain", factory: () => createPlain() },
  { name: "keyed", factory: (config) => FACTORY },
];
async function main() {
  const config = { env: process.env, workspace: process.argv.includes("--workspace") };
  const all = CATALOG.map((entry) => entry.factory(config)).filter((m) => m !== null);
  const server = new McpServer({ name: "s", version: "1" });
  for (const mod of all) {
    for (const tool of mod.tools) {
      server.registerTool(tool.name, { description: tool.description, inputSchema: tool.inputSchema },
                          async (p) => tool.handler(p));
    }
  }
}
main();
'''


@pytest.mark.parametrize("factory", [
    "config.env.KEY ? createKeyed(config.env.KEY) : null",
    "config.workspace ? createKeyed(\"k\") : undefined",
    "!config.workspace ? null : createKeyed(\"k\")",
])
def test_a_factory_that_makes_a_module_only_under_a_condition_still_registers_its_tools(factory):
    """`(config) => config.env.KEY ? createKeyed(key) : null` in a catalog of module factories, each module's tools
    registered in a loop: a module's `tools` is the one value the factory makes (a member of null throws), so its
    tools are the server's, under the condition that makes it."""
    p = program({"index.js": MODULES.replace("FACTORY", factory), "package.json": '{"name": "s", "main": "index.js"}'})
    assert sorted({t.name for t in p.tools}) == ["keyed_quote", "plain_hello"]
