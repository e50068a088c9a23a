"""The server's surface: server instances, request handlers, tool descriptors, dispatch, launch."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import tree_sitter as ts

from auditor.extract import inlined, input_schemas, subclasses, webpack, zod
from auditor.extract.bindings import class_fields, class_name, imports, literal_env, package_name, value_of
from auditor.extract.program import Module
from auditor.extract.frames import destructured, element_names, loop_names, parameters
from auditor.extract.values import Values
from auditor.extract.syntax import (CLASS_TYPES, FUNCTION_TYPES, NOT_LITERAL, ancestors, call_args, callee_text,
                                    class_base, enclosing, enclosing_function, find, literal, literal_fields,
                                    member_chain, object_pairs, pair_value, property_name, statement_of, string_value,
                                    strip_casts, text, walk)
from auditor.model import Anchor, Gap


@dataclass(frozen=True, kw_only=True, slots=True)
class ServerDecl:
    module: Module
    var: str
    cls: str
    node: ts.Node  # the declaring statement
    info: dict  # literal first argument (name, version) or {}
    capabilities: tuple[str, ...] | None  # None: not a literal
    caps_node: ts.Node | None
    # Whether the constructor's options argument is read whole (absent, or an object literal with no spread, or one
    # whose `capabilities` is read): the capabilities it lacks are not declared. None: not asked (not an SDK class).
    options_whole: bool | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Handler:
    module: Module
    method: str  # MCP method, e.g. tools/call; the schema identifier when unknown
    server_var: str
    node: ts.Node  # the registering statement
    fn: ts.Node | None  # the handler function
    fn_module: Module | None = None  # the module FN is written in, when not MODULE (a handler imported by name)
    # What runs for METHOD inside FN, when FN answers several methods by a branch on the request's method (a server
    # written with no SDK: extract/protocol.py); None: all of FN.
    branch: ts.Node | None = None

    @property
    def home(self) -> Module:
        """The module the handler function is written in."""
        return self.fn_module or self.module


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolDecl:
    module: Module
    name: str
    node: ts.Node  # the descriptor object literal, or the registration call
    binding: str | None  # the variable holding it, when there is one
    description: str | None  # None when there is none, or when it is not a literal (`described` tells which)
    description_node: ts.Node | None
    schema: object  # the advertised input JSON Schema as a literal value, or NOT_LITERAL
    schema_node: ts.Node | None
    form: str = "descriptor"  # descriptor (low-level literal) | registerTool | tool (high-level McpServer)
    schema_form: str = "json-schema"  # json-schema | zod | zod-to-json-schema | unknown
    annotations: dict = field(default_factory=dict)  # readOnlyHint, destructiveHint, ... as literal values
    annotations_node: ts.Node | None = None
    coercions: tuple[tuple[str, str, int, str], ...] = ()  # (property, what the runtime does, line, file) not shown in the schema
    gaps: tuple[Gap, ...] = ()  # what of the descriptor could not be read (coverage)
    described: bool = True  # a description is given (a tool may have none: that is no gap)
    output_schema: object = None  # the declared output schema (registerTool outputSchema) as JSON Schema, when read
    output_schema_node: ts.Node | None = None
    template: ts.Node | None = None  # the descriptor literal of a function this instantiates at the call site `node`


@dataclass(frozen=True, kw_only=True, slots=True)
class Dispatch:
    module: Module
    tool: str
    node: ts.Node  # the if statement, switch case, or registration call
    subject: str  # the expression compared with the tool name, or the registration method
    target: ts.Node | None  # the function that implements the tool, when it resolves
    target_name: str | None
    handler: Handler | None = None  # the low-level tools/call handler; None for a high-level registration
    form: str = "name-equality"  # name-equality | switch-case | guard (`if (name !== x) throw`) | table | registration
    # | registry (a tool looked up by name in a registry filled at run time: extract/registry.py)
    handed: tuple = ()  # (module, function) handed to a factory or wrapper that makes the callback: tool code too


@dataclass(frozen=True, kw_only=True, slots=True)
class Fallback:
    handler: Handler
    node: ts.Node
    form: str  # error-result | throw
    module: Module | None = None  # where `node` is, when not in the handler's module (a delegated dispatch)


@dataclass(frozen=True, kw_only=True, slots=True)
class Launch:
    module: Module
    fn: ts.Node | None  # the function holding connect(), None at top level
    fn_name: str
    transport: str
    connect: ts.Node
    logs: tuple[tuple[ts.Node, str], ...]  # stderr/stdout calls in the same function, with their text
    invocation: ts.Node | None  # the top-level statement that calls fn
    fatal: ts.Node | None  # the .catch(...) or try/catch that ends the process
    exit_code: int | None


def servers(module: Module, vocab: dict, link=None) -> list[ServerDecl]:
    """The server objects MODULE constructs: `new` of an SDK server class, or of a class of the package's own that
    extends one (LINK given: across modules), read with the arguments the SDK's constructor gets; or of any class
    when the variable it is held in is handed MCP request handlers (`x.setRequestHandler(S, ...)`, S an MCP request's
    schema): the SDK's server class as a minifying bundler renames it (`const x = new HQ({name, version}, ...)`)."""
    out = []
    served = None
    for new in module.nodes("new"):
        cls = class_name(module, new.child_by_field_name("constructor"), vocab["sdk_packages"])
        args, amod = call_args(new), module
        decl = enclosing(new, {"variable_declarator"})
        var = text(decl.child_by_field_name("name")) if decl is not None else "<expression>"
        held = _assigned_to(new)
        var = held if held is not None else var  # `this.server = new McpServer(...)`: the field holds it
        if cls not in vocab["server_classes"] or _own_class(module, new.child_by_field_name("constructor"), vocab):
            sub = subclasses.sdk_class(module, new.child_by_field_name("constructor"), vocab, link) \
                if link is not None and new.child_by_field_name("constructor") is not None else None
            packed = webpack.server_class(module, new.child_by_field_name("constructor"), vocab["server_classes"], link)
            if sub is not None:
                cls, args, amod = sub
            elif packed is not None:  # `new n.McpServer(...)` of a webpack bundle's copy of the SDK (`n = r(7011)`)
                cls = packed
            else:
                if served is None:
                    known = set(vocab["request_schemas"].values())
                    served = {(h.server_var, _scope(h.node)) for h in handlers(module, vocab) if h.method in known}
                if decl is None or strip_casts(decl.child_by_field_name("value")) != new or (var, _scope(decl)) not in served:
                    continue
        out.append(_declared(module, var, cls, statement_of(new), args, amod, link))
    return out


