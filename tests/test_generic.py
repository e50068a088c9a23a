"""README claims for any server (analyse/generic.py): tools, parameters, environment and arguments."""

from __future__ import annotations

from auditor.analyse import effect_routes, effects, generic
from auditor.extract import documented
from auditor.extract.components import components
from auditor.extract.readme import read_markdown
from auditor.extract.routes import routes
from program_helpers import SDK, effects_kb, line_of, program

README = """\
# demo

## Available Tools

1. `find_rows`
   - Find rows
   - Required inputs:
     - `table` (string): Table name
   - Optional inputs:
     - `limit` (number, default: 10): Maximum rows
     - `filters` (object): Column filters
       - `column` (string): nested, not a parameter
   - Returns:
     - `rows` (array): not a parameter either
2. **drop_table**
   - Input: `table` (string), `cascade` (boolean, optional)

### stats_report

- `since` (string): Start date

## Setup

- Not a tool: plain prose

```sh
export DEMO_TOKEN=abc
JUDGE_KEY=k npx -y @other/evals run evals.ts
docker run -i --rm -e DEMO_REGION -v data:/data demo/server /srv/data
docker build -t demo/server -f Dockerfile .
node -e "
  const { spawn } = require('child_process');
"
node --no-warnings -e "let x = 1"
```

```json
{"mcpServers": {"demo": {"command": "npx", "args": ["-y", "demo-server", "--verbose"],
  "env": {"DEMO_URL": "x", "NODE_OPTIONS": "--max-old-space-size=512"}},
  "pictures": {"command": "bunx", "args": ["@other/pictures-server@latest"], "env": {"PICTURES_KEY": "k"}}}}
```
"""


def test_documented_tools_and_their_parameters():
    doc = read_markdown("README.md", README)
    got = {t.name: [(x.name, x.type, x.optional) for x in t.params] for t in documented.documented_tools(doc)}
    assert got == {
        "find_rows": [("table", "string", False), ("limit", "number", True), ("filters", "object", True)],
        "drop_table": [("table", "string", None), ("cascade", "boolean", True)],
        "stats_report": [("since", "string", None)],
    }


def test_documented_environment_from_code_blocks():
    doc = read_markdown("README.md", README)
    env = documented.documented_env(doc)
    # (`node -e "..."` evaluates a script: `const`, `let` are no variables)
    assert sorted(env) == ["DEMO_REGION", "DEMO_TOKEN", "DEMO_URL", "JUDGE_KEY", "NODE_OPTIONS", "PICTURES_KEY"]
    # the host entry that runs another package sets that server's environment, not this one's
    p = program({"package.json": '{"name": "demo-server"}'})
    assert not {"PICTURES_KEY", "JUDGE_KEY"} & set(documented.documented_env(doc, generic._runs_another(p)))
    assert "DEMO_URL" in documented.documented_env(doc, generic._runs_another(p))
    assert env["DEMO_TOKEN"][0].start_line == line_of(README, "export DEMO_TOKEN")


SERVER = SDK + """\
const token = process.env.DEMO_TOKEN;
const extra = process.env.DEMO_DEBUG;
const TOOLS = [
  { name: "find_rows", inputSchema: { type: "object", properties: {
      table: { type: "string" }, limit: { type: "integer" }, filters: { type: "object" }, order: { type: "string" } },
      required: ["table", "filters"] } },
  { name: "stats_report", inputSchema: { type: "object", properties: { since: { type: "number" } } } },
  { name: "vacuum", inputSchema: { type: "object", properties: {} } },
];
const server = new Server({ name: "demo", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  switch (request.params.name) {
    case "find_rows": return { content: [] };
    case "stats_report": return { content: [] };
    case "vacuum": return { content: [] };
    default: throw new Error("unknown");
  }
});
"""


def test_claims_against_the_registered_tools_and_the_code():
    p = program({"index.ts": SERVER, "README.md": README, "package.json": '{"name": "demo-server", "version": "1.0.0"}'})
    fx = effects.scan(p, effects_kb())
    rtes = routes(p) + effect_routes.routes(p, fx, components(p))
    got = {c.id.split(":", 1)[1].rsplit("@", 1)[0]: (c.attrs["verdict"], c.attrs["mismatch"]) for c in generic.claims(p, fx, rtes, effects_kb())}
    verdicts = {k: v for k, (v, _) in got.items()}
    assert verdicts == {
        "readme-tool:find_rows": "partial",  # the schema also accepts `order`
        "readme-param:find_rows/table": "supported",
        "readme-param:find_rows/limit": "supported",  # number covers integer
        "readme-param:find_rows/filters": "contradicted",  # documented optional, required by the schema
        "readme-tool:drop_table": "contradicted",
        "readme-param:drop_table/table": "contradicted",
        "readme-param:drop_table/cascade": "contradicted",
        "readme-tool:stats_report": "supported",
        "readme-param:stats_report/since": "contradicted",  # string against number
        "readme-tool-list": "partial",  # vacuum is undocumented
        "readme-env:DEMO_TOKEN": "supported",
        "readme-env:DEMO_REGION": "contradicted",  # never read, and nothing imported could read it
        "readme-env:DEMO_URL": "contradicted",
        "readme-env:NODE_OPTIONS": "out-of-boundary",  # read by the runtime
        "readme-config": "partial",  # DEMO_DEBUG is read but undocumented
        "readme-args": "contradicted",  # `/srv/data` and `--verbose` are passed; nothing reads argv
    }
    assert "order" in got["readme-tool:find_rows"][1] and "vacuum" in got["readme-tool-list"][1]
    assert "DEMO_DEBUG" in got["readme-config"][1]


