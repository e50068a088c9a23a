"""Tools installed into a registry at run time: a Map filled by `R.set(key, tool)` in a function called once per tool
object (`install(new XTool())`), or one built from a list of tool objects (`list.reduce((acc, t) => { acc[t.name] =
t; return acc; }, {})`, `new Map(list.map((t) => [t.name, t]))`, `Object.fromEntries(...)`, or of what a call makes of each: `[t.name, wrap(t.schema, t.run)]`), and a tools/call handler that looks the tool up by its name (`R.get(name)`,
`this.R[name]`, or in the list itself: `list.find((t) => t.name === name)`) and calls a method of what it finds. One dispatch per installed tool: its name is the key the installing call computes for that
tool (read under the call's arguments), its implementation the method called, read on that tool's class (inherited
methods and what the constructor hands the base class included); the class's other methods are tool code too."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Iterator

import tree_sitter as ts

from auditor.extract import dead, finders
from auditor.extract.program import Module, class_name_of
from auditor.extract.server import Dispatch, Handler
from auditor.extract.syntax import (CLASS_TYPES, FUNCTION_TYPES, ancestors, call_args, class_base, find,
                                    local_values_of, member_chain, object_method, strip_casts, text)
from auditor.extract.frames import Frame, attach, destructured, parameters
from auditor.extract.values import Values

_LOOKUP, _STORE = "get", "set"  # coupling: reach._STORES (what a Map holds)
_FIND = "find"  # `list.find((t) => t.name === name)`: a lookup in the list itself


def dispatches(handler: Handler, fns: list[tuple], calls_of, link, is_name, follow=None, frames=None
               ) -> tuple[list[Dispatch], list[tuple[Module, ts.Node]]]:
    """The dispatches of a tools/call handler that looks its tool up in a run-time registry, and the installing calls
    whose tool name or implementation is not read (module, call). FNS: the handler and the functions it delegates
    to, with their modules (and the parameters of each the handler hands a tool name, when known); CALLS_OF: the
    call sites of a function; IS_NAME(node, module, subjects): whether an expression is the requested tool's name; FRAMES(node, module, outer): the frames that bind a name (summaries.Expander)."""
    if link is None:
        return [], []
    values = Values(link)
    out: dict[str, Dispatch] = {}
    unread: list[tuple[Module, ts.Node]] = []
    for fn, module, *handed in fns:  # (with the parameters the handler hands a tool name, when given)
        subjects = handed[0] if handed else frozenset()
        named = lambda n, m, subjects=subjects: is_name(n, m, subjects)  # noqa: E731
        for lookup, loop, fmod, use, key, method in finders.finds(fn, module, link, named) if follow is not None else ():
            # `const { config } = find(name); config.run(args)`, FIND looping over the tool objects (extract/finders.py)
            _record(out, unread, values, handler, module, lookup, method, _looped(follow, loop, fmod, use, key, calls_of),
                    calls_of=calls_of)
        for lookup, holder, method, handed_on in _lookups(fn, module, named, _sites(calls_of, fns, values)):
            if holder == _FIND:  # `LIST.find((t) => t.name === name)`
                rmod, installed = module, _found(module, lookup, follow, calls_of, values, frames)
            elif holder.startswith("this."):  # a field filled from a list (`this.byName = list.reduce(...)`), or by
                # `this.R.set(key, tool)` in a method of its class
                cls = next((a for a in ancestors(lookup) if a.type in {"class_declaration", "class"}), None)
                rmod = module
                installed = itertools.chain(_from_lists(module, lookup, holder, values, follow),
                                            _installed(module, tuple(holder.split(".")), calls_of, values, frames, cls)
                                            if cls is not None else ())
            else:
                where = link.binding(module, holder)
                local_values = local_values_of(lookup, holder)
                if local_values:  # built in the function it is looked up in (`const byName = ...`, or assigned later:
                    rmod = module  # `let map = null; ... map ?? (map = Object.fromEntries(...))`), or filled there by
                    scope = next((a for a in ancestors(local_values[0]) if a.type in FUNCTION_TYPES), None)  # `set`
                    installed = itertools.chain(
                        itertools.chain.from_iterable(_built(v, module, follow) for v in local_values),
                        _installed(module, (holder,), calls_of, values, frames, scope) if scope is not None else ())
                elif where is None or where[1] not in where[0].toplevel:
                    continue
                else:
                    rmod, local = where
                    installed = itertools.chain(_built(rmod.toplevel[local], rmod, follow),
                                                _installed(rmod, (local,), calls_of, values, frames))
            _record(out, unread, values, handler, module, lookup, method,
                    ((key, tool, tmod, frame, rmod) for key, tool, tmod, frame in installed), lenient=handed_on,
                    calls_of=calls_of)
    return [out[k] for k in sorted(out)], unread


