"""Low-level tools/call dispatch in the shapes servers write besides `switch (name)` and `if (name === ...)` in the
handler: a lookup table of implementations indexed by the name, a name held in a variable of another name, and a
dispatch delegated to a function of another module through a handler wrapped twice."""

from __future__ import annotations

from auditor.analyse import coverage
from auditor.extract import routes as routes_mod
from program_helpers import SDK, line_of, program

SERVER = SDK + '''
const log: string[] = [];

async function purge(request: any) {
  log.length = 0;
  return { content: [] };
}

const HANDLERS = {
  jot: async (request: any) => {
    log.push(String(request.params.arguments?.text));
    return { content: [] };
  },
  purge,
  "count-lines": async () => ({ content: [{ type: "text", text: String(log.length) }] }),
};

const server = new Server({ name: "jar", version: "1.0.0" }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: "jot", description: "Jot", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
    { name: "purge", description: "Purge", inputSchema: { type: "object", properties: {} } },
    { name: "count-lines", description: "Count", inputSchema: { type: "object", properties: {} } },
    { name: "stamp", description: "Stamp", inputSchema: { type: "object", properties: {} } },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const toolName = request.params.name;
  if (toolName === "stamp") {
    return { content: [{ type: "text", text: new Date().toISOString() }] };
  }
  if (toolName in HANDLERS) {
    return await HANDLERS[toolName as keyof typeof HANDLERS](request);
  }
  throw new Error(`Unknown tool: ${toolName}`);
});
'''


def test_lookup_table_and_aliased_name_dispatch():
    p = program({"index.ts": SERVER, "package.json": '{"name": "jar", "version": "1.0.0"}'})
    assert len(p.dispatches) == 4  # one per tool: the shorthand entry too is read once
    got = {d.tool: (d.form, d.target_name, d.node.start_point[0] + 1) for d in p.dispatches}
    assert got == {
        "jot": ("table", "HANDLERS.jot", line_of(SERVER, "  jot: async")),
        "purge": ("table", "purge", line_of(SERVER, "  purge,")),
        "count-lines": ("table", "HANDLERS.count-lines", line_of(SERVER, '"count-lines": async')),
        "stamp": ("name-equality", None, line_of(SERVER, 'if (toolName === "stamp")')),
    }
    (fallback,) = p.fallbacks  # the throw after the last dispatch inside the handler, not a table entry
    assert fallback.node.start_point[0] + 1 == line_of(SERVER, "throw new Error(`Unknown tool")
    ledger = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in ledger["tools"]] == [
        ("count-lines", "analysed"), ("jot", "analysed"), ("purge", "analysed"), ("stamp", "analysed")]
    assert any(f.name == "HANDLERS.jot" and f.writes for f in p.flows)  # the table's functions are traced


INDEX = SDK + '''
import { handleToolCall } from "./tools.js";

function monitor<T>(handler: T, label: string): T { return handler; }
function logged<T>(label: string, handler: T): T { return handler; }

const server = new Server({ name: "split", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: "roll", description: "Roll", inputSchema: { type: "object", properties: {} } }],
}));
server.setRequestHandler(CallToolRequestSchema, logged("CallTool", monitor(async (request) => {
  return handleToolCall(request.params.name, request.params.arguments ?? {});
}, "CallTool")));
'''
TOOLS = '''
const rolls: number[] = [];

export async function handleToolCall(name: string, args: Record<string, unknown>) {
  switch (name) {
    case "roll":
      rolls.push(Math.random());
      return { content: [] };
    default:
      throw new Error(`Unknown tool: ${name}`);
  }
}
'''


def test_dispatch_delegated_to_another_module_through_nested_wrappers():
    p = program({"index.ts": INDEX, "tools.ts": TOOLS, "package.json": '{"name": "split", "version": "1.0.0"}'})
    (d,) = p.dispatches
    assert (d.tool, d.form, d.module.path, d.node.start_point[0] + 1) == ("roll", "switch-case", "tools.ts", line_of(TOOLS, 'case "roll"'))
    (fb,) = p.fallbacks
    assert (fb.module.path, fb.node.start_point[0] + 1) == ("tools.ts", line_of(TOOLS, "default:"))
    assert [(t["name"], t["status"]) for t in coverage.ledger(p)["tools"]] == [("roll", "analysed")]
    got = {r.id: [(a.path, a.start_line) for a in r.anchors] for r in routes_mod.routes(p) if r.kind in {"dispatch", "fallback"}}
    assert got == {"RTE:dispatch:tools#roll": [("index.ts", line_of(INDEX, "CallToolRequestSchema, logged")),
                                              ("tools.ts", line_of(TOOLS, 'case "roll"'))],
                   "RTE:fallback:index#tools/call": [("tools.ts", line_of(TOOLS, "default:"))]}


