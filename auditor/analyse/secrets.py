"""Secrets written to output streams: configuration values, secret by name or use, whose value reaches a log sink
(kb/effects.yaml secret_names, keeps_value; kb/sdk.yaml stderr_calls, stdout_calls, loggers)."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from functools import lru_cache

import tree_sitter as ts

from auditor.analyse import coverage
from auditor.analyse.effects import Effects, Site, owner, pattern_bindings
from auditor.analyse.logs import log_call
from auditor.analyse.secret_names import SecretNames
from auditor.extract.bindings import bound_names
from auditor.extract.facts import Program
from auditor.extract.program import Module
from auditor.extract.records import at, key, record
from auditor.extract.syntax import (FUNCTION_TYPES, call_args, callee_text, enclosing_function, find, member_chain,
                                    property_name, string_value, strip_casts, text, walk)
from auditor.model import Record

_SCAN_TYPES = FUNCTION_TYPES | {"variable_declarator", "call_expression", "pair", "assignment_expression"}
_JOINING = {"+", "??", "||", "&&"}  # binary operators whose result may be either operand (or both, joined)


@dataclass(frozen=True, kw_only=True, slots=True)
class Leak:
    """A configuration value that is a secret written to an output stream."""

    module: Module
    function: str
    call: ts.Node
    sink: str  # the logging callee
    # (read expression, names it went through, read node, why it is a secret, the node of the use that says so)
    sources: tuple[tuple[str, tuple[str, ...], ts.Node, str, ts.Node | None], ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class _Taint:
    label: str  # the read expression, e.g. process.env.DATABASE_URL
    env_name: str | None  # the variable name, `*` for the whole environment, None for the command line
    via: tuple[str, ...]  # local names and object keys the value went through
    field: tuple[str, ...]  # the keys under which the value sits inside the object that carries it, outermost first
    node: ts.Node  # the read
    index: str | None = None  # a command-line value: the element of the argument vector it is (`args[3]`: "3")
    # Per key of FIELD (same order): how many names VIA held when the value was put under it; the names VIA gained
    # after are those of the objects holding it (`const authConfig = { tenantId: ... }`).
    boxed: tuple[int, ...] = ()
    # Names of objects the value was taken out of again (`authConfig.tenantId`): they name the holder, not the value.
    holders: tuple[str, ...] = ()

    def identity(self) -> tuple:
        """One configuration value: an environment variable by its name, a command-line value by the name bound first
        and the element of the vector it is (`args[2]` and `args[3]` of one `args = process.argv` are two values)."""
        return (self.node.start_byte, self.node.end_byte,
                self.env_name if self.env_name is not None else (self.via[:1], self.index))


@dataclass(frozen=True, kw_only=True, slots=True)
class _Ctx:
    sources: dict[tuple[int, int], Site]
    starts: tuple[int, ...]  # sorted start bytes of the sources
    metadata: frozenset[str]
    calls: frozenset[str]
    methods: frozenset[str]


class _Names(dict):
    """The tainted local names of one scope (name -> taints; names are only ever added), and a matcher of them as whole
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

    def bind(self, name: str, flows: list[_Taint]) -> None:
        if flows and name not in self:
            self[name] = tuple(replace(t, via=t.via + (name,)) for t in flows)


