"""Evaluate the absence probes of kb/absences.yaml over the boundary; say so when one does not hold."""

from __future__ import annotations

import re

from auditor.analyse.fields import record_fields, uses
from auditor.extract import inputs
from auditor.extract.facts import Program
from auditor.extract.records import at, line, record
from auditor.extract.syntax import callee_text, find, member_chain, text
from auditor.model import Anchor, Record


def _norm_module(src: str) -> str:
    src = src[5:] if src.startswith("node:") else src
    return src


def _module_matches(src: str, names: list[str]) -> bool:
    src = _norm_module(src)
    return any(src == _norm_module(n) or src.startswith(_norm_module(n) + "/") for n in names)


def _impl_files(p: Program) -> list[str]:
    return [m.path for m in p.modules]


def _effects(p: Program, probe: dict):
    search = probe.get("search", {})
    hits: list[tuple[Anchor, str]] = []
    for m in p.modules:
        for src, node in m.imports:
            if _module_matches(src, search.get("modules", [])):
                hits.append((at(m.path, node), f"imports {src}"))
        for node in m.nodes("member"):
            chain = member_chain(node)
            joined = ".".join(chain) if chain else ""
            if any(joined == g for g in search.get("members", [])):
                hits.append((at(m.path, node), f"reads {joined}"))
        for node in m.nodes("call") + m.nodes("new"):
            name = callee_text(node) if node.type == "call_expression" else text(node.child_by_field_name("constructor"))
            if name.split(".")[-1] in search.get("calls", []) and (name.count(".") == 0 or name.split(".")[0] in {"globalThis", "window"}):
                hits.append((at(m.path, node), f"calls {name}"))
    evidence = [at(m.path, node) for m in p.modules for _, node in m.imports]
    imported = {_norm_module(src) for m in p.modules for src, _ in m.imports}
    notes = {}
    declared = set()
    for doc in p.manifests():
        declared |= set((doc.value or {}).get("dependencies") or {}) if isinstance(doc.value, dict) else set()
    unused = sorted(d for d in declared if _module_matches(d, search.get("modules", [])) and not any(
        i == d or i.startswith(d + "/") for i in imported))
    if unused:
        notes["declared_never_imported"] = unused
    query = "imports of " + ", ".join(search.get("modules", [])) + "; reads of " + ", ".join(search.get("members", []) or ["(none)"]) \
        + "; calls of " + ", ".join(search.get("calls", []) or ["(none)"])
    imports = sorted({src for m in p.modules for src, _ in m.imports})
    detail = f"the only imports are {', '.join(imports)}" if imports else "the boundary imports nothing"
    if unused:
        detail += f"; declared but never imported: {', '.join(unused)}"
    return hits, evidence, query, detail, notes


def _state_reads(p: Program, probe: dict):
    hits, evidence = [], []
    for c in p.containers:
        for a in c.accesses:
            anchor = line(c.module.path, a.line, a.end_line)
            if a.kind == "content-read":
                hits.append((anchor, f"{c.key}: {a.how} in {a.function}"))
            elif a.kind == "metadata-read":
                evidence.append(anchor)
    n = sum(len(c.accesses) for c in p.containers)
    detail = (f"{len(p.containers)} state container(s), {n} site(s) in all; every read is a metadata read "
              f"({', '.join(sorted({a.how for c in p.containers for a in c.accesses if a.kind == 'metadata-read'})) or 'none'})"
              if p.containers else "no state container in the boundary")
    notes = {} if p.containers else {"applicable": False}
    return hits, evidence, "every reference to each state container, classified as write, content read or metadata read", detail, notes


