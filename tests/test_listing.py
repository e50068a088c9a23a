"""A descriptor-shaped object literal of a low-level server is a tool only when it reaches the tools/list handler's
result: through constants and imports, a filter, a class field set from a constructor parameter, a function that
returns the list, push, concat, Object.values. Those that do not are listed in the ledger as not advertised; when the
result cannot be read, every descriptor stays a tool and the ledger says why."""

from __future__ import annotations

import pytest

from auditor.analyse import coverage, mismatches
from auditor.extract import routes as routes_mod
from program_helpers import SDK, line_of, program

MANIFEST = '{"name": "shelf", "version": "1.0.0", "bin": {"shelf": "index.ts"}}'


def _desc(name: str) -> str:
    return f'{{ name: "{name}", description: "{name} it", inputSchema: {{ type: "object", properties: {{}} }} }}'


# The list reaches the handler through an array of imports, a constructor parameter copied into a field, a filter
# and a map whose callback rebuilds each descriptor from the element.
CLASS_SERVER = SDK + '''import { shelveTool, fetchTool, countTool } from "./tools.js";

class ShelfServer {
  server: Server;
  available: any[];
  enabled: any[] = [];
  constructor(initial: any[] = []) {
    this.available = [...initial];
    this.server = new Server({ name: "shelf", version: "1.0.0" }, { capabilities: { tools: {} } });
    this.load();
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: this.enabled.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    }));
  }
  load() {
    let keep = [...this.available];
    if (process.env.ONLY) keep = this.available.filter((t) => t.name === process.env.ONLY);
    this.enabled = keep;
  }
}

const allTools = [shelveTool, fetchTool, countTool];
new ShelfServer(allTools);
'''


def _names(p) -> list[str]:
    return sorted(t.name for t in p.tools)


def test_descriptors_not_in_the_list_are_not_tools():
    # Tool objects in their own module; an older set of single tools stays there, exported but never listed.
    tools = f'''
export const shelveTool = {{ name: "shelve", description: "shelve it", inputSchema: {{ type: "object" }}, execute: async () => 1 }};
export const fetchTool = {_desc("fetch_item")};
export const countTool = {_desc("count")};
export const legacyShelve = {_desc("legacy_shelve")};
export const legacyFetch = {_desc("legacy_fetch")};
'''
    p = program({"index.ts": CLASS_SERVER, "tools.ts": tools, "package.json": MANIFEST})
    assert _names(p) == ["count", "fetch_item", "shelve"]
    assert sorted(t.name for t in p.unadvertised) == ["legacy_fetch", "legacy_shelve"]
    ledger = coverage.ledger(p)
    assert [t["name"] for t in ledger["tools"]] == ["count", "fetch_item", "shelve"]
    assert [(u["name"], u["file"], u["line"], u["reason"]) for u in ledger["unadvertised"]] == [
        ("legacy_shelve", "tools.ts", line_of(tools, "legacyShelve"), "descriptor-shaped object not advertised by tools/list"),
        ("legacy_fetch", "tools.ts", line_of(tools, "legacyFetch"), "descriptor-shaped object not advertised by tools/list")]
    assert not ledger["unresolved"]
    (route,) = [r for r in routes_mod.routes(p) if r.kind == "list"]
    assert sorted(route.attrs["tools"]) == ["count", "fetch_item", "shelve"]


FUNCTION_SERVER = SDK + '''import * as defs from "./defs.js";
import { extraTools } from "./extra.js";

const byName = { alpha: %s, beta: %s };
const hidden = %s;

function buildTools(flags: { gamma: boolean }) {
  const out = Object.values(byName);
  if (flags.gamma) out.push(defs.gamma);
  return out.concat(extraTools);
}

export function start(server: Server, tools: any[]) {
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const response = { tools: process.env.READONLY ? tools.slice(0, 1) : tools };
    return response;
  });
}

const server = new Server({ name: "fn", version: "1.0.0" }, { capabilities: { tools: {} } });
start(server, buildTools({ gamma: true }));
''' % (_desc("alpha"), _desc("beta"), _desc("hidden_one"))

DEFS = f'export const gamma = {_desc("gamma")};\nexport const unused = {_desc("unused_def")};\n'
EXTRA = f'export const extraTools = [{_desc("delta")}];\nexport const draft = {_desc("draft")};\n'


def test_list_through_a_function_parameter_object_values_push_and_concat():
    p = program({"index.ts": FUNCTION_SERVER, "defs.ts": DEFS, "extra.ts": EXTRA, "package.json": MANIFEST})
    assert _names(p) == ["alpha", "beta", "delta", "gamma"]
    assert sorted(t.name for t in p.unadvertised) == ["draft", "hidden_one", "unused_def"]
    (listing,) = p.listings
    assert not listing.unread


UNREAD_SERVER = SDK + '''import { loadPlugins } from "plugin-loader";
const first = %s;
const second = %s;
const server = new Server({ name: "u", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [first, ...mystery()] }));
''' % (_desc("first"), _desc("second"))


