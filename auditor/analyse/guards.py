"""What a function of the server rejects: the fields and parameters its guards refuse bad values of (`if (cond)
throw`, a `switch` whose default leaves, a negated membership or predicate test, a lookup whose miss is refused, a
method only a string has called on the value), also a few calls down, and what a predicate function tests. Read by
analyse/validation.py on a tool's path."""

from __future__ import annotations

import re
from itertools import takewhile
from typing import Callable, Iterator

import tree_sitter as ts

from auditor.analyse.effects import conditional
from auditor.extract import flow
from auditor.extract.bindings import value_of, visible
from auditor.extract.frames import REST, destructured, loop_names, parameters, plain_parameters, returned
from auditor.extract.program import Module
from auditor.extract.syntax import (CAST_TYPES, FUNCTION_TYPES, ancestors, call_args, callee_text, condition_terms,
                                    enclosing_function, find, member_chain, nullish, object_pairs, pair_value,
                                    string_value, strip_casts, text)
from auditor.extract.values import Values


STRING_ONLY = frozenset({"substring", "substr", "toLowerCase", "toUpperCase", "toLocaleLowerCase",
                          "toLocaleUpperCase", "trim", "trimStart", "trimEnd", "startsWith", "endsWith", "padStart",
                          "padEnd", "charAt", "charCodeAt", "codePointAt", "localeCompare", "normalize", "replace",
                          "replaceAll", "split", "match", "matchAll", "search", "repeat"})
# Constructors that parse their first argument as text and throw for what does not parse (`new URL(42)`: "Invalid
# URL"): inside a `try` whose `catch` leaves (a deliberate check: `try { new URL(u) } catch { throw ... }`), a value
# they are handed is checked there. (A built-in that only fails on a value of another type, Node's `path.resolve(5)`,
# checks nothing by the corpus's labels: the call fails, no check was made.)
PARSING_CONSTRUCTORS = frozenset({"URL"})
STRING_OF_STRING = frozenset({"toLowerCase", "toUpperCase", "toLocaleLowerCase", "toLocaleUpperCase", "trim",
                              "trimStart", "trimEnd", "normalize"})  # (of those, called with no argument: the string
# changed in case or white space only)


def string_receivers(fn: ts.Node, own: bool = False, module: Module | None = None, link=None
                     ) -> Iterator[tuple[ts.Node, ts.Node]]:
    """(call, the value it is made on) of each call in FN of a method only a string has (`x.trim()`), not through
    `?.` (string_calls): a value that is no string throws there, and goes no further."""
    return ((call, obj) for call, obj, chained in string_calls(fn, own, module, link) if not chained)


def string_calls(fn: ts.Node, own: bool = False, module: Module | None = None, link=None
                 ) -> Iterator[tuple[ts.Node, ts.Node, bool]]:
    """(call, the value it is made on, whether through `?.`) of each call in FN of a method only a string has
    (`x.trim()`; `x?.trim()` lets null and undefined by, and throws for any other value that is no string), and
    (call, argument, False) of `new URL(x)` in a `try` whose `catch` leaves (PARSING_CONSTRUCTORS; as the value's
    first use, on every path it goes on: _first_use, _branch_of_other); not only made for strings (`typeof x ===
    "string" ? x.trim() : ...`) and not inside a `try` of FN that would catch the failure and go on. A `try` whose
    `catch` throws again lets the failure out; with OWN (FN is the tool's own code, which a `return` leaves), so does
    one whose `catch` returns (`catch (e) { return { isError: true } }`), and with MODULE one whose `catch` ends
    calling a function that always throws (`catch (e) { handleToolError(e, ctx) }`: _always_throws)."""
    for call in find(fn, {"call_expression", "new_expression"}):
        callee = call.child_by_field_name("function" if call.type == "call_expression" else "constructor")
        method = call.type == "call_expression" and callee is not None and callee.type == "member_expression" \
            and text(callee.child_by_field_name("property")) in STRING_ONLY
        parsed = call.type == "new_expression" and text(callee) in PARSING_CONSTRUCTORS
        if not method and not parsed:
            continue
        tries = [a for a in takewhile(lambda a: a != fn, ancestors(call)) if a.type == "try_statement"]
        if any(not _failure_leaves(a, call, own and enclosing_function(a) == fn, module, link) for a in tries):
            continue  # (a callback's `return` leaves the callback)
        if parsed:
            arg = strip_casts(call_args(call)[0]) if call_args(call) else None
            if tries and arg is not None and arg.type != "spread_element" and not type_guarded(arg, fn) \
                    and _first_use(arg, fn) and not _branch_of_other(call, arg, fn):
                yield call, arg, False
            continue
        obj = strip_casts(callee.child_by_field_name("object"))
        if obj is not None and not type_guarded(obj, fn):
            yield call, obj, any(c.type == "optional_chain" for c in callee.children)


_CONDITIONED = frozenset({"if_statement", "ternary_expression", "while_statement"})


def _first_use(value: ts.Node, fn: ts.Node) -> bool:
    """Whether VALUE (a name, a member chain) is read in FN nowhere before, but to be tested (`if (!url)`, `url ===
    x`, `typeof url`): a parse that refuses it then checks it before any use (`fetch(url); new URL(url)` has used
    it first)."""
    shown = text(value)
    for n in find(fn, {"identifier", "member_expression", "shorthand_property_identifier"}):
        if n.start_byte >= value.start_byte:
            continue
        if text(n) != shown or n.parent is not None and (
                n.parent.type == "variable_declarator" and n.parent.child_by_field_name("name") == n
                or n.parent.type in {"required_parameter", "optional_parameter", "formal_parameters"}):
            continue  # (another value, or the name a declaration or a parameter sets)
        up = n.parent
        while up is not None and up.type in {"parenthesized_expression", "non_null_expression", "as_expression"}:
            up = up.parent
        cond = up.child_by_field_name("condition") if up is not None and up.type in _CONDITIONED else None
        tested = up is not None and (
            up.type == "unary_expression" and text(up.child_by_field_name("operator")) in {"!", "typeof"}
            or up.type == "binary_expression" and text(up.child_by_field_name("operator")) in {"===", "!==", "==", "!="}
            or cond is not None and cond.start_byte <= n.start_byte < cond.end_byte)
        if not tested:
            return False
    return True


def _branch_of_other(call: ts.Node, value: ts.Node, fn: ts.Node) -> bool:
    """Whether CALL runs in FN only under a condition other than VALUE's own presence (`if (strict) { try { new
    URL(u) } catch ... }`: when not strict, u goes on unrefused); `if (u) { try { new URL(u) } ... }` is taken
    whenever U is there to be used."""
    shown = text(value)
    taken = lambda cond: cond is not None and text(strip_casts(cond)) == shown  # noqa: E731
    node, cur = call, call
    while cur.parent is not None and cur.parent != fn:  # (the condition of a ternary runs whenever the ternary does,
        if cur.parent.type == "ternary_expression" and cur.parent.child_by_field_name("condition") == cur:
            if conditional(call, cur.parent, taken):  # what runs in it on every path of it)
                return True
            node = cur.parent
        cur = cur.parent
    return conditional(node, fn, taken)


def _failure_leaves(stmt: ts.Node, node: ts.Node, own: bool, module: Module | None = None, link=None) -> bool:
    """Whether a failure of NODE, in the body of the `try` STMT, leaves the function: the `catch` ends in a `throw`
    (with OWN, or a `return`; with MODULE, or a call of a function that always throws), and there is no `finally`
    (whose own `return` would decide)."""
    body, handler = stmt.child_by_field_name("body"), stmt.child_by_field_name("handler")
    if body is None or handler is None or stmt.child_by_field_name("finalizer") is not None \
            or not body.start_byte <= node.start_byte < body.end_byte:
        return False
    block = handler.child_by_field_name("body")
    last = next((c for c in reversed(block.named_children) if c.type != "comment"), None) if block is not None else None
    return last is not None and (last.type == "throw_statement" or own and last.type == "return_statement"
                                 or module is not None and _always_throws(last, module, link))


def string_defaulted(obj: ts.Node | None) -> ts.Node | None:
    """The value of `(value || "default")` or `(value ?? "default")`, its default a string; else None."""
    while obj is not None and obj.type == "parenthesized_expression" and obj.named_children:
        obj = strip_casts(obj.named_children[0])
    if obj is None or obj.type != "binary_expression" or text(obj.child_by_field_name("operator")) not in {"||", "??"}:
        return None
    right = strip_casts(obj.child_by_field_name("right"))
    return strip_casts(obj.child_by_field_name("left")) if right is not None and right.type in {"string", "template_string"} \
        else None


