"""audit.json as a contract: coverage gaps instead of failures, byte-identical output, ids that do
not depend on line numbers, and --check drift detection."""

from __future__ import annotations

import json

import pytest

from contract_helpers import anchors_in, audit, cli, commit, init_repo, ledger_files, proc, records

BROKEN_TS = """export function fine(a: number): number {
  return a + 1;
}
export const half = (n: number) => n / ;
export const after = 2;
"""
BROKEN_LINE = 4
NOT_UTF8 = b"plain line\ncaf\xe9 in latin-1\n\xff\xfe\n"


def test_invalid_utf8_and_syntax_error_are_coverage_gaps(tmp_path):
    repo = tmp_path / "repo"
    files = {**ledger_files("srv/"), "srv/broken.ts": BROKEN_TS, "srv/notes.md": NOT_UTF8}
    init_repo(repo, files)
    result = cli("audit", repo, "--subtree", "srv", "--out", tmp_path / "out", "--format", "json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))
    cov = doc["coverage"]
    assert cov["complete"] is False
    by_path: dict[str, list[dict]] = {}
    for gap in cov["gaps"]:
        assert set(gap) >= {"kind", "detail", "anchor"}
        by_path.setdefault(gap["anchor"]["path"], []).append(gap)
    assert set(by_path) == {"srv/broken.ts", "srv/notes.md"}
    (enc,) = by_path["srv/notes.md"]
    assert enc["kind"] == "encoding"
    assert enc["anchor"]["start_line"] >= 1 and enc["anchor"]["end_line"] >= enc["anchor"]["start_line"]
    parse_gaps = by_path["srv/broken.ts"]
    assert all(g["kind"] == "parse" for g in parse_gaps)
    # The gap is anchored on the broken line, not on the whole file.
    assert any(g["anchor"]["start_line"] <= BROKEN_LINE <= g["anchor"]["end_line"] for g in parse_gaps)
    assert all(g["anchor"]["end_line"] <= BROKEN_TS.count("\n") for g in parse_gaps)
    assert not any(g["anchor"]["start_line"] < BROKEN_LINE - 1 for g in parse_gaps)
    # The file is still registered, and flagged as not UTF-8.
    sources = {s["id"]: s for s in doc["sources"]}
    assert sources["SRC:srv/notes.md"]["utf8"] is False
    assert sources["SRC:srv/broken.ts"]["utf8"] is True
    # The rest of the server is still audited.
    assert any(r["kind"] == "dispatch" and r["tool"] == "record_entry" for r in doc["routes"])
    # Gaps are reported on stderr too, with their anchors (an encoding gap: the lines of the bytes that are not UTF-8).
    assert "srv/broken.ts:" in result.stderr and "srv/notes.md:2-3: encoding" in result.stderr


def test_files_no_analysis_reads_are_no_gap_and_oversized_code_is_one(tmp_path):
    """An image is registered and is no coverage gap; code over kb/method.yaml's max_file_bytes is not read, code
    over its max_syntax_nodes is parsed but not analysed, and each is a gap (the audit is incomplete) instead of
    silently missing (the server imports both: what it runs was not read)."""
    repo = tmp_path / "repo"
    big = "export const table = [\n" + "  1,\n" * 1_700_000 + "];\n"  # 8.5 MB of valid TypeScript
    dense = "export const grid = [" + "1," * 1_100_000 + "];\n"  # 2.2 MB, 2.2 M syntax nodes
    files = ledger_files("srv/")
    files["srv/index.ts"] = 'import { table } from "./table.js";\nimport { grid } from "./grid.js";\n' + files["srv/index.ts"]
    init_repo(repo, {**files, "srv/logo.png": b"\x89PNG\r\n\x1a\n\xff\xfe\x00", "srv/table.ts": big,
                     "srv/grid.ts": dense})
    result = cli("audit", repo, "--subtree", "srv", "--out", tmp_path / "out", "--format", "json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))
    cov = doc["coverage"]
    assert [(g["kind"], g["anchor"]["path"]) for g in cov["gaps"]] == [("size", "srv/grid.ts"), ("size", "srv/table.ts")]
    assert "over the limit of 2,000,000 (kb/method.yaml max_syntax_nodes)" in cov["gaps"][0]["detail"]
    assert "over the read limit of 8,000,000" in cov["gaps"][1]["detail"] and cov["complete"] is False
    files = {f["path"]: f for f in cov["files"]}
    assert files["srv/table.ts"]["status"] == "not analysed" and "max_file_bytes" in files["srv/table.ts"]["reason"]
    assert files["srv/grid.ts"]["status"] == "not analysed" and "max_syntax_nodes" in files["srv/grid.ts"]["reason"]
    assert files["srv/logo.png"]["status"] == "read" and files["srv/logo.png"]["gaps"] == 0
    sources = {s["id"]: s for s in doc["sources"]}
    assert sources["SRC:srv/table.ts"]["bytes"] == len(big) and "omitted" in sources["SRC:srv/table.ts"]
    assert "omitted" not in sources["SRC:srv/logo.png"]


def test_clean_server_is_complete(tmp_path):
    repo = tmp_path / "repo"
    init_repo(repo, ledger_files())
    cov = audit(repo, tmp_path / "out")["coverage"]
    assert cov["gaps"] == [] and cov["complete"] is True
    assert all(t["status"] == "analysed" for t in cov["tools"]) and cov["tools"]
    assert cov["entries"] == ["index.ts"]


def test_two_runs_are_byte_identical(tmp_path):
    """Separate processes with different hash seeds: set or dict ordering must not leak into the output."""
    repo = tmp_path / "repo"
    init_repo(repo, {**ledger_files("srv/"), "srv/broken.ts": BROKEN_TS, "srv/notes.md": NOT_UTF8})
    bodies = []
    for seed in ("1", "2"):
        out = tmp_path / f"out-{seed}"
        result = proc("audit", repo, "--subtree", "srv", "--out", out, "--format", "json", "-q",
                      env={"PYTHONHASHSEED": seed})
        assert result.returncode == 0, result.stderr
        assert result.stderr == ""  # -q
        bodies.append((out / "audit.json").read_bytes())
    assert bodies[0] == bodies[1]
    assert bodies[0].endswith(b"\n")


PREFIX = "// inserted line 1\n\n/* inserted line 3 */\n"


@pytest.fixture(scope="module")
def shifted(tmp_path_factory) -> tuple[dict, dict, int]:
    """The ledger at two revisions: the second inserts 3 comment/blank lines at the top of index.ts."""
    base = tmp_path_factory.mktemp("shift")
    repo = base / "repo"
    files = ledger_files("srv/")
    first = init_repo(repo, files)
    second = commit(repo, {"srv/index.ts": PREFIX + files["srv/index.ts"]}, "three lines on top")
    old = audit(repo, base / "o1", "--revision", first, "--subtree", "srv")
    new = audit(repo, base / "o2", "--revision", second, "--subtree", "srv")
    return old, new, len(files["srv/index.ts"].splitlines())


def test_ids_do_not_depend_on_lines(shifted):
    old, new, _ = shifted
    old_ids = [r["id"] for r in records(old)]
    new_ids = [r["id"] for r in records(new)]
    assert len(old_ids) == len(set(old_ids)), "ids must be unique"
    assert sorted(old_ids) == sorted(new_ids)
    assert len(old_ids) > 30  # the ledger yields components, routes, absences, paths and findings


def test_anchors_in_index_ts_move_down_by_three(shifted):
    old, new, lines = shifted
    new_by_id = {r["id"]: r for r in records(new)}
    moved = 0
    for rec in records(old):
        before, after = anchors_in(rec), anchors_in(new_by_id[rec["id"]])
        assert len(before) == len(after), rec["id"]
        for a, b in zip(before, after):
            assert a["path"] == b["path"], rec["id"]
            if a["path"] != "srv/index.ts":
                assert a == b, rec["id"]
            elif (a["start_line"], a["end_line"]) == (1, lines):
                # The span of the whole file (the source register entry) grows by the 3 lines.
                assert (b["start_line"], b["end_line"]) == (1, lines + 3), rec["id"]
            else:
                assert (b["start_line"], b["end_line"]) == (a["start_line"] + 3, a["end_line"] + 3), rec["id"]
                moved += 1
    assert moved > 30


def test_line_numbers_inside_records_move_too(shifted):
    """Line numbers carried as attributes (predicates, calls, first write) refer to index.ts here."""
    old, new, _ = shifted
    new_by_id = {r["id"]: r for r in records(new)}

    def lines_in(value, key=""):
        if isinstance(value, dict):
            return [x for k, v in value.items() if k not in {"anchors", "anchor"} for x in lines_in(v, k)]
        if isinstance(value, list):
            return [x for v in value for x in lines_in(v, key)]
        return [value] if (key == "line" or key.endswith("_line")) and isinstance(value, int) else []

    seen = 0
    for rec in records(old):
        if not rec["id"].startswith(("RTE:", "FND:")):
            continue
        a, b = lines_in(rec), lines_in(new_by_id[rec["id"]])
        assert [x + 3 for x in a] == b, rec["id"]
        seen += len(a)
    assert seen > 0


def test_coverage_gaps_move_with_their_lines(tmp_path):
    repo = tmp_path / "repo"
    first = init_repo(repo, {"index.ts": BROKEN_TS})
    second = commit(repo, {"index.ts": PREFIX + BROKEN_TS}, "shift")
    g1 = audit(repo, tmp_path / "o1", "--revision", first)["coverage"]["gaps"]
    g2 = audit(repo, tmp_path / "o2", "--revision", second)["coverage"]["gaps"]
    assert g1 and len(g1) == len(g2)
    for a, b in zip(g1, g2):
        assert b["anchor"]["start_line"] == a["anchor"]["start_line"] + 3
        assert b["anchor"]["end_line"] == a["anchor"]["end_line"] + 3


def test_check_detects_drift(tmp_path):
    repo = tmp_path / "repo"
    init_repo(repo, ledger_files())
    out = tmp_path / "out"
    args = ("audit", repo, "--out", out, "--format", "json", "-q")
    assert cli(*args).exit_code == 0
    report = out / "audit.json"
    body = report.read_text(encoding="utf-8")

    clean = cli(*args, "--check")
    assert clean.exit_code == 0, clean.stderr
    assert clean.stderr == ""

    doc = json.loads(body)
    doc["routes"][0]["summary"] += " (edited by hand)"
    edited = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    report.write_text(edited, encoding="utf-8")
    drift = cli(*args, "--check")
    assert drift.exit_code == 1
    assert "audit.json" in drift.stderr and "Traceback" not in drift.stderr
    assert report.read_text(encoding="utf-8") == edited, "--check must not rewrite the report"

    report.write_text(body, encoding="utf-8")
    assert cli(*args, "--check").exit_code == 0


def test_check_into_an_empty_folder_is_drift_and_writes_nothing(tmp_path):
    repo = tmp_path / "repo"
    init_repo(repo, ledger_files())
    out = tmp_path / "never-written"
    result = cli("audit", repo, "--out", out, "--format", "json", "-q", "--check")
    assert result.exit_code == 1
    assert not out.exists() or list(out.iterdir()) == []


def test_a_server_the_extractors_cannot_see_is_never_complete(tmp_path):
    """A server built with another MCP framework (kb/sdk.yaml other_frameworks), and so with no SDK server object:
    zero tools found is not "complete"; both reasons are in the ledger and on stderr."""
    repo = tmp_path / "repo"
    code = ('import { MCPServer } from "mcp-framework";\n'
            'const server = new MCPServer({ name: "quick", version: "1.0.0" });\n'
            'server.start();\n')
    init_repo(repo, {"srv/package.json": '{"name": "quick", "bin": "index.js", "dependencies": {"mcp-framework": "1.0.0"}}',
                     "srv/index.js": code})
    result = proc("audit", repo, "--subtree", "srv", "--out", tmp_path / "out", "--format", "json")
    assert result.returncode == 0, result.stderr
    cov = json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))["coverage"]
    assert cov["complete"] is False and cov["tools"] == [] and cov["gaps"] == []
    whats = [(u["anchor"]["path"], u["anchor"]["start_line"], u["what"].split(",")[0].split(":")[0]) for u in cov["unresolved"]]
    assert whats == [("srv/index.js", 1, "imports mcp-framework"), ("srv/index.js", 1, "no MCP server object is constructed in the code read (kb/sdk.yaml server_classes)")]
    assert "srv/index.js:1: unresolved: imports mcp-framework, an MCP framework" in result.stderr


