"""Tool annotations checked against what each tool reaches (analyse/annotations.py), from in-memory sources."""

from __future__ import annotations

from dataclasses import replace

import pytest

from auditor import kb
from auditor.analyse import annotations, effect_routes, effects
from auditor.extract.components import components
from auditor.extract.routes import routes
from auditor.model import Anchor
from program_helpers import KB, SDK, effects_kb, program

RULES = kb.load(KB, "annotations")

SERVER = SDK + """\
import { promises as fs } from "fs";
class Journal {
  entries: string[] = [];
  add(text: string) { this.entries.push(text); }
}
const TOOLS = [
  { name: "peek", inputSchema: { type: "object" }, annotations: { readOnlyHint: true, openWorldHint: false } },
  { name: "note", inputSchema: { type: "object" },
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false } },
  { name: "wipe", inputSchema: { type: "object" }, annotations: { destructiveHint: false, readOnlyHint: false } },
  { name: "ghost", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "stamp", inputSchema: { type: "object" }, annotations: { idempotentHint: true } },
];
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
function main() {
  const journal = new Journal();
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    if (request.params.name === "peek") {
      return { content: [{ type: "text", text: await fs.readFile("/tmp/x", "utf8") }] };
    } else if (request.params.name === "note") {
      journal.add(String(request.params.arguments?.text));
      return { content: [{ type: "text", text: "ok" }] };
    } else if (request.params.name === "wipe") {
      await fs.rm(String(request.params.arguments?.path));
      return { content: [{ type: "text", text: "gone" }] };
    } else if (request.params.name === "stamp") {
      await fs.appendFile(String(request.params.arguments?.log), "stamp");
      return { content: [{ type: "text", text: "stamped" }] };
    }
    throw new Error("unknown tool");
  });
  server.connect(new StdioServerTransport());
}
main();
"""


@pytest.fixture(scope="module")
def audit():
    p = program({"index.ts": SERVER})
    fx = effects.scan(p, effects_kb())
    rtes = routes(p) + effect_routes.routes(p, fx, components(p))
    return p, {c.id: c for c in annotations.claims(p, fx, rtes, RULES, effects_kb())}


def test_each_hint_is_a_claim_with_a_verdict(audit):
    _, got = audit
    verdicts = {k.split(":", 1)[1]: c.attrs["verdict"] for k, c in got.items()}
    assert verdicts == {
        "annotation-readOnlyHint@tool:peek": "supported",
        "annotation-openWorldHint@tool:peek": "supported",
        # the branch of `note` only: the fs.rm of the `wipe` branch is not reached from it
        "annotation-readOnlyHint@tool:note": "contradicted",
        "annotation-idempotentHint@tool:note": "contradicted",
        "annotation-destructiveHint@tool:note": "supported",
        "annotation-destructiveHint@tool:wipe": "contradicted",
        "annotation-readOnlyHint@tool:wipe": "supported",
        "annotation-readOnlyHint@tool:ghost": "unsupported",  # listed, never dispatched
        "annotation-idempotentHint@tool:stamp": "contradicted",  # the dispatch `if` is not a branch of the tool
    }


def test_the_instance_made_inside_a_function_is_followed(audit):
    _, got = audit
    note = got["CLM:annotation-idempotentHint@tool:note"]
    # `journal`, a local of main() holding `new Journal()`, is read by data flow (extract/instance_of.py): Journal.add
    # is traced, and its write of the container is the route cited
    assert note.attrs["routes"][0] == "RTE:state-write:index#Journal.entries@add"
    assert "every call of 'note' adds again" in note.attrs["mismatch"]
    assert note.attrs["meaningful"] is False and "meaningful only when readOnlyHint is false" in note.attrs["note"]


def test_anchor_is_the_hint_in_the_annotations_literal(audit):
    _, got = audit
    (a,) = got["CLM:annotation-destructiveHint@tool:wipe"].anchors
    assert a.path == "index.ts" and SERVER.splitlines()[a.start_line - 1].lstrip().startswith('{ name: "wipe"')


def test_hints_fall_back_to_the_descriptor_literal(audit):
    p, _ = audit
    t = next(t for t in p.tools if t.name == "peek")
    values, node = annotations.hints(replace(t, annotations={}, annotations_node=None), p.vocab)
    assert values == {"readOnlyHint": True, "openWorldHint": False} and node is not None


