"""Registrations whose arguments are forwarded through the server's own layer: rest parameters and spread
arguments, names destructured from what a helper returns, destructuring in a `for ... of` loop.

Each server here is written for the test."""

from __future__ import annotations

from program_helpers import MCP, program, tool_names

CB = 'async () => ({ content: [] })'

_names = tool_names


def test_a_rest_parameter_binds_the_remaining_arguments_and_a_spread_passes_them_on():
    code = MCP + (
        'function register(kind, ...args) { server.registerTool(args[0], { description: kind }, args[1]); }\n'
        'function addRead(...args) { return register("read", ...args); }\n'
        'function addWrite(label, ...rest) { return register(label, ...rest); }\n'
        f'addRead("alpha", {CB});\naddWrite("w", "beta", {CB});\n')
    assert _names({"index.ts": code}) == ["alpha", "beta"]


def test_a_name_destructured_from_what_a_method_returns_for_a_rest_parameter():
    # The shape of a server subclass whose methods forward their arguments: add(...args) -> this.registerWith(
    # "read", ...args) -> const { name } = this.parse(args) -> const [name] = args; the tool classes' static
    # create(server) call server.add("<literal>", ...) on a parameter, across modules.
    files = {
        "kit.ts": (
            'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'export class Kit extends McpServer {\n'
            '  parse(access, args) {\n'
            '    const [name] = args;\n'
            '    if (args.length === 2) return { name, config: { title: access }, cb: args[1] };\n'
            '    return { name, config: { description: args[1] }, cb: args[2] };\n'
            '  }\n'
            '  registerWith(access, ...args) {\n'
            '    const { name, config, cb } = this.parse(access, args);\n'
            '    return McpServer.prototype.registerTool.call(this, name, config, cb);\n'
            '  }\n'
            '  addRead(...args) { return this.registerWith("read", ...args); }\n'
            '  addWrite(...args) { return this.registerWith("write", ...args); }\n'
            '}\n'),
        "tools.ts": (
            'export class Notes {\n'
            f'  static create(server) {{ server.addRead("notes-list", {CB}); server.addWrite("notes-add", "Add.", {CB}); }}\n'
            '}\n'),
        "index.ts": ('import { Kit } from "./kit.js";\nimport { Notes } from "./tools.js";\n'
                     'const server = new Kit({ name: "s", version: "1" });\nNotes.create(server);\n'),
    }
    assert _names(files) == ["notes-add", "notes-list"]


def test_a_method_of_the_same_name_on_an_unrelated_class_registers_nothing():
    code = (
        'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
        'class Kit extends McpServer {\n'
        '  add(...args) { return McpServer.prototype.registerTool.call(this, args[0], {}, args[1]); }\n}\n'
        'class Cart { add(...items) { return items.length; } }\n'
        'import { program } from "commander";\n'
        'const kit = new Kit({ name: "s", version: "1" });\nconst cart = new Cart();\n'
        f'kit.add("gamma", {CB});\ncart.add("not-a-tool", 3);\nprogram.add("nor-this", 4);\n'
        'const tally = { add(...n) { return n.length; } };\ntally.add("nor-that");\n')
    assert _names({"index.ts": code}) == ["gamma"]


def test_a_for_of_loop_destructuring_the_records_a_function_returns():
    code = MCP + (
        'function configure(extra) {\n'
        f'  return [{{ name: "delta", config: {{}}, handler: {CB} }}, {{ name: extra, config: {{}}, handler: {CB} }}];\n'
        '}\n'
        'for (const { name: toolName, config, handler } of configure("epsilon")) server.registerTool(toolName, config, handler);\n')
    assert _names({"index.ts": code}) == ["delta", "epsilon"]


def test_a_subclass_of_the_sdk_server_across_modules_is_a_server_read_with_its_super_arguments():
    files = {
        "base.ts": ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
                    'export class Kit extends McpServer {\n'
                    '  constructor({ readonly }) { super({ name: "kit", version: "2.0.0" }); this.readonly = readonly; }\n}\n'),
        "more.ts": 'import { Kit } from "./base.js";\nexport class ReadKit extends Kit {}\n',
        "index.ts": ('import { ReadKit as R } from "./more.js";\nconst server = new R({ readonly: true });\n'
                     f'server.registerTool("zeta", {{}}, {CB});\n'),
    }
    p = program(files)
    assert [(s.cls, s.info.get("name")) for s in p.servers] == [("McpServer", "kit")]
    from auditor.analyse import coverage
    assert not any("no MCP server object" in u["what"] for u in coverage.ledger(p)["unresolved"])


