"""Markdown renderers: escaping of audited text, and well-formed tables for hostile input."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from markdown_it import MarkdownIt
from markdown_it.rules_block.table import escapedSplit

from auditor.cli import main
from auditor.report.markdown import code, md

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("regenerate", ROOT / "reports" / "regenerate.py")
regenerate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regenerate)

HOSTILE = "pipe | tick ` <script>alert(1)</script> *star* _under_ [link](x) &amp; \\"

SERVER = r'''
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const notes: string[] = [];

const EVIL_TOOL = {
  name: "evil|tool`<b>",
  description: `Stores a note.

Key features:
- Keeps a | pipe and a ` + "`" + `tick` + "`" + ` and <script>alert(1)</script>
- Returns *everything* you [ask](http://example.invalid)`,
  inputSchema: {
    type: "object",
    properties: { note: { type: "string", description: "the <i>note</i> | text" } },
    required: ["note"],
  },
};

const server = new Server({ name: "evil|server", version: "1.0.0" }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [EVIL_TOOL] }));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === "evil|tool`<b>") {
    const args = request.params.arguments as { note: string };
    notes.push(args.note);
    console.error(`<script>${args.note}</script> | ${notes.length}`);
    return { content: [{ type: "text", text: JSON.stringify({ count: notes.length }) }] };
  }
  return { content: [{ type: "text", text: `Unknown | tool: ${request.params.name}` }], isError: true };
});

async function main() {
  await server.connect(new StdioServerTransport());
  console.error("ready | <b>bold</b>");
}

main().catch(() => process.exit(1));
'''

README = """# Evil | server <script>alert(1)</script>

## Features

- Keeps a | pipe and a `tick` and <script>alert(1)</script>

## Tools

### evil_tool|`x`

Does things.
"""


def test_md_escapes_markup_and_keeps_one_line():
    out = md(HOSTILE + "\nsecond line")
    assert "<" not in out  # no tag can open; a `>` alone is text (`a -> b`), except where it opens a block quote
    assert md("> quoted").startswith("\\>")
    assert "\n" not in out
    parsed = MarkdownIt("commonmark").parseInline(out)[0].children
    assert all(t.type == "text" or t.type == "softbreak" for t in parsed), [t.type for t in parsed]
    assert "".join(t.content for t in parsed) == " ".join((HOSTILE + " second line").split())


def test_code_span_survives_backticks_and_pipes():
    out = code("a ``b`` | c")
    assert out.startswith("```") and out.endswith("```")
    assert "\\|" in out
    assert len(escapedSplit(f"| {out} | x |")) == 4  # leading '', cell, cell, trailing ''


@pytest.fixture(scope="module")
def hostile_reports(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("src")
    (src / "index.ts").write_text(SERVER, encoding="utf-8")
    (src / "README.md").write_text(README, encoding="utf-8")
    (src / "package.json").write_text('{"name": "evil|pkg", "version": "1.0.0", "description": "A | <b>bad</b> `package`",'
                                      ' "dependencies": {"@modelcontextprotocol/sdk": "1.0.0"}}\n', encoding="utf-8")
    repo = tmp_path_factory.mktemp("repo") / "evil"
    regenerate.fixture_repo(src, repo)
    out = tmp_path_factory.mktemp("out")
    result = CliRunner().invoke(main, ["audit", str(repo), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    return out


def _tables(text: str):
    """(header line, row lines) of every table, as markdown-it sees them."""
    lines = text.splitlines()
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    for tok in tokens:
        if tok.type == "table_open":
            start, end = tok.map
            yield lines[start], lines[start + 2:end]


@pytest.mark.parametrize("name", ["evidence-packet.md", "runtime-baseline.md", "epistemic-ledger.md"])
def test_tables_stay_well_formed_and_no_html_gets_through(hostile_reports: Path, name: str):
    text = (hostile_reports / name).read_text(encoding="utf-8")
    tables = list(_tables(text))
    assert tables, "every report has tables"
    for header, rows in tables:
        width = len(escapedSplit(header))
        for row in rows:
            assert len(escapedSplit(row)) == width, f"{name}: row has a different cell count than its header:\n{header}\n{row}"
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    html = [t for t in tokens if t.type == "html_block"] + [c for t in tokens if t.children for c in t.children if c.type == "html_inline"]
    # The only HTML is the reports' own anchors (`<a id="...">` of [a-z0-9-]), written by the templates
    ours = re.compile(r'<a id="[a-z0-9-]+">|</a>')
    assert all(ours.fullmatch(h.content) for h in html), f"{name}: raw HTML reached the output: {[h.content for h in html]}"
    # and the only links are the reports' own: to an anchor of this report or of the evidence packet (no remote here)
    links = [c.attrs["href"] for t in tokens if t.children for c in t.children if c.type == "link_open"]
    assert all(re.fullmatch(r"(evidence-packet\.md)?#[a-z0-9-]+", h) for h in links), f"{name}: audited text produced a link"
    if name == "evidence-packet.md":  # every link within the packet lands on an anchor of it
        ids = set(re.findall(r'<a id="([a-z0-9-]+)">', text))
        assert links and {h[1:] for h in links if h.startswith("#")} <= ids


def test_hostile_text_is_shown_literally(hostile_reports: Path):
    text = (hostile_reports / "evidence-packet.md").read_text(encoding="utf-8")
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    shown = " ".join(c.content for t in tokens if t.children for c in t.children if c.type in {"text", "code_inline"})
    assert "<script>alert(1)</script>" in shown
    assert "evil|tool`<b>" in shown or "evil|tool`<b>" in shown.replace("\\|", "|")
