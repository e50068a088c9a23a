"""Where a field the handler reads goes (analyse/uses.py): only tested, looked up, logged, range-checked, or never
read in the function it is handed to (also a method of an instance a factory returns), it reaches nothing; kept in
a local and handed on from there, it does."""

from __future__ import annotations

from tests.program_helpers import SDK
from tests.test_validation_path import BOTH, fields_flagged, flagged, server

RETURN = '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8").slice(0, args.limit) }] };\n'
PATH_ONLY = {"path": "schema-unenforced"}


def _with(head: str, body: str) -> str:
    text = server(gate=False, head=head).replace(RETURN, body)
    assert body in text
    return text


def _returning(expr: str) -> str:
    """The tool's return statement, its text the note read at args.path and EXPR."""
    return f'  return {{ content: [{{ type: "text", text: readFileSync(args.path, "utf8") + {expr} }}] }};\n'


def test_a_field_handed_to_a_method_of_an_instance_a_factory_returns_is_followed_there():
    """`const { pages } = makeServices(); pages.list({ limit: args.limit })`: makeServices returns an object whose
    `pages` is a `new Pages()` (a cached copy returned first is not read); Pages.list only compares the limit."""
    head = ('class Pages {\n'
            '  list(input: any) { return input.limit > 10 ? "many" : "few"; }\n'
            '  take(input: any) { return "x".repeat(input.limit); }\n}\n'
            'let cached: any;\n'
            'function makeServices() {\n  if (cached) return cached;\n'
            '  const services = { pages: new Pages() };\n  cached = services;\n  return services;\n}\n')
    body = ('  const { pages } = makeServices();\n'
            + _returning('pages.list({ limit: args.limit })'))
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    assert flagged({"index.ts": _with(head, body.replace("pages.list(", "pages.take("))}) == BOTH


def test_an_entry_a_method_returns_and_the_tools_own_function_echoes_reaches_nothing():
    """`const result = pages.list({ limit: args.limit })` in the tool's own function, list returning `{ shown:
    input.limit }`, and the tool returning `JSON.stringify({ shown: result.shown })`: the value goes back to the
    caller that sent it (the method found as `pages.list` is called on a local instance, not by the linker alone).
    Repeated into a text there instead, it is used."""
    head = ('class Pages {\n'
            '  list(input: any) { return { shown: input.limit, at: Date.now() }; }\n}\n'
            'function makeServices() {\n  const services = { pages: new Pages() };\n  return services;\n}\n')
    body = ('  const { pages } = makeServices();\n'
            '  const result = pages.list({ limit: args.limit });\n'
            + _returning('JSON.stringify({ shown: result.shown })'))
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    assert flagged({"index.ts": _with(head, body.replace("JSON.stringify({ shown: result.shown })",
                                                         '"x".repeat(result.shown)'))}) == BOTH


def test_a_string_method_through_optional_chaining_that_the_callee_leaves_on_checks_the_field():
    """`if (!input.path?.trim()) throw ...` in the function the field is handed to (as an entry of its object
    parameter): `?.` lets null and undefined by, and the `if` refuses those as it refuses an empty text, so only a
    string goes on. Only tested for presence (`if (!input.path)`), a value of another type goes on."""
    head = ('function load(input: any) {\n  if (!input.path?.trim()) throw new Error("path required");\n'
            '  return readFileSync(input.path, "utf8");\n}\n')
    body = '  return { content: [{ type: "text", text: load({ path: args.path }).slice(0, args.limit) }] };\n'
    assert flagged({"index.ts": _with(head, body)}) == {"limit": "unchecked-optional"}
    assert flagged({"index.ts": _with(head.replace("input.path?.trim()", "input.path"), body)}) == BOTH


def test_a_string_method_in_a_try_whose_catch_calls_a_function_that_always_throws_checks_the_field():
    """`try { const p = input.path.trim(); ... } catch (e) { fail(e); }`, fail's body ending in a `throw`: the
    failure of a value that is no string leaves the function. A catch that reports and goes on lets it by."""
    head = ('function fail(e: unknown): never {\n  const message = String(e);\n  throw new Error(message);\n}\n'
            'function load(input: any) {\n  try {\n    const p = input.path.trim();\n'
            '    return readFileSync(p, "utf8");\n  } catch (e) {\n    fail(e);\n  }\n'
            '  return readFileSync(input.path, "utf8");\n}\n')
    body = '  return { content: [{ type: "text", text: load({ path: args.path }).slice(0, args.limit) }] };\n'
    assert flagged({"index.ts": _with(head, body)}) == {"limit": "unchecked-optional"}
    assert flagged({"index.ts": _with(head.replace("    fail(e);\n", "    console.error(e);\n"), body)}) == BOTH


def test_a_range_check_that_throws_in_the_callee_checks_the_field():
    """`if (input.limit < 1 || input.limit > 100) throw ...` before the field is used: its bad values are refused."""
    head = ('function page(input: any) {\n'
            '  if (input.limit !== undefined) {\n'
            '    if (input.limit < 1 || input.limit > 100) throw new Error("limit out of range");\n  }\n'
            '  return "x".repeat(input.limit ?? 1);\n}\n')
    body = _returning('page({ limit: args.limit })')
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    unchecked = head.replace('    if (input.limit < 1 || input.limit > 100) throw new Error("limit out of range");\n', "")
    assert flagged({"index.ts": _with(unchecked, body)}) == BOTH


def test_a_local_is_read_only_in_its_own_scope():
    """Two blocks (the cases of one switch over the tools) each declare `const n`: the first holds the field and only
    compares it; the second's `n` is another local, and its use is not the field's."""
    body = ('  let out = "";\n'
            '  { const n = args.limit ?? 0; if (n > 5) out += "many"; }\n'
            '  { const n = 3; out += "x".repeat(n); }\n'
            + _returning('out'))
    assert flagged({"index.ts": _with("", body)}) == PATH_ONLY
    same = body.replace('  { const n = 3; out += "x".repeat(n); }\n', '  out += "x".repeat(args.limit ?? 1);\n')
    assert flagged({"index.ts": _with("", same)}) == BOTH


