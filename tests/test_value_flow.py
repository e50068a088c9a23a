"""Tool lists and names followed through the server's own code: calls of factories, closures, pushes, defaults.

Each server here is written for the test; the fixtures tool-rack, signal-box, word-crate and tab-kit hold the
larger shapes with their expectations."""

from __future__ import annotations

from program_helpers import MCP, program, tool_names


_names = tool_names


def test_a_list_filled_by_pushes_in_a_loop_over_factories_gives_each_factory_s_tool():
    code = MCP + (
        'const make = (n) => () => ({ name: n, run: async () => n });\n'
        'const FACTORIES = [make("alpha"), make("beta")];\n'
        'function build() {\n'
        '  const out = [];\n'
        '  for (const f of FACTORIES) out.push(f());\n'
        '  return out;\n'
        '}\n'
        'for (const t of build()) server.registerTool(t.name, {}, t.run);\n')
    assert _names({"index.ts": code}) == ["alpha", "beta"]


def test_a_closure_reads_the_parameters_of_the_factory_that_made_it():
    code = MCP + (
        'function wrap(def) {\n'
        '  return (opts) => { const tool = def(opts); return { ...tool, wrapped: true }; };\n'
        '}\n'
        'const TOOLS = [wrap(() => ({ name: "gamma" })), wrap(() => ({ name: "delta" }))];\n'
        'TOOLS.forEach((make) => { const t = make({}); server.registerTool(t.name, {}, async () => ({ content: [] })); });\n')
    assert _names({"index.ts": code}) == ["delta", "gamma"]


def test_a_call_with_one_object_argument_is_that_object_only_when_the_function_hands_it_back():
    code = MCP + (
        'function defineTool(spec) { return spec; }\n'
        'function makeTools(options) { return [defineTool({ name: "epsilon", verbose: options.verbose })]; }\n'
        'for (const t of makeTools({ verbose: false })) server.registerTool(t.name, {}, async () => ({ content: [] }));\n'
        'for (const t of [defineTool({ name: "zeta" })]) server.registerTool(t.name, {}, async () => ({ content: [] }));\n')
    # makeTools({...}) is no tool object: its elements are what it returns; defineTool({...}) is its argument.
    assert _names({"index.ts": code}) == ["epsilon", "zeta"]


def test_a_name_parameter_s_default_and_an_or_default_are_the_names_of_calls_that_leave_them_out():
    code = MCP + (
        'function addA(s, name = "eta") { s.registerTool(name, {}, async () => ({ content: [] })); }\n'
        'function addB(s, name) { s.registerTool(name || "theta", {}, async () => ({ content: [] })); }\n'
        'addA(server); addA(server, "iota"); addB(server); addB(server, "kappa");\n')
    assert _names({"index.ts": code}) == ["eta", "iota", "kappa", "theta"]


def test_instances_whose_name_is_not_read_leave_a_gap_beside_the_tools_that_are():
    code = MCP + (
        'const TOOLS = [{ name: "lambda" }, { name: process.env.EXTRA_TOOL }];\n'
        'for (const t of TOOLS) server.registerTool(t.name, {}, async () => ({ content: [] }));\n')
    p = program({"index.ts": code})
    assert sorted(t.name for t in p.tools) == ["lambda"]
    assert any("1 of its instantiations name a tool that is not read" in g.detail for g in p.gaps)


def test_object_values_of_a_namespace_re_exported_under_a_name():
    files = {
        "tools/a.ts": 'export const one = { name: "mu" };\nexport const two = { name: "nu" };\n',
        "tools/index.ts": 'export * as group from "./a.js";\n',
        "index.ts": MCP + 'import { group } from "./tools/index.js";\n'
                    'for (const t of Object.values(group)) server.registerTool(t.name, {}, async () => ({ content: [] }));\n',
    }
    assert _names(files) == ["mu", "nu"]


def test_a_local_wrapper_function_registers_at_each_call():
    code = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'export function build() {\n  const server = new McpServer({ name: "s", version: "1" });\n'
            '  const tool = (name, desc, cb) => server.registerTool(name, { description: desc }, cb);\n'
            '  tool("xi", "d", async () => ({ content: [] }));\n  tool("omicron", "d", async () => ({ content: [] }));\n'
            '  return server;\n}\nbuild();\n')
    assert _names({"index.ts": code}) == ["omicron", "xi"]


def test_a_function_assigned_to_the_server_and_called_in_nested_loops():
    code = MCP + ('server.registerOnce = (name, cb) => server.registerTool(name, {}, cb);\n'
                  'const GROUPS = [{ tools: [{ name: "pi" }, { name: "rho" }] }, { tools: [{ name: "sigma" }] }];\n'
                  'for (const g of GROUPS) for (const t of g.tools) server.registerOnce(t.name, async () => ({ content: [] }));\n')
    assert _names({"index.ts": code}) == ["pi", "rho", "sigma"]