def test_a_result_that_cannot_be_read_keeps_every_descriptor_and_the_ledger_says_so():
    p = program({"index.ts": UNREAD_SERVER, "package.json": MANIFEST})
    assert _names(p) == ["first", "second"]
    assert not p.unadvertised
    ledger = coverage.ledger(p)
    (u,) = [u for u in ledger["unresolved"] if "tools/list" in u["what"]]
    assert "`mystery()`" in u["what"] and "every descriptor-shaped object of the code is taken as a tool" in u["what"]
    assert u["anchor"]["start_line"] == line_of(UNREAD_SERVER, "setRequestHandler(ListToolsRequestSchema")
    assert not ledger["unadvertised"]


def test_an_import_whose_export_is_not_read_keeps_only_that_modules_descriptors():
    # `broken.ts` does not parse inside its list, and `lost.ts` does not export the name imported from it (as when its
    # export is in a region that does not parse): what they give could be any of their descriptors, and no other's.
    broken = f'export const kept = {_desc("maybe_listed")};\nexport const later = [kept, (];\n'
    lost = f'const inner = {_desc("maybe_too")};\n'
    server = SDK + '''import { later } from "./broken.js";
import { gone } from "./lost.js";
import { other } from "./other.js";
const server = new Server({ name: "b", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...later, gone, other] }));
'''
    other = f'export const other = {_desc("other")};\nexport const stray = {_desc("stray")};\n'
    p = program({"index.ts": server, "broken.ts": broken, "lost.ts": lost, "other.ts": other, "package.json": MANIFEST})
    assert _names(p) == ["maybe_listed", "maybe_too", "other"]
    assert [t.name for t in p.unadvertised] == ["stray"]
    (u,) = [u for u in coverage.ledger(p)["unresolved"] if "tools/list" in u["what"]]
    assert "the descriptor-shaped objects of broken.ts, lost.ts are taken as tools" in u["what"]
    assert "`gone` (index.ts:" in u["what"]


def test_descriptors_written_inline_in_the_handler_are_the_list():
    server = SDK + '''const server = new Server({ name: "i", version: "1.0.0" }, { capabilities: { tools: {} } });
const example = %s;
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [%s] }));
''' % (_desc("example_only"), _desc("real"))
    p = program({"index.ts": server, "package.json": MANIFEST})
    assert _names(p) == ["real"]
    assert [t.name for t in p.unadvertised] == ["example_only"]


def test_a_map_that_returns_a_member_of_each_element_lists_that_member():
    server = SDK + '''const entries = [
  { spec: %s, run: async () => ({ content: [] }) },
  { spec: %s, run: async () => ({ content: [] }) },
];
const draft = %s;
const server = new Server({ name: "m", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: entries.map(({ spec }) => spec) }));
''' % (_desc("one"), _desc("two"), _desc("draft"))
    p = program({"index.ts": server, "package.json": MANIFEST})
    assert _names(p) == ["one", "two"]
    assert [t.name for t in p.unadvertised] == ["draft"]


def test_a_result_filled_in_after_it_is_made_is_not_read_and_keeps_every_descriptor():
    server = SDK + '''const a = %s;
const b = %s;
const server = new Server({ name: "f", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => {
  const result: any = {};
  result.tools = [a];
  return result;
});
''' % (_desc("a"), _desc("b"))
    p = program({"index.ts": server, "package.json": MANIFEST})
    assert _names(p) == ["a", "b"] and not p.unadvertised


