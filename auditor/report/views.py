"""Flat template contexts for the three Markdown reports, computed from an Audit (pure, no I/O)."""

from __future__ import annotations

from typing import Any

from auditor import __version__
from auditor.model import Audit, Record
from auditor.report import json as json_report


def rec(r: Record) -> dict[str, Any]:
    return {"id": r.id, "kind": r.kind, "summary": r.summary, "anchors": list(r.anchors), **r.attrs}


def _abs(audit: Audit, probe: str) -> Record | None:
    return next((a for a in audit.absences if a.id.endswith(":" + probe)), None)


def _holds(audit: Audit, probe: str) -> bool:
    a = _abs(audit, probe)
    return a is not None and a.attrs.get("status") == "holds"


def _routes(audit: Audit, *kinds: str) -> list[Record]:
    return [r for r in audit.routes if r.kind in kinds]


def _ids(records) -> str:
    return ", ".join(r.id for r in records) or "none"


def common(audit: Audit) -> dict[str, Any]:
    t = audit.target
    manifest = next((o for o in audit.objects if o.kind == "manifest"), None)
    title = (manifest.attrs.get("name") if manifest else None) or t.subtree or t.locator
    identity = [("Target", t.locator), ("Requested", t.requested),
                ("Commit" if t.kind == "git" else "Tarball integrity", t.revision),
                ("Commit date", t.commit_date or "n/a (npm tarball)"),
                ("Work tree", {True: "clean", False: "modified (the audit reads the commit, not the work tree)", None: "none (bare repository or tarball)"}[t.worktree_clean]),
                ("Subtree", t.subtree or "(whole repository or package)"),
                ("Subtree history", f"{t.subtree_commits} commit(s); newest: {t.last_change}" if t.subtree_commits is not None else "n/a"),
                ("Files in the boundary", str(len(t.files))),
                ("Claims registries applied", ", ".join(audit.registries) or "none (no kb/claims file matches this target)"),
                ("Tool", f"auditor {__version__}")]
    ledger = audit.ledger or {}
    return {"title": title, "identity": identity, "gaps": list(audit.gaps),
            "complete": json_report.complete(audit),
            "ledger_tools": list(ledger.get("tools", [])), "ledger_files": list(ledger.get("files", [])),
            "ledger_unadvertised": list(ledger.get("unadvertised", [])),
            "entries": list(ledger.get("entries", [])),
            "no_tests": _holds(audit, "no-tests"), "external": list(audit.method.get("external", []))}


def packet(audit: Audit) -> dict[str, Any]:
    ctx = common(audit)
    tier = "code-grounded" if audit.routes else "documentation only (no route extracted)"
    ctx.update(
        tier=tier,
        boundary=[rec(s) for s in audit.sources if s.kind == "file" and s.attrs.get("scope") == "boundary"],
        context_files=[rec(s) for s in audit.sources if s.kind == "file" and s.attrs.get("scope") != "boundary"],
        sources=[rec(s) for s in audit.sources],
        components=[rec(r) for r in audit.components], objects=[rec(r) for r in audit.objects],
        routes=[rec(r) for r in audit.routes], claims=[rec(r) for r in audit.claims],
        absences=[rec(r) for r in audit.absences], paths=[rec(r) for r in audit.paths],
        findings=[rec(r) for r in audit.findings], advisories=[rec(r) for r in audit.advisories],
        candidates=[rec(r) for r in audit.candidates])
    return ctx


def _field(record: str, evidence) -> dict[str, Any]:
    return {"record": record, "evidence": [e for r in evidence for e in (r.anchors if isinstance(r, Record) else [r])]}


