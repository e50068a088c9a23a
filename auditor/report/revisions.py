"""index.json and index.md of a run over several revisions: one row per revision, linking its folder.
Pure: render(rows) -> str, byte-identical for the same input."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from auditor import __version__
from auditor.report.json import dumps

REVISIONS_SCHEMA = "auditor.revisions/1"


@dataclass(frozen=True, kw_only=True, slots=True)
class Revision:
    """What the audit of one revision wrote, and how complete it is."""

    folder: str  # relative to OUT
    requested: str
    commit: str
    commit_date: str
    scope: str  # "monorepo" | "subtree"
    subtree: str  # the subtree audited ("" for the repository root); "" in monorepo mode
    audits: int  # server audits in the folder (1 for a subtree)
    complete: int  # of which coverage is complete
    gaps: int  # coverage gaps over all of them


def as_dict(locator: str, rows: list[Revision]) -> dict[str, Any]:
    return {"schema": REVISIONS_SCHEMA, "target": {"kind": "git", "locator": locator},
            "revisions": [{"folder": f"{r.folder}/", "requested": r.requested, "commit": r.commit,
                           "commit_date": r.commit_date, "scope": r.scope, "subtree": r.subtree, "audits": r.audits,
                           "coverage": {"complete": r.complete, "gaps": r.gaps}} for r in rows]}


def render_json(locator: str, rows: list[Revision]) -> str:
    return dumps(as_dict(locator, rows))


def render_md(locator: str, rows: list[Revision]) -> str:
    from auditor.report import markdown

    revisions = [{"folder": r.folder, "requested": r.requested, "commit": r.commit, "date": r.commit_date,
                  "what": (f"{r.audits} server(s)" if r.scope == "monorepo" else f"subtree {r.subtree or '(root)'}"),
                  "coverage": f"{r.complete} of {r.audits} complete" + (f", {r.gaps} gap(s)" if r.gaps else "")}
                 for r in rows]
    return markdown.render_template("revisions.md.jinja", {"title": locator, "revisions": revisions,
                                                           "tool": f"auditor {__version__}"})
