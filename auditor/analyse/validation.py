"""Checks of a tool's input anywhere on its path, from the tools/call handler through the dispatch to every function
the tool's code calls (validator vocabulary: kb/sdk.yaml `validators`), and the input fields that path reads."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate, takewhile

import tree_sitter as ts

from auditor.extract import copies, flow
from auditor.extract.bindings import value_of
from auditor.extract.facts import Program
from auditor.extract.frames import plain_parameters, returned
from auditor.extract.program import Module
from auditor.extract.syntax import (FUNCTION_TYPES, ancestors, call_args, condition_terms, enclosing_function, find, member_chain,
                                    object_pairs, parameter_pattern, string_value, strip_casts, text, within)
from auditor.extract.values import Values
from auditor.extract.zod import schema_of


@dataclass(frozen=True, kw_only=True, slots=True)
class Check:
    path: str
    node: ts.Node  # the validating call
    fields: frozenset[str] | None  # the fields it checks; None: the whole input (a schema that cannot be read)
    form: str  # schema | hand-written


@dataclass(frozen=True, kw_only=True, slots=True)
class Read:
    field: str
    path: str
    node: ts.Node  # the read, inside the arguments of a call


@dataclass(frozen=True, kw_only=True, slots=True)
class Place:
    module: Module
    fn: ts.Node
    skip: tuple[ts.Node, ...] = ()  # code of other tools inside this function (their dispatch branches)
    # SKIP's spans by start, and the furthest end among the first i of them: whether a node lies in one is a bisect,
    # not a scan of every branch (a dispatch of hundreds of tools in one function is read once per tool).
    starts: tuple[int, ...] = ()
    ends: tuple[int, ...] = ()


def _place(module: Module, fn: ts.Node, skip: tuple[ts.Node, ...] = ()) -> Place:
    spans = sorted((n.start_byte, n.end_byte) for n in skip)
    ends = list(accumulate((e for _, e in spans), max))
    return Place(module=module, fn=fn, skip=skip, starts=tuple(b for b, _ in spans), ends=tuple(ends))


def places(p: Program, tool) -> tuple[list[Place], list[Place]]:
    """(the functions that hold the dispatch and the tool's own implementation, every function on the path)."""
    if p.linker is None:
        return [], []
    link = p.linker
    own: list[Place] = []
    roots: list[tuple[Module, ts.Node]] = []
    for d in p.dispatches:
        if d.tool != tool.name:
            continue
        hosts = [] if d.form in {"registration", "table"} else [enclosing_function(d.node)]
        hosts += [d.handler.fn] if d.handler is not None and d.handler.fn is not None else []
        for host in dict.fromkeys(h for h in hosts if h is not None):
            where = link.module_of(host) or d.module
            others = tuple(_branch(o.node) for o in p.dispatches if o.tool != tool.name and o.form != "registration"
                           and o.module.path == where.path  # byte offsets compare within one file only
                           and host.start_byte <= o.node.start_byte < host.end_byte and not within(d.node, _branch(o.node)))
            own.append(_place(where, host, others))
        if d.target is not None:
            m = link.module_of(d.target) or d.module
            own.append(_place(m, d.target))
            roots.append((m, d.target))
        elif d.form != "registration":
            for call in find(_branch(d.node), {"call_expression"}):
                hit = link.resolve(d.module, call)
                if hit is not None:
                    roots.append((hit[0], hit[1]))
    seen = {pl.fn.id for pl in own}
    reach = [_place(m, fn) for m, fn in link.reachable(roots) if fn.id not in seen]
    return own, own + reach


def checks(p: Program, tool, path: list[Place], own: list[Place] = ()) -> list[Check]:
    """Checks of the tool's input on the path: a call of a schema validator of the vocabulary, a function of the
    boundary given the input that throws (or returns an error) on conditions over it, or such a guard in OWN code."""
    v = p.vocab["validators"]
    out = []
    for pl in path:
        names = _inputs(pl, v, p)
        if any(pl.fn == o.fn for o in own):  # the tool's own code: its guards check what they name, and a string's
            fields = _hand_checked(pl.fn, pl, frozenset(d.node.id for d in p.dispatches), module=pl.module,
                                   link=p.linker) \
                | _string_required(pl, names, v)  # method called on a field throws for any other value
            if fields:
                out.append(Check(path=pl.module.path, node=pl.fn, fields=frozenset(fields), form="hand-written"))
        for call in _calls(pl):
            hit = _schema_call(call, pl.module, names, p, v)
            if hit is not None:
                out.append(hit)
                continue
            if any(_is_input(a, names, v) for a in call_args(call)) and p.linker is not None:
                found = p.linker.resolve(pl.module, call)
                fields = _hand_checked(found[1], module=found[0], link=p.linker) if found is not None else None
                if not fields and found is not None and _rejected_unless(call):
                    fields = _tested(found[1])  # `if (!isValidArgs(args)) throw ...`: what the predicate tests
                if fields:
                    out.append(Check(path=pl.module.path, node=call, fields=frozenset(fields), form="hand-written"))
                continue
            passed = {i: f for i, a in enumerate(call_args(call)) if (f := _input_field(a, names, v))}
            if passed and p.linker is not None:  # `run(args.command)`, the callee rejecting what its parameter is not
                found = p.linker.resolve(pl.module, call)
                params = {i: n for n, i in plain_parameters(found[1]).items()} if found is not None else {}
                checked = _checked_parameters(found[0], found[1], p.linker) if params else set()
                fields = {f for i, f in passed.items() if params.get(i) in checked}
                if fields:
                    out.append(Check(path=pl.module.path, node=call, fields=frozenset(fields), form="hand-written"))
    return out


def reads(p: Program, own: list[Place]) -> list[Read]:
    """Fields of the input the dispatch and the tool's implementation pass to a call (`f(args.path)`, `{q: args.q}`)."""
    v = p.vocab["validators"]
    out = []
    for pl in own:
        names = _inputs(pl, v, p)
        bound = _bound_fields(pl, names, v)
        for node in find(pl.fn, {"member_expression", "identifier"}):
            if _skipped(node, pl) or not _in_arguments(node) or _type_guarded(node, pl.fn) or _ignored(p, pl.module, node) \
                    or _only_tested(node, pl.module) or _in_catch(node, pl.fn):
                continue
            if node.type == "member_expression" and _is_input(node.child_by_field_name("object"), names, v):
                out.append(Read(field=text(node.child_by_field_name("property")), path=pl.module.path, node=node))
            elif node.type == "identifier" and text(node) in bound:
                out.append(Read(field=text(node), path=pl.module.path, node=node))
    return out


def _bound_fields(pl: Place, names: frozenset[str], v: dict) -> set[str]:
    """The names PL's function destructures from the input (`const { path } = args`), not declared again."""
    bound: set[str] = set()
    declared: list[str] = []
    for d in find(pl.fn, {"variable_declarator"}):
        pat = d.child_by_field_name("name")
        declared += [text(pat)] if pat is not None and pat.type == "identifier" else []
        if pat is not None and pat.type == "object_pattern" and _is_input(d.child_by_field_name("value"), names, v) \
                and not _skipped(d, pl):
            bound |= {text(c) for c in pat.named_children if c.type == "shorthand_property_identifier_pattern"}
    return bound - set(declared)  # a name declared again in the function may be another value


# Methods only a string has: calling one on a value that is not a string throws before the value goes anywhere
# (arrays share slice, includes, indexOf, concat, at: those are no test of a string).
_STRING_ONLY = frozenset({"substring", "substr", "toLowerCase", "toUpperCase", "toLocaleLowerCase",
                          "toLocaleUpperCase", "trim", "trimStart", "trimEnd", "startsWith", "endsWith", "padStart",
                          "padEnd", "charAt", "charCodeAt", "codePointAt", "localeCompare", "normalize", "replace",
                          "replaceAll", "split", "match", "matchAll", "search", "repeat"})


def _string_required(pl: Place, names: frozenset[str], v: dict) -> set[str]:
    """Input fields the tool's own code calls a string's method on (`args.query.toLowerCase()`, `name.trim()` of a
    destructured name), not through `?.` and not inside a `try` that would catch the failure: a value that is not a
    string throws there, and goes no further."""
    bound = _bound_fields(pl, names, v)
    out: set[str] = set()
    for call in find(pl.fn, {"call_expression"}):
        fn = call.child_by_field_name("function")
        if fn is None or fn.type != "member_expression" or text(fn.child_by_field_name("property")) not in _STRING_ONLY \
                or any(c.type == "optional_chain" for c in fn.children) or _skipped(call, pl):
            continue
        obj = strip_casts(fn.child_by_field_name("object"))
        field = text(obj.child_by_field_name("property")) if obj is not None and obj.type == "member_expression" \
            and _is_input(obj.child_by_field_name("object"), names, v) else \
            text(obj) if obj is not None and obj.type == "identifier" and text(obj) in bound else None
        if field and not _type_guarded(obj, pl.fn) and not any(
                a.type == "try_statement" for a in takewhile(lambda a: a != pl.fn, ancestors(call))):
            out.add(field)  # (a call only made for strings, `typeof x === "string" ? x.trim() : ...`, tests nothing)
    return out


def _string_required_parameters(fn: ts.Node, params: set[str]) -> set[str]:
    """The parameters FN calls a string's method on, as `_string_required` reads the tool's own code."""
    out: set[str] = set()
    for call in find(fn, {"call_expression"}):
        callee = call.child_by_field_name("function")
        if callee is None or callee.type != "member_expression" or enclosing_function(call) != fn \
                or text(callee.child_by_field_name("property")) not in _STRING_ONLY \
                or any(c.type == "optional_chain" for c in callee.children):
            continue
        obj = strip_casts(callee.child_by_field_name("object"))
        if obj is not None and obj.type == "identifier" and text(obj) in params and not _type_guarded(obj, fn) \
                and not any(a.type == "try_statement" for a in takewhile(lambda a: a != fn, ancestors(call))):
            out.add(text(obj))
    return out


def _branch(node: ts.Node) -> ts.Node:
    """The code a dispatch runs: the consequence of `if (name === x)` (not its `else if` chain), else the node."""
    return (node.child_by_field_name("consequence") or node) if node.type == "if_statement" else node


def _skipped(node: ts.Node, pl: Place) -> bool:
    """Whether NODE lies within one of PL's skipped branches."""
    i = bisect_right(pl.starts, node.start_byte)
    return i > 0 and pl.ends[i - 1] >= node.end_byte


def _calls(pl: Place):
    for call in find(pl.fn, {"call_expression"}):
        if not _skipped(call, pl):
            yield call


def _inputs(pl: Place, v: dict, p: Program) -> frozenset[str]:
    """Names that hold the input in PL's function: its parameters, and locals bound to one, to
    `request.params.arguments`, or to a copy of one (a call of a function that returns a copy of its argument:
    extract/copies.py). Read once per function (module.memo): the function that dispatches hundreds of tools
    is on every one's path."""
    memo = pl.module.memo.setdefault("inputs", {})
    hit = memo.get(pl.fn.id)
    if hit is not None and hit[0] == pl.fn:
        return hit[1]
    names = frozenset(_read_inputs(pl.fn, v, lambda call: _copying(p, pl.module, call)))
    memo[pl.fn.id] = (pl.fn, names)
    return names


def _copying(p: Program, m: Module, call: ts.Node) -> bool:
    """Whether CALL is of a function of the boundary that returns a copy of its argument (memo per function)."""
    hit = p.linker.resolve(m, call) if p.linker is not None else None
    if hit is None:
        return False
    memo = hit[0].memo.setdefault("copies", {})
    if hit[1].id not in memo:
        memo[hit[1].id] = copies.returns_copy(hit[1])
    return memo[hit[1].id]


def _read_inputs(fn: ts.Node, v: dict, copying=lambda call: False) -> set[str]:
    names: set[str] = set()
    params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
    for prm in ([params] if params is not None and params.type == "identifier" else params.named_children if params else []):
        ident = prm if prm.type == "identifier" else prm.child_by_field_name("pattern")
        if ident is not None and ident.type == "identifier":
            names.add(text(ident))
    for _ in range(2):  # a local bound to a local bound to the input
        for d in find(fn, {"variable_declarator"}):
            pat, value = d.child_by_field_name("name"), d.child_by_field_name("value")
            if pat is None:
                continue
            if pat.type == "identifier" and (_is_input(value, names, v) or _copy_of_input(value, names, v, copying)):
                names.add(text(pat))
            elif pat.type == "object_pattern":  # `const { name, arguments: args } = request.params`
                for c in pat.named_children:
                    key = c.child_by_field_name("key")
                    val = c.child_by_field_name("value")
                    val = val.child_by_field_name("left") if val is not None and val.type == "assignment_pattern" else val
                    if c.type == "pair_pattern" and text(key) in v["input_members"] and val is not None and val.type == "identifier":
                        names.add(text(val))
                    elif c.type == "shorthand_property_identifier_pattern" and text(c) in v["input_members"]:
                        names.add(text(c))
    return names


def _copy_of_input(node: ts.Node | None, names: set[str], v: dict, copying) -> bool:
    """`normalize(args)`, `await normalize(args)`: a call given the input, of a function that returns a copy of it."""
    node = strip_casts(node)
    node = strip_casts(node.named_children[0]) if node is not None and node.type == "await_expression" else node
    return node is not None and node.type == "call_expression" and len(call_args(node)) >= 1 \
        and _is_input(call_args(node)[0], names, v) and copying(node)


def _is_input(node: ts.Node | None, names: set[str], v: dict) -> bool:
    node = strip_casts(node)
    while node is not None and (node.type == "await_expression" or node.type == "binary_expression"
                                and text(node.child_by_field_name("operator")) in {"??", "||"}):
        node = strip_casts(node.named_children[0] if node.type == "await_expression" else node.child_by_field_name("left"))
    if node is None:
        return False
    if node.type == "identifier":
        return text(node) in names
    if node.type == "ternary_expression":  # `wrapped ? args.params : args`: the input either way (unwrapped or not)
        return any(_is_input(node.child_by_field_name(b), names, v) or _input_member(node.child_by_field_name(b), names, v)
                   for b in ("consequence", "alternative"))
    chain = member_chain(node) if node.type == "member_expression" else None
    return bool(chain) and len(chain) > 1 and chain[-1] in v["input_members"]


def _input_member(node: ts.Node | None, names: set[str], v: dict) -> bool:
    node = strip_casts(node)
    return node is not None and node.type == "member_expression" and _is_input(node.child_by_field_name("object"), names, v)


def _schema_call(call: ts.Node, m: Module, names: set[str], p: Program, v: dict) -> Check | None:
    fn = strip_casts(call.child_by_field_name("function"))
    args = call_args(call)
    schema: ts.Node | None = None
    matched = False
    method = text(fn.child_by_field_name("property")) if fn is not None and fn.type == "member_expression" else text(fn)
    if len(args) == 2 and method in v["schema_and_input"] and any(_is_input(a, names, v) for a in args):
        matched, schema = True, args[1] if _is_input(args[0], names, v) else args[0]  # `v.parse(S, x)`, `assert(x, S)`
    elif args and _is_input(args[0], names, v):
        compiled = _compiled(fn, m, v)
        if compiled is not None:  # `validate(x)` of `const validate = ajv.compile(S)`, `compile(S)(x)`
            matched, schema = True, (call_args(compiled) or [None])[0]
        elif fn is not None and fn.type == "member_expression" and method in v["schema_methods"]:
            receiver = strip_casts(fn.child_by_field_name("object"))
            chain = member_chain(receiver) or ()
            if not chain or chain[0] not in v["not_schemas"]:
                compiled = _compiled(receiver, m, v)  # `TypeCompiler.Compile(T).Check(x)`
                matched, schema = True, (call_args(compiled) or [None])[0] if compiled is not None else receiver
    if not matched:
        return None
    spec = schema_of(schema, m, p.vocab, p.linker) if schema is not None else None
    props = spec.get("properties") if isinstance(spec, dict) else None
    fields = frozenset(props) if isinstance(props, dict) else None
    return Check(path=m.path, node=call, fields=fields, form="schema")


def _compiled(node: ts.Node | None, m: Module, v: dict) -> ts.Node | None:
    """The `compile(S)` call NODE is, or the one a local named NODE is bound to."""
    node = strip_casts(node)
    if node is not None and node.type == "identifier":
        node = strip_casts(value_of(m, node))
    if node is None or node.type != "call_expression":
        return None
    callee = member_chain(node.child_by_field_name("function")) or ()
    return node if callee and callee[-1] in v["compilers"] else None


def _input_field(node: ts.Node | None, names: frozenset[str], v: dict) -> str | None:
    """The input field an argument is (`args.command`, `args?.command as string || "status"`), or None."""
    node = strip_casts(node)
    while node is not None and node.type == "binary_expression" and text(node.child_by_field_name("operator")) in {"||", "??"}:
        node = strip_casts(node.child_by_field_name("left"))
    if node is None or node.type != "member_expression" or not _is_input(node.child_by_field_name("object"), names, v):
        return None
    return text(node.child_by_field_name("property"))


def _hand_checked(fn: ts.Node, pl: Place | None = None, dispatch: frozenset[int] = frozenset(),
                  leaving: bool = False, module: Module | None = None, link=None) -> set[str]:
    """Fields a function rejects bad values of: the fields named in the condition of `if (cond) throw ...` or
    `if (cond) return <an error>`, and the subject of a `switch` whose `default` throws or returns an error (not the
    tool-name dispatch, ids in DISPATCH: its fallback rejects unknown tools, not input). LEAVING: a `default` that
    returns anything leaves too (`switch (command) { ...; default: return failure(...) }` runs no case's code).
    MODULE (FN's): a test of a local holding a conversion of a value checks nothing (`_coerced_local`)."""
    out: set[str] = set()
    for stmt in find(fn, {"if_statement", "switch_statement"}):
        if enclosing_function(stmt) != fn or (pl is not None and _skipped(stmt, pl)) or stmt.id in dispatch:
            continue
        body = stmt.child_by_field_name("body")
        if body is not None and any(c.id in dispatch for c in body.named_children):
            continue
        if stmt.type == "if_statement" and _rejects(stmt.child_by_field_name("consequence")):
            terms = condition_terms(stmt.child_by_field_name("condition"))
        elif stmt.type == "switch_statement" and any(
                c.type == "switch_default" and _leaves(next((x for x in c.named_children if x.type != "comment"), None),
                                                       leaving)
                for c in (body.named_children if body is not None else [])):
            terms = [strip_casts(stmt.child_by_field_name("value"))]
        else:
            continue
        for term in terms:
            tested = _tested_by(term, fn, module, link)
            if tested:  # `!ALLOWED.includes(value)`, `!isValidUUID(args.listId)`: what the test is of
                out |= tested
                continue
            field = flow._predicate(term, None).field
            if field and field.isidentifier() and not (module is not None and _coerced_local(term, module)):
                out.add(field)
            elif term.type == "binary_expression" and text(term.child_by_field_name("operator")) == "&&":
                # `x !== undefined && typeof x !== "number"`: the type test of a conjunction rejects what it tests,
                # as does a failed predicate or membership test in it (`x && !isValidUUID(x)`)
                parts = condition_terms(term, "&&")
                out |= {pr.field for pr in map(lambda t: flow._predicate(t, None), parts)
                        if pr.form == "type-check" and pr.field.isidentifier()}
                out |= {f for t in parts for f in _tested_by(t, fn, module, link)}
    return out


_MEMBERSHIP = {"includes", "has", "indexOf", "get"}
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


def _checked_parameters(module: Module, fn: ts.Node, link, depth: int = 0) -> set[str]:
    """The parameters of FN that it rejects the bad values of (`_hand_checked`, a `default` that returns leaving
    too), or hands, as they are (not a value computed from them), to a function of the server's own code that does so
    for the parameter in that place, a few calls down (`getDatabase(id)` -> `getConnection(id)`, which throws unless
    `connections.get(resolve(id))` finds it)."""
    key = ("checked_parameters", fn.id, depth)
    if key in link.memo:
        return set(link.memo[key])
    params = set(plain_parameters(fn))
    out = _hand_checked(fn, leaving=True, module=module, link=link) | _string_required_parameters(fn, params)
    if depth >= _HANDED_DEPTH or not params - out:
        link.memo[key] = frozenset(out & params if depth else out)
        return set(link.memo[key])
    for call in find(fn, {"call_expression"}):
        if enclosing_function(call) != fn:
            continue
        handed = {i: text(a) for i, a in enumerate(map(strip_casts, call_args(call)))
                  if a is not None and a.type == "identifier" and text(a) in params - out}  # the parameter itself
        found = link.resolve(module, call) if handed else None
        if found is None or any(a <= found[1].start_byte < b for a, b, _ in found[0].vendored):
            continue  # (a bundled library's function: what it rejects is the library's to say)
        theirs = {i: n for n, i in plain_parameters(found[1]).items()}
        checked = _checked_parameters(found[0], found[1], link, depth + 1)
        out |= {n for i, n in handed.items() if theirs.get(i) in checked}
    link.memo[key] = frozenset(out)
    return out


def _parameter_named(node: ts.Node | None, fn: ts.Node, params: set[str]) -> str | None:
    """The parameter of FN that NODE is: its name, a value computed from that one parameter alone (`key(p)`), or a
    local of FN so computed (`const id = resolve(connectionId)`)."""
    node = strip_casts(node)
    if node is None:
        return None
    if node.type == "identifier" and text(node) not in params:
        decl = next((d for d in find(fn, {"variable_declarator"}) if enclosing_function(d) == fn
                     and text(d.child_by_field_name("name")) == text(node)), None)
        node = decl.child_by_field_name("value") if decl is not None else None
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
    if call is not None and call.type == "identifier":  # `const c = connections.get(id); if (!c) throw`
        decl = next((d for d in find(fn, {"variable_declarator"}) if enclosing_function(d) == fn
                     and text(d.child_by_field_name("name")) == text(call)), None)
        init = strip_casts(decl.child_by_field_name("value")) if decl is not None else None
        if init is not None and init.type == "await_expression" and init.named_children:
            init = strip_casts(init.named_children[0])
        lookup = init is not None and init.type == "call_expression" and \
            (member_chain(init.child_by_field_name("function")) or ("",))[-1] == "get"
        found = _callee(init, module, link) if not lookup and init is not None and init.type == "call_expression" \
            and link is not None and module is not None else None
        index = _finds_by(found) if found is not None else None  # `library.getNotebook(id)`: a find by the id
        if index is not None and index < len(call_args(init)):
            return _subject_fields(strip_casts(call_args(init)[index]), fn)
        call = init if lookup else None
    if call is None or call.type != "call_expression" or not call_args(call):
        return set()
    callee = call.child_by_field_name("function")
    method = text(callee.child_by_field_name("property")) if callee is not None and callee.type == "member_expression" \
        else ""
    if callee is not None and callee.type == "member_expression" and method not in _MEMBERSHIP:
        return set()  # (`x.startsWith(p)` is a test of x's text, not of its type or set)
    return _subject_fields(strip_casts(call_args(call)[0]), fn)


def _subject_fields(subject: ts.Node | None, fn: ts.Node) -> set[str]:
    """The field a tested value is: a member's name (`args.id`), or the parameter of FN it is or is computed from."""
    if subject is not None and subject.type != "member_expression":  # the parameter, or a value computed from it
        named = _parameter_named(subject, fn, set(plain_parameters(fn)))
        return {named} if named is not None else set()
    field = flow._field_of(subject)
    return {field} if field and field.isidentifier() else set()


def _callee(call: ts.Node, module: Module, link) -> ts.Node | None:
    """The function CALL calls: as the linker resolves it, or a method of what a field of `this` holds
    (`this.library.getNotebook(id)`, the field set from a constructor's argument)."""
    hit = link.resolve(module, call)
    if hit is not None:
        return hit[1]
    fn, _ = Values(link).function_of(call.child_by_field_name("function"), module, None)
    return fn if fn is not None and fn.type in FUNCTION_TYPES else None


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
    if method != "find" or len(args) != 1 or args[0] is None or args[0].type not in FUNCTION_TYPES:
        return None
    element = next(iter(plain_parameters(args[0])), None)
    body = strip_casts(next(iter(returned(args[0])), None))
    if element is None or body is None or body.type != "binary_expression" \
            or text(body.child_by_field_name("operator")) not in {"===", "=="}:
        return None
    sides = [strip_casts(body.child_by_field_name(k)) for k in ("left", "right")]
    for own, other in (sides, sides[::-1]):
        if (member_chain(own) or ("",))[0] == element and other is not None and text(other) in params:
            return params[text(other)]
    return None


def _leaves(node: ts.Node | None, leaving: bool) -> bool:
    return _rejects(node) or (leaving and node is not None and node.type == "return_statement")


def _rejected_unless(call: ts.Node) -> bool:
    """Whether CALL is the condition, negated, of an `if` that rejects: `if (!isValidArgs(args)) throw ...`."""
    cur, negated = call, False
    while cur.parent is not None and cur.parent.type in {"unary_expression", "parenthesized_expression"}:
        if cur.parent.type == "unary_expression":
            if text(cur.parent.child_by_field_name("operator")) != "!":
                return False
            negated = not negated
        cur = cur.parent
    stmt = cur.parent
    return negated and stmt is not None and stmt.type == "if_statement" \
        and stmt.child_by_field_name("condition") == cur and _rejects(stmt.child_by_field_name("consequence"))


_TYPE_TESTS = {"Array.isArray", "Number.isInteger", "Number.isFinite", "Number.isSafeInteger"}


def _tested(fn: ts.Node) -> set[str]:
    """The fields a predicate function's result tests the type of (`(a) => typeof a.query === "string" && (a.num ===
    undefined || typeof a.num === "number")`: query, num); none when it is not one returned expression."""
    values = returned(fn)
    body = values[0] if len(values) == 1 else None
    out: set[str] = set()
    for term in condition_terms(body, "&&") if body is not None else ():
        for alt in condition_terms(term):
            alt = strip_casts(alt)
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


_LEAVING = {"return_statement", "break_statement", "continue_statement", "if_statement", "try_statement"}


def _rejects(node: ts.Node | None) -> bool:
    """Whether a consequence rejects: it throws (first, or after straight-line code: `{ const known = ...; throw
    new Error(known) }`), or returns an error."""
    if node is None:
        return False
    stmts = [c for c in node.named_children if c.type != "comment"] if node.type == "statement_block" else [node]
    straight = bool(stmts) and not any(s.type in _LEAVING or find(s, _LEAVING) for s in stmts[:-1])
    if flow._throws(node) is not None or straight and stmts[-1].type == "throw_statement":
        return True
    if straight and len(stmts) > 1:  # `{ log(...); return { success: false, error: ... } }`
        return _rejects(stmts[-1])
    stmts = [c for c in node.named_children if c.type != "comment"] if node.type == "statement_block" else [node]
    ret = stmts[0] if stmts and stmts[0].type == "return_statement" else None
    value = strip_casts(ret.named_children[0]) if ret is not None and ret.named_children else None
    if value is None:
        return False
    return value.type == "new_expression" or (value.type == "object" and bool({"isError", "error"} & set(object_pairs(value))))


_TESTS = ("typeof ", "isArray(", "isInteger(", "isFinite(", "instanceof ")


def _type_guarded(node: ts.Node, fn: ts.Node) -> bool:
    """`Array.isArray(args.x) ? args.x : []`, `if (typeof args.x === "string") f(args.x)`: the value used is tested;
    or the use follows an `if (typeof x ...) {...} else if (...) {...} else { throw ... }` chain, which every value
    that goes on has passed."""
    t = text(node)
    cur = node.parent
    while cur is not None and cur != fn:
        if cur.type in {"ternary_expression", "if_statement"}:
            cond = text(cur.child_by_field_name("condition"))
            if any(f"{w}{t}" in cond for w in _TESTS):
                return True
        if cur.parent is not None and cur.parent.type == "statement_block":
            before = cur.prev_named_sibling
            while before is not None:
                if before.type == "if_statement" and _tests_or_leaves(before, t):
                    return True
                before = before.prev_named_sibling
        cur = cur.parent
    return False


def _tests_or_leaves(chain: ts.Node, t: str) -> bool:
    """Whether an if / else-if chain tests T's type in one of its conditions and ends in an else that throws or
    returns: code after it runs only for values one of the tested branches took."""
    tested, cur = False, chain
    while cur is not None and cur.type == "if_statement":
        tested = tested or any(f"{w}{t}" in text(cur.child_by_field_name("condition")) for w in _TESTS)
        alt = cur.child_by_field_name("alternative")
        cur = alt.named_children[0] if alt is not None and alt.named_children else None
    if not tested or cur is None:
        return False
    body = [c for c in cur.named_children if c.type != "comment"] if cur.type == "statement_block" else [cur]
    return bool(body) and body[-1].type in {"throw_statement", "return_statement"}


def _ignored(p: Program, module: Module, node: ts.Node) -> bool:
    """Whether NODE is passed, as a whole argument, to a function of the boundary that never reads the parameter it
    binds (`handleGeo(address, city)` where handleGeo names `city` and never uses it): no use of the value."""
    args = node.parent
    call = args.parent if args is not None and args.type == "arguments" else None
    hit = p.linker.resolve(module, call) if call is not None and p.linker is not None else None
    fn = hit[1] if hit is not None else None
    params = (fn.child_by_field_name("parameters") if fn is not None else None)
    if params is None or fn.child_by_field_name("body") is None:
        return False
    passed = [c for c in args.named_children if c.type != "comment"]
    declared = [c for c in params.named_children if c.type != "comment"]
    index = next((i for i, c in enumerate(passed) if c.id == node.id), None)
    if index is None or index >= len(declared):
        return False
    pattern = parameter_pattern(declared[index])
    if pattern is None or pattern.type != "identifier":
        return False
    name = text(pattern)
    body = fn.child_by_field_name("body")
    return not any(text(n) == name for n in find(body, {"identifier", "shorthand_property_identifier"})) \
        and "arguments" not in {text(n) for n in find(body, {"identifier"})}


_COMPARISONS = {"===", "!==", "==", "!=", "<", ">", "<=", ">=", "in", "instanceof"}


def _in_catch(node: ts.Node, fn: ts.Node) -> bool:
    """Whether NODE, in a `catch` block of FN, goes only into the failure's report: an argument of a call handed the
    caught error (`handleError(error, args.kind)`), of a new error or a thrown value, or of a console call. Code a
    catch block runs with the value otherwise (a fallback) uses it."""
    clause = next((a for a in takewhile(lambda a: a != fn, ancestors(node)) if a.type == "catch_clause"), None)
    if clause is None:
        return False
    param = clause.child_by_field_name("parameter")
    caught = text(param) if param is not None and param.type == "identifier" else None
    for a in takewhile(lambda a: a != clause, ancestors(node)):
        if a.type == "throw_statement" or a.type == "new_expression":
            return True
        if a.type == "call_expression":
            callee = member_chain(a.child_by_field_name("function")) or ()
            if callee[:1] == ("console",) or caught is not None and any(
                    (member_chain(strip_casts(x)) or ("",))[0] == caught for x in call_args(a)):
                return True
            return False  # the innermost call that receives it: a use
    return False


def _only_tested(node: ts.Node, module: Module) -> bool:
    """Whether the value of NODE is only tested on its way to the call: an operand of a comparison, the condition of
    a ternary, negated or asked its type (`f(args.mode === "half" ? "half" : "whole")` passes no part of it), or the
    key of a lookup in a constant table (`f(IDS[args.kind])` passes the table's value, not the key)."""
    cur = node
    while cur.parent is not None and cur.parent.type != "arguments":
        parent = cur.parent
        if parent.type == "binary_expression" and text(parent.child_by_field_name("operator")) in _COMPARISONS:
            return True
        if parent.type == "subscript_expression" and parent.child_by_field_name("index") == cur and \
                _constant_table(parent.child_by_field_name("object"), module):
            return True
        if parent.type == "ternary_expression" and parent.child_by_field_name("condition") == cur:
            return True
        if parent.type == "unary_expression" and text(parent.child_by_field_name("operator")) in {"!", "typeof"}:
            return True
        cur = parent
    return False


def _constant_table(node: ts.Node | None, module: Module) -> bool:
    """Whether NODE names an object literal written as a constant (`const IDS = { a: "1", b: "2" }`)."""
    node = strip_casts(node)
    value = strip_casts(value_of(module, node)) if node is not None and node.type == "identifier" else None
    return value is not None and value.type == "object"


def _in_arguments(node: ts.Node) -> bool:
    """Whether NODE is (inside) an argument of a call, within its statement."""
    cur = node.parent
    while cur is not None and not cur.type.endswith("statement") and cur.type not in {"statement_block", "arrow_function"}:
        if cur.type == "arguments":
            return True
        cur = cur.parent
    return False