def test_a_table_of_data_indexed_by_the_name_is_no_dispatch():
    server = SDK + '''
import { z } from "zod";
const AddArgs = z.object({ a: z.number(), b: z.number() });
const SCHEMAS = { add: AddArgs, twice: AddArgs };
const LIMITS = { add: 10, twice: 5 };
const server = new Server({ name: "calc", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const name = request.params.name;
  const args = SCHEMAS[name as keyof typeof SCHEMAS].parse(request.params.arguments);
  if (args.a > LIMITS[name as keyof typeof LIMITS]) throw new Error("too big");
  switch (name) {
    case "add": return { content: [{ type: "text", text: String(args.a + args.b) }] };
    case "twice": return { content: [{ type: "text", text: String(2 * args.a) }] };
    default: throw new Error("unknown");
  }
});
'''
    p = program({"index.ts": server, "package.json": '{"name": "calc", "version": "1.0.0"}'})
    assert sorted((d.tool, d.form) for d in p.dispatches) == [("add", "switch-case"), ("twice", "switch-case")]


NAMED = SDK + '''
const TOOL_NAMES = { search: "company_search", chat: "chat" } as const;
const PREFIX = "kb_";
const KB_TOOL = "kb_lookup";
const server = new Server({ name: "names", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: TOOL_NAMES.search, description: "Search", inputSchema: { type: "object", properties: {} } },
    { name: TOOL_NAMES.chat, description: "Chat", inputSchema: { type: "object", properties: {} } },
    { name: KB_TOOL, description: "Look up", inputSchema: { type: "object", properties: {} } },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  switch (request.params.name) {
    case TOOL_NAMES.search:
      return { content: [{ type: "text", text: "found" }] };
    case TOOL_NAMES.chat:
      return { content: [{ type: "text", text: "said" }] };
    case KB_TOOL:
      return { content: [{ type: "text", text: PREFIX }] };
    default:
      throw new Error("unknown tool");
  }
});
'''


def test_switch_cases_named_by_constants_and_members_of_a_constant_object_dispatch_their_tools():
    """`case TOOL_NAMES.search:` and `case KB_TOOL:` name tools like literals do (the same constants the
    list uses): each tool is dispatched, nothing is unresolved."""
    p = program({"index.ts": NAMED})
    got = {d.tool: d.form for d in p.dispatches}
    assert got == {"company_search": "switch-case", "chat": "switch-case", "kb_lookup": "switch-case"}
    led = coverage.ledger(p)
    assert led["unresolved"] == [] and {t["name"]: t["dispatch"] for t in led["tools"]} == {
        "company_search": "switch-case", "chat": "switch-case", "kb_lookup": "switch-case"}


OWN_AND_DELEGATED = SDK + '''
const notes: string[] = [];

function plainText(name: string): boolean {
  if (name === "erase") return true;
  return false;
}

async function runTool(params: { name: string; arguments?: Record<string, unknown> }) {
  switch (params.name) {
    case "jot":
      notes.push(String(params.arguments?.text));
      return { content: [] };
    case "erase":
      notes.length = 0;
      return { content: [] };
    default:
      throw new Error(`Unknown tool: ${params.name}`);
  }
}

const server = new Server({ name: "pad", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: "jot", description: "Jot", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
    { name: "erase", description: "Erase", inputSchema: { type: "object", properties: {} } },
    { name: "count", description: "Count", inputSchema: { type: "object", properties: {} } },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const toolName = request.params.name;
  const plain = plainText(toolName);
  if (toolName === "count") {
    return { content: [{ type: "text", text: String(notes.length) }] };
  }
  const result = await runTool(request.params);
  return plain ? result : { ...result };
});
'''


def test_a_handler_that_dispatches_one_tool_itself_and_delegates_the_rest():
    """The handler answers `count` itself and hands `request.params` to a function that switches on `params.name`:
    both dispatches are read (expect: count name-equality, jot and erase switch-case). A helper handed only the
    name (`plainText(toolName)`) is no dispatch of the tools it compares the name with."""
    p = program({"index.ts": OWN_AND_DELEGATED})
    got = {d.tool: (d.form, d.node.start_point[0] + 1) for d in p.dispatches}
    assert got == {"count": ("name-equality", line_of(OWN_AND_DELEGATED, 'if (toolName === "count")')),
                   "jot": ("switch-case", line_of(OWN_AND_DELEGATED, 'case "jot"')),
                   "erase": ("switch-case", line_of(OWN_AND_DELEGATED, 'case "erase"'))}
    assert [f.node.start_point[0] + 1 for f in p.fallbacks] == [line_of(OWN_AND_DELEGATED, "default:")]
    assert [(t["name"], t["status"]) for t in coverage.ledger(p)["tools"]] == [
        ("count", "analysed"), ("erase", "analysed"), ("jot", "analysed")]


