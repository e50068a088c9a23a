"""The default findings that were noisy on servers nobody tuned for: unpinned-launch and unused-dependency."""

from __future__ import annotations

import json

import pytest

from auditor.analyse import mismatches
from program_helpers import program

SERVER = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
          'import { z } from "zod";\n'
          'import { readFileSync } from "node:fs";\n'
          'const server = new McpServer({ name: "demo", version: "1" });\n'
          'server.registerTool("ping", { description: "Ping", inputSchema: { x: z.string() } }, async () => ({ content: [] }));\n')


def _launch_args(files: dict[str, str]) -> list[list[str]]:
    """The args of every launch command the unpinned-launch findings of the program of FILES cite, in order."""
    return [c["args"] for f in mismatches.mismatches(program(files), {"probes": []}) if f.kind == "unpinned-launch"
            for c in f.attrs["launch_commands"]]


@pytest.mark.parametrize("command, args, spec", [
    ("npx", ["-y", "demo-server"], "demo-server"),
    ("npx", ["demo-server@1.2.3", "--flag"], "demo-server@1.2.3"),
    ("npx", ["-p", "demo-server@2", "demo"], "demo-server@2"),
    ("bunx", ["@scope/demo"], "@scope/demo"),
    ("pnpm", ["dlx", "demo-server"], "demo-server"),
    ("npm", ["exec", "demo-server"], "demo-server"),
    ("yarn", ["add", "demo-server"], None),
    ("pnpm", ["--filter", "demo-server", "build"], None),
    ("npm", ["install", "-g", "demo-server"], None),
    ("node", ["dist/index.js"], None),
    ("docker", ["run", "-i", "demo/server"], None),
])
def test_the_package_a_command_launches(command, args, spec):
    assert mismatches.launched_package(command, args) == spec


def test_unpinned_launch_only_for_commands_that_run_this_package_with_no_version():
    readme = ("# demo\n\n```sh\nyarn add demo-server\npnpm --filter demo-server build\nnpx demo-server@1.2.3\n```\n\n"
              "```json\n{\"mcpServers\": {\"demo\": {\"command\": \"npx\", \"args\": [\"-y\", \"demo-server\"]}}}\n```\n\n"
              "```sh\nnpx demo-server@latest\nnpx other-server\n```\n")
    p = program({"index.ts": SERVER, "README.md": readme,
                 "package.json": '{"name": "demo-server", "dependencies": {"@modelcontextprotocol/sdk": "1", "zod": "3"}}'})
    found = [f for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "unpinned-launch"]
    assert [(f.id, [a.start_line for a in f.anchors]) for f in found] == [("FND:unpinned-launch:README.md/demo-server", [9, 13])]
    assert [(c["args"][-1], c["anchor"]["start_line"]) for c in found[0].attrs["launch_commands"]] == \
        [("demo-server", 9), ("demo-server@latest", 13)]


def test_unpinned_launch_is_one_finding_per_readme_and_package_with_every_occurrence_anchored():
    config = "```json\n{\"mcpServers\": {\"demo\": {\"command\": \"npx\", \"args\": [\"-y\", \"demo-server\"]}}}\n```\n\n"
    readme = "# demo\n\n" + "## Host\n\n" .join([config] * 5) + "```sh\nnpx -y demo-server --port 3000\n```\n"
    p = program({"index.ts": SERVER, "README.md": readme,
                 "package.json": '{"name": "demo-server", "dependencies": {"@modelcontextprotocol/sdk": "1", "zod": "3"}}'})
    found = [f for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "unpinned-launch"]
    assert len(found) == 1 and found[0].id == "FND:unpinned-launch:README.md/demo-server"
    fences = [i for i, ln in enumerate(readme.splitlines(), 1) if ln.startswith("```") and ln != "```"]
    assert [a.start_line for a in found[0].anchors] == fences and len(fences) == 6
    assert "`npx -y demo-server`, `npx -y demo-server --port 3000`, 6 times in all" in found[0].summary


