"""Tool annotations as claims: each hint checked against what its tool reaches, by kb/annotations.yaml."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

import tree_sitter as ts

from auditor.analyse import own_effects
from auditor.analyse.effects import ROUTE_KINDS, Effects, conditional
from auditor.errors import AuditorError
from auditor.extract.facts import Program
from auditor.extract.program import Module
from auditor.extract import flow, state
from auditor.extract.records import at, key
from auditor.extract.syntax import (NOT_LITERAL, call_args, enclosing_function, find, literal, member_chain, object_pairs, pair_value,
                                    strip_casts, text, walk)
from auditor.model import Anchor, Record

HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


@dataclass(frozen=True, kw_only=True, slots=True)
class Reached:
    """One site a tool reaches: an effect site or an in-process state write."""

    kind: str  # route kind, or `dependency`
    cls: str
    conditional: bool
    anchor: Anchor
    what: str
    world: str | None
    route: str | None  # the id of the route record that holds it
    fixed: bool = True  # its target (path, URL) is chosen by the server, not passed down by a caller
    own: bool = False  # a file write whose path the server alone makes (own_effects.chosen_by_caller is False)
    shared: bool = False  # the server's bookkeeping: reached from most of its tools (kb/annotations.yaml bookkeeping)
    setup: bool = False  # inside a function that returns early once it has run (own_effects.one_time)


def hints(tool, vocab: dict) -> tuple[dict, ts.Node | None]:
    """The tool's literal hints and the annotations node (read from a descriptor literal when the
    extractor has not filled them)."""
    if tool.annotations:
        return {k: v for k, v in tool.annotations.items() if k in HINTS}, tool.annotations_node
    pairs = object_pairs(tool.node) if tool.node is not None and strip_casts(tool.node).type == "object" else {}
    key = vocab.get("high_level", {}).get("descriptor_annotations", "annotations")
    node = strip_casts(pair_value(pairs[key])) if key in pairs else None
    value = literal(node, tool.module.toplevel) if node is not None else NOT_LITERAL
    if not isinstance(value, dict):
        return {}, None
    return {k: v for k, v in value.items() if k in HINTS}, node


# -- what a tool reaches ---------------------------------------------------------------------

def _instances(m: Module) -> dict[str, ts.Node]:
    """Receiver text (`x`, `this.x`) -> the `new C(...)` that made it, anywhere in the module."""
    out: dict[str, ts.Node] = {}
    for n in find(m.tree.root_node, {"variable_declarator", "assignment_expression"}):
        if n.type == "variable_declarator":
            target, value = n.child_by_field_name("name"), n.child_by_field_name("value")
        elif n.type == "assignment_expression":
            target, value = n.child_by_field_name("left"), n.child_by_field_name("right")
        else:
            continue
        value = strip_casts(value)
        if target is not None and value is not None and value.type == "new_expression":
            out.setdefault(text(target), value)
    return out


def _instance_call(p: Program, m: Module, call: ts.Node, cache: dict):
    """`x.method()` or `this.x.method()` where `x` was made by `new C(...)` somewhere in the module and C
    is a class of the boundary: the linker resolves only module-level instances."""
    chain = member_chain(call.child_by_field_name("function"))
    if not chain or len(chain) < 2 or (len(chain) == 3 and chain[0] != "this") or len(chain) > 3:
        return None
    if m.path not in cache:
        cache[m.path] = _instances(m)
    made = cache[m.path].get(".".join(chain[:-1]))
    if made is None:
        return None
    where = p.linker.binding(m, text(made.child_by_field_name("constructor")))
    info = where[0].classes.get(where[1]) if where is not None else None
    return (where[0], info.methods[chain[-1]]) if info is not None and chain[-1] in info.methods else None


def _reach(p: Program, roots: list[tuple[Module, ts.Node]], cache: dict) -> list[tuple[Module, ts.Node]]:
    seen: dict[ts.Node, Module] = {}
    todo = list(roots)
    while todo:
        m, fn = todo.pop()
        if fn in seen:
            continue
        seen[fn] = m
        for n in walk(fn):
            if n.type == "call_expression":
                hit = p.linker.resolve(m, n)
                found = (hit[0], hit[1]) if hit is not None else _instance_call(p, m, n, cache)
                if found is not None and found[1] not in seen:
                    todo.append(found)
    return [(m, fn) for fn, m in seen.items()]


@dataclass(frozen=True, kw_only=True, slots=True)
class Region:
    """The code a call of one tool runs: line spans, and the functions reached (with their modules)."""

    spans: tuple[Anchor, ...]
    functions: tuple[tuple[Module, ts.Node], ...]
    bodies: tuple[tuple[Module, ts.Node], ...] = ()  # dispatch branches inside a tools/call handler
    guards: tuple[str, ...] = ()  # their `name === ...` conditions: tool selection, not a branch of the tool


def regions(p: Program, tool: str, cache: dict | None = None) -> Region | None:
    """Its dispatch branch or callback and every function reachable from it; None when no dispatch
    to the tool was found."""
    ds = [d for d in p.dispatches if d.tool == tool]
    if not ds or p.linker is None:
        return None
    cache = {} if cache is None else cache
    spans, roots, bodies, guards = [], [], [], []
    for d in ds:
        m = d.module
        if d.handler is not None:
            parts = _branch(d)
            spans.append(at(m.path, parts[0], parts[-1]))
            bodies += [(m, part) for part in parts]
            if d.node.type == "if_statement" and d.form != "guard":
                guards.append(text(strip_casts(d.node.child_by_field_name("condition"))))
            for n in (n for part in parts for n in walk(part)):
                if n.type == "call_expression":
                    hit = p.linker.resolve(m, n)
                    found = (hit[0], hit[1]) if hit is not None else _instance_call(p, m, n, cache)
                    if found is not None:
                        roots.append(found)
            if d.form == "table" and d.target is not None:  # an entry of a lookup table: the function it dispatches to
                roots.append((p.linker.module_of(d.target) or m, d.target))
        elif d.target is not None:
            roots.append((p.linker.module_of(d.target) or m, d.target))
        else:
            spans.append(at(m.path, d.node))
    fns = _reach(p, roots, cache)
    return Region(spans=tuple(spans + [at(mod.path, fn) for mod, fn in fns]), functions=tuple(fns), bodies=tuple(bodies),
                  guards=tuple(guards))


def _branch(d) -> list[ts.Node]:
    """The statements that implement D's tool: the branch taken for it, or, behind an exclusion guard
    (`if (name !== "x") throw ...`), the statements that follow the guard in its block."""
    if d.form == "guard":
        rest, node = [], d.node.next_named_sibling
        while node is not None:
            if node.type != "comment":
                rest.append(node)
            node = node.next_named_sibling
        return rest or [d.node]
    body = d.node.child_by_field_name("consequence") if d.node.type == "if_statement" else d.node
    return [body if body is not None else d.node]


def _inside(a: Anchor, spans: dict[str, list[tuple[int, int]]]) -> bool:
    """Whether anchor A starts inside one of SPANS (the line ranges of a region, by path: `_by_path`)."""
    return any(lo <= a.start_line <= hi for lo, hi in spans.get(a.path, ()))


def _by_path(spans) -> dict[str, list[tuple[int, int]]]:
    out: dict[str, list[tuple[int, int]]] = {}
    for s in spans:
        out.setdefault(s.path, []).append((s.start_line, s.end_line))
    return out


def _callers(p: Program, region: Region):
    """fn -> the calls of it inside the region, as (module, call)."""
    table: dict[ts.Node, list[tuple[Module, ts.Node]]] = {}
    for m, fn in list(region.functions) + list(region.bodies):
        for n in walk(fn):
            if n.type == "call_expression":
                hit = p.linker.resolve(m, n) if p.linker is not None else None
                if hit is not None:
                    table.setdefault(hit[1], []).append((m, n))
    return lambda fn: table.get(fn, [])


CACHE_FILL = " to fill a cache"


def _memo(p: Program, path: str, key_name: str, lines: tuple[int, int], reached=None) -> bool:
    """Whether every write to the container inside the lines only fills a cache (own_effects.is_memo), empties a
    container that is only ever filled so (own_effects.is_cache: `cache.clear()` of a memo table), or fills a buffer
    each call empties first (own_effects.is_scratch), makes an empty entry where a key has none for a function that
    returns it (own_effects.is_get_or_create), or writes a wrapper class's storage for callers (at the sites
    REACHED accepts) that use its instances as caches (own_effects.wrapped_cache)."""
    c = next((c for c in p.containers if c.module.path == path and c.key == key_name), None)
    writes = [a for a in c.writes if lines[0] <= a.line <= lines[1]] if c is not None else []
    return bool(writes) and all(own_effects.is_memo(c, a) or a.how in {"clear", "delete"} and own_effects.is_cache(c)
                                or own_effects.is_scratch(c, a) or own_effects.is_get_or_create(c, a)
                                or own_effects.wrapped_cache(c, a, _holders(p), reached) for a in writes)


def _holders(p: Program):
    """class name -> the containers holding an instance of it, across the program (state.instances), memoised."""
    memo = p.linker.memo if p.linker is not None else {}
    held = memo.setdefault("annotations.holders", {})
    made = memo.get("annotations.made_in")
    if made is None:  # class name -> the modules constructing it: one pass over their `new` captures
        made = memo["annotations.made_in"] = {}
        for m in p.modules:
            for name in dict.fromkeys(text(n.child_by_field_name("constructor")) for n in m.nodes("new")):
                made.setdefault(name, []).append(m)

    def holders(cls: str) -> list:
        if cls not in held:
            held[cls] = [h for m in made.get(cls, ()) for h in state.instances(m, cls, p.vocab)]
        return held[cls]
    return holders


def _undone(p: Program, path: str, key_name: str, lines: tuple[int, int]) -> bool:
    """Whether every write to the container inside the lines deletes an entry the same function set before
    (own_effects.is_undo)."""
    c = next((c for c in p.containers if c.module.path == path and c.key == key_name), None)
    writes = [a for a in c.writes if lines[0] <= a.line <= lines[1]] if c is not None else []
    return bool(writes) and all(own_effects.is_undo(c, a) for a in writes)


def _file_writes(fx: Effects):
    """fn -> (path text, start byte) of each file write (not a delete) in it, for own_effects.removes_own_file."""
    table: dict[int, list[tuple[str, int]]] = {}
    for s in fx.sites:
        if s.kind == "effect-fs-write" and s.cls not in {"delete", "read"} and s.node.type == "call_expression" \
                and call_args(s.node):
            fn = enclosing_function(s.node)
            if fn is not None:
                table.setdefault(fn.id, []).append((text(strip_casts(call_args(s.node)[0])), s.node.start_byte))
    return lambda fn: table.get(fn.id, [])


def reached(p: Program, fx: Effects, routes: list[Record], region: Region, effects_kb: dict,
            kb: dict | None = None) -> list[Reached]:
    """Effect sites and state writes inside the region, each with the route that records it (state
    writes of functions the extractor did not trace are found here, and cite their container). With the
    annotations kb, a subprocess is classed by the command it runs and a write that fills a cache is `cache`."""
    spans = _by_path(region.spans)
    callers = _callers(p, region) if kb is not None else None
    written = _file_writes(fx) if kb is not None else None
    mine = {fn for _, fn in region.functions} | {enclosing_function(b) for _, b in region.bodies}
    inside = mine.__contains__

    def in_region(node: ts.Node) -> bool:  # a site in the code of the tool's region
        fn = enclosing_function(node)
        while fn is not None and fn not in mine:
            fn = enclosing_function(fn.parent) if fn.parent is not None else None
        return fn is not None
    index: dict[tuple[str, str], list[tuple[Anchor, str]]] = {}
    for r in routes:
        if r.kind in ROUTE_KINDS:
            for a in r.anchors:
                index.setdefault((r.kind, a.path), []).append((a, r.id))
    out: dict[tuple, Reached] = {}
    for s in fx.sites:
        if s.kind in {"effect-env", "effect-argv"} or s.module.path not in spans:
            continue  # (most sites of a large server lie in files the region does not touch)
        start, end = s.lines
        a = Anchor(path=s.module.path, start_line=start, end_line=end)
        if not _inside(a, spans):
            continue
        route = next((rid for ra, rid in index.get((s.kind, a.path), []) if ra.start_line <= start <= ra.end_line), None)
        what = f"{s.what}" + (f" {s.detail}" if s.detail and s.detail != s.what.split(".")[-1] and s.kind != "dependency" else "")
        # inside a dispatch branch, only branches within it make the site conditional
        body = next((b for m, b in region.bodies if m is s.module and b.start_byte <= s.node.start_byte < b.end_byte), None)
        cond = conditional(s.node, body) if body is not None else s.conditional
        cls = s.cls
        if kb is not None and s.kind == "effect-fs-write" and cls == "delete" and s.node.type == "call_expression" \
                and own_effects.removes_own_file(s.node, written, callers):
            cls, what = "undo", what + " of a file the same call wrote before"
        if kb is not None and s.kind == "effect-subprocess" and cls == "execute":
            cls, shown = own_effects.command_class(own_effects.command_lines(s.node, s.module, callers), kb)
            what += f" `{shown}`" + {"read": " (a read-only command)", "execute": " (a command that writes)",
                                     "unknown": " (a command not known to be read-only)"}[cls]
        out[(s.kind, a, s.cls, s.what)] = Reached(kind=s.kind, cls=cls, conditional=cond, anchor=a, what=what,
                                                  world=_world(s, callers), route=route,
                                                  fixed=s.node.type != "call_expression" or own_effects.fixed_target(s.node),
                                                  own=kb is not None and s.kind == "effect-fs-write"
                                                  and s.node.type == "call_expression"
                                                  and not own_effects.chosen_by_caller(s.node, callers, inside),
                                                  setup=kb is not None and (own_effects.one_time(s.node) or own_effects.created_once(
                                                      s.node, frozenset(kb["bookkeeping"].get("existence_tests", ())))))
    ops = effects_kb["state_operations"]
    for r in routes:
        if r.kind != "state-write" or not any(_inside(a, spans) for a in r.anchors):
            continue
        container = re.search(r"`([^`]+)`", r.summary)
        for op in r.attrs.get("operations", []):
            base = op.split(".")[-1].lstrip("[]")
            cls = ops.get(base, "write")
            if r.attrs.get("lazy_init") and base in {"index-assign", "set"}:
                cls = "create"  # a bucket made only when the key is absent
            what = f"writes `{container.group(1) if container else r.id}` ({op})"
            a0 = r.anchors[0]
            if kb is not None and container and _memo(p, a0.path, container.group(1), (a0.start_line, a0.end_line),
                                                      in_region):
                cls, what = "cache", what + CACHE_FILL
            elif kb is not None and container and base == "delete" \
                    and _undone(p, a0.path, container.group(1), (a0.start_line, a0.end_line)):
                cls, what = "undo", what + " of an entry the same call set before"
            out[("state-write", r.anchors[0], cls, r.id)] = Reached(
                kind="state-write", cls=cls, conditional=r.attrs.get("condition") not in {None, *region.guards}, anchor=r.anchors[0],
                what=what, world=None, route=r.id)
    traced = {f.fn for f in p.flows}
    for m, fn in region.functions:
        if fn in traced:
            continue
        for w in flow.write_groups(m, fn, list(p.containers)):
            a = at(m.path, w.node)
            for op in w.hows:
                base = op.split(".")[-1].lstrip("[]")
                cls = "create" if w.lazy_init and base in {"index-assign", "set"} else ops.get(base, "write")
                memo = kb is not None and _memo(p, m.path, w.container.key, (a.start_line, a.end_line), in_region)
                undo = kb is not None and not memo and base == "delete" \
                    and _undone(p, m.path, w.container.key, (a.start_line, a.end_line))
                out[("state-write", a, cls, w.container.key)] = Reached(
                    kind="state-write", cls="cache" if memo else "undo" if undo else cls,
                    conditional=w.condition is not None, anchor=a,
                    what=f"writes `{w.container.key}` ({op})" + (CACHE_FILL if memo else "")
                    + (" of an entry the same call set before" if undo else ""), world=None,
                    route=f"OBJ:state:{key(w.container.module.name, w.container.key)}")
    return sorted(out.values(), key=lambda x: (x.anchor, x.kind, x.what))


def _world(s, callers=None) -> str | None:
    """The world of a site: an open-world HTTP call written to a loopback host is `closed` (a service on the same
    machine); one whose host the server chooses is `fixed-host` (a service the server is built for, or one the
    operator configures), which the code does not show to be an open world."""
    if s.world == "open" and s.kind == "effect-network" and s.node.type == "call_expression" \
            and own_effects.loopback_host(s.node):
        return "closed"  # (a service on the same machine, at a host the code writes)
    if s.world == "open" and s.kind == "effect-network" and s.node.type == "call_expression" \
            and own_effects.fixed_host(s.node, callers):
        return "fixed-host"
    return s.world


# -- verdicts --------------------------------------------------------------------------------

def _has(trait: dict, item: Reached) -> bool:
    return (not trait.get("classes") or item.cls in trait["classes"]) and (not trait.get("kinds") or item.kind in trait["kinds"]) \
        and (not trait.get("unconditional") or not item.conditional) and (not trait.get("world") or item.world == trait["world"]) \
        and ("own" not in trait or item.own == trait["own"])


def holds(cond: dict, items: list[Reached], resolved: bool, traits: dict) -> tuple[bool, list[Reached]]:
    """Whether a condition of kb/annotations.yaml holds, and the reached sites that make it hold."""
    if "trait" in cond:
        if cond["trait"] not in traits:
            raise AuditorError(f"kb/annotations.yaml: a rule names the trait {cond['trait']!r}, which `traits` does not define")
        hit = [i for i in items if _has(traits[cond["trait"]], i)]
        return bool(hit), hit
    if "resolved" in cond:
        return resolved == cond["resolved"], []
    if "not" in cond:
        return not holds(cond["not"], items, resolved, traits)[0], []
    parts = [holds(c, items, resolved, traits) for c in cond.get("any", cond.get("all", []))]
    ok = any(h for h, _ in parts) if "any" in cond else all(h for h, _ in parts)
    return ok, [i for h, hit in parts if h for i in hit] if ok else []


def decide(hint: str, value: bool, items: list[Reached], resolved: bool, kb: dict, tool: str) -> tuple[dict, list[Reached]]:
    """The first rule for this hint and value whose condition holds, and the sites that made it hold."""
    for rule in kb["hints"][hint]["if_true" if value else "if_false"]:
        ok, hit = holds(rule["when"], items, resolved, kb["traits"]) if "when" in rule else (True, [])
        if ok:
            return rule, hit
    raise ValueError(f"no rule applies to {hint}={value}")  # every rule list ends with an unconditional rule


def _found(items: list[Reached]) -> str:
    shown = [f"{i.what} (" + ("" if i.what.endswith(f"({i.cls})") else f"{i.cls}, ") + f"{i.anchor.path}:{i.anchor.start_line})"
             for i in items[:6]]
    return "; ".join(shown) + (f"; and {len(items) - 6} more" if len(items) > 6 else "")


def _shared(p: Program, fx: Effects, routes: list[Record], kb: dict, effects_kb: dict) -> dict[str, tuple]:
    """Every tool's region and reached sites, effect sites of a fixed target reached from at least
    kb bookkeeping.min_share of the tools (and min_tools) marked `shared`: the server's own bookkeeping."""
    cache: dict = {}
    found: dict[str, tuple] = {}
    for t in p.tools:
        if t.name not in found:
            region = regions(p, t.name, cache)
            found[t.name] = (region, reached(p, fx, routes, region, effects_kb, kb) if region is not None else [])
    resolved = [items for region, items in found.values() if region is not None]
    count: dict[tuple, int] = {}
    for items in resolved:
        for k in {_site(i) for i in items}:
            count[k] = count.get(k, 0) + 1
    book = kb["bookkeeping"]
    least = max(book["min_tools"], math.ceil(book["min_share"] * len(resolved)))
    shared = {k for k, n in count.items() if n >= least}
    return {name: (region, [replace(i, shared=True) if i.fixed and _site(i) in shared
                            else replace(i, setup=i.setup and i.fixed and i.kind != "state-write") for i in items], len(resolved), count)
            for name, (region, items) in found.items()}