WRAPPED = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const server = new McpServer({ name: "wrapped", version: "1" });
server.registerTool("stamp", { description: "Stamp it." }, async () => ({ content: [] }));
// Re-emit the SDK's own tools/list result with a marker on each tool.
const table = server.server._requestHandlers;
const original = table.get("tools/list");
server.server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
  const result = await original(request, extra);
  for (const tool of result.tools) tool.annotations = { ...tool.annotations, title: tool.name };
  return EXTRA;
});
await server.connect(new StdioServerTransport());
'''


def test_a_tools_list_handler_that_returns_the_sdk_handlers_result_lists_the_registered_tools():
    led = coverage.ledger(program({"index.ts": WRAPPED.replace("return EXTRA;", "return result;"),
                                   "package.json": MANIFEST}))
    assert [t["name"] for t in led["tools"]] == ["stamp"]
    assert led["unresolved"] == [] and led["complete"] is True
    # and a descriptor the wrapper adds to it is listed too
    extra = WRAPPED.replace("return EXTRA;", "return { tools: [...result.tools, " + _desc("ping") + "] };")
    led = coverage.ledger(program({"index.ts": extra, "package.json": MANIFEST}))
    assert {t["name"] for t in led["tools"]} == {"stamp", "ping"} and led["unresolved"] == []


def test_a_tools_list_handler_that_calls_another_unknown_function_is_still_unread():
    led = coverage.ledger(program({"index.ts": WRAPPED.replace('table.get("tools/list")', 'table.lookup("tools/list")')
                                   .replace("return EXTRA;", "return result;"), "package.json": MANIFEST}))
    assert led["unresolved"] and led["complete"] is False


# Each tool is a module (`export const metadata = {name, ...}`, an input schema and a handler), imported as a
# namespace and collected in a list; tools/list rebuilds a descriptor from each, tools/call finds one by its name.
NAMESPACE_SERVER = SDK + '''import * as pour from "./tools/pour.js";
import * as stir from "./tools/stir.js";
const tools = [pour, stir];
const server = new Server({ name: "kettle", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: tools.map((tool) => ({ name: tool.metadata.name, description: tool.metadata.description,
                                inputSchema: { type: "object", properties: tool.inputSchema } })),
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = tools.find((t) => t.metadata.name === request.params.name);
  if (!tool) throw new Error("unknown tool");
  return tool.handler(request.params.arguments);
});
'''


def _tool_module(name: str) -> str:
    return (f'export const inputSchema = {{}};\nexport const metadata = {{ name: {name}, description: "it" }};\n'
            'export async function handler(args: any) { return { content: [] }; }\n')


def test_namespaces_in_a_list_are_objects_of_their_modules_exports():
    files = {"index.ts": NAMESPACE_SERVER, "package.json": MANIFEST,
             "tools/pour.ts": _tool_module('"pour_tea"'), "tools/stir.ts": _tool_module('"stir_tea"')}
    p = program(files)
    assert _names(p) == ["pour_tea", "stir_tea"]
    led = coverage.ledger(p)
    assert led["unresolved"] == [] and led["complete"] is True
    # tools/call finds each module by its name and calls its handler
    assert sorted((d.tool, d.target.start_point[0] + 1, p.linker.module_of(d.target).path) for d in p.dispatches) \
        == [("pour_tea", 3, "tools/pour.ts"), ("stir_tea", 3, "tools/stir.ts")]


def test_a_namespace_whose_name_is_not_read_leaves_its_module_unread():
    files = {"index.ts": NAMESPACE_SERVER, "package.json": MANIFEST,
             "tools/pour.ts": _tool_module('"pour_tea"'), "tools/stir.ts": _tool_module("process.env.STIR")}
    led = coverage.ledger(program(files))
    assert [t["name"] for t in led["tools"]] == ["pour_tea"]
    (u,) = [u for u in led["unresolved"] if "tools/list" in u["what"]]
    assert "`stir` (index.ts:" in u["what"] and "the descriptor-shaped objects of tools/stir.ts" in u["what"]
    assert led["complete"] is False


def test_instances_in_a_list_rebuilt_by_a_map_callback_are_read_through_it():
    server = SDK + '''class Pour { name = "pour"; run() { return 1; } }
class Stir { name = "stir"; run() { return 2; } }
const tools = [new Pour(), new Stir()];
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: tools.map((t) => ({ name: t.name, description: "d", inputSchema: { type: "object" } })),
}));
'''
    led = coverage.ledger(program({"index.ts": server, "package.json": MANIFEST}))
    assert [t["name"] for t in led["tools"]] == ["pour", "stir"]
    assert led["unresolved"] == []  # each instance is the site of a descriptor made in the callback: read whole


def test_instances_of_classes_of_another_module_named_through_its_namespace_are_read_too():
    """tsc's CommonJS output names an imported class through the module object (`new tools_1.Pour()`): the instance
    is of that class as much as `new Pour()` is (expect: pour and stir, and nothing unresolved)."""
    tools = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
class Pour { getName() { return "pour"; } }
exports.Pour = Pour;
class Stir { getName() { return "stir"; } }
exports.Stir = Stir;
'''
    server = '''"use strict";
const index_js_1 = require("@modelcontextprotocol/sdk/server/index.js");
const types_js_1 = require("@modelcontextprotocol/sdk/types.js");
const tools_1 = require("./tools.js");
const handlers = new Map();
for (const h of [new tools_1.Pour(), new tools_1.Stir()]) handlers.set(h.getName(), h);
const server = new index_js_1.Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(types_js_1.ListToolsRequestSchema, async () => {
  const tools = Array.from(handlers.values()).map((h) => ({ name: h.getName(), description: "d", inputSchema: {} }));
  return { tools };
});
'''
    manifest = MANIFEST.replace("index.ts", "index.js")
    led = coverage.ledger(program({"index.js": server, "tools.js": tools, "package.json": manifest}))
    assert [t["name"] for t in led["tools"]] == ["pour", "stir"]
    assert led["unresolved"] == []


