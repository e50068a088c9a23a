"""A registration helper that picks the SDK call by which members the tool object has (`if (schema && description)
server.tool(name, description, schema, cb); else if (schema) server.tool(name, schema, cb); else server.tool(name,
cb)`, the members destructured from the object): for each tool object, only the branch its members take registers
it, so a tool with no description is not read through the call that hands one, and a call no tool object takes
registers nothing (no gap). Every server here is written for the test."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import program

MAIN = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
const registerTool = ({ server, tool }) => {
  const { name, callback, argsSchema, description } = tool;
  if (argsSchema && description) {
    server.tool(name, description, argsSchema, callback);
  } else if (argsSchema) {
    server.tool(name, argsSchema, callback);
  } else {
    server.tool(name, callback);
  }
};
const aTool = () => ({ name: "alpha", description: "A", argsSchema: { q: z.string() }, callback: async () => ({ content: [] }) });
const bTool = (env) => {
  const known = new Set(Object.keys(env));
  return { name: "beta", argsSchema: { q: z.string() },
           callback: async ({ q }) => ({ content: [{ type: "text", text: String(known.has(q)) }] }) };
};
const server = new McpServer({ name: "s", version: "1" });
registerTool({ server, tool: aTool() });
registerTool({ server, tool: bTool(process.env) });
await server.connect(new StdioServerTransport());
'''


def test_each_tool_object_is_registered_by_the_branch_its_members_take():
    p = program({"index.js": MAIN, "package.json": '{"name": "s", "type": "module", "main": "index.js"}'})
    led = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("alpha", "analysed"), ("beta", "analysed")]
    assert p.gaps == () and led["complete"] is True


def test_a_member_destructured_with_a_default_is_not_taken_for_absent():
    """`const { description = "Tool." } = tool`: an object with no description has the default, which is true; the
    first branch registers it, handing a description the audit does not read as the tool's literal (a detail gap),
    not the second, which hands none."""
    text = MAIN.replace("const { name, callback, argsSchema, description } = tool;",
                        'const { name, callback, argsSchema, description = "Tool." } = tool;')
    p = program({"index.js": text, "package.json": '{"name": "s", "type": "module", "main": "index.js"}'})
    assert [g.kind for g in p.gaps if "tool 'beta'" in g.detail] == ["description"]
