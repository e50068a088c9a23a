"""What the reports show first: the summary (audit.summary, capped to one screen) and one section per tool. Pure."""

from __future__ import annotations

from typing import Any

from auditor.analyse.summary import of_tool, tool_names
from auditor.model import Audit

# Caps that keep the summary on one screen (about 40 lines) whatever the size of the server; what is cut is
# counted, and all of it is in the record tables and in audit.json's summary.
TOOLS, NAMES, KINDS, IDS, CLAIMS, TEXT = 8, 6, 8, 3, 6, 160


def clip(text: str, limit: int = TEXT) -> str:
    """TEXT cut to LIMIT characters at a word, with an ellipsis: a line of the summary, not the record."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + " …"


def _short(record_id: str) -> str:
    """A record's name without its kind and module prefix (`OBJ:state:index#a.b` -> `a.b`)."""
    return record_id.rsplit("#", 1)[-1] if "#" in record_id else record_id.rsplit(":", 1)[-1]


def summary(audit: Audit) -> dict[str, Any]:
    """The summary's content as the templates show it: lists capped, with the count of what is left out."""
    s = audit.summary or {}
    if not s:
        return {}
    server, findings, claims = s["server"], s["findings"], s["claims"]
    return {
        "tools": server["tools"][:TOOLS], "tools_more": max(0, len(server["tools"]) - TOOLS), "tool_count": len(server["tools"]),
        "effects": server["effects"],
        "state": [(i, _short(i)) for i in server["state"][:NAMES]], "state_more": max(0, len(server["state"]) - NAMES),
        "state_count": len(server["state"]),
        "environment": server["configuration"]["environment"][:NAMES],
        "environment_more": max(0, len(server["configuration"]["environment"]) - NAMES),
        "config_route": (server["configuration"]["routes"] or [None])[0],
        "command_line": server["configuration"]["command_line"],
        "findings": _groups(findings["ranked"])[:KINDS],
        "findings_more": max(0, len(_groups(findings["ranked"])) - KINDS), "finding_count": findings["count"],
        "advisory_count": findings["advisories"],
        "verdicts": list(claims["verdicts"].items()), "claim_count": claims["count"],
        "flagged": [{**c, "quote": clip(c["quote"], 120)} for c in claims["flagged"][:CLAIMS]],
        "flagged_more": max(0, len(claims["flagged"]) - CLAIMS), "flagged_count": len(claims["flagged"]),
        "coverage": s["coverage"],
    }


def _groups(ranked: list[dict]) -> list[dict[str, Any]]:
    """The ranked findings one line per kind, in rank order: its consequence, count, first ids and first summary."""
    kinds: dict[str, list[dict]] = {}
    for f in ranked:
        kinds.setdefault(f["kind"], []).append(f)
    return [{"kind": k, "consequence": fs[0]["consequence"], "count": len(fs), "ids": [f["id"] for f in fs[:IDS]],
             "more": max(0, len(fs) - IDS), "summary": clip(fs[0]["summary"])} for k, fs in kinds.items()]


def tools(audit: Audit) -> list[dict[str, Any]]:
    """One section per tool of the ledger: its row, and every record about it (descriptor, routes, findings,
    advisories, claims) with a link to that record's row."""
    ledger = {t["name"]: t for t in audit.ledger.get("tools", [])}
    out = []
    for name in tool_names(audit):
        rows = [(o.id, "descriptor" if o.kind.startswith("tool-") else o.kind, o.summary) for o in audit.objects if of_tool(o, name)]
        rows += [(r.id, "reached by a call" if name in (r.attrs.get("reached_from") or ()) else "route", r.summary)
                 for r in audit.routes if of_tool(r, name)]
        rows += [(f.id, f"finding ({f.kind})", f.summary) for f in audit.findings if of_tool(f, name)]
        rows += [(f.id, f"advisory ({f.kind})", f.summary) for f in audit.advisories if of_tool(f, name)]
        claims = [(c.id, c.attrs.get("verdict", ""), c.attrs.get("quote", c.summary), list(c.attrs.get("routes") or []))
                  for c in audit.claims if of_tool(c, name)]
        out.append({"name": name, "ledger": ledger[name], "rows": [(i, k, clip(t)) for i, k, t in rows],
                    "claims": [(i, v, clip(q, 120), r) for i, v, q, r in claims]})
    return out