def test_a_subclass_borrowing_the_sdk_method_with_call():
    code = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'class Kit extends McpServer {\n'
            '  add(name, cb) { return McpServer.prototype.registerTool.call(this, name, {}, cb); }\n}\n'
            'const kit = new Kit({ name: "s", version: "1" });\nkit.add("tau", async () => ({ content: [] }));\n')
    assert _names({"index.ts": code}) == ["tau"]


def test_a_static_list_of_a_class_and_a_static_assigned_after_it():
    code = MCP + ('class Shelf { static tools = [{ name: "upsilon" }]; }\n'
                  'class Probe {}\nProbe.toolName = "phi";\n'
                  'for (const t of Shelf.tools) server.registerTool(t.name, {}, async () => ({ content: [] }));\n'
                  'for (const c of [Probe]) server.registerTool(c.toolName, {}, async () => ({ content: [] }));\n')
    assert _names({"index.ts": code}) == ["phi", "upsilon"]


def test_a_template_name_in_a_loop_is_read_per_element():
    code = MCP + ('const DATASETS = [{ id: "chi" }, { id: "psi" }];\n'
                  'for (const d of DATASETS) server.registerTool(`data_${d.id}`, {}, async () => ({ content: [] }));\n')
    assert _names({"index.ts": code}) == ["data_chi", "data_psi"]


def test_a_tool_registered_in_a_module_no_entry_imports_is_not_the_server_s():
    manifest = '{"name": "demo", "bin": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'
    files = {"index.ts": MCP + 'server.registerTool("omega", {}, async () => ({ content: [] }));\n',
             "legacy.ts": MCP + 'server.registerTool("old_omega", {}, async () => ({ content: [] }));\n',
             "package.json": manifest}
    p = program(files)
    assert sorted(t.name for t in p.tools) == ["omega"]
    assert all(d.tool != "old_omega" for d in p.dispatches)
    from auditor.analyse import coverage
    led = coverage.ledger(p)
    row = next(f for f in led["files"] if f["path"] == "legacy.ts")
    # the entry builds its own server and loads nothing by a computed path: dead code, accounted for
    assert row["status"] == "not reached, not served" and led["complete"] is True
    # with no entry known (no manifest), nothing is set aside
    del files["package.json"]
    assert sorted(t.name for t in program(files).tools) == ["old_omega", "omega"]


def test_a_parameter_or_a_destructured_name_shadows_a_top_level_one_of_the_same_name():
    code = MCP + ('var name = "my-package";\n'
                  'function add(spec) {\n  const { name, cb } = spec;\n  server.registerTool(name, {}, cb);\n}\n'
                  'function addNamed(name, cb) { server.registerTool(name, {}, cb); }\n'
                  'add(JSON.parse(process.env.SPEC));\naddNamed(process.env.TOOL, async () => ({ content: [] }));\n')
    p = program({"index.ts": code})
    assert "my-package" not in [t.name for t in p.tools]


def test_this_in_a_static_method_is_the_class():
    code = MCP + ('class Registry {\n  static tools = [{ name: "alef" }, { name: "bet" }];\n'
                  '  static registerAll(s) { for (const tool of this.tools) this.registerOne(s, tool); }\n'
                  '  static registerOne(s, tool) { s.registerTool(tool.name, {}, async () => ({ content: [] })); }\n}\n'
                  'Registry.registerAll(server);\n')
    assert _names({"index.ts": code}) == ["alef", "bet"]


def test_a_class_expression_assigned_to_a_variable_is_a_class():
    code = MCP + ('var Registry = class {\n  static tools = [{ name: "gimel" }];\n'
                  '  static registerAll(s) { for (const tool of this.tools) this.registerOne(s, tool); }\n'
                  '  static registerOne(s, tool) { s.registerTool(tool.name, {}, async () => ({ content: [] })); }\n};\n'
                  'Registry.registerAll(server);\n')
    assert _names({"index.ts": code}) == ["gimel"]


def test_a_function_assigned_to_a_member_by_a_wrapper_is_found_under_another_name():
    code = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'function wrap(s) {\n  s.registerOnce = (name, cb) => s.registerTool(name, {}, cb);\n  return s;\n}\n'
            'const server = wrap(new McpServer({ name: "s", version: "1" }));\n'
            'const prefix = "acme_";\n'
            'for (const t of [{ name: "dalet" }]) server.registerOnce(`${prefix}${t.name}`, async () => ({ content: [] }));\n')
    assert _names({"index.ts": code}) == ["acme_dalet"]


def test_a_local_name_built_from_a_template_in_a_loop():
    code = MCP + ('function install(s, prefix, groups) {\n'
                  '  for (const g of groups) for (const t of g.tools) {\n'
                  '    const full = `${prefix}${t.name}`;\n'
                  '    s.registerTool(full, {}, async () => ({ content: [] }));\n  }\n}\n'
                  'install(server, "x_", [{ tools: [{ name: "he" }, { name: "vav" }] }]);\n')
    assert _names({"index.ts": code}) == ["x_he", "x_vav"]