def test_tool_factories_grouped_in_toolsets_registered_in_nested_loops_through_a_member_of_the_server():
    # A function assigned to a member of the server registers; factories per tool return {name, ...}; a function
    # groups them in toolsets; a helper with a prefix (a parameter with a default) loops over toolsets, then tools.
    files = {
        "wrap.ts": ('export function wrap(server) {\n  const s = server;\n'
                    '  s.registerOnce = (name, description, schema, handler) => {\n'
                    '    s.registerTool(name, { description, inputSchema: schema }, handler);\n  };\n  return s;\n}\n'),
        "tools/one.ts": 'export const oneTool = (api, name = "get_one") => ({ name, description: "One.", schema: {}, handler: async () => api.one() });\n',
        "tools/two.ts": 'export function twoTool(api) { return { name: "get_two", description: "Two.", schema: {}, handler: async () => api.two() }; }\n',
        "tools/all.ts": ('import { oneTool } from "./one.js";\nimport { twoTool } from "./two.js";\n'
                         'export const allTools = (api) => ({ toolsets: [\n'
                         '  { name: "a", enabled: false, tools: [oneTool(api)] },\n'
                         '  { name: "b", enabled: false, tools: [twoTool(api)], native: [oneTool(api, "get_raw")] }] });\n'),
        "group.ts": ('import { allTools } from "./tools/all.js";\n'
                     'export const buildGroup = (api, enabled) => {\n  const group = allTools(api);\n'
                     '  return { toolsets: group.toolsets.map((ts) => ({ ...ts, enabled: enabled.includes(ts.name) })) };\n};\n'),
        "register.ts": ('export function registerTools(server, group, options) {\n  const { prefix } = options;\n'
                        '  registerToolsets({ server, toolsets: group.toolsets, prefix });\n'
                        '  registerToolsets({ server, toolsets: group.toolsets.map((t) => ({ enabled: t.enabled, tools: t.native ?? [] })), prefix });\n}\n'
                        'function registerToolsets({ server, toolsets, prefix = "" }) {\n'
                        '  for (const toolset of toolsets) {\n    if (!toolset.enabled) continue;\n'
                        '    for (const tool of toolset.tools) {\n      const full = `${prefix}${tool.name}`;\n'
                        '      server.registerOnce(full, tool.description, tool.schema, tool.handler);\n    }\n  }\n}\n'),
        "index.ts": ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
                     'import { wrap } from "./wrap.js";\nimport { buildGroup } from "./group.js";\n'
                     'import { registerTools } from "./register.js";\n'
                     'const server = wrap(new McpServer({ name: "s", version: "1" }));\n'
                     'export function create(shared) {\n  const group = shared ?? buildGroup({}, ["all"]);\n'
                     '  registerTools(server, group, { prefix: "bl_" });\n}\ncreate();\n'),
    }
    assert _names(files) == ["bl_get_one", "bl_get_raw", "bl_get_two"]


