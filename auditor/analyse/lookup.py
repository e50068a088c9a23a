"""Look-ups over an Audit's records that the report analyses share: absences by probe, routes by kind."""

from __future__ import annotations

from auditor.model import Audit, Record


def absence(audit: Audit, probe: str) -> Record | None:
    """The absence record of the kb/absences.yaml probe PROBE, if it was evaluated."""
    return next((a for a in audit.absences if a.id.endswith(":" + probe)), None)


def holds(audit: Audit, probe: str) -> bool:
    a = absence(audit, probe)
    return a is not None and a.attrs.get("status") == "holds"


def routes(audit: Audit, *kinds: str) -> list[Record]:
    return [r for r in audit.routes if r.kind in kinds]


def ids(records) -> str:
    return ", ".join(r.id for r in records) or "none"
