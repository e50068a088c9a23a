"""Build the program model once: parse every file, index it, and trace each tool implementation."""

from __future__ import annotations

import posixpath
from bisect import bisect_right

from dataclasses import dataclass, field, replace
from typing import Mapping

import tree_sitter as ts

from auditor.extract import summaries, cache, dispatch, flow, frameworks, highlevel, linker, outputs, parse, program, server, state
from auditor.extract import limits, listing, reach, registry, served, spawned, syntax
from auditor.extract import dead, entrypoints, flags, inlined, protocol, subclasses, toolclasses, tsconfig
from auditor.extract import generated, interpret
from auditor.extract.manifest import JsonDoc, read_json
from auditor.extract.readme import MarkdownDoc, read_markdown
from auditor.model import Anchor, Gap
from auditor import sources
from auditor.sources import Entry

DEPENDENCIES = "node_modules/"  # the folder a dependency's files are read in, with the target (npm.py)


@dataclass(frozen=True, kw_only=True, slots=True)
class FunctionFlow:
    module: program.Module
    fn: ts.Node
    name: str
    gates: tuple[flow.Gate, ...]
    mutations: tuple[flow.Mutation, ...]
    writes: tuple[flow.WriteGroup, ...]
    emits: tuple[outputs.Emit, ...]
    results: tuple[outputs.Result, ...]
    captures: tuple[outputs.Capture, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Program:
    entries: tuple[Entry, ...]
    modules: tuple[program.Module, ...]
    jsons: dict[str, JsonDoc]
    docs: dict[str, MarkdownDoc]
    gaps: tuple[Gap, ...]
    vocab: dict
    servers: tuple[server.ServerDecl, ...]
    handlers: tuple[server.Handler, ...]
    tools: tuple[server.ToolDecl, ...]
    dispatches: tuple[server.Dispatch, ...]
    fallbacks: tuple[server.Fallback, ...]
    launches: tuple[server.Launch, ...]
    containers: tuple[state.Container, ...]
    flows: tuple[FunctionFlow, ...]
    linker: "linker.Linker | None" = None
    unread: tuple = ()  # (module, node) of tool names in a dispatch that are not readable literals
    registrations: tuple[highlevel.Registration, ...] = ()  # high-level registrations: tools, resources, prompts
    unrun: frozenset[int] = frozenset()  # ids of registration calls in code that never runs (a flag's, a dependency's)
    skipped: dict[str, str] = field(default_factory=dict)  # path -> why its text was not analysed (too deep, too slow)
    listings: tuple[listing.Listing, ...] = ()  # per tools/list handler: the object literals its result lists
    unadvertised: tuple[server.ToolDecl, ...] = ()  # descriptor-shaped objects that no tools/list result holds
    unserved: tuple[server.ToolDecl, ...] = ()  # registered in a function nothing names (extract/served.py); binding: it
    build: "tsconfig.BuildMap | None" = None  # build output -> the file analysed in its place
    method: dict = field(default_factory=dict)  # kb/method.yaml: entry points and auxiliary files (analyse/coverage.py)
    settings: tuple[state.Container, ...] = ()  # configuration fields: set once in a constructor, then only read
    frameworks_read: frozenset[str] = frozenset()  # modules whose framework servers (kb/sdk.yaml framework_servers) were read whole
    loaded: frozenset[str] = frozenset()  # modules a framework loads from disk at start (kb/sdk.yaml framework_tool_classes)
    # Folders of packages shipped inside the target that its server does not run (`examples/*/package.json` of a
    # package whose own entries reach its server, none importing them): other programs, not the server's manifests.
    others: frozenset[str] = frozenset()

    def entry(self, path: str) -> Entry | None:
        return next((e for e in self.entries if e.file.path == path), None)

    def manifests(self) -> list[JsonDoc]:
        return [self.jsons[e.file.path] for e in self.entries if sources.manifest(e) and e.file.path in self.jsons
                and posixpath.dirname(e.file.path) not in self.others]


def entry_modules(p: "Program") -> list[str]:
    """Entry files: what each package.json names (bin, main, exports, module, the files its scripts run; in the order of
    kb/method.yaml entry_points), resolved like an import from the package folder, so build output maps back to its
    source (tsconfig outDir/rootDir, compiled_output), with the scripts an entry of a package whose entries run no
    server starts Node on (extract/spawned.py); and the files that launch a server, but a dependency's (code
    under node_modules/, read with the target: its own server is not the target's, and it is reached where the
    target's code imports it)."""
    rows = _named_rows(p)
    named = {base: [path for _, path in r] for base, r in rows.items()}
    launching = _launching(p, named)
    for base, paths in list(named.items()) if p.linker is not None else ():
        if base not in launching:  # (a launcher of a package whose entries run no server: the script it starts Node on)
            paths += _started(p, base, paths)
        aside = _scripts_only(p, base, rows[base])
        named[base] = [path for path in paths if path not in aside]
    out = list(dict.fromkeys(path for paths in named.values() for path in paths))
    out += [l.module.path for l in p.launches if l.module.path not in out and not dependency(l.module.path)
            and _package_of(l.module.path, named) not in launching]
    return out


def dependency(path: str) -> bool:
    """Whether PATH is a dependency's file, read with the target (under a node_modules/ folder)."""
    return path.startswith(DEPENDENCIES) or f"/{DEPENDENCIES}" in path


def _named_entries(p: "Program") -> dict[str, list[str]]:
    """Package folder -> the modules its package.json names as entries (kb/method.yaml entry_points), in order."""
    return {base: [path for _, path in rows] for base, rows in _named_rows(p).items()}


def _named_rows(p: "Program") -> dict[str, list[tuple[str, str]]]:
    """Package folder -> (how, module) of each entry its package.json names, in order (`bin x`, `main`, `script y`)."""
    named: dict[str, list[tuple[str, str]]] = {}
    development = (p.method.get("entry_points") or {}).get("development_scripts", [])
    for doc in p.manifests():
        base = posixpath.dirname(doc.path)
        for how, t in entrypoints.targets(doc.value, development)[0]:
            path = module_for(p, base, t)
            if path is not None:
                named.setdefault(base, []).append((how, path))
    return named


def _scripts_only(p: "Program", base: str, rows: list[tuple[str, str]]) -> set[str]:
    """The entries of package BASE only its scripts run that start a server of their own, none of whose server code
    what the package publishes (bin, main, exports, module, and the scripts those start Node on) reaches: another
    program (a proof of concept run by `npm run mcp:poc` in a checkout). A script that starts the published server
    another way (`start:http`, the same server over HTTP) stays an entry."""
    published = [path for how, path in rows if not how.startswith("script ")]
    published += _started(p, base, published)
    scripts = {path for how, path in rows if how.startswith("script ")} - set(published)
    if not published or not scripts:
        return set()
    sites = {l.module.path for l in p.launches} | {s.module.path for s in p.servers if not dependency(s.module.path)}
    served = sites & reached_modules(p, published)
    if not served:
        return set()
    return {path for path in scripts if (own := sites & reached_modules(p, [path])) and not own & served}


def _started(p: "Program", base: str, paths: list[str]) -> list[str]:
    """The modules of package BASE that the entries PATHS start Node on (extract/spawned.py), not among PATHS."""
    out: list[str] = []
    for path in paths:
        module = p.linker.by_path.get(path)
        if module is not None and spawned.runs_node(module):
            out += [found for rel in spawned.scripts(module, base)
                    if (found := module_for(p, base, rel)) is not None and found not in paths and found not in out]
    return out


def _launching(p: "Program", named: dict[str, list[str]]) -> set[str]:
    """Package folders whose manifest entries launch a server themselves (a launch in what they import): a launch file
    of such a package that they do not reach (an old copy, an example) is not the server's entry. A package whose
    entries launch nothing (a CLI that spawns `node dist/server.js`) keeps its launch files as entries."""
    sites = {l.module.path for l in p.launches}
    return {base for base, paths in named.items() if sites & reached_modules(p, paths)} if sites else set()


def _package_of(path: str, named: dict[str, list[str]]) -> str | None:
    """The folder of the innermost package with manifest entries that holds PATH."""
    bases = [b for b in named if not b or path.startswith(b + "/")]
    return max(bases, key=len) if bases else None


def module_for(p: "Program", base: str, target: str) -> str | None:
    """The module a manifest path names, as `import "./target"` from the package folder finds it."""
    if p.linker is None:
        return None
    return p.linker.resolve_spec(posixpath.join(base, "package.json"), "./" + target)


def reached_modules(p: "Program", entries: list[str]) -> set[str]:
    """The modules the entries import, directly or not (dynamic imports included), and, when the entries reach a
    server, what the framework loads from disk at start (`Program.loaded`) and what that imports."""
    if p.linker is None:
        return set(entries)
    reached = p.linker.closure(entries, dynamic=True)
    if p.loaded and entries and any(s.module.path in reached for s in p.servers):
        reached |= p.linker.closure(sorted(p.loaded), dynamic=True)
    return reached


def _reached_tools(p: "Program") -> "Program":
    """Tools (and their dispatches, and tools/list handlers) are those of code an entry reaches: a registration in a
    module no entry imports is not the server's (the coverage ledger names the module, with the registration, as a
    gap). Only when the entries are known and reach some tool: otherwise nothing is set aside (an unreadable entry
    must not hide every tool)."""
    p = replace(p, others=_other_packages(p))
    entries = entry_modules(p)
    reached = reached_modules(p, entries) if entries else set()
    if not any(t.module.path in reached for t in p.tools):
        return p
    listed_by = lambda ls: {o for l in ls for o in l.objects | l.copied | l.made}  # noqa: E731
    unreached_only = listed_by(l for l in p.listings if l.module.path not in reached) \
        - listed_by(l for l in p.listings if l.module.path in reached)  # (objects only an unreached handler lists:
    # `getServer()` of a dependency's own bin, the target importing only its library)
    kept = tuple(t for t in p.tools if t.module.path in reached and t.node not in unreached_only)
    names = {t.name for t in kept}
    dropped = {t.name for t in p.tools} - names
    served_by = {d.tool for d in p.dispatches if d.module.path in reached}  # a dispatch of unreached code serves a
    dispatches = tuple(d for d in p.dispatches  # kept tool only when no reached dispatch does (an old copy's does not)
                       if d.module.path in reached or (d.tool not in dropped and d.tool not in served_by))
    listings = tuple(l for l in p.listings if l.module.path in reached)  # a tools/list handler no entry registers
    return served.unserved(replace(p, tools=kept, dispatches=dispatches, listings=listings), reached, entries)


def _other_packages(p: "Program") -> frozenset[str]:
    """The folders of the packages nested in the target's own (the outermost manifest's folder) that are other
    programs: when the outer package's entries reach a server, a nested package none of whose modules that code
    reaches is shipped beside it (an example, a template, a fixture), not run by it; its manifest names no entry of
    the server and declares none of its dependencies. A nested package the outer code imports (a workspace package)
    stays the server's."""
    bases = sorted({posixpath.dirname(doc.path) for doc in p.manifests()}, key=len)
    if len(bases) < 2:
        return frozenset()
    root = bases[0]
    nested = [b for b in bases[1:] if not root or b.startswith(root + "/")]
    entries = _named_entries(p).get(root, [])
    reached = reached_modules(p, entries) if entries else set()
    serves = {s.module.path for s in p.servers} | {t.module.path for t in p.tools} \
        | {h.home.path for h in p.handlers} | {r.module.path for r in p.registrations}
    if not reached & serves:
        return frozenset()  # (the outer package is a wrapper, or its entries are not read: nothing is set aside)
    return frozenset(b for b in nested if not any(path.startswith(b + "/") for path in reached))


def reads(e: Entry) -> bool:
    """Whether the audit reads this file's text: code and JSON (parsed) and Markdown (claims)."""
    return e.lang is not None or e.file.path.lower().endswith((".md", ".markdown"))


def build(entries: tuple[Entry, ...], subtree: str, vocab: dict, method: Mapping | None = None,
          excluded: Mapping[str, tuple[str, str]] | None = None) -> Program:
    """EXCLUDED: files not to analyse, with the kind of their gap and the reason (those over the time budget or
    that met an internal error in an earlier attempt)."""
    modules, jsons, docs, gaps = [], {}, {}, []
    max_depth = (method or {}).get("max_nesting_depth", limits.MAX_DEPTH)
    max_nodes = (method or {}).get("max_syntax_nodes", limits.MAX_NODES)
    entries = _outputs_for_unparsed(entries, subtree, excluded or {})
    skipped: dict[str, str] = {}
    blanked: dict[str, Entry] = {}  # path -> its entry read again with its bundled packages blanked (over max_syntax_nodes)
    tested: list[program.Module] = []  # modules of the test layer (kb/method.yaml layers), by their path
    for e in entries:
        path = e.file.path
        if e.text is None:
            if reads(e):  # an image or an archive is registered, and nothing would have read it
                gaps.append(Gap(kind=("missing" if e.file.missing else "size") if e.omitted else "encoding",
                                detail=f"not read: {e.omitted}" if e.omitted else "not valid UTF-8; not analysed",
                                anchor=Anchor(path=path, start_line=1, end_line=1)))
            continue
        if e.replaced and reads(e):
            gaps.append(encoding_gap(e))
        lang = e.lang
        refused = _refused(e, lang, max_depth, excluded or {})
        if refused is not None:
            gaps.append(refused)
            skipped[path] = refused.detail.removeprefix("not analysed: ")
            continue
        if lang == "json":
            jsons[path] = read_json(path, e.code())
            if sources.manifest(e):
                jsons[path], bad = _checked_manifest(jsons[path])
                gaps += bad
            if jsons[path].problem is not None:  # lone surrogates, replaced
                gaps.append(Gap(kind="encoding", detail=jsons[path].problem, anchor=Anchor(path=path, start_line=1, end_line=1)))
        elif lang is not None and e.layer in {"implementation", "test"} and not e.context and not e.compiled_from \
                and not e.built_to:
            name = program.module_name(path, subtree)
            tree = cache.tree(e.file.blob, path, name, lang, e.code())
            e, tree, refusal = _bundle(e, tree, name, lang, max_nodes)
            if e.blanked:  # read as the analyses read it; as before, when it is not analysed after all
                blanked[path] = e if refusal is None else sources.unblanked(e, (method or {}).get("max_file_bytes", 0))
            if refusal is not None:
                skipped[path] = refusal
                gaps.append(Gap(kind="size", detail=f"not analysed: {refusal}", anchor=Anchor(path=path, start_line=1, end_line=1)))
                continue
            for start, end, what in parse.error_regions(tree):
                gaps.append(Gap(kind="parse", detail=f"{what}: region not analysed",
                                anchor=Anchor(path=path, start_line=start, end_line=end)))
            nodes = tree.root_node.descendant_count
            if nodes > max_nodes:  # bound the analyses' memory, linear in the nodes they lay out
                skipped[path] = f"{nodes:,} syntax nodes, over the limit of {max_nodes:,} (kb/method.yaml max_syntax_nodes)" \
                    + (" with the regions of its bundled packages blanked" if e.blanked else "")
                gaps.append(Gap(kind="size", detail=f"not analysed: {skipped[path]}", anchor=Anchor(path=path, start_line=1, end_line=1)))
                continue
            deep = syntax.depth(tree.root_node, max_depth)
            if deep > max_depth:  # bound what the analyses meet: their cost and memory grow with the nesting
                syntax.drop(tree.root_node)
                skipped[path] = limits.over(deep, max_depth, "syntax tree")
                gaps.append(Gap(kind="depth", detail=f"not analysed: {skipped[path]}", anchor=Anchor(path=path, start_line=1, end_line=1)))
                continue
            if e.blanked:
                gaps.append(_blanked_gap(e))
            (modules if e.layer == "implementation" else tested).append(cache.module(e.file.blob, path, name, lang, tree))
        elif path.lower().endswith((".md", ".markdown")):
            docs[path] = read_markdown(path, e.text)
    entries = tuple(blanked.get(e.file.path, e) for e in entries) if blanked else entries
    servers, handlers, tools, dispatches, fallbacks, launches, containers, flows = [], [], [], [], [], [], [], []
    registrations, settings = [], []
    build_map = tsconfig.build_map(entries, method)
    # A module an entry imports is implementation whatever its path: the test layer is for what no entry reaches.
    shipped = _imported_tests(modules, tested, jsons, entries, build_map, method)
    if shipped:
        modules += [m for m in tested if m.path in shipped]
        entries = sources.promoted(entries, shipped)
    modules += _json_modules(modules, jsons, entries, subtree, max_nodes, max_depth)
    # A bundled library's helper the server calls to register its tools is read as the server's own code.
    modules = [program.adopt(m, frozenset(vocab["high_level"]["registrations"])) for m in modules]
    # A copy of the SDK's server class that a minified bundle inlines without markers: that class, and not own code.
    modules = [inlined.mark(m, vocab) for m in modules]
    link = linker.Linker(modules, build_map)
    unread: list[tuple[program.Module, ts.Node]] = []
    roots: list[tuple[program.Module, ts.Node]] = []

    def owned(fn: ts.Node, default: program.Module) -> tuple[program.Module, ts.Node]:
        return (link.module_of(fn) or default), fn

    for m in modules:
        s = server.servers(m, vocab, link)
        servers += s
        hs = server.handlers(m, vocab, link)
        handlers += hs
        tools += server.tools(m, vocab, link)
        launches += server.launches(m, s, vocab)
        containers += state.containers(m, vocab)
        settings += state.settings(m, vocab)
    if not servers:  # a library's server class, constructed by whoever imports it: its `super(...)` makes the server
        servers += [server.defined(m, name, cls, args, amod, link) for m, name, cls, args, amod
                    in subclasses.defined(modules, vocab, link)]
    if not any(not dependency(s.module.path) for s in servers) \
            and not any(h.method in {"tools/list", "tools/call"} and not dependency(h.module.path) for h in handlers):
        # No SDK server of its own (a dependency's is not the target's): a program answering the protocol's requests
        # itself (extract/protocol.py); in the target's code when a dependency has its SDK server
        for m in (m for m in modules if not (servers and dependency(m.path))):
            hs = protocol.handlers(m, vocab, link)
            handlers += hs
            servers += [s for s in [protocol.server(m, hs, link)] if s is not None]
    for m in modules:
        resolve = link.resolver(m)
        for h in (h for h in handlers if h.module is m):
            if h.fn is not None:
                roots.append(owned(h.fn, h.home))
            if h.method == "tools/call":
                there = resolve if h.home is m else link.resolver(h.home)
                unread += dispatch.unread_names(h, there, link)
                ds, fs = dispatch.dispatches(h, there, link)
                dispatches += ds
                fallbacks += fs
                roots += [owned(d.target, m) for d in ds if d.target is not None]
                # A tool implemented inline in the function that dispatches it (a switch case of a function the
                # handler calls through a list: `for (const mod of MODULES) mod.handle(name)`) is traced there.
                roots += [(d.module, fn) for d in ds if d.target is None
                          and (fn := syntax.enclosing_function(d.node)) is not None]
        # Launch functions are roots too: state loaded or written at startup is traced like tool code.
        roots += [(m, l.fn) for l in launches if l.module is m and l.fn is not None]
        hl_tools, hl_dispatches, hl_registrations = highlevel.registrations(m, vocab, resolve, link)
        registrations += hl_registrations
        tools += hl_tools
        dispatches += hl_dispatches
        roots += [owned(d.target, m) for d in hl_dispatches if d.target is not None]
        roots += [owned(fn, fm) for d in hl_dispatches for fm, fn in d.handed]
    # Registrations whose name comes from a parameter or a loop: one per call site or element that names the tool.
    expander, kept = summaries.Expander(modules, link, vocab), []
    interpreter = None  # (extract/interpret.py, made for the first registration it reads)
    direct = {(t.module.path, t.node.id, t.name) for t in tools}  # (an interceptor of the server's method reads each
    for r in registrations:                                         # direct registration again: one tool still)
        made = expander.expand(r, link.resolver) if r.name is None else []
        if made is None:
            continue  # written in a function nothing calls (extract/dead.py): it registers nothing
        if not made and r.name is None and r.node is not None and highlevel.hands_on_all(r.node, r.method):
            continue  # a wrapper over the method no later registration goes through registers nothing
        if r.name is None and not any(t is not None for t, _, _, _ in made):  # a name computed from shipped data
            if interpreter is None:
                interpreter = interpret.Interpreter(link, expander.calls_of,
                                                    {e.file.path: e.text for e in entries if e.text is not None},
                                                    frozenset(e.file.path for e in entries))
            made = generated.registered(r, interpreter, vocab, link, frozenset(t.name for t in tools)) or made
        kept += [reg for _, _, reg, _ in made] or [r]
        for t in (t for t, _, _, _ in made if t is not None and (t.module.path, t.node.id, t.name) not in direct):
            direct.add((t.module.path, t.node.id, t.name))  # (two wrappers' expansions reaching one call: one tool)
            tools.append(t)
        for _, d, _, handed in made:
            if d is not None:
                dispatches.append(d)
                roots += [owned(d.target, d.module)] if d.target is not None else []
                roots += [owned(fn, fm) for fm, fn in d.handed]
            roots += list(handed)
    registrations = kept
    # Servers of other frameworks whose records name the tools (kb/sdk.yaml framework_servers).
    fw = frameworks.framework_servers(modules, vocab, link)
    classed = toolclasses.tool_classes(modules, vocab)  # (kb/sdk.yaml framework_tool_classes)
    fw = frameworks.Read(servers=fw.servers + classed.servers, tools=fw.tools + classed.tools,
                         dispatches=fw.dispatches + classed.dispatches,
                         registrations=fw.registrations + classed.registrations,
                         read_whole=fw.read_whole | classed.read_whole)
    servers += fw.servers
    tools += fw.tools
    registrations += fw.registrations
    dispatches += fw.dispatches
    roots += [owned(d.target, d.module) for d in fw.dispatches if d.target is not None]
    # Descriptor literals whose name is a parameter of their function: one tool per call of it that names one.
    instantiated: set[ts.Node] = set()  # those literals, when some call names a tool
    made_for: dict[int, frozenset[ts.Node]] = {}  # each tool made so (by id) -> the elements and calls it is made for
    templates: dict[int, ts.Node] = {}  # each tool made so (by id) -> the descriptor literal it is made from
    for m in modules:
        for pair, name_node in server.templates(m, link):
            made, gap, found, sites = expander.descriptors(m, pair, name_node)
            tools += made
            gaps += [gap] if gap is not None else []
            instantiated |= {pair.parent} if found else set()
            instantiated |= frozenset().union(*sites) if sites else frozenset()  # (the instances it names: read)
            made_for.update((id(t), s) for t, s in zip(made, sites))
            templates.update((id(t), pair.parent) for t in made)
    # Tools installed into a registry at run time and looked up by name in a tools/call handler (extract/registry.py).
    for h in (h for h in handlers if h.method == "tools/call" and h.fn is not None):
        known = {d.tool for d in dispatches if d.handler is h}
        fns = [(f, fm, handed) for f, fm, _, handed in dispatch._dispatching(h, link.resolver(h.home), link)]
        found, missed = registry.dispatches(h, fns, expander.calls_of, link, dispatch._name_subject,
                                            reach.Reach(link, expander.calls_of, modules), expander.frames)
        unread += missed
        for d in found:
            if d.tool not in known:
                dispatches.append(d)
                roots += [owned(d.target, d.module), *d.handed]
    # A registration under a branch a compile-time flag never takes registers nothing (extract/flags.py).
    # Nor does one in a dependency's code the program never runs (extract/dead.py): another program's server.
    off = {x.node.id for x in (*tools, *dispatches, *registrations)
           if x.node is not None and (flags.switched_off(x.node, x.module, link)
                                      or dead.unrun_in_dependency(x.node, x.module, link, expander.calls_of))}
    tools = [t for t in tools if t.node.id not in off]
    dispatches = [d for d in dispatches if d.node is None or d.node.id not in off]
    unrun = frozenset(r.node.id for r in registrations if r.node is not None and r.node.id in off)
    registrations = [r for r in registrations if r.node is None or r.node.id not in off]
    # A descriptor-shaped object is a tool only when it reaches a tools/list handler's result (when that is read).
    follow = reach.Reach(link, expander.calls_of, modules, frozenset(vocab.get("handler_tables", ())),
                         frozenset(k for k, r in vocab["high_level"]["registrations"].items() if r["kind"] == "tool"))
    listings = [listing.listing(follow, h.home, h.node, h.fn, h.branch) for h in handlers if h.method == "tools/list"]
    listings = [listing.unnamed(l, {t.node for t in tools} | instantiated, link, frozenset(t.name for t in tools))
                for l in listings]
    declared = {t.node for t in tools} | instantiated  # (an object a template made a tool of is that tool)
    for l in listings:  # tool objects a copy in the list names (`{name: t.name, ...}` over `{name, run, ...}`)
        made = [t for t in listing.named(l, declared, link)  # (but one a dependency's code that never runs makes)
                if not dead.unrun_in_dependency(t.node, t.module, link, expander.calls_of)]
        tools += made
        declared |= {t.node for t in made}
    for i, l in enumerate(listings):  # tools the evaluation of the list names that no descriptor read names
        made = listing.evaluated(l, frozenset(t.name for t in tools), link)  # (assembled from data)
        tools += made
        declared |= {t.node for t in made}
        listings[i] = replace(l, made=frozenset(t.node for t in made))
    registered = frozenset(r.name for r in registrations if r.kind == "tool") | {d.tool for d in dispatches} \
        if any(r.kind == "tool" for r in registrations) and all(r.name is not None for r in registrations
                                                               if r.kind == "tool") else None  # (the SDK lists them)
    tools, unadvertised = listing.split(
        tools, listings, made_for, templates, registered,
        named=frozenset(r.name for r in registrations if r.kind == "tool" and r.name is not None),
        refused=frozenset(expander.values.refused) | listing.unregistrable(tools, registrations, templates))
    # A tools/call handler that finds its tool among the listed tool objects by name (`TOOLS.find(...)`).
    named = {d.tool for d in dispatches}
    for h in (h for h in handlers if h.method == "tools/call"):
        ds, fs = dispatch.lookups(h, list(tools), link.resolver(h.home), link)
        new = [d for d in ds if d.tool not in named]  # a registry (extract/registry.py) may have found them
        dispatches += new
        fallbacks += fs if ds and not any(f.handler is h for f in fallbacks) else []
        roots += [owned(d.target, h.home) for d in new]
        done = {d.tool for d in dispatches}
        ds, fs = dispatch.methods(h, [t for t in tools if t.form == "descriptor" and t.name not in done],
                                  link.resolver(h.home), link)  # `this[name](args)`: the class's method of that name
        dispatches += ds
        fallbacks += fs if ds and not any(f.handler is h for f in fallbacks) else []
        roots += [owned(d.target, d.module) for d in ds]
        done = {d.tool for d in dispatches}
        waiting = any(t.form == "descriptor" and t.name not in done for t in tools)
        # (not when the handler's own function dispatches by name and refuses what it does not name: `switch (name)
        # { ... default: throw }` after the lookup runs no one code for every tool, and a tool no case names is
        # refused there; a delegate's switch of some tools, `if (t.custom) runCustom(t)`, leaves the rest generic)
        refusing = any(d.handler is h and d.form in {"switch-case", "name-equality"} for d in dispatches) \
            and any(f.handler is h and f.form in {"throw", "error-result"}
                    and syntax.enclosing_function(f.node) == h.fn for f in fallbacks)
        found = dispatch.generic(h, link.resolver(h.home), link) if waiting and not refusing else None
        if found is not None:                                                          # found by name
            fn, fmod, refusal = found
            dispatches += [server.Dispatch(module=fmod, handler=h, tool=t.name, node=refusal,
                                           subject=syntax.text(refusal), target=fn, target_name=fmod.qualified(fn),
                                           form="lookup")
                           for t in tools if t.form == "descriptor" and t.name not in done]
            if not any(f.handler is h for f in fallbacks):
                fallbacks.append(server.Fallback(handler=h, node=refusal.child_by_field_name("consequence"),
                                                 form="throw", module=fmod))
        done = {d.tool for d in dispatches}
        for f in (f for f in fallbacks if f.handler is h):  # `default: return callTool(name, args)`: the rest
            on = dispatch.forwarded(f, link) if any(t.form == "descriptor" and t.name not in done for t in tools) else None
            if on is not None:
                fn, fmod, call = on
                new = [server.Dispatch(module=f.module or h.home, handler=h, tool=t.name, node=call,
                                       subject=syntax.text(call), target=fn, target_name=fmod.qualified(fn),
                                       form="forwarded") for t in tools if t.form == "descriptor" and t.name not in done]
                dispatches += new
                roots += [owned(fn, fmod)] if new else []
                break
    branches = frozenset(d.node.id for d in dispatches if d.form == "name-equality")
    for m, fn in link.reachable(roots):
        flows.append(_trace(m, fn, containers, vocab, link, branches))
    gaps += [g for x in (*tools, *registrations) for g in x.gaps]  # unreadable schemas, names, callbacks
    gaps = list(dict.fromkeys(gaps))  # one per (kind, detail, anchor): a helper read at several call sites says it once
    return _reached_tools(Program(
        build=build_map, method=dict(method or {}), entries=entries, modules=tuple(modules), jsons=jsons, docs=docs,
        gaps=tuple(gaps), vocab=vocab, servers=tuple(servers), handlers=tuple(handlers), tools=tuple(tools),
        dispatches=tuple(dispatches), fallbacks=tuple(fallbacks), launches=tuple(launches), containers=tuple(containers),
        flows=tuple(flows), linker=link, unread=tuple(unread), registrations=tuple(registrations), unrun=unrun, skipped=skipped,
        listings=tuple(listings), unadvertised=tuple(unadvertised), settings=tuple(settings),
        frameworks_read=fw.read_whole, loaded=frozenset(t.module.path for t in classed.tools)))


def _json_modules(modules: list, jsons: dict, entries, subtree: str, max_nodes: int, max_depth: int) -> list:
    """The JSON files of the boundary the code loads by a relative path (`require("./tools.json")`, `import tools
    from "./tools.json" with { type: "json" }`), each read as a module whose default export is its value (the text
    after `export default `, on the file's own lines): data the code reads, as its values are. One over the limits of
    code (kb/method.yaml max_syntax_nodes, max_nesting_depth) stays data only: what the code reads of it is not read."""
    data = {e.file.path: e.file.data for e in entries if e.file.path in jsons and jsons[e.file.path].value is not None}
    wanted = sorted({posixpath.normpath(posixpath.join(posixpath.dirname(m.path), src)) for m in modules
                     for src, _ in m.imports if src.startswith(".") and src.endswith(".json")} & set(data))
    out = []
    for path in wanted:
        code = b"export default " + data[path].removeprefix(b"\xef\xbb\xbf")
        name = program.module_name(path, subtree) + ".json"  # (not the name of a code module beside it: tools.js)
        tree = cache.tree(f"json:{path}", path, name, "javascript", code)
        if tree.root_node.descendant_count <= max_nodes and syntax.depth(tree.root_node, max_depth) <= max_depth:
            out.append(cache.module(f"json:{path}", path, name, "javascript", tree))
    return out


def _imported_tests(modules: list, tested: list, jsons: dict, entries: tuple[Entry, ...], build_map, method) -> set[str]:
    """Paths of the test-layer modules that the package's entry files (kb/method.yaml entry_points) import, directly
    or not; with no entry file named, those the implementation modules import."""
    if not tested:
        return set()
    link = linker.Linker(modules + tested, build_map)
    development = (method or {}).get("entry_points", {}).get("development_scripts", [])
    roots = []
    for e in entries:
        doc = jsons.get(e.file.path)
        if not sources.manifest(e) or doc is None:
            continue
        for _, t in entrypoints.targets(doc.value, development)[0]:
            found = link.resolve_spec(e.file.path, "./" + t)
            roots += [found] if found is not None else []
    roots = roots or [m.path for m in modules]
    reached = link.closure(roots, dynamic=True)
    return {m.path for m in tested if m.path in reached}


def _outputs_for_unparsed(entries: tuple[Entry, ...], subtree: str, excluded: Mapping[str, tuple[str, str]]
                          ) -> tuple[Entry, ...]:
    """ENTRIES, each TypeScript source that the grammar does not parse whole (a syntax newer than it: `sql<T[]>`...``)
    exchanged for its build output shipped beside it when that parses whole: the output is analysed in its place
    (the code that runs), and the source is read only (`built_to`)."""
    by_rel = {e.rel: e for e in entries if not e.context}
    swap: dict[str, str] = {}  # source rel -> output rel
    for e in entries:
        src = by_rel.get(e.compiled_from) if e.compiled_from and not e.context else None
        if src is None or src.text is None or src.lang not in {"typescript", "tsx"} or e.text is None \
                or e.lang is None or src.file.path in excluded or e.file.path in excluded \
                or src.layer not in {"implementation", "test"} or src.rel in swap:
            continue
        if not _parse_errors(src, subtree) or _parse_errors(e, subtree):
            continue
        swap[src.rel] = e.rel
    if not swap:
        return entries
    outputs = set(swap.values())
    return tuple(replace(e, built_to=swap[e.rel]) if not e.context and e.rel in swap else
                 replace(e, compiled_from=None) if not e.context and e.rel in outputs else e for e in entries)


def _parse_errors(e: Entry, subtree: str) -> bool:
    """Whether E's code, parsed as the audit parses it (the same cache key), has a region the grammar does not parse."""
    path = e.file.path
    tree = cache.tree(e.file.blob, path, program.module_name(path, subtree), e.lang, e.code())
    return tree.root_node.has_error


def _refused(e: Entry, lang: str | None, max_depth: int, excluded: Mapping[str, tuple[str, str]]) -> Gap | None:
    """The gap of a file read but not to be analysed: over the time budget or stopped by an internal error in an
    earlier attempt, or nested deeper
    than the limit (its brackets counted before anything is parsed: a parse of deep nesting costs much memory)."""
    path = e.file.path
    if path in excluded:
        kind, why = excluded[path]
        return Gap(kind=kind, detail=f"not analysed: {why}", anchor=Anchor(path=path, start_line=1, end_line=1))
    if lang is None or (lang != "json" and (e.context or e.compiled_from or e.built_to
                                            or e.layer not in {"implementation", "test"})):
        return None
    deep = limits.json_depth(e.file.data) if lang == "json" else limits.bracket_depth(e.code())
    if deep > max_depth and lang != "json":  # (an upper bound: brackets of strings and regular expressions counted)
        deep = limits.code_depth(e.code())
    if deep <= max_depth:
        return None
    return Gap(kind="depth", detail=f"not analysed: {limits.over(deep, max_depth, 'JSON' if lang == 'json' else 'brackets')}",
               anchor=Anchor(path=path, start_line=1, end_line=1))


def _blanked_gap(e: Entry) -> Gap:
    """The regions of bundled packages blanked in E: not parsed (outside the boundary; kb/method.yaml detail_gaps)."""
    lines: dict[str, int] = {}
    for first, last, package in e.blanked:
        lines[package] = lines.get(package, 0) + last - first + 1
    names = sorted(lines, key=lambda p: (-lines[p], p))
    return Gap(kind="bundled", detail=f"{e.blanked_why}: the code of its {len(names)} bundled package(s) ("
               + ", ".join(names) + f"; {len(e.blanked):,} regions, {sum(lines.values()):,} lines) blanked before "
               "parsing, not read; its own code analysed",
               anchor=Anchor(path=e.file.path, start_line=e.blanked[0][0], end_line=e.blanked[-1][1]))


def _bundle(e: Entry, tree: ts.Tree, name: str, lang: str, max_nodes: int) -> tuple[Entry, ts.Tree, str | None]:
    """(entry, tree, why it is not analysed or None) of E parsed as TREE: a bundle over max_syntax_nodes read again
    with its packages' regions blanked (extract/bundled.py); a blanked one whose markers do not hold read again with
    those regions blanked whole (no statement of theirs kept), or refused."""
    path = e.file.path
    nodes = tree.root_node.descendant_count
    if nodes > max_nodes and not e.blanked:  # its own code may fit
        over = f"{nodes:,} syntax nodes, over the limit of {max_nodes:,} (kb/method.yaml max_syntax_nodes)"
        smaller = sources.without_bundled(e, len(e.file.data), over)
        if not smaller.blanked:
            return e, tree, None
        e, tree = smaller, cache.tree(e.file.blob, path, name, lang, smaller.code())
    if not e.blanked or _markers_hold(e, tree):
        return e, tree, None
    whole = sources.without_bundled(e, len(e.file.data), e.blanked_why, keep=False)
    if whole.blanked_code != e.blanked_code:
        e, tree = whole, cache.tree(e.file.blob, path, name, lang, whole.code())
        if _markers_hold(e, tree):
            return e, tree, None
    return e, tree, f"{e.blanked_why}; the lines marking its bundled packages are not all top-level comments beside " \
        "code that parses"


def _markers_hold(e: Entry, tree: ts.Tree) -> bool:
    """Whether each line that marked a region blanked in E (extract/bundled.py, read as lines) is a top-level comment
    of its syntax tree, as the bundler writes them (program._vendored): not a line of a string or a comment."""
    marks = {start for _, _, start, _, _ in program._vendored(tree)}
    if not all(first - 1 in marks for first, _, _ in e.blanked):
        return False
    # A syntax error next to a blanked region (or in it): the blanking may have cut a string or a comment that held
    # a marker-like line, so the regions are not known to be the bundler's.
    firsts = [first - 1 for first, _, _ in e.blanked]
    for start, end, _ in parse.error_regions(tree):
        i = bisect_right(firsts, end + 1) - 1
        if i >= 0 and e.blanked[i][1] + 1 >= start - 1:
            return False
    return True


def encoding_gap(e: Entry) -> Gap:
    """Bytes of a file that are not UTF-8: read as U+FFFD and analysed with them, so what they held is unseen."""
    shown = ", ".join(map(str, e.replaced[:5])) + (f" and {len(e.replaced) - 5} more" if len(e.replaced) > 5 else "")
    return Gap(kind="encoding", detail=f"not valid UTF-8 on line(s) {shown}: those bytes read as U+FFFD; the rest analysed",
               anchor=Anchor(path=e.file.path, start_line=e.replaced[0], end_line=e.replaced[-1]))


# package.json fields the extractors read, with the JSON type npm gives them; a field of another
# type is dropped (a coverage gap) so that no extractor meets a shape it does not expect.
_MANIFEST_FIELDS = {"name": str, "version": str, "description": str, "main": str, "bin": (str, dict),
                    "files": list, "scripts": dict, "dependencies": dict}


def _checked_manifest(doc: JsonDoc) -> tuple[JsonDoc, list[Gap]]:
    whole = Anchor(path=doc.path, start_line=1, end_line=max(doc.total_lines, 1))
    if not isinstance(doc.value, dict):
        what = "not valid JSON" if doc.value is None else "not a JSON object"
        return replace(doc, value={}), [Gap(kind="parse", detail=f"{what}: package manifest not analysed", anchor=whole)]
    value, gaps = dict(doc.value), []
    for key, kind in _MANIFEST_FIELDS.items():
        v = value.get(key)
        items = v.values() if isinstance(v, dict) else v if isinstance(v, list) else ()
        if v is not None and (not isinstance(v, kind) or not all(isinstance(x, str) for x in items)):
            del value[key]
            start, end = doc.keys.get(key, (1, 1))
            gaps.append(Gap(kind="manifest", detail=f"package.json field {key!r} has an unexpected type; not analysed",
                            anchor=Anchor(path=doc.path, start_line=start, end_line=end)))
    return replace(doc, value=value), gaps


def _trace(m: program.Module, fn: ts.Node, containers: list[state.Container], vocab: dict, link,
           branches: frozenset[int] = frozenset()) -> FunctionFlow:
    name = m.qualified(fn)
    resolve = link.resolver(m)
    gates = []
    for n in flow.find(fn, {"call_expression"}):
        if flow.enclosing_function(n) == fn:
            hit = resolve(n)
            if hit is not None and flow.is_validator(hit[0]):
                gates.append(flow.gate(link.module_of(hit[0]) or m, hit[0], n, name))
    emits = [replace(e, renderer_path=(link.module_of(e.renderer_node) or m).path) if e.renderer_node is not None else e
             for e in outputs.emits(m, fn, vocab, resolve, branches)]
    return FunctionFlow(module=m, fn=fn, name=name, gates=tuple(gates),
                        mutations=tuple(flow.mutations(m, fn, branches)),
                        writes=tuple(flow.write_groups(m, fn, containers, branches)),
                        emits=tuple(emits), results=tuple(outputs.results(m, fn, containers)),
                        captures=tuple(outputs.captures(m, fn, containers, vocab)))
