"""A table of tool entries (`{ definition, handler }`) looked up by a helper that hands back one member of the entry
(`getToolHandler = (name) => tools[name]?.handler`), which the tools/call handler then runs: each entry is a
dispatch to that member's function, written in place or named (`handler: firstHandler`, imported). Every server
here is written for the test."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import program

FIRST = ('export const firstDefinition = { name: "first_tool", description: "First", inputSchema: { type: "object" } };\n'
         'export const firstHandler = async (args) => ({ content: [{ type: "text", text: "1" }] });\n')
TOOLS = ('import { firstDefinition, firstHandler } from "./first.js";\n'
         'export const tools = {\n'
         '  first_tool: { definition: firstDefinition, handler: firstHandler },\n'
         '  second_tool: { definition: { name: "second_tool", description: "Second", inputSchema: { type: "object" } },\n'
         '                 handler: async () => ({ content: [] }) },\n'
         '};\n'
         'export const getToolDefinitions = () => Object.values(tools).map((tool) => tool.definition);\n'
         'export const getToolHandler = (name) => tools[name]?.handler;\n')
INDEX = ('import { Server } from "@modelcontextprotocol/sdk/server/index.js";\n'
         'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
         'import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";\n'
         'import { getToolDefinitions, getToolHandler } from "./tools/index.js";\n'
         'const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });\n'
         'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: getToolDefinitions() }));\n'
         'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
         '  const { name, arguments: args } = request.params;\n'
         '  const handler = getToolHandler(name);\n'
         '  if (!handler) throw new Error(`Unknown tool: ${name}`);\n'
         '  return handler(args);\n'
         '});\n'
         'await server.connect(new StdioServerTransport());\n')


def test_a_member_of_the_entry_a_lookup_helper_hands_back_is_each_tool_s_dispatch():
    p = program({"index.js": INDEX, "tools/index.js": TOOLS, "tools/first.js": FIRST,
                 "package.json": '{"name": "s", "type": "module", "main": "index.js"}'})
    led = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("first_tool", "analysed"), ("second_tool", "analysed")]
    assert led["complete"] is True, led["unresolved"]
    targets = {d.tool: (d.target_name, d.target.text.decode()[:13]) for d in p.dispatches}
    assert targets == {"first_tool": ("first_tool.handler", "async (args) "), "second_tool": ("second_tool.handler", "async () => (")}