def string_required_parameters(fn: ts.Node, params: set[str], fields: bool = False, module: Module | None = None,
                               link=None) -> set[str]:
    """The parameters FN itself (not a function nested in it) calls a string's method on, or parses as a URL in a
    `try` that refuses what does not parse (`string_receivers`); through `?.` where FN leaves when the call gives
    nothing (`left_unless`). With FIELDS, also the fields of a parameter so called on (`input.query.trim()`:
    "query")."""
    out: set[str] = set()
    for call, obj, chained in string_calls(fn, module=module, link=link):
        if enclosing_function(call) != fn or chained and not left_unless(call):
            continue
        if obj.type == "identifier" and text(obj) in params:
            out.add(text(obj))
        elif fields and obj.type == "member_expression":
            holder = strip_casts(obj.child_by_field_name("object"))
            if holder is not None and holder.type == "identifier" and text(holder) in params:
                out.add(text(obj.child_by_field_name("property")))
    return out


def left_unless(call: ts.Node) -> bool:
    """Whether the function leaves when CALL's result is falsy: `if (!input.query?.trim()) throw ...` (a term of
    the `||` the `if` tests): a value `?.` let by (null, undefined) is refused there as an empty text is."""
    e = call
    while e.parent is not None and e.parent.type in CAST_TYPES:
        e = e.parent
    up = e.parent
    if up is None or up.type != "unary_expression" or text(up.child_by_field_name("operator")) != "!":
        return False
    e = up
    while e.parent is not None and (e.parent.type in CAST_TYPES or e.parent.type == "binary_expression"
                                    and text(e.parent.child_by_field_name("operator")) == "||"):
        e = e.parent
    stmt = e.parent
    if stmt is None or stmt.type != "if_statement" or stmt.child_by_field_name("condition") != e:
        return False
    then = stmt.child_by_field_name("consequence")
    return _rejects(then) or _returns(then)


def hand_checked(fn: ts.Node, skip: Callable[[ts.Node], bool] = lambda node: False, dispatch: frozenset[int] = frozenset(),
                 leaving: bool = False, module: Module | None = None, link=None, own: bool = False,
                 errors: bool = False, falsy: bool = False, collects: frozenset[str] = frozenset(),
                 keys: frozenset[str] = frozenset()) -> set[str]:
    """Fields a function rejects bad values of: the fields named in the condition of `if (cond) throw ...` or
    `if (cond) return <an error>`, and the subject of a `switch` whose `default` throws or returns an error (not the
    tool-name dispatch, ids in DISPATCH: its fallback rejects unknown tools, not input). LEAVING: a `default` that
    returns anything leaves too (`switch (command) { ...; default: return failure(...) }` runs no case's code).
    SKIP: statements not to read (another tool's branch). MODULE (FN's): a test of a local holding a conversion of
    a value checks nothing (`_coerced_local`). OWN: FN is the tool's own code, which a `return` leaves: the type
    tests of an `if` whose branch returns anything check too (a function it calls returns to it instead). ERRORS:
    its caller leaves when it returns a value (`const invalid = check(args); if (invalid) return ...`), so a
    returned value that is not null rejects (`return `${key} must be a string``, `return ok ? null : "bad"`). FALSY:
    its caller rejects unless it returns a true value (`if (!isValidArgs(args)) throw`), so `return false` rejects.
    COLLECTS: locals of FN that gather the failures it returns, and its caller rejects when one is not empty (`const
    errors = []; if (typeof input.name !== "string") errors.push(...); return { errors }`): a push onto one rejects.
    KEYS: locals of FN holding the requested tool's name (the dispatch's subject): a test of one (`if
    (!allowed.has(name)) throw`) rejects an unknown tool, and checks no input field of that name."""
    out: set[str] = set()
    if errors:
        for ret in find(fn, {"return_statement"}):
            value = strip_casts(ret.named_children[0]) if ret.named_children and enclosing_function(ret) == fn else None
            if value is None or value.type != "ternary_expression":
                continue
            kept = [nullish(value.child_by_field_name(k)) for k in ("consequence", "alternative")]
            cond = value.child_by_field_name("condition")
            if kept[0] and not kept[1]:  # `ok ? null : "message"`: what the test requires passes, the rest not
                out |= _passing_fields(cond)
            elif kept[1] and not kept[0]:  # `bad ? "message" : null`
                out |= {f for t in condition_terms(cond) for f in _term_fields(t, fn, module, link, keys)}
    owners = {fn.id} | {f.id for f in _returned_callbacks(fn)}
    for stmt in find(fn, {"if_statement", "switch_statement"}):
        if enclosing_function(stmt).id not in owners or skip(stmt) or stmt.id in dispatch:
            continue
        body = stmt.child_by_field_name("body")
        if body is not None and any(c.id in dispatch for c in body.named_children):
            continue
        typed = type_chain(stmt, module, link) if stmt.type == "if_statement" else None
        if typed is not None:  # `if (typeof v === "string") ... else if (typeof v === "number") ... else throw`
            out.add(typed)
            continue
        if stmt.type == "if_statement" and (_rejects(stmt.child_by_field_name("consequence"), module, link)
                                            or errors and _returns_value(stmt.child_by_field_name("consequence"))
                                            or falsy and _returns_falsy(stmt.child_by_field_name("consequence"))
                                            or collects and _pushes_onto(stmt.child_by_field_name("consequence"),
                                                                         collects)):
            terms = condition_terms(stmt.child_by_field_name("condition"))
        elif stmt.type == "if_statement" and _member_then_rejects(stmt, module, link):
            # `if (Object.hasOwn(ACTIONS, action)) { ...; return h(args) } throwUnknownAction(action)`: what is
            # not a member goes no further
            out |= _subject_fields(_member_subject(stmt.child_by_field_name("condition")), fn)
            continue
        elif own and stmt.type == "if_statement" and _returns(stmt.child_by_field_name("consequence")):
            # `if (!report || typeof report !== "object") return { content: [...] }`: whatever it returns, a value
            # of another type goes no further; the type tests of the condition check (not a test of presence)
            split = _returns_literal(stmt.child_by_field_name("consequence"))  # (`if (keys && (!Array.isArray(keys)
            # || ...)) return { content: [...] }`: a conjunct's type test too, when what it returns is written there;
            # a function's result, failed or not, is for `_rejects` to say)
            terms = [d for t in condition_terms(stmt.child_by_field_name("condition"))
                     for c in (condition_terms(t, "&&") if split else [t]) for d in (condition_terms(c, "||") if split else [c])
                     if flow._predicate(d, None).form == "type-check" or _failed_pattern(d, fn, module)]
            terms += [t for t in condition_terms(stmt.child_by_field_name("condition")) if outside_literals(t)]
        elif stmt.type == "switch_statement" and any(
                c.type == "switch_default" and _leaves(next((x for x in c.named_children if x.type != "comment"), None),
                                                       leaving, module, link)
                for c in (body.named_children if body is not None else [])):
            terms = [strip_casts(stmt.child_by_field_name("value"))]
        else:
            continue
        for term in terms:
            tested = _term_fields(term, fn, module, link, keys)
            if tested:  # `!ALLOWED.includes(value)`, `!isValidUUID(args.listId)`, `typeof x !== "string"`
                out |= tested
            elif term.type == "binary_expression" and text(term.child_by_field_name("operator")) == "&&":
                # `x !== undefined && typeof x !== "number"`: the type test of a conjunction rejects what it tests,
                # as does a failed predicate or membership test in it (`x && !isValidUUID(x)`)
                parts = [d for c in condition_terms(term, "&&") for d in condition_terms(c, "||")]  # (`x != null &&
                # (typeof x !== "number" || !Number.isFinite(x))`: each disjunct rejects what it tests)
                out |= {pr.field for pr in map(lambda t: flow._predicate(t, None), parts)
                        if pr.form == "type-check" and pr.field.isidentifier()}
                out |= {f for t in parts for f in _tested_by(t, fn, module, link)}
                out |= outside_literals(term)  # `x !== "a" && x !== "b"`: only those values go on
    return out


LITERALS = frozenset({"string", "number", "true", "false"})


def outside_literals(term: ts.Node) -> set[str]:
    """The field a term of a rejecting condition tests against literals, each part `x !== "a"`: `if (matchType !==
    "all" && matchType !== "any") throw ...` lets only those values on. `x !== undefined` is a test of presence: as a
    part beside those (`if (x !== undefined && x !== "asc" && x !== "desc") throw`), it lets an absent value by too."""
    subjects, present = set(), set()
    for part in condition_terms(term, "&&"):
        chain = against(part, {"!==", "!="}, LITERALS)
        if chain:
            subjects.add(chain)
            continue
        other = _compared_with_nullish(part)
        if other is None:
            return set()
        present.add(other)
    return {next(iter(subjects))[-1]} if len(subjects) == 1 and present <= subjects else set()


def _compared_with_nullish(part: ts.Node) -> tuple[str, ...] | None:
    """The member chain PART tests for presence (`x !== undefined`, `x != null`), or None."""
    if part.type != "binary_expression" or text(part.child_by_field_name("operator")) not in {"!==", "!="}:
        return None
    left, right = part.child_by_field_name("left"), part.child_by_field_name("right")
    subject = left if nullish(right) else right if nullish(left) else None
    return member_chain(strip_casts(subject)) or None if subject is not None else None


