"""Tools installed into a registry at run time (extract/registry.py), tool classes whose constructor hands their
descriptor to the base class (Values.class_member, per instance), and lists of a Map's values (extract/reach.py)."""

from __future__ import annotations

from auditor.analyse import coverage, mismatches
from auditor.extract.syntax import find, object_pairs, string_value, text
from auditor.extract.values import Values
from program_helpers import SDK, program

BASE = '''export class Base {
  constructor(schema, spec) {
    this.schema = schema;
    this.spec = spec;
  }
  async call(args) { return this.work(this.schema.parse(args)); }
}
'''
TOOLS = '''import { z } from "zod";
import { Base } from "./base.js";
const ECHO = { name: "echo", description: "Echo the text.", inputSchema: { type: "object" } };
export class Echo extends Base {
  constructor() { super(z.object({ text: z.string() }), ECHO); }
  async work(args) { return { content: [{ type: "text", text: args.text }] }; }
}
export class Clock extends Base {
  constructor(zone) { super(z.object({}), { name: "clock_" + zone, description: "Time.", inputSchema: {} }); }
  async work() { return { content: [{ type: "text", text: new Date().toISOString() }] }; }
}
export class Plain extends Base {
  async work() { return { content: [] }; }
}
'''
REGISTRY = '''const tools = new Map();
export function install(tool) {
  const key = tool.spec.name;
  tools.set(key, tool);
}
export const list = () => Array.from(tools.values()).map((t) => t.spec);
export async function run(name, args) {
  const tool = tools.get(name);
  if (!tool) throw new Error("no such tool " + name);
  return tool.call(args);
}
'''
INDEX = SDK + '''import { install, list, run } from "./registry.js";
import { Echo, Plain } from "./tools.js";
install(new Echo());
install(new Plain(null, { name: "plain", description: "Plain.", inputSchema: {} }));
const server = new Server({ name: "reg", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: list() }));
server.setRequestHandler(CallToolRequestSchema, async (request) => run(request.params.name, request.params.arguments));
await server.connect(new StdioServerTransport());
'''
MANIFEST = '{"name": "reg", "bin": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "1", "zod": "3"}}'


def _program(index: str = INDEX):
    return program({"index.js": index, "base.js": BASE, "tools.js": TOOLS, "registry.js": REGISTRY,
                    "package.json": MANIFEST})


def _name_of(values: Values, new_text: str, p) -> str | None:
    module = next(m for m in p.modules if m.path == "index.js")
    node = next(n for n in find(module.tree.root_node, {"new_expression"}) if text(n) == new_text)
    spec, where = values.member(node, module, "spec", None, 0)
    if spec is None:
        return None
    spec, where = values.definition(spec, where)
    pair = object_pairs(spec).get("name") if spec is not None and spec.type == "object" else None
    return string_value(pair.child_by_field_name("value")) if pair is not None else None


def test_a_constructor_argument_handed_to_the_base_class_is_the_field_of_each_instance():
    p = _program()
    values = Values(p.linker)
    assert _name_of(values, "new Echo()", p) == "echo"  # super(schema, ECHO): ECHO of the subclass's module
    # no constructor of its own: its arguments go to the base class as they are
    assert _name_of(values, 'new Plain(null, { name: "plain", description: "Plain.", inputSchema: {} })', p) == "plain"


def test_tools_installed_into_a_map_are_listed_and_dispatched_by_name():
    led = coverage.ledger(_program())
    tools = {t["name"]: t for t in led["tools"]}
    assert set(tools) == {"echo", "plain"}
    assert tools["echo"]["status"] == "analysed" and tools["echo"]["implementation"] == "Echo.call"
    assert tools["echo"]["dispatch"] == "registry" and tools["plain"]["implementation"] == "Plain.call"
    assert led["unresolved"] == [] and led["complete"] is True


def test_what_the_subclass_runs_is_traced_as_tool_code():
    p = _program()
    assert {"Echo.work", "Plain.work"} <= {f.name for f in p.flows}


def test_an_installed_tool_whose_name_is_not_read_leaves_the_list_unread():
    # The name of Clock's descriptor is computed at run time ("clock_" + zone): not a literal, so no dispatch is
    # invented for it, and the list it is part of is not read whole: the audit says so.
    index = INDEX.replace('install(new Echo());', 'install(new Echo());\ninstall(new Clock(process.env.ZONE));') \
        .replace('import { Echo, Plain }', 'import { Clock, Echo, Plain }')
    led = coverage.ledger(_program(index))
    assert {t["name"] for t in led["tools"]} == {"echo", "plain"}
    assert led["complete"] is False


OBJECTS = '''import { z } from "zod";
const LOOKUP = { name: "lookup", description: "Look a word up.", inputSchema: z.object({ word: z.string() }) };
export const lookupTool = {
  name: LOOKUP.name, description: LOOKUP.description, inputSchema: LOOKUP.inputSchema,
  execute: async (args) => ({ content: [{ type: "text", text: args.word }] }),
};
export const countTool = {
  name: "count", description: "Count the words.", inputSchema: z.object({}),
  async execute() { return { content: [{ type: "text", text: "0" }] }; },
};
'''
CLASS_SERVER = SDK + '''import { countTool, lookupTool } from "./objects.js";
class WordServer {
  constructor(tools) {
    this.available = [...tools];
    this.byName = {};
    this.server = new Server({ name: "words", version: "1" }, { capabilities: { tools: {} } });
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: this.enabled.map((t) => ({ name: t.name, description: t.description, inputSchema: {} })),
    }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = this.byName[request.params.name];
      if (!tool) throw new Error("unknown tool");
      return tool.execute(request.params.arguments);
    });
  }
  enable() {
    this.enabled = this.available.filter((t) => !process.env.HIDE || t.name !== process.env.HIDE);
    this.byName = this.enabled.reduce((acc, tool) => { acc[tool.name] = tool; return acc; }, {});
  }
  async run() { this.enable(); await this.server.connect(new StdioServerTransport()); }
}
new WordServer([lookupTool, countTool]).run();
'''