def _item(cls: str, kind: str = "effect-fs-write", conditional: bool = False, world=None) -> annotations.Reached:
    return annotations.Reached(kind=kind, cls=cls, conditional=conditional, world=world,
                               anchor=Anchor(path="a.ts", start_line=3, end_line=3), what="x", route="RTE:x")


@pytest.mark.parametrize("hint,value,items,verdict,conservative", [
    ("readOnlyHint", False, [_item("read", "effect-fs-read")], "supported", True),
    ("readOnlyHint", True, [_item("unknown", "effect-network", world="open")], "unsupported", False),
    ("readOnlyHint", True, [_item("call", "dependency")], "out-of-boundary", False),
    ("destructiveHint", True, [_item("append")], "supported", True),
    ("destructiveHint", False, [_item("overwrite")], "unsupported", False),
    ("idempotentHint", True, [_item("append", conditional=True)], "unsupported", False),
    ("idempotentHint", True, [_item("append")], "contradicted", False),
    ("openWorldHint", True, [_item("read", "effect-fs-read")], "supported", True),
    ("openWorldHint", False, [_item("read", "effect-network", world="closed")], "supported", False),
    ("openWorldHint", False, [_item("execute", "effect-subprocess")], "unsupported", False),
    ("openWorldHint", False, [_item("launch", "effect-browser", world="open")], "contradicted", False),
])
def test_rules_of_the_kb(hint, value, items, verdict, conservative):
    rule, _ = annotations.decide(hint, value, items, True, RULES, "t")
    assert (rule["verdict"], bool(rule.get("conservative"))) == (verdict, conservative)


OWN = SDK + """\
import { execFileSync, execSync } from "child_process";
import { promises as fs } from "fs";
const CONFIG = "/home/u/.srv/config.json";
const clients = new Map();
let initialized = false;
function client(key: string) {
  const cached = clients.get(key);
  if (cached) return cached;
  const made = { key };
  clients.set(key, made);
  return made;
}
async function track(tool: string) {
  await fs.writeFile(CONFIG, JSON.stringify({ last: tool }));
}
async function setup() {
  if (initialized) return;
  await fs.mkdir("/home/u/.srv", { recursive: true });
  initialized = true;
}
function run(file: string, args: string[]) {
  return execFileSync(file, args);
}
const TOOLS = [
  { name: "get", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "set", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "look", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "probe", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "count", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "save", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
];
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args: any = request.params.arguments;
  switch (request.params.name) {
    case "get": { await track("get"); await setup(); const kind = ["pods"][0]; return { content: [{ type: "text", text: String(run("kubectl", ["get", kind])) }] }; }
    case "set": { await track("set"); return { content: [{ type: "text", text: String(run("kubectl", ["config", "use-context", args.name])) }] }; }
    case "look": { await track("look"); return { content: [{ type: "text", text: String(execSync(args.command)) }] }; }
    case "probe": { await track("probe"); return { content: [{ type: "text", text: String(execSync("git --version")) }] }; }
    case "count": { return { content: [{ type: "text", text: String(client(args.key)) }] }; }
    case "save": { await fs.writeFile(args.path, "x"); return { content: [{ type: "text", text: "saved" }] }; }
  }
  throw new Error("unknown tool");
});
"""


def _claims(code: str) -> list:
    """The annotation claims of a server of one file."""
    p = program({"index.ts": code})
    fx = effects.scan(p, effects_kb())
    rtes = routes(p) + effect_routes.routes(p, fx, components(p))
    return annotations.claims(p, fx, rtes, RULES, effects_kb())


def _hint_claims(code: str, hint: str) -> dict:
    """Tool -> its HINT claim, for a server of one file."""
    return {c.attrs["tool"]: c for c in _claims(code) if c.attrs["hint"] == hint}


def _read_only_claims(code: str) -> dict:
    return _hint_claims(code, "readOnlyHint")


