"""Behavioural-authority paths: who consumes each outbound route, through which channel, with what force."""

from __future__ import annotations

from auditor.extract.facts import Program
from auditor.extract.records import record
from auditor.extract.routes import launch_snippets
from auditor.model import Anchor, Record, merge_anchors


def paths(p: Program, routes: list[Record], objects: list[Record], method: dict) -> list[Record]:
    templates = {t["route_kind"]: t for t in method["paths"]}
    schemas = [o for o in objects if o.kind == "tool-schema"]
    captures = [r for r in routes if r.kind == "error-capture"]
    out = []
    for r in routes:
        t = templates.get(r.kind)
        if t is None:
            continue
        force, anchors = t["force"], list(r.anchors)
        if r.kind == "gate":
            # The enforcing path is the advertised schema plus the re-validation and its rejection.
            anchors += [a for o in schemas for a in o.anchors] + [a for c in captures for a in c.anchors]
            checked = sorted({x["field"] for x in r.attrs.get("predicates", [])})
            props = max((len(tl.schema.get("properties", {})) for tl in p.tools if isinstance(tl.schema, dict)), default=0)
            force += f"; enforced server-side over {len(checked)} of {props} declared properties, envelope shape only"
        out.append(_path(r.kind, r.id.split(":", 2)[2], t, r.id, force, merge_anchors(anchors)))
    t = templates.get("readme-launch")
    if t is not None:
        for path, fence, command, args in launch_snippets(p):
            out.append(_path("readme-launch", path.rsplit("/", 1)[-1], t, f"{path}:{fence.line}-{fence.end_line}", t["force"],
                             (Anchor(path=path, start_line=fence.line, end_line=fence.end_line),)))
    return out


def _path(kind: str, key: str, t: dict, route: str, force: str, anchors) -> Record:
    channel = t["channel"].format(route=route)
    return record("path", "BAP", kind, key, f"{t['consumer']} <- {channel}: {force}", anchors, f"kb/method.yaml#paths/{kind}",
                  consumer=t["consumer"], channel=channel, force=force, horizon=t["horizon"], route=route)
