"""Decide a claim's verdict from the rules of kb/verdicts.yaml over the audit's routes, absences, findings."""

from __future__ import annotations

import re
from dataclasses import dataclass

from auditor.extract.facts import Program
from auditor.model import Record


@dataclass(frozen=True, kw_only=True, slots=True)
class Facts:
    routes: tuple[Record, ...]
    absences: dict[str, Record]  # probe id -> record
    findings: tuple[Record, ...]
    registered: tuple[str, ...]
    boundary: tuple[str, ...]

    @staticmethod
    def build(p: Program, records: dict) -> "Facts":
        return Facts(routes=tuple(records["routes"]),
                     absences={r.id.split(":", 2)[2]: r for r in records["absences"]},
                     findings=tuple(records["findings"]), registered=tuple(sorted({t.name for t in p.tools})),
                     boundary=tuple(m.path for m in p.modules))

    def of_kind(self, kind: str) -> list[Record]:
        return [r for r in self.routes if r.kind == kind]


def _field_kind(source: str) -> str:
    if re.search(r"Object\.keys\(|\.length\b|\.size\b", source):
        return "metadata"
    if re.fullmatch(r"[A-Za-z_$][\w$]*\.[A-Za-z_$][\w$]*", source) and not source.startswith("this."):
        return "echo"
    return "other"


def only_echo_and_metadata(facts: Facts) -> bool:
    responds = facts.of_kind("respond")
    fields = [f for r in responds for f in r.attrs.get("fields", [])]
    return bool(fields) and all(_field_kind(f["source"]) in {"echo", "metadata"} for f in fields)


def holds(cond: dict, claim: dict, facts: Facts) -> bool:
    if "all" in cond:
        return all(holds(c, claim, facts) for c in cond["all"])
    if "any" in cond:
        return any(holds(c, claim, facts) for c in cond["any"])
    if "not" in cond:
        return not holds(cond["not"], claim, facts)
    if "route" in cond:
        where = cond.get("where", {})
        return any(all((r.attrs.get(k) is not None) if v == "*" else r.attrs.get(k) == v for k, v in where.items())
                   for r in facts.of_kind(cond["route"]))
    if "absence" in cond:
        r = facts.absences.get(cond["absence"])
        # "not applicable" means the probe found nothing to examine: nothing was found either.
        return r is not None and r.attrs.get("status") in {"holds", "not applicable"}
    if "result" in cond:
        return only_echo_and_metadata(facts)
    if "claim" in cond:
        return all(claim.get(k) == v for k, v in cond["claim"].items())
    if "tool" in cond:
        if "tool" not in claim:
            return False
        registered = claim["tool"] in facts.registered
        return registered if cond["tool"] == "registered" else not registered
    raise ValueError(f"unknown condition {cond!r}")  # the schema makes this unreachable


def _cite(names: list[str], facts: Facts) -> list[str]:
    out = []
    for n in names:
        if n.startswith("absence:"):
            r = facts.absences.get(n.split(":", 1)[1])
            out += [r.id] if r is not None else []
        elif n.startswith("finding:"):
            out += [f.id for f in facts.findings if f.kind == n.split(":", 1)[1]]
        else:
            out += [r.id for r in facts.of_kind(n)]
    return out


def _fill(template: str, claim: dict, facts: Facts, cited: list[str]) -> str:
    sched = facts.absences.get("no-scheduling")
    values = {
        "cited": ", ".join(c for c in cited if c.startswith("RTE:")) or "no route",
        "boundary": ", ".join(facts.boundary) or "(no implementation file)",
        "fields": ", ".join(f["key"] for r in facts.of_kind("respond") for f in r.attrs.get("fields", [])) or "no fields",
        "passthrough": ", ".join((sched.attrs.get("passthrough_fields") if sched else None) or ["no field"]),
        "registered": ", ".join(repr(t) for t in facts.registered) or "no tool",
        "tool": repr(claim.get("tool", "")),
        "writes": ", ".join(r.id for r in facts.of_kind("state-write")) or "no write",
    }
    return template.format(**values)


def decide(claim: dict, facts: Facts, rules: dict) -> tuple[str, list[str], str]:
    """(verdict, cited record ids, one-sentence mismatch), the worst over the claim's operations."""
    order = rules["order"]
    results = []
    for op in claim["operations"]:
        for rule in rules["operations"][op]["rules"]:
            if "when" not in rule or holds(rule["when"], claim, facts):
                cited = _cite(rule["cite"], facts)
                results.append((rule["verdict"], cited, _fill(rule["mismatch"], claim, facts, cited)))
                break
    worst = min(results, key=lambda r: order.index(r[0]))
    cited = sorted({c for _, cs, _ in results for c in cs})
    mismatch = "; ".join(dict.fromkeys(m for _, _, m in results if m))
    return worst[0], cited, mismatch
