"""A check of a tool's input anywhere on its path (handler, dispatch, implementation, what it calls, across modules)
enforces what it declares; a low-level handler with no check at all is what the schema findings are for."""

from __future__ import annotations

import pytest

from auditor.analyse import mismatches
from tests.program_helpers import SDK, line_of, program

KINDS = {"schema-unenforced", "unchecked-optional"}


def _flagged(src: str) -> dict[str, str]:
    """Field -> kind of the schema findings (KINDS) of a server of one file, index.ts, written SRC."""
    return {f.attrs["field"]: f.kind for f in mismatches.mismatches(program({"index.ts": src}), {"probes": []})
            if f.kind in KINDS}


NOTE = "z.object({ path: z.string(), limit: z.number().min(1).optional() })"


def server(check: str = "", head: str = "", handler: str = "", other: str = "", gate: bool = True) -> str:
    opened = ("  const note = openNote({ root: args.path, limit: args.limit });\n"
              "  return { content: [{ type: \"text\", text: readFileSync(note.root, \"utf8\").slice(0, note.limit) }] };\n"
              ) if gate else \
        "  return { content: [{ type: \"text\", text: readFileSync(args.path, \"utf8\").slice(0, args.limit) }] };\n"
    return (SDK + 'import { readFileSync } from "node:fs";\nimport { z } from "zod";\n' + head +
            'const server = new Server({ name: "demo", version: "1" }, { capabilities: { tools: {} } });\n'
            'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
            '  { name: "read_note", description: "Read a note", inputSchema: { type: "object", properties: {\n'
            '      path: { type: "string" },\n'
            '      limit: { type: "number", minimum: 1 } }, required: ["path"] } },\n'
            '  { name: "other", description: "Other", inputSchema: { type: "object", properties: { path: { type: "string" } } } },\n'
            ']}));\n'
            'function openNote(options: any) {\n'
            '  if (options.root === undefined) throw new Error("root required");\n'
            '  return { root: options.root, limit: options.limit };\n'
            '}\n'
            'async function readNote(args: any) {\n' + check + opened + '}\n'
            'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
            '  const { name } = request.params;\n'
            '  const args = ' + (handler or "request.params.arguments") + ';\n'
            '  switch (name) {\n'
            '    case "read_note": return await readNote(args);\n'
            '    case "other": { ' + other + ' return { content: [] }; }\n'
            '  }\n'
            '  throw new Error("unknown tool");\n'
            '});\n')


def flagged(files: dict[str, str]) -> dict[str, str]:
    return {f.attrs["field"]: f.kind for f in mismatches.mismatches(program(files), {"probes": []})
            if f.kind in KINDS and f.attrs["tool"] == "read_note"}


def fields_flagged(files: dict[str, str]) -> dict[str, str]:
    """Field -> the schema finding's kind, over every tool of FILES."""
    return {f.attrs["field"]: f.kind for f in mismatches.mismatches(program(files), {"probes": []}) if f.kind in KINDS}


BOTH = {"path": "schema-unenforced", "limit": "unchecked-optional"}


def test_a_gate_that_checks_neither_field_is_flagged_without_a_validator():
    assert flagged({"index.ts": server()}) == BOTH


@pytest.mark.parametrize("head, check, handler, extra", [
    # zod: a local schema, one imported from another module, a member of an object of schemas
    (f"const NoteArgs = {NOTE};\n", "  NoteArgs.parse(args);\n", "", {}),
    ('import { NoteArgs } from "./schemas.js";\n',
     "  const r = NoteArgs.safeParse(args);\n  if (!r.success) throw new Error(String(r.error));\n", "",
     {"schemas.ts": f'import {{ z }} from "zod";\nexport const NoteArgs = {NOTE};\n'}),
    (f"const Schemas = {{ note: {NOTE} }};\n", "  await Schemas.note.parseAsync(args);\n", "", {}),
    # in the handler, before the dispatch
    (f"const NoteArgs = {NOTE};\n", "", "NoteArgs.parse(request.params.arguments)", {}),
    # in a function the implementation calls, in another module
    ('import { validated } from "./check.js";\n', "  validated(args);\n", "",
     {"check.ts": f'import {{ z }} from "zod";\nconst NoteArgs = {NOTE};\nexport function validated(a: unknown) {{ return NoteArgs.parse(a); }}\n'}),
    # ajv: a compiled validator, and ajv.validate(schema, data)
    ('import Ajv from "ajv";\nconst ajv = new Ajv();\nconst validate = ajv.compile({ type: "object" });\n',
     '  if (!validate(args)) throw new Error("bad input");\n', "", {}),
    ('import Ajv from "ajv";\nconst ajv = new Ajv();\n', '  if (!ajv.validate({ type: "object" }, args)) throw new Error("bad");\n', "", {}),
    # valibot and typebox
    ('import * as v from "valibot";\nconst NoteArgs = v.object({ path: v.string() });\n', "  v.parse(NoteArgs, args);\n", "", {}),
    ('import { Type } from "@sinclair/typebox";\nimport { Value } from "@sinclair/typebox/value";\n'
     'const NoteType = Type.Object({ path: Type.String() });\n', '  if (!Value.Check(NoteType, args)) throw new Error("bad");\n', "", {}),
    ('import { Type } from "@sinclair/typebox";\nimport { TypeCompiler } from "@sinclair/typebox/compiler";\n'
     'const C = TypeCompiler.Compile(Type.Object({ path: Type.String() }));\n', '  if (!C.Check(args)) throw new Error("bad");\n', "", {}),
], ids=["zod-local", "zod-imported", "zod-member", "handler", "callee-module", "ajv-compile", "ajv-validate", "valibot",
        "typebox-value", "typebox-compiler"])
def test_a_validator_anywhere_on_the_path_enforces_the_input(head, check, handler, extra):
    assert flagged({"index.ts": server(check=check, head=head, handler=handler), **extra}) == {}


def test_a_readable_schema_enforces_only_the_fields_it_declares():
    head = "const PathOnly = z.object({ path: z.string() });\n"
    assert flagged({"index.ts": server(check="  PathOnly.parse(args);\n", head=head)}) == {"limit": "unchecked-optional"}


def test_a_hand_written_validator_checks_the_fields_of_its_conditions():
    head = 'function checkArgs(a: any) {\n  if (typeof a.path !== "string") throw new Error("path must be a string");\n}\n'
    assert flagged({"index.ts": server(check="  checkArgs(args);\n", head=head)}) == {"limit": "unchecked-optional"}


def test_a_validator_in_another_tools_branch_does_not_count():
    head = f"const NoteArgs = {NOTE};\n"
    assert flagged({"index.ts": server(head=head, other="NoteArgs.parse(args);")}) == BOTH


def test_parse_of_a_field_is_not_a_validator():
    assert flagged({"index.ts": server(check="  JSON.parse(args.path);\n")}) == BOTH


def test_a_low_level_handler_with_no_check_at_all_is_flagged_at_the_call_it_feeds():
    text = server(gate=False)
    found = {f.attrs["field"]: f for f in mismatches.mismatches(program({"index.ts": text}), {"probes": []})
             if f.kind in KINDS and f.attrs["tool"] == "read_note"}
    assert {k: f.kind for k, f in found.items()} == BOTH
    use = line_of(text, "readFileSync(args.path")
    assert [a.start_line for a in found["path"].anchors] == [line_of(text, "path: { type"), use]
    assert "no check exists on any path" in found["limit"].summary
    # a field named as a JSON Schema keyword is anchored at its own property, not at another's `description:`
    named = text.replace('      path: { type: "string" },\n', '      description: { type: "string" },\n'
                         '      path: { type: "string", description: "The note" },\n') \
        .replace('readFileSync(args.path, "utf8")', 'readFileSync(args.path + args.description, "utf8")')
    assert named != text
    found = {f.attrs["field"]: f for f in mismatches.mismatches(program({"index.ts": named}), {"probes": []})
             if f.kind in KINDS and f.attrs["tool"] == "read_note"}
    assert found["description"].anchors[0].start_line == line_of(named, "description: { type")


def test_a_low_level_handler_that_validates_is_not_flagged():
    head = f"const NoteArgs = {NOTE};\n"
    assert flagged({"index.ts": server(gate=False, head=head, check="  const ok = NoteArgs.parse(args);\n")}) == {}


def test_a_value_tested_for_its_type_where_it_is_used_is_not_unchecked():
    text = server(gate=False).replace("readFileSync(args.path,", 'readFileSync(typeof args.path === "string" ? args.path : "",')
    assert flagged({"index.ts": text}) == {"limit": "unchecked-optional"}


def test_the_input_destructured_with_a_default_in_the_handler_is_the_input():
    text = server(head=f"const NoteArgs = {NOTE};\n").replace(
        "  const { name } = request.params;\n  const args = request.params.arguments;\n",
        "  const { name, arguments: args = {} } = request.params;\n  NoteArgs.parse(args);\n")
    assert "arguments: args = {}" in text
    assert flagged({"index.ts": text}) == {}


def test_a_field_passed_to_a_function_that_never_reads_that_parameter_is_not_a_use():
    """`geocode(args.address, args.city)` where geocode names `city` and never uses it: only `address` is flagged."""
    code = (SDK + 'const server = new Server({ name: "geo", version: "1" }, { capabilities: { tools: {} } });\n'
            'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
            '  { name: "geo", description: "Geocode", inputSchema: { type: "object", properties: {\n'
            '      address: { type: "string" }, city: { type: "string" } }, required: ["address"] } }]}));\n'
            'async function geocode(address: string, city: string) {\n'
            '  return (await fetch("https://geo.invalid/?q=" + encodeURIComponent(address))).text();\n'
            '}\n'
            'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
            '  const args: any = request.params.arguments;\n'
            '  if (request.params.name === "geo") {\n'
            '    return { content: [{ type: "text", text: await geocode(args.address, args.city) }] };\n'
            '  }\n'
            '  throw new Error("unknown tool");\n'
            '});\n')
    assert fields_flagged({"index.ts": code}) == {"address": "schema-unenforced"}


def test_a_use_after_a_type_chain_whose_else_throws_is_checked():
    """`if (x == null) ... else if (typeof x === "number") ... else if (typeof x === "string") ... else throw`: what
    follows runs only for a value of a tested type; without the throwing else it is not checked."""
    def code(last: str) -> str:
        return (SDK + 'const server = new Server({ name: "t", version: "1" }, { capabilities: { tools: {} } });\n'
                'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
                '  { name: "when", description: "Convert", inputSchema: { type: "object", properties: {\n'
                '      input: { type: "string" } } } }]}));\n'
                'function convert(args: any) {\n'
                '  const { input } = args;\n'
                '  let date;\n'
                '  if (input === void 0 || input === null) { date = new Date(); }\n'
                '  else if (typeof input === "number") { date = new Date(input * 1000); }\n'
                '  else if (typeof input === "string") { date = new Date(input.trim()); }\n'
                f'  {last}\n'
                '  return { content: [{ type: "text", text: date.toISOString() + "x".repeat(input) }] };\n'
                '}\n'
                'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
                '  if (request.params.name === "when") return convert(request.params.arguments);\n'
                '  throw new Error("unknown tool");\n'
                '});\n')
    assert _flagged(code('else { throw new Error("input must be a number or a string"); }')) == {}
    assert _flagged(code("")) == {"input": "unchecked-optional"}


@pytest.mark.parametrize("copy", [
    "function normalize(a: any) {\n  const out: any = {};\n"
    "  for (const [k, v] of Object.entries(a)) out[k.replace(/_([a-z])/g, (_, c) => c.toUpperCase())] = v;\n"
    "  return out;\n}\n",
    "const normalize = (a: any) => ({ ...a });\n",
    "function normalize(a: any) { return Object.assign({}, a); }\n",
], ids=["entries-loop", "spread", "assign"])
def test_a_check_of_a_copy_of_the_input_checks_the_input(copy):
    # `const n = normalize(args); check(n)`: the function returns a copy of its argument (extract/copies.py), so a
    # check of what it returns is a check of the input
    head = copy + ('function checkArgs(a: any) {\n  if (typeof a.path !== "string") throw new Error("path");\n'
                   '  if (a.limit !== undefined && typeof a.limit !== "number") throw new Error("limit");\n}\n')
    check = "  const n = normalize(args);\n  checkArgs(n);\n"
    assert flagged({"index.ts": server(check=check, head=head)}) == {}


def test_a_call_that_returns_something_else_than_a_copy_is_not_the_input():
    head = ("function lookup(a: any) { return { path: String(a.path).trim(), limit: 10 }; }\n"
            'function checkArgs(a: any) {\n  if (typeof a.path !== "string") throw new Error("path");\n'
            '  if (a.limit !== undefined && typeof a.limit !== "number") throw new Error("limit");\n}\n')
    assert flagged({"index.ts": server(check="  const n = lookup(args);\n  checkArgs(n);\n", head=head)}) == BOTH


def test_the_type_test_of_a_conjunction_that_rejects_checks_its_field():
    head = ('function checkArgs(a: any) {\n  if (typeof a.path !== "string") throw new Error("path");\n'
            '  if (a.mode === "page") {\n    if (a.limit !== undefined && typeof a.limit !== "number") throw new Error("limit");\n  }\n}\n')
    assert flagged({"index.ts": server(check="  checkArgs(args);\n", head=head)}) == {}
    plain = head.replace('a.limit !== undefined && typeof a.limit !== "number"', 'a.limit !== undefined && a.mode === "x"')
    assert flagged({"index.ts": server(check="  checkArgs(args);\n", head=plain)}) == {"limit": "unchecked-optional"}


def test_a_gate_that_never_names_an_optional_field_does_not_store_it():
    # the gate sees `path` only: `limit` is neither passed to it nor read by it, so nothing stores it unchecked; a
    # field named in its camelCase spelling (`normalize` copies `max_lines` as `maxLines`) is named
    text = server().replace("openNote({ root: args.path, limit: args.limit })", "openNote({ root: args.path })") \
        .replace("return { root: options.root, limit: options.limit };", "return { root: options.root };")
    assert "limit: args.limit" not in text and flagged({"index.ts": text}) == {"path": "schema-unenforced"}
    camel = server().replace("limit", "max_lines").replace("limit: options.max_lines", "limit: options.maxLines") \
        .replace("openNote({ root: args.path, max_lines: args.max_lines })", "openNote({ root: args.path, maxLines: args.maxLines })")
    assert flagged({"index.ts": camel}) == {"path": "schema-unenforced", "max_lines": "unchecked-optional"}


def test_a_gate_s_nested_check_of_a_renamed_field_checks_it():
    """`const { limit: wanted } = options; ... else if (wanted) { if (!KNOWN.includes(wanted)) throw ... }`: the gate
    checks `limit` in the branch that uses it, under the local it renamed it to; without the nested check it stores
    `limit` unchecked."""
    checked = server().replace(
        "  return { root: options.root, limit: options.limit };\n",
        "  const { limit: wanted } = options;\n  let chosen = 1;\n"
        "  if (KNOWN.length === 1) { chosen = KNOWN[0]; }\n"
        "  else if (wanted) {\n    if (!KNOWN.includes(wanted)) throw new Error(\"unknown limit\");\n    chosen = wanted;\n  }\n"
        "  return { root: options.root, limit: chosen };\n").replace("function openNote(", "const KNOWN = [1, 5];\nfunction openNote(") \
        .replace('limit: { type: "number", minimum: 1 }', 'limit: { type: "number" }')  # (a membership test enforces no bound)
    assert "KNOWN.includes(wanted)" in checked and flagged({"index.ts": checked}) == {"path": "schema-unenforced"}
    unchecked = checked.replace("    if (!KNOWN.includes(wanted)) throw new Error(\"unknown limit\");\n", "")
    assert flagged({"index.ts": unchecked}) == BOTH


