"""A kit class that holds a list of generated tool descriptors and registers them on a server it is handed, as tsc
compiles it: `this.tools = []` in the constructor, then `this.tools = (0, filter_1.pick)(ALL, opts)` (a function of
another module that returns a `filter` of its parameter, called the way compiled CommonJS calls an import), and
`for (const t of this.tools) server.tool(t.name, ...)` in a method whose `server` is a parameter. Each element of the
list is one tool; the empty list the field starts as is no value it keeps. Every module here is written for the test."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import program

HEAD = '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\n'
MANIFEST = '{"name": "kit", "bin": "dist/cli.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'

FILES = {
    "package.json": MANIFEST,
    "dist/gen/orders.js": HEAD + (
        'exports.orderTools = exports.orderGet = void 0;\n'
        "exports.orderGet = { name: 'shop.v1.order.get', description: 'Get an order', schema: {} };\n"
        "const orderList = { name: 'shop.v1.order.list', description: 'List orders', schema: {} };\n"
        'exports.orderTools = [exports.orderGet, orderList];\n'),
    "dist/gen/carts.js": HEAD + (
        'exports.cartTools = void 0;\n'
        "exports.cartTools = [{ name: 'shop.v2.cart.create', description: 'Create a cart', schema: {} }];\n"),
    "dist/tools.js": HEAD + (
        'exports.ALL = void 0;\nconst orders_1 = require("./gen/orders");\nconst carts_1 = require("./gen/carts");\n'
        'exports.ALL = [...orders_1.orderTools, ...carts_1.cartTools];\n'),
    "dist/filter.js": HEAD + (
        'exports.pick = pick;\n'
        'function pick(tools, options) {\n'
        '    return tools.filter((t) => !options.only || options.only.includes(t.name));\n}\n'),
    "dist/kit.js": HEAD + (
        'exports.Kit = void 0;\nconst tools_1 = require("./tools");\nconst filter_1 = require("./filter");\n'
        'class Kit {\n'
        '    constructor(options) {\n'
        '        this.tools = [];\n'
        '        this.tools = (0, filter_1.pick)(tools_1.ALL, { only: options.only });\n'
        '    }\n'
        '    attach(server) {\n'
        '        for (const tool of this.tools) {\n'
        '            server.tool(tool.name, tool.description, tool.schema, async (params) => ({\n'
        "                content: [{ type: 'text', text: JSON.stringify(params) }] }));\n"
        '        }\n'
        '    }\n'
        '}\nexports.Kit = Kit;\n'),
    "dist/cli.js": '#!/usr/bin/env node\n' + HEAD + (
        'const mcp_js_1 = require("@modelcontextprotocol/sdk/server/mcp.js");\n'
        'const stdio_js_1 = require("@modelcontextprotocol/sdk/server/stdio.js");\n'
        'const kit_1 = require("./kit");\n'
        'function main() {\n'
        "    const server = new mcp_js_1.McpServer({ name: 'kit', version: '1.0.0' });\n"
        "    const kit = new kit_1.Kit({ only: process.env.ONLY ? process.env.ONLY.split(',') : undefined });\n"
        '    kit.attach(server);\n'
        '    return server.connect(new stdio_js_1.StdioServerTransport());\n'
        '}\nmain();\n'),
}
NAMES = ["shop.v1.order.get", "shop.v1.order.list", "shop.v2.cart.create"]


def _tools(files: dict[str, str]) -> tuple[list[str], bool]:
    ledger = coverage.ledger(program(files))
    return sorted(t["name"] for t in ledger["tools"]), ledger["complete"]


def test_each_element_of_a_kits_filtered_list_is_a_tool_registered_on_the_server_it_is_handed():
    assert _tools(FILES) == (NAMES, True)


def test_a_field_set_empty_first_holds_what_the_constructor_sets_next():
    plain = {**FILES, "dist/kit.js": FILES["dist/kit.js"].replace("(0, filter_1.pick)(tools_1.ALL, { only: options.only })",
                                                                  "tools_1.ALL")}
    assert _tools(plain) == (NAMES, True)


def test_a_loop_elements_name_on_a_parameter_is_a_registration_and_a_gap_when_the_list_is_not_read():
    unread = {**FILES, "dist/kit.js": FILES["dist/kit.js"].replace("(0, filter_1.pick)(tools_1.ALL, { only: options.only })",
                                                                   "options.load()")}
    p = program(unread)
    ledger = coverage.ledger(p)
    assert ledger["tools"] == [] and not ledger["complete"]
    assert any("tool() with a name that is not a literal (`tool.name`)" in g.detail for g in p.gaps)


TUPLE = {
    "package.json": '{"name": "gen", "main": "server.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}',
    "server.js": ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
                  'function createRegister(server, allowed) {\n'
                  '  const names = [];\n'
                  '  const registerTool = (tool) => {\n'
                  '    if (allowed && !allowed.has(tool.name)) return;\n'
                  '    server.registerTool(tool.name, { description: tool.description }, async (args) => tool.run(args));\n'
                  '    names.push(tool.name);\n'
                  '  };\n'
                  '  return [registerTool, names];\n'
                  '}\n'
                  'const fetchPage = { name: "fetch_page", description: "Fetch", run: async () => ({ content: [] }) };\n'
                  'const listPages = { name: "list_pages", description: "List", run: async () => ({ content: [] }) };\n'
                  'function extensions(register) {\n'
                  '  register.tool({ name: "ping", description: "Ping", run: async () => ({ content: [] }) });\n'
                  '}\n'
                  'export function build() {\n'
                  '  const server = new McpServer({ name: "gen", version: "1" });\n'
                  '  const [tool, names] = createRegister(server, undefined);\n'
                  '  tool(fetchPage);\n'
                  '  tool(listPages);\n'
                  '  const register = { tool };\n'
                  '  extensions(register);\n'
                  '  return { server, names };\n'
                  '}\n'),
}


def test_a_register_function_a_factory_returns_in_an_array_registers_each_object_it_is_called_with():
    """`const [tool, names] = createRegister(server)`: `tool` is the closure the factory returns first; each call of it
    (directly, or as `register.tool(...)` of an object it is put in) registers that object's tool."""
    p = program(TUPLE)
    assert sorted(t.name for t in p.tools) == ["fetch_page", "list_pages", "ping"]
    assert not [g for g in p.gaps if "not a literal" in g.detail]