def test_server_arguments_of_launch_commands():
    p = program({"package.json": '{"name": "demo-server"}'})
    assert generic._server_args(p, "npx", ["-y", "demo-server", "/a", "/b"]) == ["/a", "/b"]
    assert generic._server_args(p, "docker", ["run", "-i", "-e", "X", "demo/server:1", "postgres://h"]) == ["postgres://h"]
    assert generic._server_args(p, "docker", ["build", "-t", "demo/server", "."]) == []
    assert generic._server_args(p, "node", ["/path/to/dist/index.js", "--flag"]) == ["--flag"]
    # a program after the image runs in place of the image's command: what it hands the script is the server's
    assert generic._server_args(p, "docker", ["run", "-d", "-p", "8080:8080", "demo/server", "node", "sse.js"]) == []
    assert generic._server_args(p, "docker", ["run", "demo/server", "node", "sse.js", "--port", "1"]) == ["--port", "1"]
    # npm runs a script by its name (`start` is no argument); what follows `--` is handed to the script
    assert generic._server_args(p, "npm", ["--silent", "--prefix", "/src/demo-server", "start"]) == []
    assert generic._server_args(p, "npm", ["--prefix", "/src/demo-server", "start", "--", "--port", "1"]) == ["--port", "1"]
    assert generic._server_args(p, "npm", ["exec", "demo-server", "/data"]) == ["/data"]
    # uvx runs a Python package, whatever its name: not this server
    assert generic._server_args(p, "uvx", ["--from", "git+https://example.com/demo-server", "demo-server", "--x"]) == []


# A server whose helper registers a tool under the name its call site gives.
DEFINE = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
          'const server = new McpServer({ name: "demo", version: "1" });\n'
          'function define(name: string, description: string) {\n'
          '  server.registerTool(name, { description }, async () => ({ content: [] }));\n'
          '}\n')


def test_a_tool_not_found_is_no_contradiction_while_some_names_are_unknown():
    """A README tool that no registration names is contradicted only when every registered name is known: here a
    helper registers a tool under a name only known at run time, so the missing ones may be among them."""
    server = (DEFINE + 'define(process.argv[2], "Drop a table");\n'
              'server.registerTool("find_rows", { description: "Find rows" }, async () => ({ content: [] }));\n')
    readme = "# demo\n\n## Tools\n\n- **find_rows**: find rows\n- **drop_table**: drop a table\n  - `table` (string): which\n"
    p = program({"index.ts": server, "README.md": readme, "package.json": '{"name": "demo", "version": "1.0.0"}'})
    fx = effects.scan(p, effects_kb())
    rtes = routes(p) + effect_routes.routes(p, fx, components(p))
    got = {c.id.split(":", 1)[1].rsplit("@", 1)[0]: (c.attrs["verdict"], c.attrs["mismatch"]) for c in generic.claims(p, fx, rtes, effects_kb())}
    assert got["readme-tool:find_rows"][0] == "supported"
    assert got["readme-tool:drop_table"][0] == "unsupported"
    assert got["readme-param:drop_table/table"][0] == "unsupported"
    assert "registerTool() at index.ts:4 registers a name that is not a literal" in got["readme-tool:drop_table"][1]


def test_a_tool_registered_through_a_helper_is_found_under_the_name_its_call_site_gives():
    server = DEFINE + 'define("drop_table", "Drop a table");\n'
    readme = "# demo\n\n## Tools\n\n- **drop_table**: drop a table\n- **vacuum**: vacuum\n"
    p = program({"index.ts": server, "README.md": readme, "package.json": '{"name": "demo", "version": "1.0.0"}'})
    assert [(t.name, t.description, t.node.start_point[0] + 1) for t in p.tools] == [("drop_table", "Drop a table", 6)]
    fx = effects.scan(p, effects_kb())
    rtes = routes(p) + effect_routes.routes(p, fx, components(p))
    got = {c.id.split(":", 1)[1].rsplit("@", 1)[0]: c.attrs["verdict"] for c in generic.claims(p, fx, rtes, effects_kb())}
    assert got["readme-tool:drop_table"] == "supported"
    assert got["readme-tool:vacuum"] == "contradicted"  # every name is known now: a tool nobody registers


def test_documented_tools_in_titled_headings_and_lists_introduced_as_parameters_or_values():
    readme = """# demo

## Tools

### 4. **Download Attachment (`download_attachment`)**
Downloads an attachment.

Parameters:
- `messageId`: the message
- `savePath`: where (optional)

### Add-ons

- `list_addons` - List the add-ons.

### `job_status`

**Possible statuses:**

- `processing`: still running
- `completed`: done
"""
    doc = read_markdown("README.md", readme)
    got = {t.name: [(x.name, x.optional) for x in t.params] for t in documented.documented_tools(doc)}
    assert got == {"download_attachment": [("messageId", None), ("savePath", None)], "list_addons": [], "job_status": []}


