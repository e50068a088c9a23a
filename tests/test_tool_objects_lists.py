"""A registry list of tool objects (`{name, description, zodSchema, execute}`: no input schema of their own) filled by
pushes in another module, listed by tools/list through a copy made per element (`{name: tool.name, ..., inputSchema:
convert(tool.zodSchema)}`), and dispatched by a function the handler hands the name to (`run(name, args)`, which finds
the tool in the list): each object is a tool named by its own name, its schema the copy's (not read)."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import SDK, program

REGISTRY = '''export const registry = [];
export function definitions() {
  return registry.map((tool) => {
    const inputSchema = { type: "object", properties: convert(tool.zodSchema) };
    return { name: tool.name, description: tool.description, inputSchema };
  });
}
function convert(schema) { return schema ? {} : {}; }
export async function run(toolName, args) {
  const tool = registry.find((t) => t.name === toolName);
  if (!tool) throw new Error("unknown tool " + toolName);
  return tool.execute(args);
}
'''
TOOLS = '''import { registry } from "./registry.js";
const stamp = { name: "stamp", description: "Stamp a page.", zodSchema: null,
  execute: async () => ({ content: [{ type: "text", text: "stamped" }] }) };
const fold = { name: "fold", description: "Fold a page.", zodSchema: null,
  async execute() { return { content: [] }; } };
registry.push(stamp, fold);
export { registry };
'''
INDEX = SDK + '''import { definitions, run } from "./registry.js";
import "./tools.js";
const server = new Server({ name: "paper", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: definitions() }));
server.setRequestHandler(CallToolRequestSchema, async (request) => run(request.params.name, request.params.arguments));
await server.connect(new StdioServerTransport());
'''


def test_tool_objects_pushed_elsewhere_and_copied_by_tools_list_are_tools():
    p = program({"index.js": INDEX, "registry.js": REGISTRY, "tools.js": TOOLS,
                 "package.json": '{"name": "paper", "bin": "index.js"}'})
    led = coverage.ledger(p)
    rows = {t["name"]: t for t in led["tools"]}
    assert set(rows) == {"stamp", "fold"}
    assert {(r["dispatch"], r["implementation"], r["status"]) for r in rows.values()} == \
        {("registry", "stamp.execute", "analysed, details not read"), ("registry", "fold.execute", "analysed, details not read")}
    assert {t.name: t.description for t in p.tools} == {"stamp": "Stamp a page.", "fold": "Fold a page."}
    assert led["unresolved"] == [] and led["complete"] is True
