"""Coverage ledger: which files were read and reached, which tools were found and analysed, and why not."""

from __future__ import annotations

import posixpath
import re

from auditor.analyse import outside, unserved
from auditor.analyse.absences import unread_code
from auditor.extract import entrypoints, highlevel
from auditor.extract.parse import language_for
from auditor.extract.program import package_of
from auditor.extract.facts import Program, entry_modules, module_for, reached_modules, reads
from auditor.extract.linker import candidates
from auditor.extract.records import at
from auditor.extract.bindings import imports, shadowed, value_of
from auditor.extract.syntax import (FUNCTION_TYPES, NOT_LITERAL, call_args, call_function, class_base, excerpt, find, literal, member_chain, object_pairs, pair_value,
                                    statement_of, string_value, strip_casts, text)
from auditor.model import Anchor
from auditor.sources import DEPENDENCY, mapped_twins, repo_path


def _development_runs(p: Program) -> dict[str, str]:
    """Modules run only by development scripts (build, test, lint, release) -> the script names."""
    development = (p.method.get("entry_points") or {}).get("development_scripts", [])
    out: dict[str, list[str]] = {}
    for doc in p.manifests():
        base = posixpath.dirname(doc.path)
        for how, t in entrypoints.targets(doc.value, development)[1]:
            path = module_for(p, base, t)
            if path is not None:
                out.setdefault(path, []).append(how.removeprefix("script "))
    return {k: ", ".join(f"`{n}`" for n in v) for k, v in out.items()}


def _uses_globals(module, names: set[str]) -> bool:
    """Whether the module reads one of NAMES as the object of a member access (`document.getElementById`)."""
    for node in find(module.tree.root_node, {"member_expression"}):
        obj = node.child_by_field_name("object")
        if obj is not None and obj.type == "identifier" and text(obj) in names:
            return True
    return False


def _auxiliary(p: Program, path: str, dev_runs: dict[str, str]) -> tuple[str, str] | None:
    """(status, reason) of a module no entry reaches that is not the server (kb/method.yaml auxiliary), else None."""
    from auditor.sources import glob_match

    e = p.entry(path)
    rel = e.rel if e is not None else path
    module = p.linker.by_path.get(path) if p.linker is not None else None
    for rule in p.method.get("auxiliary") or []:
        if any(glob_match(rel, g) for g in rule.get("globs", ())):
            return rule["status"], rule["reason"]
        if module is not None and rule.get("globals") and _uses_globals(module, set(rule["globals"])):
            return rule["status"], rule["reason"]
    if path in dev_runs:
        return "auxiliary, not reached", f"run only by the development script(s) {dev_runs[path]}, not by the server"
    if module is not None and entrypoints.types_only(module.tree.root_node):
        return "auxiliary, not reached", "type-only module: its code is types alone, nothing runs"
    if module is not None and entrypoints.reexports_only(module.tree.root_node):
        return "auxiliary, not reached", ("re-exports only: it imports and re-exports other modules, nothing of its "
                                          "own runs (what it re-exports is accounted for where it is written)")
    return None


def aside_modules(p: Program) -> set[str]:
    """The modules no entry reaches that the ledger sets aside as not the server: those of a package nested in the
    target that its entries never reach (`Program.others`: an example project), and auxiliary ones (kb/method.yaml
    auxiliary: examples, scripts, tests, benchmarks). Empty when no entry is known."""
    entries = entry_modules(p)
    if not entries:
        return set()
    reached = reached_modules(p, entries)
    dev_runs = _development_runs(p)
    return {m.path for m in p.modules if m.path not in reached
            and (any(m.path.startswith(o + "/") for o in p.others) or _auxiliary(p, m.path, dev_runs) is not None)}


_UNREAD_UNREACHED = "not analysed, not reached"
_OTHER_PROGRAM = "analysed, another program"
_UNREACHED_DEPENDENCY = "dependency, not reached"  # a file of a dependency read with the target (Target.packages)


def _other_programs(p: Program, entries: list[str]) -> dict[str, str]:
    """Path -> the entry, of the files reached only from entries that reach no MCP code (no import of an SDK package,
    no server, handler, registration, tool or launch: another program the package ships, a CLI beside the server) and
    load no module by a computed path, when some other entry does reach it. Their gaps say nothing of the server; with no entry reaching MCP code,
    nothing is set aside."""
    if p.linker is None or len(entries) < 2:
        return {}
    sdk = tuple(p.vocab["sdk_packages"])
    mcp = {m.path for m in p.modules if any(src == pkg or src.startswith(pkg + "/")
                                            for src, _ in imports(m).values() for pkg in sdk)}
    mcp |= {x.module.path for x in [*p.servers, *p.handlers, *p.registrations, *p.tools, *p.launches]}
    closures = {e: reached_modules(p, [e]) for e in entries}
    serving = set().union(*(c for c in closures.values() if c & mcp))
    if not serving:
        return {}
    return {path: e for e, c in closures.items() if not c & mcp and not _loads_computed(p, c)  # (which could load the
            for path in sorted(c - serving)}  # server: `import(join(__dirname, "..", "dist", "index.js"))`)


