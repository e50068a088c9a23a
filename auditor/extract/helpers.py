"""A call of a server function that builds part of a literal (`borderTop: border("Above.")`, the function returning
an object literal after constant declarations): that literal, its parameters bound to the call's arguments."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import tree_sitter as ts

from auditor.extract.bindings import value_of
from auditor.extract.frames import Frame, parameters, returned
from auditor.extract.syntax import FUNCTION_TYPES, call_args, call_function, strip_casts, text
from auditor.extract.values import Values

MAX_HELPERS = 3  # a helper whose literal calls another helper, followed this deep


@dataclass(frozen=True, kw_only=True, slots=True)
class Bound:
    """An environment for literal(): inside the helper, a parameter is the call's argument (read where the call is
    written, by OUTER); every other name is OUTER's."""

    outer: Callable[[ts.Node], ts.Node | None]
    frame: Frame
    values: Values
    depth: int

    def __call__(self, ident: ts.Node) -> ts.Node | None:
        fn = self.frame.scope
        if text(ident) in self.frame.names and fn.start_byte <= ident.start_byte < fn.end_byte \
                and self.values.link.module_of(ident) is self.frame.module and value_of(self.frame.module, ident) is None:
            value, _ = self.values.bound(ident, self.frame.module, self.frame)
            value = strip_casts(value)
            return None if value is None or value.id == ident.id else value
        return self.outer(ident)


def folded(call: ts.Node, env: Callable[[ts.Node], ts.Node | None], link) -> tuple[ts.Node, Bound] | None:
    """(the object literal CALL's function returns, the environment that binds its parameters), or None when CALL is
    not a call of a function of the boundary whose body is constant declarations and one `return {...}`."""
    call = strip_casts(call)
    depth = env.depth + 1 if isinstance(env, Bound) else 1
    if link is None or call is None or call.type != "call_expression" or depth > MAX_HELPERS:
        return None
    module = link.module_of(call)
    if module is None:
        return None
    values = Values(link)
    fn, fmod = values.function_of(call_function(call), module, None)
    if fn is None or fn.type not in FUNCTION_TYPES or any(c.type == "async" for c in fn.children) or not _builds(fn):
        return None
    out = returned(fn)
    if len(out) != 1 or strip_casts(out[0]) is None or strip_casts(out[0]).type != "object":
        return None
    frame = Frame(scope=fn, module=fmod, names=parameters(fn), args=tuple(call_args(call)), caller=module, site=call,
                  evaluated=True)
    return strip_casts(out[0]), Bound(outer=env, frame=frame, values=values, depth=depth)


def _builds(fn: ts.Node) -> bool:
    """FN only declares constants and returns: an arrow's expression body, or `const`s then one `return`."""
    body = fn.child_by_field_name("body")
    if body is None or body.type != "statement_block":
        return body is not None
    stmts = [s for s in body.named_children if s.type != "comment"]
    return bool(stmts) and stmts[-1].type == "return_statement" and all(
        s.type == "lexical_declaration" and text(s).startswith("const") for s in stmts[:-1])
