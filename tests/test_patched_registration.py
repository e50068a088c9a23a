"""A tracker that wraps the SDK's registration method (`server.registerTool = function (name, def, handler) {
return original(name, def, handler); }`, `original` the method bound before) forwards each registration made after
it: the call inside the wrapper registers nothing of its own, and is no gap. Every server here is written for the
test."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import MCP, SDK, program

TRACKER = ('export function track(server) {\n'
           '  const original = server.registerTool.bind(server);\n'
           '  let seen = 0;\n'
           '  server.registerTool = function (name, definition, handler) {\n'
           '    seen += 1;\n'
           '    return original(name, definition, handler);\n'
           '  };\n'
           '}\n')
INDEX = MCP + ('import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
               'import { track } from "./tracker.js";\n'
               'track(server);\n'
               'server.registerTool("alpha", { description: "A" }, async () => ({ content: [] }));\n'
               'server.registerTool("beta", { description: "B" }, async () => ({ content: [] }));\n'
               'await server.connect(new StdioServerTransport());\n')


LOW = SDK + ('import { track } from "./tracker.js";\n'
             'const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });\n'
             'track(server);\n'
             'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
             '  { name: "alpha", description: "A", inputSchema: { type: "object" } }] }));\n'
             'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
             '  if (request.params.name === "alpha") return { content: [] };\n'
             '  throw new Error("unknown tool");\n'
             '});\n'
             'await server.connect(new StdioServerTransport());\n')


def test_a_wrapper_patched_over_the_registration_method_forwards_and_is_no_gap():
    """Registrations made through the wrapper are read where they are written; a server that makes none (a low-level
    one the tracker is handed all the same) registers nothing through it."""
    for index, tools in [(INDEX, ["alpha", "beta"]), (LOW, ["alpha"])]:
        p = program({"index.js": index, "tracker.js": TRACKER,
                     "package.json": '{"name": "s", "type": "module", "main": "index.js"}'})
        assert sorted(t.name for t in p.tools) == tools
        assert [g.detail for g in p.gaps if g.kind == "registration"] == []
        assert coverage.ledger(p)["complete"] is True


def test_a_registration_in_a_function_assigned_elsewhere_is_still_read():
    """Assigned to a member of another name (`api.add = (name) => original(name, ...)`), the call is a registration
    like any other: a name not known is a gap."""
    tracker = TRACKER.replace("server.registerTool = function", "server.addTool = function")
    p = program({"index.js": INDEX, "tracker.js": tracker,
                 "package.json": '{"name": "s", "type": "module", "main": "index.js"}'})
    assert any("registerTool() with a name that is not a literal" in g.detail for g in p.gaps if g.kind == "registration")

