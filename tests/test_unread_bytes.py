"""A file the audit could not read whole must not let an absence hold: bytes that are not UTF-8 are read as U+FFFD
and the file analysed anyway (an encoding gap), and a probe that finds nothing over a boundary with a gap is unknown."""

from __future__ import annotations

import json

from auditor.model import Anchor, Gap
from auditor.sources import decode
from contract_helpers import init_repo, proc

SERVER = '''import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { archive } from "./helper.js";

const server = new Server({ name: "archiver", version: "1.0.0" }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: "archive", description: "Archive a note.", inputSchema: { type: "object", properties: {} } }],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === "archive") {
    return { content: [{ type: "text", text: archive(String(request.params.arguments?.note)) }] };
  }
  throw new Error("unknown tool");
});

await server.connect(new StdioServerTransport());
'''

# One Latin-1 byte (e9, "é") in a comment: the file is not valid UTF-8.
HELPER = ('import { execSync } from "child_process";\n'
          'import { writeFileSync } from "fs";\n'
          '\n'
          '// R\xe9sum\xe9 of the note, written to disk\n'
          'export function archive(note: string): string {\n'
          '  writeFileSync("/tmp/note.txt", note);\n'
          '  return execSync("gzip -k /tmp/note.txt").toString();\n'
          '}\n').encode("latin-1")

QUIET = b'// caf\xe9\nexport function archive(note: string): string {\n  return note.trim();\n}\n'

MANIFEST = ('{"name": "archiver", "version": "1.0.0", "main": "index.ts",'
            ' "dependencies": {"@modelcontextprotocol/sdk": "^1.0.0"}}\n')


def _audit(tmp_path, helper: bytes) -> tuple[dict, str]:
    repo = tmp_path / "repo"
    init_repo(repo, {"index.ts": SERVER, "helper.ts": helper, "package.json": MANIFEST})
    out = tmp_path / "out"
    result = proc("audit", repo, "--out", out)
    assert result.returncode == 0, result.stderr
    return json.loads((out / "audit.json").read_text(encoding="utf-8")), result.stderr


def _absence(doc: dict, probe: str) -> dict:
    return next(a for a in doc["absences"] if a["id"].endswith(":" + probe))


def test_an_imported_file_with_a_latin1_byte_is_analysed_and_its_calls_found(tmp_path):
    doc, stderr = _audit(tmp_path, HELPER)
    ext = _absence(doc, "external-effects")
    assert ext["status"] != "holds", ext["summary"]  # it held: the file was skipped whole
    assert ext["status"] == "does not hold", ext["summary"]
    # The calls are found at their own lines: the replaced byte moved no anchor.
    assert {(h["anchor"]["path"], h["anchor"]["start_line"], h["what"]) for h in ext["hits"]} >= {
        ("helper.ts", 1, "imports child_process"), ("helper.ts", 2, "imports fs")}
    routes = {(r["kind"], a["path"], a["start_line"]) for r in doc["routes"] for a in r["anchors"]}
    assert any(k.startswith("effect-") and (p, ln) == ("helper.ts", 6) for k, p, ln in routes), sorted(routes)
    assert any(k.startswith("effect-") and (p, ln) == ("helper.ts", 7) for k, p, ln in routes), sorted(routes)
    # The gap is still listed, at the line of the byte, and the coverage is incomplete.
    gaps = doc["coverage"]["gaps"]
    assert [(g["kind"], g["anchor"]["path"], g["anchor"]["start_line"]) for g in gaps] == [("encoding", "helper.ts", 4)]
    assert ext["gaps"] == gaps
    assert doc["coverage"]["complete"] is False
    assert "coverage gap: helper.ts:4: encoding: not valid UTF-8 on line(s) 4: those bytes read as U+FFFD" in stderr
    row = next(f for f in doc["coverage"]["files"] if f["path"] == "helper.ts")
    assert (row["status"], row["gaps"]) == ("analysed", 1)
    source = next(s for s in doc["sources"] if s["id"] == "SRC:helper.ts")
    assert source["utf8"] is False and source["lines"] == 8


def test_an_absence_found_over_a_boundary_with_a_gap_is_unknown_not_holds(tmp_path):
    doc, _ = _audit(tmp_path, QUIET)
    statuses = {a["id"].split(":")[-1]: a["status"] for a in doc["absences"]}
    assert statuses["external-effects"] == "unknown (gap in helper.ts)"
    # Only the probe of file names holds: every probe of the code's text could have missed what the byte hid.
    assert [k for k, s in statuses.items() if s in {"holds", "not applicable"}] == ["no-tests"], statuses
    ext = _absence(doc, "external-effects")
    assert "helper.ts:1: encoding" in ext["summary"]
    assert {"path": "helper.ts", "start_line": 1, "end_line": 1} in ext["anchors"]
    packet = (tmp_path / "out" / "evidence-packet.md").read_text(encoding="utf-8")
    assert "**unknown (gap in helper.ts)**" in packet


def test_decode_keeps_every_line_and_names_the_bad_ones():
    text, bad = decode(b"ok\nR\xe9sum\xe9\r\nfine \xff\xfe\n\xe2\x82\n")
    assert bad == (2, 3, 4)
    assert text.split("\n") == ["ok", "R\ufffdsum\ufffd\r", "fine \ufffd\ufffd", "\ufffd", ""]
    assert decode("é\n".encode("utf-8")) == ("é\n", ())


def test_gap_kinds_that_hide_code():
    from auditor.analyse.absences import _UNSEEN
    assert {"encoding", "size", "missing", "parse"} <= _UNSEEN
    assert Gap(kind="schema", detail="", anchor=Anchor(path="a", start_line=1, end_line=1)).kind not in _UNSEEN
