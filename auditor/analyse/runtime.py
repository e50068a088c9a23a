"""The runtime baseline (record 5): responsibilities, material loops, anti-conflation checks, surfaces, from the records."""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from auditor.analyse import materiality
from auditor.analyse.lookup import absence, holds, ids, routes
from auditor.model import Anchor, Audit, Baseline, Loop, Record, Responsibility, Statement


def _field(name: str, text: str, evidence) -> Statement:
    return Statement(head=name, text=text, evidence=tuple(e for r in evidence for e in (r.anchors if isinstance(r, Record) else [r])))


def baseline(audit: Audit, kbs: dict, regions: Mapping[str, tuple[Anchor, ...]] | None = None) -> Baseline:
    """The baseline of AUDIT; KBS are the kb files by name (method, findings and verdicts are read); REGIONS, by tool
    name, the lines a call of the tool runs (a tool without one is given every route of the server)."""
    loops = tuple(replace(lp, materiality=materiality.bearing(audit, lp.kind, lp.tool, kbs, (regions or {}).get(lp.tool)))
                  for lp in lifecycle_loops(audit) + advertisement_loops(audit) + call_loops(audit, regions))
    return Baseline(responsibilities=responsibilities(audit), hub=hub(audit), loops=loops,
                    anti_conflation=anti_conflation(audit), surfaces=surfaces(audit, kbs["method"]["surface_searches"]))


def responsibilities(audit: Audit) -> tuple[Responsibility, ...]:
    sched, ext = absence(audit, "no-scheduling"), absence(audit, "external-effects")
    writes, emits = routes(audit, "state-write"), routes(audit, "emit-stderr", "emit-stdout")
    lists, responds = routes(audit, "list"), routes(audit, "respond")
    return (
        Responsibility(name="Scheduling",
                       inside="nowhere" + (f" ({sched.id} holds)" if sched and sched.attrs["status"] == "holds" else "")
                       if holds(audit, "no-scheduling") else f"see {sched.id if sched else 'the scheduling probe'}: timer calls exist",
                       actual="with the caller (host and model), outside the boundary" if holds(audit, "no-scheduling") else "inside the boundary"),
        Responsibility(name="Context assembly", inside=f"{ids(lists)} (descriptors out) and {ids(responds)} (results out)",
                       actual="the host assembles the model's context; the server contributes fixed payloads"
                       + (" and reads no stored content back" if holds(audit, "content-never-read-back") else "")),
        Responsibility(name="External state / action", inside=f"{ids(writes)} (in-process writes) and {ids(emits)} (output streams)",
                       actual="no effect outside the process" if holds(audit, "external-effects")
                       else f"effects outside the process: see {ext.id if ext else 'external-effects'}"),
    )


def hub(audit: Audit) -> str:
    writers: dict[str, int] = {}
    for r in audit.routes:
        for e in r.attrs.get("endpoints", []):
            if e.startswith("CMP:method:"):
                writers[e] = writers.get(e, 0) + 1
    top = max(sorted(writers), key=lambda k: writers[k]) if writers else None
    return f"{top} is an endpoint of {writers[top]} route(s), the most of any facility" if top else "no facility spans several routes"