def _sites(calls_of, fns: list[tuple], values: Values):
    """CALLS_OF, and for a function the index knows no call of, the calls of it in FNS (the handler and the functions
    it delegates to) through a field of an instance (`this.router.getToolHandler(name)`, the router a constructor's
    parameter): how the handler reached it."""
    def sites(fn: ts.Node) -> list[tuple[Module, ts.Node]]:
        found = calls_of(fn) if calls_of is not None else []
        return found or [(m, c) for f, m, *_ in fns for c in find(f, {"call_expression"})
                         if values.function_of(c.child_by_field_name("function"), m, None)[0] == fn]
    return sites


def _record(out: dict[str, Dispatch], unread: list, values: Values, handler: Handler, module: Module, lookup: ts.Node,
            method: str, installed, lenient: bool = False, calls_of=None) -> None:
    """Add to OUT one dispatch per installed tool (key, tool object, its module, frame, the key's module) whose name
    and METHOD are read; to UNREAD the installing site of one whose name or method is not (LENIENT: METHOD is only a
    member handed on, which need not be the implementation: one that is no function is passed over). One installed
    by code of a dependency the program never runs (an example the package ships: extract/dead.py) is none."""
    for key, tool, tmod, frame, rmod in installed:
        if calls_of is not None and any(dead.unrun_in_dependency(n, m, values.link, calls_of) for n, m in
                                        [(key, rmod), *((f.site, f.caller) for f in _frames_out(frame))]):
            continue
        name = _key(values, key, rmod, frame)
        if name in out:  # met again (a descriptor whose fields the tool object copies)
            continue
        target = _method(values, tool, tmod, method, frame)
        if name is None or target is None or (target.type not in FUNCTION_TYPES and target.type != "method_definition"):
            if not lenient:
                unread.append((frame.caller, frame.site) if frame is not None else (rmod, key))
            continue
        if tool.type == "new_expression":
            shown = f"{text(tool.child_by_field_name('constructor'))}.{method}"
            handed = tuple(_methods(values.link, tool, tmod, target))
        elif tool.type == "call_expression" and not method:  # `wrap(t.schema, t.handler)`: the function the call
            shown = f"{text(tool.child_by_field_name('function'))}({name})"  # makes, and the tool's own functions
            handed = values.handed(tool, tmod, frame)  # it is handed
        else:  # a tool object: its function-valued members are tool code too (a function found: itself)
            shown, handed = f"{name}.{method}" if method else name, ()
        out[name] = Dispatch(module=module, handler=handler, tool=name, node=lookup, subject=text(lookup),
                             target=target, target_name=shown, form="registry", handed=handed)


def _frames_out(frame: Frame | None) -> Iterator[Frame]:
    """FRAME and the frames it is read under, outward."""
    while frame is not None:
        yield frame
        frame = frame.outer


