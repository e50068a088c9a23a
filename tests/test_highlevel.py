"""High-level registrations and zod schemas, read from small TypeScript sources (no git, no CLI)."""

from __future__ import annotations

from auditor import kb
from auditor.extract import flow, highlevel, parse, program, server, zod
from auditor.extract.syntax import NOT_LITERAL

VOCAB = kb.load(kb.default_kb_dir(), "sdk")
HEAD = 'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { z } from "zod";\n'


def _module(src: str) -> program.Module:
    tree = parse.parse((HEAD + src).encode("utf-8"), "typescript")
    return program.build("srv/index.ts", "index", tree, "typescript")


def _register(src: str):
    m = _module(src)
    return highlevel.registrations(m, VOCAB, flow.resolver(m))


def _props(tool) -> dict:
    return tool.schema["properties"]


def test_register_tool_zod_shape_is_json_schema():
    tools, dispatches, regs = _register('''
const server = new McpServer({ name: "s", version: "1" });
const Item = z.object({ sku: z.string().regex(/^[A-Z]+$/), qty: z.number().int().positive() });
server.registerTool("order", {
  description: "Place " + "an order",
  inputSchema: {
    who: z.string().min(2).max(40).describe("Customer"),
    items: z.array(Item).nonempty(),
    note: z.string().nullable().optional(),
    speed: z.enum(["slow", "fast"]).default("slow"),
    kind: z.literal("retail"),
    meta: z.record(z.string(), z.number()),
    either: z.union([z.string(), z.number()]),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
}, async ({ who }) => ({ content: [{ type: "text", text: who }] }));
''')
    (t,) = tools
    assert (t.name, t.form, t.schema_form, t.description) == ("order", "registerTool", "zod", "Place an order")
    assert t.annotations == {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False}
    assert t.schema["required"] == ["who", "items", "kind", "meta", "either"]
    p = _props(t)
    assert p["who"] == {"type": "string", "minLength": 2, "maxLength": 40, "description": "Customer"}
    assert p["items"]["minItems"] == 1
    assert p["items"]["items"]["properties"]["sku"] == {"type": "string", "pattern": "^[A-Z]+$"}
    assert p["items"]["items"]["properties"]["qty"] == {"type": "integer", "exclusiveMinimum": 0}
    assert p["note"] == {"type": ["string", "null"]}
    assert p["speed"] == {"type": "string", "enum": ["slow", "fast"], "default": "slow"}
    assert p["kind"] == {"type": "string", "const": "retail"}
    assert p["meta"] == {"type": "object", "additionalProperties": {"type": "number"}}
    assert p["either"] == {"anyOf": [{"type": "string"}, {"type": "number"}]}
    assert not t.gaps and not regs[0].gaps
    (d,) = dispatches
    assert (d.tool, d.form, d.handler) == ("order", "registration", None) and d.target is not None


def test_coercions_are_recorded_with_their_property_path():
    tools, _, _ = _register('''
const server = new McpServer({ name: "s", version: "1" });
const flag = z.preprocess((v) => v === "yes", z.boolean());
server.registerTool("t", { inputSchema: {
  n: z.coerce.number().min(1),
  on: flag.describe("Switch"),
  rows: z.array(z.object({ size: z.coerce.number() })),
  label: z.string().trim(),
  op: z.string().transform((v) => Number(v)).pipe(z.number()),
} }, async () => ({ content: [] }));
''')
    (t,) = tools
    got = {(path, what.split(" ")[0]) for path, what, _, _ in t.coercions}
    # (a `.transform()` runs after the check, on input the schema accepted: no other input is converted, kb/sdk.yaml)
    assert got == {("n", "z.coerce.number()"), ("on", "z.preprocess()"), ("rows[].size", "z.coerce.number()")}
    assert _props(t)["on"] == {"type": "boolean", "description": "Switch"}
    assert _props(t)["n"] == {"type": "number", "minimum": 1}


def test_string_normalisations_are_not_coercions():
    """`.trim()`, `.toLowerCase()`, `.toUpperCase()`: the string stays a string (kb/sdk.yaml effect normalise)."""
    tools, _, _ = _register(r'''
const server = new McpServer({ name: "s", version: "1" });
server.registerTool("t", { inputSchema: {
  url: z.string().trim().min(1),
  domains: z.array(z.string().trim().toLowerCase()).optional(),
  code: z.string().toUpperCase().describe("Code"),
  sub: z.string().transform((s) => s.trim().replace(/^r\//i, "")).refine((s) => s.length > 1),
  tag: z.string().transform((s) => { return s.toLowerCase(); }),
  level: z.number().int().min(0).max(6).transform((value) => value),
} }, async () => ({ content: [] }));
''')
    (t,) = tools
    assert not t.coercions  # (nor a transform: it runs after the check)
    assert _props(t)["url"] == {"type": "string", "minLength": 1}
    assert _props(t)["code"] == {"type": "string", "description": "Code"}