def lifecycle_loops(audit: Audit) -> list[Loop]:
    ext, config = absence(audit, "external-effects"), absence(audit, "configuration-surface")
    loops = []
    gated = [r for r in audit.routes if r.attrs.get("settings")]  # routes a configuration switch turns off
    for launch in routes(audit, "launch"):
        fatal = routes(audit, "fatal-exit")
        servers = [c for c in audit.components if c.kind == "server"]
        classes = [c for c in audit.components if c.kind == "class"]
        builds = routes(audit, "build")
        cmds = [f"{x['command']} {' '.join(x['args'])}" for b in builds for x in b.attrs.get("launch_commands", [])]
        loops.append(Loop(kind="lifecycle", name=f"server lifecycle ({launch.id})", fields=(
            _field("Trigger / input", "host spawns the process" + (f" (documented: {'; '.join(cmds)})" if cmds else "")
                   + ("; no arguments or environment are read" if holds(audit, "configuration-surface") else ""), [launch] + builds),
            _field("Next-step owner", f"the SDK's {launch.attrs.get('transport') or 'transport'} read loop (a declared dependency, not inspected): the server yields at connect()", [launch]),
            _field("Decision policy and its form", "none: no configuration branch, no mode selection" if holds(audit, "configuration-surface")
                   else "configuration is read: see " + (config.id if config else "configuration-surface")
                   + "".join(f"; {r.id} runs only when `{r.attrs['condition']}` (" + ", ".join(
                       g["key"] + (f" from {', '.join(g['env'])}" if g["env"] else "") for g in r.attrs["settings"]) + ")"
                       for r in gated), ([config] if config else []) + gated),
            _field("Context selection and framing", "none", []),
            _field("State reads and writes", "; ".join(c.summary for c in classes) or "no state-holding class", classes),
            _field("Action executor and boundary", "; ".join(f"ready log {m!r}" for m in launch.attrs.get("ready_logs", [])) or "no ready log", [launch]),
            _field("Persistence", "none across restarts" if holds(audit, "external-effects") else "see " + (ext.id if ext else "external-effects"), [ext] if ext else []),
            _field("Coordination and return", f"{len(servers)} server instance(s), transport {launch.attrs.get('transport') or '?'}", servers),
            _field("Retry / cancellation / recovery", "; ".join(f.summary for f in fatal) or "no fatal-error handler", fatal),
            _field("Output", "readiness log; then the process only responds", [launch]),
        )))
    return loops


def advertisement_loops(audit: Audit) -> list[Loop]:
    loops = []
    for lst in routes(audit, "list"):
        what = lst.attrs.get("variant")  # resources, prompts: a framework's list of its registrations
        descs = [] if what else [o for o in audit.objects if o.kind in {"tool-description", "tool-schema", "tool-output-schema"}]
        loops.append(Loop(kind="advertisement", name=f"{what[:-1] if what else 'tool'} advertisement ({lst.id})", fields=(
            _field("Trigger / input", f"host {what or 'tools'}/list request", [lst]),
            _field("Next-step owner", "the host, immediately", []),
            _field("Decision policy and its form", "none: a static list, the request is ignored" if lst.attrs.get("static") else "the handler reads its request", [lst]),
            _field("Context selection and framing", "the server's only outbound framing act: " + "; ".join(o.summary for o in descs), descs)
            if not what else _field("Context selection and framing", f"the {what} registered: " + ", ".join(lst.attrs.get(what, [])), [lst]),
            _field("State reads and writes", _state_in(audit, lst), [lst]),
            _field("Action executor and boundary", "response over the transport", [lst]),
            _field("Persistence", "static text compiled into the shipped artifact", routes(audit, "build")),
            _field("Coordination and return", "synchronous single return", []),
            _field("Retry / cancellation / recovery", "none", []),
            _field("Output", f"the {what[:-1] if what else 'tool'} list: " + ", ".join(lst.attrs.get(what or "tools", [])), [lst]),
        )))
    return loops


def _state_in(audit: Audit, route: Record) -> str:
    """The state accesses inside ROUTE's anchors (the containers' access inventory), or that there are none."""
    inside = [f"{o.attrs.get('name') or o.id} ({a['how']})" for o in audit.objects if o.kind == "state"
              for a in o.attrs.get("accesses", []) if a.get("kind") != "declaration" and a.get("anchor") and any(
                  r.path == a["anchor"]["path"] and r.start_line <= a["anchor"]["start_line"] <= r.end_line for r in route.anchors)]
    return ("reads or writes " + "; ".join(inside)) if inside else "none: no state container is accessed inside the handler"


def _within(records, spans) -> list:
    """The records anchored inside SPANS (the code one tool's call runs); all of them when SPANS is None (not traced)."""
    if spans is None:
        return list(records)
    return [r for r in records if any(s.path == a.path and s.start_line <= a.start_line <= s.end_line for a in r.anchors for s in spans)]