def test_a_predicate_the_handler_rejects_unless_true_checks_what_it_tests():
    # `if (!isValidNote(args)) throw`: the predicate's result tests the type of path and limit
    head = ('const isValidNote = (a: any) => typeof a === "object" && a !== null && typeof a.path === "string"\n'
            '  && (a.limit === undefined || typeof a.limit === "number");\n')
    assert flagged({"index.ts": server(check='  if (!isValidNote(args)) throw new Error("bad note");\n', head=head)}) == {}
    # called without rejecting on its result, it checks nothing
    assert flagged({"index.ts": server(check='  if (isValidNote(args)) console.error("ok");\n', head=head)}) == BOTH


def test_a_predicate_that_returns_false_for_what_it_refuses_checks_what_each_refusal_tests():
    # `if (!isValidNote(args)) throw`, the predicate written as statements: `return false` for a bad path or limit
    head = ('function isValidNote(a: any) {\n  if (typeof a !== "object" || a === null) return false;\n'
            '  if (!["a.md", "b.md"].includes(a.path)) return false;\n'
            '  if (a.limit !== undefined && typeof a.limit !== "number") return false;\n  return true;\n}\n')
    assert flagged({"index.ts": server(check='  if (!isValidNote(args)) throw new Error("bad note");\n', head=head)}) == {}
    # a `return false` its caller does not reject on refuses nothing
    assert flagged({"index.ts": server(check='  if (isValidNote(args)) console.error("ok");\n', head=head)}) == BOTH


def test_a_field_handed_to_a_function_that_leaves_for_values_outside_its_cases_is_checked():
    # `pick(args.path)` switches on its parameter and returns for any other value: no case's code runs for it
    head = ('function pick(p: string) {\n  switch (p) {\n    case "inbox": return "i";\n    case "archive": return "a";\n'
            '    default: return undefined;\n  }\n}\n')
    assert flagged({"index.ts": server(check="  pick(args.path);\n", head=head)}) == {"limit": "unchecked-optional"}
    falls = head.replace('    default: return undefined;\n', '')
    assert flagged({"index.ts": server(check="  pick(args.path);\n", head=falls)}) == BOTH


def test_a_low_level_handler_that_checks_some_fields_is_flagged_for_the_others_it_passes_on():
    text = server(gate=False).replace("async function readNote(args: any) {\n",
                                      'async function readNote(args: any) {\n  if (typeof args.path !== "string") throw new Error("path");\n')
    found = {f.attrs["field"]: f for f in mismatches.mismatches(program({"index.ts": text}), {"probes": []})
             if f.kind in KINDS and f.attrs["tool"] == "read_note"}
    assert {k: f.kind for k, f in found.items()} == {"limit": "unchecked-optional"}
    assert "no check of this field (only of others) exists" in found["limit"].summary


def test_a_schema_parse_of_the_input_or_its_unwrapped_member_enforces_it():
    # `const raw = wrapped ? args.params : args; NoteArgs.parse(raw)`: the input either way
    head = f"const NoteArgs = {NOTE};\n"
    check = ('  const raw = args && "params" in args ? args.params : args;\n'
             '  NoteArgs.parse(raw);\n')
    assert flagged({"index.ts": server(check=check, head=head, gate=False)}) == {}


def test_a_field_only_compared_on_its_way_to_the_call_is_not_passed_on():
    # `.slice(0, args.limit === 1 ? 1 : 10)` passes 1 or 10, never the input's value
    text = server(gate=False).replace(".slice(0, args.limit)", ".slice(0, args.limit === 1 ? 1 : 10)")
    assert "args.limit === 1" in text
    assert flagged({"index.ts": text}) == {"path": "schema-unenforced"}


def test_a_value_only_written_to_a_log_is_no_use():
    """`logger.info("reading", { limit: args.limit })` and `console.error(...)`: a log line is no request, state or
    output of the tool, so a field that reaches only those reaches nothing a check must guard."""
    text = server(gate=False).replace(
        '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8").slice(0, args.limit) }] };\n',
        '  logger.info("reading", { limit: args.limit });\n  console.error(`limit ${args.limit}`);\n'
        '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8") }] };\n')
    assert "logger.info" in text
    assert flagged({"index.ts": "const logger: any = {};\n" + text}) == {"path": "schema-unenforced"}
    # the same when the field is handed to a function that only writes its parameter to a log
    handed = server(gate=False, head="function note(limit: any) { console.error(`limit ${limit}`); }\n").replace(
        '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8").slice(0, args.limit) }] };\n',
        '  note(args.limit);\n  return { content: [{ type: "text", text: readFileSync(args.path, "utf8") }] };\n')
    assert "note(args.limit)" in handed
    assert flagged({"index.ts": handed}) == {"path": "schema-unenforced"}

def test_a_value_passed_on_in_a_catch_block_reports_a_failure_and_is_no_use():
    text = server(gate=False).replace(
        '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8").slice(0, args.limit) }] };\n',
        '  try { return { content: [{ type: "text", text: readFileSync(args.path, "utf8") }] }; }\n'
        '  catch (e) { console.error("read failed", args.limit); throw e; }\n')
    assert "catch (e)" in text
    assert flagged({"index.ts": text}) == {"path": "schema-unenforced"}


@pytest.mark.parametrize("guard", [
    # a membership test of a value computed from the parameter, and a predicate called on the field
    'function canon(rt: any) {\n  const value = String(rt ?? "").toLowerCase();\n'
    '  if (!["inbox", "archive"].includes(value)) throw new Error("bad");\n  return value;\n}\n',
    'function canon(rt: any) {\n  if (rt && !isFolder(rt)) throw new Error("bad");\n  return rt;\n}\n'
    'function isFolder(x: any) { return x === "inbox" || x === "archive"; }\n',
], ids=["membership", "predicate"])
def test_a_field_handed_to_a_function_that_rejects_what_a_test_of_it_fails_is_checked(guard):
    assert flagged({"index.ts": server(check="  canon(args.path);\n", head=guard)}) == {"limit": "unchecked-optional"}


def test_the_tool_object_a_high_level_registration_hands_its_schema_is_validated_by_the_sdk():
    code = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'import { readFileSync } from "node:fs";\nimport { z } from "zod";\n'
            'const readNote = { name: "read_note", description: "Read", inputSchema: z.object({ path: z.string() }),\n'
            '  execute: async (args: any) => ({ content: [{ type: "text", text: readFileSync(args.path, "utf8") }] }) };\n'
            'const server = new McpServer({ name: "n", version: "1" });\n'
            'server.tool(readNote.name, readNote.description, readNote.inputSchema?.shape ?? {}, readNote.execute);\n')
    found = [f for f in mismatches.mismatches(program({"index.ts": code}), {"probes": []}) if f.kind in KINDS]
    assert found == []


def test_a_fallback_a_catch_block_runs_with_the_value_uses_it():
    # a catch block that retries another way passes the value on: a use (only the failure's report is none)
    text = server(gate=False).replace(
        '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8").slice(0, args.limit) }] };\n',
        '  try { return { content: [{ type: "text", text: readFileSync(args.path, "utf8") }] }; }\n'
        '  catch (e) { report(e, args.limit); return { content: [{ type: "text", text: String(readFileSync("x").slice(0, args.limit)) }] }; }\n')
    assert flagged({"index.ts": text}) == BOTH


def test_a_field_only_used_as_the_key_of_a_constant_table_is_not_passed_on():
    # `.slice(0, SIZES[args.limit])` passes the table's value (or undefined), never the input's; a table that is no
    # constant object literal (a parameter's) leaves the key a use
    text = server(gate=False, head="const SIZES: Record<string, number> = { 1: 10, 2: 20 };\n").replace(
        ".slice(0, args.limit)", ".slice(0, SIZES[args.limit])")
    assert "SIZES[args.limit]" in text
    assert flagged({"index.ts": text}) == {"path": "schema-unenforced"}
    dynamic = text.replace("const SIZES: Record<string, number> = { 1: 10, 2: 20 };\n",
                           "const SIZES: Record<string, number> = JSON.parse(process.env.SIZES ?? \"{}\");\n")
    assert flagged({"index.ts": dynamic}) == BOTH


def test_a_field_handed_down_to_a_function_that_throws_unless_a_lookup_finds_it_is_checked():
    """`open(args.path)` -> `resolve(p)` -> `const entry = NOTES.get(key(p)); if (!entry) { const known = ...; throw }`:
    two calls down, the value is rejected unless it is a key of the map (a block that ends in a throw rejects);
    without the throw the lookup checks nothing."""
    head = ('const NOTES = new Map<string, string>([["a.md", "/notes/a.md"]]);\n'
            'function key(p: string) { return String(p); }\n'
            'function resolve(p: string) {\n'
            '  const entry = NOTES.get(key(p));\n'
            '  if (!entry) {\n'
            '    const known = Array.from(NOTES.keys()).join(", ");\n'
            '    throw new Error(`unknown note; known: ${known}`);\n'
            '  }\n'
            '  return entry;\n'
            '}\n'
            'function open(p: string) { return resolve(p); }\n')
    text = server(gate=False, head=head).replace('readFileSync(args.path, "utf8")', 'readFileSync(open(args.path), "utf8")')
    assert "open(args.path)" in text
    assert flagged({"index.ts": text}) == {"limit": "unchecked-optional"}
    lenient = text.replace("    throw new Error(`unknown note; known: ${known}`);\n", "    console.error(known);\n")
    assert flagged({"index.ts": lenient}) == BOTH


def test_a_field_an_element_is_found_by_in_a_chain_that_throws_on_a_miss_is_checked():
    """`const t = await list().then((all) => all.find((n) => n.name === p)); if (!t) throw`: only the name of an
    element goes on (the find may sit in a callback of the chain); `!(await known(p))` of a predicate rejects too."""
    head = ('const NOTES = [{ name: "a.md", path: "/notes/a.md" }];\n'
            'async function list() { return NOTES; }\n'
            'async function resolve(p: string) {\n'
            '  const found = await list().then((all) => all.find((n) => n.name === p));\n'
            '  if (!found) throw new Error(`unknown note ${p}`);\n'
            '  return p;\n'
            '}\n'
            'async function known(p: string) { return NOTES.some((n) => n.name === p); }\n')
    text = server(gate=False, head=head).replace('readFileSync(args.path, "utf8")',
                                                 'readFileSync(await resolve(args.path), "utf8")')
    assert flagged({"index.ts": text}) == {"limit": "unchecked-optional"}
    lenient = text.replace("  if (!found) throw new Error(`unknown note ${p}`);\n", "")
    assert flagged({"index.ts": lenient}) == BOTH
    late = text.replace("  const found = await list()", "  readFileSync(\"/notes/\" + p);\n  const found = await list()")
    assert late != text
    assert flagged({"index.ts": late}) == BOTH  # (read before the look-up: the look-up checks nothing for that use)
    awaited = lenient.replace("  return p;\n", "  if (!(await known(p))) throw new Error(`unknown note ${p}`);\n  return p;\n")
    assert awaited != lenient
    assert flagged({"index.ts": awaited}) == {"limit": "unchecked-optional"}
    present = text.replace("  const found = await list()", "  if (!p) throw new Error(\"no note\");\n  const found = await list()")
    assert present != text
    assert flagged({"index.ts": present}) == {"limit": "unchecked-optional"}  # (a test that it is there uses nothing)
    guarded = text.replace("  const found = await list().then((all) => all.find((n) => n.name === p));\n"
                           "  if (!found) throw new Error(`unknown note ${p}`);\n",
                           "  if (p) {\n    const found = await list().then((all) => all.find((n) => n.name === p));\n"
                           "    if (!found) throw new Error(`unknown note ${p}`);\n  }\n")
    assert guarded != text
    assert flagged({"index.ts": guarded}) == {"limit": "unchecked-optional"}


def test_a_field_refused_unless_it_is_a_key_of_a_table_is_checked_through_a_local_of_the_input():
    """`const typed = args as Input; const path = typed.path; if (!(path in OPENERS)) return failure(...)`: only a
    key of the table goes on (`in`), and `path` is the input's field `path` through the two locals."""
    head = ('const OPENERS: Record<string, string> = { "a.md": "/notes/a.md" };\n'
            'function failure(message: string) { return { content: [{ type: "text", text: message }], isError: true }; }\n')
    check = ('  const typed = args as { path: string };\n'
             '  const path = typed.path;\n'
             '  if (!(path in OPENERS)) return failure(`unknown note ${path}`);\n')
    text = server(gate=False, head=head, check=check)
    assert flagged({"index.ts": text}) == {"limit": "unchecked-optional"}
    lenient = text.replace("  if (!(path in OPENERS)) return failure(`unknown note ${path}`);\n", "")
    assert flagged({"index.ts": lenient}) == BOTH
    other = text.replace("const typed = args as { path: string };", "const typed = OPENERS as any;")
    assert flagged({"index.ts": other}) == BOTH  # (a local of something else: the input's field is not tested)


def test_a_field_destructured_from_the_request_and_refused_by_a_predicate_is_checked():
    """`const { path, limit } = request.params.arguments; if (!isNotePath(path)) return { isError: true, ... }` in a
    case of the tools/call handler: the field is what the predicate tests, destructured from a member of the
    handler's parameter."""
    code = SDK + '''import { readFileSync } from "node:fs";
function isNotePath(p: any) { try { return new URL(p).protocol === "file:"; } catch { return false; } }
const server = new Server({ name: "demo", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "read_note", description: "Read a note", inputSchema: { type: "object", properties: {
      path: { type: "string" }, limit: { type: "number", minimum: 1 } }, required: ["path"] } },
]}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  switch (request.params.name) {
    case "read_note": {
      const { path, limit } = request.params.arguments as any;
      if (!isNotePath(path)) return { content: [{ type: "text", text: `not a note: ${path}` }], isError: true };
      return { content: [{ type: "text", text: readFileSync(path, "utf8").slice(0, limit) }] };
    }
  }
  throw new Error("unknown tool");
});
'''
    assert flagged({"index.ts": code}) == {"limit": "unchecked-optional"}
    unchecked = code.replace("      if (!isNotePath(path)) return { content: [{ type: \"text\", text: `not a note: ${path}` }], isError: true };\n", "")
    assert unchecked != code
    assert flagged({"index.ts": unchecked}) == BOTH


