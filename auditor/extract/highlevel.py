"""High-level McpServer registrations (registerTool, tool, registerResource, registerPrompt) and zod schemas."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import tree_sitter as ts

from auditor.extract import constant, input_schemas, names, prefixes, webpack, zod
from auditor.extract.bindings import bound_names, class_name, imports, value_of
from auditor.extract.frames import REST, _parameter_of_scope, loop_element, parameters, plain_parameters, returned
from auditor.extract.program import Module, package_of
from auditor.extract.server import Dispatch, ToolDecl, annotations, schema_gaps
from auditor.extract.syntax import (CLASS_TYPES, FUNCTION_TYPES, NOT_LITERAL, call_args, call_function, callee_text, class_base, enclosing, enclosing_function, excerpt, find,
                                    literal, member_chain, object_method, object_pairs, pair_value, parameter_pattern, plus_chain, strip_casts, text,
                                    unknown_part)
from auditor.model import Anchor, Gap

# What the SDK advertises for a tool registered without an input schema.
EMPTY_INPUT = {"type": "object", "properties": {}}


@dataclass(frozen=True, kw_only=True, slots=True)
class Registration:
    module: Module
    kind: str  # tool | resource | prompt
    method: str  # the registration method, e.g. registerTool
    name: str | None  # None when the name is not a literal
    node: ts.Node  # the registration call
    fn: ts.Node | None  # the callback, when it resolves
    gaps: tuple[Gap, ...] = ()  # what of the registration could not be read (coverage)


def registrations(module: Module, vocab: dict, resolve, link=None) -> tuple[list[ToolDecl], list[Dispatch], list[Registration]]:
    """Tools registered through the high-level API, the dispatch each registration implies, and every
    registration (tools, resources, prompts) with what could not be read.

    `resolve(call_or_identifier_node)` maps a callee to (function node, qualified name) or None."""
    hl = vocab["high_level"]
    classes = set(hl["server_classes"]) | _server_subclasses(module, vocab, link)
    servers = _server_bindings(module, classes, vocab["sdk_packages"]) | \
        _imported_servers(module, set(hl["server_classes"]), vocab["sdk_packages"], link) | \
        _webpack_servers(module, classes, link)
    tools: list[ToolDecl] = []
    dispatches: list[Dispatch] = []
    regs: list[Registration] = []
    functions = _registration_functions(module, hl)
    for call in module.nodes("call"):
        fn = strip_casts(call.child_by_field_name("function"))
        if fn is not None and fn.type == "identifier" and text(fn) in functions and len(call_args(call)) > 1:
            # `registerAppTool(server, name, config, cb)` of a package: the server's registration, the server first
            rule = hl["registrations"][functions[text(fn)]]
            tool, dispatch, reg = read(Site(module=module, call=call, rule=rule, method=functions[text(fn)],
                                            args=tuple(call_args(call)[1:])), vocab, resolve, link)
            tools += [tool] if tool is not None else []
            dispatches += [dispatch] if dispatch is not None else []
            regs.append(reg)
            continue
        alias = _method_alias(module, fn) if fn is not None and fn.type == "identifier" else None
        if alias is not None:  # `const reg = server.registerTool.bind(server); reg(name, ...)`: that method
            fn = alias
        elif fn is None or fn.type != "member_expression":
            continue
        method = text(fn.child_by_field_name("property"))
        receiver = member_chain(fn.child_by_field_name("object"))
        args = call_args(call)
        borrowed = _prototype_call(receiver, method, set(hl["server_classes"]))
        if borrowed is not None:  # McpServer.prototype.registerTool.call(this, name, ...): a registration on `this`
            method, args = borrowed, args[1:]
        rule = hl["registrations"].get(method)
        if rule is None or constant.dead(call, module, link):  # (`if (DEBUG) server.tool(...)`: never registered)
            continue
        if _patched_over(call, method, module, link, hl["object"]["name"]):  # `server.registerTool = function
            # (name, ...) { original(name, ...) }`, `server.addTool = (tool) => { add(guard(tool)) }`: the
            continue                     # wrapper forwards each later registration, read where that is written
        if rule["signature"] != "object" and rule["kind"] == "tool" and rule["receiver"] == "server" \
                and object_first(args, module, hl["object"]):  # (on a server only: `registry.registerTool(def)`
            rule = {**rule, "signature": "object"}  # is another API) tmcp: `server.tool({name, schema}, callback)`
        if rule["signature"] == "list":  # `server.tools([a, b])`: each element registered as one object
            if borrowed is None and (receiver is None or ".".join(receiver) not in servers) or len(args) != 1:
                continue
            for site in _listed_sites(module, call, rule, method, args[0], link):
                tool, dispatch, reg = read(site, vocab, resolve, link) if isinstance(site, Site) else (None, None, site)
                tools += [tool] if tool is not None else []
                dispatches += [dispatch] if dispatch is not None else []
                regs.append(reg)
            continue
        if not args or rule["signature"] != "object" and len(args) < 2 and args[0].type != "spread_element":
            continue  # every calling convention but `object` takes a name and more (one argument is another API)
        if rule["signature"] != "object" and strip_casts(args[0]) is not None \
                and strip_casts(args[0]).type in FUNCTION_TYPES:
            continue  # a name is never a function: `api.registerTool((ctx) => ({ name, execute }), opts)` is another
            # API (a plugin host's)
        shape = hl["object"] if rule["signature"] == "object" else None
        if borrowed is None and receiver == ("this",) and _own_method(call, method) \
                and not _in_server_subclass(call, module, vocab, link):
            continue  # `this.registerTool(server, def)` in a class that writes registerTool itself: its own method
        if borrowed is None and rule["receiver"] == "server" and (receiver is None or ".".join(receiver) not in servers) \
                and not _sdk_shaped_on_parameter(call, receiver, args, module, shape, link) \
                and not (receiver == ("this",) and _in_server_subclass(call, module, vocab, link)):
            if shape is not None and rule["kind"] == "tool" and _unread_object_on_parameter(call, receiver, args,
                                                                                           module, link):
                regs.append(Registration(module=module, kind="tool", method=method, name=None, node=call, fn=None,
                                         gaps=(_gap(module, call, f"{method}(`{excerpt(args[0])}`) on a parameter: "
                                                    "the tool object it is handed is not read, so the tool it "
                                                    "registers, if any, is not listed"),)))
            continue
        tool, dispatch, reg = read(Site(module=module, call=call, rule=rule, method=method, args=tuple(args)), vocab,
                                   resolve, link)
        tools += [tool] if tool is not None else []
        dispatches += [dispatch] if dispatch is not None else []
        regs.append(reg)
    return tools, dispatches, regs


def _registration_functions(module: Module, hl: dict) -> dict[str, str]:
    """Local name -> the registration method it stands for, of the functions of packages that register on the server
    handed first (kb high_level.functions: `import { registerAppTool } from "@modelcontextprotocol/ext-apps/server"`)."""
    hit = module.memo.get("highlevel.functions")
    if hit is not None:  # (asked for at every registration an expansion reads: once per module)
        return hit
    known = hl.get("functions") or {}
    out = module.memo["highlevel.functions"] = {}
    for local, (src, name) in imports(module).items() if known else ():
        spec = known.get(name)
        if spec is not None and src in spec["modules"]:
            out[local] = spec["method"]
    return out


def _listed_sites(module: Module, call: ts.Node, rule: dict, method: str, listed: ts.Node, link):
    """One object registration per element of the list a `list` registration is handed: a tool object, or a call of a
    definer given the object and the callback (`defineTool({name, schema}, handler)`, the callback after the object as
    tmcp writes it); a Registration with a gap for an element or a list that is not read."""
    from auditor.extract.values import Values  # (values imports this module)

    values = Values(link) if link is not None else None
    elements = list(values.elements(listed, module, None)) if values is not None else []
    if not elements:
        return [Registration(module=module, kind=rule["kind"], method=method, name=None, node=call, fn=None,
                             gaps=(_gap(module, listed, f"{method}(): the list `{excerpt(listed)}` is not read; the "
                                                        "tools it registers are not analysed"),))]
    out: list = []
    for element, emod, _ in elements:
        value, vmod = values.definition(element[-1], emod)
        value = strip_casts(value)
        first = strip_casts(values.definition(call_args(value)[0], vmod)[0]) \
            if value is not None and value.type == "call_expression" and call_args(value) else None
        args = (value,) if value is not None and value.type == "object" else \
            tuple(call_args(value)) if first is not None and first.type == "object" else None
        if args is None:
            out.append(Registration(module=module, kind=rule["kind"], method=method, name=None, node=call, fn=None,
                                    gaps=(_gap(module, call, f"{method}(): the element `{excerpt(element[-1])}` is not "
                                                             "a tool object that can be read"),)))
            continue
        out.append(Site(module=module, call=call, rule={**rule, "signature": "object"}, method=method, args=args,
                        bind=lambda n, m, at=vmod: (n, at), at=(module, call)))
    return out


def _in_server_subclass(call: ts.Node, module: Module, vocab: dict, link) -> bool:
    """Whether CALL (`this.tool(...)`) is written in a method of a class that extends a server class, directly
    (`class S extends McpServer`) or through classes of the package's own (extract/subclasses.py)."""
    base = class_base(enclosing(call, {"class_declaration", "abstract_class_declaration", "class"}))
    if base is None:
        return False
    if class_name(module, base, vocab["sdk_packages"]) in vocab["high_level"]["server_classes"]:
        return True
    from auditor.extract import subclasses  # (subclasses imports values, which imports this module)

    sub = subclasses.sdk_class(module, base, vocab, link) if link is not None and base.type == "identifier" else None
    return sub is not None and sub[0] in vocab["high_level"]["server_classes"]


