"""A low-level Server whose registry takes a tool class, an instance and a list of method names, and keeps for each
method the definition whose name a module-level name -> method record maps to it (through the record inverted by a
grouping `reduce`, then `defs.find((d) => d.name === name)` in a loop over the names). A definition no listed method
maps to is never kept, so never listed.

Read (extract/syntax.py literal, extract/held.py, Values._equality, reach): a constant record built by `reduce` from a
constant record is evaluated; a name stands for every value it may hold (a loop's element over lists held so, a
parameter at each call of its function); `find`'s test that compares an element's name with such a name is false for
an element whose name none of those values is. A list or record changed after it is set, or a function called from
where its arguments are not known, stands for anything, and every definition stays listed."""

from __future__ import annotations

import pytest

from auditor.extract import parse
from auditor.extract.syntax import NOT_LITERAL, find, literal, text
from tests.program_helpers import program

SERVER = '''import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const METHOD_OF = { open_door: "openDoor", close_door: "closeDoor", lock_door: "lockDoor", ring_bell: "ringBell",
  paint_bell: "paintBell" };
const TOOLS_OF = Object.entries(METHOD_OF).reduce((acc, [tool, method]) => ((acc[method] ||= []).push(tool), acc), {});
const EMPTY = { type: "object", properties: {} };

class DoorTools {
  static definitions = [
    { name: "open_door", description: "Open the door.", inputSchema: EMPTY },
    { name: "close_door", description: "Close the door.", inputSchema: EMPTY },
    { name: "lock_door", description: "Lock the door.", inputSchema: EMPTY },
  ];
  async openDoor() { return "open"; }
  async closeDoor() { return "closed"; }
  async lockDoor() { return "locked"; }
}

class BellTools {
  static definitions = [
    { name: "ring_bell", description: "Ring the bell.", inputSchema: EMPTY },
    { name: "paint_bell", description: "Paint the bell.", inputSchema: EMPTY },
  ];
  async ringBell() { return "ring"; }
  async paintBell() { return "painted"; }
}

class Registry {
  entries = new Map();
  addMethods(Kind, instance, methods) {
    for (const method of methods) {
      const def = this.definitionFor(Kind.definitions, method);
      if (def) this.entries.set(def.name, { def, run: instance[method].bind(instance) });
    }
    return this;
  }
  definitionFor(defs, method) {
    const names = TOOLS_OF[method];
    if (!names) return null;
    for (const name of names) {
      const def = defs.find((d) => d.name === name);
      if (def) return def;
    }
    return null;
  }
  list() { return Array.from(this.entries.values()).map((e) => e.def); }
  async call(name, args) {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`Unknown tool: ${name}`);
    return entry.run(args);
  }
}

const DOOR_METHODS = ["openDoor", "closeDoor"];
const registry = new Registry();
registry.addMethods(DoorTools, new DoorTools(), DOOR_METHODS).addMethods(BellTools, new BellTools(), ["ringBell"]);
const server = new Server({ name: "doors", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: registry.list() }));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: "text", text: String(await registry.call(request.params.name, request.params.arguments)) }],
}));
await server.connect(new StdioServerTransport());
'''
MANIFEST = '{"name": "doors", "type": "module", "bin": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'
EVERY = ["close_door", "lock_door", "open_door", "paint_bell", "ring_bell"]


def _tools(source: str) -> list[str]:
    p = program({"index.js": source, "package.json": MANIFEST})
    return sorted(t.name for t in p.tools)


def test_only_the_definitions_the_listed_methods_map_to_are_tools():
    assert _tools(SERVER) == ["close_door", "open_door", "ring_bell"]


def test_a_registry_built_by_a_chain_of_calls_returning_it_is_read_the_same():
    chained = SERVER.replace("const registry = new Registry();\nregistry.addMethods(", "const registry = new Registry().addMethods(")
    assert chained != SERVER and _tools(chained) == ["close_door", "open_door", "ring_bell"]


def test_a_method_list_changed_after_it_is_set_keeps_every_definition():
    # (the lookup's name is read with no frame: one list not known, any name may be looked up in any class's list)
    pushed = SERVER.replace("const registry = new Registry()", "DOOR_METHODS.push(process.argv[2]);\nconst registry = new Registry()")
    assert _tools(pushed) == EVERY


@pytest.mark.parametrize("change", [
    "METHOD_OF[process.argv[2]] = process.argv[3];",
    "METHOD_OF.lock_door = \"openDoor\";",
    "Object.assign(METHOD_OF, JSON.parse(process.argv[2]));",
    "delete METHOD_OF.open_door;",
])
def test_a_name_record_changed_after_it_is_set_keeps_every_definition(change):
    changed = SERVER.replace("class DoorTools {", f"{change}\nclass DoorTools {{")
    assert _tools(changed) == EVERY


def test_a_lookup_called_with_a_method_not_known_keeps_every_definition():
    # definitionFor is also called with a name read at run time: any definition may be found
    extra = SERVER.replace("const server = new Server(",
                           "registry.definitionFor(DoorTools.definitions, process.argv[2]);\n"
                           "registry.definitionFor(BellTools.definitions, process.argv[2]);\n"
                           "const server = new Server(")
    assert _tools(extra) == EVERY


def test_a_lookup_handed_on_as_a_value_keeps_every_definition():
    # the function is named where it is not called: calls the boundary cannot see may give it any method
    handed = SERVER.replace("const server = new Server(",
                            "export const lookup = Registry.prototype.definitionFor;\nconst server = new Server(")
    assert _tools(handed) == EVERY


