"""A listing of compiled CommonJS modules (tsc output): a list a module exports as `exports.endpoints = []` and fills
with `exports.endpoints.push(e)` in a function every module's entry is handed to (`addEndpoint(x_1.default)`, each
module's `exports.default = { tool: exports.tool, ... }`), re-exported through `__exportStar`, is read whole, and
tsc's `exports.tool = exports.handler = void 0;` before the values adds nothing. A copy that renames only where a
lookup finds a new name (`name: renames.get(t.name) ?? t.name`) keeps each element's own name, and one that names
its copies from a member of the element through a destructuring (`const { name, parameters } = tool.function`) is
read as it would be written out (`tool.function.name`)."""

from __future__ import annotations

from program_helpers import program

STAR = '''"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    Object.defineProperty(o, k2, { enumerable: true, get: function() { return m[k]; } });
}) : (function(o, m, k, k2) { if (k2 === undefined) k2 = k; o[k2] = m[k]; }));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
__exportStar(require("./catalog/index.js"), exports);
'''

CATALOG = '''"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) { return (mod && mod.__esModule) ? mod : { "default": mod }; };
Object.defineProperty(exports, "__esModule", { value: true });
exports.endpoints = void 0;
const create_1 = __importDefault(require("./create.js"));
const remove_1 = __importDefault(require("./remove.js"));
exports.endpoints = [];
function addEndpoint(endpoint) {
    exports.endpoints.push(endpoint);
}
addEndpoint(create_1.default);
addEndpoint(remove_1.default);
'''

ENDPOINT = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.handler = exports.tool = exports.metadata = void 0;
exports.metadata = { resource: "assets", operation: "OP" };
exports.tool = { name: "NAME_asset", description: "NAME an asset.", inputSchema: { type: "object", properties: {} } };
const handler = async (client, args) => ({ content: [] });
exports.handler = handler;
exports.default = { metadata: exports.metadata, tool: exports.tool, handler: exports.handler };
'''

SERVER = '''"use strict";
const { Server } = require("@modelcontextprotocol/sdk/server/index.js");
const types_js_1 = require("@modelcontextprotocol/sdk/types.js");
const catalog_1 = require("./catalog.js");
function shorten(endpoints, limit) {
  const renames = new Map();
  for (const e of endpoints) if (e.tool.name.length > limit) renames.set(e.tool.name, e.tool.name.slice(0, limit));
  return endpoints.map((e) => ({ ...e, tool: { ...e.tool, name: RENAMED } }));
}
function init() {
  const server = new Server({ name: "m", version: "1" }, { capabilities: { tools: {} } });
  let provided = null;
  const load = async () => { provided ?? (provided = shorten(catalog_1.endpoints, 40)); };
  server.setRequestHandler(types_js_1.ListToolsRequestSchema, async () => {
    if (provided === null) await load();
    return { tools: provided.map((e) => e.tool) };
  });
}
init();
'''


def _program(renamed: str = "renames.get(e.tool.name) ?? e.tool.name"):
    return program({"package.json": '{"name":"m","version":"1.0.0","main":"server.js"}',
                    "server.js": SERVER.replace("RENAMED", renamed), "catalog.js": STAR, "catalog/index.js": CATALOG,
                    "catalog/create.js": ENDPOINT.replace("NAME", "create").replace("OP", "write"),
                    "catalog/remove.js": ENDPOINT.replace("NAME", "remove").replace("OP", "delete")})


def test_a_list_filled_by_pushes_onto_an_export_is_read_whole():
    p = _program()
    assert sorted(t.name for t in p.tools) == ["create_asset", "remove_asset"]
    assert all(not l.unread and not l.unnamed for l in p.listings)


def test_a_name_only_a_lookup_gives_is_not_the_element_s():
    p = _program(renamed="renames.get(e.tool.name)")
    assert not p.tools and [len(l.unnamed) for l in p.listings] == [1]  # (named at run time: said so)
    prefixed = _program(renamed="`x_${e.tool.name}`")
    assert sorted(t.name for t in prefixed.tools) == ["x_create_asset", "x_remove_asset"]


OPENAI = '''import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const FUNCTIONS = [
  { type: "function", function: { name: "draw_slide", description: "Draw a slide.", parameters: { type: "object", properties: {} } } },
  { type: "function", function: { name: "save_pdf", description: "Save a PDF.", parameters: { type: "object", properties: {} } } },
];
function toMcp(list) {
  return { tools: list.map((tool) => { COPY }) };
}
const server = new Server({ name: "o", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => toMcp(FUNCTIONS));
'''


def test_a_copy_that_destructures_its_element_s_member_names_the_member():
    """`list.map((tool) => { const { name, description, parameters } = tool.function; return { name, description,
    inputSchema: parameters }; })` over OpenAI-style function specs: each copy is named by its element's
    `function.name`, the schema it copies being that member's `parameters`."""
    copy = "const { name, description, parameters } = tool.function; return { name, description, inputSchema: parameters };"
    p = program({"package.json": '{"name":"o","version":"1.0.0","type":"module","bin":"index.js"}',
                 "index.js": OPENAI.replace("COPY", copy)})
    assert sorted(t.name for t in p.tools) == ["draw_slide", "save_pdf"]
    spelled = copy.replace("const { name, description, parameters } = tool.function; ", "const f = tool.function; ").replace(
        "return { name, description, inputSchema: parameters }", "return { name: f.name, description: f.description, inputSchema: f.parameters }")
    p = program({"package.json": '{"name":"o","version":"1.0.0","type":"module","bin":"index.js"}',
                 "index.js": OPENAI.replace("COPY", spelled)})
    assert sorted(t.name for t in p.tools) == ["draw_slide", "save_pdf"]
