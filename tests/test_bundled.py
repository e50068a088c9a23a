"""A single-file bundle over the size limits: the regions of the packages it inlines, marked by its bundler, are blanked
and its own code analysed (extract/bundled.py), or the file stays a size gap."""

from __future__ import annotations

from auditor.analyse import coverage
from auditor.extract import bundled
from tests.program_helpers import INLINED_MCP_SERVER, line_of, program

# An esbuild/tsup bundle written for this test: the SDK and a dependency inlined (their marker lines), then the
# package's own code. The dependency's region is large; the package's own code is small.
_FILLER = "".join(f"  function helper{i}(a, b) {{ return [a, b, {i}].map((x) => x + 1); }}\n" for i in range(60))
BUNDLE = (
    "var __commonJS = (cb, mod) => () => (mod || cb[Object.keys(cb)[0]]((mod = { exports: {} }).exports, mod), mod.exports);\n"
    "\n"
    "// node_modules/fakelib/index.js\n"
    "var require_fakelib = __commonJS({\n"
    '  "node_modules/fakelib/index.js"(exports, module) {\n'
    + _FILLER +
    "    module.exports = { helper0 };\n"
    "  }\n"
    "});\n"
    "\n"
    "// node_modules/zod/lib/index.mjs\n"
    "var ZodType = class {\n"
    "  optional() { return this; }\n"
    "};\n"
    "var ZodObject = class extends ZodType {\n"
    "};\n"
    "var objectType = (shape) => new ZodObject(shape);\n"
    "var stringType = () => new ZodType();\n"
    "var zod_exports = {};\n"
    "__export(zod_exports, {\n"
    "  ZodObject: () => ZodObject,\n"
    "  ZodType: () => ZodType,\n"
    "  object: () => objectType,\n"
    "  string: () => stringType\n"
    "});\n"
    "\n"
    + INLINED_MCP_SERVER +
    "};\n"
    "\n"
    "// src/tools/echo.ts\n"
    "var import_fakelib = require_fakelib();\n"
    "function registerEchoTool(server) {\n"
    '  server.tool("echo", "Echo the text back", { text: zod_exports.string() }, async () => ({ content: [{ type: "text", text: "ok" }] }));\n'
    "}\n"
    "\n"
    "// src/index.ts\n"
    'var server = new McpServer({ name: "bundled", version: "1.0.0" });\n'
    "registerEchoTool(server);\n"
)
PACKAGE = '{"name": "bundled", "version": "1.0.0", "bin": {"bundled": "dist/index.js"}}'


def test_blank_keeps_every_line_and_byte_offset():
    data = BUNDLE.encode()
    found = bundled.blank(data)
    assert len(found.data) == len(data) and found.data.count(b"\n") == data.count(b"\n")
    lines, orig = found.data.decode().splitlines(), BUNDLE.splitlines()
    assert [p for _, _, p in found.regions] == ["fakelib", "zod", "@modelcontextprotocol/sdk"]
    first, last, _ = found.regions[0]
    assert orig[first - 2] == "// node_modules/fakelib/index.js" and not lines[first].strip()
    assert orig[last - 1] == "" and orig[last].startswith("// node_modules/zod")
    # In a region, the statements that bind its names for the bundle stay; the declarations of its code go.
    kept = [ln for ln in lines[found.regions[1][0] - 1:found.regions[1][1]] if ln.strip()]
    assert kept == ["var objectType = (shape) => new ZodObject(shape);", "var stringType = () => new ZodType();",
                    "var zod_exports = {};", "__export(zod_exports, {", "  ZodObject: () => ZodObject,",
                    "  ZodType: () => ZodType,", "  object: () => objectType,", "  string: () => stringType", "});"]
    own = line_of(BUNDLE, "registerEchoTool(server) {")
    assert lines[own - 1] == orig[own - 1]  # the package's own code is untouched
    assert found.kept < len(data) // 2