def test_object_schema_shape_extend_and_partial():
    tools, _, _ = _register('''
const server = new McpServer({ name: "s", version: "1" });
const Base = z.object({ a: z.string(), b: z.number() });
const Wide = Base.extend({ c: z.boolean() }).partial({ a: true });
server.registerTool("shape", { inputSchema: Base.shape }, async () => ({ content: [] }));
server.registerTool("wide", { inputSchema: Wide }, async () => ({ content: [] }));
''')
    shape, wide = tools
    assert shape.schema == {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "number"}}, "required": ["a", "b"]}
    assert shape.schema_node.type == "call_expression"  # the z.object(...) that holds the properties
    assert list(_props(wide)) == ["a", "b", "c"] and wide.schema["required"] == ["b", "c"]


def test_unreadable_parts_are_gaps_not_guesses():
    tools, _, regs = _register('''
import { Remote } from "./remote.js";
const server = new McpServer({ name: "s", version: "1" });
server.registerTool("part", { inputSchema: { ok: z.string(), odd: z.string().frobnicate() } }, async () => ({ content: [] }));
server.registerTool("whole", { inputSchema: Remote }, async () => ({ content: [] }));
for (const n of names) server.registerTool(n, {}, async () => ({ content: [] }));
''')
    part, whole = tools
    assert _props(part)["odd"] == {} and part.schema["required"] == ["ok", "odd"]
    assert any("frobnicate" in g.detail for g in part.gaps)
    assert whole.schema is NOT_LITERAL and whole.schema_form == "unknown"
    assert any("./remote.js" in g.detail for g in whole.gaps)
    assert regs[2].name is None and any("not a literal" in g.detail for g in regs[2].gaps)


def test_tool_overloads_as_the_sdk_reads_them():
    tools, dispatches, _ = _register('''
import { Shared } from "./shared.js";
function register(server: McpServer) {
  server.tool("a", async () => ({ content: [] }));
  server.tool("b", "Describe b", async () => ({ content: [] }));
  server.tool("c", { q: z.string() }, async () => ({ content: [] }));
  server.tool("d", { readOnlyHint: true }, async () => ({ content: [] }));
  server.tool("e", "Describe e", { q: z.string() }, { destructiveHint: true }, async () => ({ content: [] }));
  server.tool("f", { q: Shared }, async () => ({ content: [] }));
}
const other = { tool: (..._args: unknown[]) => 0 };
other.tool("not-a-tool", async () => ({ content: [] }));
''')
    by = {t.name: t for t in tools}
    assert sorted(by) == ["a", "b", "c", "d", "e", "f"]
    assert by["a"].schema == {"type": "object", "properties": {}} and by["a"].description is None
    assert by["b"].description == "Describe b"
    assert list(_props(by["c"])) == ["q"] and by["c"].annotations == {}
    assert _props(by["d"]) == {} and by["d"].annotations == {"readOnlyHint": True}
    assert (by["e"].description, list(_props(by["e"])), by["e"].annotations) == ("Describe e", ["q"], {"destructiveHint": True})
    assert list(_props(by["f"])) == ["q"] and by["f"].gaps  # a shape whose value comes from another file
    assert all(t.form == "tool" for t in tools) and len(dispatches) == 6


def test_resources_and_prompts_are_registrations():
    _, _, regs = _register('''
const server = new McpServer({ name: "s", version: "1" });
server.registerResource("index", "x:index", { mimeType: "text/plain" }, async (uri) => ({ contents: [] }));
server.registerPrompt("plan", { description: "Plan" }, () => ({ messages: [] }));
''')
    assert [(r.kind, r.method, r.name, r.fn is not None) for r in regs] == [
        ("resource", "registerResource", "index", True), ("prompt", "registerPrompt", "plan", True)]


def test_descriptor_zod_to_json_schema_and_annotations():
    m = _module('''
import { zodToJsonSchema } from "zod-to-json-schema";
const Q = z.object({ days: z.coerce.number().max(7).optional() });
const T = { name: "q", description: "Q", inputSchema: zodToJsonSchema(Q) as ToolInput, annotations: { readOnlyHint: true } };
''')
    (t,) = server.tools(m, VOCAB)
    assert (t.schema_form, t.schema, t.annotations) == (
        "zod-to-json-schema", {"type": "object", "properties": {"days": {"type": "number", "maximum": 7}}}, {"readOnlyHint": True})
    assert [c[0] for c in t.coercions] == ["days"]
    assert zod.namespaces(m, VOCAB) == frozenset({"z"})


