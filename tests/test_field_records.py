"""A record of tool objects a class keeps in a field (`this.tools = { echo_text: new Echo() }` in its constructor),
listed by its keys (`Object.entries(this.tools).map(([name, tool]) => ({ name, ... }))`) and looked up by the
requested name (`if (!this.tools[name]) throw ...; this.tools[name].execute(args)`): each key is a tool, and the
lookup is its dispatch. Every server here is written for the test."""

from __future__ import annotations

import pytest

from auditor.analyse import coverage
from program_helpers import program

SERVER = ('import { Server } from "@modelcontextprotocol/sdk/server/index.js";\n'
          'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
          'import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";\n'
          'class Echo {\n'
          '  constructor() { this.description = "Echo"; this.inputSchema = { type: "object", properties: {} }; }\n'
          '  async execute(a) { return a.text; }\n'
          '}\n'
          'class App {\n'
          '  constructor() {\n'
          '    this.server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });\n'
          '    this.tools = { echo_text: new Echo(), "echo_again": new Echo() };\n'
          '    this.setup();\n'
          '  }\n'
          '  setup() {\n'
          '    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({\n'
          '      tools: Object.entries(this.tools).map(([name, tool]) => ({ name, description: tool.description,\n'
          '        inputSchema: tool.inputSchema })),\n'
          '    }));\n'
          '    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
          '      const { name, arguments: args } = request.params;\n'
          'GUARD'
          '      const result = await this.tools[name].execute(args);\n'
          '      return { content: [{ type: "text", text: String(result) }] };\n'
          '    });\n'
          '  }\n'
          '  async run() { await this.server.connect(new StdioServerTransport()); }\n'
          '}\n'
          'new App().run();\n')


@pytest.mark.parametrize("guard", [
    "",
    '      if (!this.tools[name]) { throw new Error(`Unknown tool: ${name}`); }\n',
])
def test_the_keys_of_a_field_record_are_the_tools_and_its_lookup_their_dispatch(guard):
    p = program({"server.js": SERVER.replace("GUARD", guard),
                 "package.json": '{"name": "s", "type": "module", "main": "server.js"}'})
    led = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("echo_again", "analysed"), ("echo_text", "analysed")]
    assert led["complete"] is True, led["unresolved"]
