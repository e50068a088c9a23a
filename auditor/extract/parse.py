"""The one place that wraps py-tree-sitter: languages, parsing and the combined query."""

from __future__ import annotations

import signal
import threading
from functools import lru_cache
from importlib import resources

import tree_sitter as ts

from auditor.model import DECLARATIONS

# Languages are chosen by file suffix. JavaScript ("javascript") is parsed with the TypeScript grammar first
# and, when that tree has errors, with the JavaScript grammar, whose tree is kept when it has none: neither grammar
# parses every real file (TypeScript rejects a parameter named `using` and the minified `a?.5:b`; tree-sitter-
# javascript rejects some export aliases that are reserved words), and measured on 363 published .js files each
# failed on files the other parsed (bench/README.md, "Accuracy corpus"). The extractors read the node types of
# both; the queries are index.scm (both grammars) plus index_ts.scm (TypeScript's own node types).
_TSX = {".tsx", ".jsx"}
_JS = {".js", ".mjs", ".cjs"}
SCRIPT_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


@lru_cache(maxsize=None)
def language(name: str) -> ts.Language:
    if name == "json":
        import tree_sitter_json

        return ts.Language(tree_sitter_json.language())
    if name == "javascript-grammar":
        import tree_sitter_javascript

        return ts.Language(tree_sitter_javascript.language())
    import tree_sitter_typescript as tst

    return ts.Language(tst.language_tsx() if name == "tsx" else tst.language_typescript())


# A file whose name has no suffix is code when its first line runs it with one of these (an executable a package.json
# `bin` names, `#!/usr/bin/env node`): the language each interpreter reads.
_INTERPRETERS = {"node": "javascript", "nodejs": "javascript", "bun": "javascript", "deno": "typescript",
                 "tsx": "typescript", "ts-node": "typescript", "ts-node-esm": "typescript"}
# Words of a `#!` line before the interpreter: env and its options, and a package runner.
_LAUNCHERS = {"env", "npx", "bunx", "pnpx"}


def language_of(path: str, data: bytes) -> str | None:
    """The language of the file at PATH holding DATA: by its suffix (language_for), else, for a name with no suffix,
    by the interpreter its `#!` line names."""
    lang = language_for(path)
    if lang is not None or "." in path.rpartition("/")[2] or not data.startswith(b"#!"):
        return lang
    for word in data[2:data.find(b"\n") if b"\n" in data else 200].decode("utf-8", "replace").split():
        name = word.rpartition("/")[2]
        if name not in _LAUNCHERS and not name.startswith("-"):
            return _INTERPRETERS.get(name)
    return None


def language_for(path: str) -> str | None:
    """The language of a file by its suffix (None: not code, not JSON)."""
    lower = path.lower()
    if lower.endswith(".json"):
        return "json"
    for suffix in SCRIPT_SUFFIXES:
        if lower.endswith(suffix) and not lower.endswith(DECLARATIONS):
            return "tsx" if suffix in _TSX else "javascript" if suffix in _JS else "typescript"
    return None


def parse(data: bytes, lang: str) -> ts.Tree:
    """DATA's syntax tree: TypeScript, TSX, JSON, or JavaScript (the TypeScript grammar first, else the JavaScript
    one). A NUL byte, legal in a JavaScript string or template but where tree-sitter's lexers stop, is read as a
    space: the same length, so every position and line stays; only that character of the literal differs."""
    if b"\x00" in data and lang != "json":
        data = data.replace(b"\x00", b" ")
    if lang != "javascript":
        return ts.Parser(language(lang)).parse(data)
    tree = ts.Parser(language("typescript")).parse(data)
    if not tree.root_node.has_error:
        return tree
    fallback = ts.Parser(language("javascript-grammar")).parse(data)
    return tree if fallback.root_node.has_error else fallback


def is_javascript_grammar(tree: ts.Tree) -> bool:
    """Whether parse() kept the JavaScript grammar's tree (whose node types differ from TypeScript's in places)."""
    return tree.language == language("javascript-grammar")


# The query files compiled, as one query, against each grammar: each query is a full pass over the tree,
# so one combined pass is much cheaper than several.
_QUERIES = {"typescript": ("index", "index_ts"), "tsx": ("index", "index_ts"),
            "javascript-grammar": ("index",), "json": ("json",)}
SCRIPT_QUERIES = _QUERIES["typescript"]