def test_names_read_from_members_of_constant_objects_and_servers_under_other_names():
    """`registerTool(NAMES.search, ...)` with NAMES an object literal (also nested, also `as const`), on a server
    whose class is imported under another name, as bundlers write it."""
    src = '''
import { McpServer as Xt } from "@modelcontextprotocol/sdk/server/mcp.js";
const NAMES = { search: "search_docs", admin: { purge: "purge_cache" } } as const;
const DYNAMIC = { later: process.env.TOOL_NAME };
const srv = new Xt({ name: "s", version: "1" });
srv.registerTool(NAMES.search, { description: "Search" }, async () => ({ content: [] }));
srv.tool(NAMES.admin.purge, async () => ({ content: [] }));
srv.registerTool(DYNAMIC.later, { description: "?" }, async () => ({ content: [] }));
'''
    tools, _, regs = _register(src)
    assert [t.name for t in tools] == ["search_docs", "purge_cache"]
    assert [r.name for r in regs] == ["search_docs", "purge_cache", None]  # a value read at run time stays unknown
    assert [(s.cls, s.info.get("name")) for s in server.servers(_module(src), VOCAB)] == [("McpServer", "s")]


def test_enum_members_as_tsc_compiles_them_name_tools():
    src = b'''export var ToolName;
(function (ToolName) {
    ToolName["ECHO"] = "echo";
    ToolName.ADD = "add";
    ToolName[ToolName["RETRIES"] = 3] = "RETRIES";
})(ToolName || (exports.ToolName = ToolName = {}));
(function (x) { x.y = "z"; })(somethingElse);
'''
    m = program.build("dist/tools.js", "dist/tools", parse.parse(src, "typescript"), "typescript")
    assert m.enums == {"ToolName.ECHO": "echo", "ToolName.ADD": "add"}  # numeric members are no tool names


def test_an_unread_base_is_one_gap_not_one_per_method():
    tools, _, _ = _register('''
const server = new McpServer({ name: "s", version: "1" });
const lenient = () => ({});
server.registerTool("t", { inputSchema: { q: lenient().frobnicate(), n: z.number().frobnicate() } }, async () => ({ content: [] }));
''')
    problems = [g.detail for g in tools[0].gaps]
    assert len(problems) == 2, problems
    assert "`lenient()` at `q` is not a zod expression" in problems[0]
    assert "zod method .frobnicate() at `n` is not in kb/sdk.yaml" in problems[1]


def test_a_schema_that_is_a_member_of_an_object_of_schemas():
    src = '''
import { zodToJsonSchema } from "zod-to-json-schema";
const Schemas = { input: z.object({ city: z.string(), days: z.number().int().optional() }), output: z.string() };
const server = new McpServer({ name: "s", version: "1" });
server.registerTool("forecast", { inputSchema: Schemas.input.shape }, async () => ({ content: [] }));
'''
    (tool,), _, _ = _register(src)
    assert tool.schema_form == "zod" and tool.gaps == ()
    assert _props(tool) == {"city": {"type": "string"}, "days": {"type": "integer"}}
    assert tool.schema["required"] == ["city"]


def test_a_field_set_from_a_method_of_its_class_that_makes_the_server_holds_the_server():
    """`this.server = this.makeServer()`, makeServer returning `new McpServer(...)`: the field holds the server, and
    `this.server.tool(...)` registers. Another class's `this.makeServer()` that returns no server registers nothing."""
    src = '''
export class NotesServer {
  constructor() { this.server = this.makeServer(); this.addTools(); }
  makeServer() { return new McpServer({ name: "notes", version: "1.0.0" }); }
  addTools() {
    this.server.tool("add_note", "Add a note", { text: z.string() }, async ({ text }) => ({ content: [] }));
  }
}
class Recorder {
  constructor() { this.box = this.makeServer(); }
  makeServer() { return new Map(); }
  record() { this.box.tool("not_a_tool", "Kept in a map", {}, async () => ({ content: [] })); }
}
'''
    tools, _, _ = _register(src)
    assert [t.name for t in tools] == ["add_note"]

def test_servers_made_by_a_factory_and_object_registrations_on_a_parameter():
    src = '''
import { FastMCP } from "fastmcp";
function createServer() {
  return new McpServer({ name: "s", version: "1" });
}
const makeFast = () => new FastMCP({ name: "f", version: "1" });
const server = createServer();
const fast = makeFast();
server.tool("ping", async () => ({ content: [] }));
fast.addTool({ name: "pong", description: "Pong", execute: async () => "pong" });
function registerMore(srv) {
  srv.addTool({ name: "echo", parameters: z.object({ text: z.string() }), execute: async ({ text }) => text });
  srv.addTool({ title: "no name here", execute: async () => "" });
}
registerMore(fast);
'''
    tools, dispatches, regs = _register(src)
    assert [(t.name, t.form) for t in tools] == [("ping", "tool"), ("pong", "addTool"), ("echo", "addTool")]
    assert _props(tools[2]) == {"text": {"type": "string"}} and tools[2].schema["required"] == ["text"]
    assert [d.target_name for d in dispatches] == ["server.tool(ping)", "fast.addTool(pong)/execute",
                                                   "srv.addTool(echo)/execute"]
    assert len(regs) == 3  # the object without a string name is no registration on an untyped parameter