def _own_method(call: ts.Node, method: str) -> bool:
    """Whether the class CALL is written in defines a method named METHOD itself."""
    cls = enclosing(call, {"class_declaration", "abstract_class_declaration", "class"})
    body = cls.child_by_field_name("body") if cls is not None else None
    return body is not None and any(c.type == "method_definition" and text(c.child_by_field_name("name")) == method
                                    for c in body.named_children)


def registration_args(call: ts.Node, vocab: dict, module: Module | None = None) -> tuple[ts.Node, ...]:
    """The arguments a registration call hands the SDK's method (without the `this` of a `.call(this, ...)`, nor the
    server a registration function of kb high_level.functions is handed first: by its local name in MODULE)."""
    fn = strip_casts(call.child_by_field_name("function"))
    args = call_args(call)
    if fn is not None and fn.type == "identifier" and module is not None \
            and text(fn) in _registration_functions(module, vocab["high_level"]):
        return tuple(args[1:])
    if fn is not None and fn.type == "member_expression" and _prototype_call(
            member_chain(fn.child_by_field_name("object")), text(fn.child_by_field_name("property")),
            set(vocab["high_level"]["server_classes"])) is not None:
        return tuple(args[1:])
    return tuple(args)


def _prototype_call(receiver: tuple[str, ...] | None, method: str, classes: set[str]) -> str | None:
    """The method of a server class borrowed with `.call`/`.apply` (`McpServer.prototype.registerTool.call(this,
    ...)`, as a subclass writes it), or None."""
    if method not in {"call", "apply"} or not receiver or len(receiver) < 3 or receiver[-2] != "prototype":
        return None
    return receiver[-1] if receiver[-3] in classes else None


def _patched_over(call: ts.Node, method: str, module: Module | None = None, link=None, key: str = "name") -> bool:
    """Whether CALL is in a function assigned over the registration method it calls (`server.registerTool =
    function (name, def, handler) { return original(name, def, handler); }`, a tracker wrapping the SDK's method)
    and hands it a parameter of that function as the name, or a copy of that parameter a function of the boundary
    makes without naming it anew (`add(guard(tool, opts))`, guard returning `{ ...tool, execute }` with no KEY of its
    own): it registers what each later call of the method does."""
    fn = _wrapper_over(call, method)
    args = call_args(call)
    first = strip_casts(args[0]) if args else None
    if fn is None or first is None:
        return False
    if first.type == "identifier":
        return text(first) in plain_parameters(fn)
    if first.type != "call_expression" or link is None or module is None:
        return False
    given = [i for i, a in enumerate(map(strip_casts, call_args(first)))
             if a is not None and a.type == "identifier" and text(a) in plain_parameters(fn)]
    hit = link.resolve(module, first) if len(given) == 1 else None
    if hit is None or hit[1].type not in FUNCTION_TYPES:
        return False
    param = next((n for n, i in plain_parameters(hit[1]).items() if i == given[0]), None)
    made = [strip_casts(r) for r in returned(hit[1])]
    return param is not None and bool(made) and all(
        r is not None and r.type == "object" and key not in object_pairs(r)
        and any(c.type == "spread_element" and c.named_children and text(strip_casts(c.named_children[0])) == param
                for c in r.named_children) for r in made)


def hands_on_all(call: ts.Node, method: str) -> bool:
    """Whether CALL is in a function assigned over the registration method it calls and hands it the whole rest
    parameter of that function (`server.prompt = function (...args) { return original(...args); }`): it registers
    what each later call of the method does, and nothing when there is none."""
    fn = _wrapper_over(call, method)
    args = call_args(call)
    first = strip_casts(args[0]) if len(args) == 1 else None
    rest = strip_casts(first.named_children[0]) if first is not None and first.type == "spread_element" \
        and first.named_children else None
    return fn is not None and rest is not None and rest.type == "identifier" \
        and parameters(fn).get(text(rest), (0, ()))[1] == (REST,)


def patched(call: ts.Node, method: str) -> bool:
    """Whether CALL is written in a function assigned over the registration method it calls (a tracker wrapping the
    SDK's method): the calls of that method are the registrations, read where they are written."""
    return _wrapper_over(call, method) is not None


def _wrapper_over(call: ts.Node, method: str) -> ts.Node | None:
    """The function CALL is written in when it is assigned over a member named METHOD (`x.METHOD = function ...`)."""
    fn = enclosing_function(call)
    up = fn.parent if fn is not None else None
    while up is not None and up.type in {"parenthesized_expression", "as_expression", "satisfies_expression"}:
        up = up.parent  # (`x.registerTool = ((name, config, cb) => {...}) as McpServer["registerTool"]`)
    left = up.child_by_field_name("left") if up is not None and up.type == "assignment_expression" else None
    return fn if left is not None and left.type == "member_expression" \
        and text(left.child_by_field_name("property")) == method else None


