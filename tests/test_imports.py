"""Imports the linker follows: static, require(), import() of a string, and import() of a template string without
substitutions (bundlers' chunk loaders write `import(`./chunk-x.js`)`)."""

from __future__ import annotations

from auditor.extract import parse, program


def test_dynamic_imports_of_template_strings_without_substitutions():
    code = (b"import a from './a.js';\nconst b = require('./b.js');\nconst c = await import('./c.js');\n"
            b"const d = await import(`./d.js`);\nconst e = await import(`./chunk-${name}.js`);\n")
    m = program.build("x.ts", "x", parse.parse(code, "typescript"), "typescript")
    assert [src for src, _ in m.imports] == ["./a.js", "./b.js", "./c.js", "./d.js"]