def test_a_heading_that_opens_with_a_code_span_names_that_tool_and_its_list_its_parameters():
    """`#### `index-operation` (only `operation: 'list'` in read-only mode)`: the heading names the tool its first
    code span gives, whatever note follows; the list under it documents that tool's parameters, no tools."""
    readme = """# demo

## Tools

#### `execute-sql`
- `query` (string, required) - SQL.

#### `index-operation` (only `operation: 'list'` in read-only mode)
- `operation` (`'create' | 'drop' | 'list'`, required).
- `name` (string) - index name.
"""
    doc = read_markdown("README.md", readme)
    got = {t.name: [x.name for x in t.params] for t in documented.documented_tools(doc)}
    assert got == {"execute-sql": ["query"], "index-operation": ["operation", "name"]}


def test_a_capitalised_word_in_bold_labels_a_group_of_tools_and_names_none():
    """`- **Organizations**: List, create and manage orgs` under Available Tools is a category, not a tool named
    Organizations; a name in bold that is one (`**search_issues**`, `**lowercase**`) or in code still is, and a label
    that lists tools in code names those."""
    readme = """# demo

## Available Tools

- **Organizations**: List, create, and manage orgs
- **Search**: Find issues with filters
- **search_issues**: Search issues.
- **ping** - Check the connection.
- **Session**: `lock`, `unlock`
"""
    doc = read_markdown("README.md", readme)
    assert [t.name for t in documented.documented_tools(doc)] == ["search_issues", "ping", "lock", "unlock"]


def test_a_table_of_programs_to_install_names_no_tool():
    """`| Platform | Tool | Install |` under "Native tools" lists programs the host needs (idb, adb), not tools the
    server registers; a table of tools with a description column still names its tools."""
    readme = """# demo

## Native tools (idb / adb)

| Platform | Tool | Install |
| -------- | ---- | ------- |
| iOS      | idb  | `brew install idb-companion` |
| Android  | adb  | Install Android Studio |

## Tools

| Tool | Description |
| ---- | ----------- |
| `tap` | Tap the screen. |
"""
    doc = read_markdown("README.md", readme)
    assert [t.name for t in documented.documented_tools(doc)] == ["tap"]

def test_arguments_of_an_installer_line_are_not_the_servers():
    """`npx @other/cli install demo-server --client claude` runs an installer: its arguments are not the server's; only
    a line that runs this package (by name, with a version, or through `--package`) passes arguments to it."""
    p = program({"package.json": '{"name": "demo-server"}'})
    assert generic._server_args(p, "npx", ["-y", "@other/cli", "install", "demo-server", "--client", "claude"]) == []
    assert generic._server_args(p, "npx", ["-y", "@some/installer", "add", "demo-server@1.2.0", "--global"]) == []
    assert generic._server_args(p, "pnpm", ["dlx", "@other/cli", "install", "demo-server", "--client", "x"]) == []
    assert generic._server_args(p, "npx", ["-y", "demo-server@1.2.0", "--port", "3000"]) == ["--port", "3000"]
    assert generic._server_args(p, "npx", ["--package=demo-server", "demo", "--verbose"]) == ["--verbose"]
    assert generic._server_args(p, "bunx", ["demo-server", "/data"]) == ["/data"]


def test_a_details_block_whose_summary_names_a_tool_is_that_tools_section():
    """An HTML `<details>` block whose `<summary>` names a tool is that tool's section, as a sub-heading of the Tools
    heading is: the names listed inside are its parameters (or, introduced as tools, another program's tools), not
    tools of this server. A tool documented by a summary and nowhere registered is still contradicted, and so is a
    parameter listed inside that the schema does not declare."""
    readme = """# demo

## Tools

| Tool | What it does |
| ---- | ------------ |
| `scan_hosts` | Discover hosts and list the tools each exposes |
| `call_host` | Call a tool on a host |

<details>
<summary><code>scan_hosts</code> — discover hosts</summary>

Tools each host exposes (varies by version):
- `get_errors` — current errors
- `get_logs` — the log file

</details>

<details>
<summary><code>call_host</code> — run a host tool</summary>

Input:
- `port` (required) — host port
- `toolName` (required) — the tool to invoke
- `timeout` (optional) — undeclared

</details>

<details><summary><code>ghost_tool</code> — not registered</summary>

Input:
- `what` (optional) — anything

</details>
"""
    server = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { z } from "zod";\n'
              'const server = new McpServer({ name: "demo", version: "1" });\n'
              'server.tool("scan_hosts", "Discover hosts", {}, async () => ({ content: [] }));\n'
              'server.tool("call_host", "Call", { port: z.number(), toolName: z.string() }, async () => ({ content: [] }));\n')
    doc = read_markdown("README.md", readme)
    assert [(d.summary, d.line) for d in doc.details] == [("`scan_hosts` — discover hosts", 10), ("`call_host` — run a host tool", 19),
                                                           ("`ghost_tool` — not registered", line_of(readme, "<details><summary>"))]
    got = {t.name: [x.name for x in t.params] for t in generic._merged(documented.documented_tools(doc))}
    assert got == {"scan_hosts": [], "call_host": ["port", "toolName", "timeout"],
                   "ghost_tool": ["what"]}
    got = _verdicts(server, readme)
    assert got == {"readme-tool:scan_hosts": "supported", "readme-tool:call_host": "supported",
                   "readme-param:call_host/port": "supported", "readme-param:call_host/toolName": "supported",
                   "readme-param:call_host/timeout": "contradicted",  # listed, not in the schema: a real contradiction
                   "readme-tool:ghost_tool": "contradicted",  # documented by its summary, registered nowhere
                   "readme-param:ghost_tool/what": "contradicted", "readme-tool-list": "supported"}