def test_tool_objects_gathered_by_reduce_into_a_field_are_dispatched_by_name():
    p = program({"index.js": CLASS_SERVER, "objects.js": OBJECTS, "package.json": MANIFEST})
    led = coverage.ledger(p)
    tools = {t["name"]: t for t in led["tools"]}
    assert set(tools) == {"lookup", "count"}
    assert {t["dispatch"] for t in tools.values()} == {"registry"}
    assert tools["lookup"]["implementation"] == "lookup.execute" and tools["count"]["implementation"] == "count.execute"
    assert all(t["status"].startswith("analysed") for t in tools.values())
    assert led["unresolved"] == []


FIND_SERVER = SDK + '''import { countTool, lookupTool } from "./objects.js";
const TOOLS = [lookupTool, countTool];
const server = new Server({ name: "words", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: {} })),
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = TOOLS.find((t) => t.name === request.params.name);
  if (!tool) throw new Error("unknown tool");
  return tool.execute(request.params.arguments);
});
await server.connect(new StdioServerTransport());
'''


def test_tool_objects_found_in_their_list_by_name_are_dispatched():
    led = coverage.ledger(program({"index.js": FIND_SERVER, "objects.js": OBJECTS, "package.json": MANIFEST}))
    tools = {t["name"]: t for t in led["tools"]}
    assert set(tools) == {"lookup", "count"}
    assert {(t["dispatch"], t["implementation"]) for t in tools.values()} == \
        {("registry", "lookup.execute"), ("registry", "count.execute")}
    assert led["unresolved"] == [] and led["complete"] is True


def test_registries_built_from_a_list_as_a_map_or_an_object_are_dispatched():
    map_server = FIND_SERVER.replace("const TOOLS = [lookupTool, countTool];",
                                     "const TOOLS = [lookupTool, countTool];\n"
                                     "const BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));") \
        .replace("TOOLS.find((t) => t.name === request.params.name)", "BY_NAME.get(request.params.name)")
    object_server = map_server.replace("new Map(TOOLS.map(", "Object.fromEntries(TOOLS.map(") \
        .replace("BY_NAME.get(request.params.name)", "BY_NAME[request.params.name]")
    for source in (map_server, object_server):
        led = coverage.ledger(program({"index.js": source, "objects.js": OBJECTS, "package.json": MANIFEST}))
        assert {(t["name"], t["dispatch"], t["implementation"]) for t in led["tools"]} == \
            {("lookup", "registry", "lookup.execute"), ("count", "registry", "count.execute")}
        assert led["unresolved"] == [] and led["complete"] is True


FIELD_SERVER = SDK + '''import { registerWordTools } from "./words.js";
export class WordServer {
  tools = new Map();
  constructor() {
    this.server = new Server({ name: "words", version: "1" }, { capabilities: { tools: {} } });
    this.server.setRequestHandler(ListToolsRequestSchema, async () => {
      const out = [];
      for (const [name, tool] of this.tools) out.push({ name: tool.name, description: tool.description, inputSchema: {} });
      return { tools: out };
    });
    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const { name, arguments: args } = request.params;
      const tool = this.tools.get(name);
      if (!tool) throw new Error(`unknown tool ${name}`);
      return await tool.handler(args);
    });
  }
  addTool(definition) {
    this.tools.set(definition.name, definition);
  }
}
const words = new WordServer();
registerWordTools(words);
await words.server.connect(new StdioServerTransport());
'''
WORDS = '''export const shout = {
  name: "shout", description: "Shout the text.", inputSchema: {},
  handler: async (args) => ({ content: [{ type: "text", text: String(args.text).toUpperCase() }] }),
};
export const whisper = {
  name: "whisper", description: "Whisper the text.", inputSchema: {},
  async handler(args) { return { content: [{ type: "text", text: String(args.text).toLowerCase() }] }; },
};
export function registerWordTools(server) {
  server.addTool(shout);
  server.addTool(whisper);
}
'''


def test_tools_stored_in_a_map_field_by_a_method_are_dispatched_by_name():
    # `this.tools.set(definition.name, definition)` in a method each tool module calls, then
    # `this.tools.get(name).handler(args)` in the tools/call handler: each tool object's handler is its implementation.
    led = coverage.ledger(program({"index.js": FIELD_SERVER, "words.js": WORDS, "package.json": MANIFEST}))
    tools = {t["name"]: t for t in led["tools"]}
    assert set(tools) == {"shout", "whisper"}
    assert {(t["dispatch"], t["implementation"], t["status"]) for t in tools.values()} == \
        {("registry", "shout.handler", "analysed"), ("registry", "whisper.handler", "analysed")}
    assert led["unresolved"] == [] and led["complete"] is True


def test_tool_objects_exported_by_commonjs_and_stored_in_a_map_field_are_dispatched():
    # The same written as tsc writes CommonJS: `exports.shout = {...}` handed on as `exports.shout`.
    words = WORDS.replace("export const shout =", "exports.shout =").replace("export const whisper =", "exports.whisper =") \
        .replace("server.addTool(shout)", "server.addTool(exports.shout)").replace("server.addTool(whisper)", "server.addTool(exports.whisper)") \
        .replace("export function registerWordTools", "exports.registerWordTools = registerWordTools;\nfunction registerWordTools")
    server = FIELD_SERVER.replace('import { registerWordTools } from "./words.js";', 'const words_1 = require("./words.js");') \
        .replace("registerWordTools(words);", "(0, words_1.registerWordTools)(words);")
    led = coverage.ledger(program({"index.js": server, "words.js": words, "package.json": MANIFEST}))
    assert {(t["name"], t["dispatch"], t["implementation"]) for t in led["tools"]} == \
        {("shout", "registry", "shout.handler"), ("whisper", "registry", "whisper.handler")}


