"""Whether a value read from a tool's input reaches any use that could misbehave on a value of another type: followed
through wrappers (`x ?? d`, casts), locals, and into the functions of the boundary it is handed to (by position or
as an entry of an object argument, also to a method of a local instance: extract/instances.py), a few calls down.
A value only tested (compared, switched on, negated, asked its type), written to a log or an error message, never
read where it is handed, or read there only after a check that rejects its bad values, reaches nothing. Read by
analyse/validation.py for the fields a tool's path hands on."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

import tree_sitter as ts

from auditor.analyse import callee_checks, guards
from auditor.analyse.logs import log_call
from auditor.extract import instances
from auditor.extract.bindings import class_fields, references, value_of, visible
from auditor.extract.frames import plain_parameters
from auditor.extract.values import Values
from auditor.extract.syntax import (CLASS_TYPES, FUNCTION_TYPES, ancestors, call_args, dominates, enclosing_function,
                                    find, member_chain, parameter_pattern, strip_casts, text)

_DEPTH = 4  # calls followed down from the tool's own code
_PENDING = object()  # the answer of a (function, parameter) still being read (_parameter)
COMPARISONS = frozenset({"===", "!==", "==", "!=", "<", ">", "<=", ">=", "in", "instanceof"})
_WRAPPERS = frozenset({"parenthesized_expression", "as_expression", "non_null_expression", "satisfies_expression",
                       "type_assertion"})
_CARRYING = frozenset({"??", "||", "&&", "+", "-", "*", "/", "%", "**"})
_CONVERSIONS = frozenset({"Number", "parseInt", "parseFloat", "Number.parseInt", "Number.parseFloat", "Math.floor",
                          "Math.ceil", "Math.round", "Math.trunc", "Math.abs"})
_TEXTS = frozenset({"JSON.stringify"})  # a text of the value: it goes where the text goes
_ADDING = frozenset({"push", "unshift"})
_LOOKUPS = frozenset({"has", "includes", "indexOf", "lastIndexOf", "get", "delete"})
_ECHO = frozenset({"pair", "object", "array", "template_substitution", "template_string", "binary_expression",
                   "ternary_expression"})  # (what holds a value written into a result as it is)
_TEXT = frozenset({"JSON.stringify", "String", "encodeURIComponent", "encodeURI"})  # (text of a value, written
# where the value would be)
_CONDITIONS = frozenset({"if_statement", "while_statement", "do_statement", "switch_statement", "for_statement"})


def harmless(p, module, node: ts.Node, truth: bool = True, skip=None, echo: bool = True, strings: bool = False,
             optional: bool = False) -> bool:
    """Whether the value NODE reads reaches no use but tests, logs and error messages, here or in the functions of
    the boundary it is handed to. SKIP: code of the function NODE is in that is not the tool's (another tool's
    branch of a dispatch): a local holding the value read there is another tool's use. ECHO: what the function
    NODE is in returns is the tool's result (a value written into it goes back to the caller); else its result is
    followed where its calls keep it. STRINGS: the field declares a string and nothing more (no values, pattern,
    format or length), which a string's method called on the value checks where it is used; OPTIONAL: the field may
    be left out, so such a call made on a string default of it (`(value ?? "").trim()`) checks it as well."""
    own = enclosing_function(node) if echo else None
    return _value(_Ctx(link=p.linker, vocab=p.vocab, truth=truth, skip=skip, echo=echo, strings=strings,
                       optional=optional, own=own.id if own is not None else None), module, node, 0)


def stored(node: ts.Node) -> bool:
    """Whether the value NODE reads is kept: (inside) a local's initial value (`const argv = [args.command]`, `const
    body = { q: args.q }`), the value assigned, or what `for ... of` iterates, within its statement."""
    cur = node
    while cur.parent is not None:
        up = cur.parent
        if up.type == "variable_declarator" and up.child_by_field_name("value") == cur \
                or up.type == "assignment_expression" and up.child_by_field_name("right") == cur \
                or up.type == "for_in_statement" and up.child_by_field_name("right") == cur:
            return True
        if up.type.endswith("statement") or up.type in {"statement_block", "arrow_function", "function_expression"}:
            return False
        cur = up
    return False


def logged(node: ts.Node, vocab: dict) -> bool:
    """Whether NODE is (inside) an argument of a logging call (`logger.info("get", { workspace })`, kb/sdk.yaml
    loggers): written to a log, it reaches no request, state or output of the tool."""
    args = arguments_of(node)
    return args is not None and args.parent is not None and args.parent.type == "call_expression" \
        and log_call(args.parent, vocab)


def error_message(node: ts.Node) -> bool:
    """Whether NODE is (inside) the message of an error thrown there (`throw new Error(`Sheet ${args.id} not
    found`)`): text handed back to the caller, no request, state or output the tool acts on."""
    args = arguments_of(node)
    made = args.parent if args is not None else None
    name = made.child_by_field_name("constructor") if made is not None and made.type == "new_expression" else None
    return name is not None and text(name).endswith("Error") and made.parent is not None \
        and made.parent.type == "throw_statement"


def echoed(node: ts.Node) -> bool:
    """Whether NODE is only written into what the function it is in returns (`return { text: `Deleted ${id}` }`,
    `return JSON.stringify({ network, balance })`): in the tool's own code that is the result handed back to the
    caller, which sent the value; an argument of any other call on the way is a use."""
    cur = node
    while cur.parent is not None:
        up = cur.parent
        if up.type == "return_statement":
            return True
        if up.type == "pair" and up.child_by_field_name("value") != cur:
            return False
        if up.type == "binary_expression" and text(up.child_by_field_name("operator")) != "+" \
                or up.type == "ternary_expression" and up.child_by_field_name("condition") == cur:
            return False
        if up.type == "arguments":
            call = up.parent
            if call is None or call.type != "call_expression" or text(call.child_by_field_name("function")) not in _TEXT:
                return False
            cur = call
            continue
        if up.type == "member_expression" and up.child_by_field_name("object") == cur:
            # `${mode.charAt(0).toUpperCase()}`: a method of it whose result is written, handed no function (a
            # callback could take the value elsewhere)
            call = up.parent
            args = call.child_by_field_name("arguments") if call is not None and call.type == "call_expression" else None
            if args is None or find(args, FUNCTION_TYPES):
                return False
            cur = call
            continue
        if up.type not in _ECHO and up.type not in _WRAPPERS and up.type != "await_expression":
            return False  # (`return await this.analyze(args.fen)`: what the call resolves to is returned)
        cur = up
    return False


def arguments_of(node: ts.Node) -> ts.Node | None:
    """The nearest argument list NODE is (inside) an argument of, within its statement; None when it is in none."""
    cur = node.parent
    while cur is not None and not cur.type.endswith("statement") and cur.type not in {"statement_block", "arrow_function"}:
        if cur.type == "arguments":
            return cur
        cur = cur.parent
    return None


def _carried(node: ts.Node) -> ts.Node:
    """The outermost expression that holds NODE's value as it is: through parentheses, casts, a default (`x ?? d`,
    `x || d`), a conjunction (`x && y`) and a branch of a ternary; or a value computed from it by arithmetic
    (`Date.now() - x`, `x * 1000`, `x + 1`) or a conversion (`Number(x)`, `parseInt(x, 10)`), which goes where it goes
    (a number, NaN for a value of another type), or its text (`JSON.stringify(x)`)."""
    cur = node
    while cur.parent is not None:
        up = cur.parent
        if up.type in _WRAPPERS or up.type == "binary_expression" \
                and text(up.child_by_field_name("operator")) in _CARRYING \
                or up.type == "unary_expression" and text(up.child_by_field_name("operator")) in {"-", "+"} \
                or up.type == "ternary_expression" and up.child_by_field_name("condition") != cur:
            cur = up
            continue
        call = up.parent if up.type == "arguments" else None
        if call is not None and call.type == "call_expression" and up.named_children and up.named_children[0] == cur \
                and text(call.child_by_field_name("function")) in _CONVERSIONS | _TEXTS:
            cur = call  # (`Number(options.limit)`: the number goes where the result goes; `JSON.stringify(ctx)`: its text)
            continue
        return cur
    return cur


def _conversion_of(node: ts.Node) -> tuple[ts.Node, ts.Node] | None:
    """(the call, the call with its wrappers) of the conversion the value NODE is the first argument of (`Number(x)`,
    `parseInt(x, 10)`), or None."""
    cur = node
    while cur.parent is not None and cur.parent.type in _WRAPPERS:
        cur = cur.parent
    args = cur.parent
    call = args.parent if args is not None and args.type == "arguments" else None
    if call is None or call.type != "call_expression" or args.named_children[:1] != [cur] \
            or text(call.child_by_field_name("function")) not in _CONVERSIONS:
        return None
    cur = call
    while cur.parent is not None and cur.parent.type in _WRAPPERS:
        cur = cur.parent
    return call, cur


def _clamped_number(node: ts.Node) -> bool:
    """Whether the value NODE reads goes on only as a number in bounds: converted, its NaN replaced by a fallback,
    then bounded (`Math.max(1, Math.min(100, parseInt(limit, 10) || 10))`): any value given becomes one the code
    chose the range of, and nothing of the value itself goes further."""
    converted = _conversion_of(node)
    if converted is None:
        return False
    cur = converted[1]
    up = cur.parent
    if up is None or up.type != "binary_expression" or text(up.child_by_field_name("operator")) != "||" \
            or up.child_by_field_name("left") != cur:
        return False
    cur = up
    while cur.parent is not None and cur.parent.type in _WRAPPERS:
        cur = cur.parent
    bound = cur.parent.parent if cur.parent is not None and cur.parent.type == "arguments" else None
    return bound is not None and bound.type == "call_expression" \
        and text(bound.child_by_field_name("function")) in {"Math.min", "Math.max"}


def _compared_conversion(node: ts.Node) -> bool:
    """Whether the value NODE reads goes on only as a number the code compared first, else a literal: a branch of a
    ternary whose condition compares that same conversion (`Number(args.limit) > 0 ? Number(args.limit) : 25`): any
    value given becomes a number that passed the comparison, or the code's own fallback."""
    converted = _conversion_of(node)
    if converted is None:
        return False
    call, cur = converted
    branch = cur.parent
    if branch is None or branch.type != "ternary_expression" or branch.child_by_field_name("condition") == cur:
        return False
    other = strip_casts(branch.child_by_field_name("alternative" if branch.child_by_field_name("consequence") == cur
                                                   else "consequence"))
    cond = strip_casts(branch.child_by_field_name("condition"))
    return other is not None and other.type == "number" and cond is not None and cond.type == "binary_expression" \
        and text(cond.child_by_field_name("operator")) in {"<", ">", "<=", ">="} \
        and any(text(strip_casts(cond.child_by_field_name(k))) == text(call) for k in ("left", "right"))


def _tested(e: ts.Node, truth: bool = True, predicate: bool = True) -> bool:
    """Whether the value E is only tested where it is: an operand of a comparison, the subject of a `switch`, asked its
    type; with TRUTH, also a condition (of a ternary, an `if`, a loop) or negated, and with PREDICATE what a list's
    predicate callback returns (`_predicate_result`). A declared boolean tested for its truth is used there (the
    string "false" is true): TRUTH is off for one."""
    up = e.parent
    if up is None:
        return False
    if up.type == "binary_expression" and text(up.child_by_field_name("operator")) in COMPARISONS:
        return True
    if up.type == "unary_expression" and text(up.child_by_field_name("operator")) == "typeof":
        return True
    if up.type == "switch_statement" and up.child_by_field_name("value") == e:
        return True
    if not truth:
        return False
    if up.type == "ternary_expression" and up.child_by_field_name("condition") == e:
        return True
    if up.type == "unary_expression" and text(up.child_by_field_name("operator")) == "!":
        return True
    return up.type in _CONDITIONS and up.child_by_field_name("condition") == e or predicate and _predicate_result(e)


_PREDICATES = frozenset({"filter", "some", "every", "find", "findIndex", "findLast", "findLastIndex"})


def _predicate_result(e: ts.Node) -> bool:
    """Whether E is what a function returns (an arrow's body, a `return`'s value) that is written as the callback of a
    list's predicate method (`l.filter((x) => E)`, `some`, `find`, ...): the method only tests its truth."""
    up = e.parent
    if up.type == "arrow_function" and up.child_by_field_name("body") == e:
        fn = up
    elif up.type == "return_statement":
        fn = enclosing_function(up)
    else:
        return False
    args = fn.parent if fn is not None else None
    call = args.parent if args is not None and args.type == "arguments" and args.named_children \
        and args.named_children[0] == fn else None
    callee = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
    return callee is not None and callee.type == "member_expression" \
        and text(callee.child_by_field_name("property")) in _PREDICATES


@dataclass(frozen=True, kw_only=True, slots=True)
class _Ctx:
    link: object
    vocab: dict
    truth: bool  # a test of the value's truth is harmless (off for a declared boolean: "false" is true)
    checks: bool = True  # a check of what is followed checks the value (off for a text made of it: a string method
    # called on `ls ${dir}` checks nothing of dir)
    skip: Callable[[ts.Node], bool] | None = None  # code of the tool's own function that is another tool's
    echo: bool = True  # what the tool's own function (depth 0) returns is the tool's result
    seen: frozenset = frozenset()  # the locals a value written into one is followed through (`a = args.x; b = a;
    # a = b`): one met again is being read above
    strings: bool = False  # a string's method called on the value checks all the field declares (a string, no more)
    optional: bool = False  # the field may be left out: a string's method called on a string default of the value
    # checks it too
    returns: bool = False  # what the function being read (below the tool's own) returns is the tool's result too:
    # the tool's code returns the call of it as it is (`return toolJson({ ok: false, id: args.id })`)
    own: int | None = None  # the tool's own function (the id of the one the value is read in, with ECHO): a result
    # followed back to a call of it there is read as in the tool's own code