def test_build_output_beside_its_source_is_registered_not_analysed(tmp_path):
    """A package that ships src/*.ts and their dist/*.js: each tool is found once, in the source."""
    repo = tmp_path / "repo"
    server = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
              'const server = new McpServer({ name: "twin", version: "1" });\n'
              'server.registerTool("ping", { description: "Ping" }, async () => ({ content: [] }));\n')
    init_repo(repo, {"package.json": '{"name": "twin", "bin": "dist/index.js"}', "src/index.ts": server,
                     "dist/index.js": server, "dist/extra.js": "export const x = 1;\n"})
    doc = audit(repo, tmp_path / "out")
    cov = doc["coverage"]
    assert [(t["name"], t["file"]) for t in cov["tools"]] == [("ping", "src/index.ts")]
    assert cov["entries"] == ["src/index.ts"]
    files = {f["path"]: f for f in cov["files"]}
    assert files["dist/index.js"]["status"] == "read" and "build output of src/index.ts" in files["dist/index.js"]["reason"]
    assert files["dist/extra.js"]["status"] == "not reached, holds no server code"  # no source beside it: code like any other
    sources = {s["id"]: s for s in doc["sources"]}
    assert sources["SRC:dist/index.js"]["compiled_from"] == "src/index.ts" and "compiled_from" not in sources["SRC:src/index.ts"]
