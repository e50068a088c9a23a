"""A low-level descriptor's inputSchema that is not an inline literal: conversions as compiled CommonJS calls them,
the server's own conversion functions (summaries, across files), zod schemas and raw shapes converted elsewhere, and
JSON Schema literals with parts from other modules (extract/input_schemas.py). Small servers written for the test."""

from __future__ import annotations

from program_helpers import SDK, line_of, program

MANIFEST = '{"name": "kit", "version": "1.0.0", "bin": {"kit": "index.js"}}'


def _tools(files: dict[str, str]) -> dict:
    p = program({**files, "package.json": MANIFEST})
    return {t.name: t for t in (*p.unadvertised, *p.tools)}  # (a registered tool over a definition of the same name)


def _gaps(tool) -> list[str]:
    return [g.detail for g in tool.gaps]


# Compiled CommonJS: `(0, lib_1.f)(x)` calls, `zod_1.z` as the namespace, `exports.X = value`, and tsc's re-export of
# an imported name through Object.defineProperty.
CJS_SCHEMAS = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ListSchema = exports.GetSchema = void 0;
const zod_1 = require("zod");
exports.GetSchema = zod_1.z.object({ id: zod_1.z.string().describe("The id"), depth: zod_1.z.number().int().optional() });
exports.ListSchema = zod_1.z.object({ top: zod_1.z.coerce.number().optional() });
exports.NodeSchema = zod_1.z.object({ label: zod_1.z.string() });
exports.TreeSchema = zod_1.z.object({ root: exports.NodeSchema });
'''

CJS_CONVERT = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.toJsonSchema = toJsonSchema;
const zod_1 = require("zod");
function toJsonSchema(schema) {
    return zod_1.z.toJSONSchema(schema, { target: "draft-07" });
}
'''

CJS_SHAPE_CONVERT = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.shapeToJson = void 0;
const zod_1 = require("zod");
const shapeToJson = (shape) => {
    return zod_1.z.object(shape).toJSONSchema({ io: "input" });
};
exports.shapeToJson = shapeToJson;
'''

CJS_UTILS_INDEX = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.shapeToJson = void 0;
var shape_1 = require("./shape.js");
Object.defineProperty(exports, "shapeToJson", { enumerable: true, get: function () { return shape_1.shapeToJson; } });
'''

CJS_TOOLS = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.tools = void 0;
const zod_1 = require("zod");
const zod_to_json_schema_1 = require("zod-to-json-schema");
const convert_1 = require("./utils/convert");
const utils_1 = require("./utils/index.js");
const schemas_1 = require("./schemas");
const shape = {
    text: zod_1.z.string().describe("What to chart"),
    width: zod_1.z.number().optional().default(600),
};
exports.tools = [
    { name: "get_item", description: "Get one.", inputSchema: (0, convert_1.toJsonSchema)(schemas_1.GetSchema) },
    { name: "list_items", description: "List.", inputSchema: (0, convert_1.toJsonSchema)(schemas_1.ListSchema) },
    { name: "chart", description: "Chart.", inputSchema: (0, utils_1.shapeToJson)(shape) },
    { name: "tree", description: "Tree.", inputSchema: (0, convert_1.toJsonSchema)(schemas_1.TreeSchema) },
    { name: "get_again", description: "Get.", inputSchema: (0, zod_to_json_schema_1.zodToJsonSchema)(schemas_1.GetSchema) },
];
'''

CJS_INDEX = SDK + '''import { tools } from "./tools.js";
const server = new Server({ name: "kit", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [] }));
'''

CJS = {"index.ts": CJS_INDEX, "tools.js": CJS_TOOLS, "schemas.js": CJS_SCHEMAS, "utils/convert.js": CJS_CONVERT,
       "utils/shape.js": CJS_SHAPE_CONVERT, "utils/index.js": CJS_UTILS_INDEX}


def test_the_servers_own_conversion_function_is_read_at_each_call_across_commonjs_modules():
    tools = _tools(CJS)
    get, listed = tools["get_item"], tools["list_items"]
    # toJsonSchema(schema) returns z.toJSONSchema(schema): the schema its call hands over, read where it is written
    assert get.schema_form == "zod-to-json-schema" and _gaps(get) == []
    assert get.schema == {"type": "object", "properties": {"id": {"type": "string", "description": "The id"},
                                                            "depth": {"type": "integer"}}, "required": ["id"]}
    assert listed.schema["properties"] == {"top": {"type": "number"}}
    # `exports.NodeSchema`, how tsc writes a reference to the module's own exported constant
    tree = tools["tree"]
    assert _gaps(tree) == [] and tree.schema["properties"]["root"]["properties"] == {"label": {"type": "string"}}
    # a coercion written in another file than the descriptor's is a coercion anchored in that file, no gap
    assert [(p, f, ln) for p, _, ln, f in listed.coercions] == [("top", "schemas.js", 6)] and _gaps(listed) == []


def test_a_conversion_function_re_exported_by_an_index_that_converts_a_raw_shape_parameter():
    chart = _tools(CJS)["chart"]
    # shapeToJson(shape) returns z.object(shape).toJSONSchema(): the parameter is the raw shape of the call site
    assert chart.schema_form == "zod-to-json-schema" and _gaps(chart) == []
    assert chart.schema == {"type": "object", "properties": {"text": {"type": "string", "description": "What to chart"},
                                                              "width": {"type": "number", "default": 600}},
                            "required": ["text"]}


def test_a_library_conversion_called_as_commonjs_compiles_it():
    again = _tools(CJS)["get_again"]
    assert again.schema_form == "zod-to-json-schema" and _gaps(again) == []
    assert set(again.schema["properties"]) == {"id", "depth"}


def test_a_server_function_named_like_the_library_is_read_as_what_it_returns_not_as_the_library():
    src = SDK + '''import { z } from "zod";