def _constants(src: str) -> dict[str, object]:
    tree = parse.parse(src.encode("utf-8"), "typescript")
    env = {text(d.child_by_field_name("name")): d.child_by_field_name("value")
           for d in find(tree.root_node, {"variable_declarator"})}
    return {name: literal(value, env) for name, value in env.items()}


@pytest.mark.parametrize("expr, value", [
    ('Object.entries(M).reduce((g, [k, v]) => ((g[v] ||= []).push(k), g), {})', {"x": ["a", "c"], "y": ["b"]}),
    ('Object.entries(M).reduce((g, [k, v]) => ((g[v] ??= []).push(k), g), {})', {"x": ["a", "c"], "y": ["b"]}),
    ('Object.keys(M).reduce((n, k) => n + k, "")', "abc"),
    ('M["b"]', "y"),
    ('M["z"]', None),  # a key the record lacks: undefined
    ('["p", "q"][1]', "q"),
    ('(M.a, M.b)', "y"),
    ('Object.entries({ ...M, d: "w" }).length', NOT_LITERAL),  # (a list's length is not read by literal)
    ('Object.entries({ ...M, d: "w" })[3]', ["d", "w"]),
    ('Object.values(M).reduce((g, v) => (g[v] ||= []).push(v), {})', NOT_LITERAL),  # (push's count, then `1[v]`)
    ('Object.entries(M).reduce((g, [k, v]) => g.set(k, v), new Map())', NOT_LITERAL),
    ('M[process.argv[2]]', NOT_LITERAL),
])
def test_constant_expressions_over_a_record(expr, value):
    got = _constants(f'const M = {{ a: "x", b: "y", c: "x" }};\nconst OUT = {expr};\n')["OUT"]
    assert got == value if value is not NOT_LITERAL else got is NOT_LITERAL


def test_a_local_of_the_same_name_hides_the_loop_variable():
    # `name` inside the callback's own block is a local set at run time, not the loop's element: not known
    hidden = SERVER.replace("const def = defs.find((d) => d.name === name);",
                            "const def = defs.find((d) => { const name = process.argv[2]; return d.name === name; });")
    assert hidden != SERVER and _tools(hidden) == EVERY


def test_a_record_handed_where_it_may_be_changed_is_not_read():
    # a reduce started from BASE fills BASE itself; a function of the boundary that pushes onto its parameter changes
    # what it is handed, and so may a push through another name holding it or a class keeping it; a function that only
    # reads it, and the language's own Set made of it, do not
    from auditor.extract.held import possible
    from auditor.extract.values import Values
    src = ('const M = { a: "x", b: "y" };\nconst BASE = { x: ["z"] };\n'
           'const G = Object.entries(M).reduce((g, [k, v]) => ((g[v] ||= []).push(k), g), BASE);\n'
           'const L = ["p"];\nconst R = ["q"];\n'
           'function fill(list) { list.push("more"); }\nfunction show(list) { return list.join(","); }\n'
           'const S = ["s"];\nconst alias = S;\nalias.push("more");\n'
           'const K = ["k"];\nclass Keeper { constructor(list) { this.list = list; } }\nnew Keeper(K);\n'
           'const N = ["n"];\nconst names = new Set(N);\n'
           'fill(L);\nshow(R);\nconsole.log(Object.keys(M));\n'
           'export { G, BASE, L, R, M, S, K, N, names };\n')
    p = program({"index.js": src, "package.json": MANIFEST})
    module = next(m for m in p.modules if m.path == "index.js")
    values = Values(p.linker)
    read = {text(n): possible(values, n, module) for s in find(module.tree.root_node, {"export_specifier"})
            for n in [s.child_by_field_name("name")]}
    assert read["G"] is None and read["BASE"] is None and read["L"] is None and read["S"] is None and read["K"] is None
    assert read["R"] == [["q"]] and read["M"] == [{"a": "x", "b": "y"}] and read["N"] == [["n"]]


@pytest.mark.parametrize("declared, other, read", [
    # another module's own `pick` (a minified bundle reuses short names): the module's name is still only called here
    ("function pick(kind) { return kind; }", "export const pick = 3;", ["x", "y"]),
    ("const pick = (kind) => kind;", "export const pick = 3;", ["x", "y"]),
    ("function pick(kind) { return kind; }", "export const other = 3;", ["x", "y"]),
    # exported: another module may call it with anything
    ("export function pick(kind) { return kind; }", "export const pick = 3;", None),
    # a method: reachable through any instance, wherever the instance goes
    ("const o = { pick(kind) { return kind; } };\nconst pick = (k) => o.pick(k);", "export const pick = 3;", None),
])
def test_a_parameter_of_a_function_its_module_alone_can_call_is_read_at_its_calls(declared, other, read):
    from auditor.extract.held import possible
    from auditor.extract.values import Values
    src = f'{declared}\npick("x");\npick("y");\n'
    p = program({"a.js": src, "b.js": other, "package.json": MANIFEST})
    module = next(m for m in p.modules if m.path == "a.js")
    kind = [n for n in find(module.tree.root_node, {"identifier"}) if text(n) == "kind"][-1]  # (the one read)
    got = possible(Values(p.linker), kind, module)
    assert (sorted(got) if got is not None else None) == read