def against(term: ts.Node, operators, literals) -> tuple[str, ...] | None:
    """The member chain a comparison TERM (one of OPERATORS) sets against a literal of one of the LITERALS types, on
    either side (`input.weight < 0`, `0 > input.weight`), or None."""
    if term.type != "binary_expression" or text(term.child_by_field_name("operator")) not in operators:
        return None
    left, right = strip_casts(term.child_by_field_name("left")), strip_casts(term.child_by_field_name("right"))
    subject = left if right is not None and right.type in literals else right if left is not None \
        and left.type in literals else None
    return member_chain(subject) or None if subject is not None else None


def _pushes_onto(node: ts.Node | None, names: frozenset[str]) -> bool:
    """Whether a consequence records a failure in one of the lists NAMES: a statement of it is `list.push(...)`."""
    for stmt in _statements(node):
        call = strip_casts(stmt.named_children[0]) if stmt.type == "expression_statement" and stmt.named_children else None
        chain = member_chain(call.child_by_field_name("function")) if call is not None and call.type == "call_expression" \
            else None
        if chain and len(chain) == 2 and chain[1] == "push" and chain[0] in names:
            return True
    return False


def collecting_lists(fn: ts.Node, keys: frozenset[str]) -> frozenset[str]:
    """The locals FN declares as an empty array and returns as the result's member KEYS name (`return { errors,
    warnings }`, `return { errors: problems }`; the key "" for the result itself: `return errors`)."""
    empty = {text(d.child_by_field_name("name")) for d in find(fn, {"variable_declarator"})
             if enclosing_function(d) == fn and d.child_by_field_name("name") is not None
             and d.child_by_field_name("name").type == "identifier"
             and (v := strip_casts(d.child_by_field_name("value"))) is not None and v.type == "array" and not v.named_children}
    out: set[str] = set()
    for value in map(strip_casts, returned(fn)):
        if value is not None and value.type == "identifier" and "" in keys:
            out.add(text(value))
        for c in value.named_children if value is not None and value.type == "object" else ():
            if c.type == "shorthand_property_identifier" and text(c) in keys:
                out.add(text(c))
            elif c.type == "pair" and text(c.child_by_field_name("key")) in keys \
                    and (v := strip_casts(c.child_by_field_name("value"))) is not None and v.type == "identifier":
                out.add(text(v))
    return frozenset(out & empty)


def type_chain(stmt: ts.Node, module: Module | None = None, link=None) -> str | None:
    """The field an `if ... else if ... else` chain starting at STMT tests the type of in every condition, when its
    last `else` rejects (`if (typeof v === "string") {...} else if (typeof v === "number") {...} else { throw ... }`):
    only a value of a type it names goes on."""
    if stmt.parent is not None and stmt.parent.type == "else_clause":
        return None  # (read from the chain's first `if`)
    fields: set[str] = set()
    cur = stmt
    while cur is not None and cur.type == "if_statement":
        field = _type_tested(cur.child_by_field_name("condition"))
        if field is None:
            return None
        fields.add(field)
        alt = cur.child_by_field_name("alternative")
        last = next((c for c in alt.named_children if c.type != "comment"), None) if alt is not None else None
        if last is None:
            return None
        if last.type != "if_statement":
            return next(iter(fields)) if len(fields) == 1 and _rejects(last, module, link) else None
        cur = last
    return None


def _type_tested(cond: ts.Node | None) -> str | None:
    """The field a condition asks the type of, as a whole: `typeof x === "string"`, `Array.isArray(x)`."""
    cond = strip_casts(cond)
    field = _typeof_is(cond)
    if field is None and cond is not None and cond.type == "call_expression" and len(call_args(cond)) == 1 \
            and callee_text(cond) in flow.TYPE_PREDICATES:
        found = flow._field_of(strip_casts(call_args(cond)[0]))
        field = found if found and found.isidentifier() else None
    return field


def _returned_callbacks(fn: ts.Node) -> list[ts.Node]:
    """The functions FN hands to a call whose result it returns (`(ctx, args) => runTool(async () => { ... })`): their
    result is FN's, so what they reject, FN rejects."""
    out = []
    for value in returned(fn):
        value = strip_casts(value)
        if value is not None and value.type == "await_expression" and value.named_children:
            value = strip_casts(value.named_children[0])
        if value is not None and value.type == "call_expression":
            out += [a for a in (strip_casts(x) for x in call_args(value)) if a is not None and a.type in FUNCTION_TYPES]
    return out


def _term_fields(term: ts.Node, fn: ts.Node, module: Module | None, link, keys: frozenset[str] = frozenset()) -> set[str]:
    """What one term of a rejecting condition tests: the subject of a predicate or membership test, or the field of
    a comparison or type test (not a local holding a conversion of a value, nor a local of KEYS, the requested
    tool's name, that the term names bare)."""
    tested = _tested_by(term, fn, module, link)
    if not tested:
        field = flow._predicate(term, None).field
        tested = {field} if field and field.isidentifier() and not (module is not None and _coerced_local(term, module)) \
            else set()
    if tested & keys:
        bare = {text(n) for n in find(term, {"identifier"})}
        tested -= {k for k in keys & bare if not any(text(n) == k for n in find(term, {"property_identifier"}))}
    return tested


def _statements(node: ts.Node | None) -> list[ts.Node]:
    """The statements of a consequence: a block's (comments left out), or the one statement it is."""
    if node is None:
        return []
    return [c for c in node.named_children if c.type != "comment"] if node.type == "statement_block" else [node]


def _last_returned(node: ts.Node | None) -> ts.Node | None:
    """The value a consequence (a block or one statement) ends by returning; None when it ends otherwise."""
    stmts = _statements(node)
    ret = stmts[-1] if stmts and stmts[-1].type == "return_statement" else None
    return ret.named_children[0] if ret is not None and ret.named_children else None


def _returns_literal(node: ts.Node | None) -> bool:
    """Whether a consequence ends returning a value written there (an object, a string), not a call's result."""
    value = strip_casts(_last_returned(node))
    return value is not None and value.type in {"object", "string", "template_string"}


def _returns_falsy(node: ts.Node | None) -> bool:
    """Whether NODE (an `if`'s consequence) returns a false value written there: `return false`, `return null`, a bare
    `return;`."""
    stmts = _statements(node)
    if len(stmts) != 1 or stmts[0].type != "return_statement":
        return False
    value = strip_casts(stmts[0].named_children[0]) if stmts[0].named_children else None
    return value is None or text(value) in {"false", "null", "undefined", "0", '""', "''", "!1"}


def _returns_value(node: ts.Node | None) -> bool:
    """Whether a consequence returns a value that is not null or undefined (a message, an error object)."""
    value = _last_returned(node)
    return value is not None and not nullish(value) and value.type not in {"true", "false"}


_MEMBERSHIP = {"includes", "has", "indexOf", "get", "hasOwnProperty"}


def _member_subject(cond: ts.Node | None) -> ts.Node | None:
    """The value a membership test is of: `Object.hasOwn(T, x)` / `Object.prototype.hasOwnProperty.call(T, x)`: x;
    `T.has(x)`, `T.includes(x)`, `T.hasOwnProperty(x)`: x; `x in T`: x; `x === "a"`, or `x === "a" || x === "b"`
    (each of a disjunction comparing the same value with a literal): x; else None."""
    cond = strip_casts(cond)
    if cond is not None and cond.type == "binary_expression" and text(cond.child_by_field_name("operator")) == "in":
        return strip_casts(cond.child_by_field_name("left"))
    if cond is not None and cond.type == "binary_expression" and text(cond.child_by_field_name("operator")) in {
            "||", "===", "=="}:
        compared = [_compared_with_literal(strip_casts(t)) for t in condition_terms(cond, "||")]
        return compared[0] if compared[0] is not None and all(
            c is not None and text(c) == text(compared[0]) for c in compared) else None
    if cond is None or cond.type != "call_expression":
        return None
    chain = member_chain(cond.child_by_field_name("function")) or ()
    args = [strip_casts(a) for a in call_args(cond)]
    if chain in {("Object", "hasOwn"), ("Object", "prototype", "hasOwnProperty", "call")} and len(args) == 2:
        return args[1]
    return args[0] if len(chain) >= 2 and chain[-1] in {"includes", "has", "hasOwnProperty"} and len(args) == 1 else None


def _member_then_rejects(stmt: ts.Node, module: Module | None, link=None) -> bool:
    """`if (MEMBER(x)) { ... return ... }` with no `else`, the statement after it rejecting (or after more such
    statements testing the same value: `if (v === "a") return A; if (v === "b") return B; throw ...`): only a member
    goes on."""
    block = stmt.parent
    if block is None or block.type != "statement_block" or not _returns_if_member(stmt) \
            or any(a.type == "catch_clause" for a in ancestors(stmt)):  # (a catch's report of an error guards no use)
        return False
    subject = text(_member_subject(stmt.child_by_field_name("condition")))
    after = [c for c in block.named_children if c.start_byte > stmt.start_byte and c.type != "comment"]
    while after and after[0].type == "if_statement" and _returns_if_member(after[0]) \
            and text(_member_subject(after[0].child_by_field_name("condition"))) == subject:
        after = after[1:]
    return bool(after) and _rejects(after[0], module, link)


