"""Routes: each path a request or the process takes, with its trigger, endpoints and anchors."""

from __future__ import annotations

import re
import shlex

from auditor.extract import inputs, settings
from auditor.extract.facts import Program
from auditor.extract.limits import MAX_DEPTH, load_json
from auditor.extract.manifest import key_span
from auditor.extract.records import at, key, line, record, unique
from auditor.extract.scope import server_readmes
from auditor.extract.syntax import call_args, callee_text, strip_casts, text, walk
from auditor.model import Record


def _route(kind, k, summary, anchors, rule, trigger, endpoints, **attrs) -> Record:
    # The route's function and authorities are the lens's business (kb/lens.yaml, analyse/lens.py).
    return record("route", "RTE", kind, k, summary, anchors, rule, trigger=trigger, endpoints=endpoints, **attrs)


def routes(p: Program, fx=None) -> list[Record]:
    """FX (analyse/effects.py): the effect sites, to name what a configuration field is set from."""
    out: list[Record] = []
    for l in p.launches:
        ready = "; ".join(repr(m) for _, m in l.logs) or "no ready log"
        out.append(_route("launch", key(l.module.name, l.fn_name),
                          f"process launch -> new {l.transport or '?'} -> {text(l.connect.child_by_field_name('function'))}() -> ready log {ready}",
                          [at(l.module.path, l.fn)], "extract.server.launches", "host spawns the process",
                          ["host", f"CMP:entrypoint:{key(l.module.name, l.fn_name)}"] + ([f"OBJ:stderr:{key(l.module.name, l.fn_name)}"] if l.logs else []),
                          transport=l.transport, ready_logs=[m for _, m in l.logs]))
        if l.fatal is not None:
            msgs = [text(call_args(n)[0]) if call_args(n) else "" for n in walk(l.fatal)
                    if n.type == "call_expression" and callee_text(n) in p.vocab["stderr_calls"]]
            out.append(_route("fatal-exit", key(l.module.name, l.fn_name),
                              f"rejection of `{l.fn_name}()` -> stderr {', '.join(msgs) or '(nothing)'} -> process.exit({l.exit_code}); no retry",
                              [at(l.module.path, l.fatal)], "extract.server.launches", f"`{l.fn_name}()` rejects",
                              [f"CMP:entrypoint:{key(l.module.name, l.fn_name)}", "stderr", "process exit"],
                              exit_code=l.exit_code))
    tools_by_binding = {(t.module.path, t.binding): t for t in p.tools if t.binding}
    for h in p.handlers:
        hkey = key(h.module.name, h.method)
        if h.method.endswith("/list"):
            listing = next((l for l in p.listings if l.handler == h.node), None)
            if listing is not None:  # the descriptors that reach its result
                listed = [t for t in p.tools if t.node in listing.objects or listing.delegated and t.form != "descriptor"]
            else:
                listed = listed_tools(p, h.home, h.fn, tools_by_binding) if h.fn is not None else []
            # Descriptors written inline in the handler are listed too.
            listed += [t for t in p.tools if t.module is h.home and h.fn is not None and t not in listed
                       and h.fn.start_byte <= t.node.start_byte < h.fn.end_byte]
            params = h.fn.child_by_field_name("parameters") if h.fn is not None else None
            static = params is not None and not params.named_children and h.fn is not None
            what = ", ".join(t.name for t in listed) or "(no literal descriptor found)"
            ends = ["host", f"CMP:handler:{hkey}"] + [f"OBJ:tool-description:{t.name}" for t in listed] \
                + [f"OBJ:tool-schema:{t.name}" for t in listed] + ["host"]
            out.append(_route("list", hkey, f"{h.method} -> returns {'a static' if static else 'a'} descriptor list: {what}"
                              + ("; the handler ignores its request" if static else ""),
                              [at(h.module.path, h.node)], "extract.server.handlers", f"host {h.method} request", ends,
                              static=static, tools=[t.name for t in listed]))
    out += _framework_routes(p, {r.id for r in out if r.kind == "list"})
    for d in p.dispatches:
        mk = d.module.name
        target = f"`{d.target_name}`" if d.target_name else "(inline code)"
        impl = [f"CMP:method:{key(mk, d.target_name)}"] if d.target_name and "." in d.target_name else []
        if d.handler is not None:
            h = d.handler
            ends = ["host", f"CMP:handler:{key(h.module.name, h.method)}"] + impl
            summary = f"{h.method} -> `{d.subject} === {d.tool!r}` -> {target}"
            anchors = [line(h.module.path, h.node.start_point[0] + 1), at(d.module.path, d.node)]
        else:
            ends = ["host", "SDK tools/call routing"] + impl
            summary = f"tools/call -> the SDK routes name {d.tool!r} registered by `{d.subject}` -> {target}"
            anchors = [at(d.module.path, d.node)]
        out.append(_route("dispatch", key(mk, d.tool), summary, anchors, "extract.server.dispatches",
                          f"host tools/call with name {d.tool!r}", ends, tool=d.tool, subject=d.subject,
                          target=d.target_name, form=d.form))
    for fb in p.fallbacks:
        h = fb.handler
        out.append(_route("fallback", key(h.module.name, h.method),
                          f"any other tool name -> {fb.form.replace('-', ' ')}" + (f": {_first_text(fb.node)}" if _first_text(fb.node) else ""),
                          [at((fb.module or h.module).path, fb.node)], "extract.server.dispatches", f"host {h.method} with an unknown name",
                          [f"CMP:handler:{key(h.module.name, h.method)}"]
                          + ([f"OBJ:result:{key(h.module.name, h.home.qualified(h.fn) + ':error')}"] if fb.form == "error-result" else [])
                          + ["host"], form=fb.form))
    for f in p.flows:
        mk = f.module.name
        for g in f.gates:
            preds = [{"field": x.field, "form": x.form, "expected": x.expected, "message": x.message, "line": x.line, "source": x.source}
                     for x in g.predicates]
            fields = sorted({x.field for x in g.predicates})
            out.append(_route("gate", key(g.module_name, g.name),
                              f"validation gate `{g.name}`: {len(fields)} field(s) checked ("
                              + ", ".join(f"{fl}: " + "+".join(x.form for x in g.predicates if x.field == fl) for fl in fields)
                              + "); a failed predicate throws",
                              [at(g.path, g.validator), at(f.module.path, g.call)], "extract.flow.gate",
                              f"every call of `{f.name}`", [f"CMP:method:{key(g.module_name, g.name)}", f"OBJ:record:{key(g.module_name, g.record_type)}" if g.record_type else "record", "thrown Error"],
                              predicates=preds, record_type=g.record_type))
            unchecked = [c for c in g.copies if not c.checked]
            if unchecked:
                out.append(_route("unchecked-copy", key(g.module_name, g.name),
                                  f"{len(unchecked)} field(s) copied from input with no runtime check"
                                  + (" (type cast only)" if all(c.cast for c in unchecked) else "") + ": "
                                  + ", ".join(c.field for c in unchecked),
                                  [line(g.path, c.line) for c in unchecked], "extract.flow.gate",
                                  f"every call of `{f.name}`", ["input", f"OBJ:record:{key(g.module_name, g.record_type)}" if g.record_type else "record"],
                                  fields=[{"field": c.field, "cast": c.cast, "line": c.line} for c in unchecked]))
        for mu in f.mutations:
            out.append(_route("mutate", key(mk, f"{f.name}/{mu.target}"),
                              f"mutation of input field `{mu.target}`: {mu.form}" + (f" when `{mu.condition}`" if mu.condition else ""),
                              [at(f.module.path, mu.node)], "extract.flow.mutations", f"every call of `{f.name}`" + (f" where `{mu.condition}`" if mu.condition else ""),
                              [f"CMP:method:{key(mk, f.name)}", mu.target], form=mu.form, condition=mu.condition))
        for w in f.writes:
            ops = sorted(set(w.hows))
            cond = f"conditional on `{w.condition}`" if w.condition else "unconditional on every call that reaches it"
            guard = w.node.child_by_field_name("condition") if w.condition else None
            switches = settings.gating(p, fx, f.module, [guard]) if guard is not None else []
            if switches:
                cond += "; gated by configuration " + ", ".join(g["text"] for g in switches) + ": this write can be turned off"
            out.append(_route("state-write", key(mk, f"{w.container.key}@{f.name.rsplit('.', 1)[-1]}"),
                              f"write to `{w.container.key}` ({', '.join(ops)}), {cond}" + ("; lazy bucket creation" if w.lazy_init else ""),
                              [at(f.module.path, w.node)], "extract.flow.write_groups", f"`{f.name}`" + (f" when `{w.condition}`" if w.condition else ""),
                              [f"CMP:method:{key(mk, f.name)}", f"OBJ:state:{key(mk, w.container.key)}"],
                              operations=ops, condition=w.condition, lazy_init=w.lazy_init, writer=f.name,
                              **({"settings": [{k: v for k, v in g.items() if k != "text"} for g in switches]} if switches else {})))
        for e in f.emits:
            anchors = ([at(f.module.path, e.producer)] if e.producer is not None else []) + [at(f.module.path, e.call)]
            gates = settings.gating(p, fx, f.module, e.guards)
            anchors += [line(g.get("path", f.module.path), g["line"]) for g in gates]
            summary = f"{('render with `' + e.renderer + '` and ') if e.renderer else ''}write `{e.argument[:60]}` to {e.stream}"
            if e.condition:
                summary += f", only when `{e.condition}`"
            if gates:
                summary += "; gated by configuration " + ", ".join(g["text"] for g in gates) + ": this output can be turned off"
            out.append(_route(f"emit-{e.stream}", key(mk, f.name), summary,
                              anchors, "extract.outputs.emits", f"`{f.name}`" + (f" when `{e.condition}`" if e.condition else ""),
                              [f"CMP:method:{key(mk, f.name)}", f"OBJ:{e.stream}:{key(mk, f.name)}", e.stream],
                              renderer=e.renderer, **({"condition": e.condition} if e.condition else {}),
                              **({"settings": [{k: v for k, v in g.items() if k != "text"} for g in gates]} if gates else {})))
        for r in f.results:
            if r.kind != "success":
                continue
            reads = "; ".join(f"{c} ({how}, {kind})" for c, kind, how in r.reads) or "no state"
            out.append(_route("respond", key(mk, f.name),
                              f"build and return the success result of `{f.name}`; reads {reads}",
                              [at(f.module.path, r.node)], "extract.outputs.results", f"`{f.name}` completes",
                              [f"CMP:method:{key(mk, f.name)}", f"OBJ:result:{key(mk, f.name + ':success')}", "host"],
                              reads=[{"container": c, "kind": kind, "how": how} for c, kind, how in r.reads],
                              fields=[{"key": k, "source": v} for k, v in r.fields]))
        for c in f.captures:
            after = ", ".join(f"{n} (line {ln})" for n, ln in c.throwing_after_write)
            out.append(_route("error-capture", key(mk, f.name),
                              f"a throw inside the try of `{f.name}` -> " + ("error result with isError: true" if c.returns_error else "catch handler")
                              + (f"; state is first written at line {c.first_write_line}, and {after} can still throw after it" if after else
                                 "; no state is written before the calls that can throw"),
                              [at(f.module.path, c.node)], "extract.outputs.captures", "a throw in the try block",
                              [f"CMP:method:{key(mk, f.name)}", f"OBJ:result:{key(mk, f.name + ':error')}", "host"],
                              first_write_line=c.first_write_line, throwing_after_write=[{"call": n, "line": ln} for n, ln in c.throwing_after_write]))
    out += _build_routes(p)
    return unique(out)