def test_a_normaliser_that_returns_a_default_for_what_is_no_finite_number_checks_the_field():
    """`const n = Math.floor(value); if (!Number.isFinite(n) || n < 1) return 1;`: only a number goes on; with the
    test of finiteness gone, what the caller handed reaches `Math.min` as it is."""
    head = ('function norm(value: any) {\n'
            '  const n = Math.floor(value);\n'
            '  if (!Number.isFinite(n) || n < 1) return 1;\n'
            '  return Math.min(n, 100);\n}\n')
    body = _returning('"x".repeat(norm(args.limit))')
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    assert flagged({"index.ts": _with(head.replace("!Number.isFinite(n) || ", ""), body)}) == BOTH


def test_a_predicate_that_rejects_a_local_holding_the_field_checks_it():
    """`const lim = args.limit ?? 1; if (!isSmall(lim)) return { isError: true, ... }`: only what the predicate
    accepts goes on; without the test, the local reaches `repeat` as it came."""
    head = 'function isSmall(n: any) { return n === 1 || n === 2; }\n'
    body = ('  const lim = args.limit ?? 1;\n'
            '  if (!isSmall(lim)) return { content: [{ type: "text", text: "bad" }], isError: true };\n'
            + _returning('"x".repeat(lim)'))
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    untested = body.replace('  if (!isSmall(lim)) return { content: [{ type: "text", text: "bad" }], isError: true };\n', "")
    assert flagged({"index.ts": _with(head, untested)}) == BOTH


def test_a_field_only_written_into_the_tools_result_reaches_nothing():
    """`return { ... text: ... + ` (limit ${n})` }`: the tool's result hands the caller back what it sent; a function
    the field is handed to returns it to its caller, which uses it."""
    body = '  const n = args.limit ?? 1;\n' + _returning('` (limit ${n})`')
    assert flagged({"index.ts": _with("", body)}) == PATH_ONLY
    assert flagged({"index.ts": _with("", body.replace("` (limit ${n})`", '"x".repeat(n)'))}) == BOTH
    head = "function wrap(v: any) { return { v }; }\n"
    assert flagged({"index.ts": _with(head, _returning('"x".repeat(wrap(args.limit).v)'))}) == BOTH
    method = body.replace("` (limit ${n})`", "` (limit ${n.toFixed(1)})`")  # a method whose result is written
    assert flagged({"index.ts": _with("", method)}) == PATH_ONLY
    mapped = body.replace("` (limit ${n})`", '[n].map((x) => "x".repeat(x)).join("")')  # handed on by a callback
    assert flagged({"index.ts": _with("", mapped)}) == BOTH


def test_a_key_of_a_constant_table_imported_from_another_module_reaches_nothing():
    """`WIDTHS[args.limit]` of `export const WIDTHS = { ... }` in tables.ts: what goes on is the table's value."""
    head = 'import { WIDTHS } from "./tables.js";\n'
    body = _returning('"x".repeat(WIDTHS[args.limit] ?? 1)')
    tables = "export const WIDTHS: Record<string, number> = { 1: 10, 2: 20 };\n"
    assert flagged({"index.ts": _with(head, body), "tables.ts": tables}) == PATH_ONLY
    computed = "export const WIDTHS: any = makeWidths();\nfunction makeWidths() { return new Proxy({}, {}); }\n"
    assert flagged({"index.ts": _with(head, body), "tables.ts": computed}) == BOTH


def test_a_field_only_compared_by_a_query_filter_reaches_nothing():
    """`coll.filter.byProperty("w").greaterOrEqual(args.limit)` (kb/sdk.yaml query_comparisons; also in an array or a
    Date): a value of another type matches nothing stored; handed to any other method of the builder, it is used."""
    head = 'declare const coll: any;\n'
    body = ('  const f = [coll.filter.byProperty("w").greaterOrEqual(args.limit),\n'
            '             coll.filter.byProperty("d").lessOrEqual(new Date(args.limit)),\n'
            '             coll.filter.byProperty("t").containsAny([args.limit])];\n'
            + _returning('String(coll.query.fetch({ filters: f }))'))
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    assert flagged({"index.ts": _with(head, body.replace(".greaterOrEqual(", ".limitTo("))}) == BOTH


def test_a_failed_number_predicate_in_a_rejecting_condition_checks_the_field():
    """`if (args.limit !== undefined && (!Number.isSafeInteger(args.limit) || args.limit < 1)) return { isError }`:
    only a number goes on (Number.isInteger / isFinite likewise); a test of its truth alone is none."""
    check = ('  if (args.limit !== undefined && (!Number.isSafeInteger(args.limit) || args.limit < 1)) '
             'return { content: [], isError: true };\n')
    body = check + _returning('"x".repeat(args.limit ?? 1)')
    assert flagged({"index.ts": _with("", body)}) == PATH_ONLY
    truth = body.replace("(!Number.isSafeInteger(args.limit) || args.limit < 1)", "!args.limit")
    assert flagged({"index.ts": _with("", truth)}) == BOTH


def test_a_type_test_through_optional_chaining_guards_the_plain_read():
    """`Array.isArray(args?.limit) ? args.limit : []`: one value, read with and without `?.`."""
    body = '  const v = typeof args?.limit === "number" ? args.limit : 1;\n' + _returning('"x".repeat(v)')
    assert flagged({"index.ts": _with("", body)}) == PATH_ONLY
    assert flagged({"index.ts": _with("", body.replace("? args.limit : 1", "? 1 : args.limit"))}) == BOTH