KEYED = {
    "package.json": '{"name": "keyed", "main": "dist/index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}',
    "dist/tools.js": ('export const tools = {\n'
                      '  list_cards: { config: { description: "List cards" }, handler: async () => ({ content: [] }) },\n'
                      '  get_card: { config: { description: "Get a card" }, handler: async () => ({ content: [] }) },\n'
                      '};\n'
                      'const v2 = [{ name: "search_v2" }, { name: "export_v2" }];\n'
                      'const v3 = [{ name: "search_v3" }];\n'
                      'export const GENERATED = Object.values({ v2, v3 }).flat();\n'),
    "dist/index.js": ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
                      'import { tools, GENERATED } from "./tools.js";\n'
                      'export class Kit {\n'
                      '  constructor() { this.mcpServer = new McpServer({ name: "keyed", version: "1" }); }\n'
                      '  setup() {\n'
                      '    for (const tool in tools) {\n'
                      '      this.mcpServer.registerTool(tool, tools[tool].config, tools[tool].handler);\n'
                      '    }\n'
                      '    for (const def of GENERATED) {\n'
                      '      this.mcpServer.tool(def.name, "generated", {}, async () => ({ content: [] }));\n'
                      '    }\n'
                      '  }\n'
                      '}\n'
                      'new Kit().setup();\n'),
}


def test_each_key_of_a_record_a_for_in_loop_registers_and_the_items_of_a_flattened_list_of_lists():
    """`for (const tool in tools) registerTool(tool, tools[tool].config, ...)`: one tool per key of the record;
    `Object.values({ v2, v3 }).flat()`: the elements of each list."""
    p = program(KEYED)
    assert sorted(t.name for t in p.tools) == ["export_v2", "get_card", "list_cards", "search_v2", "search_v3"]
    assert not [g for g in p.gaps if "not a literal" in g.detail or "not read" in g.detail]


CLASSED = {
    "package.json": '{"name": "arch", "bin": "dist/cli.cjs", "dependencies": {"@modelcontextprotocol/sdk": "1"}}',
    "dist/chunk.cjs": '"use strict";\nvar GetThingTool = class GetThingTool {\n\tstatic TOOL_NAME = "get-thing";\n\tconstructor(options) { this.options = options; }\n\tgetDefinition() {\n\t\treturn {\n\t\t\tname: GetThingTool.TOOL_NAME,\n\t\t\tdescription: "Get a thing",\n\t\t\tinputSchema: { type: "object", properties: { id: { type: "string" } } }\n\t\t};\n\t}\n\tasync execute(args) { return { content: [{ type: "text", text: String(args.id) }] }; }\n};\nObject.defineProperty(exports, "GetThingTool", {\n\tenumerable: true,\n\tget: function() {\n\t\treturn GetThingTool;\n\t}\n});\n',
    "dist/cli.cjs": '"use strict";\nconst require_chunk = require("./chunk.cjs");\nconst sdk_index = require("@modelcontextprotocol/sdk/server/index.js");\nconst sdk_types = require("@modelcontextprotocol/sdk/types.js");\nconst sdk_stdio = require("@modelcontextprotocol/sdk/server/stdio.js");\nfunction withCapabilities(definition, capabilities) {\n\treturn { ...definition, _meta: { ...definition._meta, caps: capabilities } };\n}\nfunction createServer(options) {\n\tconst server = new sdk_index.Server({ name: "arch", version: "1" }, { capabilities: { tools: {} } });\n\tconst getThingTool = new require_chunk.GetThingTool({ llm: options?.llm });\n\tserver.setRequestHandler(sdk_types.ListToolsRequestSchema, async () => {\n\t\tconst tools = [withCapabilities(getThingTool.getDefinition(), ["things"])];\n\t\treturn { tools };\n\t});\n\tserver.setRequestHandler(sdk_types.CallToolRequestSchema, async (request) => {\n\t\tconst { name, arguments: args } = request.params;\n\t\tif (name === require_chunk.GetThingTool.TOOL_NAME) return await getThingTool.execute(args);\n\t\tthrow new Error("unknown");\n\t});\n\treturn server;\n}\ncreateServer({}).connect(new sdk_stdio.StdioServerTransport());\n',
}


