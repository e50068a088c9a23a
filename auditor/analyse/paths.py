"""Behavioural-authority paths: who consumes each outbound route, through which channel, with what force."""

from __future__ import annotations

from auditor.extract.facts import Program
from auditor.extract.records import record
from auditor.extract.routes import launch_snippets
from auditor.model import Anchor, Record, merge_anchors


def paths(p: Program, routes: list[Record], objects: list[Record], method: dict) -> list[Record]:
    templates = {(t["route_kind"], t.get("variant")): t for t in method["paths"]}
    schemas = [o for o in objects if o.kind == "tool-schema"]
    captures = [r for r in routes if r.kind == "error-capture"]
    out = []
    for r in routes:
        t = templates.get((r.kind, r.attrs.get("variant"))) or templates.get((r.kind, None))
        if t is None:
            continue
        force, anchors = t["force"], list(r.anchors)
        if r.attrs.get("enforcer"):
            # A framework's parse: the route's own schema, every declared property, what each check enforces.
            preds = r.attrs.get("predicates", [])
            force += f"; enforces over all {len(preds)} declared properties: " + "; ".join(x["source"] for x in preds)
        elif r.kind == "gate":
            # The enforcing path is the advertised schema plus the re-validation and its rejection.
            anchors += [a for o in schemas for a in o.anchors] + [a for c in captures for a in c.anchors]
            checked = sorted({x["field"] for x in r.attrs.get("predicates", [])})
            props = max((len(tl.schema.get("properties", {})) for tl in p.tools if isinstance(tl.schema, dict)), default=0)
            force += f"; enforced server-side over {len(checked)} of {props} declared properties, envelope shape only"
        out.append(_path(r.kind, r.id.split(":", 2)[2], t, r.id, force, merge_anchors(anchors)))
    t = templates.get(("readme-launch", None))
    if t is not None:
        # One path per README: the README is the channel, its snippets the anchors (one id per file, never repeated).
        fences: dict[str, dict[tuple[int, int], None]] = {}
        for path, fence, _, _ in launch_snippets(p):
            fences.setdefault(path, {})[(fence.line, fence.end_line)] = None
        for path, spans in sorted(fences.items()):
            where = f"{path}:" + ", ".join(f"{a}-{b}" for a, b in spans)
            out.append(_path("readme-launch", _readme_key(p, path), t, where, t["force"], tuple(Anchor(path=path, start_line=a, end_line=b) for a, b in spans)))
    return out


def _readme_key(p: Program, path: str) -> str:
    """The README's path inside the boundary (its file name for the server's own README)."""
    e = p.entry(path)
    return e.rel if e is not None else path.rsplit("/", 1)[-1]


def _path(kind: str, key: str, t: dict, route: str, force: str, anchors) -> Record:
    channel = t["channel"].format(route=route)
    return record("path", "BAP", kind, key, f"{t['consumer']} <- {channel}: {force}", anchors, f"kb/method.yaml#paths/{kind}",
                  consumer=t["consumer"], channel=channel, force=force, horizon=t["horizon"], route=route)
