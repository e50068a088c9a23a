"""The value of a condition under the default environment (every variable unset), when it reads nothing else: a
`process.env` read, a module constant set from one, literals, comparisons and `!`/`&&`/`||`/`??` of them. A ternary
on such a condition (`const LEGACY = process.env.X === "true"; LIST = LEGACY ? old : current`) picks one branch
when the server is started as documented; the other is what a non-default environment enables.

A condition that reads no environment but what the program itself fixes (`settled`): literals, constants, and a
parameter's member that every call of its function in the boundary passes as the same literal (the entry of a wrapper
package: `startMcpServer({ tier: "reader" })`). A branch such a condition rules out (an `if` whose test is false, a
`case` of another value: `unreached`) cannot run in this program."""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from auditor.extract.bindings import value_of
from auditor.extract.frames import plain_parameters
from auditor.extract.syntax import (FUNCTION_TYPES, ancestors, call_args, enclosing_function, find, member_chain,
                                    object_pairs, pair_value, string_value, strip_casts, text)

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


def settled(node: ts.Node | None, module, link) -> bool | None:
    """NODE's truth when it reads no environment variable, only what the program fixes (literals, constants, a
    parameter's member every call passes alike); None when it reads anything else."""
    value = _settled_value(node, module, link)
    return None if value is _UNKNOWN else _truthy(value)


def _settled_value(node: ts.Node | None, module, link):
    """NODE's value when it reads no environment variable (_eval), else _UNKNOWN; read once per node (link.memo: the
    same condition guards every assignment and push beneath it)."""
    if node is None:
        return _UNKNOWN
    memo = link.memo.setdefault("envdefault.settled", {}) if link is not None else {}
    if node.id not in memo:
        env: set[str] = set()
        value = _eval(node, module, link, env, 0)
        memo[node.id] = _UNKNOWN if env else value
    return memo[node.id]


def unreached(node: ts.Node, module, link) -> bool:
    """Whether NODE lies, within its function, in a branch a settled condition rules out: the consequence of an `if`
    whose test is false (its `else` when true), a ternary's branch likewise, or a `case` of a `switch` on a settled
    value that is neither that value nor falls through from a case of it."""
    if link is None:
        return False
    child = node
    for up in ancestors(node):
        if up.type in FUNCTION_TYPES or up.type == "method_definition":
            return False
        if up.type in {"if_statement", "ternary_expression"} and child != up.child_by_field_name("condition"):
            truth = settled(up.child_by_field_name("condition"), module, link)
            if truth is not None and (child == up.child_by_field_name("consequence")) != truth:
                return True
        elif up.type == "switch_case" and child != up.child_by_field_name("value") and _other_case(up, module, link):
            return True
        child = up
    return False


_LEAVES = frozenset({"break_statement", "return_statement", "throw_statement", "continue_statement"})


def _other_case(case: ts.Node, module, link) -> bool:
    """Whether CASE (with the empty cases before it, which fall through into it) is of another value than the settled
    value its `switch` tests."""
    switch = case.parent.parent if case.parent is not None and case.parent.type == "switch_body" else None
    if switch is None:
        return False
    subject = _settled_value(switch.child_by_field_name("value"), module, link)
    if subject is _UNKNOWN:
        return False
    labels, cur = [], case
    while cur is not None and cur.type == "switch_case":
        value = _settled_value(cur.child_by_field_name("value"), module, link)
        if value is _UNKNOWN:
            return False
        labels.append(value)
        cur = cur.prev_named_sibling
        body = cur.named_children[1:] if cur is not None and cur.type == "switch_case" else []
        if cur is None or cur.type != "switch_case" or body and body[-1].type in _LEAVES:
            break  # (a case that ends by leaving does not fall into this one)
    return all(not (type(v) is type(subject) and v == subject) for v in labels)


def _fixed_member(node: ts.Node, module, link, env: set[str], depth: int):
    """`config.tier` of a parameter `config` of the function around NODE: the literal every call of that function in
    the boundary passes there (`start({ tier: "reader" })`); unknown when a call passes anything else, or none is
    seen."""
    chain = member_chain(node)
    fn = enclosing_function(node)
    index = plain_parameters(fn).get(chain[0]) if fn is not None and chain and len(chain) == 2 else None
    if link is None or index is None or any(
            (member_chain(strip_casts(a.child_by_field_name("left"))) or ())[:2] in {chain[:1], chain}
            for a in find(fn, {"assignment_expression", "augmented_assignment_expression"})):
        return _UNKNOWN  # (`config = { ...DEFAULTS, ...config }`, `config.tier = x`: not what the callers passed)
    seen = []
    for cmod, call in link.callers(fn):
        args = call_args(call)
        arg = strip_casts(args[index]) if index < len(args) else None
        if arg is None or arg.type != "object" or any(c.type == "spread_element" for c in arg.named_children):
            return _UNKNOWN
        pair = object_pairs(arg).get(chain[1])
        value = _eval(pair_value(pair), cmod, link, env, depth + 1) if pair is not None else _UNKNOWN
        if value is _UNKNOWN or seen and not (type(value) is type(seen[0]) and value == seen[0]):
            return _UNKNOWN
        seen.append(value)
    return seen[0] if seen else _UNKNOWN


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
    if t == "ternary_expression":
        cond = _eval(node.child_by_field_name("condition"), module, link, env, depth)
        if cond is _UNKNOWN:
            return _UNKNOWN
        chosen = node.child_by_field_name("consequence" if _truthy(cond) else "alternative")
        return _eval(chosen, module, link, env, depth)
    if t == "member_expression":
        return _fixed_member(node, module, link, env, depth)
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