def baseline(audit: Audit) -> dict[str, Any]:
    ctx = common(audit)
    sched, ext, reads = _abs(audit, "no-scheduling"), _abs(audit, "external-effects"), _abs(audit, "content-never-read-back")
    config = _abs(audit, "configuration-surface")
    writes, emits = _routes(audit, "state-write"), _routes(audit, "emit-stderr", "emit-stdout")
    lists, responds = _routes(audit, "list"), _routes(audit, "respond")
    writers: dict[str, int] = {}
    for r in audit.routes:
        for e in r.attrs.get("endpoints", []):
            if e.startswith("CMP:method:"):
                writers[e] = writers.get(e, 0) + 1
    hub = max(sorted(writers), key=lambda k: writers[k]) if writers else None
    ctx["responsibilities"] = [
        {"name": "Scheduling", "inside": "nowhere" + (f" ({sched.id} holds)" if sched and sched.attrs["status"] == "holds" else "")
         if _holds(audit, "no-scheduling") else f"see {sched.id if sched else 'the scheduling probe'}: timer calls exist",
         "actual": "with the caller (host and model), outside the boundary" if _holds(audit, "no-scheduling") else "inside the boundary"},
        {"name": "Context assembly", "inside": f"{_ids(lists)} (descriptors out) and {_ids(responds)} (results out)",
         "actual": "the host assembles the model's context; the server contributes fixed payloads" + (" and reads no stored content back" if _holds(audit, "content-never-read-back") else "")},
        {"name": "External state / action", "inside": f"{_ids(writes)} (in-process writes) and {_ids(emits)} (output streams)",
         "actual": "no effect outside the process" if _holds(audit, "external-effects") else f"effects outside the process: see {ext.id if ext else 'external-effects'}"},
    ]
    ctx["hub"] = f"{hub} is an endpoint of {writers[hub]} route(s), the most of any facility" if hub else "no facility spans several routes"
    loops = []
    gated = [r for r in audit.routes if r.attrs.get("settings")]  # routes a configuration switch turns off
    for launch in _routes(audit, "launch"):
        fatal = _routes(audit, "fatal-exit")
        servers = [c for c in audit.components if c.kind == "server"]
        classes = [c for c in audit.components if c.kind == "class"]
        builds = _routes(audit, "build")
        cmds = [f"{x['command']} {' '.join(x['args'])}" for b in builds for x in b.attrs.get("launch_commands", [])]
        loops.append({"name": f"server lifecycle ({launch.id})", "fields": [
            ("Trigger / input", _field("host spawns the process" + (f" (documented: {'; '.join(cmds)})" if cmds else "")
                                       + ("; no arguments or environment are read" if _holds(audit, "configuration-surface") else ""), [launch] + builds)),
            ("Next-step owner", _field(f"the SDK's {launch.attrs.get('transport') or 'transport'} read loop (a declared dependency, not inspected): the server yields at connect()", [launch])),
            ("Decision policy and its form", _field("none: no configuration branch, no mode selection" if _holds(audit, "configuration-surface") else "configuration is read: see " + (config.id if config else "configuration-surface")
                                                    + "".join(f"; {r.id} runs only when `{r.attrs['condition']}` (" + ", ".join(
                                                        g["key"] + (f" from {', '.join(g['env'])}" if g["env"] else "") for g in r.attrs["settings"]) + ")" for r in gated),
                                                    ([config] if config else []) + gated)),
            ("Context selection and framing", _field("none", [])),
            ("State reads and writes", _field("; ".join(c.summary for c in classes) or "no state-holding class", classes)),
            ("Action executor and boundary", _field("; ".join(f"ready log {m!r}" for m in launch.attrs.get("ready_logs", [])) or "no ready log", [launch])),
            ("Persistence", _field("none across restarts" if _holds(audit, "external-effects") else "see " + (ext.id if ext else "external-effects"), [ext] if ext else [])),
            ("Coordination and return", _field(f"{len(servers)} server instance(s), transport {launch.attrs.get('transport') or '?'}", servers)),
            ("Retry / cancellation / recovery", _field("; ".join(f.summary for f in fatal) or "no fatal-error handler", fatal)),
            ("Output", _field("readiness log; then the process only responds", [launch])),
        ]})
    for lst in lists:
        what = lst.attrs.get("variant")  # resources, prompts: a framework's list of its registrations
        descs = [] if what else [o for o in audit.objects if o.kind in {"tool-description", "tool-schema", "tool-output-schema"}]
        loops.append({"name": f"{what[:-1] if what else 'tool'} advertisement ({lst.id})", "fields": [
            ("Trigger / input", _field("host tools/list request", [lst])),
            ("Next-step owner", _field("the host, immediately", [])),
            ("Decision policy and its form", _field("none: a static list, the request is ignored" if lst.attrs.get("static") else "the handler reads its request", [lst])),
            ("Context selection and framing", _field("the server's only outbound framing act: " + "; ".join(o.summary for o in descs), descs) if not what
             else _field(f"the {what} registered: " + ", ".join(lst.attrs.get(what, [])), [lst])),
            ("State reads and writes", _field("none: no state container is read", [])),
            ("Action executor and boundary", _field("response over the transport", [lst])),
            ("Persistence", _field("static text compiled into the shipped artifact", _routes(audit, "build"))),
            ("Coordination and return", _field("synchronous single return", [])),
            ("Retry / cancellation / recovery", _field("none", [])),
            ("Output", _field(f"the {what[:-1] if what else 'tool'} list: " + ", ".join(lst.attrs.get(what or "tools", [])), [lst])),
        ]})
    for d in _routes(audit, "dispatch"):
        gates, mutates = _routes(audit, "gate"), _routes(audit, "mutate")
        unchecked, captures, fallbacks = _routes(audit, "unchecked-copy"), _routes(audit, "error-capture"), _routes(audit, "fallback")
        decisions = [f"the SDK routes the registered name {d.attrs.get('tool')!r} (`{d.attrs.get('subject')}`)" if d.attrs.get("form") == "registration"
                     else f"name equality `{d.attrs.get('subject')} === {d.attrs.get('tool')!r}`"]
        decisions += [f"gate {g.id}: " + ", ".join(f"{p['source']} ({p['form']})" for p in g.attrs.get("predicates", [])) for g in gates]
        decisions += [f"{w.id} when `{w.attrs['condition']}`" for w in writes if w.attrs.get("condition")]
        decisions += [f"{m.id}: {m.attrs.get('form')}" for m in mutates]
        wbt = [f for f in audit.findings + audit.advisories if f.kind == "write-before-throw"]
        loops.append({"name": f"tool call {d.attrs.get('tool')!r} ({d.id})", "fields": [
            ("Trigger / input", _field(f"host tools/call with name {d.attrs.get('tool')!r} and arguments written by the model", [d])),
            ("Next-step owner", _field("the host and model: nothing schedules or requires another call" + (f"; {', '.join(sched.attrs.get('passthrough_fields') or [])} is echoed unchanged" if sched and sched.attrs.get("passthrough_fields") else ""), [d] + ([sched] if sched else []))),
            ("Decision policy and its form", _field("; ".join(decisions) + (f". Copied without a check: {unchecked[0].summary}" if unchecked else ""), gates + mutates + unchecked)),
            ("Context selection and framing", _field("; ".join(r.summary for r in responds + emits), responds + emits)),
            ("State reads and writes", _field("writes: " + ("; ".join(w.summary for w in writes) or "none") + ". reads: " + ("; ".join(f"{x['container']} ({x['how']})" for r in responds for x in r.attrs.get("reads", [])) or "none")
                                               + (f". {reads.summary}" if reads else ""), writes + responds)),
            ("Action executor and boundary", _field("output streams and the result" + ("; no filesystem, network or subprocess access" if _holds(audit, "external-effects") else "; effects outside the process exist"), emits + ([ext] if ext else []))),
            ("Persistence", _field("process memory only, for the process lifetime" if _holds(audit, "external-effects") else "see " + (ext.id if ext else "external-effects"), [ext] if ext else [])),
            ("Coordination and return", _field("; ".join(c.summary for c in audit.components if c.kind == "class") or "no state-holding class", [c for c in audit.components if c.kind == "class"])),
            ("Retry / cancellation / recovery", _field("; ".join(r.summary for r in captures + fallbacks) + ("; " + "; ".join(f.summary for f in wbt) if wbt else ""), captures + fallbacks + wbt)),
            ("Output", _field("; ".join(o.summary for o in audit.objects if o.kind in {"result", "stderr", "stdout"}), [o for o in audit.objects if o.kind in {"result", "stderr", "stdout"}])),
        ]})
    ctx["loops"] = loops
    ctx["anti_conflation"] = [{"rule": r["rule"], "application": ANTI_CONFLATION[r["id"]](audit)} for r in audit.method.get("anti_conflation", [])]
    ctx["surfaces"] = surfaces(audit)
    return ctx