def test_a_cli_s_other_commands_are_no_launch_of_its_server_subcommand():
    """Every host configuration runs `demo-server serve`: `npx demo-server scan` runs another command of the CLI, not
    the server; `npx demo-server serve` does launch it. With no subcommand configured, every run of it is a launch."""
    config = "```json\n{\"mcpServers\": {\"demo\": {\"command\": \"npx\", \"args\": [\"-y\", \"demo-server\", \"serve\"]}}}\n```\n\n"
    manifest = '{"name": "demo-server", "dependencies": {"@modelcontextprotocol/sdk": "1", "zod": "3"}}'

    def launches(readme: str) -> list:
        return _launch_args({"index.ts": SERVER, "README.md": readme, "package.json": manifest})

    assert launches("# demo\n\n```sh\nnpx demo-server scan .\nnpx demo-server@latest ask\n```\n\n" + config) == \
        [["-y", "demo-server", "serve"]]
    assert launches("# demo\n\n```sh\nnpx demo-server serve --port 3\n```\n\n" + config) == \
        [["demo-server", "serve", "--port", "3"], ["-y", "demo-server", "serve"]]
    assert launches("# demo\n\n```sh\nnpx demo-server scan .\n```\n") == [["demo-server", "scan", "."]]


def test_a_line_that_only_asks_for_help_or_the_version_is_no_launch():
    """`npx demo-server help` and `npx demo-server --version` print and exit: no server runs; `npx demo-server --help
    --port 3` and a bare `npx demo-server` do run one."""
    manifest = '{"name": "demo-server", "dependencies": {"@modelcontextprotocol/sdk": "1", "zod": "3"}}'

    def launches(readme: str) -> list:
        return _launch_args({"index.ts": SERVER, "README.md": readme, "package.json": manifest})

    assert launches("# demo\n\n```sh\nnpx demo-server help\nnpx -y demo-server --version\nnpx demo-server -h\n```\n") == []
    assert launches("# demo\n\n```sh\nnpx demo-server help\nnpx demo-server\nnpx demo-server --help --port 3\n```\n") == \
        [["demo-server"], ["demo-server", "--help", "--port", "3"]]


def test_a_runner_line_that_runs_a_bin_of_the_package_reaching_no_server_is_no_launch():
    """A library with two bins: `demo-server` (a command line that reaches no server) and `demo-server-mcp` (the
    server). `npx demo-server quote X` runs the former: no launch of the server; `npx -p demo-server demo-server-mcp`
    may be (the runner names the bin). When the bin named like the package is the server's, its run is a launch."""
    cli = 'console.log(process.argv.slice(2).join(" "));\n'
    readme = "# demo\n\n```sh\nnpx demo-server quote AAPL\nnpx -p demo-server demo-server-mcp\n```\n"

    def launches(bins: str, text: str = readme) -> list:
        manifest = ('{"name": "demo-server", "bin": ' + bins + ', '
                    '"dependencies": {"@modelcontextprotocol/sdk": "1", "zod": "3"}}')
        return _launch_args({"bin/mcp.js": SERVER, "bin/cli.js": cli, "README.md": text, "package.json": manifest})

    assert launches('{"demo-server": "bin/cli.js", "demo-server-mcp": "bin/mcp.js"}') == \
        [["-p", "demo-server", "demo-server-mcp"]]
    assert launches('{"demo-server": "bin/mcp.js", "demo-server-cli": "bin/cli.js"}') == \
        [["demo-server", "quote", "AAPL"], ["-p", "demo-server", "demo-server-mcp"]]
    # a line that names the server's bin after the package (`npx -y demo-server demo-server-mcp`) means to launch it
    named = readme.replace("npx demo-server quote AAPL", "npx -y demo-server demo-server-mcp")
    assert launches('{"demo-server": "bin/cli.js", "demo-server-mcp": "bin/mcp.js"}', named) == \
        [["-y", "demo-server", "demo-server-mcp"], ["-p", "demo-server", "demo-server-mcp"]]


