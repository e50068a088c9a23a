"""What "complete" means: every file read and accounted for, every tool found and traced to its implementation,
nothing unresolved. A found tool whose schema or description is not a literal is listed ("analysed, details not
read") with its gaps, and leaves the audit complete (kb/method.yaml detail_gaps); an implementation that does not
resolve does not."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import program

HEAD = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
        'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
        'import { makeShape, describe } from "./shapes.js";\n'
        'const server = new McpServer({ name: "demo", version: "1" });\n')
TAIL = 'await server.connect(new StdioServerTransport());\n'
SHAPES = ('export function makeShape() { return {}; }\n'
          'export function describe(x: string) { return `Does ${x}.`; }\n')
MANIFEST = '{"name": "demo", "bin": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'


def _ledger_with(package: str, files: dict[str, str]) -> tuple[dict, list[str]]:
    """The ledger of FILES in a package that depends on PACKAGE and the SDK, and its unresolved rows' texts."""
    manifest = ('{"name": "demo", "bin": "index.js", "dependencies": {"%s": "1", "@modelcontextprotocol/sdk": "1"}}'
                % package)
    led = coverage.ledger(program({**files, "package.json": manifest}))
    return led, [u["what"] for u in led["unresolved"]]


def _ledger(body: str) -> dict:
    return coverage.ledger(program({"index.ts": HEAD + body + TAIL, "shapes.ts": SHAPES, "package.json": MANIFEST}))


def test_a_tool_whose_schema_and_description_are_not_literals_leaves_the_audit_complete():
    led = _ledger('server.registerTool("ping", { description: describe("ping"), inputSchema: makeShape() },\n'
                  '  async () => ({ content: [{ type: "text", text: "pong" }] }));\n')
    (tool,) = led["tools"]
    assert tool["status"] == "analysed, details not read"
    assert sorted(tool["reasons"]) == ["description is not a literal", "input schema is not a literal (unknown)"]
    assert led["complete"] is True


def test_an_implementation_that_does_not_resolve_leaves_it_incomplete():
    led = _ledger('declare const handlers: any;\n'
                  'server.registerTool("ping", { description: "Ping." }, handlers.ping);\n')
    (tool,) = led["tools"]
    assert tool["status"] == "partially analysed"
    assert led["complete"] is False


def test_a_callback_made_by_a_factory_is_its_returned_function_and_what_it_is_handed_is_traced():
    """`const get = makeHandler("GET", api.handleGet)`: the SDK calls the function makeHandler returns, which runs
    the handler it was handed (a CommonJS export of another module): both are the tool's code."""
    tools = ('const api = require("./api.js");\n'
             'function makeHandler(method, handler) {\n'
             '  return async (args) => ({ content: [{ type: "text", text: await handler(args) }] });\n'
             '}\n'
             'const get = makeHandler("GET", api.handleGet);\n'
             'function register(server) {\n'
             '  server.registerTool("demo_get", { description: "Get a thing." }, get);\n'
             '}\n'
             'exports.register = register;\n')
    api = ('const fs = require("fs");\n'
           'async function handleGet(args) { return fs.readFileSync("/etc/hostname", "utf8"); }\n'
           'exports.handleGet = handleGet;\n')
    index = ('const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");\n'
             'const { register } = require("./tools.js");\n'
             'const server = new McpServer({ name: "demo", version: "1" });\n'
             'register(server);\n')
    p = program({"index.js": index, "tools.js": tools, "api.js": api,
                 "package.json": '{"name": "demo", "bin": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'})
    led = coverage.ledger(p)
    (tool,) = led["tools"]
    assert (tool["status"], tool["implementation"]) == ("analysed", "makeHandler/return")
    assert "handleGet" in {f.name for f in p.flows}  # what the made function runs is traced too
    assert led["complete"] is True


def test_unreached_browser_code_is_auxiliary_and_other_unreached_code_is_not():
    ui = 'const root = document.getElementById("app");\nwindow.addEventListener("load", () => root.append("hi"));\n'
    dead = 'export function unused() { return 42; }\n'
    led = coverage.ledger(program({"index.ts": HEAD + TAIL, "shapes.ts": SHAPES, "package.json": MANIFEST,
                                   "ui/app.js": ui, "lib/dead.ts": dead}))
    rows = {f["path"]: f for f in led["files"]}
    assert rows["ui/app.js"]["status"] == "auxiliary, not reached" and "browser code" in rows["ui/app.js"]["reason"]
    assert rows["lib/dead.ts"]["status"] == "not reached, holds no server code"  # no server code: accounted for
    assert led["complete"] is True


def test_an_unreached_module_of_re_exports_only_is_auxiliary():
    barrel = 'import "./shapes.js";\nexport { makeShape as shape, describe } from "./shapes.js";\n'
    led = coverage.ledger(program({"index.ts": HEAD + TAIL, "shapes.ts": SHAPES, "package.json": MANIFEST,
                                   "barrel.ts": barrel}))
    rows = {f["path"]: f for f in led["files"]}
    assert rows["barrel.ts"]["status"] == "auxiliary, not reached" and "re-exports only" in rows["barrel.ts"]["reason"]
    assert led["complete"] is True


