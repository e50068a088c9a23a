"""A tool registered in a function of the server's own that no reached code calls or names is not served
(auditor/extract/served.py): it is listed as such in the ledger, never counted as a tool of the server."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import program

MANIFEST = '{"name": "demo", "bin": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'
INDEX = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
         'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
         'import { registerListTool, registerInfoTool, extras } from "./tools.js";\n'
         'const server = new McpServer({ name: "demo", version: "1" });\n'
         'registerListTool(server);\n'
         'for (const add of extras) add(server);\n'
         'await server.connect(new StdioServerTransport());\n')
TOOLS = ('export const registerListTool = (server: any) => {\n'
         '  server.tool("list_apps", "List apps.", {}, async () => ({ content: [] }));\n'
         '};\n'
         'export function registerInfoTool(server: any) {\n'
         '  server.tool("app_info", "Show one app.", {}, async () => ({ content: [] }));\n'
         '}\n'
         'export const registerOldTool = (server: any) => {\n'
         '  server.tool("old_pipelines", "Old.", {}, async () => ({ content: [] }));\n'
         '};\n'
         'function registerLogsTool(server: any) {\n'
         '  server.tool("app_logs", "Logs.", {}, async () => ({ content: [] }));\n'
         '}\n'
         'export const extras = [registerLogsTool];\n')


def test_a_registration_function_nothing_names_is_not_served_and_is_listed_as_such():
    p = program({"index.ts": INDEX, "tools.ts": TOOLS, "package.json": MANIFEST})
    # registerInfoTool is imported (named) though never called: kept, the import may hand it on
    assert sorted(t.name for t in p.tools) == ["app_info", "app_logs", "list_apps"]
    assert [(t.name, t.binding) for t in p.unserved] == [("old_pipelines", "registerOldTool")]
    led = coverage.ledger(p)
    row = next(r for r in led["unadvertised"] if r["name"] == "old_pipelines")
    assert row["file"] == "tools.ts" and row["line"] == 8 and "`registerOldTool`" in row["reason"]


def test_compiled_commonjs_exports_are_not_a_use():
    """`exports.f = f` only exports f; the entry's `tools_1.registerListTool(server)` is a use."""
    index = ('const mcp_1 = require("@modelcontextprotocol/sdk/server/mcp.js");\n'
             'const tools_1 = require("./tools.js");\n'
             'const server = new mcp_1.McpServer({ name: "demo", version: "1" });\n'
             'tools_1.registerListTool(server);\n')
    tools = ('const registerListTool = (server) => {\n'
             '  server.tool("list_apps", "List apps.", {}, async () => ({ content: [] }));\n};\n'
             'exports.registerListTool = registerListTool;\n'
             'const registerOldTool = (server) => {\n'
             '  server.tool("old_pipelines", "Old.", {}, async () => ({ content: [] }));\n};\n'
             'exports.registerOldTool = registerOldTool;\n')
    p = program({"index.js": index, "tools.js": tools, "package.json": MANIFEST})
    assert [t.name for t in p.tools] == ["list_apps"] and [t.name for t in p.unserved] == ["old_pipelines"]


def test_a_package_whose_entry_builds_no_server_keeps_its_registration_functions():
    """A library of registration functions for its users to call: nothing is set aside."""
    lib = '{"name": "kit", "main": "tools.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'
    p = program({"tools.ts": TOOLS, "package.json": lib})
    assert sorted(t.name for t in p.tools) == ["app_info", "app_logs", "list_apps", "old_pipelines"]
    assert p.unserved == ()


def test_a_function_exported_under_another_name_is_used_by_that_name():
    """A bundle chunk writes `export { Pc as g }` and the entry calls `g(server)`: Pc is served."""
    chunk = ('function Pc(server: any) {\n'
             '  server.registerTool("add-task", { description: "Add." }, async () => ({ content: [] }));\n'
             '}\nexport { Pc as g };\n')
    index = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { g } from "./chunk.js";\n'
             'const server = new McpServer({ name: "demo", version: "1" });\ng(server);\n')
    p = program({"index.ts": index, "chunk.ts": chunk, "package.json": MANIFEST})
    assert [t.name for t in p.tools] == ["add-task"] and p.unserved == ()


def test_a_default_export_is_served_under_the_name_its_importer_gives_it():
    """`export default function addAutomationTools(server)` imported as `addAutomateTools` and called from a list of
    adders: its own name is written nowhere else, yet it is served (a default export is imported under any name), as
    is one exported by `export default f;`."""
    index = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
             'import addAutomateTools from "./automate.js";\nimport addLogs from "./logs.js";\n'
             'const server = new McpServer({ name: "demo", version: "1" });\n'
             'for (const adder of [addAutomateTools, addLogs]) adder(server);\n')
    automate = ('export default function addAutomationTools(server: any) {\n'
                '  server.tool("fetch_shots", "Shots.", {}, async () => ({ content: [] }));\n}\n')
    logs = ('function registerLogs(server: any) {\n  server.tool("get_logs", "Logs.", {}, async () => ({ content: [] }));\n}\n'
            'export default registerLogs;\n')
    p = program({"index.ts": index, "automate.ts": automate, "logs.ts": logs, "package.json": MANIFEST})
    assert sorted(t.name for t in p.tools) == ["fetch_shots", "get_logs"] and p.unserved == ()


