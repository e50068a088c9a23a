"""Which tools/call branch serves which tool, in the shapes where the name is not a literal at the branch: a record
whose computed keys are the names of imported descriptors (`{ [tool.name]: run }`), a comparison with an imported
descriptor's name (`name === tool.name`), a local registration wrapper called with a conditional (`reg(lite ? A : B)`),
and a loop over the namespaces of per-domain modules a bundler wrote (`for (const mod of MODULES) mod.handle(name)`)."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import MCP, SDK, line_of, program

PACKAGE = {"package.json": '{"name": "s", "version": "1.0.0", "main": "src/index.ts"}'}


def _rows(p) -> list[tuple[str, str]]:
    return [(t["name"], t["status"]) for t in coverage.ledger(p)["tools"]]


# A handler record keyed by the names of descriptors imported from one module per tool.
RECORD = {
    "src/tools/page.ts": '''
export const pageTool = { name: "fetch_page", description: "Fetch", inputSchema: { type: "object", properties: {} } };
export async function fetchPage(args: any) { return { content: [] }; }
''',
    "src/tools/pages.ts": '''
export const pagesTool = { name: "fetch_pages", description: "Fetch all", inputSchema: { type: "object", properties: {} } };
export async function fetchPages(args: any) { return { content: [] }; }
''',
    "src/tools/index.ts": '''
import { pageTool, fetchPage } from "./page.js";
import { pagesTool, fetchPages } from "./pages.js";
export const tools = [pageTool, pagesTool];
export const toolHandlers = {
  [pageTool.name]: fetchPage,
  [pagesTool.name]: fetchPages,
};
''',
    "src/index.ts": SDK + '''
import { tools, toolHandlers } from "./tools/index.js";
const server = new Server({ name: "f", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const toolName = request.params.name;
  const handler = toolHandlers[toolName];
  if (!handler) {
    throw new Error(`Unknown tool: ${toolName}`);
  }
  return handler(request.params.arguments);
});
''',
    **PACKAGE}


def test_a_computed_key_that_is_an_imported_descriptors_name_is_that_name():
    p = program(RECORD)
    got = {d.tool: (d.form, d.target_name, d.module.path) for d in p.dispatches}
    assert got == {"fetch_page": ("table", "fetchPage", "src/tools/index.ts"),
                   "fetch_pages": ("table", "fetchPages", "src/tools/index.ts")}
    assert _rows(p) == [("fetch_page", "analysed"), ("fetch_pages", "analysed")]


# A comparison with the name of a descriptor imported from another module.
COMPARED = {
    "src/tools/index.ts": '''
export const tool = { name: "render_diagram", description: "Render", inputSchema: { type: "object", properties: {} } };
''',
    "src/index.ts": SDK + '''
import { tool } from "./tools/index.js";
const server = new Server({ name: "m", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [tool] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === tool.name) {
    return { content: [{ type: "text", text: "ok" }] };
  } else {
    throw new Error(`Unknown tool: ${request.params.name}`);
  }
});
''',
    **PACKAGE}


def test_a_comparison_with_an_imported_descriptors_name_dispatches_it():
    p = program(COMPARED)
    (d,) = p.dispatches
    assert (d.tool, d.form, d.node.start_point[0] + 1) == (
        "render_diagram", "name-equality", line_of(COMPARED["src/index.ts"], "=== tool.name"))
    assert _rows(p) == [("render_diagram", "analysed")]


# A local wrapper of registerTool called with a conditional: either branch's tool is registered.
WRAPPED = {
    "src/types.ts": '''
export const SEARCH_TOOL = { name: "web_search", description: "Search the web in full", inputSchema: {} };
export const LITE_SEARCH_TOOL = { name: "web_search", description: "Search", inputSchema: {} };
export const READ_TOOL = { name: "read_url", description: "Read a page", inputSchema: {} };
export const LITE_READ_TOOL = { name: "read_page", description: "Read", inputSchema: {} };
''',
    "src/index.ts": MCP + '''
import { SEARCH_TOOL, LITE_SEARCH_TOOL, READ_TOOL, LITE_READ_TOOL } from "./types.js";
function registerAll(lite: boolean) {
  const registerTool = (tool: any) => {
    server.registerTool(tool.name, { description: tool.description }, async (args: any) => {
      return { content: [{ type: "text", text: tool.name }] };
    });
  };
  registerTool(lite ? LITE_SEARCH_TOOL : SEARCH_TOOL);
  registerTool(lite ? LITE_READ_TOOL : READ_TOOL);
}
registerAll(process.env.LITE === "true");
''',
    **PACKAGE}


def test_every_value_a_wrappers_conditional_argument_can_take_is_a_registration():
    p = program(WRAPPED)
    assert sorted(t.name for t in p.tools if t.form == "registerTool") == ["read_page", "read_url", "web_search"]
    assert sorted((d.tool, d.form) for d in p.dispatches) == [
        ("read_page", "registration"), ("read_url", "registration"), ("web_search", "registration")]
    assert not p.gaps  # no registration left with a name that is not read
    assert _rows(p) == [("read_page", "analysed"), ("read_url", "analysed"), ("web_search", "analysed")]


# A bundle: per-domain modules as namespace objects (esbuild's `__export`), the handler asking each in turn.
BUNDLE = SDK + '''
var __defProp = Object.defineProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// src/tools/notes.ts
var notes_exports = {};
__export(notes_exports, { handleTool: () => handleTool, toolDefinitions: () => toolDefinitions });
var toolDefinitions = [{ name: "add_note", description: "Add", inputSchema: { type: "object", properties: {} } }];
async function handleTool(toolName, args) {
  switch (toolName) {
    case "add_note":
      return { content: [{ type: "text", text: String(args.text) }] };
    default:
      return null;
  }
}

// src/tools/clock.ts
var clock_exports = {};
__export(clock_exports, { handleTool: () => handleTool2, toolDefinitions: () => toolDefinitions2 });
var toolDefinitions2 = [{ name: "now", description: "Now", inputSchema: { type: "object", properties: {} } }];
async function handleTool2(toolName, args) {
  if (toolName === "now") return { content: [{ type: "text", text: new Date().toISOString() }] };
  return null;
}

// src/index.ts
var domainModules = [notes_exports, clock_exports];
const server = new Server({ name: "b", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: domainModules.flatMap((m) => m.toolDefinitions) }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const toolName = request.params.name;
  for (const mod of domainModules) {
    const result = await mod.handleTool(toolName, request.params.arguments ?? {});
    if (result !== null) return result;
  }
  return { content: [{ type: "text", text: "Tool not found" }], isError: true };
});
'''


def test_a_loop_over_bundled_namespaces_dispatches_what_each_modules_function_does():
    p = program({"dist/index.js": BUNDLE, "package.json": '{"name": "b", "version": "1.0.0", "main": "dist/index.js"}'})
    got = {d.tool: (d.form, d.node.start_point[0] + 1) for d in p.dispatches}
    assert got == {"add_note": ("switch-case", line_of(BUNDLE, 'case "add_note"')),
                   "now": ("name-equality", line_of(BUNDLE, 'if (toolName === "now")'))}
    # An unknown name is refused by each module (`return null`) and meets what the handler does after the loop.
    (fallback,) = p.fallbacks
    assert (fallback.form, fallback.node.start_point[0] + 1) == ("error-result", line_of(BUNDLE, '"Tool not found"'))
    assert _rows(p) == [("add_note", "analysed"), ("now", "analysed")]  # the inline cases are traced


# A registration whose callback is a conditional of two functions: the tool is implemented by either.
EITHER = {
    "src/index.ts": MCP + '''
function add(name: string, schema: any, cb: (input: any) => any) {
  const typed = schema !== undefined;
  server.registerTool(name, { description: name }, typed ? async (input: any) => await cb(input) : async () => await cb({}));
}
add("echo", {}, async (input: any) => ({ content: [{ type: "text", text: String(input.text) }] }));
''',
    **PACKAGE}


def test_a_registration_callback_that_is_a_conditional_of_functions_is_implemented_by_either():
    p = program(EITHER)
    (d,) = p.dispatches
    assert d.tool == "echo" and d.target is not None and d.target.start_point[0] + 1 == line_of(
        EITHER["src/index.ts"], "typed ? async")
    assert len(d.handed) >= 1  # the other branch, and the function the call site hands over
    assert not any("does not resolve" in g.detail for g in p.gaps)
    assert _rows(p) == [("echo", "analysed")]


# A handler that hands the request to a function of another module, which asks a list of per-group functions in turn
# (`for (const handle of handlers) { const r = await handle(request); if (r !== null) return r; }`), each a switch.
CHAIN = {
    "src/groups/notes.ts": '''
export const noteTools = [{ name: "add_note", description: "Add", inputSchema: { type: "object", properties: {} } }];
export async function handleNoteTools(request: any) {
  switch (request.params.name) {
    case "add_note":
      return { content: [{ type: "text", text: String(request.params.arguments.text) }] };
    default:
      return null;
  }
}
''',
    "src/groups/clock.ts": '''
export const clockTools = [{ name: "now", description: "Now", inputSchema: { type: "object", properties: {} } }];
export async function handleClockTools(request: any) {
  if (request.params.name === "now") return { content: [{ type: "text", text: new Date().toISOString() }] };
  return null;
}
''',
    "src/dispatch.ts": '''
import { handleNoteTools } from "./groups/notes.js";
import { handleClockTools } from "./groups/clock.js";
export const handleRequest = async (request: any) => {
  const handlers = [handleNoteTools, handleClockTools];
  for (const handle of handlers) {
    const result = await handle(request);
    if (result !== null) {
      return result;
    }
  }
  throw new Error(`Unknown tool: ${request.params.name}`);
};
''',
    "src/index.ts": SDK + '''
import { noteTools } from "./groups/notes.js";
import { clockTools } from "./groups/clock.js";
import { handleRequest } from "./dispatch.js";
const server = new Server({ name: "c", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...noteTools, ...clockTools] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  try {
    return await handleRequest(request);
  } catch (error) {
    return { content: [{ type: "text", text: String(error) }], isError: true };
  }
});
''',
    **PACKAGE}


def test_a_loop_over_handler_functions_in_a_delegate_dispatches_what_each_function_does():
    p = program(CHAIN)
    got = {d.tool: (d.form, d.module.path) for d in p.dispatches}
    assert got == {"add_note": ("switch-case", "src/groups/notes.ts"),
                   "now": ("name-equality", "src/groups/clock.ts")}
    # Any other name is refused by each function (`return null`) and meets what follows the loop.
    (fallback,) = p.fallbacks
    assert (fallback.form, fallback.module.path, fallback.node.start_point[0] + 1) == \
        ("throw", "src/dispatch.ts", line_of(CHAIN["src/dispatch.ts"], "throw new Error"))
    assert _rows(p) == [("add_note", "analysed"), ("now", "analysed")]


def test_a_switch_case_on_a_member_of_a_namespace_import_is_that_descriptors_name():
    """`case tools.SearchTool.name:` with `import * as tools`, each descriptor checked by a schema's parse
    (`ToolSchema.parse({...})` gives back the object it is handed): the branch serves that descriptor's tool."""
    files = {
        "src/tools.ts": '''
import { ToolSchema } from "@modelcontextprotocol/sdk/types.js";
export const SearchTool = ToolSchema.parse({ name: "search-notes", description: "Search.", inputSchema: { type: "object" } });
export const ReadTool = ToolSchema.parse({ name: "read-note", description: "Read.", inputSchema: { type: "object" } });
''',
        "src/index.ts": SDK + '''
import * as tools from "./tools.js";
const server = new Server({ name: "n", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: Object.values(tools) }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  switch (request.params.name) {
    case tools.SearchTool.name:
      return { content: [{ type: "text", text: "found" }] };
    case tools.ReadTool.name:
      return { content: [{ type: "text", text: "read" }] };
    default:
      throw new Error("unknown tool");
  }
});
''',
        **PACKAGE}
    p = program(files)
    assert sorted(d.tool for d in p.dispatches) == ["read-note", "search-notes"]
    assert _rows(p) == [("read-note", "analysed"), ("search-notes", "analysed")]