def _own_class(module: Module, ctor: ts.Node | None, vocab: dict) -> bool:
    """Whether CTOR names a class MODULE declares itself that is no SDK server: not a copy a bundler inlined
    (extract/inlined.py), extending nothing, with none of the SDK's registration methods (kb/sdk.yaml
    handler_registration, high_level registrations): a program's own `class McpServer { handleRequest(...) }` that
    answers the protocol itself. The SDK's own class a bundle holds under its name registers, or extends Protocol."""
    info = module.classes.get(text(ctor)) if ctor is not None and ctor.type == "identifier" else None
    if info is None or inlined.sdk_class(module, text(ctor)) is not None or class_base(info.node) is not None:
        return False
    registering = set(vocab["handler_registration"]) | set(vocab["high_level"]["registrations"])
    return not registering & set(info.methods)


def defined(module: Module, name: str, cls: str, args: list[ts.Node], amod: Module, link) -> ServerDecl:
    """The server a class of the boundary that extends an SDK server class makes when it is constructed (no code of
    the boundary constructs it: a library's server class), read from the arguments of its `super(...)` call (ARGS,
    in AMOD) and anchored at that call (at the class when the call is in another module or there is none)."""
    node = statement_of(args[0]) if args and amod is module else module.classes[name].node
    return _declared(module, "this", cls, node, args, amod, link)