def test_the_tool_found_by_the_requested_name_checks_no_field_of_that_name():
    """`const tool = TOOLS.find((t) => t.name === request.params.name); if (!tool) throw`: the request's tool name is
    looked up, not the input's field `name`, which stays unchecked."""
    code = SDK + '''import { readFileSync } from "node:fs";
const TOOLS = [
  { name: "read_note", description: "Read a note", inputSchema: { type: "object", properties: {
      name: { type: "string" } } },
    run: (args: any) => readFileSync("/notes/" + args.name, "utf8") },
];
const server = new Server({ name: "demo", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS.map(({ run, ...d }) => d) }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = TOOLS.find((t) => t.name === request.params.name);
  if (!tool) throw new Error("unknown tool");
  return { content: [{ type: "text", text: tool.run(request.params.arguments) }] };
});
'''
    assert flagged({"index.ts": code}) == {"name": "unchecked-optional"}
    destructured = code.replace("  const tool = TOOLS.find((t) => t.name === request.params.name);\n",
                                "  const { name, arguments: args } = request.params;\n"
                                "  const tool = TOOLS.find((t) => t.name === name);\n") \
        .replace("tool.run(request.params.arguments)", "tool.run(args)")
    assert destructured != code
    assert flagged({"index.ts": destructured}) == {"name": "unchecked-optional"}


def test_a_field_used_as_the_key_of_a_record_lookup_that_throws_on_a_miss_is_checked():
    """`const name = account || DEFAULT; const creds = ACCOUNTS[name]; if (!creds) throw ...`: a value that is no key
    of the table is refused, as `map.get(key)` refused is. Without the throw only the table's value goes on, never the
    key (analyse/uses.py); handed on itself when it is no key (`entry ?? name`), it does."""
    head = ('const ACCOUNTS: Record<string, string> = { "a.md": "/notes/a.md" };\n'
            'const DEFAULT = "a.md";\n'
            'function resolve(p: string) {\n'
            '  const name = p || DEFAULT;\n'
            '  const entry = ACCOUNTS[name];\n'
            '  if (!entry) throw new Error(`unknown note ${name}`);\n'
            '  return entry;\n'
            '}\n')
    text = server(gate=False, head=head).replace('readFileSync(args.path, "utf8")', 'readFileSync(resolve(args.path), "utf8")')
    assert flagged({"index.ts": text}) == {"limit": "unchecked-optional"}
    lenient = text.replace("  if (!entry) throw new Error(`unknown note ${name}`);\n", "")
    assert flagged({"index.ts": lenient}) == {"limit": "unchecked-optional"}
    passed = lenient.replace("  return entry;\n", "  return entry ?? name;\n")
    assert passed != lenient
    assert flagged({"index.ts": passed}) == BOTH
    # the table read in the test itself: `if (!ACCOUNTS[name]) throw`, the key handed on once it is one
    direct = text.replace("  const entry = ACCOUNTS[name];\n  if (!entry) throw", "  if (!ACCOUNTS[name]) throw") \
        .replace("  return entry;\n", "  return name;\n")
    assert direct != text
    assert flagged({"index.ts": direct}) == {"limit": "unchecked-optional"}
    assert flagged({"index.ts": direct.replace("  if (!ACCOUNTS[name]) throw", "  if (!name) throw")}) == BOTH

def test_fields_destructured_from_a_helper_handed_the_input_are_checked_by_tests_of_them():
    """`parseNote(args)` runs `const { path, limit } = asRecord(raw, "read_note")` (a helper that returns what it is
    handed), then `if (!nonEmptyString(path)) throw` and `const ok = typeof limit === "number" && limit >= 1; if
    (limit !== undefined && !ok) throw`: both fields are checked, by name."""
    head = ('function asRecord(raw: any, label: string) {\n'
            '  if (typeof raw !== "object" || raw === null) throw new Error(label);\n  return raw;\n}\n'
            'function nonEmptyString(v: any) { return typeof v === "string" && v.length > 0; }\n'
            'function parseNote(raw: any) {\n'
            '  const { path, limit } = asRecord(raw, "read_note");\n'
            '  if (!nonEmptyString(path)) throw new Error("path must be a non-empty string");\n'
            '  const ok = typeof limit === "number" && limit >= 1;\n'
            '  if (limit !== undefined && !ok) throw new Error("limit must be a positive number");\n'
            '  return { path, limit };\n}\n')
    text = server(gate=False, head=head, check="  parseNote(args);\n")
    assert flagged({"index.ts": text}) == {}

def test_a_use_after_a_statement_that_always_throws_reaches_nothing():
    """`this.ensureInitialized()` of a class that defines no such method (and extends nothing) throws a TypeError,
    `await import("./missing.js")` of a module the package does not have rejects, and `this.getConnection()` whose
    first statement calls a method of a field every construction leaves out (`this.manager = manager || null`, built
    `new Notes({})`) throws: what follows them never runs, so the field it would pass on reaches nothing. A method the
    class does define throws nothing of the kind."""
    code = SDK + '''import { readFileSync } from "node:fs";
class Notes {
  async readNote(args: any) {
    this.ensureInitialized();
    return { content: [{ type: "text", text: readFileSync(args.path, "utf8") }] };
  }
  async listNotes(args: any) {
    try {
      const { index } = await import("./utils/missing-index.js");
      return { content: [{ type: "text", text: readFileSync(args.path, "utf8") + index }] };
    } catch (e) { return { content: [], isError: true }; }
  }
  async statNote(args: any) {
    this.check();
    return { content: [{ type: "text", text: readFileSync(args.path, "utf8") }] };
  }
  async tagNote(args: any) {
    const connection = await this.getConnection();
    return { content: [{ type: "text", text: readFileSync(args.path, "utf8") + connection }] };
  }
  async getConnection() { return await this.manager.connect(); }
  check() { return true; }
  constructor(client: any, manager?: any) { this.client = client; this.manager = manager || null; }
}
const notes = new Notes({});
const server = new Server({ name: "n", version: "1" }, { capabilities: { tools: {} } });
const props = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "read_note", description: "Read.", inputSchema: props },
  { name: "list_notes", description: "List.", inputSchema: props },
  { name: "stat_note", description: "Stat.", inputSchema: props },
  { name: "tag_note", description: "Tag.", inputSchema: props },
] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments;
  switch (request.params.name) {
    case "read_note": return notes.readNote(args);
    case "list_notes": return notes.listNotes(args);
    case "stat_note": return notes.statNote(args);
    case "tag_note": return notes.tagNote(args);
  }
  throw new Error("unknown tool");
});
'''
    got = {(f.attrs["tool"], f.attrs["field"]) for f in mismatches.mismatches(program({"index.ts": code}), {"probes": []})
           if f.kind in KINDS}
    assert got == {("stat_note", "path")}

def test_a_validator_known_by_its_result_checks_the_whole_input():
    """`const validation = validator.validateInput(name, args); if (!validation.valid) return error(...)` in the
    tools/call handler, the validator another package's or a field's: the handler goes on only for a valid input.
    An API's `if (!res.ok)` after the input reached it is no validation."""
    head = 'const validator: any = makeValidator();\nconst api: any = makeApi();\n'
    gate = ('  const validation = validator.validateInput("read_note", args);\n'
            '  if (!validation.valid) return { content: [{ type: "text", text: validation.errors }], isError: true };\n')
    text = server(gate=False, head=head, check=gate)
    assert flagged({"index.ts": text}) == {}
    sent = server(gate=False, head=head, check='  const res = api.send(args);\n  if (!res.ok) throw new Error("failed");\n')
    assert flagged({"index.ts": sent}) == BOTH

def test_a_field_only_compared_strictly_with_a_literal_down_the_calls_reaches_nothing():
    """`listPage(args.limit)` -> `pager.fetch("/notes", { all: limit })`-like hand-offs: `fetch(path, options)`
    destructures `const { all = false } = options` and reads it only as `all === true` (or `all > 1`): a value of
    another type is only tested, and reaches nothing. Handed on as a number there (`slice(0, all)`), it does."""
    head = ('class Pager {\n'
            '  fetch(path: string, options: any = {}) {\n'
            '    const { all = false } = options;\n'
            '    return all === true ? readFileSync(path, "utf8") : "";\n  }\n}\n'
            'const pager = new Pager();\n'
            'function listPage(all: any) { return pager.fetch("/notes", { all }); }\n')
    text = server(gate=False, head=head).replace(
        '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8").slice(0, args.limit) }] };\n',
        '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8") + listPage(args.limit) }] };\n')
    assert "listPage(args.limit)" in text
    assert flagged({"index.ts": text}) == {"path": "schema-unenforced"}
    ordered = text.replace("return all === true ?", "return all > 1 ?")
    assert flagged({"index.ts": ordered}) == {"path": "schema-unenforced"}
    used = text.replace('return all === true ? readFileSync(path, "utf8") : "";', 'return readFileSync(path, "utf8").slice(0, all);')
    assert used != text
    assert flagged({"index.ts": used}) == BOTH
    handed = text.replace("const { all = false } = options;", "const { all = false } = options;\n    send({ options });")
    assert flagged({"index.ts": "declare function send(x: any): void;\n" + handed}) == BOTH  # options handed on whole

def test_a_string_method_called_on_a_field_before_its_use_rejects_what_is_no_string():
    """`args.path.trim()` in the tool's own code, or `p.toLowerCase()` in a function it hands the field to, throws for
    a value that is not a string before the value goes on: the type is checked. Through `?.`, only for strings
    (`typeof x === "string" && x.trim()`), or inside a `try` that catches the failure, it is not."""
    text = server(gate=False)
    assert flagged({"index.ts": text}) == BOTH
    own = text.replace('readFileSync(args.path, "utf8")', 'readFileSync(args.path.trim(), "utf8")')
    assert flagged({"index.ts": own}) == {"limit": "unchecked-optional"}
    down = server(gate=False, head="function clean(p: string) { return p.toLowerCase(); }\n").replace(
        'readFileSync(args.path, "utf8")', 'readFileSync(clean(args.path), "utf8")')
    assert flagged({"index.ts": down}) == {"limit": "unchecked-optional"}
    optional = text.replace('readFileSync(args.path, "utf8")', 'readFileSync(args.path?.trim(), "utf8")')
    assert flagged({"index.ts": optional}) == BOTH


@pytest.mark.parametrize("head, call", [
    ('import * as path from "node:path";\n', 'path.join("/notes", args.path)'),
    ('import { normalize } from "path";\n', "normalize(args.path)"),
])
def test_a_path_function_that_fails_on_a_non_string_checks_nothing(head, call):
    """Node's `path.join(base, 5)` throws a TypeError, but that failure is no check the server makes (the corpus's
    labels: "a non-string only makes path.resolve throw"): the field's declared type stays unenforced."""
    text = server(gate=False, head=head).replace('readFileSync(args.path, "utf8")', f'readFileSync({call}, "utf8")')
    assert call in text and flagged({"index.ts": text}) == BOTH


_PARSED = '  try { new URL(args.path); } catch { throw new Error("not a URL"); }\n'


@pytest.mark.parametrize("check, checked", [
    ('  if (!args.path) throw new Error("path required");\n' + _PARSED, True),
    ('  mkdirSync(args.path, { recursive: true });\n' + _PARSED, False),  # used first
    ("  if (process.env.STRICT) {\n" + _PARSED + "  }\n", False),  # only under another setting
])
def test_a_url_parse_checks_only_before_any_use_and_on_every_path(check, checked):
    """`try { new URL(p) } catch { throw }` refuses what does not parse: a check of the field when it is the field's
    first use (a presence test before it uses nothing) and runs whenever the field goes on; after
    `mkdirSync(args.path)`, or only when another setting is there, it is not."""
    text = server(gate=False, head='import { mkdirSync } from "node:fs";\n', check=check)
    assert flagged({"index.ts": text}) == ({"limit": "unchecked-optional"} if checked else BOTH)


def test_an_object_s_json_text_goes_where_the_text_goes():
    """`note(`read ${JSON.stringify({ path: args.path, limit: args.limit })}`)`, NOTE writing its message to stderr:
    the entries' text is only logged. The same text handed to a function not known (`send(...)`) is a use."""
    head = "declare function send(x: string): void;\nfunction note(m: string) { process.stderr.write(`${m}\\n`); }\n"
    read = 'readFileSync(args.path, "utf8").slice(0, args.limit)'
    text = server(gate=False, head=head)
    logged = text.replace(read, '(note(`read ${JSON.stringify({ path: args.path, limit: args.limit })}`), readFileSync(args.path, "utf8"))')
    assert logged != text and flagged({"index.ts": logged}) == {"path": "schema-unenforced"}
    shorthand = logged.replace("{ path: args.path, limit: args.limit }", "{ limit }").replace(
        "async function readNote(args: any) {\n", "async function readNote(args: any) {\n  const { limit } = args;\n")
    assert "{ limit }" in shorthand and flagged({"index.ts": shorthand}) == {"path": "schema-unenforced"}
    sent = logged.replace("note(`read ${", "send(`read ${")
    assert flagged({"index.ts": sent}) == BOTH


@pytest.mark.parametrize("declared", ["let instance = null;", "let instance: Store | null = null;"])
def test_a_value_handed_to_a_singleton_s_method_is_followed_into_it(declared):
    """`const store = getStore(); store.drop(args.limit)`, getStore returning the module's one instance (`if
    (!instance) instance = new Store(); return instance`): the method is read, and a key of its Map reaches nothing;
    one it writes to a file does."""
    head = ("class Store {\n  notes = new Map();\n  drop(id: any) { return this.notes.delete(id); }\n"
            "  save(id: any) { writeFileSync(\"/notes/\" + id, \"\"); }\n}\n"
            f"{declared}\nfunction getStore() {{ if (!instance) {{ instance = new Store(); }} return instance; }}\n")
    text = server(gate=False, head='import { writeFileSync } from "node:fs";\n' + head,
                  check="  const store = getStore();\n  store.drop(args.limit);\n").replace(".slice(0, args.limit)", "")
    assert "store.drop(args.limit)" in text and flagged({"index.ts": text}) == {"path": "schema-unenforced"}
    saved = text.replace("store.drop(args.limit)", "store.save(args.limit)")
    assert flagged({"index.ts": saved}) == BOTH


@pytest.mark.parametrize("where", ["own", "callee"])
def test_a_test_against_literals_that_lets_an_absent_value_by_checks_an_optional_field(where):
    """`if (mode !== undefined && mode !== "asc" && mode !== "desc") throw`: any value given other than those is
    refused, an absent one goes by as the optional field may; in the tool's code or a function it calls. Without the
    literals (`mode !== undefined` alone), it checks nothing."""
    text = server(gate=False).replace("      path: { type: \"string\" },\n",
                                      "      path: { type: \"string\" },\n      mode: { type: \"string\", enum: [\"asc\", \"desc\"] },\n")
    test = 'm !== undefined && m !== "asc" && m !== "desc"'
    head = f'function checkMode(m: any) {{ if ({test}) throw new Error("bad mode"); }}\n' if where == "callee" else ""
    check = "  checkMode(args.mode);\n" if where == "callee" else f"  const m = args.mode;\n  if ({test}) throw new Error(\"bad\");\n"
    used = server(gate=False, head=head, check=check).replace("      path: { type: \"string\" },\n",
        "      path: { type: \"string\" },\n      mode: { type: \"string\", enum: [\"asc\", \"desc\"] },\n").replace(
        'readFileSync(args.path, "utf8")', 'readFileSync(args.path + args.mode, "utf8")')
    assert text != used and flagged({"index.ts": used}) == BOTH
    presence = used.replace(test, "m !== undefined && m === null")
    assert flagged({"index.ts": presence}) == {**BOTH, "mode": "unchecked-optional"}