REGISTRY_CLASS = '''export class Registry {
  private tools = new Map<string, any>();
  add(definition: any, handler: (a: any) => Promise<any>) {
    this.tools.set(definition.name, { ...definition, handler });
  }
  list() {
    return [...this.tools.values()].map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  }
  async call(name: string, args: any) {
    const tool = this.tools.get(name);
    if (!tool) throw new Error(`unknown tool ${name}`);
    return tool.handler(args);
  }
}
'''
DEFINITIONS = '''export const definitions = [
  { name: "add_note", description: "Add a note.", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
  { name: "drop_note", description: "Drop a note.", inputSchema: { type: "object", properties: { id: { type: "number" } } } },
];
'''
TABLE_SERVER = SDK + '''import { Registry } from "./registry.js";
import { definitions } from "./definitions.js";
import { Notes } from "./notes.js";
class NoteServer {
  private server: Server;
  private registry: Registry;
  constructor() {
    this.server = new Server({ name: "notes", version: "1" }, { capabilities: { tools: {} } });
    this.registry = new Registry();
    const notes = new Notes();
    const handlers: Record<string, (a: any) => Promise<any>> = {
      add_note: (a) => notes.add(a),
      drop_note: (a) => notes.drop(a),
    };
    for (const definition of definitions) {
      this.registry.add(definition, handlers[definition.name]);
    }
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: this.registry.list() }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request) =>
      this.registry.call(request.params.name, request.params.arguments ?? {}));
  }
  async run() { await this.server.connect(new StdioServerTransport()); }
}
new NoteServer().run();
'''
NOTES = '''export class Notes {
  private items: string[] = [];
  async add(a: any) { this.items.push(String(a.text)); return { content: [] }; }
  async drop(a: any) { this.items.splice(Number(a.id), 1); return { content: [] }; }
}
'''


def test_definitions_registered_in_a_loop_with_a_table_of_handlers_are_listed_and_dispatched():
    # The server's own registry class (a typed field: `private registry: Registry`) holds `{ ...definition, handler }`
    # per definition of a list, its handler looked up in a table by the definition's name; tools/list lists the
    # copies, tools/call calls the handler of the one found by name.
    p = program({"index.ts": TABLE_SERVER, "registry.ts": REGISTRY_CLASS, "definitions.ts": DEFINITIONS,
                 "notes.ts": NOTES, "package.json": MANIFEST.replace("index.js", "index.ts")})
    led = coverage.ledger(p)
    assert {(t["name"], t["dispatch"], t["status"]) for t in led["tools"]} == \
        {("add_note", "registry", "analysed"), ("drop_note", "registry", "analysed")}
    impl = {d.tool: text(d.target) for d in p.dispatches}
    assert impl == {"add_note": "(a) => notes.add(a)", "drop_note": "(a) => notes.drop(a)"}
    assert led["unresolved"] == [] and led["complete"] is True


# A finder function that loops over the tool configs of a record of records (one record per group) and returns, in a
# wrapper object, the config whose `name` is the requested one; the handler calls the found config's `handler`.
# The configs are not the listed descriptors (those live in a parallel record).
FINDER = {
    "src/configs.ts": '''
export const noteConfigs = {
  add: { name: "add_note", handler: async (args: any) => ({ text: String(args.text) }) },
  drop: { name: "drop_note", handler: async (args: any) => ({ text: "dropped" }) },
};
export const clockConfigs = { now: { name: "now", handler: async () => ({ text: new Date().toISOString() }) } };
function labelConfig({ name, label }: { name: string; label: string }) {
  return { name, handler: async (args: any) => ({ text: `${label}: ${args.id}` }) };
}
export const labelConfigs = { tag: labelConfig({ name: "tag_note", label: "tag" }), untag: labelConfig({ name: "untag_note", label: "untag" }) };
export const noteDefinitions = [
  { name: "add_note", description: "Add", inputSchema: { type: "object", properties: {} } },
  { name: "drop_note", description: "Drop", inputSchema: { type: "object", properties: {} } },
];
export const clockDefinitions = [{ name: "now", description: "Now", inputSchema: { type: "object", properties: {} } }];
export const labelDefinitions = [
  { name: "tag_note", description: "Tag", inputSchema: { type: "object", properties: {} } },
  { name: "untag_note", description: "Untag", inputSchema: { type: "object", properties: {} } },
];
''',
    "src/registry.ts": '''
import { noteConfigs, clockConfigs, labelConfigs } from "./configs.js";
export const GROUPS = ["notes", "clock", "labels"];
export const CONFIGS: Record<string, any> = { notes: noteConfigs, clock: clockConfigs, labels: labelConfigs };
function aliasOf(name: string) { return { name: name.replace(/-/g, "_") }; }
export function findConfig(toolName: string) {
  const { name: wanted } = aliasOf(toolName);
  for (const group of GROUPS) {
    const configs = CONFIGS[group];
    if (!configs) continue;
    for (const [kind, config] of Object.entries(configs)) {
      if (config && config.name === wanted) {
        return { group, kind, toolConfig: config };
      }
    }
  }
  return undefined;
}
''',
    "src/index.ts": SDK + '''
import { noteDefinitions, clockDefinitions, labelDefinitions } from "./configs.js";
import { findConfig } from "./registry.js";
const server = new Server({ name: "f", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...noteDefinitions, ...clockDefinitions, ...labelDefinitions] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const toolName = request.params.name;
  const found = findConfig(toolName);
  if (!found) {
    throw new Error(`Tool not found: ${toolName}`);
  }
  const { toolConfig } = found;
  const result = await toolConfig.handler(request.params.arguments ?? {});
  return { content: [{ type: "text", text: result.text }] };
});
''',
    "package.json": '{"name": "f", "version": "1.0.0", "main": "src/index.ts"}'}