def test_a_shape_filled_by_computed_keys_is_a_gap_not_an_empty_schema():
    tools, _, _ = _register('''
const server = new McpServer({ name: "s", version: "1" });
const fields = ["url", "limit"];
const shape = {};
for (const f of fields) shape[f] = z.string();
server.registerTool("fetch_all", { inputSchema: shape }, async () => ({ content: [] }));
''')
    (tool,) = tools
    assert tool.schema is NOT_LITERAL  # not "declares no property": a claim about `url` is not contradicted
    assert any("`shape`" in g.detail for g in tool.gaps)
    # the same shape handed to z.object(): the gap says why
    tools, _, _ = _register('''
const server = new McpServer({ name: "s", version: "1" });
const shape = {};
for (const f of ["url"]) shape[f] = z.string();
server.registerTool("fetch_one", { inputSchema: z.object(shape) }, async () => ({ content: [] }));
''')
    (tool,) = tools
    assert tool.schema is NOT_LITERAL
    assert any("the shape `shape` at `input` is filled by computed keys at run time" in g.detail for g in tool.gaps)


def test_compiled_commonjs_registration_names_and_callbacks_exported_by_another_module():
    """tsc output: `server.tool(scrape_1.scrapeToolName, ..., scrape_1.scrapeTool)` in a function the entry calls
    through `__importDefault(require("./setup"))`, the name `exports.scrapeToolName = "..."` of another module."""
    from program_helpers import program as prog
    files = {"dist/tools/scrape.js": 'exports.scrapeTool = async () => ({ content: [] });\n'
                                     'exports.scrapeToolName = "scrape_webpage";\n',
             "dist/setup.js": 'const scrape_1 = require("./tools/scrape");\nfunction setupServer(server) {\n'
                              '  server.tool(scrape_1.scrapeToolName, "Scrape.", {}, scrape_1.scrapeTool);\n}\n'
                              'exports.default = setupServer;\n',
             "dist/index.js": 'const mcp_js_1 = require("@modelcontextprotocol/sdk/server/mcp.js");\n'
                              'const setup_1 = __importDefault(require("./setup"));\n'
                              'const server = new mcp_js_1.McpServer({ name: "h", version: "1" });\n'
                              '(0, setup_1.default)(server);\n',
             "package.json": '{"name": "h", "bin": "dist/index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'}
    p = prog(files)
    assert [(t.name, t.description) for t in p.tools] == [("scrape_webpage", "Scrape.")] and not p.gaps


def test_a_task_tool_whose_handler_object_writes_create_task_as_a_method():
    tools, dispatches, regs = _register('''
const server = new McpServer({ name: "s", version: "1" });
server.experimental.tasks.registerToolTask("slow", { description: "Runs long.", inputSchema: { n: z.number() } }, {
  async createTask(args, extra) { return { task: await extra.taskStore.createTask({ ttl: 1 }) }; },
  async getTask(args, extra) { return extra.taskStore.getTask(extra.taskId); },
});
''')
    tool, = tools
    reg, = regs
    assert tool.name == "slow" and tool.gaps == () and reg.gaps == ()
    assert dispatches[0].target.type == "method_definition" and reg.fn.type == "method_definition"


def test_registrations_on_a_server_handed_in_an_object_to_a_destructuring_parameter():
    tools, _, regs = _register('''
function make(info) { return new McpServer(info); }
function register({ mcp: srv, prefix = "x" }) {
  srv.tool("fetch_page", "Fetch a page", { url: z.string() }, async ({ url }) => ({ content: [{ type: "text", text: url }] }));
}
const server = make({ name: "s", version: "1" });
register({ mcp: server });
''')
    assert [t.name for t in tools] == ["fetch_page"] and regs[0].gaps == ()


def test_registrations_on_a_server_taken_from_an_options_parameter_in_the_body():
    """`const { server } = options` or `options.server` in a function handed `{ server, ... }`: the same server as a
    destructuring parameter (compiled JavaScript has no type to tell)."""
    tools, _, regs = _register('''
import { FastMCP } from "fastmcp";
function registerDocs(options) {
  const { server, getClient } = options;
  server.addTool({ name: "read_doc", description: "Read", parameters: z.object({ id: z.string() }), execute: async () => "ok" });
}
function registerMail(opts) {
  const srv = opts.server;
  srv.addTool({ name: "send_mail", description: "Send", parameters: z.object({ to: z.string() }), execute: async () => "ok" });
  opts.server.addTool({ name: "list_mail", description: "List", parameters: z.object({}), execute: async () => "ok" });
}
function notAServer(options) {
  const { cache } = options;
  cache.addTool({ name: 5 });
}
const server = new FastMCP({ name: "s", version: "1" });
registerDocs({ server, getClient: async () => 1 });
registerMail({ server });
''')
    assert sorted(t.name for t in tools) == ["list_mail", "read_doc", "send_mail"]
    assert all(r.gaps == () for r in regs)