def _returns_if_member(stmt: ts.Node) -> bool:
    """Whether STMT is `if (MEMBER(x)) { ... return ... }` with no `else`."""
    consequence = stmt.child_by_field_name("consequence")
    return stmt.type == "if_statement" and stmt.child_by_field_name("alternative") is None \
        and _member_subject(stmt.child_by_field_name("condition")) is not None \
        and consequence is not None and bool(find(consequence, {"return_statement"}))


_CONVERSIONS = {"String", "Number", "Boolean", "parseInt", "parseFloat"}


def _coerced_local(term: ts.Node, module: Module) -> bool:
    """Whether TERM tests a local of FN that holds a conversion of a value (`const url = String(args.url || "")`, then
    `if (!url) throw`): what it rejects is the converted value, whatever type the input had; no check of the input."""
    subject = strip_casts(term)
    while subject is not None and subject.type == "unary_expression":
        subject = strip_casts(subject.child_by_field_name("argument"))
    if subject is None or subject.type != "identifier":
        return False
    init = strip_casts(value_of(module, subject))
    return init is not None and (init.type == "template_string" or init.type == "call_expression"
                                 and text(init.child_by_field_name("function")) in _CONVERSIONS)


_HANDED_DEPTH = 3  # how many calls down a parameter is followed to the function that rejects its bad values


def result_gates(call: ts.Node) -> bool:
    """Whether the caller leaves when CALL returns a value: `if (check(args)) return ...`, or its result held by a
    local an `if` after it leaves on (`const invalid = requireIds(args, keys); if (invalid) return bad(invalid)`)."""
    holder = call.parent.parent if call.parent is not None and call.parent.type == "await_expression" else call.parent
    while holder is not None and holder.type == "parenthesized_expression" and holder.parent is not None \
            and holder.parent.type != "if_statement":
        holder = holder.parent
    if holder is not None and holder.type == "parenthesized_expression" and holder.parent is not None \
            and holder.parent.type == "if_statement":
        stmt = holder.parent
        return _rejects(stmt.child_by_field_name("consequence")) \
            or _returns(stmt.child_by_field_name("consequence"))
    name = holder.child_by_field_name("name") if holder is not None and holder.type == "variable_declarator" else None
    fn = enclosing_function(call)
    if name is None or name.type != "identifier" or fn is None:
        return False
    for stmt in find(fn, {"if_statement"}):
        cond = stmt.child_by_field_name("condition")
        cond = strip_casts(cond.named_children[-1] if cond is not None and cond.named_children else cond)
        if stmt.start_byte > call.end_byte and cond is not None and cond.type == "identifier" \
                and text(cond) == text(name):
            return _rejects(stmt.child_by_field_name("consequence")) \
                or _returns(stmt.child_by_field_name("consequence"))
    return False


def nonempty_rejected(call: ts.Node) -> frozenset[str]:
    """The members of CALL's result (held by a local) that the caller rejects when they are not empty, as in `if
    (r.errors.length > 0) throw ...` or `if (r.errors.length) return ...` ("errors"), or `if (problems.length !== 0)`
    of the result itself (the key "")."""
    holder = call.parent.parent if call.parent is not None and call.parent.type == "await_expression" else call.parent
    name = holder.child_by_field_name("name") if holder is not None and holder.type == "variable_declarator" else None
    fn = enclosing_function(call)
    if name is None or name.type != "identifier" or fn is None:
        return frozenset()
    out: set[str] = set()
    for stmt in find(fn, {"if_statement"}):
        then = stmt.child_by_field_name("consequence")
        if stmt.start_byte < call.end_byte or not (_rejects(then) or _returns(then)):
            continue
        for term in condition_terms(stmt.child_by_field_name("condition"), "||"):
            term = strip_casts(term)
            if term is not None and term.type == "binary_expression":
                op, right = text(term.child_by_field_name("operator")), text(strip_casts(term.child_by_field_name("right")))
                if not (op in {">", "!==", "!="} and right == "0" or op == ">=" and right == "1"):
                    continue
                term = strip_casts(term.child_by_field_name("left"))
            if term is None or term.type != "member_expression" or text(term.child_by_field_name("property")) != "length":
                continue
            chain = member_chain(strip_casts(term.child_by_field_name("object")))
            if chain and chain[0] == text(name) and len(chain) <= 2:
                out.add(chain[1] if len(chain) == 2 else "")
    return frozenset(out)


def checked_parameters(module: Module, fn: ts.Node, link, depth: int = 0, errors: bool = False,
                       collects: frozenset[str] = frozenset()) -> set[str]:
    """The parameters of FN that it rejects the bad values of (`hand_checked`, a `default` that returns leaving
    too), or hands, as they are (not a value computed from them), to a function of the server's own code that does so
    for the parameter in that place, a few calls down (`getDatabase(id)` -> `getConnection(id)`, which throws unless
    `connections.get(resolve(id))` finds it). ERRORS, COLLECTS: the caller leaves when FN returns a value, or when a
    list of failures FN returns is not empty (hand_checked)."""
    key = ("checked_parameters", fn.id, depth, errors, collects)
    if key in link.memo:
        return set(link.memo[key])
    params = set(plain_parameters(fn))
    out = hand_checked(fn, leaving=True, module=module, link=link, errors=errors, collects=collects) \
        | string_required_parameters(fn, params, module=module, link=link)
    rest = rest_parameter(fn)
    if rest is not None:  # `function check(msg, ...values) { for (const v of values) if (typeof v !== "string")
        params.add(rest[0])  # throw ... }`: each value handed in its place is checked
    out |= _elements_checked(fn, params, out) | _members_checked(fn, params, out)
    if depth >= _HANDED_DEPTH or not params - out:
        link.memo[key] = frozenset(out & params if depth else out)
        return set(link.memo[key])
    out |= handed_checked(module, fn, link, depth, params, out)
    link.memo[key] = frozenset(out)
    return out


def handed_checked(module: Module, fn: ts.Node, link, depth: int = 0, params: set[str] | None = None,
                   out: set[str] = frozenset()) -> set[str]:
    """The parameters of FN (PARAMS; OUT: those known checked already), and at depth 0 the fields of one (`const {
    structure } = input`), it hands to a function of the server's own code that rejects the bad values of the
    parameter in that place (checked_parameters), or reports them (`const errors = check(structure); if
    (errors.length > 0) return ...`) where FN leaves on the report. A call FN goes on from whatever it does checks
    only on FN's straight path: in no branch but one taken whenever the value is there (`if (draft) check(html)`
    checks nothing where `html` is used when draft is not set; `if (html) check(html)` does), and after no return
    that hands the value on as it is."""
    params = set(plain_parameters(fn)) if params is None else params
    key = ("handed_checked", fn.id, depth, frozenset(params), frozenset(out))
    if key in link.memo:
        return set(link.memo[key])
    found_out: set[str] = set()
    for call in find(fn, {"call_expression"}):
        if enclosing_function(call) != fn:
            continue
        handed = {i: text(a) for i, a in enumerate(map(strip_casts, call_args(call)))
                  if a is not None and a.type == "identifier" and text(a) in params - out}  # the parameter itself
        if not depth:  # (of the function the input is handed to, a field of its parameter: `const { structure } =
            handed |= {i: f for i, a in enumerate(map(strip_casts, call_args(call)))  # input; check(structure)`)
                       if i not in handed and a is not None and (f := _handed_field(a, fn)) is not None and f not in out}
        failing = nonempty_rejected(call) if handed else frozenset()  # FN leaves on the failure the call reports
        # (`const errors = check(x); if (errors.length > 0) return ...`, `if (invalid) return ...`): what the callee
        # so reports is checked here
        gated = result_gates(call) if handed else False
        args = call_args(call)
        values = {text(strip_casts(args[i])) for i in handed}
        straight = not conditional(call, fn, lambda c: _present(c, values)) and not _returned_before(call, fn, values)
        # (a call in no branch but one taken when what it is handed is there: `if (opts.name) find(opts.name)`, and
        # after no return that hands the value on unchecked: `if (attached) return { path: file }; check(file)`)
        found = link.resolve(module, call) if handed and (failing or gated or straight) else None
        if found is None or any(a <= found[1].start_byte < b for a, b, _ in found[0].vendored):
            continue  # (a bundled library's function: what it rejects is the library's to say)
        theirs = {i: n for n, i in plain_parameters(found[1]).items()}
        checked = checked_parameters(found[0], found[1], link, depth + 1, errors=gated,
                                     collects=collecting_lists(found[1], failing) if failing else frozenset())
        found_out |= {n for i, n in handed.items() if theirs.get(i) in checked}
    link.memo[key] = frozenset(found_out)
    return found_out


