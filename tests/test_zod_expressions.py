"""zod expressions beyond a plain chain: constant strings computed from constants, enum value lists built from
constants, conditional shapes and schemas, and server functions that return a schema (issue 9)."""

from __future__ import annotations

from auditor import kb
from auditor.extract import flow, highlevel, parse, program

VOCAB = kb.load(kb.default_kb_dir(), "sdk")
HEAD = 'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { z } from "zod";\n'


def _registered(src: str):
    tree = parse.parse((HEAD + src).encode("utf-8"), "typescript")
    m = program.build("srv/index.ts", "index", tree, "typescript")
    return highlevel.registrations(m, VOCAB, flow.resolver(m))


def _tools(src: str):
    return {t.name: t for t in _registered(src)[0]}


def _gaps(tool) -> list[str]:
    return [g.detail for g in tool.gaps]


def test_descriptions_computed_from_constants_are_literals():
    tools = _tools('''
const server = new McpServer({ name: "s", version: "1" });
const OTHER = "other_tool";
const LIST = ["- a: first", "- b: second"].join("\\n");
const LIMIT = 20;
server.registerTool("a", {
  description: "Find things " + "by name.\\n" + LIST,
  inputSchema: { q: z.string().describe(["The query,", "at most " + LIMIT + " words."].join(" ")) },
}, async () => ({ content: [] }));
server.registerTool("b", {
  description: `Call ${OTHER} first; up to ${LIMIT} results.`,
  inputSchema: { kind: z.enum(["x", ...["y", "z"]]).describe(`One of ${["x", "y", "z"].join(", ")}`) },
}, async () => ({ content: [] }));
''')
    assert tools["a"].description == "Find things by name.\n- a: first\n- b: second"
    assert tools["a"].schema["properties"]["q"]["description"] == "The query, at most 20 words."
    assert tools["b"].description == "Call other_tool first; up to 20 results."
    assert tools["b"].schema["properties"]["kind"] == {"type": "string", "enum": ["x", "y", "z"], "description": "One of x, y, z"}
    assert tools["a"].gaps == () and tools["b"].gaps == ()


def test_enum_values_from_object_keys_and_values_of_a_constant_object():
    tools = _tools('''
const server = new McpServer({ name: "s", version: "1" });
const MODES = { fast: "quick", slow: "careful" } as const;
const EXTRA = ["none"] as const;
server.tool("m", { mode: z.enum(Object.keys(MODES) as [string, ...string[]]),
                   how: z.enum(Object.values(MODES)), extra: z.enum([...EXTRA, "all"]).optional() },
            async () => ({ content: [] }));
''')
    props = tools["m"].schema["properties"]
    assert props["mode"]["enum"] == ["fast", "slow"] and props["how"]["enum"] == ["quick", "careful"]
    assert props["extra"]["enum"] == ["none", "all"] and tools["m"].gaps == ()


def test_enum_of_a_package_outside_the_boundary_stays_a_gap_that_names_it():
    tools = _tools('''
import { Color } from "some-sdk/enums";
const server = new McpServer({ name: "s", version: "1" });
server.tool("c", { color: z.enum(Object.keys(Color)) }, async () => ({ content: [] }));
''')
    text, = _gaps(tools["c"])
    assert "z.enum() values at `color` are not a literal list" in text and "'some-sdk/enums'" in text


def test_spread_of_a_conditional_shape_is_both_branches_and_says_so():
    tools = _tools('''
const server = new McpServer({ name: "s", version: "1" });
const SAFE = process.env.SAFE === "true";
const name = z.string().min(1);
server.tool("scrape", {
  url: z.string(),
  ...(SAFE ? {} : { actions: z.array(z.string()) }),
  ...(SAFE ? { mode: z.literal("safe") } : { mode: z.literal("full"), hook: z.string().optional() }),
  who: z.object({ name }),
}, async () => ({ content: [] }));
''')
    schema = tools["scrape"].schema
    props = schema["properties"]
    assert props["actions"] == {"type": "array", "items": {"type": "string"}, "$comment": "only when `SAFE` is false"}
    assert props["mode"] == {"anyOf": [{"type": "string", "const": "safe"}, {"type": "string", "const": "full"}]}
    assert props["hook"]["$comment"] == "only when `SAFE` is false"
    assert props["who"]["properties"]["name"] == {"type": "string", "minLength": 1}  # a shorthand property
    assert schema["required"] == ["url", "mode", "who"]  # actions and hook are on one branch only
    assert tools["scrape"].gaps == ()


