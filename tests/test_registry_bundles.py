"""A server whose tools/list handler lists what a registry class collects, as a minifying bundler (esbuild) writes it:
modules run lazily (`var A; init_x = ft(() => { a = {...}, A = class {...} })`, one sequence of assignments), a
dynamic import of a module of the bundle is `Promise.resolve().then(() => (init_x(), x_exports))`, the namespace
helper `__export` is renamed, a class reads its statics by its own inner name (`Gr = class g { ... g.greetTool }`),
a static getter gives the definitions, the registry's methods return `this` and are chained, and one descriptor
takes its name and description from a constant it copies (`{ ...WAVE, inputSchema }`). Each is read
(extract/program.py, lists.py, values.py, linker.py, server.py), so the list is read whole: a class the bundle
exports but never registers declares no tool, and a registry method nothing calls adds none (extract/dead.py)."""

from __future__ import annotations

from auditor.analyse import coverage
from tests.program_helpers import SDK, line_of, program

# Written for this test, in the shape of a minified bundle (short names, comma-joined assignments).
HELPERS = '''var dp = Object.defineProperty;
var Pn = (t, all) => { for (var k in all) dp(t, k, { get: all[k], enumerable: !0 }); };
var ft = (fn, res) => () => (fn && (res = fn(fn = 0)), res);
'''
TOOLS = '''var ns = {};
Pn(ns, { Greeter: () => Gr, Extra: () => Ex, Reporter: () => Rp });
var WAVE, Gr, Ex, Rp;
var init_tools = ft(() => {
  "use strict";
  WAVE = { name: "wave", description: "Wave at someone." }, Gr = class g {
    static greetTool = { name: "greet", description: "Greet someone.", inputSchema: { type: "object" } };
    static waveTool = { ...WAVE, inputSchema: { type: "object", properties: { who: { type: "string" } } } };
    static get definitions() { return [g.greetTool, g.waveTool]; }
    static cloudDefinitions = [{ name: "upload", description: "Upload a greeting.", inputSchema: { type: "object" } }];
    greet() { return "hi"; }
    wave(a) { return "o/ " + a.who; }
    upload() { return "up"; }
  }, Ex = class {
    static definitions = [{ name: "extra", description: "Exported, never registered.", inputSchema: { type: "object" } }];
    extra() { return "no"; }
  }, Rp = class {
    static definitions = [{ name: "report", description: "Report.", inputSchema: { type: "object" } }];
    report() { return "ok"; }
  };
});
'''
REGISTRY = '''var Reg;
var init_reg = ft(() => {
  "use strict";
  Reg = class {
    tools = new Map;
    addAll(cls, inst) {
      for (let d of cls.definitions) this.tools.set(d.name, { definition: d, handler: inst });
      return this;
    }
    addLater(d, fn) { return this.tools.set(d.name, { definition: d, handler: fn }), this; }
    build() {
      return { tools: Array.from(this.tools.values()).map((r) => r.definition), call: (n, a) => this.tools.get(n).handler(a) };
    }
  };
});
'''
APP = '''init_reg();
async function load() {
  let { Greeter: g, Reporter: r } = await Promise.resolve().then(() => (init_tools(), ns));
  return { Greeter: g, Reporter: r };
}
var App = class {
  constructor() {
    this.server = new Server({ name: "bundled", version: "1" }, { capabilities: { tools: {} } }), this.registry = new Reg;
  }
  async init() {
    let { Greeter: g, Reporter: r } = await load();
    this.registry.addAll(g, new g()).addAll(r, new r());
    process.env.CLOUD && this.registry.addAll({ definitions: g.cloudDefinitions }, new g());
  }
  setup() {
    let { tools: t, call: c } = this.registry.build();
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: t }));
    this.server.setRequestHandler(CallToolRequestSchema, async (q) => c(q.params.name, q.params.arguments));
  }
  async run() { await this.init(); this.setup(); await this.server.connect(new StdioServerTransport()); }
};
await new App().run();
'''
MANIFEST = '{"name": "bundled", "bin": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'


def _program(app: str = APP):
    return program({"index.js": SDK + HELPERS + TOOLS + REGISTRY + app, "package.json": MANIFEST})