def leaks(p: Program, sites: tuple[Site, ...], kb: dict) -> list[Leak]:
    """Configuration values (environment, command line) that are secrets, by name or use, and reach a log sink."""
    secret = SecretNames.from_kb(kb)
    out = []
    aside = coverage.aside_modules(p)  # (an example or a script beside the server is not what the host runs)
    for m in p.modules:
        if m.path in aside:
            continue
        sources = {(s.node.start_byte, s.node.end_byte): s for s in sites if s.module is m and s.kind in {"effect-env", "effect-argv"}}
        if not sources:
            continue
        ctx = _Ctx(sources=sources, starts=tuple(sorted(a for a, _ in sources)), metadata=frozenset(p.vocab["metadata_members"]),
                   calls=frozenset(kb["keeps_value"]["calls"]), methods=frozenset(kb["keeps_value"]["methods"]))
        decls: dict[ts.Node | None, list[ts.Node]] = {}
        calls: dict[ts.Node | None, list[ts.Node]] = {}
        reads: dict[ts.Node | None, list[ts.Node]] = {}  # file reads: their path argument is a path, not a secret
        uses: dict[ts.Node | None, list[tuple[str, ts.Node, ts.Node]]] = {}  # (secret key, value, where)
        scopes: list[ts.Node | None] = [None]
        paths: set[str] = set()  # the variables a file is read at
        for s in sites:  # (the file reads of kb/effects.yaml: their first argument is a path, not a secret)
            if s.module is m and s.kind == "effect-fs-read" and s.node.type == "call_expression" and call_args(s.node):
                reads.setdefault(enclosing_function(s.node), []).append(s.node)
        for n in find(m.tree.root_node, _SCAN_TYPES):
            if n.type in FUNCTION_TYPES:
                scopes.append(n)
            elif n.type == "variable_declarator" and n.child_by_field_name("value") is not None:
                decls.setdefault(enclosing_function(n), []).append(n)
            elif n.type == "call_expression" and log_call(n, p.vocab):
                calls.setdefault(enclosing_function(n), []).append(n)
            elif n.type in {"pair", "assignment_expression"}:
                use = _secret_use(n, secret)
                if use is not None:
                    uses.setdefault(enclosing_function(n), []).append(use)
        tainted: dict[ts.Node | None, _Names] = {}
        source = m.tree.root_node.text
        used: dict[tuple, tuple[str, ts.Node]] = {}
        logged: list[tuple[ts.Node | None, ts.Node, list[_Taint]]] = []
        for scope in scopes:  # pre-order: an enclosing scope is done before the scopes inside it
            outer = tainted.get(enclosing_function(scope), {}) if scope is not None else {}
            shadowed = _own_names(scope, decls.get(scope, [])) if outer else set()  # (a parameter or a local of the
            names = _Names(source, {k: v for k, v in outer.items() if k not in shadowed})  # same name is another value)
            for _ in range(3):
                for d in decls.get(scope, []):
                    _declare(d, ctx, names)
            tainted[scope] = names
            for key_name, value, where in uses.get(scope, []):
                for t in _flows(value, ctx, names):
                    used.setdefault(t.identity(), (key_name, where))
            paths.update(t.env_name for call in reads.get(scope, []) for t in _flows(call_args(call)[0], ctx, names)
                         if t.env_name is not None)
            for call in calls.get(scope, []):
                found = [t for arg in call_args(call) for t in _flows(arg, ctx, names)
                         if not (t.via and (_overwritten(t.via[-1], call, ctx, names) or t.field and _overwritten(
                             ".".join((t.via[-1], *t.field)), call, ctx, names)))]
                if found:
                    logged.append((scope, call, found))
        settings = _numeric_settings(m, frozenset(kb["secret_names"].get("numeric_parsers", ()))) \
            | _switch_settings(m, frozenset(kb["secret_names"].get("switch_values", ()))) if logged else frozenset()
        for _, call, found in logged:
            shown = []
            for t in found:
                why = _why(t, secret, used, settings) if t.env_name not in paths else None  # (a file's path: not the
                # secret, whatever the names it is kept under)
                if why is not None:
                    shown.append((t.label, t.via, t.node, why[0], why[1]))
            if shown:
                out.append(Leak(module=m, function=m.qualified(owner(call)), call=call, sink=callee_text(call), sources=tuple(shown)))
    return out


def _own_names(scope: ts.Node | None, decls: list[ts.Node]) -> set[str]:
    """The names SCOPE binds itself: its parameters and the locals it declares (minified code reuses `A` in every
    function; the outer `A` a secret flows into is not the inner one)."""
    if scope is None:
        return set()
    params = scope.child_by_field_name("parameters") or scope.child_by_field_name("parameter")
    out = bound_names(params) if params is not None else set()
    for d in decls:
        target = d.child_by_field_name("name")
        out |= bound_names(target) if target is not None else set()
    return out


