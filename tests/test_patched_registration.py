"""A tracker that wraps the SDK's registration method (`server.registerTool = function (name, def, handler) {
return original(name, def, handler); }`, `original` the method bound before) forwards each registration made after
it: the call inside the wrapper registers nothing of its own, and is no gap. Every server here is written for the
test."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import MCP, SDK, program

TRACKER = ('export function track(server) {\n'
           '  const original = server.registerTool.bind(server);\n'
           '  let seen = 0;\n'
           '  server.registerTool = function (name, definition, handler) {\n'
           '    seen += 1;\n'
           '    return original(name, definition, handler);\n'
           '  };\n'
           '}\n')
INDEX = MCP + ('import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
               'import { track } from "./tracker.js";\n'
               'track(server);\n'
               'server.registerTool("alpha", { description: "A" }, async () => ({ content: [] }));\n'
               'server.registerTool("beta", { description: "B" }, async () => ({ content: [] }));\n'
               'await server.connect(new StdioServerTransport());\n')


LOW = SDK + ('import { track } from "./tracker.js";\n'
             'const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });\n'
             'track(server);\n'
             'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
             '  { name: "alpha", description: "A", inputSchema: { type: "object" } }] }));\n'
             'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
             '  if (request.params.name === "alpha") return { content: [] };\n'
             '  throw new Error("unknown tool");\n'
             '});\n'
             'await server.connect(new StdioServerTransport());\n')


def test_a_wrapper_patched_over_the_registration_method_forwards_and_is_no_gap():
    """Registrations made through the wrapper are read where they are written; a server that makes none (a low-level
    one the tracker is handed all the same) registers nothing through it."""
    for index, tools in [(INDEX, ["alpha", "beta"]), (LOW, ["alpha"])]:
        p = program({"index.js": index, "tracker.js": TRACKER,
                     "package.json": '{"name": "s", "type": "module", "main": "index.js"}'})
        assert sorted(t.name for t in p.tools) == tools
        assert [g.detail for g in p.gaps if g.kind == "registration"] == []
        assert coverage.ledger(p)["complete"] is True


def test_a_wrapper_cast_to_the_method_s_type_forwards_too():
    """TypeScript's `base.registerTool = ((name: string, config: any, cb: any) => { ... }) as
    McpServer["registerTool"]` in a class's constructor: the cast around the arrow changes nothing. With no
    registration after it in the boundary (a package's sources shipped without the tools' module) it registers
    nothing and is no gap; with one, that one is read where it is written."""
    index = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
             'export class Tracked {\n'
             '  server: McpServer;\n'
             '  seen = new Map<string, unknown>();\n'
             '  constructor() {\n'
             '    const base = new McpServer({ name: "s", version: "1.0.0" });\n'
             '    const original: any = base.registerTool.bind(base);\n'
             '    base.registerTool = ((name: string, config: any, cb: any) => {\n'
             '      this.seen.set(name, config);\n'
             '      return original(name, config, cb);\n'
             '    }) as McpServer["registerTool"];\n'
             '    this.server = base;\n'
             '  }\n'
             '}\n')
    for later, tools in [("", []),
                         ("new Tracked().server.registerTool(\"alpha\", { description: \"A\" }, async () => ({ content: [] }));\n",
                          ["alpha"])]:
        p = program({"index.ts": index + later, "package.json": '{"name": "s", "type": "module", "main": "index.ts"}'})
        assert sorted(t.name for t in p.tools) == tools
        assert [g.detail for g in p.gaps if g.kind == "registration"] == []


def test_a_registration_in_a_function_assigned_elsewhere_is_still_read():
    """Assigned to a member of another name (`api.add = (name) => original(name, ...)`), the call is a registration
    like any other: a name not known is a gap."""
    tracker = TRACKER.replace("server.registerTool = function", "server.addTool = function")
    p = program({"index.js": INDEX, "tracker.js": tracker,
                 "package.json": '{"name": "s", "type": "module", "main": "index.js"}'})
    assert any("registerTool() with a name that is not a literal" in g.detail for g in p.gaps if g.kind == "registration")



SPREAD_TRACKER = ('export function track(server) {\n'
                  '  const calls = [];\n'
                  '  const originalPrompt = server.prompt?.bind(server);\n'
                  '  if (originalPrompt) {\n'
                  '    server.prompt = function (...args) {\n'
                  '      calls.push(args);\n'
                  '      return originalPrompt(...args);\n'
                  '    };\n'
                  '  }\n'
                  '}\n')


def test_a_wrapper_handing_on_all_its_arguments_registers_what_goes_through_it():
    """`server.prompt = function (...args) { return original(...args); }`: with no prompt registered after it, it
    registers nothing and is no gap; handed on in part (`original(...args.slice(1))`) it is a registration of its own;
    a registration method wrapped so still registers each tool written after it."""
    files = {"index.js": INDEX, "package.json": '{"name": "s", "type": "module", "main": "index.js"}'}
    p = program({**files, "tracker.js": SPREAD_TRACKER})
    assert [g.detail for g in p.gaps if g.kind == "registration"] == []
    assert coverage.ledger(p)["complete"] is True
    p = program({**files, "tracker.js": SPREAD_TRACKER.replace("originalPrompt(...args)", "originalPrompt(...args.slice(1))")})
    assert any("prompt() with a name that is not a literal" in g.detail for g in p.gaps if g.kind == "registration")
    tools = SPREAD_TRACKER.replace("prompt", "registerTool").replace("Prompt", "RegisterTool")
    p = program({**files, "tracker.js": tools})
    assert sorted(t.name for t in p.tools) == ["alpha", "beta"]
    assert [g.detail for g in p.gaps if g.kind == "registration"] == []


GUARDED = ('import { FastMCP } from "fastmcp";\n'
           'import { z } from "zod";\n'
           'const server = new FastMCP({ name: "s", version: "1.0.0" });\n'
           'function guard(tool, { log }) {\n'
           '  const execute = tool.execute;\n'
           '  return { ...tool, execute: async (args, ctx) => { if (log) console.error(tool.name); return execute(args, ctx); } };\n'
           '}\n'
           'const addTool = server.addTool.bind(server);\n'
           'server.addTool = ((tool) => {\n'
           '  if (process.env.ONLY && process.env.ONLY !== tool.name) return;\n'
           '  addTool(guard(tool, { log: true }));\n'
           '});\n'
           'server.addTool({ name: "scrape", description: "Scrape.", parameters: z.object({}), execute: async () => "x" });\n'
           'server.addTool({ name: "map", description: "Map.", parameters: z.object({}), execute: async () => "y" });\n'
           'server.start({ transportType: "stdio" });\n')


def test_a_wrapper_handing_on_a_copy_of_each_tool_it_is_handed_is_no_gap():
    """`server.addTool = (tool) => { addTool(guard(tool, opts)) }`, guard returning `{ ...tool, execute }`: each tool
    goes on under its own name, read where `server.addTool({...})` is written (expect: both tools, no registration
    gap). A copy named anew (`{ ...tool, name: "x_" + tool.name }`) is not what the calls name: the gap stays."""
    p = program({"index.js": GUARDED, "package.json": '{"name": "s", "type": "module", "main": "index.js"}'})
    assert sorted(t.name for t in p.tools) == ["map", "scrape"]
    assert [g.detail for g in p.gaps if g.kind == "registration"] == []
    renamed = GUARDED.replace("return { ...tool, execute:", 'return { ...tool, name: "x_" + tool.name, execute:')
    p = program({"index.js": renamed, "package.json": '{"name": "s", "type": "module", "main": "index.js"}'})
    assert [g for g in p.gaps if g.kind == "registration"] != []