def test_a_name_prefixed_with_a_value_set_at_run_time_is_listed_with_the_prefix_empty_and_a_gap():
    code = MCP + (
        'const TOOLS = [{ name: "eta" }, { name: "theta" }];\n'
        'function install(s, prefix) {\n'
        f'  for (const t of TOOLS) s.registerTool(`${{prefix}}${{t.name}}`, {{}}, {CB});\n'
        f'  s.registerTool(`${{prefix}}${{process.env.EXTRA}}`, {{}}, {CB});\n'
        '}\n'
        'install(server, process.env.PREFIX);\n')
    p = program({"index.ts": code})
    assert sorted(t.name for t in p.tools) == ["eta", "theta"]  # the name of the second is not read at all
    assert any("2 of the tools it registers have a name that starts with `${prefix}`" in g.detail for g in p.gaps)


def test_a_bundled_librarys_helper_that_registers_the_name_it_is_handed_registers_at_the_servers_calls():
    """An esbuild bundle inlines a library's helper (`uZ`, minified) that hands its parameters on to
    `Z.registerTool($, {...J, _meta}, X)`: the library's code is not the server's (its captures are set aside), but
    the helper the server's own code calls is read as the server's, instantiated at each call (expect: tool `echo`,
    dispatched to its callback). A helper of the library the server does not call registers nothing, no gap."""
    code = ('// node_modules/apps-kit/dist/server.js\n'
            'function uZ(Z, $, J, X) {\n'
            '  let W = J._meta;\n'
            '  if (W?.ui) W = { ...W, uri: W.ui };\n'
            '  return Z.registerTool($, { ...J, _meta: W }, X);\n'
            '}\n'
            'function hZ(Z, $, X) { return Z.registerTool($, {}, X); }\n'
            '\n'
            '// node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js\n'
            'class McpServer { registerTool(name, config, cb) { return [name, config, cb]; } }\n'
            '\n'
            '// src/index.ts\n'
            'function main() {\n'
            '  const server = new McpServer({ name: "s", version: "1.0.0" });\n'
            f'  uZ(server, "echo", {{ description: "Echo", _meta: {{}} }}, {CB});\n'
            '  return server;\n'
            '}\n'
            'main();\n')
    p = program({"index.js": code})
    assert sorted(t.name for t in p.tools) == ["echo"]
    (d,) = [d for d in p.dispatches if d.tool == "echo"]
    assert d.form == "registration" and d.target is not None
    assert not [g for g in p.gaps if g.kind == "registration"]


def test_a_wrapper_handed_in_an_object_or_as_a_parameter_is_called_through_it():
    """A registration wrapper reached only through what a function is handed: `ctx.tool(...)` of `f({ tool })`, and
    a wrapper handed as the function itself (`f(add)` then `add(...)`). Its calls there name the tools; the
    registration inside it is no unread name (expect: four tools, no gap, complete)."""
    from auditor.analyse import coverage

    index = MCP + '''import { registerKinds, registerMore } from "./kinds.js";
const registerTool = (name, description, schema, cb, target) => {
  target.registerTool(name, { description, inputSchema: schema }, async (args) => cb(args));
};
const make = () => {
  const s = new McpServer({ name: "s", version: "1" });
  const tool = (name, description, schema, cb) => { registerTool(name, description, schema, cb, s); };
  registerKinds({ tool });
  registerMore(tool);
  return s;
};
make().connect(new StdioServerTransport());
'''
    kinds = f'''export function registerKinds(ctx) {{
  ctx.tool("list_kinds", "List kinds.", {{}}, {CB});
  ctx.tool("get_kind", "Get a kind.", {{}}, {CB});
}}
export function registerMore(add) {{
  add("count_kinds", "Count kinds.", {{}}, {CB});
  add("drop_kind", "Drop a kind.", {{}}, {CB});
}}
'''
    manifest = '{"name": "kinds", "version": "1.0.0", "bin": {"kinds": "index.js"}}'
    p = program({"index.js": index, "kinds.js": kinds, "package.json": manifest})
    led = coverage.ledger(p)
    assert [t["name"] for t in led["tools"]] == ["count_kinds", "drop_kind", "get_kind", "list_kinds"]
    assert [g for g in p.gaps if g.kind == "registration"] == []
    assert led["complete"] is True