def _looped(follow, loop: ts.Node, module: Module, use: ts.Node, key: ts.Node, calls_of
            ) -> Iterator[tuple[ts.Node, ts.Node, Module, Frame, Module]]:
    """(key, element, its module, frame, the key's module) of each element a finder's LOOP visits (USE: its variable
    where the loop compares it), the key (`c.name`) read with the variable bound to that element; an element made by a
    function with parameters (`make({ name })` returning `{ name, run }`) once per call of it, under that call."""
    follow.reset()
    for obj, omod in list(follow.expr(use, module, 0)):
        for outer in _made_by(obj, omod, calls_of):
            yield key, obj, omod, Frame(scope=loop, module=module, names={text(use): (0, ())}, args=(obj,), caller=omod,
                                        site=obj, outer=outer), module


def _deepened(values: Values, frames, key: ts.Node, module: Module, frame: Frame | None, depth: int = 0
              ) -> list[Frame | None]:
    """FRAME, or when KEY's string is not read under it, FRAME under each frame that binds what its chain still needs
    (`createTool({ name: `get_${config.type}` })` in a function called per element of a list of configs)."""
    if frame is None or frames is None or depth > 3 or _key(values, key, module, frame) is not None:
        return [frame]
    value, where = values.frontier(key, module, frame)
    value = strip_casts(value)
    found = [attach(frame, g) for g in frames(value, where, None)] if value is not None and value.id != key.id else []
    deeper = [d for f in found for d in _deepened(values, frames, key, module, f, depth + 1)]
    off = getattr(frames, "__self__", None)  # (an instantiation a condition rules out under its frame: none)
    return [d for d in deeper if off is None or not off.guarded_off(d)] if deeper else [frame]


def _written_entries(array: ts.Node, depth: int = 0) -> Iterator[ts.Node]:
    """The [key, value] arrays an array literal holds, through spreads of array literals and of conditionals of them
    (`...(flag ? [["x", h]] : [])`: either branch's)."""
    for e in (strip_casts(c) for c in array.named_children if c.type != "comment"):
        if e is None or depth > 4:
            continue
        if e.type == "array":
            yield e
        elif e.type == "spread_element" and e.named_children:
            inner = strip_casts(e.named_children[0])
            for branch in ([inner.child_by_field_name("consequence"), inner.child_by_field_name("alternative")]
                           if inner is not None and inner.type == "ternary_expression" else [inner]):
                branch = strip_casts(branch)
                if branch is not None and branch.type == "array":
                    yield from _written_entries(branch, depth + 1)


def _made_by(obj: ts.Node, module: Module, calls_of) -> list[Frame | None]:
    """The frames of each call of the function with parameters an object literal OBJ is written in (`make({ name })`
    returning `{ name: spec.name, run }`: one object per call, read under it); [None] for any other."""
    made = next((a for a in ancestors(obj) if a.type in FUNCTION_TYPES), None)
    names = parameters(made) if made is not None else {}
    sites = calls_of(made) if names and calls_of is not None else []
    return [Frame(scope=made, module=module, names=names, args=tuple(call_args(site)), caller=cmod, site=site)
            for cmod, site in sites] or [None]


def _method(values: Values, tool: ts.Node | None, module: Module, method: str, frame: Frame | None = None
            ) -> ts.Node | None:
    """The function member METHOD of a tool object or instance (read under FRAME): a property, a method (`async run()
    {}`) of the object literal, a method of the instance's class or of a class it extends, an export of a namespace;
    with no METHOD (what is found is called: `const run = R.get(name); run(args)`), the function the tool is."""
    if not method:
        return tool if tool is not None and tool.type in FUNCTION_TYPES else \
            values.function_of(tool, module, frame)[0] if tool is not None and tool.type in {
                "identifier", "shorthand_property_identifier", "call_expression", "member_expression"} else None
    named = values.link._class(module, text(tool)) if tool is not None and tool.type == "identifier" else None
    if named is not None:  # a class found (constructed by a factory): its method
        tool, module = named[1].node, named[0]
    if tool is not None and tool.type in CLASS_TYPES and class_name_of(tool):
        return values.function_of(*values.class_member(module, class_name_of(tool), method), frame)[0]
    if tool is None or tool.type not in {"new_expression", "object", "call_expression"} \
            and values.namespace(tool, module) is None:  # (a call: a member of the object it returns)
        return None
    if tool.type == "object":
        written = object_method(tool, method)
        if written is not None:
            return written
    return values.function_of(*values.member(tool, module, method, frame, 0), frame)[0]


