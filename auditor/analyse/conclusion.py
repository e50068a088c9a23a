"""The epistemic ledger's bounded conclusion (block 6), computed from the audit's routes and absences."""

from __future__ import annotations

from auditor.analyse.lookup import holds, ids, routes
from auditor.model import Audit, Statement


def bounded(audit: Audit) -> tuple[Statement, ...]:
    by: dict[str, list[str]] = {}
    for c in audit.claims:
        by.setdefault(c.attrs["verdict"], []).append(c.id)
    mutates = routes(audit, "mutate")
    return (
        Statement(head="What it retains and retrieves", text=f"It retains through {ids(routes(audit, 'state-write'))}. "
                  + ("It reads none of the stored content back: containers are read only for their size or keys."
                     if holds(audit, "content-never-read-back") else "It reads stored content back.")),
        Statement(head="What it checks", text=f"The only check-shaped routes are {ids(routes(audit, 'gate', 'error-capture'))}; "
                  + ("none of them evaluates what the content says." if holds(audit, "no-content-evaluator") else "a content check exists.")),
        Statement(head="What it reshapes and derives", text=f"{ids(routes(audit, 'emit-stderr', 'emit-stdout'))} reshape input for display; "
                  f"{ids(routes(audit, 'respond'))} derive results from input and state."),
        Statement(head="What it adapts", text=f"{ids(mutates)}: " + ("; ".join(r.summary for r in mutates) or "no control value is adjusted") + "."),
        Statement(head="Claims", text="; ".join(f"{v}: {len(i)}" for v, i in sorted(by.items())) or "no registered claim applies to this target"),
        Statement(head="Unsupported or contradicted", text=", ".join(by.get("contradicted", []) + by.get("unsupported", [])) or "none"),
        Statement(head="Limits", text=("No tests, traces or run artifacts are in the boundary, so no status here is observed; every status is "
                                       "implemented or claimed. " if holds(audit, "no-tests") else "")
                  + "The host, the model and the declared dependencies are outside the boundary."
                  + ("" if not audit.gaps else " Coverage is incomplete: see the coverage gaps.")),
    )