def _unconsumed(p: Program, probe: dict):
    hits, evidence, notes = [], [], {}
    unconsumed = []
    keys = _schema_keys(p)
    for rtype, fields in record_fields(p).items():
        for f in fields:
            us = uses(p, f["name"])
            consumers = [u for u in us if u.kind not in {"copy", "write"}]
            if not consumers:
                unconsumed.append(f["name"])
                evidence.append(Anchor(path=f["path"], start_line=f["line"], end_line=f["line"]))
                evidence += [Anchor(path=u.path, start_line=u.line, end_line=u.line) for u in us]
                evidence += keys.get(f["name"], []) + _prose_lines(p, f["name"])
    # The absence here is "a consumer of these fields": it holds only when such fields exist.
    whole = [(c, a) for c in p.containers for a in c.accesses if a.kind == "content-read"]
    if unconsumed and whole:
        # Stored records are read back whole somewhere: a field-level consumer cannot be ruled out.
        notes.update(fields=[], holds=False)
        return [], evidence, "every read of each field of the validated record types, and whole-record reads of state", \
            f"stored records are read back whole ({', '.join(sorted({c.key for c, _ in whole}))}), so no field can be shown to lack a consumer", notes
    notes["fields"] = unconsumed
    notes["holds"] = bool(unconsumed)
    if not record_fields(p):
        notes["applicable"] = False
        return [], evidence, "every read of each field of the validated record types", \
            "no validated record type in the boundary (no validation gate builds one, and no framework parses a zod input schema)", notes
    holds_text = ", ".join(unconsumed) if unconsumed else "(none: every field has a consumer)"
    return hits, evidence, "every read of each field of the validated record types (member access and destructuring), " \
        "excluding copies into a record", f"fields with no consumer: {holds_text}", notes


def _schema_keys(p: Program) -> dict[str, list[Anchor]]:
    """The lines of the tools' input schemas by the property name they declare (read once: every unconsumed field of
    every record asks)."""
    out: dict[str, list[Anchor]] = {}
    for t in p.tools:
        if t.schema_node is None:
            continue
        for n in _walk_pairs(t.schema_node):
            out.setdefault(text(n.child_by_field_name("key")).strip("'\""), []).append(at(t.module.path, n))
    return out


def _prose_lines(p: Program, name: str) -> list[Anchor]:
    """Lines of tool descriptions that mention a field, in its own or its snake_case spelling."""
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
    words = re.compile(rf"\b({re.escape(name)}|{re.escape(snake)})\b")
    out = []
    for t in p.tools:
        if t.description and t.description_node is not None:
            start = t.description_node.start_point[0] + 1
            out += [Anchor(path=t.module.path, start_line=start + i, end_line=start + i)
                    for i, ln in enumerate(t.description.splitlines()) if words.search(ln)]
    return out


def _walk_pairs(node):
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "pair":
            yield n
        stack.extend(n.named_children)


def _gate_validators(p: Program) -> set[str]:
    return {g.name for f in p.flows for g in f.gates}


def _content_evaluator(p: Program, probe: dict):
    validators = _gate_validators(p)
    methods = set(probe.get("search", {}).get("methods", []))
    deciders = [re.compile(x) for x in probe.get("search", {}).get("evaluator_calls", [])]
    hits, evidence = [], []
    parsed = inputs.validated(p)
    from_input = {c.field for f in p.flows for g in f.gates for c in g.copies} | {x["name"] for r in parsed for x in r.fields}
    content = list({f["name"]: f for fs in record_fields(p).values() for f in fs
                    if f["type"] == "string" and not f["optional"] and f["name"] in from_input}.values())
    for f in content:
        for u in uses(p, f["name"]):
            parent = u.node.parent
            if u.kind == "condition" and u.function not in validators:
                hits.append((Anchor(path=u.path, start_line=u.line, end_line=u.line), f"{f['name']} decides a branch in {u.function}"))
            elif parent is not None and parent.type == "member_expression" and text(parent.child_by_field_name("property")) in methods:
                hits.append((Anchor(path=u.path, start_line=u.line, end_line=u.line), f"{f['name']}.{text(parent.child_by_field_name('property'))}()"))
            elif parent is not None and parent.type == "arguments" and parent.parent is not None and parent.parent.type == "call_expression" \
                    and any(r.search(callee_text(parent.parent).split(".")[-1]) for r in deciders) and u.function not in validators:
                hits.append((Anchor(path=u.path, start_line=u.line, end_line=u.line), f"{f['name']} passed to {callee_text(parent.parent)}()"))
    for f in p.flows:
        for g in f.gates:
            evidence.append(at(g.path, g.validator))
    evidence += [at(r.tool.module.path, r.tool.schema_node) for r in parsed if r.tool.schema_node is not None]
    names = ", ".join(f["name"] for f in content) or "(no required string field)"
    notes = {"content_fields": [f["name"] for f in content]}
    if not content:
        notes["applicable"] = False
    return hits, evidence, f"uses of the content field(s) {names} in conditions outside the validation gate, calls of {', '.join(sorted(methods))} on them" \
        + (", and calls that hand them to a function named as a decision (" + ", ".join(r.pattern for r in deciders) + ")" if deciders else ""), \
        (f"content field(s) {names}: checked only " + ("for presence and type by the gate" if validators else "by the zod input schema the framework parses (presence, type, bounds)") if content
         else "no required string field copied from input by a validation gate or parsed by a zod input schema"), notes