def test_sdk2_handlers_named_by_their_method_string():
    src = '''import { Server } from "@modelcontextprotocol/server";
const server = new Server({ name: "m", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler("tools/list", async () => ({
  tools: [{ name: "ping", description: "Ping", inputSchema: { type: "object", properties: {} } }],
}));
server.setRequestHandler("tools/call", async (request) => {
  switch (request.params.name) {
    case "ping":
      return { content: [{ type: "text", text: "pong" }] };
    default:
      throw new Error("unknown tool");
  }
});
'''
    p = program({"index.ts": src, "package.json": '{"name": "m", "version": "1.0.0", "main": "index.ts"}'})
    assert {h.method for h in p.handlers} == {"tools/list", "tools/call"}
    assert [(d.tool, d.form) for d in p.dispatches] == [("ping", "switch-case")]
    ledger = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in ledger["tools"]] == [("ping", "analysed")]
    assert ledger["unresolved"] == []


def test_a_tool_name_handed_on_through_several_functions_reaches_the_dispatch():
    src = SDK + '''
const server = new Server({ name: "m", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: "ping", description: "Ping", inputSchema: { type: "object", properties: {} } },
          { name: "echo", description: "Echo", inputSchema: { type: "object", properties: {} } }],
}));
async function execute(op: string, args: any) {
  switch (op) {
    case "ping": return { content: [{ type: "text", text: "pong" }] };
    case "echo": return { content: [{ type: "text", text: String(args.text) }] };
    default: throw new Error(`unknown tool ${op}`);
  }
}
async function checked(operation: string, args: any) { return execute(operation, args); }
async function handleCall({ request, verbose }: { request: any; verbose: boolean }) {
  const operation = request.params.name;
  if (verbose) console.error(operation);
  return checked(operation, request.params.arguments);
}
server.setRequestHandler(CallToolRequestSchema, (request) => handleCall({ request, verbose: false }));
'''
    p = program({"index.ts": src, "package.json": '{"name": "m", "version": "1.0.0", "main": "index.ts"}'})
    assert sorted((d.tool, d.form) for d in p.dispatches) == [("echo", "switch-case"), ("ping", "switch-case")]
    (fallback,) = p.fallbacks
    assert fallback.node.start_point[0] + 1 == line_of(src, "default: throw new Error(`unknown tool")
    assert [(t["name"], t["status"]) for t in coverage.ledger(p)["tools"]] == [("echo", "analysed"), ("ping", "analysed")]


RENAMED = SDK + '''const TOOLS = [{ name: "roll", inputSchema: { type: "object" } }, { name: "flip", inputSchema: { type: "object" } }];
const server = new Server({ name: "dice", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name: toolName, arguments: args } = request.params;
  switch (toolName) {
    case "roll": return { content: [{ type: "text", text: String(Math.random()) }] };
    case "flip": return { content: [] };
    default: throw new Error("unknown " + toolName);
  }
});
'''


def test_a_switch_on_the_tool_name_destructured_under_another_name():
    """`const { name: toolName } = request.params; switch (toolName)`: the renamed binding is the tool's name."""
    led = coverage.ledger(program({"index.ts": RENAMED, "package.json": '{"name": "dice", "bin": "index.ts"}'}))
    assert {(t["name"], t["dispatch"], t["status"]) for t in led["tools"]} == \
        {("roll", "switch-case", "analysed"), ("flip", "switch-case", "analysed")}
    assert led["complete"] is True


def test_a_switch_on_the_name_a_helper_or_a_string_method_normalises_dispatches():
    """`const key = canonical(name)` (a function returning its parameter or a string method of it) or
    `name.trim().toLowerCase()`, two calls down from the handler: the switch on it still dispatches the tools; a
    function that returns something else of its parameter does not."""
    from auditor.analyse import coverage
    from program_helpers import SDK, program

    def statuses(local: str) -> list:
        code = SDK + ('const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });\n'
                      'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
                      '  { name: "dc_capture", description: "c", inputSchema: { type: "object", properties: {} } } ] }));\n'
                      'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
                      '  const { name, arguments: args } = request.params;\n  return route(name, args ?? {});\n});\n'
                      'function canonical(name) {\n  return name.includes(".") ? name.replace(/\\./g, "_") : name;\n}\n'
                      'function lookupOf(name) {\n  return TABLE[name];\n}\nconst TABLE = { a: "dc_capture" };\n'
                      'async function route(name, args) {\n  try { return await inner(name, args); } finally { console.error(name); }\n}\n'
                      f'async function inner(name, args) {{\n  const key = {local};\n  switch (key) {{\n'
                      '    case "dc_capture": return { content: [{ type: "text", text: String(args) }] };\n'
                      '    default: throw new Error("unknown");\n  }\n}\n')
        return [t["status"] for t in coverage.ledger(program({"index.ts": code}))["tools"]]

    assert statuses("canonical(name)") == ["analysed"]
    assert statuses("name.trim().toLowerCase()") == ["analysed"]
    assert statuses("lookupOf(name)") == ["partially analysed"]


