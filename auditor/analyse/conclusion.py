"""The epistemic ledger's bounded conclusion (block 6) and its amendments, computed from the audit's records."""

from __future__ import annotations

from auditor.analyse.lookup import absence, holds, ids, routes
from auditor.model import Audit, Record, Statement


def bounded(audit: Audit) -> tuple[Statement, ...]:
    """What the server does, route by route, and what bounds each statement; no tally of verdicts, no grade."""
    mutates, writes, checks = routes(audit, "mutate"), routes(audit, "state-write"), routes(audit, "gate", "error-capture")
    emits, responds = routes(audit, "emit-stderr", "emit-stdout"), routes(audit, "respond")
    effects = [r for r in audit.routes if r.kind.startswith("effect-")]
    ext, reads, evaluator = absence(audit, "external-effects"), absence(audit, "content-never-read-back"), absence(audit, "no-content-evaluator")
    return (
        Statement(head="What it retains and retrieves", text=(f"It retains through {ids(writes)}. " if writes else "No route retains anything. ")
                  + ("It reads none of the stored content back: containers are read only for their size or keys."
                     if holds(audit, "content-never-read-back") else _probe(reads, "whether it reads stored content back"))),
        Statement(head="What it checks", text=(f"The check-shaped routes are {ids(checks)}. " if checks else "No check-shaped route was extracted. ")
                  + ("No route evaluates what the content says." if holds(audit, "no-content-evaluator")
                     else _probe(evaluator, "whether anything evaluates what the content says"))),
        Statement(head="What it reshapes and derives", text=(f"{ids(emits)} reshape input for display; " if emits else "Nothing is written for display; ")
                  + (f"{ids(responds)} derive results from input and state." if responds else "no result route was extracted.")),
        Statement(head="What it adapts", text=f"{ids(mutates)}: " + ("; ".join(r.summary for r in mutates) or "no control value is adjusted") + "."),
        Statement(head="What it acts on outside the process", text=f"{ids(effects)}." if effects else
                  (f"Nothing: {ext.id} holds." if ext is not None and holds(audit, "external-effects")
                   else "No effect route was extracted; the external-effects probe does not say there is none.")),
        Statement(head="What the claim verdicts judge", text=_judged(audit.claims)),
        Statement(head="Why these statements are bounded", text=_limits(audit)),
    )


def _probe(probe: Record | None, question: str) -> str:
    """What an absence probe that does not hold says about QUESTION: its status and hits are in the packet, by id."""
    if probe is None:
        return f"No probe answers {question}."
    return f"As to {question}: {probe.id} {probe.attrs.get('status')} (its search and hits: `evidence-packet.md` 4e)."


def _judged(claims: tuple[Record, ...]) -> str:
    if not claims:
        return "No claim applies to this target."
    ambiguous = [c for c in claims if c.attrs.get("voice_kind") == "ambiguous"]
    addressed = [c for c in claims if c.attrs.get("voice_kind") == "addressee"]
    text = "Each verdict judges what the code inside the boundary does (the server's reading of the claim, or its share of the pair's)."
    if ambiguous:
        text += (f" Not judged, because their text leaves open who does it and the other doers are outside the boundary: "
                 f"the other readings of {ids(ambiguous)}.")
    for who in sorted({c.attrs.get("addressee", "reader") for c in addressed}):
        mine = [c for c in addressed if c.attrs.get("addressee", "reader") == who]
        text += f" Not judged: the {who}'s own share of {ids(mine)}, addressed to the {who}."
    if not ambiguous and not addressed:
        text += " No claim's voice leaves another reading open."
    return text


def _limits(audit: Audit) -> str:
    tests = absence(audit, "no-tests")
    text = (f"No tests, traces or run artifacts are in the boundary ({tests.id}), so no status here is observed; every status is "
            "implemented or claimed. " if holds(audit, "no-tests") and tests else "")
    if audit.tests:
        text += (f"The boundary's {len(audit.tests)} test(s) are read, not run: a route or claim of tier 'tested' says "
                 "what a test's code asserts, not what a run observed. ")
    external = [e["name"] for e in audit.method.get("external", [])]
    if external:
        text += ("Outside the boundary, each preventing the conclusions `evidence-packet.md` section 2 lists: " + "; ".join(external) + ".")
    return text + (" Coverage is incomplete: what was not read bounds every absence it could hold (see the coverage gaps)."
                   if audit.gaps else "")


def amendments(audit: Audit) -> tuple[Statement, ...]:
    """Each finding of the code, with the routes and objects whose anchors it overlaps: the records it amends."""
    targets = list(audit.routes) + list(audit.objects)
    out = []
    for f in audit.findings:
        amended = sorted({t.id for t in targets if _overlaps(f, t)})
        out.append(Statement(head=f.id, text=f.kind, records=tuple(amended)))
    return tuple(out)


def _overlaps(a: Record, b: Record) -> bool:
    return any(x.path == y.path and x.start_line <= y.end_line and y.start_line <= x.end_line for x in a.anchors for y in b.anchors)
