"""What a tool implementation does to its input and state: validation gate, mutations, state writes."""

from __future__ import annotations

from dataclasses import dataclass, replace

import tree_sitter as ts

from auditor.extract.frames import plain_parameters
from auditor.extract.program import Module
from auditor.extract.state import Access, Container
from auditor.extract.syntax import (call_args, callee_text, condition_terms, enclosing_function, is_cast,
                                    find, member_chain, object_pairs, pair_value, string_value, strip_casts, text, walk)


@dataclass(frozen=True, kw_only=True, slots=True)
class Predicate:
    field: str
    form: str  # falsy-guard | type-check | presence-check | other
    expected: str  # the type a type check asks for, '' otherwise
    message: str | None
    line: int
    source: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Copy:
    field: str
    checked: bool
    cast: bool
    line: int


@dataclass(frozen=True, kw_only=True, slots=True)
class Gate:
    path: str  # the file of the validator (it may be imported from another module)
    module_name: str  # the id prefix of that module
    validator: ts.Node
    name: str
    call: ts.Node  # the call site inside the tool implementation
    caller: str
    predicates: tuple[Predicate, ...]
    copies: tuple[Copy, ...]
    record_type: str
    result_node: ts.Node | None  # the returned record literal


@dataclass(frozen=True, kw_only=True, slots=True)
class Mutation:
    function: str
    node: ts.Node  # the statement (if statement for a guarded assignment)
    target: str  # variable.field
    form: str  # raise-only clamp | lower-only clamp | assignment
    condition: str
    bound: str = ""  # a clamp's limit as written (`5`, `MAX`, `obs.step`); "" for a plain assignment


@dataclass(frozen=True, kw_only=True, slots=True)
class WriteGroup:
    function: str
    container: Container
    node: ts.Node  # outermost guarding if statement, or the write statement
    condition: str | None
    lazy_init: bool
    hows: tuple[str, ...]


def _stmt_in(fn: ts.Node, node: ts.Node) -> bool:
    return enclosing_function(node) == fn


def resolver(module: Module):
    """A resolver for one module on its own (no cross-file links): call -> (function node, name)."""
    from auditor.extract.linker import Linker

    return Linker([module]).resolver(module)


def is_validator(fn: ts.Node) -> bool:
    body = fn.child_by_field_name("body")
    if body is None or body.type != "statement_block":
        return False
    guards = [s for s in body.named_children if s.type == "if_statement" and _throws(s.child_by_field_name("consequence"))]
    returns = [s for s in body.named_children if s.type == "return_statement" and s.named_children
               and strip_casts(s.named_children[0]).type == "object"]
    return bool(guards) and bool(returns)


def _throws(node: ts.Node | None) -> ts.Node | None:
    if node is None:
        return None
    if node.type == "throw_statement":
        return node
    stmts = [c for c in node.named_children if c.type != "comment"] if node.type == "statement_block" else []
    if stmts and stmts[0].type == "throw_statement":
        return stmts[0]
    return None


def _field_of(node: ts.Node | None) -> str | None:
    chain = member_chain(node)
    return chain[-1] if chain and len(chain) >= 2 else (chain[0] if chain else None)


TYPE_PREDICATES = {"Array.isArray": "array", "Number.isInteger": "number", "Number.isSafeInteger": "number",
                    "Number.isFinite": "number"}  # (true of values of that type only)


def _predicate(term: ts.Node, message: str | None) -> Predicate:
    line = term.start_point[0] + 1
    src = text(term)
    if term.type == "unary_expression" and text(term.child_by_field_name("operator")) == "!":
        arg = strip_casts(term.child_by_field_name("argument"))
        if arg.type == "call_expression" and callee_text(arg) in TYPE_PREDICATES and call_args(arg):
            args = call_args(arg)  # (`!Number.isSafeInteger(x)`: false for anything but a number)
            return Predicate(field=_field_of(args[0]) or src, form="type-check", expected=TYPE_PREDICATES[callee_text(arg)],
                             message=message, line=line, source=src)
        callee = arg.child_by_field_name("function") if arg.type == "call_expression" else None
        if callee is not None and callee.type == "member_expression" and len(call_args(arg)) == 1 \
                and text(callee.child_by_field_name("property")) in {"includes", "has"} \
                and _field_of(strip_casts(call_args(arg)[0])):  # `!VALID.includes(x.kind)`: one of the list's values
            return Predicate(field=_field_of(strip_casts(call_args(arg)[0])), form="membership", expected="",
                             message=message, line=line, source=src)
        return Predicate(field=_field_of(arg) or src, form="falsy-guard", expected="", message=message, line=line, source=src)
    if term.type == "binary_expression":
        op = text(term.child_by_field_name("operator"))
        left, right = term.child_by_field_name("left"), term.child_by_field_name("right")
        if op in {"!==", "!="}:
            for a, b in ((left, right), (right, left)):
                if a.type == "unary_expression" and text(a.child_by_field_name("operator")) == "typeof" and string_value(b) is not None:
                    return Predicate(field=_field_of(a.child_by_field_name("argument")) or src, form="type-check",
                                     expected=string_value(b), message=message, line=line, source=src)
        if op in {"===", "=="}:
            for a, b in ((left, right), (right, left)):
                if text(b) in {"undefined", "null"}:
                    return Predicate(field=_field_of(a) or src, form="presence-check", expected="", message=message, line=line, source=src)
    return Predicate(field=_field_of(term) or src, form="other", expected="", message=message, line=line, source=src)