def test_a_value_computed_by_arithmetic_goes_where_the_result_goes():
    """`const cutoff = Date.now() - args.limit`, only compared after: nothing; `args.limit * 2` handed to `repeat`:
    used."""
    body = ('  const cutoff = Date.now() - args.limit;\n'
            + _returning('String([1, 2].filter((t) => t > cutoff).length)'))
    assert flagged({"index.ts": _with("", body)}) == PATH_ONLY
    assert flagged({"index.ts": _with("", _returning('"x".repeat(args.limit * 2)'))}) == BOTH


def test_returning_what_a_function_that_builds_a_failed_result_returns_rejects():
    """`if (... !Number.isSafeInteger(args.limit)) return badRequest("...")`, `badRequest` returning `{ ok: false,
    ... }` every time: a rejection; a helper that may return a success is none."""
    head = 'function badRequest(message: string) { return { ok: false, status: 400, payload: { error: message } }; }\n'
    check = '  if (args.limit !== undefined && !Number.isSafeInteger(args.limit)) return badRequest("limit");\n'
    body = check + _returning('"x".repeat(args.limit ?? 1)')
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    either = head.replace("{ return { ok: false,", "{ if (!message) return { ok: true }; return { ok: false,")
    assert flagged({"index.ts": _with(either, body)}) == BOTH
    handed = ('function respond(text: string, isError = false) { return { content: [{ type: "text", text }], isError }; }\n')
    maybe = body.replace('return badRequest("limit")', 'return respond("limit", true)')  # (isError is what it is handed)
    assert flagged({"index.ts": _with(handed, maybe)}) == BOTH


def test_a_check_in_a_callback_whose_result_the_handler_returns_is_the_handlers():
    """`return run(async () => { if (typeof args.limit !== "number") return { isError: true, ... }; ... })`: the
    callback's result is the handler's; the same test in a callback handed to `map` leaves nothing."""
    head = 'async function run(fn: () => Promise<any>) { try { return await fn(); } catch { return { content: [] }; } }\n'
    body = ('  return run(async () => {\n'
            '    if (args.limit !== undefined && typeof args.limit !== "number") return { content: [], isError: true };\n'
            '    return { content: [{ type: "text", text: readFileSync(args.path, "utf8") + "x".repeat(args.limit ?? 1) }] };\n'
            '  });\n')
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    mapped = ('  [1].map(() => { if (args.limit !== undefined && typeof args.limit !== "number") return { isError: true }; '
              'return 1; });\n' + _returning('"x".repeat(args.limit ?? 1)'))
    assert flagged({"index.ts": _with(head, mapped)}) == BOTH


def test_a_rejecting_test_against_literals_in_the_callee_checks_the_field():
    """`if (mode !== "all" && mode !== "any") throw ...`: only those values go on; a test against undefined, or one
    whose other part names another value, is no such check."""
    head = ('declare function send(x: any): string;\nfunction page(input: any, mode = "all") {\n'
            '  if (mode !== "all" && mode !== "any") throw new Error("bad mode");\n'
            '  return "x".repeat(input.length) + send(mode);\n}\n')
    body = _returning('page("a", args.limit)')
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    presence = head.replace('mode !== "all" && mode !== "any"', 'mode !== undefined && mode !== null')
    assert flagged({"index.ts": _with(presence, body)}) == BOTH
    other = head.replace('mode !== "all" && mode !== "any"', 'mode !== "all" && input !== "any"')
    assert flagged({"index.ts": _with(other, body)}) == BOTH


def test_an_entry_of_an_object_spread_into_the_argument_is_followed_under_its_key():
    """`f({ ...(args.limit && { limit: args.limit }) })`: the entry reaches f's `limit` (here never read; where read,
    handed to a function not known)."""
    head = 'declare function send(x: any): string;\nfunction page(input: any) { return send(input.other ?? ""); }\n'
    body = ('  return { content: [{ type: "text", text: readFileSync(args.path, "utf8") + '
            'page({ ...(args.limit !== undefined && { limit: args.limit }) }) }] };\n')
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    used = head.replace("input.other", "input.limit")
    assert flagged({"index.ts": _with(used, body)}) == BOTH


def test_a_field_only_looked_up_in_a_collection_reaches_nothing():
    """`seen.has(args.limit)` of a Set, `(known ?? []).includes(x)`: a value of another type finds nothing."""
    head = 'const seen = new Set<number>([1, 2]);\n'
    body = ('  const hit = seen.has(args.limit) ? "seen" : "new";\n'
            + _returning('hit'))
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    listed = body.replace("seen.has(args.limit)", "(known ?? []).includes(args.limit)")
    assert flagged({"index.ts": _with("let known: number[] | undefined;\n", listed)}) == PATH_ONLY
    stored = body.replace('const hit = seen.has(args.limit) ? "seen" : "new";', 'const hit = String(seen.add(args.limit).size);')
    assert flagged({"index.ts": _with(head, stored)}) == BOTH


def test_a_field_kept_in_a_local_is_followed_from_there():
    """`const limit = args.limit ?? 10` then `.slice(0, limit)`: a use, though the field is in no argument; kept and
    only compared, or checked in the local (`if (typeof limit !== "number") throw`), it is not."""
    body = ('  const limit = args.limit ?? 10;\n'
            '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8").slice(0, limit) }] };\n')
    assert flagged({"index.ts": _with("", body)}) == BOTH
    compared = body.replace(".slice(0, limit)", ' + (limit > 5 ? "long" : "short")')
    assert flagged({"index.ts": _with("", compared)}) == PATH_ONLY
    checked = body.replace('  const limit = args.limit ?? 10;\n', '  const limit = args.limit ?? 10;\n'
                           '  if (typeof limit !== "number") throw new Error("limit must be a number");\n')
    assert flagged({"index.ts": _with("", checked)}) == PATH_ONLY
    present = body.replace('  const limit = args.limit ?? 10;\n', '  const n = args.limit || 10;\n'
                           '  if (!n) throw new Error("a count is required");\n').replace("slice(0, limit)", "slice(0, n)")
    assert present != body
    assert flagged({"index.ts": _with("", present)}) == BOTH  # (a test of presence lets any other type through)