def test_fields_a_parameter_introduces_without_nesting_them_are_not_parameters():
    """"`data`: Object containing:" followed by items indented too little to nest under it (siblings in Markdown): they
    are the object's fields, not the tool's parameters; a bare "`a`:" introduces nothing."""
    readme = """# demo

## Tools

- `create_issue`
  - Create an issue
  - Parameters:
    - `project_id` (string, required): the project
    - `issue_data`: Object containing:
     - `name` (string, required): its title
      - `body` (string, required): its text
- `tag_issue`
  - Parameters:
    - `a` (string):
    - `b` (string):
"""
    doc = read_markdown("README.md", readme)
    got = {t.name: [x.name for x in t.params] for t in documented.documented_tools(doc)}
    assert got == {"create_issue": ["project_id", "issue_data"], "tag_issue": ["a", "b"]}


def test_a_parameters_cell_that_says_none_documents_no_parameter():
    readme = ("# Demo\n\n## Tools\n\n| Tool | Description | Parameters |\n|---|---|---|\n"
              "| `list_tables` | List the tables | None |\n| `describe_table` | Describe one | `table_name` (string) |\n"
              "| `list_insights` | List insights | - |\n")
    doc = read_markdown("README.md", readme)
    got = {t.name: [x.name for x in t.params] for t in documented.documented_tools(doc)}
    assert got == {"list_tables": [], "describe_table": ["table_name"], "list_insights": []}


def test_a_heading_over_tool_headings_is_a_group_and_capitalised_snake_names_are_tools():
    readme = """# demo

## Available Tools

### `demo-dns-server`

#### DNS_getRecordsV1

Lists the records.

- **Method**: `GET`
- **Path**: `/api/dns/v1/zones/{domain}`

#### dns_deleteRecord

Deletes a record.

### `single_tool`

Does one thing.
"""
    doc = read_markdown("README.md", readme)
    assert [t.name for t in documented.documented_tools(doc)] == ["DNS_getRecordsV1", "dns_deleteRecord", "single_tool"]


def test_a_bold_label_over_a_list_of_code_spans_is_a_group_of_those_tools():
    readme = """# demo

## Available Tools

- **Session**: `lock`, `unlock`, `sync`
- **Items**: `create_item`
- **search_notes**: Search the notes (`query`).
"""
    doc = read_markdown("README.md", readme)
    assert [t.name for t in documented.documented_tools(doc)] == ["lock", "unlock", "sync", "create_item", "search_notes"]


def test_a_documented_name_the_schema_nests_or_enumerates_is_no_contradiction():
    # README bullets under a tool: per-item options of an array of objects, and the values of a mode enum
    server = SDK + '''const server = new Server({ name: "d", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "replace_text", description: "Replace",
  inputSchema: { type: "object", properties: {
    mode: { type: "string", enum: ["literal", "pattern"] },
    edits: { type: "array", items: { type: "object", properties: { search: { type: "string" }, useRegex: { type: "boolean" } } } } },
    required: ["edits"] } }] }));
'''
    readme = ("# d\n\n## Tools\n\n### `replace_text`\n\nParameters:\n\n- `edits` (array): what to replace\n"
              "- `useRegex` (boolean): per edit, treat search as a pattern\n- `pattern`: the mode that matches patterns\n"
              "- `flavour` (string): not in the schema at all\n")
    p = program({"index.ts": server, "README.md": readme, "package.json": '{"name": "d", "version": "1.0.0"}'})
    fx = effects.scan(p, effects_kb())
    rtes = routes(p) + effect_routes.routes(p, fx, components(p))
    got = {c.attrs.get("param"): c.attrs["verdict"] for c in generic.claims(p, fx, rtes, effects_kb())
           if c.id.startswith("CLM:readme-param")}
    assert got == {"edits": "supported", "useRegex": "supported", "pattern": "supported", "flavour": "contradicted"}


def test_an_absence_that_code_not_read_may_hold_is_no_contradiction():
    """A README's environment variable and launch arguments that the code read never uses are contradicted; when a
    code file was not read (over kb/method.yaml max_file_bytes, set low here), the read may be there: unsupported, naming it."""
    server = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
              'import "./big.js";\n'
              'const server = new McpServer({ name: "demo", version: "1" });\n'
              'server.registerTool("find_rows", { description: "Find rows" }, async () => ({ content: [] }));\n')
    big = "export const home = process.env.DEMO_HOME;\n" + "// padding\n" * 40
    readme = ('# demo\n\nSet `DEMO_HOME` (environment variable) to the data folder.\n\n'
              '```json\n{ "command": "npx", "args": ["-y", "demo@1.0.0", "--verbose"] }\n```\n')

    def verdicts(files, **method):
        p = program({"README.md": readme, "package.json": '{"name": "demo", "version": "1.0.0"}', **files}, **method)
        fx = effects.scan(p, effects_kb())
        rtes = routes(p) + effect_routes.routes(p, fx, components(p))
        return {c.attrs["kind"] if "kind" in c.attrs else c.kind: (c.attrs["verdict"], c.attrs["mismatch"])
                for c in generic.claims(p, fx, rtes, effects_kb()) if c.kind in {"readme-env", "readme-args"}}

    read = verdicts({"index.ts": server, "big.js": "export const home = 1;\n"})
    assert read["readme-env"][0] == "contradicted" and read["readme-args"][0] == "contradicted"
    unread = verdicts({"index.ts": server, "big.js": big}, max_file_bytes=400)
    assert unread["readme-env"] == ("unsupported", "no read of DEMO_HOME in the code analysed; code that was not read "
                                                   "may hold one (big.js)")
    assert unread["readme-args"][0] == "unsupported" and "(big.js)" in unread["readme-args"][1]