def test_a_one_argument_register_tool_is_another_api_not_the_sdk_s():
    """registerTool(name, config, callback) takes a name and more: `registry.registerTool(def)` of the server's own
    registry is not read as an SDK registration (its name 'not a literal'); `this.registerTool(...args)` still is."""
    tools, _, regs = _register('''
class Registry { tools = new Map(); registerTool(def) { this.tools.set(def.name, def); } }
const registry = new Registry();
registry.registerTool({ name: "a", handler: async () => ({ content: [] }) });
const server = new McpServer({ name: "s", version: "1" });
server.registerTool("b", { description: "B" }, async () => ({ content: [] }));
''')
    assert [t.name for t in tools] == ["b"] and [r.name for r in regs] == ["b"] and regs[0].gaps == ()



def test_registrations_on_a_field_set_from_a_constructor_parameter_of_the_class_or_its_base():
    tools, _, regs = _register('''
class Registry {
  server;
  constructor(server, service) { this.server = server; this.service = service; }
  registerTools() { this.register(); }
}
class ProblemTools extends Registry {
  register() {
    this.server.tool("get_daily", "Today's problem", {}, async () => ({ content: [] }));
  }
}
class TypedTools {
  constructor(private srv: McpServer) {}
  register() { this.srv.registerTool("search", { description: "Search" }, async () => ({ content: [] })); }
}
class Other {
  cache = new Map();
  fill() { this.cache.tool("not_a_tool", "x", {}, async () => ({ content: [] })); }
}
const server = new McpServer({ name: "s", version: "1" });
new ProblemTools(server, {}).registerTools();
new TypedTools(server).register();
''')
    assert sorted(t.name for t in tools) == ["get_daily", "search"]


def test_a_static_import_is_the_modules_name_over_a_require_of_the_same_name_in_a_function():
    # a minifier reuses short names: `r` is McpServer at the top, `fs` in one function only
    code = ('import{McpServer as r}from"@modelcontextprotocol/sdk/server/mcp.js";'
            'import{StdioServerTransport as e}from"@modelcontextprotocol/sdk/server/stdio.js";'
            'function v(){const r=require("fs");return r.readFileSync("x","utf8")}'
            'var s=function(){const t=new r({name:"mini",version:"1"});'
            't.registerTool("peek",{description:"Peek"},async()=>({content:[]}));return t}();'
            'await s.connect(new e);\n')
    from program_helpers import program as built
    p = built({"index.js": code})
    assert [s.cls for s in p.servers] == ["McpServer"]
    assert [t.name for t in p.tools] == ["peek"]


def test_a_list_registration_registers_each_tool_object_it_is_handed():
    """tmcp's `server.tools([...])` (kb/sdk.yaml signature `list`): each element an object registration, also a
    definer's call given the object and then the callback, imported from another module; a list that is not read is
    a gap, not silence."""
    from program_helpers import program

    files = {
        "package.json": '{"name": "x", "version": "1.0.0", "bin": {"x": "dist/index.js"}, "dependencies": {"tmcp": "1"}}',
        "dist/index.js": '''import { McpServer } from "tmcp";
import { defineTool } from "tmcp/tool";
import { StdioTransport } from "@tmcp/transport-stdio";
import { lintTool } from "./lint.js";
const formatTool = defineTool({ name: "format", description: "Format files" },
  async function format() { return { content: [{ type: "text", text: "ok" }] }; });
const server = new McpServer({ name: "x", version: "1.0.0" }, { capabilities: { tools: {} } });
server.tools([formatTool, lintTool, { name: "ping", description: "Ping", execute: async () => ({ content: [] }) }]);
server.tools(loadedLater());
new StdioTransport(server).listen();
''',
        "dist/lint.js": '''import { defineTool } from "tmcp/tool";
export const lintTool = defineTool({ name: "lint", description: "Lint files" }, async () => ({ content: [] }));
'''}
    p = program(files)
    assert sorted((t.name, t.description) for t in p.tools) == [
        ("format", "Format files"), ("lint", "Lint files"), ("ping", "Ping")]
    assert sorted((d.tool, d.target is not None) for d in p.dispatches) == [("format", True), ("lint", True), ("ping", True)]
    assert [g.detail for g in p.gaps] == [
        "tools(): the list `loadedLater()` is not read; the tools it registers are not analysed"]