def _named_by(p: Program, reached: set[str]) -> set[str]:
    """The paths an import, require() or import() of the modules of REACHED may name (each relative specifier's
    candidate files)."""
    named: set[str] = set()
    for m in p.modules:
        if m.path in reached:
            named |= {c for spec, _ in m.imports if spec.startswith(".") for c in candidates(m.path, spec)}
    return named


def _aside(path: str, lang: str | None, why: str, entries: list[str], named: set[str] | None) -> tuple[str, str] | None:
    """(status, reason) of a code file that was not analysed (too big, too deep, too slow; WHY) when it is no entry
    and no module the entries reach names it, and those entries reach a server (NAMED: what they name; None when no
    server is reached): what the server runs does not include it, so its gap is no gap in the server's code."""
    if named is None or path in entries or path in named or lang in {None, "json"}:
        return None
    return _UNREAD_UNREACHED, (f"{why}; no entry file names or reaches it, and the entries reach the server: not part "
                               "of what it runs")


def _server_code(p: Program) -> dict[str, list[str]]:
    """Module path -> what of a server it holds, first lines first: a server constructed, a request handler, a tool,
    resource or prompt registration, a tool descriptor, a tools/call dispatch, a launch."""
    found: dict[str, list[tuple[int, str]]] = {}

    def add(module, node, what: str) -> None:
        found.setdefault(module.path, []).append((node.start_point[0] + 1, what))

    for s in p.servers:
        add(s.module, s.node, "a server constructed")
    for h in p.handlers:
        add(h.module, h.node, f"a {h.method} handler")
    for r in p.registrations:
        add(r.module, r.node, f"a {r.kind} registration")
    for t in (*p.tools, *p.unadvertised, *p.unserved):
        add(t.module, t.node, f"the tool descriptor {t.name!r}")
    for d in p.dispatches:
        add(d.module, d.node, f"a dispatch of {d.tool!r}")
    for l in p.launches:
        add(l.module, l.connect, "a server launch")
    return {path: [f"{what} (line {line})" for line, what in sorted(set(rows))] for path, rows in found.items()}


def _unreached(p: Program, unreached: set[str], effects: dict[str, list[str]] | None) -> dict[str, str]:
    """Module no entry reaches -> why it is a gap: it holds server code, or it holds effects (kb/effects.yaml) that
    server code no entry reaches imports (every module that code imports when EFFECTS is None: not scanned). A
    module absent from the answer holds neither: it is accounted for as not the server."""
    code = {path: rows for path, rows in _server_code(p).items() if path in unreached}
    out = {path: "it holds server code: " + _listed(rows) for path, rows in code.items()}
    if code and p.linker is not None:
        for path in sorted(p.linker.closure(sorted(code), dynamic=True) & unreached - set(code)):
            if effects is None or effects.get(path):
                what = _listed(effects[path]) if effects is not None else "code not scanned for effects"
                out[path] = f"server code no entry reaches imports it, and it holds effects: {what}"
    return out


def _dead_code(p: Program, reached: set[str]) -> str | None:
    """Why server code no entry reaches is not served, when that is shown: the reached code constructs a server
    itself, and no reached module imports or requires a module by a path that is not a literal (which could load
    it). None when either fails: the unreached code stays a gap."""
    if not any(s.module.path in reached for s in p.servers) or any(t.module.path not in reached for t in p.tools):
        return None  # (tools of unreached code are kept when the entries reach none: extract/facts.py _reached_tools)
    if _loads_computed(p, reached):
        return None
    return ("the reached code constructs its own server and imports no module by a computed path (`import(x)`, "
            "`require(x)`): this code is not served")


def _loads_computed(p: Program, reached: set[str]) -> bool:
    """Whether a module of REACHED imports or requires a module by a path that is not a literal (which could load
    any module)."""
    for m in p.modules:
        if m.path not in reached:
            continue
        for call in m.nodes("call"):
            fn = call.child_by_field_name("function")
            args = call_args(call)
            if fn is not None and (fn.type == "import" or (fn.type == "identifier" and text(fn) == "require")) and args \
                    and literal(args[0], {}) is NOT_LITERAL:
                return True
    return False


def effects_by_module(sites) -> dict[str, list[str]]:
    """Module path -> its effect sites of kb/effects.yaml (analyse/effects.py; a call into another package is none)."""
    out: dict[str, list[str]] = {}
    for site in sites:
        if site.kind != "dependency":
            out.setdefault(site.module.path, []).append(f"{site.kind} `{site.what}` (line {site.lines[0]})")
    return out


def _listed(rows: list[str]) -> str:
    return ", ".join(rows[:3]) + (f" and {len(rows) - 3} more" if len(rows) > 3 else "")


def _inline_traced(p: Program, d) -> bool:
    """An implementation written inline in a traced function (a switch case of the handler) is analysed there."""
    return any(f.fn.start_byte <= d.node.start_byte and d.node.end_byte <= f.fn.end_byte and f.module is d.module
               for f in p.flows)