def test_a_returns_label_a_prompts_heading_and_a_resource_uri_name_no_tools():
    """Under a Tools heading: items below a bold "**Returns:**" label are what a tool returns, whatever paragraph
    introduces their list ("Each issue includes:"); a `### MCP Prompts` sub-heading lists prompts, and one naming a
    parameter (`(se parameter)`) its values; a `resource://x` URI is a resource's address, not a tool named
    `resource`; a list introduced as events ("**Webhook Events:**") names what a tool subscribes to. A tool listed
    after a new label is one."""
    readme = """# demo

## Tools

### Style tools

- `validate_expression` - Validate an expression

**Returns:**

Validation results including:

- `valid` (boolean): overall validity

Each issue includes:

- `severity`: "error" or "warning"
- `suggestion`: how to fix it

**More tools:**

- `list_styles` - List the styles

### Reference Tools

- **`resource://style-layers`** - The layer reference

### MCP Prompts

- `design_strategy` - Best practices

### Search Engines (se parameter)

- `g_us` - Google USA

### Real-time Events

- `register_webhook` - Subscribe to events

**Webhook Events:**
- `turn_start` - Your turn begins
- `game_end` - The match concludes

**Calendar event tools:**
- `create_event` - Create an event
"""
    doc = read_markdown("README.md", readme)
    assert sorted(t.name for t in documented.documented_tools(doc)) == ["create_event", "list_styles",
                                                                         "register_webhook", "validate_expression"]


def test_a_list_a_tool_section_introduces_as_commands_lists_argument_values_not_parameters():
    """Under the `send_command` heading, "**Enhanced UI Interaction Commands**:" lists the values of its `command`
    argument, as "**Available Target Kinds:**" lists those of another; "Parameters:" still lists its parameters."""
    readme = """# demo

## Tools

### `send_command`

Parameters:

- `command` (string): the command to run

**Enhanced UI Interaction Commands**:

- `find_elements`: analyse the interactive elements
- `click_by_text`: click by visible text

**Available Target Kinds:**

- `Window`: a top-level window
- `Frame`: an embedded frame
"""
    doc = read_markdown("README.md", readme)
    got = {t.name: [x.name for x in t.params] for t in documented.documented_tools(doc)}
    assert got == {"send_command": ["command"]}  # ("... Kinds:" lists the values of a parameter likewise)


def test_a_list_introduced_by_the_name_of_a_documented_parameter_lists_its_values():
    """"**Component Qualifiers:**" below a documented `qualifiers` lists that parameter's values (`TRK`, `DIR`), not
    parameters; "**Paging Parameters:**" still lists parameters, though `page` is a word of a parameter documented."""
    readme = """# demo

## Tools

### `components`

**Search Parameters:**

- `query` (optional): text to search
- `qualifiers` (optional): component types

**Paging Parameters:**

- `page` (optional): page number

**Component Qualifiers:**

- `TRK`: Project
- `DIR`: Directory
"""
    doc = read_markdown("README.md", readme)
    got = {t.name: [x.name for x in t.params] for t in documented.documented_tools(doc)}
    assert got == {"components": ["query", "qualifiers", "page"]}


def test_a_table_introduced_as_tools_that_return_something_and_a_cell_naming_two_tools():
    """"Higher-level tools that return structured prompts:" introduces tools (the lead says tools), not the values a
    tool returns; a cell `` `go_back` / `go_forward` `` names both tools."""
    readme = ("# demo\n\n## Tools\n\n### Browser tools\n\n| Tool | Description |\n|---|---|\n"
              "| `open_page` | Open a page |\n| `go_back` / `go_forward` | History navigation |\n\n"
              "### Domain tools\n\nHigher-level tools that return structured prompts for your agent:\n\n"
              "| Tool | Description |\n|---|---|\n| `explore` | Discover pages |\n| `heal_selectors` | Fix selectors |\n\n"
              "## Results\n\nThe values each call returns:\n\n| Name | Meaning |\n|---|---|\n| `page_id` | the page |\n")
    doc = read_markdown("README.md", readme)
    assert [t.name for t in documented.documented_tools(doc)] == [
        "open_page", "go_back", "go_forward", "explore", "heal_selectors"]


