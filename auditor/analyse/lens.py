"""The epistemic lens: annotate routes and objects with the classifications of kb/lens.yaml."""

from __future__ import annotations

from dataclasses import replace

from auditor.model import Record


def routes(rtes: list[Record], paths: list[Record], lens: dict) -> list[Record]:
    by_route = {p.attrs["route"]: p.id for p in paths}
    out = []
    for r in rtes:
        rule = lens["routes"].get(r.kind, {"function": "unclassified", "epistemic": "unclassified", "operational": "unclassified"})
        out.append(replace(r, attrs={**r.attrs, "function": rule["function"], "epistemic_authority": rule["epistemic"],
                                     "operational_authority": rule["operational"], "path": by_route.get(r.id)}))
    return out


def objects(objs: list[Record], lens: dict) -> list[Record]:
    out = []
    for o in objs:
        rule = lens["objects"].get(o.kind)
        if rule is None:
            out.append(replace(o, attrs={**o.attrs, "truth_apt": "unclassified", "role": "unclassified", "disposition": "unclassified"}))
        else:
            out.append(replace(o, attrs={**o.attrs, "truth_apt": rule["truth_apt"], "role": rule["role"], "disposition": rule["disposition"]}))
    return out
