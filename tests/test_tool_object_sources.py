"""Where the tool object an object registration (FastMCP's `addTool(tool)`) is handed comes from: a module of its own
(`export const`, or `export var` of tsc's ES5 output), a factory that builds it (`makeTool({ name, ... })`), and a
list joined by tsc's array spread helper (`__spreadArray(__spreadArray([], a, true), b, true)`, nested once per
list however many lists there are)."""

from __future__ import annotations

from program_helpers import program

HEAD = 'import { FastMCP } from "fastmcp";\n'
START = 'server.start({ transportType: "stdio" });\n'


def _names(files: dict[str, str]) -> list[str]:
    return sorted(t.name for t in program(files).tools)


def test_a_tool_object_imported_from_its_own_module_is_read_there():
    org = 'export const orgTool = { description: "Make an org", execute: async (a: any) => "ok", name: "make_org" };\n'
    register = ('import { orgTool } from "./org.js";\n'
                'export function registerTools(server: any) {\n  server.addTool(orgTool);\n}\n')
    index = HEAD + ('import { registerTools } from "./tools/index.js";\n'
                    'const server = new FastMCP({ name: "g", version: "1" });\nregisterTools(server);\n') + START
    assert _names({"index.ts": index, "tools/index.ts": register, "tools/org.ts": org}) == ["make_org"]
    direct = HEAD + ('import { orgTool } from "./tools/org.js";\n'
                     'const server = new FastMCP({ name: "g", version: "1" });\nserver.addTool(orgTool);\n') + START
    assert _names({"index.ts": direct, "tools/org.ts": org}) == ["make_org"]


def test_a_list_exported_with_var_is_a_top_level_value():
    tools = ('export var aTools = [\n'
             '  { name: "a_one", description: "A one", execute: function (args) { return "1"; } },\n'
             '  { name: "a_two", description: "A two", execute: function (args) { return "2"; } },\n];\n')
    index = HEAD + ('import { aTools } from "./tools.js";\n'
                    'var server = new FastMCP({ name: "g", version: "1" });\n'
                    'aTools.forEach(function (tool) { server.addTool(tool); });\n') + START
    assert _names({"index.js": index, "tools.js": tools}) == ["a_one", "a_two"]


def test_lists_joined_by_a_chain_of_array_spread_helpers_are_each_read():
    helper = ('var __spreadArray = (this && this.__spreadArray) || function (to, from, pack) {\n'
              '    return to.concat(Array.prototype.slice.call(from));\n};\n')
    lists = "".join(f'var l{i} = [{{ name: "t{i}", description: "T{i}", execute: function () {{ return ""; }} }}];\n'
                    for i in range(14))
    joined = "[]"
    for i in range(14):
        joined = f"__spreadArray({joined}, l{i}, true)"
    index = helper + HEAD + lists + ('var server = new FastMCP({ name: "g", version: "1" });\n'
                                     f'var all = __spreadArray(__spreadArray([], {joined}, true), [], false);\n'
                                     'all.forEach(function (tool) { server.addTool(tool); });\n') + START
    assert _names({"index.js": index}) == sorted(f"t{i}" for i in range(14))


def test_a_tool_object_a_factory_builds_is_read_with_the_factory_s_arguments():
    factory = ('var makeTool = function (config) { return ({\n'
               '    name: config.name,\n    description: config.description,\n'
               '    execute: function (params) { return config.name; },\n}); };\n')
    listed = ('var tools = [makeTool({ name: "pause", description: "Pause it" }), '
              'makeTool({ name: "resume", description: "Resume it" })];\n')
    index = HEAD + factory + listed + ('var server = new FastMCP({ name: "g", version: "1" });\n'
                                       'tools.forEach(function (tool) { server.addTool(tool); });\n'
                                       'server.addTool(makeTool({ name: "step", description: "Step" }));\n') + START
    p = program({"index.js": index})
    assert sorted(t.name for t in p.tools) == ["pause", "resume", "step"]
    assert {t.name: t.description for t in p.tools}["pause"] == "Pause it"