@dataclass(frozen=True, kw_only=True, slots=True)
class Site:
    """An SDK registration call as read: directly, or as instantiated at a call site of a function of the server's own
    that forwards its parameters to it (`bind` then maps its parameters to the call site's arguments, and `at` is
    the call site that names the tool: module and call)."""

    module: Module  # of the registration call
    call: ts.Node
    rule: dict
    method: str
    args: tuple[ts.Node, ...]
    bind: Callable[[ts.Node | None, Module], tuple[ts.Node | None, Module]] | None = None
    at: tuple[Module, ts.Node] | None = None
    via: str = ""  # how the call site reaches the registration: "wrapper()" names, for the registration's method
    frame: object = None  # the values.Frame behind `bind`, when there is one
    name: str | None = None  # the name, when it is read elsewhere (one branch of a conditional: extract/names.py)
    description: str | None = None  # the description, when it is read elsewhere (extract/generated.py)
    open_prefix: bool = False  # a template name whose leading part is set at run time is read with it empty


def read(site: Site, vocab: dict, resolve, link=None) -> tuple[ToolDecl | None, Dispatch | None, Registration]:
    """One registration: the tool it declares (when it is one, with a literal name), its dispatch, and the
    registration record with what of it could not be read."""
    hl, rule, method, module = vocab["high_level"], site.rule, site.method, site.module
    args = list(site.args)
    bind = site.bind or (lambda n, m: (n, m))
    here, call = site.at or (module, site.call)

    def B(node):  # a node of the registration, as its value: (node, module)
        return bind(node, module) if node is not None else (None, here)

    gaps: list[Gap] = []
    if rule["signature"] == "object":  # addTool({ name, description, parameters, execute })
        spec, spec_module = _object_of(*B(args[0]), link)
        made = _made_config(spec, spec_module, link, site.frame) \
            if spec is not None and spec.type == "call_expression" else None
        obind = bind  # (its members read with the function's parameters bound to the call's arguments)
        if made is not None:  # `addTool(makeTool({ name: "x", ... }))`: the one object the function builds
            spec, spec_module, obind = made
        pairs = spread_pairs(spec, spec_module, link)
        name_node, name_module = obind(pair_value(pairs[hl["object"]["name"]][0]), pairs[hl["object"]["name"]][1]) \
            if hl["object"]["name"] in pairs else B(args[0])
        cb_key = next((k for k in hl["object"]["callbacks"] if k in pairs), None)
        written = next((m for k in hl["object"]["callbacks"] if (m := object_method(spec, k)) is not None), None) \
            if cb_key is None and spec is not None else None  # `{ name, async execute(args) {...} }`
        cb_node, cb_module = obind(pair_value(pairs[cb_key][0]), pairs[cb_key][1]) if cb_key is not None else \
            (written, spec_module) if written is not None else \
            B(args[-1]) if len(args) > 1 else (None, here)  # (tmcp: the callback after the object)
    else:
        name_node, name_module = B(args[0])
        cb_node, cb_module = B(args[-1]) if len(args) > 1 else (None, here)
    name = site.name if site.name is not None else _value(name_node, name_module)
    if not isinstance(name, str) and link is not None:  # a constant of another module (`NAMES.search`, imported)
        from auditor.extract.values import Values

        name = Values(link).string(name_node, name_module, frame=site.frame)
        if not isinstance(name, str) and site.frame is not None and rule["signature"] != "object" and args:
            # `definition.name` of an element a factory made (`make("add", "email")`): read under the factory's call
            name = Values(link).string(args[0], module, frame=site.frame)
        if not isinstance(name, str) and site.open_prefix:  # `${prefix}${t.name}`, the prefix an option
            name = (prefixes.open_prefix(Values(link), name_node, name_module, site.frame) or (None,))[0]
    name = name if isinstance(name, str) else None
    if name is None:
        shown = name_node if name_node is not None and name_module is here else call
        gaps.append(_gap(here, shown, f"{method}() with a name that is not a literal (`{excerpt(name_node)}`): "
                                      "what it registers is not analysed"))
    if cb_node is not None and "callback_key" in rule and strip_casts(cb_node).type == "object":
        entry = object_pairs(cb_node).get(rule["callback_key"]) or object_method(cb_node, rule["callback_key"])
        cb_node, cb_module = bind(pair_value(entry), cb_module) if entry is not None else (cb_node, cb_module)
    cb_resolve = resolve if cb_module is module and site.bind is None else \
        (link.resolver(cb_module) if link is not None else (lambda _: None))
    target, tname = _callback(cb_node, cb_module, cb_resolve)
    handed: tuple = ()
    if target is None and cb_node is not None:  # `typed ? async (input) => run(input) : async () => run()`: either
        either = [(_callback(b, cb_module, cb_resolve), b) for b in branches(cb_node)]
        found = [(fn, name) for (fn, name), _ in either if fn is not None]
        if len(either) > 1 and len(found) == len(either):
            (target, tname), handed = found[0], tuple((cb_module, fn) for fn, _ in found[1:])
    if target is None and cb_node is not None and link is not None:  # a table entry, a wrapper's function
        from auditor.extract.values import Values

        values = Values(link)
        fn, fmod = values.function_of(cb_node, cb_module, site.frame)
        target, tname = (fn, fmod.qualified(fn)) if fn is not None else (None, None)
        handed = values.handed(cb_node, cb_module, site.frame)
    if cb_node is not None and target is None:
        shown = repr(name) if name is not None else excerpt(name_node, 40)
        gaps.append(_gap(here, cb_node if cb_module is here else call,
                         f"{method}({shown}): callback `{excerpt(cb_node)}` does not resolve; its implementation is not traced"))
    tool = dispatch = None
    if rule["kind"] == "tool" and name is not None:
        tool, more = _tool(module, vocab, rule["signature"], method, name, site.call, args, link, bind, here, call,
                           site.frame, site.description)
        gaps += more
        dispatch = Dispatch(module=here, tool=name, node=call, subject=callee_text(call), target=target,
                            target_name=tname, handler=None, form="registration", handed=handed)
    reg = Registration(module=here, kind=rule["kind"], method=site.via + method, name=name, node=call, fn=target,
                       gaps=tuple(gaps))
    return tool, dispatch, reg


