"""A tools/list result the code fixes to the end (extract/evaluate.py): a catalog of commands filtered by a flag and a
group, its names mapped through a Map of definitions, each copied into a descriptor. The tools are the names the
evaluation gives; a definition the filter leaves out is no tool, though it has a name and a description. A name that
changes, a flag read from the environment or a filter not read leave the listing as reach reads it.

The fixture is a server with no SDK whose dispatch function is handed the request's method and params by its only
caller (extract/protocol.py reads such a parameter as the method)."""

from __future__ import annotations

from auditor.extract.evaluate import NULL, UNKNOWN, Evaluator, Record
from auditor.extract.linker import Linker
from auditor.extract.values import Values
from program_helpers import program

PACKAGE = '{"name": "deck", "version": "1.0.0", "type": "module", "bin": {"deck": "server.js"}}'

# The catalog: every command the CLI knows, with flags; `exposed` unset means "public groups only".
CATALOG = '''
const GROUPS = new Set(["public", "local"]);
const COMMANDS = [
  { name: "open", group: "public" },
  { name: "close", group: "public", exposed: true },
  { name: "prepare", group: "public", exposed: false },
  { name: "lease", group: "internal" },
  { name: "snap", group: "local" },
];
const PUBLIC = new Set(COMMANDS.filter((c) => GROUPS.has(c.group)).map((c) => c.name));
function exposedByDefault(c) { return c.exposed ?? PUBLIC.has(c.name); }
const ENTRIES = COMMANDS.map((c) => {
  const policy = describePolicy(c);
  return c.name === "snap" && checkPolicy(policy), { ...c, exposed: exposedByDefault(c), policy };
});
function describePolicy(c) { return { slow: c.name === "snap" }; }
function checkPolicy(p) { if (!p) throw new Error("no policy"); }
export function exposedNames() {
  return ENTRIES.filter((e) => e.exposed && PUBLIC.has(e.name)).map((e) => e.name).sort();
}
'''

# The definitions of every command, one module; `prepare` and `lease` have descriptions too.
DEFINITIONS = '''
function define(name, description, properties) {
  return { name, description, inputSchema: { type: "object", properties } };
}
function family(spec) {
  const seen = {};
  for (const c of spec.commands) seen[c.name] = true;
  return { name: spec.name, metadata: spec.commands.map((c) => c.metadata), seen };
}
const OPEN = "open";
const FAMILIES = [
  family({ name: "session", commands: [
    { name: OPEN, metadata: define(OPEN, "Open a session", { app: { type: "string" } }) },
    { name: "close", metadata: define("close", "Close the session", {}) },
  ] }),
  family({ name: "device", commands: [
    { name: "prepare", metadata: define("prepare", "Warm up the device helpers", {}) },
    { name: "lease", metadata: define("lease", "Lease a device", {}) },
    { name: "snap", metadata: define("snap", "Take a snapshot", { depth: { type: "number" } }) },
  ] }),
];
export function allMetadata() { return FAMILIES.flatMap((f) => [...f.metadata]); }
'''

LOOKUP = '''
import { exposedNames } from "./catalog.js";
import { allMetadata } from "./definitions.js";
const ALL = allMetadata();
const BY_NAME = new Map(ALL.map((m) => [m.name, m]));
export function metadataFor(name) { return BY_NAME.get(name); }
export function exposedMetadata() {
  return exposedNames().map((n) => {
    const m = metadataFor(n);
    if (!m) throw new Error(`no metadata for ${n}`);
    return m;
  });
}
'''

TOOLS = '''
import { exposedMetadata } from "./lookup.js";
const OUTPUT = { snap: { type: "object" } };
export function listTools() {
  return exposedMetadata().map((m) => {
    const out = m.name in OUTPUT ? OUTPUT[m.name] : undefined;
    return { name: m.name, description: m.description, inputSchema: m.inputSchema, ...(out ? { outputSchema: out } : {}) };
  });
}
'''

SERVER = '''
import readline from "node:readline";
import { listTools } from "./tools.js";
import { metadataFor } from "./lookup.js";
const HELP = { name: "help", description: "How to use the deck", inputSchema: { type: "object", properties: {} } };
function paging(mode, ttl) { return mode === "cached" ? { ttlMs: ttl } : undefined; }
async function handle(method, params, mode) {
  switch (method) {
    case "initialize": return { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "deck", version: "1.0.0" } };
    case "tools/list": return { tools: [...listTools(), HELP], ...paging(mode, 1000) };
    case "tools/call": return callTool(params.name, params.arguments);
    default: throw new Error(`unsupported ${method}`);
  }
}
async function callTool(name, args) {
  if (name === "help") return { content: [{ type: "text", text: "help" }] };
  const m = metadataFor(name);
  if (!m) throw new Error(`unknown tool ${name}`);
  return { content: [{ type: "text", text: `${m.name} ${JSON.stringify(args)}` }] };
}
const rl = readline.createInterface({ input: process.stdin });
rl.on("line", async (line) => {
  const msg = JSON.parse(line);
  const result = await handle(msg.method, msg.params, process.env.DECK_MODE);
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }) + "\\n");
});
'''

LISTED = ["close", "help", "open", "snap"]  # exposed, or unset and in a public group; never prepare nor lease


def _files(**changes: str) -> dict[str, str]:
    files = {"package.json": PACKAGE, "catalog.js": CATALOG, "definitions.js": DEFINITIONS, "lookup.js": LOOKUP,
             "tools.js": TOOLS, "server.js": SERVER}
    return {**files, **changes}


def _names(files: dict[str, str]) -> list[str]:
    return sorted(t.name for t in program(files).tools)