def _declared(module: Module, var: str, cls: str, node: ts.Node, args: list[ts.Node], amod: Module, link) -> ServerDecl:
    info = literal_fields(args[0], amod.toplevel) if args else {}
    opts = args[1] if len(args) > 1 else None
    caps_pair = object_pairs(opts).get("capabilities") if opts is not None else None
    caps_node = pair_value(caps_pair) if caps_pair is not None else None
    capabilities = _capability_names(caps_node, literal_env(link, amod) if link is not None else amod.toplevel) \
        if caps_node is not None else ()
    bare = strip_casts(opts)
    whole = bare is None or caps_node is not None or bare.type == "object" \
        and not any(c.type == "spread_element" for c in bare.named_children)
    return ServerDecl(module=module, var=var, cls=cls, node=node, info=info if isinstance(info, dict) else {},
                      capabilities=capabilities, caps_node=caps_node, options_whole=whole)


def _assigned_to(new: ts.Node) -> str | None:
    """`x.y` (or `x`) of the assignment `x.y = new C(...)` whose value NEW is, or None."""
    node = new
    while node.parent is not None and node.parent.type in {"parenthesized_expression", "as_expression",
                                                            "satisfies_expression", "non_null_expression"}:
        node = node.parent
    parent = node.parent
    if parent is None or parent.type != "assignment_expression" or parent.child_by_field_name("right") != node:
        return None
    chain = member_chain(parent.child_by_field_name("left"))
    return ".".join(chain) if chain else None


def handlers(module: Module, vocab: dict, link=None) -> list[Handler]:
    """The request handlers MODULE registers; with LINK, a handler named by an import is the function of the module
    it comes from (`server.setRequestHandler(ListToolsRequestSchema, listTools)`, listTools imported)."""
    out = []
    for call in module.nodes("call"):
        fn = call.child_by_field_name("function")
        chain = member_chain(fn)
        if not chain or chain[-1] not in vocab["handler_registration"]:
            continue
        args = call_args(call)
        if not args:
            continue
        # SDK 1 names the request by its schema (`ListToolsRequestSchema`); SDK 2 also by its method string
        method = string_value(args[0])
        if method is None:
            schema = text(args[0]).split(".")[-1]
            imported = imports(module).get(text(args[0])) if args[0].type == "identifier" else None
            schema = imported[1] if imported is not None and imported[1] in vocab["request_schemas"] else schema  # (as r)
            # (a schema renamed by a minifier is read by its `method`, on a server held in a variable or in a class's
            # field: the SDK's own McpServer, inlined, is set aside as the SDK's code by extract/inlined.py)
            method = vocab["request_schemas"].get(schema) or _schema_method(args[0], module, vocab) or schema
        func, home = _handler_function(args[1], module, link) if len(args) > 1 else (None, module)
        out.append(Handler(module=module, method=method, server_var=".".join(chain[:-1]),
                           node=statement_of(call), fn=func, fn_module=home if home is not module else None))
    return out


def _scope(node: ts.Node) -> int:
    """The id of the function NODE is written in (of the module, at top level): where a variable of it is bound."""
    fn = enclosing_function(node)
    return fn.id if fn is not None else -1


def _schema_method(schema: ts.Node, module: Module, vocab: dict) -> str | None:
    """The MCP method a request schema of the module's own stands for, read from the literal its `method` member is
    (`const S = Base.extend({ method: z.literal("tools/list") })`): the SDK's schemas as a minifying bundler leaves
    them, under names of its own (`setRequestHandler(OY, ...)`)."""
    value = strip_casts(value_of(module, schema)) if strip_casts(schema) is not None and strip_casts(schema).type == "identifier" else None
    known = set(vocab["request_schemas"].values())
    for pair in find(value, {"pair"}) if value is not None else ():
        literal_call = strip_casts(pair_value(pair)) if property_name(pair.child_by_field_name("key")) == "method" else None
        args = call_args(literal_call) if literal_call is not None and literal_call.type == "call_expression" else []
        method = string_value(args[0]) if len(args) == 1 else None
        if method in known:
            return method
    return None