def _tool(module: Module, vocab: dict, signature: str, method: str, name: str, call: ts.Node,
          args: list[ts.Node], link=None, bind=None, here: Module | None = None, site: ts.Node | None = None,
          frame=None, given: str | None = None) -> tuple[ToolDecl, list[Gap]]:
    """The tool a registration declares; read through BIND (parameters of a forwarding function -> the call site's
    arguments) and anchored at HERE/SITE (the call site; the registration call itself when read directly). FRAME:
    the instantiation the registration is read under, if any; GIVEN: its description as read elsewhere (a run of
    the code to it: extract/generated.py)."""
    bind = bind or (lambda n, m: (n, m))
    here, site = here or module, site or call

    def B(node):
        if node is None:
            return None, here
        found = bind(node, module)
        plain = strip_casts(node)
        if found[0] is None and plain is not None and plain.type == "member_expression" \
                and text(plain.child_by_field_name("property")) == "shape":
            found = bind(plain.child_by_field_name("object"), module)  # `X.shape`: X, read as its shape (input_shape)
        return found

    def local(node, where):  # a node for anchors: only one of the module the tool is anchored in
        return node if where is here else None
    hl = vocab["high_level"]
    gaps: list[Gap] = []
    desc = params = ann = output = None  # (node, module) each, once read
    config, cm = None, here
    if signature == "object":
        config, cm = _object_of(*B(args[0]), link)
        made = _made_config(config, cm, link, frame) if config is not None and config.type == "call_expression" \
            else None
        if made is not None:
            config, cm, bind = made
        keys = hl["object"]
        spread = spread_pairs(config, cm, link)
        schema_key = next((k for k in keys["input_schema"] or () if k in spread), None)
        desc, params, ann = (bind(pair_value(spread[k][0]), spread[k][1]) if k in spread else None for k in
                             (keys["description"], schema_key, keys["annotations"]))
    elif signature == "config":
        config, cm = _member(*B(args[1]), link) if len(args) > 2 else (None, here)
        made = _made_config(config, cm, link, frame) if config is not None and config.type == "call_expression" \
            else None
        if made is not None:  # `registerTool(def.name, configOf(def), cb)`: the object the function builds
            config, cm, bind = made
        pairs = _assigned_pairs(config, cm, bind, link) if config is not None and config.type == "call_expression" \
            else None  # `Object.assign({ annotations }, config)`: the objects it merges, the later ones winning
        if pairs is None and config is not None and config.type != "object":
            gaps.append(_gap(here, local(args[1], module) or site,
                             f"tool {name!r}: the config `{excerpt(args[1])}` is not an object literal; "
                             "description, schema and annotations are not read"))
            config = None
        pairs = pairs if pairs is not None else {k: (pair, cm) for k, pair in object_pairs(config).items()}
        desc, params, ann = (bind(pair_value(pairs[k][0]), pairs[k][1]) if k in pairs else None for k in
                             (hl["config"]["description"], hl["config"]["input_schema"], hl["config"]["annotations"]))
        out_key = hl["config"].get("output_schema")
        output = bind(pair_value(pairs[out_key][0]), pairs[out_key][1]) if out_key in pairs else None
    else:  # overloads: (name, description?, paramsShapeOrAnnotations?, annotations?, callback), as the SDK reads them
        rest = [B(a) for a in args[1:]]
        keys = set(hl["annotation_keys"])
        if rest and (given is not None or _is_string(*rest[0]) or _constant_string(*rest[0], link) is not None):
            desc = rest.pop(0)
        elif len(rest) > 2 and _is_params(*rest[1], vocab, keys, link) and not _is_params(*rest[0], vocab, keys, link):
            desc = rest.pop(0)  # (name, X, shape, cb): only a description comes before a shape (`describe({...})`)
        if len(rest) > 1:
            if _is_params(*rest[0], vocab, keys, link):
                params = rest.pop(0)
                if len(rest) > 1 and _is_object(*rest[0]) and not _is_params(*rest[0], vocab, keys, link):
                    ann = rest.pop(0)
            elif _is_object(*rest[0]):
                ann = rest.pop(0)
            else:  # a value not read (the SDK decides at run time whether it is a shape or annotations): a shape
                params = rest.pop(0)  # not read, never an input declaring nothing
    written = _resolved(*desc) if desc is not None else None
    env = zod.constants(desc[1], link) if desc is not None else None  # constants of other modules too
    # a name value_of leaves as it is (shadowed, or imported and not read) is not a constant
    description = literal(written, env) if written is not None and written.type != "identifier" else None
    if desc is not None and not isinstance(description, str) and written is not None and written.type == "member_expression":
        description = _constant_string(*desc, link)  # `kit.description` of a constant object, here or imported
    if desc is not None and not isinstance(description, str) and written is not None and frame is not None \
            and link is not None and written.type == "member_expression":
        from auditor.extract.values import Values  # `config.description` of `const { config } = make()` in a loop

        description = Values(link).string(desc[0], desc[1], frame=frame)
    desc_node = local(written, desc[1]) if desc is not None else None
    if desc is not None and not isinstance(description, str) and given is not None:
        description, desc_node = given, None  # (computed at run time: anchored at the registration)
    if desc is not None and not isinstance(description, str):
        part = unknown_part(written, env)
        unknown = f" (`{excerpt(part)}` is not a constant)" if part is not None and part != written else ""
        gaps.append(_gap(here, local(desc[0], desc[1]) or site,
                         f"tool {name!r}: the description `{excerpt(desc[0])}` is not a literal{unknown}", kind="description"))
        description, desc_node = None, None
    if params is not None:
        reader = input_schemas.bound_reader(params[1], vocab, link, lambda n: bind(n, params[1]))
        read = zod.input_shape(params[0], params[1], vocab, link, reader=reader)  # `z.object(shape)`, shape a parameter
        held = strip_casts(params[0])
        if read.value is NOT_LITERAL and frame is not None and link is not None and held is not None \
                and held.type == "member_expression":  # `config.inputSchema` of `const { config } = make()` in a loop
            from auditor.extract.values import Values

            found = Values(link).framed_member(held.child_by_field_name("object"), params[1],
                                               text(held.child_by_field_name("property")), frame, 0)
            if found[0] is not None and found[0].id != held.id:
                again = zod.input_shape(found[0], found[1], vocab, link)
                read, params = (again, found[:2]) if again.value is not NOT_LITERAL else (read, params)
        schema, schema_node, form, coercions = read.value, local(read.node, params[1]) or site, read.form, read.coercions
        problems = schema_gaps(params[1], name, read)
    else:
        schema, schema_node, form, coercions, problems = dict(EMPTY_INPUT), local(config, cm) or site, "json-schema", (), ()
    hints, hints_node = annotations(*ann) if ann is not None else ({}, None)
    out_schema = out_node = None
    if output is not None:  # the result's structuredContent is checked against it by the SDK
        out_read = zod.input_shape(output[0], output[1], vocab, link)
        out_schema, out_node = out_read.value, local(out_read.node, output[1]) or local(output[0], output[1]) or site
    return ToolDecl(output_schema=out_schema, output_schema_node=out_node,module=here, name=name, node=site, binding=None, description=description, description_node=desc_node,
                    described=desc is not None,
                    schema=schema, schema_node=schema_node, form=method, schema_form=form, annotations=hints,
                    annotations_node=local(hints_node, ann[1]) if ann is not None else None, coercions=coercions,
                    gaps=problems), gaps


def _server_subclasses(module: Module, vocab: dict, link) -> set[str]:
    """The classes of MODULE that extend a server class of kb high_level, directly or through classes of the
    boundary (`class CPMcpServer extends McpServer {}`): `new CPMcpServer()` is a server too."""
    from auditor.extract import subclasses  # (subclasses imports values, which imports this module)

    classes = set(vocab["high_level"]["server_classes"])
    out = set()
    for name, info in module.classes.items():
        base = class_base(info.node)
        if base is None:
            continue
        if class_name(module, base, vocab["sdk_packages"]) in classes:
            out.add(name)
            continue
        sub = subclasses.sdk_class(module, base, vocab, link) if link is not None and base.type == "identifier" else None
        if sub is not None and sub[0] in classes:
            out.add(name)
    return out