def test_a_conditional_schema_is_one_of_its_branches():
    tools = _tools('''
const server = new McpServer({ name: "s", version: "1" });
const hosted = z.object({ url: z.string() });
const local = z.object({ url: z.string(), path: z.string() });
const Params = process.env.HOSTED === "true" ? hosted : local;
server.registerTool("parse", { inputSchema: Params.shape }, async () => ({ content: [] }));
server.registerTool("parse2", { inputSchema: Params }, async () => ({ content: [] }));
''')
    for name in ("parse", "parse2"):
        schema = tools[name].schema
        assert list(schema["properties"]) == ["url", "path"] and schema["required"] == ["url"], name
        assert schema["properties"]["path"]["$comment"] == "only when `process.env.HOSTED === \"true\"` is false"
        assert tools[name].gaps == ()


def test_a_server_function_that_returns_a_schema_is_followed_with_its_constants():
    tools = _tools('''
const server = new McpServer({ name: "s", version: "1" });
const leaf = z.object({ field: z.string() });
function node(depth: number) {
  if (depth <= 1)
    return leaf;
  const group = z.object({ op: z.enum(["and", "or"]), filters: z.array(node(depth - 1)) });
  return z.union([group, leaf]);
}
const MAX = 1;
const pick = (kind: string) => kind === "n" ? z.number() : z.string();
function forever(n: number) { return z.array(forever(n + 1)); }
server.tool("f", { filter: node(MAX + 1), id: pick("n"), any: pick(process.env.K!) }, async () => ({ content: [] }))
server.tool("g", { loop: forever(0) }, async () => ({ content: [] }));
''')
    props = tools["f"].schema["properties"]
    leaf = {"type": "object", "properties": {"field": {"type": "string"}}, "required": ["field"]}
    group = {"type": "object", "properties": {"op": {"type": "string", "enum": ["and", "or"]},
                                              "filters": {"type": "array", "items": leaf}}, "required": ["op", "filters"]}
    assert props["filter"] == {"anyOf": [group, leaf]}
    assert props["id"] == {"type": "number"}
    assert props["any"] == {"anyOf": [{"type": "number"}, {"type": "string"}]}  # both branches of an unknown argument
    assert tools["f"].gaps == ()
    assert any("nests schema-building calls deeper than" in g for g in _gaps(tools["g"]))


def test_an_unknown_substitution_is_one_gap_that_names_it():
    tools, _, regs = _registered('''
const server = new McpServer({ name: "s", version: "1" });
const NAME = "list";
export const make = (args: { ext?: boolean }) => server.registerTool("d", {
  description: `Get ${NAME}${args.ext ? " with extensions" : ""} now.`,
  inputSchema: { full: z.boolean().describe("Whole page. " + HINT) },
}, async () => ({ content: [] }));
''')
    tool, = tools
    assert tool.description is None
    assert _gaps(tool) == [
        "tool 'd': .describe() text at `full` is not a literal (`HINT` is not a constant); the description is not shown"]
    desc = [g.detail for r in regs for g in r.gaps if g.kind == "description"]
    assert desc == ["tool 'd': the description ``Get ${NAME}${args.ext ? \" with extensions\" : \"\"} now.`` is not a "
                    "literal (`args.ext ? \" with extensions\" : \"\"` is not a constant)"]