def _framework_routes(p: Program, lists: set[str]) -> list[Record]:
    """What the framework does for tools registered on it (McpServer.registerTool/tool, FastMCP addTool): it answers
    tools/list with every registered tool (one list per server module), and parses each call with the tool's zod input
    schema before the callback runs (an enforcing gate: a call that fails it is rejected, the callback never runs)."""
    out = []
    registered = [t for t in p.tools if t.form != "descriptor"]
    classes = set(p.vocab["high_level"]["server_classes"]) | {
        f.get("class") or f["function"] for f in p.vocab.get("framework_servers") or ()}
    servers = [s for s in p.servers if s.cls in classes]
    framework = " or ".join(sorted({s.cls for s in servers})) or "the framework"
    if registered and not any(h.method == "tools/list" for h in p.handlers):
        home = servers[0].module if len(servers) == 1 else registered[0].module
        hkey = key(home.name, "tools/list")
        if f"RTE:list:{hkey}" not in lists:
            methods = sorted({t.form for t in registered})
            ends = ["host", f"{framework} tools/list"] \
                + [f"OBJ:tool-description:{t.name}" for t in registered if t.description_node is not None] \
                + [f"OBJ:tool-schema:{t.name}" for t in registered] \
                + [f"OBJ:tool-output-schema:{t.name}" for t in registered if t.output_schema_node is not None] + ["host"]
            out.append(_route("list", hkey, f"tools/list -> {framework} returns every tool registered with {', '.join(methods)}: "
                              + ", ".join(t.name for t in registered) + "; name, description, input schema (zod, as JSON Schema)"
                              + (", output schema" if any(t.output_schema_node is not None for t in registered) else "")
                              + ", annotations; the list is fixed once the registrations have run",
                              [at(s.module.path, s.node) for s in servers] + [line(t.module.path, t.node.start_point[0] + 1) for t in registered],
                              "extract.highlevel.registrations", "host tools/list request", ends, static=True,
                              tools=[t.name for t in registered], framework=True))
    # Resources and prompts registered on it are listed the same way (resources/list, prompts/list), by the capability
    # the SDK declares for them (kb/sdk.yaml high_level.capabilities).
    caps = p.vocab["high_level"]["capabilities"]
    for kind in ("resource", "prompt"):
        regs = [r for r in p.registrations if r.kind == kind]
        method = f"{caps.get(kind, kind + 's')}/list"
        if not regs or any(h.method == method for h in p.handlers):
            continue
        home = servers[0].module if len(servers) == 1 else regs[0].module
        names = [r.name or "(a name that is not a literal)" for r in regs]
        if f"RTE:list:{key(home.name, method)}" in lists:
            continue
        out.append(_route("list", key(home.name, method),
                          f"{method} -> {framework} returns every {kind} registered with {', '.join(sorted({r.method for r in regs}))}: "
                          + ", ".join(names), [at(s.module.path, s.node) for s in servers] + [line(r.module.path, r.node.start_point[0] + 1) for r in regs],
                          "extract.highlevel.registrations", f"host {method} request", ["host", f"{framework} {method}", "host"],
                          static=True, tools=[], **{f"{kind}s": names}, framework=True, variant=caps.get(kind, kind + "s")))
    records = {r.tool.name: r for r in inputs.validated(p)}
    for t in (t for t in p.tools if inputs.is_parsed(t)):
        preds = inputs.predicates(t)
        rec = records.get(t.name)
        out.append(_route("gate", key(t.module.name, f"{t.name}/inputSchema"),
                          f"{framework} parses every tools/call of {t.name!r} with its zod input schema before the callback runs: "
                          f"{len(preds)} field(s) enforced ("
                          + "; ".join(x["source"] for x in preds) + "); a call that fails the parse is rejected with an error, "
                          "the callback never runs",
                          [at(t.module.path, t.schema_node)], "extract.highlevel.schema_gate", f"every tools/call of {t.name!r}",
                          ["host", f"{framework} zod parse", f"OBJ:tool-schema:{t.name}",
                           f"OBJ:record:{key(rec.declared[0].name, rec.record_type)}" if rec and rec.declared else "record", "error result"],
                          predicates=preds, record_type=rec.record_type if rec else None, enforcer="sdk-zod", variant="sdk-zod", tool=t.name))
    return out


