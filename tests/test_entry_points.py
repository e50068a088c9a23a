"""Entry files mapped back to source by tsconfig and the manifest's fields, two builds analysed once, and files that are
not the server (configuration, build scripts, evals, type-only modules) kept from making an audit incomplete."""

from __future__ import annotations

import json

from auditor import monorepo
from auditor.analyse import coverage
from program_helpers import SDK, program

SERVER = SDK + '''
export function createServer() {
  return new Server({ name: "doors", version: "1.0.0" }, { capabilities: { tools: {} } });
}
'''
LAUNCH = 'import { createServer } from "./server.js";\nawait createServer().connect(new StdioServerTransport());\n'
HIGH = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
        'const server = new McpServer({ name: "twin", version: "1" });\n'
        'server.registerTool("ping", { description: "Ping" }, async () => ({ content: [] }));\n')


def _status(ledger) -> dict[str, str]:
    return {f["path"]: f["status"] for f in ledger["files"]}


def test_tsconfig_with_comments_and_trailing_commas_is_read():
    from auditor.extract.tsconfig import read_jsonc

    assert read_jsonc(b'{\n  // out\n  "compilerOptions": {"outDir": "./out", /* x */ "paths": ["a//b",],},\n}') == \
        {"compilerOptions": {"outDir": "./out", "paths": ["a//b"]}}


def test_bin_maps_to_its_source_through_tsconfig_out_dir_root_dir_and_extends():
    """bin build/out/cli.js is the output of lib/cli.ts by tsconfig (outDir in the config it extends, rootDir here)."""
    p = program({"package.json": '{"name": "doors", "bin": {"doors": "./build/out/cli.js"}}',
                 "tsconfig.json": '{\n  "extends": "./tsconfig.base.json", // shared\n'
                                  '  "compilerOptions": {"rootDir": "lib",},\n}',
                 "tsconfig.base.json": '{"compilerOptions": {"outDir": "build/out"}}',
                 "lib/cli.ts": LAUNCH.replace("await createServer()", "export const s = createServer();\nawait s"),
                 "lib/server.ts": SERVER})
    ledger = coverage.ledger(p)
    assert ledger["entries"][0] == "lib/cli.ts"
    assert _status(ledger)["lib/server.ts"] == "analysed"


def test_a_build_the_tsconfig_does_not_make_is_read_as_itself():
    """tsconfig builds `.` into dist (src/server.ts -> dist/src/server.js); the bin dist/server.js is a build of
    another layout left in the folder (its own tool), not src/server.ts's output: it is what runs and is read."""
    old = HIGH.replace('"ping"', '"old_ping"')
    p = program({"package.json": '{"name": "twin", "type": "module", "bin": "dist/server.js"}',
                 "tsconfig.json": '{"compilerOptions": {"outDir": "./dist", "rootDir": "."}, "include": ["src/**/*"]}',
                 "dist/server.js": old, "dist/src/server.js": HIGH, "src/server.ts": HIGH})
    ledger = coverage.ledger(p)
    assert ledger["entries"] == ["dist/server.js"]
    assert [t["name"] for t in ledger["tools"]] == ["old_ping"]


def test_a_launcher_importing_build_output_reaches_the_source():
    """cli.js imports ./dist/server.js, which is not built in the checkout: src/server.ts is what it runs."""
    p = program({"package.json": '{"name": "doors", "bin": "cli.js"}',
                 "cli.js": 'import { createServer } from "./dist/server.js";\nexport const s = createServer();\n',
                 "src/server.ts": SERVER})
    ledger = coverage.ledger(p)
    assert ledger["entries"] == ["cli.js"]
    assert _status(ledger)["src/server.ts"] == "analysed"


