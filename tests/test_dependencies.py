"""Dependencies read with an npm target (auditor/npm.py follow): the vendor's own MCP layer, a package the server's
code imports by name that itself builds on an MCP SDK package, read as the server's code under node_modules/NAME
(Target.packages; bare specifiers resolved by its package.json `exports`). Every package here is written for the test;
the registry is a fake."""

from __future__ import annotations

import json

from auditor import kb, npm, sources
from auditor.analyse import coverage, mismatches
from auditor.extract import facts
from auditor.model import Package, SourceFile, Target
from program_helpers import KB

SDK_NAMES = {"@modelcontextprotocol/sdk", "fastmcp"}

# The thin server package: a bin that hands its options to the vendor's core package.
SERVER = {
    "package.json": json.dumps({"name": "@v/db-mcp", "version": "1.0.0", "bin": {"db-mcp": "dist/index.js"},
                                "dependencies": {"@v/db-core": "^0.7.0", "left-pad": "1.3.0",
                                                 "@modelcontextprotocol/sdk": "^1.0.0"}}),
    "dist/index.js": ('#!/usr/bin/env node\n'
                      'import { startServer } from "@v/db-core/server";\n'
                      'import pad from "left-pad";\n'
                      'startServer({ tier: process.env.TIER ?? "admin", banner: pad("db", 4) });\n'),
}

# The vendor's core: tool classes, a tier picked by a switch, extra tools pushed, a local Map to dispatch by name.
CORE = {
    "package.json": json.dumps({"name": "@v/db-core", "version": "0.7.2", "type": "module",
                                "exports": {"./server": {"types": "./dist/server.d.ts", "import": "./dist/server.js"},
                                            "./types": "./dist/types.js"},
                                "peerDependencies": {"@modelcontextprotocol/sdk": "^1.0.0"}}),
    "dist/tools.js": ('export class ReadTool {\n'
                      '  constructor() {\n'
                      '    this.name = "read_rows";\n'
                      '    this.description = "Read rows";\n'
                      '    this.inputSchema = { type: "object", properties: { sql: { type: "string" } } };\n'
                      '  }\n'
                      '  async run(args) { return { content: [{ type: "text", text: String(args.sql) }] }; }\n'
                      '}\n'
                      'export class DropTool {\n'
                      '  constructor() {\n'
                      '    this.name = "drop_table";\n'
                      '    this.description = "Drop a table";\n'
                      '    this.inputSchema = { type: "object", properties: { table: { type: "string" } } };\n'
                      '  }\n'
                      '  async run(args) { return { content: [] }; }\n'
                      '}\n'
                      'export class BeginTool {\n'
                      '  constructor() {\n'
                      '    this.name = "begin_transaction";\n'
                      '    this.description = "Begin";\n'
                      '    this.inputSchema = { type: "object", properties: {} };\n'
                      '  }\n'
                      '  async run() { return { content: [] }; }\n'
                      '}\n'
                      'export function allTools() {\n'
                      '  return { read: new ReadTool(), drop: new DropTool(), begin: new BeginTool() };\n'
                      '}\n'
                      'export function readerTools(t) { return [t.read]; }\n'
                      'export function adminTools(t) { return [t.read, t.drop]; }\n'
                      'export function transactionTools(t) { return [t.begin]; }\n'),
    "dist/server.js": ('import { Server } from "@modelcontextprotocol/sdk/server/index.js";\n'
                       'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
                       'import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";\n'
                       'import { allTools, readerTools, adminTools, transactionTools } from "./tools.js";\n'
                       'export async function startServer(config) {\n'
                       '  const tools = allTools();\n'
                       '  let exposed;\n'
                       '  switch (config.tier) {\n'
                       '    case "reader":\n'
                       '      exposed = readerTools(tools);\n'
                       '      break;\n'
                       '    case "admin":\n'
                       '      exposed = adminTools(tools);\n'
                       '      break;\n'
                       '  }\n'
                       '  if (process.env.TRANSACTIONS !== "none") {\n'
                       '    exposed.push(...transactionTools(tools));\n'
                       '  }\n'
                       '  const byName = new Map();\n'
                       '  for (const tool of exposed) {\n'
                       '    byName.set(tool.name, tool);\n'
                       '  }\n'
                       '  const server = new Server({ name: "db", version: "1" }, { capabilities: { tools: {} } });\n'
                       '  server.setRequestHandler(ListToolsRequestSchema, async () => ({\n'
                       '    tools: exposed.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),\n'
                       '  }));\n'
                       '  server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
                       '    const { name, arguments: args } = request.params;\n'
                       '    const tool = byName.get(name);\n'
                       '    if (!tool) throw new Error(`Unknown tool: ${name}`);\n'
                       '    return await tool.run(args);\n'
                       '  });\n'
                       '  await server.connect(new StdioServerTransport());\n'
                       '}\n'),
    "dist/types.js": 'export const TIERS = ["reader", "admin"];\n',
    "README.md": "# db-core\n",
}

