"""Tool names computed from an option the command line merges with its defaults: a registration loop naming each
tool `applyCase(tool.name, opts?.nameStyle)`, a function of guarded returns (`if (style === "snake") return ...;
switch (style) {...}; return name`), the option handed down through two functions of the server's own from
`{ ...DEFAULTS, ...cliOptions }` (extract/taken.py; Values.from_callers). Every server here is written for the test."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import program

HEAD = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
        'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n')
CATALOG = ('export const CATALOG = [\n'
           '  { name: "notes.read", description: "Read a note", schema: {} },\n'
           '  { name: "notes.list", description: "List notes", schema: {} },\n'
           '];\n')
CASE = ('export function applyCase(name: string, style?: string): string {\n'
        '  if (style === "snake") {\n'
        '    return name.replace(/\\./g, "_");\n'
        '  }\n'
        '  switch (style) {\n'
        '    case "kebab":\n'
        '      return name.replace(/\\./g, "-");\n'
        '    default:\n'
        '      return name;\n'
        '  }\n'
        '}\n')
REGISTRY = ('import { CATALOG } from "./catalog.js";\n'
            'import { applyCase } from "./case.js";\n'
            'export class Registry {\n'
            '  register(server: any, opts?: { nameStyle?: string }) {\n'
            '    for (const tool of CATALOG) {\n'
            '      server.tool(applyCase(tool.name, opts?.nameStyle), tool.description, tool.schema,\n'
            '        async () => ({ content: [] }));\n'
            '    }\n'
            '  }\n'
            '}\n')


def _server(defaults: str, other_kind: str = "other") -> dict[str, str]:
    return {
        "package.json": ('{"name": "notes", "bin": {"notes": "cli.ts"}, '
                         '"dependencies": {"@modelcontextprotocol/sdk": "1", "commander": "12"}}'),
        "catalog.ts": CATALOG,
        "case.ts": CASE,
        "registry.ts": REGISTRY,
        "init.ts": HEAD + (
            'import { Registry } from "./registry.js";\n'
            'export function buildServer(options: any) {\n'
            '  const server = new McpServer({ name: "notes", version: "1" });\n'
            '  const registry = new Registry();\n'
            '  registry.register(server, { nameStyle: options.nameStyle });\n'
            '  return server;\n'
            '}\n'
            'export async function start(kind: string, options: any) {\n'
            '  const make = (extra: any) => {\n'
            '    if (kind === "notes") {\n'
            '      return buildServer({ ...options, ...extra });\n'
            '    }\n'
            '    throw new Error("unknown kind");\n'
            '  };\n'
            '  await make({}).connect(new StdioServerTransport());\n'
            '}\n'),
        "cli.ts": (
            'import { Command } from "commander";\n'
            'import { start } from "./init.js";\n'
            f'const DEFAULTS = {defaults};\n'
            'const program = new Command();\n'
            'program.command("serve").option("--name-style <s>").action(async (opts) => {\n'
            '  const merged = { ...DEFAULTS, ...opts };\n'
            '  await start("notes", { ...merged, verbose: false });\n'
            '});\n'
            'program.command("docs").action(async (opts) => {\n'
            f'  await start("{other_kind}", opts);\n'
            '});\n'
            'program.parse();\n'),
    }


def _names(files: dict[str, str]) -> list[str]:
    return sorted(t["name"] for t in coverage.ledger(program(files))["tools"])


def test_a_name_computed_from_a_merged_default_option():
    assert _names(_server('{ nameStyle: "snake", port: "3000" }')) == ["notes_list", "notes_read"]
    assert _names(_server('{ nameStyle: "kebab" }')) == ["notes-list", "notes-read"]
    # No default for the option: which branch it takes is not known here, and no name is guessed (a gap says so)
    unset = program(_server('{ port: "3000" }'))
    assert coverage.ledger(unset)["tools"] == []
    assert any("applyCase(tool.name" in g.detail for g in unset.gaps)


def test_a_caller_whose_branch_reaches_the_call_with_another_value_leaves_the_name_unread():
    # `start("notes", opts)` from the second command reaches buildServer too, with an option not known: no name
    both = program(_server('{ nameStyle: "snake" }', other_kind="notes"))
    assert coverage.ledger(both)["tools"] == []
    assert any("applyCase(tool.name" in g.detail for g in both.gaps)


def test_the_compiled_optional_chain_and_a_sequence_call_are_read():
    files = _server('{ nameStyle: "snake" }')
    files["registry.ts"] = REGISTRY.replace(
        "applyCase(tool.name, opts?.nameStyle)",
        "(0, applyCase)(tool.name, opts === null || opts === void 0 ? void 0 : opts.nameStyle)")
    assert _names(files) == ["notes_list", "notes_read"]