def test_the_registry_a_lazy_bundle_fills_is_read_whole():
    p = _program()
    assert sorted(t.name for t in p.tools) == ["greet", "report", "upload", "wave"]
    (listing,) = p.listings
    assert listing.unread == ()
    assert not any("could not read whole" in u["what"] for u in coverage.ledger(p)["unresolved"])


def test_a_descriptor_copying_a_named_constant_is_that_tool():
    p = _program()
    (wave,) = [t for t in p.tools if t.name == "wave"]
    assert wave.description == "Wave at someone."
    assert wave.schema["properties"] == {"who": {"type": "string"}}
    assert wave.node.start_point[0] + 1 == line_of(SDK + HELPERS + TOOLS, "static waveTool")


def test_a_class_only_exported_declares_no_tool():
    names = {t.name for t in _program().tools}
    assert "extra" not in names
    # Registered, it is listed: the list is read, not a guess.
    app = APP.replace("let { Greeter: g, Reporter: r } = await Promise", "let { Greeter: g, Reporter: r, Extra: x } = await Promise") \
        .replace("return { Greeter: g, Reporter: r };", "return { Greeter: g, Reporter: r, Extra: x };") \
        .replace("let { Greeter: g, Reporter: r } = await load();", "let { Greeter: g, Reporter: r, Extra: x } = await load();") \
        .replace(".addAll(r, new r());", ".addAll(r, new r()).addAll(x, new x());")
    assert "extra" in {t.name for t in _program(app).tools}


def test_a_registry_method_something_calls_leaves_the_list_open():
    # `addLater` called with a definition the registry cannot see: every descriptor stays a tool, and the ledger says
    # the list was not read whole.
    app = APP.replace("setup() {", "later(d) { this.registry.addLater(d, () => 0); }\n  setup() {") \
        .replace("await this.init();", "await this.init(); this.later(JSON.parse(process.env.EXTRA_TOOL));")
    p = _program(app)
    assert "extra" in {t.name for t in p.tools}
    assert any("could not read whole" in u["what"] for u in coverage.ledger(p)["unresolved"])


def test_an_input_schema_a_function_of_the_module_builds_is_read_as_zod():
    # `BULK = bulk(Q, { max: 3 })` assigned in a lazily run body, `bulk` returning `z.object({ ...COMMON })`: the
    # schema it returns is read (the field a preprocess converts among them), not left unread.
    index = SDK + '''import { z } from "zod";
import { zodToJsonSchema } from "zod-to-json-schema";
var COMMON, Q, BULK;
function bulk(e, t = {}) { let { max: n = 5 } = t; return z.object({ queries: z.array(e).min(1).max(n), ...COMMON }).strict(); }
var init = (() => {
  COMMON = { size: z.preprocess((v) => typeof v == "number" ? Math.min(v, 50) : v, z.number().max(50)).optional() }, Q = z.object({ term: z.string() }), BULK = bulk(Q, { max: 3 });
});
init();
const TOOLS = [{ name: "find", description: "Find.", inputSchema: BULK }];
const server = new Server({ name: "z", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS.map((t) => ({ ...t, inputSchema: zodToJsonSchema(t.inputSchema) })) }));
server.setRequestHandler(CallToolRequestSchema, async (r) => ({ content: [{ type: "text", text: String(BULK.parse(r.params.arguments).queries.length) }] }));
'''
    p = program({"index.js": index, "package.json": '{"name": "z", "bin": "index.js", "dependencies": '
                 '{"@modelcontextprotocol/sdk": "1", "zod": "3", "zod-to-json-schema": "3"}}'})
    (tool,) = p.tools
    assert tool.schema_form == "zod"
    assert tool.schema["properties"]["size"] == {"type": "number", "maximum": 50}
    assert [c[0] for c in tool.coercions] == ["size"]


def test_the_export_helpers_read_are_forgotten_with_the_audit():
    # (a module-level memo by node id: syntax.forget(), called after each audit, drops it with the others)
    from auditor.extract import lists, syntax
    _program()
    assert lists._EXPORT_HELPERS
    syntax.forget()
    assert not lists._EXPORT_HELPERS