CORE_PACKAGE = Package(name="@v/db-core", version="0.7.2", range="^0.7.0", folder="node_modules/@v/db-core",
                       integrity="sha512-x", why="builds on @modelcontextprotocol/sdk")


def _target(files: dict[str, str], packages: tuple[Package, ...] = ()) -> Target:
    return Target(kind="npm", locator="npm:@v/db-mcp@1.0.0", revision="sha512-x", requested="@v/db-mcp@1.0.0",
                  commit_date=None, worktree_clean=None, subtree="", packages=packages,
                  files=tuple(SourceFile(path=p, blob=f"{i:040x}", data=body.encode("utf-8"))
                              for i, (p, body) in enumerate(sorted(files.items()))))


def _program(target: Target) -> facts.Program:
    method = kb.load(KB, "method")
    return facts.build(sources.register(target, method), "", kb.load(KB, "sdk"), method)


def _followed() -> tuple[Target, list[str]]:
    asked = []

    def ask(name: str, wanted: str):
        asked.append(f"{name}@{wanted}")
        return {"@v/db-core": ("0.7.2", {"@modelcontextprotocol/sdk", "zod"}), "left-pad": ("1.3.0", set())}.get(name)

    def fetch(spec: str) -> Target:
        assert spec == "@v/db-core@0.7.2"
        return _target(CORE)

    return npm.follow(_target(SERVER), SDK_NAMES, {"mcp-framework"}, ask=ask, fetch=fetch), asked


def test_a_dependency_built_on_the_sdk_is_read_with_the_target_and_named():
    followed, asked = _followed()
    # asked about what the code imports and package.json lists, not the SDK itself
    assert sorted(asked) == ["@v/db-core@^0.7.0", "left-pad@1.3.0"]
    assert followed.packages == (CORE_PACKAGE,)
    added = sorted(f.path for f in followed.files if f.path.startswith("node_modules/"))
    assert added == ["node_modules/@v/db-core/dist/server.js", "node_modules/@v/db-core/dist/tools.js",
                     "node_modules/@v/db-core/dist/types.js", "node_modules/@v/db-core/package.json"]  # no README


def test_a_dependency_that_does_not_build_on_the_sdk_or_is_not_imported_is_not_read():
    quiet = dict(SERVER, **{"dist/index.js": 'import pad from "left-pad";\nconsole.log(pad("x", 2));\n'})
    target = _target(quiet)
    got = npm.follow(target, SDK_NAMES, set(), ask=lambda n, w: ("1.3.0", set()),
                     fetch=lambda spec: (_ for _ in ()).throw(AssertionError(spec)))
    assert got is target


def test_a_dependency_the_registry_does_not_give_is_said_not_read():
    def fetch(spec: str) -> Target:
        raise npm.AuditorError(f"npm:{spec}: npm pack failed: 404")
    got = npm.follow(_target(SERVER), SDK_NAMES, set(),
                     ask=lambda n, w: ("0.7.2", {"@modelcontextprotocol/sdk"} if n == "@v/db-core" else set()),
                     fetch=fetch)
    assert got.packages == ()
    assert [p for p, _ in got.not_followed] == ["node_modules/@v/db-core"]


