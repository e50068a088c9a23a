"""Monorepo mode: every TS/JS server of a repository audited into its own folder, with index.md and index.json."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote

import pytest
from markdown_it import MarkdownIt
from markdown_it.rules_block.table import escapedSplit

from auditor import monorepo
from auditor.target import pin_git
from contract_helpers import cli, fail_audit_of, init_repo, proc

SDK = {"@modelcontextprotocol/sdk": "1.0.0"}

ALPHA = r'''import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const GREET_TOOL = {
  name: "greet",
  description: "Returns a greeting for the given name.",
  inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
};

const server = new Server({ name: "alpha", version: "1.0.0" }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [GREET_TOOL] }));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === "greet") {
    const args = request.params.arguments as { name: string };
    return { content: [{ type: "text", text: `Hello, ${args.name}` }] };
  }
  throw new Error(`Unknown tool: ${request.params.name}`);
});

async function main() {
  await server.connect(new StdioServerTransport());
  console.error("alpha running on stdio");
}

main().catch(() => process.exit(1));
'''

BETA = r'''import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

class Jar {
  private notes: string[] = [];

  add(note: string) {
    this.notes.push(note);
    return { count: this.notes.length };
  }
}

const ADD_TOOL = {
  name: "add_note",
  description: "Stores a note in the jar.",
  inputSchema: { type: "object", properties: { note: { type: "string" } }, required: ["note"] },
};

const COUNT_TOOL = {
  name: "count_notes",
  description: "Counts the stored notes.",
  inputSchema: { type: "object", properties: {} },
};

const jar = new Jar();
const server = new Server({ name: "beta", version: "1.0.0" }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [ADD_TOOL, COUNT_TOOL] }));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === "add_note") {
    const args = request.params.arguments as { note: string };
    return { content: [{ type: "text", text: JSON.stringify(jar.add(args.note)) }] };
  }
  if (request.params.name === "count_notes") {
    return { content: [{ type: "text", text: "counted" }] };
  }
  throw new Error(`Unknown tool: ${request.params.name}`);
});

async function main() {
  await server.connect(new StdioServerTransport());
}

main().catch(() => process.exit(1));
'''


def _manifest(name: str, deps: dict | None = None, **extra) -> str:
    return json.dumps({"name": name, "version": "1.0.0", "type": "module", **({"dependencies": deps} if deps else {}),
                       **extra}, indent=2) + "\n"


def _server(prefix: str, name: str, source: str) -> dict[str, str]:
    return {f"{prefix}/package.json": _manifest(name, SDK), f"{prefix}/index.ts": source,
            f"{prefix}/README.md": f"# {name}\n\nA tiny server written for the tests.\n"}


MONO = {
    "package.json": _manifest("mono", private=True, workspaces=["servers/*"]),
    "README.md": "# mono\n",
    **_server("servers/alpha", "alpha-server", ALPHA),
    **_server("servers/beta", "beta-server", BETA),
    "servers/pytool/pyproject.toml": "[project]\nname = \"pytool\"\nversion = \"0.1.0\"\n",
    "servers/shared/package.json": _manifest("shared", {"left-pad": "1.3.0"}),
    "servers/shared/util.ts": "export const two = 2;\n",
}
REPORTS = {"audit.json", "evidence-packet.md", "runtime-baseline.md", "epistemic-ledger.md"}


@pytest.fixture(scope="module")
def mono(tmp_path_factory) -> tuple[Path, str]:
    repo = tmp_path_factory.mktemp("mono") / "repo"
    return repo, init_repo(repo, MONO)


@pytest.fixture(scope="module")
def out(mono, tmp_path_factory) -> tuple[Path, str]:
    repo, _ = mono
    dest = tmp_path_factory.mktemp("out") / "out"
    result = cli("audit", repo, "--out", dest)
    assert result.exit_code == 0, (result.stderr, result.exception)
    return dest, result.stderr


def _tables(text: str):
    lines = text.splitlines()
    for tok in MarkdownIt("commonmark").enable("table").parse(text):
        if tok.type == "table_open":
            start, end = tok.map
            yield lines[start], lines[start + 2:end]


def test_each_server_is_audited_into_its_own_folder(out):
    dest, _ = out
    assert sorted(p.name for p in dest.iterdir()) == [".auditor-manifest.json", "alpha", "beta", "index.json", "index.md"]
    for name in ("alpha", "beta"):
        assert {p.name for p in (dest / name).iterdir()} == REPORTS
        doc = json.loads((dest / name / "audit.json").read_text(encoding="utf-8"))
        assert doc["target"]["subtree"] == f"servers/{name}"
        assert all(a["path"].startswith(f"servers/{name}/") or a["path"] == "package.json"
                   for r in doc["sources"] for a in r["anchors"])


def test_server_folders_equal_a_single_subtree_audit(mono, out, tmp_path):
    repo, _ = mono
    dest, _ = out
    for name in ("alpha", "beta"):
        single = tmp_path / name
        result = cli("audit", repo, "--subtree", f"servers/{name}", "--out", single, "-q")
        assert result.exit_code == 0, result.stderr
        for report in REPORTS:
            assert (dest / name / report).read_bytes() == (single / report).read_bytes(), f"{name}/{report}"


def test_index_json(mono, out):
    repo, head = mono
    dest, _ = out
    index = json.loads((dest / "index.json").read_text(encoding="utf-8"))
    assert index["schema"] == "auditor.index/1"
    assert index["target"] == {"kind": "git", "locator": str(repo), "requested": "HEAD", "commit": head,
                               "commit_date": "2024-01-02T03:04:05+00:00", "worktree_clean": True}
    assert [s["subtree"] for s in index["servers"]] == ["servers/alpha", "servers/beta"]
    for s in index["servers"]:
        doc = json.loads((dest / s["name"] / "audit.json").read_text(encoding="utf-8"))
        assert s["folder"] == s["name"] + "/"
        assert s["package"] == f"{s['name']}-server"
        assert s["files"] == doc["target"]["files"] == 3
        assert s["routes"] == len(doc["routes"])
        assert s["tools"] == len({o["tool"] for o in doc["objects"] if o["kind"] == "tool-schema"})
        assert s["claims"] == {} and doc["claims"] == []
        assert s["coverage"] == {"complete": doc["coverage"]["complete"], "gaps": len(doc["coverage"]["gaps"])}
        assert sorted(s["reports"]) == sorted(f"{s['name']}/{r}" for r in REPORTS)
        assert all((dest / r).is_file() for r in s["reports"])
    assert {s["name"]: s["tools"] for s in index["servers"]} == {"alpha": 1, "beta": 2}
    skipped = {k["subtree"]: k["reason"] for k in index["skipped"]}
    assert set(skipped) == {"servers/pytool", "servers/shared"}
    assert "Python" in skipped["servers/pytool"] and "pyproject.toml" in skipped["servers/pytool"]
    assert "names no MCP SDK package" in skipped["servers/shared"]


def test_index_md_is_well_formed_and_links_to_each_folder(out):
    dest, _ = out
    text = (dest / "index.md").read_text(encoding="utf-8")
    tables = list(_tables(text))
    assert len(tables) == 3  # identity, servers, skipped
    for header, rows in tables:
        width = len(escapedSplit(header))
        assert rows
        for row in rows:
            assert len(escapedSplit(row)) == width, f"row has a different cell count than its header:\n{header}\n{row}"
    servers = next(rows for header, rows in tables if header.startswith("| Server |"))
    assert len(servers) == 2 and "`servers/alpha`" in servers[0] and "`servers/beta`" in servers[1]
    skipped = next(rows for header, rows in tables if header.startswith("| Folder |"))
    assert "`servers/pytool`" in skipped[0] and "pyproject.toml" in skipped[0]
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    links = [c.attrs["href"] for t in tokens if t.children for c in t.children if c.type == "link_open"]
    assert links == ["alpha/", "beta/"]
    assert all((dest / unquote(h)).is_dir() for h in links)


def test_progress_per_server_on_stderr_and_none_with_quiet(mono, out, tmp_path):
    _, stderr = out
    # One line per finished server, numbered as they finish (the order depends on the workers).
    done = [ln for ln in stderr.splitlines() if ln.startswith("auditor: [")]
    assert [ln.split("]")[0] for ln in done] == ["auditor: [1/2", "auditor: [2/2"]
    assert sorted(ln.split()[2] for ln in done) == ["servers/alpha:", "servers/beta:"]
    assert "skipped servers/pytool: Python project" in stderr
    repo, _ = mono
    result = cli("audit", repo, "--out", tmp_path / "q", "-q")
    assert result.exit_code == 0 and result.stderr == ""


def test_deterministic_across_runs_and_hash_seeds(mono, out, tmp_path):
    repo, _ = mono
    dest, _ = out
    for seed in ("1", "2"):
        other = tmp_path / f"seed{seed}"
        result = proc("audit", repo, "--out", other, "-q", env={"PYTHONHASHSEED": seed})
        assert result.returncode == 0, result.stderr
        mine = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
        theirs = sorted(p.relative_to(other).as_posix() for p in other.rglob("*") if p.is_file())
        assert mine == theirs
        for rel in mine:
            assert (dest / rel).read_bytes() == (other / rel).read_bytes(), rel


def test_check_finds_drift_in_any_file_and_stale_folders(mono, tmp_path):
    repo, _ = mono
    dest = tmp_path / "out"
    empty = cli("audit", repo, "--out", dest, "--check", "-q")
    assert empty.exit_code == 1 and not dest.exists()
    assert cli("audit", repo, "--out", dest, "-q").exit_code == 0
    assert cli("audit", repo, "--out", dest, "--check", "-q").exit_code == 0
    for rel in ("index.md", "index.json", "beta/runtime-baseline.md"):
        body = (dest / rel).read_bytes()
        (dest / rel).write_bytes(body + b"\n")
        result = cli("audit", repo, "--out", dest, "--check", "-q")
        assert result.exit_code == 1 and f"drift: {dest / rel} differs" in result.stderr
        (dest / rel).write_bytes(body)
    (dest / "gone").mkdir()
    (dest / "gone" / "audit.json").write_text("{}\n", encoding="utf-8")
    result = cli("audit", repo, "--out", dest, "--check", "-q")
    assert result.exit_code == 1 and f"drift: {dest / 'gone'}" in result.stderr
    (dest / "notes").mkdir()  # a folder without reports is not ours
    (dest / "gone" / "audit.json").unlink()
    assert cli("audit", repo, "--out", dest, "--check", "-q").exit_code == 0


def test_format_json_writes_only_json(mono, tmp_path):
    repo, _ = mono
    dest = tmp_path / "out"
    assert cli("audit", repo, "--out", dest, "--format", "json", "-q").exit_code == 0
    assert sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*")) == [
        ".auditor-manifest.json", "alpha", "alpha/audit.json", "beta", "beta/audit.json", "index.json"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_failing_server_is_named_and_the_others_are_written(mono, tmp_path, monkeypatch, jobs):
    """One bad server does not abort the others (issue 10, item 7): it is reported by name, with the reason, on
    stderr (even with -q) and in the index; the run exits 4."""
    fail_audit_of(monkeypatch, "servers/beta")
    repo, _ = mono
    out = tmp_path / "out"
    result = cli("audit", repo, "--out", out, "-q", "--jobs", jobs)
    assert result.exit_code == 4, result.stderr
    assert "auditor: error: servers/beta: audit failed (RuntimeError: simulated bug)" in result.stderr
    assert (out / "alpha" / "audit.json").is_file() and not (out / "beta").exists()
    index = json.loads((out / "index.json").read_text(encoding="utf-8"))
    assert [s["name"] for s in index["servers"]] == ["alpha"]
    assert index["failed"] == [{"name": "beta", "subtree": "servers/beta", "reason": "RuntimeError: simulated bug"}]
    md = (out / "index.md").read_text(encoding="utf-8")
    assert "## Failed audits" in md and "simulated bug" in md


def test_a_repository_that_is_one_server_keeps_the_single_audit(tmp_path):
    repo = tmp_path / "repo"
    # A server at the root, with another server folder inside: still one audit of the whole repository.
    init_repo(repo, {"package.json": _manifest("root-server", SDK), "index.ts": ALPHA,
                     **_server("examples/beta", "beta-server", BETA)})
    result = cli("audit", repo, "--out", tmp_path / "out", "-q")
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(REPORTS | {".auditor-manifest.json"})
    doc = json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))
    assert doc["target"]["subtree"] == "" and doc["target"]["files"] == 5


def test_subtree_keeps_the_single_audit(mono, tmp_path):
    repo, _ = mono
    result = cli("audit", repo, "--subtree", "servers", "--out", tmp_path / "out", "--format", "json", "-q")
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [".auditor-manifest.json", "audit.json"]


def test_hostile_folder_names_stay_in_their_cells_and_links(tmp_path):
    repo = tmp_path / "repo"
    weird = "we|rd `x` <b>[a](b)"
    init_repo(repo, {**_server(f"pkgs/{weird}", "evil|pkg <i>", ALPHA), **_server("pkgs/beta", "beta-server", BETA)})
    dest = tmp_path / "out"
    result = cli("audit", repo, "--out", dest, "-q")
    assert result.exit_code == 0, result.stderr
    folder = "we-rd-x-b-a-b"  # made a safe folder name: the links and cells still show the real path
    assert (dest / folder / "audit.json").is_file()
    text = (dest / "index.md").read_text(encoding="utf-8")
    for header, rows in _tables(text):
        for row in rows:
            assert len(escapedSplit(row)) == len(escapedSplit(header)), row
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    inline = [c for t in tokens if t.children for c in t.children]
    assert not [c for c in inline if c.type == "html_inline"] and not [t for t in tokens if t.type == "html_block"]
    links = [c.attrs["href"] for c in inline if c.type == "link_open"]
    assert sorted(unquote(h) for h in links) == sorted(["beta/", folder + "/"])
    shown = " ".join(c.content for c in inline if c.type in {"text", "code_inline"})
    assert "evil|pkg <i>" in shown


def _pin(tmp_path: Path, files: dict[str, str]):
    repo = tmp_path / "repo"
    init_repo(repo, files)
    return pin_git(str(repo), "HEAD")


def test_discovery_names_nesting_and_reasons(tmp_path):
    pin = _pin(tmp_path, {
        **_server("a/x", "a-x", ALPHA), **_server("b/x", "b-x", ALPHA), **_server("index.md", "odd", ALPHA),
        **_server("c", "c", ALPHA), **_server("c/examples/inner", "inner", BETA),
        "d/package.json": json.dumps({"name": "d", "devDependencies": SDK}), "d/index.ts": "export {};\n",
        "e/package.json": _manifest("e", SDK), "e/README.md": "# no code\n",
        "f/package.json": "{not json", "g/go.mod": "module g\n",
        "node_modules/h/package.json": _manifest("h", SDK), "node_modules/h/index.js": "module.exports = 1;\n",
    })
    root, servers, skipped = monorepo.discover(pin, ["@modelcontextprotocol/sdk"], {"go.mod": "Go"})
    assert root is False
    assert [(s.subtree, s.name) for s in servers] == [("a/x", "a-x"), ("b/x", "b-x"), ("c", "c"),
                                                      ("index.md", "index.md-2")]
    reasons = {k.subtree: k.reason for k in skipped}
    assert set(reasons) == {"d", "e", "f", "g"}
    assert "only in devDependencies" in reasons["d"]
    assert "no TypeScript or JavaScript file" in reasons["e"]
    assert "not valid JSON" in reasons["f"]
    assert reasons["g"].startswith("Go project (go.mod)")


def test_no_nested_server_means_a_single_audit(tmp_path):
    pin = _pin(tmp_path, {"index.ts": ALPHA, "py/pyproject.toml": "[project]\nname = \"p\"\n"})
    assert monorepo.plan(pin, ["@modelcontextprotocol/sdk"]) is None
