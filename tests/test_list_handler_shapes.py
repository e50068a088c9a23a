"""Shapes of a tools/list handler that are read whole: a member of a record of handlers, a list built from what a
wrapper of a registration method collects, a Map member filled in a loop by the class's own methods, and the
high-level server class's own handler (the SDK's machinery, in a bundle that inlines it), which lists the tools
registered on it."""

from __future__ import annotations

from auditor.analyse import coverage
from auditor.extract import routes
from program_helpers import SDK, program

MANIFEST = '{"name": "shapes", "version": "1.0.0", "bin": {"shapes": "index.ts"}}'


def _desc(name: str) -> str:
    return f'{{ name: "{name}", description: "{name} it", inputSchema: {{ type: "object", properties: {{}} }} }}'


def _unresolved(led: dict) -> list[str]:
    return [u["what"] for u in led["unresolved"] if "tools/list" in u["what"]]


# expect: the tools/list handler is `handlers["tools/list"]`, a member of a record of the function that builds the
# server: its result lists `definitions` (sift, sort); `spare` is not advertised.
RECORD = SDK + '''const spare = %s;
function createServer() {
  const server = new Server({ name: "r", version: "1.0.0" }, { capabilities: { tools: {} } });
  const definitions = [%s, %s];
  const handlers = {
    "tools/list": async () => ({ tools: definitions }),
    "tools/call": async (params: any) => ({ content: [] }),
  };
  server.setRequestHandler(ListToolsRequestSchema, handlers["tools/list"]);
  return server;
}
createServer();
''' % (_desc("spare"), _desc("sift"), _desc("sort"))


def test_a_handler_that_is_a_member_of_a_record_is_read_through_it():
    p = program({"index.ts": RECORD, "package.json": MANIFEST})
    led = coverage.ledger(p)
    assert _unresolved(led) == []
    assert sorted(t.name for t in p.tools) == ["sift", "sort"]
    assert [t.name for t in p.unadvertised] == ["spare"]


# expect: the tools/list handler is replaced after start-up by one returning a payload built, in a block of the
# module's top level, from `registered`: the list a wrapper of the high-level server's registration method (kb/sdk.yaml
# high_level registrations) pushes each registered tool onto. The list is the registered tools: read whole.
FASTMCP_CACHE = '''import { FastMCP } from "fastmcp";
import { z } from "zod";
import { collect, buildPayload, install } from "./cache.js";
const server = new FastMCP({ name: "c", version: "1.0.0" });
const registered: any[] = [];
collect(server, registered);
server.addTool({ name: "pin", description: "Pin it.", parameters: z.object({ at: z.string() }),
                 execute: async () => "ok" });
if (process.env.CACHE) {
  const payload = await buildPayload(registered);
  await server.start({ transportType: "stdio" });
  install(server, payload);
}
'''
CACHE = '''import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
export function collect(server: any, out: any[]) {
  const add = server.addTool.bind(server);
  server.addTool = (tool: any) => {
    out.push(tool);
    add(tool);
  };
}
export async function buildPayload(tools: any[]) {
  return {
    tools: await Promise.all(tools.map(async (tool) => ({ name: tool.name, description: tool.description,
                                                          inputSchema: { type: "object" } }))),
  };
}
export function install(server: any, payload: any) {
  server.sessions[0].server.setRequestHandler(ListToolsRequestSchema, async () => payload);
}
'''


def _listed(p) -> list[list[str]]:
    return [r.attrs["tools"] for r in routes.routes(p) if r.kind == "list"]


def test_a_cached_list_of_what_a_registration_wrapper_collects_is_the_registered_tools():
    p = program({"index.ts": FASTMCP_CACHE, "cache.ts": CACHE, "package.json": MANIFEST})
    led = coverage.ledger(p)
    assert [t["name"] for t in led["tools"]] == ["pin"]
    assert _unresolved(led) == []
    assert _listed(p) == [["pin"]]  # the route of the handler lists the registered tools


def test_a_list_pushed_onto_by_an_unknown_function_stays_unread():
    # the same wrapper, but what it pushes is not what the registration method is handed: not known
    cache = CACHE.replace("out.push(tool);", "out.push(mystery(tool));")
    led = coverage.ledger(program({"index.ts": FASTMCP_CACHE, "cache.ts": cache, "package.json": MANIFEST}))
    assert _unresolved(led) != []


