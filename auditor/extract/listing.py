"""What a low-level tools/list handler returns: the descriptor objects that reach its result's `tools` list.

A descriptor-shaped object literal (`{name, description, inputSchema}`) is a tool only when it reaches that list
(extract/reach.py follows the list back to the objects: through constants, imports, spreads, filters, functions, class
fields, parameters). What the result holds that cannot be followed is `unread`: the descriptors of the files it may
stand for stay tools, and all of them when that is not known."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import tree_sitter as ts

from auditor.extract.evaluate import Evaluator
from auditor.extract.program import Module
from auditor.extract import highlevel
from auditor.extract.reach import Reach, entry_value, holds
from auditor.extract.server import ToolDecl, name_of
from auditor.extract.syntax import (FUNCTION_TYPES, NOT_LITERAL, call_args, enclosing_function, find, object_pairs,
                                    pair_value, string_value, strip_casts)
from auditor.extract.values import Values
from auditor.model import Anchor, Gap

LIST_KEY = "tools"  # coupling: ListToolsResult of the MCP specification
NAME_KEY, SCHEMA_KEY = "name", "inputSchema"  # coupling: Tool of the MCP specification, queries/index.scm
RESULT_KEY = "result"  # coupling: a JSON-RPC 2.0 response
_ANSWER_DEPTH = 3  # calls followed from a no-SDK server's tools/list branch to the code that writes its answer


@dataclass(frozen=True, kw_only=True, slots=True)
class Listing:
    """One tools/list handler: the object literals its result lists, and what of it could not be read."""

    module: Module  # the handler's module
    handler: ts.Node  # the registering statement
    # Object literals that reach the result's list, and the calls of the server's own functions it is reached
    # through (a descriptor literal made by a function is one tool per call: extract/summaries.py).
    objects: frozenset[ts.Node]
    # Expressions of the result not followed (empty: read whole), each with the files whose descriptors it may
    # stand for (an import whose export is not read: that module and what it imports), or None: any file.
    unread: tuple[tuple[Module, ts.Node, frozenset[str] | None], ...]
    # Object literals of the list that declare no tool the audit read: their names are not read (`unnamed()`).
    unnamed: tuple[tuple[Module, ts.Node], ...] = ()
    # Objects listed as they are, not literals (a class instance, a namespace `import * as tool`), with the files
    # they may stand for: read when a descriptor template names a tool at them (`tools.map((t) => ({name:
    # t.meta.name, ...}))`, extract/summaries.py), else unread (`unnamed()` says which).
    as_is: tuple[tuple[Module, ts.Node, frozenset[str] | None], ...] = ()
    # Object literals of the list that copy the name of the descriptors they are made from (`{name: tool.name, ...}`
    # per element of a list read whole, extract/reach.py): named by those, which the list holds too.
    copies: frozenset[ts.Node] = frozenset()
    # The objects those literals copy (`{name: t.name, ...}` over a list of tool objects `{name, description, ...}`):
    # each a tool named by its own `name`, whatever else it holds (`named()`).
    copied: frozenset[ts.Node] = frozenset()
    # The result is (or holds) what the server registers through the high-level API (the SDK's own handler's result,
    # a list a wrapper of a registration method collects, the SDK class's own record): those tools are listed.
    delegated: bool = False
    # Objects listed only under a non-default environment (a ternary on `process.env`, extract/envdefault.py), with
    # the variables that condition reads: tools all the same (the ledger row says the condition), not by default.
    gated: tuple[tuple[frozenset[ts.Node], tuple[str, ...]], ...] = ()
    # The names of the tools the result lists, when the code fixes them all (extract/evaluate.py reads the list to
    # each element's `name`): no descriptor of another name is listed, whatever reach found. None: not known.
    names: frozenset[str] | None = None
    # Each element the evaluation read a name of: (name, the element's value, an evaluate.Record or a dict).
    evaluated: tuple[tuple[str, object], ...] = ()
    # The nodes of the tools made of those (`evaluated()`): listed by this list, as its objects are.
    made: frozenset[ts.Node] = frozenset()


def listing(reach: Reach, module: Module, handler: ts.Node, fn: ts.Node | None, branch: ts.Node | None = None
            ) -> Listing:
    """What the tools/list handler FN, registered by HANDLER, returns; with BRANCH (the code FN runs for tools/list
    of a server written with no SDK: extract/protocol.py), what that code returns or writes as the result."""
    unread = reach.reset()
    objects: set[ts.Node] = set()
    as_is: list[tuple[Module, ts.Node, frozenset[str] | None]] = []
    fmod = module
    if fn is not None and fn.type not in FUNCTION_TYPES:  # `handlers["tools/list"]`: the function that member holds
        value, fmod = reach.values.function_of(fn, module, None)
        fn = value if value is not None and value.type in FUNCTION_TYPES else fn
    if fn is None or fn.type not in FUNCTION_TYPES:
        reach.miss(module, fn if fn is not None else handler)
    else:
        found = False
        results = reach.returns(fn, fmod) if branch is None else _written(branch, fn, fmod, reach.link)
        for ret, rmod in results:
            for obj, omod in reach.expr(ret, rmod, 0):
                pairs = object_pairs(obj)
                if branch is not None and LIST_KEY not in pairs and RESULT_KEY in pairs:
                    # (a JSON-RPC response: `{ jsonrpc: "2.0", id, result: { tools } }`)
                    inner = [(o, m) for o, m in reach.expr(entry_value(pairs[RESULT_KEY]), omod, 0)]
                    obj, omod = next(((o, m) for o, m in inner if LIST_KEY in object_pairs(o)), (obj, omod))
                    pairs = object_pairs(obj)
                if LIST_KEY in pairs:
                    found = True
                    for o, lmod in reach.expr(entry_value(pairs[LIST_KEY]), omod, 1):
                        if o.type == "object":
                            objects.add(o)
                        else:  # an instance or a namespace listed as it is: read only through a template
                            objects.add(o)
                            as_is.append((lmod, o, reach.scope_of(o, lmod)))
                elif any(c.type == "spread_element" for c in obj.named_children):
                    reach.miss(omod, obj)
        if not found and not reach.delegated:  # a result filled in later (`result.tools = ...`), or built elsewhere
            reach.miss(fmod, branch if branch is not None else fn)
    items = _names(Evaluator(reach.link, reach.values), results) \
        if fn is not None and fn.type in FUNCTION_TYPES and reach.link is not None and not reach.delegated else None
    return Listing(module=module, handler=handler, objects=frozenset(objects | reach.sites), unread=_once(unread),
                   as_is=tuple(as_is), copies=frozenset(reach.copies), copied=frozenset(reach.copied), delegated=reach.delegated,
                   gated=tuple(reach.gated), names=frozenset(n for n, _ in items) if items is not None else None,
                   evaluated=tuple(items or ()))


def _names(ev: Evaluator, results: list[tuple[ts.Node, Module]]) -> list[tuple[str, object]] | None:
    """The tools RESULTS (a handler's returned or written values) list, as (name, element), when the code fixes
    each name: the result's `tools` (or its `result.tools`, a JSON-RPC response's) a list whose every element has a
    string `name`."""
    out: list[tuple[str, object]] = []
    for ret, rmod in results:
        tools = ev.member(ret, rmod, LIST_KEY)
        if tools is None:
            tools = ev.member(ret, rmod, RESULT_KEY, LIST_KEY)
        if not isinstance(tools, list):
            return None
        for item in tools:
            name = ev.field(item, NAME_KEY)
            if not isinstance(name, str):
                return None
            out.append((name, item))
    return out if results else None


def _written(branch: ts.Node, fn: ts.Node, module: Module, link=None, depth: int = 0) -> list[tuple[ts.Node, Module]]:
    """What the code BRANCH of FN answers with: the values it returns, and the object literals it writes that hold a
    result or a list (`process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result: { tools } }))`), also in a
    function of the boundary it calls to answer (`case "tools/list": this.handleToolsList(id)`), a few calls deep."""
    out = [(r.named_children[0], module) for r in find(branch, {"return_statement"})
           if r.named_children and enclosing_function(r) == fn]
    out += [(o, module) for o in find(branch, {"object"}) if {RESULT_KEY, LIST_KEY} & set(object_pairs(o))
            and not any(o.start_byte >= r.start_byte and o.end_byte <= r.end_byte for r, _ in out)]
    if out or link is None or depth >= _ANSWER_DEPTH:
        return out
    for call in find(branch, {"call_expression"}):
        hit = link.resolve(module, call)
        if hit is not None and hit[1] is not None and hit[1].type in FUNCTION_TYPES:
            out += [(o, m) for o, m in _written(hit[1], hit[1], hit[0], link, depth + 1) if o.type == "object"]
    return out


def _once(unread: list) -> tuple:
    """UNREAD without repeats (a part met again through another use of what holds it is one part)."""
    seen, out = set(), []
    for m, node, scope in unread:
        if (m.path, node.start_byte, node.end_byte, scope) not in seen:
            seen.add((m.path, node.start_byte, node.end_byte, scope))
            out.append((m, node, scope))
    return tuple(out)


def unnamed(l: Listing, declared: set[ts.Node], link, names: frozenset[str] = frozenset()) -> Listing:
    """L with the descriptors it lists whose tool name is not read: object literals not in DECLARED (those read as
    tools, and those instantiated per call of their function) with a `name` that is not read, or an input schema and
    no `name` of their own. An object with neither (a tool object whose member is what is listed) is none. An object
    listed as it is (`as_is`) that is no tool's site is unread: what it advertises is not known; an instance of a
    class of the boundary whose `name` reads as one of NAMES (the tools found) is that tool's."""
    out = []
    values = Values(link) if link is not None and names else None
    missed = tuple(x for x in l.as_is if x[1] not in declared and not _named_instance(values, x[0], x[1], names))
    for o in l.objects if l.names is None else ():  # (every name the list holds read by evaluation: none unread)
        if o.type != "object" or o in declared or o in l.copies:
            continue
        module = (link.module_of(o) if link is not None else None) or l.module
        pairs = object_pairs(o)
        if NAME_KEY in pairs and name_of(module, o, link) is None or NAME_KEY not in pairs and SCHEMA_KEY in pairs \
                or o in l.copied and name_of(module, o, link) is None:  # (what a copy's `t.name` reads has no name
            out.append((module, o))  # of its own: `{ tool, registeredAt }` of `({ tool }) => ({ name: tool.name })`)
    return replace(l, unnamed=tuple(sorted(out, key=lambda x: (x[0].path, x[1].start_byte))), unread=l.unread + missed)


