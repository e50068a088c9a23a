"""Servers of MCP frameworks constructed (or made by a factory function) with an options object whose records hold the
tools keyed by name, or whose lists hold tool definitions (kb/sdk.yaml framework_servers, e.g. Mastra's `new
MCPServer({name, version, tools: {search: searchTool}})`, mcp-ts-core's `createApp({tools: [tool("search", {...})]})`):
each key of a record, each definition of a list, is a tool, read through the values machinery (spreads, imported
objects, namespaces, ternaries)."""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from auditor.extract.bindings import imports
from auditor.extract.highlevel import Registration, _gap, _tool, spread_pairs
from auditor.extract.lists import _bundled_namespace
from auditor.extract.program import Module, package_of
from auditor.extract.server import Dispatch, ServerDecl, ToolDecl
from auditor.extract.syntax import (FUNCTION_TYPES, NOT_LITERAL, call_args, callee_text, enclosing, excerpt, literal_fields,
                                    member_chain, object_method, object_pairs, pair_value, statement_of, string_value,
                                    strip_casts, text)
from auditor.extract.values import Values

FORM = "framework-record"  # the form of a tool read from a record (coverage ledger, routes)


@dataclass(frozen=True, kw_only=True, slots=True)
class Read:
    """What the framework servers of the code declare."""

    servers: tuple[ServerDecl, ...] = ()
    tools: tuple[ToolDecl, ...] = ()
    dispatches: tuple[Dispatch, ...] = ()
    registrations: tuple[Registration, ...] = ()
    read_whole: frozenset[str] = frozenset()  # modules each of whose framework servers was read whole


def framework_servers(modules, vocab: dict, link) -> Read:
    """Every framework server the modules construct, with the tools its records name."""
    specs = vocab.get("framework_servers") or ()
    if not specs:
        return Read()
    values = Values(link)
    servers, tools, dispatches, regs, partial, seen = [], [], [], [], set(), set()
    packages = tuple(spec["package"] for spec in specs)
    for m in modules:
        if not any(src == p or src.startswith(p + "/") for src, _ in m.imports for p in packages):
            continue  # (a large bundle holds many `new`: only a module importing a framework is searched)
        bound = imports(m)
        made = [(n, n.child_by_field_name("constructor"), "class") for n in m.nodes("new")] + \
            [(n, n.child_by_field_name("function"), "function") for n in m.nodes("call")]
        for new, ctor, how in made:
            spec = _spec(bound, ctor, specs, how)
            if spec is None:
                continue
            seen.add(m.path)
            args = call_args(new)
            decl = enclosing(new, {"variable_declarator"})
            assigned = enclosing(new, {"assignment_expression"})
            var = text(decl.child_by_field_name("name")) if decl is not None else \
                text(assigned.child_by_field_name("left")) if assigned is not None else "<expression>"
            opts, omod = values.definition(args[0], m) if args else (None, m)
            info = literal_fields(opts, omod.toplevel) if opts is not None and opts.type == "object" else {}
            servers.append(ServerDecl(module=m, var=var, cls=spec.get("class") or spec["function"], node=statement_of(new),
                                      info={k: v for k, v in info.items() if k in {"name", "version"}},
                                      capabilities=(), caps_node=None))
            got = _server_tools(values, m, new, args[0] if args else None, spec, vocab, link)
            tools += got[0]
            dispatches += got[1]
            regs += got[2]
            if any(r.name is None for r in got[2]):
                partial.add(m.path)
    return Read(servers=tuple(servers), tools=tuple(tools), dispatches=tuple(dispatches), registrations=tuple(regs),
                read_whole=frozenset(seen - partial))


def _spec(bound: dict[str, tuple[str, str]], ctor: ts.Node | None, specs, how: str = "class") -> dict | None:
    """The framework_servers entry whose class (HOW "class": `new MCPServer`) or factory function (HOW "function":
    `createApp(...)`) CTOR is, imported from its package (also through a namespace or default import; one of the
    same name of another origin is not it). BOUND: the module's imports."""
    name = _imported(bound, ctor)
    for spec in specs:
        if spec.get(how) is not None and name == (spec["package"], spec[how]):
            return spec
    return None


def _imported(bound: dict[str, tuple[str, str]], node: ts.Node | None) -> tuple[str, str] | None:
    """(package, name) of what NODE names when it is imported from a package (`X`, `ns.X`), the package without a
    subpath."""
    chain = member_chain(strip_casts(node)) if node is not None else None
    if not chain or len(chain) > 2:
        return None
    src, name = bound.get(chain[0], ("", ""))
    got = name if len(chain) == 1 and name not in {"*", "default"} else \
        chain[1] if len(chain) == 2 and name in {"*", "default"} else None
    package = package_of(src)
    return (package, got) if got is not None and package else None


def _shown(spec: dict) -> str:
    return f"new {spec['class']}(...)" if spec.get("class") else f"{spec['function']}(...)"