def test_own_effects_decide_and_bookkeeping_setup_caches_and_read_only_commands_do_not():
    """issue 9: contradicted only when the tool's own code certainly modifies its environment."""
    got = _read_only_claims(OWN)
    assert {t: c.attrs["verdict"] for t, c in got.items()} == {
        "get": "supported",  # kubectl get through a wrapper; the config write of 4 of 6 tools; a mkdir on first use
        "set": "contradicted",  # kubectl config use-context writes the kubeconfig
        "look": "unsupported",  # a command from the arguments: it may write
        "probe": "supported",  # git --version
        "count": "supported",  # a map that only caches what it looks up
        "save": "contradicted",  # a path from the arguments
    }
    assert "bookkeeping, reached from 4 of its 6 tools" in got["get"].attrs["note"]
    assert "setup on first use" in got["get"].attrs["note"] and "mkdir" in got["get"].attrs["note"]
    assert "kubectl config use-context" in got["set"].attrs["mismatch"] and "writeFile" not in got["set"].attrs["mismatch"]
    assert any(r.get("bookkeeping") for r in got["set"].attrs["reached"])
    assert [r["class"] for r in got["count"].attrs["reached"] if r["kind"] == "state-write"] == ["cache"]


ONCE = SDK + """\
import fs from "fs";
const STATE = "/home/u/.srv/state.json";
function getState() {
  const exists = fs.existsSync(STATE);
  if (!exists) {
    fs.writeFileSync(STATE, "{}");
    return {};
  }
  return JSON.parse(fs.readFileSync(STATE, "utf-8"));
}
function mark(path: string) {
  if (!fs.existsSync(STATE)) {
    fs.writeFileSync(path, "x");
  }
}
const TOOLS = [
  { name: "balance", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "other", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
];
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  switch (request.params.name) {
    case "balance": return { content: [{ type: "text", text: JSON.stringify(getState()) }] };
    case "other": { mark(String(request.params.arguments?.path)); return { content: [] }; }
  }
  throw new Error("unknown tool");
});
"""


def test_a_file_written_only_while_it_does_not_exist_is_setup_on_first_use():
    # `const exists = fs.existsSync(STATE); if (!exists) fs.writeFileSync(STATE, "{}")`: created once, then only read;
    # a write of another path under the same test is no such creation
    got = _read_only_claims(ONCE)
    assert {t: c.attrs["verdict"] for t, c in got.items()} == {"balance": "supported", "other": "contradicted"}
    assert "setup on first use" in got["balance"].attrs["note"]


WEB = SDK + """\
const API = "https://api.vendor.example";
const TOOLS = [
  { name: "search", inputSchema: { type: "object" }, annotations: { readOnlyHint: true, openWorldHint: false } },
  { name: "visit", inputSchema: { type: "object" }, annotations: { openWorldHint: false } },
];
async function post(path: string, body: unknown) {
  return fetch(`${API}/v1${path}`, { method: "POST", body: JSON.stringify(body) });
}
async function open(url: string) {
  return fetch(url);
}
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments as { q: string; url: string };
  if (request.params.name === "search") {
    return { content: [{ type: "text", text: await (await post("/search", { q: args.q })).text() }] };
  }
  if (request.params.name === "visit") {
    return { content: [{ type: "text", text: await (await open(args.url)).text() }] };
  }
  throw new Error("unknown tool");
});
"""


def test_a_post_is_no_certain_write_and_a_fixed_host_no_certain_open_world():
    got = {c.id.split(":", 1)[1]: c.attrs["verdict"] for c in _claims(WEB)}
    assert got == {
        "annotation-readOnlyHint@tool:search": "unsupported",  # a POST may or may not modify
        "annotation-openWorldHint@tool:search": "unsupported",  # the host is the server's constant
        "annotation-openWorldHint@tool:visit": "contradicted",  # the URL is the caller's
    }


@pytest.mark.parametrize("call, verdict", [
    ('fetch(`http://127.0.0.1:${PORT}/sql`, { method: "POST" })', "supported"),
    ('fetch("http://localhost:8080/sql")', "supported"),
    ('http.request({ hostname: "127.0.0.1", port: PORT, path: "/sql", method: "POST" })', "supported"),
    ('http.request({ hostname: "db.vendor.example", port: PORT, path: "/sql" })', "unsupported"),  # fixed, not local
    ('fetch(`http://localhost.vendor.example/sql`)', "unsupported"),
])
def test_a_call_to_a_loopback_host_is_a_closed_world(call, verdict):
    """A request the code writes to localhost, 127.x or ::1 (a service of the same machine: an editor's bridge, a local
    daemon) reaches no open world: `openWorldHint: false` is supported; a fixed remote host is not shown either way."""
    src = WEB.replace("async function open(url: string) {\n  return fetch(url);\n}\n",
                      f"import http from \"node:http\";\nconst PORT = Number(process.env.PORT);\n"
                      f"async function open(url: string) {{\n  return {call};\n}}\n")
    assert src != WEB
    got = {c.id.split(":", 1)[1]: c.attrs["verdict"] for c in _claims(src)}
    assert got["annotation-openWorldHint@tool:visit"] == verdict