def test_a_context_object_handed_on_through_a_parameter_still_hands_its_wrapper():
    """`registerAll(ctx)` hands its own parameter on to each group's function, whose `ctx.tool(...)` calls name the
    tools: what `ctx.tool` is comes from registerAll's callers, one level further out (expect: two tools traced to
    the wrapper's callback, no registration gap, complete; before, the wrapper's `registerTool(name, ...)` was an
    unread name)."""
    from auditor.analyse import coverage

    index = MCP + '''import { registerAll } from "./all.js";
const registerTool = (name, description, schema, cb, target) => {
  const wrapped = async (args) => cb(args);
  target.registerTool(name, { description, inputSchema: schema }, wrapped);
};
const make = (user) => {
  const s = new McpServer({ name: "s", version: "1" });
  const tool = (name, description, schema, cb) => { registerTool(name, description, schema, cb, s); };
  const context = { tool, user };
  registerAll(context);
  return s;
};
make("me").connect(new StdioServerTransport());
'''
    group = f'''export function registerAll(ctx) {{
  registerNotes(ctx);
}}
function registerNotes(ctx) {{
  ctx.tool("list_notes", "List notes.", {{}}, {CB});
  ctx.tool("add_note", "Add a note.", {{}}, {CB});
}}
'''
    manifest = '{"name": "notes", "version": "1.0.0", "bin": {"notes": "index.js"}}'
    p = program({"index.js": index, "all.js": group, "package.json": manifest})
    led = coverage.ledger(p)
    assert [(t["name"], t["implementation"]) for t in led["tools"]] == [("add_note", "wrapped"), ("list_notes", "wrapped")]
    assert [g for g in p.gaps if g.kind == "registration"] == []
    assert led["complete"] is True


def test_a_rest_forwarding_wrapper_destructured_from_a_context_object_registers_at_each_call():
    """`const registerTool = (name, ...args) => server.tool(name, ...args)` handed in a context object, taken out by
    `const { registerTool } = ctx` in each group's function: each call registers a tool, its description, schema and
    callback the call's own arguments (expect: two tools, analysed, complete; before, none and still complete)."""
    from auditor.analyse import coverage

    index = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { registerNotes } from "./notes.js";
export function registerAll(server, options) {
  const registerTool = (toolName, ...args) => {
    if (options.deny?.includes(toolName)) return false;
    server.tool(toolName, ...args);
    return true;
  };
  const ctx = { registerTool, base: options.base };
  registerNotes(ctx);
}
const server = new McpServer({ name: "notes", version: "1.0.0" });
registerAll(server, {});
server.connect(new StdioServerTransport());
'''
    notes = f'''import {{ z }} from "zod";
export function registerNotes(ctx) {{
  const {{ registerTool, base }} = ctx;
  registerTool("list_notes", "List notes.", {{ page: z.number() }}, {CB});
  registerTool("drop_note", "Drop a note.", {{ id: z.string() }}, async ({{ id }}) => fetch(base + id));
}}
'''
    manifest = '{"name": "notes", "version": "1.0.0", "bin": {"notes": "index.js"}}'
    p = program({"index.js": index, "notes.js": notes, "package.json": manifest})
    led = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("drop_note", "analysed"), ("list_notes", "analysed")]
    assert {t.name: sorted(t.schema["properties"]) for t in p.tools} == {"drop_note": ["id"], "list_notes": ["page"]}
    assert led["complete"] is True


def test_whole_argument_lists_made_by_a_factory_and_spread_into_the_registration():
    """`allTools.forEach((tool) => server.tool(...tool))` over `createTool(name, description, shape, handler)`
    results, each `[name, description, shape, handler]`: one tool per element, read in the module that calls the
    factory; a description a function makes is a description (not a schema) before a zod shape."""
    from auditor.analyse import coverage

    index = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { volumeTools } from "./volumes.js";
function registerAll(server) {
  const allTools = [...volumeTools];
  allTools.forEach((tool) => {
    server.tool(...tool);
  });
}
const server = new McpServer({ name: "vol", version: "1.0.0" });
registerAll(server);
server.connect(new StdioServerTransport());
'''
    tools = f'''import {{ z }} from "zod";
export function createTool(name, description, schema, handler) {{ return [name, description, schema, handler]; }}
const describe = ({{ kind, text }}) => [`[${{kind}}]`, text].join(" ");
export const volumeTools = [
  createTool("volume_list", describe({{ kind: "API", text: "List volumes." }}), {{ project: z.string() }}, {CB}),
  createTool("volume_drop", "Drop a volume.", {{ id: z.string(), force: z.boolean().optional() }}, {CB}),
];
'''
    manifest = '{"name": "vol", "version": "1.0.0", "bin": {"vol": "index.js"}}'
    p = program({"index.js": index, "volumes.js": tools, "package.json": manifest})
    led = coverage.ledger(p)
    assert [t["name"] for t in led["tools"]] == ["volume_drop", "volume_list"]
    assert {t.name: sorted(t.schema["properties"]) for t in p.tools} == {
        "volume_drop": ["force", "id"], "volume_list": ["project"]}
    assert {t.name: t.description for t in p.tools} == {"volume_drop": "Drop a volume.", "volume_list": None}
    assert led["complete"] is True