def test_a_table_rebuilt_under_the_same_keys_with_each_handler_wrapped_dispatches_the_original_handlers():
    """`export const HANDLERS = withTiming()`, a function filling an object under the keys of another table with a
    wrapper of each handler: `HANDLERS[name](args)` runs the wrapped table's handlers, one per key. A function that
    renames the keys (`out[prefix + k]`) stands for no table."""
    files = {
        "src/tools.ts": '''
export const TOOLS = [
  { name: "list_users", description: "List.", inputSchema: { type: "object" } },
  { name: "get_user", description: "Get.", inputSchema: { type: "object" } },
];
const plain = {
  list_users: async (args: any) => ({ content: [] }),
  get_user: async (args: any) => ({ content: [] }),
};
function withTiming() {
  const wrapped: Record<string, any> = {};
  for (const [key, handler] of Object.entries(plain)) {
    wrapped[key] = async (args: any) => {
      const start = Date.now();
      try { return await handler(args); } finally { console.error(key, Date.now() - start); }
    };
  }
  return wrapped;
}
export const HANDLERS = withTiming();
''',
        "src/index.ts": SDK + '''
import { TOOLS, HANDLERS } from "./tools.js";
const server = new Server({ name: "u", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const name = request.params.name;
  if (!HANDLERS[name]) throw new Error("unknown tool");
  return HANDLERS[name](request.params.arguments);
});
''',
        **PACKAGE}
    p = program(files)
    got = {d.tool: (d.form, d.target_name) for d in p.dispatches}
    assert got == {"list_users": ("table", "plain.list_users"), "get_user": ("table", "plain.get_user")}, got
    assert _rows(p) == [("get_user", "analysed"), ("list_users", "analysed")]
    renamed = {**files, "src/tools.ts": files["src/tools.ts"].replace("wrapped[key] =", 'wrapped["x_" + key] =')}
    assert program(renamed).dispatches == ()