GUARDED = SDK + """\
import { promises as fs } from "fs";
const TOOLS = [{ name: "purge", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }];
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name !== "purge") {
    throw new Error("unknown tool");
  }
  await fs.rm(String(request.params.arguments?.dir), { recursive: true });
  return { content: [{ type: "text", text: "purged" }] };
});
server.connect(new StdioServerTransport());
"""


def test_a_tool_behind_an_exclusion_guard_is_the_code_after_the_guard():
    """`if (name !== "x") throw`: what x does is what follows the guard, not the throw branch."""
    got = {c.id.split(":", 1)[1]: c.attrs["verdict"] for c in _claims(GUARDED)}
    p = program({"index.ts": GUARDED})
    assert got == {"annotation-readOnlyHint@tool:purge": "contradicted"}
    region = annotations.regions(p, "purge")
    lines = GUARDED.splitlines()
    first = next(i for i, ln in enumerate(lines, 1) if "fs.rm(" in ln)
    assert lines[first].lstrip().startswith("return {")  # the statements after the guard: the rm and the return
    assert [(s.start_line, s.end_line) for s in region.spans] == [(first, first + 1)]


TASKS = SDK + """\
const tasks = new Map<string, { at: number; out: string }>();
function sweep() {
  for (const [id, t] of tasks) if (Date.now() - t.at > 60000) tasks.delete(id);
}
const TOOLS = [
  { name: "get_task", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "list_tasks", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "wait_task", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "start_task", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
];
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments as { id: string };
  if (request.params.name === "get_task") { sweep(); return { content: [{ type: "text", text: String(tasks.get(args.id)?.out) }] }; }
  if (request.params.name === "list_tasks") { sweep(); return { content: [{ type: "text", text: [...tasks.keys()].join(",") }] }; }
  if (request.params.name === "wait_task") { sweep(); return { content: [{ type: "text", text: String(tasks.has(args.id)) }] }; }
  if (request.params.name === "start_task") {
    tasks.set(args.id, { at: Date.now(), out: "" });
    return { content: [{ type: "text", text: args.id }] };
  }
  throw new Error("unknown tool");
});
"""


def test_an_in_process_write_every_tool_reaches_is_the_server_s_housekeeping():
    """`sweep()` deleting expired entries of the server's task table on every call is its housekeeping, not an effect
    of a tool that reads the table (kb/annotations.yaml bookkeeping, in-process writes included); a tool's own
    write (`tasks.set` in start_task alone) is not."""
    got = _read_only_claims(TASKS)
    assert {t: got[t].attrs["verdict"] for t in ("get_task", "list_tasks", "wait_task")} == dict.fromkeys(
        ("get_task", "list_tasks", "wait_task"), "supported")
    assert all(r.get("bookkeeping") for r in got["get_task"].attrs["reached"] if r["kind"] == "state-write")
    assert not any(r.get("bookkeeping") for r in got["start_task"].attrs["reached"])  # (its own write: one tool's)


