"""A server that loads its tools from a folder at run time (an autoloader: `readdir` of `join(__dirname, "tools")`,
then `await import(join(toolsDir, file))` of each file): every code module of that folder is loaded, so its exports
are what the import gives, and the modules are reached (extract/folders.py)."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import SDK, program

LOADER = '''import { readdir } from "fs/promises";
import { join, dirname } from "path";
import { fileURLToPath } from "url";
const here = dirname(fileURLToPath(import.meta.url));
export async function discoverTools() {
  const toolsDir = join(here, "tools");
  const files = await readdir(toolsDir);
  const tools = [];
  for (const file of files.filter((f) => f.endsWith(".js"))) {
    const mod = await import(join(toolsDir, file));
    if (mod.toolDefinition) tools.push(mod.toolDefinition);
  }
  return tools;
}
'''

SERVER = SDK + '''import { discoverTools } from "./autoloader.js";
const server = new Server({ name: "s", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (await discoverTools()).map((t) => t.spec) }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tools = await discoverTools();
  const tool = tools.find((t) => t.spec.name === request.params.name);
  if (!tool) throw new Error("unknown tool");
  return tool.handler(request.params.arguments);
});
await server.connect(new StdioServerTransport());
'''


def _tool(name: str) -> str:
    return (f'export const toolDefinition = {{\n'
            f'  spec: {{ name: "{name}", description: "Does {name}.", inputSchema: {{ type: "object", properties: {{}} }} }},\n'
            f'  handler: async (args) => ({{ content: [{{ type: "text", text: "{name}" }}] }}),\n}};\n')


FILES = {"dist/index.js": SERVER, "dist/autoloader.js": LOADER, "dist/tools/pull.js": _tool("pull"),
         "dist/tools/push.js": _tool("push"), "dist/tools/push.test.js": _tool("test_only"),
         "package.json": '{"name": "s", "bin": "dist/index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'}


def test_the_modules_of_a_folder_an_autoloader_imports_are_listed_and_reached():
    p = program(FILES)
    assert sorted(t.name for t in p.tools) == ["pull", "push"]
    led = coverage.ledger(p)
    rows = {f["path"]: f["status"] for f in led["files"]}
    assert rows["dist/tools/pull.js"] == "analysed" and rows["dist/tools/push.js"] == "analysed"
    assert led["unresolved"] == []


def test_a_folder_outside_the_module_s_own_or_a_literal_file_is_not_such_a_load():
    """`import(join(here, "..", "..", "elsewhere", file))` leaves the boundary: the list is unread, as before."""
    outside = {**FILES, "dist/autoloader.js": LOADER.replace('join(here, "tools")', 'join(here, "..", "..", "x")')}
    led = coverage.ledger(program(outside))
    assert any("could not read whole" in u["what"] for u in led["unresolved"]), led["unresolved"]


HIGH = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { readdir } from "node:fs/promises";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
const toolsDir = join(dirname(fileURLToPath(import.meta.url)), "tools");
LOAD
const server = new McpServer({ name: "s", version: "1.0.0" });
for (const tool of (await loadTools()).filter((t) => t.method)) {
  server.registerTool(tool.method, { description: tool.description }, async (args) => tool.handler(args));
}
await server.connect(new StdioServerTransport());
'''
PUSHED = '''async function loadTools() {
  const tools = [];
  for (const file of await readdir(toolsDir)) {
    const toolModule = await import(pathToFileURL(join(toolsDir, file)).href);
    if (toolModule.method) tools.push(toolModule);
  }
  return tools;
}'''
ALL = '''async function loadTools() {
  const files = (await readdir(toolsDir)).filter((f) => f.endsWith(".js"));
  return Promise.all(files.map(async (file) => await import(pathToFileURL(join(toolsDir, file)).href)));
}'''


SETTLED = '''async function loadTools() {
  const tools = [];
  const files = (await readdir(toolsDir)).filter((f) => f.endsWith(".js"));
  const results = await Promise.allSettled(files.map(async (file) => {
    const toolModule = await import(pathToFileURL(join(toolsDir, file)).href);
    return { toolModule, file };
  }));
  for (const result of results) {
    if (result.status === "rejected") continue;
    const { toolModule } = result.value;
    if (toolModule.method) tools.push(toolModule);
  }
  return tools;
}'''


def _module_tool(name: str) -> str:
    return (f'export const method = "{name}";\nexport const description = "Does {name}.";\n'
            f'export async function handler(args) {{ return {{ content: [{{ type: "text", text: "{name}" }}] }}; }}\n')


def test_each_module_a_folder_import_loads_is_an_element_of_the_list_it_goes_into():
    """`tools.push(await import(...))` in a loop over the folder's entries, `Promise.all(files.map((f) =>
    import(...)))`, or the settled results of such a map (`const { toolModule } = result.value` of
    `Promise.allSettled`): one element per module of the folder, its exports its members (`tool.method`)."""
    for load in (PUSHED, ALL, SETTLED):
        files = {"dist/index.js": HIGH.replace("LOAD", load), "dist/tools/pull.js": _module_tool("pull"),
                 "dist/tools/push.js": _module_tool("push"),
                 "package.json": '{"name": "s", "type": "module", "bin": "dist/index.js"}'}
        p = program(files)
        assert sorted((t.name, t.description) for t in p.tools) == [("pull", "Does pull."), ("push", "Does push.")]
        assert not p.gaps


SHIM = '''#!/usr/bin/env node
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
const here = dirname(fileURLToPath(import.meta.url));
const builds = [join(here, "..", "dist", "cli", "main.js"), join(here, "..", "dist", "main.js")];
const found = builds.find((candidate) => existsSync(candidate));
if (!found) { process.stderr.write("run the build first\\n"); process.exit(1); }
await import(pathToFileURL(found).href);
'''
BUILT = HIGH.replace("LOAD", PUSHED)


def _shimmed(shim: str) -> dict:
    return {"bin/s.mjs": shim, "dist/cli/main.js": BUILT.replace("./tools", "../tools"),
            "dist/main.js": BUILT, "dist/other.js": BUILT,
            "dist/tools/pull.js": _module_tool("pull"), "dist/tools/push.js": _module_tool("push"),
            "package.json": '{"name": "s", "type": "module", "bin": "bin/s.mjs"}'}


def test_a_launcher_that_imports_the_first_of_its_computed_build_paths_reaches_each_of_them():
    """A bin that finds its build (`[join(here, "..", "dist", ...), ...].find(existsSync)`) and imports it
    (`import(pathToFileURL(p).href)`) reaches every file of the boundary the list names; a file it does not name
    stays unreached."""
    rows = {f["path"]: f["status"] for f in coverage.ledger(program(_shimmed(SHIM)))["files"]}
    assert rows["dist/cli/main.js"] == "analysed" and rows["dist/main.js"] == "analysed", rows
    assert rows["dist/other.js"] != "analysed", rows


def test_a_computed_path_with_a_part_not_known_is_read_as_no_load():
    """`join(here, "..", "dist", process.env.BUILD)`: which file it is, the code does not say, so the launcher is read
    as a launcher that loads no file of the boundary (the rows of the files it might load are those of a launcher with
    no import at all; its own row says it may still load the server)."""
    unknown = SHIM.replace('join(here, "..", "dist", "main.js")', 'join(here, "..", "dist", process.env.BUILD)')
    none = SHIM.replace("await import(pathToFileURL(found).href);", "")

    def rows(shim):
        return {f["path"]: (f["status"], f["reason"]) for f in coverage.ledger(program(_shimmed(shim)))["files"]
                if f["path"].startswith("dist/")}
    assert rows(unknown) == rows(none)
    assert rows(unknown) != rows(SHIM)


# A CommonJS CLI whose subcommand starts the server by requiring a path joined from its own folder.
REQUIRED = {
    "cli/index.js": '''#!/usr/bin/env node
const { join } = require("path");
function start() {
  const serverPath = join(__dirname, "../mcp/server.js");
  require(serverPath);
}
if (process.argv[2] === "mcp") start();
''',
    "mcp/server.js": '''const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const { StdioServerTransport } = require("@modelcontextprotocol/sdk/server/stdio.js");
class ProofServer {
  start() {
    const server = new McpServer({ name: "s", version: "1.0.0" });
    server.tool("prove", "Prove it.", {}, async () => ({ content: [{ type: "text", text: "done" }] }));
    return server.connect(new StdioServerTransport());
  }
}
if (require.main === module) new ProofServer().start();
module.exports = { ProofServer };
''',
    "mcp/other.js": "module.exports = {};\n",
    "lib/index.js": '''const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const { StdioServerTransport } = require("@modelcontextprotocol/sdk/server/stdio.js");
const server = new McpServer({ name: "lib", version: "1.0.0" });
server.tool("ping", "Ping.", {}, async () => ({ content: [{ type: "text", text: "pong" }] }));
server.connect(new StdioServerTransport());
''',
    "package.json": '{"name": "s", "main": "lib/index.js", "bin": {"s": "cli/index.js"}, '
                    '"dependencies": {"@modelcontextprotocol/sdk": "1"}}',
}


def test_a_file_required_by_a_path_joined_from_the_module_s_folder_is_reached():
    """`require(join(__dirname, "../mcp/server.js"))` through a local loads that file, as `import()` of such a path
    does: the server it builds is the program's, beside the one the package's main launches (before, that launch made
    the package's own entries the only ones, and the required server was set aside as unreached); a file it does not
    name stays unreached."""
    p = program(REQUIRED)
    assert sorted(t.name for t in p.tools) == ["ping", "prove"]
    rows = {f["path"]: f["status"] for f in coverage.ledger(p)["files"]}
    assert rows["mcp/server.js"] == "analysed" and rows["mcp/other.js"] != "analysed", rows


# A plugin's server that imports its tool registry from a root it finds at run time (an option, an environment
# variable, the script's folder), then registers every entry of the record the module exports.
ROOTED_SERVER = '''#!/usr/bin/env node
const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const { StdioServerTransport } = require("@modelcontextprotocol/sdk/server/stdio.js");
const path = require("path");
const url = require("url");
function getRoot() {
  if (process.env.PLUGIN_ROOT) return process.env.PLUGIN_ROOT;
  return path.resolve(path.dirname(require.main.filename), "..");
}
function resolveRegistryPath() {
  const root = getRoot();
  const built = path.resolve(root, "dist/index.js");
  if (require("fs").existsSync(built)) return built;
  return path.resolve(root, "../src/registry.ts");
}
async function loadRegistry() {
  const mod = await import(url.pathToFileURL(resolveRegistryPath()).href);
  const tools = mod.allTools ?? mod.default?.allTools;
  if (!tools) throw new Error("no registry");
  return tools;
}
async function main() {
  const server = new McpServer({ name: "rooted", version: "1.0.0" });
  for (const [toolName, def] of Object.entries(await loadRegistry())) {
    server.registerTool(toolName, { description: def.description }, async (args) => ({
      content: [{ type: "text", text: String(await def.execute(args)) }],
    }));
  }
  await server.connect(new StdioServerTransport());
}
main();
'''

ROOTED_REGISTRY = '''function tool(spec) { return spec; }
var note_add = tool({ description: "Add a note.", execute: async () => "added" });
var note_list, init_notes = () => { note_list = tool({ description: "List notes.", execute: async () => "[]" }); };
init_notes();
var noteTools = { note_add, note_list };
const taskTools = { task_start: tool({ description: "Start a task.", execute: async () => "started" }) };
export const allTools = { ...noteTools, ...taskTools };
export default { allTools };
'''

ROOTED = {"bin/server.cjs": ROOTED_SERVER, "dist/index.js": ROOTED_REGISTRY,
          "package.json": '{"name": "rooted", "bin": {"rooted": "bin/server.cjs"}, '
                          '"dependencies": {"@modelcontextprotocol/sdk": "1"}}'}


def test_a_registry_imported_from_a_root_found_at_run_time_is_each_shipped_file_its_path_ends_with():
    """`import(pathToFileURL(resolve(root, "dist/index.js")).href)`, the path returned by a function of the module
    and `root` an environment variable or the script's folder: the shipped `dist/index.js` (its other return,
    `../src/registry.ts`, names no shipped file). The record it exports is read through `mod.allTools ??
    mod.default?.allTools`; its shorthand entries are named by their keys (`{ note_add }`, also one whose variable
    a lazily run function assigns)."""
    p = program(ROOTED)
    assert sorted(t.name for t in p.tools) == ["note_add", "note_list", "task_start"]
    assert coverage.ledger(p)["complete"]


def test_a_registry_two_shipped_files_may_be_is_read_from_both():
    """Two shipped files end with the path (`dist/index.js`, `plugin/dist/index.js`): the server may load either,
    so the tools of both are its tools (a name both register, once per file). A path of one name only (`resolve(root, "index.js")`) is no such load."""
    two = {**ROOTED, "plugin/dist/index.js": ROOTED_REGISTRY.replace("task_start", "task_stop")}
    assert sorted({t.name for t in program(two).tools}) == ["note_add", "note_list", "task_start", "task_stop"]
    bare = {**ROOTED, "bin/server.cjs": ROOTED_SERVER.replace('"dist/index.js"', '"index.js"'),
            "index.js": ROOTED_REGISTRY}
    assert program(bare).tools == ()