def test_a_bundle_over_the_byte_limit_is_analysed_with_its_packages_blanked():
    assert len(BUNDLE) > 4000
    p = program({"package.json": PACKAGE, "dist/index.js": BUNDLE}, max_file_bytes=4000)
    (tool,) = p.tools
    assert tool.name == "echo" and tool.node.start_point[0] + 1 == line_of(BUNDLE, 'server.tool("echo"')
    assert not [g for g in p.gaps if g.kind == "size"]
    (gap,) = [g for g in p.gaps if g.kind == "bundled"]
    assert "over the read limit of 4,000" in gap.detail and "fakelib" in gap.detail \
        and "@modelcontextprotocol/sdk" in gap.detail
    led = coverage.ledger(p)
    row = next(f for f in led["files"] if f["path"] == "dist/index.js")
    assert row["status"] == "analysed" and row["blanked"] == 3 and "blanked before parsing" in row["reason"]
    assert led["complete"]  # the blanked packages are outside the boundary: listed, not blocking
    # zod's namespace object, made by a statement kept in its region, is known: the schema is read.
    assert tool.schema == {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}


def test_a_bundle_over_the_node_limit_is_analysed_with_its_packages_blanked():
    p = program({"package.json": PACKAGE, "dist/index.js": BUNDLE}, max_syntax_nodes=800)
    assert [t.name for t in p.tools] == ["echo"]
    (gap,) = [g for g in p.gaps if g.kind == "bundled"]
    assert "over the limit of 800 (kb/method.yaml max_syntax_nodes)" in gap.detail


def test_a_workspace_bundle_over_the_limit_is_blanked_by_its_root_node_modules_markers():
    hoisted = BUNDLE.replace("// node_modules/", "// ../../node_modules/")
    p = program({"package.json": PACKAGE, "dist/index.js": hoisted}, max_file_bytes=4000)
    assert [t.name for t in p.tools] == ["echo"]
    (gap,) = [g for g in p.gaps if g.kind == "bundled"]
    assert "fakelib" in gap.detail and "zod" in gap.detail


def test_without_markers_or_when_its_own_code_is_over_the_limit_it_stays_a_size_gap():
    plain = BUNDLE.replace("// node_modules/", "// vendor/")
    p = program({"package.json": PACKAGE, "dist/index.js": plain}, max_file_bytes=4000)
    assert not p.tools and [g.kind for g in p.gaps] == ["size"]
    p = program({"package.json": PACKAGE, "dist/index.js": BUNDLE}, max_file_bytes=500)
    assert not p.tools and [g.kind for g in p.gaps] == ["size"]


def test_a_marker_line_inside_a_string_is_not_trusted():
    text = BUNDLE.replace("// src/index.ts\n", "// src/index.ts\nvar doc = `\n// node_modules/fakelib/readme.js\n`;\n")
    p = program({"package.json": PACKAGE, "dist/index.js": text}, max_file_bytes=4000)
    assert not p.tools
    (gap,) = [g for g in p.gaps if g.kind == "size"]
    assert "not all top-level comments" in gap.detail


def test_a_module_wrapper_keeps_its_loader_so_the_bundle_binds_the_package():
    from auditor.extract.bindings import bundled_bindings

    p = program({"package.json": PACKAGE, "dist/index.js": BUNDLE}, max_file_bytes=4000)
    text = p.entries[[e.file.path for e in p.entries].index("dist/index.js")].text.splitlines()
    head = line_of(BUNDLE, "var require_fakelib = __commonJS({")
    assert text[head - 1] == "var require_fakelib = __commonJS({" and not text[head].strip()
    assert bundled_bindings(p.modules[0])["import_fakelib"] == ("fakelib", "*")


def test_a_kept_statement_that_does_not_parse_alone_leaves_the_regions_blanked_whole():
    # A one-line declaration opening a template literal that spans lines: kept alone, it does not parse; the file is
    # read again with its packages' regions blanked whole, and analysed.
    text = BUNDLE.replace("var stringType = () => new ZodType();\n",
                          "var stringType = () => new ZodType();\nvar banner = `zod;\n  a banner\n`;\n")
    p = program({"package.json": PACKAGE, "dist/index.js": text}, max_file_bytes=4000)
    assert [t.name for t in p.tools] == ["echo"] and sorted(g.kind for g in p.gaps) == ["bundled", "schema"]
    e = p.entries[[e.file.path for e in p.entries].index("dist/index.js")]
    assert "var zod_exports = {};" not in e.text  # nothing of the regions kept