def test_a_runner_line_of_a_package_no_entry_of_which_reaches_its_server_is_no_launch():
    """A command-line tool (one bin) whose server is a script run by hand, reached by no entry of the package
    (the hand-rolled JSON-RPC server in `src/tools/server.js`): `npx demo-cli init` sets up a folder, it starts no
    server. When the bin imports the server, the same line is a launch."""
    cli = 'console.log("init");\n'
    hand = ('import readline from "node:readline";\n'
            'const TOOLS = [{ name: "scan", description: "Scan", inputSchema: { type: "object", properties: {} } }];\n'
            'const rl = readline.createInterface({ input: process.stdin });\n'
            'rl.on("line", (line) => {\n  const req = JSON.parse(line);\n'
            '  if (req.method === "initialize") process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: req.id, '
            'result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "d", version: "1" } } }) + "\\n");\n'
            '  if (req.method === "tools/list") process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: req.id, '
            'result: { tools: TOOLS } }) + "\\n");\n});\n')
    manifest = '{"name": "demo-cli", "type": "module", "bin": {"demo-cli": "bin/cli.js"}}'
    readme = "# demo\n\n```sh\nnpx demo-cli init\n```\n"
    files = {"bin/cli.js": cli, "src/tools/server.js": hand, "README.md": readme, "package.json": manifest}
    p = program(files)
    assert "scan" in {t.name for t in p.tools}
    assert _launch_args(files) == []
    assert _launch_args({**files, "bin/cli.js": 'import "../src/tools/server.js";\n' + cli}) == [["demo-cli", "init"]]


def test_type_packages_count_as_used_with_what_they_type():
    manifest = ('{"name": "demo", "scripts": {"start": "node -r dotenv/config dist/index.js", "dev": "tsx src/index.ts"},'
                ' "dependencies": {"@modelcontextprotocol/sdk": "1", "zod": "3", "@types/node": "20", "@types/zod": "1",'
                ' "@types/scope__lib": "1", "@types/express": "4", "dotenv": "16", "tsx": "4", "left-pad": "1"}}')
    p = program({"index.ts": SERVER, "package.json": manifest})
    unused = sorted(f.attrs["dependency"] for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "unused-dependency")
    assert unused == ["@types/express", "@types/scope__lib", "left-pad"]


def test_a_package_the_type_declarations_import_is_used():
    manifest = '{"name": "demo", "dependencies": {"@modelcontextprotocol/sdk": "1", "zod": "3", "@acme/api-spec": "1"}}'
    decl = 'import type { Node } from "@acme/api-spec";\nexport declare function walk(n: Node): void;\n'
    p = program({"index.ts": SERVER, "package.json": manifest, "dist/index.d.ts": decl})
    assert [f.attrs["dependency"] for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "unused-dependency"] == []


def test_a_package_a_module_re_exports_is_used():
    """`export { Server } from "@modelcontextprotocol/sdk/server/index.js"`, `export * from "left-pad"`: a re-export
    loads the package as an import does."""
    manifest = '{"name": "demo", "dependencies": {"@modelcontextprotocol/sdk": "1", "zod": "3", "left-pad": "1", "chalk": "5"}}'
    types = ('export { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
             'export { z } from "zod";\nexport * from "left-pad";\n')
    server = SERVER.replace('from "@modelcontextprotocol/sdk/server/mcp.js"', 'from "./types.js"') \
        .replace('from "zod"', 'from "./types.js"')
    assert "@modelcontextprotocol/sdk" not in server and '"zod"' not in server
    p = program({"index.ts": server, "types.ts": types, "package.json": manifest})
    assert [f.attrs["dependency"] for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "unused-dependency"] \
        == ["chalk"]


def test_a_dependency_only_an_unread_file_may_import_is_unknown_not_unused():
    """A file that did not parse may import it: no "never imported", but "unknown (gap in FILE)"."""
    manifest = '{"name": "demo", "dependencies": {"@modelcontextprotocol/sdk": "1", "zod": "3", "left-pad": "1"}}'
    p = program({"index.ts": SERVER, "package.json": manifest, "lib/broken.js": 'let = { from "left-pad" };\n'})
    found = [f for f in mismatches.mismatches(p, {"probes": []}) if f.attrs.get("dependency") == "left-pad"]
    assert [f.id for f in found] == ["FND:dependency-use-unknown:package.json/left-pad"]
    assert found[0].attrs["status"] == "unknown (gap in lib/broken.js)"
    assert "lib/broken.js" in {a.path for a in found[0].anchors} and "never imported" not in found[0].summary


def test_a_syntax_error_region_hides_only_the_dependencies_it_names():
    """A file parsed with a syntax error was read but for the error region: a dependency that region does not name as a
    module is still known to be unused."""
    manifest = '{"name": "demo", "dependencies": {"@modelcontextprotocol/sdk": "1", "zod": "3", "left-pad": "1", "chalk": "5"}}'
    p = program({"index.ts": SERVER, "package.json": manifest,
                 "lib/broken.js": 'export const a = 1;\nlet = { from "left-pad" };\n'})
    got = {f.attrs["dependency"]: f.kind for f in mismatches.mismatches(p, {"probes": []}) if "dependency" in f.attrs}
    assert got == {"left-pad": "dependency-use-unknown", "chalk": "unused-dependency"}


