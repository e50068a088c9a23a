"""Checks the path holds in other shapes than `if (typeof args.x !== ...) throw` (analyse/validation.py, guards.py):
a function the dispatch calls with values it computes holds no input in its parameters; a check of a collection's
every element, of a value's members, of a local bound to a field, a chain of type tests whose last `else` rejects,
and a conjunct's type test in the tool's own code each check the field. Each test also states the same server
without the check, which is flagged."""

from __future__ import annotations

from tests.test_validation_path import BOTH, SDK, flagged, program, server
from auditor.analyse import mismatches

CALL = '    case "read_note": return await readNote(args);\n'
RETURN = '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8").slice(0, args.limit) }] };\n'
PATH_ONLY = {"path": "schema-unenforced"}


def _case(call: str, head: str = "", body: str = "") -> str:
    text = server(gate=False, head=head)
    assert CALL in text and RETURN in text
    text = text.replace(CALL, f"    case \"read_note\": return await {call};\n")
    return text.replace(RETURN, body) if body else text


def test_a_function_called_with_computed_values_reads_them_where_they_are_computed():
    """`readNote({ path: args.path, limit: typeof args.limit === "number" ? args.limit : 1 })`: readNote's
    `args.limit` is the value the dispatch computed, of a type it tested; handed the field as it is, it is flagged."""
    guarded = _case('readNote({ path: args.path, limit: typeof args.limit === "number" ? args.limit : 1 })')
    assert flagged({"index.ts": guarded}) == PATH_ONLY
    assert flagged({"index.ts": _case("readNote({ path: args.path, limit: args.limit })")}) == BOTH
    assert flagged({"index.ts": _case("readNote({ ...args })")}) == BOTH  # (a copy of the input is the input)


def test_only_the_parameter_handed_the_input_holds_it():
    """`readNote(args, settings)`: `settings` is a variable from outside the handler, and `settings.limit` is not
    the tool's `limit` (which nothing reads); handed the input in that place, its `limit` is the tool's."""
    head = "const settings: any = { limit: 3 };\n"
    body = ('  return { content: [{ type: "text", text: readFileSync(args.path, "utf8").slice(0, more.limit) }] };\n')
    text = _case("readNote(args, settings)", head, body).replace("async function readNote(args: any) {",
                                                                 "async function readNote(args: any, more: any) {")
    assert flagged({"index.ts": text}) == PATH_ONLY
    assert flagged({"index.ts": text.replace("readNote(args, settings)", "readNote(args, args)")}) == BOTH


NOTE_TOOL = ('const server = new Server({ name: "demo", version: "1" }, { capabilities: { tools: {} } });\n'
             'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
             '  { name: "fetch_page", description: "Fetch a page", inputSchema: { type: "object", properties: {\n'
             '      url: { type: "string" }, opts: { type: "object" } }, required: ["url"] } },\n'
             ']}));\n')


def _fetch_server(head: str, body: str) -> str:
    return (SDK + head + NOTE_TOOL +
            'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
            '  const args: any = request.params.arguments;\n'
            '  if (request.params.name === "fetch_page") {\n'
            '    if (typeof args.url !== "string") throw new Error("url must be a string");\n'
            + body +
            '    const res = await fetch(args.url, args.opts);\n'
            '    return { content: [{ type: "text", text: await res.text() }] };\n'
            '  }\n'
            '  throw new Error("unknown tool");\n'
            '});\n')


def _opts_flagged(text: str) -> bool:
    return any(f.attrs.get("field") == "opts" and f.kind == "unchecked-optional"
               for f in mismatches.mismatches(program({"index.ts": text}), {"probes": []}))


def test_a_loop_that_checks_every_entry_of_a_parameter_checks_it():
    """`for (const [k, v] of Object.entries(opts)) if (typeof v !== "string") return ...` in a validator whose
    result gates the call: each entry is rejected unless valid; the same loop with no test checks nothing."""
    head = ('function badEntry(opts: any) {\n'
            '  if (!opts) return null;\n'
            '  for (const [key, value] of Object.entries(opts)) {\n'
            '    if (typeof value !== "string") return `${key} must be a string`;\n'
            '  }\n'
            '  return null;\n}\n')
    body = '    const bad = badEntry(args.opts);\n    if (bad) return { content: [{ type: "text", text: bad }], isError: true };\n'
    assert not _opts_flagged(_fetch_server(head, body))
    assert _opts_flagged(_fetch_server(head.replace('if (typeof value !== "string") return `${key} must be a string`;',
                                                    "console.log(key, value);"), body))


