"""A registration's config that is a member of a constant object literal (`registerTool("x", Schemas.basic, cb)`, the
object in this module or imported) is read as that literal: its description, schema and annotations. A member the
code assigns to elsewhere is not a constant: it stays a gap."""

from __future__ import annotations

from program_helpers import program

MANIFEST = '{"name": "clinic", "version": "1.0.0", "bin": {"clinic": "index.ts"}}'

# expect: pulse (local record member), vitals (nested member), chart (imported record member) read whole; drift
# (a member reassigned later) not read.
CONFIGS = '''
export const RemoteConfigs = {
  chart: { title: "Chart", description: "Show the chart", inputSchema: {} },
};
'''

INDEX = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { RemoteConfigs } from "./configs.js";

var CheckConfigs = {
  pulse: { title: "Pulse", description: "Take the pulse", inputSchema: {}, annotations: { readOnlyHint: true } },
  deep: { vitals: { description: "Read the vitals", inputSchema: {} } },
  drift: { description: "Drift", inputSchema: {} },
};

class Clinic {
  server = new McpServer({ name: "clinic", version: "1.0.0" });
  setup() {
    this.server.registerTool("pulse", CheckConfigs.pulse, async () => ({ content: [] }));
    this.server.registerTool("vitals", CheckConfigs.deep.vitals, async () => ({ content: [] }));
    this.server.registerTool("chart", RemoteConfigs.chart, async () => ({ content: [] }));
    this.server.registerTool("drift", CheckConfigs.drift, async () => ({ content: [] }));
  }
}
CheckConfigs.drift = { description: "Moved", inputSchema: {} };

const clinic = new Clinic();
clinic.setup();
clinic.server.connect(new StdioServerTransport());
'''


def test_a_config_that_is_a_member_of_a_constant_record_is_read_as_that_literal():
    p = program({"index.ts": INDEX, "configs.ts": CONFIGS, "package.json": MANIFEST})
    tools = {t.name: t for t in p.tools}
    assert sorted(tools) == ["chart", "drift", "pulse", "vitals"]
    assert tools["pulse"].description == "Take the pulse"
    assert tools["pulse"].annotations == {"readOnlyHint": True}
    assert tools["vitals"].description == "Read the vitals"
    assert tools["chart"].description == "Show the chart"
    assert tools["drift"].description is None
    details = [g.detail for g in p.gaps if "not an object literal" in g.detail]
    assert len(details) == 1 and "'drift'" in details[0]


ALIASED = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
var toolDefinition = {
  name: "list_parts",
  config: { description: "List the parts", inputSchema: { kind: z.string().optional() } },
  handler: async () => ({ content: [] }),
};
var listParts_default = toolDefinition;
var server = new McpServer({ name: "parts", version: "1.0.0" });
server.registerTool(listParts_default.name, listParts_default.config, listParts_default.handler);
await server.connect(new StdioServerTransport());
'''


def test_a_member_of_an_alias_of_a_record_is_read_in_the_record():
    """`var list_default = toolDefinition;` (a bundler's default export of a tool module) then
    `registerTool(list_default.name, list_default.config, ...)`: the config is the record's, read whole."""
    p = program({"index.js": ALIASED, "package.json": '{"name": "parts", "main": "index.js"}'})
    (tool,) = p.tools
    assert (tool.name, tool.description, tool.schema_form) == ("list_parts", "List the parts", "zod")
    assert set(tool.schema["properties"]) == {"kind"}
    assert [g.detail for g in tool.gaps] == []
