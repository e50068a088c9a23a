"""The one place that wraps py-tree-sitter: languages, parsing and the combined query."""

from __future__ import annotations

import signal
import threading
from functools import lru_cache
from importlib import resources

import tree_sitter as ts

# Languages are chosen by file suffix. JavaScript is parsed with the TypeScript grammar
# (a superset for our purposes) so that one set of queries serves both.
_TSX = {".tsx", ".jsx"}
SCRIPT_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


@lru_cache(maxsize=None)
def language(name: str) -> ts.Language:
    if name == "json":
        import tree_sitter_json

        return ts.Language(tree_sitter_json.language())
    import tree_sitter_typescript as tst

    return ts.Language(tst.language_tsx() if name == "tsx" else tst.language_typescript())


def language_for(path: str) -> str | None:
    lower = path.lower()
    if lower.endswith(".json"):
        return "json"
    for suffix in SCRIPT_SUFFIXES:
        if lower.endswith(suffix) and not lower.endswith(".d.ts"):
            return "tsx" if suffix in _TSX else "typescript"
    return None


def parse(data: bytes, lang: str) -> ts.Tree:
    return ts.Parser(language(lang)).parse(data)


@lru_cache(maxsize=None)
def _query(lang: str, names: tuple[str, ...]) -> ts.Query:
    # All query files of one language are compiled into one query: each query is a full
    # pass over the tree, so one combined pass is much cheaper than several.
    base = resources.files("auditor.extract") / "queries"
    source = "\n".join((base / f"{n}.scm").read_text(encoding="utf-8") for n in names)
    return _compile(language("typescript" if lang == "tsx" else lang), source)


SCRIPT_QUERIES = ("index",)


def captures(tree: ts.Tree, lang: str) -> dict[str, list[ts.Node]]:
    """Run the combined query of a language; captures sorted by position."""
    if lang == "tsx":
        # tsx has its own grammar object: compile the same text against it.
        query = _query_for_tsx()
    else:
        query = _query(lang, SCRIPT_QUERIES if lang == "typescript" else ("json",))
    found = ts.QueryCursor(query).captures(tree.root_node)
    return {name: sorted(nodes, key=lambda n: (n.start_byte, -n.end_byte)) for name, nodes in found.items()}


def query_captures(tree: ts.Tree, lang: str, name: str) -> dict[str, list[ts.Node]]:
    """Run the query file NAME.scm alone (a query for some files only, such as tests); captures sorted by position."""
    query = _named_query("tsx" if lang == "tsx" else "typescript", name)
    found = ts.QueryCursor(query).captures(tree.root_node)
    return {k: sorted(nodes, key=lambda n: (n.start_byte, -n.end_byte)) for k, nodes in found.items()}


@lru_cache(maxsize=None)
def _named_query(lang: str, name: str) -> ts.Query:
    source = (resources.files("auditor.extract") / "queries" / f"{name}.scm").read_text(encoding="utf-8")
    return _compile(language(lang), source)


@lru_cache(maxsize=None)
def _query_for_tsx() -> ts.Query:
    base = resources.files("auditor.extract") / "queries"
    source = "\n".join((base / f"{n}.scm").read_text(encoding="utf-8") for n in SCRIPT_QUERIES)
    return _compile(language("tsx"), source)


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


def error_regions(tree: ts.Tree) -> list[tuple[int, int, str]]:
    """Rows (1-based) of ERROR and MISSING nodes: the coverage gaps of a parse."""
    out: list[tuple[int, int, str]] = []
    if not tree.root_node.has_error:
        return out
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.is_error:
            out.append((node.start_point[0] + 1, node.end_point[0] + 1, "syntax error"))
            continue
        if node.is_missing:
            out.append((node.start_point[0] + 1, node.end_point[0] + 1, f"missing {node.type}"))
            continue
        if node.has_error:
            stack.extend(node.children)
    return sorted(out)
