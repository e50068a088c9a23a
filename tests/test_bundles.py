"""A bundle (esbuild, tsup) holds its dependencies' code beside the server's, each opened by a comment naming its
source file: the dependencies' regions are out of the boundary, as they are when the server is not bundled."""

from __future__ import annotations

import pytest

from auditor.analyse import coverage
from program_helpers import program

BUNDLE = '''#!/usr/bin/env node
// node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.js
var Server = class {
  constructor(info) { this.handlers = new Map(); }
  setRequestHandler(schema, handler) { this.handlers.set(schema, handler); }
};
// node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js
var McpServer = class {
  constructor(info) {
    this.server = new Server(info);
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: Object.values(this._tools) }));
  }
  registerTool(name, config, cb) { this._tools[name] = { name, config, cb }; }
};
// node_modules/some-http/lib/index.js
function request(url) { return fetch(url); }

// src/index.ts
var notes = [];
var server = new McpServer({ name: "bundled-notes", version: "1.0.0" });
server.registerTool("add_note", { description: "Add a note" }, async ({ text }) => {
  notes.push(text);
  return { content: [] };
});
'''


def test_dependency_regions_of_a_bundle_are_not_read_as_the_server():
    p = program({"dist/index.js": BUNDLE, "package.json": '{"name": "bundled-notes", "bin": "dist/index.js"}'})
    (m,) = p.modules
    assert [pkg for _, _, pkg in m.vendored] == ["@modelcontextprotocol/sdk", "@modelcontextprotocol/sdk", "some-http"]
    assert [t.name for t in p.tools] == ["add_note"] and p.handlers == ()  # the SDK's own handler is not the server's
    assert [c.key for c in p.containers] == ["notes"]  # no state of the SDK's classes
    ledger = coverage.ledger(p)
    assert ledger["unresolved"] == [] and ledger["complete"] is True
    (row,) = [f for f in ledger["files"] if f["path"] == "dist/index.js"]
    assert row["bundled"] == [{"package": "@modelcontextprotocol/sdk", "regions": 2, "lines": 13},
                              {"package": "some-http", "regions": 1, "lines": 3}]
    assert row["reason"] == "2 bundled package(s) not read as its code: @modelcontextprotocol/sdk, some-http"


def test_a_workspace_package_s_bundle_marks_the_root_node_modules_it_inlines():
    # esbuild run in a workspace package names the hoisted packages from the package's folder: `../../node_modules/`.
    text = BUNDLE.replace("// node_modules/", "// ../../node_modules/.bun/sdk@1.0.0/node_modules/", 2) \
        .replace("// node_modules/", "// ../../node_modules/")
    p = program({"dist/index.js": text, "package.json": '{"name": "bundled-notes", "bin": "dist/index.js"}'})
    (m,) = p.modules
    assert [pkg for _, _, pkg in m.vendored] == ["@modelcontextprotocol/sdk", "@modelcontextprotocol/sdk", "some-http"]
    assert [t.name for t in p.tools] == ["add_note"] and p.handlers == ()
    assert [c.key for c in p.containers] == ["notes"]


def test_one_path_comment_is_no_bundle():
    src = "// node_modules/left-pad/index.js is vendored below, patched\nexport const pad = (s) => s;\n"
    p = program({"index.js": "// node_modules/left-pad/index.js\n" + src})
    assert p.modules[0].vendored == () and "pad" in p.modules[0].toplevel