def test_descriptors_made_in_a_map_callback_of_the_tools_list_are_one_tool_per_element():
    from program_helpers import SDK

    code = SDK + ('const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });\n'
                  'const TOOLS = [{ meta: { name: "kaf" }, run: async () => "k" }, { meta: { name: "lamed" }, run: async () => "l" }];\n'
                  'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS.map((t) => ({\n'
                  '  name: t.meta.name, description: "d", inputSchema: { type: "object" } })) }));\n')
    assert _names({"index.ts": code}) == ["kaf", "lamed"]


def test_a_namespace_object_a_bundler_builds_with_its_export_helper_holds_the_getters_values():
    """rolldown: `var tools = __export({a: () => a})` returned; esbuild: `var tools = {}; __export(tools, {...})`;
    `Object.values(tools)` is the list of what the getters return, across the bundle's chunks."""
    chunk = ('export var __export = (all) => { let t = {}; for (var n in all) Object.defineProperty(t, n, { get: all[n], enumerable: true }); return t; };\n')
    ping = 'export const pingTool = { name: "ping", description: "Ping.", handler: async () => ({ content: [] }) };\n'
    echo = 'export const echoTool = { name: "echo", description: "Echo.", handler: async () => ({ content: [] }) };\n'
    rolled = ('import { __export } from "./chunk.js";\nimport { pingTool } from "./ping.js";\nimport { echoTool } from "./echo.js";\n'
              'var tools_exports = /* @__PURE__ */ __export({ pingTool: () => pingTool, echoTool: () => echoTool });\n'
              'export { tools_exports };\n')
    index = MCP + ('import { tools_exports } from "./tools.js";\n'
                   'Object.values(tools_exports).forEach((tool) => {\n'
                   '  server.registerTool(tool.name, { description: tool.description }, tool.handler);\n'
                   '});\n')
    files = {"index.ts": index, "tools.ts": rolled, "chunk.ts": chunk, "ping.ts": ping, "echo.ts": echo}
    assert _names(files) == ["echo", "ping"]
    esbuild = MCP + ('var __export = (target, all) => { for (var name in all) Object.defineProperty(target, name, { get: all[name] }); };\n'
                     'const pingTool = { name: "ping", handler: async () => ({ content: [] }) };\n'
                     'const echoTool = { name: "echo", handler: async () => ({ content: [] }) };\n'
                     'var tools_exports = {};\n'
                     '__export(tools_exports, { pingTool: () => pingTool, echoTool: () => echoTool });\n'
                     'for (const tool of Object.values(tools_exports)) server.registerTool(tool.name, {}, tool.handler);\n')
    assert _names({"index.ts": esbuild}) == ["echo", "ping"]


def test_a_list_mapped_from_the_entries_of_a_table_through_a_configuration_switch():
    """`Object.entries(cond ? Object.fromEntries(Object.entries(T).filter(...)) : T).map(([name, t]) => ({name, ...}))`,
    then a loop that copies the name into a local: each key of the table (spreads included) is a tool, once."""
    code = MCP + ('const reads = { db_get: { description: "Get.", handler: async () => ({ content: [] }), ro: true } };\n'
                  'const writes = { db_set: { description: "Set.", handler: async () => ({ content: [] }) } };\n'
                  'const tools = { ...reads, ...writes };\n'
                  'function start(readonly: boolean) {\n'
                  '  const chosen = readonly ? Object.fromEntries(Object.entries(tools).filter(([_, t]) => t.ro)) : tools;\n'
                  '  const list = Object.entries(chosen).map(([name, t]) => ({ name, description: t.description, tool: t }));\n'
                  '  for (const def of list) {\n'
                  '    const toolName = def.name;\n'
                  '    server.registerTool(toolName, { description: def.description }, def.tool.handler);\n'
                  '  }\n'
                  '}\n'
                  'start(process.env.RO === "1");\n')
    p = program({"index.ts": code})
    assert sorted(t.name for t in p.tools) == ["db_get", "db_set"] and not p.gaps
    assert {t.name: t.description for t in p.tools} == {"db_get": "Get.", "db_set": "Set."}


def test_a_list_mapped_from_literals_names_each_tool_by_the_callback_s_template():
    code = MCP + ('const defs = [{ id: "alpha" }, { id: "beta" }].map((d) => ({ name: `web_${d.id}`, run: async () => ({}) }));\n'
                  'defs.forEach((t) => server.registerTool(t.name, {}, t.run));\n')
    assert _names({"index.ts": code}) == ["web_alpha", "web_beta"]