def _mine(ctx, uses: list[ts.Node], depth: int) -> list[ts.Node]:
    """USES, the reads of a local, less those in the tool's own function (DEPTH 0) that are another tool's code
    (`const params = { repo }` before the dispatch's `switch`, read in other tools' cases)."""
    return [u for u in uses if not (depth == 0 and ctx.skip is not None and ctx.skip(u))]


def _value(ctx, module, node: ts.Node, depth: int) -> bool:
    if node.type != "shorthand_property_identifier":
        if _clamped_number(node) or _compared_conversion(node):
            return True
        e = _carried(node)
        if _tested(e, ctx.truth):
            return True
        up = e.parent
        if up is not None and up.type == "member_expression" and up.child_by_field_name("object") == e \
                and (up.parent is None or up.parent.type != "call_expression") and _tested(_carried(up), ctx.truth):
            return True  # `x.length > 0`, `if (legend?.position)`: a part of it, tested
        if _test_method(e, up):
            return True  # `sort?.includes("priority") ? ... : ...`: a test of the value, its result only tested
        if _pattern_tested(e):
            return True  # `/^[\w-]{11}$/.test(id)`: a boolean comes of it, the value goes no further
        if ctx.checks and ctx.strings and _string_receiver(node, ctx.optional):
            return True  # `tags.includes(category.toLowerCase())`: a value that is no string throws there (a value
            # out of an enum or a pattern does not)
        if up is not None and up.type == "variable_declarator" and up.child_by_field_name("value") == e:
            return _local(ctx, module, up, depth, fresh=True)
        target = _assigned_to(e)  # (`agentId = args.id;` into a `let` declared before: every read of that local,
        if target is not None:  # whatever case wrote it)
            decl = visible(target, text(target))
            return decl is not None and (decl.id in ctx.seen
                                         or _local(replace(ctx, seen=ctx.seen | {decl.id}), module, decl, depth))
        if _looked_up(e, module, ctx.link) or _table_key(e, module, ctx.link) or _key_read(e) or _test_method(e, None) \
                or _keying_text(e, module, ctx.link):
            return True  # (`name.startsWith(args.prefix)` tested: the value compared with a text)
        if ctx.checks and _items_checked(ctx, module, e, up, depth):
            return True
    else:
        e = node
    if logged(e, ctx.vocab) or error_message(e) or (depth == 0 or ctx.returns) and ctx.echo and echoed(e) \
            or _query_compared(e, ctx.vocab):
        return True
    handed = _handed(e)
    if handed is not None and handed[1] == 0 and handed[2] is not None \
            and text(handed[0].child_by_field_name("function")) in _TEXTS:  # `JSON.stringify({ id, mode })`: the
        return _value(replace(ctx, checks=False), module, handed[0], depth)  # object's text goes where the text goes
    text_of = _in_text(e) if handed is None and ctx.link is not None and depth < _DEPTH else None
    if text_of is not None:  # `log(`IDE: ${ide}`)`: a text made of it, handed to a function of the boundary that
        return _callee_harmless(replace(ctx, checks=False), module, text_of[0], text_of[1], None, depth)  # reads it
        # harmlessly (no check there is of the value)
    held_text = _text_local(e) if handed is None and text_of is None else None
    if held_text is not None:  # `const line = `${prefix} ${message}`; console.error(line)`: where the local goes
        return held_text.id not in ctx.seen and _local(replace(ctx, checks=False, seen=ctx.seen | {held_text.id},
                                                               returns=ctx.returns or depth == 0),
                                                       module, held_text, depth + 1)  # (a text: no check of the value;
        # the local is the function's own: what it returns is still the tool's result)
    if handed is None and ctx.link is not None and depth < _DEPTH:
        kept = _kept_entry(e) or _assigned_entry(e)  # `const opts = { level: args.level }; run(opts)`, or `opts.level =
        # args.level` into such a local: followed as run's `opts.level`
        if kept is not None:
            return _local_entry(ctx, module, kept[0], kept[1], depth)
        held = _returned_entry(e)  # `return { level: args.level }`: followed where each call keeps the result
        if held is not None:
            return _result_entry(ctx, held[0], held[1], depth)
        whole = _literal_local(e)  # `touched = [{ type: "agent", id: args.id }]`: the local holding it, each use of
        fn = enclosing_function(whole) if whole is not None else None  # it harmless as a whole (logged, handed
        if fn is None or whole.id in ctx.seen:  # where only logged)
            return fn is not None
        return _harmless_uses(replace(ctx, checks=False, seen=ctx.seen | {whole.id}), module, fn,
                              _unwritten(ctx, whole, depth), depth)
    if handed is None or ctx.link is None or depth >= _DEPTH:
        return False
    call, index, key = handed
    if key is None and ctx.checks and callee_checks.checks_rest(ctx.link, module, call, index):
        return True
    if reports_failure(call):  # `catch (err) { ... toFriendlyError(err, `[ref=${ref}]`) }`: the failure's report
        return True
    handing = _handing(ctx, module, call, index)
    if handing is not None:  # `page.evaluate((id) => refs[id] ..., args.ref)`: the function it is handed to
        return _parameter(replace(ctx, returns=False), *handing, key, depth + 1)
    returned = ctx.echo and (depth == 0 or ctx.returns) and echoed(call)  # (the call's result is the tool's)
    return _callee_harmless(replace(ctx, returns=returned), module, call, index, key, depth)


