"""Effect classes of a call site: the HTTP method, SQL keyword, verb or open flags that say whether it reads or writes."""

from __future__ import annotations

import re

import tree_sitter as ts

from auditor.extract.program import Module
from auditor.extract.syntax import (call_args, enclosing_function, object_pairs, pair_value, string_value, strip_casts,
                                    text, walk)

WRAPPING = {"await_expression", "parenthesized_expression", "as_expression", "satisfies_expression",
            "non_null_expression", "type_assertion"}


def unwrap(node: ts.Node | None) -> ts.Node | None:
    """The expression inside awaits, parentheses, casts and non-null assertions."""
    while node is not None and node.type in WRAPPING and node.named_children:
        node = node.named_children[0]
    return node


def _first_word(name: str) -> str:
    words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name)
    return words[0].lower() if words else ""


def _leading_text(node: ts.Node | None, m: Module, call: ts.Node) -> str | None:
    """The literal text of a string, the text before the first substitution of a template, or the
    initializer of a local `const` holding one."""
    node = strip_casts(node)
    if node is None:
        return None
    if node.type == "string":
        return string_value(node)
    if node.type == "template_string":
        return text(node)[1:].split("${", 1)[0]
    if node.type == "identifier":
        fn = enclosing_function(call)
        scope = fn if fn is not None else m.tree.root_node
        for d in walk(scope):
            if d.type == "variable_declarator" and text(d.child_by_field_name("name")) == text(node) \
                    and d.child_by_field_name("value") is not None and d.child_by_field_name("value").type in {"string", "template_string"}:
                return _leading_text(d.child_by_field_name("value"), m, call)
        if text(node) in m.toplevel and m.toplevel[text(node)].type in {"string", "template_string"}:
            return _leading_text(m.toplevel[text(node)], m, call)
    return None


def _http(kb: dict, m: Module, call: ts.Node, name: str) -> tuple[str, str]:
    args = [strip_casts(a) for a in call_args(call)]
    opts = next((a for a in args if a is not None and a.type == "object"), None)
    if opts is None:
        return ("unknown", "options not a literal") if len(args) > 1 else ("read", "GET")
    pairs = object_pairs(opts)
    if "method" not in pairs:
        return "read", "GET"
    method = string_value(pair_value(pairs["method"]))
    if method is None:
        return "unknown", f"method {text(pair_value(pairs['method']))[:40]}"
    return kb["http_methods"].get(method.upper(), "unknown"), method.upper()


def _sql(kb: dict, m: Module, call: ts.Node, name: str) -> tuple[str, str]:
    args = call_args(call)
    sql = _leading_text(args[0], m, call) if args else None
    word = re.match(r"\s*(?:(?:--[^\n]*\n|/\*.*?\*/)\s*)*\(?\s*([A-Za-z]+)", sql or "", re.S) if sql is not None else None
    if word is None:
        return "unknown", "SQL not a literal"
    keyword = word.group(1).lower()
    return kb["sql"].get(keyword, "unknown"), keyword.upper()


def _verbs(kb: dict, m: Module, call: ts.Node, name: str) -> tuple[str, str]:
    verb = _first_word(name)
    return kb["verbs"].get(verb, "unknown"), name


def _command(kb: dict, m: Module, call: ts.Node, name: str) -> tuple[str, str]:
    args = call_args(call)
    arg = unwrap(args[0]) if args else None
    ctor = text(arg.child_by_field_name("constructor")).split(".")[-1] if arg is not None and arg.type == "new_expression" else ""
    return (kb["verbs"].get(_first_word(ctor), "unknown"), ctor) if ctor else ("unknown", "command not a literal")


def _flags(kb: dict, m: Module, call: ts.Node, name: str) -> tuple[str, str]:
    args = call_args(call)
    if len(args) < 2:
        return "read", "r"
    flags = string_value(args[1])
    if flags is None:
        return "unknown", "flags not a literal"
    cls = "append" if flags.startswith("a") else "overwrite" if flags.startswith("w") else \
        "write" if "+" in flags else "read" if flags.startswith("r") else "unknown"
    return cls, flags


# kb/effects.yaml names a provider's classifier; each takes (kb, module, call, callee name) -> (class, detail).
CLASSIFIERS = {"http": _http, "sql": _sql, "verbs": _verbs, "command": _command, "flags": _flags}