def test_a_template_name_in_a_loop_over_destructured_elements_of_a_list_of_literals():
    # `for (const { id } of FEEDS)` binds `id` to each element's member; `const n = `feed_${id}`` in the loop's body
    # is one name per element, handed to a module-level wrapper of the registration.
    code = ('import { FastMCP } from "fastmcp";\n'
            'const server = new FastMCP({ name: "s", version: "1.0.0" });\n'
            'const add = (tool) => { if (process.env.ALL) server.addTool(tool); };\n'
            'add({ name: "plain", execute: async () => "p" });\n'
            'const FEEDS = [{ id: "river", inputs: ["url"] }, { id: "lake", inputs: [] }];\n'
            'for (let { id, inputs, extra = {} } of FEEDS) {\n'
            '  const tool_name = `feed_${id}`;\n'
            '  add({ name: tool_name, execute: async () => id });\n'
            '}\n')
    p = program({"index.js": code})
    assert sorted(t.name for t in p.tools) == ["feed_lake", "feed_river", "plain"]
    assert not [g for g in p.gaps if g.kind == "registration"]


def test_a_loop_s_own_constant_is_not_the_top_level_s_of_the_same_name():
    code = MCP + (
        'const label = "outer";\n'
        'server.registerTool(label, {}, async () => ({ content: [] }));\n'
        'for (const [key] of Object.entries({ north: 1, south: 2 })) {\n'
        '  const label = `wind_${key}`;\n'
        '  server.registerTool(label, {}, async () => ({ content: [] }));\n'
        '}\n')
    assert _names({"index.ts": code}) == ["outer", "wind_north", "wind_south"]


def test_a_name_that_is_one_of_two_branches_gives_the_known_one_and_a_gap_naming_the_other():
    # The name comes from a helper's result: `pour` with one source, a name made from the source's id with several.
    # The first is a tool; the second is not guessed: a gap names the registration and the expression not read.
    code = MCP + (
        'const SOURCES = process.env.SOURCES.split(",");\n'
        'function naming(sourceId, baseName) {\n'
        '  const single = SOURCES.length === 1;\n'
        '  const name = single ? baseName : `${baseName}_${sourceId.toLowerCase()}`;\n'
        '  return { single, name };\n'
        '}\n'
        'function pourMeta(sourceId) {\n'
        '  const { name, single } = naming(sourceId, "pour");\n'
        '  return { name, description: single ? "Pour" : "Pour from " + sourceId };\n'
        '}\n'
        'function registerPour(s, sourceId) {\n'
        '  const metadata = pourMeta(sourceId);\n'
        '  s.registerTool(metadata.name, { description: "d" }, async () => ({ content: [] }));\n'
        '}\n'
        'function registerFixed(s) {\n'
        '  s.registerTool(process.env.X === "1" ? "stir" : "whisk", { description: "d" }, async () => ({ content: [] }));\n'
        '}\n'
        'for (const id of SOURCES) registerPour(server, id);\n'
        'registerFixed(server);\n')
    p = program({"index.ts": code})
    assert sorted(t.name for t in p.tools) == ["pour", "stir", "whisk"]
    (gap,) = [g.detail for g in p.gaps if g.kind == "registration"]
    assert gap.startswith("registerTool() in registerPour() registers 'pour', or a name computed at run time")
    assert "sourceId.toLowerCase()" in gap and "in naming()" in gap


def test_a_closure_a_factory_returns_registers_each_tool_object_it_is_called_with():
    """Speakeasy's shape: `const tool = createRegisterTool(server)` returns `(tool) => server.tool(tool.name, ...)`,
    then `tool(tool$flagsList)` once per imported tool object."""
    tools = ('export function createRegisterTool(logger, server, sdk) {\n'
             '  return (tool) => {\n'
             '    if (tool.args) {\n'
             '      server.tool(tool.name, tool.description, tool.args, async (args, ctx) => tool.tool(sdk, args, ctx));\n'
             '    } else {\n'
             '      server.tool(tool.name, tool.description, async (ctx) => tool.tool(sdk, ctx));\n'
             '    }\n'
             '  };\n}\n')
    a = 'export const tool$flagsList = { name: "flags-list", description: "List flags.", tool: async () => ({ content: [] }) };\n'
    b = 'export const tool$flagsGet = { name: "flags-get", description: "Get a flag.", args: {}, tool: async () => ({ content: [] }) };\n'
    server = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { createRegisterTool } from "./tools.js";\n'
              'import { tool$flagsList } from "./tools/flagsList.js";\nimport { tool$flagsGet } from "./tools/flagsGet.js";\n'
              'export function createMCPServer(deps) {\n  const server = new McpServer({ name: "ld", version: "1" });\n'
              '  const tool = createRegisterTool(deps.logger, server, deps.sdk);\n  tool(tool$flagsList);\n  tool(tool$flagsGet);\n'
              '  return server;\n}\ncreateMCPServer({});\n')
    p = program({"server.js": server, "tools.js": tools, "tools/flagsList.js": a, "tools/flagsGet.js": b,
                 "package.json": '{"name": "ld", "bin": "server.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'})
    assert sorted({t.name for t in p.tools}) == ["flags-get", "flags-list"] and not p.gaps
    # `tool.tool(sdk, ...)` (the tool object's own method) is no registration
    assert not [g for g in p.gaps if "`sdk`" in g.detail]


