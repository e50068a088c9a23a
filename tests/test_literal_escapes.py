"""Escapes in string literals are decoded before names are compared: "get\\u005fweather" is the tool get_weather."""

from __future__ import annotations

import json

import pytest

from auditor.extract import parse
from auditor.extract.syntax import find, string_value
from contract_helpers import init_repo, proc


def _values(src: str) -> list[str | None]:
    tree = parse.parse(src.encode("utf-8"), "typescript")
    return [string_value(n) for n in find(tree.root_node, {"string", "template_string"})]


@pytest.mark.parametrize("literal, value", [
    (r'"get\u005fweather"', "get_weather"),
    (r"'get\x5fweather'", "get_weather"),
    (r'"\u{1F600}\ud83d\ude00"', "\U0001F600\U0001F600"),  # braced code point; a UTF-16 pair is one character
    (r'"a\n\t\r\b\f\v\0z"', "a\n\t\r\b\f\v\0z"),
    (r'"q\\ \' \" \q"', "q\\ ' \" q"),  # a character that is no escape stands for itself
    (r'"\101\7"', "A\x07"),  # legacy octal
    ('"one \\\ntwo"', "one two"),  # a line continuation stands for nothing
    ('"one \\\r\ntwo"', "one two"),
    (r"`tem\u0070late \${x} \``", "template ${x} `"),
    ("`a\r\nb`", "a\nb"),  # a template's line breaks are LF in its value
    (r'"lone \ud800 \u{DC00}"', "lone \\ud800 \\udc00"),  # no character: kept as escape text, never a surrogate
    (r'"\u{110000}"', "\\u{110000}"),
])
def test_string_value_decodes_escapes(literal, value):
    (got,) = _values(f"const x = {literal};\n")
    assert got == value
    got.encode("utf-8")  # every value can be written into a report


def test_template_with_substitution_is_not_a_literal():
    assert _values("const x = `a${b}`;\n") == [None]


SERVER = r'''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "weather\u002ddesk", version: "1.0.0" });

server.registerTool("get\u005fweather", {
  description: "Weather for a \x63ity",
  inputSchema: { city: z.string() },
}, async ({ city }) => ({ content: [{ type: "text", text: city }] }));

server.registerTool('odd\ud800', { description: `lone \
surrogate` }, async () => ({ content: [] }));

await server.connect(new StdioServerTransport());
'''

README = "# weather\n\n## Tools\n\n- **get_weather**: weather for a city\n  - `city` (string): which city\n"
MANIFEST = ('{"name": "weather-desk", "version": "1.0.0", "main": "index.ts",'
            ' "dependencies": {"@modelcontextprotocol/sdk": "^1.0.0"}}\n')


def test_a_tool_named_with_escapes_is_found_under_its_decoded_name(tmp_path):
    repo = tmp_path / "repo"
    init_repo(repo, {"index.ts": SERVER, "README.md": README, "package.json": MANIFEST})
    out = tmp_path / "out"
    result = proc("audit", repo, "--out", out, "-q")  # every renderer: a lone surrogate must not break one
    assert result.returncode == 0, result.stderr
    doc = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    tools = {r["tool"] for r in doc["routes"] if r["kind"] == "dispatch"}
    assert tools == {"get_weather", "odd\\ud800"}
    descriptions = {o["tool"]: o for o in doc["objects"] if o["id"].startswith("OBJ:tool-description:")}
    assert set(descriptions) == tools
    verdicts = {c["id"].split("@")[0]: c["verdict"] for c in doc["claims"]}
    assert verdicts["CLM:readme-tool:get_weather"] == "supported"
    assert verdicts["CLM:readme-param:get_weather/city"] == "supported"
    assert "u005f" not in (out / "evidence-packet.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("number, shown", [
    ("1e3", "1000"),  # a minifier's integer: JavaScript writes it in digits
    ("2.5", "2.5"),
    ("0x10", "16"),
    ("1e21", None),  # JavaScript writes "1e+21": not known here
    ("1e-7", None),  # "1e-7", not Python's "1e-07"
    ("1e-5", None),  # "0.00001", not Python's "1e-05"
    ("0.0005", "0.0005"),
])
def test_a_number_in_a_template_is_written_as_javascript_writes_it(number, shown):
    from auditor.extract.syntax import NOT_LITERAL, literal

    tree = parse.parse(f"var N = {number};\nconst d = `first ${{N}} lines`;\n".encode(), "typescript")
    values = {n.child_by_field_name("name").text.decode(): n.child_by_field_name("value")
              for n in find(tree.root_node, {"variable_declarator"})}
    got = literal(values["d"], {"N": values["N"]})
    assert got == (f"first {shown} lines" if shown is not None else NOT_LITERAL)