def test_string_enums_of_the_boundary_give_their_values():
    tools = _tools('''
enum Level { Low = "low", High = "high" }
enum Count { One, Two }
var Kind;
(function (Kind) {
    Kind["Doc"] = "doc";
    Kind["Page"] = "page";
})(Kind || (Kind = {}));
const server = new McpServer({ name: "s", version: "1" });
server.tool("e", { level: z.nativeEnum(Level), kind: z.enum(Object.values(Kind) as [string, ...string[]]),
                   names: z.enum(Object.keys(Level) as [string, ...string[]]), count: z.nativeEnum(Count) },
            async () => ({ content: [] }));
''')
    props = tools["e"].schema["properties"]
    assert props["level"] == {"type": "string", "enum": ["low", "high"]}
    assert props["kind"] == {"type": "string", "enum": ["doc", "page"]}
    assert props["names"] == {"type": "string", "enum": ["Low", "High"]}
    # a numeric enum is not listed (its object holds reverse mappings too): a gap
    assert _gaps(tools["e"]) == ["tool 'e': z.nativeEnum() values at `count` are not a literal list"]


def test_enum_of_a_conditional_list_is_the_values_of_both():
    tools = _tools('''
const SAFE = process.env.SAFE === "true";
const safeKinds = ["wait", "scroll"];
const allKinds = ["wait", "scroll", "click"];
const kinds = SAFE ? safeKinds : allKinds;
const same = SAFE ? ["a"] : ["a"];
const server = new McpServer({ name: "s", version: "1" });
server.tool("k", { kind: z.enum(kinds), other: z.enum(same) }, async () => ({ content: [] }));
''')
    props = tools["k"].schema["properties"]
    assert props["kind"] == {"type": "string", "enum": ["wait", "scroll", "click"],
                             "$comment": "values of both branches of `SAFE`"}
    assert props["other"] == {"type": "string", "enum": ["a"]} and tools["k"].gaps == ()


CONSTANTS = '''export const DIR = ".notes";
export const OPS = ["=", "!=", "in"];
'''

USES_CONSTANTS = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { DIR, OPS } from "./constants.js";

const server = new McpServer({ name: "c", version: "1.0.0" });
server.tool("parse", `Reads the file in the ${DIR} directory; operators: ` + OPS.join(", ") + ".",
  { op: z.string().describe("One of " + OPS.join(", ")) }, async () => ({ content: [] }));
async function main() { await server.connect(new StdioServerTransport()); }
main().catch(() => process.exit(1));
'''


def test_descriptions_use_constants_of_another_module(tmp_path):
    from contract_helpers import audit, init_repo
    repo = tmp_path / "repo"
    init_repo(repo, {"index.ts": USES_CONSTANTS, "constants.ts": CONSTANTS, "package.json":
                     '{"name": "c", "version": "1.0.0", "dependencies": {"@modelcontextprotocol/sdk": "1.0.0"}}\n'})
    doc = audit(repo, tmp_path / "out")
    part = next(o for o in doc["objects"] if o["id"] == "OBJ:description-part:parse/assertive")
    assert [i["text"] for i in part["items"]] == ["Reads the file in the .notes directory; operators: =, !=, in."]
    schema = next(o for o in doc["objects"] if o["id"] == "OBJ:tool-schema:parse")
    assert schema["properties"][0]["description"] == "One of =, !=, in"
    assert doc["coverage"]["gaps"] == []


def test_a_parameter_bound_to_a_constant_object_is_read_by_member():
    tools = _tools('''
const server = new McpServer({ name: "s", version: "1" });
function text(opts: { max: number, label: string }) { return z.string().max(opts.max).describe(`The ${opts.label}`); }
server.tool("o", { title: text({ max: 80, label: "title" }), body: text(LIMITS) }, async () => ({ content: [] }));
''')
    props = tools["o"].schema["properties"]
    assert props["title"] == {"type": "string", "maxLength": 80, "description": "The title"}
    assert props["body"] == {"type": "string"}  # LIMITS is bound nowhere: the constraint and the text are gaps
    assert len(_gaps(tools["o"])) == 2


def test_a_description_of_many_concatenated_lines_is_a_literal():
    lines = [f"line {i}. " for i in range(40)]
    joined = " +\n    ".join(f'"{line}"' for line in lines)
    tools = _tools(f'''