def _returned_before(call: ts.Node, fn: ts.Node, values: set[str]) -> bool:
    """Whether FN returns, before CALL, a value holding one of VALUES (expression texts) as it is, not only in a text
    (`return { path: file }`, not `` return error(`bad ${file}`) ``): on that path the value goes on without what CALL
    does."""
    for ret in find(fn, {"return_statement"}):
        if ret.end_byte <= call.start_byte and enclosing_function(ret) == fn and ret.named_children \
                and any(text(n) in values and not any(a.type == "template_substitution" for a in ancestors(n))
                        for n in find(ret, {"identifier", "member_expression", "shorthand_property_identifier"})):
            return True
    return False


def _present(cond: ts.Node | None, values: set[str]) -> bool:
    """Whether COND holds exactly when one of VALUES (expression texts) is there: `x`, `x !== undefined`, `x != null`
    (a conjunction is not: `if (html && body)` leaves out a present `html`)."""
    cond = strip_casts(cond) if cond is not None else None
    while cond is not None and cond.type == "parenthesized_expression" and cond.named_children:
        cond = strip_casts(cond.named_children[0])
    if cond is None:
        return False
    if cond.type == "binary_expression" and text(cond.child_by_field_name("operator")) in {"!==", "!="}:
        left, right = cond.child_by_field_name("left"), cond.child_by_field_name("right")
        if text(right) in {"undefined", "null"}:
            return text(left) in values
        return text(left) in {"undefined", "null"} and text(right) in values
    return text(cond) in values


def _handed_field(arg: ts.Node, fn: ts.Node) -> str | None:
    """The field of a parameter of FN that ARG is, when it is one: `input.structure`, or a local destructured from or
    declared as it (`const { structure } = input`); None for a parameter itself or anything else."""
    if arg.type == "member_expression" and not _input_root(arg, fn):
        return None
    if arg.type not in {"member_expression", "identifier"} or text(arg) in plain_parameters(fn):
        return None
    fields = _subject_fields(arg, fn) - set(plain_parameters(fn))
    return next(iter(fields)) if len(fields) == 1 else None


_ITERATED = frozenset({("Object", "entries"), ("Object", "values")})


def _elements_checked(fn: ts.Node, params: set[str], checked: set[str]) -> set[str]:
    """The parameters of FN whose every element (or entry's value) a loop of FN checks: `for (const v of values)`,
    `for (const [k, v] of Object.entries(headers)) if (typeof v !== "string") return ...` with the loop's name among
    CHECKED: a collection whose elements are each rejected unless valid is checked."""
    out = set()
    for loop in find(fn, {"for_in_statement"}):
        right = strip_casts(loop.child_by_field_name("right"))
        if right is not None and right.type == "call_expression" and len(call_args(right)) == 1 \
                and tuple(member_chain(right.child_by_field_name("function")) or ()) in _ITERATED:
            right = strip_casts(call_args(right)[0])
        if right is None or right.type != "identifier" or text(right) not in params or enclosing_function(loop) != fn \
                or text(loop.child_by_field_name("operator") or loop) == "in":
            continue
        if set(loop_names(loop.child_by_field_name("left"))) & checked:
            out.add(text(right))
    return out


_OWN_PROPERTIES = frozenset({"length", "size"})  # (of the value itself, not a part of it: `if (ids.length === 0) throw`)


def _members_checked(fn: ts.Node, params: set[str], checked: set[str]) -> set[str]:
    """The parameters of FN a member of which it rejects the bad values of (`if (filters.keys !== undefined &&
    !Array.isArray(filters.keys)) throw ...`): a value whose parts are checked is checked, as one whose elements are."""
    out = set()
    for m in find(fn, {"member_expression"}):
        obj = strip_casts(m.child_by_field_name("object"))
        if obj is not None and obj.type == "identifier" and text(obj) in params and text(obj) not in out \
                and text(m.child_by_field_name("property")) in checked - params - _OWN_PROPERTIES \
                and enclosing_function(m) == fn:
            out.add(text(obj))
    return out


def only_type_guarded(fn: ts.Node, name: str) -> bool:
    """Whether every use of FN's parameter NAME is under a test of its type (`typeof value === "string" &&
    value.trim() ? value.trim() : fallback`): a value of another type is used nowhere."""
    body = fn.child_by_field_name("body")
    if body is None or not any(t.encode() in body.text for t in _TESTS):  # (no type test in it: the cheap answer)
        return False
    uses = [i for i in find(body, {"identifier", "shorthand_property_identifier"}) if text(i) == name]
    return bool(uses) and all(type_guarded(u, fn) for u in uses)


def rest_parameter(fn: ts.Node) -> tuple[str, int] | None:
    """(name, index) of FN's rest parameter (`...values`), or None."""
    return next(((n, i) for n, (i, path) in parameters(fn).items() if path == (REST,)), None)


def _parameter_named(node: ts.Node | None, fn: ts.Node, params: set[str]) -> str | None:
    """The parameter of FN that NODE is: its name, a value computed from that one parameter alone (`key(p)`), or a
    local of FN so computed (`const id = resolve(connectionId)`)."""
    node = strip_casts(node)
    if node is None:
        return None
    if node.type == "identifier" and text(node) not in params:
        node = _local_value(node, fn)
        if node is None:
            return None
    named = {text(n) for n in [node, *find(node, {"identifier"})] if n.type == "identifier"} & params
    return next(iter(named)) if len(named) == 1 else None


def _tested_by(term: ts.Node | None, fn: ts.Node, module: Module | None = None, link=None) -> set[str]:
    """The fields a negated test names: `!LIST.includes(v)` / `!SET.has(v)` (membership), `!isValid(x.f)` (a
    predicate called on it); a local of FN computed from one parameter stands for that parameter (`const value =
    String(rt).toLowerCase()`: rt)."""
    term = strip_casts(term)
    if term is None or term.type != "unary_expression" or text(term.child_by_field_name("operator")) != "!":
        return set()
    call = strip_casts(term.child_by_field_name("argument"))
    if call is not None and call.type == "subscript_expression" \
            and strip_casts(call.child_by_field_name("object")) is not None \
            and strip_casts(call.child_by_field_name("object")).type in {"identifier", "member_expression"}:
        # `if (!ALLOWED[service]) throw`: only a key of the table goes on (as `const c = ALLOWED[service]; if (!c)`)
        return _subject_fields(strip_casts(call.child_by_field_name("index")), fn)
    if call is not None and call.type == "identifier":  # `const c = connections.get(id); if (!c) throw`
        init = _local_value(call, fn)
        if init is not None and init.type == "await_expression" and init.named_children:
            init = strip_casts(init.named_children[0])
        compared = _compared_in_find(init)  # `const t = (await list()).find((x) => x.name === name); if (!t) throw`
        if compared is not None and not _used_before(compared, init, fn):
            return _subject_fields(compared, fn)
        inner = _under_members(init)  # (`const light = TOKENS[name]?.light; if (!light) throw`: the lookup's)
        if inner is not None and inner.type == "subscript_expression":  # `const c = ACCOUNTS[name]; if (!c) throw`
            return _subject_fields(strip_casts(inner.child_by_field_name("index")), fn)
        if init is not None and init.type == "binary_expression" and text(init.child_by_field_name("operator")) == "&&":
            # `const ok = typeof q === "string" && isMemberOf(Q, q); if (!ok) throw`: what the conjunction tests
            return {f for x in condition_terms(init, "&&") if (f := _typeof_is(x))}
        if _pattern_test(init, fn, module):  # `const ok = /^[0-9a-f-]{36}$/i.test(id); if (!ok) return ...`
            return _subject_fields(strip_casts(call_args(init)[0]), fn)
        lookup = init is not None and init.type == "call_expression" and \
            (member_chain(init.child_by_field_name("function")) or ("",))[-1] == "get"
        found = _callee(init, module, link) if not lookup and init is not None and init.type == "call_expression" \
            and link is not None and module is not None else None
        index = _finds_by(found) if found is not None else None  # `library.getNotebook(id)`: a find by the id
        if index is not None and index < len(call_args(init)):
            return _subject_fields(strip_casts(call_args(init)[index]), fn)
        call = init if lookup else None
    if call is not None and call.type == "await_expression" and call.named_children:  # `!(await exists(p))`
        call = strip_casts(call.named_children[0])
    if call is not None and call.type == "binary_expression" and text(call.child_by_field_name("operator")) == "in":
        return _subject_fields(_member_subject(call), fn)  # `!(action in HANDLERS)`: only a key goes on
    if call is None or call.type != "call_expression" or not call_args(call):
        return set()
    member = _member_subject(call)
    if member is not None and member_chain(call.child_by_field_name("function")) in {
            ("Object", "hasOwn"), ("Object", "prototype", "hasOwnProperty", "call")}:
        return _subject_fields(member, fn)  # `!Object.hasOwn(ACTIONS, action)`: action
    if _pattern_test(call, fn, module):  # `!UUID.test(args.id)`: only text of that form goes on
        return _subject_fields(strip_casts(call_args(call)[0]), fn)
    callee = call.child_by_field_name("function")
    method = text(callee.child_by_field_name("property")) if callee is not None and callee.type == "member_expression" \
        else ""
    if callee is not None and callee.type == "member_expression" and method not in _MEMBERSHIP:
        return set()  # (`x.startsWith(p)` is a test of x's text, not of its type or set)
    return _subject_fields(strip_casts(call_args(call)[0]), fn)


