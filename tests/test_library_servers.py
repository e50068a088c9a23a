"""A library that ships an MCP server class and never constructs it (its users do): the class that extends the SDK's
server class is the server, named by its `super(...)` call, and its tools are what its constructor registers.

The server here is written for the test."""

from __future__ import annotations

import json

from auditor.analyse import coverage
from program_helpers import program

TOOLKIT = '''
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const TOOLS = [
  { method: "create_note", description: "Create a note", parameters: z.object({ text: z.string() }) },
  { method: "list_notes", description: "List notes", parameters: z.object({}) },
];
export class NotesToolkit extends McpServer {
  constructor({ allowed }) {
    super({ name: "Notes", version: "2.0.0" });
    TOOLS.filter((t) => allowed.includes(t.method)).forEach((tool) => {
      this.tool(tool.method, tool.description, tool.parameters.shape, async (args) => ({ content: [] }));
    });
  }
}
'''
OTHER = 'import { generateText } from "ai";\nexport const ask = (tools) => generateText({ tools });\n'


def test_a_server_class_no_code_of_the_library_constructs_is_its_server():
    manifest = {"name": "notes-toolkit", "exports": {"./mcp": "./mcp/index.js", "./ai": "./ai/index.js"},
                "dependencies": {"@modelcontextprotocol/sdk": "^1.0.0", "ai": "^4.0.0", "zod": "^3.0.0"}}
    p = program({"package.json": json.dumps(manifest), "mcp/index.js": TOOLKIT, "ai/index.js": OTHER})
    assert [(s.cls, s.info.get("name"), s.var) for s in p.servers] == [("McpServer", "Notes", "this")]
    ledger = coverage.ledger(p)
    assert sorted(t["name"] for t in ledger["tools"]) == ["create_note", "list_notes"]
    assert ledger["unresolved"] == [] and ledger["complete"]


def test_a_server_class_that_is_constructed_is_the_server_once():
    code = TOOLKIT + 'export const server = new NotesToolkit({ allowed: ["list_notes"] });\n'
    p = program({"package.json": '{"name": "notes", "main": "index.js"}', "index.js": code})
    assert [(s.cls, s.info.get("name"), s.var) for s in p.servers] == [("McpServer", "Notes", "server")]