def test_a_default_export_that_is_an_array_is_spread_into_the_list_of_tools():
    """`export default [createSessionTool, closeSessionTool]` imported as `sessionTools` and spread into TOOLS."""
    session = ('const createSessionTool = { schema: { name: "session_create", description: "Create." }, handle: async () => ({}) };\n'
               'const closeSessionTool = { schema: { name: "session_close", description: "Close." }, handle: async () => ({}) };\n'
               'export default [createSessionTool, closeSessionTool];\n')
    nav = 'const navigateTool = { schema: { name: "navigate", description: "Go." }, handle: async () => ({}) };\nexport default navigateTool;\n'
    idx = ('import navigateTool from "./navigate.js";\nimport sessionTools from "./session.js";\n'
           'export const TOOLS = [...sessionTools, navigateTool];\n')
    main = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { TOOLS } from "./tools/index.js";\n'
            'const server = new McpServer({ name: "b", version: "1" });\nconst tools = [...TOOLS];\n'
            'tools.forEach((tool) => { server.tool(tool.schema.name, tool.schema.description, {}, async (p) => tool.handle(p)); });\n')
    p = program({"index.js": main, "tools/index.js": idx, "tools/session.js": session, "tools/navigate.js": nav,
                 "package.json": '{"name": "b", "bin": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'})
    assert sorted(t.name for t in p.tools) == ["navigate", "session_close", "session_create"]
    assert {d.tool for d in p.dispatches} == {"navigate", "session_close", "session_create"}


def test_a_member_of_a_bundler_namespace_object_is_what_its_getter_returns():
    """esbuild: `var drive_exports = {}; __export(drive_exports, {toolDefinitions: () => toolDefinitions})`, the
    namespaces in a list, `domainModules.flatMap((m) => m.toolDefinitions)`: each module's tool list."""
    code = MCP + ('var __export = (target, all) => { for (var name in all) Object.defineProperty(target, name, { get: all[name] }); };\n'
                  'var drive_exports = {};\n__export(drive_exports, { toolDefinitions: () => toolDefinitions });\n'
                  'var toolDefinitions = [{ name: "drive_list", run: async () => ({ content: [] }) }];\n'
                  'var docs_exports = {};\n__export(docs_exports, { toolDefinitions: () => toolDefinitions2 });\n'
                  'var toolDefinitions2 = [{ name: "docs_get", run: async () => ({ content: [] }) }];\n'
                  'const domainModules = [drive_exports, docs_exports];\n'
                  'const all = domainModules.flatMap((m) => m.toolDefinitions);\n'
                  'for (const t of all) server.registerTool(t.name, {}, t.run);\n')
    p = program({"index.ts": code})
    assert sorted(t.name for t in p.tools) == ["docs_get", "drive_list"] and not p.gaps


def test_a_registration_guarded_by_a_list_known_empty_for_an_element_is_not_made_for_it():
    # `if (writeTools.length > 0) registerSide(server, writeTools, domain, "write")` per domain: the filter's test
    # (`t.hints.readOnly === false`) fails for every tool of the `user` domain, so `user-writer` is never registered
    code = MCP + (
        'const USER = [{ domain: "user", op: "get-user", hints: { readOnly: true } }];\n'
        'const DEPLOY = [{ domain: "deploy", op: "get-deploy", hints: { readOnly: true } },\n'
        '                { domain: "deploy", op: "make-deploy", hints: { readOnly: false } }];\n'
        'const split = (tools) => ({ readTools: tools.filter((t) => t.hints.readOnly === true),\n'
        '                            writeTools: tools.filter((t) => t.hints.readOnly === false || t.hints.readOnly === void 0) });\n'
        'const registerSide = (s, tools, domain, side) => {\n'
        '  const kind = side === "read" ? "reader" : "writer";\n'
        '  s.registerTool(`${domain}-${kind}`, { description: tools.map((t) => t.op).join(",") }, async () => ({ content: [] }));\n'
        '};\n'
        '[USER, DEPLOY].forEach((domainTools) => {\n'
        '  const domain = domainTools[0].domain;\n'
        '  const { readTools, writeTools } = split(domainTools);\n'
        '  if (readTools.length > 0) registerSide(server, readTools, domain, "read");\n'
        '  if (writeTools.length > 0) registerSide(server, writeTools, domain, "write");\n'
        '});\n')
    assert _names({"index.ts": code}) == ["deploy-reader", "deploy-writer", "user-reader"]