def test_the_source_a_source_map_names_for_analysed_build_output_is_accounted_for():
    """server.js at the package's root is what runs (no tsconfig, no output folder of a known name); its source map
    names src/server.ts, shipped beside it: that source is the analysed file's, not unreached server code, and the
    audit is complete. A map naming a source the package does not ship accounts for nothing."""
    built = SERVER.replace("export function", "function") + "exports.createServer = createServer;\n"
    files = {"package.json": '{"name": "doors", "bin": "cli.js"}',
             "cli.js": 'const { createServer } = require("./server.js");\ncreateServer();\n'
                       'if (process.env.PLUGIN) require(process.env.PLUGIN);\n',
             "server.js": built, "server.js.map": '{"version":3,"file":"server.js","sourceRoot":"","sources":["src/server.ts"]}',
             "src/server.ts": SERVER}
    ledger = coverage.ledger(program(files))
    status = _status(ledger)
    assert status["server.js"] == "analysed" and status["src/server.ts"] == "read" and ledger["complete"] is True
    other = dict(files, **{"server.js.map": '{"version":3,"sources":["../elsewhere/server.ts"]}'})
    ledger = coverage.ledger(program(other))
    assert _status(ledger)["src/server.ts"] == "parsed, not reached" and ledger["complete"] is False


def test_a_build_no_entry_reaches_whose_source_map_names_an_analysed_source_is_accounted_for():
    """A dual build (tsdown): the entries reach src/server.ts (the ESM entry maps back to the shipped source) and the
    CommonJS chunk; the ESM chunk `dist/server-Ab12.js`, which no entry imports, is a build of src/server.ts by its
    source map, read in its place: the audit is complete. A chunk whose map names a source no entry reaches stays
    unreached server code, judged as such."""
    files = {"package.json": '{"name": "dual", "type": "module", "exports": {".": {"import": "./dist/index.js"}}}',
             "src/index.ts": 'export { createServer } from "./server";\n', "src/server.ts": SERVER,
             "dist/index.js": 'export { createServer } from "./server-Ab12.js";\n',
             "dist/server-Ab12.js": SERVER,
             "dist/server-Ab12.js.map": '{"version":3,"sources":["../src/server.ts"]}'}
    ledger = coverage.ledger(program(files))
    status = _status(ledger)
    assert status["src/server.ts"] == "analysed" and status["dist/server-Ab12.js"] == "read" and ledger["complete"] is True
    other = dict(files, **{"dist/server-Ab12.js.map": '{"version":3,"sources":["../src/other.ts"]}',
                           "src/other.ts": "export const other = 1;\n"})
    ledger = coverage.ledger(program(other))
    assert _status(ledger)["dist/server-Ab12.js"] == "not reached, not served"  # (its own server, never started)


def test_exports_conditions_and_subpaths_are_entries():
    manifest = {"name": "doors", "exports": {".": {"types": "./dist/index.d.ts", "import": "./dist/index.js"},
                                             "./http": {"default": "./dist/http.js"}}}
    p = program({"package.json": json.dumps(manifest), "src/index.ts": LAUNCH, "src/http.ts": LAUNCH,
                 "src/server.ts": SERVER})
    assert coverage.ledger(p)["entries"] == ["src/index.ts", "src/http.ts"]


def test_two_builds_of_the_same_code_are_analysed_once_the_one_the_entry_names():
    manifest = {"name": "twin", "main": "./dist/cjs/index.js", "exports": {".": {"import": "./dist/esm/index.js"}}}
    p = program({"package.json": json.dumps(manifest), "dist/esm/index.js": HIGH, "dist/cjs/index.js": HIGH,
                 "lib/a.js": "export const a = 1;\n", "lib/a.cjs": "exports.a = 1;\n"})
    ledger = coverage.ledger(p)
    # Node reads `main` only when there is no `exports`: the build `exports` names is the one analysed.
    assert [(t["name"], t["file"]) for t in ledger["tools"]] == [("ping", "dist/esm/index.js")]
    files = {f["path"]: f for f in ledger["files"]}
    assert files["dist/cjs/index.js"]["status"] == "read"
    assert "second build of the code of dist/esm/index.js" in files["dist/cjs/index.js"]["reason"]
    assert files["lib/a.cjs"]["status"] == "read" and files["lib/a.js"]["status"] != "read"  # .js before .cjs
    del manifest["exports"]  # without `exports`, `main` names the build
    p = program({"package.json": json.dumps(manifest), "dist/esm/index.js": HIGH, "dist/cjs/index.js": HIGH})
    assert [(t["name"], t["file"]) for t in coverage.ledger(p)["tools"]] == [("ping", "dist/cjs/index.js")]