FILES = SDK + """\
import { promises as fs } from "fs";
import * as path from "path";
const CACHE = "/home/u/.cache/srv";
async function save(file: string, data: string) {
  await fs.writeFile(file, data);
}
async function drop(file: string) {
  await fs.unlink(file);
}
function versionDir(version: string) { return path.join(CACHE, version); }
const outDir = (dir: string) => path.join(dir, "mirror");
function createServer(config: { log: string }) {
  const TOOLS = [
    { name: "lookup", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
    { name: "export", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
    { name: "audit", inputSchema: { type: "object" }, annotations: { idempotentHint: true } },
    { name: "prune", inputSchema: { type: "object" }, annotations: { destructiveHint: false } },
    { name: "clean", inputSchema: { type: "object" }, annotations: { destructiveHint: false } },
    { name: "docs", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
    { name: "copy", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
    { name: "api", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
    { name: "mirror", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  ];
  const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params as { name: string; arguments: any };
    switch (name) {
      case "lookup": { await save(path.join(CACHE, "index.json"), "{}"); return { content: [] }; }
      case "export": { const out = args.out; await save(out, "{}"); return { content: [] }; }
      case "audit": { await fs.appendFile(config.log, "audit"); return { content: [] }; }
      case "prune": { for (const f of args.files) { await drop(f); } return { content: [] }; }
      case "clean": { await drop(`${CACHE}/tmp.json`); return { content: [] }; }
      case "docs": { await save(path.join(CACHE, "docs", String(args.name)), "{}"); return { content: [] }; }
      case "copy": { await save(path.join(String(args.dir), "copy.json"), "{}"); return { content: [] }; }
      case "api": { const dir = versionDir(String(args.version)); await save(path.join(dir, "api.json"), "{}"); return { content: [] }; }
      case "mirror": { await save(path.join(outDir(String(args.dir)), "m.json"), "{}"); return { content: [] }; }
    }
    throw new Error("unknown tool");
  });
  return server;
}
createServer({ log: "/var/log/srv.log" }).connect(new StdioServerTransport());
"""


def test_a_file_at_a_path_the_server_makes_neither_contradicts_nor_supports_a_hint():
    """A write whose path or folder comes from what the tool's caller passes (through a local, a loop, a wrapper's
    parameter, what a function of the module returns for it) contradicts the hint. A path the server makes alone (a
    constant, its configuration), or a file the caller names inside a folder the server fixes, is its cache, log or credentials, or data of the user kept at a
    fixed place: the code does not say which (unsupported)."""
    got = {c.id.split(":", 1)[1]: c for c in _claims(FILES)}
    assert {k: c.attrs["verdict"] for k, c in got.items()} == {
        "annotation-readOnlyHint@tool:lookup": "unsupported",  # the server's own cache file, through the wrapper
        "annotation-readOnlyHint@tool:export": "contradicted",  # args.out, through a local and the wrapper
        "annotation-idempotentHint@tool:audit": "unsupported",  # the log file of the server's configuration
        "annotation-destructiveHint@tool:prune": "contradicted",  # each of args.files, through the loop
        "annotation-destructiveHint@tool:clean": "unsupported",  # a file under its constant folder
        "annotation-readOnlyHint@tool:docs": "unsupported",  # the caller names a file in the server's folder
        "annotation-readOnlyHint@tool:copy": "contradicted",  # the caller names the folder
        "annotation-readOnlyHint@tool:api": "unsupported",  # a function of the module puts it in the server's folder
        "annotation-readOnlyHint@tool:mirror": "contradicted",  # a function of the module keeps the caller's folder
    }
    assert "paths the server itself makes" in got["annotation-readOnlyHint@tool:lookup"].attrs["mismatch"]
    assert "removes files at paths the server itself makes" in got["annotation-destructiveHint@tool:clean"].attrs["mismatch"]


HOSTS = SDK + """\
const API = "https://api.vendor.example";
async function get(url: string) {
  return fetch(url);
}
const TOOLS = [
  { name: "status", inputSchema: { type: "object" }, annotations: { openWorldHint: false } },
  { name: "browse", inputSchema: { type: "object" }, annotations: { openWorldHint: false } },
  { name: "peek", inputSchema: { type: "object" }, annotations: { openWorldHint: false } },
];
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
async function peek({ url }: { url: string }) {
  return fetch(url);
}
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments as { url: string };
  if (request.params.name === "status") return { content: [{ type: "text", text: await (await get(`${API}/status`)).text() }] };
  if (request.params.name === "browse") return { content: [{ type: "text", text: await (await get(args.url)).text() }] };
  if (request.params.name === "peek") return { content: [{ type: "text", text: await (await peek(args)).text() }] };
  throw new Error("unknown tool");
});
"""


def test_the_host_a_wrapper_fetches_is_the_one_its_callers_pass():
    """`get(url) { return fetch(url) }`: the host is fixed when every call of get in the tool's code passes a fixed
    one; a destructured parameter (`{ url }`) is the caller's as much as a plain one."""
    got = {c.attrs["tool"]: c.attrs["verdict"] for c in _claims(HOSTS)}
    assert got == {"status": "unsupported", "browse": "contradicted", "peek": "contradicted"}