def test_a_field_handed_to_a_function_that_only_logs_it_reaches_nothing():
    """`trace("args", { limit: args.limit })` where trace spreads its data into a console call."""
    head = 'function trace(message: string, data?: any) { console.error(message, { ...data, at: Date.now() }); }\n'
    body = ('  trace("read", { limit: args.limit });\n'
            '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8") }] };\n')
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    sent = head.replace("console.error(message, { ...data, at: Date.now() })", "send({ ...data })")
    assert flagged({"index.ts": _with("declare function send(x: any): void;\n" + sent, body)}) == BOTH


def test_a_helper_that_returns_early_on_a_failed_type_test_checks_what_it_is_handed():
    """`toFormat(args.limit)` with `if (!v || typeof v !== "number") return undefined` first: only a number goes on."""
    head = ('function toFormat(v: any) {\n  if (!v || typeof v !== "number") return undefined;\n'
            '  return { type: "json", size: v };\n}\n')
    body = ('  const format = toFormat(args.limit);\n'
            + _returning('"x".repeat(format ? format.size : 0)'))
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    loose = head.replace('  if (!v || typeof v !== "number") return undefined;\n', "")
    assert flagged({"index.ts": _with(loose, body)}) == BOTH


def test_a_declared_boolean_tested_for_its_truth_is_used_there():
    """`if (args.verbose)` in the function the flag is handed to: for a string field that is a test of presence, but
    for a declared boolean it is the flag's use, and the string "false" passes as true. Compared strictly
    (`verbose === true`), a value of another type only ever fails the test."""
    from tests.program_helpers import SDK
    from tests.test_validation_path import fields_flagged

    def code(test: str, kind: str) -> str:
        return (SDK + 'const server = new Server({ name: "d", version: "1" }, { capabilities: { tools: {} } });\n'
                'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
                f'  {{ name: "show", description: "Show", inputSchema: {{ type: "object", properties: {{ flag: {{ type: "{kind}" }} }} }} }},\n'
                ']}));\n'
                f'function render(flag: any) {{ return {test} ? "long" : "short"; }}\n'
                'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
                '  const args: any = request.params.arguments;\n'
                '  if (request.params.name !== "show") throw new Error("unknown tool");\n'
                '  return { content: [{ type: "text", text: render(args.flag) }] };\n});\n')

    assert fields_flagged({"index.ts": code("flag", "boolean")}) == {"flag": "unchecked-optional"}
    assert fields_flagged({"index.ts": code("flag", "string")}) == {}
    assert fields_flagged({"index.ts": code("flag === true", "boolean")}) == {}


def test_a_type_test_guards_only_the_side_its_type_takes():
    """`Array.isArray(v) ? v.join(", ") : v` hands on a value of any other type in its other branch; with `: ""` there
    only an array is used. Negated (`typeof v !== "number" ? 0 : v`), the other side is the tested one."""
    body = _returning('send(pick(args.limit))')
    send = "declare function send(x: any): string;\n"
    both = send + 'function pick(v: any) { return Array.isArray(v) ? v.join(", ") : v; }\n'
    assert flagged({"index.ts": _with(both, body)}) == BOTH
    only = both.replace(': v; }', ': ""; }')
    assert flagged({"index.ts": _with(only, body)}) == PATH_ONLY
    negated = send + 'function pick(v: any) { return typeof v !== "number" ? 0 : v > 3; }\n'
    assert flagged({"index.ts": _with(negated, body)}) == PATH_ONLY


def test_a_field_kept_inside_a_structure_a_local_holds_is_a_use():
    """`const argv = [args.limit]` then `run(argv)`: the field is kept in the array the local holds."""
    body = ('  const argv = ["--count", args.limit];\n'
            + _returning('run(argv)'))
    assert flagged({"index.ts": _with("declare function run(a: any): string;\n", body)}) == BOTH


def test_a_rest_validator_checks_what_it_is_handed_and_a_constant_table_key_reaches_nothing():
    """`assertStrings("limit", n)` with `for (const v of values) if (typeof v !== "string") throw`: the local handed
    to it is checked; `UNITS[args.limit] || UNITS.s`: only the table's value goes on."""
    check = ('function assertStrings(msg: string, ...values: any[]) {\n'
             '  for (const v of values) if (typeof v !== "string") throw new Error(msg);\n}\n')
    body = ('  const n = args.limit;\n  assertStrings("limit", n);\n'
            '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8").slice(0, n) }] };\n')
    assert flagged({"index.ts": _with(check, body)}) == PATH_ONLY
    loose = check.replace('if (typeof v !== "string") throw new Error(msg);', "console.error(msg, v);")
    assert flagged({"index.ts": _with(loose, body)}) == BOTH
    table = 'const UNITS: Record<string, number> = { s: 1, m: 60 };\n'
    keyed = ('  const unit = UNITS[args.limit] || UNITS.s;\n'
             '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8").slice(0, unit) }] };\n')
    assert flagged({"index.ts": _with(table, keyed)}) == PATH_ONLY


def test_a_method_inherited_from_a_base_class_is_followed():
    """`store.find(args.limit)` where the local's class extends the one that declares `find`, which only compares
    the value."""
    head = ('class Base {\n  items: number[] = [];\n  find(n: any) { return this.items.filter((i) => i === n); }\n'
            '  take(n: any) { return this.items.slice(0, n); }\n}\n'
            'class Store extends Base {}\n')
    body = ('  const store = new Store();\n'
            + _returning('String(store.find(args.limit))'))
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    assert flagged({"index.ts": _with(head, body.replace("store.find(", "store.take("))}) == BOTH


