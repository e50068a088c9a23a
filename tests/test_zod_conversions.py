"""Conversions of a zod schema to the JSON Schema a low-level descriptor advertises: a converter of a library bound
under a name of the server's (kb/sdk.yaml zod.to_json_schema, to_json_schema_packages), and the server's own wrappers
of one (extract/input_schemas.py). Small servers written for the test."""

from __future__ import annotations

from program_helpers import SDK, program

MANIFEST = '{"name": "kit", "version": "1.0.0", "bin": {"kit": "index.js"}}'


def _tools(files: dict[str, str]) -> dict:
    p = program({**files, "package.json": MANIFEST})
    return {t.name: t for t in (*p.tools, *p.unadvertised)}


RENAMED = '''import { zodToJsonSchema as original } from "zod-to-json-schema";
export const zodToJsonSchema = (schema) => {
  return original(schema, { rejectedAdditionalProperties: undefined });
};
'''

DEFAULTED = '''import convert from "zod-to-json-schema";
export function toJson(schema) { return convert(schema); }
'''

UTILS = '''export { zodToJsonSchema } from "./convert.js";
export { toJson } from "./defaulted.js";
'''

TOOLS = SDK + '''import { z } from "zod";
import { zodToJsonSchema, toJson } from "./utils/index.js";
export const schema = z.object({
  diagram: z.string().describe("the source").nonempty(),
  theme: z.enum(["light", "dark"]).optional().default("light"),
});
const DRAW = { name: "draw", description: "Draw.", inputSchema: zodToJsonSchema(schema) };
const SHOW = { name: "show", description: "Show.", inputSchema: toJson(z.object({ id: z.string() })) };
const server = new Server({ name: "kit", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [DRAW, SHOW] }));
'''


def test_a_library_converter_under_a_name_of_the_server_is_a_conversion():
    """`import { zodToJsonSchema as original }` or a default import of the converter's package, wrapped in a function of
    the server re-exported under the library's name: the wrapper is followed and the library call is the conversion."""
    tools = _tools({"index.ts": TOOLS, "utils/convert.ts": RENAMED, "utils/defaulted.ts": DEFAULTED,
                    "utils/index.ts": UTILS})
    draw, show = tools["draw"], tools["show"]
    assert draw.schema_form == "zod-to-json-schema" and draw.gaps == ()
    assert draw.schema["properties"] == {"diagram": {"type": "string", "description": "the source", "minLength": 1},
                                         "theme": {"type": "string", "enum": ["light", "dark"], "default": "light"}}
    assert draw.schema["required"] == ["diagram"]
    assert show.schema_form == "zod-to-json-schema" and show.gaps == ()
    assert show.schema["properties"] == {"id": {"type": "string"}}


def test_a_local_function_under_another_name_is_no_conversion():
    """Only a name imported from the converter's package counts: the server's own `original` is not the library."""
    tools = _tools({"index.ts": TOOLS, "utils/convert.ts": RENAMED.replace(
        'import { zodToJsonSchema as original } from "zod-to-json-schema";',
        'function original(schema, options) { return { type: "object" }; }'), "utils/defaulted.ts": DEFAULTED,
        "utils/index.ts": UTILS})
    assert tools["draw"].schema_form != "zod-to-json-schema"


CJS_DEFAULT = '''"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) { return mod && mod.__esModule ? mod : { default: mod }; };
Object.defineProperty(exports, "__esModule", { value: true });
const types_js_1 = require("@modelcontextprotocol/sdk/types.js");
const index_js_1 = require("@modelcontextprotocol/sdk/server/index.js");
const zod_1 = require("zod");
const zod_to_json_schema_1 = __importDefault(require("zod-to-json-schema"));
const Args = zod_1.z.object({ q: zod_1.z.string() });
const server = new index_js_1.Server({ name: "kit", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(types_js_1.ListToolsRequestSchema, async () => ({
    tools: [{ name: "find", description: "Find.", inputSchema: (0, zod_to_json_schema_1.default)(Args) }],
}));
'''


def test_the_default_export_of_a_converter_package_as_commonjs_calls_it():
    find = _tools({"index.js": CJS_DEFAULT})["find"]
    assert find.schema_form == "zod-to-json-schema" and find.gaps == ()
    assert find.schema["properties"] == {"q": {"type": "string"}}


