"""Effect sites: configuration reads, filesystem, network, subprocess and browser calls, by kb/effects.yaml
(their records: analyse/effect_routes.py; how a call is classed: analyse/effect_classes.py)."""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from auditor.analyse.effect_classes import CLASSIFIERS, WRAPPING, unwrap
from auditor.extract.bindings import bundled_bindings, imports, static_imports
from auditor.extract.facts import Program
from auditor.extract.program import Module
from auditor.extract.syntax import (call_args, enclosing_function, find, member_chain, object_pairs, property_name,
                                    strip_casts, string_value, text)

# Route kind of each provider kind (fs splits on whether the site only reads).
ROUTE_KINDS = ("effect-env", "effect-argv", "effect-fs-read", "effect-fs-write", "effect-network", "effect-subprocess",
               "effect-browser")
_BRANCHES = {"if_statement", "ternary_expression", "switch_case", "switch_default", "catch_clause"}


@dataclass(frozen=True, kw_only=True, slots=True)
class Origin:
    """Where a name comes from: an npm module, the members below its binding, and whether it is a client."""

    spec: str
    path: tuple[str, ...]
    client: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class Site:
    """One effect call site (or configuration read) inside one function."""

    module: Module
    fn: ts.Node | None  # the enclosing function; None at module top level
    function: str  # its qualified name, `<module>` at top level
    kind: str  # a route kind of ROUTE_KINDS, or `dependency` (a call into an uninspected package)
    cls: str  # read | create | append | overwrite | delete | write | unknown | execute | launch | listen | call
    node: ts.Node
    what: str  # the callee or the read expression, as written
    detail: str  # HTTP method, SQL keyword, variable name...
    provider: str  # the kb provider name, the package for a dependency call, or `environment`
    names: tuple[str, ...] = ()  # environment variable names (effect-env)
    conditional: bool = False  # inside a branch of its function
    world: str | None = None  # open | closed, for network and browser sites

    @property
    def lines(self) -> tuple[int, int]:
        return self.node.start_point[0] + 1, self.node.end_point[0] + 1


@dataclass(frozen=True, kw_only=True, slots=True)
class Effects:
    sites: tuple[Site, ...]


def _norm(spec: str) -> str:
    return spec[5:] if spec.startswith("node:") else spec


def covers(names: list[str], spec: str) -> bool:
    s = _norm(spec)
    return any(s == _norm(n) or s.startswith(_norm(n) + "/") for n in names)


def lookup(by_class: dict | None, name: str) -> str | None:
    """The class (or classifier) a name has in a `by class` table; `*` matches any name."""
    low = name.lower()
    for cls, names in (by_class or {}).items():
        if any(n.lower() == low for n in names):
            return cls
    return next((cls for cls, names in (by_class or {}).items() if "*" in names), None)


def owner(node: ts.Node) -> ts.Node | None:
    """The function a site belongs to: its enclosing function, except that a callback passed as an
    argument inside another function belongs to that function (`new Promise((resolve) => ...)`)."""
    fn = enclosing_function(node)
    while fn is not None and fn.type in {"arrow_function", "function_expression", "function"} \
            and fn.parent is not None and fn.parent.type == "arguments":
        outer = enclosing_function(fn)
        if outer is None:
            break
        fn = outer
    return fn


def conditional(node: ts.Node, fn: ts.Node | None, taken=None) -> bool:
    """Inside a branch of `fn`: an if/switch/ternary branch, a catch clause, or the right of && || ??. TAKEN (a
    condition -> bool): a branch taken whenever such a condition holds (an if's consequence, the right of `&&`) is
    none."""
    cur, child = node.parent, node
    while cur is not None and cur != fn:
        if taken is not None and (cur.type == "if_statement" and cur.child_by_field_name("consequence") == child
                                  or _and_right(cur, child)) \
                and taken(cur.child_by_field_name("condition" if cur.type == "if_statement" else "left")):
            cur, child = cur.parent, cur
            continue
        if cur.type in _BRANCHES and not (cur.type == "if_statement" and cur.child_by_field_name("condition") == child):
            return True
        if cur.type == "binary_expression" and text(cur.child_by_field_name("operator")) in {"&&", "||", "??"} \
                and cur.child_by_field_name("right") == child:
            return True
        cur, child = cur.parent, cur
    return False


def _and_right(node: ts.Node, child: ts.Node) -> bool:
    return node.type == "binary_expression" and text(node.child_by_field_name("operator")) == "&&" \
        and node.child_by_field_name("right") == child


