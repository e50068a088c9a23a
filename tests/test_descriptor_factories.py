"""A low-level descriptor literal whose name is a parameter of the function it is written in is one tool per call of
that function (through wrappers of it), anchored at the call; whether it is listed is decided by the tools/list
result like any descriptor. A listed object whose name is not read leaves the ledger unresolved, never complete."""

from __future__ import annotations

from auditor.analyse import coverage
from auditor.extract import routes as routes_mod
from program_helpers import SDK, line_of, program

MANIFEST = '{"name": "kit", "version": "1.0.0", "bin": {"kit": "index.ts"}}'

MAKER = '''export function make(name: string, description: string, schema: object) {
  return { name, description: description, inputSchema: schema };
}
export function makeOpts(opts: { id: string; text: string }) {
  return { name: opts.id, description: opts.text, inputSchema: { type: "object", properties: {} } };
}
'''

INDEX = SDK + '''import { make, makeOpts } from "./maker.js";
const EMPTY = { type: "object", properties: {} };
function wrapped(label: string, summary: string) {
  return make(label, summary, EMPTY);
}
const LISTED = [make("alpha", "Alpha it.", { type: "object", properties: { a: { type: "string" } } }), wrapped("beta", "Beta it.")];
const unlisted = make("gamma", "Gamma it.", EMPTY);
const server = new Server({ name: "kit", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [...LISTED, makeOpts({ id: "delta", text: "Delta it." })],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  switch (request.params.name) {
    case "alpha": return { content: [] };
    case "beta": return { content: [] };
    case "delta": return { content: [] };
  }
  throw new Error("unknown");
});
'''


def test_a_descriptor_made_by_a_function_is_one_tool_per_call_anchored_there():
    p = program({"index.ts": INDEX, "maker.ts": MAKER, "package.json": MANIFEST})
    by_name = {t.name: t for t in p.tools}
    assert sorted(by_name) == ["alpha", "beta", "delta"]
    assert [t.name for t in p.unadvertised] == ["gamma"]
    alpha, beta, delta = by_name["alpha"], by_name["beta"], by_name["delta"]
    assert alpha.module.path == "index.ts" and alpha.node.start_point[0] + 1 == line_of(INDEX, 'make("alpha"')
    assert alpha.description == "Alpha it." and alpha.schema == {"type": "object", "properties": {"a": {"type": "string"}}}
    assert alpha.description_node.start_point[0] + 1 == line_of(INDEX, 'make("alpha"')
    assert beta.node.start_point[0] + 1 == line_of(INDEX, 'wrapped("beta"')  # the wrapper's call site names it
    assert beta.description == "Beta it." and beta.schema == {"type": "object", "properties": {}}
    assert delta.description == "Delta it." and delta.node.start_point[0] + 1 == line_of(INDEX, 'makeOpts({ id: "delta"')
    ledger = coverage.ledger(p)
    assert not ledger["unresolved"] and ledger["complete"]
    assert [u["name"] for u in ledger["unadvertised"]] == ["gamma"]
    (route,) = [r for r in routes_mod.routes(p) if r.kind == "list"]
    assert sorted(route.attrs["tools"]) == ["alpha", "beta", "delta"]


def test_a_copy_of_a_descriptor_made_by_a_function_is_no_second_tool():
    copier = SDK + '''const ONE = { name: "one", description: "One.", inputSchema: { type: "object" } };
function plain(def: { name: string; description: string; inputSchema: object }) {
  return { name: def.name, description: def.description, inputSchema: def.inputSchema };
}
const server = new Server({ name: "c", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [plain(ONE)] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === "one") return { content: [] };
  throw new Error("unknown");
});
'''
    p = program({"index.ts": copier, "package.json": MANIFEST})
    assert [t.name for t in p.tools] == ["one"]
    assert coverage.ledger(p)["complete"]


UNNAMED = SDK + '''const STATIC = { name: "fixed", description: "Fixed.", inputSchema: { type: "object" } };
function toolName(): string { return process.env.TOOL_PREFIX + "_run"; }
const server = new Server({ name: "n", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [STATIC, { name: toolName(), description: "Run it.", inputSchema: { type: "object" } }],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === "fixed") return { content: [] };
  return { content: [] };
});
'''