def test_the_tools_of_a_dependency_read_with_the_target_are_found_dispatched_and_accounted_for():
    followed, _ = _followed()
    p = _program(followed)
    ledger = coverage.ledger(p)
    rows = {t["name"]: t for t in ledger["tools"]}
    # both tiers' tools and the pushed transaction tool, each dispatched through the Map to its class's run
    assert sorted(rows) == ["begin_transaction", "drop_table", "read_rows"]
    assert {n: (r["dispatch"], r["implementation"]) for n, r in rows.items()} == {
        "begin_transaction": ("registry", "BeginTool.run"), "drop_table": ("registry", "DropTool.run"),
        "read_rows": ("registry", "ReadTool.run")}
    assert rows["read_rows"]["file"].startswith("node_modules/@v/db-core/dist/")
    files = {f["path"]: f["status"] for f in ledger["files"]}
    assert files["node_modules/@v/db-core/dist/server.js"] == "analysed"
    assert files["node_modules/@v/db-core/dist/types.js"] == "dependency, not reached"
    assert ledger["unresolved"] == [] and ledger["complete"]
    # its package.json is no manifest of the server's: the entry is the server's own bin
    assert ledger["entries"] == ["dist/index.js"]


def test_without_the_dependency_the_server_names_no_tool():
    p = _program(_target(SERVER))
    assert coverage.ledger(p)["tools"] == []


def test_a_dependency_of_the_targets_own_scope_is_read_though_it_does_not_build_on_the_sdk():
    # `@v/db-mcp` importing `@v/db-util` (the vendor's own package): read; `left-pad`, of no scope, is not
    files = dict(SERVER, **{"dist/index.js": 'import { check } from "@v/db-util";\nimport pad from "left-pad";\n'
                                             'check(pad("x", 2));\n',
                            "package.json": json.dumps({"name": "@v/db-mcp", "version": "1.0.0",
                                                        "bin": {"db-mcp": "dist/index.js"},
                                                        "dependencies": {"@v/db-util": "2.x", "left-pad": "1.3.0"}})})
    util = {"package.json": json.dumps({"name": "@v/db-util", "version": "2.1.0", "main": "lib/index.js"}),
            "lib/index.js": "export function check(x) { if (typeof x !== 'string') throw new Error('bad'); }\n"}
    got = npm.follow(_target(files), SDK_NAMES, set(), ask=lambda n, w: ("2.1.0" if n == "@v/db-util" else "1.3.0", set()),
                     fetch=lambda spec: _target(util) if spec == "@v/db-util@2.1.0" else None)
    assert [(pk.name, pk.version, pk.range, pk.why) for pk in got.packages] == [
        ("@v/db-util", "2.1.0", "2.x", "is of the same scope, @v")]
    p = _program(got)
    module = next(m for m in p.modules if m.path == "dist/index.js")
    assert p.linker.imports[module.path]["check"].module == "node_modules/@v/db-util/lib/index.js"  # by its main


def _served(tmp_path) -> dict:
    packages = {"@v/db-mcp@1.0.0": {"files": SERVER}, "@v/db-core@0.7.2": {"files": CORE},
                "@v/db-core@^0.7.0": {"view": {"version": "0.7.2", "peerDependencies": {"@modelcontextprotocol/sdk": "1"}}},
                "left-pad@1.3.0": {"view": {"version": "1.3.0"}}}
    path = tmp_path / "served.json"
    path.write_text(json.dumps(packages), encoding="utf-8")
    return {"FAKE_NPM_PACKAGES": str(path)}


def test_the_cli_reads_the_dependency_names_it_and_no_deps_turns_it_off(tmp_path):
    import os
    from contract_helpers import DATA, proc
    log = tmp_path / "npm-calls.log"
    env = {"PATH": f"{DATA / 'fake-npm'}{os.pathsep}{os.environ['PATH']}", "FAKE_NPM_LOG": str(log), **_served(tmp_path)}
    result = proc("audit", "npm:@v/db-mcp@1.0.0", "--out", tmp_path / "out", "--format", "all", env=env)
    assert result.returncode == 0, result.stderr
    assert "reading the dependency @v/db-core@0.7.2 (it builds on @modelcontextprotocol/sdk)" in result.stderr
    doc = json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))
    assert doc["target"]["packages"] == [{"name": "@v/db-core", "version": "0.7.2", "range": "^0.7.0",
                                          "folder": "node_modules/@v/db-core", "integrity": "sha512-fake-@v/db-core",
                                          "why": "builds on @modelcontextprotocol/sdk"}]
    assert sorted(t["name"] for t in doc["coverage"]["tools"]) == ["begin_transaction", "drop_table", "read_rows"]
    packet = (tmp_path / "out" / "evidence-packet.md").read_text(encoding="utf-8")
    assert "| Dependencies read with it | @v/db-core@0.7.2 (package.json asks ^0.7.0;" in packet
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    assert all("--ignore-scripts" in c for c in calls)
    log.unlink()
    result = proc("audit", "npm:@v/db-mcp@1.0.0", "--out", tmp_path / "plain", "--format", "json", "--no-deps", env=env)
    assert result.returncode == 0, result.stderr
    assert [c[:2] for c in (json.loads(line) for line in log.read_text().splitlines())] == [["pack", "@v/db-mcp@1.0.0"]]
    doc = json.loads((tmp_path / "plain" / "audit.json").read_text(encoding="utf-8"))
    assert "packages" not in doc["target"] and doc["coverage"]["tools"] == []