def _lookups(fn: ts.Node, module: Module, is_name, calls_of=None) -> Iterator[tuple[ts.Node, str, str, bool]]:
    """(the lookup, the registry's name, the method called on what it finds, whether that is only a member handed on)
    of `R.get(name)`, or `this.R[name]` of a field, in FN: through a variable (`const tool = R.get(name); ...
    tool.run(args)`) or directly (`R.get(name).run(args)`); with no method called, each member handed to a call."""
    for call in find(fn, {"call_expression", "subscript_expression"}):
        if call.type == "subscript_expression":
            chain = member_chain(strip_casts(call.child_by_field_name("object")))
            index = strip_casts(call.child_by_field_name("index"))
            if not chain or not (len(chain) == 2 and chain[0] == "this" or len(chain) == 1) or index is None \
                    or not is_name(index, module):
                continue
            holder = ".".join(chain)
        elif _matcher(call, module, is_name) is not None:
            holder = _FIND
        else:
            callee = strip_casts(call.child_by_field_name("function"))
            chain = member_chain(callee) if callee is not None else None
            args = call_args(call)
            if not chain or len(chain) not in {2, 3} or len(chain) == 3 and chain[0] != "this" or chain[-1] != _LOOKUP \
                    or len(args) != 1 or not is_name(strip_casts(args[0]), module):
                continue
            holder = ".".join(chain[:-1])  # `R.get(name)`, or `this.R.get(name)` of a field
        called = _called_on(call, fn, calls_of)
        optional = _optional(call, fn, called)
        # (a member called only when the tool has it is no tool's implementation: read after the others, leniently)
        for method in sorted(called, key=lambda m: m in optional) or _handed_members(call, fn):
            yield call, holder, method, not called or method in optional


def _matcher(call: ts.Node, module: Module, is_name) -> tuple[ts.Node, str, ts.Node] | None:
    """(callback, its element's name, the key compared) of `X.find((t) => t.KEY === name)` (either side), else None."""
    callee = strip_casts(call.child_by_field_name("function"))
    args = call_args(call)
    if callee is None or callee.type != "member_expression" or text(callee.child_by_field_name("property")) != _FIND \
            or len(args) != 1 or strip_casts(args[0]) is None or strip_casts(args[0]).type not in FUNCTION_TYPES:
        return None
    fn = strip_casts(args[0])
    element = next((k for k, (i, p) in parameters(fn).items() if i == 0 and not p), None)
    body = fn.child_by_field_name("body")
    if body is not None and body.type == "statement_block":
        returns = [c for c in body.named_children if c.type == "return_statement"]
        body = returns[0].named_children[0] if len(returns) == 1 and returns[0].named_children else None
    body = strip_casts(body)
    if element is None or body is None or body.type != "binary_expression" \
            or text(body.child_by_field_name("operator")) not in {"===", "=="}:
        return None
    left, right = body.child_by_field_name("left"), body.child_by_field_name("right")
    for key, other in ((left, right), (right, left)):
        chain = member_chain(strip_casts(key))
        if chain and len(chain) >= 2 and chain[0] == element and is_name(strip_casts(other), module):
            return fn, element, key
    return None


def _found(module: Module, call: ts.Node, follow, calls_of=None, values: Values | None = None, frames=None
           ) -> Iterator[tuple[ts.Node, ts.Node | None, Module, Frame | None]]:
    """(key, tool object, its module, frame) of each element of the list `X.find(...)` searches (one made per call of
    a function: under each call)."""
    fn, element, key = _matcher(call, module, lambda n, m: True)
    if follow is None:
        return
    follow.reset()
    listed = call.child_by_field_name("function").child_by_field_name("object")
    for obj, omod in list(follow.expr(listed, module, 0)):
        for outer in _made_by(obj, omod, calls_of):
            frame = Frame(scope=fn, module=module, names={element: (0, ())}, args=(obj,), caller=omod, site=obj,
                          outer=outer)
            for each in _deepened(values, frames, key, module, frame) if values is not None else [frame]:
                yield key, obj, omod, each