def test_tools_a_readme_says_this_server_does_not_serve_are_no_claim():
    """A table or list whose lead says its tools are served elsewhere ("These exist only on the hosted endpoint; this
    package does not list them.", "Not available in the npm package:") names no tool of this server; a lead that
    only describes the tools ("Tools that do not require a login:") does not take them away."""
    readme = ("# demo\n\n## Tools\n\n### Notes\n\n| Tool | Description |\n|---|---|\n| `add_note` | Add a note |\n\n"
              "### Hosted only\n\nThe hosted endpoint names more tools. These exist only there; this package does not "
              "list them.\n\n| Tool | Description |\n|---|---|\n| `sync_notes` | Sync |\n\n"
              "### Cloud\n\nNot available in the npm package:\n\n- `share_note`: share a note\n\n"
              "### Public\n\nTools that do not require a login:\n\n| Tool | Description |\n|---|---|\n"
              "| `list_notes` | List the notes |\n")
    doc = read_markdown("README.md", readme)
    assert sorted(t.name for t in documented.documented_tools(doc)) == ["add_note", "list_notes"]


def test_a_heading_naming_a_family_of_tools_by_a_pattern_is_no_tool():
    """`### `notes_*``: the tools of the family are the items below it, not parameters of a tool `notes`."""
    readme = ("# demo\n\n## Tools\n\n### `search`\n\nSearch the notes.\n\n- `query`: what to find\n\n"
              "### `notes_*`\n\nHelpers for the archive:\n\n- `notes_add` - Add a note\n- `notes_drop` - Drop a note\n")
    doc = read_markdown("README.md", readme)
    got = {t.name: [x.name for x in t.params] for t in documented.documented_tools(doc)}
    assert got == {"search": ["query"], "notes_add": [], "notes_drop": []}


def test_a_shell_comment_after_a_command_is_no_argument():
    """`node test/smoke.js   # optional smoke test (network)` passes nothing to the script: the words after `#` are a
    comment; quoted words are one argument, their quotes removed; a line whose quotes do not close still reads."""
    from auditor.extract.routes import _commands
    fence = ("npm run build   # tsc\nnode test/smoke.js   # optional smoke test (network): feed\n"
             "npx -y demo-server --name \"two words\" # a comment\nnpx demo-server --note it's\n")
    assert list(_commands(fence)) == [("node", ["test/smoke.js"]), ("npx", ["-y", "demo-server", "--name", "two words"]),
                                      ("npx", ["demo-server", "--note", "it's"])]


def test_an_install_line_passes_no_launch_arguments():
    """`pnpm install demo -D`, `yarn add demo --dev`: a package manager installing the package; its flags are the
    manager's, so no launch argument is claimed; nor is the name of a script it runs. A runner's line (`pnpm dlx demo
    --verbose`) still passes them."""
    server = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
              'const server = new McpServer({ name: "demo", version: "1" });\n'
              'server.registerTool("find_rows", { description: "Find rows" }, async () => ({ content: [] }));\n')

    def args_claims(lines):
        readme = "# demo\n\n```bash\n" + lines + "\n```\n"
        p = program({"index.ts": server, "README.md": readme, "package.json": '{"name": "demo", "version": "1.0.0"}'})
        fx = effects.scan(p, effects_kb())
        rtes = routes(p) + effect_routes.routes(p, fx, components(p))
        return [c.attrs["arguments"] for c in generic.claims(p, fx, rtes, effects_kb()) if c.kind == "readme-args"]

    assert args_claims("pnpm install demo -D\nyarn add demo --dev\nnpm i -D demo") == []
    assert args_claims("pnpm install demo -D\npnpm dlx demo --verbose") == [[["--verbose"]]]
    # `pnpm --filter demo build:local`: a script of the package run by its manager; its name is no argument, and
    # only what follows `--` is handed on
    assert args_claims("pnpm --filter demo build:local\nyarn workspace demo dev") == []
    assert args_claims("pnpm --filter demo start -- --verbose") == [[["--verbose"]]]


def test_a_continued_line_is_one_command_and_another_script_s_arguments_are_not_the_server_s():
    """A command continued by a trailing `\\` is read whole (`npx -y demo@1.0.0 \\` then `--verbose`); `node` on a
    script the package does not name as an entry (`node tools/skill.js --prompt x`) runs another program, while a
    path ending in its bin (`node /path/to/demo/dist/index.js --port 1`) runs the server."""
    server = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
              'const server = new McpServer({ name: "demo", version: "1" });\n'
              'server.registerTool("find_rows", { description: "Find rows" }, async () => ({ content: [] }));\n')

    def args_claims(lines):
        readme = "# demo\n\n```bash\n" + lines + "\n```\n"
        p = program({"src/index.ts": server, "README.md": readme,
                     "package.json": '{"name": "demo", "version": "1.0.0", "bin": {"demo": "dist/index.js"}}'})
        fx = effects.scan(p, effects_kb())
        rtes = routes(p) + effect_routes.routes(p, fx, components(p))
        return [c.attrs["arguments"] for c in generic.claims(p, fx, rtes, effects_kb()) if c.kind == "readme-args"]

    assert args_claims("npx -y demo@1.0.0 \\\n  --verbose") == [[["--verbose"]]]
    assert args_claims("node tools/skill.js \\\n  --prompt x") == []
    assert args_claims("node /path/to/demo/dist/index.js --port 1") == [[["--port", "1"]]]
    # `npx -y demo@1.0.0 demo`: the package's own command named after it (as `npx -p demo demo`), no argument
    assert args_claims("npx -y demo@1.0.0 demo") == []
    assert args_claims("npx -y demo@1.0.0 demo --verbose") == [[["--verbose"]]]


