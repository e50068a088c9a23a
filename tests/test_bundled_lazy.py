"""A bundle whose modules run lazily (Bun, esbuild: `var x; var init_m = __esm(() => { x = ... })`) and whose copy of
zod is called directly (`stringType()` for `z.string()`): a name declared without a value and assigned once has that
value (extract/program.py), and zod's constructors are known by what zod's own code assigns them
(kb/sdk.yaml zod.bundled_constructors, extract/zod_names.py)."""

from __future__ import annotations

from tests.program_helpers import INLINED_MCP_SERVER, program

# Written for this test in the shape Bun gives a server generated from an API description: every module's body is
# an `__esm` closure, zod's region (its marker line) assigns the constructors, and the server registers each tool
# object through a helper that a factory returns.
BUNDLE = (
    "var __esm = (fn, res) => () => (fn && (res = fn(fn = 0)), res);\n"
    "\n"
    "// node_modules/zod/v3/types.js\n"
    "var ZodString, ZodObject, ZodOptional, ZodNullable, ZodNativeEnum, stringType, objectType, optionalType,\n"
    "  nullableType, nativeEnumType;\n"
    "var init_types = __esm(() => {\n"
    "  ZodString = class { static create() { return new ZodString(); } };\n"
    "  ZodObject = class { static create(shape) { return new ZodObject(shape); } };\n"
    "  ZodOptional = class { static create(inner) { return new ZodOptional(inner); } };\n"
    "  ZodNullable = class { static create(inner) { return new ZodNullable(inner); } };\n"
    "  ZodNativeEnum = class { static create(values) { return new ZodNativeEnum(values); } };\n"
    "  stringType = ZodString.create;\n"
    "  objectType = ZodObject.create;\n"
    "  optionalType = ZodOptional.create;\n"
    "  nullableType = ZodNullable.create;\n"
    "  nativeEnumType = ZodNativeEnum.create;\n"
    "});\n"
    "\n"
    + INLINED_MCP_SERVER +
    "  connect(transport) { return transport; }\n"
    "};\n"
    "\n"
    "// src/models/finish.ts\n"
    "var Finish, Finish$inboundSchema;\n"
    "var init_finish = __esm(() => {\n"
    "  init_types();\n"
    '  Finish = { Matte: "matte", Gloss: "gloss" };\n'
    "  Finish$inboundSchema = nativeEnumType(Finish);\n"
    "});\n"
    "\n"
    "// src/tools/paint.ts\n"
    "var args1, tool$paint;\n"
    "var init_paint = __esm(() => {\n"
    "  init_finish();\n"
    "  args1 = {\n"
    "    request: objectType({ wall: stringType(), finish: Finish$inboundSchema,\n"
    "      note: optionalType(stringType()), colour: nullableType(stringType()) })\n"
    "  };\n"
    "  tool$paint = {\n"
    '    name: "paint_wall",\n'
    '    description: "Paint one wall",\n'
    "    args: args1,\n"
    '    tool: async (client, args) => ({ content: [{ type: "text", text: String(args.request.wall) }] })\n'
    "  };\n"
    "});\n"
    "\n"
    "// src/server.ts\n"
    "function createRegisterTool(server) {\n"
    "  return (tool) => {\n"
    "    server.tool(tool.name, tool.description, tool.args, async (args, ctx) => tool.tool(null, args, ctx));\n"
    "  };\n"
    "}\n"
    "function createServer() {\n"
    '  const server = new McpServer({ name: "paint", version: "1.0.0" });\n'
    "  const tool = createRegisterTool(server);\n"
    "  tool(tool$paint);\n"
    "  return server;\n"
    "}\n"
    "init_paint();\n"
    "createServer().connect({});\n"
)
PACKAGE = '{"name": "paint", "version": "1.0.0", "bin": {"paint": "bin/mcp-server.js"}}'


def _paint():
    p = program({"package.json": PACKAGE, "bin/mcp-server.js": BUNDLE})
    return p, next((t for t in p.tools if t.name == "paint_wall"), None)


def test_a_tool_object_assigned_once_in_a_lazy_module_body_is_read():
    p, tool = _paint()
    assert tool is not None, [t.name for t in p.tools]
    assert tool.description == "Paint one wall"


def test_the_inlined_zod_constructors_read_as_zod():
    p, tool = _paint()
    assert tool is not None and tool.schema is not None
    request = tool.schema["properties"]["request"]
    assert request["properties"]["wall"] == {"type": "string"}
    assert request["properties"]["finish"] == {"type": "string", "enum": ["matte", "gloss"]}
    assert request["properties"]["note"] == {"type": "string"}  # z.optional(S): S, not required
    assert request["properties"]["colour"] == {"type": ["string", "null"]}
    assert sorted(request["required"]) == ["colour", "finish", "wall"]
    assert not [g.detail for g in p.gaps if "paint_wall" in g.detail]


def test_a_name_assigned_twice_has_no_single_value():
    twice = BUNDLE.replace("  tool$paint = {\n", "  tool$paint = null;\n  tool$paint = {\n")
    p = program({"package.json": PACKAGE, "bin/mcp-server.js": twice})
    assert "paint_wall" not in [t.name for t in p.tools]


# esbuild's shape of a module that takes its tool records out of another's record by a destructuring assignment in
# its lazily run body, after the function that registers them is written (tidewave's CLI has this shape).
DESTRUCTURED = (
    'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
    'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
    "var __esm = (fn, res) => () => (fn && (res = fn(fn = 0)), res);\n"
    "var tools;\n"
    "var init_tools = __esm(() => {\n"
    '  tools = { docs: { mcp: { name: "get_docs", description: "Get docs." } },\n'
    '            source: { mcp: { name: "get_source", description: "Get source." } } };\n'
    "});\n"
    "async function handleDocs() { return { content: [] }; }\n"
    "async function handleSource() { return { content: [] }; }\n"
    "async function serve() {\n"
    '  const server = new McpServer({ name: "docs", version: "1" });\n'
    "  server.registerTool(docsMcp.name, { description: docsMcp.description }, handleDocs);\n"
    "  server.registerTool(sourceMcp.name, { description: sourceMcp.description }, handleSource);\n"
    "  await server.connect(new StdioServerTransport());\n"
    "}\n"
    "var docsMcp, sourceMcp;\n"
    "var init_mcp = __esm(() => {\n"
    "  init_tools();\n"
    "  ({ docs: { mcp: docsMcp }, source: { mcp: sourceMcp } } = tools);\n"
    "});\n"
    "init_mcp();\n"
    "serve();\n")


def test_names_a_destructuring_assignment_sets_in_a_lazy_module_body_are_read():
    """`var docsMcp;` set by `({ docs: { mcp: docsMcp } } = tools)` in a lazily run body written after the function
    that registers `docsMcp.name`: the member of the record it is taken from (expect: both tools, described, no
    registration gap). A name a second assignment also sets has no single value (expect: its tool not read)."""
    p = program({"package.json": '{"name": "docs", "bin": {"docs": "index.js"}}', "index.js": DESTRUCTURED})
    assert sorted((t.name, t.description) for t in p.tools) == [("get_docs", "Get docs."), ("get_source", "Get source.")]
    assert [g for g in p.gaps if g.kind == "registration"] == []
    twice = DESTRUCTURED.replace("init_mcp();\n", "init_mcp();\n({ source: { mcp: sourceMcp } } = tools);\n")
    assert [t.name for t in program({"package.json": '{"name": "docs", "bin": {"docs": "index.js"}}',
                                     "index.js": twice}).tools] == ["get_docs"]