def test_a_finder_looping_over_a_record_of_config_records_dispatches_to_each_found_configs_method():
    p = program(FINDER)
    got = {d.tool: (d.form, d.target_name, d.module.path, d.target.start_point[0] + 1) for d in p.dispatches}
    configs = FINDER["src/configs.ts"].splitlines()
    line = lambda needle: next(i for i, ln in enumerate(configs, 1) if needle in ln)
    assert got == {"add_note": ("registry", "add_note.handler", "src/index.ts", line('"add_note", handler')),
                   "drop_note": ("registry", "drop_note.handler", "src/index.ts", line('"drop_note", handler')),
                   "now": ("registry", "now.handler", "src/index.ts", line('"now", handler')),
                   # a config made by a function is read once per call of it, its name the call's
                   "tag_note": ("registry", "tag_note.handler", "src/index.ts", line("return { name, handler")),
                   "untag_note": ("registry", "untag_note.handler", "src/index.ts", line("return { name, handler"))}
    assert [(t["name"], t["status"]) for t in coverage.ledger(p)["tools"]] == \
        [("add_note", "analysed"), ("drop_note", "analysed"), ("now", "analysed"), ("tag_note", "analysed"),
         ("untag_note", "analysed")]
    assert not p.unread


FUNCTION_MAP = SDK + '''const TOOLS = [{ name: "weigh", inputSchema: { type: "object" } }, { name: "measure", inputSchema: { type: "object" } }];
const handlers = new Map();
handlers.set("weigh", (args) => ({ content: [{ type: "text", text: String(args.grams) }] }));
handlers.set("measure", async (args) => ({ content: [{ type: "text", text: String(args.cm) }] }));
export async function execute(name, args) {
  const handler = handlers.get(name);
  if (!handler) throw new Error(`unknown tool ${name}`);
  const run = async () => handler(args);
  return run();
}
const server = new Server({ name: "scale", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => execute(request.params.name, request.params.arguments));
await server.connect(new StdioServerTransport());
'''


def test_a_map_of_handler_functions_called_as_found_is_dispatched():
    """`const handler = handlers.get(name); ... handler(args)`: the function stored under each tool's name is its
    implementation."""
    led = coverage.ledger(program({"index.js": FUNCTION_MAP, "package.json": MANIFEST}))
    assert {(t["name"], t["dispatch"], t["status"]) for t in led["tools"]} == \
        {("weigh", "registry", "analysed"), ("measure", "registry", "analysed")}
    assert led["complete"] is True


def test_handlers_in_a_map_written_as_entries_are_dispatched_by_name():
    """`const handlers = new Map([["get_values", handleGet], ...])` and `handlers.get(name)` in the tools/call handler:
    each entry is the dispatch of its key, its implementation the function written beside it; an entry a spread adds
    under a flag (`...(flag ? [["clear_values", handleClear]] : [])`) is one too."""
    code = SDK + '''async function handleGet(args) { return { content: [{ type: "text", text: String(args.range) }] }; }
async function handleClear(args) { return { content: [{ type: "text", text: String(args.range) }] }; }
const handlers = new Map([
  ["get_values", handleGet],
  ...(process.argv.includes("--write") ? [["clear_values", handleClear]] : []),
]);
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "get_values", description: "Get.", inputSchema: { type: "object", properties: { range: { type: "string" } } } },
  { name: "clear_values", description: "Clear.", inputSchema: { type: "object", properties: { range: { type: "string" } } } },
] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const handler = handlers.get(request.params.name);
  if (!handler) throw new Error("unknown tool");
  return handler(request.params.arguments);
});
'''
    p = program({"index.js": code, "package.json": MANIFEST})
    assert {d.tool: d.target_name for d in p.dispatches} == {"clear_values": "clear_values", "get_values": "get_values"}
    assert {d.tool: text(d.target.child_by_field_name("name")) for d in p.dispatches} == {
        "clear_values": "handleClear", "get_values": "handleGet"}
    led = coverage.ledger(p)
    assert [t["status"] for t in led["tools"]] == ["analysed", "analysed"] and led["complete"] is True


def test_handler_classes_a_factory_constructs_by_name_are_dispatched_to_the_method_its_caller_calls():
    """`this.handlers.set("list_notes", ListHandler)` in a factory whose `make(name)` returns `new C(ctx)` for the
    class it finds; the tools/call handler calls `factory.make(name).handle(args)`: each key dispatches to that
    class's `handle`."""
    code = SDK + '''class ListHandler { constructor(ctx) { this.ctx = ctx; } async handle(args) { return { content: [] }; } }
class DropHandler { constructor(ctx) { this.ctx = ctx; } async handle(args) { return this.ctx.drop(args.id); } }
class HandlerFactory {
  constructor(ctx) { this.ctx = ctx; this.handlers = new Map(); this.handlers.set("list_notes", ListHandler);
    this.handlers.set("drop_note", DropHandler); }
  make(toolName) {
    const HandlerClass = this.handlers.get(toolName);
    if (!HandlerClass) throw new Error("no handler");
    return new HandlerClass(this.ctx);
  }
}
class NotesServer {
  constructor() {
    this.factory = null;
    this.factory = new HandlerFactory({});
    this.server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
      { name: "list_notes", description: "List.", inputSchema: { type: "object" } },
      { name: "drop_note", description: "Drop.", inputSchema: { type: "object", properties: { id: { type: "string" } } } },
    ] }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const { name, arguments: args } = request.params;
      const handler = this.factory.make(name);
      return await handler.handle(args);
    });
  }
}
new NotesServer();
'''
    p = program({"index.js": code, "package.json": MANIFEST})
    assert {d.tool: d.target_name for d in p.dispatches} == {"drop_note": "drop_note.handle", "list_notes": "list_notes.handle"}
    assert {d.tool: d.target.start_point[0] for d in p.dispatches} == {
        "drop_note": code.splitlines().index(next(l for l in code.splitlines() if l.startswith("class DropHandler"))),
        "list_notes": code.splitlines().index(next(l for l in code.splitlines() if l.startswith("class ListHandler")))}
    assert coverage.ledger(p)["complete"] is True