_ITEMWISE = {"map": 0, "forEach": 0, "flatMap": 0, "filter": 0, "some": 0, "every": 0, "find": 0, "reduce": 1,
             "reduceRight": 1}  # method -> the place of the item among its callback's parameters


def _items_checked(ctx, module, e: ts.Node, up: ts.Node | None, depth: int) -> bool:
    """Whether E is the list of `E.map(f)` (`forEach`, `reduce`, ...) whose function F checks its item before going
    on (`args.map(shellQuote)`, shellQuote calling a string's method on it: callee_checks.checked; `(env ?? []).reduce(
    (acc, v) => { const [k, x] = v.split("="); ... }, {})`), or uses it only harmlessly (`tags.some((t) =>
    entry.tags.includes(t))`): what goes on is a checked item, or none, and a value that is no list fails at the
    list's method first."""
    call = up.parent if up is not None and up.type == "member_expression" and up.child_by_field_name("object") == e \
        else None
    if call is None or call.type != "call_expression" or call.child_by_field_name("function") != up \
            or text(up.child_by_field_name("property")) not in _ITEMWISE or ctx.link is None:
        return False
    args = call_args(call)
    fn, fmod = Values(ctx.link).function_of(args[0], module, None) if args else (None, module)
    if fn is None or fn.type not in FUNCTION_TYPES:
        return False
    at = _ITEMWISE[text(up.child_by_field_name("property"))]
    item = next((n for n, i in plain_parameters(fn).items() if i == at), None)
    return item is not None and (item in callee_checks.checked(ctx.link, fmod, fn)
                                 or depth < _DEPTH
                                 and _parameter(replace(ctx, strings=False, returns=False), fmod, fn, at, None, depth + 1))


