"""A server class (extends McpServer) whose constructor takes the list of tools as a parameter and registers each
(`constructor(client, tools) { tools.forEach((t) => this.tool(t.name, ...)) }`): the name is bound at each
`new C(...)` of the boundary, as a function's parameter is at each call (summaries.Expander._constructions). The
tools are made by a helper that spreads the object it is handed (`{ ...params, parameters }`), collected in objects
spread into one, and passed as `given || Object.values(ALL)` (each side an instantiation)."""

from __future__ import annotations

from tests.program_helpers import program

TOOLS = '''import { z } from "zod";
export const defineTool = (spec) => {
  const { run, ...params } = spec;
  const parameters = params.parameters ? params.parameters : z.object({});
  return { ...params, parameters, call: (client) => run(client) };
};
const lookup = defineTool({ name: "lookup_order", description: "Find an order.",
  parameters: z.object({ id: z.string() }), run: (client) => async (args) => client.find(args.id) });
const cancel = defineTool({ name: "cancel_order", description: "Cancel an order.",
  run: (client) => async (args) => client.cancel(args) });
const refund = defineTool({ name: "refund_order", description: "Refund an order.",
  run: (client) => async (args) => client.refund(args) });
const orders = { lookup, cancel };
const payments = { refund };
export const ALL = { ...orders, ...payments };
'''
SERVER = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ALL } from "./tools.js";
const Shop = class extends McpServer {
  constructor(client, tools) {
    super({ name: "shop", version: "1.0.0" });
    tools.forEach((tool) => {
      this.tool(tool.name, tool.description, tool.parameters.shape, async (args) => ({
        content: [{ type: "text", text: JSON.stringify(await tool.call(client)(args)) }] }));
    });
  }
};
const given = process.argv[2] ? [ALL.lookup] : undefined;
const shop = new Shop({}, given || Object.values(ALL));
await shop.connect(new StdioServerTransport());
'''
MANIFEST = '{"name": "shop", "type": "module", "bin": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "1", "zod": "3"}}'


def _program(server: str = SERVER):
    return program({"package.json": MANIFEST, "tools.js": TOOLS, "index.js": server})


def _names(server: str = SERVER) -> list[str]:
    return sorted(t.name for t in _program(server).tools)


def test_a_constructor_parameter_is_bound_at_each_new_expression():
    p = _program()
    assert sorted(t.name for t in p.tools) == ["cancel_order", "lookup_order", "refund_order"]
    assert not [g for g in p.gaps if g.kind == "registration"]


def test_a_method_the_constructor_hands_the_list_to_is_bound_the_same():
    handed = SERVER.replace('''    tools.forEach((tool) => {
      this.tool(''', '''    this.install(client, tools);
  }
  install(client, tools) {
    tools.forEach((tool) => {
      this.tool(''')
    assert _names(handed) == ["cancel_order", "lookup_order", "refund_order"]


def test_each_construction_is_its_own_instantiation():
    two = SERVER.replace("const shop = new Shop({}, given || Object.values(ALL));",
                         "const shop = process.env.LITE ? new Shop({}, [ALL.lookup]) : new Shop({}, [ALL.refund]);")
    assert _names(two) == ["lookup_order", "refund_order"]


def test_a_class_never_constructed_registers_nothing_it_is_a_gap():
    never = SERVER.replace("const shop = new Shop({}, given || Object.values(ALL));\nawait shop.connect(",
                           "const shop = new McpServer({ name: \"shop\", version: \"1.0.0\" });\nawait shop.connect(")
    p = _program(never)
    assert not p.tools
    assert [g for g in p.gaps if g.kind == "registration"]
