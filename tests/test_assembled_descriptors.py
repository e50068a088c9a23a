"""Descriptors the code assembles from data (extract/listing.py `evaluated`): a catalog of bare OpenAI-style function
specs in one CommonJS module, mapped in another to `{ function: { name: `create${name}Slide`, ... } }`, and turned
into MCP descriptors by a helper the tools/list handler calls through a `require` namespace (`(0,
commons_1.toMcp)([...tools_1.tools, ...tools_1.extra])`). The evaluation reads every element's name, description
and input schema: each is a tool, anchored at the literal its schema is written as. Written for the test."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import program

BASE = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.base = void 0;
const shared = "Position of the slide.";
exports.base = [
    { type: "function", function: { name: "Title", description: "a title slide",
        parameters: { type: "object", properties: { heading: { type: "string" }, _index: { type: "integer", description: shared } },
                      required: ["heading"] } } },
    { type: "function", function: { name: "Agenda", description: "an agenda slide",
        parameters: { type: "object", properties: { items: { type: "array", items: { type: "string" } } }, required: ["items"] } } },
];
'''

TOOLS = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.extra = exports.tools = void 0;
const base_1 = require("./base");
exports.tools = base_1.base.map((tool) => {
    const { type, function: func } = tool;
    const { name, description, parameters } = func;
    return { type, function: { name: `create${name}Slide`, description: `Create ${description}`, parameters } };
});
exports.extra = [
    { type: "function", function: { name: "savePdf", description: "Save the deck as PDF",
        parameters: { type: "object", properties: { file: { type: "string" } }, required: ["file"] } } },
];
'''

COMMONS = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.toMcp = void 0;
const toMcp = (tools) => ({
    tools: tools.map((tool) => {
        const { name, description, parameters } = tool.function;
        return { name, description, inputSchema: parameters };
    }),
});
exports.toMcp = toMcp;
'''

SERVER = '''#!/usr/bin/env node
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const index_js_1 = require("@modelcontextprotocol/sdk/server/index.js");
const types_js_1 = require("@modelcontextprotocol/sdk/types.js");
const stdio_js_1 = require("@modelcontextprotocol/sdk/server/stdio.js");
const tools_1 = require("./tools");
const commons_1 = require("./commons");
const server = new index_js_1.Server({ name: "deck", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(types_js_1.ListToolsRequestSchema, async () => {
    return (0, commons_1.toMcp)([...tools_1.tools, ...tools_1.extra]);
});
server.setRequestHandler(types_js_1.CallToolRequestSchema, async (request) => {
    return { content: [{ type: "text", text: request.params.name }] };
});
server.connect(new stdio_js_1.StdioServerTransport());
'''

PACKAGE = '{"name": "deck", "version": "1.0.0", "bin": {"deck": "lib/server.js"}}'


def _program(tools: str = TOOLS):
    return program({"lib/base.js": BASE, "lib/tools.js": tools, "lib/commons.js": COMMONS, "lib/server.js": SERVER,
                    "package.json": PACKAGE})


def test_each_descriptor_assembled_from_the_catalog_is_a_tool_with_its_schema():
    p = _program()
    tools = {t.name: t for t in p.tools}
    assert sorted(tools) == ["createAgendaSlide", "createTitleSlide", "savePdf"]
    title = tools["createTitleSlide"]
    assert title.description == "Create a title slide"
    assert title.schema == {"type": "object", "properties": {"heading": {"type": "string"}, "_index": {
        "type": "integer", "description": "Position of the slide."}}, "required": ["heading"]}
    # anchored where its schema is written, in the catalog
    assert (title.module.path, title.node.start_point[0] + 1) == ("lib/base.js", 7)
    assert tools["savePdf"].schema["required"] == ["file"]
    assert not [g for g in p.gaps if g.kind == "schema"], p.gaps
    rows = {t["name"]: t for t in coverage.ledger(p)["tools"]}
    assert rows["createTitleSlide"]["schema_form"] == "json-schema" and rows["savePdf"]["schema_form"] == "json-schema"


def test_a_name_the_code_does_not_fix_leaves_the_assembled_descriptors_unnamed():
    """The prefix read from the environment: no name is known, and the list says so (an unnamed descriptor)."""
    p = _program(TOOLS.replace("name: `create${name}Slide`", "name: `${process.env.PREFIX}${name}`"))
    assert sorted(t.name for t in p.tools) == ["savePdf"]
    assert any(l.unnamed for l in p.listings)


def test_a_list_a_namespace_changes_is_not_read_as_written():
    """`tools_1.tools.push(...)` in the server module (through its `require` namespace) changes the list after it is
    assigned: its value is not the one `exports.tools = ...` writes, and its names are not read."""
    p = program({"lib/base.js": BASE, "lib/tools.js": TOOLS, "lib/commons.js": COMMONS, "package.json": PACKAGE,
                 "lib/server.js": SERVER.replace('const server = new', 'tools_1.tools.push(tools_1.extra[0]);\n'
                                                 'const server = new')})
    assert "createTitleSlide" not in {t.name for t in p.tools}
    assert any(l.names is None for l in p.listings)


REGISTRY = '''import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema, CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
class Registry {
  tools = new Map();
  register(tool) { this.tools.set(tool.name, { tool, registeredAt: Date.now() }); }
  get(name) { return this.tools.get(name)?.tool; }
  list() { return Array.from(this.tools.values()).map(({ tool }) => ({ name: tool.name, description: tool.description })); }
}
const registry = new Registry();
registry.register({ name: "ping", description: "Ping", inputSchema: { type: "object" }, handler: async () => "pong" });
const server = new Server({ name: "r", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: registry.list().map((t) => ({ name: t.name, description: t.description, inputSchema: registry.get(t.name)?.inputSchema })),
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: "text", text: String(await registry.get(request.params.name).handler()) }] }));
await server.connect(new StdioServerTransport());
'''


def test_a_copy_of_what_holds_no_name_leaves_the_list_s_names_unread():
    """A copy `{ name: t.name, ... }` whose `t` is read as the wrapper the registry stores (`{ tool, registeredAt }`,
    which has no `name` of its own): what the list names is not read, and the audit says so (no complete audit with
    no tool)."""
    p = program({"index.js": REGISTRY, "package.json": '{"name": "r", "version": "1.0.0", "type": "module", "main": "index.js"}'})
    led = coverage.ledger(p)
    assert "ping" in {t.name for t in p.tools} or led["complete"] is False