def test_request_handlers_imported_by_name_are_read_in_their_own_module():
    """`server.setRequestHandler(ListToolsRequestSchema, listTools)` and the same for CallTool, both functions
    imported from another module: the list they return and the dispatch they make are read there."""
    files = {
        "src/handlers.ts": '''
const definitions = [
  { name: "add_note", description: "Add.", inputSchema: { type: "object" } },
  { name: "drop_note", description: "Drop.", inputSchema: { type: "object" } },
];
async function addNote(args: any) { return { content: [] }; }
async function dropNote(args: any) { return { content: [] }; }
export async function listTools() {
  return { tools: definitions };
}
export async function callTool(request: any) {
  switch (request.params.name) {
    case "add_note": return addNote(request.params.arguments);
    case "drop_note": return dropNote(request.params.arguments);
    default: throw new Error("unknown tool");
  }
}
''',
        "src/index.ts": SDK + '''
import { listTools, callTool } from "./handlers.js";
const server = new Server({ name: "n", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, listTools);
server.setRequestHandler(CallToolRequestSchema, callTool);
''',
        **PACKAGE}
    p = program(files)
    got = {d.tool: (d.target_name, d.module.path) for d in p.dispatches}
    assert got == {"add_note": ("addNote", "src/handlers.ts"), "drop_note": ("dropNote", "src/handlers.ts")}, got
    led = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("add_note", "analysed"), ("drop_note", "analysed")]
    assert led["unresolved"] == [] and led["complete"] is True