def _typeof_is(term: ts.Node | None) -> str | None:
    """The field `typeof x === "string"` (either side, `==` too) tests, or None."""
    term = strip_casts(term)
    if term is None or term.type != "binary_expression" or text(term.child_by_field_name("operator")) not in {"===", "=="}:
        return None
    for a, b in ((term.child_by_field_name("left"), term.child_by_field_name("right")),
                 (term.child_by_field_name("right"), term.child_by_field_name("left"))):
        if a.type == "unary_expression" and text(a.child_by_field_name("operator")) == "typeof" \
                and string_value(b) is not None:
            field = flow._field_of(a.child_by_field_name("argument"))
            return field if field and field.isidentifier() else None
    return None


def _subject_fields(subject: ts.Node | None, fn: ts.Node) -> set[str]:
    """The field a tested value is: a member's name (`args.id`), or the parameter of FN it is or is computed from."""
    if subject is not None and subject.type != "member_expression":  # the parameter, or a value computed from it
        named = _parameter_named(subject, fn, set(plain_parameters(fn)))
        if named is None and subject.type == "identifier":  # `const { path } = asRecord(raw, "x")`: field `path`
            taken = destructured(subject)
            init = strip_casts(taken[0]) if taken is not None and taken[1] else None
            whole = init if init is None or init.type != "call_expression" else \
                next((strip_casts(a) for a in call_args(init)[:1]), None)  # (of a helper handed the parameter)
            if whole is not None and whole.type == "binary_expression" \
                    and text(whole.child_by_field_name("operator")) in {"||", "??"}:
                whole = strip_casts(whole.child_by_field_name("left"))  # `const { id } = args || {}`
            member = whole is not None and whole.type == "member_expression" and _input_root(whole, fn) \
                and not _request(whole)
            if whole is not None and (whole.type == "identifier" or member) and isinstance(taken[1][0], str) \
                    and taken[1][0].isidentifier():
                return {taken[1][0]}  # (of a parameter, or of a local holding the input: `const { id } = args`, a
                # field by its name as `args.id` is; or of a parameter's member: `request.params.arguments`)
        if subject.type == "identifier":  # `const action = typed.action` of `const typed = args`, or `const wanted =
            value = _local_value(subject, fn)  # args.path` of the parameter `args`: the member's field (and, for
            if value is not None and value.type == "member_expression" and _input_root(value, fn):  # the latter, the
                return _subject_fields(value, fn) | ({named} if named is not None else set())  # parameter too)
        return {named} if named is not None else set()
    if _request(subject.child_by_field_name("object")):  # `request.params.name`: the request's tool name, no field
        return set()  # of the input (which is `request.params.arguments`)
    field = flow._field_of(subject)
    return {field} if field and field.isidentifier() else set()


def _request(node: ts.Node | None) -> bool:
    """Whether NODE is the params of a request (`request.params`): its members are the tool's name and the input, no
    field of the input itself."""
    chain = member_chain(strip_casts(node)) if node is not None else None
    return bool(chain) and len(chain) >= 2 and chain[-1] == "params"


def _failed_pattern(term: ts.Node | None, fn: ts.Node, module: Module | None) -> bool:
    """Whether TERM is a failed test against a regular expression: `!RE.test(v)`, or `!ok` of a local holding one
    (what the branch it guards leaves for is text of another form: it goes no further, as a type test's does)."""
    tested = _negated(term, fn)
    return tested is not None and _pattern_test(tested, fn, module)


def _negated(term: ts.Node | None, fn: ts.Node) -> ts.Node | None:
    """What a negated TERM tests (`!x`): x, or the value of the local x of FN holds; None for a term not negated."""
    term = strip_casts(term)
    if term is None or term.type != "unary_expression" or text(term.child_by_field_name("operator")) != "!":
        return None
    tested = strip_casts(term.child_by_field_name("argument"))
    return _local_value(tested, fn) if tested is not None and tested.type == "identifier" else tested


def _pattern_test(call: ts.Node | None, fn: ts.Node, module: Module | None) -> bool:
    """Whether CALL tests a value against a regular expression: `RE.test(value)`, RE a literal (`/^\\d+$/`), a
    `new RegExp(...)`, or a constant or local of FN holding one."""
    if call is None or call.type != "call_expression" or len(call_args(call)) != 1:
        return False
    callee = strip_casts(call.child_by_field_name("function"))
    if callee is None or callee.type != "member_expression" or text(callee.child_by_field_name("property")) != "test":
        return False
    pattern = strip_casts(callee.child_by_field_name("object"))
    if pattern is not None and pattern.type == "identifier":
        pattern = _local_value(pattern, fn) or (strip_casts(value_of(module, pattern)) if module is not None else None)
    return pattern is not None and (pattern.type == "regex" or pattern.type == "new_expression"
                                    and text(pattern.child_by_field_name("constructor")) == "RegExp")


def _local_value(name: ts.Node, fn: ts.Node) -> ts.Node | None:
    """The value a local of FN named NAME is declared with (`const x = value`), casts removed; None when none is. The
    declaration NAME sees where it is read (one of several `const session` of the cases of a dispatch), else the first
    of FN (NAME is no read: a name looked up by its text)."""
    decl = visible(name, text(name)) if name.type == "identifier" and name.parent is not None else None
    if decl is not None and (enclosing_function(decl) != fn or text(decl.child_by_field_name("name")) != text(name)):
        decl = None
    decl = decl or next((d for d in find(fn, {"variable_declarator"}) if enclosing_function(d) == fn
                         and text(d.child_by_field_name("name")) == text(name)), None)
    return strip_casts(decl.child_by_field_name("value")) if decl is not None else None


def _input_root(member: ts.Node, fn: ts.Node) -> bool:
    """Whether a member chain starts at a parameter of FN, or at a local that is one under another name (`const
    typed = args as Input`)."""
    root = (member_chain(member) or ("",))[0]
    params = set(plain_parameters(fn))
    if root in params:
        return True
    node = next((n for n in find(member, {"identifier"}) if text(n) == root), None)
    value = _local_value(node, fn) if node is not None else None
    return value is not None and value.type == "identifier" and text(value) in params


def _callee(call: ts.Node, module: Module, link) -> ts.Node | None:
    """The function CALL calls: as the linker resolves it, or a method of what a field of `this` holds
    (`this.library.getNotebook(id)`, the field set from a constructor's argument)."""
    hit = link.resolve(module, call)
    if hit is not None:
        return hit[1]
    fn, _ = Values(link).function_of(call.child_by_field_name("function"), module, None)
    return fn if fn is not None and fn.type in FUNCTION_TYPES else None


def _compared_in_find(init: ts.Node | None) -> ts.Node | None:
    """The value an element is found by in a local's initial value: `LIST.find((t) => t.name === name)`, also in a
    callback of the chain (`fetchAll().then((list) => list.find(...))`): `name`."""
    calls = find(init, {"call_expression"}) if init is not None else ()
    return next((v for v in map(_found_by, calls) if v is not None), None)


def _used_before(value: ts.Node, at: ts.Node, fn: ts.Node) -> bool:
    """Whether VALUE (a name, or a member: `args.v`) is read in FN's body before AT: a look-up after a use checks
    nothing for it (`readFile(`${dir}/${v}.txt`)`, then `const found = list.find((x) => x.v === v); if (!found)
    throw`)."""
    body = fn.child_by_field_name("body")
    return body is not None and any(text(n) == text(value) and n.start_byte < at.start_byte and not _presence_test(n)
                                    for n in find(body, {value.type}))


def _presence_test(node: ts.Node) -> bool:
    """Whether NODE is read only to test that it is there: the whole condition of an `if` or a ternary, or of a
    negation or conjunction that is one (`if (id) { const found = list.find(...); if (!found) throw }`), which
    hands the value on to nothing."""
    up = node
    while up.parent is not None and (up.parent.type == "parenthesized_expression"
                                     or up.parent.type == "unary_expression" and text(up.parent.child_by_field_name("operator")) == "!"
                                     or up.parent.type == "binary_expression"
                                     and text(up.parent.child_by_field_name("operator")) in {"&&", "||"}):
        up = up.parent
    holder = up.parent
    return holder is not None and holder.type in {"if_statement", "ternary_expression"} \
        and holder.child_by_field_name("condition") == up


def _found_by(call: ts.Node | None) -> ts.Node | None:
    """What `X.find((t) => t.KEY === value)` (either side, `==` too) compares its elements with: `value`; else None."""
    callee = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
    args = [strip_casts(a) for a in call_args(call)] if callee is not None else []
    if callee is None or callee.type != "member_expression" or text(callee.child_by_field_name("property")) != "find" \
            or len(args) != 1 or args[0] is None or args[0].type not in FUNCTION_TYPES:
        return None
    element = next(iter(plain_parameters(args[0])), None)
    body = strip_casts(next(iter(returned(args[0])), None))
    if element is None or body is None or body.type != "binary_expression" \
            or text(body.child_by_field_name("operator")) not in {"===", "=="}:
        return None
    sides = [strip_casts(body.child_by_field_name(k)) for k in ("left", "right")]
    for own, other in (sides, sides[::-1]):
        if (member_chain(own) or ("",))[0] == element and other is not None \
                and (member_chain(other) or ("",))[0] != element:
            return other
    return None


