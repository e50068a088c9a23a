"""What each material loop's gaps mean for a user: its own records, then the claim verdicts and findings bearing on it."""

from __future__ import annotations

from auditor.analyse.lookup import absence
from auditor.model import Audit, Record, Statement

_SHORT = ("contradicted", "unsupported", "partial")  # worst first: the verdicts that leave a user short


def _claim_loop(c: Record, tools: set[str]) -> tuple[str, str | None]:
    """(loop kind, tool) a claim bears on: a served tool's call, else the operator's install and launch decision."""
    channel = c.attrs.get("channel") or ""
    tool = c.attrs.get("tool") or (channel.split(":", 1)[1] if channel.split(":", 1)[0] in {"tool-description", "annotations"} else None)
    return ("call", tool) if tool in tools else ("lifecycle", None)


def _subject(c: Record, verdicts_kb: dict) -> str:
    """What a user relies on: the server doing the claim's operations (kb/verdicts.yaml), or else the claim's own words."""
    ops = c.attrs.get("operations") or []
    if ops and all(op in verdicts_kb["operations"] for op in ops):
        return "the server to " + " and ".join(ops)
    return f"the claim {c.attrs.get('quote') or c.summary!r}"


def _finding_loop(f: Record, kinds: dict, tools: set[str]) -> tuple[str, str | None]:
    loop = kinds[f.kind]["loop"]
    tool = f.attrs.get("tool")
    return (loop, tool if loop == "call" and tool in tools else None)


def bearing(audit: Audit, kind: str, tool: str | None, kbs: dict, spans=None) -> tuple[Statement, ...]:
    """The materiality of the loop of KIND (lifecycle, advertisement, call) for TOOL (call loops only, whose call runs
    the lines SPANS): what the loop's own records mean for a user (kb/method.yaml loop_impacts), then the claim verdicts
    and findings bearing on it."""
    return _own(audit, kind, kbs["method"]["loop_impacts"], spans) + _bearing(audit, kind, tool, kbs["findings"], kbs["verdicts"], spans)


def _own(audit: Audit, kind: str, rules: list[dict], spans) -> tuple[Statement, ...]:
    out = []
    for rule in rules:
        if rule["loop"] != kind:
            continue
        probes = [absence(audit, p) for p in rule["holds"]]
        found = [r for r in audit.routes if r.kind in rule["routes"] and _inside(r, spans)]
        if all(probes) and all(p.attrs.get("status") == "holds" for p in probes) and all(
                any(r.kind == k for r in found) for k in rule["routes"]):
            cited = [p for p in probes if p is not None] + found
            out.append(Statement(head=rule["head"], text=rule["impact"], records=tuple(r.id for r in cited),
                                 evidence=tuple(a for r in cited for a in r.anchors[:1])))
    return tuple(out)


def _inside(r: Record, spans) -> bool:
    return spans is None or any(s.path == a.path and s.start_line <= a.start_line <= s.end_line for a in r.anchors for s in spans)


def _bearing(audit: Audit, kind: str, tool: str | None, findings_kb: dict, verdicts_kb: dict, spans) -> tuple[Statement, ...]:
    tools = {r.attrs.get("tool") for r in audit.routes if r.kind == "dispatch"}

    def mine(where: tuple[str, str | None], r: Record) -> bool:
        # a call finding that names no served tool bears on the call loops whose code holds it (all when not traced)
        return where[0] == kind and (kind != "call" or where[1] == tool or (where[1] is None and _inside(r, spans)))
    out = []
    for verdict in _SHORT:
        groups: dict[str, list[Record]] = {}
        for c in audit.claims:
            if c.attrs.get("verdict") == verdict and mine(_claim_loop(c, tools), c):
                groups.setdefault(_subject(c, verdicts_kb), []).append(c)
        for subject, claims in sorted(groups.items()):
            out.append(Statement(head=f"claims {verdict}", text=verdicts_kb["impacts"][verdict].format(subject=subject),
                                 records=tuple(c.id for c in claims), evidence=tuple(a for c in claims for a in c.anchors[:1])))
    kinds = findings_kb["kinds"]
    by_kind: dict[str, list[Record]] = {}
    for f in audit.findings + audit.advisories:
        if mine(_finding_loop(f, kinds, tools), f):
            by_kind.setdefault(f.kind, []).append(f)
    for k, fs in sorted(by_kind.items()):
        level = kinds[k]["level"]
        out.append(Statement(head=f"{k} ({level})", text=kinds[k]["impact"], records=tuple(f.id for f in fs),
                             evidence=tuple(a for f in fs for a in f.anchors[:1])))
    return tuple(out)