def call_loops(audit: Audit, regions: Mapping[str, tuple[Anchor, ...]] | None = None) -> list[Loop]:
    """One loop per dispatch; its records are those inside the code the tool's call runs (REGIONS, by tool name)."""
    sched, ext, reads = absence(audit, "no-scheduling"), absence(audit, "external-effects"), absence(audit, "content-never-read-back")
    classes = [c for c in audit.components if c.kind == "class"]
    fallbacks = routes(audit, "fallback")  # the unknown-name branch: shared by every call, inside no tool's code
    loops = []
    for d in routes(audit, "dispatch"):
        spans = (regions or {}).get(d.attrs.get("tool"))
        writes, emits = _within(routes(audit, "state-write"), spans), _within(routes(audit, "emit-stderr", "emit-stdout"), spans)
        responds, gates, mutates = _within(routes(audit, "respond"), spans), _within(routes(audit, "gate"), spans), _within(routes(audit, "mutate"), spans)
        unchecked, captures = _within(routes(audit, "unchecked-copy"), spans), _within(routes(audit, "error-capture"), spans)
        outputs = _within([o for o in audit.objects if o.kind in {"result", "stderr", "stdout"}], spans)
        effects = _within([r for r in audit.routes if r.kind.startswith("effect-")], spans)
        decisions = [f"the SDK routes the registered name {d.attrs.get('tool')!r} (`{d.attrs.get('subject')}`)"
                     if d.attrs.get("form") == "registration" else f"name equality `{d.attrs.get('subject')} === {d.attrs.get('tool')!r}`"]
        decisions += [f"gate {g.id}: " + ", ".join(f"{p['source']} ({p['form']})" for p in g.attrs.get("predicates", [])) for g in gates]
        decisions += [f"{w.id} when `{w.attrs['condition']}`" for w in writes if w.attrs.get("condition")]
        decisions += [f"{m.id}: {m.attrs.get('form')}" for m in mutates]
        wbt = _within([f for f in audit.findings + audit.advisories if f.kind == "write-before-throw"], spans)
        passthrough = sched.attrs.get("passthrough_fields") if sched else None
        loops.append(Loop(kind="call", tool=d.attrs.get("tool"), name=f"tool call {d.attrs.get('tool')!r} ({d.id})", fields=(
            _field("Trigger / input", f"host tools/call with name {d.attrs.get('tool')!r} and arguments written by the model", [d]),
            _field("Next-step owner", "the host and model: " + ("nothing schedules or requires another call" if holds(audit, "no-scheduling")
                   else f"timer calls exist ({sched.id if sched else 'no scheduling probe'}): check what they schedule")
                   + (f"; {', '.join(passthrough)} is echoed unchanged" if passthrough else ""), [d] + ([sched] if sched else [])),
            _field("Decision policy and its form", "; ".join(decisions) + (f". Copied without a check: {unchecked[0].summary}" if unchecked else ""),
                   gates + mutates + unchecked),
            _field("Context selection and framing", "; ".join(r.summary for r in responds + emits), responds + emits),
            _field("State reads and writes", "writes: " + ("; ".join(w.summary for w in writes) or "none") + ". reads: "
                   + ("; ".join(f"{x['container']} ({x['how']})" for r in responds for x in r.attrs.get("reads", [])) or "none")
                   + (f". {reads.summary}" if reads else ""), writes + responds),
            _field("Action executor and boundary", "output streams and the result" + ("; no filesystem, network or subprocess access"
                   if holds(audit, "external-effects") else f"; effects outside the process: {ids(effects)}" if effects
                   else f"; none of the effects outside the process ({ext.id if ext else 'external-effects'}) is in this call's code"),
                   emits + effects + ([ext] if ext else [])),
            _field("Persistence", "process memory only, for the process lifetime" if holds(audit, "external-effects")
                   else "see " + (ext.id if ext else "external-effects"), [ext] if ext else []),
            _field("Coordination and return", "; ".join(c.summary for c in classes) or "no state-holding class", classes),
            _field("Retry / cancellation / recovery", "; ".join(r.summary for r in captures + fallbacks)
                   + ("; " + "; ".join(f.summary for f in wbt) if wbt else ""), captures + fallbacks + wbt),
            _field("Output", "; ".join(o.summary for o in outputs), outputs),
        )))
    return loops


