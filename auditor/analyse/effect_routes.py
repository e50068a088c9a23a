"""Effect routes: the records of effect sites (analyse/effects.py), one per kind and function, with trigger and endpoints."""

from __future__ import annotations

import tree_sitter as ts

from auditor.analyse.effects import ROUTE_KINDS, Effects, Site
from auditor.extract.facts import Program
from auditor.extract.records import at, key, record, unique
from auditor.model import Record

_TARGETS = {"effect-env": "process environment", "effect-argv": "command line", "effect-fs-read": "filesystem",
            "effect-fs-write": "filesystem", "effect-network": "network", "effect-subprocess": "child process",
            "effect-browser": "browser"}


def _context(p: Program, cmp_ids: set[str]) -> dict[ts.Node, tuple[str, str | None]]:
    """Function node -> (trigger, component id) for handlers, tool implementations and launch functions."""
    out: dict[ts.Node, tuple[str, str | None]] = {}
    for l in p.launches:
        if l.fn is not None:
            out[l.fn] = ("process launch", f"CMP:entrypoint:{key(l.module.name, l.fn_name)}")
    for h in p.handlers:
        if h.fn is not None:
            out[h.fn] = (f"host {h.method} request", f"CMP:handler:{key(h.module.name, h.method)}")
    tools: dict[ts.Node, list[str]] = {}
    for d in p.dispatches:
        if d.target is not None:
            tools.setdefault(d.target, []).append(d.tool)
    for fn, names in tools.items():
        out.setdefault(fn, ("host tools/call with name " + " or ".join(repr(n) for n in sorted(set(names))), None))
    return out


def _endpoint(p: Program, s: Site, ctx: dict, cmp_ids: set[str]) -> str:
    ident = f"CMP:method:{key(s.module.name, s.function)}"
    if ident in cmp_ids:
        return ident
    c = ctx.get(s.fn) if s.fn is not None else None
    if c is not None and c[1] in cmp_ids:
        return c[1]
    return key(s.module.name, s.function)


def _describe(s: Site) -> str:
    if s.kind == "effect-env":
        return ", ".join("the whole environment" if n == "*" else n for n in s.names)
    if s.kind == "effect-argv":
        return s.what
    extra = f" {s.detail}" if s.detail and s.detail != s.what.split(".")[-1] else ""
    return f"{s.what}{extra} ({s.cls})"


_VERBS = {"effect-env": "reads the environment:", "effect-argv": "reads the command line:",
          "effect-fs-read": "reads the filesystem:", "effect-fs-write": "writes the filesystem:",
          "effect-network": "reaches the network:", "effect-subprocess": "starts a process:",
          "effect-browser": "launches a browser:"}


def routes(p: Program, fx: Effects, components: list[Record]) -> list[Record]:
    cmp_ids = {c.id for c in components}
    ctx = _context(p, cmp_ids)
    groups: dict[tuple[str, str, str], list[Site]] = {}
    for s in fx.sites:
        if s.kind in ROUTE_KINDS:
            groups.setdefault((s.kind, s.module.name, s.function), []).append(s)
    out = []
    for (kind, mk, fname), ss in groups.items():
        ss = sorted(ss, key=lambda s: s.node.start_byte)
        first = ss[0]
        trigger = ctx[first.fn][0] if first.fn is not None and first.fn in ctx else \
            ("process start (module top level)" if first.fn is None else f"every call of `{fname}`")
        worlds = sorted({s.world for s in ss if s.world})
        target = _TARGETS[kind] + (f" ({', '.join(worlds)} world)" if worlds else "")
        names = sorted({n for s in ss for n in s.names})
        shown = ", ".join(dict.fromkeys(n for s in ss for n in _describe(s).split(", "))) if kind == "effect-env" \
            else "; ".join(dict.fromkeys(_describe(s) for s in ss))
        where = "at module top level" if first.fn is None else f"in `{fname}`"
        out.append(record("route", "RTE", kind, key(mk, fname), f"{_VERBS[kind]} {shown} {where}",
                          [at(s.module.path, s.node) for s in ss], "analyse.effects (kb/effects.yaml)",
                          trigger=trigger, endpoints=[_endpoint(p, first, ctx, cmp_ids), target],
                          site_function=key(mk, fname), classes=sorted({s.cls for s in ss}),
                          **({"names": names} if kind == "effect-env" else {}),
                          sites=[{"call": s.what, "class": s.cls, "detail": s.detail, "provider": s.provider,
                                  "conditional": s.conditional, "line": s.lines[0], "end_line": s.lines[1]} for s in ss]))
    return unique(out)