def test_a_package_function_handed_the_server_first_registers_like_its_method():
    """kb high_level.functions: `registerAppTool(server, name, config, cb)` of @modelcontextprotocol/ext-apps is
    `server.registerTool(name, config, cb)`; a function of that name from elsewhere is not."""
    from program_helpers import program

    files = {
        "package.json": '{"name": "x", "version": "1.0.0", "bin": {"x": "dist/index.js"}}',
        "dist/index.js": '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { registerPalette } from "./palette.js";
const server = new McpServer({ name: "x", version: "1.0.0" });
registerPalette(server);
await server.connect(new StdioServerTransport());
''',
        "dist/palette.js": '''import { registerAppTool, registerAppResource } from "@modelcontextprotocol/ext-apps/server";
import { registerAppTool as other } from "./local-helpers.js";
import { registerAppTool as reg } from "@modelcontextprotocol/ext-apps/server";
import { z } from "zod";
export function registerPalette(server) {
  registerAppTool(server, "open_palette", { description: "Open the palette", inputSchema: { hue: z.string() },
    _meta: { ui: { resourceUri: "ui://palette" } } }, async ({ hue }) => ({ content: [{ type: "text", text: hue }] }));
  registerAppResource(server, "Palette", "ui://palette", { mimeType: "text/html" }, async () => ({ contents: [] }));
  other(server, "not_a_tool", {}, async () => ({ content: [] }));
  for (const def of [{ name: "mix_paint" }]) add(server, def);
}
function add(server, def) {
  reg(server, def.name, { description: "Mix" }, async () => ({ content: [] }));
}
''',
        "dist/local-helpers.js": "export function registerAppTool(server, name) { return name; }\n"}
    p = program(files)
    assert sorted((t.name, t.description) for t in p.tools) == [("mix_paint", "Mix"), ("open_palette", "Open the palette")]
    assert next(t for t in p.tools if t.name == "open_palette").schema["properties"] == {"hue": {"type": "string"}}
    assert sorted((r.kind, r.name) for r in p.registrations) == [
        ("resource", "Palette"), ("tool", "mix_paint"), ("tool", "open_palette")]
    assert sorted(d.tool for d in p.dispatches) == ["mix_paint", "open_palette"] and not p.gaps


def test_an_object_registration_whose_callback_is_a_method_of_the_object():
    """`{ name, parameters, async execute(args) {...} }`: the method is the callback, on a known server and on one
    handed in (its dispatch is traced to the method)."""
    tools, dispatches, regs = _register('''
import { FastMCP } from "fastmcp";
const server = new FastMCP({ name: "s", version: "1" });
server.addTool({ name: "known", description: "K", parameters: z.object({ q: z.string() }), async execute(args) { return args.q; } });
function register(srv) {
  srv.addTool({ name: "handed", description: "H", parameters: z.object({}), async execute() { return "ok"; } });
}
register(server);
''')
    assert sorted(t.name for t in tools) == ["handed", "known"]
    assert sorted((d.tool, d.target.type) for d in dispatches) == [("handed", "method_definition"),
                                                                  ("known", "method_definition")]
    assert all(r.gaps == () for r in regs)


def test_a_local_wrapper_inside_the_function_handed_the_server_registers_at_each_call():
    """`const reg = (name, description, schema, handler) => server.tool(name, ...)` inside `registerTools(server)`:
    the name is the wrapper's parameter, between the call and the server's parameter; one tool per call of it."""
    from program_helpers import program

    files = {"package.json": '{"name": "x", "version": "1.0.0", "bin": "dist/index.js"}',
             "dist/index.js": '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { registerTools } from "./tools.js";
const server = new McpServer({ name: "x", version: "1.0.0" });
registerTools(server, {});
await server.connect(new StdioServerTransport());
''',
             "dist/tools.js": '''import { z } from "zod";
export function registerTools(server, client) {
  const registerTool = (name, description, schema, handler) => server.tool(name, description, schema, handler);
  registerTool("get_quote", "Get a quote", { symbol: z.string() }, async ({ symbol }) => ({ content: [{ type: "text", text: symbol }] }));
  registerTool("get_account", "Get the account", {}, async () => ({ content: [] }));
}
'''}
    p = program(files)
    assert sorted((t.name, t.description) for t in p.tools) == [("get_account", "Get the account"),
                                                                ("get_quote", "Get a quote")]
    assert sorted(d.tool for d in p.dispatches if d.target is not None) == ["get_account", "get_quote"]
    assert not p.gaps