def tool_names_unknown(p: Program) -> list[str]:
    """Why the tools found may not be all the tools the server has: registrations whose name is not a literal, and
    the unresolved parts of the ledger (empty when every name is known)."""
    out = [f"{r.method}() at {r.module.path}:{r.node.start_point[0] + 1} registers a name that is not a literal"
           for r in p.registrations if r.kind == "tool" and r.name is None]
    return out + [u["what"] for u in _unresolved(p, entry_modules(p))]


def _unresolved(p: Program, entries: list[str]) -> list[dict]:
    """What the ledger cannot account for: tool names that are not literals, lists whose descriptors are not read,
    and servers the extractors cannot see."""
    out = [{"what": f"a dispatch branch names a tool by `{excerpt(n.child_by_field_name('value'))}`, which is not a literal"
            if n.type == "switch_case" else
            f"a tool installed into a registry at run time by `{excerpt(n)}` has a name or an implementation that is "
            "not read (extract/registry.py)", "anchor": at(m.path, n).as_json()} for m, n in p.unread]
    for l in p.listings:
        if l.unread:
            out.append({"what": _unread_listing(l), "anchor": at(l.module.path, l.handler).as_json()})
        if l.unnamed:  # descriptors read, names not: the tools they are stay unknown, whatever else was found
            out.append({"what": _unnamed_listing(l), "anchor": at(l.module.path, l.handler).as_json()})
    reached = reached_modules(p, entries) if entries else {m.path for m in p.modules}
    return out + _unread_servers(p, entries) + _unread_registrations(p, entries) + _unread_handlers(p, reached) \
        + _only_unserved(p) + outside.rows(p, reached)


def _only_unserved(p: Program) -> list[dict]:
    """No tool found, and registrations set aside as not served (extract/served.py): the server serves none of them
    only if nothing runs their functions in a way the audit cannot see; zero tools is then no result."""
    if p.tools or not p.unserved:
        return []
    first = min(p.unserved, key=lambda t: (t.module.path, t.node.start_byte))
    names = sorted({t.binding for t in p.unserved})
    return [{"what": f"no tool is served, and {len(p.unserved)} registration(s) in functions no reached code calls "
                     f"or names ({', '.join(f'`{n}`' for n in names[:3])}{', ...' if len(names) > 3 else ''}) were "
                     "set aside: how the server runs them, if it does, is not known",
             "anchor": at(first.module.path, first.node).as_json()}]


def _unread_handlers(p: Program, reached: set[str]) -> list[dict]:
    """A tools request schema of the SDK (tools/list, tools/call) handed to a call of reached code that was not read as
    a handler registration (`server[decode(0xf2)](ListToolsRequestSchema, ...)`, a method name computed at run time):
    the tools that handler serves are not known. With no tool found, so is a handler read whose request is not known
    (`setRequestHandler(h.schema, ...)`)."""
    methods = {"tools/list", "tools/call"}
    schemas = {name for name, method in p.vocab["request_schemas"].items() if method in methods}
    sdk = tuple(p.vocab["sdk_packages"])
    read = {h.node.id for h in p.handlers}
    out = []
    for m in p.modules:
        if m.path not in reached:
            continue
        local = {n for n, (src, name) in imports(m).items() if name in schemas
                 and any(src == pkg or src.startswith(pkg + "/") for pkg in sdk)}
        for call in m.nodes("call") if local else ():
            args = call_args(call)
            if args and strip_casts(args[0]) is not None and text(strip_casts(args[0])) in local \
                    and statement_of(call).id not in read and not shadowed(m, strip_casts(args[0])):
                out.append({"what": f"the request schema `{text(args[0])}` is handed to `{excerpt(call, 60)}`, which "
                                    "is not read as a request handler's registration: what it serves is not known",
                            "anchor": at(m.path, call).as_json()})
                break
    if not p.tools:  # no tool found, and a handler of reached code answers a request the audit cannot name: it may
        known = set(p.vocab["request_schemas"].values())  # be the tools/list that lists them
        out += [{"what": f"`{excerpt(h.node, 60)}` registers a handler for a request that is not known: "
                         "what it serves, the server's tools among it, is not known",
                 "anchor": at(h.module.path, h.node).as_json()}
                for h in p.handlers if h.module.path in reached and h.method not in known and "/" not in h.method]
    return out