ANTI_CONFLATION = {
    "filesystem-not-scheduler": lambda a: ("no filesystem is touched" if _holds(a, "external-effects") else "files are touched")
    + "; " + ("nothing in the boundary schedules" if _holds(a, "no-scheduling") else "timer calls exist; check they are not mistaken for a loop owner"),
    "retention-not-selection": lambda a: f"{_ids(_routes(a, 'state-write'))} retain records; "
    + ("no route reads their content back into any output: retention is total, selection is nil" if _holds(a, "content-never-read-back")
       else "stored content is read back: see " + (_abs(a, "content-never-read-back").id if _abs(a, "content-never-read-back") else "the read inventory")),
    "schema-not-execution": lambda a: f"{_ids([r for r in _routes(a, 'list') if not r.attrs.get('variant')])} places tool descriptors where the host may show them to a model: an affordance only; whether any call follows is outside the boundary",
}


def surfaces(audit: Audit) -> list[dict[str, Any]]:
    emits, gates = _routes(audit, "emit-stderr", "emit-stdout"), _routes(audit, "gate")
    unbounded = [o for o in audit.objects if o.kind == "state" and o.attrs.get("write") and not any(
        a["how"] in {"pop", "shift", "splice", "delete", "clear"} for a in o.attrs.get("accesses", []))]
    caps = _abs(audit, "undeclared-capabilities")
    unpinned = [f for f in audit.findings + audit.advisories if f.kind == "unpinned-launch"]
    classes = [c for c in audit.components if c.kind == "class"]
    return [
        {"surface": "Observability", "finding": "; ".join(e.summary for e in emits) or "no output stream written", "records": emits},
        {"surface": "Permissions / governance", "finding": f"the only enforcing surface found is {_ids(gates)} (argument shape); no probe found an authorization step",
         "records": gates},
        {"surface": "Packaging / deployment", "finding": "; ".join(r.summary for r in _routes(audit, "build") + unpinned) or "no manifest", "records": _routes(audit, "build") + unpinned},
        {"surface": "Providers / model access", "finding": caps.summary if caps else "no capability probe", "records": [caps] if caps else []},
        {"surface": "Performance", "finding": ("containers that only grow (no removal anywhere): " + ", ".join(o.id for o in unbounded)) if unbounded else "no container grows without bound", "records": unbounded},
        {"surface": "Concurrency / isolation", "finding": "; ".join(c.summary for c in classes) + "; no session key or request partitioning was found" if classes else "no state-holding class", "records": classes},
    ]