def test_an_instance_of_a_server_subclass_and_a_server_a_factory_returns_in_an_object_register():
    """`class Sub extends McpServer {}; const s = new Sub(); s.tool(...)`, and `const { server } = createMcpServer()`
    of a factory returning `{ server: server2, pkg }`, server2 an instance of such a subclass: both register."""
    from program_helpers import program

    head = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
            'class Sub extends McpServer { constructor(o) { super(o); } }\n')
    direct = head + ('const s = new Sub({ name: "x", version: "1" });\n'
                     's.tool("ping", "Ping", async () => ({ content: [] }));\nawait s.connect(new StdioServerTransport());\n')
    made = head + ('function createMcpServer(o) { const server2 = new Sub(o); return { server: server2, pkg: o }; }\n'
                   'const { server, pkg } = createMcpServer({ name: "x", version: "1" });\n'
                   'server.tool("pong", "Pong", async () => ({ content: [] }));\n'
                   'await server.connect(new StdioServerTransport());\n')
    for code, name in ((direct, "ping"), (made, "pong")):
        p = program({"package.json": '{"name": "x", "version": "1.0.0", "bin": "dist/index.js"}', "dist/index.js": code})
        assert [t.name for t in p.tools] == [name] and [d.tool for d in p.dispatches] == [name] and not p.gaps


def test_a_callback_a_factory_makes_is_the_function_it_returns_through_a_local_and_a_factory_of_its_own():
    """`server.tool(name, d, {}, default_tool(NAME, ctx))`: default_tool's `const fn = build(ctx, name, reply); return
    fn;`, build's `const fn = async (args) => ...; return fn;` - the callback is that arrow function."""
    from program_helpers import program

    code = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
            'function build(ctx, name, reply) { const fn = async (args) => reply(await ctx.send(name, args)); return fn; }\n'
            'function default_tool(name, ctx) { const fn = build(ctx, name, (r) => ({ content: [] })); return fn; }\n'
            'const server = new McpServer({ name: "x", version: "1" });\n'
            'server.tool("add_edge", "Add an edge", {}, default_tool("add-edge", { send: async () => ({}) }));\n'
            'await server.connect(new StdioServerTransport());\n')
    p = program({"package.json": '{"name": "x", "version": "1.0.0", "bin": "dist/index.js"}', "dist/index.js": code})
    assert [(d.tool, d.target.type) for d in p.dispatches] == [("add_edge", "arrow_function")] and not p.gaps


def test_a_registration_in_a_branch_no_run_takes_registers_nothing():
    """`if (DEBUG)` of `const DEBUG = false`, `if (opts.http)` where every caller hands `{ http: flag &&
    !isPublished() }` and `isPublished()` compares two constants that differ: those branches never run, so their
    tools are none. A condition the environment decides (`process.env.DEV`), or one that holds (`isPublished()`),
    leaves its tool registered."""
    from program_helpers import MCP, program

    code = MCP + '''const DEBUG = false;
const TOKEN = "8d75";
const PLACEHOLDER = "__BUILD" + "_TOKEN__";
function isPublished() { return TOKEN !== PLACEHOLDER; }
function registerMeta(srv, opts) {
  if (opts.http) { srv.tool("dev_reload", "Reload.", {}, async () => ({ content: [] })); }
  srv.tool("status", "Status.", {}, async () => ({ content: [] }));
}
registerMeta(server, { http: process.argv.includes("--http") && !isPublished() });
if (DEBUG) { server.tool("debug_dump", "Dump.", {}, async () => ({ content: [] })); }
if (process.env.DEV) { server.tool("dev_only", "Dev.", {}, async () => ({ content: [] })); }
if (isPublished()) { server.tool("published", "Published.", {}, async () => ({ content: [] })); }
else { server.tool("unpublished", "Unpublished.", {}, async () => ({ content: [] })); }
'''
    assert sorted(t.name for t in program({"index.js": code}).tools) == ["dev_only", "published", "status"]
    # The same when every registration goes through a wrapper assigned over the server's method (an interceptor):
    # its instances at those calls are read under the same conditions.
    wrapped = code.replace("registerMeta(server,", 'const original = server.tool.bind(server);\n'
                           'server.tool = (name, ...rest) => original(name, ...rest);\nregisterMeta(server,')
    assert "server.tool = (name" in wrapped
    assert sorted(t.name for t in program({"index.js": wrapped}).tools) == ["dev_only", "published", "status"]  # once each