def _callee_harmless(ctx, module, call: ts.Node, index: int, key: str | None, depth: int) -> bool:
    """Whether the function of the boundary CALL calls uses what its argument INDEX (its entry KEY) is handed only
    harmlessly (`_parameter`); False for a call not resolved, or of a bundled library's function (what it does with
    the value is the library's to say)."""
    hit = _called(ctx, module, call)
    return hit is not None and not any(a <= hit[1].start_byte < b for a, b, _ in hit[0].vendored) \
        and _parameter(ctx, hit[0], hit[1], index, key, depth + 1)


def reports_failure(call: ts.Node) -> bool:
    """Whether CALL, in a `catch` block, is handed the caught error (`describe(err, target)`): it makes the failure's
    report (validation.py's `_in_catch` reads a field handed there directly so too)."""
    clause = next((a for a in ancestors(call) if a.type == "catch_clause" or a.type in FUNCTION_TYPES), None)
    param = clause.child_by_field_name("parameter") if clause is not None and clause.type == "catch_clause" else None
    caught = text(param) if param is not None and param.type == "identifier" else None
    return caught is not None and any((member_chain(strip_casts(a)) or ("",))[0] == caught for a in call_args(call))


def _handing(ctx, module, call: ts.Node, index: int) -> tuple | None:
    """(module, function, parameter index) that argument INDEX of CALL goes to when CALL is a method that calls the
    function handed to it with its later arguments (kb/sdk.yaml handing_methods: `page.evaluate(fn, arg)`), the
    function written there or a function of the boundary it names; None otherwise."""
    callee = call.child_by_field_name("function")
    spec = ctx.vocab.get("handing_methods", {}).get(text(callee.child_by_field_name("property"))) \
        if callee is not None and callee.type == "member_expression" else None
    args = call_args(call)
    if spec is None or index <= spec["function"] or spec["function"] >= len(args):
        return None
    fn, fmod = strip_casts(args[spec["function"]]), module
    if fn is not None and fn.type not in FUNCTION_TYPES and ctx.link is not None:
        fn, fmod = Values(ctx.link).function_of(fn, module, None)
    return (fmod, fn, spec["parameter"] + index - spec["function"] - 1) \
        if fn is not None and fn.type in FUNCTION_TYPES else None


def _called(ctx, module, call: ts.Node) -> tuple | None:
    """(module, function) CALL calls: as the linker resolves it, a method of a local instance or a class, else a
    function value of a local (`const find = (nodes, id) => ...` in a method, then `find(this.tree, id)`)."""
    hit = ctx.link.resolve(module, call) or instances.method_of(ctx.link, module, call) \
        or instances.static_method(ctx.link, module, call)
    if hit is None and call.type == "call_expression":
        fn, fmod = Values(ctx.link).function_of(call.child_by_field_name("function"), module, None)
        hit = (fmod, fn) if fn is not None and fn.type in FUNCTION_TYPES else None
    return hit


_TEST_METHODS = frozenset({"includes", "startsWith", "endsWith"})


def _test_method(e: ts.Node, up: ts.Node | None) -> bool:
    """Whether E is the receiver (UP: its member) or the one argument (UP None) of a string's or array's test method
    (`includes`, `startsWith`, `endsWith`) whose result is only tested: the value is compared there, and goes no
    further."""
    if up is not None:
        call = up.parent if up.type == "member_expression" and up.child_by_field_name("object") == e else None
        member = up
    else:
        args = e.parent
        call = args.parent if args is not None and args.type == "arguments" and len(args.named_children) == 1 else None
        member = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
    if call is None or call.type != "call_expression" or member is None or member.type != "member_expression" \
            or call.child_by_field_name("function") != member \
            or text(member.child_by_field_name("property")) not in _TEST_METHODS:
        return False
    return _tested(_carried(call), predicate=up is not None)  # (`logs.filter((l) => l.includes(q))`: a search
    # picking what goes on uses the text searched for)


def _string_receiver(node: ts.Node, optional: bool = False) -> bool:
    """Whether NODE's value, as it is (through parentheses and casts), is what a method only a string has is called on
    (`category.toLowerCase()`, guards.STRING_ONLY), not through `?.` (which lets null by too, but where the function
    leaves when the call gives nothing: `if (!q?.trim()) throw`, guards.left_unless) nor on a default
    (`(path ?? "/").trim()`, which lets a missing value by) unless OPTIONAL (the field may be missing): a value of
    another type throws there, and what goes on is a string (the check the own code's and a callee's string methods
    are, made where the value is used: in a callback, a branch)."""
    e = node
    while e.parent is not None and (e.parent.type in _WRAPPERS or optional and _string_defaulted(e)):
        e = e.parent
    up = e.parent
    call = up.parent if up is not None and up.type == "member_expression" and up.child_by_field_name("object") == e \
        else None
    return call is not None and call.type == "call_expression" and call.child_by_field_name("function") == up \
        and text(up.child_by_field_name("property")) in guards.STRING_ONLY \
        and (not any(c.type == "optional_chain" for c in up.children) or guards.left_unless(call))


def _string_defaulted(e: ts.Node) -> bool:
    """Whether E is the left side of `E ?? d` or `E || d`, D a written string (guards.string_defaulted)."""
    up = e.parent
    return up.type == "binary_expression" and up.child_by_field_name("left") == e and guards.string_defaulted(up) is not None


def _pattern_tested(e: ts.Node) -> bool:
    """Whether E is the one argument of a regular expression's `test` (`/^\\d+$/.test(e)`, `new RegExp(p).test(e)`)."""
    args = e.parent
    call = args.parent if args is not None and args.type == "arguments" and len(args.named_children) == 1 else None
    fn = enclosing_function(e)
    return call is not None and fn is not None and guards._pattern_test(call, fn, None)


def _query_compared(e: ts.Node, vocab: dict) -> bool:
    """Whether the value E is only the operand of a query filter's comparison (kb/sdk.yaml query_comparisons:
    `filter.byProperty("weight").greaterOrEqual(min)`, also in an array or a Date: `.containsAny([tag])`): it is
    compared with what is stored, and a value of another type matches nothing."""
    cur = e
    while cur.parent is not None:
        up = cur.parent
        if up.type == "array" or up.type in _WRAPPERS:
            cur = up
        elif up.type == "arguments" and up.parent is not None and up.parent.type == "new_expression" \
                and text(up.parent.child_by_field_name("constructor")) == "Date":
            cur = up.parent
        else:
            break
    args = cur.parent
    call = args.parent if args is not None and args.type == "arguments" and len(args.named_children) == 1 else None
    callee = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
    return callee is not None and callee.type == "member_expression" \
        and text(callee.child_by_field_name("property")) in vocab.get("query_comparisons", ())


def _looked_up(e: ts.Node, module, link=None) -> bool:
    """Whether the value E is only the key of a lookup in a collection (`known.has(id)`, `(b.tags ?? []).includes(tag)`,
    `byId.get(id)`, `byId.delete(id)` of a Map or Set, an array's `includes`/`indexOf`; `has` of any holder, whose
    only sense is membership): a value of another type finds nothing there."""
    args = e.parent
    call = args.parent if args is not None and args.type == "arguments" else None
    callee = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
    if callee is None or callee.type != "member_expression" or len(args.named_children) != 1 \
            or text(callee.child_by_field_name("property")) not in _LOOKUPS:
        return False
    if text(callee.child_by_field_name("property")) == "has":
        return True  # (a membership test whatever holds it, `run.processes.has(slot)`: Map, Set, Headers, params)
    return _collection(callee.child_by_field_name("object"), module, link=link)


