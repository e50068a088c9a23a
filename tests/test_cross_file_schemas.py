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


def _audit(tmp_path, files: dict[str, str]) -> dict:
    """audit.json of a repository of FILES and the package manifest."""
    repo = tmp_path / "repo"
    init_repo(repo, {**files, "package.json": PACKAGE})
    return audit(repo, tmp_path / "out")


def test_zod_to_json_schema_of_a_namespace_import(tmp_path):
    doc = _audit(tmp_path, {"index.ts": LOW_LEVEL, "schemas.ts": SCHEMAS})
    props = _props(doc, "search")
    assert props["q"]["type"] == "string" and props["q"]["required"] is True
    assert props["limit"]["type"] == "integer" and props["limit"]["required"] is False
    assert props["limit"]["constraints"].get("maximum") == 50
    assert doc["coverage"]["complete"] is True and doc["coverage"]["gaps"] == []


def test_shape_of_a_named_import_in_register_tool(tmp_path):
    doc = _audit(tmp_path, {"index.ts": HIGH_LEVEL, "schemas.ts": SCHEMAS})
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
    doc = _audit(tmp_path, {"index.ts": ENUM_TOOL, "kinds.ts": KINDS})
    props = _props(doc, "add")
    assert props["kind"]["type"] == "string"
    assert props["kind"]["constraints"] == {"enum": ["note", "task"], "default": "note"}
    assert props["also"]["constraints"] == {"enum": ["note", "task"]}  # an array built there of constants there
    # a name bound nowhere stays a gap, at its own line
    gaps = [g for g in doc["coverage"]["gaps"] if g["kind"] == "schema"]
    assert [g["anchor"]["start_line"] for g in gaps] == [ENUM_TOOL.splitlines().index(
        "    other: z.enum([KIND_NOTE, UNKNOWN_KIND]).optional(),") + 1]
    assert "z.enum() values at `other` are not a literal list" in gaps[0]["detail"]


ALGEBRA_SCHEMAS = '''import { z } from "zod";
export const Base = z.strictObject({ id: z.string().describe("the record") });
export const Extra = z.object({ tag: z.string().optional() });
export const Wide = z.object({ a: z.string(), b: z.number(), c: z.boolean() });
'''

ALGEBRA_TOOLS = '''import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { Base, Extra, Wide } from "./schemas.js";

const server = new McpServer({ name: "w", version: "1.0.0" });
const Local = Base.extend({ n: z.number().int() });
const reply = async () => ({ content: [{ type: "text", text: "ok" }] });
server.registerTool("extended", { description: "E.", inputSchema: Base.extend({ q: z.string().min(2) }) }, reply);
server.registerTool("named", { description: "N.", inputSchema: Local }, reply);
server.registerTool("merged", { description: "M.", inputSchema: Base.merge(Extra).describe("both") }, reply);
server.registerTool("picked", { description: "P.", inputSchema: Wide.pick({ a: true, c: true }) }, reply);
server.registerTool("omitted", { description: "O.", inputSchema: Wide.omit({ a: true }).partial() }, reply);
server.registerTool("spread", { description: "S.", inputSchema: { ...Base.shape, ...Wide.pick({ b: true }).shape } }, reply);
server.registerTool("rewrapped", { description: "R.", inputSchema: z.object(Wide.shape).required().passthrough() }, reply);
async function main() { await server.connect(new StdioServerTransport()); }
main().catch(() => process.exit(1));
'''