def _numeric_settings(m, parsers: frozenset[str]) -> frozenset[str]:
    """Names of the environment the module parses as a number (`parseInt(process.env.X, 10)`, `Number(env.X)`)."""
    out = set()
    for call in m.nodes("call") if parsers else ():
        args = call_args(call)
        arg = strip_casts(args[0]) if args and callee_text(call) in parsers else None
        while arg is not None and arg.type == "binary_expression" and text(arg.child_by_field_name("operator")) in {"??", "||"}:
            arg = strip_casts(arg.child_by_field_name("left"))  # `process.env.X ?? "4"`
        chain = member_chain(arg) if arg is not None else None
        if chain and len(chain) >= 2 and chain[-2] == "env":
            out.add(chain[-1])
    return frozenset(out)


def _switch_settings(m, values: frozenset[str]) -> frozenset[str]:
    """Names of the environment the module compares with a switch's word (`process.env.X !== "false"`,
    `env.X?.toLowerCase() === "true"`): an on/off setting, whatever its name (LAZY_AUTH)."""
    out = set()
    for cmp in find(m.tree.root_node, {"binary_expression"}) if values else ():
        if text(cmp.child_by_field_name("operator")) not in {"===", "!==", "==", "!="}:
            continue
        sides = [strip_casts(cmp.child_by_field_name(k)) for k in ("left", "right")]
        words = [string_value(x) for x in sides if x is not None]
        if not any(w is not None and w.lower() in values for w in words):
            continue
        for side in sides:
            while side is not None and side.type == "call_expression" and side.child_by_field_name("function") is not None \
                    and side.child_by_field_name("function").type == "member_expression":  # `.toLowerCase()`
                side = strip_casts(side.child_by_field_name("function").child_by_field_name("object"))
            chain = member_chain(side) if side is not None else None
            if chain and len(chain) >= 2 and chain[-2] == "env":
                out.add(chain[-1])
    return frozenset(out)


def _why(t: _Taint, secret: SecretNames, used: dict, settings: frozenset[str] = frozenset()) -> tuple[str, ts.Node | None] | None:
    """Why the value is a secret: the whole environment, a secret name, or its use under a secret key; None if not (a
    variable of SETTINGS, parsed as a number or compared with a switch's word, is a setting, whatever its name)."""
    if t.env_name == "*":
        return "the whole environment", None
    # (`process.env[key]`: a name computed at run time is no name to judge; its use may still tell)
    named = ([t.env_name] if t.env_name is not None and t.env_name not in settings and not t.env_name.startswith("[")
             else []) + [n for n in t.via if n not in t.holders]  # (a holder's name says nothing of this value)
    hit = next((n for n in named if secret.secret(n)), None)
    if hit is not None:
        return f"named `{hit}`", None
    use = used.get(t.identity())
    if use is not None:
        return f"used as `{use[0]}`", use[1]
    return None


