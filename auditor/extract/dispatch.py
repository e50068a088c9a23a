"""Tool-name dispatch inside a low-level tools/call handler: `switch`, `if`, an exclusion guard, a lookup table, or
the same in a function the handler delegates to; and what happens to any other name (the fallback)."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract import copies, flow, names, predicates, tslib
from auditor.extract.bindings import class_fields, value_of, visible
from auditor.extract.program import Module, class_name_of
from auditor.extract.server import Dispatch, Fallback, Handler
from auditor.extract.reach import _parameter_scope
from auditor.extract.values import Values
from auditor.extract.frames import Frame, _pattern, loop_names, parameters, plain_parameters, returned
from auditor.extract.syntax import (CLASS_TYPES, FUNCTION_TYPES, ancestors, call_args, condition_terms, dominates,
                                    enclosing, enclosing_function, find, literal, member_chain, object_method,
                                    object_pairs, pair_value, strip_casts, text, walk)


def _name_subject(node: ts.Node | None, module: Module | None = None, subjects: frozenset[str] = frozenset(),
                  depth: int = 0) -> bool:
    """The expression a dispatch compares: `request.params.name`, `name`, a variable holding one
    (`const toolName = request.params.name`, or a normalisation of one, at most a few deep: names of minified code
    may hold each other), or one of SUBJECTS (parameters that the handler hands a name)."""
    chain = member_chain(node)
    if chain and len(chain) > 1 and _caught(node, chain[0]):
        return False  # `error.name === "AbortError"`: the name of what a catch clause caught, no tool's
    if bool(chain) and (chain[-1] == "name" or len(chain) == 1 and chain[0] in subjects):
        return True
    if module is None or node is None or node.type != "identifier":
        return False
    decl = visible(node, text(node))  # (the local in scope there: a bundle's top level may declare the same name)
    target = decl.child_by_field_name("name") if decl is not None else None
    if target is not None and target.type == "object_pattern":  # `const { name: toolName } = request.params`
        return (dict(_pattern(target)).get(text(node)) or ())[-1:] == ("name",)
    value = strip_casts(decl.child_by_field_name("value") if target is not None and target.type == "identifier"
                        else value_of(module, node))
    if value is None:
        return False
    normalised = _normalised(value, module)
    if normalised is not None and normalised.id != node.id and depth < 8:  # `const key = canonical(name)`: the name
        return _name_subject(normalised, module, subjects, depth + 1)
    chain = member_chain(value)
    return bool(chain) and chain[-1] == "name"


def _normalised(value: ts.Node, module: Module) -> ts.Node | None:
    """The expression VALUE normalises, when it is a string method called on it (`name.trim().toLowerCase()`) or the
    call of a function of the module whose every return is its parameter or such a method of it (`canonical(name)`,
    returning `name.includes(".") ? name.replace(/\\./g, "_") : name`); else None."""
    def root(node: ts.Node | None, names: frozenset[str] | None) -> ts.Node | None:
        node = strip_casts(node)
        while node is not None and node.type == "call_expression":  # `x.replace(a, b).toLowerCase()`: x
            fn = strip_casts(node.child_by_field_name("function"))
            node = strip_casts(fn.child_by_field_name("object")) if fn is not None and fn.type == "member_expression" else None
        if node is not None and node.type == "ternary_expression":
            sides = [root(node.child_by_field_name(k), names) for k in ("consequence", "alternative")]
            return sides[0] if None not in sides and len({text(x) for x in sides}) == 1 else None
        return node if node is not None and (names is None or node.type == "identifier" and text(node) in names) else None
    value = strip_casts(value)
    if value is None or value.type != "call_expression":
        return None
    fn = strip_casts(value.child_by_field_name("function"))
    if fn is not None and fn.type == "member_expression":
        found = root(value, None)
        return found if found is not None and found.type in {"identifier", "member_expression"} else None
    helper = module.functions.get(text(fn)) if fn is not None and fn.type == "identifier" else None
    args = call_args(value)
    params = list(parameters(helper)) if helper is not None else []
    if helper is None or len(args) != 1 or len(params) != 1:
        return None
    values = returned(helper)
    return strip_casts(args[0]) if values and all(root(v, frozenset(params)) is not None for v in values) else None


def _caught(node: ts.Node, name: str) -> bool:
    """Whether NAME, the root of NODE, is the parameter of a catch clause around NODE (the nearest binding of it)."""
    for scope in ancestors(node):
        if scope.type == "catch_clause":
            param = scope.child_by_field_name("parameter")
            if param is not None and text(param) == name:
                return True
        if scope.type in FUNCTION_TYPES and name in parameters(scope):
            return False
    return False


def _constant(node: ts.Node | None, module: Module, link=None) -> str | None:
    """The constant string NODE stands for: a literal or constant of MODULE, or (with LINK) one it imports, a member
    of an imported object (`tool.name` of `import { tool } from "./tools.js"`)."""
    value = module.name_value(node)
    if value is None and link is not None and node is not None:
        value = Values(link).string(node, module)
    return value


def _comparisons(cond: ts.Node, module: Module, subjects: frozenset[str] = frozenset(), link=None
                 ) -> list[tuple[str, str]]:
    """(subject, tool name) for each `subject === "literal"` term of a condition (the literal a constant, imported or
    not: `name === tool.name`)."""
    out = []
    for term in condition_terms(cond):
        if term.type != "binary_expression" or text(term.child_by_field_name("operator")) not in {"===", "=="}:
            continue
        left, right = term.child_by_field_name("left"), term.child_by_field_name("right")
        for subj, lit in ((left, right), (right, left)):
            value = module.name_value(lit)
            if value is None and link is not None and _name_subject(subj, module, subjects):
                value = _constant(lit, module, link)
                if value is None:  # `name === config.searchName`, config one of two records: each name it may be
                    found = names.choices(Values(link), lit, module, None)
                    out += [(text(subj), c) for c, _, _ in found] if found and all(c for c, _, _ in found) else []
            if value is not None and _name_subject(subj, module, subjects):
                out.append((text(subj), value))
    return out


def dispatches(handler: Handler, resolve, link=None) -> tuple[list[Dispatch], list[Fallback]]:
    """Tool-name dispatch inside a tools/call handler, and what happens to any other name.

    A handler that only delegates (`return handle(request.params.name, args)`) is followed one call
    deep, to the function that dispatches: in its own module, or (with `link`) in another module of the boundary.
    A handler that dispatches some tools itself (`if (name === "x")`) and hands the request on for the others
    (`return run(request.params)`) has both read: the functions handed the request add the tools it did not name.
    A handler that delegates to one function per group of tools (`if (isNotesRequest(r)) return handleNotes(r)`)
    dispatches what each of them does."""
    fns = _dispatching(handler, resolve, link)
    looped = _looped(handler, fns, link)
    out: tuple[list[Dispatch], list[Fallback]] = ([], [])
    dispatching: list[ts.Node] = []  # the functions (after the handler) whose dispatches are in OUT
    for i, (fn, module, resolve_there, subjects) in enumerate(fns):
        found, fallbacks = _dispatch_in(handler, fn, resolve_there, module, link, subjects)
        if found and fn.id in looped:  # the function of one element of a loop: any other name goes on to the next,
            loop, where = looped[fn.id]
            after = _after(loop)  # then to what the handler (or its delegate) does after the loop
            fallbacks = [Fallback(handler=handler, node=after, form=_fallback_form(after), module=where)] \
                if after is not None and not any(f.node == after for f in out[1]) else []
        if found and i == 0:
            named, handed = {d.tool for d in found}, []
            for other, where, there, handed_subjects in _delegates(handler, fns, resolve):
                more, more_fallbacks = _dispatch_in(handler, other, there, where, link, handed_subjects)
                more = [d for d in more if d.tool not in named]
                if more:
                    named |= {d.tool for d in more}
                    found, handed = found + more, handed + more_fallbacks
            # What the handler does after its own dispatches is then the hand-over (`return run(request.params)`):
            # any other name meets the fallback of the function handed the request.
            return found, handed or fallbacks
        if found:
            known = {d.tool for d in out[0]}
            if known and _after_rejecting(handler, dispatching, fn, out[1], resolve):
                continue  # (`sanitize(result, name)` after `await execute(name)`, which throws for any other name)
            out[0].extend(d for d in found if d.tool not in known)
            out[1].extend(fallbacks)
            dispatching.append(fn)
    if fns:  # `if (isNotesRequest(request)) return handleNotes(request)`: the tools no function it calls dispatches
        fn, module, resolve_there, subjects = fns[0]
        known = {d.tool for d in out[0]}
        found = [d for d in _predicate_dispatches(handler, fn, resolve_there, module, link, subjects) if d.tool not in known]
        out[0].extend(found)
        if found and not out[1]:
            out[1].extend(_dispatch_in(handler, fn, resolve_there, module, link, subjects, found)[1])
    return out


def _after_rejecting(handler: Handler, earlier: list[ts.Node], fn: ts.Node, fallbacks: list, resolve) -> bool:
    """Whether the handler calls FN only after a call, on every path to it, of a function that dispatched before it
    (EARLIER), their fallbacks (FALLBACKS) all throwing for any name they do not dispatch: a name that reaches FN is
    one of theirs, so what FN compares the name with names no other tool (a result's clean-up for some of them)."""
    if not fallbacks or any(f.form != "throw" for f in fallbacks) or handler.fn is None:
        return False
    body = handler.branch if handler.branch is not None else handler.fn
    calls = [n for n in walk(body) if n.type == "call_expression"]
    hits = {n.id: (resolve(n) or (None,))[0] for n in calls}
    later = [n for n in calls if hits[n.id] == fn]
    first = [n for n in calls if any(hits[n.id] == f for f in earlier)]
    return bool(later) and bool(first) and all(any(dominates(a, b) for a in first) for b in later)




def _handed_in(callee: ts.Node | None, values: Values, link) -> list[tuple[Module, ts.Node]]:
    """(module, function) of what `p.m` (or a parameter `p` called itself) names at each call of the function P is a
    parameter of: member M of the argument in P's place (`runServer({ handleRequest: async (req) => ... })`), or that
    argument (`createServer(execute)` of `function createServer(handle)`), when that is a function."""
    callee = strip_casts(callee)
    if callee is not None and callee.type == "identifier":  # `handle(name, args)`, HANDLE a parameter itself
        obj, member = callee, ()
    elif callee is None or callee.type != "member_expression" or callee.child_by_field_name("property") is None:
        return []
    else:
        obj, member = strip_casts(callee.child_by_field_name("object")), (text(callee.child_by_field_name("property")),)
    scope = _parameter_scope(obj)
    if scope is None:
        return []
    index, path = parameters(scope)[text(obj)]
    out = []
    for cmod, call in link.callers(scope):
        args = call_args(call)
        value, where = (args[index], cmod) if index < len(args) else (None, cmod)
        for key in path + member:
            value, where = values.member(value, where, key, None, 0) if value is not None else (None, where)
        fn, fmod = values.function_of(value, where, None) if value is not None else (None, where)
        if fn is not None and fn.type in FUNCTION_TYPES:
            out.append((fmod, fn))
    return out


def _delegates(handler: Handler, fns: list[tuple[ts.Node, Module, object, frozenset[str]]], resolve
               ) -> list[tuple[ts.Node, Module, object, frozenset[str]]]:
    """Those of the functions the handler calls (FNS, from `_dispatching`) that a call of the handler hands the
    request to (`run(request.params)`, `run(request)`): an argument rooted at the handler's request parameter. A
    function handed only a name held in a variable (`isPlain(toolName)`) is a helper, not where tools are dispatched."""
    params = handler.fn.child_by_field_name("parameters") or handler.fn.child_by_field_name("parameter")
    first = params.named_children[0] if params is not None and params.type == "formal_parameters" and \
        params.named_children else params
    if first is not None and first.type in {"required_parameter", "optional_parameter"}:
        first = first.child_by_field_name("pattern")
    if first is None or first.type != "identifier":
        return []
    request, handed = text(first), []
    for n in walk(handler.fn):
        args = n.child_by_field_name("arguments") if n.type == "call_expression" else None
        if args is not None and any((member_chain(strip_casts(a)) or ("",))[0] == request for a in args.named_children):
            hit = resolve(n)
            handed += [hit[0]] if hit is not None else []
    return [(fn, m, r, s) for fn, m, r, s in fns[1:] if any(fn == h for h in handed)]


def _predicate_dispatches(handler: Handler, fn: ts.Node, resolve, module: Module, link, subjects: frozenset[str]
                          ) -> list[Dispatch]:
    """One dispatch per tool name a predicate of the boundary tests in `if (pred(...))`, to what its branch calls."""
    out: list[Dispatch] = []
    body = fn.child_by_field_name("body")
    for node in find(body, {"if_statement"}) if body is not None else ():
        cond = strip_casts(node.child_by_field_name("condition"))
        hit = resolve(cond) if cond is not None and cond.type == "call_expression" else None
        if hit is None:
            continue
        place = _callee_place(hit[0], module, resolve, link)
        if place is None:
            continue
        where = place[1]
        handed = _handed_names(cond, hit[0], module) | subjects
        tested = predicates.names(hit[0], where, lambda n, m: _name_subject(n, m, handed))
        target, tname = _called(node.child_by_field_name("consequence"), resolve) if tested else (None, None)
        out += [Dispatch(module=module, handler=handler, tool=tool, node=node, subject=text(cond), target=target,
                         target_name=tname) for tool in tested or ()]
    return out


def _dispatching(handler: Handler, resolve, link=None) -> list[tuple[ts.Node, Module, object, frozenset[str]]]:
    """(function, its module, the call resolver of that module, its parameters the handler hands a tool name): the
    handler, then the functions it calls: those its branch calls, when it answers several methods (a `prompts/get`
    branch's lookup of a prompt by name is no tool's dispatch)."""
    if handler.fn is None:
        return []
    out = [(handler.fn, handler.home, resolve, frozenset())]
    for n in walk(handler.branch if handler.branch is not None else handler.fn):
        if n.type == "call_expression":
            hit = resolve(n)
            if hit is None and link is not None:
                # A name bound to a wrapper of the function (`const wrapped = log.wrap(handleToolCall)`): what the
                # wrapper returns, and the functions it is handed, are followed like a direct call; a function member
                # of a parameter (`config.handleRequest(req)`), the function every call site hands in.
                values, callee = Values(link), n.child_by_field_name("function")
                made = values.function_of(callee, handler.home, None)
                found = [made[::-1], *values.handed(callee, handler.home, None)]
                if made[0] is None and not found[1:]:
                    found = _handed_in(callee, values, link)
                for where, fn in found:  # (`this.router.getHandler(name)`: the parameter it hands the name)
                    if fn is not None and not any(fn == f for f, _, _, _ in out):
                        out.append((fn, where, link.resolver(where), _handed_names(n, fn, handler.home)))
                continue
            if hit is None or any(hit[0] == f for f, _, _, _ in out):
                continue
            place = _callee_place(hit[0], handler.home, resolve, link)
            if place is not None:
                out.append((*place, _handed_names(n, hit[0], handler.home)))
    out += _handed_on(out, link)
    return out + _elements(out, link)


def _element_calls(fns: list, link):
    """(call, the loop, element function, its module) for each call in FNS (the handler and the functions it
    delegates to) of the loop variable of a `for (const mod of LIST)` inside the same function (`mod.handle(name)`,
    `handle(request)`): the function of each element of LIST."""
    if link is None:
        return
    values = Values(link)
    for fn, module, resolve, _ in fns:
        for n in walk(fn):
            if n.type == "call_expression" and resolve(n) is None:
                loop, found = _per_element(values, n.child_by_field_name("function"), module, fn)
                for element, where in found:
                    yield n, loop, module, element, where


def _elements(fns: list, link) -> list[tuple[ts.Node, Module, object, frozenset[str]]]:
    """The element functions of the loops in FNS (`_element_calls`), with the names each call hands them."""
    out = []
    for call, _, module, fn, where in _element_calls(fns, link):
        if not any(fn == f for f, _, _, _ in fns + out):
            out.append((fn, where, link.resolver(where), _handed_names(call, fn, module)))
    return out


def _callee_place(fn: ts.Node, module: Module, resolve, link) -> tuple[ts.Node, Module, object] | None:
    """(FN, its module, that module's call resolver) for a function a call in MODULE (whose resolver is RESOLVE)
    resolved to: in MODULE itself or, with LINK, in another module of the boundary."""
    if _root(fn) == module.tree.root_node:
        return fn, module, resolve
    other = link.module_of(fn) if link is not None else None
    return (fn, other, link.resolver(other)) if other is not None else None


MAX_HANDED = 3  # a tool name handed from function to function this many calls beyond those the handler makes


def _handed_on(fns: list, link) -> list[tuple[ts.Node, Module, object, frozenset[str]]]:
    """The functions a tool name is handed to further on (`const op = request.params.name; return run(op)` in a function
    the handler calls, then `switch (op)` in run): only calls that pass a name on, a few calls deep."""
    out, frontier = [], fns[1:]
    for _ in range(MAX_HANDED):
        nxt = []
        for fn, module, resolve, subjects in frontier:
            for n in walk(fn):
                if n.type != "call_expression":
                    continue
                hit = resolve(n)
                if hit is None or any(hit[0] == f for f, _, _, _ in fns + out + nxt):
                    continue
                names = _handed_names(n, hit[0], module, subjects)
                place = _callee_place(hit[0], module, resolve, link) if names else None
                if place is not None:
                    nxt.append((*place, names))
        out += nxt
        frontier = nxt
    return out


def _looped(handler: Handler, fns: list, link) -> dict[int, tuple[ts.Node, Module]]:
    """Function id -> the loop (and its module) of the handler or a function it delegates to (FNS) whose elements'
    member it is (`_per_element`)."""
    if handler.fn is None or link is None:
        return {}
    return {fn.id: (loop, module) for _, loop, module, fn, _ in _element_calls(fns, link)}


def _after(loop: ts.Node) -> ts.Node | None:
    """The return or throw statement that follows LOOP in its block, if one does."""
    sibling = loop.next_named_sibling
    while sibling is not None and sibling.type not in {"return_statement", "throw_statement"}:
        sibling = sibling.next_named_sibling
    return sibling


def _per_element(values: Values, callee: ts.Node | None, module: Module, within: ts.Node
                 ) -> tuple[ts.Node | None, list[tuple[ts.Node, Module]]]:
    """The functions CALLEE (`mod.handle`) stands for when its root is the variable of a `for (const mod of LIST)` loop
    inside WITHIN: the one of each element of LIST (an object, a namespace, a bundler's namespace object); with the
    loop."""
    chain = member_chain(strip_casts(callee)) or ()
    loop = next((a for a in ancestors(callee) if a.type == "for_in_statement"
                 and text(a.child_by_field_name("operator")) == "of"
                 and chain[:1] and chain[0] in loop_names(a.child_by_field_name("left"))), None) \
        if chain else None
    if loop is None or not within.start_byte <= loop.start_byte < within.end_byte:
        return None, []
    names, out = loop_names(loop.child_by_field_name("left")), []
    for element, emod, eframe in values.elements(loop.child_by_field_name("right"), module, None):
        frame = Frame(scope=loop, module=module, names=names, args=element[-1:], caller=emod, site=element[-1],
                      outer=eframe)
        fn, where = values.function_of(callee, module, frame)
        if fn is not None and not any(fn == f for f, _ in out):
            out.append((fn, where))
    return loop, out


def _handed_names(call: ts.Node, fn: ts.Node, module: Module, subjects: frozenset[str] = frozenset()) -> frozenset[str]:
    """The parameters of FN that CALL (written in MODULE, where SUBJECTS hold a name) hands a tool name:
    `run(request.params.name, args)`."""
    args = call_args(call)
    return frozenset(name for name, (i, path) in parameters(fn).items()
                     if not path and i < len(args) and _name_subject(strip_casts(args[i]), module, subjects))


def _root(node: ts.Node) -> ts.Node:
    while node.parent is not None:
        node = node.parent
    return node


def _dispatch_in(handler: Handler, fn: ts.Node, resolve, module: Module, link=None, subjects: frozenset[str] = frozenset(),
                 given: list[Dispatch] = ()) -> tuple[list[Dispatch], list[Fallback]]:
    """The dispatch written in `fn`, a function of `module` (the handler's own, or one it delegates to); GIVEN: the
    dispatches found there otherwise (by predicates), whose fallback is what follows the last of them."""
    found: list[Dispatch] = list(given)
    fallbacks: list[Fallback] = []
    tables: set[int] = set()
    body = fn.child_by_field_name("body")
    if body is None:
        return found, fallbacks
    # (a handler answering several methods: its tools/call branch only, a `prompts/get` branch's comparisons of
    # the prompt's name are no tool's dispatch)
    for node in walk(handler.branch if handler.branch is not None and fn == handler.fn else body):
        if node.type == "if_statement":
            for subject, tool in _comparisons(node.child_by_field_name("condition"), module, subjects, link):
                target, tname = _called(node.child_by_field_name("consequence"), resolve)
                found.append(Dispatch(module=module, handler=handler, tool=tool, node=node, subject=subject,
                                      target=target, target_name=tname))
            guard = _guard(node, module, subjects, link)
            if guard is not None:  # `if (name !== "x") throw ...`: what follows the guard implements x
                subject, tool = guard
                target, tname = _called_after(node, resolve)
                found.append(Dispatch(module=module, handler=handler, tool=tool, node=node, subject=subject,
                                      target=target, target_name=tname, form="guard"))
                consequence = node.child_by_field_name("consequence")
                fallbacks.append(Fallback(handler=handler, node=consequence, form=_fallback_form(consequence), module=module))
        elif node.type == "subscript_expression" and _name_subject(strip_casts(node.child_by_field_name("index")), module,
                                                                     subjects):
            table, tmod = _table(node.child_by_field_name("object"), module, link)
            # `HANDLERS[name](request)`: a lookup table of the tools; `ALL[name]`, ALL `Object.assign({}, A, B)` (or
            # made so by a function of the boundary): the entries of each source
            parts = [(table, tmod)] if table is not None else _merged_tables(node.child_by_field_name("object"), module, link)
            if parts and parts[0][0].id not in tables:
                entries = []
                for part, pmod in parts:
                    there = resolve if pmod is module else link.resolver(pmod)
                    entries += _table_dispatches(handler, part, text(node), there, pmod, link, method=_method_on(node, fn))
                refusal = _refused_miss(node, body)
                if refusal is not None and not entries and table is not None:  # `const kind = KINDS[name]; if
                    entries = [Dispatch(module=tmod, handler=handler, tool=key, node=pair, subject=text(node),  # (!kind)
                                        target=fn, target_name=module.qualified(fn), form="table")  # throw ...`: the
                               for key, pair in _pairs(table, tmod, link).items()]                   # keys are the tools
                served = _served_branch(node, body) if not entries and table is not None else None
                if served is not None:  # `const route = ROUTES[name]; if (route) { return call(args, route) }`: each
                    target, tname = _called(served.child_by_field_name("consequence"), resolve)  # key is served there
                    entries = [Dispatch(module=module, handler=handler, tool=key, node=served, subject=text(node),
                                        target=target, target_name=tname, form="name-equality")
                               for key in _pairs(table, tmod, link)] if target is not None else []
                if refusal is not None:  # (what any other name meets)
                    fallbacks.append(Fallback(handler=handler, node=refusal, form=_fallback_form(refusal), module=module))
                if entries or refusal is not None or table is None:  # (else a later lookup of the table may say what
                    tables.add(parts[0][0].id)  # it runs: `if (!T[name]) throw ...; return T[name].run(args)`)
                found += entries
        elif node.type == "switch_statement" and _name_subject(strip_casts(node.child_by_field_name("value")), module,
                                                               subjects):
            subject = text(strip_casts(node.child_by_field_name("value")))
            allowed = _allowed(node, fn, module, subject)
            for case in node.child_by_field_name("body").named_children:
                if case.type == "switch_case":
                    value = _constant(case.child_by_field_name("value"), module, link)
                    if value is not None and (allowed is None or value in allowed):  # (a name the guard rejects:
                        # a case no call reaches)
                        target, tname = _called(case, resolve)
                        found.append(Dispatch(module=module, handler=handler, tool=value, node=case, subject=subject,
                                              target=target, target_name=tname, form="switch-case"))
                elif case.type == "switch_default":
                    fallbacks.append(Fallback(handler=handler, node=case, form=_fallback_form(case), module=module))
    inside = [d for d in found if d.module is module and body.start_byte <= d.node.start_byte < body.end_byte]
    # (not a table's entries)
    if inside and body.type == "statement_block" and not any(d.form == "guard" for d in found):
        last_dispatch = max(d.node.end_byte for d in inside)
        for stmt in body.named_children:
            if stmt.start_byte > last_dispatch and stmt.type in {"return_statement", "throw_statement"}:
                rest = _fall_through(stmt, fn, module, inside) if stmt.type == "return_statement" else frozenset()
                if rest:  # `if (!TOOLS.has(name)) throw ...; if (name === "a") return a(); return b();`: b's
                    target, tname = _called(stmt, resolve)
                    found += [Dispatch(module=module, handler=handler, tool=tool, node=stmt, subject=inside[-1].subject,
                                       target=target, target_name=tname, form="fall-through") for tool in sorted(rest)]
                else:
                    fallbacks.append(Fallback(handler=handler, node=stmt, form=_fallback_form(stmt), module=module))
                break
    return found, fallbacks


def _fall_through(stmt: ts.Node, fn: ts.Node, module: Module, branches: list[Dispatch]) -> frozenset[str]:
    """The names the return STMT after a chain of name tests runs for: those a membership guard before it lets
    through (`if (!TOOLS.has(name)) throw ...`, a statement of FN's own body) that no branch of the chain names."""
    subjects = {d.subject for d in branches if d.form == "name-equality"}
    if len(subjects) != 1:
        return frozenset()
    allowed = _allowed(stmt, fn, module, next(iter(subjects)), top=True)
    return allowed - {d.tool for d in branches} if allowed else frozenset()


def _allowed(switch: ts.Node, fn: ts.Node, module: Module, subject: str, top: bool = False) -> frozenset[str] | None:
    """The names a guard of FN before SWITCH lets through to it: `if (!VALID.includes(name)) throw ...` (or a return),
    VALID a constant list (or `new Set([...])`) of strings; None when there is no such guard. TOP: only a guard that
    is a statement of FN's own body (one every call passes)."""
    for stmt in find(fn, {"if_statement"}):
        if stmt.end_byte > switch.start_byte or enclosing_function(stmt) != fn \
                or top and stmt.parent != fn.child_by_field_name("body"):
            continue  # (only a statement before the switch, not one around it)
        cond = stmt.child_by_field_name("condition")
        cond = strip_casts(cond.named_children[-1] if cond is not None and cond.named_children else cond)
        if cond is None or cond.type != "unary_expression" or text(cond.child_by_field_name("operator")) != "!":
            continue
        call = strip_casts(cond.child_by_field_name("argument"))
        callee = strip_casts(call.child_by_field_name("function")) if call is not None \
            and call.type == "call_expression" else None
        args = call_args(call) if callee is not None else []
        if callee is None or callee.type != "member_expression" or len(args) != 1 or text(args[0]) != subject \
                or text(callee.child_by_field_name("property")) not in {"includes", "has"}:
            continue
        held = strip_casts(callee.child_by_field_name("object"))
        held = strip_casts(value_of(module, held)) if held is not None and held.type == "identifier" else held
        if held is not None and held.type == "new_expression" and text(held.child_by_field_name("constructor")) == "Set" \
                and len(call_args(held)) == 1:  # `new Set(["a", "b"])`
            held = strip_casts(call_args(held)[0])
        names = literal(held) if held is not None and held.type == "array" else None
        if isinstance(names, list) and names and all(isinstance(n, str) for n in names) \
                and _leaves(stmt.child_by_field_name("consequence")):
            return frozenset(names)
    return None


def _leaves(node: ts.Node | None) -> bool:
    """Whether every path through NODE, a statement, leaves the function: it ends in a `throw` or a `return` after
    straight-line code, or is an `if` each of whose branches leaves (a `return` inside a `catch` of it does not)."""
    stmts = [c for c in node.named_children if c.type != "comment"] if node is not None \
        and node.type == "statement_block" else [node] if node is not None else []
    last = stmts[-1] if stmts else None
    if last is not None and last.type == "if_statement":
        alternative = last.child_by_field_name("alternative")
        other = alternative.named_children[-1] if alternative is not None and alternative.named_children else None
        return _leaves(last.child_by_field_name("consequence")) and _leaves(other)
    return last is not None and last.type in {"throw_statement", "return_statement"}


def _table(node: ts.Node | None, module: Module, link=None, depth: int = 0) -> tuple[ts.Node | None, Module]:
    """The object literal a name stands for (`const HANDLERS = { ... }`, in this module or, with LINK, imported from
    another), with its module; or None. A call of a function of the boundary stands for the one object literal it
    returns, or for the table whose keys it fills an object under, each entry's value wrapped (extract/copies.rekeyed);
    an object built from a table's entries under their keys (copies.entries_source) stands for that table: its values
    are what the entries run."""
    node = strip_casts(node)
    chain = member_chain(node) if node is not None and node.type == "member_expression" else None
    cls = enclosing(node, CLASS_TYPES) if chain and len(chain) == 2 and chain[0] == "this" else None
    if cls is not None:  # `this.tools[name]`: the one value the class gives the field (`this.tools = { ... }`)
        given = [strip_casts(v) for v in class_fields(cls).get(chain[1], [])]
        node = given[0] if len(given) == 1 else None
    for _ in range(4):  # (`const all = tools`, `tools` imported: the literal an alias stands for)
        if node is None or node.type != "identifier":
            break
        found = strip_casts(value_of(module, node))
        if (found is None or found.type == "identifier") and link is not None:
            found, module = Values(link).definition(node, module)
            found = strip_casts(found)
        node = found
    source = copies.entries_source(node)  # (`Object.entries(T).reduce((acc, [k, v]) => { acc[k] = ... }, {})`)
    if source is not None and depth < 4:
        return _table(source, module, link, depth + 1)
    if node is not None and node.type == "call_expression" and link is not None and depth < 4:
        hit = link.resolve(module, node)  # `HANDLERS = wrapAll()`, filling an object under another table's keys, or
        if hit is None:                   # `makeHandlers(api)` returning one object literal
            return None, module
        made = returned(hit[1])
        source = copies.rekeyed(hit[1]) or (made[0] if len(made) == 1 else None)
        return _table(source, hit[0], link, depth + 1) if source is not None else (None, module)
    return (node, module) if node is not None and node.type == "object" else (None, module)


def _merged_tables(node: ts.Node | None, module: Module, link=None) -> list[tuple[ts.Node, Module]]:
    """The tables merged into the one NODE stands for: `Object.assign({}, A, B)`, or a call of a function of the
    boundary that returns `Object.assign({}, ...tables)` of its rest parameter (`createRegistry(A, B)`), each source
    read as a table; [] for anything else."""
    node = strip_casts(node)
    if node is not None and node.type == "identifier":
        node = strip_casts(value_of(module, node))
    if node is None or node.type != "call_expression" or link is None:
        return []
    sources = call_args(node)
    if ".".join(member_chain(node.child_by_field_name("function")) or ()) != "Object.assign":
        hit = link.resolve(module, node)
        made = returned(hit[1]) if hit is not None else []
        inner = strip_casts(made[0]) if len(made) == 1 else None
        if inner is None or inner.type != "call_expression" \
                or ".".join(member_chain(inner.child_by_field_name("function")) or ()) != "Object.assign":
            return []
        rest_name = _rest_name(hit[1])
        rest = [a for a in call_args(inner)[1:] if a.type == "spread_element" and a.named_children
                and text(a.named_children[0]) == rest_name]
        if rest_name is None or len(rest) != 1 or len(call_args(inner)) != 2:
            return []
        first = strip_casts(call_args(inner)[0])
        if first is None or first.type != "object" or first.named_children:
            return []
        sources = [None, *sources]  # (the call's arguments are the rest parameter's values, after the empty target)
    out = []
    for a in sources[1:]:
        found = _table(a, module, link) if a is not None and a.type != "spread_element" else (None, module)
        if found[0] is not None:
            out.append(found)
    return out


def _rest_name(fn: ts.Node) -> str | None:
    """The name of FN's rest parameter when it is its only one (`function f(...tables)`), or None."""
    params = fn.child_by_field_name("parameters")
    items = [c for c in params.named_children if c.type != "comment"] if params is not None else []
    if len(items) != 1:
        return None
    pattern = items[0] if items[0].type == "rest_pattern" else items[0].child_by_field_name("pattern")
    pattern = items[0] if pattern is None else pattern
    return text(pattern.named_children[0]) if pattern.type == "rest_pattern" and pattern.named_children else None


def _object_branches(node: ts.Node | None) -> list[ts.Node]:
    """The object literals a conditional NODE may give (`c ? {...} : {}`, `c && {...}`, `a || {...}`, nested)."""
    node = strip_casts(node)
    if node is None:
        return []
    if node.type == "object":
        return [node]
    if node.type == "ternary_expression":
        return [o for k in ("consequence", "alternative") for o in _object_branches(node.child_by_field_name(k))]
    if node.type == "binary_expression" and text(node.child_by_field_name("operator")) in {"&&", "||", "??"}:
        return _object_branches(node.child_by_field_name("right")) + (
            [] if text(node.child_by_field_name("operator")) == "&&" else _object_branches(node.child_by_field_name("left")))
    return []


def _pairs(table: ts.Node, module: Module, link=None) -> dict[str, ts.Node]:
    """Key -> pair of an object literal, a computed key (`[fetchTool.name]: fetch`) read as the constant string its
    expression stands for (keys are values like any other); one whose value is not known is left out."""
    out = {}
    for key, pair in object_pairs(table).items():
        computed = pair.child_by_field_name("key") if pair.type == "pair" else None
        if computed is not None and computed.type == "computed_property_name":
            inner = computed.named_children[0] if computed.named_children else None
            key = _constant(inner, module, link)
            if key is None:
                continue
        out[key] = pair
    return out


def _assigned_into(table: ts.Node, module: Module, link=None) -> list[tuple[ts.Node, Module]]:
    """The tables copied into TABLE, a variable's object literal, within the scope it is declared in:
    `Object.assign(registry, { a: ..., b: ... })` (each object after the first argument)."""
    decl = table.parent
    if decl is None or decl.type != "variable_declarator" or decl.child_by_field_name("name").type != "identifier":
        return []
    name = text(decl.child_by_field_name("name"))
    scope = enclosing_function(decl) or _root(decl)
    out = []
    for call in find(scope, {"call_expression"}):
        args = call_args(call)
        if ".".join(member_chain(call.child_by_field_name("function")) or ()) == "Object.assign" and args \
                and text(strip_casts(args[0])) == name and (enclosing_function(call) or _root(call)) == scope:
            out += [found for a in args[1:] if (found := _table(a, module, link))[0] is not None]
    return out


def _method_on(lookup: ts.Node, fn: ts.Node) -> str | None:
    """The method called on what a table lookup gives, in FN: `T[name].run(args)`, or `const h = T[name]` then
    `h.run(args)`, or the member read of it (`return T[name]?.handler`); None when no method is called or read on it."""
    parent = lookup.parent
    while parent is not None and parent.type in {"parenthesized_expression", "non_null_expression", "as_expression"}:
        parent = parent.parent
    if parent is not None and parent.type == "member_expression" and parent.child_by_field_name("object") is not None:
        return text(parent.child_by_field_name("property"))  # (`T[name].run(args)`; or read, not called there:
        # `return T[name]?.handler`, the member's function what the caller runs)
    if parent is not None and parent.type == "variable_declarator" and parent.child_by_field_name("name").type == "identifier":
        name = text(parent.child_by_field_name("name"))
        for call in find(fn, {"call_expression"}):
            chain = member_chain(call.child_by_field_name("function")) or ()
            if len(chain) == 2 and chain[0] == name and call.start_byte > lookup.start_byte:
                return chain[1]
    return None


def _table_dispatches(handler: Handler, table: ts.Node, subject: str, resolve, module: Module, link=None,
                      depth: int = 0, method: str | None = None) -> list[Dispatch]:
    """One dispatch per entry of a lookup table whose key is a tool name and whose value is its implementation (a
    function of the boundary, the function a call of one returns: `get: handleGet(api)`, or the method METHOD of the
    class an entry `new C()` makes, when the lookup's result has METHOD called: `T[name].run(args)`); entries whose
    value is anything else are no dispatch. A spread entry adds the entries
    of the table it names, or of the object literals a function of the boundary returns (`...makeHandlers(api)`)."""
    out = []
    for spread in (c for c in table.named_children if c.type == "spread_element" and c.named_children):
        inner = strip_casts(spread.named_children[0])
        if depth > 4 or inner is None:
            continue
        if inner.type in {"ternary_expression", "binary_expression"}:  # `...(graph ? { plan: runPlan } : {})`, `...(a
            for branch in _object_branches(inner):                   # && { b })`: the entries of each object
                out += _table_dispatches(handler, branch, subject, resolve, module, link, depth + 1, method)
            continue
        if inner.type == "identifier":
            more, mmod = _table(inner, module, link)
            there = resolve if mmod is module else link.resolver(mmod)
            out += _table_dispatches(handler, more, subject, there, mmod, link, depth + 1, method) if more is not None else []
        elif inner.type == "call_expression":
            hit = resolve(inner)
            place = _callee_place(hit[0], module, resolve, link) if hit is not None else None
            _, where, there = place if place is not None else (None, None, None)
            for value in (returned(hit[0]) if place is not None else []):
                more, mmod = _table(value, where, link)
                there = there if mmod is where else link.resolver(mmod)
                out += _table_dispatches(handler, more, subject, there, mmod, link, depth + 1, method) if more is not None else []
    for more, mmod in _assigned_into(table, module, link) if depth <= 4 else ():  # `Object.assign(table, {...})`
        there = resolve if mmod is module else link.resolver(mmod)
        out += _table_dispatches(handler, more, subject, there, mmod, link, depth + 1, method)
    values = Values(link) if link is not None else None
    for key, pair in _pairs(table, module, link).items():  # shorthand entries (`{ purge }`) are their own value
        value = strip_casts(pair_value(pair))
        if value is None:
            continue
        if value.type == "shorthand_property_identifier":
            target = module.functions.get(key)
            tname = key
        elif value.type in FUNCTION_TYPES:
            target, tname = value, module.qualified(value)
        elif value.type in {"identifier", "member_expression"}:
            hit = resolve(value)
            target, tname = hit if hit is not None else (module.functions.get(text(value)), text(value))
        elif value.type == "call_expression" and method is not None and link is not None \
                and tslib.required_spec(value) is not None:  # `send: require("./tools/send")`, the lookup's
            target, tname = _loaded(value, module, link, method), f"{key}.{method}"  # `.handler(args)`: that module's
        elif value.type == "call_expression" and link is not None:  # `handleGet(api)`: the function it returns
            fn, fmod = values.function_of(value, module, None)
            if fn is None or fn.type not in FUNCTION_TYPES:
                continue
            target, tname = fn, fmod.qualified(fn)
        elif value.type == "object" and method is not None:  # `list: { inputSchema, handler }`, the lookup's
            target = _member_function(value, method) or (      # `.handler(args)`: that member's function (a name
                _entry_function(values, value, module, method) if values is not None else None)  # of one included)
            tname = f"{key}.{method}"
        elif value.type == "new_expression" and method is not None and link is not None:  # `get: new GetTool()`, the
            made = values.constructed(value, module, None)  # lookup's `.run(args)`: that class's method
            fn, _ = values.class_member(made[0], made[1], method) if made is not None else (None, module)
            if fn is None or fn.type not in FUNCTION_TYPES:
                continue
            target, tname = fn, f"{made[1]}.{method}"
        else:
            continue
        if target is None:
            continue  # `SCHEMAS[name]`, `LIMITS[name]`: a table of data, not of implementations
        out.append(Dispatch(module=module, handler=handler, tool=key, node=pair, subject=subject,
                            target=target, target_name=tname, form="table"))
    return out


def _guard(node: ts.Node, module: Module, subjects: frozenset[str] = frozenset(), link=None) -> tuple[str, str] | None:
    """(subject, tool name) of `if (subject !== "literal") <throw or return>` with no else: an exclusion guard."""
    cond = strip_casts(node.child_by_field_name("condition"))
    consequence = node.child_by_field_name("consequence")
    if cond is None or cond.type != "binary_expression" or text(cond.child_by_field_name("operator")) not in {"!==", "!="} \
            or node.child_by_field_name("alternative") is not None or consequence is None:
        return None
    body = [c for c in consequence.named_children if c.type != "comment"] if consequence.type == "statement_block" else [consequence]
    if not body or body[-1].type not in {"throw_statement", "return_statement"}:
        return None
    left, right = cond.child_by_field_name("left"), cond.child_by_field_name("right")
    for subj, lit in ((left, right), (right, left)):
        value = _constant(lit, module, link) if _name_subject(subj, module, subjects) else None
        if value is not None:
            return text(subj), value
    return None


def _refused_miss(lookup: ts.Node, body: ts.Node) -> ts.Node | None:
    """The consequence of `if (!v) <throw or return>` in BODY, when LOOKUP (`TABLE[name]`) initialises `const v`: a
    table of data whose keys are the only names served, any other being refused; else None."""
    found = _branch_on(lookup, body, "!", {"throw_statement", "return_statement"})
    return found.child_by_field_name("consequence") if found is not None else None


def _served_branch(lookup: ts.Node, body: ts.Node) -> ts.Node | None:
    """The `if (v) { ...; return ... }` of BODY, when LOOKUP (`TABLE[name]`) initialises `const v` and the branch its
    truth guards ends by returning: a table of data (`{ list_items: { method: "GET", path: "/items" } }`) whose keys
    are the names that branch serves, handing the entry found to the code that does it; else None."""
    return _branch_on(lookup, body, "", {"return_statement"})


def _branch_on(lookup: ts.Node, body: ts.Node, prefix: str, ends: set[str]) -> ts.Node | None:
    """The first `if (PREFIX v)` after `const v = LOOKUP` in BODY whose consequence ends with a statement of ENDS."""
    decl = lookup.parent
    name = decl.child_by_field_name("name") if decl is not None and decl.type == "variable_declarator" else None
    if name is None or name.type != "identifier" or strip_casts(decl.child_by_field_name("value")) != lookup:
        return None
    for node in find(body, {"if_statement"}):
        cond, consequence = strip_casts(node.child_by_field_name("condition")), node.child_by_field_name("consequence")
        if cond is None or text(cond) != prefix + text(name) or consequence is None or node.start_byte < decl.end_byte:
            continue
        stmts = [c for c in consequence.named_children if c.type != "comment"] \
            if consequence.type == "statement_block" else [consequence]
        if stmts and stmts[-1].type in ends:
            return node
    return None


def _called_after(node: ts.Node, resolve) -> tuple[ts.Node | None, str | None]:
    """The first call after `node`, in the statements that follow it in its block, that resolves to a function."""
    sibling = node.next_named_sibling
    while sibling is not None:
        hit = _called(sibling, resolve)
        if hit[0] is not None:
            return hit
        sibling = sibling.next_named_sibling
    return None, None


def _fallback_form(node: ts.Node) -> str:
    for n in walk(node):
        if n.type == "throw_statement":
            return "throw"
        if n.type == "pair" and text(n.child_by_field_name("key")) == "isError":
            return "error-result"
    return "result"


def _called(node: ts.Node | None, resolve) -> tuple[ts.Node | None, str | None]:
    """The first call in a branch that resolves to a function of the boundary."""
    if node is None:
        return None, None
    for n in walk(node):
        if n.type == "call_expression":
            target = resolve(n)
            if target is not None:
                return target
    return None, None


def unread_names(handler: Handler, resolve=None, link=None) -> list[tuple[Module, ts.Node]]:
    """Switch cases of a tools/call dispatch whose tool name is not a literal the tool can read, with their module."""
    fns = _dispatching(handler, resolve, link) if resolve is not None else \
        [(handler.fn, handler.home, None, frozenset())] if handler.fn is not None else []
    out = []
    for fn, module, _, subjects in fns:
        body = fn.child_by_field_name("body")
        for node in walk(body) if body is not None else []:
            if node.type == "switch_statement" and _name_subject(strip_casts(node.child_by_field_name("value")), module,
                                                                   subjects):
                for case in node.child_by_field_name("body").named_children:
                    if case.type == "switch_case" and _constant(case.child_by_field_name("value"), module, link) is None:
                        out.append((module, case))
    return out


def lookups(handler: Handler, tools: list, resolve, link=None) -> tuple[list[Dispatch], list[Fallback]]:
    """A lookup among tool objects: `const tool = TOOLS.find((t) => t.schema.name === name)`, then
    `tool.handle(...)`. Each descriptor object that sits at that member path of a tool object (`{schema: {name, ...},
    handle}`) is dispatched to the function at the called member of its tool object; `if (!tool) ...` is the
    fallback. Which descriptors are tools at all is the listing's to say (extract/listing.py)."""
    found: list[Dispatch] = []
    fallbacks: list[Fallback] = []
    for fn, module, fresolve, subjects in _dispatching(handler, resolve, link):
        body = fn.child_by_field_name("body")
        for call in (n for n in walk(body) if n.type == "call_expression") if body is not None else ():
            lookup = _lookup(call, module, link) or _summarised_lookup(call, module, fresolve, subjects)
            if lookup is None:
                continue
            var, path = lookup
            scope = body
            member, at, where = _called_member(scope, var), call, module
            if member is None:  # `run(tool, args)`, which calls `t.handler(input)`: dispatched there (on its path)
                member, at, where = _handed_member(scope, var, fresolve, link) or (None, call, module)
            if member is None:
                continue
            for t in tools:
                target = _member_function(_holder(t.node, path), member)
                if t.form == "descriptor" and target is not None:
                    found.append(Dispatch(module=where, handler=handler, tool=t.name, node=at, subject=text(call),
                                          target=target, target_name=f"{t.name}.{member}", form="lookup"))
            fallbacks += _misses(handler, scope, module, var)
            if found:
                return found, fallbacks
    return found, fallbacks


def methods(handler: Handler, tools: list, resolve, link=None) -> tuple[list[Dispatch], list[Fallback]]:
    """A call of the method the tool's name names on the handler's own object: `this[name](args)` (or with the
    name normalised: `this[name.replace(prefix, "")]`), in a class. Each listed tool whose name is a method of that
    class (its own or one it inherits) is dispatched to that method; `if (!this[name]) throw ...` is the fallback."""
    found: list[Dispatch] = []
    fallbacks: list[Fallback] = []
    if link is None:
        return found, fallbacks
    values = Values(link)
    for fn, module, _, subjects in _dispatching(handler, resolve, link):
        cls = enclosing(fn, CLASS_TYPES)
        body = fn.child_by_field_name("body")
        if cls is None or body is None:
            continue
        for node in walk(body):
            if node.type != "subscript_expression" or text(node.child_by_field_name("object")) != "this" \
                    or not _name_subject(strip_casts(node.child_by_field_name("index")), module, subjects):
                continue
            parent = node.parent
            while parent is not None and parent.type in {"parenthesized_expression", "non_null_expression"}:
                parent = parent.parent
            if parent is None or parent.type == "unary_expression":  # (`if (!this[name])`: the test, below)
                continue
            callee = parent if parent.type == "member_expression" and text(parent.child_by_field_name("property")) \
                in {"call", "apply"} else node  # (`this[name].call(this, args)`)
            call = callee.parent
            if call is None or call.type != "call_expression" or call.child_by_field_name("function") != callee:
                continue
            for t in tools:
                target, tmod = values.class_member(module, class_name_of(cls), t.name)
                if target is not None and (target.type in FUNCTION_TYPES or target.type == "method_definition"):
                    found.append(Dispatch(module=tmod, handler=handler, tool=t.name, node=call, subject=text(node),
                                          target=target, target_name=f"{class_name_of(cls)}.{t.name}", form="method"))
            fallbacks += _misses(handler, body, module, text(node), leaving=True)
            if found:
                return found, fallbacks
    return found, fallbacks


def _misses(handler: Handler, scope: ts.Node, module: Module, held: str, leaving: bool = False) -> list[Fallback]:
    """The fallbacks of a lookup whose result HELD (its text: `tool`, `this[name]`) is tested in SCOPE: the branch of
    each `if (!HELD)`, that always leaves when LEAVING (what a name not found meets)."""
    out = []
    for test in walk(scope):
        cond = strip_casts(test.child_by_field_name("condition")) if test.type == "if_statement" else None
        arg = strip_casts(cond.child_by_field_name("argument")) if cond is not None and cond.type == "unary_expression" \
            and text(cond.child_by_field_name("operator")) == "!" else None
        consequence = test.child_by_field_name("consequence")
        if arg is not None and text(arg) == held and (not leaving or _leaves(consequence)):
            out.append(Fallback(handler=handler, node=consequence, form=_fallback_form(consequence), module=module))
    return out


def generic(handler: Handler, resolve, link=None) -> tuple[ts.Node, Module, ts.Node] | None:
    """(function, its module, the refusal) when the handler, or a function it delegates to, runs one code for every
    tool: it finds the tool among its tool objects by name (`for (const t of tools) if (t.name === name) found = t`,
    or `const found = tools.find((t) => t.name === name)`) and refuses a name it does not find (`if (!found) throw`);
    what follows is the implementation of each tool found there (a generic executor of the tool's data)."""
    for fn, module, _, subjects in _dispatching(handler, resolve, link):
        body = fn.child_by_field_name("body")
        matched: set[str] = set()
        for n in walk(body) if body is not None else ():
            if n.type == "call_expression":
                found = _lookup(n, module, link)
                matched |= {found[0]} if found is not None else set()
            elif n.type == "for_in_statement":
                names = loop_names(n.child_by_field_name("left"))
                for term in (x for x in walk(n.child_by_field_name("body")) if x.type == "binary_expression"
                             and text(x.child_by_field_name("operator")) in {"===", "=="}):
                    sides = [strip_casts(term.child_by_field_name(k)) for k in ("left", "right")]
                    if any((member_chain(a) or ("",))[0] in names and (member_chain(a) or ())[-1:] == ("name",)
                           and _name_subject(b, module, subjects) for a, b in (sides, sides[::-1])):
                        stmt = next((a for a in ancestors(term) if a.type == "if_statement"), None)
                        matched |= {text(a.child_by_field_name("left")) for a in walk(stmt)
                                    if a.type == "assignment_expression"} if stmt is not None else set()
        for n in walk(body) if body is not None else ():
            cond = strip_casts(n.child_by_field_name("condition")) if n.type == "if_statement" else None
            arg = strip_casts(cond.child_by_field_name("argument")) if cond is not None and cond.type == "unary_expression" \
                else None
            if arg is None or flow._throws(n.child_by_field_name("consequence")) is None:
                continue
            if text(arg) in matched or arg.type == "call_expression" and _membership_test(arg, module, subjects, link):
                return fn, module, n
    return None


def _membership_test(call: ts.Node, module: Module, subjects: frozenset[str], link) -> bool:
    """Whether CALL (`toolExists(name)`) hands the tool's name to a function of the boundary that returns whether some
    tool object of a list has that name (`return TOOLS.some((t) => t.name === n)`, or `.find(...)`): `if
    (!toolExists(name)) throw` refuses every name but those of the list's tools, as a lookup does."""
    args = call_args(call)
    hit = link.resolve(module, call) if link is not None else None
    if hit is None:
        return False
    fn = hit[1]
    handed = [i for i, a in enumerate(args) if _name_subject(strip_casts(a), module, subjects)]
    named = {name for name, (index, path) in parameters(fn).items() if index in handed and not path}
    for ret in returned(fn):
        for test in [ret, *find(ret, {"call_expression"})]:
            test = strip_casts(test)
            callee = test.child_by_field_name("function") if test is not None and test.type == "call_expression" else None
            cb = call_args(test)[0] if callee is not None and callee.type == "member_expression" \
                and text(callee.child_by_field_name("property")) in {"some", "find", "findIndex"} and call_args(test) \
                else None
            cb = strip_casts(cb)
            if cb is not None and cb.type in FUNCTION_TYPES and _name_compared(
                    cb, lambda other: other is not None and other.type == "identifier" and text(other) in named) is not None:
                return True
    return False


def forwarded(fallback: Fallback, link) -> tuple[ts.Node, Module, ts.Node] | None:
    """(function, its module, the call) when the fallback of a dispatch that does not refuse hands the tool's name on
    (`default: result = await callTool(name, args)`, to a backend that serves the tools with no case of their own):
    that function is where each of those tools is implemented."""
    if fallback.form != "result" or link is None:
        return None
    module = fallback.module or fallback.handler.home
    for call in find(fallback.node, {"call_expression"}):
        if any(_name_subject(strip_casts(a), module) for a in call_args(call)):
            hit = link.resolve(module, call)
            if hit is not None:
                return hit[1], hit[0], call
    return None


def _member_call(scope: ts.Node, var: str) -> ts.Node | None:
    """The call of a member of VAR in SCOPE (`tool.handle(args)`), or None."""
    return next((n for n in walk(scope) if n.type == "call_expression"
                 and len(chain := member_chain(n.child_by_field_name("function")) or ()) == 2 and chain[0] == var), None)


def _called_member(scope: ts.Node, var: str) -> str | None:
    """The member of VAR that SCOPE calls (`tool.handle(args)`: "handle"), or None."""
    call = _member_call(scope, var)
    return member_chain(call.child_by_field_name("function"))[1] if call is not None else None


def _handed_member(scope: ts.Node, var: str, resolve, link) -> tuple[str, ts.Node, Module] | None:
    """(member, its call, that call's module) of VAR called by a function of the boundary that SCOPE hands VAR to
    (`run(tool, args)`, and in `function run(t, input) { ... t.handler(input) }`: "handler"), or None."""
    for call in (n for n in walk(scope) if n.type == "call_expression"):
        args = [strip_casts(a) for a in call_args(call)]
        at = [i for i, a in enumerate(args) if a is not None and a.type == "identifier" and text(a) == var]
        hit = resolve(call) if at and resolve is not None and link is not None else None
        body = hit[0].child_by_field_name("body") if hit is not None else None
        where = link.module_of(hit[0]) if body is not None else None
        if where is None:
            continue
        for name, index in plain_parameters(hit[0]).items():
            member_call = _member_call(body, name) if index in at else None
            if member_call is not None:
                return member_chain(member_call.child_by_field_name("function"))[1], member_call, where
    return None


def _summarised_lookup(call: ts.Node, module: Module, resolve, subjects: frozenset[str]
                       ) -> tuple[str, tuple[str, ...]] | None:
    """(variable, member path) of `const v = findTool(name)`, a function of the boundary handed the tool's name that
    returns a lookup of it (`return TOOLS.find((t) => t.PATH.name === n)`), or None."""
    decl = call.parent.parent if call.parent is not None and call.parent.type == "await_expression" else call.parent
    if decl is None or decl.type != "variable_declarator" or decl.child_by_field_name("name").type != "identifier" \
            or resolve is None:
        return None
    hit = resolve(call)
    if hit is None:
        return None
    named = _handed_names(call, hit[0], module, subjects)
    for ret in returned(hit[0]) if named else ():
        ret = strip_casts(ret)
        callee = strip_casts(ret.child_by_field_name("function")) if ret is not None and ret.type == "call_expression" \
            else None
        cb = strip_casts(call_args(ret)[0]) if callee is not None and callee.type == "member_expression" \
            and text(callee.child_by_field_name("property")) == "find" and len(call_args(ret)) == 1 else None
        path = _name_compared(cb, lambda other: other is not None and other.type == "identifier" and text(other) in named) \
            if cb is not None and cb.type in FUNCTION_TYPES else None
        if path is not None:
            return text(decl.child_by_field_name("name")), path
    return None


def _lookup(call: ts.Node, module: Module, link=None) -> tuple[str, tuple[str, ...]] | None:
    """(variable, member path) of `const v = LIST.find((t) => t.PATH.name === name)`, or of `const v = M.get(name)`
    of a Map the program (LINK's modules, else MODULE) keys by its tools' names (`M.set(t.name, t)`: path ()); or
    None."""
    callee = strip_casts(call.child_by_field_name("function"))
    args = [a for a in (call.child_by_field_name("arguments").named_children
                        if call.child_by_field_name("arguments") is not None else []) if a.type != "comment"]
    method = text(callee.child_by_field_name("property")) if callee is not None and callee.type == "member_expression" \
        else None
    if method not in {"find", "get"} or len(args) != 1 \
            or method == "find" and strip_casts(args[0]).type not in FUNCTION_TYPES:
        return None
    decl = call.parent.parent if call.parent is not None and call.parent.type == "await_expression" else call.parent
    if decl is None or decl.type != "variable_declarator" or decl.child_by_field_name("name").type != "identifier":
        return None
    if method == "get":
        receiver = member_chain(strip_casts(callee.child_by_field_name("object"))) or ()
        if not receiver or not _name_subject(strip_casts(args[0]), module):
            return None
        memo = link.memo.setdefault("dispatch.keyed_by_name", {}) if link is not None else {}
        if receiver[-1] not in memo:  # (asked at every `x.get(name)` of the handlers: read once per field)
            memo[receiver[-1]] = _keyed_by_name(list(link.by_path.values()) if link is not None else [module],
                                                receiver[-1])
        return (text(decl.child_by_field_name("name")), ()) if memo[receiver[-1]] else None
    path = _name_compared(strip_casts(args[0]), lambda other: _name_subject(other, module))
    return (text(decl.child_by_field_name("name")), path) if path is not None else None


def _keyed_by_name(modules: list[Module], field: str) -> bool:
    """Whether MODULES store tool objects into a Map named FIELD (a local, or `this.FIELD`) by their names:
    `FIELD.set(t.name, t)`, each store so (another key would make the lookup find no tool by its name)."""
    stores = [c for m in modules for c in m.nodes("call")
              if (member_chain(c.child_by_field_name("function")) or ())[-2:] == (field, "set")]

    def by_name(call: ts.Node) -> bool:
        args = call_args(call)
        key = member_chain(strip_casts(args[0])) if len(args) == 2 else None
        return bool(key) and len(key) == 2 and key[1] == "name" and text(strip_casts(args[1])) == key[0]
    return bool(stores) and all(by_name(c) for c in stores)


def _name_compared(cb: ts.Node, subject) -> tuple[str, ...] | None:
    """The member path P of `(t) => t.P.name === x` (either side, `==` too), a callback of one parameter whose tool
    object's name is compared with a value SUBJECT accepts (the tool's name); None when it compares none."""
    params = cb.child_by_field_name("parameters") or cb.child_by_field_name("parameter")
    names = [text(p) for p in ([params] if params is not None and params.type == "identifier" else
                               params.named_children if params is not None else [])]
    if len(names) != 1:
        return None
    param = names[0].split(":")[0].strip()
    for term in (n for n in walk(cb) if n.type == "binary_expression"
                 and text(n.child_by_field_name("operator")) in {"===", "=="}):
        left, right = term.child_by_field_name("left"), term.child_by_field_name("right")
        for own, other in ((left, right), (right, left)):
            chain = _called_chain(strip_casts(own)) or ()
            if len(chain) >= 2 and chain[0] == param and chain[-1] == "name" and subject(strip_casts(other)):
                return tuple(chain[1:-1])
    return None


def _called_chain(node: ts.Node | None) -> tuple[str, ...] | None:
    """The member chain of NODE, a method called with no argument on the way written `m()` (`t.schema().name`:
    ("t", "schema()", "name")); None for anything else."""
    chain = member_chain(node)
    if chain is not None or node is None or node.type != "member_expression":
        return chain
    inner = strip_casts(node.child_by_field_name("object"))
    if inner is None or inner.type != "call_expression" or call_args(inner):
        return None
    head = _called_chain(strip_casts(inner.child_by_field_name("function")))
    return (*head[:-1], head[-1] + "()", text(node.child_by_field_name("property"))) if head and len(head) >= 2 else None


def _holder(descriptor: ts.Node, path: tuple[str, ...]) -> ts.Node | None:
    """The object literal that holds DESCRIPTOR at member PATH (`{schema: DESCRIPTOR}` for ("schema",)); for a
    method's step (("schema()",): `schema() { return DESCRIPTOR }`), the class whose method returns it."""
    node = descriptor
    for key in reversed(path):
        if key.endswith("()"):
            up = node.parent
            while up is not None and up.type in {"parenthesized_expression", "as_expression", "satisfies_expression"}:
                up = up.parent
            method = up.parent.parent if up is not None and up.type == "return_statement" and up.parent is not None \
                and up.parent.type == "statement_block" else None
            if method is None or method.type != "method_definition" \
                    or text(method.child_by_field_name("name")) != key[:-2] or method.parent is None:
                return None
            node = method.parent.parent  # (the class body's class)
            if node is None or node.type not in CLASS_TYPES:
                return None
            continue
        pair = node.parent
        while pair is not None and pair.type in {"as_expression", "satisfies_expression", "parenthesized_expression"}:
            pair = pair.parent
        if pair is None or pair.type != "pair" or text(pair.child_by_field_name("key")).strip("'\"") != key:
            return None
        node = pair.parent
    return node if node is not None and (node.type == "object" or node.type in CLASS_TYPES) else None


def _loaded(call: ts.Node, module: Module, link, key: str) -> ts.Node | None:
    """The function member KEY holds of what the module CALL `require()`s gives as its value (`module.exports = {
    definition, handler }`), or None when CALL loads no module of the boundary."""
    if tslib.required_spec(call) is None:
        return None
    values = Values(link)
    obj, where = values.definition(call, module)
    return _entry_function(values, obj, where, key) if obj is not None and obj.type == "object" else None


def _entry_function(values: Values, obj: ts.Node, module: Module, key: str) -> ts.Node | None:
    """The function the member KEY of the object literal OBJ holds, written there or named (`{ handler: listHandler
    }`, `{ handler: Handlers.list }`), or None."""
    member, where = values.member(obj, module, key, None, 0)
    fn, _ = values.function_of(member, where, None) if member is not None else (None, where)
    return fn if fn is not None and fn.type in FUNCTION_TYPES else None


def _member_function(obj: ts.Node | None, key: str) -> ts.Node | None:
    """The function at member KEY of an object literal (a method or a function value), or None."""
    if obj is None:
        return None
    if obj.type in CLASS_TYPES:  # (a class whose method returns the descriptor: its method KEY)
        body = obj.child_by_field_name("body")
        return next((m for m in (body.named_children if body is not None else []) if m.type == "method_definition"
                     and text(m.child_by_field_name("name")) == key), None)
    pair = object_pairs(obj).get(key)
    if pair is None:
        return object_method(obj, key)
    value = strip_casts(pair_value(pair))
    return value if value is not None and value.type in FUNCTION_TYPES else None
