"""A JSON file of the package the code loads by a relative path (`require("./tools.json")`, `import tools from
"./tools.json" with { type: "json" }`) is data the code reads: its value is followed as a literal written in the
code would be, so a tool list kept there is read whole. A JSON file no code loads stays configuration. Every server
here is written for the test."""

from __future__ import annotations

import pytest

from auditor.analyse import coverage
from program_helpers import SDK, program

TOOLS = ('[\n'
         '  {"name": "add_note", "description": "Add a note",\n'
         '   "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},\n'
         '  {"name": "list_notes", "description": "List notes", "inputSchema": {"type": "object", "properties": {}}}\n'
         ']\n')
SERVER = ('LOAD\n' + SDK +
          'const notes: string[] = [];\n'
          'const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });\n'
          'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));\n'
          'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
          '  const { name, arguments: args } = request.params as any;\n'
          '  switch (name) {\n'
          '    case "add_note": notes.push(args.text); return { content: [{ type: "text", text: "ok" }] };\n'
          '    case "list_notes": return { content: [{ type: "text", text: notes.join("\\n") }] };\n'
          '  }\n'
          '  throw new Error("unknown tool");\n'
          '});\n')


@pytest.mark.parametrize("load", [
    'const tools = require("./data/tools.json");',
    'import tools from "./data/tools.json" with { type: "json" };',
])
def test_a_tool_list_the_code_loads_from_a_json_file_is_read_whole(load):
    p = program({"index.ts": SERVER.replace("LOAD", load), "data/tools.json": TOOLS, "data/other.json": TOOLS,
                 "package.json": '{"name": "s", "main": "index.ts"}'})
    led = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("add_note", "analysed"), ("list_notes", "analysed")]
    assert led["complete"] is True, led["unresolved"]
    assert sorted(m.path for m in p.modules) == ["data/tools.json", "index.ts"]  # (other.json: loaded by nothing)
    listed = next(t for t in p.tools if t.name == "add_note")
    assert (listed.module.path, listed.node.start_point[0] + 1) == ("data/tools.json", 2)  # on the file's own line
