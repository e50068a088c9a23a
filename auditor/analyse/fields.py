"""Every use of a record field across the implementation, classified: copy, output, condition, render..."""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from auditor.extract import inputs
from auditor.extract.facts import Program
from auditor.extract.syntax import enclosing_function, member_chain, text

CONDITION_PARENTS = frozenset({"if_statement", "while_statement", "do_statement", "for_statement", "ternary_expression", "switch_statement"})


@dataclass(frozen=True, kw_only=True, slots=True)
class Use:
    field: str
    kind: str  # copy | output | condition | render | write | index | other
    path: str
    line: int
    function: str
    node: ts.Node


def record_fields(p: Program) -> dict[str, list[dict]]:
    """Fields of the records that validation gates build, or that a framework parses with a zod input schema (extract/
    inputs.py): name -> field list.

    The declared interface when there is one (TypeScript); otherwise the keys of the record
    literal the gate returns (compiled JavaScript), typed from the advertised input schema."""
    gates = [(f, g) for f in p.flows for g in f.gates]
    interfaces = {}
    for m in p.modules:
        for node in m.nodes("interface"):
            interfaces[text(node.child_by_field_name("name"))] = (m, node)
    out: dict[str, list[dict]] = {}
    for f, g in gates:
        if g.record_type in interfaces:
            m, node = interfaces[g.record_type]
            body = node.child_by_field_name("body") or node.child_by_field_name("value")
            out[g.record_type] = [{"name": text(s.child_by_field_name("name")), "optional": any(c.type == "?" for c in s.children),
                                   "type": text(s.child_by_field_name("type")).lstrip(":").strip(), "line": s.start_point[0] + 1, "path": m.path}
                                  for s in (body.named_children if body is not None else []) if s.type == "property_signature"]
            continue
        props = {}
        for t in p.tools:
            if isinstance(t.schema, dict):
                required = set(t.schema.get("required") or [])
                for name, spec in (t.schema.get("properties") or {}).items():
                    if isinstance(spec, dict):
                        props[name] = (spec.get("type") or "", name in required)
        out[g.record_type or f"{g.name}()"] = [
            {"name": c.field, "optional": not props.get(c.field, ("", c.checked))[1], "type": props.get(c.field, ("",))[0] or "",
             "line": c.line, "path": f.module.path} for c in g.copies]
    # The records a framework validates with a tool's zod input schema (the SDK parses every call with it).
    for r in inputs.validated(p):
        out.setdefault(r.record_type, [dict(f) for f in r.fields])
    return out


def uses(p: Program, field: str) -> list[Use]:
    out = []
    for m in p.modules:
        out += _uses_in(m, field, p.vocab)
    return sorted(out, key=lambda u: (u.path, u.line, u.kind))


def _uses_in(m, field: str, vocab: dict) -> list[Use]:
    """The uses of FIELD in module M (kept per module: the analyses ask for every field of every record, and records
    share field names)."""
    key = ("fields.uses", field)
    hit = m.memo.get(key)
    if hit is None:
        hit = m.memo[key] = _find_uses(m, field, vocab)
    return hit


def _find_uses(m, field: str, vocab: dict) -> list[Use]:
    out = []
    members, destructured = _by_name(m)
    for node in members.get(field, ()):
        chain = member_chain(node)
        if chain and chain[0] == "this":
            continue  # a class member of the same name is not the record field
        out.append(Use(field=field, kind=_kind(node, vocab), path=m.path, line=node.start_point[0] + 1,
                       function=m.qualified(enclosing_function(node)), node=node))
    for pat in destructured.get(field, ()):
        out.append(Use(field=field, kind="destructure", path=m.path, line=pat.start_point[0] + 1,
                       function=m.qualified(enclosing_function(pat)), node=pat))
    return out


def _by_name(m) -> tuple[dict[str, list[ts.Node]], dict[str, list[ts.Node]]]:
    """The member expressions of module M by the name of their property, and its destructured names by name, in the
    order of the module (built once per module: uses() asks for every field of every record)."""
    hit = m.memo.get("fields.by_name")
    if hit is None:
        members: dict[str, list[ts.Node]] = {}
        for node in m.nodes("member"):
            if node.type == "member_expression":
                members.setdefault(text(node.child_by_field_name("property")), []).append(node)
        destructured: dict[str, list[ts.Node]] = {}
        for node in m.nodes("destructure"):
            destructured.setdefault(text(node), []).append(node)
        hit = m.memo["fields.by_name"] = (members, destructured)
    return hit


def _kind(node: ts.Node, vocab: dict) -> str:
    parent = node.parent
    child = node
    while parent is not None and parent.type in {"as_expression", "satisfies_expression", "non_null_expression", "parenthesized_expression"}:
        child, parent = parent, parent.parent
    if parent is None:
        return "other"
    if parent.type in {"assignment_expression", "augmented_assignment_expression"} and parent.child_by_field_name("left") == child:
        return "write"
    if parent.type == "pair" and parent.child_by_field_name("value") == child:
        obj = parent.parent
        args = obj.parent if obj is not None else None
        call = args.parent if args is not None and args.type == "arguments" else None
        if call is not None and text(call.child_by_field_name("function")) == "JSON.stringify":
            return "output"
        return "copy"
    if parent.type == "subscript_expression" and parent.child_by_field_name("index") == child:
        return "index"
    if parent.type == "arguments" and [c for c in parent.named_children if c.type != "comment"][:1] == [child]:
        # `m.has(x)`, `m.get(x)`: the key of a keyed collection, as `o[x]` is.
        fn = parent.parent.child_by_field_name("function") if parent.parent is not None else None
        if fn is not None and fn.type == "member_expression" and text(fn.child_by_field_name("property")) in vocab["key_methods"]:
            return "index"
    cur = node
    while cur.parent is not None:
        par = cur.parent
        if par.type == "template_substitution":
            return "render"
        if par.type in CONDITION_PARENTS:
            cond = par.child_by_field_name("condition") or par.child_by_field_name("value")
            return "condition" if cond is not None and cond.start_byte <= node.start_byte < cond.end_byte else "other"
        if par.type in {"statement_block", "program", "arrow_function", "class_body"}:
            return "other"
        cur = par
    return "other"