def _server_bindings(module: Module, classes: set[str], packages: list[str]) -> set[str]:
    """Receivers bound to a high-level server: `x = new C()`, `this.x = new C()`, names or fields typed C, and the
    names a factory's result gives (`const server = createServer()`, `const { server } = createServer()` of a
    function returning `new C(...)` or an object holding one)."""
    out: set[str] = set()
    factories = {name for name, fn in module.functions.items() if returns_new(fn, module, classes, packages)}
    made_by = {info.node.id: {f"this.{name}" for name, fn in info.methods.items()  # (`this.makeServer()` in the
                              if returns_new(fn, module, classes, packages)}  # class whose method returns one)
               for info in module.classes.values()}
    for n in find(module.tree.root_node, {"new_expression", "type_annotation", "variable_declarator",
                                          "assignment_expression"}):
        if n.type == "assignment_expression":  # `this.server = this.makeServer()`
            value = strip_casts(n.child_by_field_name("right"))
            if value is not None and value.type == "call_expression" and _factory_call(value, factories, made_by):
                out |= _holder_names(n, value)
        elif n.type == "variable_declarator":  # `const server = createServer()`, createServer returning `new C(...)`
            value = strip_casts(n.child_by_field_name("value"))
            if value is not None and value.type == "call_expression" and _factory_call(value, factories, made_by):
                out |= _holder_names(n, value)
            target = n.child_by_field_name("name")
            fn = module.functions.get(callee_text(value)) \
                if value is not None and value.type == "call_expression" and target is not None \
                and target.type == "object_pattern" else None
            out |= _server_members(fn, target, module, classes, packages) if fn is not None else set()
        elif n.type == "new_expression" and class_name(module, n.child_by_field_name("constructor"), packages) in classes:
            holder = n.parent
            while holder is not None and holder.type in {"as_expression", "satisfies_expression", "parenthesized_expression",
                                                          "await_expression", "non_null_expression"}:
                holder = holder.parent
            out |= _holder_names(holder, n)
        elif n.type == "type_annotation" and any(part.strip() in classes for part in text(n).lstrip(":").split("|")):
            out |= _holder_names(n.parent, n)
    return out


def _factory_call(call: ts.Node, factories: set[str], made_by: dict[int, set[str]]) -> bool:
    """Whether CALL is of a function of the module that returns a server (FACTORIES), or `this.m()` of a method of
    the class it is written in that does (MADE_BY: class node id -> `this.m` of such methods)."""
    name = callee_text(call)
    if name in factories:
        return True
    if not name.startswith("this."):
        return False
    cls = enclosing(call, CLASS_TYPES)
    return cls is not None and name in made_by.get(cls.id, ())


def _webpack_servers(module: Module, classes: set[str], link) -> set[str]:
    """Receivers bound to a server class a webpack bundle's module map holds (`new n.McpServer(...)`, `n = r(7011)`)."""
    out: set[str] = set()
    for n in module.nodes("new") if link is not None else ():
        if webpack.server_class(module, n.child_by_field_name("constructor"), classes, link) is not None:
            holder = n.parent
            while holder is not None and holder.type in {"as_expression", "satisfies_expression", "parenthesized_expression",
                                                          "await_expression", "non_null_expression"}:
                holder = holder.parent
            out |= _holder_names(holder, n)
    return out


def _imported_servers(module: Module, classes: set[str], packages: list[str], link) -> set[str]:
    """Receivers of MODULE that another module of the boundary binds to a high-level server: an imported name that
    is a top-level server there (`import { server } from "./clients.js"` of `export const server = new McpServer()`,
    or of a factory's result), a namespace's member (`clients.server`), and a variable set by a call of an imported
    factory (`const server = createServer()`, createServer returning `new McpServer(...)`)."""
    out: set[str] = set()
    for local, b in (link.imports.get(module.path, {}).items() if link is not None else ()):
        there = link.by_path.get(b.module) if b.module is not None else None
        if there is None:
            continue
        if b.name == "*":
            out |= {f"{local}.{name}" for name in _toplevel_servers(there, classes, packages)}
            continue
        where = link.binding(module, local)
        if where is not None and where[0] is not module and where[1] in _toplevel_servers(where[0], classes, packages):
            out.add(local)
        fn = where[0].functions.get(where[1]) if where is not None and where[0] is not module else None
        if fn is not None and returns_new(fn, where[0], classes, packages):
            for call in module.nodes("call"):
                decl = call.parent.parent if call.parent is not None and call.parent.type == "await_expression" else call.parent
                if callee_text(call) == local and decl is not None and decl.type == "variable_declarator":
                    out |= _holder_names(decl, call)
    return out


def _toplevel_servers(module: Module, classes: set[str], packages: list[str]) -> set[str]:
    """The top-level names of MODULE bound to a high-level server (memoised on the module)."""
    found = module.memo.get("toplevel_servers")
    if found is None:
        found = module.memo["toplevel_servers"] = frozenset(
            n for n in _server_bindings(module, classes, packages) if n in module.toplevel)
    return found


def object_first(args: list[ts.Node], module: Module, keys: dict) -> bool:
    """Whether a registration is written as one object with the tool's name, then at most a callback
    (`server.tool({ name: "x", description, schema }, async (input) => ...)`): the object convention, whatever the
    method's own (the SDK's `tool("x", ...)` never takes an object first)."""
    if not 1 <= len(args) <= 2:
        return False
    spec = strip_casts(args[0])
    return spec is not None and spec.type == "object" and keys["name"] in object_pairs(spec)


def _sdk_shaped_on_parameter(call: ts.Node, receiver: tuple[str, ...] | None, args: list[ts.Node], module: Module,
                             object_keys: dict | None = None, link=None) -> bool:
    """A call on a parameter of an enclosing function (`function register(server) { server.tool(...) }`, with no type
    to tell, as in compiled JavaScript) that has the SDK's shape: a name that is a string, a function last; or, for
    an `object` registration (`object_keys`), one object with a string name and a callback."""
    if receiver is None or not (len(receiver) == 1 or len(receiver) == 2):
        return False
    if object_keys is not None:
        spec, made = _tool_object(args[0], module, link) if len(args) in {1, 2} else (None, None)
        pairs = object_pairs(spec) if spec is not None and spec.type == "object" else {}
        last = strip_casts(args[-1]) if len(args) == 2 else None
        named = (made[2] if made is not None else lambda n, m: (n, m))(
            pair_value(pairs[object_keys["name"]]), made[1] if made is not None else module) \
            if object_keys["name"] in pairs else None
        if named is None or not _is_string(*named) \
                or not (any(k in pairs or object_method(spec, k) is not None for k in object_keys["callbacks"])
                        or last is not None and (last.type in FUNCTION_TYPES or last.type == "identifier")):
            return False
    elif len(args) == 1 and strip_casts(args[0]).type == "spread_element":
        pass  # `server.tool(...tool)`: a whole argument list (a tuple a factory makes), read at each value it takes
    else:
        if len(args) < 2 or not (_is_string(args[0], module) or _instance_member(args[0]) or _imported_string(args[0], module, link)
                                 or (strip_casts(args[0]).type == "member_expression"
                                     and (_parameter_of_scope(args[0]) or loop_element(args[0])))
                                 or strip_casts(args[0]).type == "identifier" and loop_element(args[0])
                                 or _handed_with_server(call, receiver, args[0])
                                 or strip_casts(args[0]).type in {"call_expression", "template_string"}
                                 and strip_casts(args[-1]).type in FUNCTION_TYPES):
            return False  # (`tool.name` of a parameter, a loop's `name` (`for (const [name, tool] of
            # Object.entries(T))`), or a name handed over with the server: read at each call; a
            # name computed at run time, `caseTransf(tool.name, opts)`, with a callback written there: a registration
            # whose name is a gap when it is not read)
        last = strip_casts(args[-1])
        if last is None or (last.type not in FUNCTION_TYPES and last.type not in {"identifier", "member_expression"}
                            and not _bound_method(last) and not _wrapped_function(last) and not _forwarded(last)):
            return False
    return _on_parameter(call, receiver, module, link)