def _table_key(e: ts.Node, module, link=None) -> bool:
    """Whether the value E is only the key of a lookup in a constant object (`PERIODS[args.period] || PERIODS.hour`,
    `HANDLERS[action](...)`, the table also imported from another module): what goes on is the table's value, not
    the key."""
    up = e.parent
    if up is None or up.type != "subscript_expression" or up.child_by_field_name("index") != e:
        return False
    table = strip_casts(up.child_by_field_name("object"))
    if table is None or table.type != "identifier":
        return False
    value = value_of(module, table)
    where = link.binding(module, text(table)) if value is None and link is not None else None
    value = strip_casts(link.value(*where) if where is not None else value)
    return value is not None and value.type == "object"


def _keying_text(e: ts.Node, module, link=None) -> bool:
    """Whether the value E is only part of a text made to key lookups (`const file = `${name}.json`;` with every use of
    `file` a key: `data[file]` whose miss leaves, `known.has(file)`, a constant table's key)."""
    sub = e.parent
    tpl = sub.parent if sub is not None and sub.type == "template_substitution" else None
    decl = tpl.parent if tpl is not None and tpl.type == "template_string" else None
    if decl is None or decl.type != "variable_declarator" or decl.child_by_field_name("value") != tpl:
        return False
    name = decl.child_by_field_name("name")
    if name is None or name.type != "identifier":
        return False
    uses = [u for u in references(decl, text(name)) if not _assigned(u)]
    return bool(uses) and all(_key_read(u) or _looked_up(u, module, link) or _table_key(u, module, link) for u in uses)


def _key_read(e: ts.Node) -> bool:
    """Whether the value E is only the key of a lookup whose miss leaves (`const schema = data.components[key]; if
    (!schema) throw ...`, whatever object `data` is): a membership test of the data, the property's value goes on,
    not the key."""
    up = e.parent
    if up is None or up.type != "subscript_expression" or up.child_by_field_name("index") != e:
        return False
    decl = up.parent
    if decl is None or decl.type != "variable_declarator" or decl.child_by_field_name("value") != up:
        return False
    name = decl.child_by_field_name("name")
    fn = enclosing_function(decl)
    return name is not None and name.type == "identifier" and fn is not None \
        and guards.miss_leaves(decl, text(name), fn)


def _collection(node: ts.Node | None, module, depth: int = 0, link=None) -> bool:
    """Whether NODE is a collection, not a string: an array literal, `new Set/Map(...)`, `Object.keys/values(...)`,
    either side of a default (`x ?? []`), a name whose value is one (a constant imported from another module too,
    with LINK), or a field of the class (`this.facts`) every value of which is one."""
    node = strip_casts(node)
    if node is None or depth > 3:
        return False
    if node.type in {"array", "new_expression", "call_expression"}:
        return made_collection(node)
    if node.type == "binary_expression" and text(node.child_by_field_name("operator")) in {"??", "||"}:
        return any(_collection(node.child_by_field_name(k), module, depth + 1, link) for k in ("left", "right"))
    if node.type == "identifier":
        value = value_of(module, node)
        where = link.binding(module, text(node)) if value is None and link is not None else None
        if where is not None:  # `SUPPORTED.includes(x)`, SUPPORTED a constant of another module
            return _collection(where[0].toplevel.get(where[1]) or link.value(*where), where[0], depth + 1, link)
        return _collection(value, module, depth + 1, link)
    made = field_values(node)
    return bool(made) and all(_collection(m, module, depth + 1, link) for m in made)


def made_collection(node: ts.Node | None) -> bool:
    """Whether NODE is written as a collection: `[...]`, `new Set(...)`/`new Map(...)`, `Object.keys(...)`."""
    if node is None:
        return False
    if node.type == "new_expression":
        return text(node.child_by_field_name("constructor")) in {"Set", "Map", "WeakSet", "WeakMap"}
    return node.type == "array" or node.type == "call_expression" \
        and text(node.child_by_field_name("function")) in {"Object.keys", "Object.values"}


def field_values(node: ts.Node | None) -> list[ts.Node | None]:
    """The values of the field NODE reads (`this.facts`) in the class NODE is written in (bindings.class_fields: its
    declaration's value and every value the class assigns to it); empty for anything else."""
    node = strip_casts(node)
    if node is None or node.type != "member_expression" or text(node.child_by_field_name("object")) != "this":
        return []
    cls = next((a for a in ancestors(node) if a.type in CLASS_TYPES), None)
    return class_fields(cls).get(text(node.child_by_field_name("property")), []) if cls is not None else []


def _local(ctx, module, decl: ts.Node, depth: int, fresh: bool = False) -> bool:
    """Whether the local DECL declares (`const mode = args.mode ?? "a"`) is only used harmlessly after it. FRESH: the
    value is the initializer's, and a read after the local is written again on every path (`let out = text; out =
    out.replace(...); return out`) is of the new value, judged where it is written."""
    name = decl.child_by_field_name("name")
    fn = enclosing_function(decl)
    if name is None or name.type != "identifier" or fn is None:
        return False
    if ctx.checks and text(name) in callee_checks.checked(ctx.link, module, fn):
        return True  # (`const n = args.n; if (typeof n !== "number") throw ...`)
    refs = references(decl, text(name))
    reads = _reads(ctx, decl, depth, refs)
    if fresh:
        sets = [u.parent for u in refs if _assigned(u)]
        reads = [u for u in reads if not any(dominates(s, u) for s in sets)]
    return _harmless_uses(ctx, module, fn, reads, depth)


def _harmless_uses(ctx, module, fn: ts.Node, uses: list[ts.Node], depth: int) -> bool:
    """Whether each of USES, the reads in FN of a name holding the value (a local, a parameter), is harmless: guarded
    by a type test, after a call that checks the value on every path, or harmless where it is (`_value`)."""
    checking = []  # the calls handed the name whose function checks that parameter (a string's method called on it)
    for u in uses if ctx.checks else ():  # (`const p = args.path; validateStrings("path", p)`: the value is checked
        handed = _handed(u) if u.type == "identifier" else None  # where it is handed)
        if handed is not None and handed[2] is None and callee_checks.checks_rest(ctx.link, module, handed[0], handed[1]):
            return True
        if handed is not None and handed[2] is None and _checks_parameter(ctx, module, handed[0], handed[1]):
            checking.append(handed[0])
    # (a use after such a call, on every path: `const info = parse(name); ... fetch(url + name)`, a value of another
    # type threw there first)
    return all(ctx.checks and guards.type_guarded(u, fn) or any(dominates(c, u) for c in checking)
               or _value(ctx, module, u, depth) for u in uses)


