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


MODULES = ('export const noteTools = {\n'
           '  note_add: { description: "Add a note", inputSchema: {}, handler: async () => ({ content: [] }) },\n'
           '  note_list: { description: "List notes", inputSchema: {}, handler: async () => ({ content: [] }) },\n'
           '};\n'
           'export const tagTools = {\n'
           '  tag_add: { description: "Tag a note", inputSchema: {}, handler: async () => ({ content: [] }) },\n'
           '};\n')
REGISTER = ('import { noteTools, tagTools } from "./modules.js";\n'
            'const modules = [noteTools, tagTools];\n'
            'export function registerAll(server) {\n'
            '  for (const mod of modules) {\n'
            '    for (const [name, tool] of Object.entries(mod)) {\n'
            '      server.CALL;\n'
            '    }\n'
            '  }\n'
            '}\n')


@pytest.mark.parametrize("call", [
    "tool(name, tool.description, tool.inputSchema, tool.handler)",
    "tool(name, tool.description, tool.handler)",
    "registerTool(name, { description: tool.description, inputSchema: tool.inputSchema }, tool.handler)",
])
def test_a_name_a_loop_binds_registers_on_a_server_parameter(call):
    """`for (const [name, tool] of Object.entries(mod)) server.tool(name, ...)` in a function handed the server (no
    type to tell, compiled JavaScript): the loop's `name` is a name read at each entry, so the call has the SDK's
    shape, also through the `tool` overloads that register only on a server."""
    main = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'import { registerAll } from "./register.js";\n'
            'const server = new McpServer({ name: "s", version: "1" });\n'
            'registerAll(server);\n')
    p = program({"index.js": main, "register.js": REGISTER.replace("CALL", call), "modules.js": MODULES,
                 "package.json": '{"name": "s", "type": "module", "main": "index.js"}'})
    led = coverage.ledger(p)
    assert sorted(t["name"] for t in led["tools"]) == ["note_add", "note_list", "tag_add"]
    assert led["complete"] is True, led["unresolved"]
