"""A server written against the protocol itself, with no SDK: code that reads JSON-RPC messages and answers them by
their `method` (`if (msg.method === "tools/list")`, `switch (request.method) { case "tools/call": ... }`).

Each branch taken for an MCP request method (kb/sdk.yaml request_schemas) is a request handler: its function is the
one the branch is written in, and `branch` what runs for that method. A branch for `tools/list` must hold the
result's `tools` list and one for `tools/call` the requested tool's name (`x.params.name`), else it is not read as a
handler (a client or a proxy compares methods too). The server is the program that answers `initialize` or those
requests: its name, version and capabilities are read from the `serverInfo` and `capabilities` of the
InitializeResult it writes, when it writes one."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract import held
from auditor.extract.bindings import visible
from auditor.extract.frames import plain_parameters
from auditor.extract.listing import LIST_KEY, NAME_KEY
from auditor.extract.program import Module
from auditor.extract.server import Handler, ServerDecl, _capability_names
from auditor.extract.syntax import (call_args, condition_terms, enclosing_function, find, literal_fields, member_chain,
                                    object_pairs, pair_value, strip_casts, string_value, text)

METHOD_KEY = "method"  # coupling: JSON-RPC 2.0 request object
INITIALIZE = "initialize"  # coupling: MCP lifecycle; InitializeResult's serverInfo and capabilities
INFO_KEY, CAPABILITIES_KEY = "serverInfo", "capabilities"
PARAMS_KEY = "params"  # CallToolRequest.params (its `name`: listing.NAME_KEY; ListToolsResult.tools: listing.LIST_KEY)
CLASS = "JSON-RPC (no SDK)"  # what the ledger calls such a server
_HANDED_DEPTH = 3


def _subject(node: ts.Node | None, link=None) -> bool:
    """Whether NODE reads a request's method: `msg.method`, `request.method`, a local `method`, or a parameter every
    call hands one of those (`handle(msg.method, msg.params)`, see `_handed`)."""
    node = strip_casts(node)
    chain = member_chain(node)
    return bool(chain) and chain[-1] == METHOD_KEY or _handed(node, METHOD_KEY, link, 0)


def _handed(node: ts.Node | None, key: str, link, depth: int) -> bool:
    """Whether NODE is a plain parameter of the function it is in, and each call of that function hands it a member
    KEY (`x.method`) or such a parameter of its own; only when the boundary names the function nowhere but at those
    calls and where it is defined (held.only_calls), as a function handed on could be called with anything."""
    if link is None or node is None or node.type != "identifier" or depth > _HANDED_DEPTH:
        return False
    fn = enclosing_function(node)
    index = plain_parameters(fn).get(text(node)) if fn is not None else None
    if index is None or visible(node, text(node)) is not None:
        return False
    calls = held.only_calls(link, fn)
    for _, call in calls or ():
        args = call_args(call)
        arg = strip_casts(args[index]) if index < len(args) else None
        if any(a.type == "spread_element" for a in args[:index + 1]) or not (
                (member_chain(arg) or ())[-1:] == (key,) or _handed(arg, key, link, depth + 1)):
            return False
    return bool(calls)


def _compared(term: ts.Node, methods: frozenset[str], link=None) -> tuple[str, ts.Node] | None:
    """(method, subject) of `subject === "tools/list"` (either side, `==` too)."""
    term = strip_casts(term)
    if term is None or term.type != "binary_expression" or text(term.child_by_field_name("operator")) not in {"===", "=="}:
        return None
    left, right = term.child_by_field_name("left"), term.child_by_field_name("right")
    for a, b in ((left, right), (right, left)):
        if string_value(b) in methods and _subject(a, link):
            return string_value(b), strip_casts(a)
    return None


def branches(module: Module, methods: frozenset[str], link=None) -> list[tuple[str, ts.Node, ts.Node, ts.Node]]:
    """(method, the statement or case, the code that runs for it, the subject) of each branch MODULE takes on a
    request's method, for METHODS."""
    out = []
    for stmt in find(module.tree.root_node, {"if_statement", "switch_statement"}):
        if stmt.type == "if_statement":
            for term in condition_terms(stmt.child_by_field_name("condition")):
                hit = _compared(term, methods, link)
                if hit is not None and stmt.child_by_field_name("consequence") is not None:
                    out.append((hit[0], stmt, stmt.child_by_field_name("consequence"), hit[1]))
            continue
        value = stmt.child_by_field_name("value")
        body = stmt.child_by_field_name("body")
        if not _subject(value, link) or body is None:
            continue
        pending: list[str] = []  # `case "a": case "b": ...`: the cases with no code of their own run the next one's
        for case in body.named_children:
            if case.type != "switch_case":
                pending = []
                continue
            method = string_value(case.child_by_field_name("value"))
            pending += [method] if method in methods else []
            if any(c.type != "comment" for c in case.named_children[1:]):
                out += [(m, case, case, strip_casts(value)) for m in pending]
                pending = []
    return out