def _limit_used(check: str, head: str = "") -> str:
    """The server with `limit` used only as CHECK uses it (the read no longer slices by it)."""
    text = server(gate=False, head=head, check=check)
    assert ".slice(0, args.limit)" in text
    return text.replace(".slice(0, args.limit)", "")


@pytest.mark.parametrize("call, reaches", [
    ('page.evaluate((n: any) => { const el = (globalThis as any).refs[n]; if (!el) throw new Error("no ref"); return el; }, args.limit)', False),
    ('page.$eval("#list", (el: any, n: any) => { const row = (globalThis as any).refs[n]; if (!row) throw new Error("no row"); return row; }, args.limit)', False),
    ('page.evaluate((n: any) => fetch("/rows/" + n), args.limit)', True),  # handed on there
    ('page.run((n: any) => { const el = (globalThis as any).refs[n]; if (!el) throw new Error("no ref"); return el; }, args.limit)', True),
])
def test_a_value_a_page_hands_to_its_function_is_followed_into_it(call, reaches):
    """`page.evaluate(fn, value)` calls FN with the value (kb/sdk.yaml handing_methods, `$eval(selector, fn, value)`
    its second parameter): a lookup there whose miss is refused checks it; a method not known to hand it on is a
    use."""
    text = _limit_used(f"  await {call};\n", head="declare const page: any;\n")
    assert flagged({"index.ts": text}) == (BOTH if reaches else {"path": "schema-unenforced"})


@pytest.mark.parametrize("handed, reaches", [("describe(err, where)", False), ("describe(where)", True)])
def test_a_text_handed_with_the_caught_error_is_the_failure_s_report(handed, reaches):
    """`catch (err) { const where = `limit ${args.limit}`; ... describe(err, where) }`: a call handed the caught error
    makes the failure's report, also of a text made of the field and held by a local; without the error it is a use."""
    check = ('  try { readFileSync(args.path, "utf8"); } catch (err) {\n    const where = `limit ${args.limit}`;\n'
             f'    return {{ content: [{{ type: "text", text: {handed} }}], isError: true }};\n  }}\n')
    text = _limit_used(check, head="declare function describe(...a: any[]): string;\n")
    assert flagged({"index.ts": text}) == (BOTH if reaches else {"path": "schema-unenforced"})


def test_a_text_local_written_into_the_tool_s_result_is_echoed():
    """`const label = `[limit=${args.limit}]`; return { content: [{ text: `read ${label}` }] }` in the tool's own code:
    the text goes back to the caller that sent the value; handed to a function not known, it is a use."""
    check = '  const label = `[limit=${args.limit}]`;\n  if (args.path === "") return { content: [{ type: "text", text: `empty ${label}` }] };\n'
    assert flagged({"index.ts": _limit_used(check)}) == {"path": "schema-unenforced"}
    sent = _limit_used(check.replace("return { content: [{ type: \"text\", text: `empty ${label}` }] };", "send(label);"),
                       head="declare function send(x: string): void;\n")
    assert flagged({"index.ts": sent}) == BOTH


@pytest.mark.parametrize("consts, reaches", [
    ("export const KNOWN = [10, 20, 50];\n", False),
    ("export const KNOWN = Object.values({ a: 10, b: 20 });\n", False),
    ('export const KNOWN = "10 20 50";\n', True),  # a text's `includes` searches it: a use of what it is handed
])
def test_a_lookup_in_a_list_of_another_module_reaches_nothing(consts, reaches):
    """`KNOWN.includes(limit)` in a function the tool hands `args.limit` to, KNOWN an array constant imported from
    another module: a membership test, the value goes no further."""
    head = ('import { KNOWN } from "./consts.js";\n'
            "function allowed(limit: any) { const ok = KNOWN.includes(limit); return ok ? \"yes\" : \"no\"; }\n")
    text = _limit_used("  const verdict = allowed(args.limit);\n  if (verdict === \"no\") throw new Error(\"bad\");\n", head=head)
    assert flagged({"index.ts": text, "consts.ts": consts}) == (BOTH if reaches else {"path": "schema-unenforced"})


@pytest.mark.parametrize("catch, checked", [("throw new Error(`not a URL: ${u}`);", True), ("console.error(u);", False)])
def test_a_url_parsed_before_its_use_is_checked(catch, checked):
    """`try { new URL(u) } catch { throw ... }` in a function the tool hands the field to first: a value that does not
    parse as a URL (a number, an object, a bare word) is refused there; a `catch` that goes on checks nothing."""
    head = f"function assertUrl(u: any) {{ let parsed; try {{ parsed = new URL(u); }} catch {{ {catch} }} return parsed; }}\n"
    text = server(gate=False, head=head, check="  assertUrl(args.path);\n")
    assert flagged({"index.ts": text}) == ({"limit": "unchecked-optional"} if checked else BOTH)


def test_a_method_of_the_server_s_own_class_named_like_a_validator_is_read_by_its_code():
    """`Factory.create({}, args)` of the server's own class: superstruct's `create(x, S)` has that name, but a function
    the audit reads is judged by what it does (here it copies the input and checks nothing), not by its name."""
    head = "class Factory { static create(config: any, opts: any) { return { ...config, ...opts }; } }\n"
    text = server(gate=False, head=head, check="  const made = Factory.create({}, args);\n")
    assert flagged({"index.ts": text}) == BOTH
    library = server(gate=False, head='import { create } from "superstruct";\nconst Note: any = {};\n',
                     check="  create(args, Note);\n")
    assert flagged({"index.ts": library}) == {}  # (the library's: a check of the whole input)


def test_a_string_method_through_optional_chaining_checks_an_optional_field():
    """`args.tag?.trim()` or `(args.tag || "none").trim()`: an absent value goes by (as an optional field may), any
    other value that is no string throws: the optional field is checked. A required field so used is not (a missing
    value goes by)."""
    text = server(gate=False).replace("      path: { type: \"string\" },\n", "      path: { type: \"string\" },\n      tag: { type: \"string\" },\n")
    read = text.replace('readFileSync(args.path, "utf8")', 'readFileSync(args.path + String(args.tag), "utf8")')
    assert read != text and flagged({"index.ts": read}) == {**BOTH, "tag": "unchecked-optional"}
    chained = text.replace('readFileSync(args.path, "utf8")', 'readFileSync(args.path + (args.tag?.trim() ?? ""), "utf8")')
    assert flagged({"index.ts": chained}) == BOTH
    local = chained.replace('(args.tag?.trim() ?? "")', '(tag?.toLowerCase() ?? "")').replace(
        "async function readNote(args: any) {\n", "async function readNote(args: any) {\n  const { tag } = args;\n")
    assert local != chained and flagged({"index.ts": local}) == BOTH
    defaulted = text.replace('readFileSync(args.path, "utf8")', 'readFileSync(args.path + (args.tag || "none").trim(), "utf8")')
    assert flagged({"index.ts": defaulted}) == BOTH  # (a value `||` passes over gets the default; others throw)
    required = text.replace('readFileSync(args.path, "utf8")', 'readFileSync((args.path ?? "/notes").trim(), "utf8")')
    assert flagged({"index.ts": required}) == BOTH  # a missing required path gets the default: not rejected




def _tried(catch: str, head: str = "", call: str = "args.path.trim()") -> str:
    """The tool's own code reads the note inside a `try` whose `catch` does CATCH."""
    text = server(gate=False, head=head)
    body = '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8").slice(0, args.limit) }] };\n'
    assert body in text
    return text.replace(body, f'  try {{ const p = {call}; }} catch (e) {{ {catch} }}\n' + body)


@pytest.mark.parametrize("catch, checked", [
    ('return { isError: true, content: [{ type: "text", text: String(e) }] };', True),  # the tool's result: it leaves
    ("throw new Error(`bad path: ${e}`);", True),
    ('console.error("no path", e);', False),  # goes on to the read
])
def test_a_string_method_inside_a_try_checks_when_the_catch_leaves_the_tool(catch, checked):
    """`try { args.path.trim() } catch (e) { return error }` in the tool's own code: a value that is no string throws,
    and the tool returns its error there; a catch that only logs goes on with the value."""
    assert flagged({"index.ts": _tried(catch)}) == ({"limit": "unchecked-optional"} if checked else BOTH)



def test_a_string_method_inside_a_try_of_a_callback_whose_catch_returns_does_not_check():
    """`[1].forEach(() => { try { args.path.trim(); } catch (e) { return; } })`: the `return` leaves the callback, and
    the tool goes on with the value."""
    text = _tried("return;", call="args.path")
    text = text.replace("  try { const p = args.path; } catch (e) { return; }\n",
                        "  [1].forEach(() => { try { args.path.trim(); } catch (e) { return; } });\n")
    assert "forEach" in text and flagged({"index.ts": text}) == BOTH

@pytest.mark.parametrize("catch, checked", [
    ("throw e;", True),  # the failure goes on up to the tool
    ("return null;", False),  # the caller goes on with the value it handed
])
def test_a_string_method_inside_a_try_of_a_function_the_tool_calls(catch, checked):
    head = f"function clean(p: string) {{ try {{ return p.toLowerCase(); }} catch (e) {{ {catch} }} }}\n"
    text = server(gate=False, head=head).replace('readFileSync(args.path, "utf8")', 'readFileSync((clean(args.path), args.path), "utf8")')
    assert "clean(args.path)" in text
    assert flagged({"index.ts": text}) == ({"limit": "unchecked-optional"} if checked else BOTH)


def test_a_string_method_called_on_a_local_set_to_the_field_checks_the_field():
    text = server(gate=False)
    body = '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8").slice(0, args.limit) }] };\n'
    local = text.replace(body, '  const where = args?.path;\n  const kind = where.trim().split(".")[0];\n' + body)
    assert local != text and flagged({"index.ts": local}) == {"limit": "unchecked-optional"}

def test_a_lookup_by_the_field_through_a_class_the_handler_holds_checks_it():
    """`const nb = this.library.getNotebook(args.id); if (!nb) { log(); return { success: false, error } }`, where
    getNotebook is `return this.items.find((n) => n.id === id) || null` of the class whose one instance the server
    constructs and hands the handlers (`new Handlers(this.library)`): a value that is no stored id is refused, so the
    field is checked; looked up in a list that is not searched by it (a filter), it is not."""
    code = SDK + '''
class Library {
  items: any[] = [];
  getNotebook(id: string) { return this.items.find((n) => n.id === id) || null; }
}
class Handlers {
  constructor(library: Library) { this.library = library; }
  library: Library;
  async handleGet(args: any) {
    const nb = this.library.getNotebook(args.id);
    if (!nb) {
      console.error("not found");
      return { success: false, error: "Notebook not found" };
    }
    return { content: [{ type: "text", text: JSON.stringify(nb) + args.id }] };
  }
}
class App {
  library = new Library();
  handlers = new Handlers(this.library);
  server = new Server({ name: "nb", version: "1" }, { capabilities: { tools: {} } });
  constructor() {
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
      { name: "get_notebook", description: "Get.", inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
    ] }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      if (request.params.name === "get_notebook") return this.handlers.handleGet(request.params.arguments);
      throw new Error("unknown tool");
    });
  }
}
new App();
'''
    assert _flagged(code) == {}
    assert _flagged(code.replace("this.items.find((n) => n.id === id) || null", "(this.items.filter((n) => n.ok)[0] || { missing: id })")) == \
        {"id": "schema-unenforced"}


def test_a_destructured_field_handed_to_a_validator_that_returns_a_failed_result_is_checked():
    # `const { path } = args; const v = checkText(path); if (!v.isValid) return ...`: the validator rejects what is no
    # string by returning `{ isValid: false, errors }`, and the field handed to it is the input's, by its name
    head = ('function checkText(value: any, label = "value") {\n  const errors: string[] = [];\n'
            '  if (typeof value !== "string") {\n    errors.push(label + " must be a string");\n'
            '    return { isValid: false, errors };\n  }\n  return { isValid: true, errors };\n}\n')
    check = ('  const { path } = args;\n  const v = checkText(path, "path");\n'
             '  if (!v.isValid) return { content: [{ type: "text", text: v.errors.join() }], isError: true };\n')
    passes = head.replace("    return { isValid: false, errors };\n", "    return { isValid: true, errors };\n")
    _checks_path_only_with(check, head, passes)


def _checks_path_only_with(check: str, head: str, lenient: str) -> None:
    """CHECK (in readNote, before the use) with the helper HEAD declares checks `path`; with LENIENT's, nothing."""
    assert flagged({"index.ts": server(check=check, head=head)}) == {"limit": "unchecked-optional"}
    assert flagged({"index.ts": server(check=check, head=lenient)}) == BOTH


def test_a_field_handed_to_a_parser_whose_false_result_the_tool_refuses_is_checked():
    # `const at = parseWhen(path); if (!at) return error`: a function of the boundary that says it failed by returning
    # null parses what it is handed, and the tool leaves when it fails; a function that never returns a false value
    # checks nothing by that test
    head = ('import { parseDate } from "chrono-node";\n'
            'function parseWhen(input: any) {\n  const found = parseDate(input);\n'
            '  return found ? found.toISOString() : null;\n}\n')
    check = ('  const { path } = args;\n  const at = parseWhen(path);\n'
             '  if (!at) return { content: [{ type: "text", text: "not a date" }], isError: true };\n')
    _checks_path_only_with(check, head, head.replace("found ? found.toISOString() : null", "String(found)"))
    # an asynchronous lookup that sends its argument out and then says it found nothing checks nothing either
    lookup = head.replace("function parseWhen(input: any) {\n  const found = parseDate(input);",
                          "async function parseWhen(input: any) {\n  const found = await fetch(\"/find?q=\" + input);")
    assert "await fetch" in lookup
    assert flagged({"index.ts": server(check=check.replace("parseWhen(path)", "await parseWhen(path)"), head=lookup)}) == BOTH


def test_a_type_test_whose_branch_returns_before_the_use_checks_the_field():
    # `if (!path || typeof path !== "string") return {...}`: whatever the branch returns, no other type gets further;
    # a test of presence alone checks no type
    typed = '  if (!args.path || typeof args.path !== "string") return { content: [{ type: "text", text: "bad" }] };\n'
    assert flagged({"index.ts": server(check=typed)}) == {"limit": "unchecked-optional"}
    present = '  if (!args.path) return { content: [{ type: "text", text: "bad" }] };\n'
    assert flagged({"index.ts": server(check=present)}) == BOTH


def test_a_map_lookup_by_a_field_destructured_from_the_arguments_or_an_empty_default_checks_it():
    """`const { id } = args || {}; if (id) { const c = this.conns.get(id); if (!c) throw ... }`: an id that names no
    open connection is refused, so the field is checked (the `|| {}` default is still the arguments)."""
    code = SDK + '''
class App {
  conns = new Map<string, any>();
  server = new Server({ name: "ssh", version: "1" }, { capabilities: { tools: {} } });
  async handleFilter(args: any) {
    const { id, command } = args || {};
    const result: any = { command };
    if (id) {
      const conn = this.conns.get(id);
      if (!conn) {
        throw new Error(`No connection: ${id}`);
      }
      result.host = conn.run(id);
    }
    return { content: [{ type: "text", text: JSON.stringify(result) }] };
  }
  constructor() {
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
      { name: "get_filter", description: "Get.", inputSchema: { type: "object", properties: { id: { type: "string" }, command: { type: "string" } } } },
    ] }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      if (request.params.name === "get_filter") return this.handleFilter(request.params.arguments);
      throw new Error("unknown tool");
    });
  }
}
new App();
'''
    assert "id" not in _flagged(code)
    assert _flagged(code.replace("throw new Error(`No connection: ${id}`);", "console.error(`none: ${id}`);")).get("id") == \
        "unchecked-optional"