def test_a_dispatch_reached_through_a_wrapped_handler_and_tools_made_later_resolve():
    """JavaScript with no types: the tools/call handler calls a name bound to a wrapper of the dispatching function
    (`const wrapped = log.wrap(handleToolCall)`), and each tool is an instance assigned later (`let echo;` then
    `echo = new EchoTool()` in a function)."""
    index = ('import { Server } from "@modelcontextprotocol/sdk/server/index.js";\n'
             'import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";\n'
             'import { handleToolCall, TOOLS } from "./handler.js";\n'
             'import { Logger } from "./logger.js";\n'
             'const server = new Server({ name: "demo", version: "1" }, { capabilities: { tools: {} } });\n'
             'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));\n'
             'const log = new Logger();\n'
             'const wrapped = log.wrap(handleToolCall);\n'
             'server.setRequestHandler(CallToolRequestSchema, async (request) => wrapped(request.params.name, request.params.arguments));\n')
    handler = ('import { EchoTool } from "./echo.js";\n'
               'export const TOOLS = [{ name: "echo", description: "Echo.", inputSchema: { type: "object", properties: {} } }];\n'
               'let echo;\n'
               'function setup() { echo = new EchoTool(); }\n'
               'export async function handleToolCall(name, args) {\n'
               '  setup();\n'
               '  switch (name) {\n'
               '    case "echo": return await echo.execute(args);\n'
               '    default: throw new Error("unknown tool");\n'
               '  }\n'
               '}\n')
    echo = ('export class EchoTool {\n'
            '  async execute(args) { return { content: [{ type: "text", text: String(args.text) }] }; }\n'
            '}\n')
    logger = 'export class Logger {\n  wrap(fn) { return async (...a) => fn(...a); }\n}\n'
    p = program({"index.js": index, "handler.js": handler, "echo.js": echo, "logger.js": logger,
                 "package.json": '{"name": "demo", "bin": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'})
    led = coverage.ledger(p)
    (tool,) = led["tools"]
    assert (tool["name"], tool["status"], tool["implementation"]) == ("echo", "analysed", "EchoTool.execute")


def test_tool_classes_compiled_to_javascript_name_themselves_in_the_constructor():
    """tsc compiles class fields to constructor assignments (`this.name = "clock"`), and the method that registers
    `this.name` is inherited from a base class of another module."""
    base = ('class BaseTool {\n'
            '  installTo(server) {\n'
            '    server.registerTool(this.name, { description: this.description },\n'
            '      async () => ({ content: [{ type: "text", text: this.name }] }));\n'
            '  }\n'
            '}\n'
            'export { BaseTool };\n')
    tools = ('import { BaseTool } from "./base.js";\n'
             'export class ClockTool extends BaseTool {\n'
             '  constructor() { super(); this.name = "clock"; this.description = "Tell the time."; }\n'
             '}\n')
    index = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
             'import { ClockTool } from "./tools.js";\n'
             'const server = new McpServer({ name: "demo", version: "1" });\n'
             'const TOOLS = [new ClockTool()];\n'
             'for (const tool of TOOLS) {\n'
             '  tool.installTo(server);\n'
             '}\n')
    p = program({"index.js": index, "tools.js": tools, "base.js": base,
                 "package.json": '{"name": "demo", "bin": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'})
    assert [(t.name, t.description) for t in p.tools] == [("clock", "Tell the time.")]
    assert coverage.ledger(p)["complete"] is True


def _unreached(extra: dict[str, str], body: str = "") -> tuple[dict, dict]:
    from auditor.analyse import effects
    from program_helpers import effects_kb

    p = program({"index.ts": HEAD + body + TAIL, "shapes.ts": SHAPES, "package.json": MANIFEST, **extra})
    led = coverage.ledger(p, coverage.effects_by_module(effects.scan(p, effects_kb()).sites))
    return {f["path"]: f for f in led["files"]}, led


OLD_TOOLS = ('import { fetchQuote } from "./quotes.js";\n'
             'export function registerOld(server: any) {\n'
             '  server.registerTool("old_quote", { description: "A quote." }, async () => fetchQuote());\n'
             '}\n')
QUOTES = 'export async function fetchQuote() { return (await fetch("https://quotes.invalid/today")).text(); }\n'
CLOCK = 'import { writeFileSync } from "node:fs";\nexport function stamp() { writeFileSync("/tmp/stamp", "1"); }\n'
# a module loaded by a path computed at run time: it may be any module of the package
PLUGIN = 'const plugin = await import(process.env.PLUGIN ?? "./none.js");\nplugin.install(server);\n'


def test_an_unreached_module_that_registers_a_tool_is_a_gap_while_a_computed_import_may_load_it():
    rows, led = _unreached({"legacy/tools.ts": OLD_TOOLS, "legacy/quotes.ts": QUOTES}, PLUGIN)
    assert rows["legacy/tools.ts"]["status"] == "parsed, not reached"
    assert "a tool registration (line 3)" in rows["legacy/tools.ts"]["reason"]
    # its effects are reachable from that server code: a gap too, with the effect named
    assert rows["legacy/quotes.ts"]["status"] == "parsed, not reached"
    assert "network `fetch` (line 1)" in rows["legacy/quotes.ts"]["reason"]
    assert led["complete"] is False


def test_unreached_server_code_beside_a_server_the_entry_builds_is_dead_code_accounted_for():
    """The entry constructs its own server and loads nothing by a computed path: a module no entry reaches that
    registers a tool is never served (its tool is not the server's), and the audit can be complete."""
    ping = 'server.registerTool("ping", { description: "Ping." }, async () => ({ content: [] }));\n'
    rows, led = _unreached({"legacy/tools.ts": OLD_TOOLS, "legacy/quotes.ts": QUOTES}, ping)
    for path in ("legacy/tools.ts", "legacy/quotes.ts"):
        assert rows[path]["status"] == "not reached, not served", path
        assert "imports no module by a computed path" in rows[path]["reason"]
    assert "a tool registration (line 3)" in rows["legacy/tools.ts"]["reason"]
    assert led["complete"] is True and [t["name"] for t in led["tools"]] == ["ping"]


