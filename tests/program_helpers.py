"""Build a Program from in-memory files (no git, no CLI), for the unit tests of the analyses."""

from __future__ import annotations

from auditor import kb, sources
from auditor.extract import facts
from auditor.model import SourceFile, Target

KB = kb.default_kb_dir()
SDK = ('import { Server } from "@modelcontextprotocol/sdk/server/index.js";\n'
       'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
       'import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";\n')


def program(files: dict[str, str], **method_overrides) -> facts.Program:
    """The facts of FILES (a git target in memory), with kb/method.yaml's values replaced by METHOD_OVERRIDES."""
    target = Target(kind="git", locator="memory", revision="0" * 40, requested="HEAD", commit_date=None,
                    worktree_clean=None, subtree="",
                    files=tuple(SourceFile(path=p, blob=f"{i:040x}", data=body.encode("utf-8"))
                                for i, (p, body) in enumerate(sorted(files.items()))))
    method = {**kb.load(KB, "method"), **method_overrides}
    return facts.build(sources.register(target, method), "", kb.load(KB, "sdk"), method)


def effects_kb() -> dict:
    return kb.load(KB, "effects")


def line_of(text: str, needle: str) -> int:
    """1-based line of the first line containing `needle`."""
    return next(i for i, ln in enumerate(text.splitlines(), 1) if needle in ln)


# The SDK's McpServer as a bundler inlines it (its region's marker line, a class with `tool`), for bundle fixtures: the
# fixture closes the class.
INLINED_MCP_SERVER = ("// node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js\n"
                      "var McpServer = class {\n"
                      "  constructor(info) { this.info = info; }\n"
                      "  tool(name, description, schema, cb) { return { name, description, schema, cb }; }\n")

# A high-level server, for tests of the tools a program registers.
MCP = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
       'const server = new McpServer({ name: "s", version: "1.0.0" });\n')


def tool_names(files: dict[str, str]) -> list[str]:
    """The names of the tools the program of FILES registers, sorted."""
    return sorted(t.name for t in program(files).tools)
