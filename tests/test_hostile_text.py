"""Names and code of the audited repository reach the terminal and the reports inert: no escape sequence, bell,
carriage return, bidi override or newline of theirs is written raw (auditor/safetext.py)."""

from __future__ import annotations

import json
import os

from contract_helpers import commit, init_repo, ledger_files, proc

RAW = ("\x1b", "\x07", "\r", "\u202e", "\u2066", "\x9b")
EVIL = "x\x1b]0;pwned\x07\x1b[2J\u202eyrt\u2066\x9b\nauditor: wrote everything to etc"


def _repo(tmp_path):
    repo = tmp_path / "repo"
    init_repo(repo, ledger_files("srv/"))
    # A file named with escape sequences, a bidi override and a newline, not valid UTF-8 (a coverage gap, so
    # stderr names it), whose code quotes the same characters.
    body = f'export const banner = "{EVIL}";\n// caf\xe9\n'.encode("utf-8", "surrogateescape").replace(b"\xc3\xa9", b"\xe9")
    with open(os.path.join(os.fsencode(repo / "srv"), f"{EVIL}.ts".encode("utf-8")), "wb") as fh:
        fh.write(body)
    commit(repo, {}, "an evil file")
    return repo


def test_terminal_lines_show_control_and_bidi_characters_visibly(tmp_path):
    repo = _repo(tmp_path)
    result = proc("audit", repo, "--subtree", "srv", "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    for ch in RAW:
        assert ch not in result.stderr, repr(ch)
    lines = result.stderr.splitlines()
    assert all(line.startswith("auditor: ") for line in lines), lines  # no line faked by a newline in a name
    assert any("\\x1b]0;pwned\\x07" in line and "<U+202E>" in line for line in lines), lines


def test_reports_show_control_and_bidi_characters_visibly(tmp_path):
    repo = _repo(tmp_path)
    out = tmp_path / "out"
    result = proc("audit", repo, "--subtree", "srv", "--out", out)
    assert result.returncode == 0, result.stderr
    for name in ("evidence-packet.md", "runtime-baseline.md", "epistemic-ledger.md"):
        text = (out / name).read_text(encoding="utf-8")
        for ch in RAW:
            assert ch not in text, (name, repr(ch))
    packet = (out / "evidence-packet.md").read_text(encoding="utf-8")
    assert "<U+202E>" in packet and "\\x1b" in packet
    doc = json.loads((out / "audit.json").read_text(encoding="utf-8"))  # the JSON keeps the name as data
    assert any(f["path"].startswith("srv/x\x1b]0;pwned") for f in doc["coverage"]["files"])


# A tool named with backticks, HTML, a table pipe, a newline and bidi characters: the summary, the tool's own section
# and the tables show it in code spans (or escaped), never as markup, HTML, a new table cell or a new line.
NAMED = r'''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "named", version: "1.0.0" });
const state: string[] = [];

server.registerTool("a`b``c <script>alert(1)</script> | d\n\u202eе\u2066x", {
  description: "Keeps `the` note | <b>bold</b>",
  inputSchema: { note: z.string() },
}, async ({ note }) => {
  state.push(note);
  return { content: [{ type: "text", text: String(state.length) }] };
});

server.connect(new StdioServerTransport());
'''


def test_a_hostile_tool_name_stays_inert_in_summary_sections_and_tables(tmp_path):
    import re

    from markdown_it import MarkdownIt
    from markdown_it.rules_block.table import escapedSplit

    repo = tmp_path / "repo"
    init_repo(repo, {"srv/index.ts": NAMED, "srv/package.json": '{"name": "named", "version": "1.0.0", "dependencies": '
                     '{"@modelcontextprotocol/sdk": "1.10.0", "zod": "3.0.0"}, "bin": {"named": "index.js"}}\n'})
    out = tmp_path / "out"
    result = proc("audit", repo, "--subtree", "srv", "--out", out, "-q")
    assert result.returncode == 0, result.stderr
    doc = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    assert any("<script>" in t for t in doc["summary"]["server"]["tools"])  # the name was found, as data
    for name in ("evidence-packet.md", "runtime-baseline.md", "epistemic-ledger.md"):
        text = (out / name).read_text(encoding="utf-8")
        for ch in RAW:
            assert ch not in text, (name, repr(ch))
        tokens = MarkdownIt("commonmark").enable("table").parse(text)
        inline = [c for t in tokens if t.children for c in t.children]
        html = [c.content for c in inline if c.type == "html_inline"] + [t.content for t in tokens if t.type == "html_block"]
        assert all(re.fullmatch(r'<a id="[a-z0-9-]+">|</a>', h) for h in html), (name, html)
        assert "<script>alert(1)</script>" in " ".join(c.content for c in inline if c.type == "code_inline"), name
        lines = text.splitlines()
        for tok in tokens:
            if tok.type == "table_open":
                start, end = tok.map
                width = len(escapedSplit(lines[start]))
                assert all(len(escapedSplit(row)) == width for row in lines[start + 2:end]), (name, lines[start])
    summary = (out / "evidence-packet.md").read_text(encoding="utf-8").split("## Tools")[0]
    assert "](#tool-" in summary and "<U+202E>" in summary  # linked to its section; the bidi override visible