def _overwritten(name: str, call: ts.Node, ctx: _Ctx, names: _Names) -> bool:
    """Whether NAME (a local, or a member path of one: `copy.PASSWORD`) is assigned anew before CALL, by an expression
    statement `NAME = value` that precedes it in a block holding it (within its function), or by one guarded by a test
    of NAME itself (`if (copy.PASSWORD) copy.PASSWORD = "[REDACTED]"`: when it does not run, NAME holds nothing), with a
    value that carries no configuration: what CALL shows is that value (`if (!token) { token = randomUUID();
    console.error(token) }`). A block inside the function that declares NAME again (`catch (b) { let a = b.message;
    ... }`, as a minifier reuses names), or a catch clause binding it, holds another value there: the innermost one
    decides."""
    fn, node = enclosing_function(call), call
    while node is not None and node != fn:
        block = node.parent
        if block is not None and block.type == "catch_clause" and block.child_by_field_name("parameter") is not None \
                and name in bound_names(block.child_by_field_name("parameter")):
            return True  # (`catch (a) { console.error(a) }`: the error, whatever an outer `a` held)
        if block is not None and block.type in {"statement_block", "program"}:
            for stmt in block.named_children:
                if stmt.start_byte >= node.start_byte:
                    break
                declared = [d for d in stmt.named_children if d.type == "variable_declarator"
                            and name in bound_names(d.child_by_field_name("name"))] \
                    if stmt.type == "lexical_declaration" and block.parent != fn else []
                if declared and declared[-1].child_by_field_name("value") is not None:  # `let a = e.message` in a
                    return not _flows(declared[-1].child_by_field_name("value"), ctx, names)  # block: that value
                stmt = _guarded_by(stmt, name)
                e = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else None
                if e is not None and e.type == "assignment_expression" and text(e.child_by_field_name("left")) == name \
                        and not _flows(e.child_by_field_name("right"), ctx, names):
                    return True
        node = block
    return False


def _guarded_by(stmt: ts.Node, name: str) -> ts.Node:
    """The one statement of `if (NAME) stmt` / `if (NAME) { stmt }` with no else (a test of NAME alone), else STMT."""
    if stmt.type != "if_statement" or stmt.child_by_field_name("alternative") is not None:
        return stmt
    cond = strip_casts(stmt.child_by_field_name("condition"))
    while cond is not None and cond.type == "parenthesized_expression" and cond.named_children:
        cond = strip_casts(cond.named_children[0])
    body = stmt.child_by_field_name("consequence")
    inner = [c for c in body.named_children if c.type != "comment"] if body is not None and body.type == "statement_block" \
        else [body] if body is not None else []
    return inner[0] if cond is not None and text(cond) == name and len(inner) == 1 else stmt


def _secret_use(n: ts.Node, secret: SecretNames) -> tuple[str, ts.Node, ts.Node] | None:
    """`{apiKey: v}`, `{Authorization: v}` or `x.password = v`: (the key, v, the node) when the key names a secret. A
    key whose value is an object literal names the record (`auth: { clientId, authority, clientSecret }`): each of
    its values is judged by its own key."""
    if n.type == "pair":
        k, value = n.child_by_field_name("key"), n.child_by_field_name("value")
        name = property_name(k) if k is not None and k.type in {"property_identifier", "string"} else None
    else:
        left, value = n.child_by_field_name("left"), n.child_by_field_name("right")
        prop = left.child_by_field_name("property") if left is not None and left.type == "member_expression" else None
        name = text(prop) if prop is not None else None
    if value is None or strip_casts(value) is None or strip_casts(value).type == "object":
        return None
    return (name, value, n) if name and secret.secret(name) else None


def _taint(s: Site) -> _Taint:
    if s.kind != "effect-env":
        index = s.node.child_by_field_name("index") if s.node.type == "subscript_expression" else None
        return _Taint(label=s.what, env_name=None, via=(), field=(), node=s.node,
                      index=text(index) if index is not None and index.type == "number" else None)
    return _Taint(label=s.what, env_name=s.names[0] if len(s.names) == 1 else "*", via=(), field=(), node=s.node)


def _declare(d: ts.Node, ctx: _Ctx, names: _Names) -> None:
    target, value = d.child_by_field_name("name"), d.child_by_field_name("value")
    if target is None:
        return
    s = ctx.sources.get((d.start_byte, d.end_byte))
    if s is not None and s.kind == "effect-env":  # const { X, Y: y } = process.env
        flows = [_Taint(label=text(strip_casts(value)), env_name="*", via=(), field=(), node=d)]
    else:
        flows = _flows(value, ctx, names)
    if not flows:
        return
    if target.type == "identifier":
        names.bind(text(target), flows)
    elif target.type == "object_pattern":
        for key_name, ident in pattern_bindings(target):
            names.bind(ident, flows if key_name == "*" else _member(flows, key_name))
    elif target.type == "array_pattern":  # const [a, b] = process.argv.slice(2): each is an element of the value
        position = 0
        for c in target.children:
            if c.type == ",":
                position += 1
            for ident in walk(c):
                if ident.type in {"identifier", "shorthand_property_identifier_pattern"}:
                    names.bind(text(ident), _element([t for t in flows if not t.field], str(position)))