def _named_instance(values: Values | None, module: Module, node: ts.Node, names: frozenset[str]) -> bool:
    """Whether NODE is `new C(...)` of a class of the boundary whose instances' `name` (a field its constructor sets,
    a getter, a static) reads as one of NAMES."""
    made = values.constructed(node, module, None) if values is not None and node.type == "new_expression" else None
    if made is None:
        return False
    value, vmod = values.class_member(made[0], made[1], NAME_KEY)
    return value is not None and values.string(value, vmod) in names


def named(l: Listing, declared: set[ts.Node], link) -> list[ToolDecl]:
    """The tools of the objects a copy in L names (`copied`) that are not declared as tools (no input schema of their
    own: the copy makes it): each named by its own `name`, its description its own when a literal; the schema the
    copy makes is not read (a detail gap)."""
    out = []
    ev = Evaluator(link, Values(link)) if link is not None and l.evaluated else None
    items = dict(l.evaluated)
    for o in sorted(l.copied - declared, key=lambda o: o.start_byte):
        module = (link.module_of(o) if link is not None else None) or l.module
        name = name_of(module, o, link)
        if name is None or SCHEMA_KEY in object_pairs(o) or l.names is not None and name not in l.names:
            continue
        desc = pair_value(object_pairs(o)["description"]) if "description" in object_pairs(o) else None
        text = string_value(desc) if desc is not None else None
        schema, node = _schema(ev, ev.field(items[name], SCHEMA_KEY)) if ev is not None and name in items \
            else (NOT_LITERAL, None)
        out.append(ToolDecl(module=module, name=name, node=o, binding=None, description=text,
                            description_node=desc if text is not None else None, schema=schema, schema_node=node,
                            schema_form="json-schema" if schema is not NOT_LITERAL else "unknown",
                            described=desc is not None, gaps=() if schema is not NOT_LITERAL else (Gap(
                                kind="schema", detail=f"tool {name!r}: the input schema is made by the tools/list "
                                "handler's copy of the tool object, not read",
                                anchor=Anchor(path=module.path, start_line=o.start_point[0] + 1,
                                              end_line=o.start_point[0] + 1)),)))
    return out