def test_a_tool_destructured_from_a_factory_in_a_top_level_loop_is_read_with_its_handler_and_schema():
    # `for (const make of REGISTRY) { const { config, handler } = make(); server.registerTool(config.name, {...},
    # handler) }` in a module that registers as it loads: name, description, schema and handler of each factory's
    # result, as with `const r = make(); r.config.name`
    find = ('import { z } from "zod";\nexport const findTool = () => ({\n'
            '  config: { name: "find_code", description: "Find code", inputSchema: { q: z.string() } },\n'
            '  handler: async (params: any) => ({ content: [{ type: "text", text: params.q }] }),\n});\n')
    index = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { findTool } from "./find.js";\n'
             'const registry = [findTool];\nconst server = new McpServer({ name: "a", version: "1" });\n'
             'for (const make of registry) {\n  const { config, handler } = make();\n'
             '  server.registerTool(config.name, { description: config.description, inputSchema: config.inputSchema },'
             ' handler);\n}\n')
    p = program({"index.ts": index, "find.ts": find})
    assert {(t.name, t.description) for t in p.tools} == {("find_code", "Find code")}
    assert all(t.schema["properties"] == {"q": {"type": "string"}} for t in p.tools)
    (d,) = [d for d in p.dispatches if d.tool == "find_code"]
    assert d.target is not None and d.target.type == "arrow_function" and d.target.start_point[0] == 3
    assert not p.gaps


def test_a_local_of_a_function_is_not_the_module_s_destructuring_of_the_same_name():
    # `const { config } = make()` at the top level, and `const config = {...}` in a function: inside the function the
    # name is that local
    from auditor.extract.frames import destructured
    from auditor.extract.syntax import find, text
    code = ('const make = () => ({ config: { name: "a" } });\nconst { config } = make();\n'
            'function other() { const config = { name: "b" }; return config.name; }\nexport { config, other };\n')
    p = program({"index.ts": code})
    (module,) = [m for m in p.modules if m.path == "index.ts"]
    reads = [n for n in find(module.tree.root_node, {"identifier"}) if text(n) == "config"]
    inner = [n for n in reads if n.start_point[0] == 2 and n.parent.type == "member_expression"]
    top = [n for n in reads if n.start_point[0] == 3]
    assert inner and destructured(inner[0]) is None
    assert top and destructured(top[0]) is not None


def test_a_tool_object_on_a_parameter_is_read_from_a_factory_or_left_as_a_gap():
    # `function register(server) { server.addTool(makeTool({...})) }`: the object the factory builds, read with its
    # arguments; a tool object of a dependency (`server.addTool(vendor.searchTool)`) is not read, and the registration
    # is a gap, not silence (the audit is not complete)
    factory = ('export const makeTool = (config: any) => ({\n  name: config.name,\n  description: config.description,\n'
               '  execute: async (params: any) => config.name,\n});\n')
    register = ('import { makeTool } from "./factory.js";\nimport * as vendor from "vendor-tools";\n'
                'export function registerTools(server: any) {\n'
                '  server.addTool(makeTool({ name: "step", description: "Step" }));\n'
                '  server.addTool(vendor.searchTool);\n}\n')
    index = HEAD + ('import { registerTools } from "./register.js";\n'
                    'const server = new FastMCP({ name: "g", version: "1" });\nregisterTools(server);\n') + START
    p = program({"index.ts": index, "register.ts": register, "factory.ts": factory})
    assert sorted(t.name for t in p.tools) == ["step"]
    (gap,) = [g for g in p.gaps if "not read" in g.detail]
    assert gap.kind == "registration" and gap.anchor.path == "register.ts" and gap.anchor.start_line == 5
    assert "vendor.searchTool" in gap.detail
