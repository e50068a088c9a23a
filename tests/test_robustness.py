"""Inputs that are odd but legal must give an audit with coverage gaps, never a traceback."""

from __future__ import annotations

import io
import json
import os
import tarfile

from auditor.target import _read_tarball
from contract_helpers import commit, git, init_repo, ledger_files, proc


def test_file_name_that_is_not_utf8(tmp_path):
    repo = tmp_path / "repo"
    init_repo(repo, ledger_files("srv/"))
    for rel in (b"srv/caf\xe9.md", b"outside-\xff.txt"):
        with open(os.path.join(os.fsencode(repo), rel), "wb") as fh:
            fh.write(b"# notes\n")
    commit(repo, {}, "names in latin-1")
    out = tmp_path / "out"
    result = proc("audit", repo, "--subtree", "srv", "--out", out, "--format", "json", "-q")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    doc = json.loads((out / "audit.json").read_bytes().decode("utf-8"))
    names = [s["id"] for s in doc["sources"] if s["kind"] == "file"]
    assert "SRC:srv/caf\\xe9.md" in names  # escaped, readable, still registered
    assert any(r["kind"] == "dispatch" for r in doc["routes"])


def test_npm_tarball_member_name_that_is_not_utf8():
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", format=tarfile.GNU_FORMAT) as tar:
        for name, body in ((b"package/index.js", b"export const a = 1;\n"), (b"package/caf\xe9.md", b"# x\n")):
            info = tarfile.TarInfo(name.decode("utf-8", "surrogateescape"))
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    files, _ = _read_tarball(buf.getvalue(), "demo@1.0.0")
    paths = [f.path for f in files]
    assert paths == ["caf\\xe9.md", "index.js"]
    for p in paths:
        p.encode("utf-8")  # every path can be written into a report


def _audit_with_manifest(tmp_path, manifest: str) -> dict:
    repo = tmp_path / "repo"
    files = ledger_files("srv/")
    files["srv/package.json"] = manifest
    init_repo(repo, files)
    out = tmp_path / "out"
    result = proc("audit", repo, "--subtree", "srv", "--out", out, "--format", "json", "-q")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return json.loads((out / "audit.json").read_text(encoding="utf-8"))


def test_manifest_fields_of_unexpected_types_are_gaps(tmp_path):
    manifest = """{
  "name": 7,
  "version": "1.0.0",
  "bin": 5,
  "scripts": "tsc",
  "files": {"dist": true},
  "dependencies": ["zod"]
}
"""
    doc = _audit_with_manifest(tmp_path, manifest)
    cov = doc["coverage"]
    assert cov["complete"] is False
    gaps = {g["detail"].split("'")[1]: g for g in cov["gaps"] if g["kind"] == "manifest"}
    assert set(gaps) == {"name", "bin", "scripts", "files", "dependencies"}
    lines = manifest.splitlines()
    for key, gap in gaps.items():
        assert gap["anchor"]["path"] == "srv/package.json"
        assert lines[gap["anchor"]["start_line"] - 1].lstrip().startswith(f'"{key}"'), gap


def test_manifest_that_is_not_json_is_a_gap(tmp_path):
    doc = _audit_with_manifest(tmp_path, '{ "name": "ledger", "version": \n')
    gaps = [g for g in doc["coverage"]["gaps"] if g["anchor"]["path"] == "srv/package.json"]
    assert [g["kind"] for g in gaps] == ["parse"]
    assert doc["coverage"]["complete"] is False


def test_empty_and_bom_scripts(tmp_path):
    repo = tmp_path / "repo"
    init_repo(repo, {**ledger_files(), "empty.ts": "", "bom.ts": "\ufeffexport const a = 1;\n"})
    result = proc("audit", repo, "--out", tmp_path / "out", "--format", "json", "-q")
    assert result.returncode == 0, result.stderr
    git(repo, "status")  # the repository is still a working repository


def test_minified_code_gives_the_same_reports_under_any_string_hash_seed(tmp_path):
    """A minified file puts many sites on one line: their order must not follow Python's string hashing."""
    fns = "".join(f"function {n}(k){{return store.get(k)}}" for n in "abcdefgh")
    files = {"srv/package.json": '{"name": "mini", "dependencies": {"@modelcontextprotocol/sdk": "1.0.0"}}',
             "srv/index.js": f"const store=new Map();function put(k,v){{store.set(k,v)}}{fns}export{{put,{','.join('abcdefgh')},store}};\n"}
    init_repo(tmp_path / "repo", files)
    runs = []
    for seed in ("0", "1", "2", "3"):
        out = tmp_path / f"out{seed}"
        result = proc("audit", tmp_path / "repo", "--subtree", "srv", "--out", out, "-q", env={"PYTHONHASHSEED": seed})
        assert result.returncode == 0, result.stderr
        runs.append({p.name: p.read_bytes() for p in sorted(out.iterdir())})
    doc = json.loads(runs[0]["audit.json"])
    reads = [a["function"] for o in doc["objects"] for a in o.get("accesses", []) if a["kind"] == "content-read"]
    assert set("abcdefgh") <= set(reads)  # eight sites on one line, tied on line, kind and how
    assert all(r == runs[0] for r in runs[1:])