# The list is picked from a larger one: `find` of one element, and a loop over the list that pushes some elements.
PICKED = SDK + '''
const allTools = [%s, %s, %s];
const hidden = %s;
function createServer() {
  const enabled = allTools.filter((t) => !process.env.DENY?.includes(t.name));
  const listed = [...enabled];
  const meta = allTools.find((t) => t.name === "help");
  if (meta && !listed.includes(meta)) listed.push(meta);
  const server = new Server({ name: "p", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed.map((t) => ({ ...t })) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const more = [];
    for (const tool of allTools) {
      if (listed.includes(tool)) continue;
      more.push(tool);
    }
    listed.push(...more);
    return { content: [] };
  });
  return server;
}
createServer();
''' % (_desc("help"), _desc("read"), _desc("write"), _desc("draft"))


def test_a_list_picked_by_find_and_by_a_loop_over_another_list_is_read_whole():
    """`allTools.find(...)` stands for an element of `allTools`, and `tool` of `for (const tool of allTools)` for
    each of them: the list is read whole (expect: help, read, write listed; draft not advertised)."""
    p = program({"index.ts": PICKED, "package.json": MANIFEST})
    assert _names(p) == ["help", "read", "write"]
    assert sorted(t.name for t in p.unadvertised) == ["draft"]
    (listing,) = p.listings
    assert not listing.unread


def test_a_list_a_configured_registry_picks_from_a_map_by_name_is_read_whole():
    """The tools/list handler returns `this.configurator?.getEnabled()`: the field is cleared, then set to a class
    of another module named through its namespace (`new tools_1.Configurator(mode, this.registry)`), which holds
    the registry handed to its constructor; the registry picks tools by name from a Map it builds from its list
    (`byName.get(NAMES.READ)`). The list is read whole: both tools, nothing unresolved."""
    tools = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const NAMES = { READ: "read_note", DROP: "drop_note" };
const defs = [
  { name: "read_note", description: "Read.", inputSchema: { type: "object" } },
  { name: "drop_note", description: "Drop.", inputSchema: { type: "object" } },
];
class Registry {
  constructor() { this.tools = new Map(); defs.forEach((t) => this.tools.set(t.name, t)); }
  getAll() { return Array.from(this.tools.values()); }
  getEnabled(mode) {
    const byName = new Map(this.getAll().map((t) => [t.name, t]));
    switch (mode) {
      case "minimal": return [byName.get(NAMES.READ)].filter((t) => t !== undefined);
      default: return [byName.get(NAMES.READ), byName.get(NAMES.DROP)].filter((t) => t !== undefined);
    }
  }
}
exports.Registry = Registry;
class Configurator {
  constructor(mode, registry) { this.mode = mode; this.registry = registry; }
  getEnabledTools() { return this.registry.getEnabled(this.mode); }
}
exports.Configurator = Configurator;
'''
    server = '''"use strict";
const index_js_1 = require("@modelcontextprotocol/sdk/server/index.js");
const types_js_1 = require("@modelcontextprotocol/sdk/types.js");
const tools_1 = require("./tools.js");
class NotesServer {
  constructor() {
    this.configurator = null;
    this.registry = new tools_1.Registry();
    this.configurator = new tools_1.Configurator(process.env.MODE || "complete", this.registry);
    this.server = new index_js_1.Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
    this.server.setRequestHandler(types_js_1.ListToolsRequestSchema, async () => ({
      tools: this.configurator?.getEnabledTools() || [],
    }));
  }
}
new NotesServer();
'''
    manifest = MANIFEST.replace("index.ts", "index.js")
    p = program({"index.js": server, "tools.js": tools, "package.json": manifest})
    assert _names(p) == ["drop_note", "read_note"]
    (listing,) = p.listings
    assert listing.unread == ()


def test_tool_functions_in_a_record_a_helper_returns_are_listed_by_their_keys():
    """Each tool is a function whose description and schema are assigned to it; a record holds them by name and
    `getTools(config)` returns it, or a copy filtered entry by entry. The tools/list handler builds each descriptor
    from `Object.entries(tools)` (`([name, handler]) => ({ name, description: handler.description, ... })`): one
    tool per key. `error.name === "AbortError"` in the call handler's catch block names no tool."""
    tools = '''export async function chatTool(args) { return { content: [] }; }
chatTool.description = "Chat.";
chatTool.inputSchema = { type: "object", properties: { prompt: { type: "string" } } };
export async function statusTool(args) { return { content: [] }; }
statusTool.description = "Status.";
statusTool.inputSchema = { type: "object" };
const tools = { chat: chatTool, check_status: statusTool };
export function getTools(config) {
  if (!config?.quiet) return tools;
  const picked = {};
  for (const [name, tool] of Object.entries(tools)) {
    if (name === "check_status") continue;
    picked[name] = tool;
  }
  return picked;
}
'''
    server = SDK + '''import { getTools } from "./tools.js";
