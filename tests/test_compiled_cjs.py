"""TypeScript's compiled CommonJS output: tsc's runtime helpers (`__exportStar`, `__createBinding`, `__importStar`,
`__awaiter` with a generator body) read as what they stand for, so a compiled server is audited like its source.
The modules below are written for these tests, in the shapes tsc emits."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import program

MANIFEST = '{"name": "demo", "bin": "dist/index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'

HELPERS = '''"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
'''

AWAITER = '''var __awaiter = (this && this.__awaiter) || function (thisArg, _arguments, P, generator) {
    return new (P || (P = Promise))(function (resolve, reject) {
        function step(result) { result.done ? resolve(result.value) : Promise.resolve(result.value).then(step); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};
'''

# A barrel per feature (`export * from "./tools"` compiled), a predicate and a handler that switches on the name.
NOTES_INDEX = HELPERS + '''exports.handleNotesRequest = exports.isNotesRequest = void 0;
__exportStar(require("./tools"), exports);
const store_1 = require("./store");
const isNotesRequest = (request) => ["add_note", "list_notes"].includes(request.params.name);
exports.isNotesRequest = isNotesRequest;
const handleNotesRequest = async (request) => {
    switch (request.params.name) {
        case "add_note":
            return (0, store_1.addNote)(request.params.arguments);
        case "list_notes":
            return (0, store_1.listNotes)();
        default:
            throw new Error("unknown notes tool");
    }
};
exports.handleNotesRequest = handleNotesRequest;
'''
NOTES_TOOLS = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.noteTools = void 0;
exports.noteTools = [
    { name: "add_note", description: "Add a note.", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
    { name: "list_notes", description: "List the notes.", inputSchema: { type: "object", properties: {} } },
];
'''
NOTES_STORE = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.addNote = addNote;
exports.listNotes = listNotes;
const notes = [];
function addNote(args) { notes.push(args.text); return { content: [{ type: "text", text: "ok" }] }; }
function listNotes() { return { content: [{ type: "text", text: notes.join("\\n") }] }; }
'''
# `export { tagTools } from "./tools"` compiled: a getter on exports.
TAGS_INDEX = HELPERS + '''exports.handleTagsRequest = exports.isTagsRequest = exports.tagTools = void 0;
var tools_1 = require("./tools");
Object.defineProperty(exports, "tagTools", { enumerable: true, get: function () { return tools_1.tagTools; } });
const isTagsRequest = (request) => request.params.name === "clear_tags";
exports.isTagsRequest = isTagsRequest;
const handleTagsRequest = async (request) => {
    if (request.params.name === "clear_tags") {
        return { content: [{ type: "text", text: "cleared" }] };
    }
    throw new Error("unknown tags tool");
};
exports.handleTagsRequest = handleTagsRequest;
'''
TAGS_TOOLS = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.tagTools = void 0;
exports.tagTools = [{ name: "clear_tags", description: "Clear the tags.", inputSchema: { type: "object", properties: {} } }];
'''
SERVER = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const index_js_1 = require("@modelcontextprotocol/sdk/server/index.js");
const stdio_js_1 = require("@modelcontextprotocol/sdk/server/stdio.js");
const types_js_1 = require("@modelcontextprotocol/sdk/types.js");
const notes_1 = require("./features/notes");
const tags_1 = require("./features/tags");
const server = new index_js_1.Server({ name: "demo", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(types_js_1.ListToolsRequestSchema, () => {
    const tools = [...notes_1.noteTools, ...tags_1.tagTools];
    return { tools };
});
server.setRequestHandler(types_js_1.CallToolRequestSchema, async (request) => {
    if ((0, notes_1.isNotesRequest)(request)) {
        return await (0, notes_1.handleNotesRequest)(request);
    }
    if ((0, tags_1.isTagsRequest)(request)) {
        return await (0, tags_1.handleTagsRequest)(request);
    }
    throw new Error(`Unknown tool: ${request.params.name}`);
});
server.connect(new stdio_js_1.StdioServerTransport());
'''

FEATURES = {"dist/index.js": SERVER, "dist/features/notes/index.js": NOTES_INDEX,
            "dist/features/notes/tools.js": NOTES_TOOLS, "dist/features/notes/store.js": NOTES_STORE,
            "dist/features/tags/index.js": TAGS_INDEX, "dist/features/tags/tools.js": TAGS_TOOLS,
            "package.json": MANIFEST}


def _tools(led: dict) -> dict[str, dict]:
    return {t["name"]: t for t in led["tools"]}


def test_barrels_of_export_star_and_delegated_dispatch_in_several_features_resolve():
    """`__exportStar(require("./tools"), exports)` re-exports every name of ./tools; `const m_1 = require("./m")` at
    top level binds m's exports as an import does; `(0, m_1.f)(x)` calls f; a handler that delegates to one function
    per feature dispatches the names each of them switches or branches on."""
    led = coverage.ledger(program(FEATURES))
    tools = _tools(led)
    assert sorted(tools) == ["add_note", "clear_tags", "list_notes"]
    assert led["unresolved"] == [], led["unresolved"]
    for name, t in tools.items():
        assert t["dispatch"] is not None, (name, t)
    assert led["complete"] is True


AWAIT_SERVER = HELPERS + AWAITER + '''const index_js_1 = require("@modelcontextprotocol/sdk/server/index.js");
const stdio_js_1 = require("@modelcontextprotocol/sdk/server/stdio.js");
const types_js_1 = require("@modelcontextprotocol/sdk/types.js");
const Tools = __importStar(require("./tools.js"));
const run_1 = require("./run.js");
function enabled() {
    return Object.values(Tools);
}
const server = new index_js_1.Server({ name: "demo", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(types_js_1.ListToolsRequestSchema, () => __awaiter(this, void 0, void 0, function* () {
    return ({ tools: enabled().map((t) => t.tool) });
}));
server.setRequestHandler(types_js_1.CallToolRequestSchema, (request) => __awaiter(this, void 0, void 0, function* () {
    return yield (0, run_1.runTool)(request.params.name, request.params.arguments);
}));
server.connect(new stdio_js_1.StdioServerTransport());
'''
IMPORT_STAR = '''var __importStar = (this && this.__importStar) || function (mod) {
    if (mod && mod.__esModule) return mod;
    var result = {};
    if (mod != null) for (var k in mod) if (k !== "default") __createBinding(result, mod, k);
    return result;
};
'''
AWAIT_TOOLS = HELPERS + '''exports.roll = exports["flip-coin"] = void 0;
var flip_1 = require("./flip.js");
Object.defineProperty(exports, "flip-coin", { enumerable: true, get: function () { return flip_1.flip; } });
var roll_1 = require("./roll.js");
__createBinding(exports, roll_1, "roll");
'''
FLIP = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.flip = void 0;
exports.flip = { tool: { name: "flip_coin", description: "Flip a coin.", inputSchema: { type: "object", properties: {} } } };
'''
ROLL = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.roll = void 0;
exports.roll = { tool: { name: "roll_die", description: "Roll a die.", inputSchema: { type: "object", properties: {} } } };
'''
RUN = AWAITER + '''Object.defineProperty(exports, "__esModule", { value: true });
exports.runTool = runTool;
const KINDS = {
    flip_coin: "coin",
    roll_die: "die",
};
function runTool(tool_1) {
    return __awaiter(this, arguments, void 0, function* (tool, args = {}) {
        const kind = KINDS[tool];
        if (!kind) {
            throw new Error(`Unknown tool: ${tool}`);
        }
        return { content: [{ type: "text", text: kind }] };
    });
}
'''
AWAITED = {"dist/index.js": AWAIT_SERVER.replace(AWAITER, AWAITER + IMPORT_STAR), "dist/tools.js": AWAIT_TOOLS,
           "dist/flip.js": FLIP, "dist/roll.js": ROLL, "dist/run.js": RUN, "package.json": MANIFEST}


def test_handlers_written_with_the_awaiter_helper_return_what_their_generator_returns():
    """`() => __awaiter(this, void 0, void 0, function* () { return X; })` (tsc's async downlevel) returns X; the
    generator's parameters are the outer function's arguments (`__awaiter(this, arguments, ...)`), so a table looked
    up by the name handed in, whose miss is refused, is the dispatch. `Object.values` of a namespace reads every
    export, one named by a string (`exports["flip-coin"] = void 0`) or made by `__createBinding(exports, m_1, "k")`."""
    led = coverage.ledger(program(AWAITED))
    tools = _tools(led)
    assert sorted(tools) == ["flip_coin", "roll_die"]
    assert led["unresolved"] == [], led["unresolved"]
    for name, t in tools.items():
        assert t["dispatch"] is not None, (name, t)
    assert led["complete"] is True



def test_a_check_in_one_feature_is_not_hidden_by_the_dispatch_of_another_module_at_the_same_offsets():
    """The branches of other tools skipped when reading a tool's checks are those of the same file: the byte offsets
    of a dispatch in another module say nothing about this one."""
    from auditor.analyse import validation
    checked = NOTES_INDEX.replace('''        case "add_note":
            return (0, store_1.addNote)(request.params.arguments);''', '''        case "add_note": {
            const args = schemas_1.AddNoteSchema.parse(request.params.arguments);
            return (0, store_1.addNote)(args);
        }''').replace('const store_1 = require("./store");', 'const store_1 = require("./store");\nconst schemas_1 = require("./schemas");')
    schemas = ('"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nexports.AddNoteSchema = void 0;\n'
               'const zod_1 = require("zod");\nexports.AddNoteSchema = zod_1.z.object({ text: zod_1.z.string() });\n')
    padding = "".join(f"        // line {i} of a long branch\n" for i in range(40))
    wide = TAGS_INDEX.replace('''        return { content: [{ type: "text", text: "cleared" }] };''',
                              padding + '''        return { content: [{ type: "text", text: "cleared" }] };''')
    check, branch = checked.index("AddNoteSchema.parse"), wide.index('if (request.params.name === "clear_tags")')
    assert checked.index("handleNotesRequest = async") < branch < check < wide.index("cleared"), \
        "the fixture puts the other module's branch around the check"
    manifest = MANIFEST.replace('"1"}', '"1", "zod": "3"}')
    p = program({**FEATURES, "dist/features/notes/index.js": checked, "dist/features/notes/schemas.js": schemas,
                 "dist/features/tags/index.js": wide, "package.json": manifest})
    tool = next(t for t in p.tools if t.name == "add_note")
    own, path = validation.places(p, tool)
    found = [(c.form, sorted(c.fields or ())) for c in validation.checks(p, tool, path, own)]
    assert ("schema", ["text"]) in found, found


def test_what_a_tool_of_a_data_table_runs_is_the_function_holding_the_table():
    """The code a call of a tool dispatched by a data table runs (the annotation checks' region) is the function that
    looks the name up, and what it calls."""
    from auditor.analyse import annotations
    p = program(AWAITED)
    region = annotations.regions(p, "flip_coin")
    assert region is not None
    assert any(m.path == "dist/run.js" and m.qualified(fn) == "runTool" for m, fn in region.functions), \
        [(m.path, m.qualified(fn)) for m, fn in region.functions]


PREDICATE_SERVER = SERVER.replace('''server.setRequestHandler(types_js_1.CallToolRequestSchema, async (request) => {
    if ((0, notes_1.isNotesRequest)(request)) {
        return await (0, notes_1.handleNotesRequest)(request);
    }
    if ((0, tags_1.isTagsRequest)(request)) {
        return await (0, tags_1.handleTagsRequest)(request);
    }''', '''const isNoteTool = (toolName) => toolName === "add_note" || toolName === "list_notes";
function clearTags() {
    return { content: [{ type: "text", text: "cleared" }] };
}
server.setRequestHandler(types_js_1.CallToolRequestSchema, async (request) => {
    if (isNoteTool(request.params.name)) {
        return (0, store_1.addNote)(request.params.arguments);
    }
    if ((0, tags_1.isTagsRequest)(request)) {
        return clearTags();
    }''').replace('const tags_1 = require("./features/tags");',
              'const tags_1 = require("./features/tags");\nconst store_1 = require("./features/notes/store");')


def test_a_predicate_of_the_server_that_tests_the_name_dispatches_its_tools_to_its_branch():
    """`if (isNoteTool(request.params.name)) return addNote(...)`, the predicate returning `name === "a" || ...` or
    `[...].includes(request.params.name)`: each name it tests is dispatched to what its branch calls."""
    assert "isNoteTool(request.params.name)" in PREDICATE_SERVER and "store_1 = require" in PREDICATE_SERVER
    p = program({**FEATURES, "dist/index.js": PREDICATE_SERVER})
    got = {d.tool: d.target_name for d in p.dispatches}
    assert got == {"add_note": "addNote", "list_notes": "addNote", "clear_tags": "clearTags"}, got
    led = coverage.ledger(p)
    assert led["complete"] is True and led["unresolved"] == [], led["unresolved"]


def test_a_registration_helper_of_another_module_whose_callback_goes_through_a_wrapper():
    """`server.tool(name, desc, shape, (0, mw_1.withErrorHandling)((args) => ...))` in `registerTagTools(server, api)`
    of another module, called as `(0, tags_1.registerTagTools)(server, api)`: the callback is a wrapper's call."""
    files = {
        "package.json": '{"name": "tags", "version": "1.0.0", "main": "build/index.js"}',
        "build/index.js": ('"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\n'
                           'const mcp_js_1 = require("@modelcontextprotocol/sdk/server/mcp.js");\n'
                           'const tags_1 = require("./tags");\n'
                           'const server = new mcp_js_1.McpServer({ name: "tags", version: "1.0.0" });\n'
                           '(0, tags_1.registerTagTools)(server, {});\n'),
        "build/middlewares.js": ('"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\n'
                                 'exports.withErrorHandling = withErrorHandling;\n'
                                 'function withErrorHandling(fn) { return async (args) => { try { return await fn(args); }'
                                 ' catch (e) { return { content: [], isError: true }; } }; }\n'),
        "build/tags.js": ('"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\n'
                          'exports.registerTagTools = registerTagTools;\n'
                          'const zod_1 = require("zod");\nconst middlewares_1 = require("./middlewares");\n'
                          'function registerTagTools(server, api) {\n'
                          '    server.tool("list_tags", "List tags", { page: zod_1.z.number().optional() }, '
                          '(0, middlewares_1.withErrorHandling)((args) => api.tags(args.page)));\n'
                          '}\n'),
    }
    led = coverage.ledger(program(files))
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("list_tags", "analysed")]


def test_a_wrapper_handed_the_tool_name_before_the_callback_is_the_callback_too():
    """`server.tool("x", desc, shape, withErrorHandler("x", async (args) => ...))` in a function handed the server: a
    wrapper's call handed a function anywhere among its arguments is a callback as it is when handed it first."""
    files = {
        "package.json": '{"name": "jobs", "version": "1.0.0", "main": "index.js"}',
        "index.js": ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
                     'import { registerJobTools } from "./jobs.js";\n'
                     'const server = new McpServer({ name: "jobs", version: "1.0.0" });\n'
                     'registerJobTools(server, {});\n'),
        "wrap.js": ('export function withErrorHandler(toolName, fn) { return async (args) => { try { return await fn(args); }'
                    ' catch (e) { return { content: [{ type: "text", text: toolName }], isError: true }; } }; }\n'),
        "jobs.js": ('import { z } from "zod";\nimport { withErrorHandler } from "./wrap.js";\n'
                    'export function registerJobTools(server, backend) {\n'
                    '  server.tool("add_job", "Add a job", { queue: z.string() }, withErrorHandler("add_job", '
                    'async ({ queue }) => backend.add(queue)));\n'
                    '  server.tool("drop_job", "Drop a job", { id: z.string() }, withErrorHandler("drop_job", '
                    'async ({ id }) => backend.drop(id)));\n'
                    '}\n'),
    }
    led = coverage.ledger(program(files))
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("add_job", "analysed"), ("drop_job", "analysed")]