const server = new McpServer({{ name: "s", version: "1" }});
server.registerTool("long", {{ description: {joined}, inputSchema: {{ q: z.string().describe({joined}) }} }},
  async () => ({{ content: [] }}));
''')
    assert tools["long"].description == "".join(lines)
    assert tools["long"].schema["properties"]["q"]["description"] == "".join(lines) and tools["long"].gaps == ()


def test_enum_values_built_by_map_and_flat_map_over_constants():
    tools = _tools('''
const server = new McpServer({ name: "s", version: "1" });
const BASE = ["go", "rust"];
const FRAMEWORKS = { js: ["next", "vue"], py: ["django"] };
const GUIDES = [...BASE, ...Object.entries(FRAMEWORKS).flatMap(([lang, fws]) => fws.map((fw) => `${lang}/${fw}`))];
const LEVELS = BASE.map((b) => { return b + "-strict"; });
server.tool("docs", { guide: z.enum(GUIDES), level: z.enum(LEVELS as [string, ...string[]]) },
            async () => ({ content: [] }));
''')
    props = tools["docs"].schema["properties"]
    assert props["guide"]["enum"] == ["go", "rust", "js/next", "js/vue", "py/django"]
    assert props["level"]["enum"] == ["go-strict", "rust-strict"] and tools["docs"].gaps == ()


def test_enum_members_in_describe_text_and_discriminated_unions_intersections_catchall():
    tools = _tools('''
enum ToolName { SEARCH = "search_things", GET = "get_thing" }
const server = new McpServer({ name: "s", version: "1" });
const A = z.object({ kind: z.literal("a"), x: z.string() });
const B = z.object({ kind: z.literal("b"), y: z.number() });
server.tool("u", {
  id: z.string().describe(`An id; find one with ${ToolName.SEARCH}, read it with ${ToolName.GET}.`),
  pick: z.discriminatedUnion("kind", [A, B]),
  both: z.intersection(z.object({ p: z.string() }), z.object({ q: z.string() })),
  extra: z.object({ name: z.string() }).catchall(z.number()),
}, async () => ({ content: [] }));
''')
    props = tools["u"].schema["properties"]
    assert props["id"]["description"] == "An id; find one with search_things, read it with get_thing."
    assert [o["properties"]["kind"]["const"] for o in props["pick"]["anyOf"]] == ["a", "b"]
    assert [list(o["properties"]) for o in props["both"]["allOf"]] == [["p"], ["q"]]
    assert props["extra"]["additionalProperties"] == {"type": "number"}
    assert tools["u"].gaps == ()


def test_a_callback_that_is_not_a_constant_function_leaves_the_list_unknown():
    tools = _tools('''
const server = new McpServer({ name: "s", version: "1" });
const BASE = ["go", "rust"];
server.tool("d", { guide: z.enum(BASE.map((b) => b + process.env.SUFFIX)) }, async () => ({ content: [] }));
''')
    text, = _gaps(tools["d"])
    assert "z.enum() values at `guide` are not a literal list" in text


def test_enum_exclude_extract_regex_constants_and_iso_group():
    tools = _tools('''
const server = new McpServer({ name: "s", version: "1" });
const STAGE = z.enum(["plan", "build", "ship", "done"]);
const NAME_RE = /^[a-z]+$/;
server.tool("e", {
  open: STAGE.exclude(["done"]),
  late: STAGE.extract(["ship", "done"]),
  name: z.string().regex(NAME_RE),
  slug: z.string().regex(new RegExp("[a-z0-9-]+")),
  at: z.iso.datetime({ offset: true }),
}, async () => ({ content: [] }));
''')
    props = tools["e"].schema["properties"]
    assert props["open"]["enum"] == ["plan", "build", "ship"] and props["late"]["enum"] == ["ship", "done"]
    assert props["name"]["pattern"] == "^[a-z]+$" and props["slug"]["pattern"] == "[a-z0-9-]+"
    assert props["at"] == {"type": "string", "format": "date-time"} and tools["e"].gaps == ()


def test_string_checks_with_a_json_schema_form():
    """`.regex()` of a regex constant or `new RegExp("...")`, `.startsWith/.endsWith/.includes` (a literal pattern, the
    text escaped), `.date()/.time()` (formats) and `.catchall(S)` (additionalProperties) are read; a check whose
    argument is not a constant stays a gap."""
    tools = _tools(r'''