def test_a_registry_whose_register_method_destructures_each_definition():
    """`register(definition) { const { name, description, handler } = definition; this.tools.set(name, { name,
    description, inputSchema }); this.handlers.set(name, handler); }`, called by modules as they load
    (`registry.register({ name: "list_runs", ..., handler })`, `handler` a function declared there); tools/list
    returns `registry.getTools()`, tools/call calls what `registry.getHandler(name)` returns. One tool per call of
    register, listed, dispatched to that module's handler."""
    registry = '''export class Registry {
  constructor() { this.tools = new Map(); this.handlers = new Map(); }
  register(definition) {
    const { name, description, schema, handler } = definition;
    const inputSchema = { type: "object", properties: schema };
    this.tools.set(name, { name, description, inputSchema });
    this.handlers.set(name, handler);
  }
  getTools() { return Array.from(this.tools.values()); }
  getHandler(name) { return this.handlers.get(name); }
}
export const registry = new Registry();
'''
    one = '''import {{ registry }} from "./registry.js";
async function handler(args) {{ return {{ content: [{{ type: "text", text: String(args.{field}) }}] }}; }}
registry.register({{ name: "{name}", description: "{name}.", schema: {{ {field}: {{ type: "string" }} }}, handler }});
'''
    index = SDK + '''import { registry } from "./registry.js";
import "./runs.js";
import "./cases.js";
const server = new Server({ name: "q", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: registry.getTools() }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const handler = registry.getHandler(request.params.name);
  if (!handler) throw new Error("unknown tool");
  return handler(request.params.arguments);
});
'''
    files = {"index.js": index, "registry.js": registry, "package.json": MANIFEST,
             "runs.js": one.format(name="list_runs", field="project"), "cases.js": one.format(name="get_case", field="id")}
    p = program(files)
    led = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in led["tools"]] == [  # (the schema a parameter makes: a detail)
        ("get_case", "analysed, details not read"), ("list_runs", "analysed, details not read")]
    assert {d.tool: (d.target.child_by_field_name("name").text, p.linker.module_of(d.target).path)
            for d in p.dispatches} == {"get_case": (b"handler", "cases.js"), "list_runs": (b"handler", "runs.js")}
    assert led["complete"] is True


def test_plugins_a_factory_makes_are_dispatched_to_the_handler_each_was_made_with():
    """`registry.register(createToolPlugin(listTool, handleList))` where the factory returns `{ tool, handler }` and
    `register(plugin)` keys it by `plugin.tool.name`; `execute(name, args)` calls `this.plugins.get(name).handler(args)`
    on a registry a factory function builds (`createRegistry()` returning `new ToolRegistry()`): each name
    dispatches to the handler its plugin was made with."""
    code = SDK + '''const listTool = { name: "list_tests", description: "List.", inputSchema: { type: "object" } };
const runTool = { name: "run_tests", description: "Run.", inputSchema: { type: "object" } };
async function handleList(args) { return { content: [] }; }
async function handleRun(args) { return { content: [{ type: "text", text: String(args.target) }] }; }
function createToolPlugin(tool, handler) { return { tool, handler }; }
class ToolRegistry {
  constructor() { this.plugins = new Map(); }
  register(plugin) { const toolName = plugin.tool.name; this.plugins.set(toolName, plugin); }
  async execute(name, args) {
    const plugin = this.plugins.get(name);
    if (!plugin) throw new Error("unknown tool");
    return plugin.handler(args);
  }
}
function createRegistry() {
  const registry = new ToolRegistry();
  registry.register(createToolPlugin(listTool, handleList));
  registry.register(createToolPlugin(runTool, handleRun));
  return registry;
}
class App {
  constructor() {
    this.registry = createRegistry();
    this.server = new Server({ name: "v", version: "1" }, { capabilities: { tools: {} } });
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [listTool, runTool] }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request) =>
      this.registry.execute(request.params.name, request.params.arguments));
  }
}
new App();
'''
    p = program({"index.js": code, "package.json": MANIFEST})
    assert {d.tool: d.target.child_by_field_name("name").text for d in p.dispatches} == {
        "list_tests": b"handleList", "run_tests": b"handleRun"}
    assert coverage.ledger(p)["complete"] is True


def test_providers_a_registry_stores_in_a_map_field_name_the_tools_its_loop_registers():
    """`this.providers.forEach((p) => server.tool({ name: `${p.name}_search`, ... }))` over a Map field a method fills
    (`this.providers.set(p.name, p)`), handed `new TavilyProvider()` through a module's wrapper: one tool per provider
    stored, named by its `name` (a constructor's `this.name = ...` or a field); the object registration (tmcp's
    `server.tool({name, ...}, callback)`) is expanded as the object it is."""
    from program_helpers import program

    files = {
     "tools.ts": ('class ToolRegistry {\n  constructor() { this.search_providers = new Map(); }\n'
       '  register_search_provider(provider) { this.search_providers.set(provider.name, provider); }\n'
       '  setup_tool_handlers(server) {\n    this.search_providers.forEach((provider) => {\n'
       '      server.tool({ name: `${provider.name}_search`, description: provider.description }, async ({ query }) => ({ content: [{ type: "text", text: await provider.search(query) }] }));\n'
       '    });\n  }\n}\nconst registry = new ToolRegistry();\n'
       'export const register_search_provider = (provider) => { registry.register_search_provider(provider); };\n'
       'export const register_tools = (server) => { registry.setup_tool_handlers(server); };\n'),
     "tavily.ts": 'export class TavilyProvider {\n  constructor() { this.name = "tavily"; this.description = "Tavily"; }\n  async search(q) { return q; }\n}\n',
     "brave.ts": 'export class BraveProvider {\n  name = "brave";\n  description = "Brave";\n  async search(q) { return q; }\n}\n',
     "providers.ts": ('import { TavilyProvider } from "./tavily.js";\nimport { BraveProvider } from "./brave.js";\nimport { register_search_provider } from "./tools.js";\n'
       'export const initialize_providers = () => {\n  if (process.env.TAVILY_KEY) register_search_provider(new TavilyProvider());\n'
       '  if (process.env.BRAVE_KEY) register_search_provider(new BraveProvider());\n};\n'),
     "index.ts": ('import { McpServer } from "tmcp";\nimport { register_tools } from "./tools.js";\nimport { initialize_providers } from "./providers.js";\n'
       'const server = new McpServer({ name: "omni", version: "1" });\ninitialize_providers();\nregister_tools(server);\n'),
    }
    assert sorted(t.name for t in program(files).tools) == ["brave_search", "tavily_search"]