def test_a_listed_descriptor_whose_name_is_not_read_is_unresolved():
    p = program({"index.ts": UNNAMED, "package.json": MANIFEST})
    assert [t.name for t in p.tools] == ["fixed"]
    ledger = coverage.ledger(p)
    assert not ledger["complete"]
    (u,) = ledger["unresolved"]
    assert "lists 1 object(s) whose tool name is not read" in u["what"]
    assert f"(index.ts:{line_of(UNNAMED, 'name: toolName()')})" in u["what"]
    assert u["anchor"]["start_line"] == line_of(UNNAMED, "setRequestHandler(ListToolsRequestSchema")
    assert any("not read" in why for why in coverage.tool_names_unknown(p))


def test_a_maker_none_of_whose_calls_names_a_tool_leaves_the_listing_unresolved():
    index = SDK + '''function make(name: string) {
  return { name, description: "Made.", inputSchema: { type: "object" } };
}
const server = new Server({ name: "m", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [make(process.argv[2])] }));
'''
    p = program({"index.ts": index, "package.json": MANIFEST})
    assert not p.tools
    ledger = coverage.ledger(p)
    assert not ledger["complete"]
    (u,) = ledger["unresolved"]
    assert f"(index.ts:{line_of(index, 'return { name')})" in u["what"]


def test_calls_of_a_maker_some_of_which_name_no_tool_are_a_gap():
    index = SDK + '''function make(name: string) {
  return { name, description: "Made.", inputSchema: { type: "object" } };
}
const server = new Server({ name: "m", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [make("known"), make(process.argv[2])] }));
'''
    p = program({"index.ts": index, "package.json": MANIFEST})
    assert [t.name for t in p.tools] == ["known"]
    (gap,) = [g for g in p.gaps if g.kind == "registration"]
    assert "make(): 1 of its instantiations name a tool that is not read" in gap.detail
    assert gap.anchor.start_line == line_of(index, "return { name")
    assert not coverage.ledger(p)["complete"]


def test_a_listed_descriptor_whose_name_comes_from_a_spread_takes_that_name():
    index = SDK + '''const BASE = { name: "spread_name", description: "From a spread." };
const server = new Server({ name: "s", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ ...BASE, inputSchema: { type: "object" } }] }));
'''
    p = program({"index.ts": index, "package.json": MANIFEST})
    assert [(t.name, t.description) for t in p.tools] == [("spread_name", "From a spread.")]
    assert not any("whose tool name is not read" in u["what"] for u in coverage.ledger(p)["unresolved"])


def test_a_listed_descriptor_copying_an_object_not_known_is_unresolved():
    index = SDK + '''const BASE = JSON.parse(process.env.TOOL_SPEC ?? "{}");
const server = new Server({ name: "s", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ ...BASE, inputSchema: { type: "object" } }] }));
'''
    p = program({"index.ts": index, "package.json": MANIFEST})
    assert not p.tools
    ledger = coverage.ledger(p)
    assert not ledger["complete"]
    assert any("lists 1 object(s) whose tool name is not read" in u["what"] and "`{ ...BASE" in u["what"]
               for u in ledger["unresolved"])


# Tool groups in a table of creators, each group's tools made by one helper from a spec object; per-type tools made in
# a loop over type configs, one of them only for configs that have a member (`if (config.preview)`); the tools/call
# handler finds the tool object in the list by name and calls its handler.
GROUPED_INDEX = SDK + '''import { makeGroups } from "./groups.js";
class Kit {
  constructor() {
    this.server = new Server({ name: "kit", version: "1.0.0" }, { capabilities: { tools: {} } });
    this.tools = makeGroups({}).filter((t) => !process.env.HIDE?.includes(t.name));
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: this.tools }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = this.tools.find((t) => t.name === request.params.name);
      if (!tool) throw new Error("unknown tool");
      return tool.handler(request.params.arguments);
    });
  }
}
new Kit().server.connect(new StdioServerTransport());
'''
GROUPED_TOOLS = '''function createTool(spec) {
  const handler = async (args) => ({ content: [{ type: "text", text: String(await spec.run(args)) }] });
  return { name: spec.name, description: spec.description, inputSchema: { type: "object" }, handler };
}
function notesTools(client) {
  return [createTool({ name: "list_notes", description: "List notes.", run: () => client.list() })];
}
const KINDS = [{ kind: "mail", preview: "previewMail" }, { kind: "sms" }];
function kindTools(config, client) {
  const tools = [createTool({ name: `get_${config.kind}`, description: "Get one.", run: (a) => client.get(a) })];
  if (config.preview) {
    tools.push(createTool({ name: `preview_${config.kind}`, description: "Preview.", run: (a) => client[config.preview](a) }));
  }
  return tools;
}
function kindsTools(client) {
  return KINDS.flatMap((config) => kindTools(config, client));
}
const CREATORS = [{ group: "Notes", creator: notesTools }, { group: "Kinds", creator: kindsTools }];
export function makeGroups(client) {
  return CREATORS.flatMap(({ creator }) => creator(client));
}
'''


