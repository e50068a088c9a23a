"""What a function a tool's input is handed to checks of it before going on (analyse/uses.py): a test of a parameter's
or field's type or values, or a numeric range, in the condition of an `if` that rejects (a type test: that returns
anything), the subject of a switch whose default rejects, a string's method called on it, a rest parameter's values
checked in a loop. A test of presence alone is none."""

from __future__ import annotations

import tree_sitter as ts

from auditor.analyse import guards
from auditor.extract import flow
from auditor.extract.frames import plain_parameters
from auditor.extract.syntax import call_args, condition_terms, enclosing_function, find, member_chain, strip_casts, text

_ORDER = frozenset({"<", ">", "<=", ">="})


def checked(link, module, fn: ts.Node) -> set[str]:
    """The parameters and fields FN checks the type or the values of before it goes on: a type test, a predicate or
    membership test, a lookup whose miss is refused, or a range of numbers in the condition of an `if` that rejects
    (a type test: that returns anything), the subject of a `switch` whose default rejects, a string's method called
    on it. A test of presence alone (`if (!x) throw`) is none: a value of another type passes it."""
    memo = link.memo.setdefault("uses.checked", {})
    if fn.id not in memo:
        params = set(plain_parameters(fn))
        memo[fn.id] = _type_or_value_tested(module, fn, link) \
            | guards.string_required_parameters(fn, params, fields=True, module=module, link=link)
    return memo[fn.id]


def _type_or_value_tested(module, fn: ts.Node, link) -> set[str]:
    out: set[str] = set()
    for stmt in find(fn, {"if_statement", "switch_statement"}):
        if enclosing_function(stmt) != fn:
            continue
        if stmt.type == "switch_statement":
            body = stmt.child_by_field_name("body")
            default = next((c for c in body.named_children if c.type == "switch_default"), None) if body is not None else None
            first = next((x for x in default.named_children if x.type != "comment"), None) if default is not None else None
            chain = member_chain(strip_casts(stmt.child_by_field_name("value")))
            out |= {chain[-1]} if chain and first is not None and guards._rejects(first, module, link) else set()
            continue
        typed = guards.type_chain(stmt, module, link)
        if typed is not None:  # `if (typeof v === "string") ... else if (typeof v === "number") ... else throw`
            out.add(typed)
            continue
        then = stmt.child_by_field_name("consequence")
        rejects = guards._rejects(then, module, link)
        if not rejects and not guards._returns(then):
            continue
        for term in condition_terms(stmt.child_by_field_name("condition")):
            out |= (_bounded(term) | guards.outside_literals(term)) if rejects else set()
            for part in (d for c in condition_terms(term, "&&") for d in condition_terms(c, "||")):
                found = flow._predicate(part, None)
                if found.form != "type-check" and _date_test(part):  # `Number.isNaN(d.getTime())` of `const d = new
                    value = _tested_value(part)  # Date(value)`: an invalid date refused, only a valid one goes on
                    out |= guards._subject_fields(value, fn) if value is not None else set()
                elif found.form == "type-check" and found.field.isidentifier():
                    # (and the parameter a local so tested is computed from: `const n = Math.floor(value); if
                    # (!Number.isFinite(n)) return 1`)
                    value = _tested_value(part)
                    out |= {found.field} | (guards._subject_fields(value, fn) if value is not None else set())
                elif rejects:
                    out |= guards._tested_by(part, fn, module, link) | _predicate_of_local(part)
    return out


def _tested_value(part: ts.Node) -> ts.Node | None:
    """The value a type test (`!Number.isFinite(n)`, `typeof n !== "number"`) is of, when it is a name; of a date's
    time (`Number.isNaN(d.getTime())`, an invalid date's being NaN), the date."""
    for n in [part, *find(part, {"identifier"})]:
        if n.type == "identifier" and n.parent is not None and n.parent.type in {"arguments", "unary_expression"}:
            return n
        up = n.parent if n.type == "identifier" else None
        call = up.parent if up is not None and up.type == "member_expression" else None
        if call is not None and call.type == "call_expression" and up.child_by_field_name("object") == n \
                and text(up.child_by_field_name("property")) in _TIMES and not call_args(call) \
                and call.parent is not None and call.parent.type == "arguments":
            return n
    return None


_TIMES = frozenset({"getTime", "valueOf"})  # a date's time: NaN for an invalid date
_NUMBER_TESTS = frozenset({"Number.isNaN", "isNaN", "Number.isFinite", "isFinite"})


def _date_test(part: ts.Node) -> bool:
    """Whether PART tests a date's time for NaN (`Number.isNaN(d.getTime())`, `!isFinite(d.valueOf())`)."""
    part = strip_casts(part)
    if part is not None and part.type == "unary_expression" and text(part.child_by_field_name("operator")) == "!":
        part = strip_casts(part.child_by_field_name("argument"))
    if part is None or part.type != "call_expression" or len(call_args(part)) != 1 \
            or ".".join(member_chain(part.child_by_field_name("function")) or ()) not in _NUMBER_TESTS:
        return False
    inner = strip_casts(call_args(part)[0])
    fn = inner.child_by_field_name("function") if inner is not None and inner.type == "call_expression" else None
    return fn is not None and fn.type == "member_expression" and text(fn.child_by_field_name("property")) in _TIMES \
        and not call_args(inner)


def _predicate_of_local(part: ts.Node) -> set[str]:
    """The local a negated predicate of a rejecting condition is called on (`const kind = splitter || "ast"; if
    (!isSplitterKind(kind)) return { isError: true, ... }`): only what the predicate accepts goes on from there."""
    if part.type != "unary_expression" or text(part.child_by_field_name("operator")) != "!":
        return set()
    call = strip_casts(part.child_by_field_name("argument"))
    if call is None or call.type != "call_expression" or len(call_args(call)) != 1 \
            or call.child_by_field_name("function").type != "identifier":
        return set()
    arg = strip_casts(call_args(call)[0])
    return {text(arg)} if arg is not None and arg.type == "identifier" else set()


def _bounded(term: ts.Node) -> set[str]:
    """The field a term of a rejecting condition compares with a number (`input.weight < 0` of `if (input.weight < 0
    || input.weight > 1) throw ...`): outside that range it is refused, so it is checked where it is kept after."""
    chain = guards.against(term, _ORDER, {"number"})
    return {chain[-1]} if chain else set()


def checks_rest(link, module, call: ts.Node, index: int) -> bool:
    """Whether the function CALL calls checks the values of its rest parameter, and INDEX is among them
    (`validateStrings("msg", ...values)` that throws for any value no string: guards.checked_parameters). A plain
    parameter is read where it is handed (analyse/uses.py)."""
    hit = link.resolve(module, call) if link is not None else None
    rest = guards.rest_parameter(hit[1]) if hit is not None and hit[1].child_by_field_name("body") is not None else None
    return rest is not None and index >= rest[1] and rest[0] in guards.checked_parameters(hit[0], hit[1], link)