def test_a_router_held_by_an_adapter_hands_back_the_handler_member_its_caller_calls():
    # The tools/call handler asks a router held in a field (a constructor parameter of the adapter) for a handler
    # (`getToolHandler(name) { return this.tools.get(name)?.handler; }`) and calls what it hands back; the tools are
    # stored by `setTool({ schema, handler })`. A stale copy of an older switch in a file nothing imports names the same
    # tools: it is not their dispatch.
    router = ('export class Router {\n'
              '  tools = new Map();\n'
              '  getToolHandler(name) { return this.tools.get(name)?.handler; }\n'
              '  getSchemas() { return Array.from(this.tools.keys()).map((n) => this.tools.get(n)?.schema); }\n'
              '  setTool({ schema, handler }) { this.tools.set(schema.name, { schema, handler }); return this; }\n'
              '}\n')
    adapter = (SDK + 'export class Adapter {\n'
               '  router;\n'
               '  constructor(router) { this.router = router; }\n'
               '  register() {\n'
               '    const server = new Server({ name: "notes", version: "1" }, { capabilities: { tools: {} } });\n'
               '    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: this.router.getSchemas() }));\n'
               '    server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
               '      const { name } = request.params;\n'
               '      const handler = await this.router.getToolHandler(name);\n'
               '      if (!handler) throw new Error(`Tool ${name} not found`);\n'
               '      return await handler(request);\n'
               '    });\n'
               '    return server;\n'
               '  }\n'
               '}\n')
    main = ('import { Router } from "./router.js";\nimport { Adapter } from "./adapter.js";\n'
            'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
            'async function readNote(request) { return { content: [{ type: "text", text: String(request.params.arguments.id) }] }; }\n'
            'async function listNotes() { return { content: [] }; }\n'
            'const router = new Router();\n'
            'router.setTool({ schema: { name: "read_note", description: "Read", inputSchema: { type: "object" } },'
            ' handler: readNote });\n'
            'router.setTool({ schema: { name: "list_notes", description: "List", inputSchema: { type: "object" } },'
            ' handler: listNotes });\n'
            'new Adapter(router).register().connect(new StdioServerTransport());\n')
    legacy = (SDK + 'const server = new Server({ name: "old", version: "0" }, { capabilities: { tools: {} } });\n'
              'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
              '  switch (request.params.name) {\n'
              '    case "read_note": return { content: [] };\n'
              '    case "list_notes": return { content: [] };\n'
              '  }\n'
              '});\n')
    files = {"package.json": '{"name": "notes", "bin": {"notes": "main.js"}, "dependencies": {"@modelcontextprotocol/sdk": "1"}}',
             "router.js": router, "adapter.js": adapter, "main.js": main, "legacy.js": legacy}
    rows = {t["name"]: t for t in coverage.ledger(program(files))["tools"]}
    assert sorted(rows) == ["list_notes", "read_note"]
    assert {n: (r["dispatch"], r["implementation"]) for n, r in rows.items()} == {
        "list_notes": ("registry", "list_notes.handler"), "read_note": ("registry", "read_note.handler")}


SHELF_REGISTRY = '''export class Registry {
  tools = new Map();
  register(definition) { this.tools.set(definition.name, definition); }
  list() { return [...this.tools.values()].map((t) => ({ name: t.name, description: t.description, inputSchema: {} })); }
  async execute(name, args) {
    const tool = this.tools.get(name);
    if (!tool) throw new Error("unknown " + name);
    if (tool.check) {
      const problem = tool.check(args);
      if (problem) return { content: [{ type: "text", text: problem }], isError: true };
    }
    return await tool.handler(args);
  }
}
'''
SHELF = '''export class Shelf {
  constructor(client) { this.client = client; }
  async whoAmI() { return { content: [{ type: "text", text: "me" }] }; }
  async listBooks(args) { return { content: [{ type: "text", text: String(args.page) }] }; }
  async dropBook(args) { return { content: [{ type: "text", text: String(args.id) }] }; }
}
'''
SHELF_SERVER = SDK + '''import { Registry } from "./registry.js";
import { Shelf } from "./shelf.js";
class ShelfServer {
  server; shelf; registry;
  constructor() {
    this.server = new Server({ name: "shelf", version: "1" }, { capabilities: { tools: {} } });
    this.shelf = new Shelf({});
    this.registry = new Registry();
    this.registerTools();
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: this.registry.list() }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request) =>
      this.registry.execute(request.params.name, request.params.arguments ?? {}));
  }
  registerTools() {
    this.registry.register({ name: "who_am_i", handler: this.shelf.whoAmI.bind(this.shelf), description: "Who." });
    const table = [
      { name: "list_books", handler: "listBooks" },
      { name: "drop_book", handler: "dropBook" },
    ];
    table.forEach((tool) => {
      this.registry.register({
        name: tool.name,
        handler: this.shelf[tool.handler].bind(this.shelf),
        check: (args) => (args.id === undefined ? "id is required" : null),
        description: `Shelf: ${tool.name}`,
      });
    });
  }
  async run() { await this.server.connect(new StdioServerTransport()); }
}
new ShelfServer().run();
'''