def test_an_adder_only_re_exported_is_not_served_by_the_server_the_entry_builds():
    """The entry builds and runs its server with the adders it imports, and re-exports two more for others to call
    (`export { default as addDrafts } from "./drafts.js"`, `export { addArchive } from "./archive.js"`): those two
    register on no server the package runs. A default export re-exported and imported under its new name is."""
    index = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
             'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
             'import addAutomateTools from "./automate.js";\nimport { addLogs } from "./barrel.js";\n'
             'const server = new McpServer({ name: "demo", version: "1" });\n'
             'addAutomateTools(server);\naddLogs(server);\n'
             'await server.connect(new StdioServerTransport());\n'
             'export { default as addDrafts } from "./drafts.js";\nexport { addArchive } from "./archive.js";\n')
    automate = ('export default function addAutomationTools(server: any) {\n'
                '  server.tool("fetch_shots", "Shots.", {}, async () => ({ content: [] }));\n}\n')
    drafts = ('export default function addDrafts(server: any) {\n'
              '  server.tool("save_draft", "Save.", {}, async () => ({ content: [] }));\n}\n')
    archive = ('export function addArchive(server: any) {\n'
               '  server.tool("archive_run", "Archive.", {}, async () => ({ content: [] }));\n}\n')
    logs = ('export default function registerLogs(server: any) {\n'
            '  server.tool("get_logs", "Logs.", {}, async () => ({ content: [] }));\n}\n')
    barrel = 'export { default as addLogs } from "./logs.js";\n'
    p = program({"index.ts": index, "automate.ts": automate, "drafts.ts": drafts, "archive.ts": archive,
                 "logs.ts": logs, "barrel.ts": barrel, "package.json": MANIFEST})
    assert sorted(t.name for t in p.tools) == ["fetch_shots", "get_logs"]
    assert sorted((t.name, t.binding) for t in p.unserved) == [("archive_run", "addArchive"), ("save_draft", "addDrafts")]


def test_adders_of_a_module_imported_whole_through_star_re_exports_are_served():
    """`import * as tools from "./tools/index.js"` of an index that re-exports every adder (`export * from
    "./a.js"`), run by `Object.values(tools).forEach((add) => add(server))`: each adder is named by the namespace."""
    index = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
             'import * as tools from "./tools/index.js";\n'
             'const server = new McpServer({ name: "demo", version: "1" });\n'
             'Object.values(tools).forEach((add) => add(server));\n')
    barrel = 'export * from "./shots.js";\nexport * from "./logs.js";\n'
    shots = ('export const shotsTool = (server: any) => {\n'
             '  server.registerTool("fetch_shots", { description: "Shots." }, async () => ({ content: [] }));\n};\n')
    logs = ('export function logsTool(server: any) {\n'
            '  server.registerTool("get_logs", { description: "Logs." }, async () => ({ content: [] }));\n}\n')
    p = program({"index.ts": index, "tools/index.ts": barrel, "tools/shots.ts": shots, "tools/logs.ts": logs,
                 "package.json": MANIFEST})
    assert sorted(t.name for t in p.tools) == ["fetch_shots", "get_logs"] and p.unserved == ()


def test_a_server_whose_every_registration_is_set_aside_is_not_complete():
    """No tool served and every registration set aside as in a function nothing names: zero tools is no result, the
    ledger says so and the audit is not complete."""
    index = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
             'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
             'import { VERSION } from "./tools.js";\n'
             'const server = new McpServer({ name: "demo", version: VERSION });\n'
             'await server.connect(new StdioServerTransport());\n')
    tools = ('export const VERSION = "1";\n'
             'export const registerListTool = (server: any) => {\n'
             '  server.tool("list_apps", "List apps.", {}, async () => ({ content: [] }));\n'
             '};\n'
             'export function registerInfoTool(server: any) {\n'
             '  server.tool("app_info", "Show one app.", {}, async () => ({ content: [] }));\n'
             '}\n')
    p = program({"index.ts": index, "tools.ts": tools, "package.json": MANIFEST})
    assert p.tools == () and len(p.unserved) == 2
    led = coverage.ledger(p)
    assert led["complete"] is False
    row = next(r for r in led["unresolved"] if "set aside" in r["what"])
    assert row["anchor"] == {"path": "tools.ts", "start_line": 3, "end_line": 3} or row["anchor"]["path"] == "tools.ts"
    assert "`registerInfoTool`, `registerListTool`" in row["what"]
