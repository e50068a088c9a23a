"""Tool classes instantiated from a list of classes: `for (const C of TOOLS) new C({name: C.toolName}).register(this)`.

`new C(args)` over an element C of a list of classes is an instance of each class; `this.x` in its methods is what the
constructor assigns from its arguments (through `super(...arguments)`, as tsc writes subclasses with fields), and a
static member read through the constructor variable is that class's static. Each server here is written for the test."""

from __future__ import annotations

from program_helpers import program

BASE = ('export class ToolBase {\n'
        '  constructor({ name, session }) { this.name = name; this.session = session; }\n'
        '  register(server) {\n'
        '    server.mcpServer.registerTool(this.name, { description: this.description }, async () => ({ content: [] }));\n'
        '    return true;\n  }\n}\n')


def _tool(cls: str, base: str, name: str) -> str:
    return (f'import {{ {base} }} from "./base.js";\n'
            f'export class {cls} extends {base} {{\n'
            '  constructor() { super(...arguments); this.description = "d"; }\n}\n'
            f'{cls}.toolName = {name};\n')


SERVER = ('import { AllTools } from "./tools/index.js";\n'
          'export class Server {\n'
          '  constructor({ mcpServer, tools }) { this.mcpServer = mcpServer; this.toolConstructors = tools ?? AllTools; }\n'
          '  connect() { this.registerTools(); }\n'
          '  registerTools() {\n'
          '    for (const toolConstructor of this.toolConstructors) {\n'
          '      const tool = new toolConstructor({ name: toolConstructor.toolName, session: this.session });\n'
          '      tool.register(this);\n'
          '    }\n  }\n}\n')
ENTRY = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
         'import { Server } from "./server.js";\n'
         'const mcp = new McpServer({ name: "s", version: "1.0.0" });\n'
         'new Server({ mcpServer: mcp }).connect();\n')


def _files(**extra: str) -> dict[str, str]:
    files = {
        "tools/base.ts": BASE,
        "tools/alpha.ts": _tool("AlphaTool", "ToolBase", '"alpha"'),
        "tools/beta.ts": _tool("BetaTool", "ToolBase", '"beta"'),
        # a base of its own in between, handing its parameter on with super(params)
        "tools/mid.ts": ('import { ToolBase } from "./base.js";\n'
                         'export class MidBase extends ToolBase {\n'
                         '  constructor(params) { super(params); this.extra = true; }\n'
                         '  register(server) { this.server = server; return super.register(server); }\n}\n'),
        "tools/gamma.ts": ('import { MidBase as ToolBase } from "./mid.js";\n'
                           'export const GammaName = "gamma";\n'
                           + _tool("GammaTool", "ToolBase", "GammaName").split("\n", 1)[1]),
        "tools/group.ts": 'export { AlphaTool } from "./alpha.js";\nexport { BetaTool } from "./beta.js";\n',
        "tools/other.ts": 'import { GammaTool } from "./gamma.js";\nexport { GammaTool };\n',
        "tools/index.ts": ('import * as Group from "./group.js";\nimport * as Other from "./other.js";\n'
                           'export const AllTools = Object.values({ ...Group, ...Other });\n'),
        "server.ts": SERVER,
        "index.ts": ENTRY,
    }
    files.update(extra)
    return files


def test_classes_of_a_list_instantiated_in_a_loop_register_their_static_names():
    p = program(_files())
    assert sorted(t.name for t in p.tools) == ["alpha", "beta", "gamma"]
    assert not [g for g in p.gaps if "instantiations" in g.detail or "not a literal" in g.detail]


def test_a_method_of_the_same_name_on_another_class_or_a_library_object_is_not_an_instantiation():
    # Resources have a register(server) of their own, called in a loop of their own; a zod schema's .register(...)
    # is a library's method: neither is an instance of ToolBase, neither is listed as a tool nor left unread.
    resources = ('import { Extra } from "./extra.js";\n'
                 'export class Resource {\n'
                 '  constructor(session) { this.name = "delta-resource"; this.uri = "x://delta"; }\n'
                 '  register(server) { server.mcpServer.registerResource(this.name, this.uri, {}, async () => ({ contents: [] })); }\n'
                 '}\nexport const Resources = [Resource, Extra];\n')
    extra = ('import { z } from "zod";\nexport const registry = z.registry();\n'
             'export const Schema = z.object({ a: z.string().register(registry, { hidden: true }) });\n'
             'export class Extra {\n  constructor(session) { this.name = "epsilon-resource"; }\n'
             '  register(server) { server.mcpServer.registerResource(this.name, "x://e", {}, async () => ({ contents: [] })); }\n}\n')
    server = SERVER.replace('  connect() { this.registerTools(); }\n',
                            '  connect() { this.registerTools(); this.registerResources(); }\n'
                            '  registerResources() { for (const R of Resources) new R(this.session).register(this); }\n')
    files = _files(**{"resources.ts": resources, "extra.ts": extra,
                      "server.ts": 'import { Resources } from "./resources.js";\n' + server})
    p = program(files)
    assert sorted(t.name for t in p.tools) == ["alpha", "beta", "gamma"]
    assert not [g for g in p.gaps if "instantiations" in g.detail]


def test_a_loop_over_a_list_known_to_be_empty_instantiates_nothing():
    # A second list of tool classes, empty in this version: no instantiation whose name is not read.
    server = SERVER.replace('  connect() { this.registerTools(); }\n',
                            '  connect() { this.registerTools(); LATER.forEach((C) => new C({ name: C.toolName }).register(this)); }\n')
    files = _files(**{"server.ts": 'const LATER = [];\n' + server})
    p = program(files)
    assert sorted(t.name for t in p.tools) == ["alpha", "beta", "gamma"]
    assert not [g for g in p.gaps if "instantiations" in g.detail]