def listed_tools(p: Program, module, node, by_binding: dict, depth: int = 0) -> list:
    """Descriptors named in `node`, following identifiers through imports and array constants."""
    out = []
    for n in walk(node):
        if n.type != "identifier":
            continue
        where = p.linker.binding(module, text(n)) if p.linker is not None else (module, text(n))
        if where is None:
            continue
        mod, local = where
        tool = by_binding.get((mod.path, local))
        if tool is not None:
            out.append(tool)
        elif depth < 3 and local in mod.toplevel and strip_casts(mod.toplevel[local]).type == "array":
            array = mod.toplevel[local]
            out += listed_tools(p, mod, array, by_binding, depth + 1)
            # descriptors written inline in the array constant
            out += [t for t in p.tools if t.module is mod and array.start_byte <= t.node.start_byte < array.end_byte]
    unique = {id(t): t for t in out}
    return list(unique.values())


def _first_text(node) -> str:
    """The text a fallback returns or throws: the `text` property, else the first template or string."""
    for n in walk(node):
        if n.type == "pair" and text(n.child_by_field_name("key")) == "text":
            return text(n.child_by_field_name("value"))[:80]
    for n in walk(node):
        if n.type in {"template_string", "string"}:
            return text(n)[:80]
    return ""


def launch_snippets(p: Program):
    """Code blocks of the package's own README (extract/scope.py) that configure a host to launch the server:
    (doc path, fence, command, args)."""
    for e, doc in server_readmes(p):
        for fence in doc.fences:
            for command, args in _commands(fence.content):
                yield e.file.path, fence, command, args


