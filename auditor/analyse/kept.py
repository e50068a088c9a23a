"""Whether the server keeps a record a call hands it: some write to a state container of its own stores the record,
or a value of one of its fields (analyse/mismatches.py: a reference can only dangle in a record the server keeps)."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract import inputs
from auditor.extract.bindings import value_of
from auditor.extract.facts import Program
from auditor.extract.frames import parameters
from auditor.extract.syntax import enclosing_function, find, property_name, strip_casts, text

CARRIERS = frozenset({"member_expression", "shorthand_property_identifier", "pair", "identifier"})


def kept(p: Program, rtype: str, field: str, reads: list[ts.Node]) -> bool:
    """Whether a write of tool code (a function a tool's implementation reaches) to a state container stores a record
    of type RTYPE, or FIELD of one: the written value holds `x.FIELD` or a key FIELD, or is a value of the record
    (declared of type RTYPE, the result of the gate that builds it, the input a tool's implementation receives, or a
    name whose FIELD the writing function reads: READS, the member reads of FIELD)."""
    gates = {g.call.id for f in p.flows for g in f.gates if (g.record_type or f"{g.name}()") == rtype}
    tools = {r.tool.name for r in inputs.validated(p) if r.record_type == rtype}
    handlers = {d.target.id for d in p.dispatches if d.tool in tools and d.target is not None}
    code = {(f.module.path, f.fn.id) for f in p.flows}
    owners = {(fn.id, text(r.child_by_field_name("object"))) for r in reads if (fn := enclosing_function(r)) is not None}
    for c in p.containers:
        for a in c.writes:
            fn = enclosing_function(a.node) if a.node is not None else None
            if fn is None or (c.module.path, fn.id) not in code:
                continue
            for value in _written_values(a.node):
                if _holds(value, field) or any(_is_record(c.module, x, rtype, gates, handlers, owners)
                                               for x in _names(value)):
                    return True
                for x in _names(value):  # `const note = { parentId: args.parentId }; notes.push(note)`
                    init = value_of(c.module, x)
                    if init is not None and _holds(init, field):
                        return True
    return False


def _written_values(site: ts.Node) -> list[ts.Node]:
    """What a write site stores: the right side of an assignment, the arguments of a mutating call."""
    if site.type in {"assignment_expression", "augmented_assignment_expression"}:
        right = site.child_by_field_name("right")
        return [right] if right is not None else []
    args = site.child_by_field_name("arguments") if site.type == "call_expression" else None
    return [a for a in (args.named_children if args is not None else []) if a.type != "comment"]


def _holds(value: ts.Node, field: str) -> bool:
    """VALUE mentions FIELD as a member read (`args.FIELD`) or an object key (`{ FIELD }`, `{ FIELD: ... }`)."""
    for n in find(value, CARRIERS) + [value]:
        if n.type == "member_expression" and text(n.child_by_field_name("property")) == field:
            return True
        if n.type == "shorthand_property_identifier" and text(n) == field:
            return True
        if n.type == "pair" and (key := n.child_by_field_name("key")) is not None and property_name(key) == field:
            return True
    return False


def _names(value: ts.Node) -> list[ts.Node]:
    """The names VALUE stores whole: itself, an element of an array, a spread into an object or array."""
    value = strip_casts(value)
    if value is None:
        return []
    if value.type == "identifier":
        return [value]
    if value.type in {"array", "object"}:
        out = []
        for c in value.named_children:
            inner = strip_casts(c.named_children[0]) if c.type == "spread_element" and c.named_children else \
                strip_casts(c) if value.type == "array" else None
            if inner is not None and inner.type == "identifier":
                out.append(inner)
        return out
    return []


def _is_record(module, name: ts.Node, rtype: str, gates: set[int], handlers: set[int], owners: set[tuple[int, str]]) -> bool:
    word = text(name)
    fn = enclosing_function(name)
    if fn is None:
        return False
    if (fn.id, word) in owners:
        return True  # the writing function reads the field of what it stores
    params = fn.child_by_field_name("parameters")
    for prm in (params.named_children if params is not None else []):
        pattern = prm.child_by_field_name("pattern")
        annotation = prm.child_by_field_name("type")
        if pattern is not None and text(pattern) == word and annotation is not None \
                and text(annotation).lstrip(":").strip() == rtype:
            return True  # `record(entry: StepEntry)`
    if fn.id in handlers and parameters(fn).get(word, (None,))[0] == 0:
        return True  # the input the implementation of the record's tool receives
    init = value_of(module, name)
    if init is None:
        return False
    if any(n.id in gates for n in [init, *find(init, {"call_expression"})]):
        return True  # the record the validation gate builds
    decl = init.parent
    annotation = decl.child_by_field_name("type") if decl is not None and decl.type == "variable_declarator" else None
    return annotation is not None and text(annotation).lstrip(":").strip() == rtype