def test_a_package_of_the_sdks_own_scopes_is_never_read():
    # `@modelcontextprotocol/node` (a transport of the SDK's family) builds on the SDK too, but is a library
    files = dict(SERVER, **{"dist/index.js": 'import { serve } from "@modelcontextprotocol/node";\nserve();\n',
                            "package.json": json.dumps({"name": "@v/db-mcp", "version": "1.0.0",
                                                        "dependencies": {"@modelcontextprotocol/node": "^2.0.0"}})})
    asked = []
    target = _target(files)
    got = npm.follow(target, SDK_NAMES, set(), ask=lambda n, w: asked.append(n) or ("2.0.0", {"@modelcontextprotocol/sdk"}),
                     fetch=lambda spec: _target(CORE), libraries=("@modelcontextprotocol/", "@tmcp/"))
    assert got is target and asked == []
    got = npm.follow(target, SDK_NAMES, set(), ask=lambda n, w: ("2.0.0", {"@modelcontextprotocol/sdk"}),
                     fetch=lambda spec: _target(CORE))
    assert [pk.name for pk in got.packages] == ["@modelcontextprotocol/node"]  # (without the scopes: read)


# A vendor's adapter: a helper that registers a list of tool objects, and another export that registers the client's
# own list through it. The server calls only the first.
ADAPTER = {
    "package.json": json.dumps({"name": "@v/adapter", "version": "1.0.0", "type": "module",
                                "exports": {".": "./dist/index.js"},
                                "peerDependencies": {"@modelcontextprotocol/sdk": "^1.0.0"}}),
    "dist/index.js": 'export * from "./register.js";\n',
    "dist/register.js": (
        'export class Client {\n'
        '  list() {\n'
        '    return [{ name: "search_all", description: "Search", run: async () => "s" },\n'
        '            { name: "fetch_all", description: "Fetch", run: async () => "f" }];\n'
        '  }\n'
        '}\n'
        '// registerDefaults(server) registers the client\'s own tools\n'
        'export function registerEach(tools, server) {\n'
        '  for (const tool of tools) {\n'
        '    server.tool(tool.name, tool.description, async (args) => ({ content: [{ type: "text", text: await tool.run(args) }] }));\n'
        '  }\n'
        '}\n'
        'export function registerDefaults(server) { registerEach(new Client().list(), server); }\n'),
}


def _adapter_server(calls: str, names: str) -> Target:
    server = {
        "package.json": json.dumps({"name": "@v/db-mcp", "version": "1.0.0", "bin": {"db-mcp": "dist/index.js"},
                                    "dependencies": {"@v/adapter": "^1.0.0", "@modelcontextprotocol/sdk": "^1.0.0"}}),
        "dist/index.js": ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
                          f'import {{ {names} }} from "@v/adapter";\n'
                          'const server = new McpServer({ name: "db", version: "1.0.0" });\n'
                          'registerEach([{ name: "run_code", description: "Run", run: async () => "r" }], server);\n'
                          + calls),
    }
    ask = lambda name, wanted: ("1.0.0", {"@modelcontextprotocol/sdk"}) if name == "@v/adapter" else None  # noqa: E731
    return npm.follow(_target(server), SDK_NAMES, {"mcp-framework"}, ask=ask, fetch=lambda spec: _target(ADAPTER))


def test_a_dependency_export_the_server_never_runs_registers_nothing():
    """registerDefaults is exported by the adapter but nothing of the program imports or calls it: its call of
    registerEach instantiates no tool; once the server calls it, the client's tools are the server's too."""
    p = _program(_adapter_server("", "registerEach"))
    assert sorted(t.name for t in p.tools) == ["run_code"]
    p = _program(_adapter_server("registerDefaults(server);\n", "registerEach, registerDefaults"))
    assert sorted(t.name for t in p.tools) == ["fetch_all", "run_code", "search_all"]