def test_a_typescript_source_the_grammar_does_not_parse_is_read_through_its_build_output():
    """`src/db.ts` holds a syntax the TypeScript grammar does not parse (`this.sql<Row[]>`...``, a tagged template with
    type arguments); its build output `lib/src/db.js`, shipped beside it, parses whole: the output is analysed in its
    place, so the tool it registers is read and the audit is complete (expect: the tool from lib/src/db.js, no parse
    gap; a source that parses keeps its place)."""
    manifest = {"name": "pg", "bin": {"pg": "lib/index.js"}, "module": "index.ts"}
    index = 'import { register } from "./src/db.js";\nregister();\n'
    source = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
              'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
              'class Db { sql: any; async rows() { return await this.sql<Row[]>`SELECT 1`; } }\n'
              'export function register() {\n'
              '  const server = new McpServer({ name: "pg", version: "1" });\n'
              '  server.tool("query", "Run a query.", {}, async () => ({ content: [] }));\n'
              '  server.connect(new StdioServerTransport());\n'
              '}\n')
    built = source.replace("this.sql<Row[]>`SELECT 1`", "this.sql`SELECT 1`").replace("sql: any; ", "")
    files = {"package.json": json.dumps(manifest), "index.ts": index, "lib/index.js": index,
             "src/db.ts": source, "lib/src/db.js": built,
             "tsconfig.json": json.dumps({"compilerOptions": {"outDir": "lib", "rootDir": "."}})}
    ledger = coverage.ledger(program(files))
    status = {f["path"]: (f["status"], f["reason"]) for f in ledger["files"]}
    assert [(t["name"], t["file"]) for t in ledger["tools"]] == [("query", "lib/src/db.js")]
    assert status["lib/src/db.js"][0] == "analysed"
    assert status["src/db.ts"] == ("read", "source of lib/src/db.js, which is analysed in its place: the TypeScript "
                                           "grammar does not parse this file whole, its build output it does")
    assert status["lib/index.js"][0] == "read" and status["index.ts"][0] == "analysed"
    assert ledger["complete"] is True
    files["src/db.ts"] = built
    ledger = coverage.ledger(program(files))
    assert [(t["name"], t["file"]) for t in ledger["tools"]] == [("query", "src/db.ts")]


def test_files_that_are_not_the_server_do_not_make_it_incomplete():
    manifest = {"name": "doors", "bin": "dist/index.js",
                "scripts": {"build": "tsc && node scripts/stamp.js", "start": "node dist/index.js"}}
    files = {"package.json": json.dumps(manifest), "src/index.ts": LAUNCH, "src/server.ts": SERVER,
             "eslint.config.mjs": "export default [];\n", "vitest.config.ts": "export default {};\n",
             "scripts/stamp.js": "console.log(1);\n", "tools/stamp.js": "console.log(1);\n",
             "src/evals/evals.ts": "export const evals = [1];\n",
             "src/types.ts": "export interface Door { name: string }\nexport type Doors = Door[];\n",
             "dist/types.js": "export {};\n"}
    ledger = coverage.ledger(program(files))
    status = _status(ledger)
    assert status["eslint.config.mjs"] == "configuration" and status["vitest.config.ts"] == "read"  # packaging layer
    assert status["scripts/stamp.js"] == status["src/evals/evals.ts"] == status["src/types.ts"] == "auxiliary, not reached"
    assert status["dist/types.js"] == "read"  # build output of src/types.ts
    reasons = {f["path"]: f["reason"] for f in ledger["files"]}
    assert "type-only" in reasons["src/types.ts"] and "evaluation" in reasons["src/evals/evals.ts"]
    # run only by `build`, but a scripts/ folder names it first; tools/stamp.js is code no entry reaches and holds
    # nothing of a server: accounted for
    assert status["tools/stamp.js"] == "not reached, holds no server code" and ledger["complete"]
    # a server constructed where no entry reaches: dead code beside the server the entry builds, accounted for
    files["tools/spare.js"] = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
                               'export const spare = new McpServer({ name: "spare", version: "1" });\n')
    ledger = coverage.ledger(program(files))
    assert _status(ledger)["tools/spare.js"] == "not reached, not served" and ledger["complete"]
    # ... but a gap when the entry imports a module by a computed path (which may be that one)
    files["src/index.ts"] = files["src/index.ts"] + "await import(process.env.PLUGIN ?? './none.js');\n"
    ledger = coverage.ledger(program(files))
    assert _status(ledger)["tools/spare.js"] == "parsed, not reached" and not ledger["complete"]