def _schema(ev: Evaluator, schema) -> tuple[object, ts.Node | None]:
    """The input schema SCHEMA (a listed element's, as the evaluation gives it) as plain data, and the literal it is
    written as (None when it is not one literal); (NOT_LITERAL, None) when it is not known."""
    value = ev.plain(schema) if schema is not None else None
    return (value, getattr(schema, "node", None)) if isinstance(value, dict) else (NOT_LITERAL, None)


def evaluated(l: Listing, known: frozenset[str], link) -> list[ToolDecl]:
    """The tools L's evaluation names (Listing.evaluated) that no descriptor read names (KNOWN): a descriptor the code
    assembles from data (`toolsBase.map((t) => ({ name: `create${t.function.name}Slide`, ... }))`, then copied to
    `{ name, description, inputSchema: parameters }`), its description and input schema as the evaluation gives
    them. Anchored at the literal its input schema is written as, when that is its own (else at the element made)."""
    if link is None or not l.evaluated:
        return []
    ev = Evaluator(link, Values(link))
    schemas = [(name, item, ev.field(item, SCHEMA_KEY)) for name, item in l.evaluated if name not in known]
    written = Counter(n.id for _, _, s in schemas if (n := getattr(s, "node", None)) is not None)
    out, seen = [], set()
    for name, item, schema in schemas:
        if name in seen:
            continue
        seen.add(name)
        own = getattr(schema, "node", None)
        own = own if own is not None and written[own.id] == 1 else None
        node = own if own is not None else getattr(item, "node", None)
        module = getattr(schema if own is not None else item, "module", None)
        if node is None or module is None:
            continue
        desc = ev.field(item, "description")
        value = _schema(ev, schema)[0]
        gaps = () if isinstance(value, dict) else (Gap(
            kind="schema", detail=f"tool {name!r}: the input schema the tools/list handler lists is not known",
            anchor=Anchor(path=module.path, start_line=node.start_point[0] + 1, end_line=node.start_point[0] + 1)),)
        out.append(ToolDecl(module=module, name=name, node=node, binding=None,
                            description=desc if isinstance(desc, str) else None, description_node=None,
                            schema=value if isinstance(value, dict) else NOT_LITERAL,
                            schema_node=own, schema_form="json-schema" if isinstance(value, dict) else "unknown",
                            described=desc is not None, gaps=gaps))
    return out


