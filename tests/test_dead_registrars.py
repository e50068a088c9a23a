"""A registration written in a function nothing calls registers nothing (extract/dead.py): a generated server's
registrar for a kind it has none of, made by a factory and held only by locals nothing reads, is no gap; a registrar
that is called, or whose value goes where calls may be unseen, is read or stays a gap."""

from __future__ import annotations

from program_helpers import program

SERVER = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
function createRegisterTool(server) {
  return (tool) => { server.tool(tool.name, tool.description, async (ctx) => tool.tool(ctx)); };
}
function createRegisterPrompt(server) {
  return (prompt) => { server.prompt(prompt.name, async (ctx) => prompt.prompt(ctx)); };
}
function createRegisterResource(server) {
  return (resource) => { server.resource(resource.name, resource.uri, async (uri) => resource.read(uri)); };
}
const tool$ping = { name: "ping", description: "Ping", tool: async () => ({ content: [] }) };
export function createServer() {
  const server = new McpServer({ name: "gen", version: "1.0.0" });
  const tool = createRegisterTool(server);
  const prompt = createRegisterPrompt(server);
  const resource = createRegisterResource(server);
  const register = { tool, prompt, resource };
  void register;
  tool(tool$ping);
  return server;
}
await createServer().connect(new StdioServerTransport());
'''
PACKAGE = '{"name": "gen", "version": "1.0.0", "bin": {"gen": "dist/index.js"}}'


def test_registrars_nothing_calls_register_nothing_and_leave_no_gap():
    p = program({"package.json": PACKAGE, "dist/index.js": SERVER})
    assert [t.name for t in p.tools] == ["ping"]
    assert [(r.kind, r.name) for r in p.registrations] == [("tool", "ping")]
    assert not p.gaps


def test_a_registrar_whose_value_is_handed_on_stays_a_gap():
    handed = SERVER.replace("  void register;\n", "  void register;\n  extend(register);\n")
    p = program({"package.json": PACKAGE, "dist/index.js": handed})
    assert [t.name for t in p.tools] == ["ping"]
    assert sorted(g.detail for g in p.gaps) == [
        "prompt() with a name that is not a literal (`prompt.name`): what it registers is not analysed",
        "resource() with a name that is not a literal (`resource.name`): what it registers is not analysed"]


def test_a_registrar_returned_to_the_caller_stays_a_gap():
    returned = SERVER.replace("  return server;\n}", "  return { server, prompt };\n}").replace(
        "await createServer().connect", "await createServer().server.connect")
    p = program({"package.json": PACKAGE, "dist/index.js": returned})
    assert any("prompt.name" in g.detail for g in p.gaps)
    assert not any("resource.name" in g.detail for g in p.gaps)


HELPERS = '''import { z } from "zod";
export const idSchema = z.string().uuid();
export function registerTool(server, tool) {
  server.tool(tool.name, tool.description, tool.parameters, async (params) => tool.execute(params));
}
'''
MAIN = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { idSchema } from "./helpers.js";
const server = new McpServer({ name: "tasks", version: "1.0.0" });
server.tool("get_task", "Get a task", { id: idSchema }, async ({ id }) => ({ content: [{ type: "text", text: id }] }));
await server.connect(new StdioServerTransport());
'''
TASKS = '{"name": "tasks", "version": "1.0.0", "bin": {"tasks": "src/index.js"}}'


def test_an_exported_registrar_no_module_names_registers_nothing():
    """helpers.js is imported (for idSchema), but nothing names its exported registerTool: no caller can exist in the
    program, and the package's face is index.js."""
    p = program({"package.json": TASKS, "src/index.js": MAIN, "src/helpers.js": HELPERS})
    assert [t.name for t in p.tools] == ["get_task"]
    assert not p.gaps


def test_an_exported_registrar_stays_a_gap_when_named_or_on_the_package_face():
    used = MAIN.replace('import { idSchema } from "./helpers.js";', 'import { idSchema, registerTool } from "./helpers.js";'
                        ).replace("await server.connect", "registerTool(server, globalThis.extra);\nawait server.connect")
    p = program({"package.json": TASKS, "src/index.js": used, "src/helpers.js": HELPERS})
    assert any("tool.name" in g.detail for g in p.gaps)
    # a module nothing imports (a library's entry: its exports are for other programs) keeps its gap
    alone = MAIN.replace('import { idSchema } from "./helpers.js";\n', "").replace("{ id: idSchema }", "{ id: z.string() }")
    p = program({"package.json": TASKS, "src/index.js": 'import { z } from "zod";\n' + alone, "src/helpers.js": HELPERS})
    assert any("tool.name" in g.detail for g in p.gaps)


REGISTRY = '''import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const SHOUT = { name: "shout", description: "Shout", inputSchema: { type: "object", properties: {} } };
class Registry {
  constructor() {
    this.tools = new Map();
    for (const tool of [SHOUT]) this.tools.set(tool.name, tool);
  }
  list() { return Array.from(this.tools.values()); }
  // TODO: discovery; until then call addTool(tool) by hand
  addTool(tool) { this.tools.set(tool.name, tool); }
  describe() { console.error("no discovery yet: add tools with addTool()"); }
}
const registry = new Registry();
registry.describe();
const server = new Server({ name: "reg", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: registry.list() }));
await server.connect(new StdioServerTransport());
'''


def test_a_method_named_only_in_a_comment_or_a_message_is_never_called():
    """`addTool` written in a comment and in a log line's text is called by nothing: the objects its parameter could
    add do not leave the list unread; a string that is the name alone (`registry["addTool"](t)`) may call it."""
    p = program({"package.json": PACKAGE, "dist/index.js": REGISTRY})
    assert [t.name for t in p.tools] == ["shout"] and not [l for l in p.listings if l.unread]
    named = REGISTRY.replace("registry.describe();\n", 'registry.describe();\nexport const add = (t) => registry["addTool"](t);\n')
    assert [l for l in program({"package.json": PACKAGE, "dist/index.js": named}).listings if l.unread]
