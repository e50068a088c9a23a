"""Only the package's own README speaks for the server (extract/scope.py), and README tool tables are tool claims."""

from __future__ import annotations

from auditor.analyse import effect_routes, effects, generic, mismatches
from auditor.extract.components import components
from auditor.extract.routes import launch_snippets, routes
from auditor.extract.scope import server_readmes
from program_helpers import effects_kb, line_of, program

SERVER = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
          'import { z } from "zod";\n'
          'const token = process.env.DEMO_TOKEN;\n'
          'const server = new McpServer({ name: "demo", version: "1" });\n'
          'server.registerTool("find_rows", { description: "Find", inputSchema: { table: z.string(), limit: z.number().optional() } },'
          ' async () => ({ content: [] }));\n'
          'server.registerTool("vacuum", { description: "Vacuum", inputSchema: {} }, async () => ({ content: [] }));\n')
MANIFEST = '{"name": "demo-server", "version": "1.0.0", "dependencies": {"@modelcontextprotocol/sdk": "1", "zod": "3"}}'
LAUNCH = '```json\n{"mcpServers": {"demo": {"command": "npx", "args": ["-y", "demo-server", "--db", "x"], "env": {"%s": "1"}}}}\n```\n'
# Markdown that is not the server's: each documents a tool, an environment variable and an unpinned launch.
NOT_ITS_OWN = "# Notes\n\n## Tools\n\n- **drop_table**: drop a table\n\n" + LAUNCH % "OTHER_TOKEN"


def _claims(p):
    fx = effects.scan(p, effects_kb())
    return generic.claims(p, fx, routes(p) + effect_routes.routes(p, fx, components(p)), effects_kb())


def test_only_the_package_readme_makes_readme_claims_and_launch_snippets():
    readme = "# demo\n\n## Tools\n\n- **find_rows**: find rows\n- **vacuum**: vacuum\n\n" + LAUNCH % "DEMO_TOKEN"
    others = ["CHANGELOG.md", ".changeset/brave-owls.md", "examples/demo/README.md", "vendor/lib/readme.md",
              "dist/assets/AGENTS.md", "docs/README.md", "README-old.md"]
    p = program({"index.ts": SERVER, "package.json": MANIFEST, "README.md": readme,
                 "examples/demo/package.json": '{"name": "demo-example"}', **{o: NOT_ITS_OWN for o in others}})
    assert [e.rel for e, _ in server_readmes(p)] == ["README.md"]
    claims = _claims(p)
    assert {c.attrs["channel"] for c in claims} == {"readme:README.md"}
    assert not [c for c in claims if "drop_table" in c.id or "OTHER_TOKEN" in c.id]
    assert {path for path, _, _, _ in launch_snippets(p)} == {"README.md"}
    unpinned = [f for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "unpinned-launch"]
    assert [a.path for f in unpinned for a in f.anchors] == ["README.md"]
    build = next(r for r in routes(p) if r.kind == "build" and r.id.endswith(":package.json"))
    assert {a.path for a in build.anchors} == {"package.json", "README.md"}


def test_the_root_readme_of_a_one_package_repository_is_the_servers():
    files = {"README.md": "# demo\n", "server/package.json": MANIFEST, "server/index.ts": SERVER,
             "server/README.md": "# demo server\n", "server/lib/README.md": "# lib\n"}
    assert [e.rel for e, _ in server_readmes(program(files))] == ["README.md", "server/README.md"]
    two = {**files, "client/package.json": '{"name": "demo-client"}', "client/README.md": "# client\n"}
    assert [e.rel for e, _ in server_readmes(program(two))] == ["client/README.md", "server/README.md"]


TABLES = """# demo

## Tools

The server provides these tools:

| Tool | Description | Parameters |
|------|-------------|------------|
| `find_rows` | Find rows of a table | `table` (string), `limit` (number, optional), `where` |
| **drop_table** | Drop a table | table |
| Search | prose, not a name | - |

### find_rows

| Name | Type | Required |
|------|------|----------|
| `order` | string | no |

## Configuration

| Name | Description |
|------|-------------|
| `DEMO_TOKEN` | the token |

## Maintenance

| Tool name | What it does |
|-----------|--------------|
| `vacuum` | Reclaims space |
"""


