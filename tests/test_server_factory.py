"""A low-level server built by a function of the server's own that its caller hands everything: the list of tool
definitions (`config.tools`, each renamed into the SDK's shape by a named function, `map(toSdkTool)`) and the
function that runs a call (`config.handleRequest(req)`), which looks the tool up in a table a function returns, each
entry made by a handler factory (`get_issue: handleGetIssue(api)`). Every member of a parameter is read as the
argument of each call site, so the tools are found, listed and dispatched."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import SDK, program

SERVER = SDK + '''
function toSdkTool(def: any) {
  return { name: def.name, description: def.description, inputSchema: { type: "object", ...def.input_schema } };
}
export async function runServer(config: any) {
  const server = new Server({ name: "issues", version: "1.0.0" }, { capabilities: { tools: {} } });
  const sdkTools = config.tools.map(toSdkTool);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: sdkTools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const result = await config.handleRequest({ name, args });
    return { content: [{ type: "text", text: JSON.stringify(result) }] };
  });
  await server.connect(new StdioServerTransport());
}
'''

DEFINITIONS = '''
export const getIssueDefinition = { name: "get_issue", description: "Get an issue.", input_schema: { properties: { id: { type: "string" } } } };
export const listIssuesDefinition = { name: "list_issues", description: "List issues.", input_schema: { properties: {} } };
export const allDefinitions = [getIssueDefinition, listIssuesDefinition];
'''

HANDLERS = '''
function handleGetIssue(api: any) {
  return async (args: any) => api.get(args.id);
}
function handleListIssues(api: any) {
  return async (args: any) => api.list();
}
export function makeHandlers(api: any) {
  return {
    get_issue: handleGetIssue(api),
    list_issues: handleListIssues(api),
  };
}
'''

INDEX = '''
import { runServer } from "./server.js";
import { allDefinitions } from "./definitions.js";
import { makeHandlers } from "./handlers.js";
const api = { get: async (id: string) => id, list: async () => [] };
runServer({
  tools: allDefinitions,
  handleRequest: async (req: any) => {
    const handlers = makeHandlers(api);
    const toolName = req.name;
    if (!(toolName in handlers)) throw new Error(`Unknown tool: ${toolName}`);
    return handlers[toolName](req.args);
  },
});
'''

FILES = {"src/server.ts": SERVER, "src/definitions.ts": DEFINITIONS, "src/handlers.ts": HANDLERS, "src/index.ts": INDEX,
         "package.json": '{"name": "issues", "version": "1.0.0", "main": "src/index.ts", '
                         '"dependencies": {"@modelcontextprotocol/sdk": "1"}}'}


def test_the_tools_a_caller_hands_the_server_factory_are_listed_and_dispatched():
    p = program(FILES)
    got = {d.tool: (d.form, d.target.type, d.target.start_point[0] + 1) for d in p.dispatches}
    assert got == {"get_issue": ("table", "arrow_function", 3), "list_issues": ("table", "arrow_function", 6)}, got
    led = coverage.ledger(p)
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("get_issue", "analysed, details not read"),
                                                                ("list_issues", "analysed, details not read")]
    assert led["unresolved"] == [] and led["complete"] is True


def test_without_a_call_site_the_parameters_list_is_unread():
    """No call of the factory: what `config.tools` holds is not known, and the ledger says so."""
    files = {**FILES, "src/index.ts": 'import { runServer } from "./server.js";\nexport { runServer };\n'}
    led = coverage.ledger(program(files))
    assert any("could not read whole: `async function runServer(config" in u["what"] for u in led["unresolved"]), \
        led["unresolved"]
    assert led["complete"] is False


def test_tools_registered_on_a_server_another_package_builds_are_read_and_the_ledger_names_that_package():
    """`const server = createMcpServer({...})` of a workspace package not shipped (outside the boundary): a call with
    the SDK's shape on it registers a tool; the ledger says the server is built by that package instead of that no
    server exists. An object a function of the code read makes is no server for all its `tool` method."""
    from auditor.analyse import coverage
    from program_helpers import program

    files = {"package.json": '{"name": "jira-dc", "version": "1.0.0", "main": "src/index.ts"}',
             "src/index.ts": ('import { createMcpServer } from "@acme/mcp-common";\nimport { z } from "zod";\n'
                              'const server = createMcpServer({ name: "jira", version: "1" });\n'
                              'server.tool("jira_search", "Search issues", { jql: z.string() }, async ({ jql }) => ({ content: [{ type: "text", text: jql }] }));\n'
                              'server.tool("jira_get", `Get an issue`, { key: z.string() }, async ({ key }) => ({ content: [] }));\n'
                              'const other = makeThing();\nother.tool("not_a_tool", "x", {}, async () => 1);\n'
                              'function makeThing() { return { tool: (n: string, ...r: any[]) => n }; }\n')}
    p = program(files)
    assert sorted(t.name for t in p.tools) == ["jira_get", "jira_search"]
    rows = [u["what"] for u in coverage.ledger(p)["unresolved"]]
    assert any(r.startswith("the server the tools are registered on is built by @acme/mcp-common, outside the boundary")
               for r in rows)
    assert not any("no MCP server object" in r and "built by" not in r for r in rows)
