"""Checks of a tool's input anywhere on its path, from the tools/call handler through the dispatch to every function
the tool's code calls (validator vocabulary: kb/sdk.yaml `validators`), and the input fields that path reads."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate, takewhile

import tree_sitter as ts

from auditor.analyse import callee_checks, guards, uses
from auditor.analyse.uses import COMPARISONS, arguments_of, error_message, logged
from auditor.extract import copies, instances, throws
from auditor.extract.bindings import value_of
from auditor.extract.facts import Program, entry_modules
from auditor.extract.frames import loop_names, plain_parameters, returned
from auditor.extract.program import Module
from auditor.extract.syntax import (FUNCTION_TYPES, ancestors, call_args, call_function, condition_terms,
                                    enclosing_function, find, literal, member_chain, object_pairs, string_value,
                                    strip_casts, text, within)
from auditor.extract.zod import schema_of


@dataclass(frozen=True, kw_only=True, slots=True)
class Check:
    path: str
    node: ts.Node  # the validating call
    fields: frozenset[str] | None  # the fields it checks; None: the whole input (a schema that cannot be read)
    form: str  # schema | hand-written | when-given (a wrong type is rejected, an absent value is not: `x?.trim()`) |
    # outside (a function the audit does not read, named as a validator: kb validators unread_validator_words)


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
    # The parameters (by position) that hold the input, of a function the dispatch calls (`run(args, client)`: 0);
    # None: every parameter (the handler, the dispatching function, a target whose call is not found). A parameter
    # handed values the dispatch computes (`this.search({ q: args.q, ids: Array.isArray(args.ids) ? args.ids : []
    # })`) holds no input: those values are judged where they are computed (uses.py follows them into the call).
    given: frozenset[int] | None = None
    # Whether what FN returns is the tool's result (a value written into it goes back to the caller who sent it):
    # not so for a function the tool's branch calls and keeps the result of elsewhere (`const changed =
    # diff(args); cache.patch(key, changed)`), whose result is followed where the call keeps it.
    result: bool = True
    # Fields a wrapper that replaces the method FN at run time hands it in place of the caller's (`tool.run = async
    # function (...args) { ...; return original({ ...args[0], environment: resolved.name }) }`): what FN reads of
    # those is the wrapper's value, not the input's (_replaced_keys).
    replaced: frozenset[str] = frozenset()


def _place(module: Module, fn: ts.Node, skip: tuple[ts.Node, ...] = (), given: frozenset[int] | None = None,
           result: bool = True, replaced: frozenset[str] = frozenset()) -> Place:
    spans = sorted((n.start_byte, n.end_byte) for n in skip)
    ends = list(accumulate((e for _, e in spans), max))
    return Place(module=module, fn=fn, skip=skip, starts=tuple(b for b, _ in spans), ends=tuple(ends), given=given,
                 result=result, replaced=replaced)


def dispatches_of(p: Program, tool) -> list:
    """The dispatches of TOOL's name in the build that holds the tool: when a package ships two builds of one server
    side by side (`dist/stdio.mjs` and `dist/http.mjs`, each bundling its own copy of every tool), the entries that
    reach the tool's module and the dispatches they reach; every dispatch of the name when no entry reaches both (the
    entries not known, or the dispatch in code no entry imports)."""
    named = [d for d in p.dispatches if d.tool == tool.name]
    if len(named) < 2 or p.linker is None or len({d.module.path for d in named}) < 2:
        return named
    closures = p.linker.memo.get("validation.builds")  # (each entry's closure: read once per audit)
    if closures is None:
        closures = p.linker.memo["validation.builds"] = [p.linker.closure([e], dynamic=True) for e in entry_modules(p)]
    builds = [c for c in closures if tool.module.path in c]
    same = [d for d in named if any(d.module.path in c for c in builds)]
    return same or named


def places(p: Program, tool) -> tuple[list[Place], list[Place]]:
    """(the functions that hold the dispatch and the tool's own implementation, every function on the path)."""
    if p.linker is None:
        return [], []
    link = p.linker
    own: list[Place] = []
    roots: list[tuple[Module, ts.Node]] = []
    for d in dispatches_of(p, tool):
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
            given = _given_input(p, d, own) if d.form in _CALLED_FROM_BRANCH else None
            own.append(_place(m, d.target, given=given,
                              result=d.form not in _CALLED_FROM_BRANCH or _returns_target(p, d),
                              replaced=_replaced_keys(p, d.target)))
            roots.append((m, d.target))
            if d.target.type != "method_definition" and enclosing_function(d.target) is not None:
                # a closure a wrapper made of the tool's own functions (`wrap(t.schema, t.handler)`: extract/registry.py):
                # those run with what it is handed
                held = {pl.fn.id for pl in own}
                own += [_place(hm, hf) for hm, hf in d.handed if hf.id not in held]
                roots += list(d.handed)
        elif d.form != "registration":
            for call in find(_branch(d.node), {"call_expression"}):
                hit = link.resolve(d.module, call)
                if hit is not None:
                    roots.append((hit[0], hit[1]))
    seen = {pl.fn.id for pl in own}
    reach = [_place(m, fn) for m, fn in link.reachable(roots) if fn.id not in seen]
    return own, own + reach


_CALLED_FROM_BRANCH = frozenset({"name-equality", "switch-case", "guard", "fall-through"})  # (dispatch forms whose
# target is the function a call in the tool's branch resolves to)


def _replaced_keys(p: Program, method: ts.Node) -> frozenset[str]:
    """The keys a wrapper that replaces METHOD at run time writes into what it hands the original: `A.M = function
    (...args) { ...; return original(handed) }` in a function whose parameter is A, `original` bound there to `A.M`
    (or `A.M.bind(A)`), `handed` an object literal (or a local holding one) whose own keys (`{ ...args[0],
    environment: resolved.name }`: environment) override the caller's. Empty when no such wrapper is found."""
    name = method.child_by_field_name("name") if method.type == "method_definition" else None
    if name is None or p.linker is None:
        return frozenset()
    memo = p.linker.memo.setdefault("validation.replaced", {})
    key = text(name)
    if key not in memo:
        memo[key] = frozenset(k for m in p.linker.by_path.values() for k in _wrapper_keys(m, key, p.linker))
    return memo[key]


def _wrapper_keys(module: Module, method: str, link) -> set[str]:
    """_replaced_keys of the wrappers of METHOD written in MODULE (in a function something calls)."""
    out: set[str] = set()
    for n in module.nodes("assign"):
        left, right = n.child_by_field_name("left"), strip_casts(n.child_by_field_name("right"))
        chain = member_chain(strip_casts(left)) if n.type == "assignment_expression" else None
        outer = enclosing_function(n)
        if not chain or len(chain) != 2 or chain[1] != method or right is None or right.type not in FUNCTION_TYPES \
                or outer is None or chain[0] not in plain_parameters(outer) or not link.callers(outer):
            continue
        originals = {text(d.child_by_field_name("name")) for d in find(outer, {"variable_declarator"})
                     if d.child_by_field_name("name") is not None and d.child_by_field_name("name").type == "identifier"
                     and _bound_method(d.child_by_field_name("value"), chain)}
        for call in find(right, {"call_expression"}):
            if text(call.child_by_field_name("function")) in originals and call_args(call):
                handed = strip_casts(call_args(call)[0])
                handed = strip_casts(value_of(module, handed)) if handed is not None and handed.type == "identifier" \
                    else handed
                if handed is not None and handed.type == "object":
                    out |= set(object_pairs(handed))  # (a key written there, `shelf: x` or `{ shelf }`: not a spread)
    return out


def _bound_method(value: ts.Node | None, chain: tuple[str, ...]) -> bool:
    """Whether VALUE is the method CHAIN names (`tool.run`), as it is or bound to its object (`tool.run.bind(tool)`)."""
    value = strip_casts(value)
    if value is not None and value.type == "call_expression":
        callee = value.child_by_field_name("function")
        if callee is None or callee.type != "member_expression" \
                or text(callee.child_by_field_name("property")) != "bind":
            return False
        value = strip_casts(callee.child_by_field_name("object"))
    return value is not None and member_chain(value) == chain


def _given_input(p: Program, d, own: list[Place]) -> frozenset[int] | None:
    """The positions at which the calls in D's branch of its target may hand it the input (`run(args)`, `run({
    ...args, mode })`, `run(normalize(request))`, a local bound to one, a parameter of a callback); None when no such
    call is found (every parameter then holds it). Empty when every call hands only other values (`search({ q:
    args.q })`, `get(args.id, client)` with `client` a variable from outside the handler)."""
    hosts = [pl for pl in own if pl.module.path == d.module.path and pl.fn.start_byte <= d.node.start_byte < pl.fn.end_byte]
    if not hosts:
        return None
    host = hosts[-1]
    v = p.vocab["validators"]
    names = _inputs(host, v, p)
    calls = [c for c in find(_branch(d.node), {"call_expression"})
             if (hit := p.linker.resolve(d.module, c)) is not None and hit[1] == d.target]
    if not calls:
        return None
    return frozenset(i for call in calls for i, a in enumerate(call_args(call))
                     if _may_be_input(a, names, v, host.fn, d.module))


def _returns_target(p: Program, d) -> bool:
    """Whether D's branch hands back what its target returns: a call of the target inside a `return` (`return
    run(args)`, `return { content: [await run(args)] }`), or its result kept in a local that a `return` of the same
    function names, itself or through locals made of it (`result = await run(args); break; ... const out =
    prepare(result); return { text: JSON.stringify(out) }`). True when no call of it is found."""
    calls = [c for c in find(_branch(d.node), {"call_expression"})
             if (hit := p.linker.resolve(d.module, c)) is not None and hit[1] == d.target]
    if not calls:
        return True
    for call in calls:
        fn = enclosing_function(call)
        kept = None
        for up in ancestors(call):
            if up == fn:
                break
            if up.type == "return_statement":
                return True
            if up.type == "variable_declarator":
                kept = up.child_by_field_name("name")
                break
            if up.type == "assignment_expression":
                kept = up.child_by_field_name("left")
                break
        if kept is not None and kept.type == "identifier" and fn is not None:
            held = _derived(fn, text(kept))
            if any(any(text(n) in held for n in find(r, {"identifier"}))
                   for r in find(fn, {"return_statement"}) if enclosing_function(r) == fn):
                return True
    return False


def _derived(fn: ts.Node, name: str) -> set[str]:
    """NAME and the locals of FN made of it, directly or not (`const prepared = prepare(result)`)."""
    held, grew = {name}, True
    writes = [(d.child_by_field_name("name"), d.child_by_field_name("value")) for d in find(fn, {"variable_declarator"})] \
        + [(a.child_by_field_name("left"), a.child_by_field_name("right")) for a in find(fn, {"assignment_expression"})]
    while grew:
        grew = False
        for target, value in writes:
            if target is not None and target.type == "identifier" and text(target) not in held and value is not None \
                    and any(text(n) in held for n in find(value, {"identifier"})):
                held.add(text(target))
                grew = True
    return held


def _may_be_input(node: ts.Node | None, names: set[str], v: dict, host: ts.Node, module: Module, depth: int = 0) -> bool:
    """Whether NODE, an argument in HOST, may hold the input: it, an object spreading it, the result of a call given
    it (`normalize(args)`), a local bound to one of those, a parameter of a function inside HOST (a callback handed
    the input: `safeCall(req => run(req))`). Not a field of it (`args.q`), an object of fields, a literal, a member of
    `this`, a variable from outside HOST (the input arrives through HOST's own parameters)."""
    node = strip_casts(node)
    while node is not None and node.type == "await_expression" and node.named_children:
        node = strip_casts(node.named_children[0])
    if node is None or depth > 4:
        return False
    if _is_input(node, names, v):
        return True
    again = lambda n: _may_be_input(n, names, v, host, module, depth + 1)  # noqa: E731
    if node.type == "object":
        return any(c.type == "spread_element" and c.named_children and again(c.named_children[0]) for c in node.named_children)
    if node.type == "call_expression":
        return any(again(a) for a in call_args(node))
    if node.type == "ternary_expression":
        return again(node.child_by_field_name("consequence")) or again(node.child_by_field_name("alternative"))
    if node.type == "binary_expression" and text(node.child_by_field_name("operator")) in {"??", "||"}:
        return again(node.child_by_field_name("left")) or again(node.child_by_field_name("right"))
    if node.type != "identifier":
        return False
    name = text(node)
    for fn in (a for a in ancestors(node) if a.type in FUNCTION_TYPES):
        params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
        if params is not None and any(text(n) == name for n in [params, *find(params, {"identifier"})]):
            return True  # (a parameter of a function within HOST: what it is handed is not known here)
        if fn == host:
            break
    decl = next((x for x in find(host, {"variable_declarator"}) if text(x.child_by_field_name("name")) == name
                 and x.start_byte < node.start_byte), None)
    return decl is not None and again(decl.child_by_field_name("value"))


def checks(p: Program, tool, path: list[Place], own: list[Place] = ()) -> list[Check]:
    """Checks of the tool's input on the path: a call of a schema validator of the vocabulary, a function of the
    boundary given the input that throws (or returns an error) on conditions over it, or such a guard in OWN code."""
    v = p.vocab["validators"]
    out = []
    for pl in path:
        names = _inputs(pl, v, p)
        if any(pl.fn == o.fn for o in own):  # the tool's own code: its guards check what they name, and a string's
            skip = lambda n, pl=pl: _skipped(n, pl)  # noqa: E731 - (another tool's branch)
            required, given = _string_required(pl, names, v, p.linker)
            keys = frozenset(d.subject for d in p.dispatches if d.subject.isidentifier() and d.form != "registration"
                             and enclosing_function(d.node) == pl.fn)  # (`switch (name)`: the tool's name)
            fields = guards.hand_checked(pl.fn, skip, frozenset(d.node.id for d in p.dispatches), module=pl.module,
                                         link=p.linker, own=True, keys=keys) \
                | required  # a string's method called on a field throws for any other value
            aliases = _aliases(pl, names, v)  # `const cfg = args.adapterConfig; if (typeof cfg !== "object") throw`:
            # the field, when the local's type or values are tested (a test of its presence alone is none)
            fields |= {aliases[f] for f in callee_checks.checked(p.linker, pl.module, pl.fn) & fields if f in aliases} \
                if aliases and p.linker is not None else set()
            if fields:
                out.append(Check(path=pl.module.path, node=pl.fn, fields=frozenset(fields), form="hand-written"))
            given -= fields
            if given:
                out.append(Check(path=pl.module.path, node=pl.fn, fields=frozenset(given), form="when-given"))
        for call in _calls(pl):
            hit = _schema_call(call, pl.module, names, p, v, pl) or _wrapped_schema(call, pl.module, names, p, v) \
                or _unread_validator(call, pl, names, p, v) or _field_parsed(call, pl, names, v)
            if hit is not None:
                out.append(hit)
                continue
            gated = guards.result_gates(call)  # `const invalid = check(args); if (invalid) return ...`: a value it returns
            # (rejects; `const r = check(args); if (r.errors.length > 0) throw ...`: a failure it records in a list)
            whole = any(_is_input(a, names, v) for a in call_args(call))
            failing = guards.nonempty_rejected(call)
            # (an object of the input's fields handed to a function whose result says whether they are valid)
            paired = {k: f for a in call_args(call) for k, f in _paired(a, pl, names, v).items()} \
                if not whole and (failing or gated or guards.rejected_unless(call)) else {}
            if (paired or whole) and p.linker is not None:
                found = p.linker.resolve(pl.module, call)
                collects = guards.collecting_lists(found[1], failing) if found is not None and failing else frozenset()
                fields = guards.hand_checked(found[1], module=found[0], link=p.linker, errors=gated,
                                             falsy=guards.rejected_unless(call), collects=collects) \
                    if found is not None else None
                keys = _named_keys(call, found[1], names, v) if fields and found is not None else None
                fields = keys if keys is not None else fields  # `requireIds(args, ["id", "jobId"])`
                if not fields and found is not None and guards.rejected_unless(call):
                    fields = guards.tested(found[1])  # `if (!isValidArgs(args)) throw ...`: what the predicate tests
                if paired and not whole:  # `check({ name: args.title })`: the keys it tests are the fields they hold
                    fields = {paired[k] for k in fields or () if k in paired}
                if fields:
                    out.append(Check(path=pl.module.path, node=call, fields=frozenset(fields), form="hand-written"))
                elif whole:
                    continue
                # (a validator written by hand: `validate(args.x || "all", VALUES, requestId)` hands it a field too,
                # besides a whole input, checked when it rejects bad values of the parameter it binds)
            passed = {i: f for i, a in enumerate(call_args(call)) if (f := _input_field(a, names, v) or _bound(a, pl, names, v))}
            if passed and _result_tested(call, v) and p.linker is not None:
                # `const r = verify(args.mandate); if (!r.valid) return ...`: a validator of the fields it is handed,
                # by its result (as of a whole input, _schema_call), when the function it calls parses that parameter
                # with a schema, or is not the boundary's to read
                found = p.linker.resolve(pl.module, call)
                fields = {f for i, f in passed.items() if found is None or _schema_parses(found[1], i, v)}
                if fields:
                    out.append(Check(path=pl.module.path, node=call, fields=frozenset(fields), form="hand-written"))
                    continue
            if passed and p.linker is not None and _refused_when_falsy(call):
                # `const when = parseDate(args.at); if (!when) return error`: a function of the boundary that says it
                # failed by a false result (`return null`) parses what it is handed, and the tool leaves on failure
                found = p.linker.resolve(pl.module, call)
                if found is not None and _fails_falsy(found[1]):
                    out.append(Check(path=pl.module.path, node=call, fields=frozenset(passed.values()),
                                     form="hand-written"))
                    continue
            objects = {i: o for i, a in enumerate(call_args(call)) if i not in passed and not whole
                       and (o := _paired(a, pl, names, v))}  # `generate({ structure })`: fields by their keys
            if (passed or objects) and p.linker is not None:  # `run(args.command)`, the callee rejecting what its
                found = p.linker.resolve(pl.module, call)  # parameter is not (or what a field of it is not)
                params = {i: n for n, i in plain_parameters(found[1]).items()} if found is not None else {}
                rest = guards.rest_parameter(found[1]) if found is not None else None
                params |= {i: rest[0] for i in passed if rest is not None and i >= rest[1]}  # `check(msg, ...values)`
                failing = guards.nonempty_rejected(call) if params else frozenset()
                collects = guards.collecting_lists(found[1], failing) if failing else frozenset()
                checked = guards.checked_parameters(found[0], found[1], p.linker, errors=gated, collects=collects) \
                    if params else set()
                typed = callee_checks.checked(p.linker, found[0], found[1]) | \
                    guards.handed_checked(found[0], found[1], p.linker) \
                    if objects and found is not None else set()
                # (a field in an object: a test of its type or values there, or a validator it is handed to whose
                # failures the function leaves on, or one on its straight path; a test of its presence alone is none)
                fields = {f for i, f in passed.items() if params.get(i) in checked} | \
                    {f for i, o in objects.items() if i in params for k, f in o.items()
                     if k in typed - set(params.values())}
                if fields:
                    out.append(Check(path=pl.module.path, node=call, fields=frozenset(fields), form="hand-written"))
    return out


def reads(p: Program, own: list[Place], booleans: frozenset[str] = frozenset(),
          strings: frozenset[str] = frozenset(), optional: frozenset[str] = frozenset()) -> list[Read]:
    """Fields of the input the dispatch and the tool's implementation pass to a call (`f(args.path)`, `{q: args.q}`)
    or keep (`const limit = args.limit ?? 10`, `for (const id of args.ids)`), where the value reaches a use that is
    not harmless (analyse/uses.py; for a field of BOOLEANS, a test of its truth is a use; for one of STRINGS, a plain
    string, a string's method called on it where it is used checks it, for one of OPTIONAL also on a default:
    `(v ?? "").trim()`)."""
    v = p.vocab["validators"]
    files = p.linker.memo.get("boundary_files") if p.linker is not None else None
    if files is None:  # every file of the boundary, read or not (extract/throws.py: a module that is not there)
        files = frozenset(e.file.path for e in p.entries)
        if p.linker is not None:
            p.linker.memo["boundary_files"] = files
    out = []
    for pl in own:
        if pl.given is not None and not pl.given:
            continue
        names = _inputs(pl, v, p)
        bound = _bound_fields(pl, names, v)
        for node in find(pl.fn, {"member_expression", "identifier", "shorthand_property_identifier"}):
            if node.type == "member_expression" and _is_input(node.child_by_field_name("object"), names, v):
                field = text(node.child_by_field_name("property"))
            elif node.type != "member_expression" and text(node) in bound:  # (`{ icon }` too)
                field = text(node)
            else:
                continue
            if field in pl.replaced or _skipped(node, pl) or not (_in_arguments(node) or uses.stored(node)) \
                    or guards.type_guarded(node, pl.fn) \
                    or _only_tested(node, pl.module) or _in_catch(node, pl.fn) or logged(node, p.vocab) \
                    or error_message(node) or _typed_in_callee(node, pl.module, p.linker) \
                    or uses.harmless(p, pl.module, node, truth=field not in booleans,
                                     skip=lambda n, pl=pl: _skipped(n, pl), echo=pl.result, strings=field in strings,
                                     optional=field in optional) \
                    or throws.after_throw(node, pl.fn, pl.module, p.linker, files):  # (never runs: reaches nothing)
                continue
            out.append(Read(field=field, path=pl.module.path, node=node))
    return out


def read_fields(p: Program, tool) -> frozenset[str]:
    """The fields of the input the functions that implement TOOL (its dispatches' targets) read (`args.limit`, `const
    { limit } = args`), whether declared or not; not the requested tool's name (`request.params.name`)."""
    if p.linker is None:
        return frozenset()
    targets = {d.target.id for d in dispatches_of(p, tool) if d.target is not None}
    v = p.vocab["validators"]
    out: set[str] = set()
    for pl in places(p, tool)[0]:
        if pl.fn.id not in targets or pl.given is not None and not pl.given:
            continue
        names = _inputs(pl, v, p)
        out |= _bound_fields(pl, names, v)
        for node in find(pl.fn, {"member_expression"}):
            obj = node.child_by_field_name("object")
            if _is_input(obj, names, v) and (member_chain(obj) or ("",))[-1] != "params":
                out.add(text(node.child_by_field_name("property")))
    return frozenset(out)


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



def _aliases(pl: Place, names: frozenset[str], v: dict) -> dict[str, str]:
    """Local -> field, for the locals PL's function declares once as a field of the input (`const cfg =
    args.adapterConfig`): a check of the local checks the field."""
    out: dict[str, str] = {}
    seen: set[str] = set()
    for d in find(pl.fn, {"variable_declarator"}):
        pat, value = d.child_by_field_name("name"), strip_casts(d.child_by_field_name("value"))
        if pat is None or pat.type != "identifier" or _skipped(d, pl):
            continue
        name = text(pat)
        if name in seen:
            out.pop(name, None)  # (declared twice: which one a check tests is not known)
            continue
        seen.add(name)
        value = _string_made(value)  # (`const status = args.status?.trim()`: the field's string, tested for it)
        if value is not None and value.type == "member_expression" and _is_input(value.child_by_field_name("object"), names, v):
            out[name] = text(value.child_by_field_name("property"))
    return out


def _string_made(value: ts.Node | None) -> ts.Node | None:
    """What VALUE is made of by methods only a string has that return a string of it (`x.trim().toLowerCase()`,
    `x?.trim()`: X, which a value that is no string does not get past); VALUE itself when it is no such call."""
    while value is not None and value.type == "call_expression" and not call_args(value):
        callee = value.child_by_field_name("function")
        if callee is None or callee.type != "member_expression" \
                or text(callee.child_by_field_name("property")) not in guards.STRING_OF_STRING:
            break
        value = strip_casts(callee.child_by_field_name("object"))
    return value


def _string_required(pl: Place, names: frozenset[str], v: dict, link=None) -> tuple[set[str], set[str]]:
    """Input fields the tool's own code calls a string's method on (`args.query.toLowerCase()`, `name.trim()` of a
    destructured name or of a local set to the field, `guards.string_calls`): a value that is not a string throws
    there, and goes no further. Then apart, the fields of the calls that let an absent value by: through `?.`
    (`args.query?.trim()`), or on the value or a string default (`(args.url || "https://x").replace(...)`: a value `||`
    or `??` passes over gets the default; any other that is no string throws)."""
    bound = _bound_fields(pl, names, v)
    aliases = _aliases(pl, names, v)  # (`const sql = args.sql; sql.trim()`)
    required: set[str] = set()
    given: set[str] = set()
    for call, obj, chained in guards.string_calls(pl.fn, own=True, module=pl.module, link=link):
        if _skipped(call, pl):
            continue
        default = guards.string_defaulted(obj)
        obj, out = (default, given) if default is not None else (obj, given if chained else required)
        if obj.type == "member_expression" and _is_input(obj.child_by_field_name("object"), names, v):
            out.add(text(obj.child_by_field_name("property")))
        elif obj.type == "identifier" and text(obj) in bound:
            out.add(text(obj))
        elif obj.type == "identifier" and text(obj) in aliases:
            out.add(aliases[text(obj)])
    return required, given


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
    hit = memo.get((pl.fn.id, pl.given))
    if hit is not None and hit[0] == pl.fn:
        return hit[1]
    names = frozenset(_read_inputs(pl.fn, v, lambda call: _copying(p, pl.module, call), pl.given))
    memo[(pl.fn.id, pl.given)] = (pl.fn, names)
    return names


def _copying(p: Program, m: Module, call: ts.Node) -> bool:
    """Whether CALL is of a function of the boundary that returns a copy of its argument (memo per function)."""
    hit = (p.linker.resolve(m, call) or instances.static_method(p.linker, m, call)) if p.linker is not None else None
    if hit is None:
        return False
    memo = hit[0].memo.setdefault("copies", {})
    if hit[1].id not in memo:
        memo[hit[1].id] = copies.returns_copy(hit[1])
    return memo[hit[1].id]


def _read_inputs(fn: ts.Node, v: dict, copying=lambda call: False, given: frozenset[int] | None = None) -> set[str]:
    """The names that hold the input in FN: its parameters (those at GIVEN positions), and locals bound to one."""
    names: set[str] = set()
    params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
    declared = [params] if params is not None and params.type == "identifier" else \
        [c for c in params.named_children if c.type != "comment"] if params else []
    for prm in (c for i, c in enumerate(declared) if given is None or i in given):
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


def _schema_call(call: ts.Node, m: Module, names: set[str], p: Program, v: dict, pl: Place | None = None
                 ) -> Check | None:
    fn = strip_casts(call.child_by_field_name("function"))
    args = call_args(call)
    schema: ts.Node | None = None
    matched = False
    method = text(fn.child_by_field_name("property")) if fn is not None and fn.type == "member_expression" else text(fn)
    paired = _paired(args[0], pl, names, v) if args and pl is not None and method in v["schema_methods"] else {}
    if paired and fn.type == "member_expression":  # `ConfigSchema.parse({ key: apiKey })`: a schema read checks each
        receiver = strip_casts(fn.child_by_field_name("object"))  # field under the key it is handed as
        chain = member_chain(receiver) or ()
        if chain and chain[0] not in v["not_schemas"]:
            compiled = _compiled(receiver, m, v)
            schema = (call_args(compiled) or [None])[0] if compiled is not None else receiver
            spec = schema_of(schema, m, p.vocab, p.linker) if schema is not None else None
            props = spec.get("properties") if isinstance(spec, dict) else None
            if not isinstance(props, dict):  # (a schema read: `memory.create({...})` of a service is no schema's)
                return None
            checked = {f for k, f in paired.items() if k in props}
            return Check(path=m.path, node=call, fields=frozenset(checked), form="schema") if checked else None
    own = (p.linker.resolve(m, call) or instances.static_method(p.linker, m, call)) \
        if p.linker is not None and method in v["schema_and_input"] else None
    if own is not None and not any(a <= own[1].start_byte < b for a, b, _ in own[0].vendored):
        pass  # `MochaFactory.create(config, opts)` of a class of the boundary: judged by its code, not by its name
    elif len(args) == 2 and method in v["schema_and_input"] and any(_is_input(a, names, v) for a in args):
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
    if not matched and any(_is_input(a, names, v) for a in args) and _result_tested(call, v):
        # a validator, by what its result says: of the fields it hands the boundary's validators, when it is the
        # boundary's own and hands some (`r = check(args); if (!r.valid) throw`); else of the whole input
        found = (p.linker.resolve(m, call) or instances.static_method(p.linker, m, call)) \
            if p.linker is not None else None
        index = next(i for i, a in enumerate(args) if _is_input(a, names, v))
        fields = _validated_members(found[0], found[1], index, p.linker, v) if found is not None else set()
        return Check(path=m.path, node=call, fields=frozenset(fields) or None, form="schema")
    if not matched:
        return None
    if _parameter_here(schema, call):  # `validateInput(schema, input) { return schema.parse(input) }`: which schema,
        return None                    # its callers say (_wrapped_schema)
    spec = schema_of(schema, m, p.vocab, p.linker) if schema is not None else None
    props = spec.get("properties") if isinstance(spec, dict) else None
    fields = frozenset(props) if isinstance(props, dict) else None
    return Check(path=m.path, node=call, fields=fields, form="schema")


_SAFE_PARSES = frozenset({"safeParse", "safeParseAsync", "spa"})


def _field_parsed(call: ts.Node, pl: Place, names: frozenset[str], v: dict) -> Check | None:
    """`const r = IR.safeParse(args.ir); if (!r.success) return {...}`: a field handed alone to a schema's safe parse
    (zod's protocol: a result whose `success` says whether the value is valid), its failure leaving before the
    handler goes on: the field is checked, whatever the schema (one of another package too)."""
    fn = strip_casts(call.child_by_field_name("function"))
    args = call_args(call)
    if fn is None or fn.type != "member_expression" or text(fn.child_by_field_name("property")) not in _SAFE_PARSES \
            or len(args) != 1:
        return None
    arg = strip_casts(args[0])
    if arg is not None and arg.type == "member_expression" and _is_input(arg.child_by_field_name("object"), names, v):
        field = text(arg.child_by_field_name("property"))
    elif arg is not None and arg.type == "identifier" and text(arg) in _bound_fields(pl, names, v):
        field = text(arg)
    else:
        return None
    name, terms = _leaving_tests(call)
    if not name or not any((x := _negation_of(t)) is not None and member_chain(x) == (name, "success") for t in terms):
        return None
    return Check(path=pl.module.path, node=call, fields=frozenset({field}), form="schema")


def _unread_validator(call: ts.Node, pl: Place, names: frozenset[str], p: Program, v: dict) -> Check | None:
    """`const full = validateFilePath(args.path)` or `assertSafe(args.path);`, of a function the audit does not read
    (no function of the boundary, no method of one) whose name's first word is one of kb validators
    unread_validator_words: a check of the fields it is handed, outside the boundary. Its result must be kept in a
    local, or the call be a statement of its own (a validator that throws); a result tested is _schema_call's."""
    words = set(v.get("unread_validator_words") or ())
    callee = call_function(call)  # (tsc's `(0, shared_1.validatePath)(p)` too)
    chain = member_chain(callee) if callee is not None else None
    first = re.match(r"[a-z]+", chain[-1]) if chain else None
    if first is None or first.group(0) not in words or p.linker is None:
        return None
    up = call.parent
    while up is not None and up.type in {"await_expression", "parenthesized_expression"}:
        up = up.parent
    if up is None or up.type not in {"variable_declarator", "expression_statement"}:
        return None
    if p.linker.resolve(pl.module, call) is not None or instances.method_of(p.linker, pl.module, call) is not None \
            or instances.static_method(p.linker, pl.module, call) is not None:
        return None
    fields = {f for a in call_args(call) if (f := _input_field(a, names, v) or _bound(a, pl, names, v))}
    return Check(path=pl.module.path, node=call, fields=frozenset(fields), form="outside") if fields else None


def _parameter_here(node: ts.Node | None, call: ts.Node) -> bool:
    """Whether NODE is a plain parameter of the function CALL is written in."""
    node = strip_casts(node)
    fn = enclosing_function(call)
    return node is not None and node.type == "identifier" and fn is not None and text(node) in plain_parameters(fn)


def _wrapped_schema(call: ts.Node, m: Module, names: set[str], p: Program, v: dict) -> Check | None:
    """A call of a function that checks one parameter with a schema it is handed as another
    (`SecurityMiddleware.validateInput(GetClusterSchema, args)` of `validateInput(schema, input) { return
    schema.parse(input) }`), handed the input: a check of the schema's fields."""
    args = call_args(call)
    whole = [i for i, a in enumerate(args) if _is_input(a, names, v)]
    fields = {i: f for i, a in enumerate(args) if (f := _input_field(a, names, v))}  # (`validate(Id, args.id)`)
    if not (whole or fields) or p.linker is None or len(args) < 2:
        return None
    found = p.linker.resolve(m, call) or instances.static_method(p.linker, m, call)
    if found is None or found[1].type not in (*FUNCTION_TYPES, "method_definition"):
        return None
    params = {n: i for n, i in plain_parameters(found[1]).items()}
    for inner in find(found[1], {"call_expression"}):
        callee, inner_args = strip_casts(inner.child_by_field_name("function")), call_args(inner)
        if callee is None or callee.type != "member_expression" or not inner_args \
                or text(callee.child_by_field_name("property")) not in v["schema_methods"]:
            continue
        schema_at = params.get(text(strip_casts(callee.child_by_field_name("object"))))
        input_at = params.get(text(strip_casts(inner_args[0])))
        if schema_at is None or schema_at >= len(args) or input_at not in whole and input_at not in fields:
            continue
        if input_at in fields:  # a field handed in: checked by the schema, whatever its members
            return Check(path=m.path, node=call, fields=frozenset({fields[input_at]}), form="schema")
        spec = schema_of(args[schema_at], m, p.vocab, p.linker)
        props = spec.get("properties") if isinstance(spec, dict) else None
        return Check(path=m.path, node=call, fields=frozenset(props) if isinstance(props, dict) else None, form="schema")
    return None


def _validated_members(module: Module, fn: ts.Node, index: int, link, v: dict) -> set[str]:
    """The fields of FN's parameter INDEX (`args.limit`) FN hands to a validator of the boundary: a function whose
    returned objects carry a result flag (kb validators result_flags: `return { valid: errors.length === 0, errors }`),
    so that FN's result, tested by its caller, fails when the field does."""
    name = next((n for n, i in plain_parameters(fn).items() if i == index), None)
    flags = set(v.get("result_flags") or ())
    out: set[str] = set()
    for call in find(fn, {"call_expression"}) if name is not None and flags else ():
        members = [text(a.child_by_field_name("property")) for a in map(strip_casts, call_args(call))
                   if a is not None and a.type == "member_expression" and text(a.child_by_field_name("object")) == name]
        hit = (link.resolve(module, call) or instances.static_method(link, module, call)) if members else None
        if hit is not None and any(r is not None and r.type == "object" and flags & set(object_pairs(r))
                                   for r in map(strip_casts, returned(hit[1]))):
            out |= set(members)
    return out


def _schema_parses(fn: ts.Node, index: int, v: dict) -> bool:
    """Whether FN hands its parameter at INDEX, as it is, to a schema's method (`S.safeParse(m)`)."""
    name = next((n for n, i in plain_parameters(fn).items() if i == index), None)
    for call in find(fn, {"call_expression"}) if name is not None else ():
        callee, args = strip_casts(call.child_by_field_name("function")), call_args(call)
        if callee is not None and callee.type == "member_expression" and args and text(strip_casts(args[0])) == name \
                and text(callee.child_by_field_name("property")) in v["schema_methods"] \
                and (member_chain(strip_casts(callee.child_by_field_name("object"))) or ("",))[0] not in v["not_schemas"]:
            return True
    return False


def _named_keys(call: ts.Node, fn: ts.Node, names: set[str], v: dict) -> set[str] | None:
    """The fields a validator handed the whole input and a list of their names checks: the names, when it walks
    that list and reads each from the input (`for (const key of keys) { const value = args[key]; ... }`); else
    None."""
    args = call_args(call)
    whole = next((i for i, a in enumerate(args) if _is_input(a, names, v)), None)
    listed = next((i for i, a in enumerate(args) if strip_casts(a) is not None and strip_casts(a).type == "array"),
                  None)
    values = literal(strip_casts(args[listed])) if listed is not None else None
    if whole is None or not isinstance(values, list) or not values or not all(isinstance(x, str) for x in values):
        return None
    params = {i: n for n, i in plain_parameters(fn).items()}
    for loop in find(fn, {"for_in_statement"}):
        right = strip_casts(loop.child_by_field_name("right"))
        key = loop_names(loop.child_by_field_name("left"))
        if right is None or text(right) != params.get(listed) or len(key) != 1:
            continue
        k = next(iter(key))
        reads = find(loop, {"subscript_expression"})
        if any(text(strip_casts(s.child_by_field_name("object"))) == params.get(whole)
               and text(strip_casts(s.child_by_field_name("index"))) == k for s in reads):
            return set(values)
    return None


def _leaving_tests(call: ts.Node) -> tuple[str, list[ts.Node]]:
    """(the local CALL's result is held by, the `||` terms of each `if` after the call whose branch rejects or
    returns, before the handler goes on); ("", []) when the result is not held by a local. Held by a declaration, or
    assigned: `let r; switch (t) { case "a": r = va(args) }`."""
    holder = call.parent.parent if call.parent is not None and call.parent.type == "await_expression" else call.parent
    name = holder.child_by_field_name("name") if holder is not None and holder.type == "variable_declarator" else \
        holder.child_by_field_name("left") if holder is not None and holder.type == "assignment_expression" else None
    fn = enclosing_function(call)
    if name is None or name.type != "identifier" or fn is None:
        return "", []
    terms = [strip_casts(term) for stmt in find(fn, {"if_statement"})
             if stmt.start_byte >= call.end_byte and (guards._rejects(stmt.child_by_field_name("consequence"))
                                                      or guards._returns(stmt.child_by_field_name("consequence")))
             for term in condition_terms(stmt.child_by_field_name("condition"), "||")]
    return text(name), [t for t in terms if t is not None]


def _negation_of(term: ts.Node) -> ts.Node | None:
    """X of a term `!X`, else None."""
    return strip_casts(term.child_by_field_name("argument")) \
        if term.type == "unary_expression" and text(term.child_by_field_name("operator")) == "!" else None


def _refused_when_falsy(call: ts.Node) -> bool:
    """Whether CALL's result, held by a local, makes the tool leave when it is false: `const when = parseDate(args.at);
    if (!when) return { isError: true, ... }` (a term `!when` of an `if` that rejects or returns, after the call)."""
    name, terms = _leaving_tests(call)
    return bool(name) and any((x := _negation_of(t)) is not None and text(x) == name for t in terms)


_FALSY = frozenset({"null", "undefined", "false"})


def _fails_falsy(fn: ts.Node) -> bool:
    """Whether FN says it failed by returning a false value written there: `return null`, a bare `return;`, or a
    branch of a returned ternary (`return result ? result.toISOString() : null`): a parser of its argument. Not an
    asynchronous function (`async findApp(id)`: a lookup that sends its argument out, then says it found nothing)."""
    if any(c.type == "async" for c in fn.children) \
            or any(enclosing_function(a) == fn for a in find(fn, {"await_expression"})):
        return False
    body = fn.child_by_field_name("body")
    rets = [body] if body is not None and body.type != "statement_block" else \
        [r for r in find(fn, {"return_statement"}) if enclosing_function(r) == fn]
    for r in rets:
        value = strip_casts(r.named_children[0]) if r.type == "return_statement" and r.named_children else \
            (None if r.type == "return_statement" else strip_casts(r))
        if value is None or value.type in _FALSY:
            return True
        if value.type == "ternary_expression" and any(
                (b := strip_casts(value.child_by_field_name(f))) is not None and b.type in _FALSY
                for f in ("consequence", "alternative")):
            return True
    return False


def _result_tested(call: ts.Node, v: dict) -> bool:
    """Whether CALL's result, held by a local, is tested for failure by an `if` that rejects or returns before the
    handler goes on: `if (!r.valid)` (kb validators result_flags) or `if (r.errors?.length)` (result_failures)."""
    name, terms = _leaving_tests(call)
    flags, failures = set(v.get("result_flags") or ()), set(v.get("result_failures") or ())
    for term in terms:
        negated = _negation_of(term)
        inner = negated if negated is not None else term
        while inner is not None and inner.type == "member_expression" \
                and text(inner.child_by_field_name("property")) == "length":
            inner = strip_casts(inner.child_by_field_name("object"))  # `r.errors.length`
        chain = member_chain(inner) if inner is not None else None
        if name and chain and len(chain) == 2 and chain[0] == name and (
                negated is not None and chain[1] in flags or negated is None and chain[1] in failures):
            return True
    return False


def _compiled(node: ts.Node | None, m: Module, v: dict) -> ts.Node | None:
    """The `compile(S)` call NODE is, or the one a local named NODE is bound to."""
    node = strip_casts(node)
    if node is not None and node.type == "identifier":
        node = strip_casts(value_of(m, node))
    if node is None or node.type != "call_expression":
        return None
    callee = member_chain(node.child_by_field_name("function")) or ()
    return node if callee and callee[-1] in v["compilers"] else None


def _paired(node: ts.Node | None, pl: Place, names: frozenset[str], v: dict) -> dict[str, str]:
    """Key -> input field of an object literal NODE built of the input's fields (`{ geminiApiKey: args.apiKey }`,
    `{ apiKey }` of a destructured name, `{ name: newName ?? old.name }` of a local declared once as a field:
    `_aliases`); empty for anything else."""
    node = strip_casts(node)
    out: dict[str, str] = {}
    aliases = None
    for c in node.named_children if node is not None and node.type == "object" else ():
        if c.type == "pair":
            value = c.child_by_field_name("value")
            field = _input_field(value, names, v) or _bound(value, pl, names, v)
            held = _defaulted_name(value)
            if field is None and held is not None:
                aliases = _aliases(pl, names, v) if aliases is None else aliases
                field = aliases.get(held)
            if field is not None:
                out[string_value(c.child_by_field_name("key")) or text(c.child_by_field_name("key"))] = field
        elif c.type == "shorthand_property_identifier" and text(c) in _bound_fields(pl, names, v):
            out[text(c)] = text(c)
        elif c.type == "shorthand_property_identifier":  # `{ structure }` of `const structure = args?.structure`
            aliases = _aliases(pl, names, v) if aliases is None else aliases
            out |= {text(c): aliases[text(c)]} if text(c) in aliases else {}
    return out


def _defaulted_name(node: ts.Node | None) -> str | None:
    """The local NODE is, or is when it is set (`name ?? fallback`, `name || fallback`); None for anything else."""
    node = strip_casts(node)
    while node is not None and node.type == "binary_expression" and text(node.child_by_field_name("operator")) in {"||", "??"}:
        node = strip_casts(node.child_by_field_name("left"))
    return text(node) if node is not None and node.type == "identifier" else None


def _bound(node: ts.Node | None, pl: Place, names: frozenset[str], v: dict) -> str | None:
    """The input field an argument is as a name PL's function destructures from the input (`const { id } = args`,
    then `check(id)`), or None."""
    node = strip_casts(node)
    if node is None or node.type != "identifier":
        return None
    return text(node) if text(node) in _bound_fields(pl, names, v) else None


def _input_field(node: ts.Node | None, names: frozenset[str], v: dict) -> str | None:
    """The input field an argument is (`args.command`, `args?.command as string || "status"`), or None."""
    node = strip_casts(node)
    while node is not None and node.type == "binary_expression" and text(node.child_by_field_name("operator")) in {"||", "??"}:
        node = strip_casts(node.child_by_field_name("left"))
    if node is None or node.type != "member_expression" or not _is_input(node.child_by_field_name("object"), names, v):
        return None
    return text(node.child_by_field_name("property"))




def _in_catch(node: ts.Node, fn: ts.Node) -> bool:
    """Whether NODE, in a `catch` block of FN, goes only into the failure's report: an argument of a call handed the
    caught error (`handleError(error, args.kind)`), of a new error or a thrown value, or of a console call. Code a
    catch block runs with the value otherwise (a fallback) uses it."""
    clause = next((a for a in takewhile(lambda a: a != fn, ancestors(node)) if a.type == "catch_clause"), None)
    if clause is None:
        return False
    for a in takewhile(lambda a: a != clause, ancestors(node)):
        if a.type == "throw_statement" or a.type == "new_expression":
            return True
        if a.type == "call_expression":
            callee = member_chain(a.child_by_field_name("function")) or ()
            return callee[:1] == ("console",) or uses.reports_failure(a)  # (else the innermost call that receives
            # it: a use)
    return False


def _only_tested(node: ts.Node, module: Module) -> bool:
    """Whether the value of NODE is only tested on its way to the call: an operand of a comparison, the condition of
    a ternary, negated or asked its type (`f(args.mode === "half" ? "half" : "whole")` passes no part of it), the
    key of a lookup in a constant table (`f(IDS[args.kind])` passes the table's value, not the key), or the argument
    of a membership test of a collection, converted or not (`MODES.includes(String(args.mode))`)."""
    cur = node
    while cur.parent is not None:
        parent = cur.parent
        if parent.type == "arguments":  # `MODES.includes(String(args.mode))`: a membership test of it, converted or
            call = parent.parent        # not, passes nothing of it on
            fn = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
            if fn is not None and fn.type == "identifier" and text(fn) in {"String", "Number", "Boolean"}:
                cur = call
                continue
            if fn is not None and fn.type == "member_expression" \
                    and text(fn.child_by_field_name("property")) in {"includes", "has"} \
                    and _collection(fn.child_by_field_name("object"), module):
                return True  # (not `text.includes(x)`, a search of a string that converts x)
            return False
        if parent.type == "binary_expression" and text(parent.child_by_field_name("operator")) in COMPARISONS:
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


def _collection(node: ts.Node | None, module: Module) -> bool:
    """Whether NODE names a collection, not a string: an array literal, `new Set(...)`/`new Map(...)`,
    `Object.keys(...)`, or a name or a field of the class (`this.names`) every value of which is one of these."""
    node = strip_casts(node)
    if node is not None and node.type == "identifier":
        return uses.made_collection(strip_casts(value_of(module, node)))
    made = uses.field_values(node)
    if made:
        return all(uses.made_collection(strip_casts(m)) for m in made)
    return uses.made_collection(node)


def _constant_table(node: ts.Node | None, module: Module) -> bool:
    """Whether NODE names an object literal written as a constant (`const IDS = { a: "1", b: "2" }`)."""
    node = strip_casts(node)
    value = strip_casts(value_of(module, node)) if node is not None and node.type == "identifier" else None
    return value is not None and value.type == "object"


def _typed_in_callee(node: ts.Node, module: Module, link) -> bool:
    """Whether NODE is an argument of a call of the server's own function that uses the parameter it binds only where
    a test of its type holds (`pickAddress(args.address, fallback)` taking `typeof value === "string" ? value :
    fallback`): the value as the caller gives it reaches nothing there."""
    arg, call = node, node.parent
    while call is not None and call.type in {"parenthesized_expression", "as_expression", "non_null_expression"}:
        arg, call = call, call.parent
    call = call.parent if call is not None and call.type == "arguments" else None
    if call is None or call.type != "call_expression" or link is None:
        return False
    found = link.resolve(module, call)
    if found is None or found[1].type not in FUNCTION_TYPES:
        return False
    at = next((i for i, a in enumerate(call_args(call)) if a.id == arg.id), None)
    name = next((n for n, i in plain_parameters(found[1]).items() if i == at), None) if at is not None else None
    if name is None:
        return False
    memo = link.memo.setdefault("validation.typed", {})  # (function, parameter) -> answer, asked at every call
    key = (found[0].path, found[1].id, name)
    if key not in memo:
        memo[key] = guards.only_type_guarded(found[1], name)
    return memo[key]


def _in_arguments(node: ts.Node) -> bool:
    """Whether NODE is (inside) an argument of a call, within its statement."""
    return arguments_of(node) is not None