def _from_lists(module: Module, lookup: ts.Node, holder: str, values: Values, follow
                ) -> Iterator[tuple[ts.Node, ts.Node | None, Module, Frame | None]]:
    """(key, tool object, its module, frame) of each element of the lists a field is built from, anywhere in the
    class: `this.R = LIST.reduce(...)`, `new Map(LIST.map(...))`, `Object.fromEntries(LIST.map(...))` (_built)."""
    cls = next((a for a in ancestors(lookup) if a.type in {"class_declaration", "class"}), None)
    if cls is None or follow is None:
        return
    target = tuple(holder.split("."))
    for node in find(cls, {"assignment_expression"}):
        if member_chain(strip_casts(node.child_by_field_name("left"))) == target:
            yield from _built(node.child_by_field_name("right"), module, follow)


def _built(value: ts.Node | None, module: Module, follow) -> Iterator[tuple[ts.Node, ts.Node, Module, Frame]]:
    """(key, element, its module, frame) of a registry built from a list of tool objects:
    `LIST.reduce((acc, t) => { acc[KEY] = t; return acc; }, {})`, or `new Map(LIST.map((t) => [KEY, t]))` and
    `Object.fromEntries(LIST.map((t) => [KEY, t]))`; the key is read with the callback's element bound to each."""
    value = strip_casts(value)
    if value is None or follow is None:
        return
    if value.type == "new_expression" and text(value.child_by_field_name("constructor")) == "Map" \
            or value.type == "call_expression" and member_chain(value.child_by_field_name("function")) == ("Object", "fromEntries"):
        args = call_args(value)
        value = strip_casts(args[0]) if len(args) == 1 else None
        pairs = True
        if value is not None and value.type == "array":  # `new Map([["name", handler], ...])`: the entries written
            for entry in _written_entries(value):  # (and those a spread adds: `...(flag ? [["x", h]] : [])`)
                items = [c for c in entry.named_children if c.type != "comment"]
                if len(items) == 2:
                    yield items[0], strip_casts(items[1]), module, None
            return
    else:
        pairs = False
    callee = value.child_by_field_name("function") if value is not None and value.type == "call_expression" else None
    args = call_args(value) if callee is not None else []
    method = text(callee.child_by_field_name("property")) if callee is not None and callee.type == "member_expression" else ""
    fn = strip_casts(args[0]) if args else None
    if fn is None or fn.type not in FUNCTION_TYPES or method != ("map" if pairs else "reduce"):
        return
    names = parameters(fn)
    element = next((k for k, (i, p) in names.items() if i == (0 if pairs else 1) and not p), None)
    keys, wrapped = [], {}
    if pairs:  # (t) => [KEY, t]
        for ret in follow.returns(fn, module):
            entry = strip_casts(ret[0])
            items = [c for c in entry.named_children if c.type != "comment"] if entry is not None and entry.type == "array" else []
            if len(items) == 2 and text(strip_casts(items[1])) == element:
                keys.append(items[0])
            elif len(items) == 2 and _wraps(strip_casts(items[1]), element):  # (t) => [KEY, wrap(t.schema, t.run)]:
                keys.append(items[0])  # what the call makes of each tool object is what is found
                wrapped[items[0].id] = strip_casts(items[1])
    else:  # (acc, t) => { acc[KEY] = t; return acc; }
        acc = next((k for k, (i, p) in names.items() if i == 0 and not p), None)
        for store in find(fn, {"assignment_expression"}):
            left, right = store.child_by_field_name("left"), strip_casts(store.child_by_field_name("right"))
            if left is not None and left.type == "subscript_expression" and right is not None and text(right) == element \
                    and text(left.child_by_field_name("object")) == acc:
                keys.append(left.child_by_field_name("index"))
    for key in keys:
        follow.reset()
        for obj, omod in list(follow.expr(callee.child_by_field_name("object"), module, 0)):
            frame = Frame(scope=fn, module=module, names={element: (0, ())}, args=(obj,), caller=omod, site=obj)
            yield (key, wrapped[key.id], module, frame) if key.id in wrapped else (key, obj, omod, frame)