class _Scanner:
    def __init__(self, p: Program, kb: dict):
        self.p, self.kb = p, kb
        self.local_methods = {x.lower() for x in kb["local_methods"]}
        self.origins: dict[str, dict[str, Origin]] = {m.path: self._imports(m) for m in p.modules}
        decls = {m.path: self._declarations(m) for m in p.modules}
        for _ in range(3):  # values made from values: pool -> client -> ...
            for m in p.modules:
                for target, value in decls[m.path]:
                    o = self._value(m, value)
                    if o is not None:
                        self._bind(self.origins[m.path], target, o, destructure=not o.client)

    # -- where names come from ------------------------------------------------------------
    def provider(self, spec: str) -> dict | None:
        return next((pr for pr in self.kb["providers"] if covers(pr["modules"], spec)), None)

    def inert(self, spec: str) -> bool:
        return covers(self.kb["inert_modules"], spec)

    def _imports(self, m: Module) -> dict[str, Origin]:
        out: dict[str, Origin] = {}
        for local, (src, name) in static_imports(m).items():
            if not (src.startswith(".") or self.inert(src)):
                out[local] = Origin(spec=src, path=() if name in {"default", "*"} else (name,))
        for src, node in m.imports:
            if node.type == "import_statement" or src.startswith(".") or self.inert(src):
                continue
            parent = node.parent
            while parent is not None and parent.type in WRAPPING:
                parent = parent.parent
            if parent is not None and parent.type == "variable_declarator":
                self._bind(out, parent.child_by_field_name("name"), Origin(spec=src, path=()), destructure=True)
        return out

    @staticmethod
    def _declarations(m: Module) -> list[tuple[ts.Node, ts.Node]]:
        out = []
        for n in find(m.tree.root_node, {"variable_declarator", "assignment_expression"}):
            if n.type == "variable_declarator" and n.child_by_field_name("value") is not None:
                out.append((n.child_by_field_name("name"), n.child_by_field_name("value")))
            elif n.type == "assignment_expression":
                out.append((n.child_by_field_name("left"), n.child_by_field_name("right")))
        return out

    @staticmethod
    def _bind(out: dict[str, Origin], target: ts.Node | None, o: Origin, destructure: bool) -> None:
        if target is None:
            return
        chain = member_chain(target)
        if chain and target.type in {"identifier", "member_expression"}:
            out.setdefault(".".join(chain), o)
        elif target.type == "object_pattern" and destructure:
            for c in target.named_children:
                if c.type == "shorthand_property_identifier_pattern":
                    out.setdefault(text(c), Origin(spec=o.spec, path=o.path + (text(c),)))
                elif c.type == "object_assignment_pattern":
                    left = c.child_by_field_name("left")
                    if left is not None:
                        out.setdefault(text(left), Origin(spec=o.spec, path=o.path + (text(left),)))
                elif c.type == "pair_pattern":
                    value = c.child_by_field_name("value")
                    value = value.child_by_field_name("left") if value is not None and value.type == "assignment_pattern" else value
                    if value is not None and value.type == "identifier":
                        out.setdefault(text(value), Origin(spec=o.spec, path=o.path + (property_name(c.child_by_field_name("key")),)))

    def origin(self, m: Module, chain: tuple[str, ...] | None) -> tuple[Origin, tuple[str, ...]] | None:
        """The origin of a member chain used in `m` and the members after it."""
        if not chain:
            return None
        local = self.origins.get(m.path, {})
        for i in range(len(chain), 0, -1):
            o = local.get(".".join(chain[:i]))
            if o is not None:
                return o, tuple(chain[i:])
        if self.p.linker is not None and chain[0] != "this":
            where = self.p.linker.binding(m, chain[0])
            if where is not None and where[0] is not m:
                o = self.origins.get(where[0].path, {}).get(where[1])
                if o is not None:
                    return o, tuple(chain[1:])
        return None

    def _value(self, m: Module, value: ts.Node | None) -> Origin | None:
        """The origin of the value of a declaration: an alias, a client made by a constructor or factory."""
        v = unwrap(value)
        while v is not None and v.type == "call_expression":  # wrappers, however deeply nested: wrap(wrap(new C()))
            chain = member_chain(v.child_by_field_name("function"))
            if not (chain and chain[-1] in self.kb["wrappers"]):
                break
            args = call_args(v)
            v = unwrap(args[0]) if args else None
        if v is None:
            return None
        if v.type in {"identifier", "member_expression"}:
            hit = self.origin(m, member_chain(v))
            return None if hit is None else Origin(spec=hit[0].spec, path=hit[0].path + hit[1], client=hit[0].client)
        if v.type not in {"new_expression", "call_expression"}:
            return None
        callee = v.child_by_field_name("constructor" if v.type == "new_expression" else "function")
        chain = member_chain(callee)
        hit = self.origin(m, chain)
        if hit is None:
            return None
        o, rest = hit
        pr = self.provider(o.spec)
        full = o.path + rest
        if not o.client:
            makes = pr is None or "*" in pr.get("clients", []) or \
                (full[-1] if full else "default").lower() in {c.lower() for c in pr.get("clients", [])}
        else:  # a client's factory method (pool.connect()); the result of any other call is data, not a client
            makes = v.type == "new_expression" or (bool(rest) and pr is not None and (
                "*" in pr.get("factories", []) or rest[-1].lower() in {f.lower() for f in pr.get("factories", [])}))
        return Origin(spec=o.spec, path=full, client=True) if makes else None

    # -- sites ---------------------------------------------------------------------------
    def sites(self) -> list[Site]:
        out: list[Site] = []
        for m in self.p.modules:
            out += self._config(m)
            for call in m.nodes("call"):
                s = self._call(m, call)
                if s is not None:
                    out.append(s)
        return out

    def _site(self, m: Module, node: ts.Node, **kw) -> Site:
        fn = owner(node)
        return Site(module=m, fn=fn, function=m.qualified(fn), node=node, conditional=conditional(node, fn), **kw)

    def _config(self, m: Module) -> list[Site]:
        out = []
        env, argv = set(self.kb["env"]["objects"]), set(self.kb["argv"]["objects"])
        globals_ = self.kb.get("global_modules") or {}
        aliases = {local: globals_[src.removeprefix("node:")] for local, (src, name) in imports(m).items()
                   if name in {"*", "default"} and src.removeprefix("node:") in globals_}
        for node in m.nodes("member"):
            chain = member_chain(node)
            chain = (aliases[chain[0]], *chain[1:]) if chain and chain[0] in aliases else chain  # `process$1.argv`
            joined = ".".join(chain) if chain else ""
            if joined in env:
                out.append(self._env(m, node, joined))
            elif joined in argv:
                use = node.parent if node.parent is not None and node.parent.type in {"subscript_expression", "member_expression"} \
                    and node.parent.child_by_field_name("object") == node else node
                if use is not node and use.type == "member_expression" and use.parent is not None and use.parent.type == "call_expression":
                    use = use.parent  # process.argv.slice(2)
                out.append(self._site(m, use, kind="effect-argv", cls="read", what=text(use), detail=text(use)[len(text(node)):] or joined,
                                      provider="command line"))
        return out + self._parsers(m)

    def _parsers(self, m: Module) -> list[Site]:
        """Calls of an argument parser (kb/effects.yaml argv.parsers) that reads the process's argument vector itself."""
        rules = self.kb["argv"].get("parsers") or []
        # a parser bundled into the module is bound as an imported one is (extract/bindings.bundled_bindings)
        bound = {local: (src, name) for local, (src, name) in {**bundled_bindings(m), **imports(m)}.items()
                 if any(covers([r["module"]], src) for r in rules)} if rules else {}
        out = []
        for call in (m.nodes("call") + m.nodes("new")) if bound else []:
            callee = strip_casts(call.child_by_field_name("constructor" if call.type == "new_expression" else "function"))
            if callee is not None and callee.type == "sequence_expression":  # (0, mod.f)(...) of compiled CommonJS
                callee = strip_casts(callee.named_children[-1]) if callee.named_children else None
            chain = member_chain(callee)
            if not chain or chain[0] not in bound:
                continue
            src, name = bound[chain[0]]
            name = chain[1] if name == "*" and len(chain) > 1 else name
            rule = next(r for r in rules if covers([r["module"]], src))
            if "*" not in rule["calls"] and name not in rule["calls"]:
                continue
            args = call_args(call)
            if rule.get("explicit") and any(rule["explicit"] in object_pairs(strip_casts(a)) for a in args):
                continue  # handed its own vector in its options
            if rule.get("vector") is not None and len(args) > rule["vector"]:
                continue  # handed its own vector as an argument
            out.append(self._site(m, call, kind="effect-argv", cls="read", what=".".join(chain), detail=f"{src} argument parser",
                                  provider="command line"))
        return out

    def _env(self, m: Module, node: ts.Node, joined: str) -> Site:
        parent = node.parent
        names: tuple[str, ...] = ("*",)
        use = node
        if parent is not None and parent.type == "member_expression" and parent.child_by_field_name("object") == node:
            names, use = (text(parent.child_by_field_name("property")),), parent
        elif parent is not None and parent.type == "subscript_expression" and parent.child_by_field_name("object") == node:
            name = string_value(parent.child_by_field_name("index"))
            names, use = ((name,) if name is not None else (f"[{text(parent.child_by_field_name('index'))}]",)), parent
        else:
            decl = parent
            while decl is not None and decl.type in WRAPPING:
                decl = decl.parent
            target = decl.child_by_field_name("name") if decl is not None and decl.type == "variable_declarator" else None
            if target is not None and target.type == "object_pattern":
                names = tuple(k for k, _ in pattern_bindings(target))
                use = decl
        written = use.parent is not None and use.parent.type in {"assignment_expression", "augmented_assignment_expression"} \
            and use.parent.child_by_field_name("left") == use
        return self._site(m, use, kind="effect-env", cls="overwrite" if written else "read", what=text(use).split("\n")[0][:80],
                          detail=", ".join(names), provider="environment", names=names)

    def _call(self, m: Module, call: ts.Node) -> Site | None:
        chain = member_chain(call.child_by_field_name("function"))
        if not chain:
            return None
        hit = self.origin(m, chain)
        if hit is None:
            return self._global(m, call, chain)
        o, rest = hit
        pr = self.provider(o.spec)
        what = ".".join(chain)
        if o.client:
            if not rest or rest[-1].lower() in self.local_methods:
                return None
            name, table = rest[-1], (pr or {}).get("methods")
        else:
            full = o.path + rest
            name, table = (full[-1] if full else "default"), (pr or {}).get("calls")
        if pr is None:
            return self._site(m, call, kind="dependency", cls="call", what=what, detail=o.spec, provider=o.spec)
        cls = lookup(table, name)
        if cls is None:
            return None
        return self._classified(m, call, pr, cls, name, what)

    def _global(self, m: Module, call: ts.Node, chain: tuple[str, ...]) -> Site | None:
        shown = ".".join(chain)
        explicit = chain[0] in {"globalThis", "window", "self"} and len(chain) == 2
        chain = chain[1:] if explicit else chain
        if len(chain) != 1:
            return None
        name = chain[0]
        imported = self.p.linker.imports.get(m.path, {}) if self.p.linker is not None else {}
        if not explicit and (name in m.functions or name in m.toplevel or name in imported):
            return None  # a function of the boundary, or a local binding, by that name
        for pr in self.kb["providers"]:
            cls = lookup(pr.get("globals"), name)
            if cls is not None:
                return self._classified(m, call, pr, cls, name, shown)
        return None

    def _classified(self, m: Module, call: ts.Node, pr: dict, cls: str, name: str, what: str) -> Site:
        cls, detail = CLASSIFIERS[cls](self.kb, m, call, name) if cls in CLASSIFIERS else (cls, name)
        kind = pr["kind"]
        rkind = ("effect-fs-read" if cls == "read" else "effect-fs-write") if kind == "fs" else f"effect-{kind}"
        return self._site(m, call, kind=rkind, cls=cls, what=what, detail=detail, provider=pr["name"], world=pr.get("world"))




def pattern_bindings(pattern: ts.Node) -> list[tuple[str, str]]:
    """(key, bound name) of each element of an object pattern; `*` for a rest element."""
    out = []
    for c in pattern.named_children:
        if c.type == "shorthand_property_identifier_pattern":
            out.append((text(c), text(c)))
        elif c.type == "object_assignment_pattern" and c.child_by_field_name("left") is not None:
            out.append((text(c.child_by_field_name("left")),) * 2)
        elif c.type == "pair_pattern":
            value = c.child_by_field_name("value")
            value = value.child_by_field_name("left") if value is not None and value.type == "assignment_pattern" else value
            if value is not None and value.type == "identifier":
                out.append((property_name(c.child_by_field_name("key")), text(value)))
        elif c.type == "rest_pattern" and c.named_children:
            out.append(("*", text(c.named_children[0])))
    return out


def scan(p: Program, kb: dict) -> Effects:
    """Every effect site and configuration read of the boundary."""
    return Effects(sites=tuple(_Scanner(p, kb).sites()))