def _reference_linkage(p: Program, probe: dict):
    patterns = [re.compile(x) for x in probe.get("search", {}).get("reference_fields", [])]
    refs = [f for fs in record_fields(p).values() for f in fs if any(r.search(f["name"]) for r in patterns)]
    hits, evidence = [], []
    for f in refs:
        evidence.append(Anchor(path=f["path"], start_line=f["line"], end_line=f["line"]))
        for u in uses(p, f["name"]):
            if u.kind == "index" or (u.node.parent is not None and u.node.parent.type == "arguments"):
                hits.append((Anchor(path=u.path, start_line=u.line, end_line=u.line), f"{f['name']} used to look up a record"))
            elif u.kind in {"render", "destructure", "condition"}:
                evidence.append(Anchor(path=u.path, start_line=u.line, end_line=u.line))
    names = ", ".join(f["name"] for f in refs) or "(none)"
    notes = {"reference_fields": [f["name"] for f in refs]} | ({} if refs else {"applicable": False})
    return hits, evidence, "uses of reference fields (" + ", ".join(x.pattern for x in patterns) + ") as an index or lookup argument", \
        (f"reference field(s) {names}: stored and rendered, never used to find, mark or supersede the record they name" if refs
         else "no record field refers to another record"), notes


def _scheduling(p: Program, probe: dict):
    calls = set(probe.get("search", {}).get("calls", []))
    hits = [(at(m.path, n), f"calls {callee_text(n)}") for m in p.modules for n in m.nodes("call") if callee_text(n) in calls]
    validators = _gate_validators(p)
    passthrough, evidence = [], []
    for f in p.flows:
        for r in f.results:
            for k, src in r.fields:
                chain = src.split(".")
                if len(chain) == 2 and chain[1] == k:
                    us = uses(p, k)
                    if not any(u.kind == "condition" and u.function not in validators for u in us):
                        passthrough.append(k)
                        evidence += [Anchor(path=u.path, start_line=u.line, end_line=u.line) for u in us if u.kind in {"copy", "output"}]
    detail = (f"field(s) copied from input to output unchanged and never branched on: {', '.join(sorted(set(passthrough)))}"
              if passthrough else "no input field is passed through to the output unchanged")
    return hits, evidence, f"calls of {', '.join(sorted(calls))}; input fields echoed to the output and their uses in conditions", detail, {"passthrough_fields": sorted(set(passthrough))}


def _tests(p: Program, probe: dict):
    hits = [(Anchor(path=e.file.path, start_line=1, end_line=max(e.lines, 1)), e.rel) for e in p.entries if e.layer == "test" and not e.context]
    files = [e for e in p.entries if not e.context]
    evidence = [Anchor(path=e.file.path, start_line=1, end_line=max(e.lines, 1)) for e in files]
    return hits, evidence, "every file of the boundary at the pinned revision, by the test globs of kb/method.yaml", \
        f"the boundary holds exactly {len(files)} file(s): {', '.join(e.rel for e in files)}", {}


_CALL = frozenset({"call_expression"})