def test_a_table_of_handler_instances_dispatches_the_method_called_on_the_lookup():
    """`const handler = handlers[name]; return handler.execute(args)` over `{ [TOOLS.ADD]: new AddHandler(), ... }`:
    each entry's class's `execute` implements its tool (a method not called on the lookup is not)."""
    files = {
        "src/handlers.ts": '''
export const TOOLS = { ADD: "add_item", DROP: "drop_item" } as const;
class AddHandler {
  async execute(args: any) { return { content: [{ type: "text", text: "added" }] }; }
  describe() { return "adds"; }
}
class DropHandler {
  async execute(args: any) { return { content: [{ type: "text", text: "dropped" }] }; }
}
export const handlers = {
  [TOOLS.ADD]: new AddHandler(),
  [TOOLS.DROP]: new DropHandler(),
};
''',
        "src/index.ts": SDK + '''
import { TOOLS, handlers } from "./handlers.js";
const server = new Server({ name: "i", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: TOOLS.ADD, description: "Add.", inputSchema: { type: "object" } },
  { name: TOOLS.DROP, description: "Drop.", inputSchema: { type: "object" } },
] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  if (!Object.values(TOOLS).includes(name as any)) throw new Error(`Unknown tool: ${name}`);
  const handler = handlers[name as keyof typeof handlers];
  return await handler.execute(args);
});
''',
        **PACKAGE}
    p = program(files)
    got = {d.tool: (d.form, d.target_name) for d in p.dispatches}
    assert got == {"add_item": ("table", "AddHandler.execute"), "drop_item": ("table", "DropHandler.execute")}, got
    assert _rows(p) == [("add_item", "analysed"), ("drop_item", "analysed")]


