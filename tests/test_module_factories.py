"""Tool objects that factories in other modules make, followed through the shapes a compiler and a middleware layer
give them: a default-exported factory, a namespace re-exported under a name, a down-levelled `??` choosing the
function that makes the modules, and a `reduce` over middleware layers that hands the modules on.

Each server here is written for the test."""

from __future__ import annotations

from program_helpers import MCP, program

REGISTER = ('export function registerTools(server, tools) {\n'
            '  for (const tool of tools) server.registerTool(tool.name, tool.config, tool.handler);\n'
            '}\n')


def _factory(name: str) -> str:
    return (f'const config = {{ description: "{name.title()} tool", inputSchema: {{}} }};\n'
            'async function handler() { return { content: [] }; }\n'
            f'export default function createTool() {{ return {{ name: "{name}", config, handler }}; }}\n')


FILES = {"register.js": REGISTER, "tools/alpha.js": _factory("alpha"), "tools/beta.js": _factory("beta"),
         "tools/index.js": 'export { default as alpha } from "./alpha.js";\n'
                           'export { default as beta } from "./beta.js";\n'}


def _tools(files: dict[str, str]):
    p = program(files)
    return sorted((t.name, t.description) for t in p.tools), [g.detail for g in p.gaps if g.kind == "registration"]


def test_tools_made_by_factories_imported_from_their_modules_with_their_shorthand_configs():
    index = MCP + ('import { registerTools } from "./register.js";\n'
                   'import createAlpha from "./tools/alpha.js";\nimport createBeta from "./tools/beta.js";\n'
                   'registerTools(server, [createAlpha(), createBeta()]);\n')
    tools, gaps = _tools({**FILES, "index.js": index})
    assert tools == [("alpha", "Alpha tool"), ("beta", "Beta tool")]
    assert gaps == []


def test_the_values_of_a_namespace_another_module_re_exports_under_a_name():
    index = MCP + ('import { registerTools } from "./register.js";\nimport * as mcp from "./mcp.js";\n'
                   'registerTools(server, Object.values(mcp.toolFactories).map((factory) => factory()));\n')
    mcp = 'import * as _toolFactories from "./tools/index.js";\nexport { _toolFactories as toolFactories };\n'
    tools, gaps = _tools({**FILES, "index.js": index, "mcp.js": mcp})
    assert tools == [("alpha", "Alpha tool"), ("beta", "Beta tool")]
    assert gaps == []


def test_a_down_levelled_nullish_default_and_a_reduce_over_middleware_layers():
    runtime = ('import * as factories from "./tools/index.js";\n'
               'export async function createRuntime(config, overrides) {\n'
               '  var _ref;\n'
               '  const createModules = (_ref = overrides === null || overrides === void 0 ? void 0 : '
               'overrides.createModules) !== null && _ref !== void 0 ? _ref : () => ({\n'
               '    tools: Object.values(factories).map((factory) => factory()),\n'
               '  });\n'
               '  return { createModules, layers: [] };\n'
               '}\n')
    compose = ('export function compose(modules, layers) {\n'
               '  return layers.reduce((acc, layer) => ({\n'
               '    tools: layer.withTool ? acc.tools.map(layer.withTool) : acc.tools,\n'
               '  }), modules);\n'
               '}\n')
    index = MCP + ('import { registerTools } from "./register.js";\nimport { compose } from "./compose.js";\n'
                   'import { createRuntime } from "./runtime.js";\n'
                   'async function start(config) {\n'
                   '  const runtime = await createRuntime(config);\n'
                   '  const composed = compose(runtime.createModules(), runtime.layers);\n'
                   '  const tools = [...composed.tools];\n'
                   '  registerTools(server, config.readOnly ? tools.filter((t) => t.name !== "beta") : tools);\n'
                   '}\n'
                   'start({ readOnly: process.env.READ_ONLY === "1" });\n')
    tools, gaps = _tools({**FILES, "index.js": index, "runtime.js": runtime, "compose.js": compose})
    assert tools == [("alpha", "Alpha tool"), ("beta", "Beta tool")]
    assert gaps == []


def test_tools_a_helper_of_an_object_of_functions_returns_in_one_of_two_modes():
    """`adapters.accountTools` of `adapters = await createAdapters(config)`: of each value the function may return
    (one per mode, `let` assigned in branches), read through a record of records (`runtime.deps.adapters`); the
    helper `Accounts.create({...})` (an entry of an object of functions) is not handed back its argument."""
    accounts = ('function create(opts) {\n'
                '  const tools = [{ name: "account-me", config: { description: `Me (${opts.service})` }, '
                'handler: async () => ({}) }];\n'
                '  return { tools, prompts: [] };\n'
                '}\n'
                'export const Accounts = { create };\n')
    adapters = ('import { Accounts } from "./accounts.js";\n'
                'export async function createAdapters(cfg) {\n'
                '  if (cfg.auth === "dcr") return { accountTools: [] };\n'
                '  let accountTools;\n'
                '  if (cfg.auth === "service-account") {\n    accountTools = [];\n  } else {\n'
                '    const result = Accounts.create({ service: "mail" });\n    accountTools = result.tools;\n  }\n'
                '  return { accountTools };\n'
                '}\n')
    index = MCP + ('import { registerTools } from "./register.js";\nimport { createAdapters } from "./adapters.js";\n'
                   'import createAlpha from "./tools/alpha.js";\n'
                   'async function start(config) {\n'
                   '  const adapters = await createAdapters(config);\n'
                   '  const runtime = { deps: { config, adapters } };\n'
                   '  registerTools(server, [createAlpha(), ...runtime.deps.adapters.accountTools]);\n'
                   '}\nstart({ auth: process.env.AUTH });\n')
    tools, gaps = _tools({**FILES, "index.js": index, "adapters.js": adapters, "accounts.js": accounts})
    assert [t for t, _ in tools] == ["account-me", "alpha"]
    assert gaps == []