def _unread_registrations(p: Program, entries: list[str]) -> list[dict]:
    """The calls of reached code shaped like a registration (a method of kb/sdk.yaml
    high_level registrations with a name and a function or object last) that were not read as one, their receiver
    not known to be a server (`this.tool("x", ...)` of a class this does not recognise). Zero tools is then no result;
    beside tools found, such a call with a literal name and a function written there leaves the audit incomplete too."""
    if not p.modules:
        return []
    reached = reached_modules(p, entries) if entries else {m.path for m in p.modules}
    methods = set(p.vocab["high_level"]["registrations"])
    read = {r.node.id for r in p.registrations} | p.unrun  # (and those that never run: accounted for)
    calls = []
    for m in p.modules:
        if m.path not in reached:
            continue
        for call in m.nodes("call"):
            fn = strip_casts(call.child_by_field_name("function"))
            args = call_args(call)
            spread = len(args) == 1 and args[0].type == "spread_element"  # `server.tool(...tuple)`: a whole call
            if fn is None or fn.type != "member_expression" or text(fn.child_by_field_name("property")) not in methods \
                    or call.id in read or len(args) < 2 and not spread or strip_casts(args[-1]).type not in FUNCTION_TYPES | {
                        "object", "identifier", "member_expression", "call_expression", "spread_element"}:
                continue
            if p.tools and (string_value(args[0]) is None or strip_casts(args[-1]).type not in FUNCTION_TYPES):
                continue  # beside tools found: only a literal name and a function written there (`x.tool("a", ..., fn)`)
            calls.append((m, call))
    if not calls:
        return []
    m, call = calls[0]
    lead = "no tool was found, but " if not p.tools else ""
    return [{"what": f"{lead}{len(calls)} call(s) of reached code are shaped like a tool registration "
                     f"on a receiver not known to be a server, first `{excerpt(call)}` ({m.path}:{call.start_point[0] + 1}): "
                     "the tools they register, if any, are not known", "anchor": at(m.path, call).as_json()}]


def _unread_listing(l) -> str:
    """What of a tools/list result was not read, and what is taken as a tool because of it."""
    parts = ", ".join(f"`{excerpt(n)}` ({m.path}:{n.start_point[0] + 1})" for m, n, _ in l.unread[:4]) \
        + (f" and {len(l.unread) - 4} more" if len(l.unread) > 4 else "")
    scopes = [scope for _, _, scope in l.unread]
    if None in scopes:
        kept = "so every descriptor-shaped object of the code is taken as a tool"
    else:
        files = sorted(frozenset().union(*scopes))
        kept = ("so the descriptor-shaped objects of " + ", ".join(files) + " are taken as tools") if files else \
            "which names code outside the boundary"
    return f"the tools/list handler returns a list the tool could not read whole: {parts}; {kept}"


def _unnamed_listing(l) -> str:
    """The objects a tools/list result lists whose tool names are not read."""
    parts = ", ".join(f"`{excerpt(n)}` ({m.path}:{n.start_point[0] + 1})" for m, n in l.unnamed[:4]) \
        + (f" and {len(l.unnamed) - 4} more" if len(l.unnamed) > 4 else "")
    return (f"the tools/list handler lists {len(l.unnamed)} object(s) whose tool name is not read: {parts}; "
            "the tools they advertise are not known")