def test_a_check_of_a_parameters_members_checks_it():
    """`if (o.headers !== undefined && !Array.isArray(o.headers)) throw ...` in a function handed the field: the
    value whose parts are checked is checked; a function that only reads a member checks nothing."""
    head = ('function checkOpts(o: any) {\n'
            '  if (o) {\n'
            '    if (o.headers !== undefined && !Array.isArray(o.headers)) throw new Error("headers must be a list");\n'
            '  }\n}\n')
    body = "    checkOpts(args.opts);\n"
    assert not _opts_flagged(_fetch_server(head, body))
    assert _opts_flagged(_fetch_server(head.replace("!Array.isArray(o.headers)", "o.headers.length > 9"), body))


def test_a_check_of_a_local_bound_to_a_field_checks_the_field():
    """`const cfg = args.opts; if (cfg === null || typeof cfg !== "object") throw ...` in the tool's own code; a
    local only logged, or only tested for its presence, checks nothing."""
    body = ('    if (args.opts !== undefined) {\n'
            '      const cfg = args.opts;\n'
            '      if (cfg === null || typeof cfg !== "object") throw new Error("opts must be an object");\n'
            '    }\n')
    assert not _opts_flagged(_fetch_server("", body))
    assert _opts_flagged(_fetch_server("", body.replace(
        '      if (cfg === null || typeof cfg !== "object") throw new Error("opts must be an object");\n',
        '      console.error("opts", cfg);\n')))
    presence = body.replace('cfg === null || typeof cfg !== "object"', "!cfg")  # (a test of presence is none)
    assert _opts_flagged(_fetch_server("", presence))


def test_a_chain_of_type_tests_whose_last_else_rejects_checks_the_value():
    """`if (typeof v === "string") ... else if (Array.isArray(v)) ... else throw`: only a value of a type it names
    goes on; with a last `else` that keeps the value, any value does."""
    head = ('function asOpts(v: any) {\n'
            '  if (typeof v === "string") { return { method: v }; }\n'
            '  else if (typeof v === "object") { return v; }\n'
            '  else { throw new Error("opts must be a string or an object"); }\n}\n')
    body = "    args.opts = asOpts(args.opts);\n"
    assert not _opts_flagged(_fetch_server(head, body))
    assert _opts_flagged(_fetch_server(head.replace('throw new Error("opts must be a string or an object");',
                                                    "return v;"), body))


def test_a_type_test_in_a_conjunction_of_the_tools_own_code_checks_the_field():
    """`if (args.opts && (typeof args.opts !== "object" || Array.isArray(args.opts))) return { ... }`: whatever it
    returns, a value of another type goes no further; a conjunction testing only its truth checks nothing."""
    body = ('    if (args.opts && (typeof args.opts !== "object" || Array.isArray(args.opts))) '
            'return { content: [{ type: "text", text: "opts must be an object" }] };\n')
    assert not _opts_flagged(_fetch_server("", body))
    assert _opts_flagged(_fetch_server("", body.replace('(typeof args.opts !== "object" || Array.isArray(args.opts))',
                                                        "args.opts.length === 0")))


def test_an_entry_of_a_local_object_is_followed_where_the_object_is_handed():
    """`const opts = { path: args.path, limit: args.limit }; readNote(opts)`: readNote uses `opts.limit` only in a
    comparison, so the field reaches nothing; where readNote hands it to `slice`, it is used."""
    compared = ('  return { content: [{ type: "text", text: readFileSync(args.path, "utf8") + '
                '(args.limit > 3 ? "many" : "few") }] };\n')
    text = _case("readNote(opts)", body=compared).replace(
        '  switch (name) {\n', '  const opts = { path: args.path, limit: args.limit };\n  switch (name) {\n')
    assert flagged({"index.ts": text}) == PATH_ONLY
    assert flagged({"index.ts": text.replace('(args.limit > 3 ? "many" : "few")', '"x".repeat(args.limit)')}) == BOTH


def test_a_local_object_only_written_into_the_result_reaches_nothing():
    """`const info = { settings: [{ limit: args.limit }] }; return { ... JSON.stringify({ info }) }`: the tool hands
    the caller back what it sent (also through `encodeURIComponent`); read from the local into `slice`, it is used."""
    body = ('  const info = { settings: [{ limit: args.limit }] };\n'
            '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8") + JSON.stringify({ info }) '
            '+ `?l=${encodeURIComponent(args.limit)}` }] };\n')
    assert flagged({"index.ts": _case("readNote(args)", body=body)}) == PATH_ONLY
    used = body.replace("JSON.stringify({ info })", '"x".repeat(info.settings[0].limit)')
    assert flagged({"index.ts": _case("readNote(args)", body=used)}) == BOTH