def test_an_unreached_descriptor_or_handler_is_a_gap_when_the_entry_builds_no_server():
    descriptor = 'export const OLD = { name: "old_tool", description: "Old.", inputSchema: { type: "object" } };\n'
    manifest = '{"name": "demo", "bin": "main.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'
    p = program({"main.ts": 'console.log("hello");\n', "old.ts": descriptor, "package.json": manifest})
    rows = {f["path"]: f for f in coverage.ledger(p)["files"]}
    assert rows["old.ts"]["status"] == "parsed, not reached" and "the tool descriptor 'old_tool'" in rows["old.ts"]["reason"]
    assert coverage.ledger(p)["complete"] is False
    from program_helpers import SDK
    handler = SDK + ('export function attach(s: any) {\n'
                     '  s.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));\n}\n')
    rows, led = _unreached({"old.ts": handler}, PLUGIN)
    assert rows["old.ts"]["status"] == "parsed, not reached" and "a tools/list handler" in rows["old.ts"]["reason"]
    assert led["complete"] is False


def test_unreached_modules_without_server_code_are_accounted_for_even_with_effects():
    rows, led = _unreached({"legacy/quotes.ts": QUOTES, "legacy/clock.ts": CLOCK,
                            "lib/format.ts": "export const pad = (s: string) => s.padStart(4);\n"})
    for path in ("legacy/quotes.ts", "legacy/clock.ts", "lib/format.ts"):
        assert rows[path]["status"] == "not reached, holds no server code", path
        assert "not imported" in rows[path]["reason"]
    assert led["complete"] is True


def test_a_server_built_by_a_dependency_handed_the_tools_is_named_in_the_ledger():
    """No server object in the code read, but an imported package's function is handed `tools`: the ledger says which
    package builds the server, outside the boundary (ESM and compiled CommonJS)."""
    esm = ('import { buildServer as make } from "@acme/mcp-kit";\nimport { listThings } from "./things.js";\n'
           'export const server = make({ name: "demo", tools: { list_things: listThings } });\n')
    cjs = ('const kit_1 = require("@acme/mcp-kit");\n'
           'exports.server = (0, kit_1.buildServer)({ name: "demo", tools: {} });\n')
    manifest = '{"name": "demo", "bin": "index.js", "dependencies": {"@acme/mcp-kit": "1"}}'
    for name, code in (("index.ts", esm), ("index.js", cjs)):
        led = coverage.ledger(program({name: code, "things.ts": "export function listThings() { return []; }\n",
                                       "package.json": manifest}))
        whats = [u["what"] for u in led["unresolved"]]
        assert len(whats) == 1 and whats[0].startswith("the server is built by @acme/mcp-kit, outside the boundary: "), whats
        assert "no MCP server object is constructed" in whats[0]
        assert led["unresolved"][0]["anchor"]["start_line"] == code.splitlines().index(code.splitlines()[-1]) + 1


def test_a_factory_object_naming_its_tools_in_a_compound_key_handed_to_a_dependency_is_a_handoff():
    """`const factory = { name, toolSchemas: tools.map(...) }; start(factory)` of an imported package: the object is
    read through the local that holds it, and a key whose words hold `tools`/`tool` (kb/sdk.yaml
    server_handoff_keys) names what it hands; a key of other words (`options`) is none."""
    code = ('const kit_1 = require("@acme/mcp-core");\n'
            'const tools = [{ schema: { name: "ping" } }];\n'
            'async function run() {\n'
            '  const factory = { name: "demo", toolSchemas: tools.map((t) => t.schema) };\n'
            '  await kit_1.start(factory, { port: 1 });\n'
            '}\nrun();\n')
    manifest = '{"name": "demo", "bin": "index.js", "dependencies": {"@acme/mcp-core": "1"}}'
    led = coverage.ledger(program({"index.js": code, "package.json": manifest}))
    whats = [u["what"] for u in led["unresolved"]]
    assert len(whats) == 1 and whats[0].startswith("the server is built by @acme/mcp-core, outside the boundary: "
                                                  "`kit_1.start` (index.js:5)"), whats
    two = 'const yaml_1 = require("yaml");\nconst agent = yaml_1.stringify({ tools: ["search"] });\n' + code
    whats = [u["what"] for u in coverage.ledger(program({"index.js": two, "package.json": manifest}))["unresolved"]]
    assert whats == ["the server may be built outside the boundary by one of 2 packages handed tools: yaml, "
                     "`yaml_1.stringify` (index.js:2); @acme/mcp-core, `kit_1.start` (index.js:7); no MCP server object "
                     "is constructed in the code read, so what it serves is not known"], whats
    other = code.replace("toolSchemas", "optionsList")
    whats = [u["what"] for u in coverage.ledger(program({"index.js": other, "package.json": manifest}))["unresolved"]]
    assert len(whats) == 1 and not whats[0].startswith("the server is built by"), whats


