"""A webpack (or rspack) bundle keeps each module as a function `(module, exports, require)` under its id, and defines
the module's exports with `require.d(exports, { P: () => localName })` (webpack 5, rspack) or
`require.d(exports, "P", function () { return localName; })` (webpack 4): `require("./src/tools/a.ts").P` is that
module's `localName`. The bundle below is written for the test, in the shape rspack emits."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import program

RUNTIME = ('export const __webpack_modules__ = {};\n'
           'export function __webpack_require__(id) { const m = { exports: {} }; __webpack_modules__[id](m, m.exports, '
           '__webpack_require__); return m.exports; }\n'
           '__webpack_require__.d = (e, d) => { for (const k in d) Object.defineProperty(e, k, { get: d[k] }); };\n'
           '__webpack_require__.add = (mods) => Object.assign(__webpack_modules__, mods);\n')
CHUNK = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { __webpack_require__ } from "./runtime.js";
__webpack_require__.add({
    "./src/tools/define.ts" (__unused_module, __webpack_exports__, __webpack_require__) {
        __webpack_require__.d(__webpack_exports__, { u: () => defineTool });
        function defineTool(definition) { return definition; }
    },
    "./src/tools/Reload.ts" (__unused_module, __webpack_exports__, __webpack_require__) {
        __webpack_require__.d(__webpack_exports__, { M: () => Reload });
        var _define_0 = __webpack_require__("./src/tools/define.ts");
        const Reload = (0, _define_0.u)({ name: "page_reload", description: "Reload the page.", schema: {},
            async handler() { return { content: [] }; } });
    },
    "./src/tools/Shot.ts": function (__unused_module, __webpack_exports__, __webpack_require__) {
        __webpack_require__.d(__webpack_exports__, "Y", function () { return Shot; });
        const Shot = { name: "page_screenshot", description: "Take a screenshot.", schema: {},
            async handler() { return { content: [] }; } };
    },
    "./src/server.ts" (__unused_module, __webpack_exports__, __webpack_require__) {
        var _reload_1 = __webpack_require__("./src/tools/Reload.ts");
        var _shot_2 = __webpack_require__("./src/tools/Shot.ts");
        const TOOLS = [_reload_1.M, _shot_2.Y];
        const server = new McpServer({ name: "pages", version: "1.0.0" });
        for (const tool of TOOLS) {
            server.registerTool(tool.name, { description: tool.description, inputSchema: tool.schema },
                async (params) => tool.handler(params));
        }
        server.connect(new StdioServerTransport());
    },
});
__webpack_require__("./src/server.ts");
'''
FILES = {"package.json": '{"name": "pages", "bin": "dist/main.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}',
         "dist/runtime.js": RUNTIME, "dist/main.js": CHUNK}


def test_a_webpack_modules_exports_are_what_its_getters_return():
    p = program(FILES)
    ledger = coverage.ledger(p)
    assert sorted(t["name"] for t in ledger["tools"]) == ["page_reload", "page_screenshot"]
    assert not [g for g in p.gaps if "not a literal" in g.detail or "not read" in g.detail]


# A minified webpack bundle: numeric ids, CommonJS modules (`t.X = ...`), and the SDK's server class inlined as module
# 70 under its own name (a stand-in written for the test, with the members kb/sdk.yaml inlined_servers knows it by and
# a tools/list handler of its own, which is the SDK's code, not the server's).
MINIFIED = ('(()=>{"use strict";var e={'
            '70(e,t,r){t.McpServer=void 0;t.McpServer=class McpServer{constructor(e){this._registeredResources={},'
            'this._registeredTools={},this._registeredPrompts={},this.server={info:e}}'
            'tool(e,...t){this._registeredTools[e]={callback:t[t.length-1]}}'
            'setToolRequestHandlers(){this.server.setRequestHandler("tools/list",()=>({tools:Object.keys('
            'this._registeredTools).map(e=>({name:e,inputSchema:{type:"object"}}))}))}'
            'async connect(e){}}},'
            '8(e,t,r){t.start=void 0;const n=r(70),o=r(12);'
            't.start=async()=>{const e=new n.McpServer({name:"packed",version:"1.0.0"});'
            'e.tool("list_sites","List sites.",{},async()=>({content:[]}));'
            'e.tool(o.DEPLOY,"Deploy a folder.",{},async()=>({content:[]}));await e.connect()}},'
            '12(e,t,r){t.DEPLOY="deploy_folder"}'
            '},t={};function r(n){var o=t[n];if(void 0!==o)return o.exports;var s=t[n]={exports:{}};'
            'return e[n](s,s.exports,r),s.exports}r(8).start()})();\n')


def test_a_minified_bundles_commonjs_modules_and_its_copy_of_the_sdk_server():
    p = program({"package.json": '{"name": "packed", "bin": "dist/index.js", "dependencies": {}}',
                 "dist/index.js": MINIFIED})
    ledger = coverage.ledger(p)
    assert sorted(t["name"] for t in ledger["tools"]) == ["deploy_folder", "list_sites"]
    assert ledger["unresolved"] == [] and ledger["complete"]