def _wraps(call: ts.Node | None, element: str | None) -> bool:
    """Whether CALL is a call handed a member of ELEMENT (`wrap(t.schema, t.handler)`)."""
    return call is not None and call.type == "call_expression" and element is not None and any(
        len(chain := member_chain(strip_casts(a)) or ()) == 2 and chain[0] == element for a in call_args(call))


def _called_on(lookup: ts.Node, fn: ts.Node, calls_of=None) -> list[str]:
    """The methods called on what LOOKUP finds; "" when it is itself called (`const run = R.get(name); run(args)`).
    A class found and returned constructed (`const C = R.get(name); return new C(ctx)`, a factory): the methods its
    callers (CALLS_OF) call on what it returns (`factory.create(name).handle(args)`). A lookup in a branch of a
    conditional (`const h = name ? R.get(name) : undefined`) is read as what the conditional holds; one beside a
    default is not (`(calls.get(key) ?? []).filter(...)`: a Map of other values than tools, a rate limiter's)."""
    up, below = lookup.parent, lookup
    while up is not None and (up.type == "parenthesized_expression"
                              or up.type == "ternary_expression" and up.child_by_field_name("condition") != below):
        up, below = up.parent, up
    if up is not None and up.type == "member_expression" and up.parent is not None and up.parent.type == "call_expression":
        return [text(up.child_by_field_name("property"))]
    if up is not None and up.type == "member_expression" and up.parent is not None \
            and up.parent.type == "return_statement" and calls_of is not None:  # `getToolHandler(name) { return
        for _, site in calls_of(fn):  # this.tools.get(name)?.handler; }`, its callers calling what it returns
            around = next((a for a in ancestors(site) if a.type in FUNCTION_TYPES | {"method_definition"}), None)
            if around is not None and "" in _called_on(site, around):
                return [text(up.child_by_field_name("property"))]
        return []
    if up is not None and up.type == "return_statement" and calls_of is not None:  # `getHandler(name) { return
        out = []                                                                   # this.handlers.get(name); }`
        for _, site in calls_of(fn):  # what its callers do with what it finds (`const h = r.getHandler(name); h(a)`)
            around = next((a for a in ancestors(site) if a.type in FUNCTION_TYPES | {"method_definition"}), None)
            out += [m for m in (_called_on(site, around) if around is not None else []) if m not in out]
        return out
    holder = up if up is not None and up.type == "variable_declarator" else None
    if holder is None and up is not None and up.type == "await_expression" and up.parent is not None \
            and up.parent.type == "variable_declarator":
        holder = up.parent
    name = holder.child_by_field_name("name") if holder is not None else None
    if name is None or name.type != "identifier":
        return []
    out = []
    for call in find(fn, {"call_expression"}):
        chain = member_chain(strip_casts(call.child_by_field_name("function")))
        called = chain[1] if chain and len(chain) == 2 and chain[0] == text(name) else \
            "" if chain == (text(name),) else None
        if called is not None and called not in out:
            out.append(called)
    made = [n for n in find(fn, {"new_expression"}) if text(n.child_by_field_name("constructor")) == text(name)
            and n.parent is not None and n.parent.type == "return_statement"]
    returned = [r for r in find(fn, {"return_statement"}) if r.named_children and strip_casts(r.named_children[0])
                is not None and text(strip_casts(r.named_children[0])) == text(name)]  # `const tool = R.get(name); if
    # (!tool) throw ...; return tool;`: what its callers call on what it returns, as of `return R.get(name)`
    for _, site in calls_of(fn) if (made or returned) and calls_of is not None else ():
        around = next((a for a in ancestors(site) if a.type in FUNCTION_TYPES | {"method_definition"}), None)
        out += [m for m in (_called_on(site, around) if around is not None else [])
                if (m or returned) and m not in out]  # (a class found is constructed, not called: `new C(ctx)`)
    return out