def test_a_file_run_only_by_a_development_script_is_auxiliary():
    manifest = {"name": "doors", "bin": "dist/index.js", "scripts": {"release": "node tools/publish.js"}}
    ledger = coverage.ledger(program({"package.json": json.dumps(manifest), "src/index.ts": LAUNCH,
                                      "src/server.ts": SERVER, "tools/publish.js": "console.log(1);\n"}))
    row = next(f for f in ledger["files"] if f["path"] == "tools/publish.js")
    assert row["status"] == "auxiliary, not reached" and "`release`" in row["reason"]
    assert "tools/publish.js" not in ledger["entries"]


def test_a_bundled_command_naming_the_sdk_in_dev_dependencies_is_a_server():
    sdk = ["@modelcontextprotocol/sdk"]
    bundled = json.dumps({"name": "b", "bin": "dist/cli.js", "devDependencies": {sdk[0]: "1"}}).encode()
    library = json.dumps({"name": "l", "devDependencies": {sdk[0]: "1"}}).encode()
    assert monorepo._manifest_verdict(bundled, tuple(sdk), True) is None
    assert "only in devDependencies" in monorepo._manifest_verdict(library, tuple(sdk), True)


def test_a_tests_folder_an_entry_imports_is_implementation_and_its_handlers_are_traced():
    """build/tools/tests/probe.js is shipped code the entry imports: its handler is traced, not read as a test file;
    a test file nothing of the server imports stays in the test layer."""
    probe = 'export async function probeHandler(args) { return { content: [{ type: "text", text: args.q }] }; }\n'
    entry = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
             'import { probeHandler } from "./tools/tests/probe.js";\n'
             'const server = new McpServer({ name: "labs", version: "1" });\n'
             'server.tool("run-probe", "Run the probe", {}, probeHandler);\n')
    p = program({"package.json": '{"name": "labs", "bin": "build/index.js"}', "build/index.js": entry,
                 "build/tools/tests/probe.js": probe,
                 "build/tests/probe.test.js": 'import { probeHandler } from "../tools/tests/probe.js";\n'
                                              'test("x", () => probeHandler({}));\n'})
    layers = {e.file.path: e.layer for e in p.entries}
    assert layers["build/tools/tests/probe.js"] == "implementation"
    assert layers["build/tests/probe.test.js"] == "test"
    ledger = coverage.ledger(p)
    files = {f["path"]: f for f in ledger["files"]}
    assert files["build/tools/tests/probe.js"]["status"] == "analysed"
    assert "an entry imports it" in files["build/tools/tests/probe.js"]["reason"]
    [tool] = ledger["tools"]
    assert (tool["name"], tool["status"], tool["implementation"]) == ("run-probe", "analysed", "probeHandler")


def _bundle(extra: str = "") -> str:
    return ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'export function createServer() {\n'
            '  const server = new McpServer({ name: "twin", version: "1" });\n'
            '  server.registerTool("ping", { description: "Ping" }, async () => ({ content: [] }));\n'
            '  return server;\n}\n' + extra)