def _unread_servers(p: Program, entries: list[str]) -> list[dict]:
    """What serves tools the extractors cannot see: imports of another MCP framework, or no server object at all."""
    out = []
    others = p.vocab["other_frameworks"]
    readable = tuple(f["package"] for f in [*(p.vocab.get("framework_servers") or ()),
                                            *(p.vocab.get("framework_tool_classes") or ())])
    for m in p.modules:
        for src, node in m.imports:
            if m.path in p.frameworks_read and any(src == f or src.startswith(f + "/") for f in readable):
                continue  # its server constructed here, and its records read whole (extract/frameworks.py)
            if any(src == f or src.startswith(f + "/") for f in others):
                out.append({"what": f"imports {src}, an MCP framework whose registrations the auditor does not read "
                                    "(kb/sdk.yaml other_frameworks): what it serves is not analysed",
                            "anchor": at(m.path, node).as_json()})
    unread = [g for g in p.gaps if g.kind == "size" and language_for(g.anchor.path) not in {None, "json"}]
    if not p.modules and unread:  # code there, none of it read (a file over the read limit)
        out.append({"what": f"no code file read: {unread[0].anchor.path} is not ({unread[0].detail})"
                            + (f", nor {len(unread) - 1} more file(s)" if len(unread) > 1 else "")
                            + "; what the package serves, if anything, is not known",
                    "anchor": unread[0].anchor.as_json()})
    elif not p.modules and p.manifests():  # a package of a manifest and documents only (a deprecated stub)
        doc = p.manifests()[0]
        out.append({"what": "no code file in the boundary (a package of a manifest and documents only): no server "
                            "is constructed here, and what it serves, if anything, is not known",
                    "anchor": Anchor(path=doc.path, start_line=1, end_line=1).as_json()})
    if p.modules and not p.servers:
        where = p.entry(entries[0] if entries else p.modules[0].path)
        manifests = p.manifests()
        sdk = set(p.vocab["sdk_packages"])
        named = any(sdk & set(d.value.get(f) or {}) for d in manifests if isinstance(d.value, dict)
                    for f in _DEPENDENCY_FIELDS if isinstance(d.value.get(f), dict))
        what = ("no MCP server object is constructed in the code read (kb/sdk.yaml server_classes): the tools, "
                "resources and prompts it serves, if any, are not known")
        handoff = _handoffs(p)
        if handoff:
            firsts = list({h[0]: h for h in reversed(handoff)}.values())[::-1]  # each package's first call
            calls = [f"`{_handed(call)}` ({m.path}:{call.start_point[0] + 1})" for _, m, call in firsts]
            (package, m, call) = firsts[0]
            what = f"the server is built by {package}, outside the boundary: {calls[0]} is handed the tools" \
                if len(firsts) == 1 else \
                f"the server may be built outside the boundary by one of {len(firsts)} packages handed tools: " + \
                "; ".join(f"{h[0]}, {c}" for h, c in list(zip(firsts, calls))[:_NAMED]) + \
                (f"; and {len(firsts) - _NAMED} more" if len(firsts) > _NAMED else "")
            out.append({"what": what + "; no MCP server object is constructed in the code read, so what it serves "
                                "is not known", "anchor": at(m.path, call).as_json()})
            return out
        built = next(((pkg, r) for r in p.registrations if (pkg := highlevel.built_outside(r.node, r.module, p.linker))), None)
        if built is not None:  # tools read on a server object another package makes
            package, r = built
            out.append({"what": f"the server the tools are registered on is built by {package}, outside the boundary: "
                                f"`{excerpt(r.node, 40)}` ({r.module.path}:{r.node.start_point[0] + 1}) registers on what a "
                                "function of that package returns; no MCP server object is constructed in the code read, "
                                "so its name, its capabilities and what that package registers itself are not known",
                        "anchor": at(r.module.path, r.node).as_json()})
            return out
        relay = _relays(p)
        if relay:
            m, new, where = relay[0]
            out.append({"what": f"a relay: `{excerpt(new)}` ({m.path}:{new.start_point[0] + 1}) opens a client transport of "
                                f"the SDK to another MCP server{f' at {where}' if where else ''}; no MCP server object is "
                                "constructed in the code read, so the tools, resources and prompts served are the other "
                                "server's, outside the boundary (kb/sdk.yaml client_transports)",
                        "anchor": at(m.path, new).as_json()})
            return out
        unread = sorted({g.anchor.path for g in unread_code(p)})
        if unread:  # what was not read may be the server: no "not an MCP server" then, and the files are named
            what += (f"; {len(unread)} file(s) of the code were not analysed and may hold it: "
                     + ", ".join(unread[:3]) + (" ..." if len(unread) > 3 else ""))
        elif manifests and not named and not out and not p.tools and not p.handlers:  # (a module importing another MCP framework is one; tools found are a server)
            what = ("not an MCP server, as far as the code shows: package.json depends on no MCP SDK package "
                    "(kb/sdk.yaml sdk_packages), and " + what)
        handed = _entry_dependencies(p, where.file.path, manifests)
        if handed and not p.tools:  # `require("x-core/lib/bundle").tools.run()`: the server may be the dependency's
            what += (f"; {where.file.path} hands off to {', '.join(handed)}: a dependency outside the boundary (not read) "
                     "that may build it")
        out.append({"what": what,
                    "anchor": Anchor(path=where.file.path, start_line=1, end_line=max(where.lines, 1)).as_json()})
    return out


def _entry_dependencies(p: Program, path: str, manifests) -> list[str]:
    """The packages of package.json `dependencies` that the entry file at PATH imports and the audit did not read
    (a thin bin over a dependency that holds the server)."""
    deps = {n for d in manifests if isinstance(d.value, dict) and isinstance(d.value.get("dependencies"), dict)
            for n in d.value["dependencies"]}
    read = {package_of(m.path.removeprefix("node_modules/")) for m in p.modules if m.path.startswith("node_modules/")}
    m = next((m for m in p.modules if m.path == path), None)
    out: list[str] = []
    for src, _ in m.imports if m is not None else ():
        name = package_of(src)
        if name in deps and name not in read and name not in out:
            out.append(name)
    return out


def _relays(p: Program) -> list[tuple[object, object, str | None]]:
    """`new X(...)` of a client transport class of kb/sdk.yaml client_transports imported from an SDK package:
    (module, the new expression, the address it is given when that reads as a literal), in code order."""
    names = set(p.vocab.get("client_transports") or ())
    sdk = tuple(p.vocab["sdk_packages"])
    out = []
    for m in p.modules if names else []:
        bound = {local for local, (src, name) in imports(m).items()
                 if src.startswith(sdk) and (name in names or name in {"*", "default"})}
        for new in m.nodes("new"):
            chain = member_chain(strip_casts(new.child_by_field_name("constructor"))) or ()
            if not chain or chain[-1] not in names or chain[0] not in bound:
                continue
            args = call_args(new)
            out.append((m, new, _address(m, args[0]) if args else None))
    return sorted(out, key=lambda r: (r[0].path, r[1].start_byte))


def _address(m, node) -> str | None:
    """The literal address of `new URL(x)` or of x, through the module's top-level constants."""
    node = strip_casts(node)
    if node is not None and node.type == "new_expression" and call_args(node):
        node = strip_casts(call_args(node)[0])
    value = literal(node, m.toplevel) if node is not None else NOT_LITERAL
    return repr(value) if isinstance(value, str) else None


_NAMED = 4  # packages a ledger row names of those handed tools


