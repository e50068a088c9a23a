"""The return a function takes when its tests are decided: a body of `if (test) return x;` statements, `switch` cases
that return and a last `return`, read in order (`if (kind === "snake") return name.replace(/\\./g, "_"); ...; return
name`). Each test is decided by the caller's reading of the arguments; a test it cannot decide, or any other
statement before the return is reached, leaves the value unknown."""

from __future__ import annotations

from typing import Callable

import tree_sitter as ts

from auditor.extract import tslib

_MAX_STATEMENTS = 64  # statements read before the return is given up


def taken_return(fn: ts.Node, truth: Callable[[ts.Node], bool | None], same: Callable[[ts.Node, ts.Node], bool | None]
                 ) -> ts.Node | None:
    """The value FN returns when TRUTH decides each `if` test on the way and SAME(discriminant, case value) each
    `switch` case; None when a test is not decided, a statement other than these comes first, or it returns nothing."""
    if tslib.awaited(fn) is not None:
        return None
    body = fn.child_by_field_name("body")
    if body is None or body.type != "statement_block":
        return None
    found = _block(list(body.named_children), truth, same, [0])
    return found if isinstance(found, ts.Node) else None


_FALL = object()  # the statements ran to their end without returning


def _block(statements: list[ts.Node], truth, same, count: list[int]):
    """The return value node, _FALL, or None (not known)."""
    for st in statements:
        count[0] += 1
        if count[0] > _MAX_STATEMENTS:
            return None
        found = _statement(st, truth, same, count)
        if found is not _FALL:
            return found
    return _FALL


def _statement(st: ts.Node, truth, same, count: list[int]):
    t = st.type
    if t in {"comment", "empty_statement"}:
        return _FALL
    if t == "return_statement":
        values = [c for c in st.named_children if c.type != "comment"]
        return values[0] if values else None
    if t == "statement_block":
        return _block(list(st.named_children), truth, same, count)
    if t == "if_statement":
        cond = st.child_by_field_name("condition")
        decided = truth(cond.named_children[-1] if cond is not None and cond.named_children else cond)
        if decided is None:
            return None
        branch = st.child_by_field_name("consequence") if decided else st.child_by_field_name("alternative")
        if branch is None:
            return _FALL
        if branch.type == "else_clause":
            inner = [c for c in branch.named_children if c.type != "comment"]
            return _statement(inner[0], truth, same, count) if inner else _FALL
        return _statement(branch, truth, same, count)
    if t == "switch_statement":
        return _switch(st, truth, same, count)
    return None


def _switch(st: ts.Node, truth, same, count: list[int]):
    """The case a known discriminant selects (or `default`), run through the cases after it until a return."""
    value = st.child_by_field_name("value")
    value = value.named_children[-1] if value is not None and value.type == "parenthesized_expression" \
        and value.named_children else value
    body = st.child_by_field_name("body")
    cases = [c for c in body.named_children if c.type in {"switch_case", "switch_default"}] if body is not None else []
    start = None
    for i, case in enumerate(cases):
        if case.type == "switch_default":
            continue
        decided = same(value, case.child_by_field_name("value"))
        if decided is None:
            return None
        if decided:
            start = i
            break
    if start is None:
        start = next((i for i, c in enumerate(cases) if c.type == "switch_default"), None)
    if start is None:
        return _FALL
    for case in cases[start:]:
        statements = [c for c in case.named_children if c.id != (case.child_by_field_name("value") or case).id]
        if any(c.type == "break_statement" for c in statements):
            found = _block([c for c in statements if c.type != "break_statement"], truth, same, count)
            return _FALL if found is _FALL else found
        found = _block(statements, truth, same, count)
        if found is not _FALL:
            return found
    return _FALL
