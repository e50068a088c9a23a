"""The value of a condition under the default environment (every variable unset), when it reads nothing else: a
`process.env` read, a module constant set from one, literals, comparisons and `!`/`&&`/`||`/`??` of them. A ternary
on such a condition (`const LEGACY = process.env.X === "true"; LIST = LEGACY ? old : current`) picks one branch
when the server is started as documented; the other is what a non-default environment enables."""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from auditor.extract.bindings import value_of
from auditor.extract.syntax import member_chain, string_value, strip_casts, text

_UNSET = object()  # `process.env.X` of a variable that is not set: undefined
_UNKNOWN = object()  # the condition reads something other than the environment and literals
_DEPTH = 8  # constants followed from the condition


@dataclass(frozen=True, kw_only=True, slots=True)
class Decided:
    """A condition's truth under the default environment, and the environment variables it reads."""

    value: bool
    env: tuple[str, ...]


def decide(node: ts.Node | None, module, link) -> Decided | None:
    """NODE's truth with every environment variable unset, or None when it reads anything else."""
    env: set[str] = set()
    value = _eval(node, module, link, env, 0)
    if value is _UNKNOWN or not env:
        return None
    return Decided(value=_truthy(value), env=tuple(sorted(env)))


def _truthy(v) -> bool:
    return not (v is _UNSET or v is None or v is False or v == "" or v == 0)


def _eval(node: ts.Node | None, module, link, env: set[str], depth: int):
    node = strip_casts(node)
    if node is None or depth > _DEPTH:
        return _UNKNOWN
    t = node.type
    if t == "parenthesized_expression" and node.named_children:
        return _eval(node.named_children[-1], module, link, env, depth)
    if t in {"string", "template_string"}:
        s = string_value(node)
        return _UNKNOWN if s is None else s
    if t == "number":
        try:
            return float(text(node))
        except ValueError:
            return _UNKNOWN
    if t in {"true", "false"}:
        return t == "true"
    if t == "null":
        return None
    if t == "undefined":
        return _UNSET
    name = _env_name(node)
    if name is not None:
        env.add(name)
        return _UNSET
    if t == "unary_expression" and text(node.child_by_field_name("operator")) == "!":
        v = _eval(node.child_by_field_name("argument"), module, link, env, depth)
        return _UNKNOWN if v is _UNKNOWN else not _truthy(v)
    if t == "binary_expression":
        op = text(node.child_by_field_name("operator"))
        left = _eval(node.child_by_field_name("left"), module, link, env, depth)
        right = _eval(node.child_by_field_name("right"), module, link, env, depth)
        if left is _UNKNOWN or right is _UNKNOWN:
            return _UNKNOWN
        if op in {"===", "!==", "==", "!="}:
            loose = op in {"==", "!="}
            same = left is right or (type(left) is type(right) and left == right) \
                or loose and {_key(left), _key(right)} <= {"nullish"}
            return same if op in {"===", "=="} else not same
        if op == "&&":
            return right if _truthy(left) else left
        if op == "||":
            return left if _truthy(left) else right
        if op == "??":
            return right if left is _UNSET or left is None else left
        return _UNKNOWN
    if t == "identifier":
        imported = link is not None and text(node) in link.imports.get(module.path, {})
        where = link.binding(module, text(node)) if imported else (module, text(node))
        # a name of this module as its scope resolves it (a parameter or a local shadows a constant), or an import
        value = where[0].toplevel.get(where[1]) if imported and where is not None else value_of(module, node)
        decl = value.parent.parent if value is not None and value.parent is not None else None
        if where is None or decl is None or not text(decl).startswith("const"):
            return _UNKNOWN
        return _eval(value, where[0], link, env, depth + 1)
    return _UNKNOWN


def _key(v) -> str:
    return "nullish" if v is _UNSET or v is None else "value"


def _env_name(node: ts.Node) -> str | None:
    """X of `process.env.X` or `process.env["X"]`."""
    if node.type == "member_expression":
        chain = member_chain(node)
        return chain[2] if chain and len(chain) == 3 and chain[:2] == ("process", "env") else None
    if node.type == "subscript_expression" and member_chain(node.child_by_field_name("object")) == ("process", "env"):
        return string_value(node.child_by_field_name("index"))
    return None