def test_a_parse_error_in_an_unreached_web_asset_leaves_the_audit_complete():
    """A built web UI the package serves (kb/method.yaml auxiliary: static folders, browser globals) that does not
    parse is set aside with its gap; the same error in server code nothing reaches still leaves it incomplete."""
    broken = 'const el = document.querySelector("#app");\nconst = = ;\n'
    files = {"index.ts": HEAD + TAIL, "shapes.ts": SHAPES, "package.json": MANIFEST}
    p = program({**files, "dist/public/assets/index-abc.js": broken, "ui/widget.js": broken})
    led = coverage.ledger(p)
    rows = {f["path"]: f for f in led["files"]}
    assert {g.anchor.path for g in p.gaps if g.kind == "parse"} == {"dist/public/assets/index-abc.js", "ui/widget.js"}
    assert rows["dist/public/assets/index-abc.js"]["status"] == "auxiliary, not reached"
    assert "web asset" in rows["dist/public/assets/index-abc.js"]["reason"] and rows["ui/widget.js"]["gaps"] == 1
    assert coverage.blocking(p.gaps, p.method, led["files"]) == [] and led["complete"] is True
    led = coverage.ledger(program({**files, "lib/broken.ts": "export const = = ;\n"}))
    assert led["complete"] is False


def test_a_type_declaration_file_of_any_module_kind_is_no_code():
    """`index.d.mts` and `index.d.cts` (what a bundler writes beside `.mjs` and `.cjs`) hold types alone, as `.d.ts`
    does: never parsed as code, so syntax the parser does not read in one is no gap and leaves the audit complete."""
    files = {"index.ts": HEAD + TAIL, "shapes.ts": SHAPES, "package.json": MANIFEST}
    broken = "declare const = = ;\nexport {};\n"
    p = program({**files, "dist/index.d.mts": broken, "dist/index.d.cts": broken})
    led = coverage.ledger(p)
    assert not [g for g in p.gaps if g.kind == "parse"] and led["complete"] is True
    led = coverage.ledger(program({**files, "dist/index.mts": broken}))
    assert led["complete"] is False


def test_a_test_file_the_parser_cannot_read_leaves_the_audit_complete():
    """A test file (parsed for gaps, never analysed as server code) with syntax the parser does not read hides no
    tool: its gap is listed and counted, and does not make the audit incomplete."""
    files = {"index.ts": HEAD + TAIL, "shapes.ts": SHAPES, "package.json": MANIFEST,
             "src/tests/cap.test.ts": 'import { it } from "vitest";\nit("caps", () => { const = = ; });\n'}
    p = program(files)
    led = coverage.ledger(p)
    rows = {f["path"]: f for f in led["files"]}
    assert rows["src/tests/cap.test.ts"]["layer"] == "test" and rows["src/tests/cap.test.ts"]["gaps"] >= 1
    assert led["complete"] is True

def test_a_relay_to_another_mcp_server_is_named_in_the_ledger_with_its_address():
    """No server object, but a client transport of the SDK: what is served is the other server's (ESM and compiled
    CommonJS); the address is read through a top-level constant."""
    esm = ('import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
           'import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";\n'
           'const REMOTE = "https://mcp.example.test/sse";\n'
           'const local = new StdioServerTransport();\n'
           'const remote = new SSEClientTransport(new URL(REMOTE));\n'
           'local.onmessage = (msg) => remote.send(msg);\nremote.onmessage = (msg) => local.send(msg);\n')
    cjs = ('const http_1 = require("@modelcontextprotocol/sdk/client/streamableHttp.js");\n'
           'const t = new http_1.StreamableHTTPClientTransport(new URL(process.env.REMOTE_URL));\n')
    manifest = '{"name": "relay", "bin": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'
    for name, code, where in (("index.ts", esm, " at 'https://mcp.example.test/sse';"), ("index.js", cjs, " to another MCP server;")):
        led = coverage.ledger(program({name: code, "package.json": manifest}))
        whats = [u["what"] for u in led["unresolved"]]
        assert len(whats) == 1 and whats[0].startswith("a relay: `new ") and where in whats[0], whats
        line = next(i for i, ln in enumerate(code.splitlines(), 1) if "ClientTransport(" in ln)
        assert led["unresolved"][0]["anchor"]["start_line"] == line and led["complete"] is False


def test_a_server_class_of_a_dependency_extended_and_handed_the_capabilities_is_named_in_the_ledger():
    """`class X extends pkg.Base { constructor() { super({ server: { capabilities: { tools: {} } } }) } }`: the server is
    built by pkg (the key three objects deep); an SDK client handed the same options is not a handoff."""
    code = ('const kit_1 = require("@acme/openapi-mcp");\n'
            'const client_1 = require("@modelcontextprotocol/sdk/client/index.js");\n'
            'class Mine extends kit_1.OpenApiServer {\n'
            '  constructor(cfg) {\n'
            '    super({ server: { name: cfg.name, capabilities: { tools: {} } }, specDir: "spec" });\n'
            '  }\n}\n'
            'exports.make = (cfg) => new Mine(cfg);\n')
    led, whats = _ledger_with("@acme/openapi-mcp", {"index.js": code})
    assert len(whats) == 1 and whats[0].startswith(
        "the server is built by @acme/openapi-mcp, outside the boundary: `super(...) of a class that extends "
        "kit_1.OpenApiServer` (index.js:5)"), whats
    sdk_only = code.replace("kit_1.OpenApiServer", "client_1.Client")
    _, whats = _ledger_with("@acme/openapi-mcp", {"index.js": sdk_only})
    assert len(whats) == 1 and not whats[0].startswith("the server is built by"), whats


def test_unreached_server_code_is_a_gap_when_the_entry_reaches_no_tool():
    """The entry builds a server but registers nothing it reaches: the tools of unreached code are then kept
    (extract/facts.py), so that code is not set aside as dead and the audit stays incomplete."""
    rows, led = _unreached({"legacy/tools.ts": OLD_TOOLS, "legacy/quotes.ts": QUOTES})
    assert rows["legacy/tools.ts"]["status"] == "parsed, not reached" and led["complete"] is False