def test_a_handler_that_finds_the_tool_by_name_and_runs_one_executor_implements_every_listed_tool():
    """`for (const t of this.tools.values()) if (t.name === name) { found = t; break; }`, then `if (!found) throw`,
    then one code for every tool (a request built from the tool's data): that code implements each listed tool.
    Without the refusal, or with a match on something else than the name, no tool is dispatched so."""
    files = {
        "src/index.ts": SDK + '''
const TOOLS = [
  { name: "list_sites", description: "List.", method: "GET", path: "/sites", inputSchema: { type: "object" } },
  { name: "delete_site", description: "Delete.", method: "DELETE", path: "/sites/{id}", inputSchema: { type: "object" } },
];
class Api {
  tools = new Map<string, any>();
  server = new Server({ name: "api", version: "1.0.0" }, { capabilities: { tools: {} } });
  constructor() {
    for (const t of TOOLS) this.tools.set(t.name, t);
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const { name, arguments: params } = request.params;
      let found;
      for (const [id, tool] of this.tools.entries()) {
        if (tool.name === name) { found = tool; break; }
      }
      if (!found) { throw new Error(`Tool not found: ${name}`); }
      const res = await fetch("https://api.example.test" + found.path, { method: found.method, body: JSON.stringify(params) });
      return { content: [{ type: "text", text: await res.text() }] };
    });
  }
}
new Api();
''',
        **PACKAGE}
    p = program(files)
    assert sorted((d.tool, d.form) for d in p.dispatches) == [("delete_site", "lookup"), ("list_sites", "lookup")]
    assert _rows(p) == [("delete_site", "analysed"), ("list_sites", "analysed")]
    lenient = files["src/index.ts"].replace("if (!found) { throw new Error(`Tool not found: ${name}`); }", "")
    assert program({**files, "src/index.ts": lenient}).dispatches == ()


def test_a_table_built_from_a_list_keyed_by_each_elements_name_dispatches_each_elements_handler():
    """`const byName = Object.fromEntries(endpoints.map((e) => [e.tool.name, e]))`, then `const endpoint =
    byName[name]; ... run(endpoint.tool, endpoint.handler, args)`: each element's `handler` (the member handed on
    that is a function) implements the tool its `tool.name` names (extract/registry.py)."""
    files = {
        "src/endpoints.ts": '''
export const listUsers = {
  tool: { name: "list_users", description: "List.", inputSchema: { type: "object" } },
  handler: async (args: any) => ({ content: [] }),
};
export const getUser = {
  tool: { name: "get_user", description: "Get.", inputSchema: { type: "object" } },
  handler: async (args: any) => ({ content: [] }),
};
export const endpoints = [listUsers, getUser];
''',
        "src/index.ts": SDK + '''
import { endpoints } from "./endpoints.js";
const server = new Server({ name: "u", version: "1.0.0" }, { capabilities: { tools: {} } });
const byName = Object.fromEntries(endpoints.map((endpoint) => [endpoint.tool.name, endpoint]));
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: endpoints.map((e) => e.tool) }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  const endpoint = byName[name];
  if (!endpoint) throw new Error(`Unknown tool: ${name}`);
  return run(endpoint.tool, endpoint.handler, args);
});
async function run(tool: any, handler: any, args: any) { return handler(args); }
''',
        **PACKAGE}
    p = program(files)
    got = {d.tool: (d.form, d.target.start_point[0] + 1) for d in p.dispatches}
    assert got == {"list_users": ("registry", 4), "get_user": ("registry", 8)}, got
    assert _rows(p) == [("get_user", "analysed"), ("list_users", "analysed")]
    # the table built in the function that installs the handler, from the list it is handed
    local = files["src/index.ts"].replace("const byName = Object.fromEntries(", "function init(list: any[]) {\n"
                                          "const byName = Object.fromEntries(").replace("endpoints.map((endpoint)", "list.map((endpoint)")
    local = local.replace("async function run(", "}\ninit(endpoints);\nasync function run(")
    assert "init(endpoints)" in local and "list.map((endpoint)" in local
    p = program({**files, "src/index.ts": local})
    assert sorted((d.tool, d.form) for d in p.dispatches) == [("get_user", "registry"), ("list_users", "registry")]
    # ... or assigned on first use (`let byName = null; ... byName ?? (byName = Object.fromEntries(...))`)
    lazy = local.replace("const byName = Object.fromEntries(list.map((endpoint) => [endpoint.tool.name, endpoint]));",
                         "let byName: any = null;\nconst ensure = () => { byName ?? (byName = Object.fromEntries("
                         "list.map((endpoint) => [endpoint.tool.name, endpoint]))); };")
    lazy = lazy.replace("  const endpoint = byName[name];", "  ensure();\n  const endpoint = byName[name];")
    assert "let byName: any = null;" in lazy and "ensure();" in lazy
    p = program({**files, "src/index.ts": lazy})
    assert sorted((d.tool, d.form) for d in p.dispatches) == [("get_user", "registry"), ("list_users", "registry")]