def _unread_object_on_parameter(call: ts.Node, receiver: tuple[str, ...] | None, args: list[ts.Node], module: Module,
                                link) -> bool:
    """An `object` registration on a parameter (`function register(server) { server.addTool(tool) }`) handed one
    value, not written there, whose object is not read (a dependency's, or made at run time): a registration whose
    tool is a gap, rather than no registration at all."""
    if receiver is None or not (len(receiver) == 1 or len(receiver) == 2) or len(args) != 1:
        return False
    arg = strip_casts(args[0])
    if arg is None or arg.type not in {"identifier", "member_expression", "call_expression", "new_expression",
                                       "subscript_expression"}:
        return False
    spec, _ = _tool_object(arg, module, link)
    return (spec is None or spec.type != "object") and _on_parameter(call, receiver, module, link)


def _tool_object(node: ts.Node, module: Module, link):
    """(the object NODE stands for, or the one a function of the boundary builds for it: `makeTool({ name: "x" })`;
    that function's reading of it, `_made_config`, or None)."""
    spec, smod = _object_of(node, module, link)
    made = _made_config(spec, smod, link, None) if spec is not None and spec.type == "call_expression" else None
    return (made[0] if made is not None else spec), made


def _on_parameter(call: ts.Node, receiver: tuple[str, ...], module: Module, link) -> bool:
    """Whether RECEIVER, the object of a call, is a parameter of a function around CALL, a member of one, or a field
    set from a constructor parameter."""
    if receiver[0] == "this":  # `this.server.tool(...)`: a field its class (or a base) sets from a constructor parameter
        return len(receiver) == 2 and _field_from_parameter(call, receiver[1], module, link)
    if len(receiver) == 1 and built_outside(call, module, link) is not None:
        return True
    fn = enclosing_function(call)
    while fn is not None:
        params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
        bound = _parameter_names(params) if params is not None else set()
        if receiver[0] in bound:  # the parameter, or a member of it (`options.server.tool(...)`)
            return True
        if len(receiver) == 1 and _taken_from(fn, receiver[0], bound):
            return True
        fn = enclosing_function(fn)
    return False


def built_outside(call: ts.Node, module: Module, link) -> str | None:
    """The package outside the boundary whose function returns what the receiver of CALL (a name) holds (`const server
    = createMcpServer({...})` of a workspace package not shipped): a server the code read does not construct, on which
    a call with the SDK's shape registers a tool all the same; None when the receiver is not so made."""
    fn = strip_casts(call.child_by_field_name("function"))
    held = strip_casts(fn.child_by_field_name("object")) if fn is not None and fn.type == "member_expression" else None
    value = strip_casts(value_of(module, held)) if held is not None and held.type == "identifier" else None
    if value is not None and value.type == "await_expression" and value.named_children:
        value = strip_casts(value.named_children[0])
    root = (member_chain(call_function(value)) or ("",))[0] if value is not None and value.type == "call_expression" else ""
    src, _ = imports(module).get(root, ("", "")) if root else ("", "")
    if not src or src.startswith((".", "/", "node:", "#")):
        return None
    bound = link.imports.get(module.path, {}).get(root) if link is not None else None
    return package_of(src) if bound is None or bound.module is None else None


def _taken_from(fn: ts.Node, name: str, params: set[str]) -> bool:
    """Whether FN declares NAME as a member of one of its parameters (`const { server } = options`,
    `const server = options.server`): the server handed over inside an object of options."""
    for decl in find(fn.child_by_field_name("body") or fn, {"variable_declarator"}):
        target, value = decl.child_by_field_name("name"), strip_casts(decl.child_by_field_name("value"))
        if target is None or value is None or enclosing_function(decl) != fn:
            continue
        if target.type == "object_pattern" and value.type == "identifier" and text(value) in params \
                and name in bound_names(target):
            return True
        if target.type == "identifier" and text(target) == name and value.type == "member_expression" \
                and (member_chain(value) or ("",))[0] in params:
            return True
    return False


def _handed_with_server(call: ts.Node, receiver: tuple[str, ...], name: ts.Node) -> bool:
    """Whether NAME is a parameter, or a name destructured from one, of the function whose parameter the receiver is
    (`exec(server, { name }) { server.tool(name, ...) }`): the name is handed over with the server, and read at each
    call; a name of an outer function is not (`(t) => t.tool(sdk, ...)` in a function of `sdk`: a tool object's own
    method)."""
    name = strip_casts(name)
    if name is None or name.type != "identifier" or len(receiver) != 1:
        return False
    fn, between = enclosing_function(call), set()  # (the parameters of a local wrapper inside that function too:
    while fn is not None:                          # `const reg = (name, ...) => server.tool(name, ...)`)
        names = parameters(fn)
        if receiver[0] in names:
            return text(name) in names or text(name) in between
        between |= set(names)
        fn = enclosing_function(fn)
    return False


def _field_from_parameter(call: ts.Node, field: str, module: Module, link, depth: int = 0) -> bool:
    """Whether `this.FIELD` in the class holding CALL (or in a class it extends, of the boundary) is set from a parameter
    of its constructor: `constructor(server) { this.server = server }`, or `constructor(private server: S)`."""
    cls = enclosing(call, {"class_declaration", "abstract_class_declaration", "class"})
    while cls is not None and depth < 5:
        body = cls.child_by_field_name("body")
        ctor = next((c for c in body.named_children if c.type == "method_definition"
                     and text(c.child_by_field_name("name")) == "constructor"), None) if body is not None else None
        params = ctor.child_by_field_name("parameters") if ctor is not None else None
        if params is not None:
            names = _parameter_names(params)
            if any(p.type == "required_parameter" and any(c.type == "accessibility_modifier" for c in p.children)
                   and text(p.child_by_field_name("pattern")) == field for p in params.named_children):
                return True
            for a in find(ctor, {"assignment_expression"}):
                if member_chain(strip_casts(a.child_by_field_name("left"))) == ("this", field) \
                        and text(strip_casts(a.child_by_field_name("right"))) in names:
                    return True
        base = class_base(cls)
        name = text(base) if base is not None and base.type == "identifier" else None
        found = None if name is None else link._class(module, name) if link is not None else \
            (module, module.classes[name]) if name in module.classes else None
        if found is None:
            return False
        module, cls, depth = found[0], found[1].node, depth + 1
    return False


def _method_alias(module: Module, ident: ts.Node) -> ts.Node | None:
    """The member expression `x.m` a local is bound to, by `const f = x.m.bind(x)` or `const f = x.m` (a method taken
    off its object to be called by another name), when m is the method of a registration."""
    value = strip_casts(value_of(module, ident))
    if value is not None and value.type == "call_expression":
        callee = strip_casts(value.child_by_field_name("function"))
        chain = member_chain(callee) if callee is not None else None
        args = call_args(value)
        if not chain or chain[-1] != "bind" or len(args) != 1 or text(strip_casts(args[0])) != ".".join(chain[:-2]):
            return None
        value = strip_casts(callee.child_by_field_name("object"))
    return value if value is not None and value.type == "member_expression" else None


def _wrapped_function(node: ts.Node) -> bool:
    """`withErrorHandling(async (args) => ...)`, `(0, mw_1.wrap)(handler)`, `withErrorHandler("x", async (args) =>
    ...)`: a call of a higher-order wrapper handed a function (named first, or written anywhere among its
    arguments), as a callback is often written."""
    if node.type != "call_expression":
        return False
    args = [strip_casts(a) for a in call_args(node)]
    return any(a is not None and a.type in FUNCTION_TYPES for a in args) or \
        bool(args) and args[0] is not None and args[0].type == "identifier"