def _checks_parameter(ctx, module, call: ts.Node, index: int) -> bool:
    """Whether the function of the boundary CALL calls checks its plain parameter INDEX before going on
    (callee_checks.checked: a type or value test that rejects, a string's method called on it)."""
    if ctx.link is None:
        return False
    hit = _called(ctx, module, call)
    if hit is None or any(a <= hit[1].start_byte < b for a, b, _ in hit[0].vendored):
        return False
    names = [n for n, i in plain_parameters(hit[1]).items() if i == index]
    return bool(names) and names[0] in callee_checks.checked(ctx.link, hit[0], hit[1])


def _assigned(e: ts.Node) -> bool:
    """Whether the identifier E is the target of a plain assignment (`id = other`): written there, not read."""
    up = e.parent
    return up is not None and up.type == "assignment_expression" and up.child_by_field_name("left") == e


def _handed(e: ts.Node) -> tuple[ts.Node, int, str | None] | None:
    """(call, argument index, entry key or None) of a value handed to a call as a whole argument or as an entry of
    an object literal argument (`f({ mode: args.mode })`, `f({ mode })`)."""
    key, arg = None, e
    if e.type == "shorthand_property_identifier":
        key, arg = text(e), e.parent
    elif e.parent is not None and e.parent.type == "pair" and e.parent.child_by_field_name("value") == e:
        key, arg = text(e.parent.child_by_field_name("key")).strip("'\""), e.parent.parent
    if arg is None or key is not None and arg.type != "object":
        return None
    while key is not None and _carried(arg).parent is not None and _carried(arg).parent.type == "spread_element":
        arg = _carried(arg).parent.parent  # `{ ...(a.x && { x: a.x }) }`: an entry of the object spread into
    while arg.parent is not None and arg.parent.type in _WRAPPERS:  # (`f({ ... } as any)`)
        arg = arg.parent
    args = arg.parent
    call = args.parent if args is not None and args.type == "arguments" else None
    if call is None or call.type != "call_expression":
        return None
    index = next((i for i, c in enumerate(c for c in args.named_children if c.type != "comment") if c.id == arg.id), None)
    return (call, index, key) if index is not None else None


def _text_of(e: ts.Node, branches: bool) -> tuple[ts.Node, int]:
    """(the outermost text made of E, how many texts it is written into): through template substitutions, `+`
    concatenations and wrappers; with BRANCHES, a conditional's branch too. E itself, 0, when it is in none."""
    cur, texts = e, 0
    while cur.parent is not None:
        up = cur.parent
        if up.type in {"template_substitution", "template_string"} \
                or up.type == "binary_expression" and text(up.child_by_field_name("operator")) == "+":
            texts += up.type != "template_substitution"
            cur = up
        elif up.type in _WRAPPERS or branches and up.type == "ternary_expression" \
                and up.child_by_field_name("condition") != cur:
            cur = up
        else:
            break
    return cur, texts


def _in_text(e: ts.Node) -> tuple[ts.Node, int] | None:
    """(call, argument index) when E is written into a text (a template's substitution, a `+` concatenation) that is
    a whole argument of a call: `log(`IDE: ${ide}`)`, `say("no " + name)`; else None."""
    cur, texts = _text_of(e, branches=False)
    args = cur.parent
    call = args.parent if texts and args is not None and args.type == "arguments" else None
    if call is None or call.type != "call_expression":
        return None
    index = next((i for i, c in enumerate(c for c in args.named_children if c.type != "comment") if c.id == cur.id), None)
    return (call, index) if index is not None else None


def _text_local(e: ts.Node) -> ts.Node | None:
    """The declarator of the local that holds a text made of E (a template's substitution, a `+` concatenation, also a
    branch of a conditional): `const line = `${prefix} ${message}``, `const msg = ok ? `a ${x}` : `b ${x}``; else None."""
    cur, texts = _text_of(e, branches=True)
    decl = cur.parent
    if not texts or decl is None or decl.type != "variable_declarator" or decl.child_by_field_name("value") != cur \
            or decl.child_by_field_name("name").type != "identifier":
        return None
    return decl


def returned_unread(p, node: ts.Node) -> bool:
    """Whether NODE is (inside) an entry of the object literal its function returns that no call of the function
    reads but harmlessly (`return { axis: input.axis }` where each caller keeps the result and reads only its other
    entries): a copy nobody reads is not kept."""
    held = _returned_entry(node) if p.linker is not None else None
    return held is not None and _result_entry(_Ctx(link=p.linker, vocab=p.vocab, truth=True), held[0], held[1], 0)


def _entry_holder(e: ts.Node) -> tuple[ts.Node, str] | None:
    """(object literal, key) when E is (inside) the value of entry KEY of an object literal that is no entry's value
    itself (`{ level: args.level }`, `{ level }` too, `{ indexes: [{ scope: args.scope }] }`: `indexes`)."""
    key, obj = None, e
    while obj is not None:
        if obj.type == "shorthand_property_identifier":
            key, obj = text(obj), obj.parent
        elif obj.parent is not None and obj.parent.type == "pair" and obj.parent.child_by_field_name("value") == obj:
            key, obj = text(obj.parent.child_by_field_name("key")).strip("'\""), obj.parent.parent
        else:
            return None
        while obj is not None and obj.parent is not None and obj.parent.type in _WRAPPERS:
            obj = obj.parent
        if obj is None or obj.type != "object" or obj.parent is None:
            return None
        up = obj.parent
        if up.type == "array":  # (an element of a list that is itself an entry's value)
            obj = up
            while obj.parent is not None and obj.parent.type in _WRAPPERS:
                obj = obj.parent
        elif up.type != "pair":
            break
        if obj.parent is None or obj.parent.type != "pair":
            break
    return (obj, key) if obj is not None and obj.type == "object" and key is not None else None


def _kept_entry(e: ts.Node) -> tuple[ts.Node, str] | None:
    """(declarator, key) when E is (inside) the value of an entry KEY of the object literal a local is declared with
    (`const opts = { level: args.level }`)."""
    held = _entry_holder(e)
    decl = held[0].parent if held is not None else None
    if decl is None or decl.type != "variable_declarator" or decl.child_by_field_name("value") != held[0] \
            or decl.child_by_field_name("name").type != "identifier":
        return None
    return decl, held[1]


def _literal_local(e: ts.Node) -> ts.Node | None:
    """The declarator of the local whose value, declared or assigned, is an object or array literal holding E at any
    depth (`const touched = [{ id: args.id }]`, `touched = [...]` into a `let` declared before); None else."""
    cur, moved = e, False
    while cur.parent is not None:
        up = cur.parent
        if up.type in _WRAPPERS or up.type in {"object", "array"} \
                or up.type == "pair" and up.child_by_field_name("value") == cur:
            cur, moved = up, moved or up.type in {"object", "array"}
            continue
        if e.type == "shorthand_property_identifier" and cur == e and up.type == "object":
            cur, moved = up, True
            continue
        break
    up = cur.parent
    if not moved or up is None:
        return None
    if up.type == "variable_declarator" and up.child_by_field_name("value") == cur:
        return up if up.child_by_field_name("name").type == "identifier" else None
    target = _assigned_to(cur)
    return visible(target, text(target)) if target is not None else None