def test_an_item_of_a_constant_list_or_record_by_a_literal_index_is_that_item():
    """`new Server(CONFIGS[0].name, filter(CONFIGS[0].tools))`, a minified bundle's server configs: the item the
    index names (no spread before it); `TABLE["x"]` the entry; a computed index is not read."""
    code = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
            'const GEO = { NAME: "maps_geocode", run: async (a) => ({ content: [] }) };\n'
            'const CONFIGS = [{ name: "maps", tools: [{ name: GEO.NAME, description: "Geocode", action: (t) => GEO.run(t) }] }];\n'
            'const EXTRA = { more: [{ name: "maps_elevation", description: "Elevation", action: async () => ({ content: [] }) }] };\n'
            'function enabled(t) { const e = process.env.ENABLED; if (!e) return t; return t.filter((s) => e.includes(s.name)); }\n'
            'class Maps {\n'
            '  constructor(name, tools) { this.tools = tools; this.server = this.create(name); }\n'
            '  create(name) { const s = new McpServer({ name, version: "1" });\n'
            '    this.tools.forEach((o) => s.registerTool(o.name, { description: o.description }, async (r) => o.action(r)));\n'
            '    return s; }\n'
            '}\n'
            'const maps = new Maps(CONFIGS[0].name, enabled(CONFIGS[0].tools).concat(EXTRA["more"]));\n'
            'await maps.server.connect(new StdioServerTransport());\n')
    assert _names({"index.ts": code}) == ["maps_elevation", "maps_geocode"]


def test_the_values_of_a_local_map_the_function_fills_are_what_it_stores():
    """`const byName = new Map(); for (const t of tools) byName.set(t.name, t); Array.from(byName.values())`: the
    stored values, per element of the loop around the store (as a class's `this.tools.values()`)."""
    code = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
            'const ALL_TOOLS = [{ name: "scan_image", description: "Scan", run: async () => ({ content: [] }) },\n'
            '                   { name: "push_image", description: "Push", run: async () => ({ content: [] }) }];\n'
            'function register(server, tools) { for (const tool of tools) server.tool(tool.name, tool.description, async (a) => tool.run(a)); }\n'
            'export function createApp(config = {}) {\n'
            '  const tools = config.tools || ALL_TOOLS;\n'
            '  const byName = new Map();\n'
            '  for (const tool of tools) byName.set(tool.name, tool);\n'
            '  const toolList = Array.from(byName.values());\n'
            '  return { start() { const server = new McpServer({ name: "x", version: "1" }); register(server, toolList); return server; } };\n'
            '}\n'
            'await createApp().start().connect(new StdioServerTransport());\n')
    assert _names({"index.ts": code}) == ["push_image", "scan_image"]