def _unused(code: str, deps: dict, others: dict[str, str] | None = None) -> list[str]:
    """The dependencies the unused-dependency finding names, for a server of one file (and OTHERS) with DEPS declared."""
    p = program({"index.ts": code, **(others or {}),
                 "package.json": json.dumps({"name": "demo", "dependencies": deps})})
    return [f.attrs["dependency"] for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "unused-dependency"]


def test_a_dependency_the_code_loads_by_name_is_used():
    """pino loads its transport by the name given as a string (kb/method.yaml loaded_by_name), require.resolve and a
    plugin list name a package: each is used; a package named nowhere is still unused, and so is one whose name is only
    a word of the code's data (an output format "yaml")."""
    code = SERVER + ('import pino from "pino";\n'
                     'export const log = pino({ transport: { target: "pino-pretty" } });\n'
                     'export const where = require.resolve("@acme/worker/dist/run.js");\n'
                     'export const later = () => import("lazy-lib");\n'
                     'export const config = { plugins: ["@acme/plugin-a"] };\n'
                     'export const note = "install left-pad first";\n'
                     'export const formats = { enum: ["json", "yaml"], default: "yaml" };\n'
                     'export const pick = (f) => f === "yaml" ? ["-o", "yaml"] : [];\n'
                     'export const views = (app) => { app.set("view engine", "ejs"); app.set("title", "pug"); };\n')
    deps = {"@modelcontextprotocol/sdk": "1", "zod": "3", "pino": "9", "pino-pretty": "11", "@acme/worker": "1",
            "lazy-lib": "1", "@acme/plugin-a": "1", "left-pad": "1", "yaml": "2", "ejs": "3", "pug": "3"}
    assert _unused(code, deps) == ["left-pad", "pug", "yaml"]  # (express loads its view engine by the name set)


# unchecked-reference: a reference can only dangle in a record the server keeps.
REFERENCES = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { drive } from "./client.js";
const server = new McpServer({ name: "demo", version: "1" });
const notes: Array<{ text: string; parentId?: string }> = [];
const links: Array<object> = [];
server.registerTool("add_note", { description: "Add a note under another.",
  inputSchema: { text: z.string(), parentId: z.string().optional() } }, async (args) => {
  notes.push({ text: args.text, parentId: args.parentId });
  return { content: [{ type: "text", text: "added" }] };
});
server.registerTool("link", { description: "Link a note.", inputSchema: { replyToId: z.string(), body: z.string() } },
  async (input) => {
    links.push(input);
    return { content: [{ type: "text", text: "linked" }] };
  });
server.registerTool("create_file", { description: "Create a file in a folder.",
  inputSchema: { name: z.string(), parentFolderId: z.string() } }, async (args) => {
  const made = await drive.files.create({ requestBody: { name: args.name, parents: [args.parentFolderId] } });
  return { content: [{ type: "text", text: `created ${made.id} in ${args.parentFolderId}` }] };
});
server.registerTool("list_logs", { description: "List the logs of a scope.", inputSchema: { parent: z.string() } },
  async (args) => {
    const found = await drive.logs.list({ parent: args.parent });
    return { content: [{ type: "text", text: JSON.stringify(found) }] };
  });
