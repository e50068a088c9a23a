"""tools/call dispatch in four more shapes: a guard whose branch does not always leave (its `return` is inside a
`catch`), a comparison with a name that may be one of several constants, a method of the handler's own class named by
the tool's name (`this[name](args)`), and a server with no SDK whose request params are destructured first."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import SDK, line_of, program


def _rows(code: str) -> dict[str, dict]:
    return {t["name"]: t for t in coverage.ledger(program({"index.ts": code}))["tools"]}


def test_a_membership_test_whose_branch_may_go_on_lets_every_name_through():
    # `if (!SKIP.includes(name)) { try { await check() } catch (e) { return ... } }`: a name outside SKIP goes on to
    # the switch when the check passes, so `search` is dispatched (with `return` anywhere in the branch it was not).
    def code(body: str) -> str:
        return SDK + (
            'const server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });\n'
            'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
            '  { name: "search", description: "Search", inputSchema: { type: "object", properties: {} } },\n'
            '  { name: "pick", description: "Pick", inputSchema: { type: "object", properties: {} } }] }));\n'
            'async function check() { if (Math.random() > 2) throw new Error("no"); }\n'
            'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
            '  const { name } = request.params;\n'
            '  const skip = ["pick"];\n'
            '  if (!skip.includes(name)) {\n' + body + '  }\n'
            '  switch (name) {\n'
            '    case "search": return { content: [] };\n'
            '    case "pick": return { content: [] };\n'
            '    default: throw new Error("unknown");\n'
            '  }\n'
            '});\n')
    rows = _rows(code('    try { await check(); } catch (e) { return { content: [], isError: true }; }\n'))
    assert {n: r["status"] for n, r in rows.items()} == {"search": "analysed", "pick": "analysed"}
    # A branch that always leaves does refuse every other name: `search`'s case is then out of reach
    rows = _rows(code('    return { content: [], isError: true };\n'))
    assert rows["search"]["dispatch"] is None


def test_a_name_compared_with_a_member_of_one_of_two_records_dispatches_each_name_it_may_be():
    code = SDK + (
        'const PLAIN = { searchName: "search_docs", readName: "read_url" };\n'
        'const SHORT = { searchName: "search", readName: "fetch" };\n'
        'export function make(client: string) {\n'
        '  const names = client === "short" ? SHORT : PLAIN;\n'
        '  const server = new Server({ name: "d", version: "1" }, { capabilities: { tools: {} } });\n'
        '  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
        '    { name: names.searchName, description: "Search", inputSchema: { type: "object", properties: {} } },\n'
        '    { name: names.readName, description: "Read", inputSchema: { type: "object", properties: {} } }] }));\n'
        '  server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
        '    if (request.params.name === names.searchName) return doSearch(request.params.arguments);\n'
        '    if (request.params.name === names.readName) return doRead(request.params.arguments);\n'
        '    throw new Error("unknown");\n'
        '  });\n'
        '  return server;\n'
        '}\n'
        'async function doSearch(a: any) { return { content: [] }; }\n'
        'async function doRead(a: any) { return { content: [] }; }\n'
        'make(process.argv[2] ?? "");\n')
    rows = _rows(code)
    assert {n: r["implementation"] for n, r in rows.items()} == {
        "search_docs": "doSearch", "search": "doSearch", "read_url": "doRead", "fetch": "doRead"}


CLASS_SERVER = SDK + '''
class Notes {
  private notes: string[] = [];
  private server = new Server({ name: "notes", version: "1" }, { capabilities: { tools: {} } });

  constructor() {
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
      { name: "add_note", description: "Add", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
      { name: "count_notes", description: "Count", inputSchema: { type: "object", properties: {} } },
    ] }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const { name, arguments: args } = request.params;
      let method = name;
      if (name.startsWith("notes_")) method = name.slice(6);
      if (!this[method]) {
        throw new Error(`Unknown tool: ${name}`);
      }
      return await this[method](args || {});
    });
  }

  async add_note(args: any) {
    this.notes.push(args.text);
    return { content: [] };
  }

  async count_notes() {
    return { content: [{ type: "text", text: String(this.notes.length) }] };
  }

  async start() {
    await this.server.connect(new StdioServerTransport());
  }
}
new Notes().start();
'''


def test_a_tool_name_naming_a_method_of_the_handlers_own_class_dispatches_to_it():
    p = program({"index.ts": CLASS_SERVER})
    got = {d.tool: (d.form, d.target_name, d.target.start_point[0] + 1) for d in p.dispatches}
    assert got == {"add_note": ("method", "Notes.add_note", line_of(CLASS_SERVER, "async add_note(")),
                   "count_notes": ("method", "Notes.count_notes", line_of(CLASS_SERVER, "async count_notes("))}
    assert [f.node.start_point[0] + 1 for f in p.fallbacks] == [line_of(CLASS_SERVER, "if (!this[method])")]
    assert coverage.ledger(p)["complete"]
    # Its methods that are no listed tool (`start`) are not tools
    assert sorted(t["name"] for t in coverage.ledger(p)["tools"]) == ["add_note", "count_notes"]


PROTOCOL_SERVER = '''
import * as readline from "node:readline";

class Tally {
  count = 0;

  bump(args: any) {
    this.count += Number(args.by);
    return { count: this.count };
  }

  async handle(request: any) {
    const { id, method, params } = request;
    let result: any;
    if (method === "tools/list") {
      result = { tools: [{ name: "bump", description: "Bump", inputSchema: { type: "object", properties: {} } }] };
    } else if (method === "tools/call") {
      const { name, arguments: args } = params || {};
      if (name === "bump") {
        result = { content: [{ type: "text", text: JSON.stringify(this.bump(args || {})) }] };
      } else {
        throw new Error("Unknown tool");
      }
    }
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result }) + "\\n");
  }
}

const tally = new Tally();
readline.createInterface({ input: process.stdin }).on("line", (line) => tally.handle(JSON.parse(line)));
'''


def test_a_protocol_servers_params_destructured_from_the_request_name_the_tool():
    p = program({"index.ts": PROTOCOL_SERVER})
    assert [(h.method, h.node.start_point[0] + 1) for h in p.handlers if h.method == "tools/call"] == [
        ("tools/call", line_of(PROTOCOL_SERVER, '} else if (method === "tools/call")'))]
    assert [(d.tool, d.form) for d in p.dispatches] == [("bump", "name-equality")]


FIELD_HANDLER = SDK + '''
class Shop {
  server = new Server({ name: "shop", version: "1" }, { capabilities: { tools: {} } });

  setup() {
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
      { name: "list_items", description: "List", inputSchema: { type: "object", properties: {} } },
    ] }));
    this.handleCall = async (request) => {
      switch (request.params.name) {
        case "list_items": return { content: [] };
        default: throw new Error("unknown tool");
      }
    };
    this.server.setRequestHandler(CallToolRequestSchema, this.handleCall);
  }
}
new Shop().setup();
'''


def test_a_handler_a_method_of_the_class_assigns_to_a_field_is_that_function():
    for code in (FIELD_HANDLER,  # the field given an arrow function in a method, or a method bound to the instance
                 FIELD_HANDLER.replace("this.handleCall = async (request) => {", "}\n  async handleCall(request) {")
                 .replace("    };\n    this.server.setRequestHandler(CallToolRequestSchema, this.handleCall);\n  }\n",
                          "  }\n  wire() { this.server.setRequestHandler(CallToolRequestSchema, this.handleCall.bind(this)); }\n")):
        p = program({"index.ts": code})
        assert [(d.tool, d.form) for d in p.dispatches] == [("list_items", "switch-case")], code
        assert coverage.ledger(p)["complete"]


HUB = SDK + '''
class Hub {
  #tools = [];
  server = new Server({ name: "h", version: "1" }, { capabilities: { tools: {} } });
  constructor() {
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: this.#tools.map((t) => ({ name: t.name, description: t.description, inputSchema: { type: "object" } })) }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = this.#tools.find((t) => t.name === request.params.name);
      if (!tool) throw new Error("unknown tool");
      return tool.execute(request.params.arguments);
    });
  }
  addTool(tool) { this.#tools.push(tool); }
}
const hub = process.env.HUB_AUTH ? new Hub({ auth: true }) : new Hub();
hub.addTool({ name: "alpha", description: "A", execute: async () => ({ content: [] }) });
'''


def test_an_instance_made_in_either_branch_of_a_conditional_calls_its_classs_method():
    # `const hub = auth ? new Hub({...}) : new Hub()`: hub.addTool is Hub's addTool either way, so the tool it installs
    # into the registry is listed and dispatched
    p = program({"index.js": HUB, "package.json": '{"name": "s", "type": "module", "main": "index.js"}'})
    assert sorted(t.name for t in p.tools) == ["alpha"]
    assert [(d.tool, d.form) for d in p.dispatches] == [("alpha", "registry")]
    assert coverage.ledger(p)["complete"]


def test_a_tables_entries_spread_in_under_a_condition_are_dispatched():
    code = SDK + (
        'const server = new Server({ name: "t", version: "1" }, { capabilities: { tools: {} } });\n'
        'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
        '  { name: "echo", description: "Echo", inputSchema: { type: "object", properties: {} } },\n'
        '  { name: "plan", description: "Plan", inputSchema: { type: "object", properties: {} } }] }));\n'
        'const base = { echo: async (a: any) => ({ content: [] }) };\n'
        'async function runPlan(a: any) { return { content: [] }; }\n'
        'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
        '  const handlers: any = { ...base, ...(process.env.PLANS ? { plan: runPlan } : {}) };\n'
        '  const handler = handlers[request.params.name];\n'
        '  if (!handler) throw new Error("unknown tool");\n'
        '  return handler(request.params.arguments);\n'
        '});\n')
    rows = _rows(code)
    assert {n: (r["dispatch"], r["implementation"]) for n, r in rows.items()} == {
        "echo": ("table", "base.echo"), "plan": ("table", "runPlan")}


def test_a_tool_object_merged_by_object_assign_has_the_members_of_its_last_source():
    # `Object.assign(Object.assign({}, line), { name, run })`, as tsc writes `{ ...line, name, run }`: area's own run
    code = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'const server = new McpServer({ name: "charts", version: "1.0.0" });\n'
            'const line = { name: "line_chart", description: "Line", run: async function drawLine() { return { content: [] }; } };\n'
            'const area = Object.assign(Object.assign({}, line), { name: "area_chart",\n'
            '  run: async function drawArea() { return { content: [] }; } });\n'
            'for (const t of [line, area]) server.tool(t.name, t.description, t.run);\n')
    p = program({"index.js": code, "package.json": '{"name": "c", "type": "module", "main": "index.js"}'})
    rows = {t["name"]: t for t in coverage.ledger(p)["tools"]}
    assert {n: r["status"] for n, r in rows.items()} == {"line_chart": "analysed", "area_chart": "analysed"}
    assert {d.tool: d.target.start_point[0] + 1 for d in p.dispatches} == {"line_chart": 3, "area_chart": 5}


def test_a_lookup_before_a_switch_that_refuses_what_it_does_not_name_is_no_generic_implementation():
    # `validate(request)` finds the tool among the listed ones and refuses a name it does not find; the switch after it
    # names two of the three tools and throws for any other: `stamp` is listed but refused, not implemented by validate
    code = SDK + (
        'const server = new Server({ name: "t", version: "1" }, { capabilities: { tools: {} } });\n'
        'const TOOLS = [\n'
        '  { name: "echo", description: "Echo", inputSchema: { type: "object", properties: {} } },\n'
        '  { name: "ping", description: "Ping", inputSchema: { type: "object", properties: {} } },\n'
        '  { name: "stamp", description: "Stamp", inputSchema: { type: "object", properties: {} } }];\n'
        'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));\n'
        'function validate(request: any) {\n'
        '  const tool = TOOLS.find((t) => t.name === request.params.name);\n'
        '  if (!tool) throw new Error("unknown tool");\n'
        '  return tool;\n'
        '}\n'
        'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
        '  validate(request);\n'
        '  switch (request.params.name) {\n'
        '    case "echo": return { content: [] };\n'
        '    case "ping": return { content: [] };\n'
        '    default: throw new Error("unknown tool");\n'
        '  }\n'
        '});\n')
    rows = _rows(code)
    assert {n: r["dispatch"] for n, r in rows.items()} == {"echo": "switch-case", "ping": "switch-case",
                                                           "stamp": "fallback"}  # (analyse/unserved.py)
    # With no switch after it, what follows the lookup is one code for every tool found
    generic = code.replace('  switch (request.params.name) {\n    case "echo": return { content: [] };\n'
                           '    case "ping": return { content: [] };\n    default: throw new Error("unknown tool");\n  }\n',
                           '  return { content: [] };\n')
    assert {r["dispatch"] for r in _rows(generic).values()} == {"lookup"}


def test_a_delegates_switch_of_some_tools_leaves_the_rest_to_the_generic_code():
    # the handler finds the tool and refuses a name it does not find; custom tools go to a switch of a function of their
    # own (whose default throws), every other tool to one generic call: those are implemented by the lookup's code
    code = SDK + (
        'const server = new Server({ name: "t", version: "1" }, { capabilities: { tools: {} } });\n'
        'const TOOLS = [\n'
        '  { name: "deploy", custom: true, description: "Deploy", inputSchema: { type: "object", properties: {} } },\n'
        '  { name: "list_domains", description: "List", inputSchema: { type: "object", properties: {} } }];\n'
        'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));\n'
        'async function runCustom(tool: any, args: any) {\n'
        '  switch (tool.name) {\n'
        '    case "deploy": return { content: [] };\n'
        '    default: throw new Error("unknown custom tool");\n'
        '  }\n'
        '}\n'
        'async function callApi(tool: any, args: any) { return { content: [{ type: "text", text: tool.name }] }; }\n'
        'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
        '  const tool = TOOLS.find((t) => t.name === request.params.name);\n'
        '  if (!tool) throw new Error("unknown tool");\n'
        '  if (tool.custom) return runCustom(tool, request.params.arguments);\n'
        '  return callApi(tool, request.params.arguments);\n'
        '});\n')
    rows = _rows(code)
    assert rows["list_domains"]["status"] == "analysed" and rows["list_domains"]["dispatch"] == "lookup"


def test_a_lookup_by_the_name_a_tool_class_s_method_returns_dispatches_to_its_class_s_method():
    # `this.tools.find((t) => t.schema().name === name)` over `new AddTool()`, ...: each class whose `schema()` returns
    # the descriptor is the tool's holder, and the method called on the found tool (`tool.run(args)`) is its code
    code = SDK + (
        'class AddTool {\n'
        '  schema() { return { name: "add", description: "Add", inputSchema: { type: "object", properties: {} } }; }\n'
        '  async run(args: any) { return { content: [{ type: "text", text: "added" }] }; }\n'
        '}\n'
        'class DropTool {\n'
        '  schema() { return { name: "drop", description: "Drop", inputSchema: { type: "object", properties: {} } }; }\n'
        '  async run(args: any) { return { content: [{ type: "text", text: "dropped" }] }; }\n'
        '}\n'
        'class Host {\n'
        '  tools: any[];\n'
        '  server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });\n'
        '  constructor(tools: any[]) { this.tools = tools; }\n'
        '  start() {\n'
        '    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: this.tools.map((t) => t.schema()) }));\n'
        '    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
        '      const tool = this.tools.find((t) => t.schema().name === request.params.name);\n'
        '      if (!tool) throw new Error("unknown tool");\n'
        '      return tool.run(request.params.arguments);\n'
        '    });\n'
        '  }\n'
        '}\n'
        'new Host([new AddTool(), new DropTool()]).start();\n')
    rows = _rows(code)
    assert {n: r["status"] for n, r in rows.items()} == {"add": "analysed", "drop": "analysed"}
    assert rows["add"]["dispatch"] is not None


def test_a_lookup_function_and_a_runner_handed_the_found_tool_dispatch_to_its_handler_and_check_on_its_path():
    # `const tool = findTool(name)`, findTool returning `TOOLS.find((t) => t.name === n)`, then `run(tool, args)` which
    # parses the input with the tool's own schema before `t.handler(parsed.data)`: each tool object's handler is its
    # code, the runner is on its path, and its parse checks the input; without the parse, the fields are flagged
    from auditor.analyse import mismatches
    tools = ('import { z } from "zod";\nimport { readFileSync } from "node:fs";\n'
             'export const readTool = {\n  name: "read_note",\n  description: "Read a note",\n'
             '  inputSchema: z.object({ path: z.string(), limit: z.number().optional() }),\n'
             '  handler: async (input: any) => readFileSync(input.path, "utf8").slice(0, input.limit),\n};\n'
             'export const TOOLS = [readTool];\n'
             'export function findTool(n: string) {\n  return TOOLS.find((t) => t.name === n);\n}\n')
    run = ('export async function run(t: any, raw: any) {\n'
           '  const parsed = t.inputSchema.safeParse(raw);\n'
           '  if (!parsed.success) return { ok: false };\n'
           '  return { ok: true, data: await t.handler(parsed.data) };\n}\n')
    index = SDK + (
        'import { zodToJsonSchema } from "zod-to-json-schema";\nimport { TOOLS, findTool } from "./tools.js";\n'
        'import { run } from "./run.js";\n'
        'const server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });\n'
        'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS.map((t) => ({ name: t.name, '
        'description: t.description, inputSchema: zodToJsonSchema(t.inputSchema) })) }));\n'
        'server.setRequestHandler(CallToolRequestSchema, async (req) => {\n'
        '  const tool = findTool(req.params.name);\n'
        '  if (!tool) return { isError: true, content: [] };\n'
        '  const result = await run(tool, req.params.arguments ?? {});\n'
        '  return { content: [{ type: "text", text: JSON.stringify(result) }] };\n});\n')

    def audited(runner: str):
        p = program({"index.ts": index, "tools.ts": tools, "run.ts": runner})
        rows = {t["name"]: t for t in coverage.ledger(p)["tools"]}
        return rows, {f.attrs["field"]: f.kind for f in mismatches.mismatches(p, {"probes": []})
                      if f.kind in {"schema-unenforced", "unchecked-optional"}}

    rows, flagged = audited(run)
    assert rows["read_note"]["status"] == "analysed" and rows["read_note"]["implementation"] == "read_note.handler"
    assert flagged == {}
    unchecked = run.replace('  const parsed = t.inputSchema.safeParse(raw);\n  if (!parsed.success) return { ok: false };\n',
                            '  const parsed = { data: raw };\n')
    rows, flagged = audited(unchecked)
    assert rows["read_note"]["status"] == "analysed"
    assert flagged == {"path": "schema-unenforced", "limit": "unchecked-optional"}


def test_a_table_merged_by_object_assign_dispatches_the_entries_of_each_source():
    # `const ALL = Object.assign({}, aHandlers, bHandlers)`, or made by `createRegistry(a, b)` returning
    # `Object.assign({}, ...registries)`: `ALL[name]` runs the entry of whichever source holds the name
    head = ('const aHandlers = { a_one: async (args: any) => ({ content: [] }) };\n'
            'const bHandlers = { b_one: async (args: any) => ({ content: [] }) };\n')
    tail = ('const server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });\n'
            'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
            '  { name: "a_one", description: "A", inputSchema: { type: "object", properties: {} } },\n'
            '  { name: "b_one", description: "B", inputSchema: { type: "object", properties: {} } }] }));\n'
            'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
            '  const { name, arguments: args } = request.params;\n  const handler = ALL[name];\n'
            '  if (!handler) return { content: [], isError: true };\n  return await handler(args);\n});\n')
    for make in ('const ALL = Object.assign({}, aHandlers, bHandlers);\n',
                 'function createRegistry(...registries: any[]) {\n  return Object.assign({}, ...registries);\n}\n'
                 'const ALL = createRegistry(aHandlers, bHandlers);\n'):
        rows = _rows(SDK + head + make + tail)
        assert {n: (r["status"], r["implementation"]) for n, r in rows.items()} == {
            "a_one": ("analysed", "aHandlers.a_one"), "b_one": ("analysed", "bHandlers.b_one")}


def test_a_gate_s_membership_test_enforces_the_enum_and_an_empty_string_outside_it_is_no_conforming_input():
    # the validator a handler calls first (`const input = validateInput(args)`, returning the fields it checked): `if
    # (!KINDS.includes(obj.kind)) throw` lets only the list's values on, so the enum (and the type) are enforced; a
    # falsy guard that rejects "" says so of an input the enum excludes anyway
    from auditor.analyse import mismatches
    code = SDK + (
        'const KINDS = ["node", "php"];\n'
        'class CheckError extends Error {}\n'
        'function validateInput(input: any) {\n'
        '  if (!input || typeof input !== "object") throw new CheckError("Input must be an object");\n  const obj = input;\n'
        '  if (!obj.kind || typeof obj.kind !== "string") {\n    throw new CheckError("kind is required and must be a string");\n  }\n'
        '  if (!KINDS.includes(obj.kind)) {\n    throw new CheckError("bad kind");\n  }\n'
        '  return { kind: obj.kind, note: obj.note };\n}\n'
        'async function handleScaffold(args: any) {\n  const input = validateInput(args);\n'
        '  return { content: [{ type: "text", text: input.kind + input.note }] };\n}\n'
        'const server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });\n'
        'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
        '  { name: "scaffold", description: "Scaffold", inputSchema: { type: "object", properties: {\n'
        '      kind: { type: "string", enum: ["node", "php"] }, note: { type: "string" } }, required: ["kind"] } }] }));\n'
        'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
        '  switch (request.params.name) {\n    case "scaffold": return handleScaffold(request.params.arguments);\n  }\n'
        '  throw new Error("unknown tool");\n});\n')
    found = {(f.kind, f.attrs.get("field")): f for f in mismatches.mismatches(program({"index.ts": code}), {"probes": []})}
    assert ("schema-unenforced", "kind") not in found and ("unchecked-optional", "note") in found
    assert found[("false-diagnostic", "kind")].attrs["schema_conforming"] is False


def test_a_test_of_the_requested_tool_s_name_checks_no_input_field_of_that_name():
    # `const { name, arguments: args } = request.params; if (!allowed.has(name)) throw`: the handler rejects a tool
    # not enabled, not a bad `args.name`, which `create` passes on unchecked (and keeps); a test of `args.name` itself
    # checks it
    from auditor.analyse import mismatches

    def code(test: str) -> str:
        return SDK + (
            'const allowed = new Set(["create"]);\nconst made: any[] = [];\n'
            'function make(n: any) { made.push(n); return { content: [{ type: "text", text: String(n) }] }; }\n'
            'const server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });\n'
            'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
            '  { name: "create", description: "Create", inputSchema: { type: "object", properties: {\n'
            '      name: { type: "string" } }, required: ["name"] } }] }));\n'
            'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
            '  const { name, arguments: args } = request.params;\n'
            f'  if ({test}) throw new Error("no");\n'
            '  switch (name) {\n    case "create": return make(args?.name);\n  }\n'
            '  throw new Error("unknown tool");\n});\n')

    def flagged(test: str) -> set:
        return {(f.kind, f.attrs.get("field")) for f in mismatches.mismatches(program({"index.ts": code(test)}), {"probes": []})
                if f.attrs.get("tool") == "create"}

    assert ("schema-unenforced", "name") in flagged("!allowed.has(name)")
    assert ("schema-unenforced", "name") in flagged("typeof name !== \"string\"")
    assert not flagged("typeof args?.name !== \"string\"")


def test_a_table_built_from_another_table_s_entries_dispatches_its_entries():
    # `const CALLS = Object.entries(DEFS).filter(...).reduce((acc, [key, value]) => { acc[key] = { run: value.run };
    # return acc; }, {})`, or `Object.fromEntries(Object.entries(DEFS).map(([k, v]) => [k, { run: v.run }]))`: the
    # same keys, each entry made of DEFS's; `CALLS[name].run(args)` runs the entry's function
    head = ('const DEFS = {\n'
            '  list_items: { description: "List", run: async (a: any) => ({ content: [] }), write: false },\n'
            '  drop_item: { description: "Drop", run: async (a: any) => ({ content: [] }), write: true },\n};\n')
    tail = ('const server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });\n'
            'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: Object.entries(DEFS).map(([k, v]) =>\n'
            '  ({ name: k, description: v.description, inputSchema: { type: "object", properties: {} } })) }));\n'
            'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
            '  const tool = CALLS[request.params.name];\n  if (!tool) throw new Error("unknown tool");\n'
            '  return await tool.run(request.params.arguments);\n});\n')
    for make in ('const CALLS = Object.entries(DEFS).filter(([, v]) => !v.write || true)\n'
                 '  .reduce((acc: any, [key, value]) => {\n    acc[key] = { run: value.run };\n    return acc;\n  }, {});\n',
                 'const CALLS = Object.fromEntries(Object.entries(DEFS).map(([k, v]) => [k, { run: v.run }]));\n'):
        rows = _rows(SDK + head + make + tail)
        assert {n: (r["status"], r["implementation"]) for n, r in rows.items()} == {
            "list_items": ("analysed", "list_items.run"), "drop_item": ("analysed", "drop_item.run")}, make
    # a reduce that stores under another key than the entry's own is no such table
    rows = _rows(SDK + head + 'const CALLS = Object.entries(DEFS).reduce((acc: any, [key, value]) => {\n'
                 '  acc["x_" + key] = value;\n  return acc;\n}, {});\n' + tail)
    assert all(r["status"] != "analysed" for r in rows.values())


def test_a_table_of_data_whose_found_entry_gates_a_returning_branch_dispatches_each_key_there():
    # `const route = ROUTES[request.params.name]; if (route) { const r = await callRoute(args, route); return ... }`:
    # ROUTES holds data, not functions; each key is served by that branch, whose call implements it
    code = SDK + (
        'const ROUTES = {\n  list_items: { method: "GET", path: "/items" },\n  drop_item: { method: "DELETE", path: "/item" },\n};\n'
        'async function callRoute(args: any, route: any) { return fetch(route.path + "?q=" + args.q, { method: route.method }); }\n'
        'const server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });\n'
        'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
        '  { name: "list_items", description: "List", inputSchema: { type: "object", properties: { q: { type: "string" } } } },\n'
        '  { name: "drop_item", description: "Drop", inputSchema: { type: "object", properties: { q: { type: "string" } } } },\n'
        '  { name: "ping", description: "Ping", inputSchema: { type: "object", properties: {} } }] }));\n'
        'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
        '  const args: any = request.params.arguments;\n'
        '  if (request.params.name === "ping") return { content: [{ type: "text", text: "pong" }] };\n'
        '  const route = ROUTES[request.params.name];\n'
        '  if (route) {\n    const r = await callRoute(args, route);\n'
        '    return { content: [{ type: "text", text: JSON.stringify(r) }] };\n  }\n'
        '  throw new Error("unknown tool");\n});\n')
    rows = _rows(code)
    assert {n: (r["status"], r["implementation"]) for n, r in rows.items()} == {
        "list_items": ("analysed", "callRoute"), "drop_item": ("analysed", "callRoute"), "ping": ("analysed", "inline in the handler")}
    # a branch that does not return (`if (limit) note(limit)`, then on to the real dispatch) serves no key
    rows = _rows(code.replace("    return { content: [{ type: \"text\", text: JSON.stringify(r) }] };\n", ""))
    assert rows["list_items"]["status"] != "analysed"


def test_a_lookup_in_a_map_the_program_keys_by_tool_names_dispatches_each_tool():
    # `tools.set(t.name, t)` for each tool a function gives, then `const tool = tools.get(request.params.name)`: each
    # tool's `call` member is its implementation; a Map keyed by something else than the name is no dispatch of them
    code = SDK + (
        'const server = new Server({ name: "t", version: "1" }, { capabilities: { tools: {} } });\n'
        'const TOOLS = [\n'
        '  { name: "echo", description: "Echo", inputSchema: { type: "object", properties: {} },\n'
        '    call: async (args: any) => ({ content: [{ type: "text", text: String(args.text) }] }) },\n'
        '  { name: "ping", description: "Ping", inputSchema: { type: "object", properties: {} },\n'
        '    call: async () => ({ content: [] }) }];\n'
        'function load(extra: any[]) { const out: any[] = []; for (const t of [...TOOLS, ...extra]) out.push(wrap(t));'
        ' return out; }\n'
        'function wrap(t: any) { return process.env.TRACE ? trace(t) : t; }\n'
        'const tools = new Map();\n'
        'for (const t of load(JSON.parse(process.env.EXTRA ?? "[]"))) tools.set(t.name, t);\n'
        'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: Array.from(tools.values()) }));\n'
        'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
        '  const tool = tools.get(request.params.name);\n'
        '  if (!tool) throw new Error("unknown tool");\n'
        '  return tool.call(request.params.arguments);\n'
        '});\n')
    rows = _rows(code)
    assert {n: (r["dispatch"], r["implementation"]) for n, r in rows.items()} == {
        "echo": ("lookup", "echo.call"), "ping": ("lookup", "ping.call")}
    other = _rows(code.replace("tools.set(t.name, t)", "tools.set(t.id, t)"))
    assert {r["dispatch"] for r in other.values()} == {None}