WRAPPER = SDK + '''import { z } from "zod";
import { zodToJsonSchema } from "zod-to-json-schema";
const LookupSchema = z.object({ term: z.string().describe("what to look up"), limit: z.number().optional() });
function toInputSchema(schema, schemaName) {
  try {
    const jsonSchema = zodToJsonSchema(schema, { name: schemaName, $refStrategy: "none" });
    if (typeof jsonSchema !== "object" || jsonSchema === null) {
      throw new Error("bad schema " + schemaName);
    }
    if ("definitions" in jsonSchema && schemaName in jsonSchema.definitions) {
      return jsonSchema.definitions[schemaName];
    }
    return jsonSchema;
  } catch (error) {
    return { type: "object", properties: {}, additionalProperties: true };
  }
}
function otherMember(schema, schemaName) {
  const jsonSchema = zodToJsonSchema(schema, { name: schemaName });
  if (schemaName === "x") return jsonSchema.definitions.other;
  return jsonSchema;
}
function inline(schema, name) {
  const jsonSchema = zodToJsonSchema(schema, { name });
  return jsonSchema.definitions?.[name] || jsonSchema;
}
function orEmpty(schema, name) {
  const jsonSchema = zodToJsonSchema(schema, { name });
  return jsonSchema.definitions?.[name] ?? {};
}
function twoValues(schema, flag) {
  if (flag) return zodToJsonSchema(schema);
  return { type: "object", properties: {} };
}
const server = new Server({ name: "kit", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "lookup", description: "Look up.", inputSchema: toInputSchema(LookupSchema, "lookup") },
  { name: "member", description: "Member.", inputSchema: otherMember(LookupSchema, "member") },
  { name: "two", description: "Two.", inputSchema: twoValues(LookupSchema, process.env.FLAG) },
  { name: "inline", description: "Inline.", inputSchema: inline(LookupSchema, "Lookup") },
  { name: "empty", description: "Empty.", inputSchema: orEmpty(LookupSchema, "Lookup") },
] }));
'''


def test_a_wrapper_with_several_returns_of_one_conversion_is_followed():
    """A server's wrapper whose returns are all one conversion (through a `const`, or the member `definitions[name]` a
    named conversion puts the schema in) is that conversion; a `catch` fallback is left out (a conversion read
    statically is taken to succeed)."""
    tools = _tools({"index.ts": WRAPPER})
    for name in ("lookup", "inline"):  # (`definitions?.[name] || jsonSchema`: the named member, or the whole: one)
        lookup = tools[name]
        assert lookup.schema_form == "zod-to-json-schema" and lookup.gaps == ()
        assert lookup.schema["properties"] == {"term": {"type": "string", "description": "what to look up"},
                                               "limit": {"type": "number"}}
        assert lookup.schema["required"] == ["term"]


def test_a_wrapper_whose_returns_differ_stays_a_gap():
    """Another member than the named one, or a second value beside the conversion: not one schema, a gap."""
    tools = _tools({"index.ts": WRAPPER})
    for name in ("member", "two", "empty"):
        assert tools[name].schema_form == "unknown"
        assert any("neither a literal nor a zod conversion" in g.detail for g in tools[name].gaps)


FORWARDING = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "kit", version: "1.0.0" });
const tool = (name, description, paramsSchema, cb) => {
  server.registerTool(name, { description, inputSchema: z.object(paramsSchema).strict() }, (args) => cb(args));
};
tool("find", "Find.", { q: z.string().describe("the query"), limit: z.number().optional() }, async () => ({ content: [] }));
tool("none", "None.", {}, async () => ({ content: [] }));
'''


def test_a_shape_parameter_of_a_forwarding_function_is_the_call_sites_argument():
    """`const tool = (name, description, shape, cb) => server.registerTool(name, {description, inputSchema:
    z.object(shape)}, cb)`: the schema of each `tool(...)` call is its own shape argument."""
    tools = _tools({"index.ts": FORWARDING})
    find, none = tools["find"], tools["none"]
    assert find.gaps == () and find.schema["properties"] == {"q": {"type": "string", "description": "the query"},
                                                            "limit": {"type": "number"}}
    assert find.schema["required"] == ["q"]
    assert none.gaps == () and none.schema["properties"] == {}


TYPED = SDK + '''import { z } from "zod";
import { zodToJsonSchema } from "zod-to-json-schema";
import { typeSafeSchema, asSchema, fallback } from "./helper.js";
const Find = typeSafeSchema()(z.object({ q: z.string(), limit: z.number().optional() }));
const Plain = asSchema(z.object({ id: z.string() }));
const Other = fallback(z.object({ id: z.string() }));
const server = new Server({ name: "kit", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "find", description: "Find.", inputSchema: zodToJsonSchema(Find) },
  { name: "plain", description: "Plain.", inputSchema: zodToJsonSchema(Plain) },
  { name: "other", description: "Other.", inputSchema: zodToJsonSchema(Other) },
] }));
'''
HELPER = '''export const typeSafeSchema = () => (arg) => arg;
export function asSchema(schema) { return schema; }
export function fallback(schema) { return DEFAULT; }
const DEFAULT = 1;
'''


def test_a_typing_helper_that_returns_the_schema_it_is_handed_is_that_schema():
    """`typeSafeSchema()(z.object(...))` of `() => (arg) => arg`, and `asSchema(s)` of a function returning its
    parameter: the schema handed through; a function returning something else stays a gap."""
    tools = _tools({"index.js": TYPED, "helper.js": HELPER})
    assert tools["find"].gaps == () and tools["find"].schema["properties"] == {"q": {"type": "string"},
                                                                              "limit": {"type": "number"}}
    assert tools["plain"].gaps == () and tools["plain"].schema["properties"] == {"id": {"type": "string"}}
    assert tools["other"].schema_form == "unknown" and tools["other"].gaps