def test_schema_algebra_on_schemas_of_another_module(tmp_path):
    """`.extend/.merge/.pick/.omit/.partial/.required` and `.shape` spreads over a schema imported from another module
    read to a property list, each property read where it is written."""
    doc = _audit(tmp_path, {"index.ts": ALGEBRA_TOOLS, "schemas.ts": ALGEBRA_SCHEMAS})
    required = {name: {n for n, p in _props(doc, name).items() if p["required"]}
                for name in ("extended", "named", "merged", "picked", "omitted", "spread", "rewrapped")}
    assert set(_props(doc, "extended")) == {"id", "q"} and required["extended"] == {"id", "q"}
    assert _props(doc, "extended")["id"]["description"] == "the record"
    assert _props(doc, "extended")["q"]["constraints"] == {"minLength": 2}
    assert set(_props(doc, "named")) == {"id", "n"} and _props(doc, "named")["n"]["type"] == "integer"
    assert set(_props(doc, "merged")) == {"id", "tag"} and required["merged"] == {"id"}
    assert set(_props(doc, "picked")) == {"a", "c"} and required["picked"] == {"a", "c"}
    assert set(_props(doc, "omitted")) == {"b", "c"} and required["omitted"] == set()
    assert set(_props(doc, "spread")) == {"id", "b"} and required["spread"] == {"id", "b"}
    assert set(_props(doc, "rewrapped")) == {"a", "b", "c"} and required["rewrapped"] == {"a", "b", "c"}
    assert doc["coverage"]["gaps"] == []


def test_algebra_on_an_unreadable_imported_schema_stays_a_gap(tmp_path):
    """What cannot be read stays a gap: a schema another module builds at run time is not read as any shape."""
    schemas = ALGEBRA_SCHEMAS + 'export const Dynamic = z.object(Object.fromEntries(KEYS.map((k) => [k, z.string()])));\n'
    tools = ALGEBRA_TOOLS.replace('import { Base, Extra, Wide } from "./schemas.js";',
                                  'import { Base, Extra, Wide, Dynamic } from "./schemas.js";').replace(
        'async function main()', 'server.registerTool("dynamic", { description: "D.", inputSchema: '
        'Dynamic.extend({ q: z.string() }) }, reply);\nasync function main()')
    doc = _audit(tmp_path, {"index.ts": tools, "schemas.ts": schemas})
    gaps = [g for g in doc["coverage"]["gaps"] if "'dynamic'" in g["detail"]]
    assert gaps and all(g["kind"] == "schema" for g in gaps)
    assert not any(o["id"] == "OBJ:tool-schema:dynamic" and o.get("literal") for o in doc["objects"])
    assert next(t for t in doc["coverage"]["tools"] if t["name"] == "dynamic")["status"] != "analysed"


COERCING = '''import { z } from "zod";
export const Lookup = z.object({
  name: z.preprocess((v) => String(v).split(","), z.array(z.string())),
  count: z.coerce.number().optional(),
});
'''


def test_a_coercion_in_an_imported_schema_is_a_finding_anchored_where_it_is_written(tmp_path):
    """A `z.preprocess()` or `z.coerce` written in the module a schema is imported from is a schema-coercion finding with
    its anchor in that module (not a gap: the coercion knows its file)."""
    doc = _audit(tmp_path, {"index.ts": LOW_LEVEL.replace("schemas.SearchArgs", "schemas.Lookup"), "schemas.ts": COERCING})
    assert [g for g in doc["coverage"]["gaps"] if g["kind"] == "schema"] == []
    found = {f["field"]: f for f in doc["findings"] if f["id"].startswith("FND:schema-coercion:search/")}
    assert set(found) == {"name", "count"}
    assert {a["path"] for f in found.values() for a in f["anchors"]} >= {"schemas.ts"}
    assert ("schemas.ts", 3) in {(a["path"], a["start_line"]) for a in found["name"]["anchors"]}
    assert found["count"]["coercions"][0]["file"] == "schemas.ts"


SHAPES = '''import { z } from "zod";
export const baseId = { baseId: z.string().describe("the base") };
export const tableId = { ...baseId, tableId: z.string() };
'''

