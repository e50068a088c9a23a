"""Schemas imported from another module of the boundary are read there (zodToJsonSchema and registerTool)."""

from __future__ import annotations

from contract_helpers import audit, init_repo

SCHEMAS = '''import { z } from "zod";
export const Base = z.object({
  q: z.string().describe("the query"),
  limit: z.number().int().min(1).max(50).optional(),
});
export const SearchArgs = Base;
'''

LOW_LEVEL = '''import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { zodToJsonSchema } from "zod-to-json-schema";
import * as schemas from "./schemas.js";

const server = new Server({ name: "x", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: "search", description: "Search.", inputSchema: zodToJsonSchema(schemas.SearchArgs) }],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === "search") {
    return { content: [{ type: "text", text: "none" }] };
  }
  throw new Error("unknown tool");
});
async function main() { await server.connect(new StdioServerTransport()); }
main().catch(() => process.exit(1));
'''

HIGH_LEVEL = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { Base } from "./schemas.js";

const server = new McpServer({ name: "y", version: "1.0.0" });
server.registerTool("find", { description: "Find.", inputSchema: Base.shape }, async ({ q }) => ({
  content: [{ type: "text", text: q }],
}));
async function main() { await server.connect(new StdioServerTransport()); }
main().catch(() => process.exit(1));
'''

PACKAGE = '{"name": "x", "version": "1.0.0", "dependencies": {"@modelcontextprotocol/sdk": "1.0.0", "zod": "3.0.0"}}\n'


def _props(doc: dict, tool: str) -> dict:
    schema = next(o for o in doc["objects"] if o["id"] == f"OBJ:tool-schema:{tool}")
    return {p["name"]: p for p in schema["properties"]}


def test_zod_to_json_schema_of_a_namespace_import(tmp_path):
    repo = tmp_path / "repo"
    init_repo(repo, {"index.ts": LOW_LEVEL, "schemas.ts": SCHEMAS, "package.json": PACKAGE})
    doc = audit(repo, tmp_path / "out")
    props = _props(doc, "search")
    assert props["q"]["type"] == "string" and props["q"]["required"] is True
    assert props["limit"]["type"] == "integer" and props["limit"]["required"] is False
    assert props["limit"]["constraints"].get("maximum") == 50
    assert doc["coverage"]["complete"] is True and doc["coverage"]["gaps"] == []


def test_shape_of_a_named_import_in_register_tool(tmp_path):
    repo = tmp_path / "repo"
    init_repo(repo, {"index.ts": HIGH_LEVEL, "schemas.ts": SCHEMAS, "package.json": PACKAGE})
    doc = audit(repo, tmp_path / "out")
    props = _props(doc, "find")
    assert set(props) == {"q", "limit"} and props["q"]["required"] is True
    assert doc["coverage"]["gaps"] == []