def test_a_subclass_of_the_sdk_server_registers_with_this():
    """`class NotesServer extends McpServer { setup() { this.tool("x", ...) } }`: each `this.tool` is a registration."""
    code = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
            'class NotesServer extends McpServer {\n'
            '  constructor() { super({ name: "notes", version: "1" }); this.setup(); }\n'
            '  setup() {\n'
            '    this.tool("list-notes", "List notes.", {}, async () => ({ content: [] }));\n'
            '    this.tool("add-note", "Add a note.", {}, async () => ({ content: [] }));\n'
            '  }\n}\n'
            'await new NotesServer().connect(new StdioServerTransport());\n')
    led = coverage.ledger(program({"index.ts": code, "package.json": MANIFEST.replace("index.js", "index.js")}))
    assert sorted(t["name"] for t in led["tools"]) == ["add-note", "list-notes"] and led["unresolved"] == []


def test_zero_tools_beside_calls_shaped_like_registrations_is_not_complete():
    """A server is built, no tool is found, but code calls `reg.tool("name", handler)` on a receiver not known to be a
    server: the ledger says so, and zero tools is not a complete result."""
    code = HEAD + ('const reg: any = makeRegistry(server);\n'
                   'reg.tool("lookup", async () => ({ content: [] }));\n') + TAIL
    led = coverage.ledger(program({"index.ts": code, "shapes.ts": SHAPES, "package.json": MANIFEST}))
    whats = [u["what"] for u in led["unresolved"]]
    assert led["tools"] == [] and len(whats) == 1 and whats[0].startswith(
        "no tool was found, but 1 call(s) of reached code are shaped like a tool registration") and not led["complete"]
    spread = HEAD + ('const reg: any = makeRegistry(server);\n'
                     'for (const entry of ENTRIES) reg.tool(...entry);\n') + TAIL  # a whole argument list: the same
    led = coverage.ledger(program({"index.ts": spread, "shapes.ts": SHAPES, "package.json": MANIFEST}))
    assert [u["what"][:60] for u in led["unresolved"]] == [whats[0][:60]] and not led["complete"]
    quiet = HEAD + 'console.error("resources only");\n' + TAIL  # no such call: nothing to say
    assert coverage.ledger(program({"index.ts": quiet, "shapes.ts": SHAPES, "package.json": MANIFEST}))["unresolved"] == []


def test_a_base_class_method_registers_this_name_of_each_subclass_instance():
    """`register(server) { server.tool(this.name, ..., this.execute.bind(this)) }` in a base class, `name = N` a field
    of each subclass, `new UiTool().register(server)` in the entry: one tool per instance, read by its field."""
    base = ('export class BaseTool {\n  register(server) {\n'
            '    server.tool(this.name, this.description, this.schema.shape, this.execute.bind(this));\n  }\n}\n')
    tool = ('import { z } from "zod";\nimport { BaseTool } from "./base.js";\nconst N = "ui_builder";\n'
            'export class UiTool extends BaseTool {\n  name = N;\n  description = "Build UI.";\n'
            '  schema = z.object({ q: z.string() });\n  async execute(a) { return { content: [] }; }\n}\n')
    index = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { UiTool } from "./tool.js";\n'
             'const server = new McpServer({ name: "m", version: "1" });\nnew UiTool().register(server);\n')
    led = coverage.ledger(program({"index.js": index, "tool.js": tool, "base.js": base, "package.json": MANIFEST}))
    assert [t["name"] for t in led["tools"]] == ["ui_builder"] and led["complete"]


def test_a_package_whose_tools_are_found_is_never_called_not_a_server():
    """The SDK bundled into the package's one file (no SDK dependency, its server class minified): tools are found
    through their registrations, so the ledger says no server object was read, not that this is no MCP server."""
    code = ('class Zq { tool(name, description, shape, cb) {} connect(t) {} }\n'
            'function register(server) {\n'
            '  server.tool("lookup", "Look up.", {}, async () => ({ content: [] }));\n}\n'
            'const s = new Zq();\nregister(s);\n')
    led = coverage.ledger(program({"index.js": code, "package.json": '{"name": "b", "bin": "index.js"}'}))
    whats = [u["what"] for u in led["unresolved"]]
    assert [t["name"] for t in led["tools"]] == ["lookup"]
    assert len(whats) == 1 and not whats[0].startswith("the server is built by"), whats


def test_code_not_analysed_is_never_said_to_be_no_mcp_server():
    """A package naming no SDK, one of whose files is over the read limit: that file may hold the server (a bundle of
    another framework), so the ledger names it instead of saying "not an MCP server"; with every file read, it says so."""
    files = {"index.js": 'import { run } from "./chunk.js";\nrun();\n',
             "chunk.js": "export function run() {}\n" + "// padding\n" * 400,
             "package.json": '{"name": "x", "bin": "index.js", "dependencies": {"some-framework": "1"}}'}
    (row,) = coverage.ledger(program(files, max_file_bytes=2000))["unresolved"]
    assert "not an MCP server" not in row["what"]
    assert row["what"].endswith("1 file(s) of the code were not analysed and may hold it: chunk.js")
    (row,) = coverage.ledger(program(files))["unresolved"]
    assert row["what"].startswith("not an MCP server, as far as the code shows")