def test_definitions_registered_from_a_table_of_method_names_with_an_optional_check_are_dispatched():
    # `register({ name: tool.name, handler: this.shelf[tool.handler].bind(this.shelf) })` per element of a table:
    # the object literal handed to the installing call is read with the loop's element bound (registry._around).
    # `if (tool.check) tool.check(args)` runs only for tools that have a check: who_am_i has none and is still
    # fully read, its implementation the handler (registry._optional).
    p = program({"index.js": SHELF_SERVER, "registry.js": SHELF_REGISTRY, "shelf.js": SHELF,
                 "package.json": MANIFEST})
    led = coverage.ledger(p)
    assert {(t["name"], t["dispatch"], t["status"]) for t in led["tools"]} == \
        {("who_am_i", "registry", "analysed"), ("list_books", "registry", "analysed"),
         ("drop_book", "registry", "analysed")}
    impl = {d.tool: text(d.target).split("(")[0].replace("async ", "") for d in p.dispatches}
    assert impl == {"who_am_i": "whoAmI", "list_books": "listBooks", "drop_book": "dropBook"}
    assert led["unresolved"] == [] and led["complete"] is True


HANDED_SERVER = SDK + '''import { shout, whisper } from "./words.js";
const TOOLS = [shout, whisper];
async function execute({ handler, args }) {
  return await handler(args ?? {});
}
const server = new Server({ name: "words", version: "1" }, { capabilities: { tools: {} } });
const byName = Object.fromEntries(TOOLS.map((t) => [t.name, t]));
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS.map(({ handler, ...d }) => d) }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = byName[request.params.name];
  if (!tool) throw new Error("unknown tool");
  return execute({ handler: tool.handler, args: request.params.arguments });
});
await server.connect(new StdioServerTransport());
'''


def test_a_member_of_the_found_tool_handed_in_an_object_to_a_call_is_its_implementation():
    # `execute({ handler: tool.handler, args })`: no method is called on what `byName[name]` finds; the member it
    # hands on inside an object literal is the candidate implementation, as one handed as an argument is.
    words = WORDS.split("export function registerWordTools")[0]
    led = coverage.ledger(program({"index.js": HANDED_SERVER, "words.js": words, "package.json": MANIFEST}))
    assert {(t["name"], t["dispatch"], t["implementation"], t["status"]) for t in led["tools"]} == \
        {("shout", "registry", "shout.handler", "analysed"), ("whisper", "registry", "whisper.handler", "analysed")}
    assert led["unresolved"] == [] and led["complete"] is True


def test_each_definition_of_a_list_installed_under_its_name_with_one_handler_is_dispatched_there():
    # `for (const def of aDefs) handlers.set(def.name, handleA)`: the loop binds only the key; every tool of the list
    # is dispatched to handleA (which switches on the name it is handed), and the registry is read whole
    defs = ('export const aDefs = [\n'
            '  { name: "a_one", description: "A one", inputSchema: { type: "object", properties: {} } },\n'
            '  { name: "a_two", description: "A two", inputSchema: { type: "object", properties: {} } }];\n'
            'export async function handleA(name: string, args: any) {\n  switch (name) {\n'
            '    case "a_one": return { content: [] };\n    case "a_two": return { content: [] };\n  }\n'
            '  throw new Error("no such tool");\n}\n')
    index = SDK + ('import { aDefs, handleA } from "./a.js";\nconst all = [...aDefs];\nconst handlers = new Map();\n'
                   'for (const def of aDefs) handlers.set(def.name, handleA);\n'
                   'const server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });\n'
                   'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: all }));\n'
                   'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
                   '  const { name, arguments: args } = request.params;\n  const handler = handlers.get(name);\n'
                   '  if (!handler) return { content: [], isError: true };\n  return handler(name, args ?? {});\n});\n')
    led = coverage.ledger(program({"index.ts": index, "a.ts": defs}))
    assert {t["name"]: t["status"] for t in led["tools"]} == {"a_one": "analysed", "a_two": "analysed"}
    assert led["unresolved"] == [] and led["complete"] is True


WRAPPED_SERVER = SDK + '''import { zodToJsonSchema } from "zod-to-json-schema";
function guarded(schema, handler) {
  return async (raw) => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) return { isError: true, content: [{ type: "text", text: "bad input" }] };
    return handler(parsed.data);
  };
}
export function buildServer(tools) {
  const server = new Server({ name: "notes", version: "1" }, { capabilities: { tools: {} } });
  const handlers = new Map(tools.map((t) => [t.name, guarded(t.schema, t.handler)]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: zodToJsonSchema(t.schema) })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const run = handlers.get(req.params.name);
    if (!run) return { isError: true, content: [{ type: "text", text: "unknown tool" }] };
    return run(req.params.arguments ?? {});
  });
  return server;
}
'''
WRAPPED_TOOLS = '''import { z } from "zod";
import { writeFile } from "node:fs/promises";
const schema = z.object({ path: z.string(), body: z.string().optional() });
export const saveTool = {
  name: "save_note", description: "Save a note.", schema,
  handler: async (args) => { await writeFile(args.path, args.body ?? ""); return { content: [] }; },
};
export const allTools = [saveTool];
'''
WRAPPED_MAIN = '''async function main() {
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const { buildServer } = await import("./server.js");
  const { allTools } = await import("./tools.js");
  await buildServer(allTools).connect(new StdioServerTransport());
}
main();
'''


def _wrapped(server: str):
    p = program({"index.js": WRAPPED_MAIN, "server.js": server, "tools.js": WRAPPED_TOOLS, "package.json": MANIFEST})
    return p, coverage.ledger(p)


def test_a_registry_of_what_a_wrapper_makes_of_each_tool_object_dispatches_to_its_functions():
    """`new Map(tools.map((t) => [t.name, guarded(t.schema, t.handler)]))`: each tool is dispatched to what the call
    makes of it, and the tool object's functions it is handed are tool code; a check in that function (the tool's own
    schema parsed) covers the input, and none leaves it unenforced. The tool is one, made where the list is handed
    over, not a second copy of the object the tools/list handler copies."""
    p, led = _wrapped(WRAPPED_SERVER)
    assert [(t["name"], t["dispatch"], t["implementation"], t["status"]) for t in led["tools"]] == [
        ("save_note", "registry", "guarded(save_note)", "analysed")]
    assert led["complete"] is True and len([t for t in p.tools if t.name == "save_note"]) == 1
    assert [f.id for f in mismatches.mismatches(p, {"probes": []}) if f.attrs.get("tool") == "save_note"] == []
    unchecked = WRAPPED_SERVER.replace("const parsed = schema.safeParse(raw);", "").replace(
        "if (!parsed.success) return", "if (raw === 0) return").replace("handler(parsed.data)", "handler(raw)")
    assert "safeParse" not in unchecked
    p, _ = _wrapped(unchecked)
    assert sorted(f.id for f in mismatches.mismatches(p, {"probes": []}) if f.attrs.get("tool") == "save_note") == [
        "FND:schema-unenforced:save_note/path", "FND:unchecked-optional:save_note/body"]