const server = new McpServer({ name: "s", version: "1" });
const ID_RE = /^[0-9a-f]{8}$/;
const ALIAS = ID_RE;
server.registerTool("a", {
  description: "A.",
  inputSchema: {
    id: z.string().regex(ALIAS),
    name: z.string().regex(new RegExp("[a-z]+(\\.[a-z]+)*")),
    run: z.string().startsWith("run_1.").optional(),
    file: z.string().endsWith(".log").optional(),
    day: z.string().date(),
    at: z.string().time().optional(),
    config: z.object({ kind: z.string() }).catchall(z.string()),
  },
}, async () => ({ content: [] }));
server.registerTool("b", {
  description: "B.",
  inputSchema: { tag: z.string().regex(new RegExp(process.env.TAG_RE)), key: z.string().startsWith(prefix()) },
}, async () => ({ content: [] }));
''')
    a = tools["a"]
    assert _gaps(a) == []
    props = a.schema["properties"]
    assert props["id"] == {"type": "string", "pattern": "^[0-9a-f]{8}$"}
    assert props["name"] == {"type": "string", "pattern": "[a-z]+(\\.[a-z]+)*"}
    assert props["run"] == {"type": "string", "pattern": "^run_1\\."}
    assert props["file"] == {"type": "string", "pattern": "\\.log$"}
    assert props["day"] == {"type": "string", "format": "date"} and props["at"]["format"] == "time"
    assert props["config"]["additionalProperties"] == {"type": "string"}
    assert props["config"]["properties"] == {"kind": {"type": "string"}}
    b = tools["b"]
    assert b.schema["properties"]["tag"] == {"type": "string"} and b.schema["properties"]["key"] == {"type": "string"}
    assert any(".regex() at `tag`" in g for g in _gaps(b)) and any(".startsWith() at `key`" in g for g in _gaps(b))


def test_a_discriminated_union_is_any_of_its_options():
    """`z.discriminatedUnion("kind", [A, B])`: its options are the second argument (kb `position`)."""
    tools = _tools('''
const server = new McpServer({ name: "s", version: "1" });
const At = z.object({ kind: z.literal("at"), when: z.string() });
const In = z.object({ kind: z.literal("in"), minutes: z.number() });
server.registerTool("remind", {
  description: "Remind.",
  inputSchema: { reminders: z.array(z.discriminatedUnion("kind", [At, In])).min(1).max(5) },
}, async () => ({ content: [] }));
''')
    t = tools["remind"]
    assert _gaps(t) == []
    reminders = t.schema["properties"]["reminders"]
    assert reminders["minItems"] == 1 and reminders["maxItems"] == 5
    assert [set(o["properties"]) for o in reminders["items"]["anyOf"]] == [{"kind", "when"}, {"kind", "minutes"}]


def test_zod_4_metadata_and_number_formats_are_read():
    tools = _tools('''
const server = new McpServer({ name: "s", version: "1" });
server.registerTool("scan", { description: "Scan", inputSchema: {
  pattern: z.string().meta({ description: "Glob to match", examples: ["**/*.ts"] }),
  depth: z.uint32().min(1).max(10).optional(),
  skew: z.int32(),
  where: z.object({ path: z.string() }).loose(),
} }, async () => ({ content: [] }));
''')
    scan = tools["scan"]
    assert _gaps(scan) == []
    props = scan.schema["properties"]
    assert props["pattern"] == {"type": "string", "description": "Glob to match", "examples": ["**/*.ts"]}
    assert props["depth"] == {"type": "integer", "minimum": 1, "maximum": 10}
    assert props["skew"] == {"type": "integer", "minimum": -2147483648, "maximum": 2147483647}
    assert props["where"]["properties"] == {"path": {"type": "string"}}  # `.loose()`: unknown keys kept, none checked
    assert scan.schema["required"] == ["pattern", "skew", "where"]


def test_zod_4_string_formats_written_as_constructors_are_read():
    """zod 4's `z.guid()`, `z.ipv4()`, `z.httpUrl()`: a string of a format (kb/sdk.yaml zod.types), as
    z.toJSONSchema gives it; no gap."""
    tools = _tools('''
