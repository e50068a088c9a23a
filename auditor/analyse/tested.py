"""Tests linked to the routes and claims they exercise: the tier 'tested', the test's anchor, and what it confirms.

A test exercises a route when it calls code that reaches the route (a function, a method or constructor of a class
it imports, or a tool by name) and asserts on a field the route determines: a result's field, a field of state the
result reads, a mutated field, the error flag. Nothing is run: this is what the tests' code states.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from auditor.analyse.test_verdicts import Strings, judge, message, shown, tokens
from auditor.extract.assertions import Assertion
from auditor.extract.tests import TestCase
from auditor.model import Anchor, Record, span

TESTED, GROUNDED = "tested", "code-grounded"


@dataclass(frozen=True, kw_only=True, slots=True)
class Link:
    """A test that exercises a route, with the assertions that bear on it and what they state about it."""

    test: str  # the test record's id
    anchor: Anchor  # the `it`/`test` block
    route: str
    via: str  # what the test calls that reaches the route
    fields: tuple[str, ...]  # the asserted fields the route determines
    verdict: str | None  # confirms | contradicts | None (exercised, nothing stated either way)
    detail: str

    def as_json(self) -> dict[str, Any]:
        return {"test": self.test, "anchor": str(self.anchor), "route": self.route, "via": self.via,
                "fields": list(self.fields), "verdict": self.verdict or "exercised", "detail": self.detail}


def test_ids(cases: list[TestCase]) -> list[str]:
    """A stable id per test: its file's module name and its titles, made a slug (`~2` when two slugs meet)."""
    out, seen = [], set()
    for case in cases:
        slug = re.sub(r"[^a-z0-9]+", "-", case.title.lower()).strip("-")[:120] or "test"
        tid, n = f"TST:{case.module}#{slug}", 2
        while tid in seen:
            tid, n = f"TST:{case.module}#{slug}~{n}", n + 1
        seen.add(tid)
        out.append(tid)
    return out


def links(prog, cases: list[TestCase], routes: list[Record], kb: dict) -> list[Link]:
    """Every (test, route) pair where the test reaches the route and asserts on what the route determines."""
    names = {m.name: m.path for m in prog.modules}
    fns = {(r.id): _function_of(r, names) for r in routes}
    responds = [r for r in routes if r.kind == "respond"]
    strings = Strings(prog)
    memo: dict = {}  # root function -> what it reaches: many tests call the same few functions
    out = []
    for tid, case in zip(test_ids(cases), cases):
        reached = _reach(prog, case, memo)
        by_path: dict[str, list] = {}  # reached functions per file, in reach order: an anchor is sought in its file's
        for k, (_, lo, hi) in reached.items():
            by_path.setdefault(k[0], []).append((lo, hi, k))
        tools = {t for t, _ in case.tools}
        for r in routes:
            key = fns[r.id]
            if r.kind == "dispatch" and r.attrs.get("tool") in tools and case.assertions:
                out.append(_link(tid, case, r, f"calls tool {r.attrs['tool']!r}", (), None,
                                 f"calls the tool by name (line {min(l for t, l in case.tools if t == r.attrs['tool'])}); "
                                 f"the test asserts {shown(case.assertions)}"))
                continue
            if key not in reached:
                key = next((k for a in r.anchors for lo, hi, k in by_path.get(a.path, ())
                            if lo <= a.start_line and a.end_line <= hi), None)
                if key is None:  # the route lies in no function the test reaches
                    continue
            answers = _answers(r, key, responds, fns, kb)
            hits = [a for a in case.assertions if _bears(a, r, answers, kb)]
            said = [a for a in case.assertions if message(a, kb) and strings.within(r, message(a, kb))]
            if not hits and not said:
                continue
            verdict, detail = judge(prog, case, r, key, hits, said, kb, [x for x in responds if fns[x.id] == key])
            fields = tuple(sorted({a.fields[0] if a.fields and a.fields[0] in answers else _last(a) for a in hits} - {""}))
            out.append(_link(tid, case, r, reached[key][0], fields, verdict, detail))
    return sorted(out, key=lambda l: (l.route, l.anchor, l.test))


def _link(tid, case, r, via, fields, verdict, detail) -> Link:
    return Link(test=tid, anchor=span(case.path, case.start_line, case.end_line), route=r.id, via=via,
                fields=fields, verdict=verdict, detail=detail)


