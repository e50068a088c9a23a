"""What a reviewer reads first: the server in counts, findings ranked by kb/findings.yaml, flagged claims, coverage."""

from __future__ import annotations

from typing import Any, Mapping

from auditor.analyse.coverage import blocking
from auditor.model import Audit, Record

# The auditor's own route kinds: reads of configuration, and the effects outside the process (auditor/analyse/effects.py).
CONFIGURATION = ("effect-env", "effect-argv")
FLAGGED = ("contradicted", "unsupported")  # claim verdicts listed by name, in this order


def summarise(audit: Audit, findings_kb: Mapping[str, Any]) -> dict[str, Any]:
    """The summary of AUDIT; FINDINGS_KB (kb/findings.yaml) ranks the findings."""
    return {"server": _server(audit), "findings": _findings(audit, findings_kb), "claims": _claims(audit),
            "coverage": _coverage(audit)}


def tool_names(audit: Audit) -> list[str]:
    """The tools of the coverage ledger, in its order (advertised first)."""
    return list(dict.fromkeys(t["name"] for t in audit.ledger.get("tools", [])))


def of_tool(record: Record, name: str) -> bool:
    """Whether RECORD is about tool NAME: its `tool`, one of its `tools` (a list route), or a tool whose calls reach
    it (`reached_from` of an effect or state write)."""
    return record.attrs.get("tool") == name or name in (record.attrs.get("tools") or ()) \
        or name in (record.attrs.get("reached_from") or ())


def _server(audit: Audit) -> dict[str, Any]:
    effects: dict[str, list[str]] = {}
    config: dict[str, list[str]] = {}
    names: list[str] = []
    for r in audit.routes:
        if r.kind in CONFIGURATION:
            config.setdefault(r.kind, []).append(r.id)
            names += [n for n in r.attrs.get("names", []) if n not in names]
        elif r.kind.startswith("effect-"):
            effects.setdefault(r.kind, []).append(r.id)
    state = [o.id for o in audit.objects if o.kind == "state"]
    tools = tool_names(audit)
    return {"tools": tools,
            "effects": [{"kind": k, "what": _target(audit, ids[0]), "routes": ids, "tools": _reached_from(audit, ids)}
                        for k, ids in sorted(effects.items())],
            "state": state,
            "configuration": {"routes": [i for k in sorted(config) for i in config[k]], "environment": names,
                              "command_line": "effect-argv" in config}}


def _reached_from(audit: Audit, route_ids: list[str]) -> list[str]:
    """The tools whose calls reach any of these routes (analyse/annotations.with_reach), sorted."""
    ids = set(route_ids)
    return sorted({t for r in audit.routes if r.id in ids for t in r.attrs.get("reached_from") or ()})


def _target(audit: Audit, route_id: str) -> str:
    r = next(r for r in audit.routes if r.id == route_id)
    ends = r.attrs.get("endpoints") or []
    return ends[-1] if ends else r.kind


def _findings(audit: Audit, findings_kb: Mapping[str, Any]) -> dict[str, Any]:
    order = [c["level"] for c in findings_kb["consequences"]]
    kinds = list(findings_kb["kinds"])

    def rank(f: Record) -> tuple:
        level = findings_kb["kinds"][f.kind]["consequence"]
        return (order.index(level), kinds.index(f.kind), f.id)

    ranked = sorted(audit.findings, key=rank)
    return {"count": len(audit.findings), "advisories": len(audit.advisories),
            "ranked": [{"id": f.id, "kind": f.kind, "consequence": findings_kb["kinds"][f.kind]["consequence"],
                        "summary": f.summary, **({"tool": f.attrs["tool"]} if f.attrs.get("tool") else {})}
                       for f in ranked]}


def _claims(audit: Audit) -> dict[str, Any]:
    verdicts: dict[str, int] = {}
    for c in audit.claims:
        verdicts[c.attrs.get("verdict", "none")] = verdicts.get(c.attrs.get("verdict", "none"), 0) + 1
    flagged = [c for v in FLAGGED for c in audit.claims if c.attrs.get("verdict") == v]
    return {"count": len(audit.claims), "verdicts": dict(sorted(verdicts.items())),
            "flagged": [{"id": c.id, "verdict": c.attrs["verdict"], "quote": c.attrs.get("quote", c.summary),
                         "routes": list(c.attrs.get("routes") or []), "mismatch": c.attrs.get("mismatch") or ""}
                        for c in flagged]}


def _coverage(audit: Audit) -> dict[str, Any]:
    """Complete or not, and each reason it is not (the ledger's definition: auditor/report/json.complete)."""
    ledger = audit.ledger or {}
    why: list[str] = []
    gaps = blocking(audit.gaps, audit.method)
    by_kind: dict[str, int] = {}
    for g in gaps:
        by_kind[g.kind] = by_kind.get(g.kind, 0) + 1
    why += [f"{n} {kind} gap(s)" for kind, n in sorted(by_kind.items())]
    tools = [t for t in ledger.get("tools", []) if t["status"] not in {"analysed", "analysed, details not read"}]
    why += [f"tool {t['name']} {t['status']}: {'; '.join(t['reasons']) or 'no reason recorded'}" for t in tools]
    files = [f for f in ledger.get("files", []) if f["status"] == "parsed, not reached"]
    if files:
        names = ", ".join(f["path"] for f in files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
        why.append(f"{len(files)} file(s) parsed, not reached from an entry file: {names}")
    why += list(u["what"] for u in ledger.get("unresolved", []))
    complete = bool(ledger.get("complete", True)) and not gaps
    details = [t["name"] for t in ledger.get("tools", []) if t["status"] == "analysed, details not read"]
    return {"complete": complete, "why_not": why if not complete else [], "details_not_read": details}
