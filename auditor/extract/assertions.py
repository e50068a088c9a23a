"""Assertions of a test read from its code: expect(subject).matcher(expected), assert.matcher(subject, expected)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import tree_sitter as ts

from auditor.extract.syntax import NOT_LITERAL, call_args, literal, string_value, strip_casts, text

ABSENT = "absent"  # Assertion.value when the expected value is no literal


@dataclass(frozen=True, kw_only=True, slots=True)
class Assertion:
    """One assertion: expect(subject).matcher(expected), assert.matcher(subject, expected), assert(subject)."""

    line: int
    subject: str  # the asserted expression as written
    fields: tuple[str, ...]  # property names read from the subject, outermost last (`data.branches.length`)
    matcher: str
    negated: bool
    expected: str | None  # the expected value as written
    value: Any = ABSENT  # the expected value when it is a literal


def callee(call: ts.Node) -> tuple[str, list[str]]:
    """`it.only.each` -> ("it", ["only", "each"]); a call of a call (`it.each(table)("t", fn)`) by its head."""
    fn = strip_casts(call.child_by_field_name("function"))
    mods: list[str] = []
    while fn is not None and fn.type in {"member_expression", "call_expression"}:
        if fn.type == "member_expression":
            mods.insert(0, text(fn.child_by_field_name("property")))
            fn = fn.child_by_field_name("object")
        else:
            fn = fn.child_by_field_name("function")
    return (text(fn) if fn is not None and fn.type == "identifier" else ""), mods


def assertion(call: ts.Node, kb: dict) -> Assertion | None:
    """The assertion a call makes, if it is one: expect(...) with its chain, assert(...), assert.matcher(...)."""
    head, mods = callee(call)
    fn = strip_casts(call.child_by_field_name("function"))
    args = call_args(call)
    if head in kb["expect"] and fn is not None and fn.type == "identifier":
        return _expect(call, args, kb)
    if head in kb["assert"] and fn is not None and (fn.type == "identifier" or mods and fn.type == "member_expression"):
        matcher = mods[-1] if mods else "ok"
        subject = args[0] if args else None
        expected = args[1] if len(args) > 1 else None
        negated = matcher.startswith(("not", "isNot")) and matcher not in kb["falsy_matchers"]
        return _make(call, subject, matcher, negated, expected, kb)
    return None


def _expect(call: ts.Node, args: list[ts.Node], kb: dict) -> Assertion | None:
    """expect(subject) followed by its chain: `.not`, `.resolves`, `.to.be`, then the matcher and its call."""
    node, chain = call, []
    while node.parent is not None and node.parent.type == "member_expression" and node.parent.child_by_field_name("object") == node:
        node = node.parent
        chain.append(text(node.child_by_field_name("property")))
    if not chain:
        return None
    outer = node.parent
    called = outer is not None and outer.type == "call_expression" and outer.child_by_field_name("function") == node
    expected = call_args(outer)[0] if called and call_args(outer) else None
    matcher = chain[-1]
    if matcher in {"resolves", "rejects"} and not called:
        return None
    negated = "not" in chain[:-1]
    throw = "rejects" in chain[:-1]
    return _make(call, args[0] if args else None, "toThrow" if throw and matcher not in kb["throw_matchers"]
                 else matcher, negated, expected, kb)


def _make(call: ts.Node, subject: ts.Node | None, matcher: str, negated: bool, expected: ts.Node | None,
          kb: dict) -> Assertion:
    fields = _fields(subject)
    if matcher in kb["property_matchers"] and string_value(expected) is not None:
        fields += tuple(string_value(expected).split("."))
    value = literal(expected) if expected is not None else ABSENT
    if expected is not None and expected.type == "regex":
        value = text(expected.child_by_field_name("pattern"))
    return Assertion(line=call.start_point[0] + 1, subject=text(subject) if subject is not None else "",
                     fields=fields, matcher=matcher, negated=negated,
                     expected=text(expected) if expected is not None else None,
                     value=ABSENT if value is NOT_LITERAL or isinstance(value, (dict, list)) else value)


def _fields(node: ts.Node | None) -> tuple[str, ...]:
    """The property names read from an asserted expression: `data.branches.length` -> (branches, length);
    `result.content[0].text` -> (content, text); an index or a call stops nothing but adds no name."""
    out: list[str] = []
    node = strip_casts(node)
    while node is not None and node.type in {"member_expression", "subscript_expression", "non_null_expression",
                                              "parenthesized_expression", "await_expression"}:
        if node.type == "member_expression":
            out.insert(0, text(node.child_by_field_name("property")))
            node = node.child_by_field_name("object")
        elif node.type == "subscript_expression":
            key = string_value(node.child_by_field_name("index"))
            if key is not None:
                out.insert(0, key)
            node = node.child_by_field_name("object")
        else:
            node = node.named_children[0] if node.named_children else None
        node = strip_casts(node)
    return tuple(out)