def _function_of(r: Record, names: dict[str, str]) -> tuple[str, str] | None:
    """(module path, qualified name) of the function a route is in, from its component endpoint."""
    site = r.attrs.get("site_function")
    ends = [e.removeprefix("CMP:method:") for e in r.attrs.get("endpoints", []) if e.startswith("CMP:method:")]
    where = site or (ends[0] if ends else None)
    if not where or "#" not in where:
        return None
    module, qual = where.split("#", 1)
    return (names[module], qual) if module in names else None


def _reach(prog, case: TestCase, memo: dict) -> dict[tuple[str, str], tuple[str, int, int]]:
    """The functions the test's calls reach (transitively, through the code's own calls): the call that does, and
    the function's lines."""
    link, out = prog.linker, {}
    roots = []
    for c in case.calls:
        m = link.by_path.get(c.path)
        fn = _node(m, c.name) if m is not None else None
        if fn is not None:
            roots.append((m, fn, f"calls {c.name} of {c.path} at {case.path}:{c.line}{' (in a hook)' if c.setup else ''}"))
    for tool, line in case.tools:
        for d in prog.dispatches:
            if d.tool == tool and d.target is not None:
                roots += [(d.module, d.target, f"calls tool {tool!r} at {case.path}:{line}")]
                roots += [(fm, fn, f"calls tool {tool!r} at {case.path}:{line}") for fm, fn in d.handed]
    for m, fn, via in roots:
        if fn not in memo:
            memo[fn] = [((mm.path, mm.qualified(f)), f.start_point[0] + 1, f.end_point[0] + 1)
                        for mm, f in link.reachable([(m, fn)])]
        for key, start, end in memo[fn]:
            out.setdefault(key, (via, start, end))
    return out


def _node(m, name: str):
    if "." in name:
        cls, method = name.split(".", 1)
        info = m.classes.get(cls)
        return info.methods.get(method) if info is not None else None
    return m.functions.get(name)


def _answers(r: Record, key, responds: list[Record], fns: dict, kb: dict) -> set[str]:
    """The field names whose asserted value this route determines."""
    same = [x for x in responds if fns[x.id] == key]
    if r.kind == "respond":
        return {f["key"] for f in r.attrs.get("fields", [])} | set(kb["result_fields"]) | {kb["error_field"]}
    if r.kind == "state-write":
        short = next((e for e in r.attrs.get("endpoints", []) if e.startswith("OBJ:state:")), "").rsplit(".", 1)[-1]
        return {short} | {f["key"] for x in same for f in x.attrs.get("fields", []) if short in tokens(f["source"])} if short else set()
    if r.kind == "mutate":
        target = (r.attrs.get("endpoints") or [""])[-1]
        return {target.rsplit(".", 1)[-1]} | {f["key"] for x in same for f in x.attrs.get("fields", []) if f["source"] == target}
    if r.kind in {"error-capture", "fallback"}:
        return {kb["error_field"]}
    if r.kind == "gate":  # the fields it checks, which it passes on when they pass
        return {p["field"] for p in r.attrs.get("predicates", []) if p.get("field")}
    if r.kind == "unchecked-copy":
        return {f["field"] for f in r.attrs.get("fields", []) if f.get("field")}
    return set()


def _last(a: Assertion) -> str:
    named = [f for f in a.fields if f != "length"]
    return named[-1] if named else ""


def _failure(a: Assertion, kb: dict) -> bool | None:
    """For an assertion on the error flag: True when it states an error result, False a success, None unknown."""
    if a.matcher in kb["falsy_matchers"] or a.matcher in kb["equality_matchers"] and a.value in (False, None):
        return a.negated
    if a.matcher in kb["truthy_matchers"] or a.matcher in kb["equality_matchers"] and a.value is True:
        return not a.negated
    return None


def _bears(a: Assertion, r: Record, answers: set[str], kb: dict) -> bool:
    if not a.fields or not (set(a.fields) & answers):
        return False
    if a.fields[-1] == kb["error_field"] or (a.fields[0] == kb["error_field"] and len(a.fields) == 1):
        failure = _failure(a, kb)
        return failure is not None and failure == (r.kind in {"error-capture", "fallback"})
    return r.kind not in {"error-capture", "fallback"}


