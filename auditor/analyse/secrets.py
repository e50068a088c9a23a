"""Secrets written to output streams: configuration values that reach console or stream writes (kb/effects.yaml)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import tree_sitter as ts

from auditor.analyse.effects import Effects, Site, owner, pattern_bindings
from auditor.extract.facts import Program
from auditor.extract.program import Module
from auditor.extract.records import at, key, record
from auditor.extract.syntax import FUNCTION_TYPES, call_args, callee_text, enclosing_function, find, text, walk
from auditor.model import Record

_SCAN_TYPES = FUNCTION_TYPES | {"variable_declarator", "call_expression"}  # what leaks() looks at


@dataclass(frozen=True, kw_only=True, slots=True)
class Leak:
    """A configuration value written to an output stream."""

    module: Module
    function: str
    call: ts.Node
    sink: str  # the logging callee
    sources: tuple[tuple[str, tuple[str, ...], ts.Node], ...]  # (read expression, local names it went through, read node)


@dataclass(frozen=True, kw_only=True, slots=True)
class _Taint:
    label: str  # the read expression, e.g. process.env.DATABASE_URL
    env_name: str | None  # the variable name, `*` for the whole environment, None for the command line
    via: tuple[str, ...]  # local names the value went through
    node: ts.Node  # the read


class _Names(dict):
    """The tainted local names of one scope (name -> taint; names are only ever added), and a matcher of them as whole
    identifiers over the module's source, rebuilt when a name is added."""

    __slots__ = ("source", "_matcher", "_size")

    def __init__(self, source: bytes, items=()):
        super().__init__(items)
        self.source, self._matcher, self._size = source, None, -1

    def written_in(self, start: int, end: int) -> bool:
        if not self:
            return False
        if self._size != len(self):
            self._matcher, self._size = _tokens(tuple(self)), len(self)
        return self._matcher.search(self.source, start, end) is not None


def leaks(p: Program, sites: tuple[Site, ...], kb: dict) -> list[Leak]:
    """Configuration values (environment, command line) that reach a console or stream write."""
    secret = re.compile(kb["secret_names"])
    streams = set(p.vocab["stderr_calls"]) | set(p.vocab["stdout_calls"])
    metadata = set(p.vocab["metadata_members"])
    out = []
    for m in p.modules:
        sources = {(s.node.start_byte, s.node.end_byte): s for s in sites if s.module is m and s.kind in {"effect-env", "effect-argv"}}
        if not sources:
            continue
        decls: dict[ts.Node | None, list[ts.Node]] = {}
        calls: dict[ts.Node | None, list[ts.Node]] = {}
        scopes: list[ts.Node | None] = [None]
        for n in find(m.tree.root_node, _SCAN_TYPES):
            if n.type in FUNCTION_TYPES:
                scopes.append(n)
            elif n.type == "variable_declarator" and n.child_by_field_name("value") is not None:
                decls.setdefault(enclosing_function(n), []).append(n)
            elif n.type == "call_expression" and callee_text(n) in streams:
                calls.setdefault(enclosing_function(n), []).append(n)
        tainted: dict[ts.Node | None, _Names] = {}
        source = m.tree.root_node.text
        for scope in scopes:  # pre-order: an enclosing scope is done before the scopes inside it
            names = _Names(source, tainted.get(enclosing_function(scope), {}) if scope is not None else ())
            for _ in range(3):
                for d in decls.get(scope, []):
                    _taint_declaration(d, sources, names, metadata)
            tainted[scope] = names
            for call in calls.get(scope, []):
                found = [t for arg in call_args(call) for t in _flows(arg, sources, names, metadata)
                         if t.env_name == "*" or (t.env_name is not None and secret.search(t.env_name))
                         or any(secret.search(v) for v in t.via)]
                if found:
                    out.append(Leak(module=m, function=m.qualified(owner(call)), call=call, sink=callee_text(call),
                                    sources=tuple((t.label, t.via, t.node) for t in found)))
    return out


def _taint(s: Site, node: ts.Node | None = None, name: str | None = None) -> _Taint:
    if s.kind != "effect-env":
        return _Taint(label=s.what, env_name=None, via=(), node=node or s.node)
    env_name = name if name is not None else (s.names[0] if len(s.names) == 1 else "*")
    label = s.what if name is None else f"{text(s.node.child_by_field_name('value'))}.{name}"
    return _Taint(label=label, env_name=env_name, via=(), node=node or s.node)