def test_a_descriptor_a_tool_instances_method_returns_named_by_its_class_static_is_listed():
    """`withCapabilities(tool.getDefinition(), [...])` in the tools/list result, `tool` a `new GetThingTool(...)` of a
    class another module exports (`Object.defineProperty(exports, ...)`, as tsdown writes it), whose getDefinition()
    returns `{ name: GetThingTool.TOOL_NAME, ... }` and `static TOOL_NAME = "get-thing"`."""
    ledger = coverage.ledger(program(CLASSED))
    assert [t["name"] for t in ledger["tools"]] == ["get-thing"]
    assert ledger["unresolved"] == [] and ledger["complete"]


def test_a_config_a_helper_builds_for_each_definition_is_read_under_the_definition():
    """`server.registerTool(definition.name, configOf(definition), cb)`, configOf returning a cached config or a new
    `{ description: definition.description, inputSchema: ... }`: that object, its fields read for each definition."""
    code = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { z } from "zod";\n'
            'const cache = new WeakMap();\n'
            'function configOf(definition) {\n'
            '  const cached = cache.get(definition);\n'
            '  if (cached) return cached;\n'
            '  const config = { description: definition.description, inputSchema: z.object(definition.shape) };\n'
            '  cache.set(definition, config);\n'
            '  return config;\n'
            '}\n'
            'const DEFS = [\n'
            '  { name: "get_workout", description: "Get a workout", shape: { id: z.string() } },\n'
            '  { name: "list_workouts", description: "List workouts", shape: {} },\n'
            '];\n'
            'function register(server, definition) {\n'
            '  server.registerTool(definition.name, configOf(definition), async (args) => ({ content: [] }));\n'
            '}\n'
            'const server = new McpServer({ name: "w", version: "1" });\n'
            'for (const d of DEFS) register(server, d);\n')
    p = program({"index.ts": code})
    assert sorted((t.name, t.description) for t in p.tools) == [("get_workout", "Get a workout"),
                                                                  ("list_workouts", "List workouts")]
    assert not [g for g in p.gaps if "is not an object literal" in g.detail]


PANEL = 'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { z } from "zod";\nconst RETRY = { panel_run: "run" };\nfunction withRetry(d) { return { ...d, schema: { ...d.schema, retry: z.string().optional() } }; }\nexport function buildDefs() {\n  const def = (name, description, schema, handler) => ({ name, description, schema, handler });\n  const defs = [\n    def("panel_run", "Run the graph", { id: z.string() }, async () => ({ content: [] })),\n    def("panel_stop", "Stop the graph", {}, async () => ({ content: [] })),\n  ];\n  return defs.map((d) => (d.name in RETRY ? withRetry(d) : d));\n}\nexport function start() {\n  const server = new McpServer({ name: "panel", version: "1" });\n  for (const d of buildDefs()) {\n    server.registerTool(d.name, { description: d.description, inputSchema: d.schema }, async (args) => d.handler(args));\n  }\n  return server;\n}\nstart();\n'


def test_a_mapped_list_whose_callback_picks_a_copy_or_the_element_by_a_test_of_it():
    """`defs.map((d) => (d.name in RETRY ? withRetry(d) : d))`: each element, copied or as it is, by the branch its
    test takes (a key of a constant record); a registration loop over it registers each definition's name."""
    p = program({"index.js": PANEL, "package.json": '{"name": "pn", "main": "index.js"}'})
    assert sorted(t.name for t in p.tools) == ["panel_run", "panel_stop"]
    assert not [g for g in p.gaps if "not a literal" in g.detail]
    stop = next(t for t in p.tools if t.name == "panel_stop")
    assert stop.schema_form == "zod" and not stop.gaps  # (the element itself: its own shape)