def test_handlers_written_with_esbuilds_async_helper_return_what_their_generator_returns():
    """esbuild's downlevel of an async arrow, `() => __async(this, null, function* () { return X; })`, returns X, as
    tsc's `__awaiter` does: the listed descriptors are the tools, read whole (no unresolved list)."""
    code = '''"use strict";
var __async = (__this, __arguments, generator) => {
  return new Promise((resolve, reject) => {
    var step = (x) => x.done ? resolve(x.value) : Promise.resolve(x.value).then(fulfilled, rejected);
    var fulfilled = (value) => { try { step(generator.next(value)); } catch (e) { reject(e); } };
    var rejected = (value) => { try { step(generator.throw(value)); } catch (e) { reject(e); } };
    step((generator = generator.apply(__this, __arguments)).next());
  });
};
var import_server = require("@modelcontextprotocol/sdk/server/index.js");
var import_stdio = require("@modelcontextprotocol/sdk/server/stdio.js");
var import_types = require("@modelcontextprotocol/sdk/types.js");
var enabled = (process.env.ENABLED_TOOLS || "").split(",");
var all = [
  { name: "list_secrets", description: "List.", inputSchema: { type: "object", properties: {} } },
  { name: "get_secret", description: "Get.", inputSchema: { type: "object", properties: {} } }
];
var decoy = { name: "not_a_tool", description: "Unlisted.", inputSchema: { type: "object", properties: {} } };
var server = new import_server.Server({ name: "s", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(import_types.ListToolsRequestSchema, () => __async(exports, null, function* () {
  return { tools: all.filter((t) => enabled.includes(t.name)) };
}));
server.setRequestHandler(import_types.CallToolRequestSchema, (req) => __async(exports, null, function* () {
  const { name } = req.params;
  if (name === "list_secrets") return { content: [] };
  if (name === "get_secret") return { content: [] };
  throw new Error("unknown tool");
}));
server.connect(new import_stdio.StdioServerTransport());
'''
    led = coverage.ledger(program({"dist/index.js": code, "package.json": MANIFEST}))
    assert sorted(_tools(led)) == ["get_secret", "list_secrets"]
    assert led["unresolved"] == [], led["unresolved"]
    assert led["complete"] is True


