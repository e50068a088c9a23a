"""A finder: a function a tools/call handler hands the tool name to, which loops over tool objects and returns the one
whose name is that name (`for (const [k, c] of Object.entries(R)) if (c.name === name) return { config: c }`), the
handler then calling a method of what it finds (`const { config } = find(name); config.run(args)`). The loop form of
`LIST.find((t) => t.name === name)` (extract/registry.py reads which objects the loop visits, and their names)."""

from __future__ import annotations

from typing import Iterator

import tree_sitter as ts

from auditor.extract.frames import parameters
from auditor.extract.program import Module
from auditor.extract.syntax import call_args, find, member_chain, strip_casts, text


def finds(fn: ts.Node, module: Module, link, is_name) -> Iterator[tuple[ts.Node, ts.Node, Module, ts.Node, ts.Node, str]]:
    """(the call of a finder in FN, the finder's loop, the finder's module, the loop variable where the loop compares
    it, the key compared (`c.name`), the method FN calls on what the finder returns)."""
    for call in find(fn, {"call_expression"}):
        hit = link.resolve(module, call)
        if hit is None:
            continue
        fmod, finder = hit[0], hit[1]
        args = call_args(call)
        handed = {name for name, (i, path) in parameters(finder).items()
                  if not path and i < len(args) and is_name(strip_casts(args[i]), module)}
        if not handed:
            continue
        for loop, use, key, path in _matches(finder, handed):
            for method in _called_on(call, fn, path):
                yield call, loop, fmod, use, key, method


def _matches(finder: ts.Node, handed: set[str]) -> Iterator[tuple[ts.Node, ts.Node, ts.Node, tuple[str, ...]]]:
    """(loop, the loop variable in the comparison, the key compared, the member path of the returned object that holds
    the element) of each `for (const x of LIST) if (x.KEY.name === name) return x` (or `return { found: x }`) in
    FINDER, NAME being a parameter handed the tool name or a name destructured from a call handed one
    (`const { name: wanted } = alias(name)`)."""
    body = finder.child_by_field_name("body")
    if body is None:
        return
    names = set(handed)
    for decl in find(body, {"variable_declarator"}):
        pattern, value = decl.child_by_field_name("name"), strip_casts(decl.child_by_field_name("value"))
        if pattern is None or pattern.type != "object_pattern" or value is None or value.type != "call_expression" \
                or not any(text(strip_casts(a)) in handed for a in call_args(value)):
            continue
        for pair in pattern.named_children:
            if pair.type == "pair_pattern" and text(pair.child_by_field_name("key")) == "name" \
                    and pair.child_by_field_name("value").type == "identifier":
                names.add(text(pair.child_by_field_name("value")))
    for loop in find(body, {"for_in_statement"}):
        if text(loop.child_by_field_name("operator")) != "of":
            continue
        elements = _elements(loop.child_by_field_name("left"))
        for branch in find(loop.child_by_field_name("body"), {"if_statement"}):
            cond = strip_casts(branch.child_by_field_name("condition"))
            for term in find(cond, {"binary_expression"}) if cond is not None else ():
                if text(term.child_by_field_name("operator")) not in {"===", "=="}:
                    continue
                left, right = strip_casts(term.child_by_field_name("left")), strip_casts(term.child_by_field_name("right"))
                for own, other in ((left, right), (right, left)):
                    chain = member_chain(own) or ()
                    if len(chain) < 2 or chain[0] not in elements or chain[-1] != "name" or text(other) not in names:
                        continue
                    use = own
                    while use.type == "member_expression":
                        use = strip_casts(use.child_by_field_name("object"))
                    path = _returned(branch, chain[0])
                    if path is not None:
                        yield loop, use, own, path


def _elements(left: ts.Node | None) -> list[str]:
    """The loop variable that is each element: `x` of `for (const x of LIST)`, `v` of `for (const [k, v] of
    Object.entries(R))` (the forms extract/reach.py reads the elements of)."""
    if left is not None and left.type == "identifier":
        return [text(left)]
    items = [c for c in left.named_children if c.type != "comment"] if left is not None and left.type == "array_pattern" else []
    return [text(items[1])] if len(items) == 2 and items[1].type == "identifier" else []


def _returned(branch: ts.Node | None, element: str) -> tuple[str, ...] | None:
    """The member path at which a return of BRANCH's consequence hands ELEMENT back: () for `return x`, ("k",) for
    `return { k: x }` (or `{ x }`); None when it does not."""
    consequence = branch.child_by_field_name("consequence") if branch is not None else None
    for ret in find(consequence, {"return_statement"}) if consequence is not None else ():
        value = strip_casts(ret.named_children[0]) if ret.named_children else None
        if value is None:
            continue
        if value.type == "identifier" and text(value) == element:
            return ()
        if value.type == "object":
            for pair in value.named_children:
                if pair.type == "pair" and text(strip_casts(pair.child_by_field_name("value"))) == element:
                    return (text(pair.child_by_field_name("key")).strip("'\""),)
                if pair.type == "shorthand_property_identifier" and text(pair) == element:
                    return (element,)
    return None


def _called_on(call: ts.Node, fn: ts.Node, path: tuple[str, ...]) -> list[str]:
    """The methods FN calls on the member PATH of what CALL returns: `const v = call; v.PATH.m()`, or through
    `const { PATH } = v` (renamed or not)."""
    decl = call.parent.parent if call.parent is not None and call.parent.type == "await_expression" else call.parent
    name = decl.child_by_field_name("name") if decl is not None and decl.type == "variable_declarator" else None
    if name is None or name.type != "identifier":
        return []
    holders = {(text(name), *path)}
    for d in find(fn, {"variable_declarator"}) if len(path) == 1 else ():
        pattern = d.child_by_field_name("name")
        if pattern.type != "object_pattern" or text(strip_casts(d.child_by_field_name("value"))) != text(name):
            continue
        for part in pattern.named_children:
            if part.type == "shorthand_property_identifier_pattern" and text(part) == path[0]:
                holders.add((path[0],))
            elif part.type == "pair_pattern" and text(part.child_by_field_name("key")) == path[0] \
                    and part.child_by_field_name("value").type == "identifier":
                holders.add((text(part.child_by_field_name("value")),))
    out = []
    for c in find(fn, {"call_expression"}):
        chain = member_chain(strip_casts(c.child_by_field_name("function"))) or ()
        if len(chain) >= 2 and chain[:-1] in holders and chain[-1] not in out:
            out.append(chain[-1])
    return out
