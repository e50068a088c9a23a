"""A record of tools made empty and filled by writes in the code that declares it (extract/lists.py `_written`), then
walked by Object.entries to register each: a write with a written key, one per element of a loop, one per element of a
loop inside another (its list a member of the outer element), and a key read from what a function of the server makes
of the element (`const tool = make(r, op, cfg); TOOLS[tool.name] = tool`: the call's arguments read under the loops'
frames). A record filled only in a helper called elsewhere is not read: its registration stays a gap."""

from __future__ import annotations

from program_helpers import program

PACKAGE = '{"name": "rec", "version": "1.0.0", "type": "module", "bin": "index.js"}'
HEAD = 'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
REGISTER = '''const server = new McpServer({ name: "x", version: "1" });
for (const [name, tool] of Object.entries(TOOLS)) {
  server.tool(name, tool.description, {}, async () => ({ content: [] }));
}
'''
RESOURCES = '''const RESOURCES = {
  monitor: { operations: { create: { description: "Create a monitor" }, get: { description: "Get a monitor" } } },
  team: { operations: { list: { description: "List teams" } } },
};
'''


def _tools(body: str, files: dict[str, str] | None = None) -> tuple[list[tuple[str, str]], list]:
    p = program({"package.json": PACKAGE, "index.js": HEAD + body + REGISTER, **(files or {})})
    return sorted((t.name, t.description) for t in p.tools), list(p.gaps)


def test_written_keys_are_the_records_entries():
    tools, gaps = _tools('const TOOLS = {};\nTOOLS["alpha"] = { description: "A" };\nTOOLS.beta = { description: "B" };\n')
    assert tools == [("alpha", "A"), ("beta", "B")] and not gaps


def test_a_write_in_a_loop_is_one_entry_per_element():
    body = ('const LIST = [{ name: "alpha", description: "A" }, { name: "beta", description: "B" }];\n'
            'const TOOLS = {};\nfor (const t of LIST) {\n  TOOLS[t.name] = t;\n}\n')
    assert _tools(body) == ([("alpha", "A"), ("beta", "B")], [])


def test_a_write_in_nested_loops_reads_the_inner_list_under_the_outer_element():
    body = RESOURCES + ('const TOOLS = {};\nfor (const [r, rc] of Object.entries(RESOURCES)) {\n'
                        '  for (const [op, oc] of Object.entries(rc.operations)) {\n    TOOLS[`${op}_${r}`] = oc;\n  }\n}\n')
    assert _tools(body) == ([("create_monitor", "Create a monitor"), ("get_monitor", "Get a monitor"),
                             ("list_team", "List teams")], [])


def test_a_key_a_function_makes_of_the_element_is_read_under_the_loops():
    """The record and the function that makes each tool in another module, as a table module exports them."""
    table = RESOURCES + ('function makeTool(resource, op, cfg) {\n'
                         '  return { name: `${op}_${resource}`, description: cfg.description };\n}\n'
                         'export const TOOLS = {};\nfor (const [r, rc] of Object.entries(RESOURCES)) {\n'
                         '  for (const [op, oc] of Object.entries(rc.operations)) {\n'
                         '    const tool = makeTool(r, op, oc);\n    TOOLS[tool.name] = tool;\n  }\n}\n')
    tools, gaps = _tools('import { TOOLS } from "./table.js";\n', {"table.js": table})
    assert tools == [("create_monitor", "Create a monitor"), ("get_monitor", "Get a monitor"),
                     ("list_team", "List teams")] and not gaps


def test_a_record_filled_in_a_helper_called_elsewhere_is_read_by_running_the_module():
    # where it is written the record is empty; a run of the module's code (extract/interpret.py) fills it first
    body = 'const TOOLS = {};\nfunction add(t) { TOOLS[t.name] = t; }\nadd({ name: "alpha", description: "A" });\n'
    tools, gaps = _tools(body)
    assert tools == [("alpha", "A")] and not gaps
    later = body.replace('add({ name: "alpha", description: "A" });\n', 'setTimeout(() => add({ name: "alpha" }), 10);\n')
    tools, gaps = _tools(later)
    assert tools == [] and [g.kind for g in gaps] == ["registration"]  # (filled later, by a callback: not run)