HELPERS = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
function createState(options) { return { server: new McpServer(options), tools: new Map() }; }
function registerTool(state, tool) { state.tools.set(tool.name, tool); register(state, tool); }
function registerTools(state, tools) { for (const tool of tools) registerTool(state, tool); }
function register(state, tool) { state.server.tool(tool.name, tool.description, async (a) => tool.execute(a)); }
async function startServer(state) { await state.server.connect(new StdioServerTransport()); }
export function createManager(options) {
  const state = createState(options);
  return { state, registerTools: (tools) => registerTools(state, tools), start: () => startServer(state) };
}
'''


def test_a_method_of_the_object_a_factory_returns_is_called_through_what_the_factory_made():
    """`const m = createManager(opts); m.registerTools(TOOLS)`, createManager returning `{ registerTools: (tools) =>
    registerTools(state, tools) }`, imported statically or by `await import()`: each tool of TOOLS."""
    for head, load in (('import { createManager } from "./helpers.js";\n', ""),
                       ("", '  const { createManager } = await import("./helpers.js");\n')):
        cli = (head + 'const TOOLS = [{ name: "get_hover", description: "Hover", execute: async () => "x" }];\n'
               'async function run() {\n' + load +
               '  const server = createManager({ name: "x", version: "1" });\n'
               '  server.registerTools([...TOOLS]);\n  await server.start();\n}\nrun();\n')
        p = program({"package.json": '{"name": "x", "version": "1.0.0", "type": "module", "bin": "dist/cli.js"}',
                     "dist/cli.js": cli, "dist/helpers.js": HELPERS})
        assert [t.name for t in p.tools] == ["get_hover"] and not p.gaps


def test_a_field_set_from_a_constructor_parameter_of_a_class_constructed_at_several_places_holds_each_argument():
    """`new Maps(name, tools)` for stdio and again for HTTP: `this.tools` in a method is the list either construction
    hands in (both read), not unknown because there are two."""
    code = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
            'const TOOLS = [{ name: "maps_geocode", description: "Geocode", action: async () => ({ content: [] }) }];\n'
            'const MORE = [{ name: "maps_route", description: "Route", action: async () => ({ content: [] }) }];\n'
            'class Maps {\n'
            '  constructor(name, tools) { this.name = name, this.tools = tools, this.server = this.create(); }\n'
            '  create() { const s = new McpServer({ name: this.name, version: "1" });\n'
            '    this.tools.forEach((o) => s.registerTool(o.name, { description: o.description }, async (r) => o.action(r)));\n'
            '    return s; }\n'
            '}\n'
            'if (process.argv.includes("--http")) { new Maps("http", TOOLS.concat(MORE)); }\n'
            'else { await new Maps("stdio", TOOLS).server.connect(new StdioServerTransport()); }\n')
    assert _names({"index.ts": code}) == ["maps_geocode", "maps_route"]



def _cjs_handler(cls: str, name: str, description: str) -> str:
    """A handler class as tsc's CommonJS output writes and exports it."""
    return (f'class {cls} {{\n  getName() {{ return "{name}"; }}\n  getDescription() {{ return "{description}"; }}\n'
            '  getInputSchema() { return { type: "object", properties: {} }; }\n'
            '  async handle(a) { return { content: [] }; }\n}\n'
            f'exports.{cls} = {cls};\n')


CJS_REGISTRY = {"package.json": '{"name":"x","version":"1.0.0","bin":"dist/index.js"}',
"dist/index.js": '''"use strict";
const index_js_1 = require("@modelcontextprotocol/sdk/server/index.js");
const stdio_js_1 = require("@modelcontextprotocol/sdk/server/stdio.js");
const types_js_1 = require("@modelcontextprotocol/sdk/types.js");
const tools_js_1 = require("./tools.js");
class Srv {
  constructor() { this.handlers = new Map(); this.server = new index_js_1.Server({ name: "x", version: "1" }, { capabilities: { tools: {} } }); this.setup(); }
  setup() {
    const byCategory = { domain: [new tools_js_1.DomainsInfoHandler(), new tools_js_1.CompetitorsHandler()] };
    const handlers = [];
    for (const group of Object.values(byCategory)) handlers.push(...group);
    for (const handler of handlers) this.handlers.set(handler.getName(), handler);
    this.server.setRequestHandler(types_js_1.ListToolsRequestSchema, async () => ({ tools: Array.from(this.handlers.values()).map((h) => ({ name: h.getName(), description: h.getDescription(), inputSchema: h.getInputSchema() })) }));
    this.server.setRequestHandler(types_js_1.CallToolRequestSchema, async (request) => {
      const handler = this.handlers.get(request.params.name);
      if (!handler) throw new Error("unknown");
      return handler.handle(request.params.arguments);
    });
  }
  async start() { await this.server.connect(new stdio_js_1.StdioServerTransport()); }
}
new Srv().start();
''',
"dist/tools.js": ('"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\n'
                  'exports.CompetitorsHandler = exports.DomainsInfoHandler = void 0;\n'
                  + _cjs_handler("DomainsInfoHandler", "get_domains_info", "Domains")
                  + _cjs_handler("CompetitorsHandler", "get_competitors", "Competitors"))}


def test_a_class_a_commonjs_module_exports_is_constructed_through_its_namespace():
    """`new tools_js_1.DomainsInfoHandler()` of `exports.DomainsInfoHandler = DomainsInfoHandler` (tsc's CommonJS):
    the class, so the registry's `handler.getName()` reads its literal name."""
    p = program(CJS_REGISTRY)
    assert sorted((t.name, t.description) for t in p.tools) == [("get_competitors", "Competitors"),
                                                                ("get_domains_info", "Domains")]
    assert sorted(d.tool for d in p.dispatches if d.target is not None) == ["get_competitors", "get_domains_info"]
    assert not p.gaps and not p.unread


# Tool classes handed out by providers, gathered through promises into a record of lists keyed by group, each group's
# list installed by a helper that registers every tool of it by its getName().
SHELF_TOOLS = (
    'export class OpenTool {\n  getName() { return "open_shelf"; }\n  getGroups() { return ["core"]; }\n'
    '  exec() { return { content: [] }; }\n}\n'
    'export class CloseTool {\n  getName() { return "close_shelf"; }\n  getGroups() { return ["extra"]; }\n'
    '  exec() { return { content: [] }; }\n}\n'
    'export class ShelfProvider {\n'
    '  provideTools(deps) { return Promise.resolve([new OpenTool(deps), new CloseTool(deps)]); }\n}\n'
    'export class LampProvider {\n  provideTools(deps) { return Promise.resolve([new LampTool(deps)]); }\n}\n'
    'class LampTool {\n  getName() { return "light_lamp"; }\n  getGroups() { return ["core", "extra"]; }\n'
    '  exec() { return { content: [] }; }\n}\n')
SHELF_SERVER = MCP + (
    'import { ShelfProvider, LampProvider } from "./tools.js";\n'
    'const PROVIDERS = [new ShelfProvider(), new LampProvider()];\n'
    'const GROUPS = ["core", "extra"];\n'
    'async function collect(providers, deps) {\n'
    '  const registry = Object.fromEntries(GROUPS.map((g) => [g, []]));\n'
    '  const pending = [];\n'
    '  for (const provider of providers) {\n'
    '    const tools = provider.provideTools(deps);\n'
    '    pending.push(tools);\n'
    '  }\n'
    '  for (const tool of (await Promise.all(pending)).flat()) {\n'
    '    for (const group of tool.getGroups()) registry[group].push(tool);\n'
    '  }\n'
    '  return registry;\n'
    '}\n'
    'function install(tools) {\n'
    '  for (const tool of tools) server.registerTool(tool.getName(), {}, (...a) => tool.exec(...a));\n'
    '}\n'
    'const deps = { env: process.env };\n'
    'const registry = await collect(PROVIDERS, deps);\n'
    'for (const group of GROUPS) install(registry[group]);\n')


def test_tools_of_providers_gathered_through_promises_into_a_record_of_lists_by_group():
    """Each provider's `provideTools` (a method of the loop's element, its list handed back by Promise.resolve), the
    promises pushed through a local of the loop's body, Promise.all of them flattened, each tool pushed onto the
    record's list of each of its groups (a push of the outer loop's element, whatever inner loop is around it), and
    every list of the record read by a key not known: all three tools, none twice."""
    assert _names({"index.ts": SHELF_SERVER, "tools.js": SHELF_TOOLS}) == ["close_shelf", "light_lamp", "open_shelf"]


def test_a_record_of_lists_written_out_is_read_per_key_and_by_a_key_not_known():
    code = MCP + (
        'const byKind = { read: [{ name: "peek" }], write: [] };\n'
        'byKind.write.push({ name: "poke" });\n'
        'for (const t of byKind.read) server.registerTool(t.name, {}, async () => ({ content: [] }));\n'
        'for (const kind of Object.keys(process.env.KINDS ?? {})) {\n'
        '  for (const t of byKind[kind]) server.registerTool(t.name, {}, async () => ({ content: [] }));\n'
        '}\n')
    assert _names({"index.ts": code}) == ["peek", "poke"]


def test_a_default_of_a_loop_element_s_member_is_not_its_value():
    """`const name = String(raw.name ?? "").trim()` for each `raw` of a list handed in: the name is each element's,
    the list's to say; the default `""` is what a missing one gets, not the name (no tool named "")."""
    from auditor.extract import server
    from auditor.extract.syntax import find
    from program_helpers import program

    src = ('export function normalize(tools) {\n  const out = [];\n  for (const raw of tools) {\n'
           '    const name = String(raw.name ?? "").trim();\n    if (!name) throw new Error("name required");\n'
           '    out.push({ name, description: "x", inputSchema: raw.inputSchema ?? {} });\n  }\n  return out;\n}\n'
           'const FIXED = { name: process.env.TOOL_NAME ?? "fixed", inputSchema: {} };\n')
    p = program({"index.js": src})
    m = p.modules[0]
    objects = {o.start_point[0]: o for o in find(m.tree.root_node, {"object"}) if "inputSchema" in o.text.decode()}
    assert {line: server.name_of(m, o, p.linker) for line, o in objects.items()} == {5: None, 9: "fixed"}


def test_a_list_a_module_exports_empty_holds_what_its_importers_push_onto_it():
    """`export const toolRegistry = []` filled by `toolRegistry.push(a, b)` in a module imported for its side effect
    (and under another name through a barrel), then handed to `registerTools({ server, tools: toolRegistry })`, which
    loops `server.registerTool(tool.name, ...)`: each tool pushed is registered."""
    reg = ('export const toolRegistry = [];\n'
           'export function registerTools({ server, tools }) {\n  for (const tool of tools) {\n'
           '    server.registerTool(tool.name, { description: tool.description }, async (args) => tool.execute(args));\n'
           '  }\n}\n')
    tools = ('import { toolRegistry } from "./reg.js";\n'
             'const pingTool = { name: "ping", description: "Ping", execute: async () => "pong" };\n'
             'const echoTool = { name: "echo", description: "Echo", execute: async (a) => a.t };\n'
             'toolRegistry.push(pingTool, echoTool);\n')
    more = 'import { all as list } from "./barrel.js";\nlist.push({ name: "stats", description: "Stats", execute: async () => 0 });\n'
    main = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'import { registerTools, toolRegistry } from "./reg.js";\nimport "./tools.js";\nimport "./more.js";\n'
            'const server = new McpServer({ name: "s", version: "1" });\n'
            'registerTools({ server, tools: toolRegistry });\n')
    files = {"reg.js": reg, "tools.js": tools, "more.js": more, "barrel.js": 'export { toolRegistry as all } from "./reg.js";\n',
             "index.js": main, "package.json": '{"name": "s", "version": "1.0.0", "main": "index.js"}'}
    assert _names(files) == ["echo", "ping", "stats"]