def _finds_by(fn: ts.Node) -> int | None:
    """The index of the parameter FN looks up and returns what it finds by (`return items.find((n) => n.id === id)
    || null`, `return this.sessions.get(id)`); None for any other function."""
    values = [strip_casts(v) for v in returned(fn)]
    params = plain_parameters(fn)
    found = values[0] if len(values) == 1 else None
    if found is not None and found.type == "binary_expression" and text(found.child_by_field_name("operator")) in \
            {"||", "??"} and text(found.child_by_field_name("right")) in {"null", "undefined"}:
        found = strip_casts(found.child_by_field_name("left"))
    call = found if found is not None and found.type == "call_expression" else None
    method = (member_chain(call.child_by_field_name("function")) or ("",))[-1] if call is not None else ""
    args = [strip_casts(a) for a in call_args(call)] if call is not None else []
    if method == "get" and len(args) == 1 and args[0] is not None and text(args[0]) in params:
        return params[text(args[0])]
    other = _found_by(call)
    return params[text(other)] if other is not None and text(other) in params else None


def _leaves(node: ts.Node | None, leaving: bool, module: Module | None = None, link=None) -> bool:
    return _rejects(node, module, link) or (leaving and node is not None and node.type == "return_statement")


def _returns(node: ts.Node | None) -> bool:
    """Whether a consequence leaves by a `return`, after straight-line code only."""
    stmts = [c for c in node.named_children if c.type != "comment"] if node is not None and \
        node.type == "statement_block" else [node] if node is not None else []
    return bool(stmts) and stmts[-1].type == "return_statement" \
        and not any(s.type in _LEAVING or find(s, _LEAVING) for s in stmts[:-1])


def rejected_unless(call: ts.Node) -> bool:
    """Whether CALL is the condition, negated, of an `if` that rejects: `if (!isValidArgs(args)) throw ...`."""
    cur, negated = call, False
    while cur.parent is not None and cur.parent.type in {"unary_expression", "parenthesized_expression"}:
        if cur.parent.type == "unary_expression":
            if text(cur.parent.child_by_field_name("operator")) != "!":
                return False
            negated = not negated
        cur = cur.parent
    stmt = cur.parent
    if stmt is None or stmt.type != "if_statement" or stmt.child_by_field_name("condition") != cur:
        return False
    if negated:
        return _rejects(stmt.child_by_field_name("consequence"))
    # `if (isSave(args)) { ...; return done } return { content: [...], isError: true }`: only a value it passes goes
    # into the branch, which leaves; the others leave at once by what comes after it (or its `else`)
    then = _statements(stmt.child_by_field_name("consequence"))
    if not then or then[-1].type not in {"return_statement", "throw_statement"}:
        return False
    alt = stmt.child_by_field_name("alternative")
    after = next((c for c in alt.named_children if c.type != "comment"), None) if alt is not None else \
        stmt.next_named_sibling
    while after is not None and after.type == "comment":
        after = after.next_named_sibling
    return after is not None and (_rejects(after) or _returns(after))


_TYPE_TESTS = {"Array.isArray", "Number.isInteger", "Number.isFinite", "Number.isSafeInteger"}


def tested(fn: ts.Node) -> set[str]:
    """The fields a predicate function's result tests the type of (`(a) => typeof a.query === "string" && (a.num ===
    undefined || typeof a.num === "number")`: query, num); none when it is not one returned expression."""
    values = returned(fn)
    return _passing_fields(values[0]) if len(values) == 1 else set()


def _passing_fields(body: ts.Node) -> set[str]:
    """The fields the type tests of a condition that holds for good values test (`typeof a.q === "string" && (a.n
    === undefined || Number.isFinite(a.n))`)."""
    out: set[str] = set()
    for term in condition_terms(body, "&&"):
        alts = [strip_casts(a) for a in condition_terms(term)]
        values = {_literal_equal(a) for a in alts}  # `a.d === undefined || a.d === "mobile" || a.d === "desktop"`:
        if len(values) == 1 and None not in values and len(alts) > 1:  # only those values pass (an enum)
            out |= values
        for alt in alts:
            if alt.type == "binary_expression" and text(alt.child_by_field_name("operator")) == "&&":
                out |= _passing_fields(alt)  # (`a.c === undefined || (Array.isArray(a.c) && ...)`)
                continue
            if alt.type == "binary_expression" and text(alt.child_by_field_name("operator")) in {"===", "=="}:
                for a, b in ((alt.child_by_field_name("left"), alt.child_by_field_name("right")),
                             (alt.child_by_field_name("right"), alt.child_by_field_name("left"))):
                    if a.type == "unary_expression" and text(a.child_by_field_name("operator")) == "typeof" \
                            and string_value(b) is not None:
                        out.add(flow._field_of(a.child_by_field_name("argument")) or "")
            elif alt.type == "call_expression" and ".".join(member_chain(alt.child_by_field_name("function")) or ()) \
                    in _TYPE_TESTS and call_args(alt):
                out.add(flow._field_of(call_args(alt)[0]) or "")
    return {f for f in out if f.isidentifier()}


def _compared_with_literal(node: ts.Node | None, undefined: bool = False) -> ts.Node | None:
    """The value `v === "lit"` (a string or number literal, either side; `true` or `false` compared strictly; with
    UNDEFINED, also `undefined` or `void 0`) compares with a literal, or None."""
    if node is None or node.type != "binary_expression" or text(node.child_by_field_name("operator")) not in {"===", "=="}:
        return None
    strict = text(node.child_by_field_name("operator")) == "==="

    def literal(n: ts.Node | None) -> bool:
        return n is not None and (n.type in {"string", "number"} or strict and n.type in {"true", "false"}
                                  or undefined and (n.type == "undefined" or text(n) == "void 0"))
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    for a, b in ((left, right), (right, left)):
        if a is not None and literal(b) and not literal(strip_casts(a)):
            return strip_casts(a)
    return None


def _literal_equal(node: ts.Node | None) -> str | None:
    """The field `x.f === "lit"` (a string, number or `undefined`, either side) compares with a literal, or None."""
    field = flow._field_of(_compared_with_literal(node, undefined=True))
    return field if field and field.isidentifier() else None


_LEAVING = {"return_statement", "break_statement", "continue_statement", "if_statement", "try_statement"}


def _rejects(node: ts.Node | None, module: Module | None = None, link=None) -> bool:
    """Whether a consequence rejects: it throws (first, or after straight-line code: `{ const known = ...; throw
    new Error(known) }`, or by calling a function of MODULE that always throws: `throwUnknownAction(action)`), or
    returns an error. With LINK, such a function imported from another module of the boundary too."""
    if node is None:
        return False
    stmts = [c for c in node.named_children if c.type != "comment"] if node.type == "statement_block" else [node]
    straight = bool(stmts) and not any(s.type in _LEAVING or find(s, _LEAVING) for s in stmts[:-1])
    if flow._throws(node) is not None or straight and stmts[-1].type == "throw_statement":
        return True
    if straight and module is not None and _always_throws(stmts[-1], module, link):
        return True
    if straight and len(stmts) > 1:  # `{ log(...); return { success: false, error: ... } }`
        return _rejects(stmts[-1], module, link)
    stmts = [c for c in node.named_children if c.type != "comment"] if node.type == "statement_block" else [node]
    ret = stmts[0] if stmts and stmts[0].type == "return_statement" else None
    value = strip_casts(ret.named_children[0]) if ret is not None and ret.named_children else None
    if value is None:
        return False
    if value.type == "call_expression" and link is not None and module is not None:
        # `return badRequest("...")`: a function of the boundary whose every return is a failed result
        hit = link.resolve(module, value)
        results = returned(hit[1]) if hit is not None and hit[1].child_by_field_name("body") is not None else []
        return bool(results) and all(_failed(strip_casts(r), literal=True) for r in results)
    return _failed(value)


def _failed(value: ts.Node | None, literal: bool = False) -> bool:
    """Whether a returned VALUE is an error or a result that says it failed (`{ isError: true, ... }`, `{ isValid:
    false, errors }`, `new Error(...)`). LITERAL: what a helper returns says so by a literal, not by a value it is
    handed (`return { content, isError }` of `createResponse(op, text, isError = false)` may be a success)."""
    if value is None:
        return False
    pairs = object_pairs(value) if value.type == "object" else {}
    if value.type == "new_expression" or not literal and bool({"isError", "error"} & set(pairs)):
        return True
    if literal and "isError" in pairs and pairs["isError"].type == "pair" \
            and text(pair_value(pairs["isError"])) in {"true", "!0"}:
        return True
    return any(k in pairs and pairs[k].type == "pair" and text(pair_value(pairs[k])) in {"false", "!1"}
               for k in _FAILURE_FLAGS)  # `return { isValid: false, errors }`: a result that says it failed