def split(tools: list, listings: list[Listing], made_for: dict | None = None, templates: dict | None = None,
          registered: frozenset[str] | None = None, named: frozenset[str] = frozenset(),
          refused: frozenset[tuple[str, int, int]] = frozenset()) -> tuple[list, list]:
    """(tools, descriptor-shaped objects that no tools/list handler advertises). A part of a list that was not read
    may hold any descriptor of the files it may stand for (any file, when that is not known): those stay tools. A
    tool a template makes (MADE_FOR: the tool's id -> the elements and calls it is made for) is listed when one of
    those is (`tools.map((t) => ({ name: t.getName(), ... }))` over the instances the list holds). With no tools/list
    handler of its own, a server whose tools are all registered through the high-level API (REGISTERED: the names
    its registrations and dispatches give, every registration's name read) lists those: a descriptor-shaped object
    of another name is advertised by nothing (a definition a tool's handler calls itself). When some name is not
    read, a descriptor-shaped object that a filter on a registration's path leaves out (REFUSED: (path, bytes) of
    those objects) and that no registration names (NAMED) is not registered either. When every list is read to its
    tools' names (Listing.names), a descriptor-shaped object of another name is not listed either."""
    kept, hidden = _split(tools, listings, made_for, templates, registered, named, refused)
    if listings and all(l.names is not None for l in listings):  # every list read to its names: no other is listed
        listed_names = frozenset().union(*(l.names for l in listings))
        hidden += [t for t in kept if t.form == "descriptor" and t.name not in listed_names]
        kept = [t for t in kept if not (t.form == "descriptor" and t.name not in listed_names)]
        kept += [t for t in hidden if t.form == "descriptor" and t.name in listed_names]  # (and one of those names
        hidden = [t for t in hidden if not (t.form == "descriptor" and t.name in listed_names)]  # is listed)
    return kept, hidden