# expect: `this.tools` is a Map the constructor fills, through a method, with one entry per descriptor of the
# imported arrays (`this.tools.set(tool.name, {...})` in a loop); the handler lists `this.tools.entries()`.
MAP_SERVER = SDK + '''import groupA from "./a.js";
import { groupB } from "./b.js";
class Runtime {
  tools: Map<string, any>;
  list: any[];
  server: Server;
  constructor({ tools }: { tools: any[] }) {
    this.list = tools;
    this.tools = new Map();
    this.fill();
    this.server = new Server({ name: "m", version: "1.0.0" }, { capabilities: { tools: {} } });
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: Array.from(this.tools.entries()).map(([id, tool]) => ({ id, ...tool })),
    }));
  }
  fill() {
    for (const tool of this.list) {
      this.tools.set(tool.name, { name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
    }
  }
}
new Runtime({ tools: [...groupA, ...groupB] });
'''


def test_a_map_member_filled_in_a_loop_by_the_class_is_read_whole():
    files = {"index.ts": MAP_SERVER, "a.ts": f"export default [{_desc('a_one')}, {_desc('a_two')}];\n",
             "b.ts": f"export const groupB = [{_desc('b_one')}];\nexport const unused = {_desc('b_old')};\n",
             "package.json": MANIFEST}
    p = program(files)
    led = coverage.ledger(p)
    assert _unresolved(led) == []
    assert sorted(t.name for t in p.tools) == ["a_one", "a_two", "b_one"]
    assert [t.name for t in p.unadvertised] == ["b_old"]
    assert not [u for u in led["unresolved"] if "not read" in u["what"]]


# expect: a bundle that inlines the high-level server class (it defines the registration methods of kb/sdk.yaml
# high_level and keeps what they register in a member of its own): its own tools/list handler lists that member,
# the registered tools, which are read through the registrations.
BUNDLED_SDK = '''import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
var Hub = class {
  constructor(info) {
    this.server = new Server(info, { capabilities: { tools: {} } });
    this._kept = {};
  }
  ensure() {
    this.server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: Object.entries(this._kept).map(([name, tool]) => {
        const def = { name, description: tool.description, inputSchema: tool.inputSchema };
        return def;
      })
    }));
  }
  make(name, description, schema, cb) {
    const entry = { description, inputSchema: schema, callback: cb, enabled: true };
    this._kept[name] = entry;
    this.ensure();
    return entry;
  }
  registerTool(name, config, cb) {
    return this.make(name, config.description, config.inputSchema, cb);
  }
  async connect(t) { return this.server.connect(t); }
};
const hub = new Hub({ name: "b", version: "1.0.0" });
hub.registerTool("weigh", { description: "Weigh it." }, async () => ({ content: [] }));
await hub.connect(new StdioServerTransport());
'''


def test_the_high_level_server_classes_own_handler_lists_its_registered_tools():
    p = program({"index.ts": BUNDLED_SDK, "package.json": MANIFEST})
    led = coverage.ledger(p)
    assert [t["name"] for t in led["tools"]] == ["weigh"]
    assert _unresolved(led) == []
    assert _listed(p) == [["weigh"]]


def test_a_class_without_registration_methods_keeps_its_member_unread():
    # the same class with no method of the high-level API: what `_kept` holds is not known
    led = coverage.ledger(program({"index.ts": BUNDLED_SDK.replace("registerTool(name, config, cb)", "put(name, config, cb)")
                                   .replace("hub.registerTool(", "hub.put("), "package.json": MANIFEST}))
    assert _unresolved(led) != []


def test_a_handler_in_a_module_no_entry_reaches_is_not_the_servers():
    # a copy of the runtime that nothing imports (the source shipped beside what the entry runs): its handler, whose
    # class nothing constructs, is not the server's, and says nothing of its list
    files = {"index.ts": MAP_SERVER, "a.ts": f"export default [{_desc('a_one')}, {_desc('a_two')}];\n",
             "b.ts": f"export const groupB = [{_desc('b_one')}];\n", "package.json": MANIFEST,
             "copy/runtime.ts": MAP_SERVER.replace("new Runtime(", "export const make = () => new Runtime(")
             .replace("./a.js", "../a.js").replace("./b.js", "../b.js").replace("this.list = tools;", "")}
    p = program(files)
    assert sorted(t.name for t in p.tools) == ["a_one", "a_two", "b_one"]
    assert _unresolved(coverage.ledger(p)) == []


