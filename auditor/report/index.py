"""index.json and index.md of a monorepo audit. Pure: render(index) -> str, byte-identical for the same input."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from auditor import __version__
from auditor.report.json import dumps

if TYPE_CHECKING:
    from auditor.monorepo import Index

INDEX_SCHEMA = "auditor.index/1"


def as_dict(index: Index) -> dict[str, Any]:
    return {
        "schema": INDEX_SCHEMA,
        "target": {"kind": "git", "locator": index.locator, "requested": index.requested, "commit": index.commit,
                   "commit_date": index.commit_date, "worktree_clean": index.worktree_clean},
        "servers": [{"name": s.name, "subtree": s.subtree, "package": s.package, "folder": f"{s.name}/",
                     "files": s.files, "tools": s.tools, "routes": s.routes, "claims": dict(s.claims),
                     "coverage": {"complete": s.complete, "gaps": s.gaps}, "reports": list(s.reports)}
                    for s in index.servers if not s.failed],
        "skipped": [{"subtree": k.subtree, "reason": k.reason} for k in index.skipped],
        "failed": [{"name": s.name, "subtree": s.subtree, "reason": s.failed} for s in index.servers if s.failed],
    }


def render_json(index: Index) -> str:
    return dumps(as_dict(index))


def context(index: Index) -> dict[str, Any]:
    """Flat template context; every value from the repository is escaped by the template's filters."""
    identity = [("Target", index.locator), ("Requested", index.requested), ("Commit", index.commit),
                ("Commit date", index.commit_date),
                ("Work tree", {True: "clean", False: "modified (the audit reads the commit, not the work tree)",
                               None: "none (bare repository)"}[index.worktree_clean]),
                ("Servers audited", str(len([s for s in index.servers if not s.failed]))),
                ("Folders skipped", str(len(index.skipped))),
                ("Tool", f"auditor {__version__}")]
    servers = [{"name": s.name, "subtree": s.subtree, "package": s.package or s.name, "files": s.files,
                "tools": s.tools, "routes": s.routes,
                "claims": ", ".join(f"{v} {n}" for v, n in s.claims) or "none",
                "coverage": ("complete" if s.complete else "incomplete") + (f", {s.gaps} gap(s)" if s.gaps else "")}
               for s in index.servers if not s.failed]
    return {"title": index.locator, "identity": identity, "servers": servers,
            "skipped": [{"subtree": k.subtree, "reason": k.reason} for k in index.skipped],
            "failed": [{"name": s.name, "subtree": s.subtree, "reason": s.failed} for s in index.servers if s.failed]}


def render_md(index: Index) -> str:
    from auditor.report import markdown

    return markdown.render_template("index.md.jinja", context(index))