SPREAD_TOOL = '''import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { tableId } from "./shapes.js";

const server = new McpServer({ name: "v", version: "1.0.0" });
server.registerTool("rows", {
  description: "Rows.",
  inputSchema: { ...tableId, limit: z.number().optional() },
}, async () => ({ content: [{ type: "text", text: "ok" }] }));
async function main() { await server.connect(new StdioServerTransport()); }
main().catch(() => process.exit(1));
'''


def test_a_raw_shape_of_another_module_spread_into_a_raw_shape(tmp_path):
    """`{...tableId, limit}` with `tableId` a raw shape (itself spreading another) exported by another module."""
    doc = _audit(tmp_path, {"index.ts": SPREAD_TOOL, "shapes.ts": SHAPES})
    props = _props(doc, "rows")
    assert set(props) == {"baseId", "tableId", "limit"} and props["baseId"]["description"] == "the base"
    assert {n for n, p in props.items() if p["required"]} == {"baseId", "tableId"}
    assert doc["coverage"]["gaps"] == []


def test_the_shape_of_a_namespace_member_is_the_tool_s_parameters_and_an_unread_one_is_no_empty_input():
    """`tool(name, description, defs.schema.shape, cb)` with `import * as defs`: the SDK takes a zod shape there as
    the parameters, so the schema is read in defs' module. A value there that cannot be read is a gap and an input
    not known; it never declares no parameter (a README's parameters would all look contradicted)."""
    from auditor.extract.syntax import NOT_LITERAL
    from program_helpers import MCP, program

    index = MCP + '''import * as addTool from "./tools/add.js";
import { pick } from "toolkit";
const server = new McpServer({ name: "s", version: "1" });
server.tool("add_task", "Add a task.", addTool.schema.shape, addTool.handler);
server.tool("pick_task", "Pick a task.", pick("task"), async () => ({ content: [] }));
server.connect(new StdioServerTransport());
'''
    add = '''import { z } from "zod";
export const schema = z.object({ name: z.string().describe("Task name"), flagged: z.boolean().optional() });
export async function handler(args) { return { content: [{ type: "text", text: args.name }] }; }
'''
    p = program({"index.js": index, "tools/add.js": add})
    tools = {t.name: t for t in p.tools}
    assert tools["add_task"].schema_form == "zod"
    assert tools["add_task"].schema["required"] == ["name"] and set(tools["add_task"].schema["properties"]) == {
        "name", "flagged"}
    assert tools["pick_task"].schema is NOT_LITERAL and tools["pick_task"].schema_form == "unknown"
    assert [g.detail for g in tools["pick_task"].gaps] == [
        "tool 'pick_task': input schema `pick(\"task\")` is not a zod shape or schema that can be read here"]


def test_a_member_of_an_imported_object_of_shapes_is_the_tool_s_parameters():
    """`tool(name, description, toolSchemas.getProject, cb)` with `toolSchemas` a named import of an object whose
    members are raw shapes: the member is read in the module that writes it, as the shape itself would be."""
    from program_helpers import MCP, program

    index = MCP + '''import { toolSchemas } from "./service.js";
server.tool("get_project", "Get a project.", toolSchemas.getProject, async ({ key }) => ({ content: [] }));
server.tool("list_projects", "List projects.", toolSchemas.listProjects, async () => ({ content: [] }));
server.connect(new StdioServerTransport());
'''
    service = '''import { z } from "zod";
export const toolSchemas = {
  getProject: { key: z.string().describe("The project key") },
  listProjects: { limit: z.number().optional() },
};
'''
    p = program({"index.js": index, "service.js": service})
    tools = {t.name: t for t in p.tools}
    assert tools["get_project"].schema_form == "zod" and tools["get_project"].schema["required"] == ["key"]
    assert tools["get_project"].schema["properties"]["key"]["description"] == "The project key"
    assert set(tools["list_projects"].schema["properties"]) == {"limit"}
    assert not tools["list_projects"].schema.get("required")
    assert [g.detail for t in p.tools for g in t.gaps] == []