def test_a_default_or_a_membership_test_followed_by_a_function_that_always_throws_checks_the_action():
    """`switch (action) { ...; default: throwUnknown(action, [...]) }` and `if (Object.hasOwn(ACTIONS, action)) {
    return ACTIONS[action](args) } throwUnknown(action, ...)`, where `throwUnknown` runs straight to a `throw`: an
    action outside the enum goes no further, so the declared enum is enforced; a helper that may return does not."""
    code = SDK + '''
function throwUnknown(action: string, valid: string[]) {
  const hint = valid.join(", ");
  throw new Error(`Unknown action: ${action}. Valid: ${hint}`);
}
const ANIM = { list: async (a: any) => "l", add: async (a: any) => "a" };
async function handleAnim(action: string, args: any) {
  if (Object.hasOwn(ANIM, action)) {
    const h = (ANIM as any)[action];
    return h(args);
  }
  throwUnknown(action, Object.keys(ANIM));
}
async function handleAudio(action: string, args: any) {
  switch (action) {
    case "list_buses": return "buses";
    case "add_bus": return `bus ${action}`;
    default:
      throwUnknown(action, ["list_buses", "add_bus"]);
  }
}
const server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });
const enumOf = (v: string[]) => ({ type: "object", properties: { action: { type: "string", enum: v } }, required: ["action"] });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "animation", description: "A", inputSchema: enumOf(["list", "add"]) },
  { name: "audio", description: "B", inputSchema: enumOf(["list_buses", "add_bus"]) },
] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args: any = request.params.arguments;
  if (request.params.name === "animation") return { content: [{ type: "text", text: String(await handleAnim(args.action, args)) }] };
  if (request.params.name === "audio") return { content: [{ type: "text", text: String(await handleAudio(args.action, args)) }] };
  throw new Error("unknown tool");
});
'''
    kinds = lambda src: {(f.attrs["tool"], f.attrs["field"]): f.kind for f in
                         mismatches.mismatches(program({"index.ts": src}), {"probes": []}) if f.kind in KINDS}
    assert kinds(code) == {}
    loose = code.replace("  throw new Error(`Unknown action: ${action}. Valid: ${hint}`);", "  if (hint) throw new Error(hint);\n  return null;")
    # (after the helper, a use that only a helper that may return lets any action reach; the case's `bus ${action}`
    # only echoes the value into the tool's result)
    loose = loose.replace('throwUnknown(action, ["list_buses", "add_bus"]);', 'throwUnknown(action, ["list_buses", "add_bus"]);\n'
                          '      return fetch("https://example.invalid/" + action);')
    assert set(kinds(loose)) == {("animation", "action"), ("audio", "action")}
    # the helper imported from a module of its own (`import { throwUnknown } from "./errors.js"`): the same
    helper = code[code.index("function throwUnknown"):code.index("const ANIM")]
    files = {"errors.ts": "export " + helper,
             "index.ts": code.replace(helper, "").replace(SDK, SDK + 'import { throwUnknown } from "./errors.js";\n')}
    assert {(f.attrs["tool"], f.attrs["field"]) for f in mismatches.mismatches(program(files), {"probes": []})
            if f.kind in KINDS} == set()


def test_fields_handed_to_a_validator_s_rest_parameter_are_checked_by_its_loop():
    """`validateStrings(undefined, args.path, args.name)` of `function validateStrings(msg, ...values) { for (const v
    of values) if (v !== undefined && typeof v !== "string") throw ... }`: each field handed in the rest's place is
    checked; one handed to a validator whose loop only logs is not."""
    code = SDK + '''
function validateStrings(message: string | undefined, ...values: unknown[]) {
  for (const val of values) {
    if (val !== undefined && val !== null && typeof val !== "string") {
      throw new Error(message || "expected strings");
    }
  }
}
const server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "open", description: "Open", inputSchema: { type: "object", properties: { path: { type: "string" }, name: { type: "string" } } } },
] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args: any = request.params.arguments;
  if (request.params.name === "open") {
    validateStrings(undefined, args.path, args.name);
    return { content: [{ type: "text", text: require("fs").readFileSync(args.path + args.name, "utf8") }] };
  }
  throw new Error("unknown tool");
});
'''
    assert _flagged(code) == {}
    assert set(_flagged(code.replace('throw new Error(message || "expected strings");', 'console.error(message);'))) == {"path", "name"}
    # a type test in a disjunction inside the conjunction (`v != null && (typeof v !== "string" || !v)`) checks too
    assert _flagged(code.replace('typeof val !== "string")', '(typeof val !== "string" || val.length > 99))')) == {}


def test_a_membership_test_of_a_field_destructured_from_a_local_holding_the_input_checks_it():
    """`const { name, arguments: args } = request.params; ... const { id } = args; if (!connections.has(id)) throw`
    in the handler's own switch: an id that names no connection goes no further."""
    code = SDK + '''
const connections = new Map<string, any>();
let current: any = null;
const server = new Server({ name: "q", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "switch_connection", description: "Switch", inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params as any;
  switch (name) {
    case "switch_connection": {
      const { id } = args;
      if (!connections.has(id)) {
        throw new Error(`Connection '${id}' not found`);
      }
      current = await fetch("https://db.example/connections/" + id);
      return { content: [{ type: "text", text: `Switched to ${id}` }] };
    }
    default:
      throw new Error("unknown tool");
  }
});
'''
    assert _flagged(code) == {}
    assert _flagged(code.replace("if (!connections.has(id)) {", "if (!connections.size) {")) == {"id": "schema-unenforced"}


def test_a_value_used_only_where_a_membership_test_of_it_holds_is_checked():
    """`MODES.includes(String(args.mode)) ? args.mode : "auto"` handed to a call: only a member of the enum reaches the
    use (the test itself, through String(), passes nothing on); `args.mode || "auto"` is not checked."""
    code = SDK + '''
const MODES = ["auto", "fast", "deep"];
const server = new Server({ name: "v", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "scan", description: "Scan", inputSchema: { type: "object", properties: { mode: { type: "string", enum: ["auto", "fast", "deep"] } } } },
] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args: any = request.params.arguments;
  if (request.params.name === "scan") {
    const out = require("child_process").execSync("scan --mode " + (MODES.includes(String(args.mode)) ? args.mode : "auto"));
    return { content: [{ type: "text", text: out.toString() }] };
  }
  throw new Error("unknown tool");
});
'''
    assert _flagged(code) == {}
    assert "mode" in _flagged(code.replace('MODES.includes(String(args.mode)) ? args.mode : "auto"', 'args.mode || "auto"'))


def test_a_string_search_uses_its_argument_and_a_catch_s_membership_test_guards_nothing():
    """`log.includes(args.search)` searches a string (converting the argument): a use, unlike a membership test of a
    list (`TOOLS.includes(name)`)."""
    code = SDK + '''
const TOOLS = ["find_logs"];
const logs: string[] = [];
async function findLogs(args: any) {
  const hits = logs.filter((log) => log.includes(args.search));
  require("fs").writeFileSync("/tmp/" + args.path, hits.join("\\n"));
  return { content: [{ type: "text", text: String(hits.length) }] };
}
async function handle(name: string, args: any) {
  try {
    switch (name) {
      case "find_logs":
        return await findLogs(args);
      default:
        return { content: [{ type: "text", text: `Unknown tool: ${name}` }], isError: true };
    }
  } catch (error) {
    if (TOOLS.includes(name)) {
      return { content: [{ type: "text", text: "browser error" }], isError: true };
    }
    return { content: [{ type: "text", text: String(error) }], isError: true };
  }
}
const server = new Server({ name: "p", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "find_logs", description: "Find", inputSchema: { type: "object", properties: { search: { type: "string" }, path: { type: "string" } } } },
] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => handle(request.params.name, request.params.arguments));
'''
    assert set(_flagged(code)) == {"search", "path"}


def test_a_value_handed_to_a_function_that_uses_it_only_under_a_test_of_its_type_is_checked():
    """`pickAddress(args.address, fallback)`, which takes the value only when `typeof value === "string"` (else the
    fallback) and throws unless the result matches a pattern: a value of another type reaches no use. A function that
    uses its parameter untested (`String(value).trim() || fallback`) checks nothing."""
    code = SDK + '''
const ADDRESS = /^0x[0-9a-f]{40}$/i;
function pickAddress(value: unknown, fallback: string) {
  const candidate = typeof value === "string" && value.trim().length > 0 ? value.trim() : fallback;
  if (!ADDRESS.test(candidate)) throw new Error("bad address");
  return candidate;
}
const server = new Server({ name: "v", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "pay", description: "Pay", inputSchema: { type: "object", properties: { address: { type: "string" } } } },
] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args: any = request.params.arguments;
  if (request.params.name === "pay") {
    const to = pickAddress(args.address, "0x0000000000000000000000000000000000000000");
    const res = await fetch("https://pay.example/" + to, { method: "POST" });
    return { content: [{ type: "text", text: await res.text() }] };
  }
  throw new Error("unknown tool");
});
'''
    assert _flagged(code) == {}
    untested = code.replace('typeof value === "string" && value.trim().length > 0 ? value.trim() : fallback',
                            'String(value).trim() || fallback')
    assert _flagged(untested) == {"address": "unchecked-optional"}


def test_a_clamp_that_returns_a_default_unless_its_parameter_is_a_number_checks_it():
    """`clamp(args.limit, SPEC)` returning the default when `typeof t!="number"||!Number.isFinite(t)` (a bundle's
    spacing, the test negated and joined by `||`) and the clamped number otherwise: a value of another type reaches
    no use. The same function with the test on the other side (`typeof t=="number"?SPEC.default:...`) checks
    nothing."""
    code = SDK + '''
const SPEC = { default: 10, max: 50 };
function clamp(t: any, e: any) { return typeof t!="number"||!Number.isFinite(t)?e.default:Math.min(Math.max(1,Math.trunc(t)),e.max) }
const server = new Server({ name: "v", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "recent", description: "Recent", inputSchema: { type: "object", properties: { limit: { type: "number" } } } },
] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args: any = request.params.arguments;
  if (request.params.name === "recent") {
    const res = await fetch("https://mem.example/recent", { method: "POST", body: JSON.stringify({ limit: clamp(args.limit, SPEC) }) });
    return { content: [{ type: "text", text: await res.text() }] };
  }
  throw new Error("unknown tool");
});
'''
    assert _flagged(code) == {}
    wrong = code.replace('typeof t!="number"||!Number.isFinite(t)?', 'typeof t=="number"?')
    assert wrong != code
    assert _flagged(wrong) == {"limit": "unchecked-optional"}


def test_a_value_a_recursive_search_only_compares_reaches_nothing():
    """`client.resolve(args.node_id)` whose method searches a tree with a local `findNode(nodes, id)`, comparing
    `node.id === id` and calling itself on the children with the same id, and hands the node found on: the value is
    only compared, whatever the depth of the recursion; a search that also sends it is a use."""
    code = SDK + '''
class Client {
  tree = [{ id: "a", title: "A", children: [{ id: "b", title: "B" }] }];
  async resolve(nodeId: unknown) {
    const findNode = (nodes: any[], targetId: unknown): any => {
      for (const node of nodes) {
        if (node.id === targetId) return node;
        if (node.children) {
          const found = findNode(node.children, targetId);
          if (found) return found;
        }
      }
      return undefined;
    };
    const node = findNode(this.tree, nodeId);
    return fetch("https://nodes.example/" + (node ? node.title : "none"));
  }
}
const client = new Client();
const server = new Server({ name: "v", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "resolve", description: "Resolve", inputSchema: { type: "object", properties: { node_id: { type: "string" } }, required: ["node_id"] } },
] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args: any = request.params.arguments;
  if (request.params.name === "resolve") {
    const res = await client.resolve(args.node_id);
    return { content: [{ type: "text", text: await res.text() }] };
  }
  throw new Error("unknown tool");
});
'''
    assert _flagged(code) == {}
    sent = code.replace("      return undefined;\n    };", "      fetch(\"https://log.example/\" + targetId);\n      return undefined;\n    };")
    assert sent != code
    assert _flagged(sent) == {"node_id": "schema-unenforced"}


def test_a_value_only_tested_for_membership_by_has_reaches_nothing():
    """`cancel(run, args.slot)` whose only use of the slot is `run.processes.has(slot)` (a Map the code does not
    show): `has` only answers membership, whatever holds it; handed to `run.processes.kill(slot)` it is a use."""
    code = SDK + '''
function cancel(run: any, slot: unknown) {
  if (!run.processes.has(slot)) return false;
  run.stopped = true;
  return true;
}
const runs: any = {};
const server = new Server({ name: "v", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "team", description: "Team", inputSchema: { type: "object", properties: { slot: { type: "string" } } } },
] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args: any = request.params.arguments;
  if (request.params.name === "team") {
    return { content: [{ type: "text", text: String(cancel(runs.current, args.slot)) }] };
  }
  throw new Error("unknown tool");
});
'''
    assert _flagged(code) == {}
    killed = code.replace("run.processes.has(slot)", "run.processes.kill(slot)")
    assert killed != code and _flagged(killed) == {"slot": "unchecked-optional"}


def test_a_value_only_written_into_the_message_of_a_thrown_error_reaches_nothing():
    """`throw new Error(`Sheet ${args.sheet} not found`)` hands the value back as text: no finding; the same value
    handed to a request is one, unless the element it found is what lets it go on."""
    code = SDK + '''
const server = new Server({ name: "v", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "read", description: "Read", inputSchema: { type: "object", properties: { sheet: { type: "number" } } } },
] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args: any = request.params.arguments;
  if (request.params.name === "read") {
    const sheets = await (await fetch("https://sheets.example/list")).json();
    const found = sheets.find((s: any) => s.id === args.sheet);
    if (!found) throw new Error(`Sheet ${args.sheet} not found`);
    return { content: [{ type: "text", text: found.title }] };
  }
  throw new Error("unknown tool");
});
'''
    assert _flagged(code) == {}
    # (the look-up itself checks it: only the id of a sheet found goes on; the first sheet found checks nothing)
    sent = code.replace('return { content: [{ type: "text", text: found.title }] };',
                        'await fetch("https://sheets.example/" + args.sheet);\n    return { content: [] };')
    assert _flagged(sent) == {}
    first = sent.replace("sheets.find((s: any) => s.id === args.sheet)", "sheets[0]")
    assert first != sent
    assert _flagged(first) == {"sheet": "unchecked-optional"}


