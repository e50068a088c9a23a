"""Entry files of the coverage ledger: the manifest's bin and main, and the files its scripts run."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import SDK, program

SERVER = SDK + '''
export function createServer() {
  return new Server({ name: "two-doors", version: "1.0.0" }, { capabilities: { tools: {} } });
}
'''
STDIO = 'import { createServer } from "./server.js";\nawait createServer().connect(new StdioServerTransport());\n'
HTTP = 'import { createServer } from "./server.js";\nexport const app = createServer();\n'
MANIFEST = '''{"name": "two-doors", "version": "1.0.0", "bin": {"two-doors": "dist/index.js"},
 "scripts": {"build": "tsc && shx chmod +x dist/*.js", "start": "node dist/index.js",
             "start:http": "node --enable-source-maps dist/http.js --port 3001", "test": "node --test dist/x.test.js"}}'''


def test_files_run_by_the_manifest_scripts_are_entries():
    p = program({"src/index.ts": STDIO, "src/http.ts": HTTP, "src/server.ts": SERVER, "src/orphan.ts": "export const x = 1;\n",
                 "package.json": MANIFEST})
    ledger = coverage.ledger(p)
    assert ledger["entries"] == ["src/index.ts", "src/http.ts"]
    status = {f["path"]: f["status"] for f in ledger["files"]}
    assert status == {"src/index.ts": "analysed", "src/http.ts": "analysed", "src/server.ts": "analysed",
                      "src/orphan.ts": "not reached, holds no server code", "package.json": "read"}


TOOLS = '''import { ListToolsRequestSchema, CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { readFileSync } from "node:fs";
export function registerTools(server: any) {
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
    { name: "stamp", description: "Stamp a page", inputSchema: { type: "object", properties: { page: { type: "string" } }, required: ["page"] } },
  ]}));
  server.setRequestHandler(CallToolRequestSchema, async (request: any) => {
    const args = request.params.arguments;
    switch (request.params.name) {
      case "stamp": return { content: [{ type: "text", text: readFileSync(args.page, "utf8") }] };
    }
    throw new Error("unknown tool");
  });
}
'''
LAUNCH = SDK + '''import { registerTools } from "./tools.js";
const server = new Server({ name: "stamps", version: "1.0.0" }, { capabilities: { tools: {} } });
registerTools(server);
await server.connect(new StdioServerTransport());
'''


def test_an_old_copy_with_its_own_launch_is_not_an_entry_when_the_manifest_entry_launches():
    # dist/old/ is a stale copy of the server (its own launch and dispatch) that neither bin nor main reaches: the
    # entry that launches is the server; the copy is accounted for, and its dispatch pairs with nothing
    from auditor.analyse import mismatches
    files = {"package.json": '{"name": "stamps", "version": "1.0.0", "bin": {"stamps": "dist/index.js"}}',
             "dist/index.js": LAUNCH, "dist/tools.js": TOOLS, "dist/old/index.js": LAUNCH, "dist/old/tools.js": TOOLS}
    p = program(files)
    ledger = coverage.ledger(p)
    assert ledger["entries"] == ["dist/index.js"]
    status = {f["path"]: f["status"] for f in ledger["files"]}
    assert status["dist/old/index.js"] == status["dist/old/tools.js"] == "not reached, not served"
    found = [f for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "schema-unenforced"]
    assert [(f.attrs["field"], sorted({a.path for a in f.anchors})) for f in found] == [("page", ["dist/tools.js"])]


def test_a_launch_file_is_an_entry_when_the_manifest_entry_only_spawns_it():
    # the bin is a CLI that runs `node dist/server.js` as a child: it launches no server itself, so the file that does
    # is the entry
    cli = 'import { spawn } from "node:child_process";\nspawn("node", [new URL("./server.js", import.meta.url).pathname]);\n'
    files = {"package.json": '{"name": "stamps", "version": "1.0.0", "bin": {"stamps": "dist/cli.js"}}',
             "dist/cli.js": cli, "dist/server.js": LAUNCH, "dist/tools.js": TOOLS}
    assert coverage.ledger(program(files))["entries"] == ["dist/cli.js", "dist/server.js"]


def test_a_server_held_in_a_field_launches_from_a_method():
    # the bin's class keeps its server in `this.server` and connects it in a method: that is the bin's launch, so a
    # second build beside it (another platform's, with its own launch and tools) that the bin does not reach is no
    # entry, and its tools are not the server's
    local = SDK + '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
class LocalServer {
  constructor() {
    this.server = new McpServer({ name: "desk", version: "1.0.0" });
    this.server.tool("pick_colour", "Pick a colour", async () => ({ content: [{ type: "text", text: "red" }] }));
  }
  async start() {
    const transport = new StdioServerTransport();
    await this.server.connect(transport);
  }
}
new LocalServer().start();
'''
    worker = SDK + '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "desk-worker", version: "1.0.0" });
server.tool("pair_device", "Pair a device", async () => ({ content: [{ type: "text", text: "ok" }] }));
await server.connect(new StdioServerTransport());
'''
    files = {"package.json": '{"name": "desk", "version": "1.0.0", "bin": {"desk": "dist/local.js"}}',
             "dist/local.js": local, "dist/worker/index.js": worker}
    p = program(files)
    assert coverage.ledger(p)["entries"] == ["dist/local.js"]
    assert [t.name for t in p.tools] == ["pick_colour"]
    assert [(s.var, s.module.path) for s in p.servers if s.module.path == "dist/local.js"] == [("this.server", "dist/local.js")]


POC = SDK + '''const server = new Server({ name: "poc", version: "0.1.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "poc_echo", description: "Echo", inputSchema: { type: "object", properties: {} } }] }));
await server.connect(new StdioServerTransport());
'''


def test_a_server_of_its_own_only_a_script_starts_is_another_program_when_the_bin_starts_the_server():
    """`"mcp:poc": "node dist/poc.js"` starts a proof of concept with a server of its own, none of whose code the
    bin's server reaches: not an entry (its tool is not the package's). Without a bin that starts a server, the
    scripts are how the package is run: the same file is an entry."""
    files = {"src/tools.ts": TOOLS, "src/index.ts": LAUNCH, "src/poc.ts": POC}
    manifest = '''{"name": "stamps", "version": "1.0.0", "bin": {"stamps": "dist/index.js"},
     "scripts": {"start": "node dist/index.js", "mcp:poc": "node dist/poc.js"}}'''
    p = program({**files, "package.json": manifest})
    assert coverage.ledger(p)["entries"] == ["src/index.ts"]
    assert sorted(t.name for t in p.tools) == ["stamp"]
    scripts_only = manifest.replace('"bin": {"stamps": "dist/index.js"},', "")
    p = program({**files, "package.json": scripts_only})
    assert coverage.ledger(p)["entries"] == ["src/index.ts", "src/poc.ts"]
    assert sorted(t.name for t in p.tools) == ["poc_echo", "stamp"]
