"""Tool classes whose name, description and schema are what methods return (`getName() { return "ping"; }`), listed
through a template (`tools.map((t) => ({ name: t.getName(), inputSchema: t.getInputSchema() }))`) over a list of
instances, or over the values of a Map the class fills in a loop (`this.tools.set(tool.getName(), tool)`), with the
classes imported statically or by `await import()` in a function; the same Map is the tools/call dispatch."""

from __future__ import annotations

import pytest

from auditor.analyse import coverage, mismatches
from program_helpers import SDK, program

TOOLS = '''export class PingTool {
  constructor(conn) { this.conn = conn; }
  getName() { return "ping"; }
  getDescription() { return "Ping the host"; }
  getInputSchema() { return { type: "object", properties: { host: { type: "string" } }, required: ["host"] }; }
  async execute(args) { return "pong " + args.host; }
}
export class EchoTool {
  getName() { return "echo"; }
  getDescription() { return "Echo the text"; }
  getInputSchema() { return { type: "object", properties: { text: { type: "string" } } }; }
  async execute(args) { return Buffer.from(args.text, "utf8").toString("hex"); }
}
'''

SERVER = '''
class Host {
  tools = new Map();
  constructor() {
    this.server = new Server({ name: "classes", version: "1.0.0" }, { capabilities: { tools: {} } });
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: LISTED.map((tool) => ({ name: tool.getName(), description: tool.getDescription(),
                                     inputSchema: tool.getInputSchema() })) }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = this.tools.get(request.params.name);
      if (!tool) throw new Error("unknown tool");
      return { content: [{ type: "text", text: String(await tool.execute(request.params.arguments)) }] };
    });
    this.install();
  }
  install() {
INSTALL
  }
}
'''
STATIC = 'import { PingTool, EchoTool } from "./tools.js";\n'
LOOP = "    const classes = [PingTool, EchoTool];\n" \
       "    for (const ToolClass of classes) { const tool = new ToolClass(1); this.tools.set(tool.getName(), tool); }"


def _server(install: str, listed: str = "Array.from(this.tools.values())", dynamic: bool = False) -> str:
    body = SERVER.replace("INSTALL", install).replace("LISTED", listed)
    if not dynamic:
        return SDK + STATIC + body + "await new Host().server.connect(new StdioServerTransport());\n"
    # the SDK and the classes loaded by `await import()` in the function that builds the server
    return ("async function main() {\n"
            '  const { Server } = await import("@modelcontextprotocol/sdk/server/index.js");\n'
            '  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");\n'
            '  const { ListToolsRequestSchema, CallToolRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");\n'
            '  const { PingTool, EchoTool } = await import("./tools.js");\n'
            + body + "  await new Host().server.connect(new StdioServerTransport());\n}\nmain();\n")


@pytest.mark.parametrize("install, listed, dynamic", [
    ("", "[new PingTool(1), new EchoTool()]", False),
    ('    this.tools.set("ping", new PingTool(1));\n    this.tools.set("echo", new EchoTool());', None, False),
    ("    for (const tool of [new PingTool(1), new EchoTool()]) this.tools.set(tool.getName(), tool);", None, False),
    (LOOP, None, False),
    (LOOP, None, True),
], ids=["array-of-instances", "map-set", "map-loop-instances", "map-loop-classes", "dynamic-import"])
def test_tool_classes_named_by_their_methods_are_tools_with_their_schemas(install, listed, dynamic):
    p = program({"index.js": _server(install, listed or "Array.from(this.tools.values())", dynamic), "tools.js": TOOLS})
    tools = {t.name: t for t in p.tools}
    assert sorted(tools) == ["echo", "ping"]
    assert tools["ping"].description == "Ping the host"
    assert tools["ping"].schema == {"type": "object", "properties": {"host": {"type": "string"}}, "required": ["host"]}
    assert not [g for t in p.tools for g in t.gaps]
    assert not [u for u in coverage.ledger(p)["unresolved"] if "tools/list" in u["what"]]  # the list is read whole
    if listed is None:  # the Map is the dispatch too: each tool's execute method, which reads the input unchecked
        assert sorted(d.tool for d in p.dispatches) == ["echo", "ping"]
        assert all(d.target is not None and "execute" in d.target_name for d in p.dispatches)
        found = {(f.kind, f.attrs.get("tool"), f.attrs.get("field")) for f in mismatches.mismatches(p, {"probes": []})}
        assert ("unchecked-optional", "echo", "text") in found  # (`if (!tool) throw` after the lookup checks no input)


def test_a_method_with_several_returns_names_no_tool():
    tools = TOOLS.replace('getName() { return "ping"; }', 'getName() { if (this.conn) return "ping"; return "pong"; }')
    p = program({"index.js": _server("", "[new PingTool(1), new EchoTool()]"), "tools.js": tools})
    assert sorted(t.name for t in p.tools) == ["echo"]


def test_a_name_a_function_imports_binds_the_module_only_when_no_other_declaration_has_it():
    # `const { PingTool } = await import(...)` in a function binds PingTool for the linker; a minifier's `e`, imported
    # in one function and a parameter of another, does not
    code = ('async function load() {\n  const { PingTool } = await import("./tools.js");\n'
            '  const { EchoTool: e } = await import("./tools.js");\n  return [new PingTool(1), new e()];\n}\n'
            'function other(e) { return e.getName(); }\nload();\n')
    p = program({"index.js": code, "tools.js": TOOLS})
    bound = p.linker.imports["index.js"]
    assert bound["PingTool"].module == "tools.js" and "e" not in bound
