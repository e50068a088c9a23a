"""A server written against the protocol itself, with no SDK (extract/protocol.py): a loop that reads JSON-RPC lines
and answers by the request's `method`. Its tools/list branch is its listing, its tools/call branch its dispatch, and
its `initialize` answer names the server; code that only compares methods (a client, a proxy) is no server."""

from __future__ import annotations

from auditor import kb, sources
from auditor.analyse import coverage, mismatches
from auditor.extract import facts
from auditor.model import Package, SourceFile, Target
from program_helpers import KB, program

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

# The same server answering prompts too: its prompts/get branch looks a prompt up by the destructured name in a
# registry of its own, through a method the tools/call branch never calls.
PROMPTS = {**SWITCH, "index.js": SWITCH["index.js"].replace('''      case "tools/call": {''', '''      case "prompts/get": {
        const { name, arguments: args } = params;
        return { jsonrpc: "2.0", id, result: { messages: await this.prompts.getPrompt(name, args) } };
      }
      case "tools/call": {''').replace("class HandServer {", '''class Prompts {
  prompts = new Map();
  constructor() { this.prompts.set("greet", { definition: { name: "greet" }, handler: (a) => [a] }); }
  async getPrompt(name, args) {
    const prompt = this.prompts.get(name);
    if (!prompt) throw new Error("no prompt " + name);
    return prompt.handler(args);
  }
}
class HandServer {
  prompts = new Prompts();''')}

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


def test_a_class_of_its_own_named_like_the_sdk_s_is_no_sdk_server():
    """`class McpServer { handleRequest(...) { switch (method) ... } }`, `new McpServer()`: the program's own class,
    not the SDK's (nothing imports it), so its protocol branches are read: the tool is dispatched, the audit whole."""
    own = {**SWITCH, "index.js": SWITCH["index.js"].replace("HandServer", "McpServer")}
    assert "class McpServer" in own["index.js"] and "new McpServer()" in own["index.js"]
    p = program({**own, **PACKAGE})
    assert [(s.info.get("name"), s.capabilities) for s in p.servers] == [("notes", ("tools",))]
    assert _rows(p) == [("read_note", "analysed")]
    assert coverage.ledger(p)["complete"] is True
    # The SDK's own class a bundle without markers holds under its name registers tools: still the SDK's server.
    bundled = ("class McpServer {\n  constructor(info) { this.info = info; }\n"
               "  tool(name, description, shape, cb) { return { name, description, shape, cb }; }\n"
               "  async connect(transport) {}\n}\n"
               'const server = new McpServer({ name: "bundled", version: "1.0.0" });\n'
               'server.tool("ping", "Ping the host", {}, async () => ({ content: [] }));\n')
    p = program({"index.js": bundled, **PACKAGE})
    assert [s.cls for s in p.servers] == ["McpServer"] and [t.name for t in p.tools] == ["ping"]


def test_a_prompt_looked_up_by_name_in_another_branch_is_no_tool():
    p = program({**PROMPTS, **PACKAGE})
    assert "prompts/get" in PROMPTS["index.js"] and "this.prompts.get(name)" in PROMPTS["index.js"]
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


# A class answering each method through a method of its own (`case "tools/list": this.handleToolsList(id)`, which
# writes `{ tools }`), started only when run directly; and a dependency read with it that ships an SDK server of its
# own, launched by its own file.
DELEGATING = {
    "mcp/server.js": '''const readline = require("readline");
class ProofServer {
  constructor() {
    this.tools = {
      prove: { name: "prove", description: "Prove it", inputSchema: { type: "object", properties: {} } },
      check: { name: "check", description: "Check it", inputSchema: { type: "object", properties: {} } },
    };
  }
  send(id, result) { process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result }) + "\\n"); }
  handleInitialize(id) { this.send(id, { serverInfo: { name: "proofs", version: "0.1.0" }, capabilities: { tools: {} } }); }
  handleToolsList(id) {
    const tools = Object.values(this.tools);
    this.send(id, { tools });
  }
  async handleToolsCall(id, params) {
    const { name } = params;
    switch (name) {
      case "prove": return this.send(id, { content: [{ type: "text", text: "proved" }] });
      case "check": return this.send(id, { content: [{ type: "text", text: "checked" }] });
      default: throw new Error("unknown tool " + name);
    }
  }
  async handleRequest(request) {
    const { id, method, params } = request;
    switch (method) {
      case "initialize": this.handleInitialize(id); break;
      case "tools/list": this.handleToolsList(id); break;
      case "tools/call": await this.handleToolsCall(id, params); break;
    }
  }
  start() {
    readline.createInterface({ input: process.stdin }).on("line", (line) => this.handleRequest(JSON.parse(line)));
  }
}
if (require.main === module) new ProofServer().start();
module.exports = { ProofServer };
''',
    "node_modules/dep/package.json": '{"name": "dep", "version": "1.0.0", "main": "lib/index.js", '
                                     '"bin": {"dep-mcp": "mcp/server.js"}}',
    "node_modules/dep/lib/index.js": "module.exports = { store: (x) => x };\n",
    "node_modules/dep/mcp/server.js": '''const { Server } = require("@modelcontextprotocol/sdk/server/index.js");
const { StdioServerTransport } = require("@modelcontextprotocol/sdk/server/stdio.js");
const { ListToolsRequestSchema } = require("@modelcontextprotocol/sdk/types.js");
const server = new Server({ name: "dep", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "dep_store", description: "Store", inputSchema: { type: "object", properties: {} } }] }));
server.connect(new StdioServerTransport());
''',
    "package.json": '{"name": "proofs", "bin": {"proofs": "mcp/server.js"}, "dependencies": {"dep": "1"}}',
}