def test_a_parameter_tested_for_presence_does_not_use_its_entries():
    """`layout(xml, { limit: args.limit })` where layout reads `options != null && options.limit === 2`: the
    object tested, its entry only compared; where layout hands `options.limit` to `repeat`, it is used."""
    head = ('function layout(options: any) {\n'
            '  return options != null && options.limit === 2 ? "wide" : "narrow";\n}\n')
    body = ('  return { content: [{ type: "text", text: readFileSync(args.path, "utf8") + '
            'layout({ limit: args.limit }) }] };\n')
    assert flagged({"index.ts": _case("readNote(args)", head, body)}) == PATH_ONLY
    used = head.replace('options.limit === 2 ? "wide" : "narrow"', '"x".repeat(options.limit)')
    assert flagged({"index.ts": _case("readNote(args)", used, body)}) == BOTH


def test_a_predicate_accepting_listed_values_or_a_nested_type_test_checks_the_field():
    """`isValid(a)` returning `(a.opts === undefined || a.opts === "get" || a.opts === "head")` (only those values
    pass) or `(a.opts === undefined || (typeof a.opts === "object" && a.opts !== null))`, rejected by `if
    (!isValid(args)) throw`; a disjunction over two fields lets any value of one through."""
    head = ('const isValid = (a: any) => typeof a.url === "string" &&\n'
            '  (a.opts === undefined || a.opts === "get" || a.opts === "head");\n')
    body = '    if (!isValid(args)) throw new Error("invalid arguments");\n'
    assert not _opts_flagged(_fetch_server(head, body))
    nested = head.replace('a.opts === "get" || a.opts === "head"', '(typeof a.opts === "object" && a.opts !== null)')
    assert not _opts_flagged(_fetch_server(nested, body))
    assert _opts_flagged(_fetch_server(head.replace('a.opts === "get"', 'a.url === "get"'), body))


def test_a_value_only_asked_whether_it_includes_or_starts_with_a_text_reaches_nothing():
    """`opts.includes("head") ? ... : ...` and `"https://".startsWith(opts)` with their results only tested: the
    value is compared; handed on from there to `fetch`, it is used."""
    head = ('function pick(o: any) { return o?.includes("head") ? "HEAD" : "GET"; }\n'
            'function secure(o: any) { return "https://".startsWith(o) ? 1 : 0; }\n')
    body = '    const how = pick(args.opts) + secure(args.opts);\n'
    text = _fetch_server(head, body).replace("fetch(args.url, args.opts)", "fetch(args.url, { method: how })")
    assert not _opts_flagged(text)
    assert _opts_flagged(text.replace('return "https://".startsWith(o) ? 1 : 0;', 'return fetch(o) ? 1 : 0;'))


def test_an_entry_of_a_returned_object_is_followed_where_each_caller_keeps_it():
    """`wrap(o)` returns `{ kept: o, n: 1 }` and its one caller reads only `w.n` (and `Object.keys(w)`): the value is
    never used; read as `w.kept` and handed to `fetch`, it is."""
    head = 'function wrap(o: any) { return { kept: o, n: 1 }; }\n'
    body = '    const w = wrap(args.opts);\n    const n = w.n + Object.keys(w).length;\n'
    text = _fetch_server(head, body).replace("fetch(args.url, args.opts)", "fetch(args.url, { method: String(n) })")
    assert not _opts_flagged(text)
    assert _opts_flagged(text.replace("{ method: String(n) }", "w.kept"))
    assert _opts_flagged(text.replace("const w = wrap(args.opts);", "const w = wrap(args.opts); fetch(w);"))
    passed = text.replace("const w = wrap(args.opts);", "const w = wrap(args.opts); const ws = [1].map(wrap);")
    assert _opts_flagged(passed)  # (a call through the value `wrap` is none the linker resolves: not followed)



def test_a_validator_copying_a_field_nobody_reads_stores_nothing():
    """`openNote` checks `root` and returns a copy of `root` and `limit`: `limit` is stored with no check only when
    a caller reads it from the copy (`note.limit`), not when nobody does."""
    read = server()
    assert ".slice(0, note.limit)" in read
    assert flagged({"index.ts": read}) == BOTH
    assert flagged({"index.ts": read.replace(".slice(0, note.limit)", "")}) == PATH_ONLY