def _handler_function(node: ts.Node, module: Module, link=None) -> tuple[ts.Node | None, Module]:
    """The handler and its module: written inline, named (in the module, or with LINK imported from another), or
    passed through a higher-order wrapper whose one function argument it is (`withTelemetry(async (request) => ...)`,
    `wrap(handleCall)`)."""
    node = strip_casts(node)
    for _ in range(4):  # wrappers of wrappers, a few deep
        if node is None or node.type == "identifier":
            if node is None or text(node) in module.functions or link is None:
                return (module.functions.get(text(node)) if node is not None else None), module
            hit = link.resolve(module, node)
            return (hit[1], hit[0]) if hit is not None else (None, module)
        if node.type == "member_expression":  # `this.handleCall`: the class's method, or the one function it is given
            return _own_member(node), module
        if node.type != "call_expression":
            return node, module
        callee = strip_casts(node.child_by_field_name("function"))
        if callee is not None and callee.type == "member_expression" \
                and text(callee.child_by_field_name("property")) == "bind":  # `this.handleCall.bind(this)`: the function
            node = strip_casts(callee.child_by_field_name("object"))
            continue
        args = [a for a in map(strip_casts, call_args(node)) if a is not None]
        inner = [a for a in args if a.type in FUNCTION_TYPES or a.type == "identifier" and text(a) in module.functions] \
            or [a for a in args if a.type == "call_expression"]  # `log("CallTool", monitor(async (request) => ...))`
        if len(inner) != 1:
            return node, module
        node = inner[0]
    return node, module


def _own_member(node: ts.Node) -> ts.Node:
    """The function `this.NAME` (NODE) stands for in the class it is written in: the method NAME, or the one value
    the class gives the field (`this.handleCall = async (request) => ...` in a method of its own); else NODE."""
    chain = member_chain(node)
    cls = enclosing(node, CLASS_TYPES) if chain and len(chain) == 2 and chain[0] == "this" else None
    body = cls.child_by_field_name("body") if cls is not None else None
    if body is None:
        return node
    method = next((m for m in body.named_children if m.type == "method_definition"
                   and text(m.child_by_field_name("name")) == chain[1]), None)
    if method is not None:
        return method
    given = [strip_casts(v) for v in class_fields(cls).get(chain[1], [])]
    return given[0] if len(given) == 1 and given[0] is not None and given[0].type in FUNCTION_TYPES else node


def tools(module: Module, vocab: dict | None = None, link=None) -> list[ToolDecl]:
    """Low-level tool descriptor literals whose name is read; with `vocab`, zod conversions and annotations are read too."""
    out = []
    for pair in module.nodes("descriptor.schema"):
        name = name_of(module, pair.parent, link)
        if name is not None:
            out.append(descriptor(module, pair, name, vocab, link))
        for each in _name_choices(module, pair.parent, link) if name is None else ():
            out.append(descriptor(module, pair, each, vocab, link))
    return out


def _name_choices(module: Module, obj: ts.Node, link) -> list[str]:
    """The names a descriptor's `name` may be when it is one of several constants (`name: config.searchName` of
    `const config = client === "x" ? X_NAMES : NAMES`): each a tool, listed under its own conditions; none when a
    branch is not read, or the name comes from a parameter (a template: one tool per call)."""
    from auditor.extract import names  # (names reads values, which imports this module)

    pairs = object_pairs(obj)
    if "name" not in pairs or link is None:
        return []
    node = pair_value(pairs["name"])
    chain = member_chain(strip_casts(node))
    fn = enclosing_function(obj)
    if not chain or len(chain) != 2 or fn is not None and chain[0] in parameters(fn):
        return []
    root = value_of(module, strip_casts(node).child_by_field_name("object"))
    if root is None or strip_casts(root).type != "ternary_expression":
        return []  # (only a member of a conditional's constants: a function's several returns name no tool)
    picked = names.choices(Values(link), node, module, None)
    return [c[0] for c in picked] if len(picked) > 1 and all(c[0] is not None for c in picked) else []