def test_a_registration_shaped_call_not_read_beside_tools_found_leaves_the_audit_incomplete():
    """`this.reg.tool("b", ..., fn)` on a receiver not known to be a server, next to a tool that is read: the audit is
    not complete and the call is named; a call without a literal name and a function there (`prompt(questions,
    cb)` of another library) is not counted."""
    body = ('server.registerTool("a", { description: "A" }, async () => ({ content: [{ type: "text", text: "a" }] }));\n'
            'class Hidden { reg: any; constructor(x: any) { this.reg = makeShape(); }\n'
            '  go() { this.reg.tool("b", "B", {}, async () => ({ content: [] })); } }\n'
            'new Hidden(1).go();\n')
    led = _ledger(body)
    assert [t["name"] for t in led["tools"]] == ["a"] and led["complete"] is False
    (row,) = led["unresolved"]
    assert row["what"].startswith('1 call(s) of reached code are shaped like a tool registration') and "this.reg.tool" in row["what"]
    other = body.replace('this.reg.tool("b", "B", {}, async () => ({ content: [] }))', 'this.reg.prompt(questions(), handler)')
    assert _ledger(other)["complete"] is True


def test_a_server_handed_to_a_function_of_another_package_is_named_in_the_ledger():
    """`registerAll(tools, server)` of a package outside the boundary registers tools the code read does not show:
    when the code read registers none itself, the ledger names the package (zero tools is no result) and the audit is
    not complete. Beside tools of its own, or handed to a function of the code read, or when the name handed is not
    the server's (another binding of the same name), there is no such row."""
    code = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
            'import { registerAll } from "@acme/tool-adapter";\n'
            'function make() { return new McpServer({ name: "demo", version: "1" }); }\n'
            'const server = make();\n'
            'registerAll([], server);\n'
            'function other(server: string) { return registerAll([], server); }\n'
            'await server.connect(new StdioServerTransport());\n')
    own = ('export function registerOwn(s: any) {\n'
           '  s.registerTool("pong", { description: "Pong." }, async () => ({ content: [] }));\n}\n')
    led, whats = _ledger_with("@acme/tool-adapter", {"index.ts": code})
    assert led["tools"] == []
    assert whats == ["tools may be registered by @acme/tool-adapter, outside the boundary: `registerAll([], server)` "
                     "(index.ts:6) is handed a server of the code read; what that package registers is not read, so "
                     "the tools it serves are not known"], whats
    assert led["complete"] is False
    with_own = code.replace("registerAll([], server);\n", 'import { registerOwn } from "./own.js";\nregisterAll([], server);\n'
                            "registerOwn(server);\n")
    led, _ = _ledger_with("@acme/tool-adapter", {"index.ts": with_own, "own.ts": own})
    assert [t["name"] for t in led["tools"]] == ["pong"] and led["unresolved"] == [] and led["complete"] is True


def test_a_transport_connected_to_an_object_of_another_package_is_named_in_the_ledger():
    """`new pkg.Toolkit({...})` connected to the SDK's stdio transport: the server is that package's (compiled
    CommonJS), whatever server the code read constructs elsewhere."""
    code = ('const stdio_js_1 = require("@modelcontextprotocol/sdk/server/stdio.js");\n'
            'const kit_1 = require("@acme/agent-kit/mcp");\n'
            'async function main(token) {\n'
            '  const toolkit = new kit_1.Toolkit({ token, readOnly: true });\n'
            '  const transport = new stdio_js_1.StdioServerTransport();\n'
            '  await toolkit.connect(transport);\n'
            '}\n'
            'main(process.env.TOKEN);\n')
    led, whats = _ledger_with("@acme/agent-kit", {"index.js": code})
    assert any(w.startswith("tools may be registered by @acme/agent-kit, outside the boundary: `toolkit.connect(transport)` "
                            "(index.js:6) is connected to an SDK server transport") for w in whats), whats
    assert led["complete"] is False


def test_a_file_too_big_to_read_that_no_entry_reaches_does_not_make_the_audit_incomplete():
    """A stale bundle shipped beside the build (over max_file_bytes, unread), which neither the manifest's entries nor
    any module they reach names: not part of what the server runs, listed as such; named by an import, it is a gap
    that leaves the audit incomplete."""
    server = HEAD + 'server.registerTool("ping", { description: "Ping." }, async () => ({ content: [] }));\n' + TAIL
    stale = "// an old bundle\n" + "var x = 1;\n" * 400
    files = {"index.ts": server, "shapes.ts": SHAPES, "old/bundle.cjs": stale, "package.json": MANIFEST}
    led = coverage.ledger(program(files, max_file_bytes=3000))
    row = next(f for f in led["files"] if f["path"] == "old/bundle.cjs")
    assert row["status"] == "not analysed, not reached" and "no entry file names or reaches it" in row["reason"]
    assert led["complete"] is True
    named = {**files, "index.ts": server.replace(TAIL, 'if (process.env.OLD) await import("./old/bundle.cjs");\n' + TAIL)}
    led = coverage.ledger(program(named, max_file_bytes=3000))
    row = next(f for f in led["files"] if f["path"] == "old/bundle.cjs")
    assert row["status"] == "not analysed" and led["complete"] is False


def test_a_package_with_no_code_is_no_complete_audit_of_zero_tools():
    """A deprecated stub published with a manifest and a README only: zero tools is no result, the ledger says that
    no code file is in the boundary."""
    led = coverage.ledger(program({"package.json": '{"name": "stub", "version": "1.0.0"}',
                                   "README.md": "# stub\n\nUse the remote server instead.\n"}))
    assert led["tools"] == [] and led["complete"] is False
    assert [u["what"].split(" (")[0] for u in led["unresolved"]] == ["no code file in the boundary"]