def _aliases(fn: ts.Node) -> dict[str, str]:
    """Local -> input field of the destructurings of FN's own code (`const { branchId: given, force } = args`)."""
    out = {text(n): text(n) for n in find(fn, {"shorthand_property_identifier_pattern"}) if _stmt_in(fn, n)}
    return out | {text(v): text(n.child_by_field_name("key")) for n in find(fn, {"pair_pattern"})
                  if _stmt_in(fn, n) and (v := n.child_by_field_name("value")) is not None and v.type == "identifier"
                  and n.child_by_field_name("key").type == "property_identifier"}


def _of_input(term: ts.Node, fn: ts.Node, aliases: dict[str, str]) -> bool:
    """Whether TERM tests a value of FN's input: a member of a parameter (`options.limit`) or a local destructured
    from it (not a member of a loop's element, `request.range`, which is no field of the input)."""
    params = set(plain_parameters(fn))
    for node in walk(term):
        chain = member_chain(node) if node.type in {"member_expression", "identifier"} else None
        if chain and (chain[0] in params and len(chain) >= 2 or len(chain) == 1 and chain[0] in aliases):
            return True
    return False


def gate(module: Module, validator: ts.Node, call: ts.Node, caller: str) -> Gate:
    body = validator.child_by_field_name("body")
    predicates: list[Predicate] = []
    aliases = _aliases(validator)
    # every `if (...) throw` of the validator's own code, nested ones too (`else if (given) { if
    # (!known.includes(given)) throw ... }`: a check of the value in the branch that uses it)
    for stmt in find(body, {"if_statement"}):
        if not _stmt_in(validator, stmt):
            continue
        throw = _throws(stmt.child_by_field_name("consequence"))
        if throw is None:
            continue
        err = next((n for n in walk(throw) if n.type == "new_expression"), None)
        message = string_value(call_args(err)[0]) if err is not None and call_args(err) else None
        nested = stmt.parent != body
        for term in condition_terms(stmt.child_by_field_name("condition")):
            if nested and not _of_input(term, validator, aliases):
                continue  # (a nested check of what is no field of the input: each element of a list)
            pr = _predicate(term, message)
            predicates.append(replace(pr, field=aliases[pr.field]) if pr.field in aliases else pr)
    checked = {p.field for p in predicates}
    ret = next(s for s in body.named_children if s.type == "return_statement" and s.named_children
               and strip_casts(s.named_children[0]).type == "object")
    result = strip_casts(ret.named_children[0])
    copies = []
    for key, pair in object_pairs(result).items():
        value = pair_value(pair)
        source = _field_of(strip_casts(value))
        if source is None:
            continue
        copies.append(Copy(field=key, checked=source in checked, cast=is_cast(value), line=pair.start_point[0] + 1))
    rtype = validator.child_by_field_name("return_type")
    return Gate(path=module.path, module_name=module.name, validator=validator, name=module.qualified(validator), call=call, caller=caller,
                predicates=tuple(predicates), copies=tuple(copies),
                record_type=text(rtype).lstrip(":").strip() if rtype is not None else "", result_node=result)


def _guards(node: ts.Node, fn: ts.Node, branches: frozenset[int]) -> list[ts.Node]:
    """The `if` statements around `node` inside `fn`, innermost first, without the branches of a tool dispatch
    (`if (name === "tool")`: reaching the tool's code is what the branch means, not a condition inside it)."""
    return [n for n in _ancestors_until(node, fn) if n.type == "if_statement" and n.id not in branches]