def _parameter_template(node: ts.Node | None, fn: ts.Node | None) -> bool:
    """Whether NODE is a template string each of whose substitutions is a parameter of FN, a function called by name
    (not a callback): `name: `${service}_get_health`` in `function addTools(service) {...}`."""
    if node is None or node.type != "template_string" or fn is None \
            or fn.parent is not None and fn.parent.type == "arguments":
        return False
    subs = [c for c in node.named_children if c.type == "template_substitution"]
    names = set(parameters(fn))
    return bool(subs) and all(len(c.named_children) == 1 and c.named_children[0].type == "identifier"
                              and text(c.named_children[0]) in names for c in subs)


def templates(module: Module, link=None) -> list[tuple[ts.Node, ts.Node]]:
    """(inputSchema pair, name node) of the descriptor literals whose name is not read and comes from a parameter of
    the function they are written in (`function describe(schema, name) { return { name, ... } }`): one tool per call
    of that function (extract/summaries.py instantiates them), or of each element of the list a `map`/`forEach`
    callback is handed. Another callback's parameters come from its callee: not one."""
    out = []
    for pair in module.nodes("descriptor.schema"):
        pairs = object_pairs(pair.parent)
        if "name" not in pairs or name_of(module, pair.parent, link) is not None:
            continue
        node = pair_value(pairs["name"])
        called = strip_casts(node)  # `name: tool.getName()`: the method of the parameter that names it
        called = called.child_by_field_name("function") if called is not None and called.type == "call_expression" \
            and not call_args(called) else called
        chain = member_chain(called)
        fn = enclosing_function(pair.parent)
        loop = fn is not None and fn.parent is not None and fn.parent.type == "arguments" and _loop_callback(fn)
        taken = destructured(called) if chain and len(chain) == 1 and called.type in {
            "identifier", "shorthand_property_identifier"} else None  # `const { name } = definition`
        root = text(strip_casts(taken[0])) if taken is not None and strip_casts(taken[0]) is not None \
            and strip_casts(taken[0]).type == "identifier" else chain[0] if chain else None
        if chain and fn is not None and root in (element_names(fn)[0] if loop else parameters(fn)) \
                and (not (fn.parent is not None and fn.parent.type == "arguments") or loop) \
                or chain and _of_loop(pair.parent, root, fn) or _parameter_template(called, fn):
            out.append((pair, node))
    for spread in module.nodes("descriptor.spread"):
        obj = spread.parent
        if obj is None or spread.id != next(c for c in obj.named_children if c.type == "spread_element").id:
            continue  # (one per object: its first spread)
        pairs = object_pairs(obj)
        if "inputSchema" in pairs or "name" not in pairs or name_of(module, obj, link) is not None:
            continue
        source = strip_casts(spread.named_children[0]) if spread.named_children else None
        copied = member_chain(source) if source is not None else None
        node = pair_value(pairs["name"])
        fn = enclosing_function(obj)
        roots = _roots(node, fn)
        callback = fn is not None and fn.parent is not None and fn.parent.type == "arguments" and _loop_callback(fn)
        elements = set(element_names(fn)[0]) if callback else set()
        if copied and copied[0] in roots and (_of_loop(obj, copied[0], fn) or copied[0] in elements) \
                or roots & elements and source is not None and source.type in {"identifier", "subscript_expression"} \
                and _roots(source, fn) & elements:  # (the entry itself, not `...(item.code ? { code } : {})`)
            # `{ ...tool, name: "x_" + tool.name }` per element of a list of descriptors; `{ name: key, ...tool }` of
            # an Object.entries element `[key, tool]`; `{ name: key, ...TOOLS[key] }` per key of Object.keys(TOOLS)
            out.append((spread, node))
    return out


def _roots(node: ts.Node | None, fn: ts.Node | None, depth: int = 0) -> set[str]:
    """The names NODE is computed from, through the locals of FN it reads (`const renamed = "x_" + t.name.slice(2)`:
    `t`)."""
    out: set[str] = set()
    for ident in find(node, {"identifier", "shorthand_property_identifier"}) if node is not None and depth < 4 else ():
        out.add(text(ident))
        local = _local_value(fn, text(ident)) if fn is not None else None
        out |= _roots(local, fn, depth + 1) if local is not None else set()
    return out