def test_a_second_program_of_the_package_that_reaches_no_mcp_code_does_not_make_the_audit_incomplete():
    """The package also ships a CLI (its own bin) that imports no SDK and builds no server: a part of it that does not
    parse says nothing of the server, and is set aside; the same file reached from the server is a gap."""
    server = HEAD + 'server.registerTool("ping", { description: "Ping." }, async () => ({ content: [] }));\n' + TAIL
    cli = 'import { review } from "./review.js";\nreview(process.argv[2]);\n'
    review = 'export function review(p: string) {\n  let x: = 1;\n  return p;\n}\n'
    manifest = ('{"name": "demo", "bin": {"demo": "index.js", "demo-review": "cli.js"}, '
                '"dependencies": {"@modelcontextprotocol/sdk": "1"}}')
    files = {"index.ts": server, "shapes.ts": SHAPES, "cli.ts": cli, "review.ts": review, "package.json": manifest}
    led = coverage.ledger(program(files))
    rows = {f["path"]: f for f in led["files"]}
    assert led["entries"] == ["index.ts", "cli.ts"]
    assert rows["review.ts"]["gaps"] == 1 and rows["review.ts"]["status"] == "analysed, another program"
    assert "reached only from the entry cli.ts" in rows["review.ts"]["reason"]
    assert rows["index.ts"]["status"] == "analysed" and led["complete"] is True
    shared = {**files, "index.ts": server.replace(TAIL, 'import { review } from "./review.js";\nreview("x");\n' + TAIL)}
    led = coverage.ledger(program(shared))
    assert {f["path"]: f["status"] for f in led["files"]}["review.ts"] == "analysed" and led["complete"] is False
    # a CLI that loads a module by a computed path may load the server: not another program
    loads = {**files, "cli.ts": cli + 'await import(process.argv[3]);\n'}
    led = coverage.ledger(program(loads))
    assert {f["path"]: f["status"] for f in led["files"]}["review.ts"] == "analysed" and led["complete"] is False


def test_a_tools_request_schema_handed_to_a_call_not_read_as_a_handler_is_unresolved():
    """An obfuscated server names the method at run time (`server[decode(0xf2)](ListToolsRequestSchema, ...)`): no
    handler is read, so no tool, and the audit says why instead of passing as complete with nothing found."""
    code = ('import { Server } from "@modelcontextprotocol/sdk/server/index.js";\n'
            'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
            'import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";\n'
            'const table = ["setRequestHandler"];\nconst decode = (i) => table[i - 0xf2];\n'
            'const server = new Server({ name: "o", version: "1" }, { capabilities: { tools: {} } });\n'
            'server[decode(0xf2)](ListToolsRequestSchema, async () => ({ tools: [] }));\n'
            'await server.connect(new StdioServerTransport());\n')
    led = coverage.ledger(program({"index.ts": code, "package.json": MANIFEST}))
    assert len(led["unresolved"]) == 1 and led["unresolved"][0]["what"].startswith(
        "the request schema `ListToolsRequestSchema` is handed to `server[decode(0xf2)](")
    assert led["unresolved"][0]["anchor"]["start_line"] == 7 and led["complete"] is False
    # a minifier reuses the schema's local name for a parameter elsewhere: that one is no request schema
    reused = ('import { Server as e } from "@modelcontextprotocol/sdk/server/index.js";\n'
              'import { StdioServerTransport as t } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
              'import { ListToolsRequestSchema as r } from "@modelcontextprotocol/sdk/types.js";\n'
              'const s = new e({ name: "o", version: "1" }, { capabilities: { tools: {} } });\n'
              's.setRequestHandler(r, async () => ({ tools: [] }));\n'
              'function log(r) { console.error(r); }\nlog("x");\n'
              'await s.connect(new t());\n')
    assert coverage.ledger(program({"index.ts": reused, "package.json": MANIFEST}))["unresolved"] == []


def test_a_thin_bin_over_a_dependency_names_the_dependency_it_hands_off_to():
    """`const { tools } = require("demo-core/lib/bundle"); tools.start()`: no server is built in the code read, and
    the row says which dependency (not read) the entry hands off to; an entry importing none says no more."""
    code = 'const { tools } = require("demo-core/lib/bundle");\nconst path = require("path");\ntools.start(path.sep);\n'
    _, whats = _ledger_with("demo-core", {"index.js": code})
    assert len(whats) == 1 and whats[0].endswith(
        "; index.js hands off to demo-core: a dependency outside the boundary (not read) that may build it"), whats
    _, whats = _ledger_with("demo-core", {"index.js": 'console.log("nothing here");\n'})
    assert len(whats) == 1 and "hands off" not in whats[0], whats


# A package whose bin is an esbuild bundle of its own sources (marked `// src/...`, the dependencies external) and
# that also ships tsc's build of the same sources, which no entry imports; the bundle loads a plugin by a path
# computed at run time, so unreached server code is not known to be dead.
REGISTER = ('function register(server) {\n'
            '  server.registerTool("quote", { description: "A quote." }, async ({ symbol }) => ({\n'
            '    content: [{ type: "text", text: String(symbol) }] }));\n}\n')