def _handoffs(p: Program) -> list[tuple[str, object, object]]:
    """Calls and constructions of a function or class imported from another package, and `super(...)` in a class
    that extends one, handed an object with a key of kb/sdk.yaml server_handoff_keys at most three objects deep
    (`createMcpServer({ name, tools })`, `super({ server: { capabilities: { tools: {} } } })`): (the package, the
    module, the call), in code order. The SDK's own packages are not a handoff."""
    keys = set(p.vocab.get("server_handoff_keys") or ())
    sdk = tuple(p.vocab["sdk_packages"])
    out = []
    for m in p.modules if keys else []:
        bound = {local: src for local, (src, _) in imports(m).items() if not src.startswith((".", "/") + sdk)}
        for call in (m.nodes("call") + m.nodes("new")) if bound else []:
            if call.type == "new_expression":
                callee = strip_casts(call.child_by_field_name("constructor"))
            else:
                callee = call_function(call)  # (0, mod.f)(...) of compiled CommonJS is mod.f(...)
                if callee is not None and callee.type == "super":
                    callee = _heritage(call)
            chain = member_chain(callee) if callee is not None else None
            if not chain or chain[0] not in bound:
                continue
            if any(_holds_key(_object_of(m, a), keys, 3) for a in call_args(call)):
                out.append((bound[chain[0]], m, call))
    return sorted(out, key=lambda h: (h[1].path, h[2].start_byte))


def _object_of(module, node):
    """NODE, or the value a local it names is declared with (`const factory = { toolSchemas }; start(factory)`)."""
    node = strip_casts(node)
    value = value_of(module, node) if node is not None and node.type == "identifier" else None
    return value if value is not None else node


def _handed(call) -> str:
    """The function, class or base class (`super` of `class X extends pkg.Base`) a handoff call names."""
    if call.type == "new_expression":
        return "new " + excerpt(call.child_by_field_name("constructor"))
    callee = call.child_by_field_name("function")
    if callee is not None and callee.type == "super":
        return f"super(...) of a class that extends {excerpt(_heritage(call))}"
    return excerpt(callee)


def _heritage(node) -> object | None:
    """The class a `super(...)` call's class extends, as written (`extends pkg.Base`), or None."""
    while node is not None and node.type not in {"class_declaration", "class"}:
        node = node.parent
    return class_base(node)


def _holds_key(node, keys: set[str], depth: int) -> bool:
    pairs = object_pairs(node)
    return any(_key_words(k) & keys for k in pairs) \
        or (depth > 1 and any(_holds_key(pair_value(v), keys, depth - 1) for v in pairs.values()))