def _optional(lookup: ts.Node, fn: ts.Node, called: list[str]) -> set[str]:
    """The methods of CALLED that are called on what LOOKUP finds (held by a variable) only when it has them:
    `if (tool.validate) tool.validate(args)`, `tool.validate && tool.validate(args)`, `tool.validate?.(args)`."""
    holder = lookup.parent
    name = holder.child_by_field_name("name") if holder is not None and holder.type == "variable_declarator" else None
    if name is None or name.type != "identifier":
        return set()
    out = set()
    for method in called:
        member = f"{text(name)}.{method}"
        calls = [c for c in find(fn, {"call_expression"})
                 if text(strip_casts(c.child_by_field_name("function"))).replace("?.", ".") == member]
        if calls and all(_tested_first(c, member, fn) for c in calls):
            out.add(method)
    return out


def _tested_first(call: ts.Node, member: str, fn: ts.Node) -> bool:
    """Whether CALL of MEMBER runs only when MEMBER is there: `member?.(...)`, or under an `if`, a `?:` or an `&&`
    whose test reads MEMBER."""
    if any(c.type == "optional_chain" for c in call.children):  # `tool.validate?.(args)`
        return True
    for up in ancestors(call):
        if up.id == fn.id:
            return False
        test = up.child_by_field_name("condition") if up.type in {"if_statement", "ternary_expression"} else \
            up.child_by_field_name("left") if up.type == "binary_expression" \
            and text(up.child_by_field_name("operator")) == "&&" else None
        if test is not None and not (test.start_byte <= call.start_byte < test.end_byte) \
                and any(text(m) == member for m in find(test, {"member_expression"})):
            return True
    return False


def _handed_members(lookup: ts.Node, fn: ts.Node) -> list[str]:
    """When no method is called on what LOOKUP finds: the members of it handed to a call (`const endpoint =
    R[name]; return run(endpoint.tool, endpoint.handler, args)`), also as a property of an object written in the call
    (`run({ handler: endpoint.handler, args })`), each a candidate for its implementation."""
    holder = lookup.parent
    name = holder.child_by_field_name("name") if holder is not None and holder.type == "variable_declarator" else None
    if name is None or name.type != "identifier":
        return []
    out = []
    for member in find(fn, {"member_expression"}):
        chain = member_chain(member) or ()
        up = member.parent
        if up is not None and up.type == "pair" and up.child_by_field_name("value") == member \
                and up.parent is not None and up.parent.type == "object":  # `run({ handler: tool.handler, args })`
            up = up.parent.parent
        if len(chain) == 2 and chain[0] == text(name) and up is not None and up.type == "arguments" \
                and chain[1] not in out:
            out.append(chain[1])
    return out