def _taint_declaration(d: ts.Node, sources: dict, names: _Names, metadata: set) -> None:
    target = d.child_by_field_name("name")
    if target is None:
        return
    s = sources.get((d.start_byte, d.end_byte))
    if s is not None and s.kind == "effect-env" and target.type == "object_pattern":  # const { X, Y: y } = process.env
        for key_name, ident in pattern_bindings(target):
            names.setdefault(ident, _taint(s, d, "*" if key_name == "*" else key_name))
        return
    flows = _flows(d.child_by_field_name("value"), sources, names, metadata)
    if not flows:
        return
    t = flows[0]
    for ident in walk(target):
        if ident.type in {"identifier", "shorthand_property_identifier_pattern"} and text(ident) not in names:
            names[text(ident)] = _Taint(label=t.label, env_name=t.env_name, via=t.via + (text(ident),), node=t.node)


def _flows(expr: ts.Node | None, sources: dict, names: _Names, metadata: set) -> list[_Taint]:
    """Configuration values `expr` carries: reads inside it, and tainted names it uses as values."""
    out: list[_Taint] = []
    if expr is None or not _may_carry(expr, sources, names):
        return out
    for n in walk(expr):
        s = sources.get((n.start_byte, n.end_byte))
        if s is not None and s.node.type != "variable_declarator":
            out.append(_taint(s))
        elif n.type in {"identifier", "shorthand_property_identifier"} and text(n) in names and _value_use(n, metadata):
            out.append(names[text(n)])
    return out


def _may_carry(expr: ts.Node, sources: dict, names: _Names) -> bool:
    """Whether a read lies inside `expr` or a tainted name is written in it: tests in C, which spare walking the
    (possibly huge: a bundle's module wrappers) expression in Python when neither holds."""
    start, end = expr.start_byte, expr.end_byte
    return any(start <= a < end for a, _ in sources) or names.written_in(start, end)


@lru_cache(maxsize=256)
def _tokens(names: tuple[str, ...]) -> re.Pattern:
    """Any of `names` as a whole identifier (not inside a longer one)."""
    return re.compile(rb"(?<![\w$])(?:" + b"|".join(re.escape(n.encode()) for n in names) + rb")(?![\w$])")


def _value_use(n: ts.Node, metadata: set) -> bool:
    """False when only a property of the value is used: its length, a typeof, a negation, a comparison."""
    parent = n.parent
    if parent is None:
        return True
    if parent.type == "member_expression":
        if parent.child_by_field_name("property") == n:
            return False
        return text(parent.child_by_field_name("property")) not in metadata
    if parent.type == "unary_expression" and text(parent.child_by_field_name("operator")) in {"!", "typeof"}:
        return False
    if parent.type == "binary_expression" and text(parent.child_by_field_name("operator")) in {
            "===", "!==", "==", "!=", "<", ">", "<=", ">=", "instanceof", "in"}:
        return False
    return not (parent.type == "pair" and parent.child_by_field_name("key") == n)


def findings(p: Program, fx: Effects, kb: dict) -> list[Record]:
    """One secret-logged finding per function that writes a secret-looking configuration value."""
    groups: dict[tuple[str, str], list[Leak]] = {}
    for leak in leaks(p, fx.sites, kb):
        groups.setdefault((leak.module.name, leak.function), []).append(leak)
    out = []
    for (mk, fname), found in groups.items():
        path = found[0].module.path
        values = [{"source": src, "via": list(via), "sink": lk.sink, "line": lk.call.start_point[0] + 1,
                   "read_line": node.start_point[0] + 1} for lk in found for src, via, node in lk.sources]
        shown = "; ".join(dict.fromkeys(f"{v['source']}" + (f" (through `{'` -> `'.join(v['via'])}`)" if v["via"] else "") + f" -> {v['sink']}"
                                        for v in values))
        where = "at module top level" if fname == "<module>" else f"in `{fname}`"
        out.append(record("finding", "FND", "secret-logged", key(mk, fname),
                          f"configuration that may hold a secret is written to an output stream {where}: {shown}; "
                          "whatever reads the server's stderr or stdout (host logs) receives it",
                          [at(path, lk.call) for lk in found] + [at(path, node) for lk in found for _, _, node in lk.sources],
                          "analyse.secrets (kb/effects.yaml#secret_names)", function=key(mk, fname), values=values))
    return out
