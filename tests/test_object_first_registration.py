"""A tool registration written as one object with the tool's name and a callback after it (tmcp's
`server.tool({ name, description, schema }, callback)`): the object convention of kb/sdk.yaml high_level.object,
whatever the method's own, on a server of a package of kb/sdk.yaml sdk_packages or handed to a function."""

from __future__ import annotations

from program_helpers import program

SERVER = '''import { McpServer } from "tmcp";
import { ZodJsonSchemaAdapter } from "@tmcp/adapter-zod";
import { z } from "zod";
import { registerMore } from "./more.js";
const server = new McpServer({ name: "objects", version: "1.0.0" }, { adapter: new ZodJsonSchemaAdapter(),
  capabilities: { tools: {} } });
server.tool({ name: "greet", description: "Greet someone", schema: z.object({ who: z.string() }) },
  async ({ who }) => ({ content: [{ type: "text", text: "hello " + who }] }));
registerMore(server);
'''
MORE = '''import { z } from "zod";
const Count = z.object({ n: z.number().int() });
export function registerMore(server) {
  server.tool({ name: "count", description: "Count up", schema: Count }, async ({ n }) => ({ content: [] }));
}
'''


def test_an_object_first_registration_is_a_tool_with_its_schema_and_callback():
    p = program({"index.js": SERVER, "more.js": MORE})
    tools = {t.name: t for t in p.tools}
    assert sorted(tools) == ["count", "greet"]
    assert tools["greet"].description == "Greet someone"
    assert tools["greet"].schema["properties"] == {"who": {"type": "string"}}
    assert tools["count"].schema["properties"]["n"]["type"] == "integer"
    assert sorted(d.tool for d in p.dispatches if d.target is not None) == ["count", "greet"]


def test_a_tool_call_with_a_name_first_keeps_the_sdk_convention():
    # the SDK's `server.tool("name", "description", shape, callback)`: not an object first
    sdk = SERVER.replace('import { McpServer } from "tmcp";', 'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";') \
        .replace('server.tool({ name: "greet", description: "Greet someone", schema: z.object({ who: z.string() }) },',
                 'server.tool("greet", "Greet someone", { who: z.string() },')
    p = program({"index.js": sdk, "more.js": MORE})
    tools = {t.name: t for t in p.tools}
    assert sorted(tools) == ["count", "greet"] and tools["greet"].schema["properties"] == {"who": {"type": "string"}}