def _selection(p: Program, probe: dict):
    methods = set(probe.get("search", {}).get("methods", []))
    hits = []
    for f in p.flows:
        for n in find(f.fn, _CALL):  # the calls inside the implementation only: flows x module calls is quadratic
            fn = n.child_by_field_name("function")
            if fn is not None and fn.type == "member_expression" and text(fn.child_by_field_name("property")) in methods:
                hits.append((at(f.module.path, n), f"{callee_text(n)} in {f.name}"))
    evidence = [at(f.module.path, w.node) for f in p.flows for w in f.writes if w.condition is None]
    return sorted(set(hits), key=lambda h: (h[0], h[1])), evidence, f"calls of {', '.join(sorted(methods))} in every traced tool implementation", \
        "every accepted call is retained; nothing is filtered or ranked", {}


def _capabilities(p: Program, probe: dict):
    declared = {c for s in p.servers for c in (s.capabilities or [])}
    # A high-level registration makes the SDK declare its capability itself.
    implied = p.vocab["high_level"]["capabilities"]
    declared |= {implied[r.kind] for r in p.registrations if r.kind in implied}
    handled = {h.method for h in p.handlers}
    missing = [c for c, methods in p.vocab["capabilities"].items() if c not in declared and not (set(methods) & handled)]
    evidence = [at(s.module.path, s.caps_node or s.node) for s in p.servers] + [at(r.module.path, r.node) for r in p.registrations]
    hits = [] if missing else [(a, "all capabilities declared") for a in evidence]
    query = "the capabilities literal of every server instance, and the request handlers registered" \
        + (", and the high-level registrations (the SDK declares their capability)" if p.registrations else "")
    notes = {"declared": sorted(declared), "not_declared": missing}
    unread = [s for s in p.servers if s.capabilities is None]
    if missing and unread:  # what a capabilities object that is not a literal declares is not known
        s = unread[0]
        notes["unknown"] = f"the capabilities of `{s.var}` at {s.module.path}:{(s.caps_node or s.node).start_point[0] + 1} " \
                           "are not a literal"
    return hits, evidence, query, \
        f"declared: {', '.join(sorted(declared)) or '(none)'}; not declared: {', '.join(missing) or '(none)'}", notes


def _names(p: Program, probe: dict):
    """Code that names what the probe looks for: an import of one of its modules, a property read or destructured
    whose name matches one of its `properties` patterns, a call or `new` whose callee's last segment matches one of
    its `call_names` patterns."""
    search = probe.get("search", {})
    props = [re.compile(x) for x in search.get("properties", [])]
    calls = [re.compile(x) for x in search.get("call_names", [])]
    hits: list[tuple[Anchor, str]] = []
    for m in p.modules:
        for src, node in m.imports:
            if _module_matches(src, search.get("modules", [])):
                hits.append((at(m.path, node), f"imports {src}"))
        for node in m.nodes("member") + m.nodes("destructure"):
            prop = node.child_by_field_name("property") if node.type == "member_expression" else node
            name = text(prop) if prop is not None and prop.type in {"property_identifier", "shorthand_property_identifier_pattern",
                                                                   "private_property_identifier"} else ""
            if name and any(r.search(name) for r in props):
                hits.append((at(m.path, node), f"reads {name}" if node.type == "member_expression" else f"destructures {name}"))
        for node in m.nodes("call") + m.nodes("new"):
            name = callee_text(node) if node.type == "call_expression" else text(node.child_by_field_name("constructor"))
            last = name.split(".")[-1]
            if last and any(r.search(last) for r in calls):
                hits.append((at(m.path, node), f"calls {name}" if node.type == "call_expression" else f"constructs {name}"))
    query = ("imports of " + (", ".join(search.get("modules", [])) or "(none)") + "; properties matching "
             + (", ".join(search.get("properties", [])) or "(none)") + "; calls matching " + (", ".join(search.get("call_names", [])) or "(none)"))
    detail = f"no import, property or call of the search in the {len(p.modules)} module(s) read"
    return hits, [], query, detail, {}


PROBES = {"effects": _effects, "names": _names, "state-content-reads": _state_reads, "unconsumed-fields": _unconsumed,
          "content-evaluator": _content_evaluator, "reference-linkage": _reference_linkage, "scheduling": _scheduling,
          "tests": _tests, "selection": _selection, "capabilities": _capabilities}


# Gaps that leave text of the boundary unseen: a file not read, bytes not UTF-8, a region that did not parse, a file
# nested too deep, over its time budget or stopped by an internal error (not analysed).
_UNSEEN = frozenset({"encoding", "size", "missing", "parse", "depth", "time", "internal"})