def _commands(content: str):
    # (a lone surrogate escape, which no report could encode, read as U+FFFD; too deep a nesting, as no JSON)
    value, _ = load_json(content.encode("utf-8", "surrogatepass"), MAX_DEPTH)
    if value is not None:
        stack = [value]
        while stack:
            cur = stack.pop()
            if isinstance(cur, dict):
                if isinstance(cur.get("command"), str):
                    yield cur["command"], [a for a in cur.get("args") or [] if isinstance(a, str)]
                stack.extend(cur.values())
            elif isinstance(cur, list):
                stack.extend(cur)
        return
    away = False  # after `cd ../other-project`: a script or a package's script run there is another program's
    for raw in re.sub(r"\\\r?\n", " ", content).splitlines():  # (a line continued by a `\` is one command)
        words = _words(raw.strip().lstrip("$ "))
        if words[:1] == ["cd"]:
            away = len(words) > 1 and words[1].startswith(("..", "/", "~"))
            continue
        found = _launch(words)
        if found is not None and not (away and found[0] in _LOCAL):
            yield found


_LAUNCHERS = re.compile(r"npx|node|docker|uvx|bunx|pnpm|yarn")
_LOCAL = frozenset({"node", "pnpm", "yarn"})  # launchers whose program is a file or script of the current folder
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*")