ROLLDOWN = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
//#region ../core/dist/notes.js
const notes = [];
//#endregion
//#region ../../node_modules/.pnpm/llm-kit@1.0.0/node_modules/@acme/llm-kit/dist/index.mjs
function responseTool(format) {
  return format === "json" ? { type: "function", name: "json", description: "Respond with JSON.", inputSchema: {} } : void 0;
}
//#endregion
//#region src/index.ts
const server = new McpServer({ name: "rolled-notes", version: "1.0.0" });
server.registerTool("add_note", { description: "Add a note" }, async ({ text }) => {
  notes.push(text);
  return { content: [] };
});
//#endregion
'''


def test_rolldown_regions_of_node_modules_are_not_read_as_the_server():
    """rolldown wraps each module in `//#region PATH` ... `//#endregion`: a descriptor-shaped object of a bundled
    package is no tool; the workspace's own regions (`../core/...`) are the server's code."""
    p = program({"dist/index.js": ROLLDOWN, "package.json": '{"name": "rolled-notes", "bin": "dist/index.js"}'})
    (m,) = p.modules
    assert [(first, last, pkg) for first, last, pkg in m.vendored] == [(5, 9, "@acme/llm-kit")]
    assert [t.name for t in p.tools] == ["add_note"]
    assert [c.key for c in p.containers] == ["notes"]


ZOD_BUNDLE = '''#!/usr/bin/env node
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
var __export = (target, all) => {
  for (var name in all) Object.defineProperty(target, name, { get: all[name], enumerable: true });
};
// node_modules/zod/v3/types.js
var ZodType = class {};
var ZodString = class extends ZodType {};
var ZodObject = class extends ZodType {};
var stringType = ZodString.create;
var objectType = ZodObject.create;
// node_modules/zod/v3/external.js
var external_exports = {};
__export(external_exports, {
  ZodObject: () => ZodObject,
  ZodType: () => ZodType,
  object: () => objectType,
  string: () => stringType
});
// node_modules/some-lib/index.js
var helpers_exports = {};
__export(helpers_exports, { string: () => String });