const tools = getTools({});
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  try {
    return await tools[request.params.name](request.params.arguments);
  } catch (error) {
    if (error.name === "AbortError") return { content: [], isError: true };
    throw error;
  }
});
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: Object.entries(tools).map(([name, handler]) => {
    const info = { name, description: handler.description, inputSchema: handler.inputSchema };
    return info;
  }),
}));
'''
    p = program({"index.ts": server, "tools.ts": tools, "package.json": MANIFEST})
    assert _names(p) == ["chat", "check_status"]
    (listing,) = p.listings
    assert listing.unread == ()
    assert "AbortError" not in {d.tool for d in p.dispatches}


def test_a_descriptor_named_by_one_of_two_constant_configs_is_each_of_those_tools():
    """`const names = client === "openai-mcp" ? OPENAI_NAMES : NAMES` and `{ name: names.search, ... }`: the tool is
    `search` for one client and `ref_search` for the others, each a tool the server can list."""
    server = SDK + '''const OPENAI_NAMES = { search: "search" };
const NAMES = { search: "ref_search" };
function createServer(client = "unknown") {
  const names = client === "openai-mcp" ? OPENAI_NAMES : NAMES;
  const searchTool = { name: names.search, description: "Search.", inputSchema: { type: "object" } };
  const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [searchTool] }));
  return server;
}
createServer();
'''
    p = program({"index.ts": server, "package.json": MANIFEST})
    assert _names(p) == ["ref_search", "search"]
    (listing,) = p.listings
    assert listing.unread == () and listing.unnamed == ()


def test_instances_pushed_onto_a_list_written_with_elements_are_listed_too():
    """`const tools = [new Navigate()]` then, when a variable is set, `tools.push(new GridStatus())`; the tools/list
    handler maps each to `{ name: t.name, ... }`: the pushed instance is an element of the list as the written one
    is, its tool read, nothing unresolved."""
    server = SDK + '''class Navigate { name = "navigate"; description = "Go."; inputSchema = { type: "object" }; }
class GridStatus { name = "grid_status"; description = "Grid."; inputSchema = { type: "object" }; }
async function getAllTools() {
  const tools = [new Navigate()];
  if (process.env.GRID_URL) {
    tools.push(new GridStatus());
  }
  return tools;
}
const tools = await getAllTools();
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
}));
'''
    led = coverage.ledger(program({"index.ts": server, "package.json": MANIFEST}))
    assert [t["name"] for t in led["tools"]] == ["grid_status", "navigate"]
    assert led["unresolved"] == []


def test_a_registry_a_factory_fills_from_groups_of_tools_is_listed_whole():
    """`const registry = createRegistry([{ tools: notesTools, handler: h }, ...])`, the factory making a
    `new Registry()` and calling `registry.register(group)` per group, each `register` storing every `group.tools`
    element in a Map; tools/list returns `registry.getAllDefinitions()`, the Map's definitions: read whole."""
    server = SDK + '''const notesTools = [{ name: "list_notes", description: "List.", inputSchema: { type: "object" } }];