def test_a_tool_also_listed_by_a_module_no_entry_reaches_is_the_entry_s_tool():
    """Two programs share a helper that registers each tool of a list (`registerTools(tools)`); the one the bin
    runs lists `list_tools` and `move_file`, another (no bin, read first) lists `list_tools` too. Each module's call
    is its own instance: the bin's tools are both kept, the other program's dropped as unreached."""
    lib = f'''import {{ McpServer }} from "@modelcontextprotocol/sdk/server/mcp.js";
export class Base {{
  constructor() {{ this.server = new McpServer({{ name: "b", version: "1" }}); }}
  registerTools(tools) {{ for (const tool of tools) this.registerTool(tool); }}
  registerTool(tool) {{ this.server.tool(tool.name, tool.description, tool.execute); }}
}}
export const listToolsTool = {{ name: "list_tools", description: "List tools.", execute: {CB} }};
'''
    main = f'''import {{ Base, listToolsTool }} from "./lib.js";
const moveFileTool = {{ name: "move_file", description: "Move a file.", execute: {CB} }};
new Base().registerTools([listToolsTool, moveFileTool]);
'''
    other = f'''import {{ Base, listToolsTool }} from "./lib.js";
const hoverTool = {{ name: "hover", description: "Hover.", execute: {CB} }};
new Base().registerTools([listToolsTool, hoverTool]);
'''
    manifest = '{"name": "ts", "version": "1.0.0", "bin": {"ts": "main.js"}}'
    assert _names({"lib.js": lib, "main.js": main, "alt.js": other, "package.json": manifest}) == [
        "list_tools", "move_file"]


def test_tools_of_a_singleton_registry_a_field_holds_are_registered_in_a_loop():
    """`this.registry = Registry.getInstance()` (a static method returning the one instance it keeps) and
    `for (const tool of this.registry.list()) this.server.registerTool(tool.name, ...)`: the field holds a Registry,
    so `list()` is its method and each element it returns registers a tool."""
    code = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const TOOLS = [
  { name: "manage_issues", description: "Issues." },
  { name: "manage_labels", description: "Labels." },
];
class Registry {
  static getInstance() {
    if (!Registry._instance) {
      Registry._instance = new Registry();
    }
    return Registry._instance;
  }
  list() { return TOOLS.filter((t) => t.name); }
}
class Server {
  constructor() {
    this.server = new McpServer({ name: "s", version: "1" });
    this.registry = Registry.getInstance();
  }
  setup() {
    for (const tool of this.registry.list()) {
      this.server.registerTool(tool.name, { description: tool.description }, async (args) => ({ content: [] }));
    }
  }
}
new Server().setup();
'''
    assert _names({"index.js": code}) == ["manage_issues", "manage_labels"]


def test_items_by_index_of_the_list_a_factory_returns_name_the_tools():
    """`const definitions = createToolDefinitions(runtime); registerTool(server, definitions[0]); ...`: each
    definition is an item of the list the factory returns, itself a call of a per-tool factory returning
    `{ name: TOOL_NAME, ... }` in its own module."""
    helper = '''export function registerTool(server, definition) {
  server.registerTool(definition.name, { description: definition.description }, async (args) => definition.run(args));
}
'''
    tools = '''import { registerTool } from "./factory.js";