def test_one_ledger_row_per_tool_found_in_three_builds_the_other_files_listed():
    """tsup's CJS entries bundle the factory twice (index.js, cli.js) and its ESM build shares it in a chunk: the same
    registration in several files is one tool, with the other files named on its row. The ESM build is a second
    build of the CJS one (not analysed), so its chunk is reached by no analysed entry: its copy is set aside."""
    manifest = {"name": "twin", "main": "dist/index.js", "module": "dist/index.mjs", "bin": "dist/cli.js"}
    launch = 'await createServer().connect(new StdioServerTransport());\n'
    p = program({"package.json": json.dumps(manifest), "dist/index.js": _bundle(), "dist/cli.js": _bundle(launch),
                 "dist/index.mjs": 'export { createServer } from "./chunk-AB12.mjs";\n',
                 "dist/cli.mjs": 'import { createServer } from "./chunk-AB12.mjs";\n' + launch,
                 "dist/chunk-AB12.mjs": _bundle()})
    rows = coverage.ledger(p)["tools"]
    assert [(t["name"], t["file"], t.get("copies")) for t in rows] == \
        [("ping", "dist/cli.js", ["dist/index.js"])]


def test_a_tool_row_keeps_what_any_copy_left_unread():
    """The copy whose input schema is not a literal makes the one row "analysed, details not read", with the reason."""
    shaped = _bundle().replace('{ description: "Ping" }', '{ description: "Ping", inputSchema: makeShape() }')
    manifest = {"name": "twin", "main": "dist/index.js", "bin": "dist/cli.js"}
    p = program({"package.json": json.dumps(manifest), "dist/index.js": shaped, "dist/cli.js": _bundle()})
    [row] = coverage.ledger(p)["tools"]
    assert (row["file"], row["copies"], row["status"]) == ("dist/cli.js", ["dist/index.js"], "analysed, details not read")
    assert row["reasons"] == ["input schema is not a literal (unknown)"]


def test_a_wrapper_with_several_registration_sites_gives_one_row_and_each_gap_once():
    """A local wrapper that registers its argument at three call sites (by mode) is read once per site: one row for the
    tool, and the gap of its non-literal schema listed once."""
    code = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'const server = new McpServer({ name: "modes", version: "1" });\n'
            'const add = (tool) => {\n'
            '  if (process.env.PRO) { server.registerTool(tool.name, { inputSchema: tool.shape }, tool.run); }\n'
            '  else if (process.env.LITE) { server.registerTool(tool.name, { inputSchema: tool.shape }, tool.run); }\n'
            '  else { server.registerTool(tool.name, { inputSchema: tool.shape }, tool.run); }\n};\n'
            'add({ name: "ping", shape: makeShape(), run: async () => ({ content: [] }) });\n')
    p = program({"package.json": '{"name": "modes", "main": "index.js"}', "index.js": code})
    rows = coverage.ledger(p)["tools"]
    assert [t["name"] for t in rows] == ["ping"]
    keys = [(g.kind, g.detail, g.anchor) for g in p.gaps]
    assert keys and len(keys) == len(set(keys))


def test_an_installed_node_modules_folder_the_package_ships_is_a_dependency_not_its_code():
    """A tarball that ships node_modules (bundledDependencies, a stray install): the packages in it are dependencies,
    outside the boundary like any import: their manifests name no entry, their servers (an SDK example) are not the
    audited server's tools, their manifests' odd fields are no gap."""
    example = SDK.replace('"@modelcontextprotocol/sdk/server/index.js"', '"../../server/index.js"') + '''
const server = new Server({ name: "example", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "echo_example", inputSchema: {} }] }));
server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [] }));
await server.connect(new StdioServerTransport());
'''
    files = {"package.json": '{"name": "twin", "bin": "./index.js", "bundledDependencies": ["@modelcontextprotocol/sdk"]}',
             "index.js": HIGH + "await server.connect(new StdioServerTransport());\n",
             "node_modules/@modelcontextprotocol/sdk/package.json":
                 '{"name": "@modelcontextprotocol/sdk", "main": ["odd"], "bin": "./dist/examples/server/simple.js"}',
             "node_modules/@modelcontextprotocol/sdk/dist/examples/server/simple.js": example,
             "node_modules/@modelcontextprotocol/sdk/README.md": "# SDK\n\n## Tools\n\n- `echo_example`: echoes\n"}
    p = program(files)
    led = coverage.ledger(p)
    assert [t["name"] for t in led["tools"]] == ["ping"]
    assert led["entries"] == ["index.js"] and p.gaps == ()
    rows = _status(led)
    assert rows["node_modules/@modelcontextprotocol/sdk/dist/examples/server/simple.js"] == "read"
    assert led["complete"] is True