function zodToJsonSchema(shape: any) {
  return { type: "object", properties: { fixed: { type: "string" } } };
}
const T = { name: "t", description: "T.", inputSchema: zodToJsonSchema({ a: z.string() }) };
const server = new Server({ name: "kit", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [T] }));
'''
    t = _tools({"index.ts": src})["t"]
    assert t.schema_form == "json-schema" and t.schema == {"type": "object", "properties": {"fixed": {"type": "string"}}}


ZOD_IN_DESCRIPTOR = SDK + '''import { z } from "zod";
import { zodToJsonSchema } from "zod-to-json-schema";
import { Common } from "./common.js";
const ParamQuery = z.string().trim().describe("The query");
const RunInput = z.object({ sql: z.string(), limit: z.number().int().max(100).optional() });
const definition = { name: "run", description: "Run.", inputSchema: RunInput };
const tools = [
  definition,
  { name: "inline", description: "Inline.", inputSchema: z.object({ flag: z.boolean().default(false) }) },
  { name: "shaped", description: "Shaped.", inputSchema: { query: ParamQuery.nullable().default(null), region: Common } },
  { name: "copy", description: "Copy.", inputSchema: definition.inputSchema },
];
const server = new Server({ name: "kit", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: zodToJsonSchema(t.inputSchema) })),
}));
'''

COMMON = '''import { z } from "zod";
export const Common = z.string().url().optional();
'''


def test_a_zod_schema_or_raw_shape_in_a_descriptor_is_read_as_what_it_converts_to():
    tools = _tools({"index.ts": ZOD_IN_DESCRIPTOR, "common.ts": COMMON})
    run, inline, shaped, copy = tools["run"], tools["inline"], tools["shaped"], tools["copy"]
    assert run.schema_form == "zod" and _gaps(run) == []
    assert run.schema == {"type": "object", "properties": {"sql": {"type": "string"},
                                                           "limit": {"type": "integer", "maximum": 100}},
                          "required": ["sql"]}
    assert inline.schema_form == "zod" and inline.schema["properties"] == {"flag": {"type": "boolean", "default": False}}
    # a raw shape whose values are names bound to zod schemas, here and in another module
    assert shaped.schema_form == "zod" and _gaps(shaped) == []
    assert shaped.schema["properties"] == {"query": {"type": ["string", "null"], "description": "The query", "default": None},
                                           "region": {"type": "string", "format": "uri"}}
    assert "required" not in shaped.schema
    assert copy.schema == run.schema


PARAMS = '''export const namespaceParameter = { type: "string", description: "Namespace", default: "default" };
export const outputs = ["json", "yaml"];
'''

JSON_PARTS = SDK + '''import { namespaceParameter, outputs } from "./params.js";
const base = { verbose: { type: "boolean" } };
const T = {
  name: "get",
  description: "Get.",
  inputSchema: {
    type: "object",
    properties: {
      ...base,
      namespace: namespaceParameter,
      output: { type: "string", enum: outputs },
      kind: { type: "string", enum: process.env.KINDS.split(",") },
      extra: buildExtra(),
    },
    required: ["kind"],
  },
};
function buildExtra() { const spec = { type: "string" }; spec.enum = process.argv; return spec; }
const server = new Server({ name: "kit", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [T] }));
'''


def test_a_json_schema_literal_with_parts_from_other_modules_and_parts_unknown():
    t = _tools({"index.ts": JSON_PARTS, "params.ts": PARAMS})["get"]
    assert t.schema_form == "json-schema"
    props = t.schema["properties"]
    assert props["namespace"] == {"type": "string", "description": "Namespace", "default": "default"}
    assert props["output"] == {"type": "string", "enum": ["json", "yaml"]}
    assert props["verbose"] == {"type": "boolean"}  # a spread of a local constant
    assert props["kind"] == {"type": "string"}  # the computed enum is left out, the rest is read
    assert props["extra"] == {}  # a property whose schema is unknown stays, as any value
    assert t.schema["required"] == ["kind"]
    gaps = sorted(t.gaps, key=lambda g: g.anchor.start_line)
    assert [g.anchor.start_line for g in gaps] == [line_of(JSON_PARTS, "enum: process.env"), line_of(JSON_PARTS, "extra:")]
    assert "`properties.kind.enum`" in gaps[0].detail and "`properties.extra`" in gaps[1].detail


LOOPED = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const GoInput = z.object({ url: z.string().describe("Where to go") });
const go = { schema: { name: "go", description: "Go.", inputSchema: GoInput }, handle: async () => ({ content: [] }) };
const TOOLS = [go];
const server = new McpServer({ name: "kit", version: "1.0.0" });
TOOLS.forEach((tool) => {
  server.tool(tool.schema.name, tool.schema.description, tool.schema.inputSchema.shape, async (params) => tool.handle());
});
'''