def _installed(rmod: Module, holder: tuple[str, ...], calls_of, values: Values, frames=None,
               within: ts.Node | None = None) -> Iterator[tuple[ts.Node, ts.Node | None, Module, Frame | None]]:
    """(key, tool object, its module, the frame the key is read under) of each `HOLDER.set(key, tool)` of RMOD (a
    variable, or `this.R` written WITHIN its class): once per call of the function it is written in when the tool is
    a parameter of that function, and once per element when that call is in a loop (`for (const d of DEFS)
    registry.register(d, HANDLERS[d.name])`)."""
    for call in rmod.nodes("call"):
        if member_chain(call.child_by_field_name("function")) != (*holder, _STORE) or len(call_args(call)) != 2 \
                or within is not None and not within.start_byte <= call.start_byte < within.end_byte:
            continue
        key, value = call_args(call)
        fn = next((a for a in ancestors(call) if a.type in FUNCTION_TYPES), None)
        names = parameters(fn) if fn is not None else {}
        # (`install(tool)`: the tool is a parameter; `register(d, run)`: an object made of them, `{ ...d, handler: run }`)
        if not any(text(n) in names or _taken_from_parameter(n, names)
                   for n in find(call, {"identifier", "shorthand_property_identifier"})):
            # in a loop (`for (const C of CLASSES) { const t = new C(); R.set(t.getName(), t) }`): once per element
            # (or by the key alone: `for (const d of DEFS) handlers.set(d.name, handleGroup)`, one function for all)
            looped = next((found for node in (value, key) if (found := [
                f for f in (frames(node, rmod, None) if frames is not None else ()) if f.scope.type == "for_in_statement"])),
                [])
            for each in looped or [None]:
                tool, tmod = values.definition(*values.bound(value, rmod, each)) if each is not None else \
                    values.definition(value, rmod)
                yield key, tool, tmod, each
            continue
        for cmod, site in calls_of(fn):
            frame = Frame(scope=fn, module=rmod, names=names, args=tuple(call_args(site)), caller=cmod, site=site)
            for each in _around(frame, frames):
                tool, tmod = values.definition(*values.bound(value, rmod, each))
                yield key, tool, tmod, each


def _taken_from_parameter(node: ts.Node, names: dict) -> bool:
    """Whether NODE is a name destructured from one of the parameters NAMES (`const { name, handler } = definition`)."""
    taken = destructured(node)
    init = strip_casts(taken[0]) if taken is not None else None
    return init is not None and init.type == "identifier" and text(init) in names


def _around(frame: Frame, frames, depth: int = 0) -> list[Frame]:
    """FRAME under each frame (FRAMES) of the scope its call is written in that binds what it hands: one per element
    of a loop the call is in, one per call of a function whose parameter it hands on (itself under the frames that
    bind what that call hands, a few calls out: a callback called where a loop hands it each entry); FRAME itself
    when none binds."""
    for arg in frame.args if frames is not None else ():
        for handed in _handed_names(arg):
            found = list(frames(handed, frame.caller, None))
            if found:
                return [replace(frame, outer=o) for f in found
                        for o in (_around(f, frames, depth + 1) if depth < _AROUND and f.outer is None else [f])]
    return [frame]


_AROUND = 2  # calls out _around follows what a call hands


def _handed_names(arg: ts.Node | None) -> list[ts.Node]:
    """The names an argument hands: itself, or the members of an object literal written in the call (`register({
    name: tool.name, handler: h[tool.run] })` in a loop: what `tool` is bound to is the loop's element)."""
    arg = strip_casts(arg)
    out = [arg] if arg is not None else []
    if arg is not None and arg.type == "object":
        out += [strip_casts(p.child_by_field_name("value")) if p.type == "pair" else p
                for p in arg.named_children if p.type in {"pair", "shorthand_property_identifier"}]
    return [n for n in out if n is not None and (member_chain(n) or ("this",))[0] != "this"]


def _key(values: Values, key: ts.Node, module: Module, frame: Frame | None) -> str | None:
    """The string KEY stands for under FRAME: through local constants (`const k = tool.spec.name`) and members."""
    node, where = key, module
    for _ in range(4):
        node, where = values.bound(node, where, frame)
        found = values.string(node, where, frame=frame)
        if found is not None:
            return found
        value, vmod = values.definition(node, where)
        if value is None or value == node:
            return None
        node, where = value, vmod
    return None


def _methods(link, tool: ts.Node, module: Module, target: ts.Node) -> Iterator[tuple[Module, ts.Node]]:
    """The methods of the tool's class and of the classes it extends (what the called method may run on `this`)."""
    found = link._class(module, text(tool.child_by_field_name("constructor")))
    seen = 0
    while found is not None and seen < 8:
        cmod, info = found
        yield from ((cmod, m) for k, m in info.methods.items() if k != "constructor" and m != target)
        base = class_base(info.node)
        found = link._class(cmod, text(base)) if base is not None else None
        seen += 1