def test_past_the_limits_a_dependency_is_named_not_dropped():
    """Twelve providers build on the SDK and two more packages only share the scope: the first ten providers are read
    (those on the SDK first), the scope-only ones are not (ten are chosen already), and each left out is a `not
    followed` row saying why. With two providers, two scope-only packages fill up to four."""
    providers = [f"@v/provider-{i:02}" for i in range(12)]
    scoped = ["@v/util-a", "@v/util-b"]
    names = providers + scoped
    code = "".join(f'import * as m{i} from "{n}";\n' for i, n in enumerate(names))
    files = dict(SERVER, **{"dist/index.js": code,
                            "package.json": json.dumps({"name": "@v/db-mcp", "version": "1.0.0",
                                                        "dependencies": {n: "1" for n in names}})})

    def ask(name, wanted):
        return "1.0.0", ({"@modelcontextprotocol/sdk"} if name in providers else set())

    got = npm.follow(_target(files), SDK_NAMES, set(), ask=ask, fetch=lambda spec: _target(CORE))
    assert [pk.name for pk in got.packages] == providers[:10]
    left = dict(got.not_followed)
    assert sorted(left) == [f"node_modules/{n}" for n in sorted(providers[10:] + scoped)]
    assert "builds on @modelcontextprotocol/sdk, not read: the audit reads at most 10" in left["node_modules/@v/provider-11"]
    assert "is of the same scope, @v, not read" in left["node_modules/@v/util-a"]
    few = dict(files, **{"dist/index.js": "".join(f'import "{n}";\n' for n in providers[:2] + scoped)})
    got = npm.follow(_target(few), SDK_NAMES, set(), ask=ask, fetch=lambda spec: _target(CORE))
    assert [pk.name for pk in got.packages] == providers[:2] + scoped and got.not_followed == ()


# A packing library the server imports one function from; the library ships its own MCP server too, which its command
# line starts (bin/cli.js: top-level code no module of the server loads), and an example no module loads at all.
PACKER = {
    "package.json": json.dumps({"name": "@v/packer", "version": "2.0.0", "type": "module", "main": "lib/index.js",
                                "bin": {"packer": "bin/cli.js"},
                                "dependencies": {"@modelcontextprotocol/sdk": "^1.0.0"}}),
    "lib/index.js": 'export { pack } from "./pack.js";\nexport { runCli } from "./cli.js";\n',
    "lib/pack.js": 'export async function pack(paths) { return { files: paths.length }; }\n',
    "lib/cli.js": ('import { runMcpServer } from "./mcp/server.js";\n'
                   'export async function runCli(argv) {\n'
                   '  if (argv.includes("--mcp")) return await runMcpServer();\n'
                   '}\n'),
    "lib/mcp/server.js": ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
                          'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
                          'import { registerPackTool } from "./tools/pack.js";\n'
                          'export const createMcpServer = () => {\n'
                          '  const server = new McpServer({ name: "packer", version: "2.0.0" });\n'
                          '  registerPackTool(server);\n'
                          '  return server;\n'
                          '};\n'
                          'export const runMcpServer = async () => {\n'
                          '  await createMcpServer().connect(new StdioServerTransport());\n'
                          '};\n'),
    "lib/mcp/tools/pack.js": ('export const registerPackTool = (server) => {\n'
                              '  server.tool("pack_codebase", "Pack", async () => ({ content: [] }));\n'
                              '};\n'),
    "bin/cli.js": '#!/usr/bin/env node\nimport { runCli } from "../lib/index.js";\n(async () => { await runCli(process.argv); })();\n',
    "examples/demo.js": ('import { createMcpServer } from "../lib/mcp/server.js";\n'
                         'const server = createMcpServer();\n'
                         'server.tool("demo_echo", "Echo", async () => ({ content: [] }));\n'),
}