def anti_conflation(audit: Audit) -> tuple[Statement, ...]:
    return tuple(Statement(head=r["rule"], text=_ANTI_CONFLATION[r["id"]](audit)) for r in audit.method.get("anti_conflation", []))


def _retention(a: Audit) -> str:
    writes = routes(a, "state-write")
    if not writes:
        return "no route retains anything: there is nothing to select from"
    if holds(a, "content-never-read-back"):
        return f"{ids(writes)} retain records; no route reads their content back into any output: retention is total, selection is nil"
    probe = absence(a, "content-never-read-back")
    return f"{ids(writes)} retain records; stored content is read back: see " + (probe.id if probe else "the read inventory")


# coupling: kb/method.yaml anti_conflation names these ids.
_ANTI_CONFLATION = {
    "filesystem-not-scheduler": lambda a: ("no filesystem is touched" if holds(a, "external-effects") else "files are touched")
    + "; " + ("nothing in the boundary schedules" if holds(a, "no-scheduling") else "timer calls exist; check they are not mistaken for a loop owner"),
    "retention-not-selection": _retention,
    "schema-not-execution": lambda a: f"{ids([r for r in routes(a, 'list') if not r.attrs.get('variant')])} places tool descriptors where the host may show them to a model: "
    "an affordance only; whether any call follows is outside the boundary",
}


def _searched(audit: Audit, search: dict) -> str:
    """What the probes of kb/method.yaml surface_searches found about one surface, or that nothing searched it."""
    if not search["probes"]:
        return f"no probe of kb/absences.yaml looks for {search['looks_for']}: whether there is one was not searched"
    found = [absence(audit, p) for p in search["probes"]]
    return "; ".join(f"{a.id}: {a.attrs.get('status')}" if a else f"probe {p} was not evaluated" for p, a in zip(search["probes"], found))


def _enforcing(audit: Audit) -> str:
    """The routes that admit or block a call (route function check/evidence production of kb/lens.yaml), with their forms."""
    checks = [r for r in audit.routes if r.attrs.get("function") == "check/evidence production"]
    if not checks:
        return "no route admits or blocks a call inside the boundary"
    parts = []
    for r in checks:
        forms = sorted({p["form"] for p in r.attrs.get("predicates", []) if p.get("form")})
        parts.append(f"{r.id} ({', '.join(forms)})" if forms else r.id)
    return "routes that admit or block a call: " + ", ".join(parts)


def surfaces(audit: Audit, searches: dict) -> tuple[Statement, ...]:
    emits = routes(audit, "emit-stderr", "emit-stdout")
    checks = [r for r in audit.routes if r.attrs.get("function") == "check/evidence production"]
    unbounded = [o for o in audit.objects if o.kind == "state" and o.attrs.get("write") and not any(
        a["how"] in {"pop", "shift", "splice", "delete", "clear"} for a in o.attrs.get("accesses", []))]
    caps = absence(audit, "undeclared-capabilities")
    unpinned = [f for f in audit.findings + audit.advisories if f.kind == "unpinned-launch"]
    classes = [c for c in audit.components if c.kind == "class"]
    builds = routes(audit, "build") + unpinned
    auth = [a for a in map(lambda p: absence(audit, p), searches["authorization"]["probes"]) if a]
    isolation = [a for a in map(lambda p: absence(audit, p), searches["isolation"]["probes"]) if a]

    def st(head, text, records):
        return Statement(head=head, text=text, records=tuple(r.id for r in records))
    return (
        st("Observability", "; ".join(e.summary for e in emits) or "no output stream written", emits),
        st("Permissions / governance", f"{_enforcing(audit)}; {_searched(audit, searches['authorization'])}", checks + auth),
        st("Packaging / deployment", "; ".join(r.summary for r in builds) or "no manifest", builds),
        st("Providers / model access", caps.summary if caps else "no capability probe", [caps] if caps else []),
        st("Performance", ("containers that only grow (no removal anywhere): " + ", ".join(o.id for o in unbounded)) if unbounded
           else "no container grows without bound", unbounded),
        st("Concurrency / isolation", "; ".join([c.summary for c in classes] + [_searched(audit, searches["isolation"])])
           if classes else "no state-holding class", classes + isolation),
    )