def test_the_shape_of_a_zod_schema_reached_through_a_loop_is_that_schema_not_an_empty_input():
    registered = [t for t in _tools({"index.js": LOOPED}).values() if t.form != "descriptor"]
    (go,) = registered
    assert go.schema_form == "zod" and go.schema == {
        "type": "object", "properties": {"url": {"type": "string", "description": "Where to go"}}, "required": ["url"]}


HELPERS = SDK + '''import { edge, SIDES } from "./edges.js";
function colour(label: string, fallback = "#000000") {
  return { type: "string", description: `${label} colour (default ${fallback})` };
}
const sized = (what: string, max: number) => ({ type: "number", description: what, maximum: max });
function border(where: string) {
  const unit = "points";
  return {
    type: "object",
    description: `Border ${where}. Width in ${unit}.`,
    properties: { color: colour(where), width: sized("Line width", 12), side: edge(where) },
  };
}
function computed(x: string) {
  if (x) { return { type: "string" }; }
  return { type: "number" };
}
const T = {
  name: "style",
  description: "Style a paragraph.",
  inputSchema: {
    type: "object",
    properties: {
      top: border("above the paragraph"),
      between: border(process.env.WHERE),
      mode: computed("a"),
      shade: colour("Shade", "#FFFFFF"),
    },
  },
};
const W = { name: "rule", description: "Draw a rule.", inputSchema: schemaOf("rule") };
function schemaOf(what: string) {
  return { type: "object", properties: { at: { type: "number", description: `Where the ${what} goes` } }, required: ["at"] };
}
const server = new Server({ name: "kit", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [T, W] }));
'''

EDGES = '''export const SIDES = ["top", "bottom"];
export function edge(where: string) { return { type: "string", enum: SIDES, description: "Edge " + where }; }
'''