import { createListTool } from "./list.js";
import { createReadTool } from "./read.js";
function createToolDefinitions(runtime) {
  return [createListTool(runtime), createReadTool(runtime)];
}
export function registerTools(server, runtime) {
  const definitions = createToolDefinitions(runtime);
  registerTool(server, definitions[0]);
  registerTool(server, definitions[1]);
}
'''
    one = '''const TOOL_NAME = "{name}";
export function {fn}(runtime) {{ return {{ name: TOOL_NAME, description: "{name}", run: (a) => runtime.go(a) }}; }}
'''
    index = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { registerTools } from "./tools.js";
const server = new McpServer({ name: "vault", version: "1" });
registerTools(server, {});
'''
    files = {"index.js": index, "tools.js": tools, "factory.js": helper,
             "list.js": one.format(name="vault_list", fn="createListTool"),
             "read.js": one.format(name="vault_read", fn="createReadTool")}
    assert _names(files) == ["vault_list", "vault_read"]


def test_a_registration_method_taken_off_the_server_registers_by_its_new_name():
    """`const registerToolUntyped = server.registerTool.bind(server)` (or `const add = server.tool`) in a helper handed
    the server and a tool's metadata: `registerToolUntyped(meta.name, ...)` is `server.registerTool(meta.name, ...)`,
    read at each call of the helper."""
    code = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const FORECAST = { name: "get_forecast", description: "Forecast." };
const ARCHIVE = { name: "get_archive", description: "Archive." };
class WeatherServer {
  registerReadOnly(server, meta, handler) {
    const registerToolUntyped = server.registerTool.bind(server);
    registerToolUntyped(meta.name, { description: meta.description }, handler);
  }
  create() {
    const server = new McpServer({ name: "w", version: "1" });
    this.registerReadOnly(server, FORECAST, async () => ({ content: [] }));
    this.registerReadOnly(server, ARCHIVE, async () => ({ content: [] }));
    return server;
  }
}
new WeatherServer().create();
'''
    assert _names({"index.js": code}) == ["get_archive", "get_forecast"]


def test_a_call_two_wrappers_reach_is_one_tool():
    """`registerWithTelemetry(server, "get_layout", ...)`, a helper that calls `server.registerTool(name, ...)`, on a
    server whose `registerTool` an interceptor replaced (`server.registerTool = (name, ...rest) => original(...)`):
    the helper's expansion and the interceptor's both reach the helper's call; it is one tool."""
    code = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "rn", version: "1" });
const original = server.registerTool.bind(server);
server.registerTool = (name, ...rest) => original(name, ...rest);
function registerWithTelemetry(srv, name, config, cb) {
  srv.registerTool(name, config, async (args) => cb(args));
}
registerWithTelemetry(server, "get_layout", { description: "Layout." }, async () => ({ content: [] }));
registerWithTelemetry(server, "get_tree", { description: "Tree." }, async () => ({ content: [] }));
'''
    assert sorted(t.name for t in program({"index.js": code}).tools) == ["get_layout", "get_tree"]