def test_a_list_filled_by_a_function_that_pushes_its_parameter_holds_each_calls_argument():
    """`export const endpoints = []; function addEndpoint(e) { endpoints.push(e); } addEndpoint(listUsers)`, also
    as CommonJS `exports.endpoints = []` with `exports.endpoints.push(e)`: the list's elements are the arguments of
    the calls, so the table built from it dispatches each."""
    esm = ('export const endpoints: any[] = [];\n'
           'function addEndpoint(endpoint: any) { endpoints.push(endpoint); }\n'
           'import { listUsers, getUser } from "./defs.js";\n'
           'addEndpoint(listUsers);\naddEndpoint(getUser);\n')
    cjs = ('"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\n'
           'exports.endpoints = [];\n'
           'function addEndpoint(endpoint) { exports.endpoints.push(endpoint); }\n'
           'const defs_1 = require("./defs.js");\n'
           'addEndpoint(defs_1.listUsers);\naddEndpoint(defs_1.getUser);\n')
    defs = ('export const listUsers = { tool: { name: "list_users", description: "List.", inputSchema: { type: "object" } },\n'
            '  handler: async (args: any) => ({ content: [] }) };\n'
            'export const getUser = { tool: { name: "get_user", description: "Get.", inputSchema: { type: "object" } },\n'
            '  handler: async (args: any) => ({ content: [] }) };\n')
    index = SDK + '''
import { endpoints } from "./endpoints.js";
const server = new Server({ name: "u", version: "1.0.0" }, { capabilities: { tools: {} } });
const byName = Object.fromEntries(endpoints.map((endpoint) => [endpoint.tool.name, endpoint]));
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: endpoints.map((e) => e.tool) }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const endpoint = byName[request.params.name];
  if (!endpoint) throw new Error("unknown tool");
  return endpoint.handler(request.params.arguments);
});
'''
    for name, code in (("src/endpoints.ts", esm), ("src/endpoints.js", cjs)):
        p = program({"src/index.ts": index, name: code, "src/defs.ts": defs, **PACKAGE})
        assert sorted((d.tool, d.form) for d in p.dispatches) == [("get_user", "registry"), ("list_users", "registry")], name
        assert _rows(p) == [("get_user", "analysed"), ("list_users", "analysed")], name


def test_a_table_filled_by_object_assign_blocks_dispatches_every_block_s_entries():
    """`const registry = {}; Object.assign(registry, { a: ... }); if (enabled) Object.assign(registry, { b: ... });
    return registry;` made by a function, then `toolRegistry[name](args)`: each block's entries are dispatches."""
    files = {
        "src/index.ts": SDK + '''
const TOOLS = [
  { name: "search", description: "Search.", inputSchema: { type: "object" } },
  { name: "create_file", description: "Create.", inputSchema: { type: "object" } },
];
async function handleSearch(args: any) { return { content: [] }; }
async function handleCreate(args: any) { return { content: [] }; }
function createToolRegistry() {
  const registry: Record<string, (args: any) => Promise<any>> = {};
  Object.assign(registry, { search: (args: any) => handleSearch(args) });
  if (process.env.WRITE !== "false") {
    Object.assign(registry, { create_file: (args: any) => handleCreate(args) });
  }
  return registry;
}
const toolRegistry = createToolRegistry();
const server = new Server({ name: "w", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const handler = toolRegistry[request.params.name];
  if (!handler) throw new Error("unknown tool");
  return handler(request.params.arguments);
});
''',
        **PACKAGE}
    p = program(files)
    assert sorted((d.tool, d.form) for d in p.dispatches) == [("create_file", "table"), ("search", "table")]
    assert _rows(p) == [("create_file", "analysed"), ("search", "analysed")]