BUNDLE = ('#!/usr/bin/env node\n'
          '// src/tools/quotes.ts\n' + REGISTER + '\n'
          '// src/index.ts\n'
          'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
          'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
          'const server = new McpServer({ name: "quotes", version: "1" });\n'
          'register(server);\n'
          'const plugin = await import(process.env.QUOTES_PLUGIN ?? "./none.js");\n'
          'plugin.install(server);\n'
          'await server.connect(new StdioServerTransport());\n')


def test_a_second_build_of_a_source_the_reached_bundle_marks_is_read_in_its_place():
    files = {"dist/cli.mjs": BUNDLE, "dist/tools/quotes.js": "export " + REGISTER,
             "package.json": '{"name": "quotes", "bin": "dist/cli.mjs", "dependencies": '
                             '{"@modelcontextprotocol/sdk": "1"}}'}
    led = coverage.ledger(program(files))
    rows = {r["path"]: r for r in led["files"]}
    assert rows["dist/tools/quotes.js"]["status"] == "read"
    assert rows["dist/tools/quotes.js"]["reason"].startswith(
        "a second build of src/tools/quotes.ts, which the bundle dist/cli.mjs holds")
    assert led["complete"] is True and [t["name"] for t in led["tools"]] == ["quote"]
    # a file of another name is no second build of anything the bundle holds: server code not reached, a gap
    files["dist/tools/prices.js"] = "export " + REGISTER
    led = coverage.ledger(program(files))
    rows = {r["path"]: r for r in led["files"]}
    assert rows["dist/tools/prices.js"]["status"] == "parsed, not reached"
    assert led["complete"] is False


_SERVICE = """"use strict";
var __decorate = (this && this.__decorate) || function (d, t) { return t; };
var __metadata = (this && this.__metadata) || function (k, v) { return function () {}; };
Object.defineProperty(exports, "__esModule", { value: true });
exports.ToolService = void 0;
const fs_1 = require("fs");
let ToolService = class ToolService {
    async handleToolCall(name, args) {
        switch (name) {
            case "read_note": return { content: [{ type: "text", text: fs_1.readFileSync(args.path, "utf8") }] };
            case "ping": return { content: [{ type: "text", text: "pong" }] };
        }
        throw new Error("unknown tool");
    }
};
exports.ToolService = ToolService;
exports.ToolService = ToolService = __decorate([
    (0, common_1.Injectable)()
], ToolService);
"""
_CONTROLLER = """"use strict";
var __decorate = (this && this.__decorate) || function (d, t) { return t; };
var __metadata = (this && this.__metadata) || function (k, v) { return function () {}; };
Object.defineProperty(exports, "__esModule", { value: true });
const index_js_1 = require("@modelcontextprotocol/sdk/server/index.js");
const types_js_1 = require("@modelcontextprotocol/sdk/types.js");
const tool_service_1 = require("./tool.service");
let McpController = class McpController {
    constructor(toolService, clock) {
        this.toolService = toolService;
        this.server = new index_js_1.Server({ name: "notes", version: "1" }, { capabilities: { tools: {} } });
        this.server.setRequestHandler(types_js_1.ListToolsRequestSchema, async () => ({ tools: [
            { name: "read_note", description: "Read a note", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
            { name: "ping", description: "Ping", inputSchema: { type: "object", properties: {} } },
        ] }));
        this.server.setRequestHandler(types_js_1.CallToolRequestSchema, async (request) => {
            const { name, arguments: args } = request.params;
            return await this.toolService.handleToolCall(name, args);
        });
    }
};
exports.McpController = McpController;
exports.McpController = McpController = __decorate([
    (0, common_1.Controller)("mcp"),
    __metadata("design:paramtypes", [tool_service_1.ToolService, Object])
], McpController);
"""


def test_a_dispatch_through_a_service_a_framework_injects_follows_the_compiler_s_parameter_types():
    """A NestJS controller compiled by tsc: `constructor(toolService, clock) { this.toolService = toolService }`,
    nothing in the code constructs it (the framework's injector does), and `__metadata("design:paramtypes",
    [tool_service_1.ToolService, Object])` on the class records what each parameter is: `this.toolService.
    handleToolCall(name, args)` is that class's method, whose switch dispatches each tool. Without the record
    (`[Object, Object]`) the field's class is not known and no tool is traced."""
    manifest = '{"name": "notes", "main": "controller.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'
    led = coverage.ledger(program({"controller.js": _CONTROLLER, "tool.service.js": _SERVICE, "package.json": manifest}))
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("ping", "analysed"), ("read_note", "analysed")]
    assert led["complete"] is True
    untyped = _CONTROLLER.replace("[tool_service_1.ToolService, Object]", "[Object, Object]")
    led = coverage.ledger(program({"controller.js": untyped, "tool.service.js": _SERVICE, "package.json": manifest}))
    assert {t["status"] for t in led["tools"]} == {"partially analysed"} and led["complete"] is False


def test_a_package_whose_only_code_file_is_too_big_to_read_says_so_not_that_it_has_no_code():
    """A package shipping one bundle over max_file_bytes and a README: no module is read, but there is code; the
    ledger names the file and why it was not read (not "a package of a manifest and documents only")."""
    files = {"package.json": '{"name": "big", "version": "1.0.0", "bin": "cli.mjs"}',
             "README.md": "# big\n", "cli.mjs": "// a bundle\n" + "var x = 1;\n" * 400}
    led = coverage.ledger(program(files, max_file_bytes=3000))
    (row,) = led["unresolved"]
    assert row["what"].startswith("no code file read: cli.mjs is not (not read: ") and "over the read limit" in row["what"]
    assert row["anchor"]["path"] == "cli.mjs" and led["complete"] is False