def _split(tools: list, listings: list[Listing], made_for: dict | None, templates: dict | None,
           registered: frozenset[str] | None, named: frozenset[str], refused: frozenset[tuple[str, int, int]]
           ) -> tuple[list, list]:
    """split() by what reach follows of each list, before the names an evaluation of it gives."""
    scopes = [scope for l in listings for _, _, scope in l.unread]
    if not listings and (registered is not None or refused):
        hidden = [t for t in tools if t.form == "descriptor" and (
            t.name not in registered if registered is not None else t.name not in named and _inside(t, refused))]
        return [t for t in tools if not any(t is h for h in hidden)], hidden
    if not listings or None in scopes:
        return list(tools), []
    listed = frozenset().union(*(l.objects for l in listings))
    unknown = frozenset().union(*scopes)  # files whose descriptors an unread part of a list may stand for
    made_for, templates = made_for or {}, templates or {}
    # A descriptor literal the list reaches through no call or element it is made for (stored by the function that
    # makes it: `register(def) { this.tools.set(name, { name, ... }) }`): each tool made of it is listed.
    through = {templates[id(t)] for t in tools if id(t) in templates and made_for.get(id(t), frozenset()) & listed}
    kept, hidden = [], []
    for t in tools:
        template = templates.get(id(t))
        made = made_for.get(id(t), frozenset())
        handed = {strip_casts(a) for c in made if c.type in {"call_expression", "new_expression"} and c not in listed
                  for a in call_args(c)}
        # (an object handed to a call that makes the tool and is not listed: the copy a template makes of its
        # parameter, `{ name: o.name, ... }` of `defineTool(o)`, meets every call's object, not only the listed ones)
        shown = t.node in listed or bool((made - handed) & listed) \
            or template is not None and template in listed and template not in through
        (hidden if t.form == "descriptor" and not shown and t.module.path not in unknown else kept).append(t)
    return kept, hidden


def _inside(tool, objects: frozenset[tuple[str, int, int]]) -> bool:
    """Whether TOOL's node lies in one of OBJECTS ((path, start byte, end byte))."""
    return any(path == tool.module.path and start <= tool.node.start_byte < end for path, start, end in objects)


def unregistrable(tools: list, registrations: list, templates: dict) -> frozenset[tuple[str, int, int]]:
    """(path, bytes) of the descriptor-shaped object literals no registration whose name is not read can register
    (split's REFUSED): each such registration takes the name of an object handed to its function
    (`server.registerTool(tool.name, ...)`) and requires members of it (`const { inputSchema, ...config } =
    tool.config` throws when `config` is missing: highlevel.required_members); an object literal without one of them,
    and without a spread that may bring it, makes every such registration throw (a tool a template makes: the
    template's literal, TEMPLATES). Empty when some unread registration requires nothing known."""
    required = [highlevel.required_members(r.node) for r in registrations if r.kind == "tool" and r.name is None]
    if not required or not all(required):
        return frozenset()
    out = set()
    for t in tools:
        node = templates.get(id(t), t.node)
        if t.form == "descriptor" and node is not None and node.type == "object" \
                and not any(holds(node, req) for req in required):
            out.add((t.module.path, t.node.start_byte, t.node.end_byte))
    return frozenset(out)