def test_a_lookup_among_tool_records_whose_handler_is_a_named_function_dispatches_to_it():
    """A minified bundle: the records name their handler by a function (`handler: hR`), the lookup compares the name
    destructured in the function around the `find` callback, and the top level declares a `t` of its own that is no
    tool name (`var t = 3`)."""
    code = SDK + '''
var t = 3;
function hR(a) { return { content: [{ type: "text", text: String(a) }] }; }
function hS(a) { return { content: [{ type: "text", text: String(a) }] }; }
var qA = [{ name: "read_rows", description: "Read", inputSchema: { type: "object", properties: {} }, handler: hR }],
  qB = [{ name: "scan_rows", description: "Scan", inputSchema: { type: "object", properties: {} }, handler: hS }];
var all = [...qA, ...qB],
  run = async (e) => {
    let { name: t, arguments: r } = e.params;
    let n = all.find((a) => a.name === t);
    if (!n) throw new Error(`Unknown tool: ${t}`);
    return await n.handler(r);
  };
const server = new Server({ name: "d", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: all.map((e) => ({ name: e.name, description: e.description, inputSchema: e.inputSchema })) }));
server.setRequestHandler(CallToolRequestSchema, async (e) => { let r = await run(e); return r; });
await server.connect(new StdioServerTransport());
'''
    p = program({**PACKAGE, "src/index.ts": code})
    assert _rows(p) == [("read_rows", "analysed"), ("scan_rows", "analysed")]
    assert {d.tool: d.target_name for d in p.dispatches} == {"read_rows": "read_rows.handler", "scan_rows": "scan_rows.handler"}


def test_a_default_branch_that_hands_the_name_on_serves_the_tools_with_no_case():
    """`default: result = await callRemote(name, args)`: the listed tools without a case of their own are forwarded
    there, and implemented by that function; a default that refuses (`throw`) implements none."""
    code = SDK + '''
const TOOLS = [
  { name: "whoami", description: "Who", inputSchema: { type: "object", properties: {} } },
  { name: "post_note", description: "Post", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
  { name: "list_notes", description: "List", inputSchema: { type: "object", properties: {} } },
];
async function callRemote(tool: string, args: any) {
  const res = await fetch(`https://notes.example/call/${tool}`, { method: "POST", body: JSON.stringify(args) });
  return await res.text();
}
const server = new Server({ name: "n", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  let result;
  switch (name) {
    case "whoami":
      result = "me";
      break;
    default:
      result = await callRemote(name, args);
  }
  return { content: [{ type: "text", text: result }] };
});
await server.connect(new StdioServerTransport());
'''
    p = program({**PACKAGE, "src/index.ts": code})
    rows = {t["name"]: (t["status"], t["dispatch"], t["implementation"]) for t in coverage.ledger(p)["tools"]}
    assert rows["post_note"] == ("analysed", "forwarded", "callRemote")
    assert rows["list_notes"] == ("analysed", "forwarded", "callRemote")
    refused = code.replace("      result = await callRemote(name, args);", "      throw new Error(`Unknown tool ${name}`);")
    p = program({**PACKAGE, "src/index.ts": refused})
    rows = {t["name"]: t["status"] for t in coverage.ledger(p)["tools"]}
    assert rows["post_note"] == "partially analysed"


def test_a_case_that_declares_a_local_of_the_subjects_name_leaves_the_switch_a_dispatch():
    """`const toolName = request.params.name; switch (toolName) { ... case "log_event": { const { toolName } =
    args; ... } }`: the case's own `toolName` (an input field) is not the one the switch tests."""
    code = SDK + '''
const server = new Server({ name: "k", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "start", description: "Start", inputSchema: { type: "object", properties: {} } },
  { name: "log_event", description: "Log", inputSchema: { type: "object", properties: { toolName: { type: "string" } } } },
] }));
function start() { return { content: [] }; }
function logEvent(tool: string) { return { content: [{ type: "text", text: tool }] }; }
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const toolName = request.params.name;
  const args: any = request.params.arguments;
  switch (toolName) {
    case "start": {
      return start();
    }
    case "log_event": {
      const { toolName } = args;
      return logEvent(toolName);
    }
    default:
      throw new Error(`Unknown tool: ${toolName}`);
  }
});
await server.connect(new StdioServerTransport());
'''
    p = program({**PACKAGE, "src/index.ts": code})
    assert _rows(p) == [("log_event", "analysed"), ("start", "analysed")]