def test_a_script_run_after_changing_to_another_project_is_that_project_s():
    """`cd ../demo-client` then `node build/index.js ../demo/build/index.js`: the script of the folder changed to, a
    client handed the server's path, not the server; a runner fetching the package by its name still launches it
    there, and a `cd` into the package's own folder changes nothing."""
    from auditor.extract.routes import _commands
    assert list(_commands("cd ../demo-client\nnpm install\nnode build/index.js ../demo/build/index.js\n")) == []
    assert list(_commands("cd ../demo-client\nnpx -y demo --verbose\n")) == [("npx", ["-y", "demo", "--verbose"])]
    assert list(_commands("cd demo\nnode build/index.js --port 1\n")) == [("node", ["build/index.js", "--port", "1"])]


def test_lists_after_a_tools_returns_label_are_fields_of_its_result():
    """"**Returns:**" then "Each diagnostic includes:": both lists describe what the tool gives back; a later list a
    parameters paragraph introduces documents parameters again."""
    readme = """# demo

## Tools

### `check_file`
Check a file.

**Parameters:**
- `file`: Path to the file

**Returns:**
- `errors`: Array of errors

Each diagnostic includes:
- `text`: Description of the issue
- `line`: Line number

### `fix_file`
Fix a file.

**Returns:**
- `changed`: Whether it changed

**Parameters:**
- `path`: Path to the file
"""
    doc = read_markdown("README.md", readme)
    got = {t.name: [x.name for x in t.params] for t in documented.documented_tools(doc)}
    assert got == {"check_file": ["file"], "fix_file": ["path"]}


def test_names_an_output_line_gives_are_fields_of_the_result_not_parameters():
    """"- Output: `{ topic_id, title, members }`" under a tool, then "- `members` are direct records": the later item
    speaks of the result's field; a name the "Input:" line gives too, an item before the Output line, or one that
    gives a type (`topic_id` (number)) stays a parameter."""
    readme = """# demo

## Tools

- `read_topic`
  - Input: `{ topic_id: number; limit?: number }`
  - Output: `{ topic_id, title, members, owners }`
  - `members` and `owners` are direct records, not an expanded list.
  - `topic_id` (number): the topic to read
  - `limit` (number, optional): how many posts
"""
    doc = read_markdown("README.md", readme)
    got = {t.name: [x.name for x in t.params] for t in documented.documented_tools(doc)}
    assert got == {"read_topic": ["topic_id", "limit"]}
    # a parameter documented before the Output line that names it too is still a parameter
    before = readme.replace("  - Input: `{ topic_id: number; limit?: number }`\n", "").replace(
        "  - Output:", "  - `title` (string): a title to match\n  - Output:")
    got = {t.name: [x.name for x in t.params] for t in documented.documented_tools(read_markdown("README.md", before))}
    assert got == {"read_topic": ["title", "topic_id", "limit"]}


def test_a_tool_the_readme_says_is_withdrawn_is_no_claim():
    """"`search` - **DEPRECATED**: ... (no longer available)", a table row described "Removed in 2.0", a heading
    "`lookup` (retired)": the README does not say the server provides them (their parameters go with them); a
    tool whose description only mentions the word ("Find deprecated packages") is still documented, and so is one
    only deprecated ("Deprecated alias for `add_item`", a heading "`get_item` (deprecated)"): deprecated is still
    served."""
    readme = ("# demo\n\n## Tools\n\n- `search_items` - **DEPRECATED**: Search items (no longer available)\n"
              "  - `query` - The search query\n- `find_deprecated` - Find deprecated packages\n"
              "- `add_item` - Add an item\n- `put_item` - Deprecated alias for `add_item`\n\n| Tool | Description |\n"
              "|---|---|\n| `drop_item` | Removed in 2.0 |\n"
              "| `list_items` | List the items |\n\n### `lookup_item` (retired)\n\n- `id` (string): which item\n\n"
              "### `get_item` (deprecated)\n\n- `id` (string): which item\n")
    doc = read_markdown("README.md", readme)
    got = {t.name: [x.name for x in t.params] for t in documented.documented_tools(doc)}
    assert got == {"find_deprecated": [], "add_item": [], "put_item": [], "list_items": [], "get_item": ["id"]}


def test_a_documented_tool_dispatched_but_not_listed_is_callable_not_unknown():
    """A tools/call branch serves `archive` though tools/list leaves it out: the README's `archive` is callable (the
    claim is partial: not advertised), not a name the server rejects."""
    server = SDK + (
        'const server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });\n'
        'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
        '  { name: "find_rows", description: "Find rows", inputSchema: { type: "object", properties: {} } }] }));\n'
        'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
        '  switch (request.params.name) {\n'
        '    case "find_rows": return { content: [] };\n'
        '    case "archive": return { content: [] };\n'
        '  }\n'
        '  throw new Error("unknown tool");\n});\n')
    readme = "# demo\n\n## Tools\n\n- `find_rows`: find rows\n- `archive`: archive\n  - `id` (string): which\n- `vacuum`: vacuum\n"
    p = program({"index.ts": server, "README.md": readme, "package.json": '{"name": "demo", "version": "1.0.0"}'})
    fx = effects.scan(p, effects_kb())
    rtes = routes(p) + effect_routes.routes(p, fx, components(p))
    got = {c.id.split(":", 1)[1].rsplit("@", 1)[0]: (c.attrs["verdict"], c.attrs["mismatch"])
           for c in generic.claims(p, fx, rtes, effects_kb())}
    assert got["readme-tool:archive"][0] == "partial" and "does not advertise" in got["readme-tool:archive"][1]
    assert got["readme-param:archive/id"][0] == "unsupported"
    assert got["readme-tool:vacuum"][0] == "contradicted"