def test_the_tools_are_the_names_the_catalog_fixes():
    # Reach alone follows the Map to every definition: prepare and lease would be tools too.
    assert _names(_files()) == LISTED


def test_a_catalog_changed_at_run_time_is_not_read():
    # A function pushes onto the catalog: its elements are not known, and every definition stays a tool.
    changed = CATALOG + 'export function addCommand(c) { COMMANDS.push(c); }\n'
    assert _names(_files(**{"catalog.js": changed})) == ["close", "help", "lease", "open", "prepare", "snap"]


def test_a_flag_from_the_environment_is_not_decided():
    flagged = CATALOG.replace('{ name: "prepare", group: "public", exposed: false }',
                              '{ name: "prepare", group: "public", exposed: process.env.DECK_PREPARE === "1" }')
    assert _names(_files(**{"catalog.js": flagged})) == ["close", "help", "lease", "open", "prepare", "snap"]


def test_an_importer_that_changes_the_catalog_through_its_own_name():
    # The catalog is exported and its importer pushes onto it under another name.
    exported = CATALOG.replace("const COMMANDS = [", "export const COMMANDS = [")
    lookup = 'import { COMMANDS as CMDS } from "./catalog.js";\nexport function more(c) { CMDS.push(c); }\n' + LOOKUP
    assert _names(_files(**{"catalog.js": exported, "lookup.js": lookup})) == \
        ["close", "help", "lease", "open", "prepare", "snap"]


def test_a_parameter_named_like_the_catalog_in_another_function_is_another_variable():
    # A minifier reuses short names: a function's own `COMMANDS` parameter, pushed onto, is not the catalog.
    shadow = CATALOG + 'export function collect(COMMANDS) { COMMANDS.push("x"); return COMMANDS; }\n'
    assert _names(_files(**{"catalog.js": shadow})) == LISTED


# -- the evaluator on its own ------------------------------------------------------------------------------------------

def _evaluate(source: str, name: str):
    p = program({"package.json": PACKAGE, "m.js": source})
    module = next(m for m in p.modules if m.path == "m.js")
    link = Linker(list(p.modules))
    ev = Evaluator(link, Values(link))
    return ev, ev.value(module.toplevel[name], module)


def test_a_partial_record_is_known_in_its_other_fields():
    ev, value = _evaluate('const R = { a: "x", b: process.env.B, ...(process.env.C ? { c: 1 } : {}) };\n'
                          'const A = R.a;\n', "R")
    assert isinstance(value, Record)
    assert ev.field(value, "a") == "x"
    assert ev.field(value, "b") is UNKNOWN
    assert ev.field(value, "z") is None  # neither branch of the spread has it
    assert ev.field(value, "c") is UNKNOWN


def test_nullish_and_logical_operators():
    _, value = _evaluate('const X = { f: false, n: null };\n'
                         'const V = [X.f ?? 1, X.n ?? 2, X.missing ?? 3, X.f || "or", X.f && "and", X.n === null];\n',
                         "V")
    assert value == [False, 2, 3, "or", False, True]
    _, value = _evaluate('const N = null;\n', "N")
    assert value is NULL


def test_a_guard_not_decided_is_taken_as_passed_and_one_decided_throws():
    _, value = _evaluate('function pick(x) { if (!process.env.OK) throw new Error("no"); return x + 1; }\n'
                         'const V = pick(1);\n', "V")
    assert value == 2
    _, value = _evaluate('function pick(x) { if (x > 0) throw new Error("no"); return x; }\nconst V = pick(1);\n', "V")
    assert value is UNKNOWN


def test_a_loop_leaves_what_it_may_change_unknown():
    _, value = _evaluate('function f() { const out = []; let n = 1; for (const x of [1, 2]) { out.push(x); }\n'
                         '  return [out, n]; }\nconst V = f();\n', "V")
    assert value == [UNKNOWN, 1]


def test_a_scalar_set_again_is_not_read():
    _, value = _evaluate('let K = "a";\nexport function bump() { K = "b"; }\nconst V = K;\n', "V")
    assert value is UNKNOWN
    _, value = _evaluate('let K = 1;\nexport function bump() { K++; }\nconst V = K;\n', "V")
    assert value is UNKNOWN
    _, value = _evaluate('const K = "a";\nexport function use() { return K.toUpperCase(); }\nconst V = K;\n', "V")
    assert value == "a"


def test_sets_maps_and_sorting():
    _, value = _evaluate('const S = new Set(["b", "a", "b"]);\nconst M = new Map([["k", 1]]);\n'
                         'const V = [S.has("a"), S.has("z"), M.get("k"), M.get("z"), [...S].sort(), S.size,\n'
                         '  Object.keys({ x: 1, ...{ y: 2 } }), Array.from(M.keys())];\n', "V")
    assert value == [True, False, 1, None, ["a", "b"], 2, ["x", "y"], ["k"]]


def test_flat_takes_the_elements_of_each_list_one_level_down():
    """`Object.values(GROUPS).flat()`: the lists a record holds, one list; `flat(2)` two levels; an item that is no
    list stays as it is."""
    _, value = _evaluate('const G = { a: ["x", "y"], b: ["z"] };\nconst V = Object.values(G).flat();\n', "V")
    assert value == ["x", "y", "z"]
    _, value = _evaluate('const V = [["a", ["b"]], "c"].flat(2);\n', "V")
    assert value == ["a", "b", "c"]
    _, value = _evaluate('const V = [["a", ["b"]], "c"].flat();\n', "V")
    assert value == ["a", ["b"], "c"]