def _member(flows: list[_Taint], prop: str) -> list[_Taint]:
    """What `x.prop` carries: the value stored under `prop` in an object literal, the variable `prop` of the whole
    environment; never a property of the value itself."""
    out = []
    for t in flows:
        if t.field:
            if t.field[0] == prop:
                held = t.via[t.boxed[0]:] if t.boxed else ()
                out.append(replace(t, field=t.field[1:], boxed=t.boxed[1:], holders=t.holders + held))
        elif t.env_name == "*":
            out.append(replace(t, env_name=prop, label=f"{t.label}.{prop}"))
    return out


def _element(flows: list[_Taint], index: str) -> list[_Taint]:
    """Element `index` of a command-line vector: a value of its own (an environment value is left as it is)."""
    return [replace(t, index=index, label=f"{t.label}[{index}]") if t.env_name is None and t.index is None else t
            for t in flows]


def _flows(expr: ts.Node | None, ctx: _Ctx, names: _Names) -> list[_Taint]:
    """Configuration values whose value `expr` carries whole (see kb/effects.yaml secret_names)."""
    if expr is None or not _may_carry(expr, ctx, names):
        return []
    s = ctx.sources.get((expr.start_byte, expr.end_byte))
    if s is not None and s.node.type != "variable_declarator":
        return [_taint(s)]
    t = expr.type
    if t in {"parenthesized_expression", "non_null_expression", "as_expression", "satisfies_expression", "await_expression"}:
        return _flows(expr.named_children[0] if expr.named_children else None, ctx, names)
    if t == "identifier":
        return list(names.get(text(expr), ()))
    if t == "member_expression":
        prop = text(expr.child_by_field_name("property"))
        return [] if prop in ctx.metadata else _member(_flows(expr.child_by_field_name("object"), ctx, names), prop)
    if t == "subscript_expression":
        index = expr.child_by_field_name("index")
        inner = _flows(expr.child_by_field_name("object"), ctx, names)
        name = string_value(index)
        if name is not None:
            return _member(inner, name)
        return _element([x for x in inner if not x.field], text(index)) if index is not None and index.type == "number" else []
    if t == "template_string":
        return [x for c in expr.named_children if c.type == "template_substitution" for x in _flows(c, ctx, names)]
    if t in {"template_substitution", "array", "spread_element"}:
        return [x for c in expr.named_children for x in _flows(c, ctx, names)]
    if t == "binary_expression":
        return [x for c in _operands(expr) for x in _flows(c, ctx, names)]
    if t == "ternary_expression":
        return _flows(expr.child_by_field_name("consequence"), ctx, names) + _flows(expr.child_by_field_name("alternative"), ctx, names)
    if t in {"assignment_expression", "sequence_expression"}:
        return _flows(expr.child_by_field_name("right") or (expr.named_children[-1] if expr.named_children else None), ctx, names)
    if t == "object":
        return _object(expr, ctx, names)
    if t == "call_expression":
        return _call(expr, ctx, names)
    return []


def _operands(expr: ts.Node) -> list[ts.Node]:
    """The operands of a chain of joining operators (`a + b + c`, `a ?? b || c`), without recursing down its left spine.
    The left of `a && b` is the value only when it is falsy (an empty string, no object): `process.env &&
    process.env[name]` is the one variable, not the whole environment."""
    out, n = [], expr
    while n is not None and n.type == "binary_expression":
        op = text(n.child_by_field_name("operator"))
        if op not in _JOINING:
            break
        out.append(n.child_by_field_name("right"))
        n = n.child_by_field_name("left") if op != "&&" else None
    if n is expr:
        return []  # a comparison, an arithmetic operation: not the value
    return ([n] if n is not None else []) + out[::-1]