// src/index.ts
var z = external_exports;
var server = new McpServer({ name: "bundled-zod", version: "1.0.0" });
server.registerTool("lookup", {
  description: "Look a name up",
  inputSchema: { name: external_exports.string().describe("the name"), tag: z.string().optional() },
}, async ({ name }) => ({ content: [{ type: "text", text: name }] }));
server.registerTool("other", {
  description: "Not zod",
  inputSchema: { name: helpers_exports.string() },
}, async ({ name }) => ({ content: [{ type: "text", text: name }] }));
'''


@pytest.mark.parametrize("helper", ["__export", "No"])
def test_zod_inlined_by_a_bundler_is_the_zod_namespace(helper):
    """esbuild inlines zod as a namespace object (`__export(ns, {object: ..., string: ...})`, the helper renamed by a
    minifier): one that exports zod's names is the zod namespace, whatever it is called, and so is a top-level alias of
    it; another namespace is not."""
    bundle = ZOD_BUNDLE.replace("__export", helper)
    p = program({"dist/index.js": bundle, "package.json": '{"name": "bundled-zod", "bin": "dist/index.js"}'})
    tools = {t.name: t for t in p.tools}
    lookup = tools["lookup"]
    assert lookup.schema_form == "zod" and lookup.gaps == ()
    assert lookup.schema["properties"] == {"name": {"type": "string", "description": "the name"}, "tag": {"type": "string"}}
    assert lookup.schema["required"] == ["name"]
    assert tools["other"].gaps  # a namespace object that does not export zod's names is no zod


MINIFIED = '''#!/usr/bin/env node
var P=class{constructor(o){this.h=new Map;this.setRequestHandler(Pg,()=>({}))}setRequestHandler(s,f){this.h.set(s,f)}};
var Q=class extends P{constructor(i,o){super(o);this.i=i}};
var M=class{constructor(i){this.t={};this.server=new Q(i,{});this.server.setRequestHandler(LT,()=>({tools:Object.values(this.t)}))}};
var B=Z.object({jsonrpc:Z.literal("2.0")}),Pg=B.extend({method:Z.literal("ping")}),
LT=B.extend({method:Z.literal("tools/list")}),CT=B.extend({method:Z.literal("tools/call"),params:Z.object({})});
function pad(x){let s=new String(x);return s.padStart(4)}
var mk=()=>{let s=new Q({name:"tiny",version:"1.0.0"},{capabilities:{tools:{}}});
s.setRequestHandler(LT,async()=>({tools:[{name:"ping_back",description:"Answers.",inputSchema:{type:"object"}}]}));
s.setRequestHandler(CT,async(r)=>{if(r.params.name==="ping_back")return{content:[{type:"text",text:pad("ok")}]};throw new Error("no")});
return s};
mk().connect(new Stdio());
'''


def test_a_minified_bundle_whose_sdk_classes_and_schemas_are_renamed_is_read_by_what_its_schemas_say():
    """A minifying bundler renames the SDK's server class and its request schemas (`new Q(...)`,
    `setRequestHandler(LT, ...)`): a schema is the request its `method` literal names, and an object handed the
    handlers of MCP requests is the server (not another `new` of the same variable name in another function)."""
    p = program({"package.json": '{"name": "tiny", "bin": "dist/index.js"}', "dist/index.js": MINIFIED})
    assert [(s.var, s.cls, s.info.get("name")) for s in p.servers] == [("s", "Q", "tiny")]
    assert {h.method for h in p.handlers if h.server_var == "s"} == {"tools/list", "tools/call"}
    # a class's own `this.server` is read so too (an McpServer inlined under markers or recognised by its members is
    # the SDK's, not the module's own code); what it lists, a run-time record, is no tool of its own
    assert {h.method for h in p.handlers if h.server_var == "this.server"} == {"tools/list"}
    led = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("ping_back", "analysed")]
    assert led["unresolved"] == [] and led["complete"] is True


def test_an_enum_and_a_handler_declared_inside_a_bundle_s_module_function():
    """webpack wraps each module in a function: tsc's enum `(function (ToolName) { ToolName["READ"] = "read_logs";
    })(ToolName || (ToolName = {}))` and the `function handleToolCall` the tools/call handler calls are declared in
    it, not at the top: the tools are named by the enum and dispatched by the `switch` on their members."""
    from auditor.analyse import coverage
    from program_helpers import program

    code = '''(() => {
  var __webpack_modules__ = { 1: (module) => { module.exports = {}; } };
  (() => {
    const { Server } = require("@modelcontextprotocol/sdk/server/index.js");
    const { CallToolRequestSchema, ListToolsRequestSchema } = require("@modelcontextprotocol/sdk/types.js");
    var ToolName;
    (function (ToolName) {
      ToolName["READ_LOGS"] = "read_logs";
      ToolName["TAKE_SHOT"] = "take_screenshot";
    })(ToolName || (ToolName = {}));
    const tools = [
      { name: ToolName.READ_LOGS, description: "Read logs.", inputSchema: { type: "object" } },
      { name: ToolName.TAKE_SHOT, description: "Take a screenshot.", inputSchema: { type: "object" } },
    ];
    async function handleToolCall(request) {
      const { name } = request.params;
      switch (name) {
        case ToolName.READ_LOGS: return { content: [{ type: "text", text: "logs" }] };
        case ToolName.TAKE_SHOT: return { content: [{ type: "text", text: "shot" }] };
        default: throw new Error("unknown tool");
      }
    }
    const server = new Server({ name: "e", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => handleToolCall(request));
  })();
})();
'''
    manifest = '{"name": "e", "version": "1.0.0", "bin": {"e": "dist/index.js"}}'
    led = coverage.ledger(program({"dist/index.js": code, "package.json": manifest}))
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("read_logs", "analysed"), ("take_screenshot", "analysed")]
    assert led["complete"] is True


# A minified bundle (esbuild --minify) keeps no marker comment: the SDK's classes are inlined under short names, its own
# server (`this.server = new Ut(...)`) and default handlers written beside the package's code.
_MINIFIED = ('import gr from"node:process";'
             'var Yt=class{constructor(){this._requestHandlers=new Map;this.setRequestHandler("ping",async()=>({}))}'
             'setRequestHandler(e,t){this._requestHandlers.set(e,t)}};'
             'var Ut=class extends Yt{constructor(e,t){super(t),this._serverInfo=e,this._capabilities={}}};'
             'var gt=class{constructor(e,t){this._registeredResources={},this._registeredTools={},'
             'this._registeredPrompts={},this.server=new Ut(e,t)}'
             'tool(e,...t){this._registeredTools[e]={cb:t[t.length-1]};return this._registeredTools[e]}};'
             'var Kt=class{constructor(){this._registeredTools={}}tool(e,t){return t}};'
             'var R=new gt({name:"desk",version:"0.0.1"});'
             'R.tool("get_me","Who am I",{},async()=>({content:[{type:"text",text:gr.env.USER??""}]}));'
             'R.tool("list_rooms","The rooms",{},async()=>({content:[]}));'
             'var K=new Kt;K.tool("not_a_tool",async()=>1);')


def test_a_minified_copy_of_the_sdk_server_class_is_known_by_its_members_and_its_code_is_not_the_servers():
    p = program({"dist/index.js": _MINIFIED})
    assert sorted(t.name for t in p.tools) == ["get_me", "list_rooms"]  # (Kt has one of the members only: no server)
    assert [(s.cls, s.info.get("name")) for s in p.servers] == [("McpServer", "desk")]  # (not the copy's inner Server)
    assert p.handlers == ()  # (the copied Protocol's default `ping` handler is the SDK's)


_ZOD4 = """import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const ZodString = $constructor("ZodString", (inst, def) => { inst.def = def; });
const ZodObject = $constructor("ZodObject", (inst, def) => { inst.def = def; });
const ZodEnum = $constructor("ZodEnum", (inst, def) => { inst.def = def; });
const ZodNumber = $constructor("ZodNumber", (inst, def) => { inst.def = def; });
function $constructor(name, init) { return class { constructor(def) { init(this, def); } }; }
function _string(Class, params) { return new Class({ type: "string", ...params }); }
function _coercedNumber(Class, params) { return new Class({ type: "number", coerce: true, ...params }); }
function string(params) {
  return /* @__PURE__ */ _string(ZodString, params);
}
function number(params) {
  return _coercedNumber(ZodNumber, params);
}
function object(shape, params) {
  const def = { type: "object", shape: shape ?? {} };
  return new ZodObject(def);
}
function _enum(values, params) {
  return new ZodEnum({ type: "enum", entries: values });
}
const server = new McpServer({ name: "keep", version: "1.0.0" });
const searchInput = { query: string().describe("What to find"), kind: _enum(["link", "text"]).optional() };
server.registerTool("search", { description: "Search", inputSchema: object(searchInput) }, async ({ query }) => ({ content: [{ type: "text", text: query }] }));
server.registerTool("count", { description: "Count", inputSchema: { n: number() } }, async ({ n }) => ({ content: [] }));
"""


def test_zod_4_inlined_without_markers_is_read_by_the_classes_its_functions_construct():
    """A copy of zod 4 a bundler inlines beside the server's code: `function string(p) { return /* @__PURE__ */
    _string(ZodString, p) }`, `function object(shape) { ...; return new ZodObject(def) }` are z.string and z.object
    (kb/sdk.yaml zod.bundled_classes); a helper that coerces (`_coercedNumber(ZodNumber)`) is not read as a plain
    number: a gap."""
    p = program({"dist/index.js": _ZOD4})
    tools = {t.name: t for t in p.tools}
    assert tools["search"].schema == {"type": "object", "properties": {
        "query": {"type": "string", "description": "What to find"},
        "kind": {"type": "string", "enum": ["link", "text"]}}, "required": ["query"]}
    assert tools["search"].gaps == ()
    assert tools["count"].schema["properties"] == {"n": {}} and len(tools["count"].gaps) == 1


CLASSED = '''#!/usr/bin/env node
var P=class{constructor(o){this.h=new Map}setRequestHandler(s,f){this.h.set(s,f)}};
var Q=class extends P{constructor(i,o){super(o);this._serverInfo=i;this._capabilities=o?.capabilities??{}}};
var B=Z.object({jsonrpc:Z.literal("2.0")}),
LT=B.extend({method:Z.literal("tools/list")}),CT=B.extend({method:Z.literal("tools/call"),params:Z.object({})});
var Pages=class{constructor(){this.server=new Q({name:"pages",version:"1.0.0"},{capabilities:{tools:{}}});
this.server.setRequestHandler(LT,async()=>({tools:[{name:"get_page",description:"A page.",inputSchema:{type:"object"}},
{name:"add_page",description:"Adds.",inputSchema:{type:"object"}}]}));
this.server.setRequestHandler(CT,async(e)=>{switch(e.params.name){case"get_page":return{content:[]};
case"add_page":return{content:[]};default:throw new Error("no")}})}run(){return this.server.connect(new Stdio())}};
new Pages().run();
'''


def test_a_renamed_schema_a_class_hands_its_own_server_is_read_by_its_method():
    """`this.server.setRequestHandler(CT, ...)` in the server's own class, CT the SDK's CallToolRequestSchema renamed by
    a minifier (and Q its Server class, known by its members): the tools/call handler, whose switch names each tool."""
    p = program({"package.json": '{"name": "pages", "bin": "dist/index.js"}', "dist/index.js": CLASSED})
    assert {h.method for h in p.handlers} == {"tools/list", "tools/call"}
    led = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("add_page", "analysed"), ("get_page", "analysed")]
    assert led["complete"] is True
