"""Where the lines of a tool description are (analyse/description.parts): in the string that writes it, wherever
that is declared, not where the tool object names it."""

from __future__ import annotations

from auditor import kb
from auditor.analyse import description
from program_helpers import KB, SDK, line_of, program

TEXT = ('export const ABOUT = `Find rows of a table.\n\nKey features:\n- Generates a summary of the rows\n\n'
        'You should:\n1. Generate a summary when appropriate\n`;\n')
SERVER = (
    'IMPORTS' + 'const server = new Server({ name: "g", version: "1" }, { capabilities: { tools: {} } });\n'
    'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
    '  { name: "find_rows", description: ABOUT, inputSchema: { type: "object", properties: {} } }] }));\n'
    'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
    '  if (request.params.name === "find_rows") return { content: [] };\n  throw new Error("unknown tool");\n});\n')


def _server(imports: str) -> str:
    return SDK + SERVER.replace("IMPORTS", imports)


def _lines(files: dict[str, str]) -> dict[str, tuple[str, int]]:
    parts = description.parts(program(files), kb.load(KB, "doctrine"))
    return {x.text: (x.path, x.line) for x in parts}


def test_a_description_held_by_a_constant_is_anchored_where_the_constant_writes_each_line():
    here = TEXT + _server("")
    got = _lines({"index.ts": here})
    assert got["Generates a summary of the rows"] == ("index.ts", line_of(here, "- Generates a summary"))
    assert got["Generate a summary when appropriate"] == ("index.ts", line_of(here, "1. Generate a summary"))
    # declared in another module and imported: that module's lines
    main = _server('import { ABOUT } from "./about.js";\n')
    got = _lines({"index.ts": main, "about.ts": TEXT})
    assert got["Generates a summary of the rows"] == ("about.ts", line_of(TEXT, "- Generates a summary"))


def test_a_template_with_substitutions_anchors_each_part_at_its_first_line():
    # `${INTRO}` may hold lines of its own: the line of a part in the text is not its line in the file
    text = 'const INTRO = "Intro.";\nexport const ABOUT = `${INTRO}\nKey features:\n- Generates a summary of the rows\n`;\n'
    here = text + _server("")
    got = _lines({"index.ts": here})
    assert got["Generates a summary of the rows"] == ("index.ts", line_of(here, "export const ABOUT"))