def test_a_validator_handed_a_field_and_another_input_name_checks_the_field():
    """`pickMode(request.params?.arguments?.mode || "all", MODES, requestId)`: the validator throws unless its first
    parameter is a string of MODES; that it is also handed `requestId` (a parameter of the handler, so a name that may
    hold the input) does not hide the field it checks."""
    code = SDK + '''
const MODES = ["all", "cards"];
function pickMode(value: unknown, valid: string[], requestId: string) {
  if (typeof value !== "string") throw new Error(`mode must be one of ${valid.join(", ")} (${requestId})`);
  const found = valid.find((v) => v === value.toLowerCase());
  if (!found) throw new Error("unknown mode");
  return found;
}
async function clearCache(request: any, requestId: string) {
  const mode = pickMode(request.params?.arguments?.mode || "all", MODES, requestId);
  await fetch("https://cache.example/clear/" + mode, { method: "POST" });
  return { content: [] };
}
const server = new Server({ name: "v", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "clear_cache", description: "Clear", inputSchema: { type: "object", properties: { mode: { type: "string", enum: ["all", "cards"] } } } },
] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === "clear_cache") return clearCache(request, "r1");
  throw new Error("unknown tool");
});
'''
    assert _flagged(code) == {}
    unchecked = code.replace('  if (typeof value !== "string") throw new Error(`mode must be one of ${valid.join(", ")} (${requestId})`);\n', "") \
        .replace('valid.find((v) => v === value.toLowerCase());\n  if (!found) throw new Error("unknown mode");',
                 'String(value);')
    assert _flagged(unchecked) == {"mode": "unchecked-optional"}


def test_a_validator_whose_returned_message_the_caller_leaves_on_checks_its_fields():
    # `const invalid = requireKeys(args, ["path"]); if (invalid) return ...`: the validator walks the listed keys of the
    # whole input and returns a message for a bad one; `checkLimit(args.limit)` returns `ok ? null : "message"`
    head = ('function requireKeys(args: any, keys: string[]) {\n'
            '  for (const key of keys) {\n'
            '    const value = args[key];\n'
            '    if (typeof value !== "string" || value.length === 0) {\n'
            '      return `${key} must be a non-empty string`;\n'
            '    }\n'
            '  }\n'
            '  return null;\n'
            '}\n'
            'function checkLimit(limit: any) {\n'
            '  if (limit === undefined) return null;\n'
            '  return typeof limit === "number" && limit >= 1 ? null : "limit must be at least 1";\n'
            '}\n')
    check = ('  const invalid = requireKeys(args, ["path"]);\n'
             '  if (invalid) return { content: [{ type: "text", text: invalid }], isError: true };\n'
             '  const bad = checkLimit(args.limit);\n'
             '  if (bad) return { content: [{ type: "text", text: bad }], isError: true };\n')
    assert flagged({"index.ts": server(check=check, head=head, gate=False)}) == {}
    # the same functions with results nobody acts on check nothing
    ignored = check.replace("if (invalid) return", "if (false) return").replace("if (bad) return", "if (false) return")
    assert flagged({"index.ts": server(check=ignored, head=head, gate=False)}) == BOTH


def test_two_builds_of_one_server_each_cite_the_use_in_their_own_build():
    # A package shipping its server twice (`dist/stdio.js` its bin, `dist/http.js` an export), each with its own copy
    # of every tool: each copy's finding cites the use in its own file (it cited the first file's use for both)
    stdio = server(gate=False)
    http = "// the HTTP build\n\n\n" + server(gate=False)
    files = {"package.json": '{"name": "demo", "bin": {"demo": "dist/stdio.js"}, "exports": {".": "./dist/stdio.js", '
                             '"./http": "./dist/http.js"}, "dependencies": {"@modelcontextprotocol/sdk": "1"}}',
             "dist/stdio.js": stdio, "dist/http.js": http}
    found = [f for f in mismatches.mismatches(program(files), {"probes": []})
             if f.kind in KINDS and f.attrs["tool"] == "read_note" and f.attrs["field"] == "path"]
    cited = sorted([a.path for a in f.anchors] for f in found)
    assert cited == [["dist/http.js", "dist/http.js"], ["dist/stdio.js", "dist/stdio.js"]]
    assert sorted(f.anchors[1].start_line for f in found) == [line_of(stdio, "readFileSync(args.path"),
                                                              line_of(http, "readFileSync(args.path")]


def test_a_schema_parse_of_an_object_built_from_input_fields_checks_them_under_their_keys():
    # `ConfigSchema.parse({ geminiApiKey: apiKey })`: the schema checks apiKey as geminiApiKey; a field handed under a
    # key the schema does not declare (`other: note`) is not checked by it, nor by `create` of a service object (no
    # schema read: `notes.create({ note })` stores it)
    code = SDK + ('import { z } from "zod";\n'
                  'const ConfigSchema = z.object({ geminiApiKey: z.string().min(1) });\n'
                  'let config = null;\n'
                  'class Notes { create(input) { return input; } }\n'
                  'const notes = new Notes();\n'
                  'const server = new Server({ name: "x", version: "1" }, { capabilities: { tools: {} } });\n'
                  'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
                  '  { name: "configure", description: "Set the key", inputSchema: { type: "object", properties: {\n'
                  '      apiKey: { type: "string" }, note: { type: "string" } }, required: ["apiKey", "note"] } },\n'
                  ']}));\n'
                  'async function configure(request) {\n'
                  '  const { apiKey, note } = request.params.arguments;\n'
                  '  ConfigSchema.parse({ geminiApiKey: apiKey, other: note });\n'
                  '  notes.create({ note, key: apiKey });\n'
                  '  config = { geminiApiKey: apiKey };\n'
                  '  return { content: [{ type: "text", text: String(note).trim() }] };\n'
                  '}\n'
                  'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
                  '  switch (request.params.name) {\n'
                  '    case "configure": return configure(request);\n'
                  '  }\n'
                  '  throw new Error("unknown");\n'
                  '});\n')
    assert fields_flagged({"index.ts": code}) == {"note": "schema-unenforced"}


@pytest.mark.parametrize("check", [
    # a failed test against a regular expression that throws, the pattern written there or held by a constant
    '  if (!/^[a-z0-9/._-]+$/i.test(args.path)) throw new Error("bad path");\n',
    '  if (!SAFE_PATH.test(args.path)) throw new Error("bad path");\n',
    # held by a local, the tool's own code returning anything for the other form (an empty answer, not an error)
    '  const safe = new RegExp("^[a-z0-9/._-]+$", "i").test(args.path);\n'
    '  if (!safe) return { content: [{ type: "text", text: "[]" }] };\n',
])
def test_a_failed_pattern_test_that_leaves_checks_the_value_it_tests(check):
    """`if (!UUID.test(args.id)) return ...`: only text of that form goes on to the use (a format check, as the
    corpus labels read it); the optional field no test names is still unchecked."""
    head = "const SAFE_PATH = /^[a-z0-9/._-]+$/i;\n"
    assert flagged({"index.ts": server(gate=False, head=head, check=check)}) == {"limit": "unchecked-optional"}


def test_a_pattern_test_whose_failure_goes_on_checks_nothing():
    check = '  const safe = /^[a-z0-9/._-]+$/i.test(args.path);\n  if (!safe) console.error("odd path");\n'
    assert flagged({"index.ts": server(gate=False, check=check)}) == BOTH


def test_a_helper_that_returns_only_listed_values_and_throws_otherwise_checks_its_argument():
    """`function kindArg(v) { const k = String(v).trim(); if (k === "a" || k === "b") return k; throw ... }`: only
    a listed value goes on (a disjunction of comparisons with literals is a membership test)."""
    head = ('function limitArg(value: any) {\n  const picked = String(value).trim();\n'
            '  if (picked === "10" || picked === "20") {\n    return Number(picked);\n  }\n'
            '  throw new Error("limit must be 10 or 20");\n}\n')
    text = server(gate=False, head=head).replace(".slice(0, args.limit)", ".slice(0, limitArg(args.limit))")
    assert "limitArg(args.limit)" in text
    assert flagged({"index.ts": text}) == {"path": "schema-unenforced"}
    mixed = head.replace('picked === "20"', 'other === "20"').replace("const picked", "const other = 1;\n  const picked")
    assert flagged({"index.ts": server(gate=False, head=mixed).replace(".slice(0, args.limit)",
                                                                       ".slice(0, limitArg(args.limit))")}) == BOTH


def test_a_chain_of_ifs_returning_each_listed_value_then_throwing_checks_its_argument():
    """`if (v === "10") return 10; if (v === "20") return 20; throw ...`: the same as one membership test."""
    head = ('function limitArg(value: any) {\n  const picked = String(value).trim();\n'
            '  if (picked === "10") return 10;\n  if (picked === "20") return 20;\n'
            '  throw new Error("limit must be 10 or 20");\n}\n')
    used = ".slice(0, limitArg(args.limit))"
    assert flagged({"index.ts": server(gate=False, head=head).replace(".slice(0, args.limit)", used)}) == \
        {"path": "schema-unenforced"}
    going_on = head.replace('  throw new Error("limit must be 10 or 20");\n', "  return 50;\n")
    assert flagged({"index.ts": server(gate=False, head=going_on).replace(".slice(0, args.limit)", used)}) == BOTH


def test_a_call_handed_a_field_whose_result_says_it_is_valid_checks_that_field():
    """`const r = verifyPath(args.path); if (!r.valid) return ...` (kb/sdk.yaml validators result_flags): a validator
    of the field it is handed, by its result, as it is of a whole input; a result not tested checks nothing."""
    head = ('function verifyPath(p: any) {\n  const parsed = PathSchema.safeParse(p);\n'
            '  return parsed.success ? { valid: true } : { valid: false, reason: "bad path" };\n}\n'
            'const PathSchema = z.object({ dir: z.string(), name: z.string() });\n')
    tested = '  const verdict = verifyPath(args.path);\n  if (!verdict.valid) return { content: [] };\n'
    assert flagged({"index.ts": server(gate=False, head=head, check=tested)}) == {"limit": "unchecked-optional"}
    untested = '  const verdict = verifyPath(args.path);\n  console.error(verdict.valid);\n'
    assert flagged({"index.ts": server(gate=False, head=head, check=untested)}) == BOTH


COLLECTING = ('function checkNote(input: any) {\n  const errors: string[] = [];\n  const warnings: string[] = [];\n'
              '  if (typeof input.root !== "string" || input.root.length === 0) errors.push("root must be text");\n'
              '  if (input.limit !== undefined && typeof input.limit !== "number") {\n'
              '    errors.push("limit must be a number");\n  }\n'
              '  if (input.extra) warnings.push("extra is ignored");\n'
              '  return { errors, warnings };\n}\n')


@pytest.mark.parametrize("gate", [
    "  if (result.errors.length > 0) throw new Error(result.errors.join());\n",
    "  if (result.errors.length) return { content: [{ type: \"text\", text: \"bad\" }], isError: true };\n",
    "  if (result.errors.length !== 0) throw new Error(\"invalid\");\n",
])
def test_fields_handed_to_a_validator_that_collects_its_failures_are_checked_when_the_caller_rejects_them(gate):
    # `const result = checkNote({ root: args.path, limit: args.limit }); if (result.errors.length > 0) throw`: the
    # validator records each failure in a list it returns, and the caller leaves when that list is not empty
    check = "  const result = checkNote({ root: args.path, limit: args.limit });\n" + gate
    assert flagged({"index.ts": server(check=check, head=COLLECTING)}) == {}


def test_a_collecting_validator_checks_nothing_when_its_failures_are_not_rejected():
    # the result's failures only logged, or warnings (not errors) tested, or the list never returned: nothing checked
    logged = "  const result = checkNote({ root: args.path, limit: args.limit });\n  console.error(result.errors);\n"
    assert flagged({"index.ts": server(check=logged, head=COLLECTING)}) == BOTH
    warned = ("  const result = checkNote({ root: args.path, limit: args.limit });\n"
              "  if (result.warnings.length > 0) throw new Error(\"warned\");\n")
    assert flagged({"index.ts": server(check=warned, head=COLLECTING)}) == BOTH
    unreturned = COLLECTING.replace("return { errors, warnings }", "return { errors: [], warnings }")
    gated = ("  const result = checkNote({ root: args.path, limit: args.limit });\n"
             "  if (result.errors.length > 0) throw new Error(\"invalid\");\n")
    assert flagged({"index.ts": server(check=gated, head=unreturned)}) == BOTH


def test_a_collecting_validator_of_one_field_and_of_the_whole_input_checks_what_it_tests():
    one = ('function checkRoot(value: any) {\n  const problems: string[] = [];\n'
           '  if (typeof value !== "string") problems.push("root must be text");\n  return problems;\n}\n')
    check = "  const problems = checkRoot(args.path);\n  if (problems.length > 0) throw new Error(problems.join());\n"
    assert flagged({"index.ts": server(check=check, head=one)}) == {"limit": "unchecked-optional"}
    whole = COLLECTING.replace("input.root", "input.path")
    check = "  const result = checkNote(args);\n  if (result.errors.length >= 1) throw new Error(\"invalid\");\n"
    assert flagged({"index.ts": server(check=check, head=whole)}) == {}


def test_a_local_declared_as_a_field_and_handed_in_an_object_to_a_collecting_validator_is_checked():
    # `const title = args.path; checkNote({ root: title ?? "notes" })`: the local is the field when it is set
    check = ('  const title = args.path;\n  const result = checkNote({ root: title ?? "notes", limit: args.limit });\n'
             '  if (result.errors.length > 0) throw new Error("invalid");\n')
    assert flagged({"index.ts": server(check=check, head=COLLECTING)}) == {}
    twice = check.replace("  const result", "  if (!title) { const title = 1; }\n  const result")
    assert flagged({"index.ts": server(check=twice, head=COLLECTING)}) == {"path": "schema-unenforced"}


SHARED = (SDK + 'import { readFileSync, writeFileSync } from "node:fs";\n'
          'const server = new Server({ name: "demo", version: "1" }, { capabilities: { tools: {} } });\n'
          'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
          '  { name: "read_note", description: "Read", inputSchema: { type: "object", properties: {\n'
          '      path: { type: "string" } }, required: ["path"] } },\n'
          '  { name: "save_note", description: "Save", inputSchema: { type: "object", properties: {\n'
          '      path: { type: "string" }, text: { type: "string" } }, required: ["path", "text"] } },\n'
          ']}));\n'
          'function writeNote(n: any) { writeFileSync(n.path, n.text); }\n'
          'function isSave(a: any): a is { path: string; text: string } { return typeof a === "object" && a !== null && typeof a.path === "string"'
          ' && typeof a.text === "string"; }\n'
          'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
          '  const { name, arguments: input } = request.params;\n'
          '  const { path } = input as any;\n'
          '  const target = { path };\n'
          '  switch (name) {\n'
          '    case "read_note": return { content: [{ type: "text", text: readFileSync(target.path, "utf8") }] };\n'
          '    case "save_note":\n'
          '      if (isSave(input)) { writeNote({ ...input }); return { content: [] }; }\n'
          '      return { content: [{ type: "text", text: "bad input" }], isError: true };\n'
          '  }\n'
          '  throw new Error("unknown tool");\n'
          '});\n')


def test_a_local_the_dispatch_builds_before_its_cases_is_used_only_by_the_tools_whose_cases_read_it():
    # `const target = { path }` before the `switch`: read by read_note's case, not by save_note's (which checks the
    # input with a type guard before its own use): the field is unchecked for the first tool only
    found = {(f.attrs["tool"], f.attrs["field"]) for f in mismatches.mismatches(program({"index.ts": SHARED}),
                                                                                   {"probes": []}) if f.kind in KINDS}
    assert found == {("read_note", "path")}