def test_a_name_computed_at_run_time_on_a_server_parameter_is_a_registration_and_a_gap():
    """`server.tool(caseOf(tool.name, options?.nameCase), ..., async (params) => ...)` in a method handed the server:
    SDK-shaped (a callback written there), so a registration, never silently dropped; its name not read (the case is
    an argument of the command line), a gap, and the audit is not complete (not one tool found and "complete")."""
    from auditor.analyse import coverage

    code = """import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { caseOf } from "./names.js";
import { GENERATED } from "./generated.js";
export class Kit {
  constructor(options) { this.all = GENERATED.filter((t) => options.allow.includes(t.name)); }
  register(srv, options) {
    for (const tool of this.all) {
      srv.tool(caseOf(tool.name, options?.nameCase), tool.description, tool.schema, async (params) => ({ content: [] }));
    }
  }
}
const server = new McpServer({ name: "lark", version: "1" });
server.tool("recall", "Recall", {}, async () => ({ content: [] }));
new Kit({ allow: [] }).register(server, { nameCase: process.argv[2] });
"""
    p = program({"index.ts": code, "names.ts": 'export function caseOf(n, c) { return c === "snake" ? n.replace(/\\./g, "_") : n; }\n',
                 "generated.ts": 'export const GENERATED = [{ name: "im.v1.chat.create", description: "x", schema: {} }];\n'})
    assert [t.name for t in p.tools] == ["recall"]
    assert any(g.detail.startswith("tool() with a name that is not a literal (`caseOf(tool.name") for g in p.gaps)
    assert coverage.ledger(p)["complete"] is False


def test_a_wrapper_forwarding_its_whole_argument_list_registers_at_each_call():
    """`const register = ((...args) => { ...; return server.tool(...args); }) as McpServer["tool"]`: each call of
    register is a registration with its own arguments."""
    code = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { z } from "zod";\n'
            'export function facade(server: McpServer, skip = new Set<string>()) {\n'
            '  const register = ((...args: any[]) => {\n'
            '    if (skip.has(args[0])) return undefined;\n'
            '    try { return (server.tool as any)(...args); } catch { return undefined; }\n'
            '  }) as McpServer["tool"];\n'
            f'  register("list_tools", "List tools.", {{ q: z.string().optional() }}, {CB});\n'
            f'  register("call_tool", "Call a tool.", {{ name: z.string() }}, {CB});\n'
            '}\n'
            'facade(new McpServer({ name: "f", version: "1" }));\n')
    p = program({"index.ts": code})
    assert sorted(t.name for t in p.tools) == ["call_tool", "list_tools"]
    assert not [g for g in p.gaps if "not a literal" in g.detail]


def test_an_interceptor_reached_through_an_override_that_hands_its_rest_on_reads_each_call():
    """A server class overrides `tool(...args) { return super.tool(...args); }` and an interceptor replaces the
    method (`server.tool = function (...args) { return original(...args); }`): each direct registration reaches the
    interceptor through the override, whose rest is the call's arguments (a method's frame binds `this` first), so no
    instantiation is left unread and the audit has no registration gap."""
    code = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
class TrackedServer extends McpServer {
  tool(...args) {
    return super.tool(...args);
  }
}
const server = new TrackedServer({ name: "tracked", version: "1" });
const original = server.tool.bind(server);
server.tool = function (...args) {
  return original(...args);
};
server.tool("show_hosts", "Show the hosts.", {}, async () => ({ content: [] }));
server.tool("show_rules", "Show the rules.", {}, async () => ({ content: [] }));
'''
    p = program({"index.js": code})
    assert sorted(t.name for t in p.tools) == ["show_hosts", "show_rules"]
    assert [g.detail for g in p.gaps if g.kind == "registration"] == []


def test_a_wrapper_merging_its_config_into_annotations_with_object_assign_reads_both():
    """`server.registerTool(name, Object.assign({ annotations: annotationsFor(kind) }, config), handler)` in a
    wrapper: the config is the object Object.assign makes of the two, the call site's description and schema read
    through the wrapper's parameter, the annotations the wrapper adds; no registration gap. An argument that is no
    object literal (`Object.assign({}, defaults())`) leaves the config unread, a gap."""
    code = MCP + '''import { z } from "zod";