def test_tools_of_creators_in_a_table_made_by_a_helper_and_found_by_name():
    """`CREATORS.flatMap(({ creator }) => creator(client))` lists what each creator returns; a descriptor a helper
    makes from a spec is one tool per call, under the loop over configs around that call; `if (config.preview)`
    rules it out for a config without that member. The tools/call handler's `find` by name reaches each one's
    handler (expect: get_mail, get_sms, list_notes, preview_mail; complete)."""
    p = program({"index.js": GROUPED_INDEX, "groups.js": GROUPED_TOOLS,
                 "package.json": MANIFEST.replace("index.ts", "index.js")})
    led = coverage.ledger(p)
    assert [t["name"] for t in led["tools"]] == ["get_mail", "get_sms", "list_notes", "preview_mail"]
    assert led["unresolved"] == [] and led["complete"] is True
    assert {d.tool for d in p.dispatches} == {"get_mail", "get_sms", "list_notes", "preview_mail"}


PER_SERVICE = SDK + '''const TOOLS: any[] = [{ name: "status", description: "s", inputSchema: { type: "object", properties: {} } }];
function addServiceTools(service: string, label: string) {
  TOOLS.push({ name: `${service}_get_health`, description: `Health of ${label}`, inputSchema: { type: "object", properties: {} } },
             { name: `${service}_get_tags`, description: `Tags of ${label}`, inputSchema: { type: "object", properties: {} } });
}
if (process.env.ALPHA_URL) addServiceTools("alpha", "Alpha");
if (process.env.BETA_URL) addServiceTools("beta", "Beta");
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === "status") return { content: [] };
  return { content: [{ type: "text", text: request.params.name }] };
});
'''


def test_a_descriptor_named_by_a_template_of_parameters_is_one_tool_per_call():
    """`name: `${service}_get_health`` in a function called once per service: one tool per call, the template read
    with that call's arguments."""
    p = program({"index.ts": PER_SERVICE})
    assert sorted(t.name for t in p.tools) == ["alpha_get_health", "alpha_get_tags", "beta_get_health", "beta_get_tags",
                                               "status"]


PREFIXED = SDK + '''function tool(feature: string, options: any, run: Function) {
  const { isAvailable, ...mcpOptions } = options;
  return { mcp: { ...mcpOptions, inputSchema: { type: "object", properties: {} } }, run, isAvailable };
}
const coreTools = [tool("core", { name: "login", description: "Log in." }, async () => "ok"),
  tool("core", { name: "logout", description: "Log out." }, async () => "ok")];
const dbTools = [tool("db", { name: "get", description: "Get a row." }, async () => "ok")];
function addFeaturePrefix(feature: string, tools: any[]) {
  return tools.map((t) => ({ ...t, mcp: { ...t.mcp, name: `${feature}_${t.mcp.name}` } }));
}
const byFeature = { core: addFeaturePrefix("base", coreTools), db: addFeaturePrefix("database", dbTools) };
const server = new Server({ name: "kit", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: Object.values(byFeature).flat().map((t) => t.mcp),
}));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const t = Object.values(byFeature).flat().find((x) => x.mcp.name === req.params.name);
  return { content: [{ type: "text", text: String(await t.run(req.params.arguments)) }] };
});
'''


def test_a_name_read_through_members_of_a_made_object_is_read_under_the_call_that_made_it():
    """`${feature}_${t.mcp.name}` with `t` an element made by `tool("core", { name: "login" })`, whose `mcp` is
    `{ ...mcpOptions, inputSchema }`: `name` comes from the spread of tool()'s parameter, read under that call."""
    p = program({"index.ts": PREFIXED})
    assert sorted(t.name for t in p.tools) == ["base_login", "base_logout", "database_get"]
    assert coverage.ledger(p)["complete"]