def test_a_local_given_another_value_is_still_read_only_where_it_is_read():
    """`let id = args.limit; if (!id) id = 3;` then only compared in a lookup whose miss is refused: the assignment
    writes the local and reads nothing of the field, so it is no use of it."""
    body = ('  let id = args.limit;\n'
            '  if (!id) { id = 3; }\n'
            '  const s = [{ id: 1 }, { id: 3 }].find((x) => x.id === id);\n'
            '  if (!s) throw new Error("none");\n'
            + _returning('s.id'))
    assert flagged({"index.ts": _with("", body)}) == PATH_ONLY
    used = body.replace(_returning('s.id'), _returning('"x".repeat(id)'))
    assert flagged({"index.ts": _with("", used)}) == BOTH


def test_a_key_looked_up_in_a_map_the_class_holds_is_only_looked_up():
    """`this.facts.get(id)`, the field declared `facts = new Map()` and set again only to Maps: a value of another
    type finds nothing there. When the class may set it to a string, `get` is no lookup of a collection."""
    head = ('class Store {\n  facts = new Map();\n  load() { this.facts = new Map(Object.entries({})); }\n'
            '  get(id: any) { return this.facts.get(id); }\n}\nconst store = new Store();\n')
    body = _returning('JSON.stringify(store.get(args.limit))')
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    text = head.replace("this.facts = new Map(Object.entries({}))", 'this.facts = "x"')
    assert flagged({"index.ts": _with(text, body)}) == BOTH


def _only_with(head: str, body: str, line: str) -> None:
    """The server of HEAD and BODY flags only the path; without LINE (in HEAD or BODY: the check), both fields."""
    assert line in head + body
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    assert flagged({"index.ts": _with(head.replace(line, ""), body.replace(line, ""))}) == BOTH


def test_a_use_after_a_lookup_whose_miss_leaves_the_callee_is_of_a_held_key():
    """`const fact = this.facts.get(id); if (!fact) return undefined; this.facts.set(id, ...)`: past the `if`, `id`
    equals a key the Map holds, whatever it returned on a miss. Without the `if`, the `set` stores any value."""
    head = ('class Store {\n  facts = new Map();\n'
            '  update(id: any) {\n    const fact = this.facts.get(id);\n    if (!fact) return undefined;\n'
            '    this.facts.set(id, { ...fact, at: 1 });\n    return fact;\n  }\n}\nconst store = new Store();\n')
    _only_with(head, _returning('JSON.stringify(store.update(args.limit))'), "    if (!fact) return undefined;\n")


def test_a_field_read_after_a_lookup_of_it_whose_miss_leaves_is_a_held_key():
    """`const session = sessions.get(args.limit); if (!session) return ...; "x".repeat(args.limit)`: past the `if`,
    the field equals a key the Map holds. The `session` tested is the one declared in that block, not another
    case's of the same name declared first in the function."""
    head = 'const sessions = new Map();\n'
    body = ('  if (args.path === "a") {\n    const session = { id: 1 };\n'
            '    return { content: [{ type: "text", text: String(session.id) }] };\n  }\n'
            '  const session = sessions.get(args.limit);\n'
            '  if (!session) return { content: [] };\n'
            + _returning('"x".repeat(args.limit)'))
    _only_with(head, body, "  if (!session) return { content: [] };\n")


def test_a_conversion_compared_before_it_is_taken_else_a_literal_is_a_range_check():
    """`Number(args.limit) > 0 ? Number(args.limit) : 25`: whatever is given becomes a number that passed the
    comparison, or 25. A ternary on anything else (`args.path ? Number(args.limit) : 25`) takes any number."""
    body = '  const limit = Number(args.limit) > 0 ? Number(args.limit) : 25;\n' + _returning('"x".repeat(limit)')
    assert flagged({"index.ts": _with("", body)}) == PATH_ONLY
    other = body.replace("Number(args.limit) > 0 ?", "args.path ?")
    assert flagged({"index.ts": _with("", other)}) == BOTH


def test_a_date_made_of_the_value_and_refused_when_invalid_checks_it():
    """`const d = new Date(value); if (Number.isNaN(d.getTime())) return null; return d.toISOString()`: only a valid
    date's text goes on, never the value. Without the test, an invalid date's `toISOString()` throws a RangeError."""
    head = ('function normalize(value: any) {\n  if (!value) return null;\n'
            '  const d = value instanceof Date ? value : new Date(value);\n'
            '  if (Number.isNaN(d.getTime())) return null;\n  return d.toISOString();\n}\n')
    _only_with(head, _returning('"x".repeat(normalize(args.limit))'), "  if (Number.isNaN(d.getTime())) return null;\n")


def test_a_validator_whose_result_is_tested_checks_the_fields_it_hands_validators():
    """`result = ToolValidation.search(args); if (!result.valid) throw`, where search hands `args.limit` to a static
    validator returning `{ valid, errors }`: limit is checked; path, which no validator is handed, is not (the
    validator is not taken for a check of the whole input). Without the test of the result, nothing is checked."""
    head = ('class V {\n'
            '  static num(value: any, field: string) { const errors = [];\n'
            '    if (value !== undefined && typeof value !== "number") errors.push({ field });\n'
            '    return { valid: errors.length === 0, errors }; }\n'
            '  static all(...rs: any[]) { const errors = rs.flatMap((r) => r.errors); return { valid: errors.length === 0, errors }; }\n}\n'
            'class ToolValidation {\n  static search(args: any) { const a = V.num(args.limit, "limit"); return V.all(a); }\n}\n'
            'function check(args: any) {\n  let result;\n  result = ToolValidation.search(args);\n'
            '  if (!result.valid) throw new Error("invalid");\n}\n')
    body = '  check(args);\n' + _returning('"x".repeat(args.limit)')
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    untested = head.replace('if (!result.valid) throw new Error("invalid");', 'console.log(result.valid);')
    assert flagged({"index.ts": _with(untested, body)}) == BOTH