def test_a_helper_of_the_server_returning_an_object_literal_is_that_literal_with_its_arguments():
    t = _tools({"index.ts": HELPERS, "edges.ts": EDGES})["style"]
    props = t.schema["properties"]
    # the parameters bound to the call's constant arguments (a default when none is passed), local constants, a
    # helper of another module, a helper called from a helper
    assert props["top"] == {"type": "object", "description": "Border above the paragraph. Width in points.", "properties": {
        "color": {"type": "string", "description": "above the paragraph colour (default #000000)"},
        "width": {"type": "number", "description": "Line width", "maximum": 12},
        "side": {"type": "string", "enum": ["top", "bottom"], "description": "Edge above the paragraph"}}}
    assert props["shade"] == {"type": "string", "description": "Shade colour (default #FFFFFF)"}
    # what does not fold stays a gap: an argument not known, a helper that is not one literal
    assert props["between"]["properties"]["width"] == {"type": "number", "description": "Line width", "maximum": 12}
    assert "description" not in props["between"] and props["mode"] == {}
    details = _gaps(t)
    assert len(details) == 4, details
    assert any("properties.between.description" in d for d in details)
    assert any("properties.mode" in d and "computed" in d for d in details)
    # the whole input schema made by a helper
    rule = _tools({"index.ts": HELPERS, "edges.ts": EDGES})["rule"]
    assert rule.schema_form == "json-schema" and _gaps(rule) == []
    assert rule.schema == {"type": "object", "properties": {"at": {"type": "number", "description": "Where the rule goes"}},
                           "required": ["at"]}


SPREADS = SDK + '''import { ORG_KINDS } from "./kinds.js";
const base = { verbose: { type: "boolean" } };
const T = {
  name: "find",
  description: "Find.",
  inputSchema: { type: "object", properties: { ...base, kind: { type: "string", enum: Object.keys(ORG_KINDS) } } },
};
const U = { name: "open", description: "Open.", inputSchema: { type: "object", properties: { ...notKnown(), id: { type: "string" } } } };
const server = new Server({ name: "kit", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [T, U] }));
'''

KINDS = '''const REPO_KINDS = { SAST: "Static", SCA: "Dependencies" };
export const ORG_KINDS = { ...REPO_KINDS, DAST: "Dynamic" };
'''


def test_a_spread_in_an_all_literal_schema_is_read_not_dropped():
    tools = _tools({"index.ts": SPREADS, "kinds.ts": KINDS})
    find = tools["find"]
    assert _gaps(find) == []
    assert find.schema["properties"] == {"verbose": {"type": "boolean"},
                                         "kind": {"type": "string", "enum": ["SAST", "SCA", "DAST"]}}
    # a spread of what is not known is a gap, never a schema read without it
    opened = tools["open"]
    assert opened.schema["properties"] == {"id": {"type": "string"}}
    assert len(opened.gaps) == 1 and "notKnown()" in opened.gaps[0].detail


CAPS_CONFIG = 'export const serverConfig = { name: "k", version: "1", capabilities: { resources: {}, tools: {} } };\n'
CAPS = SDK + '''import { serverConfig } from "./config.js";
const a = new Server({ name: "a", version: "1" }, { ...serverConfig, capabilities: { prompts: {}, ...serverConfig.capabilities } });
const b = new Server({ name: "b", version: "1" }, { capabilities: { prompts: {}, ...unknownCaps() } });
const c = new Server({ name: "c", version: "1" }, { capabilities: { ...(process.env.R ? { resources: {} } : {}), tools: {} } });
'''


def test_the_capabilities_a_server_literal_spreads_are_read_or_not_known():
    p = program({"index.ts": CAPS, "config.ts": CAPS_CONFIG, "package.json": MANIFEST})
    caps = {s.var: s.capabilities for s in p.servers}
    # an imported config's capabilities spread in; a spread not known leaves them unknown (never the rest as all);
    # a conditional spread: what either branch may declare
    assert caps == {"a": ("prompts", "resources", "tools"), "b": None, "c": ("resources", "tools")}


def test_a_raw_shape_named_by_a_shorthand_property_is_the_local_it_names():
    """`server.registerTool("find", { description, inputSchema }, ...)` with `const inputSchema = { query: z.string() }`
    in the function around it: the shorthand names that local, read as the raw shape it holds."""
    code = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { z } from "zod";\n'
            'const server = new McpServer({ name: "kit", version: "1" });\n'
            'function registerFind() {\n'
            '  const inputSchema = { query: z.string().min(1), limit: z.number().int().max(20).optional() };\n'
            '  server.registerTool("find", { description: "Find docs", inputSchema }, async ({ query }) => '
            '({ content: [{ type: "text", text: String(query) }] }));\n}\nregisterFind();\n')
    tool = _tools({"index.js": code})["find"]
    assert tool.schema_form == "zod" and sorted(tool.schema["properties"]) == ["limit", "query"]
    assert tool.schema["required"] == ["query"] and not _gaps(tool)