# expect: the server's own registry class stores each definition by name through its method registerTool(def), called
# on the instance handed to a helper of another module; tools/list iterates the Map as [name, definition] pairs.
REGISTRY_SERVER = SDK + '''export class Registry {
  tools = new Map();
  server: any;
  constructor() {
    this.server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });
    this.server.setRequestHandler(ListToolsRequestSchema, async () => {
      const tools = [];
      for (const [name, definition] of this.tools) {
        tools.push({ name: definition.name, description: definition.description, inputSchema: {} });
      }
      return { tools };
    });
    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = this.tools.get(request.params.name);
      if (!tool) throw new Error("unknown tool");
      return tool.handler(request.params.arguments);
    });
  }
  registerTool(definition) { this.tools.set(definition.name, definition); }
}
'''
REGISTRY_TOOLS = '''export const search = { name: "search", description: "Search", inputSchema: {}, handler: async () => ({ content: [] }) };
export function registerSearch(server) { server.registerTool(search); }
'''
REGISTRY_MAIN = '''import { Registry } from "./server.js";
import { registerSearch } from "./tools.js";
const server = new Registry();
registerSearch(server);
'''


def test_a_map_of_the_servers_own_registry_filled_by_its_method_and_iterated_as_pairs():
    led = coverage.ledger(program({"server.ts": REGISTRY_SERVER, "tools.ts": REGISTRY_TOOLS, "index.ts": REGISTRY_MAIN,
                                   "package.json": MANIFEST}))
    assert [t["name"] for t in led["tools"]] == ["search"] and _unresolved(led) == []


def test_the_registry_filled_from_commonjs_exports_of_the_module():
    """`server.registerTool(exports.search)` of compiled CommonJS: the value the module assigned to `exports.search`."""
    tools = ('"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\n'
             'exports.registerSearch = registerSearch;\n'
             'exports.search = { name: "search", description: "Search", inputSchema: {}, handler: async () => ({ content: [] }) };\n'
             'function registerSearch(server) { server.registerTool(exports.search); }\n')
    led = coverage.ledger(program({"server.ts": REGISTRY_SERVER, "tools.js": tools, "index.ts": REGISTRY_MAIN,
                                   "package.json": MANIFEST}))
    assert [t["name"] for t in led["tools"]] == ["search"] and _unresolved(led) == []


def test_records_of_tools_keyed_by_name_listed_in_a_for_of_loop_and_dispatched_by_lookup():
    """`for (const [name, tool] of Object.entries(all)) tools.push({ name, ... })`: a descriptor the loop's body
    writes is one tool per entry, named by its key, through the spreads of records other modules export (and
    re-export); the call handler's `all[name]` then `tool.handler(args)` dispatches each to its entry's member."""
    alpha = ('import { z } from "zod";\nexport const alphaTools = {\n'
             '  list_alpha: { description: "a", inputSchema: z.object({}), handler: async (c, a) => 1 },\n'
             '  get_alpha: { description: "b", inputSchema: z.object({ id: z.string() }), handler: async (c, a) => a.id },\n};\n')
    beta = 'export const betaTools = {\n  make_beta: { description: "c", handler: async (c, a) => 2 },\n};\n'
    index = (SDK + 'import { alphaTools, betaTools } from "./tools/index.js";\n'
             'const allTools = { ...alphaTools, ...betaTools };\nconst every = allTools;\n'
             'const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });\n'
             'server.setRequestHandler(ListToolsRequestSchema, async () => {\n  const tools = [];\n'
             '  for (const [name, tool] of Object.entries(allTools)) {\n'
             '    tools.push({ name, description: tool.description, inputSchema: {} });\n  }\n  return { tools };\n});\n'
             'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
             '  const { name, arguments: args } = request.params;\n'
             '  const tool = every[name];\n  if (!tool) throw new Error("unknown");\n  return tool.handler(null, args);\n});\n')
    p = program({"package.json": MANIFEST.replace("index.ts", "index.js"), "index.ts": index, "tools/alpha.ts": alpha,
                 "tools/beta.ts": beta,
                 "tools/index.ts": 'export { alphaTools } from "./alpha.js";\nexport { betaTools } from "./beta.js";\n'})
    led = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in led["tools"]] == [
        ("get_alpha", "analysed"), ("list_alpha", "analysed"), ("make_beta", "analysed")]
    assert {d.tool: d.target_name for d in p.dispatches} == {
        "list_alpha": "list_alpha.handler", "get_alpha": "get_alpha.handler", "make_beta": "make_beta.handler"}
    assert _unresolved(led) == []