const server = new McpServer({ name: "mail", version: "1" });
const annotationsFor = (kind) => ({ readOnlyHint: kind === "read" });
const tool = (name, kind, config, handler) => {
  server.registerTool(name, Object.assign({ annotations: annotationsFor(kind) }, config), handler);
};
tool("get_account", "read", { description: "Show the account.", inputSchema: { user: z.string() } },
  async () => ({ content: [] }));
tool("delete_message", "write", { description: "Delete a message.", inputSchema: { id: z.string() } },
  async () => ({ content: [] }));
'''
    p = program({"index.ts": code})
    tools = {t.name: t for t in p.tools}
    assert sorted(tools) == ["delete_message", "get_account"]
    assert tools["get_account"].description == "Show the account."
    assert list(tools["delete_message"].schema["properties"]) == ["id"]
    assert not [g for g in p.gaps if g.kind == "registration"]
    unread = program({"index.ts": code.replace("Object.assign({ annotations: annotationsFor(kind) }, config)",
                                               "Object.assign({}, defaults())")})
    assert [g for g in unread.gaps if g.kind == "registration"]


def test_a_default_after_a_name_made_of_a_parameter_is_no_name_the_code_fixes():
    """`api_${value.trim().replace(...) || "operation"}` in a function handed each operation of a spec read at run
    time: the default is taken only when the value made of the parameter is empty, which the code does not fix;
    the name is not read (a gap), never the one tool `api_operation`. A default after a value the code leaves
    unknown that is no input (`process.env.TOOL || "ping"`) is still the name by default."""
    code = MCP + '''import { readFileSync } from "node:fs";
const server = new McpServer({ name: "api", version: "1" });
function toolName(value) {
  return `api_${value.trim().replace(/[^a-z0-9_]+/g, "_").slice(0, 56) || "operation"}`;
}
const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
for (const op of spec.operations) {
  server.registerTool(toolName(op.id), { description: "Call the API." }, async () => ({ content: [] }));
}
server.registerTool(process.env.TOOL || "ping", { description: "Ping." }, async () => ({ content: [] }));
'''
    p = program({"index.ts": code})
    assert sorted(t.name for t in p.tools) == ["ping"]
    assert [g for g in p.gaps if g.kind == "registration" and "toolName(op.id)" in g.detail]


TYPED_LIST = MCP + '''import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
function defineTool(definition) {
  if (typeof definition === "function") {
    return (args) => ({ ...definition(args), scoped: true });
  }
  return definition;
}
const ping = defineTool({ name: "ping", description: "Ping.", handler: async () => ({ content: [] }) });
const grep = defineTool((args) => ({ name: "grep", description: `Grep${args.slim ? "" : " everything"}.`,
  handler: async () => ({ content: [] }) }));
function createTools(args) {
  const tools = [];
  for (const tool of [ping, grep]) {
    if (typeof tool === "function") {
      tools.push(tool(args));
    } else {
      tools.push(tool);
    }
  }
  return tools;
}
for (const t of createTools({ slim: false })) {
  server.registerTool(t.name, { description: t.description }, t.handler);
}
await server.connect(new StdioServerTransport());
'''


def test_a_typeof_test_of_each_element_picks_the_branch_that_element_takes():
    """`typeof tool === "function"` in a loop over tool definitions, a definition made by `defineTool(...)` (which
    returns a factory when handed a function, the object otherwise): a factory's result is pushed, an object as it
    is (expect: both tools, no registration gap; before, each element was read in both branches and half the names
    were unread). A test the reading cannot decide leaves the gap."""
    p = program({"index.js": TYPED_LIST})
    assert sorted(t.name for t in p.tools) == ["grep", "ping"]
    assert [g.detail for g in p.gaps if g.kind == "registration"] == []
    undecided = TYPED_LIST.replace('if (typeof tool === "function") {\n      tools.push', 'if (Math.random() > 0.5) {\n      tools.push')
    assert [g for g in program({"index.js": undecided}).gaps if g.kind == "registration"] != []