def _packer_server(body: str) -> Target:
    server = {
        "package.json": json.dumps({"name": "@v/db-mcp", "version": "1.0.0", "bin": {"db-mcp": "dist/index.js"},
                                    "dependencies": {"@v/packer": "^2.0.0", "@modelcontextprotocol/sdk": "^1.0.0"}}),
        "dist/index.js": ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
                          'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
                          'import * as packer from "@v/packer";\n'
                          'const server = new McpServer({ name: "db", version: "1.0.0" });\n'
                          'server.tool("pack_project", "Pack", async () => ({ content: [{ type: "text", text: '
                          'String((await packer.pack(["."])).files) }] }));\n'
                          + body +
                          'await server.connect(new StdioServerTransport());\n'),
    }
    ask = lambda name, wanted: ("2.0.0", {"@modelcontextprotocol/sdk"}) if name == "@v/packer" else None  # noqa: E731
    return npm.follow(_target(server), SDK_NAMES, {"mcp-framework"}, ask=ask, fetch=lambda spec: _target(PACKER))


def test_the_server_a_dependency_ships_for_its_own_command_line_is_not_the_servers():
    """The server uses the library's `pack`; the library's own MCP server (started by its command line, a script no
    module of the server loads, through functions only that script's code calls) and its example register nothing
    of the server's, and leave nothing unresolved. Once the server's code starts that command line itself, the
    library's server runs and its tool is read."""
    p = _program(_packer_server(""))
    assert sorted(t.name for t in p.tools) == ["pack_project"]
    ledger = coverage.ledger(p)
    assert ledger["unresolved"] == [] and ledger["complete"]
    p = _program(_packer_server('if (process.env.PACKER_MCP) await packer.runCli(["--mcp"]);\n'))
    assert sorted(t.name for t in p.tools) == ["pack_codebase", "pack_project"]


# A framework of the vendor's (not one kb/sdk.yaml knows) whose class keeps tools in a list its handlers read, and an
# example it ships that installs tools of its own.
HUBKIT = {
    "package.json": json.dumps({"name": "@v/hubkit", "version": "1.0.0", "type": "module", "main": "lib/index.js",
                                "dependencies": {"@modelcontextprotocol/sdk": "^1.0.0"}}),
    "lib/index.js": (
        'import { Server } from "@modelcontextprotocol/sdk/server/index.js";\n'
        'import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";\n'
        'export class Hub {\n'
        '  #tools = [];\n'
        '  server = new Server({ name: "h", version: "1" }, { capabilities: { tools: {} } });\n'
        '  constructor() {\n'
        '    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({\n'
        '      tools: this.#tools.map((t) => ({ name: t.name, description: t.description, inputSchema: { type: "object" } })) }));\n'
        '    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
        '      const tool = this.#tools.find((t) => t.name === request.params.name);\n'
        '      if (!tool) throw new Error("unknown tool");\n'
        '      return tool.execute(request.params.arguments);\n'
        '    });\n'
        '  }\n'
        '  addTool(tool) { this.#tools.push(tool); }\n'
        '}\n'),
    "examples/demo.js": ('import { Hub } from "../lib/index.js";\n'
                         'const hub = new Hub();\n'
                         'hub.addTool({ name: "demo_echo", description: "Echo", execute: async () => ({ content: [] }) });\n'),
}


def test_tools_an_example_of_a_dependency_installs_are_not_the_servers():
    server = {
        "package.json": json.dumps({"name": "@v/db-mcp", "version": "1.0.0", "bin": {"db-mcp": "dist/index.js"},
                                    "dependencies": {"@v/hubkit": "^1.0.0"}}),
        "dist/index.js": ('import { Hub } from "@v/hubkit";\n'
                          'const hub = new Hub();\n'
                          'hub.addTool({ name: "alpha", description: "A", execute: async () => ({ content: [] }) });\n'),
    }
    ask = lambda name, wanted: ("1.0.0", {"@modelcontextprotocol/sdk"}) if name == "@v/hubkit" else None  # noqa: E731
    p = _program(npm.follow(_target(server), SDK_NAMES, {"mcp-framework"}, ask=ask, fetch=lambda spec: _target(HUBKIT)))
    assert sorted(t.name for t in p.tools) == ["alpha"]
    assert sorted(d.tool for d in p.dispatches) == ["alpha"]