def _object(expr: ts.Node, ctx: _Ctx, names: _Names) -> list[_Taint]:
    out = []
    for c in expr.named_children:
        if c.type == "pair":
            k = c.child_by_field_name("key")
            name = property_name(k) if k is not None and k.type in {"property_identifier", "string", "number"} else "[]"
            out += [replace(x, field=(name,) + x.field, via=x.via + (name,), boxed=(len(x.via) + 1,) + x.boxed)
                    for x in _flows(c.child_by_field_name("value"), ctx, names)]
        elif c.type == "shorthand_property_identifier":
            out += [replace(x, field=(text(c),) + x.field, boxed=(len(x.via),) + x.boxed) for x in names.get(text(c), ())]
        elif c.type == "spread_element":
            out += _flows(c, ctx, names)
    return out


def _call(expr: ts.Node, ctx: _Ctx, names: _Names) -> list[_Taint]:
    """A call keeps the value only when kb/effects.yaml keeps_value says so (JSON.stringify(x), x.trim())."""
    fn = expr.child_by_field_name("function")
    args = [x for a in call_args(expr) for x in _flows(a, ctx, names)]
    if callee_text(expr) in ctx.calls:
        return args
    if fn is not None and fn.type == "member_expression" and text(fn.child_by_field_name("property")) in ctx.methods:
        return _flows(fn.child_by_field_name("object"), ctx, names) + args
    return []


def _may_carry(expr: ts.Node, ctx: _Ctx, names: _Names) -> bool:
    """Whether a read lies inside `expr` or a tainted name is written in it: tests that spare walking the (possibly
    huge: a bundle's module wrappers) expression in Python when neither holds."""
    start, end = expr.start_byte, expr.end_byte
    i = bisect.bisect_left(ctx.starts, start)
    return (i < len(ctx.starts) and ctx.starts[i] < end) or names.written_in(start, end)


@lru_cache(maxsize=256)
def _tokens(names: tuple[str, ...]) -> re.Pattern:
    """Any of `names` as a whole identifier (not inside a longer one)."""
    return re.compile(rb"(?<![\w$])(?:" + b"|".join(re.escape(n.encode()) for n in names) + rb")(?![\w$])")


def findings(p: Program, fx: Effects, kb: dict) -> list[Record]:
    """One secret-logged finding per function that writes the value of a secret configuration value."""
    groups: dict[tuple[str, str], list[Leak]] = {}
    for leak in leaks(p, fx.sites, kb):
        groups.setdefault((leak.module.name, leak.function), []).append(leak)
    out = []
    for (mk, fname), found in groups.items():
        path = found[0].module.path
        values = [{"source": src, "via": list(via), "sink": lk.sink, "line": lk.call.start_point[0] + 1,
                   "read_line": node.start_point[0] + 1, "secret": why}
                  | ({"use_line": use.start_point[0] + 1} if use is not None else {})
                  for lk in found for src, via, node, why, use in lk.sources]
        shown = "; ".join(dict.fromkeys(f"{v['source']}" + (f" (through `{'` -> `'.join(v['via'])}`)" if v["via"] else "")
                                        + f" -> {v['sink']}, a secret: {v['secret']}"
                                        + (f" at line {v['use_line']}" if "use_line" in v else "") for v in values))
        where = "at module top level" if fname == "<module>" else f"in `{fname}`"
        anchors = [at(path, lk.call) for lk in found] + [at(path, node) for lk in found for _, _, node, _, _ in lk.sources]
        anchors += [at(path, use) for lk in found for *_, use in lk.sources if use is not None]
        out.append(record("finding", "FND", "secret-logged", key(mk, fname),
                          f"the value of configuration that is a secret is written to an output stream {where}: {shown}; "
                          "whatever reads the server's stderr or stdout (host logs) receives it",
                          anchors, "analyse.secrets (kb/effects.yaml#secret_names)", function=key(mk, fname), values=values))
    return out
