"""A high-level server constructed in one module and used in another: the registrations of an importing module are the
server's, whether it imports the server itself, the module as a namespace, or a factory that makes it."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import program

MANIFEST = '{"name": "relay-desk", "bin": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'
CLIENTS = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
export const server = new McpServer({ name: "relay-desk", version: "1.0.0" });
export function makeServer() { return new McpServer({ name: "relay-desk-2", version: "1.0.0" }); }
'''
# expect: post_note (the imported server), pin_note (through the namespace), and file_note (registered by a helper
# that receives the name), on the imported factory's server: tag_note.
TOOLS = '''import { server } from "./clients.js";
import * as clients from "./clients.js";
import { makeServer } from "./clients.js";
function createHandler(name, description, handler) {
  server.tool(name, description, {}, async (args) => ({ content: [{ type: "text", text: String(await handler(args)) }] }));
}
server.tool("post_note", "Post a note.", {}, async () => ({ content: [] }));
clients.server.tool("pin_note", "Pin a note.", {}, async () => ({ content: [] }));
createHandler("file_note", "File a note.", async () => "filed");
export const second = makeServer();
second.tool("tag_note", "Tag a note.", {}, async () => ({ content: [] }));
'''
INDEX = '''import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { server } from "./clients.js";
import "./tools.js";
await server.connect(new StdioServerTransport());
'''


def test_registrations_on_a_server_another_module_constructs_are_its_tools():
    p = program({"package.json": MANIFEST, "clients.js": CLIENTS, "tools.js": TOOLS, "index.js": INDEX})
    assert sorted(t.name for t in p.tools) == ["file_note", "pin_note", "post_note", "tag_note"]
    led = coverage.ledger(p)
    assert {t["status"] for t in led["tools"]} == {"analysed"}
    assert led["unresolved"] == [] and led["complete"] is True


SCHEMAS = '''import { z } from "zod";
export const searchShape = { query: z.string().describe("What to find"), page: z.number().optional() };
export const SortSchema = z.object({ field: z.string() });
'''
BARREL = 'export * from "./levels.js";\nexport { searchShape, SortSchema } from "./search.js";\n'
LEVELS = 'import { z } from "zod";\nexport const level = z.enum(["low", "high"]);\n'
SHAPED = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { searchShape, SortSchema } from "./schemas/index.js";
const server = new McpServer({ name: "relay-desk", version: "1.0.0" });
server.tool("search", "Search notes.", searchShape, { title: "Search", readOnlyHint: true }, async () => ({ content: [] }));
server.tool("sort", "Sort notes.", SortSchema.shape, async () => ({ content: [] }));
await server.connect(new StdioServerTransport());
'''


def test_a_parameter_shape_imported_through_a_barrel_is_the_schema_not_annotations():
    """`tool(name, description, searchShape, annotations, cb)` with the shape imported (through `export { } from`
    beside `export *`): the SDK takes it as the parameters, so does the audit; not an empty schema."""
    p = program({"package.json": MANIFEST.replace("index.js", "index.ts"), "index.ts": SHAPED,
                 "schemas/index.ts": BARREL, "schemas/search.ts": SCHEMAS, "schemas/levels.ts": LEVELS})
    tools = {t.name: t for t in p.tools}
    assert tools["search"].schema == {"type": "object", "properties": {
        "query": {"type": "string", "description": "What to find"}, "page": {"type": "number"}}, "required": ["query"]}
    assert tools["search"].annotations == {"title": "Search", "readOnlyHint": True}
    assert tools["sort"].schema["properties"] == {"field": {"type": "string"}}