def _server_tools(values: Values, m: Module, new: ts.Node, opts: ts.Node | None, spec: dict, vocab: dict, link):
    tools, dispatches, regs = [], [], []
    options = {}
    if opts is not None:
        for key, value, vmod in values.entries(opts, m, None):
            options.setdefault(_key(values, key, vmod), (value, vmod))
    unread = _unread(values, opts, m) if opts is not None else []
    for record in spec["records"]:
        if record["option"] not in options:
            continue
        value, vmod = options[record["option"]]
        if record["names"] == "elements":
            got = _listed(values, m, new, value, vmod, spec, record, vocab, link)
            tools, dispatches, regs = tools + got[0], dispatches + got[1], regs + got[2]
            continue
        for rmod, node in _unread(values, value, vmod):
            shown = node if rmod is m else new
            regs.append(Registration(module=m, kind="tool", method=FORM, name=None, node=new, fn=None, gaps=(_gap(
                m, shown, f"{_shown(spec)}: the `{record['option']}` record `{excerpt(node)}` is not read "
                          f"whole: the tools it holds are not known (kb/sdk.yaml framework_servers)"),)))
        for key, entry, emod in values.entries(value, vmod, None):
            name = _key(values, key, emod)
            if name is None:
                regs.append(Registration(module=m, kind="tool", method=FORM, name=None, node=new, fn=None, gaps=(_gap(
                    m, key if emod is m else new, f"{_shown(spec)}: a key of the `{record['option']}` record "
                                                  f"(`{excerpt(key)}`) is not a literal: the tool it names is not known"),)))
                continue
            name = record.get("prefix", "") + name
            site = key.parent if key.parent is not None and key.parent.type == "pair" else key
            tool, dispatch, reg = _entry(values, site, name, entry, emod, spec, record, vocab, link)
            tools.append(tool)
            dispatches.append(dispatch)
            regs.append(reg)
    if unread and not regs:  # the options object itself is not read: its records are not known
        regs.append(Registration(module=m, kind="tool", method=FORM, name=None, node=new, fn=None, gaps=(_gap(
            m, new, f"{_shown(spec)}: the options `{excerpt(opts)}` are not read: the tools its records "
                    "hold are not known (kb/sdk.yaml framework_servers)"),)))
    return tools, dispatches, regs


def _listed(values: Values, m: Module, new: ts.Node, value: ts.Node, vmod: Module, spec: dict, record: dict,
            vocab: dict, link):
    """The tools a list option holds (`createApp({tools: [searchTool, ...]})`): each element a call of the package's
    definer (`tool("search", {description, input, handler})`: the name its first argument, the descriptor its second)
    or an object literal with a `name`; an element that is neither is a registration whose name is not read."""
    tools, dispatches, regs = [], [], []
    definer = (spec["package"], record["definer"]) if record.get("definer") else None
    elements = list(values.elements(value, vmod, None))
    def defines(obj: ts.Node | None, omod: Module) -> bool:  # a call of the package's definer
        return obj is not None and obj.type == "call_expression" and definer is not None \
            and _imported(imports(omod), obj.child_by_field_name("function")) == definer

    for element, emod, eframe in elements:
        obj, omod = values.definition(element[-1], emod) if element[-1] is not None else (None, emod)
        obj = strip_casts(obj)
        if obj is not None and obj.type == "call_expression" and definer is not None and not defines(obj, omod):
            made = [(strip_casts(v), vmod) for v, vmod, _ in values.call_values(obj, omod, eframe)]
            if len(made) == 1 and made[0][0] is not None:  # `buildSearchTool(opts)` returning `tool("x", {...})`
                obj, omod = made[0]
        name, entry = None, None
        if defines(obj, omod) and call_args(obj):
            args = call_args(obj)
            name, entry = values.string(args[0], omod), (args[1] if len(args) > 1 else None)
        elif obj is not None and obj.type == "object" and "name" in object_pairs(obj):
            name, entry = values.string(pair_value(object_pairs(obj)["name"]), omod), obj
        if name is None:
            shown = element[-1] if element[-1] is not None and emod is m else new
            regs.append(Registration(module=m, kind="tool", method=FORM, name=None, node=new, fn=None, gaps=(_gap(
                m, shown, f"{_shown(spec)}: an element `{excerpt(element[-1])}` of the `{record['option']}` list is not "
                          "read: the tool it defines is not known (kb/sdk.yaml framework_servers)"),)))
            continue
        tool, dispatch, reg = _entry(values, obj, name, entry if entry is not None else obj, omod, spec,
                                     {**record, "descriptor": entry is not None}, vocab, link)
        tools.append(tool)
        dispatches.append(dispatch)
        regs.append(reg)
    if not elements:
        regs.append(Registration(module=m, kind="tool", method=FORM, name=None, node=new, fn=None, gaps=(_gap(
            m, new, f"{_shown(spec)}: the `{record['option']}` list `{excerpt(value)}` is not read: the tools it holds "
                    "are not known (kb/sdk.yaml framework_servers)"),)))
    return tools, dispatches, regs