def test_a_registry_method_that_returns_the_tool_it_holds_in_a_local_hands_it_to_its_caller():
    """`getTool(name) { const tool = this.tools.get(name); if (!tool) throw ...; return tool; }` of a registry
    class whose constructor installs `new FindTool()`, ...; the tools/call handler calls `execute` on what it returns:
    each tool class's `execute` is its implementation (expect: both tools dispatched, complete; before, no dispatch)."""
    tools = '''export class FindTool {
  name = "find";
  description = "Find documents.";
  inputSchema = { type: "object", properties: { collection: { type: "string" } } };
  async execute(params) { return { content: [{ type: "text", text: String(params.collection) }] }; }
}
export class CountTool {
  name = "count";
  description = "Count documents.";
  inputSchema = { type: "object", properties: { collection: { type: "string" } } };
  async execute(params) { return { content: [{ type: "text", text: String(params.collection) }] }; }
}
export class ToolRegistry {
  tools = new Map();
  constructor() { this.registerTool(new FindTool()); this.registerTool(new CountTool()); }
  registerTool(tool) { this.tools.set(tool.name, tool); }
  getTool(name) {
    const tool = this.tools.get(name);
    if (!tool) throw new Error(`Unknown tool: ${name}`);
    return tool;
  }
  getToolSchemas() {
    return Array.from(this.tools.values()).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  }
}
'''
    index = SDK + '''import { ToolRegistry } from "./tools.js";
const registry = new ToolRegistry();
const server = new Server({ name: "docs", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: registry.getToolSchemas() }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = registry.getTool(request.params.name);
  return await tool.execute(request.params.arguments ?? {});
});
await server.connect(new StdioServerTransport());
'''
    led = coverage.ledger(program({"index.js": index, "tools.js": tools, "package.json": MANIFEST}))
    assert [(t["name"], t["dispatch"], t["implementation"]) for t in led["tools"]] == \
        [("count", "registry", "CountTool.execute"), ("find", "registry", "FindTool.execute")]
    assert led["complete"] is True


_BRIDGE_INDEX = SDK + '''
import { registerMissing } from "./bridge.js";
class Proto {
  tools = new Map();
  server = new Server({ name: "d", version: "1" }, { capabilities: { tools: {} } });
  constructor() {
    this.registerTool({ definition: { name: "ping", description: "Ping" }, handler: async () => ({ content: [] }) });
    registerMissing((entry) => this.registerTool(entry));
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [...this.tools.values()].map((e) => ({ name: e.definition.name, description: e.definition.description, inputSchema: { type: "object" } })) }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const entry = this.tools.get(request.params.name);
      if (!entry) throw new Error("unknown");
      return entry.handler(request.params.arguments);
    });
  }
  registerTool(entry) { this.tools.set(entry.definition.name, entry); }
}
new Proto();
'''


def test_a_callback_handed_to_a_function_is_called_where_that_function_calls_its_parameter():
    """`registerMissing((entry) => this.registerTool(entry))`, registerMissing calling `registerFn({ definition: {
    name: "lit", ... } })`: the callback's parameter is what that call hands it, so the registry's `lit` is read
    (name and handler) and the tools/list handler's list is read whole."""
    bridge = ('export function registerMissing(registerFn) {\n'
              '  registerFn({ definition: { name: "lit", description: "Lit" }, handler: async (p) => ({ content: [] }) });\n'
              '}\n')
    led = coverage.ledger(program({"index.ts": _BRIDGE_INDEX, "bridge.ts": bridge}))
    assert sorted(t["name"] for t in led["tools"]) == ["lit", "ping"]
    assert led["unresolved"] == [] and led["complete"] is True


_BRIDGE = '''
import { ALL } from "./tools.js";
const DONE = new Set([
  "ping", // registered by hand
  "qe/gaps",
]);
export function registerMissing(registerFn) {
  for (const tool of ALL) {
    if (DONE.has(tool.name)) {
      continue;
    }
    const entry = { definition: { name: tool.name, description: tool.description }, handler: async (p) => tool.invoke(p) };
    registerFn(entry);
  }
}
'''
_BRIDGE_TOOLS = '''
class Base {
  get name() { return this.config.name; }
  get description() { return this.config.description; }
  invoke(p) { return { content: [] }; }
}
class Gaps extends Base { config = { name: "qe/gaps", description: "Gaps" }; }
class Gate extends Base { config = { name: "qe/gate", description: "Gate" }; }
class Scan extends Base { config = { name: "qe/scan", description: "Scan" }; }
export const ALL = [new Gaps(), new Gate(), new Scan()];
'''


def test_a_bridge_registering_each_tool_instance_through_a_callback_names_them_by_their_class():
    """`registerMissing((entry) => this.registerTool(entry))` calls the callback in a loop over tool instances with
    an entry object made of each (`{ definition: { name: tool.name } }`), skipping those a Set names (`if
    (DONE.has(tool.name)) continue;`); each instance's `name` is a base class getter reading its own class's field
    (`this.config.name`): qe/gate and qe/scan are tools, qe/gaps is not (registered by hand under another name)."""
    led = coverage.ledger(program({"index.ts": _BRIDGE_INDEX, "bridge.ts": _BRIDGE, "tools.ts": _BRIDGE_TOOLS}))
    assert sorted(t["name"] for t in led["tools"]) == ["ping", "qe/gate", "qe/scan"]
    assert led["unresolved"] == [] and led["complete"] is True