def test_a_use_after_a_lookup_by_a_local_whose_miss_leaves_is_of_a_held_key():
    """`const tier = args.limit || 1; const name = TIERS[tier]?.name; if (!name) return ...`: past the `if`, the
    local equals a key of the table (the member read after the lookup and the default aside). Without it, any value
    reaches the slice."""
    head = 'const TIERS: any = { 1: { name: "one" }, 2: { name: "two" } };\n'
    body = ('  const tier = args.limit || 1;\n  const name = TIERS[tier]?.name;\n'
            '  if (!name) { return { content: [], isError: true }; }\n'
            '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8").slice(0, tier) + name }] };\n')
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    assert flagged({"index.ts": _with(head, body.replace("  if (!name) { return { content: [], isError: true }; }\n",
                                                         ""))}) == BOTH


def test_a_key_made_of_the_value_looked_up_in_loaded_data_whose_miss_throws_is_held():
    """`const file = `${limit}.json`; const tier = data.tiers[file]; if (!tier) throw ...`: a text made of the
    value alone keys a lookup in data the server loads; reading a property by it uses nothing of it, and past the
    `if` the value made a key the data holds. Without the `if`, the slice takes any value."""
    head = 'function loadTiers(): any { return JSON.parse(readFileSync("tiers.json", "utf8")); }\n'
    body = ('  const { limit } = args;\n  const data = loadTiers();\n  const file = `${limit}.json`;\n'
            '  const tier = data.tiers[file];\n  if (!tier) throw new Error(`no tier ${limit}`);\n'
            '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8").slice(0, limit) + tier.title }] };\n')
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    assert flagged({"index.ts": _with(head, body.replace("  if (!tier) throw new Error(`no tier ${limit}`);\n",
                                                         ""))}) == BOTH


def test_a_use_after_a_call_whose_function_checks_the_value_is_of_a_checked_value():
    """`const page = args.limit; const parsed = pageOf(page); ... slice(0, page)`, where pageOf calls a string's method
    on its parameter first (a value of another type throws there): every use after that call, on every path, is of a
    checked value. When the call is only on one branch, or pageOf checks nothing, the later use is not."""
    head = ('function pageOf(value: any) { const m = value.match(/^(\\d+)$/); return m ? Number(m[1]) : 1; }\n'
            'function plain(value: any) { return value; }\n')
    body = ('  const page = args.limit;\n  const parsed = pageOf(page);\n'
            '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8").slice(parsed, page) }] };\n')
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    branch = body.replace("  const parsed = pageOf(page);\n", "  let parsed = 0;\n  if (args.path) { parsed = pageOf(page); }\n")
    assert flagged({"index.ts": _with(head, branch)}) == BOTH
    assert flagged({"index.ts": _with(head, body.replace("pageOf(page)", "plain(page)"))}) == BOTH


def test_a_list_whose_items_a_checking_function_maps_is_checked():
    """`args.limit.map(quote)`, quote calling a string's method on its item before going on: a value that is no list
    fails at `map`, an item of another type in quote; what reaches the use is checked. A function that checks
    nothing (`(x) => x`) leaves the items as they came."""
    head = 'function quote(s: any) { return `"${s.replace(/"/g, "")}"`; }\n'
    for fn in ["quote", '(s: any) => s.trim()']:
        body = f'  const joined = args.limit.map({fn}).join(" ");\n' + _returning('require("child_process").execSync(joined)')
        assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY, fn
    body = '  const joined = args.limit.map((s: any) => s).join(" ");\n' + _returning('require("child_process").execSync(joined)')
    assert flagged({"index.ts": _with(head, body)}) == BOTH


def test_a_use_in_a_callee_after_a_call_that_checks_its_parameter_is_of_a_checked_value():
    """In a function the field is handed to (`validate(kind)`), a use after a call whose function calls a string's
    method on it (`normalize(kind)`, `input.toLowerCase()`) on every path is of a checked value, as in the tool's own
    code; without that call first, the message is the raw value's."""
    head = ('function normalize(input: string) { const n = input.toLowerCase().trim();\n'
            '  if (["a", "b"].includes(n)) return n; return "unknown"; }\n'
            'function validate(kind?: string) {\n'
            '  if (kind) { const n = normalize(kind);\n'
            '    if (n === "unknown") return { type: "a", error: `bad kind: ${kind}` };\n'
            '    return { type: n }; }\n'
            '  return { type: "a" };\n}\n'
            'async function pull(kind?: string) { const t = validate(kind); if (t.error) return t.error; return t.type; }\n')
    body = '  const kind = args.limit as string | undefined;\n  const r = await pull(kind);\n' + _returning('r')
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    unchecked = head.replace("const n = normalize(kind);", "const n = kind;")
    assert flagged({"index.ts": _with(unchecked, body)}) == BOTH


def test_a_use_on_the_side_a_membership_test_of_a_cast_value_passes_is_of_a_member():
    """`if (p && ALL.includes(p as Kind)) list = [p]`: the cast is the same value, so only a member of ALL is used
    there; a branch no membership test guards uses the raw value."""
    head = ('const ALL: string[] = ["a", "b"];\n'
            'function prompt(p?: string) { let list: string[];\n'
            '  if (p && ALL.includes(p as string)) { list = [p]; } else { list = ["a"]; }\n'
            '  return list.join(","); }\n')
    body = '  const r = prompt(args.limit as string | undefined);\n' + _returning('r')
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    assert flagged({"index.ts": _with(head.replace("p && ALL.includes(p as string)", "p"), body)}) == BOTH


def test_a_text_made_of_the_field_handed_to_a_function_is_followed_there():
    """`log(`limit: ${args.limit}`)`, log only writing its message to stderr: the text reaches nothing, as the value
    handed whole would; a function that writes the text to a file uses it."""
    head = ('function log(message: string) { console.error(`[x] ${message}`); }\n'
            'function save(message: string) { require("fs").writeFileSync("/tmp/x", message); }\n')
    body = '  log(`limit: ${args.limit}`);\n' + _returning('"x"')
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    assert flagged({"index.ts": _with(head, body.replace("log(", "save("))}) == BOTH


