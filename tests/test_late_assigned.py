"""A local declared without a value and assigned later by statements of its own (`let tool; if (c) tool = new T(a);
else tool = new T();`): the one value, or either when both construct the same class (bindings.assigned_later). A
registry that builds each tool class of a namespace so, and registers what each instance's getTools() returns."""

from __future__ import annotations

from program_helpers import program

INSTANCE = {"let": '''      let toolInstance;
      if (ToolClass.name === "CacheTools") { toolInstance = new ToolClass(this.clients); } else { toolInstance = new ToolClass(); }''',
            "two": '''      let toolInstance;
      if (ToolClass.name === "CacheTools") { toolInstance = new ToolClass(this.clients); } else { toolInstance = makeOther(); }'''}


FILES = {
    "package.json": '{"name":"x","version":"1.0.0","type":"module","bin":"dist/index.js"}',
    "dist/index.js": '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ToolRegistry } from "./registry.js";
const server = new McpServer({ name: "x", version: "1.0.0" });
new ToolRegistry(server, new Map()).registerAllTools();
await server.connect(new StdioServerTransport());
''',
    "dist/registry.js": '''import * as Tools from "./tools/index.js";
export class ToolRegistry {
  constructor(server, clients) { this.server = server; this.clients = clients; }
  registerAllTools() {
    Object.values(Tools).forEach((ToolClass) => {
INSTANCE
      const tools = toolInstance.getTools();
      tools.forEach((tool) => { this.registerTool(tool); });
    });
  }
  registerTool(tool) {
    this.server.tool(tool.name, tool.description || "x", {}, async (args) => tool.handler(args));
  }
}
''',
    "dist/tools/index.js": 'export { default as CommentTools } from "./comments.js";\nexport { default as CacheTools } from "./cache.js";\n',
    "dist/tools/comments.js": '''export default class CommentTools {
  getTools() { return [{ name: "wp_list_comments", description: "List comments", handler: this.list.bind(this) }]; }
  async list() { return { content: [] }; }
}''',
    "dist/tools/cache.js": '''export default class CacheTools {
  constructor(clients) { this.clients = clients; }
  getTools() { return [{ name: "wp_cache_stats", description: "Cache stats", handler: async () => ({ content: [] }) }]; }
}'''}


def _files(variant: str) -> dict[str, str]:
    return {path: text.replace("INSTANCE", INSTANCE[variant]) for path, text in FILES.items()}


def test_a_local_assigned_the_same_class_in_each_branch_is_that_instance():
    p = program(_files("let"))
    assert sorted(t.name for t in p.tools) == ["wp_cache_stats", "wp_list_comments"] and not p.gaps


def test_a_local_assigned_different_things_is_not_known():
    p = program(_files("two"))
    assert list(p.tools) == []
    assert [g.detail for g in p.gaps] == ["tool() with a name that is not a literal (`tool.name`): what it registers is not analysed"]


# A field declared without a value (`core;`) that a method other than the constructor sets (`async init()`), and a
# list handler that spreads what a getter of that instance returns (values.Values._late_store).
LATE_FIELD = {
    "package.json": '{"name": "y", "version": "1.0.0", "type": "module", "bin": "server.js", '
                    '"dependencies": {"@modelcontextprotocol/sdk": "1"}}',
    "tools.js": '''export class CoreTools {
  constructor(db) { this.db = db; }
  get tools() {
    return [{ name: "analyze", description: "Analyze.", inputSchema: { type: "object", properties: {} } },
            { name: "search", description: "Search.", inputSchema: { type: "object", properties: {} } }];
  }
}
export class OtherTools extends CoreTools {}
''',
    "server.js": '''import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { CoreTools, OtherTools } from "./tools.js";
class App {
  server;
  core;
  constructor() {
    this.server = new Server({ name: "y", version: "1" }, { capabilities: { tools: {} } });
    this.setup();
  }
  async init(db) {
    try { STORE } catch (error) { throw error; }
  }
  setup() {
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...this.core.tools] }));
  }
}
const app = new App();
await app.init(process.env.DB);
await app.server.connect(new StdioServerTransport());
''',
}


def _late(store: str) -> list[str]:
    from auditor.analyse import coverage
    files = {**LATE_FIELD, "server.js": LATE_FIELD["server.js"].replace("STORE", store)}
    return [u["what"] for u in coverage.ledger(program(files))["unresolved"]]


def test_a_field_one_method_sets_is_that_value():
    assert _late("this.core = new CoreTools(db);") == []


def test_a_field_methods_set_to_different_classes_is_not_known():
    unresolved = _late("if (db) this.core = new CoreTools(db); else this.core = new OtherTools(db);")
    assert len(unresolved) == 1 and "`this.core.tools`" in unresolved[0]