def test_a_descriptor_shaped_object_no_registration_reads_is_no_tool_of_a_high_level_server():
    """A high-level server lists what is registered on it: a `{ name, description, inputSchema }` definition that only
    a tool's handler calls is advertised by nothing (`unadvertised`); with a registration whose name is not read, it
    stays a tool (it may be what that registers)."""
    from program_helpers import MCP, program

    code = MCP + '''
const checkBlocks = { name: "check_blocks", description: "Check", inputSchema: { type: "object", properties: {} },
  handler: async (args) => ({ ok: true }) };
server.registerTool("validate", { description: "Validate" }, async () => {
  const r = await checkBlocks.handler({});
  return { content: [{ type: "text", text: String(r.ok) }] };
});
'''
    p = program({"index.ts": code})
    assert [t.name for t in p.tools] == ["validate"] and [t.name for t in p.unadvertised] == ["check_blocks"]
    # a definition a registration names (by its key in a record registered in a loop) is that tool's declaration
    keyed = code + ('const RECORD = { press_key: { description: "Press", inputSchema: { type: "object", properties: {} } } };\n'
                    'Object.entries(RECORD).forEach(([name, t]) => server.tool(name, t.description, {}, async () => ({ content: [] })));\n')
    p = program({"index.ts": keyed})
    assert sorted(t.name for t in p.tools) == ["press_key", "validate"] and [t.name for t in p.unadvertised] == ["check_blocks"]
    p = program({"index.ts": code + 'server.registerTool(process.env.EXTRA_NAME, { description: "x" }, async () => ({ content: [] }));\n'})
    assert sorted(t.name for t in p.tools) == ["check_blocks", "validate"]


def test_a_descriptor_without_a_member_an_unread_registration_requires_is_no_tool():
    """A registrar `(tool) => { const { inputSchema, ...config } = tool.config; server.registerTool(tool.name, ...) }`
    whose names are not read requires `config` of what it registers (destructuring a missing member throws): a `{ name,
    description, inputSchema }` definition without it (an agent's tool of another API) is no tool it registers; one with
    `config`, or with a spread that may bring it, may be. A registrar that requires nothing known keeps every one."""
    from program_helpers import MCP, program

    registrar = ('function registrar(server) {\n'
                 '  return (tool) => {\n'
                 '    const { inputSchema, ...config } = tool.config;\n'
                 '    return server.registerTool(tool.name, { ...config, inputSchema }, tool.handler);\n'
                 '  };\n'
                 '}\n'
                 'const register = registrar(server);\n'
                 'for (const t of loadTools()) register(t);\n')
    defs = ('export const agentTool = { name: "send_dm", description: "Send", inputSchema: { type: "object" } };\n'
            'export const configured = { name: "with_config", description: "C", inputSchema: {}, config: {} };\n'
            'export const spread = { ...base(), name: "spread_tool", description: "S", inputSchema: {} };\n')
    p = program({"index.ts": MCP + registrar + defs})
    assert sorted(t.name for t in p.tools) == ["spread_tool", "with_config"]
    assert "send_dm" in [t.name for t in p.unadvertised]
    keeps = registrar.replace("const { inputSchema, ...config } = tool.config;", "const config = tool.config ?? {};")
    assert "send_dm" in [t.name for t in program({"index.ts": MCP + keeps + defs}).tools]


def test_a_registration_method_handed_a_function_first_is_another_api():
    """A plugin host's `api.registerTool((ctx) => ({ name, execute }), { name })` (a factory first, the options last)
    is no SDK registration: the SDK's name is never a function. The SDK's own call on any receiver still is one."""
    tools, _, regs = _register('''
const DEFS = [{ name: "a_tool", description: "A" }];
export default function register(api: any) {
  for (const def of DEFS) {
    api.registerTool((ctx: any) => ({ name: def.name, async execute(_id: string, params: any) { return params; } }),
                     { name: def.name });
  }
}
export function also(api: any) {
  api.registerTool("b_tool", { description: "B" }, async () => ({ content: [] }));
}
''')
    assert [t.name for t in tools] == ["b_tool"]
    assert [g.detail for r in regs for g in r.gaps] == []


def test_a_class_s_own_name_names_a_tool():
    """`server.registerTool(Codegen.name, ...)`, `registerTool(\`net.${Build.name}\`, ...)` (oclif commands registered
    as tools by their class): a class's `name` is its declared name at run time, unless it declares a static `name`."""
    from program_helpers import MCP, tool_names

    files = {"package.json": '{"name":"c","version":"1.0.0","type":"module","bin":"index.js"}',
             "index.js": MCP + '''import { z } from "zod";
class Codegen { static description = "Generate."; run() {} }
class Build {}
class Named { static name = "custom"; }
export function registerCodegen(server) { return server.registerTool(Codegen.name, { description: Codegen.description, inputSchema: { a: z.string() } }, async () => ({ content: [] })); }
export function registerBuild(server) { return server.registerTool(`net.${Build.name}`, { description: "b", inputSchema: {} }, async () => ({ content: [] })); }
export function registerNamed(server) { return server.registerTool(Named.name, { description: "n", inputSchema: {} }, async () => ({ content: [] })); }
registerCodegen(server); registerBuild(server); registerNamed(server);
'''}
    assert tool_names(files) == ["Codegen", "custom", "net.Build"]