def test_a_type_predicate_whose_branch_leaves_and_whose_failure_is_returned_checks_what_it_tests():
    # `if (isSave(input)) { writeFileSync(input.path, input.text); return ... } return { ... isError }`: only input
    # the predicate passes reaches the uses; a use after the `if` that does not leave is not so guarded
    direct = SHARED.replace("writeNote({ ...input }); return", "writeFileSync(input.path, input.text); return")
    found = {(f.attrs["tool"], f.attrs["field"]) for f in mismatches.mismatches(program({"index.ts": direct}),
                                                                                   {"probes": []}) if f.kind in KINDS}
    assert found == {("read_note", "path")}
    stays = direct.replace("writeFileSync(input.path, input.text); return { content: [] }; }",
                           "writeFileSync(input.path, input.text); }")
    found = {(f.attrs["tool"], f.attrs["field"]) for f in mismatches.mismatches(program({"index.ts": stays}),
                                                                                   {"probes": []}) if f.kind in KINDS}
    assert ("save_note", "text") in found


GUARD = ('class Guard {\n'
         '  static clean(obj: any): any {\n'
         '    if (obj === null || obj === undefined) return obj;\n'
         '    if (typeof obj === "string") return obj.trim();\n'
         '    if (Array.isArray(obj)) return obj.map((x: any) => Guard.clean(x));\n'
         '    const out: any = {};\n'
         '    for (const [k, v] of Object.entries(obj)) { out[k] = Guard.clean(v); }\n'
         '    return out;\n'
         '  }\n'
         '  static check(schema: any, input: any) { return schema.parse(input); }\n'
         '}\n')


def test_a_static_wrapper_handed_a_schema_and_a_sanitised_copy_of_the_input_checks_that_schema_s_fields():
    # `Guard.check(NoteArgs, Guard.clean(args))`: the static method parses what it is handed with the schema it is
    # handed, and the sanitiser returns a copy of an object (its string and list branches are for other values)
    head = f"const NoteArgs = {NOTE};\n" + GUARD
    check = "  const clean = Guard.clean(args);\n  Guard.check(NoteArgs, clean);\n"
    assert flagged({"index.ts": server(check=check, head=head)}) == {}
    # the schema handed decides: one of `path` alone leaves `limit` unchecked
    narrow = head.replace(f"const NoteArgs = {NOTE};\n", "const NoteArgs = z.object({ path: z.string() });\n")
    assert flagged({"index.ts": server(check=check, head=narrow)}) == {"limit": "unchecked-optional"}


def test_a_wrapper_handed_a_schema_and_one_field_checks_that_field():
    # `Guard.check(PathSchema, args.path)`: the field handed in is parsed by the schema handed beside it
    head = "const PathSchema = z.string().min(1);\n" + GUARD
    check = "  Guard.check(PathSchema, args.path);\n"
    assert flagged({"index.ts": server(check=check, head=head)}) == {"limit": "unchecked-optional"}


def test_a_field_or_its_string_tested_against_literals_it_must_be_one_of_is_checked():
    # `if (args.path !== "a.md" && args.path !== "b.md") throw`: only those values go on; `const p = args.path?.trim(); if (p !== "a.md" && p !== "b.md") return error`: the field's string, tested against
    # what it may be before its use; a local made by a method that takes other values (`slice(1)`) is no such alias
    check = ('  const p = args.path?.trim();\n'
             '  if (p !== "a.md" && p !== "b.md") return { isError: true, content: [] };\n')
    assert flagged({"index.ts": server(check=check, gate=False)}) == {"limit": "unchecked-optional"}
    sliced = check.replace("args.path?.trim()", "args.path?.slice(1)")
    assert flagged({"index.ts": server(check=sliced, gate=False)}) == BOTH
    direct = '  if (args.path !== "a.md" && args.path !== "b.md") throw new Error("no such note");\n'
    assert flagged({"index.ts": server(check=direct, gate=False)}) == {"limit": "unchecked-optional"}
    either = '  if (args.path !== "a.md" && args.limit !== 2) throw new Error("no such note");\n'  # (two fields: neither)
    assert flagged({"index.ts": server(check=either, gate=False)}) == BOTH


def test_a_function_not_read_named_as_a_validator_checks_the_fields_it_is_handed():
    # `const p = validateFilePath(args.path)` of a dependency the audit has no code for: what its name says is a check
    # of that field, made outside the boundary; a function of another name is a use, and one of the boundary with that
    # name is judged by its code (this one checks nothing)
    head = 'import { validateFilePath, resolveFile } from "@acme/shared";\n'
    check = '  const p = validateFilePath(args.path);\n  if (!p) throw new Error("no path");\n'
    assert flagged({"index.ts": server(check=check, head=head, gate=False)}) == {"limit": "unchecked-optional"}
    other = check.replace("validateFilePath(", "resolveFile(")
    assert flagged({"index.ts": server(check=other, head=head, gate=False)}) == BOTH
    own = 'function validateFilePath(p: any) { return p; }\n'
    assert flagged({"index.ts": server(check=check, head=own, gate=False)}) == BOTH
    loaded = '  const p = require(args.path);\n  if (!p) throw new Error("no path");\n'  # (a module loaded: a use)
    assert flagged({"index.ts": server(check=loaded, head=head, gate=False)}) == BOTH


def _note_flags(gate: str, handed: str) -> dict[str, str]:
    """Field -> schema finding kind for `create_note`, whose handler runs HANDED (ending with `const r = ...`) and whose
    gate `createNote` starts with GATE (its signature and how it reads the fields) then stores what it reads."""
    code = SDK + (
        'const notes = new Map();\n'
        f'{gate}'
        '  if (!title) throw new Error("title is required");\n'
        '  if (!force && notes.has(title)) return { created: false };\n'
        '  notes.set(title, { title, force });\n  return { created: true };\n}\n'
        'async function handleCreate(args: any) {\n'
        f'{handed}'
        '  return { content: [{ type: "text", text: String(r.created) }] };\n}\n'
        'const server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });\n'
        'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
        '  { name: "create_note", description: "Create", inputSchema: { type: "object", properties: {\n'
        '      title: { type: "string" }, force: { type: "boolean" } }, required: ["title"] } }] }));\n'
        'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
        '  switch (request.params.name) {\n'
        '    case "create_note": return handleCreate(request.params.arguments);\n  }\n'
        '  throw new Error("unknown tool");\n});\n')
    return {f.attrs["field"]: f.kind for f in mismatches.mismatches(program({"index.ts": code}), {"probes": []})
            if f.kind in KINDS}


def test_a_field_the_call_does_not_hand_to_a_gate_never_reaches_it():
    """`const op = { title: args.title }; createNote(op)`: createNote destructures `force` too, but the object it is
    handed has no such key, so the schema's `force` is not stored unchecked there; handed the input itself, it is."""
    def flags(handed: str) -> dict:
        return _note_flags('function createNote(input: any) {\n  const { title, force = false } = input;\n', handed)

    assert "force" not in flags('  const op = { title: args.title };\n  const r = createNote(op);\n')
    assert "force" not in flags('  const r = createNote({ title: args.title });\n')
    assert flags('  const r = createNote(args);\n').get("force") == "unchecked-optional"
    assert flags('  const op: any = { title: args.title };\n  op.force = args.force;\n  const r = createNote(op);\n'
                 ).get("force") == "unchecked-optional"
    # what the local holds is not known once something else fills it
    assert flags('  const op: any = { title: args.title };\n  Object.assign(op, args);\n  const r = createNote(op);\n'
                 ).get("force") == "unchecked-optional"


def test_a_field_a_gate_reads_off_a_later_parameter_still_reaches_it():
    """`createNote({ title: args.title }, args)` where createNote reads `opts.force` off its second parameter: the
    object handed first does not say what reaches the gate, so `force` is still stored unchecked there."""
    found = _note_flags('function createNote(input: any, opts: any) {\n  const { title } = input;\n'
                        '  const force = opts.force;\n', '  const r = createNote({ title: args.title }, args);\n')
    assert found.get("force") == "unchecked-optional"


WRAPPED = SDK + '''import { readFileSync } from "node:fs";
class ReadNote {
  name = "read_note";
  description = "Read a note";
  inputSchema = { type: "object", properties: { path: { type: "string" }, shelf: { type: "string" } }, required: ["path"] };
  async run(params: any) {
    return { content: [{ type: "text", text: readFileSync(params.shelf + "/" + params.path, "utf8") }] };
  }
}
const SHELVES: Record<string, string> = { main: "/notes" };
function wrapRun(tool: any) {
  const original = tool.run.bind(tool);
  tool.run = async function (...args: any[]) {
    const raw = args[0] ?? {};
    const shelf = SHELVES[typeof raw.shelf === "string" ? raw.shelf : "main"] ?? "/notes";
    const handed = { ...raw, shelf };
    return original(handed);
  };
}
const tools = [new ReadNote()];
for (const tool of tools) wrapRun(tool);
const byName = new Map(tools.map((t) => [t.name, t]));
const server = new Server({ name: "demo", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })) }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = byName.get(request.params.name);
  if (!tool) throw new Error("unknown tool");
  return tool.run(request.params.arguments);
});
'''


def test_a_field_a_wrapper_of_the_tools_method_replaces_is_not_the_input_there():
    """`tool.run = async function (...args) { ...; return original({ ...raw, shelf }) }` with `original` bound to the
    tool's own `run`: what `run` reads of `shelf` is the wrapper's value, not the caller's; `path` it hands on as sent
    is the input's. Without the wrapper both are flagged."""
    assert fields_flagged({"index.ts": WRAPPED}) == {"path": "schema-unenforced"}
    plain = WRAPPED.replace("for (const tool of tools) wrapRun(tool);\n", "")
    assert fields_flagged({"index.ts": plain}) == {"path": "schema-unenforced", "shelf": "unchecked-optional"}


def test_a_local_copy_of_a_parameter_s_field_refused_unless_a_key_of_a_table_checks_that_field():
    """`const wanted = args.path; if (!OPENERS[wanted]) return failure(...)` in a function whose parameter is the
    input: the test is of the field `path` (the same value `args.path` then reads), not of a field named `args`."""
    head = ('const OPENERS: Record<string, string> = { "a.md": "/notes/a.md" };\n'
            'function failure(message: string) { return { content: [{ type: "text", text: message }], isError: true }; }\n')
    check = '  const wanted = args.path;\n  if (!OPENERS[wanted]) return failure(`unknown note ${wanted}`);\n'
    assert flagged({"index.ts": server(gate=False, head=head, check=check)}) == {"limit": "unchecked-optional"}
    assert flagged({"index.ts": server(gate=False, head=head, check=check.split("\n")[0] + "\n")}) == BOTH


def _audited(record: str = "logAudit") -> str:
    """A low-level server whose `forget` tool only deletes a Map's key, and whose handler keeps what each call touched
    in locals declared before its switch (`subject = args.id`, `touched = [{ id: args.id }]`, `touched.push(...)`)
    for one call after it, RECORD(name, touched, subject), that appends them to a file; the tool's case declares
    its own `const subject` in an inner block."""
    return (SDK + 'import { appendFileSync } from "node:fs";\n'
            'const notes = new Map<string, string>();\n'
            f'function {record}(tool: string, touched: any[], subject: any) {{\n'
            '  appendFileSync("audit.log", JSON.stringify({ tool, touched, subject }) + "\\n");\n'
            '}\n'
            'const server = new Server({ name: "demo", version: "1" }, { capabilities: { tools: {} } });\n'
            'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
            '  { name: "forget", description: "Forget a note", inputSchema: { type: "object", properties: {\n'
            '      id: { type: "string" } }, required: ["id"] } },\n'
            ']}));\n'
            'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
            '  const { name, arguments: args } = request.params as any;\n'
            '  let touched: any[] = [];\n  let subject: any;\n  let result: any;\n'
            '  switch (name) {\n'
            '    case "forget": {\n'
            '      subject = args.id;\n'
            '      touched = [{ kind: "note", id: args.id }];\n'
            '      result = { deleted: notes.delete(args.id) };\n'
            '      for (const n of notes.keys()) {\n'
            '        if (n.startsWith("draft-")) {\n'
            '          const subject = `${n}-old`; touched.push({ kind: "draft", id: subject });\n'
            '        }\n'
            '      }\n'
            '      break;\n    }\n'
            '  }\n'
            f'  {record}(name, touched, subject);\n'
            '  return { content: [{ type: "text", text: JSON.stringify(result) }] };\n'
            '});\n')


def test_a_value_kept_in_locals_declared_before_the_dispatch_is_followed_to_their_reads():
    """`subject = args.id` into a `let` declared before the switch, `touched = [{ id: args.id }]` (a literal held by
    such a local, added to by `push`): the value goes where those locals are read. Read by a function named for
    the audit log it writes (`logAudit`: kb/sdk.yaml loggers.records), a log, they reach nothing; read by one that
    is not (`saveAudit`, `logForgotten`, the same body), the value is stored as it came."""
    text = _audited()
    assert fields_flagged({"index.ts": text}) == {}
    assert fields_flagged({"index.ts": _audited(record="saveAudit")}) == {"id": "schema-unenforced"}
    assert fields_flagged({"index.ts": _audited(record="logForgotten")}) == {"id": "schema-unenforced"}  # (a record
    # of the domain: no audit log by its name)
    # (the inner block's `const subject` is its own local: its name is no read of the one the case writes)
    assert "const subject = `${n}-old`" in text and "touched.push(" in text


def test_locals_written_from_each_other_are_followed_once():
    """`a = args.path; b = a; a = b;`: each local is followed through the other once (the one met again is being read
    above), not without end; read only by a log, the value reaches nothing."""
    ret = '  return { content: [{ type: "text", text: readFileSync(args.path, "utf8").slice(0, args.limit) }] };\n'
    body = ('  let a: any; let b: any;\n  a = args.path;\n  b = a;\n  a = b;\n  console.error(a, b);\n'
            '  return { content: [{ type: "text", text: "ok" }] };\n')
    assert flagged({"index.ts": server(gate=False).replace(ret, body)}) == {}
    kept = body.replace("  console.error(a, b);\n", "  readFileSync(b);\n")
    assert flagged({"index.ts": server(gate=False).replace(ret, kept)}) == {"path": "schema-unenforced"}


def _catalogue(use: str) -> str:
    """A low-level server whose `formats` tool hands its optional `category` (a string) to a method of a class of the
    module, which keeps the formats whose tags hold it, USE (a callback's body: the category as it reaches it)."""
    return (SDK + 'import { readFileSync } from "node:fs";\n'
            'class Catalogue {\n'
            '  list(kind: string, category?: string) {\n'
            '    const formats: any[] = JSON.parse(readFileSync(`${kind}.json`, "utf8"));\n'
            '    if (category) {\n'
            f'      return formats.filter((f) => {use});\n'
            '    }\n'
            '    return formats;\n'
            '  }\n'
            '}\n'
            'const catalogue = new Catalogue();\n'
            'const server = new Server({ name: "demo", version: "1" }, { capabilities: { tools: {} } });\n'
            'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
            '  { name: "formats", description: "List formats", inputSchema: { type: "object", properties: {\n'
            '      kind: { type: "string", enum: ["a", "b"] }, category: { type: "string" } }, required: ["kind"] } },\n'
            ']}));\n'
            'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
            '  const { name, arguments: args } = request.params as any;\n'
            '  if (name !== "formats") throw new Error(`unknown tool ${name}`);\n'
            '  if (args.kind !== "a" && args.kind !== "b") throw new Error("bad kind");\n'
            '  const found = catalogue.list(args.kind, args.category);\n'
            '  return { content: [{ type: "text", text: JSON.stringify(found) }] };\n'
            '});\n')