def _always_throws(stmt: ts.Node, module: Module, link=None) -> bool:
    """Whether STMT calls, as a statement, a function of MODULE declared at its top level (with LINK, or one it imports
    from another module of the boundary) whose own statements run straight to a `throw` (`function
    throwUnknownAction(a, valid) { const hint = ...; throw new E(...) }`)."""
    call = strip_casts(stmt.named_children[0]) if stmt.type == "expression_statement" and stmt.named_children else None
    callee = strip_casts(call.child_by_field_name("function")) if call is not None and call.type == "call_expression" else None
    fn = module.functions.get(text(callee)) if callee is not None and callee.type == "identifier" else None
    if fn is None and link is not None and callee is not None and callee.type == "identifier":
        where = link.binding(module, text(callee))  # (`import { throwUnknownAction } from "../helpers.js"`)
        fn = where[0].functions.get(where[1]) if where is not None and where[0] is not module else None
    body = fn.child_by_field_name("body") if fn is not None else None
    stmts = [c for c in body.named_children if c.type != "comment"] if body is not None else []
    return bool(stmts) and stmts[-1].type == "throw_statement" \
        and not any(s.type in _LEAVING or find(s, _LEAVING) for s in stmts[:-1])


# Members of a validator's result object that say whether the value passed (`{ isValid: false, errors }`).
_FAILURE_FLAGS = ("isValid", "valid", "ok", "success")


_TESTS = ("typeof ", "isArray(", "isInteger(", "isSafeInteger(", "isFinite(", "instanceof ")
_MEMBER_TESTS = (".includes(", ".has(")


def type_guarded(node: ts.Node, fn: ts.Node) -> bool:
    """`Array.isArray(args.x) ? args.x : []`, `if (typeof args.x === "string") f(args.x)`: the value used is tested;
    or the use follows an `if (typeof x ...) {...} else if (...) {...} else { throw ... }` chain, which every value
    that goes on has passed; or an `if` that leaves FN, by a return of anything or a throw, when a lookup or
    membership test of the value fails (`const agent = this.agents.get(id); if (!agent) return undefined;`): what
    goes on equals a key or member the code holds."""
    t = text(node).replace("?.", ".")  # (`Array.isArray(args?.x) ? args.x : []`: one value)
    cur = node.parent
    while cur is not None and cur != fn:
        if cur.type in {"ternary_expression", "if_statement"}:
            test = cur.child_by_field_name("condition")
            cond = text(test).replace("?.", ".")
            if any(f"{w}{t}" in cond for w in _TESTS) and _on_tested_side(node, cur, t, cond):
                return True
            then = cur.child_by_field_name("consequence")
            if then is not None and then.start_byte <= node.start_byte < then.end_byte and not cond.lstrip("( ").startswith("!") \
                    and (any(f"{w}{t})" in cond or f"{w}String({t}))" in cond for w in _MEMBER_TESTS)
                         or any(text(_member_subject(term)).replace("?.", ".") == t
                                for term in condition_terms(test, "&&"))):
                return True  # `MODES.includes(String(x)) ? x : "auto"`, `ALL.includes(p as Kind)`: only a member is
                # used
        if cur.parent is not None and cur.parent.type == "statement_block":
            before = cur.prev_named_sibling
            while before is not None:
                if before.type == "if_statement" and (_tests_or_leaves(before, t) or _lookup_leaves(before, t, fn)):
                    return True
                before = before.prev_named_sibling
        cur = cur.parent
    return False


def _lookup_leaves(stmt: ts.Node, t: str, fn: ts.Node) -> bool:
    """Whether the `if` STMT leaves FN (a return or a throw) when a lookup or membership test of the value T fails:
    T a field, or a local looked up by its own name (`const brand = args.brand || "a"; const light =
    TOKENS[brand]?.light; if (!light) return ...`)."""
    consequence = stmt.child_by_field_name("consequence")
    if not (_returns(consequence) or _rejects(consequence)) or not all(w.isidentifier() for w in t.split(".")):
        return False
    field = t.rsplit(".", 1)[-1]  # (`input.sessionId`: the field `_tested_by` names, or the key itself)
    return any(t.isidentifier() and field in _tested_by(term, fn) or _keyed_by(_lookup_key(term, fn), t, fn)
               for term in condition_terms(stmt.child_by_field_name("condition")))


def _keyed_by(key: ts.Node | None, t: str, fn: ts.Node, depth: int = 0) -> bool:
    """Whether the lookup key KEY is the value T, or a text made of T and literals alone (`${component}.json`,
    `cat + ".json"`, directly or through a local): a miss leaves, so what goes on makes a key the code holds."""
    key = strip_casts(key)
    if key is None or depth > 2:
        return False
    if text(key).replace("?.", ".") == t:
        return True
    if key.type == "identifier":
        return _keyed_by(_local_value(key, fn), t, fn, depth + 1)
    if key.type == "template_string":
        parts = [c for c in key.named_children if c.type == "template_substitution"]
        return bool(parts) and all(len(c.named_children) == 1 and text(c.named_children[0]).replace("?.", ".") == t
                                   for c in parts)
    if key.type == "binary_expression" and text(key.child_by_field_name("operator")) == "+":
        sides = [strip_casts(key.child_by_field_name(f)) for f in ("left", "right")]
        made = [x for x in sides if x is not None and x.type != "string"]
        return len(made) == 1 and all(_keyed_by(x, t, fn, depth + 1) for x in made)
    return False


def miss_leaves(decl: ts.Node, name: str, fn: ts.Node) -> bool:
    """Whether an `if` after the statement of DECL (the local NAME), in the same block, leaves FN when NAME is not
    truthy (`if (!schema) throw ...`)."""
    stmt = decl.parent
    while stmt is not None and stmt.parent is not None and stmt.parent.type != "statement_block" and stmt != fn:
        stmt = stmt.parent
    after = stmt.next_named_sibling if stmt is not None else None
    while after is not None:
        if after.type == "if_statement":
            consequence = after.child_by_field_name("consequence")
            terms = [strip_casts(t) for t in condition_terms(after.child_by_field_name("condition"))]
            if (_returns(consequence) or _rejects(consequence)) and any(
                    t is not None and t.type == "unary_expression" and text(t.child_by_field_name("operator")) == "!"
                    and text(strip_casts(t.child_by_field_name("argument"))) == name for t in terms):
                return True
        after = after.next_named_sibling
    return False


def _under_members(node: ts.Node | None) -> ts.Node | None:
    """NODE without the members read after it (`TOKENS[k]?.light.hex`: `TOKENS[k]`)."""
    node = strip_casts(node)
    while node is not None and node.type == "member_expression":
        node = strip_casts(node.child_by_field_name("object"))
    return node


def _lookup_key(term: ts.Node | None, fn: ts.Node) -> ts.Node | None:
    """The key a negated lookup tests (`!T[k]`, `!c` of `const c = T[k]?.x` or `const c = m.get(k)`)."""
    value = _negated(term, fn)
    if value is not None and value.type == "await_expression" and value.named_children:
        value = strip_casts(value.named_children[0])
    value = _under_members(value)
    if value is not None and value.type == "subscript_expression":
        return strip_casts(value.child_by_field_name("index"))
    if value is not None and value.type == "call_expression" and len(call_args(value)) == 1 \
            and (member_chain(value.child_by_field_name("function")) or ("",))[-1] == "get":
        return strip_casts(call_args(value)[0])
    return None


def _on_tested_side(node: ts.Node, branch: ts.Node, t: str, cond: str) -> bool:
    """Whether NODE, under a ternary or `if` BRANCH whose condition COND tests T's type, is in the test itself or on
    the side a value of the tested type takes (`Array.isArray(v) ? v.join() : v`: only the first `v`; negated,
    `typeof v !== "string" ? String(v) : v`, the last)."""
    test = branch.child_by_field_name("condition")
    if test is not None and test.start_byte <= node.start_byte < test.end_byte:
        return True
    negated = cond.lstrip("( ").startswith("!") or f"typeof{t}!=" in re.sub(r"\s+", "", cond)  # (a bundle's
    # `typeof t!="number"||!Number.isFinite(t)` too)
    side = branch.child_by_field_name("alternative" if negated else "consequence")
    return side is not None and side.start_byte <= node.start_byte < side.end_byte


def _tests_or_leaves(chain: ts.Node, t: str) -> bool:
    """Whether an if / else-if chain tests T's type in one of its conditions and ends in an else that throws or
    returns: code after it runs only for values one of the tested branches took."""
    tested, cur = False, chain
    while cur is not None and cur.type == "if_statement":
        tested = tested or any(f"{w}{t}" in text(cur.child_by_field_name("condition")).replace("?.", ".") for w in _TESTS)
        alt = cur.child_by_field_name("alternative")
        cur = alt.named_children[0] if alt is not None and alt.named_children else None
    if not tested or cur is None:
        return False
    body = [c for c in cur.named_children if c.type != "comment"] if cur.type == "statement_block" else [cur]
    return bool(body) and body[-1].type in {"throw_statement", "return_statement"}