def test_a_loop_over_required_tool_modules_registers_what_each_module_exports():
    """`const modules = [require("./read"), require("./drop")]` and `for (const { name, config, handler } of modules)
    server.registerTool(name, config, handler)`, each module `module.exports = { name, config, handler }`: a
    `require` of a module of the boundary stands for its `module.exports`, and the shorthand `handler` for the
    function of that name there."""
    tool = ('const {{ z }} = require("zod");\n'
            'async function handler(args) {{ return {{ content: [{{ type: "text", text: args.{field} }}] }}; }}\n'
            'module.exports = {{ name: "{name}", config: {{ description: "{name}", inputSchema: {{ {field}: z.string() }} }}, handler }};\n')
    files = {
        "package.json": '{"name": "sql", "version": "1.0.0", "main": "src/index.js"}',
        "src/index.js": ('const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");\n'
                         'const { registerAll } = require("./tools");\n'
                         'const server = new McpServer({ name: "sql", version: "1.0.0" });\n'
                         'registerAll(server);\n'),
        "src/tools/index.js": ('const modules = [\n  require("./read-query"),\n  require("./list-tables"),\n];\n'
                               'function registerAll(server) {\n'
                               '  for (const { name, config, handler } of modules) {\n'
                               '    server.registerTool(name, config, handler);\n  }\n}\n'
                               'module.exports = { registerAll };\n'),
        "src/tools/read-query.js": tool.format(name="read_query", field="query"),
        "src/tools/list-tables.js": tool.format(name="list_tables", field="schema"),
    }
    p = program(files)
    led = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("list_tables", "analysed"), ("read_query", "analysed")]
    assert {t.name: sorted(t.schema["properties"]) for t in p.tools} == {"list_tables": ["schema"], "read_query": ["query"]}
    assert led["complete"] is True