def _with_dependency(files: dict[str, str]) -> facts.Program:
    """FILES as an npm target read with its dependency `dep` (as `auditor` follows a dependency)."""
    dep = Package(name="dep", version="1.0.0", range="1", folder="node_modules/dep", integrity="sha512-x",
                  why="builds on @modelcontextprotocol/sdk")
    target = Target(kind="npm", locator="npm:proofs@1.0.0", revision="sha512-x", requested="proofs@1.0.0",
                    commit_date=None, worktree_clean=None, subtree="", packages=(dep,),
                    files=tuple(SourceFile(path=p, blob=f"{i:040x}", data=body.encode("utf-8"))
                                for i, (p, body) in enumerate(sorted(files.items()))))
    method = kb.load(KB, "method")
    return facts.build(sources.register(target, method), "", kb.load(KB, "sdk"), method)


def test_a_branch_answering_through_a_method_of_its_own_is_read_and_a_dependency_s_server_is_not_the_target_s():
    """The tools/list branch that calls `this.handleToolsList(id)` is a listing, read through that method; an SDK
    server in a dependency's files (node_modules/, read with the target) neither stops the search for the target's
    own protocol server nor is an entry of the target by its launch."""
    p = _with_dependency(DELEGATING)
    assert any(m.path == "node_modules/dep/mcp/server.js" for m in p.modules)
    assert [(s.module.path, s.cls) for s in p.servers if not s.module.path.startswith("node_modules/")] == \
        [("mcp/server.js", "JSON-RPC (no SDK)")]
    assert _rows(p) == [("check", "analysed"), ("prove", "analysed")]
    led = coverage.ledger(p)
    assert led["complete"] is True, led["unresolved"]
    assert "node_modules/dep/mcp/server.js" not in led["entries"]


# Tools/call looks the tool up in a Map the server fills with `handlers.set("name", fn)` (the lookup inside a
# conditional) and calls what it finds; a prompts/get branch of the same function compares the prompt's name.
MAP_AND_PROMPTS = '''
const handlers = new Map();
function send(message) { process.stdout.write(JSON.stringify(message) + "\\\\n"); }
function serve() {
  process.stdin.on("data", async (chunk) => {
    const msg = JSON.parse(chunk.toString());
    if (msg.method === "tools/list") {
      send({ jsonrpc: "2.0", id: msg.id, result: { tools: [
        { name: "find-notes", description: "Find", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } },
        { name: "drop-note", description: "Drop", inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
      ] } });
      return;
    }
    if (msg.method === "tools/call") {
      const name = msg.params?.name;
      const handler = name ? handlers.get(name) : undefined;
      if (!handler) { send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Unknown tool" } }); return; }
      const result = await handler(msg.params.arguments ?? {});
      send({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text: JSON.stringify(result) }] } });
      return;
    }
    if (msg.method === "prompts/get") {
      const name = msg.params?.name;
      if (name === "share") { send({ jsonrpc: "2.0", id: msg.id, result: { messages: [] } }); return; }
      if (name === "sync") { send({ jsonrpc: "2.0", id: msg.id, result: { messages: [] } }); return; }
    }
  });
  handlers.set("find-notes", async (args) => fetch("https://notes.invalid/?q=" + args.q));
  handlers.set("drop-note", async (args) => fetch("https://notes.invalid/" + args.id, { method: "DELETE" }));
}
serve();
'''


def test_a_map_filled_by_name_is_the_dispatch_and_a_prompts_branch_names_no_tool():
    p = program({**PACKAGE, "index.js": MAP_AND_PROMPTS})
    led = coverage.ledger(p)
    assert [(t["name"], t["status"], t["dispatch"]) for t in led["tools"]] == [
        ("drop-note", "analysed", "registry"), ("find-notes", "analysed", "registry")]
    assert led["complete"] is True, led["unresolved"]
