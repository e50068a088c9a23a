"""Imports the linker follows: static, require(), import() of a string, and import() of a template string without
substitutions (bundlers' chunk loaders write `import(`./chunk-x.js`)`)."""

from __future__ import annotations

from auditor.extract import parse, program


def test_dynamic_imports_of_template_strings_without_substitutions():
    code = (b"import a from './a.js';\nconst b = require('./b.js');\nconst c = await import('./c.js');\n"
            b"const d = await import(`./d.js`);\nconst e = await import(`./chunk-${name}.js`);\n")
    m = program.build("x.ts", "x", parse.parse(code, "typescript"), "typescript")
    assert [src for src, _ in m.imports] == ["./a.js", "./b.js", "./c.js", "./d.js"]


def test_subpath_imports_of_the_package_manifest_resolve_to_its_files():
    """package.json `"imports": {"#tools/*": "./dist/tools/*.js", "#util": {"node": "./dist/util.js"}}`: `import ...
    from "#tools/notes"` and `from "#util"` are the package's own files, so the tools registered there, and the
    callback of another of them, are read."""
    from auditor.analyse import coverage
    from program_helpers import program

    manifest = ('{"name": "kit", "version": "1.0.0", "type": "module", "bin": {"kit": "dist/index.js"}, '
                '"imports": {"#tools/*": "./dist/tools/*.js", "#util": {"node": "./dist/util.js", "default": "./x.js"}}}')
    index = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
             'import { registerNotes } from "#tools/notes";\n'
             'const server = new McpServer({ name: "kit", version: "1" });\nregisterNotes(server);\n')
    notes = ('import { listNotes } from "#util";\n'
             'export function registerNotes(server) {\n'
             '  server.registerTool("list_notes", { description: "List." }, listNotes);\n}\n')
    util = 'export async function listNotes() { return { content: [] }; }\n'
    led = coverage.ledger(program({"package.json": manifest, "dist/index.js": index, "dist/tools/notes.js": notes,
                                   "dist/util.js": util}))
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("list_notes", "analysed")]
    assert led["complete"] is True


def test_aliases_of_the_tsconfig_paths_resolve_to_the_sources():
    """tsconfig `compilerOptions.paths` (`"#tools/*": ["./src/tools/*"]`, `"@kit/util": ["lib/util/index.ts"]` under
    `baseUrl`, or relative to the config without one): the sources' own names of their modules. `#tools/notes.js`
    reaches src/tools/notes.ts even where package.json `imports` maps it to a file that does not exist; an alias the
    config does not list stays unresolved."""
    from auditor.analyse import coverage
    from program_helpers import program

    manifest = ('{"name": "kit", "version": "1.0.0", "type": "module", "bin": {"kit": "src/index.ts"}, '
                '"imports": {"#tools/*": "./src/tools/*.js"}}')
    index = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
             'import { registerNotes } from "#tools/notes.js";\n'
             'const server = new McpServer({ name: "kit", version: "1" });\nregisterNotes(server);\n')
    notes = ('import { listNotes } from "@kit/util";\n'
             'export function registerNotes(server: any) {\n'
             '  server.registerTool("list_notes", { description: "List." }, listNotes);\n}\n')
    util = 'export async function listNotes() { return { content: [] }; }\n'

    def ledger(config: str) -> dict:
        return coverage.ledger(program({"package.json": manifest, "tsconfig.json": config, "src/index.ts": index,
                                        "src/tools/notes.ts": notes, "lib/util/index.ts": util}))

    with_base = '{"compilerOptions": {"baseUrl": ".", "paths": {"#tools/*": ["./src/tools/*"], "@kit/util": ["lib/util/index.ts"]}}}'
    without = '{"compilerOptions": {"paths": {"#tools/*": ["src/tools/*"], "@kit/util": ["./lib/util"]}}}'
    for config in (with_base, without):
        led = ledger(config)
        assert [(t["name"], t["status"]) for t in led["tools"]] == [("list_notes", "analysed")], config
    led = ledger('{"compilerOptions": {"paths": {"#tools/*": ["src/tools/*"]}}}')
    assert [(t["name"], t["status"]) for t in led["tools"]] == [("list_notes", "partially analysed")]
    assert [t["status"] for t in ledger("{}")["tools"]] != ["analysed"]  # (no alias: the registration is not reached)