def _assigned_to(value: ts.Node) -> ts.Node | None:
    """The name a plain assignment of VALUE writes (`touched` of `touched = value`); None for anything else."""
    up = value.parent
    target = up.child_by_field_name("left") if up is not None and up.type == "assignment_expression" \
        and up.child_by_field_name("right") == value else None
    return target if target is not None and target.type == "identifier" else None


def _reads(ctx, decl: ts.Node, depth: int, refs: list[ts.Node] | None = None) -> list[ts.Node]:
    """The reads of the local DECL declares that are the tool's (`_mine`), less the plain assignments to it (`id =
    fallback.id` reads nothing of it); REFS: its references, when already found."""
    refs = refs if refs is not None else references(decl, text(decl.child_by_field_name("name")))
    return [u for u in _mine(ctx, refs, depth) if not _assigned(u)]


def _unwritten(ctx, decl: ts.Node, depth: int) -> list[ts.Node]:
    """_reads, less the calls that only add to the local (`touched.push({ id })`)."""
    return [u for u in _reads(ctx, decl, depth) if not _added_to(u)]


def _added_to(u: ts.Node) -> bool:
    """Whether U is the list of a call that only adds to it (`U.push(x)`, `U.unshift(x)`, its result not read)."""
    up = u.parent
    call = up.parent if up is not None and up.type == "member_expression" and up.child_by_field_name("object") == u \
        and text(up.child_by_field_name("property")) in _ADDING else None
    return call is not None and call.type == "call_expression" and call.parent is not None \
        and call.parent.type == "expression_statement"


def _assigned_entry(e: ts.Node) -> tuple[ts.Node, str] | None:
    """(declarator, key) when E is assigned as entry KEY of a local declared with an object literal (`const filter =
    { limit }; if (sdk) filter.sdk = sdk`)."""
    up = e.parent
    left = up.child_by_field_name("left") if up is not None and up.type == "assignment_expression" \
        and up.child_by_field_name("right") == e else None
    obj = left.child_by_field_name("object") if left is not None and left.type == "member_expression" else None
    if obj is None or obj.type != "identifier":
        return None
    decl = visible(obj, text(obj))
    value = strip_casts(decl.child_by_field_name("value")) if decl is not None and decl.type == "variable_declarator" \
        else None
    return (decl, text(left.child_by_field_name("property"))) if value is not None and value.type == "object" else None


def _returned(node: ts.Node) -> ts.Node | None:
    """The function whose result NODE is as it is (`return { ... }`, `return result`, an arrow's body); None else."""
    up = node.parent
    while up is not None and (up.type in _WRAPPERS or up.type == "await_expression"):
        node, up = up, up.parent
    if up is not None and up.type == "return_statement":
        return enclosing_function(up)
    return up if up is not None and up.type == "arrow_function" and up.child_by_field_name("body") == node else None


def _returned_entry(e: ts.Node) -> tuple[ts.Node, str] | None:
    """(function, key) when E is (inside) the value of entry KEY of the object literal a function returns
    (`return { domainAxis: input.domainAxis }`)."""
    held = _entry_holder(e)
    fn = _returned(held[0]) if held is not None else None
    return (fn, held[1]) if fn is not None else None


def _result_entry(ctx, fn: ts.Node, key: str, depth: int) -> bool:
    """Whether entry KEY of the object FN returns is used only harmlessly where each call of the boundary that
    resolves to FN keeps the result: `const v = validate(args)` read as `v.KEY` (as a local's entry is,
    `_local_entry`), or destructured. FN called nowhere, or a result that goes anywhere else, may use it."""
    calls = _callers(ctx, fn) if depth < _DEPTH else []
    if not calls or fn.type not in FUNCTION_TYPES:
        return False
    passed = ctx.link.memo.setdefault("uses.passed", {})
    if fn.id not in passed:
        passed[fn.id] = _passed_as_value(fn)
    if passed[fn.id]:
        return False
    for cmod, call in calls:
        r = call
        while r.parent is not None and (r.parent.type in _WRAPPERS or r.parent.type == "await_expression"):
            r = r.parent
        decl = r.parent
        if decl is None or decl.type != "variable_declarator" or decl.child_by_field_name("value") != r:
            return False
        name = decl.child_by_field_name("name")
        at = enclosing_function(call)
        here = replace(ctx, returns=True) if ctx.own is not None and at is not None and at.id == ctx.own else ctx
        # (`const result = await service.search(input)` in the tool's own function: what that returns is the tool's
        # result, `return JSON.stringify({ searched: result.searched })`)
        if name.type == "identifier":
            if not _local_entry(here, cmod, decl, key, depth + 1):
                return False
            continue
        bound = _bound_key(name, key) if name.type == "object_pattern" else ""
        if bound == "" or bound and not all(_value(here, cmod, u, depth + 1) for u in references(decl, bound)):
            return False
    return True


def _callers(ctx, fn: ts.Node) -> list[tuple]:
    """The calls of the boundary that resolve to FN as `_called` resolves them: the linker's, and for a method the
    calls of a member of that name on a local instance of its class (`const { space } = services(); space.search(x)`,
    extract/instances.py), found among the calls of a member named like it."""
    calls = list(ctx.link.callers(fn))
    name = fn.child_by_field_name("name") if fn.type == "method_definition" else None
    if name is None:
        return calls
    by_name = ctx.link.memo.get("uses.member_calls")
    if by_name is None:  # the calls of a member, by the member's name (one pass over the program's calls)
        by_name = ctx.link.memo["uses.member_calls"] = {}
        for m in ctx.link.by_path.values():
            for c in m.nodes("call"):
                f = strip_casts(c.child_by_field_name("function")) if c.type == "call_expression" else None
                if f is not None and f.type == "member_expression":
                    by_name.setdefault(text(f.child_by_field_name("property")), []).append((m, c))
    known = {c.id for _, c in calls}
    for m, c in by_name.get(text(name), ()):
        hit = instances.method_of(ctx.link, m, c) if c.id not in known else None
        if hit is not None and hit[1] == fn:
            calls.append((m, c))
    return calls


def _passed_as_value(fn: ts.Node) -> bool:
    """Whether the name of FN (a declared function, or a local a function is assigned to) is used in its module
    other than as the function of a call (`items.map(validate)`, `{ check: validate }`): calls made through that
    value are not among the calls the linker resolves. A function with no such name counts as passed."""
    name = fn.child_by_field_name("name") if fn.type == "function_declaration" else None
    if name is None and fn.parent is not None and fn.parent.type == "variable_declarator":
        name = fn.parent.child_by_field_name("name")
    if name is None or name.type != "identifier":
        return fn.type != "method_definition"
    root = fn
    while root.parent is not None:
        root = root.parent
    for n in find(root, {"identifier"}):
        if text(n) != text(name) or n.id == name.id:
            continue
        up = n.parent
        if up is None or up.type == "call_expression" and up.child_by_field_name("function") == n \
                or up.type in {"export_specifier", "export_statement"}:
            continue
        return True
    return False