def test_gap_messages_are_one_line_and_name_what_they_quote(tmp_path):
    """A gap quoting multi-line code quotes it on one line; a registration whose name is not a literal is named by
    its code, never by a Python `None`."""
    server = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
              'const server = new McpServer({ name: "s", version: "1" });\n'
              'server.tool(pick(\n  "a",\n  "b"), "what it does", {}, handlers[\n  0]);\n')
    files = {"srv/package.json": '{"name": "s", "dependencies": {"@modelcontextprotocol/sdk": "1.0.0"}}',
             "srv/index.ts": server}
    init_repo(tmp_path / "repo", files)
    out = tmp_path / "out"
    result = proc("audit", tmp_path / "repo", "--subtree", "srv", "--out", out, "--format", "json")
    assert result.returncode == 0, result.stderr
    gaps = json.loads((out / "audit.json").read_text(encoding="utf-8"))["coverage"]["gaps"]
    details = [g["detail"] for g in gaps]
    assert any('`pick( "a", "b")`' in d for d in details), details
    assert any(d.startswith('tool(pick( "a", "b")): callback `handlers[ 0]`') for d in details), details
    assert not any("\n" in d or "None" in d for d in details)
    shown = [ln for ln in result.stderr.splitlines() if ln.startswith("auditor: coverage gap:")]
    assert len(shown) == len(gaps)


def test_npm_tarball_member_over_the_limit_is_not_read(tmp_path):
    """The limit applies while streaming, by the member's tar header: 50 MB of zeros (50 KB compressed) costs
    no 50 MB of memory, and the file is registered with its declared size."""
    import tracemalloc

    buf = io.BytesIO()
    big = 50 * 1024 * 1024
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, size in (("package/index.js", 20), ("package/huge.js", big)):
            info = tarfile.TarInfo(name)
            info.size = size
            tar.addfile(info, io.BytesIO(b"export const a = 1;\n" if size == 20 else bytes(size)))
    tracemalloc.start()
    files, _ = _read_tarball(buf.getvalue(), "demo@1.0.0", max_bytes=2_000_000)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    huge = next(f for f in files if f.path == "huge.js")
    assert huge.data == b"" and huge.bytes == big
    assert peak < 10 * 1024 * 1024, peak


def test_a_shipped_test_whose_objects_hold_member_reads_of_other_objects_is_read():
    # `{ inputKeys: Object.keys(tool.schema.shape) }` in a test block: a value read with no constants to hand
    from auditor import kb
    from auditor.extract import tests
    from program_helpers import SDK, program
    server = SDK + 'const server = new Server({ name: "t", version: "1" }, { capabilities: { tools: {} } });\n'
    test = ('import { describe, it } from "node:test";\nimport { tool } from "../index.js";\n'
            'describe("catalog", () => { it("lists", () => {\n'
            '  const row = { name: "x", inputKeys: Object.keys(tool.schema.shape), size: tool.schema.shape.q };\n'
            '}); });\n')
    p = program({"index.js": server, "test/catalog.test.js": test})
    cases = tests.read(p, kb.load(kb.default_kb_dir(), "tests"), "")
    assert [(c.title, c.inputs) for c in cases] == [("catalog > lists", ((4, {"name": "x"}),))]


def test_values_made_of_each_other_end_the_search_instead_of_recursing():
    """`const a = b.get(); const b = a.get();` and a callback `a.get().run`: what a call returns is read through
    what its callee stands for, which is again a call; each round goes one level deeper, so the search ends (before,
    a round began again at depth 0 and the audit died of a RecursionError, as a minified bundle can write)."""
    import sys

    from program_helpers import MCP, program

    code = MCP + 'const a = b.get();\nconst b = a.get();\nserver.tool("x", "d", {}, a.get().run);\n'
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(2000)  # (the default limit of the audit's own process would do; a low one fails fast)
    try:
        assert [t.name for t in program({"index.js": code}).tools] == ["x"]
    finally:
        sys.setrecursionlimit(limit)


def test_a_member_of_a_class_expression_read_by_its_own_name_is_no_crash():
    """`var Ke = class e { ... }`: the class's own name `e` is bound inside its body only; a static member read by
    it is not known (before, reading it crashed with a TypeError, and a minified web bundle took the audit down)."""
    from auditor.extract.values import Values
    from program_helpers import MCP, program

    code = MCP + 'import { e } from "./util.js";\nvar Ke = class e { static make() { return e.from(1); } };\n'
    p = program({"index.js": code, "util.js": "export const e = 1;\n"})  # (a minifier reuses `e` at the top too)
    (m,) = [m for m in p.modules if m.path == "index.js"]
    assert Values(p.linker)._static(m, "e", "from") == (None, m)