def _forwarded(node: ts.Node) -> bool:
    """`...args` of a rest parameter of a function around it: the arguments a wrapper is handed, passed on whole
    (`(name, ...args) => server.tool(name, ...args)`), read at each call of the wrapper."""
    if node.type != "spread_element" or not node.named_children or node.named_children[0].type != "identifier":
        return False
    name = text(node.named_children[0])
    fn = enclosing_function(node)
    while fn is not None:
        params = fn.child_by_field_name("parameters")
        if params is not None and any(p.type == "rest_pattern" and text(p).lstrip(".").strip() == name
                                      for p in (parameter_pattern(c) for c in params.named_children) if p is not None):
            return True
        fn = enclosing_function(fn)
    return False


def _imported_string(node: ts.Node, module: Module, link) -> bool:
    """A constant string of another module of the boundary (`tools_1.scrapeToolName` of compiled CommonJS, `NAMES.x`
    imported)."""
    if link is None or not member_chain(strip_casts(node)):
        return False
    from auditor.extract.values import Values

    return isinstance(Values(link).string(node, module), str)


def _instance_member(node: ts.Node) -> bool:
    """`this.name` in a method: a member of each instance, read per instance where it is constructed."""
    chain = member_chain(strip_casts(node))
    return bool(chain) and len(chain) == 2 and chain[0] == "this" and enclosing(node, {"method_definition"}) is not None


def _bound_method(node: ts.Node) -> bool:
    """`this.execute.bind(this)`: a method bound to its instance, a function."""
    if node.type != "call_expression":
        return False
    chain = member_chain(node.child_by_field_name("function"))
    return bool(chain) and len(chain) >= 2 and chain[-1] == "bind"


def _parameter_names(params: ts.Node) -> set[str]:
    """The names a parameter list binds, destructured ones too (`function register({ server: s })`)."""
    return bound_names(params)


def returns_new(fn: ts.Node, module: Module, classes: set[str], packages: list[str]) -> bool:
    """Whether a function of the module returns `new C(...)` of a server class (a factory of servers)."""
    body = fn.child_by_field_name("body")
    values = [body] if body is not None and body.type != "statement_block" else \
        [r.named_children[0] for r in find(fn, {"return_statement"}) if r.named_children and enclosing_function(r) == fn]
    made = [strip_casts(v) for v in values]
    return any(v is not None and v.type == "new_expression"
               and class_name(module, v.child_by_field_name("constructor"), packages) in classes for v in made)


def _server_members(fn: ts.Node, pattern: ts.Node, module: Module, classes: set[str], packages: list[str]) -> set[str]:
    """The names PATTERN (`{ server, pkg }`) destructures from what FN returns that hold a server: a member of a
    returned object literal that is `new C(...)` or a local of FN made so (`return { server: server2, pkg }`)."""
    out = set()
    for value in returned(fn):
        value = strip_casts(value)
        pairs = object_pairs(value) if value is not None and value.type == "object" else {}
        for child in pattern.named_children:
            key = text(child) if child.type == "shorthand_property_identifier_pattern" else \
                text(child.child_by_field_name("key")) if child.type == "pair_pattern" else None
            local = text(child) if child.type == "shorthand_property_identifier_pattern" else \
                text(child.child_by_field_name("value")) if child.type == "pair_pattern" else None
            held = strip_casts(pair_value(pairs[key])) if key in pairs else None
            held = strip_casts(value_of(module, held)) if held is not None and held.type == "identifier" else held
            if held is not None and held.type == "new_expression" \
                    and class_name(module, held.child_by_field_name("constructor"), packages) in classes:
                out.add(local)
    return out


def _holder_names(holder: ts.Node | None, value: ts.Node) -> set[str]:
    if holder is None:
        return set()
    if holder.type == "variable_declarator":
        return {text(holder.child_by_field_name("name"))}
    if holder.type == "assignment_expression":
        chain = member_chain(holder.child_by_field_name("left"))
        return {".".join(chain)} if chain else set()
    if holder.type in {"public_field_definition", "field_definition"}:
        key = holder.child_by_field_name("name") or holder.child_by_field_name("property")
        return {f"this.{text(key).lstrip('#')}"} if key is not None else set()
    if holder.type in {"required_parameter", "optional_parameter"}:
        pattern = holder.child_by_field_name("pattern")
        return {text(pattern)} if pattern is not None and pattern.type == "identifier" else set()
    return set()


def _callback(node: ts.Node | None, module: Module, resolve) -> tuple[ts.Node | None, str | None]:
    node = strip_casts(node)
    if node is None:
        return None, None
    if node.type in FUNCTION_TYPES:
        return node, module.qualified(node)
    if node.type in {"identifier", "member_expression", "shorthand_property_identifier"}:  # (`{ name, handler }`)
        hit = resolve(node)
        if hit is not None:
            return hit
        if node.type != "member_expression":
            if text(node) in module.functions:
                return module.functions[text(node)], text(node)
            value = strip_casts(value_of(module, node))
            if value is not None and value.type in FUNCTION_TYPES:
                return value, module.qualified(value)
    return None, None


def branches(node: ts.Node, depth: int = 0) -> list[ts.Node]:
    """The values a conditional expression may take (each branch's, nested ones flattened), else [NODE]."""
    value = strip_casts(node)
    if value is None or value.type != "ternary_expression" or depth > 4:
        return [node]
    return [b for side in ("consequence", "alternative") for b in branches(value.child_by_field_name(side), depth + 1)]


def _resolved(node: ts.Node | None, module: Module) -> ts.Node | None:
    """The node itself, or the initializer of the variable it names."""
    node = strip_casts(node)
    if node is not None and node.type in {"identifier", "shorthand_property_identifier"}:  # (`{ name, config }`)
        value = value_of(module, node)
        return strip_casts(value) if value is not None else node
    return node


def _object_of(node: ts.Node | None, module: Module, link=None) -> tuple[ts.Node | None, Module]:
    """(node, module) of what NODE stands for: the initializer of the variable it names, in this module or, through
    imports (with LINK), the module that declares it (`server.addTool(createOrganizationTool)` of a tool object
    exported by a module of its own); the node itself when it names nothing known."""
    value, owner = _resolved(node, module), module
    for _ in range(4):
        if value is None or value.type != "identifier" or link is None:
            break
        where = link.binding(owner, text(value))
        if where is None or where[0] is owner and where[1] == text(value):
            break
        found = link.value(where[0], where[1])
        if found is None:
            break
        value, owner = _resolved(found, where[0]), where[0]
    return value, owner


def _assigned_pairs(call: ts.Node, module: Module, bind: Callable, link) -> dict[str, tuple[ts.Node, Module]] | None:
    """Key -> (pair, its module) of the object `Object.assign(target, ...sources)` makes of object literals (each
    argument read through BIND: a forwarding function's parameter is the call site's object), a later one's entries
    winning; None for any other call, or when an argument is no object literal."""
    if text(call.child_by_field_name("function")) != "Object.assign":
        return None
    out: dict[str, tuple[ts.Node, Module]] = {}
    for arg in call_args(call):
        obj, om = _member(*bind(arg, module), link)
        obj = strip_casts(obj)
        if obj is None or obj.type != "object":
            return None
        out.update({k: (pair, om) for k, pair in object_pairs(obj).items()})
    return out or None