def test_a_list_given_to_the_constructor_or_its_default_and_an_unread_name_leaves_a_gap():
    # `tools ?? AllTools`: the default is read; a class whose static name is computed at run time is a gap.
    files = _files(**{"tools/beta.ts": _tool("BetaTool", "ToolBase", "process.env.BETA_NAME")})
    p = program(files)
    assert sorted(t.name for t in p.tools) == ["alpha", "gamma"]
    assert any("1 of its instantiations name a tool that is not read" in g.detail for g in p.gaps)


def test_a_method_bound_to_the_instance_is_the_callback_of_each_class():
    # register(server) hands `this.invoke.bind(this)`: the invoke of the instance's class (its own, else its base's).
    base = BASE.replace('async () => ({ content: [] }));', 'this.invoke.bind(this));') \
        .replace('  register(server)', '  invoke(args) { return this.execute(args); }\n  register(server)')
    files = _files(**{"tools/base.ts": base})
    p = program(files)
    assert sorted(t.name for t in p.tools) == ["alpha", "beta", "gamma"]
    assert not [g for g in p.gaps if "does not resolve" in g.detail]


# A field the constructor computes from its parameter (`this.endpoints = endpoints.map(...)`), read through an instance
# made in another module: its elements are those of the argument of `new C(...)`, each a tool at its own literal.
CLIENT_KIT = ('export function makeApi(endpoints) { return endpoints; }\n'
              'export class Client {\n'
              '  constructor(baseOrEndpoints, endpoints, options) {\n'
              '    if (typeof baseOrEndpoints === "string") { throw new Error("no"); }\n'
              '    this.endpoints = baseOrEndpoints.map((endpoint) => {\n'
              '      endpoint.parameters = endpoint.parameters || [];\n      return endpoint;\n    });\n'
              '    this.visible = baseOrEndpoints.filter((endpoint) => !endpoint.hidden);\n  }\n}\n')


def _client(module: str, aliases: tuple[str, ...], field: str = "endpoints") -> str:
    items = "".join(f'  {{ method: "get", path: "/{a}", alias: "{a}" }},\n' for a in aliases)
    return (f'import {{ makeApi, Client }} from "./kit.js";\nconst endpoints = makeApi([\n{items}]);\n'
            'export const api = new Client(endpoints);\n')


def _endpoint_server(field: str) -> dict[str, str]:
    return {"kit.ts": CLIENT_KIT, "main.ts": _client("main", ("list-a", "create-b")), "beta.ts": _client("beta", ("beta-c",)),
            "index.ts": ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
                         'import { api } from "./main.js";\nimport { api as betaApi } from "./beta.js";\n'
                         f'const all = [...api.{field}, ...betaApi.{field}];\n'
                         'const server = new McpServer({ name: "s", version: "1.0.0" });\n'
                         'for (const tool of all) {\n'
                         '  server.registerTool(tool.alias, { description: tool.path }, async () => ({ content: [] }));\n'
                         '}\n')}


def test_a_field_the_constructor_maps_from_its_parameter_lists_the_arguments_elements():
    p = program(_endpoint_server("endpoints"))
    assert sorted(t.name for t in p.tools) == ["beta-c", "create-b", "list-a"]
    assert not [g for g in p.gaps if "not a literal" in g.detail]
    # `(endpoint) => { ...; return endpoint; }` hands the element back: each tool is at its own literal
    assert {t.name: t.module.path for t in p.tools} == {"list-a": "main.ts", "create-b": "main.ts", "beta-c": "beta.ts"}
    assert {t.name: t.description for t in p.tools}["create-b"] == "/create-b"


def test_a_field_the_constructor_filters_from_its_parameter_lists_the_arguments_elements():
    p = program(_endpoint_server("visible"))
    assert sorted(t.name for t in p.tools) == ["beta-c", "create-b", "list-a"]


def test_a_class_method_named_like_the_sdks_is_the_classs_own_not_a_registration():
    """`this.registerTool(server, def)` in a class that writes `registerTool(server, tool)` itself calls that
    method (which registers on the server it is handed), not the SDK's: no registration with the server as its name,
    and the tools are read through the method at each call."""
    code = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
            'const defs = [\n'
            '  { name: "add_tag", description: "Add.", run: async () => ({ content: [] }) },\n'
            '  { name: "drop_tag", description: "Drop.", run: async () => ({ content: [] }) },\n'
            '];\n'
            'class ToolRegistry {\n'
            '  constructor(private readonly defs: any[]) {}\n'
            '  registerAll(server: McpServer) {\n'
            '    for (const def of this.defs) this.registerTool(server, def);\n'
            '  }\n'
            '  registerTool(server: McpServer, tool: any) {\n'
            '    server.registerTool(tool.name, { description: tool.description }, tool.run);\n'
            '  }\n'
            '}\n'
            'const server = new McpServer({ name: "tags", version: "1.0.0" });\n'
            'new ToolRegistry(defs).registerAll(server);\n'
            'await server.connect(new StdioServerTransport());\n')
    p = program({"index.ts": code, "package.json": '{"name": "tags", "main": "index.ts"}'})
    assert sorted(t.name for t in p.tools) == ["add_tag", "drop_tag"]
    gaps = [g.detail for r in p.registrations for g in r.gaps]
    assert not any("`server`" in g for g in gaps), gaps