def mutations(module: Module, fn: ts.Node, branches: frozenset[int] = frozenset()) -> list[Mutation]:
    out = []
    name = module.qualified(fn)
    for node in find(fn, {"assignment_expression"}):
        if not _stmt_in(fn, node):
            continue
        left = node.child_by_field_name("left")
        chain = member_chain(left)
        if not chain or len(chain) < 2 or chain[0] == "this" or left.type != "member_expression":
            continue
        right = node.child_by_field_name("right")
        guard = next(iter(_guards(node, fn, branches)), None)
        form, cond, stmt = "assignment", "", node.parent if node.parent is not None else node
        if guard is not None and _stmt_in(fn, guard):
            c = strip_casts(guard.child_by_field_name("condition"))
            cond = text(c)
            if c.type == "binary_expression":
                op = text(c.child_by_field_name("operator"))
                l, r = text(c.child_by_field_name("left")), text(c.child_by_field_name("right"))
                if text(left) == r and text(right) == l:
                    form = {">": "raise-only clamp", ">=": "raise-only clamp", "<": "lower-only clamp", "<=": "lower-only clamp"}.get(op, form)
                elif text(left) == l and text(right) == r:
                    form = {"<": "raise-only clamp", "<=": "raise-only clamp", ">": "lower-only clamp", ">=": "lower-only clamp"}.get(op, form)
            stmt = guard
            bound = text(right) if form != "assignment" else ""
        elif right is not None and strip_casts(right).type == "call_expression":
            callee = callee_text(strip_casts(right))
            form = {"Math.max": "raise-only clamp", "Math.min": "lower-only clamp"}.get(callee, form)
            others = [text(a) for a in call_args(strip_casts(right)) if text(a) != text(left)]
            bound = others[0] if form != "assignment" and len(others) == 1 else ""
        else:
            bound = ""
        out.append(Mutation(function=name, node=stmt, target=".".join(chain), form=form, condition=cond, bound=bound))
    return out


def write_groups(module: Module, fn: ts.Node, containers: list[Container], branches: frozenset[int] = frozenset(),
                 ) -> list[WriteGroup]:
    """Writes to each container grouped by the outermost `if` around them (BRANCHES: ids of the `if` statements
    that dispatch tool names, which are not conditions of the writes inside them)."""
    name = module.qualified(fn)
    groups: dict[tuple[str, int], list[Access]] = {}
    anchors: dict[tuple[str, int], ts.Node] = {}
    by_key = {c.key: c for c in containers}
    for c in containers:
        for a in c.writes:
            if a.node is None or enclosing_function(a.node) != fn:
                continue
            ifs = _guards(a.node, fn, branches)
            outer = ifs[-1] if ifs else _statement(a.node, fn)
            key = (c.key, outer.start_byte)
            groups.setdefault(key, []).append(a)
            anchors[key] = outer
    out = []
    for (ckey, _), accesses in sorted(groups.items(), key=lambda kv: kv[0][1]):
        node = anchors[(ckey, _)]
        conditional = node.type == "if_statement"
        lazy = conditional and any(a.how in {"index-assign", "set"} for a in accesses) and (
            any(_bucket_write(a.how) for a in accesses) or _bucket_write_follows(node, ckey, containers))
        out.append(WriteGroup(function=name, container=by_key[ckey], node=node,
                              condition=text(strip_casts(node.child_by_field_name("condition"))) if conditional else None,
                              lazy_init=lazy, hows=tuple(a.how for a in accesses)))
    return out


def _bucket_write(how: str) -> bool:
    """A write into a stored entry: `o[k].push(v)` ([]push) or `m.get(k).push(v)` (get().push)."""
    return how.startswith("[]") or "()." in how


def _bucket_write_follows(stmt: ts.Node, ckey: str, containers: list[Container]) -> bool:
    """`if (!m.has(k)) m.set(k, []); m.get(k).push(v)`: the statement after the guarded creation fills the bucket."""
    nxt = stmt.next_named_sibling
    while nxt is not None and nxt.type == "comment":
        nxt = nxt.next_named_sibling
    if nxt is None:
        return False
    return any(a.node is not None and nxt.start_byte <= a.node.start_byte < nxt.end_byte and _bucket_write(a.how)
               for c in containers if c.key == ckey for a in c.writes)


def _ancestors_until(node: ts.Node, fn: ts.Node):
    cur = node.parent
    while cur is not None and cur != fn:
        yield cur
        cur = cur.parent


def _statement(node: ts.Node, fn: ts.Node) -> ts.Node:
    cur = node
    while cur.parent is not None and cur.parent != fn and cur.parent.type != "statement_block":
        cur = cur.parent
    return cur