def _member(node: ts.Node | None, module: Module, link=None, depth: int = 0) -> tuple[ts.Node | None, Module]:
    """(node, module) of what NODE stands for as a constant: the initializer of the variable it names, or the entry a
    member path of a constant object literal names (`Schemas.basic`, the record in this module or imported). A
    record whose member path the module assigns to (`Schemas.basic = ...`) is not constant: NODE as it is."""
    plain = strip_casts(node)
    if plain is None or plain.type != "member_expression" or depth > 8:
        return _resolved(node, module), module
    chain = member_chain(plain)
    if not chain or len(chain) < 2 or chain[0] == "this":
        return plain, module
    where = link.binding(module, chain[0]) if link is not None else (module, chain[0])
    value = where[0].toplevel.get(where[1]) if where is not None else None
    owner = where[0] if where is not None else module
    value = strip_casts(value)
    for _ in range(4):  # `var list_default = toolDefinition;`: the record the alias names (a bundler's default export)
        if value is None or value.type != "identifier" or (found := _resolved(value, owner)) is value:
            break
        value = found
    for key in chain[1:]:
        pair = object_pairs(value).get(key) if value is not None and value.type == "object" else None
        value = strip_casts(pair_value(pair)) if pair is not None and pair.type == "pair" else None
    if value is None or _reassigned(owner, where[1] if where is not None else chain[0], chain[1:]):
        return plain, module
    if value.type == "identifier":
        found = _resolved(value, owner)
        return (found if found is not None else value), owner
    return value, owner


def _made_config(call: ts.Node, module: Module, link, frame) -> tuple[ts.Node, Module, Callable] | None:
    """(object, its module, a binder) of the one object literal a function of the boundary builds and returns for a
    registration's config (`getConfig(definition)`, returning a cached copy or `config = { description, ... }`),
    its parameters bound to the call's arguments under FRAME; None when it returns no single object literal."""
    from auditor.extract.frames import Frame
    from auditor.extract.values import Values

    hit = link.resolve(module, call) if link is not None else None
    if hit is None or hit[1].type not in FUNCTION_TYPES:
        return None
    fmod, fn = hit[0], hit[1]
    values = Values(link)
    made = {}
    for r in returned(fn):
        value, vmod = values.definition(r, fmod)
        value = strip_casts(value)
        if value is not None and value.type == "object":
            made[value.id] = (value, vmod)
    if len(made) != 1:
        return None
    obj, omod = next(iter(made.values()))
    inner = Frame(scope=fn, module=fmod, names=parameters(fn), args=tuple(call_args(call)), caller=module, site=call,
                  outer=frame)
    return obj, omod, lambda n, m: values.bound(n, m, inner)


def _reassigned(module: Module, name: str, path: tuple[str, ...]) -> bool:
    """Whether MODULE assigns to NAME, to a member on the way to NAME.PATH or to one within it (`X = ...`,
    `X.a = ...`, `X.a.b.description = ...`)."""
    for n in module.nodes("assign"):
        chain = member_chain(strip_casts(n.child_by_field_name("left"))) if n.type == "assignment_expression" else None
        common = min(len(chain) - 1, len(path)) if chain else 0
        if chain and chain[0] == name and tuple(chain[1:1 + common]) == tuple(path[:common]):
            return True
    return False


def _value(node: ts.Node | None, module: Module):
    target = _resolved(node, module)
    if target is None or target.type == "identifier":  # a name value_of does not know here (shadowed, or imported)
        return NOT_LITERAL
    return literal(target, module.toplevel)


def _constant_string(node: ts.Node | None, module: Module, link) -> str | None:
    """The string NODE is as a constant of the boundary (a member of a constant object, here or imported), if any."""
    if link is None or node is None or strip_casts(node).type != "member_expression":
        return None
    from auditor.extract.values import Values

    found = Values(link).string(node, module)
    return found if isinstance(found, str) else None


def _is_string(node: ts.Node, module: Module) -> bool:
    """A string at run time: a constant one, a template, or a `+` with a string operand (`"a " + X` is a string
    whatever X is)."""
    return isinstance(_value(node, module), str) or _stringy(_resolved(node, module))


def _stringy(node: ts.Node | None, depth: int = 0) -> bool:
    node = strip_casts(node)
    if node is None or depth > 20:
        return False
    if node.type in {"string", "template_string"}:
        return True
    operands = plus_chain(node)
    return len(operands) > 1 and any(_stringy(o, depth + 1) for o in operands)


def _is_params(node: ts.Node, module: Module, vocab: dict, annotation_keys: set[str], link=None) -> bool:
    """A parameter shape, as the SDK decides at run time (empty, or a zod value; here or imported, LINK given);
    statically, also an object literal with a key that is not an annotation key (its values may be zod from
    elsewhere)."""
    if zod.is_params(node, module, vocab, link):
        return True
    target = _resolved(node, module)
    return target is not None and target.type == "object" and not set(object_pairs(target)) <= annotation_keys


def _is_object(node: ts.Node | None, module: Module) -> bool:
    target = _resolved(node, module)
    return target is not None and target.type == "object"


def _gap(module: Module, node: ts.Node, detail: str, kind: str = "registration") -> Gap:
    return Gap(kind=kind, detail=detail,
               anchor=Anchor(path=module.path, start_line=node.start_point[0] + 1, end_line=node.end_point[0] + 1))


def spread_pairs(obj: ts.Node | None, module: Module, link=None, depth: int = 0) -> dict[str, tuple[ts.Node, Module]]:
    """Key -> (pair, its module) of an object literal, the objects it spreads included (`{...scrapeTool, name}`:
    the spread's entries, then its own, which win), through constants and imports."""
    out: dict[str, tuple[ts.Node, Module]] = {}
    obj = strip_casts(obj)
    if obj is None or obj.type != "object" or depth > 6:
        return out
    for child in obj.named_children:
        if child.type == "spread_element" and child.named_children:
            if link is None:
                inner, imod = strip_casts(child.named_children[0]), module
            else:
                from auditor.extract.values import Values

                inner, imod = Values(link).definition(child.named_children[0], module)
            out.update(spread_pairs(inner, imod, link, depth + 1))
    out.update({k: (pair, module) for k, pair in object_pairs(obj).items()})
    return out


def required_members(call: ts.Node) -> frozenset[str]:
    """The members a registration CALL whose name is a member of a name (`server.registerTool(tool.name, ...)`)
    requires of that object in the function around it: one destructured (`const { a } = tool.config`) or read a
    member of (`tool.config.a`, not `tool.config?.a`), which throws when the member is missing. Empty when the name is
    no such member."""
    args = call_args(call)
    first = strip_casts(args[0]) if args else None
    holder = strip_casts(first.child_by_field_name("object")) if first is not None \
        and first.type == "member_expression" else None
    fn = enclosing_function(call)
    if holder is None or holder.type != "identifier" or fn is None:
        return frozenset()
    def required(m: ts.Node) -> bool:  # (destructured, or a member of it read without `?.`)
        up = m.parent
        if up is not None and up.type == "variable_declarator" and up.child_by_field_name("value") == m:
            return up.child_by_field_name("name").type == "object_pattern"
        return up is not None and up.type == "member_expression" and up.child_by_field_name("object") == m \
            and not text(up)[len(text(m)):].startswith("?.")
    return frozenset(text(m.child_by_field_name("property")) for m in find(fn, {"member_expression"})
                     if text(strip_casts(m.child_by_field_name("object"))) == text(holder) and required(m))