def test_a_string_s_method_called_on_the_value_where_it_is_used_checks_it_there():
    """`f.tags.includes(category.toLowerCase())` in a filter's callback: a category that is no string throws at
    `toLowerCase` and goes no further (a string's method is a check, also where the value is used, not only in the
    function's own body); the category read as it came (`readFileSync(category)`), or only through `?.`
    (`category?.toLowerCase()`, which lets any value without that method throw but passes `undefined` on), is
    flagged; so is a category declared one of a list of values, which any string passes."""
    assert fields_flagged({"index.ts": _catalogue("f.tags.includes(category.toLowerCase())")}) == {}
    assert fields_flagged({"index.ts": _catalogue("readFileSync(category.trim(), 'utf8').includes(f.id)")}) == {}
    assert fields_flagged({"index.ts": _catalogue("readFileSync(category, 'utf8').includes(f.id)")}) \
        == {"category": "unchecked-optional"}
    assert fields_flagged({"index.ts": _catalogue("f.tags.includes(category?.toLowerCase())")}) \
        == {"category": "unchecked-optional"}
    enum = _catalogue("f.tags.includes(category.toLowerCase())").replace(
        'category: { type: "string" }', 'category: { type: "string", enum: ["tables", "charts"] }')
    assert fields_flagged({"index.ts": enum}) == {"category": "unchecked-optional"}  # (any string passes there)


def test_a_read_of_a_local_written_again_on_every_path_is_of_the_new_value():
    """`let out = text; out = out.replace(...); return out` in a function the category is handed to (by an alias a
    bundle's lazy module assigns, `var clean; ... clean = cleanText`): the read after the write is of the string the
    write made, whose one read of the category is a string's method; written from the category as it came (`out =
    out + "!"`), the read goes on with it."""
    body = '  let out = t;\n  out = out.replace(/-/g, " ");\n  return readFileSync(out, "utf8");\n'
    clean = 'function cleanText(t: any) {\n  if (!t) return "";\n' + body + '}\nvar clean;\nvar init = () => { clean = cleanText; };\ninit();\n'
    src = _catalogue("true").replace("return formats.filter((f) => true);", "return clean(category);")
    assert fields_flagged({"index.ts": clean + src}) == {}
    carried = clean.replace('out.replace(/-/g, " ")', 'out + "!"')
    assert carried != clean and fields_flagged({"index.ts": carried + src}) == {"category": "unchecked-optional"}


def _session_status(helper: str, miss: str) -> str:
    """A low-level server whose `status` tool looks its required `sessionId` up in a Map and, on a miss, answers
    MISS (a statement of the tool's branch); HELPER is the module's function `toolJson(payload)`."""
    return (SDK + 'import { appendFileSync } from "node:fs";\nconst sessions = new Map<string, any>();\n' + helper +
            'const server = new Server({ name: "demo", version: "1" }, { capabilities: { tools: {} } });\n'
            'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
            '  { name: "status", description: "Status", inputSchema: { type: "object", properties: {\n'
            '      sessionId: { type: "string" } }, required: ["sessionId"] } },\n'
            ']}));\n'
            'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
            '  const { name, arguments: args } = request.params as any;\n'
            '  if (name === "status") {\n'
            '    const s = sessions.get(args.sessionId);\n'
            f'    if (!s) {miss}\n'
            '    return toolJson({ ok: true, mode: s.mode });\n'
            '  }\n'
            '  throw new Error("unknown tool");\n'
            '});\n')


def test_a_value_an_async_helper_writes_into_the_result_the_tool_returns_awaited_is_echoed():
    """`return await toolJson({ ok: false, sessionId: args.sessionId })`: what the awaited call resolves to is the
    tool's result, as when it is returned as it is; awaited and kept to be sent on, it is used."""
    echo = ('async function toolJson(payload: any) {\n'
            '  return { content: [{ type: "text", text: JSON.stringify(payload, null, 2) }] };\n}\n')
    returned = "return await toolJson({ ok: false, sessionId: args.sessionId });"
    assert fields_flagged({"index.ts": _session_status(echo, returned)}) == {}
    sent = ("{ const r = await toolJson({ ok: false, sessionId: args.sessionId }); "
            "appendFileSync(\"miss.log\", r.content[0].text); return r; }")
    assert fields_flagged({"index.ts": _session_status(echo, sent)}) == {"sessionId": "schema-unenforced"}


def test_a_value_a_helper_writes_into_the_result_the_tool_returns_is_echoed():
    """`return toolJson({ ok: false, sessionId: args.sessionId })`, toolJson returning `{ content: [{ text:
    JSON.stringify(payload) }] }`: what the helper returns is the tool's result, so the value is written back to the
    caller that sent it, as the tool's own `return { ... }` would (the Map lookup before reaches nothing). A helper
    that also appends the payload to a file, or a result the tool keeps and sends on, uses it."""
    echo = ('function toolJson(payload: any) {\n'
            '  return { content: [{ type: "text", text: JSON.stringify(payload, null, 2) }] };\n}\n')
    returned = "return toolJson({ ok: false, sessionId: args.sessionId });"
    assert fields_flagged({"index.ts": _session_status(echo, returned)}) == {}
    kept = echo.replace("  return {", '  appendFileSync("status.log", JSON.stringify(payload));\n  return {')
    assert fields_flagged({"index.ts": _session_status(kept, returned)}) == {"sessionId": "schema-unenforced"}
    sent = ("{ const r = toolJson({ ok: false, sessionId: args.sessionId }); "
            "appendFileSync(\"miss.log\", r.content[0].text); return r; }")
    assert fields_flagged({"index.ts": _session_status(echo, sent)}) == {"sessionId": "schema-unenforced"}


def _generated(validator_test: str, caller_test: str) -> str:
    """A server whose tool hands `{ structure }` (a local of the input's field) to a function that validates it with
    a helper returning a list of failures, and leaves on a failure, before it reads the structure's sections."""
    return (SDK +
            'const server = new Server({ name: "demo", version: "1" }, { capabilities: { tools: {} } });\n'
            'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
            '  { name: "generate", description: "Generate", inputSchema: { type: "object", properties: {\n'
            '      structure: { type: "object" } }, required: ["structure"] } },\n'
            ']}));\n'
            'function validateStructure(structure) {\n'
            '  const errors = [];\n'
            f'  if ({validator_test}) {{\n'
            '    errors.push({ path: "structure", message: "structure must be an object" });\n'
            '    return errors;\n'
            '  }\n'
            '  return errors;\n'
            '}\n'
            'function generate(input) {\n'
            '  const { structure } = input;\n'
            '  const problems = validateStructure(structure);\n'
            f'  if ({caller_test}) return {{ success: false, error: "invalid" }};\n'
            '  return { success: true, children: structure.sections.map((s) => s.title) };\n'
            '}\n'
            'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
            '  const args = request.params.arguments;\n'
            '  switch (request.params.name) {\n'
            '    case "generate": {\n'
            '      const structure = args?.structure;\n'
            '      const result = generate({ structure });\n'
            '      return { content: [{ type: "text", text: JSON.stringify(result) }] };\n'
            '    }\n'
            '    default: throw new Error("unknown tool");\n'
            '  }\n'
            '});\n')


def test_a_list_of_failures_a_helper_returns_checks_a_field_handed_on_in_an_object():
    """`generate({ structure })` of `const structure = args?.structure`; generate takes the field out of its parameter
    and leaves when `validateStructure(structure)`, which records a failure when it is no object, returns a list that
    is not empty: the field is checked before its sections are read (expect: no finding). A failure recorded on
    another condition, or a list nobody tests, checks nothing (expect: schema-unenforced)."""
    assert _flagged(_generated('!structure || typeof structure !== "object"', "problems.length > 0")) == {}
    assert _flagged(_generated("errors.length > 10", "problems.length > 0")) == {"structure": "schema-unenforced"}
    assert _flagged(_generated('!structure || typeof structure !== "object"', "false")) == \
        {"structure": "schema-unenforced"}


def _feedback(after: str) -> str:
    """A tool whose implementation makes a text of `message` and of `context` in a local (a conditional's branches,
    the object's JSON text), then does AFTER with that local."""
    return (SDK + 'import { execSync } from "node:child_process";\n'
            'const server = new Server({ name: "demo", version: "1" }, { capabilities: { tools: {} } });\n'
            'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
            '  { name: "feedback", description: "Feedback", inputSchema: { type: "object", properties: {\n'
            '      message: { type: "string" }, context: { type: "object" } }, required: ["message"] } },\n'
            ']}));\n'
            'async function feedback(args: { message: string; context?: object }) {\n'
            '  const { message, context } = args;\n'
            '  const line = context ? `[fb] ${message}\\nContext: ${JSON.stringify(context, null, 2)}` : `[fb] ${message}`;\n'
            f'  {after}\n'
            '  return { content: [{ type: "text", text: "noted" }] };\n'
            '}\n'
            'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
            '  switch (request.params.name) {\n'
            '    case "feedback": return await feedback(request.params.arguments as any);\n'
            '    default: throw new Error("unknown tool");\n'
            '  }\n'
            '});\n')


def test_a_text_made_of_the_value_goes_where_the_local_holding_it_goes():
    """`const line = `[fb] ${message}...${JSON.stringify(context)}``: the local only logged, or never read, keeps
    nothing (expect: no finding); run as a command, both values reach a use (expect: both flagged)."""
    assert _flagged(_feedback("console.error(line);")) == {}
    assert _flagged(_feedback("")) == {}
    assert _flagged(_feedback("execSync(line);")) == {"message": "schema-unenforced", "context": "unchecked-optional"}


def test_a_field_handed_in_an_object_to_a_helper_that_goes_on_whatever_it_does_is_not_checked():
    """`compose({ html: args.html })`, compose handing `opts.html` to `applyBody`, whose string method runs on one
    branch only and whose result compose does not look at: the field still reaches the request (expect: flagged; a
    check counts through a helper only when compose leaves on the failure it reports)."""
    code = (SDK +
            'const server = new Server({ name: "demo", version: "1" }, { capabilities: { tools: {} } });\n'
            'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
            '  { name: "compose", description: "Compose", inputSchema: { type: "object", properties: {\n'
            '      html: { type: "string" } } } },\n'
            ']}));\n'
            'function toText(h) { return h.replace(/<[^>]+>/g, ""); }\n'
            'function applyBody(mail, body, html) {\n'
            '  if (html && body) { mail.html = html; } else if (html) { mail.text = toText(html); }\n'
            '}\n'
            'async function compose(opts) {\n'
            '  const mail = {};\n'
            '  applyBody(mail, "hello", opts.html);\n'
            '  return fetch("https://mail.example/send", { method: "POST", body: JSON.stringify(mail) });\n'
            '}\n'
            'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
            '  const args = request.params.arguments;\n'
            '  switch (request.params.name) {\n'
            '    case "compose": { await compose({ html: args.html }); return { content: [] }; }\n'
            '    default: throw new Error("unknown tool");\n'
            '  }\n'
            '});\n')
    assert _flagged(code) == {"html": "unchecked-optional"}


def _composer(call: str) -> str:
    """A low-level server whose `compose` tool hands its optional `html` in an object to `compose`, which runs CALL
    (a call of `assertText`, which throws unless its argument is a string) and then sends the html on."""
    return (SDK +
            'const server = new Server({ name: "demo", version: "1" }, { capabilities: { tools: {} } });\n'
            'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
            '  { name: "compose", description: "Compose", inputSchema: { type: "object", properties: {\n'
            '      html: { type: "string" }, draft: { type: "boolean" } } } },\n'
            ']}));\n'
            'function assertText(h) { if (typeof h !== "string") throw new Error("html must be a string"); }\n'
            'async function compose(opts) {\n'
            f'  {call}\n'
            '  return fetch("https://mail.example/send", { method: "POST", body: JSON.stringify({ html: opts.html }) });\n'
            '}\n'
            'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
            '  const args = request.params.arguments;\n'
            '  switch (request.params.name) {\n'
            '    case "compose": { await compose({ html: args.html, draft: args.draft === true }); return { content: [] }; }\n'
            '    default: throw new Error("unknown tool");\n'
            '  }\n'
            '});\n')


def test_a_helper_s_check_of_a_field_handed_in_an_object_counts_on_the_straight_path():
    """`compose({ html: args.html })`, compose handing `opts.html` to a helper that throws unless it is a string: on
    compose's straight path, or in a branch taken whenever the html is there (`if (opts.html)`), the html that goes
    on is checked; in a branch on something else (`if (opts.draft)`), the html sent when that does not hold is not."""
    assert _flagged(_composer("assertText(opts.html);")) == {}
    assert _flagged(_composer("if (opts.html) assertText(opts.html);")) == {}
    assert _flagged(_composer("if (opts.html !== undefined) { assertText(opts.html); }")) == {}
    assert _flagged(_composer("if (opts.draft) assertText(opts.html);")) == {"html": "unchecked-optional"}
    assert _flagged(_composer("if (opts.html && opts.draft) assertText(opts.html);")) == {"html": "unchecked-optional"}


def test_a_helper_s_check_after_a_return_that_hands_the_value_on_checks_nothing_there():
    """compose calls `resolveText(opts.html, opts.draft)`, which checks the html with assertText; when it first
    returns the html as it is on a branch (`if (raw) return h;`), that path goes on unchecked (flagged); a return
    before the check that only writes the value into a text (an error message) does not."""
    helper = 'function resolveText(h, raw) {\n  {early}\n  assertText(h);\n  return h;\n}\n'
    call = "resolveText(opts.html, opts.draft);"
    for early, flagged in (("if (raw) return h;", {"html": "unchecked-optional"}),
                           ("if (raw) return `raw ${h}`;", {}), ("", {})):
        code = _composer(call).replace("async function compose(opts) {", helper.replace("{early}", early)
                                       + "async function compose(opts) {")
        assert "resolveText(h, raw)" in code and _flagged(code) == flagged, early


def test_a_field_a_schema_of_another_package_safe_parses_is_checked_when_its_failure_leaves():
    """`const r = NoteSchema.safeParse(args.path); if (!r.success) return ...`: the field is checked by a schema the
    audit does not read (zod's protocol says whether the value is valid); the other field is not. Without the `if`,
    nothing is refused."""
    head = 'import { NoteSchema } from "@acme/schemas";\n'
    check = '  const r = NoteSchema.safeParse(args.path);\n  if (!r.success) return { content: [], isError: true };\n'
    assert flagged({"index.ts": server(check=check, head=head)}) == {"limit": "unchecked-optional"}
    unread = check.replace("  if (!r.success) return { content: [], isError: true };\n", "")
    assert flagged({"index.ts": server(check=unread, head=head)}) == BOTH