const server = new McpServer({ name: "s", version: "1" });
server.registerTool("ban", { description: "Ban", inputSchema: {
  id: z.guid(),
  address: z.ipv4().optional(),
  site: z.httpUrl(),
} }, async () => ({ content: [] }));
''')
    ban = tools["ban"]
    assert _gaps(ban) == []
    assert ban.schema["properties"] == {"id": {"type": "string", "format": "uuid"},
                                        "address": {"type": "string", "format": "ipv4"},
                                        "site": {"type": "string", "format": "uri"}}
    assert ban.schema["required"] == ["id", "site"]


def test_a_preprocess_that_only_reads_blank_values_as_omitted_is_no_coercion():
    # `z.preprocess((v) => blank(v) ? undefined : v, S.optional())` converts no value; one that rewrites it does
    tools = _tools('''
const server = new McpServer({ name: "s", version: "1" });
const optionalString = (s) => z.preprocess((value: unknown) => typeof value === "string" && value.trim() === "" ? undefined : value, s.optional());
server.registerTool("find", { description: "Find", inputSchema: {
  filter: optionalString(z.string().min(1)),
  count: z.preprocess((v) => Number(v), z.number()),
  label: z.preprocess((v) => v === "" ? undefined : v, z.string()),
  owner: z.preprocess((value) => {
    if (typeof value !== "string") return value;
    const normalized = value.trim().toLowerCase();
    return normalized === "" || normalized === "any" ? undefined : value;
  }, z.string().optional()),
  mode: z.preprocess((value) => {
    if (typeof value !== "string") return value;
    return value.trim().toLowerCase();
  }, z.string().optional()),
} }, async () => ({ content: [] }));
''')
    # (a block that hands every value back as it is or as omitted converts none, `owner`; one that returns another
    # value, `mode`'s lower-cased text, does)
    assert sorted(c[0] for c in tools["find"].coercions) == ["count", "label", "mode"]


def test_downlevelled_spreads_an_and_intersection_and_a_default_import_of_zod_are_read():
    """What bundlers and tsc write for `{ ...Base, x }` (`__spreadProps(__spreadValues({}, Base), { x })`, `__assign`,
    `Object.assign`), `A.and(B)` (an intersection) and `import z from "zod"` read through interop
    (`import_zod.default.string()`) are schemas like their source."""
    src = '''
var import_zod = __toESM(require("zod"));
var __spreadValues = (a, b) => a;
var __spreadProps = (a, b) => a;
const server = new McpServer({ name: "s", version: "1" });
const Base = { site: import_zod.default.string() };
server.tool("a", __spreadProps(__spreadValues({}, Base), { n: z.number().optional() }), async () => ({ content: [] }));
server.tool("b", __assign(__assign({}, Base), { m: z.boolean() }), async () => ({ content: [] }));
server.tool("c", { both: z.object({ p: z.string() }).and(z.object({ q: z.number() })) }, async () => ({ content: [] }));
'''
    tools = _tools(src)
    assert tools["a"].schema["properties"] == {"site": {"type": "string"}, "n": {"type": "number"}}
    assert tools["a"].schema["required"] == ["site"]
    assert list(tools["b"].schema["properties"]) == ["site", "m"]
    assert [list(o["properties"]) for o in tools["c"].schema["properties"]["both"]["allOf"]] == [["p"], ["q"]]
    assert all(t.gaps == () for t in tools.values())