def _holds_key(body: ts.Node, key: str, module: Module | None = None, link=None, depth: int = 0) -> bool:
    """Whether an object literal written in BODY has the member KEY (`{ tools }`), or one written in a function of
    the boundary BODY calls (`case "tools/list": this.handleToolsList(id)`), a few calls deep."""
    if any(key in object_pairs(o) for o in find(body, {"object"})):
        return True
    if link is None or module is None or depth >= _HANDED_DEPTH:
        return False
    for call in find(body, {"call_expression"}):
        hit = link.resolve(module, call)
        if hit is not None and hit[1] is not None and _holds_key(hit[1], key, hit[0], link, depth + 1):
            return True
    return False


def _params_locals(fn: ts.Node, link=None) -> tuple[frozenset[str], frozenset[str]]:
    """(locals of FN holding a request's params: `const p = msg.params`, or a parameter every call hands them (see
    `_handed`); names FN destructures from them: `const { name } = msg.params`)."""
    held, names = set(), set()
    for name, index in plain_parameters(fn).items():
        param = next((n for n in find(fn, {"identifier"}) if text(n) == name), None)
        if param is not None and _handed(param, PARAMS_KEY, link, 0):
            held.add(name)
    for decl in find(fn, {"variable_declarator"}):  # (in the order written: a local holding them, then read)
        value = strip_casts(decl.child_by_field_name("value"))
        if value is not None and value.type == "binary_expression" and text(value.child_by_field_name("operator")) \
                in {"||", "??"}:  # `params || {}`: the params, or nothing to read
            value = strip_casts(value.child_by_field_name("left"))
        chain = member_chain(value)
        target = decl.child_by_field_name("name")
        if target is not None and target.type == "object_pattern":  # `const { method, params } = request`
            held |= {text(n) for n in target.named_children if n.type == "shorthand_property_identifier_pattern"
                     and text(n) == PARAMS_KEY}
            held |= {text(n.child_by_field_name("value")) for n in target.named_children if n.type == "pair_pattern"
                     and text(n.child_by_field_name("key")) == PARAMS_KEY
                     and n.child_by_field_name("value").type == "identifier"}
        if not chain or chain[-1] != PARAMS_KEY and not (len(chain) == 1 and chain[0] in held) or target is None:
            continue
        if target.type == "identifier":
            held.add(text(target))
        for pair in find(target, {"shorthand_property_identifier_pattern", "pair_pattern"}):
            if pair.type == "shorthand_property_identifier_pattern" and text(pair) == NAME_KEY:
                names.add(NAME_KEY)
            elif pair.type == "pair_pattern" and text(pair.child_by_field_name("key")) == NAME_KEY:
                names.add(text(pair.child_by_field_name("value")))
    return frozenset(held), frozenset(names)


def _names_tool(body: ts.Node, fn: ts.Node, link=None) -> bool:
    """Whether BODY reads a requested tool's name: `x.params.name` (or the name of a local holding, or destructured
    from, `x.params`), or hands `x.params` (or such a local) on."""
    held, names = _params_locals(fn, link)
    for node in find(body, {"member_expression", "identifier"}):
        chain = member_chain(node)
        if not chain:
            continue
        if chain[-2:] == (PARAMS_KEY, NAME_KEY) or chain == (*chain[:1], NAME_KEY) and chain[0] in held \
                or len(chain) == 1 and chain[0] in names:
            return True
        if (chain[-1] == PARAMS_KEY or len(chain) == 1 and chain[0] in held) \
                and node.parent is not None and node.parent.type == "arguments":
            return True
    return False


def handlers(module: Module, vocab: dict, link=None) -> list[Handler]:
    """The request handlers of MODULE's branches on a request's method (see the module's doc)."""
    known = frozenset(vocab["request_schemas"].values())
    out = []
    for method, stmt, body, subject in branches(module, known, link):
        fn = enclosing_function(stmt)
        if fn is None or method == "tools/list" and not _holds_key(body, LIST_KEY, module, link) \
                or method == "tools/call" and not _names_tool(body, fn, link):
            continue
        out.append(Handler(module=module, method=method, server_var=text(subject), node=stmt, fn=fn, branch=body))
    return out


def server(module: Module, handled: list[Handler], link=None) -> ServerDecl | None:
    """The server MODULE's protocol handlers HANDLED make, read from its `initialize` branch when it has one."""
    if not handled:
        return None
    answer = next(((stmt, obj) for _, stmt, body, _ in branches(module, frozenset({INITIALIZE}), link)
                   for obj in find(body, {"object"}) if INFO_KEY in object_pairs(obj)), None)
    node, info, caps_node = handled[0].node, {}, None
    if answer is not None:
        node, pairs = answer[0], object_pairs(answer[1])
        fields = literal_fields(pair_value(pairs[INFO_KEY]), module.toplevel)
        info = fields if isinstance(fields, dict) else {}
        caps_node = pair_value(pairs[CAPABILITIES_KEY]) if CAPABILITIES_KEY in pairs else None
    capabilities = _capability_names(caps_node, module.toplevel) if caps_node is not None else ()
    return ServerDecl(module=module, var=handled[0].server_var, cls=CLASS, node=node, info=info,
                      capabilities=capabilities, caps_node=caps_node)