def _local_value(fn: ts.Node, name: str) -> ts.Node | None:
    """The initial value of the one `const NAME = value` of FN's body (not of a function inside it), or None."""
    found = [d for d in find(fn, {"variable_declarator"}) if text(d.child_by_field_name("name")) == name
             and enclosing_function(d) == fn]
    return found[0].child_by_field_name("value") if len(found) == 1 else None


def _of_loop(obj: ts.Node, root: str, fn: ts.Node | None) -> bool:
    """Whether a `for (... of LIST)` around the literal OBJ, inside its function FN, binds ROOT (`for (const [name,
    tool] of Object.entries(tools)) list.push({ name, ... })`): one tool per element of LIST."""
    for scope in ancestors(obj):
        if scope is fn:
            return False
        if scope.type == "for_in_statement" and text(scope.child_by_field_name("operator")) == "of" \
                and root in loop_names(scope.child_by_field_name("left")):
            return True
    return False


def _loop_callback(fn: ts.Node) -> bool:
    """Whether FN is the callback of `LIST.map(fn)` / `forEach` / `flatMap`: its parameter is each element of LIST."""
    call = fn.parent.parent if fn.parent is not None else None
    callee = strip_casts(call.child_by_field_name("function")) if call is not None and call.type == "call_expression" else None
    return callee is not None and callee.type == "member_expression" \
        and text(callee.child_by_field_name("property")) in {"map", "forEach", "flatMap"}


def name_of(module: Module, obj: ts.Node, link) -> str | None:
    """The `name` of an object literal (a descriptor), when it is read without a frame."""
    pairs = object_pairs(obj)
    name = module.name_value(pair_value(pairs["name"])) if "name" in pairs else None
    if name is None and "name" in pairs and link is not None:  # a constant, or a z.literal's value
        name = Values(link).string(pair_value(pairs["name"]), module)
    base = _named_base(module, obj, link) if "name" not in pairs else None
    if base is not None:  # `{ ...NAVIGATE, inputSchema }` of `const NAVIGATE = { name: "navigate", ... }`
        name = Values(link).string(pair_value(object_pairs(base[0])["name"]), base[1])
    return name


def _named_base(module: Module, obj: ts.Node, link) -> tuple[ts.Node, Module] | None:
    """For a descriptor with no `name` of its own that copies an object holding one: that object literal and its
    module, when it is a constant's literal that is no descriptor itself (it has no `inputSchema` to be listed as its
    own tool); else None."""
    spreads = [c for c in obj.named_children if c.type == "spread_element" and c.named_children]
    if link is None or len(spreads) != 1:
        return None
    values = Values(link)
    base, bmod = values.definition(spreads[0].named_children[0], module)
    base = strip_casts(base)
    if base is None or base.type != "object" or base.id == obj.id:
        return None
    pairs = object_pairs(base)
    if "name" not in pairs or "inputSchema" in pairs or pairs["name"].type != "pair":
        return None
    return base, bmod