def _launch(parts: list[str]) -> tuple[str, list[str]] | None:
    """(command, args) of the launch a shell line runs: its first word, after any `VAR=value` settings (or `env`);
    else, for a host's command that takes the launch after `--` (`claude mcp add docs -e K=v -- npx -y pkg`), the
    words after it."""
    for words in (parts, parts[parts.index("--") + 1:] if "--" in parts else []):
        i = 0
        while i < len(words) and (_ASSIGNMENT.fullmatch(words[i]) or words[i] == "env" and i == 0):
            i += 1
        if i < len(words) and _LAUNCHERS.fullmatch(words[i]):
            return words[i], words[i + 1:]
    return None


def _words(line: str) -> list[str]:
    """The words of a shell command line, quotes removed and a comment (`# ...`) dropped: what the command is handed;
    split at blanks when its quotes do not close."""
    try:
        return shlex.split(line, comments=True)
    except ValueError:
        words = line.split()
        return words[:next((i for i, w in enumerate(words) if w.startswith("#")), len(words))]


def _build_routes(p: Program) -> list[Record]:
    out = []
    snippets = list(launch_snippets(p))
    for doc in p.manifests():
        value = doc.value if isinstance(doc.value, dict) else {}
        span = key_span(doc, ["bin", "main", "files", "scripts"])
        anchors = [line(doc.path, *span)] if span else [line(doc.path, 1, doc.total_lines)]
        mine = [(path, f, c, a) for path, f, c, a in snippets if value.get("name") and any(value["name"] in x for x in a)]
        anchors += [line(path, f.line, f.end_line) for path, f, _, _ in mine]
        build = (value.get("scripts") or {}).get("build")
        launch = "; ".join(f"{c} {' '.join(a)}" for _, _, c, a in mine) or "no launch command documented"
        rel = p.entry(doc.path).rel
        out.append(_route("build", rel, f"build {build!r} -> bin {value.get('bin')!r}, files {value.get('files')!r} -> publish {value.get('name')!r} -> host launches: {launch}",
                          anchors, "extract.manifest", "package build and publish", [f"CMP:package:{rel}", "registry", "host configuration"],
                          launch_commands=[{"command": c, "args": a, "anchor": line(path, f.line, f.end_line).as_json()} for path, f, c, a in mine]))
    return out
