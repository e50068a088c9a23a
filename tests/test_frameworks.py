"""Servers of other MCP frameworks whose options object holds the tools in records keyed by name (kb/sdk.yaml
framework_servers, auditor/extract/frameworks.py): each key is a tool, under the name the framework advertises;
what is not read stays unresolved, and the framework's import is reported where its server is not read."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import program

MANIFEST = '{"name": "demo", "bin": "index.js", "dependencies": {"@mastra/mcp": "1"}}'
HEAD = 'import { MCPServer } from "@mastra/mcp";\n'


def _unresolved(p) -> list[str]:
    return [u["what"] for u in coverage.ledger(p)["unresolved"]]


def test_agents_and_workflows_records_are_tools_under_the_frameworks_prefixes():
    code = HEAD + ('const ping = { description: "Ping.", execute: async () => "pong" };\n'
                   'const tutor = makeAgent();\n'
                   'const server = new MCPServer({ name: "d", version: "1", tools: { ping },\n'
                   '  agents: { tutor }, workflows: { "nightly-sync": syncFlow } });\n')
    p = program({"index.ts": code, "package.json": MANIFEST})
    assert sorted((t.name, t.form) for t in p.tools) == [
        ("ask_tutor", "framework-record"), ("ping", "framework-record"), ("run_nightly-sync", "framework-record")]
    assert [t.description for t in p.tools if t.name == "ping"] == ["Ping."]
    assert [s.cls for s in p.servers] == ["MCPServer"]
    assert not any("imports @mastra/mcp" in u for u in _unresolved(p))  # read whole: the framework is accounted for


def test_a_tools_record_that_is_not_read_leaves_the_framework_unresolved():
    code = HEAD + ('function makeTools(): any { return globalThis.registry; }\n'
                   'const server = new MCPServer({ name: "d", version: "1", tools: { ...makeTools(), known: { execute: async () => "" } } });\n')
    p = program({"index.ts": code, "package.json": MANIFEST})
    assert [t.name for t in p.tools] == ["known"]
    whats = _unresolved(p)
    assert any("imports @mastra/mcp" in u for u in whats)
    assert any("`tools` record `makeTools()` is not read whole" in g.detail for g in p.gaps)
    assert not coverage.ledger(p)["complete"]


def test_a_class_of_the_same_name_from_elsewhere_is_not_the_frameworks():
    code = ('import { MCPServer } from "./local.js";\n'
            'const server = new MCPServer({ name: "d", version: "1", tools: { ping: { execute: async () => "" } } });\n')
    p = program({"index.ts": code, "local.ts": "export class MCPServer { constructor(o: any) {} }\n",
                 "package.json": MANIFEST})
    assert p.tools == () and p.servers == ()


def test_importing_the_framework_without_constructing_its_server_stays_unresolved():
    code = ('import { MCPClient } from "@mastra/mcp";\n'
            'export const client = new MCPClient({ servers: {} });\n')
    p = program({"index.ts": code, "package.json": MANIFEST})
    assert p.tools == ()
    assert any("imports @mastra/mcp" in u for u in _unresolved(p))


FACTORY_MANIFEST = '{"name": "demo", "bin": "index.js", "dependencies": {"@cyanheads/mcp-ts-core": "1"}}'
DEFS = '''import { tool, z } from "@cyanheads/mcp-ts-core";
export const searchTool = tool("notes_search", {
  description: "Search the notes.",
  input: z.object({ query: z.string().describe("Words to find") }),
  async handler(input) { return { hits: [input.query] }; },
});
export const extraTool = tool("notes_extra", { description: "Extra.", input: z.object({}), handler: async () => ({}) });
export function buildFindTool(opts) {
  return tool("notes_find", { description: opts.deep ? "Find deeply." : "Find.", input: z.object({}), handler: async () => ({}) });
}
'''


def test_a_factory_made_server_lists_tool_definitions_by_the_packages_definer():
    # `createApp({ tools: [...] })`: each element a `tool(name, {...})` of the package (imported, or behind a spread
    # ternary: both branches), or an object literal with a name; what is neither is a registration not read
    code = ('import { createApp } from "@cyanheads/mcp-ts-core";\n'
            'import { searchTool, extraTool, buildFindTool } from "./defs.js";\n'
            'const withExtra = process.env.EXTRA === "1";\n'
            'const plain = { name: "notes_ping", description: "Ping.", input: undefined, handler: async () => ({}) };\n'
            'const findTool = buildFindTool({ deep: true });\n'
            'await createApp({ tools: [searchTool, plain, findTool, ...(withExtra ? [extraTool] : [])], resources: [] });\n')
    p = program({"index.ts": code, "defs.ts": DEFS, "package.json": FACTORY_MANIFEST})
    tools = {t.name: t for t in p.tools}
    assert sorted(tools) == ["notes_extra", "notes_find", "notes_ping", "notes_search"]  # (notes_find: by a factory)
    assert tools["notes_search"].description == "Search the notes."
    assert tools["notes_search"].schema["properties"] == {"query": {"type": "string", "description": "Words to find"}}
    assert tools["notes_search"].schema_form == "zod"  # (`z` re-exported by the framework: kb zod.reexported_by)
    assert {d.tool for d in p.dispatches if d.target is not None} == {"notes_extra", "notes_find", "notes_ping",
                                                                       "notes_search"}
    assert [s.cls for s in p.servers] == ["createApp"]
    unknown = code.replace("searchTool, plain,", "searchTool, plain, makeMore(),")
    p = program({"index.ts": unknown + "function makeMore(): any { return globalThis.more; }\n", "defs.ts": DEFS,
                 "package.json": FACTORY_MANIFEST})
    assert any("an element `makeMore()` of the `tools` list is not read" in g.detail for r in p.registrations for g in r.gaps)


def test_a_definer_of_the_same_name_from_elsewhere_defines_nothing():
    code = ('import { createApp } from "@cyanheads/mcp-ts-core";\n'
            'import { tool } from "./mine.js";\n'
            'await createApp({ tools: [tool("x_probe", { description: "Probe." })] });\n')
    p = program({"index.ts": code, "mine.ts": "export function tool(n: string, o: any): any { return null; }\n",
                 "package.json": FACTORY_MANIFEST})
    assert p.tools == ()


def test_a_record_of_tools_made_by_a_builder_chain_names_them_and_traces_the_callback():
    """`createServer({ tools: { fetch_page: fetchPage } })` of a framework whose tools are built by a chain
    (`tool().description(d).input(s).handler(fn)`, kb/sdk.yaml @sylphx/mcp-server-sdk): the key is the tool, the
    handler the chain is handed is its implementation; description and schema are a detail not read."""
    code = ('import { createServer, tool, stdio } from "@sylphx/mcp-server-sdk";\n'
            'import { readFileSync } from "node:fs";\n'
            'const fetchPage = tool()\n'
            '  .description("Read a page from disk.")\n'
            '  .input({ path: "string" })\n'
            '  .handler(async ({ input }) => ({ content: [{ type: "text", text: readFileSync(input.path, "utf8") }] }));\n'
            'const server = createServer({ name: "pages", version: "1.0.0", tools: { fetch_page: fetchPage }, '
            'transport: stdio() });\n'
            'await server.start();\n')
    manifest = '{"name": "pages", "bin": "index.js", "dependencies": {"@sylphx/mcp-server-sdk": "2"}}'
    p = program({"index.ts": code, "package.json": manifest})
    assert [t.name for t in p.tools] == ["fetch_page"]
    (d,) = [d for d in p.dispatches if d.tool == "fetch_page"]
    assert d.target is not None and d.target.type == "arrow_function" and d.target.start_point[0] + 1 == 6
    led = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("fetch_page", "analysed, details not read")]
    assert led["unresolved"] == [] and led["complete"] is True


def test_tool_classes_a_framework_finds_on_disk_are_its_tools():
    """mcp-framework (kb/sdk.yaml framework_tool_classes): `new MCPServer().start()` serves each class of the
    `tools` folder that extends MCPTool, though no code imports them; a class whose name is not a literal leaves its
    module unresolved, and without the framework's server no class is a tool."""
    index = 'import { MCPServer } from "mcp-framework";\nconst server = new MCPServer();\nserver.start();\n'
    echo = ('import { MCPTool } from "mcp-framework";\nimport { z } from "zod";\n'
            'class EchoTool extends MCPTool {\n'
            '  name = "echo";\n'
            '  description = "Say it back.";\n'
            '  schema = { text: { type: z.string(), description: "What to say" } };\n'
            '  async execute(input: { text: string }) { return input.text; }\n'
            '}\nexport default EchoTool;\n')
    shout = echo.replace("EchoTool", "ShoutTool").replace('"echo"', '"shout"')
    manifest = '{"name": "echo", "bin": "dist/index.js", "dependencies": {"mcp-framework": "0.2"}}'
    files = {"dist/index.js": index, "dist/tools/EchoTool.js": echo, "dist/tools/ShoutTool.js": shout,
             "package.json": manifest}
    p = program(files)
    assert sorted((t.name, t.description) for t in p.tools) == [("echo", "Say it back."), ("shout", "Say it back.")]
    assert {d.tool: d.target_name for d in p.dispatches} == {"echo": "EchoTool.execute", "shout": "ShoutTool.execute"}
    led = coverage.ledger(p)
    assert [t["status"] for t in led["tools"]] == ["analysed, details not read"] * 2
    assert led["unresolved"] == [] and led["complete"] is True
    computed = {**files, "dist/tools/ShoutTool.js": shout.replace('name = "shout";', 'name = process.env.N ?? "x";')}
    led = coverage.ledger(program(computed))
    assert [t["name"] for t in led["tools"]] == ["echo"]
    assert [u["anchor"]["path"] for u in led["unresolved"]] == ["dist/tools/ShoutTool.js"] and led["complete"] is False
    assert program({**files, "dist/index.js": "export {};\n"}).tools == ()
