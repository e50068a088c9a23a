"""A tool name computed by a function of the boundary from a literal argument (`getToolName("notes_add")`, which
prefixes an optional environment variable): the string it returns with its parameters bound to the arguments, under
the default environment (every variable unset)."""

from __future__ import annotations

from program_helpers import SDK, program

NAMES = '''export const getToolName = (base) => {
  const prefix = process.env.TOOL_PREFIX;
  return prefix ? `${prefix}_${base}` : base;
};
export function twice(base) { return `${base}_${base}`; }
'''
INDEX = SDK + '''import { getToolName, twice } from "./names.js";
const schemas = {
  [getToolName("notes_add")]: { name: getToolName("notes_add"), description: "Add", inputSchema: { type: "object", properties: {} } },
  [getToolName("notes_list")]: { name: getToolName("notes_list"), description: "List", inputSchema: { type: "object", properties: {} } },
  [twice("echo")]: { name: twice("echo"), description: "Echo", inputSchema: { type: "object", properties: {} } },
};
const handlers = { [getToolName("notes_add")]: async () => ({ content: [] }), [getToolName("notes_list")]: async () => ({ content: [] }) };
const server = new Server({ name: "names", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: Object.values(schemas) }));
server.setRequestHandler(CallToolRequestSchema, async (request) => handlers[request.params.name](request.params.arguments));
'''


def test_a_name_computed_from_a_literal_argument_is_read_under_the_default_environment():
    p = program({"index.js": INDEX, "names.js": NAMES})
    assert sorted(t.name for t in p.tools) == ["echo_echo", "notes_add", "notes_list"]
    assert sorted(d.tool for d in p.dispatches) == ["notes_add", "notes_list"]


def test_a_function_with_several_returns_names_nothing():
    names = NAMES.replace('export function twice(base) { return `${base}_${base}`; }',
                          'export function twice(base) { if (base) return base; return "none"; }')
    p = program({"index.js": INDEX, "names.js": names})
    assert "echo" not in {t.name for t in p.tools} and "none" not in {t.name for t in p.tools}


FACTORY = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
function defineTool(spec) { return spec; }
function suffix(selector) { return selector === "user_id" ? "id" : selector; }
function makeMemberTool(kind, selector) {
  const base = kind === "add" ? "add_members" : kind === "remove" ? "remove_members" : "list_members";
  return defineTool({ name: `team_${base}_by_${suffix(selector)}`, description: `${kind} by ${selector}`,
                      handler: async () => ({ content: [] }) });
}
const addByName = makeMemberTool("add", "username");
const removeById = makeMemberTool("remove", "user_id");
const TOOLS = [addByName, removeById, defineTool({ name: "team_ping", handler: async () => ({ content: [] }) })];
const server = new McpServer({ name: "teams", version: "1.0.0" });
for (const definition of TOOLS) {
  server.registerTool(definition.name, { description: definition.description }, definition.handler);
}
'''


def test_names_a_factory_computes_from_its_arguments_are_read_per_call():
    # `definition.name` of an element made by `makeMemberTool("add", "username")`: the template read under that call,
    # its local `base` a ternary on a parameter, its `suffix(selector)` a function of the boundary
    p = program({"index.js": FACTORY})
    assert sorted(t.name for t in p.tools) == ["team_add_members_by_username", "team_ping", "team_remove_members_by_id"]


def test_a_prefix_whose_variable_has_an_empty_default_is_read_unset():
    """`const TOOL_PREFIX = process.env.TOOL_PREFIX || ""` and `TOOL_PREFIX ? `${TOOL_PREFIX}_${base}` : base`: the
    prefixed branch is taken only when the variable is set, so its value read at the default ("_notes_add") is no
    name the tool can take; the default name is the base."""
    names = NAMES.replace("  const prefix = process.env.TOOL_PREFIX;\n", "").replace("prefix ?", "PREFIX ?").replace(
        "${prefix}", "${PREFIX}")
    names = 'const PREFIX = process.env.TOOL_PREFIX || "";\n' + names
    p = program({"index.js": INDEX, "names.js": names})
    assert sorted(t.name for t in p.tools) == ["echo_echo", "notes_add", "notes_list"]


DOCS = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
export async function startServer(library, version, options = {}) {
  const server = new McpServer({ name: "docs", version });
  const libraries = [library, ...(options.more ?? [])];
  for (const lib of libraries) {
    await registerDocs(server, lib);
  }
}
async function registerDocs(server, library) {
  const prefix = library === "spectrum" ? "s2" : "aria";
  server.registerTool(`list_${prefix}_pages`, { description: "List the pages" }, async () => ({ content: [] }));
}
startServer("react-aria", "1");
'''


def test_a_name_made_of_a_local_that_a_test_of_a_parameter_picks_is_read_per_call():
    """`const prefix = library === "spectrum" ? "s2" : "aria"` in the function each library is registered by: the
    branch its caller's argument takes ("react-aria": "aria"), through the loop over the libraries."""
    p = program({"index.js": DOCS, "package.json": '{"name": "docs", "bin": "index.js"}'})
    assert sorted(t.name for t in p.tools) == ["list_aria_pages"]
    spectrum = DOCS.replace('startServer("react-aria", "1")', 'startServer("spectrum", "1")')
    assert sorted(t.name for t in program({"index.js": spectrum, "package.json": '{"name": "docs", "bin": "index.js"}'}).tools) \
        == ["list_s2_pages"]
