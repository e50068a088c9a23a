"""Tools each made as a tuple (`["name", { description, inputSchema }, handler]`, what a factory returns) and
registered by a loop that destructures it (`tools.forEach(([name, config, run]) => server.registerTool(name, config,
run))`, `for (const [name, config, run] of tools)`): each item binds its place in the tuple. Every server here is
written for the test."""

from __future__ import annotations

import pytest

from auditor.analyse import coverage
from program_helpers import program

TOOLS = ('export const aTool = () => { const run = async () => ({ content: [] });\n'
         '  return ["alpha", { description: "A", inputSchema: {} }, run]; };\n'
         'export function bTool() { const run = async () => ({ content: [] });\n'
         '  return ["beta", { description: "B", inputSchema: {} }, run]; }\n')
MAIN = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
        'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
        'import { aTool, bTool } from "./tools.js";\n'
        'const tools = [aTool(), bTool()];\n'
        'const server = new McpServer({ name: "s", version: "1" });\n'
        'LOOP\n'
        'await server.connect(new StdioServerTransport());\n')


@pytest.mark.parametrize("loop", [
    "tools.forEach(([name, config, run]) => { server.registerTool(name, config, run); });",
    "for (const [name, config, run] of tools) { server.registerTool(name, config, run); }",
])
def test_each_item_of_a_tuple_binds_its_place(loop):
    p = program({"index.js": MAIN.replace("LOOP", loop), "tools.js": TOOLS,
                 "package.json": '{"name": "s", "type": "module", "main": "index.js"}'})
    led = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("alpha", "analysed"), ("beta", "analysed")]
    assert led["complete"] is True, led["unresolved"]
