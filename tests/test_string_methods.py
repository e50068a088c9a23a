"""Tool names computed by JavaScript's string methods from known strings (extract/strings.py): a list of descriptors
renamed by copies (`{ ...tool, name: "new_" + tool.name.slice("old_".length) }` for the elements whose name
`startsWith("old_")`, the others kept as they are), and a registration loop naming each tool `t.id.replace(/\\./g, "_")`.
Every server here is written for the test."""

from __future__ import annotations

import re

from auditor.analyse import coverage
from auditor.extract import strings
from program_helpers import program


def test_string_methods_evaluate_like_javascript():
    assert strings.evaluate("slice", "legacy_read", [len("legacy_")]) == "read"
    assert strings.evaluate("slice", "abcdef", [-2]) == "ef"
    assert strings.evaluate("substring", "abcdef", [4, 1]) == "bcd"
    assert strings.evaluate("replace", "a.b.c", [strings.regex(r"\.", "g"), "_"]) == "a_b_c"
    assert strings.evaluate("replace", "a.b.c", [strings.regex(r"\.", ""), "_"]) == "a_b.c"
    assert strings.evaluate("replace", "a.b.c", [".", "-"]) == "a-b.c"
    assert strings.evaluate("replaceAll", "a.b.c", [".", "-"]) == "a-b-c"
    assert strings.evaluate("replace", "get-item", [strings.regex(r"-(\w)", "g"), "$1"]) == "getitem"
    assert strings.evaluate("join", strings.evaluate("split", "x.y", ["."]), ["__"]) == "x__y"
    assert strings.evaluate("startsWith", "old_x", ["old_"]) is True
    assert strings.evaluate("toUpperCase", "ab", []) == "AB"
    # not evaluated: a replacement function, a quantified group (could take exponential time), unknown flags
    assert strings.evaluate("replace", "a", ["a", "$&$&"]) is strings.UNKNOWN
    assert strings.regex(r"(a+)+$", "") is None and strings.regex("a", "y") is None
    assert strings.regex(r"a*a*c", "") is None and strings.regex(r"[*+]\s+-+", "g") is None
    assert strings.regex(r"[*+]+", "g") is not None and strings.regex(r"\*\+\s+", "g") is not None
    assert strings.evaluate("padStart", "a", [3]) is strings.UNKNOWN
    assert strings.evaluate("slice", "x" * (strings.MAX_LENGTH + 1), [1]) is strings.UNKNOWN


SDK = 'import { Server } from "@modelcontextprotocol/sdk/server/index.js";\n' \
      'import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";\n'
RENAMED = {
    "package.json": '{"name": "renamer", "main": "index.ts", "dependencies": {"@modelcontextprotocol/sdk": "1"}}',
    "defs.ts": ('export const DEFS = [\n'
                '  { name: "legacy_read", description: "Read", inputSchema: { type: "object", properties: {} } },\n'
                '  { name: "legacy_write", description: "Write", inputSchema: { type: "object", properties: {} } },\n'
                '  { name: "shop_order", description: "Order", inputSchema: { type: "object", properties: {} } },\n'
                '];\n'),
    "index.ts": SDK + (
        'import { DEFS } from "./defs.js";\n'
        'function renamed(tools) {\n'
        '  const out = [];\n'
        '  for (const tool of tools) {\n'
        '    if (tool.name.startsWith("legacy_")) {\n'
        '      const fresh = "modern_" + tool.name.slice("legacy_".length);\n'
        '      out.push({ ...tool, name: fresh });\n'
        '    } else {\n'
        '      out.push(tool);\n'
        '    }\n'
        '  }\n'
        '  return out;\n'
        '}\n'
        'const server = new Server({ name: "renamer", version: "1" }, { capabilities: { tools: {} } });\n'
        'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: renamed(DEFS) }));\n'),
}


def test_a_descriptor_copied_under_a_computed_name_is_a_tool_of_that_name_for_the_elements_its_branch_takes():
    ledger = coverage.ledger(program(RENAMED))
    names = sorted(t["name"] for t in ledger["tools"])
    assert "modern_read" in names and "modern_write" in names and "shop_order" in names
    assert not [n for n in names if n.startswith("modern_") and n not in {"modern_read", "modern_write"}]  # no "modern_order"
    tool = next(t for t in ledger["tools"] if t["name"] == "modern_read")
    assert tool["schema_form"] == "json-schema"


DOTTED = {
    "package.json": '{"name": "dotted", "main": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}',
    "index.js": ('const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");\n'
                 'const SPECS = [{ id: "files.v1.list", about: "List" }, { id: "files.v1.remove", about: "Remove" }];\n'
                 'function attach(server, specs) {\n'
                 '  for (const spec of specs) {\n'
                 '    server.tool(spec.id.replace(/\\./g, "_"), spec.about, {}, async () => ({ content: [] }));\n'
                 '  }\n'
                 '}\n'
                 'const server = new McpServer({ name: "dotted", version: "1" });\n'
                 'attach(server, SPECS);\n'),
}


def test_a_registration_named_by_a_string_method_of_each_element_registers_the_computed_names():
    p = program(DOTTED)
    ledger = coverage.ledger(p)
    assert sorted(t["name"] for t in ledger["tools"]) == ["files_v1_list", "files_v1_remove"]
    assert not [g for g in p.gaps if re.search("not a literal|not read", g.detail)]