def descriptor(module: Module, pair: ts.Node, name: str, vocab: dict | None, link=None, frame=None,
               at: tuple[Module, ts.Node] | None = None) -> ToolDecl:
    """The tool a descriptor literal declares (PAIR is its inputSchema). With FRAME (an instantiation of the function
    it is written in), its fields are read under FRAME and the tool is anchored at AT, the call site (module, call):
    of a field, only a node of that module is an anchor, else the call site is."""
    obj = pair.parent
    pairs = object_pairs(obj)
    values = Values(link) if link is not None else None
    here, site = at or (module, obj)

    def bind(node: ts.Node | None) -> tuple[ts.Node | None, Module]:
        if frame is None or node is None:
            return node, module
        node, where = values.bound(node, module, frame)
        made = values.returned(node, where, frame)  # `inputSchema: tool.getInputSchema()`: what the method returns
        return made if made[0] is not None else (node, where)

    def local(node: ts.Node | None, where: Module) -> ts.Node | None:
        return node if frame is None or where is here else site

    desc_node, desc_mod = bind(pair_value(pairs["description"])) if "description" in pairs else (None, module)
    decl = obj.parent if obj.parent is not None and obj.parent.type == "variable_declarator" else None
    if decl is None and obj.parent is not None and obj.parent.type in {"as_expression", "satisfies_expression"}:
        decl = obj.parent.parent if obj.parent.parent is not None and obj.parent.parent.type == "variable_declarator" else None
    schema_node, schema_mod = pair_value(pair), module
    copied = pair.type == "spread_element"  # `{ ...tool, name }`: schema and description are the copied object's
    if copied and values is not None:
        schema_node, schema_mod = values.member(pair.named_children[0], module, "inputSchema", frame, 0)
        if "description" not in pairs:
            desc_node, desc_mod = values.member(pair.named_children[0], module, "description", frame, 0)
    elif "name" not in pairs and "description" not in pairs and frame is None and link is not None:
        base = _named_base(module, obj, link)  # `{ ...NAVIGATE, inputSchema }`: the description NAVIGATE holds
        described = object_pairs(base[0]).get("description") if base is not None else None
        if described is not None and described.type == "pair":
            desc_node, desc_mod = pair_value(described), base[1]
    extra: dict = {"schema": literal(schema_node, module.toplevel), "schema_node": schema_node}
    if vocab is not None and copied and schema_node is None:
        extra = {"schema": NOT_LITERAL, "schema_node": None, "schema_form": "unknown", "gaps": (Gap(
            kind="schema", detail=f"tool {name!r}: the input schema of the object it copies is not read",
            anchor=Anchor(path=here.path, start_line=site.start_point[0] + 1, end_line=site.start_point[0] + 1)),)}
    elif vocab is not None:
        read = input_schemas.descriptor_schema(schema_node, schema_mod, vocab, link,
                                               bind if frame is not None and not copied else None)
        read = replace(read, module=read.module or schema_mod) if schema_mod is not module else read
        if frame is not None and (read.module or module) is not here:  # read in another module: anchored here
            where = read.module or module
            read = replace(read, node=None, module=here, problems=tuple(
                (f"{msg} (in {where.path})", site) for msg, _ in read.problems))  # a coercion names its own file
        extra = {"schema": read.value, "schema_node": local(read.node, read.module or module),
                 "schema_form": read.form, "coercions": read.coercions,
                 "gaps": schema_gaps(read.module or module, name, read)}
        ann = pairs.get(vocab["high_level"]["descriptor_annotations"])
        if ann is not None:
            hints, hints_node = annotations(*bind(pair_value(ann)))
            extra["annotations"], extra["annotations_node"] = hints, local(hints_node, bind(pair_value(ann))[1]) \
                if hints_node is not None else None
    description = _text_value(desc_node, desc_mod) if desc_node is not None else None
    if description is None and values is not None and desc_node is not None:
        description = values.string(desc_node, desc_mod, frame=frame)
    return ToolDecl(module=here, name=name, node=site,
                    binding=text(decl.child_by_field_name("name")) if decl is not None and frame is None else None,
                    description=description, description_node=local(desc_node, desc_mod) if desc_node is not None else None,
                    described="description" in pairs or desc_node is not None,
                    template=obj if frame is not None else None, **extra)


def annotations(node: ts.Node | None, module: Module) -> tuple[dict, ts.Node | None]:
    """The literal entries of a ToolAnnotations object (non-literal entries are left out) and its node."""
    node = strip_casts(node)
    if node is not None and node.type == "identifier":
        node = strip_casts(value_of(module, node)) or node
    return literal_fields(node, module.toplevel), node


def schema_gaps(module: Module, tool: str, read) -> tuple[Gap, ...]:
    """Coverage gaps for what of a tool's input schema could not be read."""
    out = []
    for what, node in read.problems:
        out.append(Gap(kind="schema", detail=f"tool {tool!r}: {what}",
                       anchor=Anchor(path=module.path, start_line=node.start_point[0] + 1, end_line=node.end_point[0] + 1)))
    return tuple(out)


