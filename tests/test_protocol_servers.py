"""A server written against the protocol itself, with no SDK (extract/protocol.py): a loop that reads JSON-RPC lines
and answers by the request's `method`. Its tools/list branch is its listing, its tools/call branch its dispatch, and
its `initialize` answer names the server; code that only compares methods (a client, a proxy) is no server."""

from __future__ import annotations

from auditor.analyse import coverage, mismatches
from program_helpers import program

PACKAGE = {"package.json": '{"name": "hand", "version": "1.0.0", "bin": {"hand": "index.js"}}'}

# An if-chain over `msg.method`, its answers written to stdout; the tools dispatched by a switch in a function the
# tools/call branch hands the name and arguments.
IF_CHAIN = '''
const readline = require("readline");
const { execFileSync } = require("child_process");
const tools = [
  { name: "list_files", description: "List files", inputSchema: { type: "object", properties: { dir: { type: "string" } } } },
  { name: "echo", description: "Echo", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
];
async function callTool(name, args) {
  switch (name) {
    case "list_files": return execFileSync("ls", [args.dir]).toString();
    case "echo": return args.text;
    default: throw new Error("unknown tool " + name);
  }
}
function send(message) { process.stdout.write(JSON.stringify(message) + "\\n"); }
const rl = readline.createInterface({ input: process.stdin });
rl.on("line", async (line) => {
  const msg = JSON.parse(line);
  if (msg.method === "initialize") {
    send({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion: "2024-11-05", capabilities: { tools: {} },
                                                serverInfo: { name: "hand", version: "0.3.0" } } });
  } else if (msg.method === "tools/list") {
    send({ jsonrpc: "2.0", id: msg.id, result: { tools } });
  } else if (msg.method === "tools/call") {
    const text = await callTool(msg.params.name, msg.params.arguments);
    send({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text }] } });
  }
});
'''

# A class whose handleRequest switches on a destructured `method` and returns the response; the tools are modules of
# `{ definition, handler }` in a record looked up by the destructured name.
SWITCH = {
    "tools/notes.js": '''
const fs = require("fs");
const definition = { name: "read_note", description: "Read a note",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } };
async function handler(args) { return fs.readFileSync(args.path, "utf8"); }
module.exports = { definition, handler };
''',
    "index.js": '''
const notes = require("./tools/notes");
const TOOLS = { read_note: notes };
class HandServer {
  async handleRequest(request) {
    const { id, method, params } = request;
    switch (method) {
      case "initialize":
        return { jsonrpc: "2.0", id, result: { serverInfo: { name: "notes", version: "1.0.0" }, capabilities: { tools: {} } } };
      case "tools/list":
        return { jsonrpc: "2.0", id, result: { tools: Object.values(TOOLS).map((t) => t.definition) } };
      case "tools/call": {
        const { name, arguments: args } = params;
        const tool = TOOLS[name];
        if (!tool) return { jsonrpc: "2.0", id, error: { code: -32601, message: "unknown tool" } };
        return { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: await tool.handler(args) }] } };
      }
    }
  }
}
process.stdin.on("data", async (chunk) => {
  const out = await new HandServer().handleRequest(JSON.parse(chunk.toString()));
  process.stdout.write(JSON.stringify(out) + "\\n");
});
''',
}

# A client: it compares methods of the messages it sends and receives, and holds no tools list.
CLIENT = '''
function describe(message) {
  if (message.method === "tools/call") return "calling " + message.tool;
  if (message.method === "tools/list") return "listing";
  return "other";
}
module.exports = { describe };
'''


def _rows(p) -> list[tuple[str, str]]:
    return [(t["name"], t["status"]) for t in coverage.ledger(p)["tools"]]


def test_an_if_chain_over_the_request_method_is_a_server_with_its_listing_and_dispatch():
    p = program({"index.js": IF_CHAIN, **PACKAGE})
    assert [(s.cls, s.info.get("name"), s.info.get("version"), s.capabilities) for s in p.servers] == \
        [("JSON-RPC (no SDK)", "hand", "0.3.0", ("tools",))]
    assert sorted(h.method for h in p.handlers) == ["tools/call", "tools/list"]
    assert {d.tool: d.form for d in p.dispatches} == {"list_files": "switch-case", "echo": "switch-case"}
    assert _rows(p) == [("echo", "analysed"), ("list_files", "analysed")]
    assert coverage.ledger(p)["complete"] is True
    # the fields go to a command and back into the result, with no check: the low-level handler checks nothing
    flagged = {(f.attrs["tool"], f.attrs["field"]): f.kind for f in mismatches.mismatches(p, {"probes": []})
               if f.kind in {"schema-unenforced", "unchecked-optional"}}
    assert flagged == {("list_files", "dir"): "unchecked-optional"}


def test_a_switch_on_a_destructured_method_returning_the_response_is_a_server():
    p = program({**SWITCH, **PACKAGE})
    assert [(s.info.get("name"), s.capabilities) for s in p.servers] == [("notes", ("tools",))]
    assert _rows(p) == [("read_note", "analysed")]
    assert coverage.ledger(p)["complete"] is True


def test_code_that_only_compares_methods_is_no_server():
    p = program({"index.js": CLIENT, **PACKAGE})
    assert not p.servers and not p.handlers


def test_a_server_built_on_the_sdk_is_not_read_again_by_its_methods():
    """A program with an SDK server: its own `msg.method` comparisons (a proxy, a logger) are not a second server."""
    sdk = ('import { Server } from "@modelcontextprotocol/sdk/server/index.js";\n'
           'import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";\n'
           'const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });\n'
           'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));\n'
           'export function trace(msg: any) { if (msg.method === "tools/list") return { tools: [] }; }\n')
    p = program({"index.ts": sdk, "package.json": '{"name": "s", "version": "1.0.0", "main": "index.ts"}'})
    assert [s.cls for s in p.servers] == ["Server"]


# Tools and prompts selected by one shared function: the tools/list template copies each element's input schema, so
# an element with none (a prompt, or what a copy of one with no input schema makes) is no tool.
SHARED = '''
const TOOLS = [{ name: "get_quote", description: "Quote", inputSchema: { type: "object", properties: {} } }];
const PROMPTS = [{ name: "review", title: "Review", args: [] }];
const SHOWN = PROMPTS.map((p) => ({ name: p.name, title: p.title }));
function pick(list, only) { return only ? list.filter((x) => only.includes(x.name)) : list; }
const ctx = { tools: pick(TOOLS, process.env.TOOLS), prompts: pick(SHOWN, process.env.PROMPTS) };
async function handle(msg) {
  switch (msg.method) {
    case "tools/list":
      return { jsonrpc: "2.0", id: msg.id, result: { tools: ctx.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })) } };
    case "prompts/list":
      return { jsonrpc: "2.0", id: msg.id, result: { prompts: ctx.prompts } };
  }
}
process.stdin.on("data", async (d) => process.stdout.write(JSON.stringify(await handle(JSON.parse(String(d))))));
'''


def test_a_list_template_copying_the_input_schema_names_no_element_without_one():
    p = program({"index.js": SHARED, **PACKAGE})
    assert [t.name for t in p.tools] == ["get_quote"]
