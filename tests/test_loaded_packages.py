"""A CommonJS server that loads ES-module packages with `await import(...)` inside a loader function (the way a CJS
package reaches an ESM-only dependency), takes a client class, its table of names and an adapter's register
function from what the loader returns, keeps some of the client's tool objects with a filter over a record whose
keys are computed from that table (`[String(Names.RUN)]: ...`), and hands them to the adapter, which registers each.

Read (extract/values.py, lists.py, listing.py): a name destructured from `await import("pkg")` is that export, also
through a function returning it; the adapter's function is a registration wrapper called there; `new Client()` of
such a class has its methods; `String(x)` of a known string is that string; the record `in` tests, returned by a
call, is read under that call's frame; a descriptor the filter leaves out is not a tool even where another
registration's name cannot be read."""

from __future__ import annotations

from auditor import kb, sources
from auditor.extract import facts
from auditor.model import Package, SourceFile, Target
from tests.program_helpers import KB

MANIFEST = ('{"name": "relay", "bin": "dist/index.js", "dependencies": {"@modelcontextprotocol/sdk": "1", '
            '"@k/kit-client": "1", "@k/kit-adapter": "1"}}')

SERVER = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const mcp_js_1 = require("@modelcontextprotocol/sdk/server/mcp.js");
const stdio_js_1 = require("@modelcontextprotocol/sdk/server/stdio.js");
async function loadKit() {
    const { KitClient, Names } = await import("@k/kit-client");
    const { registerAll } = await import("@k/kit-adapter");
    return { KitClient, Names, registerAll };
}
function wanted(Names) {
    return {
        [String(Names.RUN)]: "Run a snippet against the kit.",
        [String(Names.LOOK)]: "Look around the kit's catalog.",
    };
}
function pick(tools, descriptions) {
    return tools
        .filter((tool) => tool.name in descriptions)
        .map((tool) => ({ ...tool, description: descriptions[tool.name] }));
}
async function makeClient(KitClient) {
    const client = new KitClient({ mode: "local" });
    return client;
}
async function main() {
    const { KitClient, Names, registerAll } = await loadKit();
    const client = await makeClient(KitClient);
    const server = new mcp_js_1.McpServer({ name: "relay", version: "1.0.0" });
    registerAll(PICKED, server);
    for (const extra of JSON.parse(process.env.RELAY_EXTRA || "[]")) {
        server.registerTool(extra.name, { description: extra.text }, async () => ({ content: [] }));
    }
    await server.connect(new stdio_js_1.StdioServerTransport());
}
main();
'''
PICKED = "pick(client.tools(), wanted(Names))"

CLIENT_MANIFEST = ('{"name": "@k/kit-client", "version": "1.0.0", "type": "module", "main": "./dist/index.cjs", '
                   '"module": "./dist/index.js", "exports": {".": {"import": "./dist/index.js", '
                   '"require": "./dist/index.cjs"}}}')
CLIENT = '''export const Names = { RUN: "run_code", LOOK: "look", FIND: "find_api", DUMP: "dump_all" };
function runTool(client) {
  return { name: Names.RUN, description: "Run code.", inputSchema: { type: "object", properties: { code: { type: "string" } } },
    func: async (a) => client.run(a.code) };
}
function lookTool(client) {
  return { name: Names.LOOK, description: "Look.", inputSchema: { type: "object", properties: { path: { type: "string" } } },
    func: async (a) => client.look(a.path) };
}
function findTool(client) {
  return { name: Names.FIND, description: "Find an API.", inputSchema: { type: "object", properties: { q: { type: "string" } } },
    func: async (a) => client.find(a.q) };
}
function dumpTool(client) {
  return { name: Names.DUMP, description: "Dump every API.", inputSchema: { type: "object", properties: {} },
    func: async () => client.dump() };
}
export class KitClient {
  constructor(options) { this.options = options; }
  tools() { return [findTool(this), dumpTool(this), runTool(this), lookTool(this)]; }
  async run(code) { return code.length; }
  async look(path) { return path; }
  async find(q) { return q; }
  async dump() { return []; }
}
'''
ADAPTER_MANIFEST = ('{"name": "@k/kit-adapter", "version": "1.0.0", "type": "module", "module": "./dist/index.js", '
                    '"exports": {".": {"import": "./dist/index.js"}}}')
ADAPTER = '''export function registerAll(tools, server) {
  for (const tool of tools) {
    server.registerTool(tool.name, { description: tool.description || "" }, async (args) => {
      const result = await tool.func(args);
      return { content: [{ type: "text", text: JSON.stringify(result) }] };
    });
  }
}
'''


PACKAGES = tuple(Package(name=n, version="1.0.0", range="1", folder=f"node_modules/{n}", integrity="sha512-x",
                         why="is of the same scope, @k") for n in ("@k/kit-client", "@k/kit-adapter"))


def _program(picked: str = PICKED) -> facts.Program:
    """The server as an npm target read with its two dependencies (as `auditor` follows them)."""
    files = {"package.json": MANIFEST, "dist/index.js": SERVER.replace("PICKED", picked),
             "node_modules/@k/kit-client/package.json": CLIENT_MANIFEST,
             "node_modules/@k/kit-client/dist/index.js": CLIENT,
             "node_modules/@k/kit-adapter/package.json": ADAPTER_MANIFEST,
             "node_modules/@k/kit-adapter/dist/index.js": ADAPTER}
    target = Target(kind="npm", locator="npm:relay@1.0.0", revision="sha512-x", requested="relay@1.0.0",
                    commit_date=None, worktree_clean=None, subtree="", packages=PACKAGES,
                    files=tuple(SourceFile(path=p, blob=f"{i:040x}", data=body.encode("utf-8"))
                                for i, (p, body) in enumerate(sorted(files.items()))))
    method = kb.load(KB, "method")
    return facts.build(sources.register(target, method), "", kb.load(KB, "sdk"), method)


def _registered(p) -> list[str]:
    return sorted({r.name for r in p.registrations if r.kind == "tool" and r.name is not None})


def test_the_adapter_a_loader_returns_registers_the_client_tools_the_filter_keeps():
    p = _program()
    assert _registered(p) == ["look", "run_code"]
    # The two the filter leaves out are no tools, though the loop over RELAY_EXTRA registers names not known.
    assert sorted({t.name for t in p.tools}) == ["look", "run_code"]


def test_every_client_tool_is_registered_when_nothing_filters_them():
    p = _program("client.tools()")
    assert _registered(p) == ["dump_all", "find_api", "look", "run_code"]
    assert sorted({t.name for t in p.tools}) == ["dump_all", "find_api", "look", "run_code"]


def test_a_record_whose_keys_are_not_known_keeps_every_tool():
    # `wanted` built from the environment: the filter's answer is not known, every tool object stays.
    p = _program("pick(client.tools(), JSON.parse(process.env.RELAY_WANTED))")
    assert sorted({t.name for t in p.tools}) == ["dump_all", "find_api", "look", "run_code"]