def launches(module: Module, servers_: list[ServerDecl], vocab: dict) -> list[Launch]:
    out = []
    server_vars = {s.var for s in servers_}
    serving = vocab.get("serve_functions") or {}
    for call in module.nodes("call"):
        chain = member_chain(call.child_by_field_name("function"))
        served = serving.get(package_name(module, chain, vocab["sdk_packages"])) if chain and len(chain) <= 2 else None
        if served is None and (not chain or chain[-1] not in vocab["connect_methods"]
                               or ".".join(chain[:-1]) not in server_vars):
            continue
        fn = enclosing_function(call)
        fn_name = module.qualified(fn) if fn is not None else "<module>"
        scope = fn if fn is not None else module.tree.root_node
        transport = served or next((cls for n in find(scope, {"new_expression"})
                                    if (cls := class_name(module, n.child_by_field_name("constructor"),
                                                          vocab["sdk_packages"])) in vocab["transport_classes"]), "")
        logs = tuple((n, _message(n)) for n in walk(scope) if n.type == "call_expression"
                     and callee_text(n) in vocab["stderr_calls"] + vocab["stdout_calls"]
                     and enclosing_function(n) == fn)
        invocation, fatal, code = _invocation(module, fn, fn_name, vocab)
        out.append(Launch(module=module, fn=fn, fn_name=fn_name, transport=transport, connect=call, logs=logs,
                          invocation=invocation, fatal=fatal, exit_code=code))
    return out


def _message(call: ts.Node) -> str:
    args = call_args(call)
    if not args:
        return ""
    value = string_value(args[0])
    return value if value is not None else text(args[0])


def _invocation(module: Module, fn: ts.Node | None, fn_name: str, vocab: dict):
    """The top-level statement that starts the launch function and its fatal-exit handler."""
    if fn is None:
        return None, None, None
    for stmt in module.nodes("toplevel.stmt"):
        calls = [n for n in walk(stmt) if n.type == "call_expression" and callee_text(n) == fn_name]
        if not calls:
            continue
        for n in walk(stmt):
            if n.type == "call_expression" and callee_text(n) in vocab["exit_calls"]:
                args = call_args(n)
                code = literal(args[0]) if args else 0
                return stmt, stmt, code if isinstance(code, int) else None
        return stmt, None, None
    return None, None, None


def _capability_names(node: ts.Node, env) -> tuple[str, ...] | None:
    """The capabilities an options literal may declare (`{...config.capabilities}` of an imported config read through
    ENV; `...(on ? { resources: {} } : {})`: the keys of either branch); None when a part is not known."""
    value = literal(node, env)
    if isinstance(value, dict):
        return tuple(sorted(value))
    node = strip_casts(node)
    if node is None or node.type != "object":
        return None
    names: set[str] = set()
    for child in node.named_children:
        if child.type in {"pair", "shorthand_property_identifier"}:
            names.add(property_name(child.child_by_field_name("key")) if child.type == "pair" else text(child))
        elif child.type == "spread_element" and child.named_children:
            inner = strip_casts(child.named_children[0])
            parts = [inner.child_by_field_name("consequence"), inner.child_by_field_name("alternative")] \
                if inner is not None and inner.type == "ternary_expression" else [inner]
            values = [literal(part, env) for part in parts]
            if not all(isinstance(v, dict) for v in values):
                return None
            names |= {k for v in values for k in v}
        elif child.type != "comment":
            return None
    return tuple(sorted(names))


def capabilities_literal(server: ServerDecl) -> dict:
    if server.caps_node is None:
        return {}
    value = literal(server.caps_node, server.module.toplevel)
    return value if value is not NOT_LITERAL and isinstance(value, dict) else {}


def _text_value(node: ts.Node | None, module: Module) -> str | None:
    """A description's text: a string or template literal, or a concatenation of them."""
    value = literal(node, module.toplevel) if node is not None else None
    return value if isinstance(value, str) else None