def test_a_list_whose_items_a_reducer_checks_is_checked():
    """`(args.limit ?? []).reduce((acc, v) => { const [k, x] = v.split("="); ... }, {})`: the item is the reducer's
    second parameter, and a string's method called on it checks it; a reducer that only keeps it checks nothing."""
    body = ('  const env = (args.limit ?? []).reduce((acc: any, v: any) => { const [k, x] = v.split("="); acc[k] = x;'
            ' return acc; }, {});\n' + _returning('require("child_process").execSync("x", { env })'))
    assert flagged({"index.ts": _with("", body)}) == PATH_ONLY
    keeping = body.replace('const [k, x] = v.split("="); acc[k] = x;', 'acc[String(acc.length)] = v;')
    assert flagged({"index.ts": _with("", keeping)}) == BOTH


def test_a_check_of_a_text_made_of_the_field_is_no_check_of_the_field():
    """`run(`ls ${args.limit}`)`, run calling a string's method on its text before executing it: the text is checked,
    the field written into it is not; the field reaches the command."""
    head = 'function run(cmd: string) { const c = cmd.trim(); return require("child_process").execSync(c); }\n'
    body = '  run(`ls ${args.limit}`);\n' + _returning('"x"')
    assert flagged({"index.ts": _with(head, body)}) == BOTH


def test_a_parameter_set_again_to_what_a_checking_function_returns_is_checked_after():
    """`limit = count(limit)` in the callee, count rejecting what is no whole number: the name is written there, not
    read, and the use after that call is of a checked value."""
    head = ('function count(v: any) {\n  const n = Number(v);\n'
            '  if (!Number.isInteger(n) || n < 1) throw new TypeError("bad count");\n  return n;\n}\n'
            'function page(limit: any) {\n  limit = count(limit);\n  return "x".repeat(limit);\n}\n')
    body = _returning('page(args.limit)')
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    assert flagged({"index.ts": _with(head.replace("  limit = count(limit);\n", ""), body)}) == BOTH
    # Set again on every path from a checked value or a constant: the read after it is of the new value
    checked = head.replace("limit = count(limit);", "limit = limit ? count(limit) : 1;")
    assert flagged({"index.ts": _with(checked, body)}) == PATH_ONLY
    # ... but not when what it is set to carries the field on, or when it is set again only on one path
    for line in ("limit = limit || 10;", "limit = String(limit);", "if (limit) limit = count(limit);"):
        assert flagged({"index.ts": _with(head.replace("limit = count(limit);", line), body)}) == BOTH, line


def test_a_number_converted_defaulted_and_bounded_reaches_nothing_of_the_value():
    """`Math.max(1, Math.min(100, parseInt(args.limit, 10) || 10))`: whatever is given, a number in the range the code
    chose goes on; without the fallback NaN gets through, without the bound any number does."""
    clamped = '  const top = Math.max(1, Math.min(100, Number.parseInt(args.limit, 10) || 10));\n'
    assert flagged({"index.ts": _with("", clamped + _returning('"x".repeat(top)'))}) == PATH_ONLY
    unfallen = clamped.replace(" || 10", "")
    assert flagged({"index.ts": _with("", unfallen + _returning('"x".repeat(top)'))}) == BOTH
    unbounded = '  const top = Number(args.limit) || 10;\n'
    assert flagged({"index.ts": _with("", unbounded + _returning('"x".repeat(top)'))}) == BOTH


def test_a_field_handed_to_a_static_method_that_checks_it_is_followed_there():
    """`Parser.clean(args.path)`, a static method that calls a string's method on its parameter before any use:
    followed as a function of the boundary is; one that only hands it on leaves it unchecked."""
    head = ('class Parser {\n  static clean(p: any) { const t = p.trim(); return t; }\n'
            '  static pass(p: any) { return p; }\n}\n')
    body = '  const p = Parser.clean(args.path);\n' + _returning('"x"').replace('readFileSync(args.path, "utf8")',
                                                                             'readFileSync(p, "utf8")')
    assert flagged({"index.ts": _with(head, body)}) == {}
    assert flagged({"index.ts": _with(head, body.replace("Parser.clean", "Parser.pass"))}) == PATH_ONLY


def test_a_field_only_tested_by_a_regular_expression_reaches_nothing():
    """`const ok = /^[a-z.]+$/.test(args.path)`: a boolean comes of it, whatever is done with that; the field goes
    no further. Handed to another method of the pattern (`exec`), it does."""
    body = ('  const ok = /^[a-z.]+$/.test(args.path);\n'
            '  return { content: [{ type: "text", text: String(ok) }] };\n')
    assert flagged({"index.ts": _with("", body)}) == {}
    executed = body.replace(".test(args.path)", ".exec(args.path)")
    assert flagged({"index.ts": _with("", executed)}) == PATH_ONLY


def test_a_field_assigned_into_a_local_object_is_followed_as_that_entry():
    """`const filter = { tag: "all" }; if (args.limit) filter.limit = args.limit; pick(filter)`: pick only compares
    `filter.limit`, so the field reaches nothing; a function that repeats by it uses it."""
    head = ('function pick(filter: any) { return filter.limit > 10 ? "many" : "few"; }\n'
            'function take(filter: any) { return "x".repeat(filter.limit); }\n')
    body = ('  const filter: any = { tag: "all" };\n  if (args.limit) filter.limit = args.limit;\n'
            + _returning('pick(filter)'))
    assert flagged({"index.ts": _with(head, body)}) == PATH_ONLY
    assert flagged({"index.ts": _with(head, body.replace("pick(filter)", "take(filter)"))}) == BOTH