CACHES = SDK + """\
const pages = new Map<string, string>();
const notes = new Map<string, string>();
async function page(url: string) {
  const hit = pages.get(url);
  if (hit) return hit;
  const body = "fetched " + url;
  pages.set(url, body);
  return body;
}
const TOOLS = [
  { name: "read", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "note", inputSchema: { type: "object" }, annotations: { readOnlyHint: false } },
  { name: "refresh", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "forget", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
];
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args: any = request.params.arguments;
  switch (request.params.name) {
    case "read": return { content: [{ type: "text", text: await page(String(args.url)) }] };
    case "note": { notes.set(String(args.id), String(args.text)); return { content: [] }; }
    case "refresh": { pages.clear(); return { content: [] }; }
    case "forget": { notes.clear(); return { content: [] }; }
  }
  throw new Error("unknown tool");
});
"""


def test_emptying_a_cache_modifies_nothing_a_caller_sees():
    """`pages.clear()` of a map filled only where it is looked up first and the value found returned (a memo table):
    the next lookup computes the same value again. `notes.clear()` of a map the tools fill with data is a change."""
    got = _read_only_claims(CACHES)
    assert {t: c.attrs["verdict"] for t, c in got.items()} == {
        "read": "supported", "note": "supported", "refresh": "supported", "forget": "contradicted"}


BUFFERS = SDK + """\
const reply: { type: string; text: string }[] = [];
const history: string[] = [];
function steps(file: string) {
  reply.length = 0;
  reply.push({ type: "text", text: "Edit " + file });
  reply.push({ type: "text", text: "Then run the checks" });
  return reply;
}
function remember(file: string) {
  history.length = 0;
  history.push(file);
  return history;
}
const TOOLS = [
  { name: "plan", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "track", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "recall", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
];
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args: any = request.params.arguments;
  switch (request.params.name) {
    case "plan": return { content: steps(String(args.file)) };
    case "track": return { content: [{ type: "text", text: remember(String(args.file)).join(",") }] };
    case "recall": return { content: [{ type: "text", text: history.join(",") }] };
  }
  throw new Error("unknown tool");
});
"""


def test_a_buffer_each_call_empties_first_modifies_nothing_a_later_call_sees():
    """`reply.length = 0` before the pushes of the only function that uses `reply`: what a call writes, the next call
    empties first. `history` is emptied by `remember` too, but `recall` reads it without emptying it: what `track`
    wrote outlives the call, a change."""
    got = _read_only_claims(BUFFERS)
    assert {t: c.attrs["verdict"] for t, c in got.items()} == {
        "plan": "supported", "track": "contradicted", "recall": "supported"}


UNDO = SDK + """\
import { promises as fs } from "fs";
const LOCKS = new Map<string, Promise<unknown>>();
async function locked(key: string, work: () => Promise<unknown>) {
  const next = work();
  LOCKS.set(key, next);
  try { return await next; } finally { LOCKS.delete(key); }
}
async function dropTemp(tmp: string) {
  await fs.unlink(tmp);
}
async function saveNote(target: string, body: string) {
  const tmp = `${target}.${Date.now()}.tmp`;
  await fs.writeFile(tmp, body);
  try { await fs.rename(tmp, target); } catch (err) { await dropTemp(tmp); throw err; }
}
const TOOLS = [
  { name: "add_note", inputSchema: { type: "object" }, annotations: { destructiveHint: false } },
  { name: "forget", inputSchema: { type: "object" }, annotations: { destructiveHint: false } },
  { name: "purge", inputSchema: { type: "object" }, annotations: { destructiveHint: false } },
];
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args: any = request.params.arguments;
  switch (request.params.name) {
    case "add_note": { await locked(args.name, () => saveNote(args.name, args.body)); return { content: [] }; }
    case "forget": { LOCKS.delete(args.name); return { content: [] }; }
    case "purge": { await dropTemp(args.name); return { content: [] }; }
  }
  throw new Error("unknown tool");
});
"""


def test_a_delete_of_what_the_same_call_made_before_is_no_destruction():
    # `LOCKS.set(key, next) ... finally { LOCKS.delete(key) }`, and `unlink(tmp)` of the temporary file the same call
    # wrote (in a helper handed its name): additive-only holds; deleting an entry or a file the call did not make
    # contradicts it
    got = _hint_claims(UNDO, "destructiveHint")
    assert {t: c.attrs["verdict"] for t, c in got.items() if t != "add_note"} == {
        "forget": "contradicted", "purge": "contradicted"}
    assert got["add_note"].attrs["verdict"] != "contradicted"
    undone = {r["what"] for r in got["add_note"].attrs["reached"] if r["class"] == "undo"}
    assert any("file the same call wrote before" in w for w in undone)
    assert any("entry the same call set before" in w for w in undone)


