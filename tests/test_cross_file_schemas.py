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


KINDS = '''export const KIND_NOTE = "note" as const;
export const KIND_TASK = "task" as const;
export const KINDS = [KIND_NOTE, KIND_TASK];
'''

ENUM_TOOL = '''import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { KIND_NOTE, KIND_TASK, KINDS } from "./kinds.js";

const server = new McpServer({ name: "z", version: "1.0.0" });
server.registerTool("add", {
  description: "Add an item.",
  inputSchema: {
    kind: z.enum([KIND_NOTE, KIND_TASK]).default(KIND_NOTE),
    also: z.enum(KINDS as [string, ...string[]]).optional(),
    other: z.enum([KIND_NOTE, UNKNOWN_KIND]).optional(),
  },
}, async ({ kind }) => ({ content: [{ type: "text", text: kind }] }));
async function main() { await server.connect(new StdioServerTransport()); }
main().catch(() => process.exit(1));
'''


def test_enum_values_are_constants_of_another_module(tmp_path):
    repo = tmp_path / "repo"
    init_repo(repo, {"index.ts": ENUM_TOOL, "kinds.ts": KINDS, "package.json": PACKAGE})
    doc = audit(repo, tmp_path / "out")
    props = _props(doc, "add")
    assert props["kind"]["type"] == "string"
    assert props["kind"]["constraints"] == {"enum": ["note", "task"], "default": "note"}
    assert props["also"]["constraints"] == {"enum": ["note", "task"]}  # an array built there of constants there
    # a name bound nowhere stays a gap, at its own line
    gaps = [g for g in doc["coverage"]["gaps"] if g["kind"] == "schema"]
    assert [g["anchor"]["start_line"] for g in gaps] == [ENUM_TOOL.splitlines().index(
        "    other: z.enum([KIND_NOTE, UNKNOWN_KIND]).optional(),") + 1]
    assert "z.enum() values at `other` are not a literal list" in gaps[0]["detail"]