const tagTools = [{ name: "add_tag", description: "Tag.", inputSchema: { type: "object" } }];
var Registry = class {
  map = new Map();
  register(group) {
    for (let t of group.tools) this.map.set(t.name, { definition: t, handler: group.handler });
  }
  getAllDefinitions() { return Array.from(this.map.values()).map((e) => e.definition); }
};
function createRegistry(groups) {
  let registry = new Registry();
  for (let g of groups) registry.register(g);
  return registry;
}
var reg = createRegistry([{ tools: notesTools, handler: async () => ({}) }, { tools: tagTools, handler: async () => ({}) }]);
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: reg.getAllDefinitions() }));
'''
    p = program({"index.js": server, "package.json": MANIFEST.replace("index.ts", "index.js")})
    assert _names(p) == ["add_tag", "list_notes"]
    (listing,) = p.listings
    assert listing.unread == ()


# A catalog of descriptors with flags, listed through a filter: an element the filter's test is known to refuse is not
# listed (its literal flag, a flag it lacks, a helper's one returned test, `??`, `in` a record of constant keys); a
# test this cannot decide, or one over the objects a `map` makes, keeps every element.
CATALOG = SDK + '''const CATALOG = [
  { name: "alpha", description: "A.", inputSchema: { type: "object" }, exposed: true, group: "public", tier: 2 },
  { name: "beta", description: "B.", inputSchema: { type: "object" }, exposed: !1, group: "public", tier: 1 },
  { name: "gamma", description: "C.", inputSchema: { type: "object" }, group: "internal" },
  { name: "delta", description: "D.", inputSchema: { type: "object" }, group: "public" },
];
const KEYS = { A: "alpha", D: "delta" };
const ALLOWED = { [KEYS.A]: 1, delta: 2 };
const WIRED = { [String(KEYS.A)]: 1 };
const PLUGGED = { [process.env.PLUGGED_KEY]: 1 };
function shown(c) { return c.exposed; }
function visible(c) { return c.visible; }
const LISTED = FILTER;
const server = new Server({ name: "cat", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: LISTED }));
server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [] }));
'''


def _filtered(expression: str) -> list[str]:
    return _names(program({"index.ts": CATALOG.replace("FILTER", expression), "package.json": MANIFEST}))


def test_a_filter_leaves_out_the_elements_its_test_refuses():
    assert _filtered("CATALOG.filter((c) => c.exposed)") == ["alpha"]  # (a flag absent is undefined)
    assert _filtered("CATALOG.filter((c) => c.exposed !== false)") == ["alpha", "delta", "gamma"]
    assert _filtered("CATALOG.filter((c) => shown(c))") == ["alpha"]
    assert _filtered("CATALOG.filter((c) => c.exposed ?? c.group === 'public')") == ["alpha", "delta"]
    assert _filtered("CATALOG.filter((c) => c.name in ALLOWED)") == ["alpha", "delta"]
    assert _filtered("CATALOG.filter((c) => c.name in WIRED)") == ["alpha"]  # (`String(x)` of a known string)
    assert _filtered("CATALOG.filter((c) => !c.hidden)") == ["alpha", "beta", "delta", "gamma"]
    assert _filtered("CATALOG.filter((c) => c.exposed === void 0)") == ["delta", "gamma"]  # (absent: undefined)
    assert _filtered("CATALOG.filter((c) => c.exposed == null)") == ["delta", "gamma"]
    assert _filtered("CATALOG.filter((c) => c.exposed === null)") == []
    assert _filtered("CATALOG.filter((c) => c.tier === 2)") == ["alpha"]  # (numbers; undefined is none)
    assert _filtered("CATALOG.filter((c) => c.tier !== 2)") == ["beta", "delta", "gamma"]
    # The objects a map makes, each read with its element (extract/evaluate.py): beta's copy is not visible.
    assert _filtered("CATALOG.map((c) => ({ ...c, visible: c.exposed ?? true })).filter((c) => visible(c))") == \
        ["alpha", "delta", "gamma"]


def test_a_filter_this_cannot_decide_keeps_every_element():
    every = ["alpha", "beta", "delta", "gamma"]
    assert _filtered("CATALOG.filter((c) => c.name in PLUGGED)") == every  # (a computed key not known)
    assert _filtered("CATALOG.filter((c) => process.env.ONLY === c.name)") == every
    assert _filtered("CATALOG.map((c) => ({ ...c, visible: c.exposed ?? process.env.ALL })).filter((c) => visible(c))") \
        == every


def test_a_registration_loop_over_a_filtered_list_registers_the_elements_kept():
    index = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
const DEFS = [
  { name: "alpha", description: "A.", enabled: true },
  { name: "beta", description: "B.", enabled: false },
  { name: "gamma", description: "C." },
  { name: "delta", description: "D.", enabled: process.env.DELTA === "1" },
];
const server = new McpServer({ name: "loop", version: "1" });
for (const d of DEFS.filter((d) => d.enabled)) {
  server.tool(d.name, d.description, {}, async () => ({ content: [] }));
}
await server.connect(new StdioServerTransport());
'''
    assert _names(program({"index.ts": index, "package.json": MANIFEST})) == ["alpha", "delta"]


# expect: close and resize, each a tool object whose `schema` member is its descriptor, made by an anonymous default
# export (`export default (flag) => [...]`) a module imports and calls; the list is read whole (no fallback).
GROUP = '''function defineTool(t) { return t; }
const close = defineTool({ capability: "core", schema: { name: "close", description: "Close it",
  inputSchema: { type: "object" } }, handle: async () => ({}) });
const resize = (flag) => defineTool({ capability: "core", schema: { name: "resize", description: "Resize it",
  inputSchema: { type: "object" } }, handle: async () => ({ flag }) });
const unused = defineTool({ capability: "core", schema: { name: "unused", description: "Listed by nothing",
  inputSchema: { type: "object" } }, handle: async () => ({}) });
export default (flag) => [close, resize(flag)];
'''
MAPPED = SDK + '''import group from "./group.js";
const tools = [...group(true)];
const server = new Server({ name: "shelf", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map((t) => ({
  name: t.schema.name, description: t.schema.description, inputSchema: t.schema.inputSchema })) }));
'''


def test_a_default_export_arrow_s_list_mapped_to_its_elements_schema_members_is_read_whole():
    p = program({"package.json": MANIFEST, "index.ts": MAPPED, "group.ts": GROUP})
    (listing,) = p.listings
    assert sorted(t.name for t in p.tools) == ["close", "resize"] and not listing.unread
    assert [t.name for t in p.unadvertised] == ["unused"]


