"""A table of tools keyed by name, walked as `[name, tool]` tuples of Object.entries: by a `forEach`/`map` callback whose
parameter is that tuple, or a `for ... of` loop; the name is the key, joined with `+` or a template as written."""

from __future__ import annotations

from program_helpers import SDK, program

TABLE = '''const TOOLS = {
  get_user: { description: "Get a user", inputSchema: { type: "object", properties: { id: { type: "string" } } },
              handler: async (a) => ({ content: [] }) },
  list_users: { description: "List users", inputSchema: { type: "object", properties: {} },
                handler: async (a) => ({ content: [] }) },
};
'''
LOW = SDK + TABLE + '''const server = new Server({ name: "x", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: Object.entries(TOOLS).map(([name, tool]) => ({ name, description: tool.description, inputSchema: tool.inputSchema })),
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = TOOLS[request.params.name];
  if (!tool) throw new Error("unknown");
  return tool.handler(request.params.arguments);
});
await server.connect(new StdioServerTransport());
'''
HIGH = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
const MORE = { ping: { description: "Ping", run: async () => ({ content: [] }) } };
const server = new McpServer({ name: "y", version: "1.0.0" });
Object.entries(MORE).forEach(([name, t]) => server.tool(name, t.description, t.run));
for (const [name, t] of Object.entries(MORE)) server.tool("alt_" + name, t.description, t.run);
await server.connect(new StdioServerTransport());
'''
PACKAGE = '{"name": "x", "version": "1.0.0", "bin": "dist/index.js"}'


def test_a_listing_mapped_from_entries_names_each_tool_by_its_key():
    p = program({"package.json": PACKAGE, "dist/index.js": LOW})
    assert sorted((t.name, t.description) for t in p.tools) == [("get_user", "Get a user"), ("list_users", "List users")]
    assert not p.gaps and all(not l.unnamed for l in p.listings)


def test_registrations_in_a_callback_or_loop_over_entries_are_named_by_the_key():
    p = program({"package.json": PACKAGE, "dist/index.js": HIGH})
    assert sorted((t.name, t.description) for t in p.tools) == [("alt_ping", "Ping"), ("ping", "Ping")]
    assert sorted((d.tool, d.target is not None) for d in p.dispatches) == [("alt_ping", True), ("ping", True)]
    assert not p.gaps


def test_a_minified_boolean_in_a_descriptor_is_read_as_the_boolean():
    minified = SDK + '''const server = new Server({ name: "m", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "open_box", description: "Open",
  inputSchema: { type: "object", properties: { readOnly: { type: "boolean", default: !1 }, all: { type: "boolean", default: !0 } } } }] }));
server.setRequestHandler(CallToolRequestSchema, async (e) => { const { name: t } = e.params; switch (t) { case "open_box": return { content: [] }; } throw new Error("?"); });
await server.connect(new StdioServerTransport());
'''
    p = program({"package.json": PACKAGE, "dist/index.js": minified})
    tool, = p.tools
    assert tool.schema["properties"] == {"readOnly": {"type": "boolean", "default": False},
                                         "all": {"type": "boolean", "default": True}}
    assert not p.gaps and [d.tool for d in p.dispatches] == ["open_box"]


def test_request_schemas_imported_under_a_minifier_s_names_are_those_requests():
    minified = '''import { Server as e } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport as t } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ListToolsRequestSchema as n, CallToolRequestSchema as r } from "@modelcontextprotocol/sdk/types.js";
class Mail { constructor() { this.server = new e({ name: "m", version: "1" }, { capabilities: { tools: {} } }); this.setup(); }
  setup() {
    this.server.setRequestHandler(n, async () => ({ tools: [{ name: "open_box", description: "Open", inputSchema: { type: "object", properties: {} } }] }));
    this.server.setRequestHandler(r, async (e) => { const { name: t, arguments: n } = e.params; try { switch (t) { case "open_box": return { content: [] }; } } catch (x) { throw x; } throw new Error("?"); });
  }
  async run() { await this.server.connect(new t()); }
}
new Mail().run();
'''
    p = program({"package.json": PACKAGE, "dist/index.js": minified})
    assert sorted(h.method for h in p.handlers) == ["tools/call", "tools/list"]
    assert [t.name for t in p.tools] == ["open_box"] and [d.tool for d in p.dispatches] == ["open_box"]


REDUCED = {"package.json": '{"name":"x","version":"1.0.0","type":"module","bin":"dist/index.js"}',
"dist/index.js": '''import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { initMcpServer } from "./init.js";
import { ALL_TOOLS } from "./tools.js";
await initMcpServer(ALL_TOOLS).connect(new StdioServerTransport());
''',
"dist/init.js": '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { buildToolsRecord } from "./record.js";
export function initMcpServer(tools) {
  const server = new McpServer({ name: "x", version: "1.0.0" });
  const defs = buildToolsRecord(tools);
  for (const [toolName, tool] of Object.entries(defs)) {
    server.registerTool(toolName, { description: tool.description }, (args) => tool.handler(args));
  }
  return server;
}''',
"dist/record.js": '''function buildToolDefinition(tool) { return { description: tool.description, handler: async (p) => tool.invoke(p) }; }
export function buildToolsRecord(tools) {
  return tools.reduce((acc, tool) => { acc[tool.name] = buildToolDefinition(tool); return acc; }, {});
}''',
"dist/tools.js": '''class BaseTool { async invoke(p) { return { content: [] }; } }
class DocsIndexTool extends BaseTool { name = "docs_index"; description = "Index the docs"; }
class DocsSearchTool extends BaseTool { name = "docs_search"; description = "Search the docs"; }
export const ALL_TOOLS = [new DocsIndexTool(), new DocsSearchTool()];
'''}


def test_a_record_a_reduce_fills_from_a_list_of_tool_objects_names_each_by_its_key():
    """`tools.reduce((acc, tool) => { acc[tool.name] = build(tool); return acc; }, {})`, returned by a function the
    server is built by (its list a parameter, handed by the caller), walked as Object.entries: one tool per element,
    named by what the key is for it (a class field)."""
    p = program(REDUCED)
    assert sorted((t.name, t.description) for t in p.tools) == [("docs_index", "Index the docs"),
                                                                ("docs_search", "Search the docs")]
    assert sorted(d.tool for d in p.dispatches if d.target is not None) == ["docs_index", "docs_search"]
    assert not p.gaps