def test_names_a_readme_lists_that_a_parameter_of_a_tool_enumerates_are_no_tools():
    """"#### Guide Topics" listing `overview`, `publishing` under the Tools section: values of the `topic` enum of
    `guide`, not tools the server fails to register; a name no schema enumerates is still a tool claim."""
    server = SDK + (
        'const server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });\n'
        'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
        '  { name: "guide", description: "Guide", inputSchema: { type: "object", properties: {\n'
        '      topic: { type: "string", enum: ["overview", "publishing"] } } } }] }));\n'
        'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
        '  if (request.params.name === "guide") return { content: [] };\n  throw new Error("unknown tool");\n});\n')
    readme = ("# demo\n\n## Tools\n\n- `guide`: a guide\n\n#### Guide Topics\n\n- `overview` - the overview\n"
              "- `publishing` - how to publish\n- `vacuum` - vacuum\n")
    got = _verdicts(server, readme)
    assert got["readme-tool:guide"] == "supported" and got["readme-tool:vacuum"] == "contradicted"
    assert "readme-tool:overview" not in got and "readme-tool:publishing" not in got


def test_a_documented_parameter_the_schema_lacks_but_the_code_reads_is_partial():
    """A low-level server hands its handler every key of the call: `remote`, which the README documents and the schema
    leaves out, is read by `search` (`args.remote`), so a call may pass it (partial); `depth`, read nowhere, cannot be
    (contradicted); the requested tool's `request.params.name` is no parameter `name`."""
    server = SDK + (
        'async function search(args: any) {\n  const where = args.remote ?? "origin";\n'
        '  return { content: [{ type: "text", text: String(args.text) + where }] };\n}\n'
        'const server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });\n'
        'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
        '  { name: "search", description: "Search", inputSchema: { type: "object", properties: {\n'
        '      text: { type: "string" } } } }] }));\n'
        'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
        '  switch (request.params.name) {\n    case "search": return search(request.params.arguments);\n  }\n'
        '  throw new Error("unknown tool");\n});\n')
    readme = ("# demo\n\n## Tools\n\n- `search`: search\n  - `text` (string): what\n  - `remote` (string): where\n"
              "  - `depth` (number): how deep\n  - `name` (string): a name\n")
    got = _verdicts(server, readme)
    assert got["readme-param:search/remote"] == "partial"
    assert got["readme-param:search/depth"] == "contradicted" and got["readme-param:search/name"] == "contradicted"
    assert got["readme-param:search/text"] == "supported"


def _verdicts(server: str, readme: str) -> dict[str, str]:
    """Claim (kind:key, without the channel) -> verdict, for a server in index.ts and its README."""
    p = program({"index.ts": server, "README.md": readme, "package.json": '{"name": "demo", "version": "1.0.0"}'})
    fx = effects.scan(p, effects_kb())
    rtes = routes(p) + effect_routes.routes(p, fx, components(p))
    return {c.id.split(":", 1)[1].rsplit("@", 1)[0]: c.attrs["verdict"] for c in generic.claims(p, fx, rtes, effects_kb())}


def test_a_method_called_on_an_object_in_a_tools_list_names_no_tool():
    """`- `kit.users()`: tools for users` under Available tools is a method of a code object the package's library
    gives (it returns tools for another framework), not a tool named `kit.users`; a name written as a call with no
    object (`` `ping()` ``) and a dotted name that is no call (`` `files.read` ``) still name tools."""
    readme = """# demo

## Available tools

- `kit.users()`: Provides tools for managing users.
- `kit.allTools()`: Returns all available tools.
- `ping()`: Checks the service.
- `files.read`: Reads a file.
"""
    doc = read_markdown("README.md", readme)
    assert [t.name for t in documented.documented_tools(doc)] == ["ping", "files.read"]


def test_a_list_indented_too_little_to_nest_under_its_parameters_label_lists_parameters():
    """"10. **Send comment**" then "   **Parameters:**" and "   - `text` (required)": three spaces do not nest a list
    in an item whose marker is four characters wide, so the list starts on its own after the numbered one; the label
    it follows still introduces it, and its names are parameters, not tools."""
    readme = ("# demo\n\n## Tools\n\n"
              "9. **List posts**  \n   **Name:** `list_posts`  \n   **Parameters:**  \n"
              "   - `count` (optional, default: 20).\n\n"
              "10. **Send comment**  \n   **Name:** `send_comment`  \n   **Parameters:**  \n"
              "   - `text` (required): Comment text.  \n   - `urn` (required): Post URN.  \n"
              "   - `timeout` (optional, default: 300).\n\n"
              "11. **Get users**  \n    **Name:** `get_users`  \n")
    doc = read_markdown("README.md", readme)
    names = {t.name for t in documented.documented_tools(doc)}
    assert not names & {"text", "urn", "timeout", "count"}