def _local_entry(ctx, module, decl: ts.Node, key: str, depth: int) -> bool:
    """Whether entry KEY of the object the local DECL declares is used only harmlessly: read as `local.KEY`, the
    local handed whole to a function of the boundary that uses its KEY harmlessly, logged. Anything else done with
    the local (spread, returned, stored, handed to a function not known) may use the entry."""
    for u in _mine(ctx, references(decl, text(decl.child_by_field_name("name"))), depth):
        up = u.parent
        if up is not None and up.type == "member_expression" and up.child_by_field_name("object") == u:
            if text(up.child_by_field_name("property")) == key and not _assigned(up) \
                    and not _value(ctx, module, up, depth):
                return False  # (`local.KEY = value`: a write of the entry, no use of it)
            continue
        if logged(u, ctx.vocab) or error_message(u) or (depth == 0 or ctx.returns) and ctx.echo and echoed(u):
            continue  # (`return { indexConfig }` in the tool's own code: written into its result)
        args = u.parent
        if args is not None and args.type == "arguments" and args.parent is not None \
                and text(args.parent.child_by_field_name("function")) == "Object.keys":
            continue  # (its keys only: no entry's value)
        fn = _returned(u) if depth > 0 or not ctx.echo else None  # (`const out = { a: x }; return out` from a
        # function called)
        if fn is not None and _result_entry(ctx, fn, key, depth):
            continue
        handed = _handed(u) if u.type == "identifier" else None
        if handed is None or handed[2] is not None \
                or not _callee_harmless(ctx, module, handed[0], handed[1], key, depth):
            return False
    return True


def _parameter(ctx, module, fn: ts.Node, index: int, key: str | None, depth: int) -> bool:
    """Whether FN uses what its parameter INDEX (its entry KEY) is handed only harmlessly, or rejects its bad values."""
    memo = ctx.link.memo.setdefault("uses.parameter", {})
    assumed = ctx.link.memo.setdefault("uses.assumed", set())  # entries read while pending
    mkey = (fn.id, index, key, ctx.truth, ctx.checks, ctx.returns, ctx.strings, ctx.optional, ctx.echo)
    if mkey in memo:
        if memo[mkey] is _PENDING:  # a recursion through itself (`find(node.children, id)`): what the value may
            assumed.add(mkey)  # reach is decided by the function's other uses of it
            return True
        return memo[mkey]
    memo[mkey] = _PENDING
    found = _reads_harmlessly(ctx, module, fn, index, key, depth)
    assumed.discard(mkey)
    if found and any(memo.get(k) is _PENDING for k in assumed):
        del memo[mkey]  # (true only as long as an entry still read is: asked again, read again)
    else:
        memo[mkey] = found  # (false whatever the pending entries turn out to be)
    return found


def _reads_harmlessly(ctx, module, fn: ts.Node, index: int, key: str | None, depth: int) -> bool:
    body = fn.child_by_field_name("body")
    params = fn.child_by_field_name("parameters")
    single = fn.child_by_field_name("parameter")  # (`tag => ...`)
    if body is None or params is None and single is None \
            or "arguments" in {text(n) for n in find(body, {"identifier"})}:
        return False
    declared = [c for c in params.named_children if c.type != "comment"] if params is not None else [single]
    if index >= len(declared):
        return True  # handed where no parameter binds it: never read
    pattern = parameter_pattern(declared[index])
    if pattern is None or pattern.type == "rest_pattern":
        return False
    name = text(pattern) if pattern.type == "identifier" else None
    if key is not None and pattern.type == "object_pattern":
        name = _bound_key(pattern, key)
        if name == "":
            return False  # (a rest pattern holds it)
        if name is None:
            return True  # not destructured: never read
    elif key is not None and name is not None:
        if ctx.checks and key in callee_checks.checked(ctx.link, module, fn):
            return True
        uses = _entry_uses(ctx, module, fn, name, key, depth)
        return uses is not None and all(ctx.checks and guards.type_guarded(u, fn) or _value(ctx, module, u, depth)
                                        for u in uses)
    if name is None:
        return False
    if ctx.checks and name in callee_checks.checked(ctx.link, module, fn):
        return True
    named = [n for n in find(body, {"identifier", "shorthand_property_identifier"}) if text(n) == name]
    sets = [n.parent for n in named if _assigned(n)]  # (`limit = parseCount(limit)` writes the name, reads nothing)
    # A read after the name is set again on every path is of the new value, not of the field; what the field is set
    # to from is read where it is written (`limit = limit ? parseCount(limit) : null`).
    uses = [n for n in named if not _assigned(n) and not any(dominates(s, n) for s in sets)]
    return _harmless_uses(ctx, module, fn, uses, depth)


def _bound_key(pattern: ts.Node, key: str) -> str | None:
    """The name an object pattern binds entry KEY to; "" when a rest element holds it; None when it is not bound."""
    for c in pattern.named_children:
        if c.type == "shorthand_property_identifier_pattern" and text(c) == key:
            return key
        if c.type == "object_assignment_pattern" and text(c.child_by_field_name("left")) == key:
            return key
        if c.type == "pair_pattern" and text(c.child_by_field_name("key")).strip("'\"") == key:
            value = c.child_by_field_name("value")
            value = value.child_by_field_name("left") if value is not None and value.type == "assignment_pattern" else value
            return text(value) if value is not None and value.type == "identifier" else ""
        if c.type == "rest_pattern":
            return ""
    return None


def _entry_uses(ctx, module, fn: ts.Node, param: str, key: str, depth: int) -> list[ts.Node] | None:
    """The uses of entry KEY of the object parameter PARAM in FN: `PARAM.KEY`, the name a destructuring of PARAM binds
    it to; PARAM handed whole to a function that uses its KEY harmlessly adds none. None when PARAM goes anywhere
    else whole (spread, returned, stored, handed to a function not known)."""
    body = fn.child_by_field_name("body")
    uses: list[ts.Node] = []
    for n in find(body, {"identifier", "shorthand_property_identifier"}):
        if text(n) != param:
            continue
        up = n.parent
        if up is not None and up.type == "member_expression" and up.child_by_field_name("object") == n:
            prop = up.child_by_field_name("property")
            uses += [up] if text(prop) == key else []
            continue
        if up is not None and up.type == "subscript_expression" and up.child_by_field_name("object") == n:
            return None  # `PARAM[k]`: any entry
        if up is not None and up.type == "variable_declarator" and up.child_by_field_name("value") == n \
                and up.child_by_field_name("name").type == "object_pattern":
            bound = _bound_key(up.child_by_field_name("name"), key)
            if bound == "":
                return None
            uses += references(up, bound) if bound else []
            continue
        if logged(n, ctx.vocab) or error_message(n) or _tested(_carried(n), ctx.truth) \
                or ctx.returns and ctx.echo and echoed(n):
            continue  # (`options != null && options.mode === "x"`: the object tested, not its entry; `return {
            # text: JSON.stringify(payload) }` of a function whose result is the tool's: written back as it came)
        handed = _handed(n) if n.type == "identifier" else None
        if handed is None or handed[2] is not None or depth >= _DEPTH \
                or not _callee_harmless(ctx, module, handed[0], handed[1], key, depth):
            return None
    return uses