def ledger(audit: Audit) -> dict[str, Any]:
    ctx = common(audit)
    functions = sorted({r.attrs.get("function") for r in audit.routes if r.attrs.get("function")})
    holding = [a for a in audit.absences if a.attrs.get("status") in {"holds", "not applicable"}]
    ctx.update(
        claims=[rec(c) for c in audit.claims], objects=[rec(o) for o in audit.objects], functions=functions,
        routes=[rec(r) for r in audit.routes], paths=[rec(p) for p in audit.paths], holding=[rec(a) for a in holding],
        lifecycle=[{"object": rec(o), "routes": [r.id for r in audit.routes if o.id in r.attrs.get("endpoints", [])]}
                   for o in audit.objects], findings=[rec(f) for f in audit.findings], conclusion=conclusion(audit))
    return ctx


def conclusion(audit: Audit) -> list[tuple[str, str]]:
    by = {}
    for c in audit.claims:
        by.setdefault(c.attrs["verdict"], []).append(c.id)
    out = [
        ("What it retains and retrieves", f"It retains through {_ids(_routes(audit, 'state-write'))}. "
         + ("It reads none of the stored content back: containers are read only for their size or keys." if _holds(audit, "content-never-read-back") else "It reads stored content back.")),
        ("What it checks", f"The only check-shaped routes are {_ids(_routes(audit, 'gate', 'error-capture'))}; "
         + ("none of them evaluates what the content says." if _holds(audit, "no-content-evaluator") else "a content check exists.")),
        ("What it reshapes and derives", f"{_ids(_routes(audit, 'emit-stderr', 'emit-stdout'))} reshape input for display; {_ids(_routes(audit, 'respond'))} derive results from input and state."),
        ("What it adapts", f"{_ids(_routes(audit, 'mutate'))}: " + ("; ".join(r.summary for r in _routes(audit, 'mutate')) or "no control value is adjusted") + "."),
        ("Claims", "; ".join(f"{v}: {len(ids)}" for v, ids in sorted(by.items())) or "no registered claim applies to this target"),
        ("Unsupported or contradicted", ", ".join(by.get("contradicted", []) + by.get("unsupported", [])) or "none"),
        ("Limits", ("No tests, traces or run artifacts are in the boundary, so no status here is observed; every status is implemented or claimed. " if _holds(audit, "no-tests") else "")
         + "The host, the model and the declared dependencies are outside the boundary." + ("" if not audit.gaps else " Coverage is incomplete: see the coverage gaps.")),
    ]
    return out