def test_a_map_that_names_each_tool_anew_lists_what_it_builds_not_the_element():
    """`list.map((t) => ({ ...t, spec: { ...t.spec, name: `${prefix}_${t.spec.name}` } }))` in a function called with
    the prefix: the listed descriptor is the one the callback builds, named there; the element it spreads is not
    listed under its own name (no invented tool), whether or not the list can be evaluated to its names."""
    defs = ('const DEFS = [{ spec: ' + _desc("add") + ' }, { spec: ' + _desc("list") + ' }];\n'
            'function prefixed(prefix: string, list: any[]) {\n'
            '  return list.map((t) => ({ ...t, spec: { ...t.spec, name: `${prefix}_${t.spec.name}` } }));\n'
            '}\n')
    for listing, names in (('[prefixed("notes", DEFS)].flat()', ["notes_add", "notes_list"]),
                           ('[prefixed("notes", DEFS)].flat().filter((t) => process.env[t.spec.name])',
                            ["notes_add", "notes_list"])):  # (a filter not read: each may be listed)
        main = (SDK + defs + f'const TOOLS = {listing};\n'
                'const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });\n'
                'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS.map((t) => t.spec) }));\n'
                'server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [] }));\n')
        led = coverage.ledger(program({"index.ts": main, "package.json": MANIFEST}))
        assert sorted(t["name"] for t in led["tools"]) == names, listing
        assert not {t["name"] for t in led["tools"]} & {"add", "list"}


def test_a_map_that_copies_the_entry_s_key_as_the_name_lists_the_elements():
    """`Object.entries(SCHEMAS).map(([key, schema]) => ({ name: key, ... }))`: the name is the element's own key (a
    parameter of the callback), no name written anew; the descriptors of SCHEMAS stay the tools, whose declared
    schema the findings read (`path` used raw)."""
    main = (SDK + 'import { readFileSync } from "node:fs";\n'
            'const SCHEMAS = { read_note: { name: "read_note", description: "Read", inputSchema: { type: "object",\n'
            '  properties: { path: { type: "string" } }, required: ["path"] } } };\n'
            'const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });\n'
            'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: Object.entries(SCHEMAS)\n'
            '  .filter(([key]) => key !== "x").map(([key, schema]) => ({ name: key, description: schema.description,\n'
            '    inputSchema: { type: "object", properties: schema.inputSchema.properties } })) }));\n'
            'server.setRequestHandler(CallToolRequestSchema, async (r) => {\n'
            '  const args: any = r.params.arguments;\n'
            '  if (r.params.name === "read_note")\n'
            '    return { content: [{ type: "text", text: readFileSync(args.path, "utf8") }] };\n'
            '  throw new Error("unknown");\n});\n')
    p = program({"index.ts": main, "package.json": MANIFEST})
    assert [t["name"] for t in coverage.ledger(p)["tools"]] == ["read_note"]
    assert [f.id for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "schema-unenforced"] == \
        ["FND:schema-unenforced:read_note/path"]


_REGISTRY_INDEX = SDK + '''
const server = new Server({ name: "d", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => {
  const { listTools } = await import("./registry.js");
  return { tools: listTools() };
});
export async function count() {
  const { listTools } = await import("./registry.js");
  return listTools().length;
}
'''
_REGISTRY = '''
import { aTools } from "./a.js";
import { bTools } from "./b.js";
const REG = new Map();
function registerAll(tools) {
  tools.forEach((tool) => { REG.set(tool.name, tool); });
}
registerAll([...aTools, ...bTools.filter((t) => ["b_one"].includes(t.name))]);
export function listTools() {
  return Array.from(REG.values()).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}
'''
_TOOLS = '''export const {name}Tools = [
  {{ name: "{name}_one", description: "One", inputSchema: {{ type: "object", properties: {{}} }} }},
  {{ name: "{name}_two", description: "Two", inputSchema: {{ type: "object", properties: {{}} }} }},
];
'''


def test_a_list_filtered_by_a_written_list_of_names_leaves_out_the_other_names():
    """`bTools.filter((t) => ["b_one"].includes(t.name))` registered into a Map the tools/list handler lists (through
    `const { listTools } = await import("./registry.js")`, declared so in two functions of the module): b_two is
    left out; `listTools` is the registry's function wherever the module declares it so."""
    files = {"index.ts": _REGISTRY_INDEX, "registry.ts": _REGISTRY, "a.ts": _TOOLS.format(name="a"),
             "b.ts": _TOOLS.format(name="b")}
    assert [t["name"] for t in coverage.ledger(program(files))["tools"]] == ["a_one", "a_two", "b_one"]
    negated = {**files, "registry.ts": _REGISTRY.replace('["b_one"].includes', '!["b_one"].includes')}
    assert [t["name"] for t in coverage.ledger(program(negated))["tools"]] == ["a_one", "a_two", "b_two"]