def test_a_package_shipped_inside_the_server_that_its_code_never_reaches_is_another_program():
    """The package's bin reaches its server (tool `ping`); samples/demo/ is a project of its own (its package.json
    names its entry, which builds a server with its own tool and logs a token) that nothing of the server imports: its
    entry is no entry of the server, its tool is not the server's, its manifest's dependencies are not the server's,
    and its log is not what the host runs. A nested package the server's code imports (a workspace package) stays the
    server's."""
    from auditor.analyse import effects, mismatches, secrets
    from program_helpers import effects_kb

    demo = (HIGH.replace('"twin"', '"demo"').replace('"ping"', '"add_expense"')
            + 'console.error("token", process.env.API_TOKEN);\n')
    files = {"package.json": '{"name": "doors", "bin": "dist/index.js", "dependencies": {"zod": "3"}}',
             "dist/index.js": HIGH + 'import { z } from "zod";\nimport { pad } from "./lib/pad/index.js";\n',
             "dist/lib/pad/package.json": '{"name": "pad", "main": "index.js", "dependencies": {"chalk": "5"}}',
             "dist/lib/pad/index.js": 'import chalk from "chalk";\nexport const pad = (s) => chalk.red(s);\n',
             "samples/demo/package.json": '{"name": "demo", "main": "src/index.ts", "dependencies": {"left-pad": "1"}}',
             "samples/demo/src/index.ts": demo}
    p = program(files)
    ledger = coverage.ledger(p)
    assert sorted(ledger["entries"]) == ["dist/index.js", "dist/lib/pad/index.js"]
    assert sorted(t.name for t in p.tools) == ["ping"]
    assert p.others == frozenset({"samples/demo"})
    unused = [f.id for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "unused-dependency"]
    assert unused == []  # left-pad is the sample's; chalk is used by the workspace package the server imports
    fx = effects.scan(p, effects_kb())
    assert secrets.findings(p, fx, effects_kb()) == []
    # Code of the package's own that no entry reaches, not set aside as an example or a script, may still run (a
    # module loaded by a computed path, another command): its log of a secret is reported.
    legacy = program({**files, "lib/legacy.js": 'export function boot() { console.error(process.env.API_TOKEN); }\n'})
    found = secrets.findings(legacy, effects.scan(legacy, effects_kb()), effects_kb())
    assert [f.id for f in found] == ["FND:secret-logged:lib/legacy#boot"]
    # A test script run by hand (`validation/test-proxy.ts`, kb/method.yaml auxiliary) is set aside as a script.
    manual = program({**files, "validation/test-proxy.ts": 'console.log("proxy", process.env.PROXY_TOKEN);\n'})
    assert secrets.findings(manual, effects.scan(manual, effects_kb()), effects_kb()) == []
    assert _status(coverage.ledger(manual))["validation/test-proxy.ts"] == "auxiliary, not reached"
    # The same sample with nothing of the server reaching a tool (an unread bin): nothing is set aside.
    bare = program({**files, "package.json": '{"name": "doors", "bin": "dist/missing.js"}'})
    assert bare.others == frozenset() and "add_expense" in {t.name for t in bare.tools}