# CommonJS: a record whose values are modules required one by one, listed through a template that spreads each
# module's descriptor (`{ ...t.definition, annotations }`) and looked up by name.
REQUIRED_RECORD = {
    "tools/start.js": '''
const definition = { name: "start", description: "Start", inputSchema: { type: "object", properties: { who: { type: "string" } } } };
async function handler(args) { return { content: [{ type: "text", text: "hi" }] }; }
module.exports = { definition, handler };
''',
    "tools/stop.js": '''
const definition = { name: "stop", description: "Stop", inputSchema: { type: "object", properties: {} } };
async function handler(args) { return { content: [] }; }
module.exports = { definition, handler };
''',
    "index.js": '''
const { Server } = require("@modelcontextprotocol/sdk/server/index.js");
const { CallToolRequestSchema, ListToolsRequestSchema } = require("@modelcontextprotocol/sdk/types.js");
const tools = {
  start: require("./tools/start"),
  stop: require("./tools/stop"),
};
const HINTS = { stop: { destructiveHint: true } };
const server = new Server({ name: "r", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: Object.values(tools).map((t) => ({ ...t.definition, annotations: HINTS[t.definition.name] || {} })),
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = tools[request.params.name];
  if (!tool) throw new Error("unknown tool");
  return tool.handler(request.params.arguments);
});
''',
    "package.json": '{"name": "r", "version": "1.0.0", "main": "index.js"}'}


def test_a_record_of_required_modules_is_that_record_and_its_spread_descriptors_are_listed():
    """`const tools = { start: require("./tools/start"), ... }` binds no module to `tools` (only a declarator whose
    value is the require() does); the template's `...t.definition` lists each module's descriptor."""
    p = program(REQUIRED_RECORD)
    assert _rows(p) == [("start", "analysed"), ("stop", "analysed")]


# The tools/call handler hands the name to a function the server's factory receives as a parameter; that function
# serves one tool by name and every other tool of its list through one generic call, after a predicate of the
# boundary refused names that are not a listed tool's.
LANTERNS = {**PACKAGE,
            "src/tools.ts": '''
export const allTools = [
  { name: "light", description: "Light a lantern", inputSchema: { type: "object", properties: { id: { type: "string" } } } },
  { name: "douse", description: "Douse a lantern", inputSchema: { type: "object", properties: { id: { type: "string" } } } },
];
export function toolExists(name: string) {
  return allTools.some((t) => t.name === name);
}
''',
            "src/index.ts": SDK + '''
import { allTools, toolExists } from "./tools.js";
const bridge = { invoke: async (name: string, args: any) => ({ name, args }) };
async function execute(name: string, args: any) {
  if (name === "status") return { content: [{ type: "text", text: "ok" }] };
  if (!toolExists(name)) throw new Error(`Unknown tool: ${name}`);
  return { content: [{ type: "text", text: JSON.stringify(await bridge.invoke(name, args)) }] };
}
function createServer(handle: (name: string, args: any) => Promise<any>) {
  const server = new Server({ name: "lanterns", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: "status", description: "Status", inputSchema: { type: "object", properties: {} } }, ...allTools],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    return await handle(name, args || {});
  });
  return server;
}
await createServer(execute).connect(new StdioServerTransport());
'''}


def test_a_function_handed_to_the_servers_factory_and_a_membership_predicate_that_refuses_dispatch_every_tool():
    p = program(LANTERNS)
    ledger = coverage.ledger(p)
    assert sorted((t["name"], t["status"], t["dispatch"]) for t in ledger["tools"]) == [
        ("douse", "analysed", "lookup"), ("light", "analysed", "lookup"), ("status", "analysed", "name-equality")]
    assert ledger["complete"]
    # A predicate that tests something else of the name (its length) refuses nothing a list decides: no dispatch.
    other = dict(LANTERNS, **{"src/tools.ts": LANTERNS["src/tools.ts"].replace(
        "allTools.some((t) => t.name === name)", "name.length > 0")})
    assert [r for r in _rows(program(other)) if r[0] != "status"] == [
        ("douse", "partially analysed"), ("light", "partially analysed")]
