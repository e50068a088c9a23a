"""JavaScript files: parsed with the TypeScript grammar, or with the JavaScript grammar where TypeScript rejects them."""

from __future__ import annotations

from auditor.extract import cache, parse, program
from auditor.target import git_blob_hash

# Valid JavaScript the TypeScript grammar rejects: a parameter named `using`, a minifier's `a?.5:b`.
NOT_TS = b"""export class Jar {
  coins = [];
  drop(value, using, note = "") {
    const weight = using === "half" ?.5:1;
    this.coins.push({ value: value * weight, note });
  }
}
export function count(jar) { return jar.coins.length; }
"""
# Valid JavaScript that tree-sitter-javascript rejects (an export alias that is a reserved word).
NOT_JS_GRAMMAR = b"const rn = 1;\nexport { rn as in };\nexport function f(a) { return a; }\n"


def test_script_suffixes_choose_the_language():
    assert [parse.language_for(p) for p in ("a.js", "a.mjs", "a.cjs", "a.ts", "a.mts", "a.jsx", "a.d.ts", "a.d.mts",
                                            "a.d.cts")] == \
        ["javascript", "javascript", "javascript", "typescript", "typescript", "tsx", None, None, None]


def test_javascript_the_typescript_grammar_rejects_is_read_with_the_javascript_grammar():
    assert parse.parse(NOT_TS, "typescript").root_node.has_error
    tree = parse.parse(NOT_TS, "javascript")
    assert not tree.root_node.has_error and parse.is_javascript_grammar(tree)
    assert parse.error_regions(tree) == []


def test_javascript_the_typescript_grammar_reads_keeps_its_tree():
    tree = parse.parse(NOT_JS_GRAMMAR, "javascript")
    assert not tree.root_node.has_error and not parse.is_javascript_grammar(tree)
    assert set(program.build("a.js", "a", tree, "javascript").functions) == {"f"}


def test_a_module_of_the_javascript_grammar_is_indexed_like_typescript():
    module = program.build("lib/jar.js", "lib/jar", parse.parse(NOT_TS, "javascript"), "javascript")
    assert set(module.functions) == {"count"}
    assert set(module.classes) == {"Jar"}
    assert set(module.classes["Jar"].fields) == {"coins"} and set(module.classes["Jar"].methods) == {"drop"}


def test_the_cache_keys_the_grammar():
    cache.configure()
    try:
        blob = git_blob_hash(NOT_TS)
        as_js = cache.tree(blob, "a.js", "a", "javascript", NOT_TS)
        as_ts = cache.tree(blob, "a.js", "a", "typescript", NOT_TS)
        assert as_js is not as_ts and parse.is_javascript_grammar(as_js) and not parse.is_javascript_grammar(as_ts)
        assert cache.tree(blob, "a.js", "a", "javascript", NOT_TS) is as_js
    finally:
        cache.configure()


def test_a_nul_byte_in_a_template_string_is_no_syntax_error():
    """NUL is legal in a JavaScript string or template; tree-sitter's lexer stops there. It is read as a space: the
    file parses, its lines and the tools after it are read."""
    from auditor.extract import parse

    source = b'const sep = `a\x00b`;\nexport const name = "after_nul";\n'
    tree = parse.parse(source, "javascript")
    assert list(parse.error_regions(tree)) == []
    assert tree.root_node.end_point[0] == 2 and b"after_nul" in tree.root_node.text


def test_a_type_alias_the_grammar_cuts_short_is_no_gap_but_code_after_it_is():
    """`type S<R> = import("m").T<R>;`: the grammar ends the alias before `<R>` (a missing `;`, then an error holding
    the type arguments). Types are erased when the code runs, so no code is hidden there; a real error on the same line
    after it still is a gap."""
    alias = b"type S<R = any> = import('stream/web').ReadableStream<R>;\n"
    assert parse.error_regions(parse.parse(alias + b"export const x = 1;\n", "typescript")) == []
    assert parse.error_regions(parse.parse(alias.rstrip() + b" const y = (;\n", "typescript")) == [(1, 1, "syntax error")]