def test_a_table_with_a_tool_column_documents_tools_like_headings_and_lists():
    p = program({"index.ts": SERVER, "package.json": MANIFEST, "README.md": TABLES})
    got = {c.id.split(":", 1)[1].rsplit("@", 1)[0]: c for c in _claims(p) if c.kind.startswith("readme-tool")
           or c.kind == "readme-param"}
    assert {k: c.attrs["verdict"] for k, c in got.items()} == {
        "readme-tool:find_rows": "supported",
        "readme-param:find_rows/table": "supported",
        "readme-param:find_rows/limit": "supported",
        "readme-param:find_rows/where": "contradicted",  # the schema has no `where`
        "readme-tool:drop_table": "contradicted",  # nothing registers it
        "readme-param:drop_table/table": "contradicted",
        "readme-tool:vacuum": "supported",  # a Tool name column outside the Tools section
        "readme-tool-list": "supported",
    }
    assert got["readme-tool:find_rows"].anchors[0].start_line == line_of(TABLES, "| `find_rows` |")
    assert got["readme-tool:find_rows"].attrs["documented_description"] == "Find rows of a table"
    assert got["readme-param:find_rows/limit"].attrs["documented_optional"] is True
    assert got["readme-tool:vacuum"].attrs["section"] == "Maintenance"



def test_a_tool_column_of_products_written_as_prose_names_no_tool():
    """"Supported AI coding tools": a Tool column of products ("GitHub Copilot", "Codex CLI"), one of them spelt like a
    name ("deepagents-cli"), documents no tool of the server; the same table with its products in code spans, or
    with most cells names, still does."""
    rows = ["GitHub Copilot", "Codex CLI", "Cursor", "deepagents-cli", "Factory Droid"]
    table = "# demo\n\n## AI Coding Tools\n\n| Tool | Rules | MCP |\n|---|---|---|\n" + \
        "".join(f"| {r} | yes | yes |\n" for r in rows)
    tools = lambda readme: sorted(c.attrs["tool"] for c in _claims(program({"index.ts": SERVER, "package.json": MANIFEST,
                                                                           "README.md": readme}))
                                  if c.kind == "readme-tool")
    assert tools(table) == []
    assert tools(table.replace("| deepagents-cli |", "| `deepagents-cli` |")) == ["deepagents-cli"]
    assert tools(table.replace("| Cursor |", "| cursor-rules |").replace("| Codex CLI |", "| codex_cli |")) == \
        ["codex_cli", "cursor-rules", "deepagents-cli"]


def test_tool_names_and_claim_candidates_come_from_the_package_readme_only():
    from auditor import kb
    from auditor.analyse import description
    from program_helpers import KB

    server = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
              'const server = new McpServer({ name: "demo", version: "1" });\n'
              'server.registerTool("find_rows", { description: "Find rows" }, async () => ({ content: [] }));\n')
    other = "# Changes\n\n## Tools\n\n### findRows\n\n- It can drop every table.\n"
    p = program({"index.ts": server, "package.json": '{"name": "demo"}', "README.md": "# demo\n",
                 "CHANGELOG.md": other, "examples/README.md": other})
    assert [f for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "tool-name-mismatch"] == []
    doctrine = kb.load(KB, "doctrine")
    candidates = description.candidates(p, description.parts(p, doctrine), [], doctrine)
    assert [c.anchors[0].path for c in candidates if c.anchors[0].path.endswith(".md")] == []


def test_a_tools_heading_that_is_a_group_or_a_title_is_no_tool_name():
    """`### Users` over a list of tools, and `### server-a` over `#### tool` headings, are not tools; only a
    heading that names a tool the server does not register is a tool-name-mismatch."""
    server = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
              'const server = new McpServer({ name: "demo", version: "1" });\n'
              'server.registerTool("get_user", { description: "Get" }, async () => ({ content: [] }));\n'
              'server.registerTool("list_rows", { description: "List" }, async () => ({ content: [] }));\n')
    readme = ("# demo\n\n## Tools\n\n### Users\n\n- `get_user`: the current user\n\n"
              "### `demo-rows-server`\n\n#### list_rows\n\nLists rows.\n\n#### listRows2\n\nGone.\n")
    p = program({"index.ts": server, "package.json": '{"name": "demo"}', "README.md": readme})
    got = [f.attrs["documented"] for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "tool-name-mismatch"]
    assert got == ["listRows2"]