WRAPPED = SDK + """\
class Lru<K, V> {
  private entries = new Map<K, { value: V; at: number }>();
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }
  set(key: K, value: V) { this.entries.set(key, { value, at: Date.now() }); }
  delete(key: K) { return this.entries.delete(key); }
}
const answers = new Lru<string, string>();
const notes = new Lru<string, string>();
function allowed(host: string) { if (host.endsWith(".invalid")) throw new Error("blocked"); }
async function lookup(host: string): Promise<string> {
  const hit = answers.get(host);
  if (hit) {
    try { allowed(host); return hit; } catch { answers.delete(host); return "blocked"; }
  }
  return (async () => {
    const found = await fetch("https://" + host).then((r) => r.text());
    answers.set(host, found);
    return found;
  })();
}
function forget(key: string) { notes.set(key, "gone"); notes.delete(key); return "ok"; }
const TOOLS = [
  { name: "resolve", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "drop", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
];
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args: any = request.params.arguments;
  switch (request.params.name) {
    case "resolve": return { content: [{ type: "text", text: await lookup(String(args.host)) }] };
    case "drop": return { content: [{ type: "text", text: forget(String(args.key)) }] };
  }
  throw new Error("unknown tool");
});
"""


def test_a_class_wrapping_a_map_is_a_cache_where_its_instances_are_used_as_caches():
    """issue 9 (activitypub-mcp): `Lru.delete`'s `this.entries.delete(key)` is reached through `answers.delete(host)`,
    and `answers` is a memo by the rules of a plain Map (looked up, the value found returned, filled in a callback of
    the same function): its eviction changes nothing a caller sees. `notes` is written without a lookup, so the same
    method reached through it is a change."""
    got = _read_only_claims(WRAPPED)
    assert {t: c.attrs["verdict"] for t, c in got.items()} == {"resolve": "supported", "drop": "contradicted"}
    # (held by a field a constructor sets, `this.answers = new Lru()`, the same)
    held = WRAPPED.replace("const answers = new Lru<string, string>();\n", "").replace(
        "async function lookup(host: string): Promise<string> {", "class Resolver {\n  answers: any;\n"
        "  constructor() { this.answers = new Lru<string, string>(); }\n  async lookup(host: string): Promise<string> {"
    ).replace("answers.", "this.answers.").replace("  })();\n}\n", "  })();\n}\n}\nconst resolver = new Resolver();\n"
    ).replace("await lookup(", "await resolver.lookup(")
    assert "this.answers = new Lru" in held and "resolver.lookup(" in held
    got = _read_only_claims(held)
    assert {t: c.attrs["verdict"] for t, c in got.items()} == {"resolve": "supported", "drop": "contradicted"}


BUCKETS = SDK + """\
const clients = new Map<string, Map<string, string>>();
const pending = new Map<string, string[]>();
function clientsOf(user: string) {
  if (!clients.has(user)) {
    clients.set(user, new Map());
  }
  return clients.get(user);
}
function reset(user: string) {
  pending.set(user, []);
  return "reset";
}
const TOOLS = [
  { name: "peek", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "clear", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
];
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args: any = request.params.arguments;
  switch (request.params.name) {
    case "peek": return { content: [{ type: "text", text: String(clientsOf(String(args.user)).size) }] };
    case "clear": return { content: [{ type: "text", text: reset(String(args.user)) }] };
  }
  throw new Error("unknown tool");
});
"""


def test_an_empty_entry_made_where_a_key_has_none_and_returned_changes_nothing_a_caller_sees():
    """issue 9 (@llmindset/mcp-webcam): `if (!clients.has(user)) clients.set(user, new Map()); return
    clients.get(user)`: a later lookup finds the empty bucket it would have made itself. `pending.set(user, [])` with
    no such test replaces what the key held: a change."""
    got = _read_only_claims(BUCKETS)
    assert {t: c.attrs["verdict"] for t, c in got.items()} == {"peek": "supported", "clear": "contradicted"}