def test_names_that_normalise_each_other_end_without_a_recursion():
    """`var a = b.trim(), b = a.trim()` (a minifier's names may hold each other): a switch on it is read without
    following the cycle for ever, and dispatches nothing."""
    code = SDK + ('var a = b.trim(), b = a.trim();\n'
                  'const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });\n'
                  'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
                  '  switch (a) { case "x": return { content: [] }; default: throw new Error("no"); }\n});\n')
    assert program({"index.js": code}).dispatches == ()


def test_switch_cases_a_membership_guard_before_the_switch_rejects_are_no_tools():
    # `if (!valid.includes(name)) throw ...` over a constant list, then a switch keeping cases of retired names: no call
    # reaches those cases, so they are no dispatch-only tools; `echo` is listed, `ping` is valid though not listed.
    code = SDK + (
        'const server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });\n'
        'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
        '  { name: "echo", description: "Echo", inputSchema: { type: "object", properties: {} } }] }));\n'
        'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
        '  const { name } = request.params;\n'
        '  const valid = ["echo", "ping"];\n'
        '  if (!valid.includes(name)) {\n'
        '    throw new Error(`Unknown tool: ${name}`);\n'
        '  }\n'
        '  switch (name) {\n'
        '    case "echo": return { content: [] };\n'
        '    case "ping": return { content: [] };\n'
        '    case "retired_echo": return { content: [] };\n'
        '    default: throw new Error("unknown");\n'
        '  }\n'
        '});\n')
    p = program({"index.ts": code})
    assert sorted(t["name"] for t in coverage.ledger(p)["tools"]) == ["echo", "ping"]
    assert sorted(d.tool for d in p.dispatches) == ["echo", "ping"]


def test_the_return_after_a_chain_of_name_tests_dispatches_the_names_a_membership_guard_lets_through():
    # `if (!FETCHERS.has(name)) throw ...` then `if (name === "a") return ...` for all but one of the set: the last
    # return runs for that one. A name outside the set (`transcript`, tested before the guard) is not dispatched there.
    def code(guard: str) -> str:
        return SDK + (
            'const server = new Server({ name: "f", version: "1" }, { capabilities: { tools: {} } });\n'
            'const schema = { type: "object", properties: { url: { type: "string" } } };\n'
            'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
            '  { name: "fetch_html", description: "HTML", inputSchema: schema },\n'
            '  { name: "fetch_text", description: "Text", inputSchema: schema },\n'
            '  { name: "fetch_clean", description: "Readable", inputSchema: schema },\n'
            '  { name: "transcript", description: "Transcript", inputSchema: schema }] }));\n'
            'const FETCHERS = new Set(["fetch_html", "fetch_text", "fetch_clean"]);\n'
            'async function html(a) { return { content: [] }; }\n'
            'async function plain(a) { return { content: [] }; }\n'
            'async function readable(a) { return { content: [] }; }\n'
            'async function transcript(a) { return { content: [] }; }\n'
            'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
            '  const { name, arguments: args } = request.params;\n'
            '  if (name === "transcript") return transcript(args);\n'
            + guard +
            '  if (name === "fetch_html") return html(args);\n'
            '  if (name === "fetch_text") return plain(args);\n'
            '  return readable(args);\n'
            '});\n')
    guarded = code('  if (!FETCHERS.has(name)) {\n    throw new Error(`Tool not found: ${name}`);\n  }\n')
    rows = {t["name"]: t for t in coverage.ledger(program({"index.ts": guarded}))["tools"]}
    assert (rows["fetch_clean"]["dispatch"], rows["fetch_clean"]["implementation"]) == ("fall-through", "readable")
    assert rows["transcript"]["implementation"] == "transcript"
    # With no guard the last return runs for any other name: no tool's dispatch, and fetch_clean stays unread
    rows = {t["name"]: t for t in coverage.ledger(program({"index.ts": code("")}))["tools"]}
    assert rows["fetch_clean"]["dispatch"] is None
