"""Servers whose tools are decided in another package, outside the boundary: a server object of the code read handed
to a function of that package (`registerToolsWithMCP(tools, server)`), and a server transport of the SDK connected to
an object that package constructs (`new Toolkit({...}).connect(new StdioServerTransport())`). What that package
registers is not read, so the ledger names it instead of counting the tools the code read registers as all."""

from __future__ import annotations

from auditor.extract.bindings import class_name, imports
from auditor.extract.program import package_of
from auditor.extract.highlevel import returns_new
from auditor.extract.records import at
from auditor.extract.syntax import call_args, call_function, excerpt, member_chain, strip_casts, text
from auditor.extract.values import Values


def rows(p, reached: set[str]) -> list[dict]:
    """The unresolved rows of the coverage ledger for the modules of REACHED (paths): one per package, the first
    call in code order, with how many more calls there are. A server handed to another package's function is such a
    row only when the code read registers no tool itself (a server handed on beside tools of its own is most often
    instrumented or given resources there); a transport connected to another package's object always is."""
    sdk = tuple(p.vocab["sdk_packages"])
    classes = set(p.vocab["server_classes"]) | set(p.vocab["high_level"]["server_classes"])
    values = Values(p.linker)
    found: dict[str, list[tuple[object, object, str]]] = {}
    for m in sorted((m for m in p.modules if m.path in reached), key=lambda m: m.path):
        outside = _outside_names(p, m, sdk)
        if not outside:
            continue
        for call in m.nodes("call"):
            chain = member_chain(call_function(call)) or ()
            if not chain:
                continue
            if chain[0] in outside and not p.tools and any(_a_server(a, m, classes, sdk, values) for a in call_args(call)):
                found.setdefault(outside[chain[0]], []).append((m, call, "handed a server of the code read"))
            elif chain[-1] in p.vocab["connect_methods"] and len(chain) > 1 and any(
                    _a_transport(p, a, m, sdk, values) for a in call_args(call)):
                package = _constructed_by(values, m, call_function(call).child_by_field_name("object"), outside)
                if package is not None:
                    found.setdefault(package, []).append((m, call, "connected to an SDK server transport"))
    out = []
    for package in sorted(found):
        m, call, how = found[package][0]
        more = len(found[package]) - 1
        out.append({"what": f"tools may be registered by {package}, outside the boundary: `{excerpt(call)}` "
                            f"({m.path}:{call.start_point[0] + 1}) is {how}" + (f" ({more} more call(s))" if more else "")
                            + "; what that package registers is not read, so the tools it serves are not known",
                    "anchor": at(m.path, call).as_json()})
    return out


def _a_server(node, m, classes: set[str], sdk: tuple[str, ...], values: Values) -> bool:
    """Whether NODE holds a server object the code read constructs: `new McpServer(...)`, or the call of a function of
    the boundary that returns one (`createServer()`), where the name is bound."""
    value, where = values.definition(node, m)
    value = strip_casts(value)
    if value is None:
        return False
    if value.type == "call_expression" and values.link is not None:
        hit = values.link.resolve(where, value)
        return hit is not None and returns_new(hit[1], hit[0], classes, list(sdk))
    return value.type == "new_expression" and class_name(where, value.child_by_field_name("constructor"), list(sdk)) in classes


def _a_transport(p, node, m, sdk: tuple[str, ...], values: Values) -> bool:
    """Whether NODE holds a server transport of the SDK (`new StdioServerTransport()`, or a name bound to one)."""
    value, where = values.definition(node, m)
    value = strip_casts(value)
    return value is not None and value.type == "new_expression" and \
        class_name(where, value.child_by_field_name("constructor"), list(sdk)) in p.vocab["transport_classes"]


def _outside_names(p, m, sdk: tuple[str, ...]) -> dict[str, str]:
    """Local name -> package, for the names M imports from a package outside the boundary (not the SDK's, not one the
    linker resolves to a module read)."""
    bound = p.linker.imports.get(m.path, {}) if p.linker is not None else {}
    out = {}
    for local, (src, _) in imports(m).items():
        if src.startswith((".", "/", "node:") + sdk):
            continue
        b = bound.get(local)
        if b is not None and b.module is not None:
            continue
        out[local] = package_of(src)
    return out


def _constructed_by(values: Values, m, receiver, outside: dict[str, str]) -> str | None:
    """The package whose class constructs what RECEIVER holds (`const toolkit = new pkg.Toolkit(...)`, a field
    `this.kit = new Toolkit()`); None when it is not so constructed."""
    value, where = values.definition(receiver, m) if receiver is not None and receiver.type == "identifier" else \
        values.member(receiver.child_by_field_name("object"), m, text(receiver.child_by_field_name("property")), None, 0) \
        if receiver is not None and receiver.type == "member_expression" else (None, m)
    value = strip_casts(value)
    chain = member_chain(strip_casts(value.child_by_field_name("constructor"))) or () \
        if value is not None and value.type == "new_expression" else ()
    return outside.get(chain[0]) if chain and where is m else None  # (OUTSIDE: the names M imports)
