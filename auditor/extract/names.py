"""The strings a tool name may be when it is not one value: each branch of a conditional (`single ? base :
`${base}_${id}``), through local constants, names destructured from what a call returns (`const { name } =
naming(id, "base")`) and members of a function's result (`getMeta(id).name`), each read under the frame that binds that
function's parameters to the call's arguments. A branch that is not read is None, with the expression and module it
is written in, so that a gap can name it instead of the audit guessing a name."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract.frames import Frame, _lookup, _pattern
from auditor.extract.program import Module
from auditor.extract.syntax import FUNCTION_TYPES, ancestors, find, object_pairs, pair_value, strip_casts, text

MAX_DEPTH = 16  # hops from the name to a string
MAX_NAMES = 16  # strings one name may be
MAX_STEPS = 400  # expressions read for one name (conditionals of conditionals multiply)

Choice = tuple[str | None, ts.Node | None, Module]  # a string (None: not read), where it is (or is not) read


def choices(values, node: ts.Node | None, module: Module, frame: Frame | None) -> list[Choice]:
    """The strings NODE may be under FRAME, in the order written, each once; None for each branch not read."""
    out: list[Choice] = []
    seen: set[str | None] = set()
    for choice in _at(values, node, (), module, frame, 0, [MAX_STEPS]):
        if choice[0] not in seen and len(out) < MAX_NAMES:
            seen.add(choice[0])
            out.append(choice)
    return out


def _at(values, node: ts.Node | None, path: tuple[str, ...], module: Module, frame: Frame | None, depth: int,
        budget: list[int]) -> list[Choice]:
    """The strings member PATH of what NODE stands for may be (NODE itself when PATH is empty); BUDGET: the steps
    left for the whole name."""
    node = strip_casts(node)
    budget[0] -= 1
    if node is None or depth > MAX_DEPTH or budget[0] < 0:
        return [(None, node, module)]
    d = depth + 1
    if not path:
        value, where = values.bound(node, module, frame)
        found = values.string(value, where, frame=frame) if value is not None else None
        if found is not None:
            return [(found, node, module)]
    t = node.type
    if t in {"parenthesized_expression", "await_expression"} and node.named_children:
        return _at(values, node.named_children[0], path, module, frame, d, budget)
    if t == "ternary_expression":
        return [c for f in ("consequence", "alternative")
                for c in _at(values, node.child_by_field_name(f), path, module, frame, d, budget)]
    if t == "member_expression":
        prop = node.child_by_field_name("property")
        return _at(values, node.child_by_field_name("object"), (text(prop), *path), module, frame, d, budget)
    if t in {"identifier", "shorthand_property_identifier"}:
        bound = _argument(node, module, frame)
        if bound is not None:  # a parameter: the argument of the call that binds it, in its caller
            arg, caller, outer, more = bound
            if arg is None:
                return [(None, node, module)]
            return _at(values, arg, (*more, *path), caller, outer, d, budget)
        value, where = values.definition(node, module)
        if value is not None and value.id != node.id:
            return _at(values, value, path, where, frame, d, budget)
        picked = _destructured(node, module)
        if picked is not None:  # `const { name } = naming(...)`: member `name` of what the call returns
            return _at(values, picked[0], (*picked[1], *path), module, frame, d, budget)
        return [(None, node, module)]
    if t == "object" and path:
        pair = object_pairs(node).get(path[0])
        if pair is None:
            return [(None, node, module)]
        return _at(values, pair_value(pair) if pair.type == "pair" else pair, path[1:], module, frame, d, budget)
    if t == "call_expression":
        out = [c for value, vmod, inner in values.call_values(node, module, frame)
               for c in _at(values, value, path, vmod, inner, d, budget)]
        return out or [(None, node, module)]
    return [(None, node, module)]


def _argument(node: ts.Node, module: Module, frame: Frame | None
              ) -> tuple[ts.Node | None, Module, Frame | None, tuple[str, ...]] | None:
    """(argument, its module, its frame, member path) when a frame of the chain binds NODE (a parameter), else None."""
    while frame is not None:
        if module is frame.module and frame.scope.start_byte <= node.start_byte < frame.scope.end_byte:
            hit = _lookup(node, frame)
            if hit is not None:
                index, path = hit
                arg = frame.args[index] if index < len(frame.args) else None
                return arg, frame.caller, frame.outer, path
        frame = frame.outer
    return None


def _destructured(node: ts.Node, module: Module) -> tuple[ts.Node, tuple[str, ...]] | None:
    """(value, member path) of the declaration of the function NODE is written in that destructures its name
    (`const { a: { b } } = value`), when it has one."""
    name = text(node)
    scope = next((a for a in ancestors(node) if a.type in FUNCTION_TYPES), None)
    for decl in find(scope, {"variable_declarator"}) if scope is not None else ():
        pattern = decl.child_by_field_name("name")
        if pattern is None or pattern.type != "object_pattern" \
                or next((a for a in ancestors(decl) if a.type in FUNCTION_TYPES), None) != scope:
            continue
        path = dict(_pattern(pattern)).get(name)
        value = decl.child_by_field_name("value")
        if path is not None and value is not None:
            return value, path
    return None
