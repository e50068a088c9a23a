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