def _entry(values: Values, site: ts.Node, name: str, entry: ts.Node, m: Module, spec: dict,
           record: dict, vocab: dict, link) -> tuple[ToolDecl, Dispatch, Registration]:
    """The tool a record's entry (ENTRY, its key SITE, both in M) declares: its description, input schema and callback
    read from the value when the record holds tool objects and the value is an object literal; else only its name."""
    keys = spec["descriptor"]
    obj, omod = values.definition(entry, m)
    pairs = spread_pairs(obj, omod, link) if record.get("descriptor") and obj is not None and obj.type == "object" \
        else None
    gaps = []
    if pairs is not None:
        schema_key = next((k for k in keys["input_schema"] if k in pairs), None)
        hl = {**vocab["high_level"], "object": {"description": keys["description"],
                                                "input_schema": [schema_key] if schema_key else [], "annotations": None}}
        # (no schema key: _tool gives the empty object schema the framework advertises)
        tool, gaps = _tool(omod, {**vocab, "high_level": hl}, "object", FORM, name, obj, [obj], link, None, m, site)
        cb = next((pairs[k] for k in keys["callbacks"] if k in pairs), None) or \
            next(((fn, omod) for k in keys["callbacks"] if (fn := object_method(obj, k)) is not None), None)
        target, tmod = values.function_of(cb[0].child_by_field_name("value") if cb[0].type == "pair" else cb[0], cb[1],
                                          None) if cb is not None else (None, omod)  # (`async handler(input) {}`)
    else:
        chained = _chained(obj, keys["callbacks"]) if record.get("descriptor") and obj is not None else None
        detail = (f"tool {name!r}: the value `{excerpt(entry)}` of the `{record['option']}` record is not an object "
                  "literal: its description and input schema are not read") if record.get("descriptor") else \
            (f"tool {name!r}: made by {spec.get('class') or spec['function']} from the `{record['option']}` record's "
             f"`{excerpt(entry)}`: "
             "its description and input schema are the framework's, not read")
        gaps.append(_gap(m, site, detail, kind="schema"))
        tool = ToolDecl(module=m, name=name, node=site, binding=None, description=None, description_node=None,
                        described=False, schema=NOT_LITERAL, schema_node=site, form=FORM, schema_form="unknown",
                        gaps=tuple(gaps))
        target, tmod = values.function_of(chained, omod, None) if chained is not None else (None, m)
        if target is None or target.type not in FUNCTION_TYPES:
            target, tmod = None, m
    dispatch = Dispatch(module=m, tool=name, node=site, subject=_shown(spec).removesuffix("(...)"), target=target,
                        target_name=tmod.qualified(target) if target is not None else None, handler=None,
                        form="registration")
    reg = Registration(module=m, kind="tool", method=FORM, name=name, node=site, fn=target, gaps=tuple(gaps))
    return tool, dispatch, reg


def _chained(node: ts.Node, callbacks: list[str]) -> ts.Node | None:
    """The callback a builder chain is handed (`tool().description(d).input(s).handler(fn)`: fn, the argument of the
    call of one of CALLBACKS in the chain), or None."""
    node = strip_casts(node)
    while node is not None and node.type == "call_expression":
        fn = node.child_by_field_name("function")
        if fn is not None and fn.type == "member_expression" and text(fn.child_by_field_name("property")) in callbacks:
            args = call_args(node)
            return args[0] if len(args) == 1 else None
        node = strip_casts(fn.child_by_field_name("object")) if fn is not None and fn.type == "member_expression" else None
    return None


def _key(values: Values, key: ts.Node, module: Module) -> str | None:
    """The name a record's key gives: an identifier, a string, a number, or a computed key that is a constant."""
    if key.type in {"property_identifier", "shorthand_property_identifier", "identifier", "number"}:
        return text(key)
    if key.type == "string":
        return string_value(key)
    if key.type == "computed_property_name" and key.named_children:
        found = values.string(key.named_children[0], module)
        return found if isinstance(found, str) else None
    return None


def _unread(values: Values, node: ts.Node | None, module: Module, depth: int = 0) -> list[tuple[Module, ts.Node]]:
    """The parts of a record whose entries the values machinery cannot list: a value that is no object literal,
    namespace or bundled namespace, and such spreads inside one."""
    obj, omod = values.definition(*values.bound(node, module, None))
    if obj is None or depth > 6:
        return [(module, node)] if node is not None else []
    if obj.type == "object":
        return [u for c in obj.named_children if c.type == "spread_element" and c.named_children
                for u in _unread(values, c.named_children[0], omod, depth + 1)]
    if obj.type == "ternary_expression":
        return [u for b in ("consequence", "alternative") for u in _unread(values, obj.child_by_field_name(b), omod, depth + 1)]
    if (obj.type == "call_expression" and callee_text(obj) == "Object.fromEntries") or \
            _bundled_namespace(obj, omod) is not None or values.namespace(obj, omod) is not None:
        return []
    return [(omod, obj)]