_CONTEXT_INDEX = SDK + '''
import { getTools, registerTools } from "./registry.js";
import { descriptors } from "./defs.js";
const byOwner = new Map();
for (const { visible, def } of descriptors) {
  if (!visible) continue;
  const owned = byOwner.get("core") ?? [];
  owned.push(def);
  byOwner.set("core", owned);
}
for (const [owner, defs] of byOwner) registerTools(defs.map((d) => d.made));
const server = new Server({ name: "d", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: getTools() }));
'''
_CONTEXT_REGISTRY = '''
class ToolRegistry {
  toolMap = new Map();
  registerTools(defs) { for (const def of defs) this.toolMap.set(def.tool.name, def); }
  getTools() { return [...this.toolMap.values()].map((d) => d.tool); }
}
let current = null;
export function getContext() {
  if (!current) current = { registry: new ToolRegistry() };
  return current;
}
export function setContext(c) { current = c; }
function reg() { return getContext().registry; }
export function registerTools(defs) { reg().registerTools(defs); }
export function getTools() { return reg().getTools(); }
'''
_CONTEXT_DEFS = '''
function defineTool(o) { return { tool: { name: o.name, description: o.description, inputSchema: { type: "object" } }, handler: o.handler }; }
function group(tools) { return { made: defineTool({ name: "device", description: "Device", handler: async () => ({}) }), tools }; }
const { made } = group([]);
export const descriptors = [{ visible: true, def: { made } }];
export const inner = [defineTool({ name: "inner_action", description: "Inner", handler: async () => ({}) })];
const actions = new Map();
for (const t of inner) actions.set(t.tool.name.replace(/^inner_/, ""), t.handler);
export function runAction(a) { return actions.get(a)(); }
'''


def test_a_registry_a_lazily_made_context_holds_lists_only_what_is_registered_into_it():
    """tools/list answers `reg().getTools()`, `reg()` the `registry` of a module's `let` a function fills on first use
    (`current = { registry: new ToolRegistry() }`; the exported setter nothing calls assigns nothing), filled by
    `registerTools(defs)` of what a top-level loop groups in a Map (`byOwner.set(k, owned)`, `owned.push(def)` in
    the loop's body), each element's member taken by a callback that returns only it (`(d) => d.made`), from a
    top-level destructuring of a call (`const { made } = group([])`) and a destructuring loop variable: the list is
    read whole, `device` is listed; `inner_action`, made by the same `defineTool` for an action table, is not a tool
    (before, the list was unread and every descriptor-shaped object was taken as one)."""
    files = {"index.ts": _CONTEXT_INDEX, "registry.ts": _CONTEXT_REGISTRY, "defs.ts": _CONTEXT_DEFS}
    led = coverage.ledger(program(files))
    assert [t["name"] for t in led["tools"]] == ["device"]
    assert led["unresolved"] == []


# A library's own bin listing its descriptors (lib/mcp.js), and the package's entry, which imports only the library.
_VISION_BIN = ('import { Server } from "@modelcontextprotocol/sdk/server/index.js";\n'
               'import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";\n'
               'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
               'import { TOOLS } from "./tools.js";\n'
               'const server = new Server({ name: "vision", version: "1" }, { capabilities: { tools: {} } });\n'
               'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS.map((t) => { '
               'const { name, description, parameters } = t.function; return { name, description, '
               'inputSchema: parameters }; }) }));\nserver.connect(new StdioServerTransport());\n')
_DECK_ENTRY = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
               'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
               'import { templates } from "./lib/tools.js";\n'
               'const server = new McpServer({ name: "deck", version: "1" });\n'
               'server.tool("generate", "Generate a deck.", async () => ({ content: [{ type: "text", text: String(templates()) }] }));\n'
               'await server.connect(new StdioServerTransport());\n')


@pytest.mark.parametrize("tools", [
    'export const TOOLS = [{ type: "function", function: { name: "make_pdf", description: "PDF", '
    'parameters: { type: "object" } } }];\nexport const templates = () => TOOLS.length;\n',
    # assembled from data (`BASE.map((b) => ({ function: { name: `make_${b.name}`, ... } }))`, read by evaluation:
    # listing.evaluated)
    'const BASE = [{ name: "pdf", parameters: { type: "object", properties: { file: { type: "string" } } } }];\n'
    'export const TOOLS = BASE.map((b) => ({ function: { name: `make_${b.name}`, description: '
    '`Make ${b.name}`, parameters: b.parameters } }));\nexport const templates = () => TOOLS.length;\n',
])
def test_objects_only_an_unreached_handler_lists_are_no_tools(tools):
    """The package's entry builds its own server (tool `generate`) and imports a library module of descriptors that
    another program's tools/list handler lists (a dependency's own bin, `lib/mcp.js`, which no entry reaches): those
    descriptors are not the server's tools, though the module holding them is reached."""
    files = {"package.json": '{"name": "deck", "version": "1.0.0", "type": "module", "bin": "index.js"}',
             "lib/tools.js": tools, "lib/mcp.js": _VISION_BIN, "index.js": _DECK_ENTRY}
    assert sorted(t.name for t in program(files).tools) == ["generate"]
    served = program({**files, "package.json": '{"name": "deck", "version": "1.0.0", "type": "module", '
                                               '"bin": {"deck": "index.js", "vision": "lib/mcp.js"}}'})
    assert sorted(t.name for t in served.tools) == ["generate", "make_pdf"]  # (its own bin: the package's too)
