"""The one value a server's conversion wrapper returns, when it has several return statements: each return that is not
the fallback of a `catch` is that one conversion, whole (a `const` bound to it) or the member the converter puts a named
schema in (`result.definitions[name]` of `convert(schema, {name})`, kb/sdk.yaml zod.named_definitions)."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract.bindings import value_of
from auditor.extract.program import Module
from auditor.extract.syntax import FUNCTION_TYPES, ancestors, call_args, object_pairs, pair_value, strip_casts, text


def single(fn: ts.Node, returns: list[ts.Node], module: Module, named: dict | None, converts) -> ts.Node | None:
    """The expression every return of FN stands for (RETURNS: what FN returns), or None when they differ. A return in
    a `catch` clause of FN is the value when the code before it throws, left out: a conversion read statically is
    taken to succeed. CONVERTS(call) tells a conversion call; NAMED is kb zod.named_definitions."""
    if len(returns) == 1:  # a conversion through a `const`, else the one value as written
        return _conversion(returns[0], module, named, converts) or returns[0]
    kept = [e for e in returns if not _in_catch(e, fn)]
    found = [_conversion(e, module, named, converts) for e in kept]
    first = found[0] if found else None
    return first if first is not None and all(f is not None and f.id == first.id for f in found) else None


def _in_catch(node: ts.Node, fn: ts.Node) -> bool:
    for a in ancestors(node):
        if a.id == fn.id or a.type in FUNCTION_TYPES:
            return False
        if a.type == "catch_clause":
            return True
    return False


def _conversion(node: ts.Node, module: Module, named: dict | None, converts) -> ts.Node | None:
    """The conversion call NODE returns: itself, a `const` of the function bound to it, or the member a named
    conversion puts the schema in; else None."""
    node = strip_casts(node)
    if node is not None and node.type == "binary_expression" \
            and text(node.child_by_field_name("operator")) in {"||", "??"}:  # `out.definitions?.[name] || out`: the
        sides = [_conversion(node.child_by_field_name(f), module, named, converts) for f in ("left", "right")]  # named
        return sides[0] if sides[0] is not None and sides[1] is not None and sides[0].id == sides[1].id else None  # or whole
    call = _const_call(node, module)
    if call is not None and converts(call):
        return call
    if node is not None and node.type == "subscript_expression" and named is not None:
        holder = strip_casts(node.child_by_field_name("object"))
        if holder is not None and holder.type == "member_expression" \
                and text(holder.child_by_field_name("property")) == named["member"]:
            call = _const_call(strip_casts(holder.child_by_field_name("object")), module)
            name = _name_option(call, named["option"]) if call is not None and converts(call) else None
            index = strip_casts(node.child_by_field_name("index"))
            if name is not None and index is not None and text(name) == text(index):
                return call
    return None


def _const_call(node: ts.Node | None, module: Module) -> ts.Node | None:
    """NODE when a call, or the call a `const` name is bound to."""
    if node is not None and node.type == "identifier":
        value = value_of(module, node)
        decl = value.parent.parent if value is not None and value.parent is not None else None
        if decl is None or decl.type != "lexical_declaration" or not decl.children or decl.children[0].type != "const":
            return None
        node = strip_casts(value)
    return node if node is not None and node.type == "call_expression" else None


def _name_option(call: ts.Node, option: str) -> ts.Node | None:
    """The name a conversion call gives its schema: its second argument when not an object, else that option of it."""
    args = call_args(call)
    second = strip_casts(args[1]) if len(args) > 1 else None
    if second is None:
        return None
    if second.type != "object":
        return second
    pair = object_pairs(second).get(option)
    return strip_casts(pair_value(pair)) if pair is not None else None