def _site(i: Reached) -> tuple:
    """A reached site as the tools share it: whether a write fills a cache depends on the callers a tool reaches
    (wrapped_cache), not on the site, so one tool's cache fill and another's plain write are the same site."""
    return i.kind, i.anchor, i.what.removesuffix(CACHE_FILL)


def reach(p: Program, fx: Effects, routes: list[Record], kb: dict, effects_kb: dict) -> dict[str, tuple]:
    """Every tool's region and the sites it reaches (computed once: `claims` and `with_reach` read it)."""
    return _shared(p, fx, routes, kb, effects_kb)


def with_reach(routes: list[Record], every: dict[str, tuple]) -> list[Record]:
    """ROUTES, each route that records a site some tool reaches given `reached_from`: those tools' names, sorted."""
    by: dict[str, set[str]] = {}
    for name, (_, items, *_rest) in every.items():
        for i in items:
            if i.route:
                by.setdefault(i.route, set()).add(name)
    return [replace(r, attrs={**r.attrs, "reached_from": sorted(by[r.id])}) if r.id in by else r for r in routes]


def claims(p: Program, fx: Effects, routes: list[Record], kb: dict, effects_kb: dict,
           every: dict[str, tuple] | None = None) -> list[Record]:
    out = []
    every = every if every is not None else _shared(p, fx, routes, kb, effects_kb)
    dispatch_ids = {}
    for r in routes:
        if r.kind == "dispatch":
            dispatch_ids.setdefault(r.attrs.get("tool"), []).append(r.id)
    seen: set[str] = set()
    for t in p.tools:
        values, node = hints(t, p.vocab)
        values = {k: v for k, v in values.items() if isinstance(v, bool)}
        if not values or t.name in seen:
            continue
        seen.add(t.name)
        region, every_item, tools, count = every[t.name]
        items = [i for i in every_item if not (i.shared or i.setup)]
        book = [i for i in every_item if i.shared and i.cls not in {"read", "cache", "undo", "call"}]
        setup = [i for i in every_item if i.setup and not i.shared and i.cls not in {"read", "cache", "undo", "call"}]
        pairs = object_pairs(node) if node is not None else {}
        where = (p.linker.module_of(node) if p.linker is not None and node is not None else None) or t.module
        for hint in HINTS:
            if hint not in values:
                continue
            value = values[hint]
            rule, hit = decide(hint, value, items, region is not None, kb, t.name)
            spec = kb["hints"][hint]
            meaningful = not (spec.get("meaningful_only_if_not_read_only") and values.get("readOnlyHint") is True)
            cited = sorted({i.route for i in (hit or items) if i.route}) + dispatch_ids.get(t.name, [])
            mismatch = rule["mismatch"].format(tool=repr(t.name), hint=hint, found=_found(hit))
            notes = [rule.get("note", "").format(tool=repr(t.name), hint=hint, found=_found(hit))]
            notes += [] if meaningful else ["meaningful only when readOnlyHint is false (MCP specification); checked all the same"]
            if book:
                most = max(count[_site(i)] for i in book)
                notes.append(kb["bookkeeping"]["note"].format(tool=repr(t.name), found=_found(book), count=most, tools=tools))
            if setup:
                notes.append(kb["bookkeeping"]["setup_note"].format(tool=repr(t.name), found=_found(setup)))
            note = "; ".join(n for n in notes if n)
            anchor = at(where.path, pairs[hint]) if hint in pairs else at(t.module.path, node if node is not None else t.node)
            verdict = rule["verdict"]
            out.append(Record(category="claim", id=f"CLM:annotation-{hint}@tool:{t.name}", kind="annotation",
                              summary=f"{hint}: {str(value).lower()} on tool {t.name!r} (tool annotations): {verdict}"
                              + (" (conservative)" if rule.get("conservative") else ""),
                              anchors=(anchor,), rule=f"kb/annotations.yaml#hints/{hint}/{'if_true' if value else 'if_false'}",
                              attrs={"quote": f"{hint}: {str(value).lower()}", "channel": f"annotations:{t.name}",
                                     "section": "annotations", "consumer": kb["consumer"],
                                     "operations": [f"{hint} = {str(value).lower()}"], "tool": t.name, "hint": hint,
                                     "value": value, "meaning": spec["meaning"], "verdict": verdict, "routes": cited,
                                     "mismatch": mismatch, "conservative": bool(rule.get("conservative")),
                                     "meaningful": meaningful, "note": note,
                                     "reached": [{"what": i.what, "class": i.cls, "kind": i.kind, "route": i.route,
                                                  "conditional": i.conditional, "anchor": i.anchor.as_json()}
                                                 | ({"bookkeeping": True} if i.shared else {}) | ({"setup": True} if i.setup else {})
                                                 for i in every_item]}))
    return out