@lru_cache(maxsize=None)
def _query(grammar: str) -> ts.Query:
    base = resources.files("auditor.extract") / "queries"
    source = "\n".join((base / f"{n}.scm").read_text(encoding="utf-8") for n in _QUERIES[grammar])
    return _compile(language(grammar), source)


def captures(tree: ts.Tree, lang: str) -> dict[str, list[ts.Node]]:
    """Run the combined query of the grammar the tree was parsed with; captures sorted by position."""
    if lang == "javascript":
        lang = "javascript-grammar" if is_javascript_grammar(tree) else "typescript"
    found = ts.QueryCursor(_query(lang)).captures(tree.root_node)
    return {name: sorted(nodes, key=lambda n: (n.start_byte, -n.end_byte)) for name, nodes in found.items()}


def query_captures(tree: ts.Tree, lang: str, name: str) -> dict[str, list[ts.Node]]:
    """Run the query file NAME.scm alone (a query for some files only, such as tests) against the grammar the tree
    was parsed with; captures sorted by position."""
    grammar = lang if lang in {"tsx", "typescript"} else \
        "javascript-grammar" if lang == "javascript" and is_javascript_grammar(tree) else "typescript"
    found = ts.QueryCursor(_named_query(grammar, name)).captures(tree.root_node)
    return {k: sorted(nodes, key=lambda n: (n.start_byte, -n.end_byte)) for k, nodes in found.items()}


def grammar_of(tree: ts.Tree) -> str:
    """The name of the grammar TREE was parsed with (language())."""
    return next(g for g in ("typescript", "tsx", "javascript-grammar", "json") if tree.language == language(g))


def own_captures(tree: ts.Tree, name: str) -> dict[str, list[ts.Node]]:
    """Run the query file NAME.scm alone against the grammar TREE was parsed with (unsorted)."""
    return ts.QueryCursor(_named_query(grammar_of(tree), name)).captures(tree.root_node)


@lru_cache(maxsize=None)
def _named_query(grammar: str, name: str) -> ts.Query:
    source = (resources.files("auditor.extract") / "queries" / f"{name}.scm").read_text(encoding="utf-8")
    return _compile(language(grammar), source)


_INTERRUPTS = {signal.SIGINT, signal.SIGTERM}


def _compile(lang: ts.Language, source: str) -> ts.Query:
    """A query compiled with Ctrl-C and SIGTERM held back: the bindings compile each #match? pattern with Python's
    `re`, and an interruption raised in there came out as a QueryError ("regular expression error") instead of an
    interruption. A signal that arrives meanwhile is delivered when the query is built."""
    if threading.current_thread() is not threading.main_thread():
        return ts.Query(lang, source)
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _INTERRUPTS)
    try:
        return ts.Query(lang, source)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


_TYPE_DECLARATIONS = frozenset({"type_alias_declaration", "interface_declaration"})
_TYPE_PARTS = frozenset({"type_parameters", "type_arguments", "<", ">", ",", ";", "type_identifier", "identifier",
                         "predefined_type"})


def _type_syntax(node: ts.Node) -> bool:
    """Whether the ERROR or MISSING NODE only cuts a type alias short (`type S<R> = import("m").T<R>;`, which the
    grammar ends before `<R>`): the `;` it misses, and the type arguments left after it on the same line. Types are
    erased when the code runs: no code is hidden there."""
    if node.is_missing:
        return node.parent is not None and node.parent.type in _TYPE_DECLARATIONS
    before = node.prev_sibling
    return node.is_error and before is not None and before.type in _TYPE_DECLARATIONS \
        and before.child_count > 0 and before.children[-1].is_missing \
        and node.start_point[0] == node.end_point[0] == before.end_point[0] \
        and all(c.type in _TYPE_PARTS for c in node.children)


def error_regions(tree: ts.Tree) -> list[tuple[int, int, str]]:
    """Rows (1-based) of ERROR and MISSING nodes: the coverage gaps of a parse (not type syntax the grammar cuts
    short: `_type_syntax`)."""
    out: list[tuple[int, int, str]] = []
    if not tree.root_node.has_error:
        return out
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if _type_syntax(node):
            continue
        if node.is_error:
            out.append((node.start_point[0] + 1, node.end_point[0] + 1, "syntax error"))
            continue
        if node.is_missing:
            out.append((node.start_point[0] + 1, node.end_point[0] + 1, f"missing {node.type}"))
            continue
        if node.has_error:
            stack.extend(node.children)
    return sorted(out)
