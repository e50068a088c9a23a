"""Flat template contexts for the three Markdown reports, computed from an Audit (pure, no I/O)."""

from __future__ import annotations

from typing import Any

from auditor import __version__
from auditor.analyse.lookup import absence, holds
from auditor.model import Audit, Record
from auditor.report import json as json_report
from auditor.report import overview


def rec(r: Record) -> dict[str, Any]:
    return {"id": r.id, "kind": r.kind, "summary": r.summary, "anchors": list(r.anchors), **r.attrs}


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
                *([("Dependencies read with it", "; ".join(
                    f"{pk.name}@{pk.version} (package.json asks {pk.range}; the newest it admits when audited; it "
                    f"{pk.why}), in {pk.folder}/" for pk in t.packages))] if t.packages else []),
                ("Claims registries applied", ", ".join(audit.registries) or "none (no kb/claims file matches this target)"),
                ("Tool", f"auditor {__version__}")]
    ledger = audit.ledger or {}
    return {"title": title, "identity": identity, "gaps": list(audit.gaps),
            "complete": json_report.complete(audit),
            "ledger_tools": list(ledger.get("tools", [])), "ledger_files": list(ledger.get("files", [])),
            "ledger_unadvertised": list(ledger.get("unadvertised", [])),
            "entries": list(ledger.get("entries", [])),
            "no_tests": holds(audit, "no-tests"), "external": list(audit.method.get("external", [])),
            # what every report shows first, and where anchors link (the repository's web address at the commit)
            "overview": overview.summary(audit),
            "link": {"base": t.web, "commit": t.revision} if t.kind == "git" and t.web else None}


def packet(audit: Audit) -> dict[str, Any]:
    ctx = common(audit)
    tested = [r for r in audit.routes if r.attrs.get("tier") == "tested"]
    tier = "code-grounded" if audit.routes else "documentation only (no route extracted)"
    if tested:
        tier += f"; {len(tested)} of {len(audit.routes)} route(s) tested (stated by the boundary's tests, read, not run)"
    ctx.update(
        tier=tier,
        boundary=[rec(s) for s in audit.sources if s.kind == "file" and s.attrs.get("scope") == "boundary"],
        context_files=[rec(s) for s in audit.sources if s.kind == "file" and s.attrs.get("scope") != "boundary"],
        sources=[rec(s) for s in audit.sources],
        components=[rec(r) for r in audit.components], objects=[rec(r) for r in audit.objects],
        routes=[rec(r) for r in audit.routes], claims=[{**rec(r), "test_anchors": test_anchors(r)} for r in audit.claims],
        absences=[rec(r) for r in audit.absences], paths=[rec(r) for r in audit.paths],
        findings=[rec(r) for r in audit.findings], advisories=[rec(r) for r in audit.advisories],
        candidates=[rec(r) for r in audit.candidates], tool_sections=overview.tools(audit),
        tests=[rec(r) for r in audit.tests])
    return ctx


def _statements(items) -> list[dict[str, Any]]:
    return [{"head": s.head, "text": s.text, "records": list(s.records), "evidence": list(s.evidence)} for s in items]


def baseline(audit: Audit) -> dict[str, Any]:
    ctx = common(audit)
    b = audit.baseline
    ctx.update(responsibilities=[{"name": r.name, "inside": r.inside, "actual": r.actual} for r in b.responsibilities], hub=b.hub,
               loops=[{"name": lp.name, "fields": [(f.head, {"record": f.text, "evidence": list(f.evidence)}) for f in lp.fields],
                       "materiality": _statements(lp.materiality)} for lp in b.loops],
               anti_conflation=[{"rule": s.head, "application": s.text} for s in b.anti_conflation],
               surfaces=[{"surface": s.head, "finding": s.text, "records": [{"id": i} for i in s.records]} for s in b.surfaces])
    return ctx


def ledger(audit: Audit) -> dict[str, Any]:
    """The lens's own columns; the records' summaries, quotes and anchors are the evidence packet's, named by id."""
    ctx = common(audit)
    functions = sorted({r.attrs.get("function") for r in audit.routes if r.attrs.get("function")})
    holding = [a for a in audit.absences if a.attrs.get("status") in {"holds", "not applicable"}]
    tests = absence(audit, "no-tests")
    ctx.update(
        claims=[rec(c) for c in audit.claims], objects=[rec(o) for o in audit.objects], functions=functions,
        routes=[rec(r) for r in audit.routes], holding=[a.id for a in holding], tests_absence=tests.id if tests else None,
        lifecycle=[{"object": rec(o), "routes": [r.id for r in audit.routes if o.id in r.attrs.get("endpoints", [])],
                    "observed": observed(audit, o)} for o in audit.objects],
        conclusion=[(c.head, c.text) for c in audit.conclusion],
        amendments=[{"finding": a.head, "kind": a.text, "records": list(a.records)} for a in audit.amendments])
    ctx["claims"] = [{**c, "support": c.get("test_support") or ("none: no tests or traces in the boundary" if ctx["no_tests"]
                                                                else "no test of the boundary exercises its routes")}
                     for c in ctx["claims"]]
    return ctx


def _by_line(anchor: str) -> tuple[str, int]:
    path, _, lines = anchor.rpartition(":")
    return path, int(lines.partition("-")[0])


def test_anchors(r: Record) -> list[str]:
    """The blocks of the tests linked to a record, once each, in file and line order."""
    return sorted({t["anchor"] for t in r.attrs.get("tests", [])}, key=_by_line)


def observed(audit: Audit, o: Record) -> str:
    """Block 4's last column: the tests that exercise a route of the object (what they state, not a run)."""
    if not audit.tests:
        return "no instance observed"
    anchors = sorted({t["anchor"] for r in audit.routes if o.id in r.attrs.get("endpoints", []) for t in r.attrs.get("tests", [])},
                     key=_by_line)
    if not anchors:
        return "no test of the boundary exercises its routes"
    return "tested (read, not run): " + ", ".join(anchors[:4]) + (f" and {len(anchors) - 4} more" if len(anchors) > 4 else "")
