"""A descriptor's inputSchema that names a JSON Schema constant of another module (a literal with `type`/`properties`,
its properties possibly imported in turn) is read as JSON Schema, part by part, not as a zod shape."""

from __future__ import annotations

from program_helpers import SDK, program

MANIFEST = '{"name": "desk", "version": "1.0.0", "bin": {"desk": "index.ts"}}'


# expect: file_note's inputSchema is an imported JSON Schema constant whose property is itself imported: read as JSON
# Schema (not as a zod shape), the imported property included.
PROPS = '''
export const kindProperty = { type: "string", enum: ["a", "b"], description: "Which kind" };
'''
SCHEMAS = '''import { kindProperty } from "./props.js";
export const noteSchema = {
  type: "object",
  properties: { kind: kindProperty, text: { type: "string" } },
  required: ["kind"],
  additionalProperties: false,
};
'''
NOTE_INDEX = SDK + '''import { noteSchema } from "./schemas.js";

export const fileNote = { name: "file_note", description: "File a note", inputSchema: noteSchema };
const server = new Server({ name: "desk", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [fileNote] }));
'''


def test_an_imported_json_schema_constant_is_read_as_json_schema():
    p = program({"index.ts": NOTE_INDEX, "schemas.ts": SCHEMAS, "props.ts": PROPS, "package.json": MANIFEST})
    (t,) = p.tools
    assert t.schema_form == "json-schema"
    assert t.schema["properties"]["kind"] == {"type": "string", "enum": ["a", "b"], "description": "Which kind"}
    assert t.schema["required"] == ["kind"]
    assert not [g for g in p.gaps if "file_note" in g.detail]
