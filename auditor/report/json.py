"""audit.json: the machine contract. Pure: render(audit) -> str, byte-identical for the same input."""

from __future__ import annotations

from typing import Any

import orjson

from auditor.analyse.coverage import blocking
from auditor.model import SCHEMA_VERSION, Audit, Baseline, Record, Statement


def _record(r: Record) -> dict[str, Any]:
    out = {"id": r.id, "kind": r.kind, "summary": r.summary, "anchors": [a.as_json() for a in r.anchors], "rule": r.rule}
    out.update({k: v for k, v in r.attrs.items() if k not in out})
    return out


def _statement(s: Statement) -> dict[str, Any]:
    return {"head": s.head, "text": s.text, "records": list(s.records), "evidence": [a.as_json() for a in s.evidence]}


def _baseline(b: Baseline | None) -> dict[str, Any] | None:
    """Record 5 as data: what runtime-baseline.md renders."""
    if b is None:
        return None
    return {"hub": b.hub,
            "responsibilities": [{"name": r.name, "inside": r.inside, "actual": r.actual} for r in b.responsibilities],
            "loops": [{"kind": lp.kind, "name": lp.name, "tool": lp.tool, "fields": [_statement(s) for s in lp.fields],
                       "materiality": [_statement(s) for s in lp.materiality]} for lp in b.loops],
            "anti_conflation": [_statement(s) for s in b.anti_conflation],
            "surfaces": [_statement(s) for s in b.surfaces]}


def complete(audit: Audit) -> bool:
    """coverage.complete: no gap, and the ledger accounts for every file and tool (the one definition)."""
    return bool(audit.ledger.get("complete", True)) and not blocking(audit.gaps, audit.method, audit.ledger.get("files", ()))


def as_dict(audit: Audit) -> dict[str, Any]:
    t = audit.target
    target = {"kind": t.kind, "locator": t.locator, "requested": t.requested, "subtree": t.subtree,
              "commit_date": t.commit_date, "worktree_clean": t.worktree_clean,
              "files": len(t.files), "context_files": [f.path for f in t.context_files],
              "subtree_commits": t.subtree_commits, "last_change": t.last_change, "web": t.web,
              **({"packages": [{"name": pk.name, "version": pk.version, "range": pk.range, "folder": pk.folder,
                                "integrity": pk.integrity, "why": pk.why} for pk in t.packages]}
                 if t.packages else {})}
    target["commit" if t.kind == "git" else "integrity"] = t.revision
    return {
        "schema": SCHEMA_VERSION,
        "target": target,
        "summary": dict(audit.summary),
        "sources": [_record(r) for r in audit.sources],
        "components": [_record(r) for r in audit.components],
        "objects": [_record(r) for r in audit.objects],
        "routes": [_record(r) for r in audit.routes],
        "absences": [_record(r) for r in audit.absences],
        "paths": [_record(r) for r in audit.paths],
        "findings": [_record(r) for r in audit.findings],
        "advisories": [_record(r) for r in audit.advisories],
        "claims": [_record(r) for r in audit.claims],
        "claim_candidates": [_record(r) for r in audit.candidates],
        "tests": [_record(r) for r in audit.tests],
        "registries": list(audit.registries),
        "baseline": _baseline(audit.baseline),
        "conclusion": [_statement(s) for s in audit.conclusion],
        "amendments": [_statement(s) for s in audit.amendments],
        "coverage": {"gaps": [{"kind": g.kind, "detail": g.detail, "anchor": g.anchor.as_json()} for g in audit.gaps],
                     "complete": complete(audit),
                     "entries": list(audit.ledger.get("entries", [])), "files": list(audit.ledger.get("files", [])),
                     "tools": list(audit.ledger.get("tools", [])),
                     "unresolved": list(audit.ledger.get("unresolved", [])),
                     # only when there are some: descriptor-shaped objects that no tools/list result holds (no tools)
                     **({"unadvertised": list(audit.ledger["unadvertised"])} if audit.ledger.get("unadvertised") else {})},
    }


def dumps(value: Any) -> str:
    """Two-space indented JSON, keys in insertion order, non-ASCII text as is (what json.dumps(indent=2,
    ensure_ascii=False) writes, at compiled speed: the standard encoder runs in Python when indenting)."""
    return orjson.dumps(value, option=orjson.OPT_INDENT_2, default=str).decode("utf-8") + "\n"


def render(audit: Audit) -> str:
    return dumps(as_dict(audit))