def test_an_install_hook_is_no_entry_and_its_computed_require_loads_nothing_into_the_server():
    """`postinstall` runs when npm installs the package, not when the server runs: its file is no entry, so its
    `require(computed)` says nothing of what the server loads, and a tool descriptor of a module nothing reaches
    (an old tool the server no longer lists) is not served."""
    manifest = {"name": "doors", "main": "src/server.js", "scripts": {"postinstall": "node hooks/setup.js"}}
    server = (SDK + 'const server = new Server({ name: "doors", version: "1" }, { capabilities: { tools: {} } });\n'
              'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
              '  { name: "open", description: "Open", inputSchema: { type: "object" } }] }));\n'
              'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
              '  if (request.params.name === "open") return { content: [{ type: "text", text: "opened" }] };\n'
              '  throw new Error("unknown tool");\n});\n'
              'await server.connect(new StdioServerTransport());\n')
    old = 'export const oldTool = { name: "close", description: "Close", inputSchema: { type: "object" } };\n'
    hook = 'const path = require("path");\nconst shared = path.join(__dirname, "shared.js");\nrequire(shared);\n'
    ledger = coverage.ledger(program({"package.json": json.dumps(manifest), "src/server.js": server,
                                      "src/tools/close.js": old, "hooks/setup.js": hook}))
    status = _status(ledger)
    assert ledger["entries"] == ["src/server.js"]
    assert status["hooks/setup.js"] == "auxiliary, not reached"
    assert status["src/tools/close.js"] == "not reached, not served" and ledger["complete"]


def test_a_module_an_eval_of_literal_code_imports_is_reached():
    """A launcher that hides `import()` from a CommonJS parser in an eval string still loads the server; a module
    nothing loads is not the server's."""
    launcher = ('if (typeof require === "undefined") {\n'
                '  eval("import(\'../dist/server.js\').then((m) => m.default())");\n'
                '}\n')
    other = HIGH.replace('"ping"', '"stray"')
    p = program({"package.json": json.dumps({"name": "veiled", "type": "module", "bin": "bin/run.js"}),
                 "bin/run.js": launcher, "dist/server.js": "export default function main() {}\n" + HIGH,
                 "dist/old.js": other})
    assert [(t["name"], t["file"]) for t in coverage.ledger(p)["tools"]] == [("ping", "dist/server.js")]


def test_a_script_the_bin_launcher_starts_node_on_is_an_entry():
    """The bin (bin/run.js) starts Node on `join(root, "dist", "server.js")` (root a folder it computes): that file,
    a server written against the protocol, is an entry and is reached; the launcher's other joined paths that name
    no file of the package are nothing. Without the spawn, the joined path is no entry."""
    launcher = ('import { spawn } from "node:child_process";\nimport { join, dirname } from "node:path";\n'
                'import { fileURLToPath } from "node:url";\n'
                'function packageRoot() { return join(dirname(fileURLToPath(import.meta.url)), ".."); }\n'
                'const root = packageRoot();\nconst entry = join(root, "dist", "server.js");\n'
                'const notes = join(root, "docs", "missing.js");\n'
                'spawn(process.execPath, [entry, ...process.argv.slice(2)], { stdio: "inherit" });\n')
    server = ('const readline = require("readline");\n'
              'const tools = [{ name: "echo", description: "Echo", inputSchema: { type: "object", properties: {} } }];\n'
              'function send(m) { process.stdout.write(JSON.stringify(m) + "\\n"); }\n'
              'readline.createInterface({ input: process.stdin }).on("line", (line) => {\n'
              '  const msg = JSON.parse(line);\n'
              '  if (msg.method === "tools/list") send({ jsonrpc: "2.0", id: msg.id, result: { tools } });\n'
              '  else if (msg.method === "tools/call") {\n'
              '    if (msg.params.name === "echo") send({ jsonrpc: "2.0", id: msg.id, result: { content: [] } });\n'
              '  }\n});\n')
    files = {"package.json": '{"name": "runner", "type": "module", "bin": {"runner": "bin/run.js"}}',
             "bin/run.js": launcher, "dist/server.js": server}
    ledger = coverage.ledger(program(files))
    assert ledger["entries"] == ["bin/run.js", "dist/server.js"]
    assert _status(ledger)["dist/server.js"] == "analysed"
    plain = dict(files, **{"bin/run.js": launcher.replace("spawn(process.execPath, [entry", "console.log([entry")})
    assert coverage.ledger(program(plain))["entries"] == ["bin/run.js"]