def test_what_a_branch_s_target_returns_is_the_tool_s_result_only_when_the_branch_hands_it_back():
    """`if (name === "edit") { const changed = diff(args); cache.set(key, changed); ... }`: diff's `return out` is
    no result handed back to the caller, so `note` copied into it reaches the cache (a use); when the branch returns
    what diff made (`return { ... JSON.stringify(diff(args)) }`), the note is only echoed."""
    from auditor.analyse import mismatches
    from program_helpers import SDK, program

    def code(branch: str) -> str:
        return SDK + (
            'const cache = new Map();\n'
            'function diff(args: any) {\n  const out: any = {};\n  if ("note" in args) out.note = args.note;\n'
            '  return out;\n}\n'
            'const server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });\n'
            'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
            '  { name: "edit", description: "Edit", inputSchema: { type: "object", properties: {\n'
            '      note: { type: "string" } } } }] }));\n'
            'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
            '  const { name, arguments: args } = request.params;\n'
            f'  if (name === "edit") {{\n{branch}  }}\n'
            '  throw new Error("unknown tool");\n});\n')

    def flagged_note(branch: str) -> set:
        return {f.kind for f in mismatches.mismatches(program({"index.ts": code(branch)}), {"probes": []})
                if f.attrs.get("tool") == "edit" and f.attrs.get("field") == "note"}

    assert flagged_note('    const changed = diff(args);\n    cache.set("k", changed);\n'
                        '    return { content: [{ type: "text", text: "saved" }] };\n') == {"unchecked-optional"}
    assert flagged_note('    return { content: [{ type: "text", text: JSON.stringify(diff(args)) }] };\n') == set()
    assert flagged_note('    let result: any;\n    result = diff(args);\n'
                        '    return { content: [{ type: "text", text: JSON.stringify(result) }] };\n') == set()
    assert flagged_note('    let result: any;\n    result = diff(args);\n    const out = { ...result, at: 1 };\n'
                        '    return { content: [{ type: "text", text: JSON.stringify(out) }] };\n') == set()


SEARCH = SDK + """const server = new Server({ name: "s", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "search", description: "Search.",
  inputSchema: { type: "object", properties: { q: { type: "string" }, archived: { type: "boolean" } } } }] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name !== "search") throw new Error("unknown tool");
  const args = request.params.arguments as any;
  const used: any = {};
  if (typeof args.q !== "string") throw new Error("q");
  if (args.archived === true) await fetch("https://example.invalid/archive", { method: "POST", body: args.archived });
  const res = await fetch("https://example.invalid/search?q=" + args.q, { method: "POST", body: JSON.stringify(used) });
  return { content: [{ type: "text", text: await res.text() }] };
});
"""


def test_a_value_used_where_a_strict_comparison_with_true_or_false_holds_is_that_literal():
    """`if (args.archived === true) await fetch(..., { body: args.archived })`: there the value is `true`. A
    loose comparison (`== true`) holds for 1 and "1" too: the value kept may be either."""
    assert fields_flagged({"index.ts": SEARCH}) == {}
    assert fields_flagged({"index.ts": SEARCH.replace("=== true", "== true")}) == {"archived": "unchecked-optional"}


LIST = 'limit: { type: "array", items: { type: "string" } }'


def _listed(head: str, body: str) -> str:
    """The server of `_with`, its `limit` declaring a list of strings."""
    return _with(head, body).replace('limit: { type: "number", minimum: 1 }', LIST)


def test_a_list_whose_items_a_predicate_only_compares_reaches_nothing():
    """`args.limit.some((t) => KNOWN.includes(t))`, `filter` with a `return` in a block: a value that is no list
    throws at the list's method, and each item is only compared where the predicate's result is only tested. An item
    the predicate reads a file by is used; so is one `map` hands on as it is."""
    head = 'const KNOWN = ["a", "b"];\n'
    for call in ['args.limit.some((t: any) => KNOWN.includes(t))',
                 'args.limit.filter((t: any) => { return KNOWN.includes(t); }).length > 0']:
        body = f'  const hit = args.limit !== undefined && {call};\n' + _returning('(hit ? "yes" : "no")')
        assert flagged({"index.ts": _listed(head, body)}) == PATH_ONLY, call
    for call in ['args.limit.some((t: any) => readFileSync(t, "utf8").length > 0)',
                 'args.limit.map((t: any) => t).join(" ")']:
        body = f'  const hit = args.limit !== undefined && {call};\n' + _returning('(hit ? "yes" : "no")')
        assert flagged({"index.ts": _listed(head, body)}) == {"path": "schema-unenforced", "limit": "unchecked-optional"}, call


def test_a_list_s_own_method_checks_none_of_its_items():
    """`args.limit.join(" ")` handed to a command: a value that is no list throws at `join`, but the items of a list,
    whatever they are, reach the command as text (`[1, {}]` gives "1 [object Object]"): the field's items are not
    checked, as they are not when the list is handed on as it is."""
    head = 'import { execSync } from "node:child_process";\n'
    body = '  const out = execSync("ls " + args.limit.join(" ")).toString();\n' + _returning("out")
    assert flagged({"index.ts": _listed(head, body)}) == BOTH
    assert flagged({"index.ts": _listed(head, body.replace('args.limit.join(" ")', 'args.limit'))}) == BOTH
    body = '  const out = args.limit.some((t: any) => t === "x") ? "yes" : "no";\n' + _returning("out")
    assert flagged({"index.ts": _listed(head, body)}) == PATH_ONLY  # (items only compared)


def test_a_string_method_on_a_default_of_an_optional_field_checks_it_when_given():
    """`const s = (v ?? "").trim()` in the function an optional string field is handed to: a missing value becomes
    the default, and one given that is no string throws there. A function that only defaults it checks nothing."""
    head = 'function clean(v: any) { const s = (v ?? "").trim(); return s.toUpperCase(); }\n'
    body = '  const n = clean(args.limit);\n' + _returning("n")
    text = _with(head, body).replace('limit: { type: "number", minimum: 1 }', 'limit: { type: "string" }')
    assert flagged({"index.ts": text}) == PATH_ONLY
    unchecked = text.replace('const s = (v ?? "").trim(); return s.toUpperCase();', 'return v ?? "";')
    assert flagged({"index.ts": unchecked}) == BOTH
