"""A server class (extends McpServer) whose tools are instances of class expressions with no name, listed in
constants, picked by a function that first holds an empty list and assigns one of two spreads to it, constructs each
class through an inline factory (`((K, c) => K.prototype instanceof Base ? new K(c.client) : new K(c.token))(C,
ctx)`), and that the server stores in a field it set to `[]` in its constructor, then registers in a `forEach`
whose callback a minifier left in parentheses.

Read (extract/lists.py, values.py, summaries.py): a local or a field holding `[]` first stands for each list later
assigned to it; a member of `new K(...)`, K bound to a class expression with no name, is read from that class
(its constructor's `this.name = ...`); a member both branches of a conditional give alike is that member; a
callback in parentheses is still the loop's."""

from __future__ import annotations

from tests.program_helpers import program

SERVER = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
class BaseTool { constructor(client) { this.client = client; } }
class TokenTool { constructor(token) { this.token = token; } }
const READERS = [class extends BaseTool {
  constructor() { super(...arguments), this.name = "list_boards", this.kind = "read"; }
  describe() { return "List the boards."; }
  async run(a) { return this.client.get(a.board); }
}, class extends TokenTool {
  constructor() { super(...arguments), this.name = "whoami"; }
  describe() { return "Who the token is."; }
  async run() { return this.token.length; }
}];
const WRITERS = [class extends BaseTool {
  constructor() { super(...arguments), this.name = "create_board"; }
  describe() { return "Create a board."; }
  async run(a) { return this.client.post(a.title); }
}];
const pickTools = (ctx, config) => {
  let list = [];
  config?.readOnly ? list = [...READERS] : list = [...READERS, ...WRITERS];
  const made = list.map((C) => ((K, c) => K.prototype instanceof BaseTool ? new K(c.client) : new K(c.token))(C, ctx));
  return made.filter((t) => !config?.only || config.only.includes(t.name));
};
class Kit extends McpServer {
  constructor(options) {
    super({ name: "kit", version: "1.0.0" });
    this.tools = [];
    this.options = options;
  }
  setup() {
    this.tools = pickTools({ client: this.options.client, token: this.options.token }, this.options.config);
    this.tools.forEach((t => this.addOne(t)));
  }
  addOne(t) {
    this.registerTool(t.name, { description: t.describe() }, async (args) => ({
      content: [{ type: "text", text: String(await t.run(args)) }] }));
  }
}
const kit = new Kit({ client: null, token: process.env.KIT_TOKEN, config: JSON.parse(process.env.KIT_CONFIG || "{}") });
kit.setup();
await kit.connect(new StdioServerTransport());
'''
MANIFEST = '{"name": "kit", "type": "module", "bin": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'


def _names(source: str) -> list[str]:
    p = program({"index.js": source, "package.json": MANIFEST})
    return sorted({r.name for r in p.registrations if r.kind == "tool" and r.name is not None})


def test_tools_made_of_unnamed_classes_a_field_holds_are_each_registered():
    assert _names(SERVER) == ["create_board", "list_boards", "whoami"]


def test_a_list_assigned_once_after_its_empty_start_is_read():
    one = SERVER.replace("config?.readOnly ? list = [...READERS] : list = [...READERS, ...WRITERS];",
                         "list = [...WRITERS];")
    assert _names(one) == ["create_board"]


def test_a_conditional_making_instances_of_different_classes_is_read_by_running_it():
    # `c.admin ? { name: c.admin } : new K(...)`: the branches give different objects, so `t.name` is not one value
    # where it is written; a run of the code (extract/interpret.py) reads `c`, the context `setup` makes, which has no
    # `admin`: every tool is an instance of its class. A context that may hold one is not known: no name is read.
    mixed = SERVER.replace("K.prototype instanceof BaseTool ? new K(c.client) : new K(c.token)",
                           "c.admin ? { name: c.admin } : new K(c.client)")
    assert _names(mixed) == ["create_board", "list_boards", "whoami"]
    unknown = mixed.replace("pickTools({ client: this.options.client, token: this.options.token }, this.options.config)",
                            "pickTools(this.options.context, this.options.config)")
    assert _names(unknown) == []


def test_a_field_declared_empty_in_the_class_body_is_read_the_same():
    declared = SERVER.replace("class Kit extends McpServer {\n", "class Kit extends McpServer {\n  tools = [];\n") \
        .replace("    this.tools = [];\n", "")
    assert _names(declared) == ["create_board", "list_boards", "whoami"]