'''
REFERENCE_PROBES = {"probes": [{"probe": "reference-linkage", "search": {"reference_fields": ["^parent", "^replyTo"]}}]}


def test_an_unchecked_reference_only_in_a_record_the_server_keeps():
    p = program({"index.ts": REFERENCES, "client.ts": "export const drive: any = {};\n",
                 "package.json": '{"name": "demo", "version": "1.0.0", "bin": {"demo": "index.js"}}'})
    found = sorted(f.id for f in mismatches.mismatches(p, REFERENCE_PROBES) if f.kind == "unchecked-reference")
    # stored: a field copied into a kept record, a whole input kept; handed to a remote service's request: not kept,
    # that service answers for an unknown id
    assert found == ["FND:unchecked-reference:add_note.input/parentId", "FND:unchecked-reference:link.input/replyToId"]


def test_launch_lines_after_settings_or_a_host_command_s_double_dash_are_launches():
    """`DEMO_KEY=x npx demo-server` and `claude mcp add demo -e K=v -- npx -y demo-server` launch the package (the
    words after `--` are the host's launch of it); `npm run build -- --watch` launches nothing. The finding says
    which moving reference it is: no version, `@latest`, or both."""
    manifest = '{"name": "demo-server", "dependencies": {"@modelcontextprotocol/sdk": "1", "zod": "3"}}'

    def found(readme: str) -> list:
        p = program({"index.ts": SERVER, "README.md": readme, "package.json": manifest})
        return [f for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "unpinned-launch"]

    readme = ("# demo\n\n```sh\nDEMO_KEY=abc npx demo-server\nclaude mcp add demo -e K=v -- npx -y demo-server@latest\n"
              "npm run build -- --watch\nenv A=1 npx demo-server@1.0.0\n```\n")
    hits = found(readme)
    assert [c["args"] for f in hits for c in f.attrs["launch_commands"]] == [["demo-server"], ["-y", "demo-server@latest"]]
    assert "with no version or the moving tag @latest" in hits[0].summary
    assert "with the moving tag @latest (" in found("# demo\n\n```sh\nnpx demo-server@latest\n```\n")[0].summary
    assert "with no version (" in found("# demo\n\n```sh\nnpx demo-server\n```\n")[0].summary


def test_a_package_loaded_by_a_require_function_the_module_makes_is_used():
    """`const load = createRequire(import.meta.url)` then `load("@acme/telemetry")` in an ES module: a require; a
    package only a string names as data is still unused."""
    code = SERVER + ('import { createRequire } from "node:module";\n'
                     'export function start() {\n'
                     '  const load = createRequire(import.meta.url);\n'
                     '  const telemetry = load("@acme/telemetry");\n'
                     '  return [telemetry, "left-pad"];\n'
                     '}\n')
    deps = {"@modelcontextprotocol/sdk": "1", "zod": "3", "@acme/telemetry": "1", "left-pad": "1"}
    assert _unused(code, deps) == ["left-pad"]


def test_a_require_function_made_through_a_renamed_import_loads_and_resolves():
    """A bundler renames the import (`import { createRequire as createRequire2 } from "module"`): the function it
    makes still loads (`req2("@acme/tools")`) and its `resolve` names a package (`req2.resolve("@acme/schema")`); a
    package only a string names as data is still unused."""
    code = SERVER + ('import { createRequire as createRequire2 } from "module";\n'
                     'var req2 = createRequire2(import.meta.url);\n'
                     'export function start() {\n'
                     '  const root = req2.resolve("@acme/schema");\n'
                     '  const tools = req2("@acme/tools");\n'
                     '  return [root, tools, "left-pad"];\n'
                     '}\n')
    deps = {"@modelcontextprotocol/sdk": "1", "zod": "3", "@acme/schema": "1", "@acme/tools": "1", "left-pad": "1"}
    assert _unused(code, deps) == ["left-pad"]


def test_a_package_a_resolver_may_load_by_a_name_made_at_run_time_is_used():
    """`require.resolve(`${pkg}/${file}`)` of an entry of a table written in the same module (`{ pkg: "gr-go" }`)
    may load any package a member of one of those names holds there; a package named in another string of that module
    (a message) or only in another module is still unused."""
    grammars = ('import { createRequire } from "node:module";\n'
                'const GRAMMARS = { go: { pkg: "gr-go", file: "go.wasm" }, rust: { pkg: "gr-rust", file: "rust.wasm" } };\n'
                'export const hint = "install gr-c";\nexport const also = { name: "gr-c" };\n'
                'export function grammarPath(language) {\n  const { pkg, file } = GRAMMARS[language];\n'
                '  const require = createRequire(import.meta.url);\n  return require.resolve(`${pkg}/${file}`);\n}\n')
    deps = {"@modelcontextprotocol/sdk": "1", "zod": "3", "gr-go": "1", "gr-rust": "1", "gr-c": "1"}
    index = SERVER + 'import { grammarPath } from "./grammars.js";\nexport const go = grammarPath("go");\n'
    assert _unused(index, deps, {"grammars.js": grammars, "notes.js": 'export const hint = "gr-c";\n'}) == ["gr-c"]


def test_a_package_a_name_made_at_run_time_starts_with_is_used():
    """`req.resolve(`@acme/icons/${group}/${name}`)` (also `"lodash/" + part`): the written head of the name is
    the package it loads, whatever the rest; a relative head (`./${x}`) names none."""
    icons = ('import { createRequire } from "node:module";\n'
             'const req = createRequire(import.meta.url);\n'
             'export function icon(group, name) { return req.resolve(`@acme/icons/${group}/${name}`); }\n'
             'export function part(p) { return req.resolve("lodash/" + p); }\n'
             'export function local(x) { return req.resolve(`./${x}`); }\n')
    deps = {"@modelcontextprotocol/sdk": "1", "zod": "3", "@acme/icons": "1", "lodash": "1", "left-pad": "1"}
    index = SERVER + 'import { icon, part, local } from "./icons.js";\nexport const all = [icon, part, local];\n'
    assert _unused(index, deps, {"icons.js": icons}) == ["left-pad"]


def test_a_package_a_loader_made_by_new_function_loads_by_a_constant_is_used():
    """`const load = (() => new Function("id", "return import(id)"))()` (a loader a compiler leaves alone), called with
    `PI_ID`, a constant of the module holding the package's name: the package is loaded (expect: only left-pad unused);
    a `new Function` whose body is something else is no loader."""
    loader = ('const PI_ID = "@acme/pi";\n'
              'const load = (() => { if (process.env.TEST) return (s) => import(s); '
              'return new Function("id", "return import(id)"); })();\n'
              'export async function pi() { return load(PI_ID); }\n'
              'const other = new Function("x", "return x + 1");\nexport const two = other(1) + other("left-pad");\n')
    deps = {"@modelcontextprotocol/sdk": "1", "zod": "3", "@acme/pi": "1", "left-pad": "1"}
    index = SERVER + 'import { pi, two } from "./loader.js";\nexport const all = [pi, two];\n'
    assert _unused(index, deps, {"loader.js": loader}) == ["left-pad"]


def test_a_package_a_table_names_for_a_resolver_by_a_key_is_used():
    """`const dir = GRAMMARS[lang]; req.resolve(dir + "/package.json")`, GRAMMARS an object literal of names: the
    resolver may load any package the table holds; a package only another table of the module names is unused."""
    grammars = ('import { createRequire } from "node:module";\n'
                'const req = createRequire(import.meta.url);\n'
                'const GRAMMARS = { go: "gr-go", ts: "gr-ts/typescript" };\n'
                'const LABELS = { c: "gr-c" };\n'
                'export function grammarDir(lang) {\n  const dir = GRAMMARS[lang];\n  if (!dir) return LABELS.c;\n'
                '  return req.resolve(dir + "/package.json");\n}\n')
    deps = {"@modelcontextprotocol/sdk": "1", "zod": "3", "gr-go": "1", "gr-ts": "1", "gr-c": "1"}
    index = SERVER + 'import { grammarDir } from "./grammars.js";\nexport const go = grammarDir("go");\n'
    p = program({"index.ts": index, "grammars.js": grammars,
                 "package.json": json.dumps({"name": "demo", "dependencies": deps})})
    assert [f.attrs["dependency"] for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "unused-dependency"] \
        == ["gr-c"]


def test_a_package_a_command_the_code_builds_runs_through_npx_is_used():
    """`npx cross-env ${vars} node x.js`, a command string the server builds and runs: cross-env is run, so used; a
    package only named in a message (`"install left-pad"`) or after a word that is no runner (`xnpx`) is unused."""
    code = SERVER + ('export function command(env) {\n'
                     '  const vars = Object.entries(env).map(([k, v]) => `${k}=${v}`).join(" ");\n'
                     '  return [`npx cross-env ${vars} node x.js`, "bunx -y @acme/lint@2 --fix", '
                     '"install left-pad", "xnpx pad-right"];\n}\n')
    deps = {"@modelcontextprotocol/sdk": "1", "zod": "3", "cross-env": "7", "@acme/lint": "2", "left-pad": "1",
            "pad-right": "1"}
    assert _unused(code, deps) == ["left-pad", "pad-right"]


def test_a_package_a_runner_is_spawned_with_is_used():
    """`spawn("npx", ["-y", "@acme/render", "-i", f])`, the list written there or a local bound to it: the package
    after the runner's options is run, so used; a package in the list of another command (`spawn("git", [...])`) or
    after the first argument is not."""
    code = SERVER + ('import { spawn } from "node:child_process";\n'
                     'export function render(f) {\n  const args = ["-y", "@acme/render", "-i", f];\n'
                     '  spawn("npx", args);\n  spawn("bunx", ["@acme/lint", "left-pad"]);\n'
                     '  return spawn("git", ["pad-right"]);\n}\n')
    deps = {"@modelcontextprotocol/sdk": "1", "zod": "3", "@acme/render": "1", "@acme/lint": "1", "left-pad": "1",
            "pad-right": "1"}
    assert _unused(code, deps) == ["left-pad", "pad-right"]


def test_a_package_a_resolver_is_handed_through_a_parameter_is_used():
    """`function resolveBin(pkg, bin) { ... require.resolve(pkg) ... }` called as `resolveBin("@acme/cli", "acme")`:
    the resolver loads what the module's calls pass for that parameter; a package passed for another one is unused."""
    code = SERVER + ('import { createRequire } from "node:module";\n'
                     'const require = createRequire(import.meta.url);\n'
                     'function resolveBin(pkg, bin) {\n  return require.resolve(pkg) + bin;\n}\n'
                     'export const cli = resolveBin("@acme/cli", "left-pad");\n')
    deps = {"@modelcontextprotocol/sdk": "1", "zod": "3", "@acme/cli": "1", "left-pad": "1"}
    assert _unused(code, deps) == ["left-pad"]


def test_a_package_that_depends_on_itself_does_not_use_itself_by_a_command():
    """`"dependencies": {"demo": "^1"}` in the package demo, whose setup writes `npx -y demo@latest` into a client's
    config: the command fetches demo from the registry; the dependency on itself is unused."""
    code = SERVER + 'export const config = { command: "npx", args: ["-y", "demo@latest"], line: "npx -y demo@latest" };\n'
    deps = {"@modelcontextprotocol/sdk": "1", "zod": "3", "demo": "1"}
    assert _unused(code, deps) == ["demo"]


def test_a_package_loaded_by_a_name_made_at_run_time_is_used():
    """`import(name)` after `name = ALIASES[name]` (a table of the module: each value may be loaded), and a wrapper
    handed the name (`export function dynamicImport(mod) { return import(mod) }`, or a method assigned to an object,
    `Loader.require = function (name) { return require(name) }`) called with a string from another module: each such
    package is used; one named nowhere still is not."""
    drivers = ('const ALIASES = { s3: "@acme/driver-s3", gcs: "@acme/driver-gcs" };\n'
               'export async function driver(name: string) {\n'
               '  if (name in ALIASES) name = ALIASES[name]; else throw new Error("no driver");\n'
               '  return (await import(name)).default;\n'
               '}\n')
    wrappers = ('export function dynamicImport(mod: string) { return import(mod); }\n'
                'export const Loader: any = {};\n'
                'Loader.require = function (name: string) { return require(name); };\n')
    main = SERVER + ('import { driver } from "./drivers.js";\n'
                     'import { dynamicImport, Loader } from "./load.js";\n'
                     'export const later = () => dynamicImport("@acme/pg-lite");\n'
                     'export const mail = () => Loader.require("@acme/mail");\n'
                     'export const store = () => driver(process.env.DRIVER ?? "s3");\n')
    deps = {d: "1.0.0" for d in ("@acme/driver-s3", "@acme/driver-gcs", "@acme/pg-lite", "@acme/mail", "@acme/unused")}
    deps["@modelcontextprotocol/sdk"] = "1.0.0"
    p = program({"index.ts": main, "drivers.ts": drivers, "load.ts": wrappers,
                 "package.json": json.dumps({"name": "demo", "dependencies": deps})})
    found = [f.attrs["dependency"] for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "unused-dependency"]
    assert found == ["@acme/unused"]


_THING = '''import { z } from "zod";
import { withStandardDecorators } from "@acme/mcp-kit";
const GetThing = {
  name: "get-thing",
  description: "Get things, a page at a time.",
  inputSchema: { take: z.coerce.number().optional() },
  handler: async (args) => ({ content: [{ type: "text", text: String(args.take) }] }),
};
export default withStandardDecorators(GetThing);
'''


def test_a_coercion_of_a_descriptor_a_dependency_s_function_decorates_is_that_package_s_to_say():
    """`export default withStandardDecorators(GetThing)`, the function imported from a dependency that serves the
    tools: what it makes of the descriptor is what is advertised (a pagination decorator may drop `take` and add a
    cursor), so the schema-coercion of the literal is no finding; the descriptor exported as it is keeps it."""
    index = ('import { createServer } from "@acme/mcp-kit";\nimport getThing from "./get-thing.js";\n'
             'createServer({ name: "things", tools: [getThing] }).start();\n')
    manifest = ('{"name": "things", "bin": "index.js", "dependencies": {"@acme/mcp-kit": "1", '
                '"@modelcontextprotocol/sdk": "1", "zod": "3"}}')

    def coerced(tool: str) -> list[str]:
        p = program({"index.ts": index, "get-thing.ts": tool, "package.json": manifest})
        assert [t.name for t in p.tools] == ["get-thing"]
        return [f.attrs["field"] for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "schema-coercion"]

    assert coerced(_THING) == []
    assert coerced(_THING.replace("withStandardDecorators(GetThing)", "GetThing")) == ["take"]


def test_a_require_function_made_in_either_branch_of_a_ternary_by_compiled_commonjs_resolves():
    """A bundle picks where its require function is made from (`var req = typeof __FILE__ < "u" ? (0,
    mod.createRequire)(__FILE__) : (0, mod.createRequire)(meta.url)`, the indirect call of compiled CommonJS): either
    branch makes one, so `req.resolve(dir + "/package.json")` of a table's names loads them; a package only a
    string names as data is still unused."""
    code = SERVER + ('var mod = require("node:module");\nvar meta = {};\n'
                     'var req = typeof __FILE__ < "u" ? (0, mod.createRequire)(__FILE__) : (0, mod.createRequire)(meta.url);\n'
                     'const GRAMMARS = { go: "gr-go", ts: "gr-ts/typescript" };\n'
                     'export function grammarDir(lang) {\n  const dir = GRAMMARS[lang];\n'
                     '  return [req.resolve(dir + "/package.json"), "left-pad"];\n}\n')
    deps = {"@modelcontextprotocol/sdk": "1", "zod": "3", "gr-go": "1", "gr-ts": "1", "left-pad": "1"}
    assert _unused(code, deps) == ["left-pad"]


def test_a_dependency_loaded_by_a_name_joined_from_written_parts_is_used():
    """`import(["@acme", "federation"].join("/"))` (written so that a bundler leaves the import alone) loads
    @acme/federation; a join of parts not all written (`[scope, name].join("/")`) names no package."""
    code = SERVER + 'export const fed = () => import(["@acme", "federation"].join("/"));\n'
    assert _unused(code, {"@acme/federation": "1", "left-pad": "1"}) == ["left-pad"]
    held = SERVER + 'export async function fed() {\n  const spec = ["@acme", "federation"].join("/");\n  return import(spec);\n}\n'
    assert _unused(held, {"@acme/federation": "1", "left-pad": "1"}) == ["left-pad"]
    unknown = SERVER + 'const scope = process.env.SCOPE;\nexport const fed = () => import([scope, "federation"].join("/"));\n'
    assert _unused(unknown, {"@acme/federation": "1"}) == ["@acme/federation"]


def test_a_dependency_a_package_shipped_inside_this_one_loads_is_used():
    """A package shipped in the tarball's own node_modules (bundleDependencies) that requires chalk and imports
    fs-extra: both are needed where it runs, so neither is unused; a dependency nothing loads still is, and so is one
    the shipped package's own nested copy answers (node's resolution stops there). Its code is read for the names it
    loads, not analysed."""
    inner = ('// require("left-pad") is only a comment here, not a load\n/* nor import("left-pad") */\n'
             'const chalk = require("chalk");\nimport fse from "fs-extra";\nmodule.exports = () => chalk.red("x");\n')
    deps = {"@acme/inner": "1", "chalk": "5", "fs-extra": "11", "left-pad": "1"}
    code = SERVER + 'import inner from "@acme/inner";\nexport const r = inner();\n'
    assert _unused(code, deps, {"node_modules/@acme/inner/index.js": inner}) == ["left-pad"]
    assert _unused(code, deps) == ["chalk", "fs-extra", "left-pad"]
    nested = {"node_modules/@acme/inner/index.js": inner,
              "node_modules/@acme/inner/node_modules/fs-extra/index.js": "module.exports = {};\n"}
    assert _unused(code, deps, nested) == ["fs-extra", "left-pad"]  # (inner's own copy answers its import)