def _key_words(key: str) -> set[str]:
    """KEY and its words, lower case: `toolSchemas` -> {toolschemas, tool, schemas}; `mcp_tools` -> {.., tools}."""
    return {key.lower(), *(w.lower() for w in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", key))}


# A bundled server names the SDK among its devDependencies only: it is still a server's manifest.
_DEPENDENCY_FIELDS = ("dependencies", "peerDependencies", "optionalDependencies", "devDependencies")


def _bundled(m) -> list[dict]:
    """Per package bundled in a module: how many regions and lines of it the bundler wrote there."""
    out: dict[str, dict] = {}
    for first, last, package in m.vendored:
        row = out.setdefault(package, {"package": package, "regions": 0, "lines": 0})
        row["regions"] += 1
        row["lines"] += last - first + 1
    return sorted(out.values(), key=lambda r: (-r["lines"], r["package"]))


_TRACED = {"analysed", "analysed, details not read", "dispatch only"}
_STATUS_ORDER = ["analysed", "analysed, details not read", "partially analysed"]  # of a tool row, worst last


def _below_top(path: str) -> str | None:
    """PATH without its top folder and its extension (`dist/tools/x.js` and `src/tools/x.ts`: `tools/x`): what a
    build output and its source share when the build maps one folder onto another (tsc's rootDir onto outDir);
    None for a path in no folder."""
    parts = path.split("/")
    if len(parts) < 2 or ".." in parts:
        return None
    return posixpath.splitext("/".join(parts[1:]))[0]


def _held_sources(bundles) -> dict[str, tuple[str, str]]:
    """`_below_top` of each own source file a bundle among BUNDLES (reached modules) marks -> (the bundle's path, the
    source's path as marked); the first bundle holding it."""
    out: dict[str, tuple[str, str]] = {}
    for m in bundles:
        for source in m.sources:
            key = _below_top(source)
            if key is not None:
                out.setdefault(key, (m.path, source))
    return out


def blocking(gaps, method, files=()) -> list:
    """The gaps that leave an audit incomplete: all but the kinds of kb/method.yaml detail_gaps, and but those of a file
    the ledger (`files`, its rows) sets aside as auxiliary (not the server, and reached from no entry: a web asset
    that does not parse says nothing of what the server does), or as a test file (parsed for gaps, never server
    code: a test the parser cannot read hides no tool)."""
    detail = set((method or {}).get("detail_gaps", ()))
    aside_status = {r.get("status") for r in (method or {}).get("auxiliary") or ()} | {
        "auxiliary, not reached", _UNREAD_UNREACHED, _OTHER_PROGRAM, _UNREACHED_DEPENDENCY}
    aside = {f["path"] for f in files if f.get("status") in aside_status
             or f.get("layer") == "test" and not f.get("entry") and f.get("status") == "read"}
    return [g for g in gaps if g.kind not in detail and g.anchor.path not in aside]


def ledger(p: Program, effects: dict[str, list[str]] | None = None) -> dict:
    """EFFECTS: module path -> the effect sites of kb/effects.yaml it holds (None: not scanned)."""
    entries = entry_modules(p)
    reached = reached_modules(p, entries)
    dev_runs = _development_runs(p)
    gap_of = _unreached(p, {m.path for m in p.modules} - reached, effects) if entries else {}
    dead = _dead_code(p, reached) if gap_of else None
    gaps_by_file: dict[str, int] = {}
    for g in p.gaps:
        gaps_by_file[g.anchor.path] = gaps_by_file.get(g.anchor.path, 0) + 1
    modules = {m.path for m in p.modules}
    by_path = {m.path: m for m in p.modules}
    named = _named_by(p, reached) if entries and any(s.module.path in reached for s in p.servers) else None
    others = _other_programs(p, entries)
    by_rel = {e.rel: e for e in p.entries if not e.context}
    unreached = {m.path for m in p.modules} - reached if entries else set()
    mapped: dict[str, list[str]] = {}  # a source -> its build outputs (a CommonJS and an ESM build of it: both)
    built_from: dict[str, str] = {}  # a build output -> its source
    for built, source in (mapped_twins(list(by_rel.values())).items() if unreached else ()):
        mapped.setdefault(repo_path(source, by_rel[source]), []).append(repo_path(built, by_rel[built]))
        built_from[repo_path(built, by_rel[built])] = repo_path(source, by_rel[source])
    held = _held_sources(by_path[m] for m in sorted(reached & modules)) if unreached else {}
    files = []
    for e in p.entries:
        if e.context:
            continue
        path = e.file.path
        if (e.text is None or e.replaced) and not reads(e):
            status, why = "read", f"{e.layer} file ({e.omitted or 'not valid UTF-8'}); no analysis reads its text"
        elif e.text is None:
            status, why = "not analysed", e.omitted or "not valid UTF-8"
            status, why = _aside(path, e.lang, why, entries, named) or (status, why)
        elif e.built_to:
            status, why = "read", (f"source of {repo_path(e.built_to, e)}, which is analysed in its place: the "
                                   "TypeScript grammar does not parse this file whole, its build output it does")
        elif e.compiled_from:
            what = "a second build of the code" if e.compiled_from.endswith((".js", ".mjs", ".cjs")) else "build output"
            status, why = "read", f"{what} of {repo_path(e.compiled_from, e)}, which is analysed in its place"
        elif path in p.skipped:  # too deep, or over the time budget
            status, why = "not analysed", p.skipped[path]
            status, why = _aside(path, e.lang, why, entries, named) or (status, why)
        elif path in modules:
            status = "analysed" if path in reached or not entries else "parsed, not reached"
            why = "" if status == "analysed" else "not imported, directly or through other modules, by an entry file"
            why = "in a test folder, but an entry imports it: the server's code" if e.shipped_test and not why else why
            if status == "analysed" and path in others:
                status, why = _OTHER_PROGRAM, (f"reached only from the entry {others[path]}, which reaches no MCP code "
                                               "(no SDK import, server, handler or registration): another program of "
                                               "the package, not the server")
            if status != "analysed" and e.package is not None:  # what of a dependency read with it the server
                status, why = _UNREACHED_DEPENDENCY, f"{why}: code of the dependency {e.package} the server does not load"
            if status not in {"analysed", _UNREACHED_DEPENDENCY}:
                status, why = _auxiliary(p, path, dev_runs) or (status, why)
            runs = [b for b in mapped.get(path, ()) if b in reached]
            if status == "parsed, not reached" and runs:  # its build output runs instead
                status, why = "read", f"source of {runs[0]} (by its source map), which is analysed in its place"
            if status == "parsed, not reached" and built_from.get(path) in reached:  # (an ESM chunk whose source
                status, why = "read", (f"a build of {built_from[path]} (by its source map), which is analysed in its "
                                       "place")  # the entries reach, through the package's other build or itself)
            twin = held.get(_below_top(e.rel)) if status == "parsed, not reached" else None
            if twin is not None:  # tsc's `dist/x.js` of the `src/x.ts` a reached bundle holds
                status, why = "read", (f"a second build of {twin[1]}, which the bundle {twin[0]} holds (its bundler "
                                       "marks that file's code there), analysed in its place")
            if status == "parsed, not reached" and path in gap_of:
                why = f"{why}; {gap_of[path]}"
                if dead:  # the entries build their own server and load nothing by a computed path: never served
                    status, why = "not reached, not served", f"{why}; {dead}"
            elif status == "parsed, not reached":  # what it does cannot make the server: accounted for
                status, why = "not reached, holds no server code", (
                    f"{why}; it constructs no server, handles no request, registers or describes nothing, and no "
                    "server code reaches an effect of it")
        elif e.layer == "test":
            status, why = "read", "test file: parsed for gaps, not analysed as server code"
        else:
            status, why = "read", "installed package (a node_modules folder): a dependency, outside the boundary; not " \
                "analysed" if e.layer == DEPENDENCY else f"{e.layer} file"
        row = {"path": path, "layer": e.layer, "status": status, "reason": why,
               "gaps": gaps_by_file.get(path, 0), "entry": path in entries}
        bundled = _bundled(by_path[path]) if path in by_path else []
        if bundled:  # a bundle: its dependencies' code is out of the boundary, as when it is not bundled
            names = [b["package"] for b in bundled]
            row["reason"] = "; ".join(filter(None, [why, f"{len(names)} bundled package(s) not read as its code: "
                                                    + ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")]))
            row["bundled"] = bundled
        if e.blanked:  # over a size limit: those packages' regions were blanked, not parsed (extract/bundled.py)
            row["reason"] = "; ".join(filter(None, [row["reason"], f"{e.blanked_why}: the regions of its bundled "
                                                    "packages blanked before parsing, its own code analysed"]))
            row["blanked"] = len(e.blanked)
        files.append(row)
    dispatched = {d.tool: d for d in p.dispatches}
    refusals = unserved.refused(p)  # advertised, no branch, and the fallback refuses: a call's outcome is known
    gated = {o: env for l in p.listings for objects, env in l.gated for o in objects}
    tools = []
    for t in sorted(p.tools, key=lambda t: (t.name, t.module.path)):
        reasons, details = [], []  # what leaves the tool partly analysed; what of its descriptor was not read
        if t.schema is NOT_LITERAL:
            details.append(f"input schema is not a literal ({t.schema_form})")
        if t.description is None and t.described:
            details.append("description is not a literal")
        d = dispatched.get(t.name)
        refusal = refusals.get(t.name) if d is None else None
        if d is None and refusal is None:
            reasons.append("no dispatch branch or registration names this tool")
        elif d is not None and d.target is None and not _inline_traced(p, d):
            reasons.append("the implementation does not resolve to a function of the boundary")
        impl = (d.target_name or ("inline in the handler" if _inline_traced(p, d) else None)) if d is not None else \
            f"none: refused as unknown by the fallback at {(refusal.module or refusal.handler.home).path}:" \
            f"{refusal.node.start_point[0] + 1}" if refusal is not None else None
        status = "partially analysed" if reasons else "analysed, details not read" if details else "analysed"
        # One row per tool name and implementation: the same registration found in several builds or bundles of the
        # code, or read at several call sites of a helper, is one tool; the other files are listed on its row.
        same = next((r for r in tools if (r["name"], r["implementation"]) == (t.name, impl)), None)
        if same is not None:
            if t.module.path != same["file"] and t.module.path not in same.get("copies", []):
                same.setdefault("copies", []).append(t.module.path)  # sorted: tools are in (name, path) order
            same["reasons"] += [r for r in reasons + details if r not in same["reasons"]]  # what any copy left unread
            same["status"] = max(same["status"], status, key=_STATUS_ORDER.index)
            continue
        tools.append({"name": t.name, "file": t.module.path, "form": t.form, "schema_form": t.schema_form,
                      "dispatch": d.form if d is not None else "fallback" if refusal is not None else None,
                      "implementation": impl,
                      "status": status, "reasons": reasons + details,
                      **({"condition": f"listed only when {' or '.join(gated[t.node])} is set: not by default"}
                         if t.node in gated else {})})
    advertised = {t.name for t in p.tools}
    for name, d in sorted(dispatched.items()):
        if name not in advertised:
            tools.append({"name": name, "file": d.module.path, "form": "dispatch only", "schema_form": "unknown",
                          "dispatch": d.form, "implementation": d.target_name, "status": "dispatch only",
                          "reasons": ["dispatched but no descriptor or registration advertises it"]})
    unadvertised = [{"name": t.name, "file": t.module.path, "line": t.node.start_point[0] + 1,
                     "reason": "descriptor-shaped object not advertised by tools/list"}
                    for t in sorted(p.unadvertised, key=lambda t: (t.module.path, t.node.start_byte))] + [
        {"name": t.name, "file": t.module.path, "line": t.node.start_point[0] + 1,
         "reason": f"registered in `{t.binding}`, which no code the entries reach calls or names: not served"}
        for t in sorted(p.unserved, key=lambda t: (t.module.path, t.node.start_byte))]
    unresolved = _unresolved(p, entries)
    # Complete: every file the audit reads was read and is accounted for, every tool is found and traced to its
    # implementation, nothing is unresolved. What of a found tool's descriptor could not be read (kb/method.yaml
    # detail_gaps) is listed and counted, and does not make it incomplete.
    complete = not blocking(p.gaps, p.method, files) and not unresolved and \
        all(t["status"] in _TRACED for t in tools) and all(f["status"] != "parsed, not reached" for f in files)
    return {"entries": entries, "files": files, "tools": tools, "unresolved": unresolved, "complete": complete,
            "unadvertised": unadvertised}