def test_a_result_the_handler_resolves_a_promise_with_is_read():
    """`() => Promise.resolve({ tools: list() })`: the object the promise resolves with is the result."""
    code = SDK + '''function withCategory(meta: any, category: string) { return { ...meta, category }; }
function list() { return [withCategory(%s, "core"), withCategory(%s, "extra")]; }
const server = new Server({ name: "p", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => { return Promise.resolve({ tools: list() }); });
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === "get_meps") return { content: [] };
  if (request.params.name === "get_votes") return { content: [] };
  throw new Error("unknown tool");
});
''' % (_desc("get_meps"), _desc("get_votes"))
    led = coverage.ledger(program({"index.ts": code, "package.json": MANIFEST}))
    assert sorted(t["name"] for t in led["tools"]) == ["get_meps", "get_votes"]
    assert _unresolved(led) == [] and led["complete"]


# expect: the handler's body is a comma expression, as a minifier writes it (`(log("list"), { tools: defs })`): its
# value, the last operand, is read; `spare` is not advertised.
SEQUENCE = SDK + '''const log = (...a: any[]) => console.error(...a);
const spare = %s;
const defs = [%s, %s];
const server = new Server({ name: "q", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => (log("list", defs), { tools: defs }));
''' % (_desc("spare"), _desc("seek"), _desc("scan"))


def test_a_handler_whose_body_is_a_comma_expression_returns_its_last_operand():
    p = program({"index.ts": SEQUENCE, "package.json": MANIFEST})
    assert _unresolved(coverage.ledger(p)) == []
    assert sorted(t.name for t in p.tools) == ["scan", "seek"]
    assert [t.name for t in p.unadvertised] == ["spare"]


def test_a_list_declared_bare_and_assigned_in_a_switch_holds_each_value_assigned_and_pushed():
    # `let exposed; switch (tier) { case "a": exposed = readers(all); ... }` at the top of the module, then
    # `exposed.push(extra)`, the list of instances of tool classes listed by a map over it: each class's tool, all read
    tools = ('export class ReadTool {\n  constructor() {\n    this.name = "read_data";\n    this.description = "Read";\n'
             '    this.inputSchema = { type: "object", properties: {} };\n  }\n  async run() { return { content: [] }; }\n}\n'
             'export class ListTool {\n  constructor() {\n    this.name = "list_tables";\n    this.description = "List";\n'
             '    this.inputSchema = { type: "object", properties: {} };\n  }\n  async run() { return { content: [] }; }\n}\n'
             'export class PingTool {\n  constructor() {\n    this.name = "ping";\n    this.description = "Ping";\n'
             '    this.inputSchema = { type: "object", properties: {} };\n  }\n  async run() { return { content: [] }; }\n}\n')
    server = SDK + ('import { ReadTool, ListTool, PingTool } from "./tools.js";\n'
                    'const all = { read: new ReadTool(), list: new ListTool() };\n'
                    'let exposed;\n'
                    'switch (process.env.TIER) {\n'
                    '  case "reader":\n'
                    '    exposed = [all.read];\n'
                    '    break;\n'
                    '  default:\n'
                    '    exposed = [all.read, all.list];\n'
                    '}\n'
                    'if (process.env.PING) exposed.push(new PingTool());\n'
                    'const byName = new Map();\n'
                    'for (const tool of exposed) byName.set(tool.name, tool);\n'
                    'const server = new Server({ name: "x", version: "1" }, { capabilities: { tools: {} } });\n'
                    'server.setRequestHandler(ListToolsRequestSchema, async () => ({\n'
                    '  tools: exposed.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) }));\n'
                    'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
                    '  const tool = byName.get(request.params.name);\n'
                    '  if (!tool) throw new Error("unknown");\n'
                    '  return tool.run(request.params.arguments);\n'
                    '});\n')
    p = program({"package.json": '{"name": "x", "bin": {"x": "server.js"}, "dependencies": {"@modelcontextprotocol/sdk": "1"}}',
                 "tools.js": tools, "server.js": server})
    ledger = coverage.ledger(p)
    assert {t["name"]: t["implementation"] for t in ledger["tools"]} == {
        "list_tables": "ListTool.run", "ping": "PingTool.run", "read_data": "ReadTool.run"}
    assert ledger["unresolved"] == []