# -- records ---------------------------------------------------------------------------------------------
def records(cases: list[TestCase], found: list[Link], claims: list[Record], kb: dict) -> list[Record]:
    """One record per test block: what it calls and asserts, and the routes and claims it exercises."""
    out, by_test = [], {}
    for l in found:
        by_test.setdefault(l.test, []).append(l)
    for tid, case in zip(test_ids(cases), cases):
        mine = by_test.get(tid, [])
        routes = sorted({l.route for l in mine})
        clms = sorted({c.id for c in claims if set(c.attrs.get("routes", [])) & set(routes)})
        called = sorted({c.name for c in case.calls} | {f"tool {t!r}" for t, _ in case.tools})
        asserted = sorted({f"that it throws {a.expected or ''}".rstrip() if a.matcher in kb["throw_matchers"] else _last(a) or a.subject
                           for a in case.assertions})
        summary = (f"test {case.title!r}: calls {', '.join(called) or 'no code of the boundary it imports'}; "
                   f"asserts {', '.join(asserted) or 'nothing'}; "
                   + (f"exercises {', '.join(routes)}" if routes else "exercises no route (no assertion on what a reached route determines)"))
        verdicts = [l for l in mine if l.verdict]
        if verdicts:
            summary += "; " + "; ".join(f"{l.verdict} {l.route}" for l in verdicts)
        out.append(Record(category="test", id=tid, kind="test", summary=summary,
                          anchors=(span(case.path, case.start_line, case.end_line),), rule="extract.tests (kb/tests.yaml)",
                          attrs={"title": case.title, "calls": [f"{c.name} of {c.path} at {case.path}:{c.line}{' (in a hook)' if c.setup else ''}"
                                                                for c in case.calls],
                                 "tools": [f"{t} at {case.path}:{line}" for t, line in case.tools],
                                 "assertions": [{"line": a.line, "subject": a.subject, "matcher": ("not." if a.negated else "") + a.matcher,
                                                 "expected": a.expected} for a in case.assertions],
                                 "routes": routes, "claims": clms,
                                 "links": [l.as_json() for l in mine],
                                 **({"unresolved_imports": list(case.unresolved)} if case.unresolved else {})}))
    return out


def apply(routes: list[Record], claims: list[Record], found: list[Link]) -> tuple[list[Record], list[Record]]:
    """Routes and claims with their tier, and the tests that exercise them."""
    by_route: dict[str, list[Link]] = {}
    for l in found:
        by_route.setdefault(l.route, []).append(l)
    new_routes = [replace(r, attrs={**r.attrs, "tier": TESTED if r.id in by_route else GROUNDED,
                                    **({"tests": [l.as_json() for l in by_route[r.id]]} if r.id in by_route else {})})
                  for r in routes]
    new_claims = []
    for c in claims:
        mine = [l for rid in c.attrs.get("routes", []) for l in by_route.get(rid, [])]
        attrs = {**c.attrs, "tier": TESTED if mine else GROUNDED}
        if mine:
            attrs["tests"] = [l.as_json() for l in mine]
            attrs["test_support"] = support(mine)
        new_claims.append(replace(c, attrs=attrs))
    return new_routes, new_claims


def support(mine: list[Link]) -> str:
    """One sentence: what the tests state about the routes a claim's verdict rests on (read, not run)."""
    parts = []
    for verdict, said in (("contradicts", "contradicted by"), ("confirms", "confirmed by")):
        hits = [l for l in mine if l.verdict == verdict]
        for route in sorted({l.route for l in hits}):
            of = [l for l in hits if l.route == route]
            parts.append(f"{route} {said} {of[0].anchor} ({of[0].detail})" + (f" and {len(of) - 1} more test(s)" if len(of) > 1 else ""))
    rest = sorted({l.anchor for l in mine if not any(m.verdict and m.anchor == l.anchor for m in mine)})
    if rest:
        parts.append(f"exercised without a stated outcome by {len(rest)} test(s): " + ", ".join(map(str, rest[:3]))
                     + (", ..." if len(rest) > 3 else ""))
    return "tests (read, not run) of the routes this verdict rests on: " + "; ".join(parts)