def test_a_dependency_function_named_only_in_an_object_a_running_function_returns_runs():
    """`export function kit() { return { registerPack } }` and the server calls `kit().registerPack(server)`: named
    in a shorthand entry of what a running function returns, registerPack runs, and its tool is the server's."""
    packer = {**PACKER, "lib/index.js": ('export { pack } from "./pack.js";\n'
                                        'import { registerPackTool as registerPack } from "./mcp/tools/pack.js";\n'
                                        'export function kit() { return { registerPack }; }\n')}
    server = {
        "package.json": json.dumps({"name": "@v/db-mcp", "version": "1.0.0", "bin": {"db-mcp": "dist/index.js"},
                                    "dependencies": {"@v/packer": "^2.0.0", "@modelcontextprotocol/sdk": "^1.0.0"}}),
        "dist/index.js": ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
                          'import { kit } from "@v/packer";\n'
                          'const server = new McpServer({ name: "db", version: "1.0.0" });\n'
                          'kit().registerPack(server);\n'),
    }
    ask = lambda name, wanted: ("2.0.0", {"@modelcontextprotocol/sdk"}) if name == "@v/packer" else None  # noqa: E731
    p = _program(npm.follow(_target(server), SDK_NAMES, {"mcp-framework"}, ask=ask, fetch=lambda spec: _target(packer)))
    assert sorted(t.name for t in p.tools) == ["pack_codebase"]


def test_a_dependency_function_read_off_a_module_it_imports_dynamically_runs():
    """`import("./mcp/server.js").then((m) => m.createMcpServer())` in a function the server runs: the member read off
    the loaded module may be that function, so its registrations are the server's."""
    packer = {**PACKER, "lib/index.js": ('export { pack } from "./pack.js";\n'
                                        'export function plugin() {\n'
                                        '  return { async configure() {\n'
                                        '    return await import("./mcp/server.js").then((m) => m.createMcpServer());\n'
                                        '  } };\n'
                                        '}\n')}
    server = {
        "package.json": json.dumps({"name": "@v/db-mcp", "version": "1.0.0", "bin": {"db-mcp": "dist/index.js"},
                                    "dependencies": {"@v/packer": "^2.0.0", "@modelcontextprotocol/sdk": "^1.0.0"}}),
        "dist/index.js": 'import { plugin } from "@v/packer";\nawait plugin().configure();\n',
    }
    ask = lambda name, wanted: ("2.0.0", {"@modelcontextprotocol/sdk"}) if name == "@v/packer" else None  # noqa: E731
    p = _program(npm.follow(_target(server), SDK_NAMES, {"mcp-framework"}, ask=ask, fetch=lambda spec: _target(packer)))
    assert sorted(t.name for t in p.tools) == ["pack_codebase"]


def test_a_descriptor_a_function_of_a_dependency_read_with_the_target_decorates_has_no_coercion_of_its_own():
    """The decorating package installed and read with the target (node_modules/@acme/mcp-kit, built on the SDK): its
    function is still the dependency's, and what it makes of the descriptor is what it registers; the literal's
    `z.coerce.number()` is no finding (tests/test_detectors.py: the same, the package not read)."""
    from test_detectors import _THING

    index = ('import { createServer } from "@acme/mcp-kit";\nimport getThing from "./get-thing.js";\n'
             'createServer({ name: "things", tools: [getThing] }).start();\n')
    manifest = ('{"name": "things", "bin": "index.js", "dependencies": {"@acme/mcp-kit": "1", '
                '"@modelcontextprotocol/sdk": "1", "zod": "3"}}')
    kit = {"node_modules/@acme/mcp-kit/package.json": '{"name": "@acme/mcp-kit", "version": "1.0.0", "main": '
                                                     '"index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}',
           "node_modules/@acme/mcp-kit/index.js": (
               'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
               'export const withStandardDecorators = (t) => ({ ...t, inputSchema: {} });\n'
               'export function createServer(o) {\n  const s = new McpServer(o);\n'
               '  for (const t of o.tools) s.registerTool(t.name, t, t.handler);\n  return s;\n}\n')}
    kit_package = Package(name="@acme/mcp-kit", version="1.0.0", range="1", folder="node_modules/@acme/mcp-kit",
                          integrity="sha512-x", why="builds on @modelcontextprotocol/sdk")

    def coerced(tool: str) -> list[str]:
        p = _program(_target({"index.js": index, "get-thing.js": tool, "package.json": manifest, **kit},
                             packages=(kit_package,)))
        assert p.linker.imports["get-thing.js"]["withStandardDecorators"].module == "node_modules/@acme/mcp-kit/index.js"
        return [f.attrs["field"] for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "schema-coercion"]

    assert coerced(_THING) == []
    assert coerced(_THING.replace("withStandardDecorators(GetThing)", "GetThing")) == ["take"]