# A schema package compiled by tsc: shapes exported with `exports.X = {...}`, one field taken from another export of
# the same module (`exports.commonSchema.info`), descriptions read through a namespace require of a barrel.
SCHEMA_DESCRIPTIONS = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.commonDescriptions = void 0;
exports.commonDescriptions = { name: "The name of the contract", license: "The SPDX license" };
'''
SCHEMA_BARREL = HELPERS + '__exportStar(require("./descriptions"), exports);\n'
SCHEMA_SHAPES = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.accountSchema = exports.commonSchema = void 0;
const zod_1 = require("zod");
const index_1 = require("./index");
exports.commonSchema = {
    info: zod_1.z.object({ license: zod_1.z.string().optional().describe(index_1.commonDescriptions.license) }).optional(),
};
exports.accountSchema = {
    name: zod_1.z.string().describe(index_1.commonDescriptions.name),
    info: exports.commonSchema.info,
};
'''
SCHEMA_SERVER = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { accountSchema } from "./schemas/shapes.js";
const server = new McpServer({ name: "wizard", version: "1.0.0" });
server.registerTool("account", { description: "Write an account contract", inputSchema: accountSchema },
  async ({ name }) => ({ content: [{ type: "text", text: `contract ${name}` }] }));
await server.connect(new StdioServerTransport());
'''


def test_a_compiled_shape_with_its_own_exports_and_a_barrels_descriptions_is_read_whole():
    p = program({"package.json": '{"name": "wizard", "bin": "src/index.js", "type": "module"}',
                 "src/index.js": SCHEMA_SERVER, "src/schemas/shapes.js": SCHEMA_SHAPES,
                 "src/schemas/index.js": SCHEMA_BARREL, "src/schemas/descriptions.js": SCHEMA_DESCRIPTIONS})
    tool = next(t for t in p.tools if t.name == "account")
    assert tool.schema["properties"]["name"] == {"type": "string", "description": "The name of the contract"}
    assert tool.schema["properties"]["info"]["properties"]["license"]["description"] == "The SPDX license"
    assert tool.schema["required"] == ["name"]
    assert not [g for g in p.gaps if g.kind == "schema"]


def test_a_server_constructed_through_the_indirection_of_compiled_commonjs_is_the_sdk_s():
    """`new (0, mcp_1.McpServer)(...)`, as sucrase and some tsc settings write a `new` of an imported class (like
    `(0, f)(x)` for a call): the SDK's server, so its `tool` calls are registrations and the audit is complete."""
    factory = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
var _mcp = require("@modelcontextprotocol/sdk/server/mcp.js");
var _zod = require("zod");
var make = (opts) => {
  let o = new (0, _mcp.McpServer)({ name: "pay", version: "1.0.0" });
  return o.tool("list_orders", "List orders", { count: _zod.z.number().optional() }, async (a) => ({ content: [] })),
    o.tool("get_order", "Get an order", { id: _zod.z.string() }, async (a) => ({ content: [] })), o;
};
exports.make = make;
'''
    main = '''#!/usr/bin/env node
"use strict";
var _f = require("../factory.cjs");
var _stdio = require("@modelcontextprotocol/sdk/server/stdio.js");
(0, _f.make)({}).connect(new _stdio.StdioServerTransport());
'''
    led = coverage.ledger(program({"dist/factory.cjs": factory, "dist/bin/stdio.cjs": main, "package.json":
                                   '{"name": "pay", "bin": "dist/bin/stdio.cjs", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'}))
    assert sorted(t["name"] for t in led["tools"]) == ["get_order", "list_orders"]
    assert all(t["status"] == "analysed" for t in led["tools"]) and led["unresolved"] == [] and led["complete"] is True