def _boundary_gaps(p: Program, kinds: frozenset[str] = _UNSEEN) -> list:
    """The gaps in the code the probes search: what they did not see could hold what they look for."""
    code = {e.file.path for e in p.entries if not e.context and e.layer == "implementation" and not e.compiled_from
            and not e.built_to and e.lang not in {None, "json"}}
    return sorted((g for g in p.gaps if g.kind in kinds and g.anchor.path in code), key=lambda g: (g.anchor, g.kind))


def unread_code(p: Program) -> list:
    """Gaps of code files whose imports were not read (too big, missing, not parsed, too deep, too slow); a file read
    with U+FFFD for bytes that are not UTF-8 still has its imports read."""
    return _boundary_gaps(p, _UNSEEN - {"encoding"})


def _summary(title: str, status: str, detail: str, hits: list, gaps: list) -> str:
    if status == "holds":
        return f"{title}: holds. {detail}"
    if status == "not applicable":
        return f"{title}: not applicable: {detail}"
    if status.startswith("unknown") and not gaps:
        return f"{title}: {status}. {detail}"
    if status.startswith("unknown"):
        shown = "; ".join(f"{g.anchor}: {g.kind}: {g.detail}" for g in gaps[:3]) + ("; ..." if len(gaps) > 3 else "")
        return f"{title}: {status}: nothing found, but the search did not see all of the code ({shown}). {detail}"
    return f"{title}: does NOT hold at this revision (" + (f"{len(hits)} hit(s): " + "; ".join(sorted({h for _, h in hits})[:5])
                                                           if hits else detail) + ")"


def absences(p: Program, kb: dict) -> list[Record]:
    out = []
    every = [e.file.path for e in p.entries if not e.context]
    code = [m.path for m in p.modules]
    unseen = _boundary_gaps(p)
    for probe in kb["probes"]:
        files = every if probe["probe"] == "tests" else code
        # The tests probe reads file names, which every gap leaves known; the others read the code's text.
        gaps = [] if probe["probe"] == "tests" else unseen
        evaluate = PROBES[probe["probe"]]  # the schema's enum guarantees the key
        hits, evidence, query, detail, notes = evaluate(p, probe)
        holds = notes.pop("holds", not hits)
        # Not applicable: the facts the probe examines do not exist here (nothing found, vacuously).
        applicable = notes.pop("applicable", True)
        status = "holds" if holds and applicable else "not applicable" if not applicable else "does not hold"
        unknown = notes.pop("unknown", None)
        if status != "does not hold" and unknown:  # the probe could not decide from what it read
            status = f"unknown ({unknown})"
        elif status != "does not hold" and gaps:
            # Nothing found, but not everything was seen: the absence is not shown (a hit is shown however many gaps).
            paths = sorted({g.anchor.path for g in gaps})
            status = f"unknown (gap in {paths[0]}" + (f" and {len(paths) - 1} more file(s))" if len(paths) > 1 else ")")
        summary = _summary(probe["title"], status, detail, hits, gaps)
        if gaps:
            notes["gaps"] = [{"anchor": g.anchor.as_json(), "kind": g.kind, "detail": g.detail} for g in gaps]
        holds = holds or not applicable
        anchors = ([g.anchor for g in gaps] + evidence) if status.startswith("unknown") else evidence if holds else [a for a, _ in hits]
        if not anchors:
            # Nothing found and no evidence site: anchor the boundary searched, each file whole (never a
            # line-1 placeholder, which would point at unrelated text and not move with the code).
            anchors = [Anchor(path=f, start_line=1, end_line=max(p.entry(f).lines, 1)) for f in (files or every)]
        out.append(record("absence", "ABS", probe["probe"], probe["id"], summary, anchors, f"kb/absences.yaml#{probe['id']}",
                          status=status, title=probe["title"],
                          boundary={"files": files, "query": query}, prevents=probe["prevents"],
                          hits=[{"anchor": a.as_json(), "what": h} for a, h in sorted(hits, key=lambda x: (x[0], x[1]))], detail=detail, **notes))
    return out
