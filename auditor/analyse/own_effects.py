"""What a reached site does for the tool itself: the command a subprocess runs, a state write that only fills a cache,
a target fixed by the server rather than given by the caller (kb/annotations.yaml commands, bookkeeping)."""

from __future__ import annotations

import re
from functools import lru_cache

import tree_sitter as ts

from auditor.extract.frames import parameters, plain_parameters, returned
from auditor.extract.program import Module
from auditor.extract.state import Access, Container
from auditor.extract.syntax import (FUNCTION_TYPES, ancestors, parameter_pattern, call_args, enclosing_function, find,
                                    member_chain, object_pairs, pair_value, string_value, strip_casts, text, walk)

_UNKNOWN = None  # a word of a command line that the code does not fix
_DEPTH = 3  # callers followed to resolve a parameter


# -- the command a subprocess runs -----------------------------------------------------------

def _params(fn: ts.Node) -> list[str]:
    ps = fn.child_by_field_name("parameters")
    if ps is None:
        one = fn.child_by_field_name("parameter")  # x => ...
        return [text(one)] if one is not None else []
    out = []
    for c in ps.named_children:
        pat = parameter_pattern(c)
        out.append(text(pat) if pat is not None else "")
    return out


def _declared(scope: ts.Node, name: str) -> ts.Node | None:
    """The value of `const name = ...` directly in `scope` (a function or a module), not in a nested function."""
    for d in find(scope, {"variable_declarator"}):
        target = d.child_by_field_name("name")
        if target is not None and target.type == "identifier" and text(target) == name and enclosing_function(d) == (
                scope if scope.type in FUNCTION_TYPES else None):
            kind = d.parent.child(0) if d.parent is not None and d.parent.child_count else None
            return d.child_by_field_name("value") if kind is not None and text(kind) == "const" else None
    return None


def _words(expr: ts.Node | None, m: Module, callers, depth: int) -> list[list]:
    """The possible leading words of a command-line value: a string (split on spaces), a template string (its
    substitutions unknown), an array literal, a const, or a parameter resolved at each caller."""
    expr = strip_casts(expr)
    if expr is None:
        return [[_UNKNOWN]]
    s = string_value(expr)
    if s is not None:
        return [s.split()]
    if expr.type == "template_string":
        out: list = []
        for c in expr.children:
            if c.type == "string_fragment":
                out += [w for w in text(c).split()]
            elif c.type == "template_substitution":
                out.append(_UNKNOWN)
        return [out]
    if expr.type == "array":
        alts: list[list] = [[]]
        for el in expr.named_children:
            one = _words(el, m, callers, depth) if el.type != "spread_element" else [[_UNKNOWN]]
            alts = [a + (w if w else [_UNKNOWN]) for a in alts for w in one[:1]]  # the first resolution of each element
        return alts
    if expr.type == "identifier":
        name, fn = text(expr), enclosing_function(expr)
        value = _declared(fn if fn is not None else m.tree.root_node, name)
        if value is None and fn is not None:
            value = _declared(m.tree.root_node, name)
        if value is not None:
            return _words(value, m, callers, depth)
        if fn is not None and name in _params(fn) and depth < _DEPTH:
            i = _params(fn).index(name)
            found = [w for cm, call in callers(fn) if i < len(call_args(call))
                     for w in _words(call_args(call)[i], cm, callers, depth + 1)]
            return found or [[_UNKNOWN]]
    return [[_UNKNOWN]]


def command_lines(call: ts.Node, m: Module, callers) -> list[list]:
    """Each command line a subprocess call may run, as leading words (None where unknown): `spawn(file, [args])` and
    `execFile(file, args)` run file + args; `exec("cmd args")` runs a shell command line."""
    args = call_args(call)
    if not args:
        return [[_UNKNOWN]]
    files = _words(args[0], m, callers, 0)
    if len(args) > 1:
        rest = _words(args[1], m, callers, 0)
        second = strip_casts(args[1])
        if second is not None and (second.type == "array" or any(len(r) != 1 or r[0] is not _UNKNOWN for r in rest)):
            return [f[:1] + r for f in files for r in rest]
    return files


def command_class(lines: list[list], kb: dict) -> tuple[str, str]:
    """(read | execute | unknown, the command shown): read when every line is a known read-only command, execute when
    one is a known writing command, unknown otherwise (kb/annotations.yaml commands)."""
    cmds = kb["commands"]
    reads = [c.split() for c in cmds["read_only"]]
    writes = [c.split() for c in cmds["writes"]]
    flags = set(cmds["read_only_flags"])
    verdicts = []
    for words in lines:
        shown = " ".join(w if w is not None else "…" for w in words[:4])
        if any(words[:len(c)] == c for c in writes):
            verdicts.append(("execute", shown))
        elif any(words[:len(c)] == c for c in reads) or (len(words) == 2 and words[1] in flags):
            verdicts.append(("read", shown))
        else:
            verdicts.append(("unknown", shown))
    for cls in ("execute", "unknown", "read"):
        hit = [s for c, s in verdicts if c == cls]
        if hit:
            return cls, ", ".join(dict.fromkeys(hit))
    return "unknown", ""


# -- a state write that only fills a cache ---------------------------------------------------

def _key(node: ts.Node | None) -> str | None:
    """The key text of `c.get(k)`, `c.has(k)`, `c.set(k, v)`, `c[k]`, `c[k] = v`, `k in c`."""
    if node is None:
        return None
    if node.type == "call_expression":
        args = call_args(node)
        return text(args[0]) if args else None
    if node.type == "assignment_expression":
        node = node.child_by_field_name("left")
    if node is not None and node.type == "subscript_expression":
        index = node.child_by_field_name("index")
        return text(index) if index is not None else None
    if node is not None and node.type == "binary_expression":
        return text(node.child_by_field_name("left"))
    return None


def _returned(read: ts.Node, fn: ts.Node) -> bool:
    """Whether the value read is returned: `return c.get(k)`, or `const x = c.get(k); ... return x`."""
    up = read.parent
    while up is not None and up is not fn:
        if up.type == "return_statement" or (up.type == "arrow_function" and up.child_by_field_name("body") is not None
                                              and up.child_by_field_name("body").type != "statement_block"):
            return True
        if up.type == "variable_declarator":
            name = up.child_by_field_name("name")
            return name is not None and any(r.type == "return_statement" and any(
                n.type == "identifier" and text(n) == text(name) for n in walk(r)) for r in find(fn, {"return_statement"}))
        if up.type in {"expression_statement", "if_statement"}:
            return False
        up = up.parent
    return False


def is_memo(container: Container, write: Access) -> bool:
    """A write that fills a cache: in the same function, or in a callback of it (`const hit = c.get(k); if (hit)
    return hit; ... (async () => { c.set(k, await load(k)) })()`), the same key is looked up first and the value
    found is returned, so a later call observes nothing it would not have computed itself."""
    if write.how not in {"set", "index-assign", "delete"} or write.node is None:  # delete: evicting a stale entry
        return False
    key = _key(write.node)
    if enclosing_function(write.node) is None or key is None:
        return False

    def holds(a: Access) -> ts.Node | None:  # the read's function, when the write is inside it
        fn = enclosing_function(a.node)
        inside = a.function == write.function or fn is not None and fn.start_byte <= write.node.start_byte < fn.end_byte
        return fn if inside else None
    return any(a.node is not None and a.kind == "content-read" and a.how in {"get", "index"} and a.line <= write.line
               and _key(a.node) == key and (fn := holds(a)) is not None and _returned(a.node, fn)
               for a in container.accesses)


_EMPTY_MADE = frozenset({"Map", "Set", "WeakMap", "WeakSet", "Array", "Object"})


def is_get_or_create(container: Container, write: Access) -> bool:
    """A write that makes an empty entry only where the key has none, in a function that returns the entry
    (`if (!users.has(u)) users.set(u, new Map()); return users.get(u)`): a later lookup finds an empty bucket where it
    would have made one itself; nothing a caller sees changes."""
    if write.how not in {"set", "index-assign"} or write.node is None:
        return False
    key = _key(write.node)
    value = call_args(write.node)[1] if write.how == "set" and len(call_args(write.node)) == 2 else \
        write.node.child_by_field_name("right") if write.node.type == "assignment_expression" else None
    value = strip_casts(value)
    empty = value is not None and (value.type in {"array", "object"} and not value.named_children
                                   or value.type == "new_expression" and not call_args(value)
                                   and text(value.child_by_field_name("constructor")) in _EMPTY_MADE)
    fn = enclosing_function(write.node)
    guard = next((a for a in ancestors(write.node) if a.type == "if_statement" or a == fn), None)
    cond = strip_casts(guard.child_by_field_name("condition")) if guard is not None and guard.type == "if_statement" \
        else None
    absent = cond is not None and cond.type == "unary_expression" and text(cond.child_by_field_name("operator")) == "!" \
        and _key(strip_casts(cond.child_by_field_name("argument"))) == key
    return empty and absent and key is not None and any(
        a.node is not None and a.kind == "content-read" and a.how in {"get", "index"} and a.function == write.function
        and a.line >= write.line and _key(a.node) == key and _returned(a.node, fn) for a in container.accesses)


def is_undo(container: Container, write: Access) -> bool:
    """A delete of an entry the same function set before under the same key (`LOCKS.set(key, p); try { ... } finally
    { LOCKS.delete(key) }`): it takes away only what the same call added."""
    key = _key(write.node) if write.how == "delete" and write.node is not None else None
    return key is not None and any(a.how in {"set", "index-assign", "add"} and a.node is not None
                                   and a.function == write.function and a.line <= write.line and _key(a.node) == key
                                   for a in container.writes)


def removes_own_file(call: ts.Node, written, callers) -> bool:
    """Whether a file delete CALL (`unlink(tmpPath)`) removes a file the same call of the tool wrote before: its path
    is a name that an earlier write of the same function takes as its path (`open(tmpPath, "w")`), or a parameter
    every caller in the tool's code hands such a name (`cleanupTmp(tmpPath)` after the write). WRITTEN(fn): (the
    path's text, start byte) of each file write in FN."""
    args = call_args(call)
    path = strip_casts(args[0]) if args else None
    fn = enclosing_function(call)
    if path is None or path.type != "identifier" or fn is None:
        return False
    name = text(path)

    def wrote(f: ts.Node, before: int, what: str) -> bool:
        return any(t == what and at < before for t, at in written(f))

    if wrote(fn, call.start_byte, name):
        return True
    index = plain_parameters(fn).get(name)
    sites = callers(fn) if index is not None else []
    handed = [(site, strip_casts(call_args(site)[index]) if index < len(call_args(site)) else None) for _, site in sites]
    return bool(handed) and all(a is not None and a.type == "identifier" and enclosing_function(site) is not None
                                and wrote(enclosing_function(site), site.start_byte, text(a)) for site, a in handed)


def is_cache(container: Container) -> bool:
    """Whether a container is a cache: it is filled (`set`, `c[k] = v`), at least once, only by writes that fill a
    cache (is_memo). Emptying it changes nothing a caller observes but the time the next lookup takes."""
    fills = [a for a in container.writes if a.how in {"set", "index-assign"}]
    return bool(fills) and all(is_memo(container, a) for a in fills)


def wrapped_cache(container: Container, write: Access, holders, reached=None) -> bool:
    """A write of a class's own storage inside one of its methods (`this.map.delete(k)` in `LRU.delete`), where
    the class is a cache to whoever calls that method: every holder of an instance (HOLDERS(class): containers made
    by state.instances) calling it, at a site REACHED(node) accepts (the tool's code; every site without it), uses
    the instance as a cache by the same rules (its fills fill a cache, its deletes evict from one); for a method
    that writes nothing through the holder (a lookup's bookkeeping: an LRU `get` moving the entry it returns), every
    holder calling it is a cache."""
    cls, _, field = container.key.partition(".")
    method = write.function.split("/", 1)[0]
    if not field or not method.startswith(cls + ".") or write.node is None:
        return False
    name = method.split(".", 1)[1]
    through = [(h, a) for h in holders(cls) for a in h.accesses
               if a.how == name and a.node is not None and (reached is None or reached(a.node))]
    return bool(through) and all(is_cache(h) if a.kind != "write" else is_memo(h, a) or a.how in {"clear", "delete"}
                                 and is_cache(h) for h, a in through)


def is_scratch(container: Container, write: Access) -> bool:
    """A write into a per-call buffer: the function it is in first empties the container, in a statement of its own
    body (`content.length = 0`, `buf = []`, `seen.clear()`), and every function that reads or writes the container
    does the same. Nothing written outlives the call that wrote it, so no later call observes it."""
    def resets(fn: ts.Node | None, line: int) -> bool:
        body = fn.child_by_field_name("body") if fn is not None else None
        stmts = [c for c in body.named_children if c.type == "expression_statement"] \
            if body is not None and body.type == "statement_block" else []
        return any(c.start_point[0] + 1 <= line and _empties(c.named_children[0], name)
                   for c in stmts if c.named_children)
    name = container.key.split(".", 1)[1] if "." in container.key else container.key
    name = f"this.{name}" if "." in container.key else name
    used = [a for a in container.accesses if a.kind != "declaration" and a.node is not None]
    return write.node is not None and resets(enclosing_function(write.node), write.line) and bool(used) and all(
        resets(enclosing_function(a.node), a.line) for a in used)


def _empties(expr: ts.Node, name: str) -> bool:
    """Whether EXPR empties NAME: `NAME.length = 0`, `NAME = []` / `{}` / `new Map()` (no entries), `NAME.clear()`,
    `NAME.splice(0)`."""
    expr = strip_casts(expr)
    if expr is None:
        return False
    if expr.type == "assignment_expression":
        left, right = text(expr.child_by_field_name("left")), strip_casts(expr.child_by_field_name("right"))
        if left == f"{name}.length":
            return right is not None and text(right) == "0"
        return left == name and right is not None and (right.type in {"array", "object"} and not right.named_children
                                                       or right.type == "new_expression" and not call_args(right))
    if expr.type == "call_expression":
        callee, args = text(expr.child_by_field_name("function")), [text(a) for a in call_args(expr)]
        return callee == f"{name}.clear" and not args or callee == f"{name}.splice" and args == ["0"]
    return False


# -- a target fixed by the server ------------------------------------------------------------

def fixed_target(call: ts.Node) -> bool:
    """Whether the first argument of an effect call (the path, URL or options) names no parameter of its function,
    directly or through a const of it: the server, not its caller, chooses what is written."""
    fn = enclosing_function(call)
    args = call_args(call)
    if fn is None or not args:
        return True
    params = set(_params(fn))
    todo, seen = [args[0]], set()
    while todo:
        expr = todo.pop()
        for n in walk(expr):
            if n.type == "identifier" and text(n) not in seen:
                seen.add(text(n))
                if text(n) in params:
                    return False
                value = _declared(fn, text(n))
                if value is not None:
                    todo.append(value)
    return True


def _param_names(fn: ts.Node) -> dict[str, int]:
    """Each name the parameters of FN bind (a destructured parameter binds several), with the parameter's position."""
    return {name: i for name, (i, _) in parameters(fn).items()}


def chosen_by_caller(call: ts.Node, callers, inside) -> bool:
    """Whether the tool's caller may choose what an effect call acts on (its first argument: the path written): the
    argument's folder (_folder) names, directly or through locals, a parameter of a function of the tool's code
    (INSIDE) that is the tool's dispatch or callback (no call of it in the tool's code: CALLERS), or whose calls pass
    such a value, up to _DEPTH calls up. False when the server alone makes it: literals, module bindings, members, what its functions
    compute from those, and the parameters of a function around the tool's code (set before any call of the tool:
    the server's configuration). A local with no value, or a chain longer than _DEPTH, counts as chosen by the caller."""
    args = call_args(call)
    return bool(args) and _from_caller(args[0], enclosing_function(call), callers, inside, 0, set())


def _folder(expr: ts.Node | None) -> ts.Node | None:
    """The part of a path expression that fixes where it is: the first part of `path.join(a, b)` (two parts or more:
    an array's `.join(sep)` has one) or of a string concatenation, the start of a template string; None when that is
    literal text (`/tmp/${name}`). The caller naming a file inside a folder the server fixes does not choose where
    it writes. (`path.resolve` is not cut: a later absolute part replaces the earlier ones.)"""
    while expr is not None:
        expr = strip_casts(expr)
        if expr.type in {"parenthesized_expression", "await_expression"} and expr.named_children:
            expr = expr.named_children[0]
        elif expr.type == "binary_expression" and text(expr.child_by_field_name("operator")) == "+":
            expr = expr.child_by_field_name("left")
        elif expr.type == "template_string":
            first = _template_lead(expr)
            if first is None or first.type == "string_fragment":
                return None
            expr = first.named_children[0] if first.named_children else None
        elif expr.type == "call_expression" and (member_chain(strip_casts(expr.child_by_field_name("function"))) or ("",))[-1] \
                == "join" and len(call_args(expr)) >= 2:
            expr = call_args(expr)[0]
        else:
            return None if string_value(expr) is not None else expr
    return None


def _from_caller(expr: ts.Node, fn: ts.Node | None, callers, inside, depth: int, seen: set) -> bool:
    expr = _folder(expr)
    target = _module_function(expr) if expr is not None and depth < _DEPTH else None
    if target is not None:  # `getCacheDir(version)`, a function of the module: the folder of what it returns, its
        site = expr  # parameters bound to this call's arguments
        return any(_from_caller(r, target, lambda f: [(None, site)] if f is target else callers(f),
                                lambda f: f is target or inside(f), depth + 1, seen) for r in returned(target))
    for n in walk(expr) if expr is not None else ():
        if n.type != "identifier" or (fn, text(n)) in seen:
            continue
        name, scope = text(n), fn
        seen.add((fn, name))
        while scope is not None:
            params = _param_names(scope)
            if name in params:
                if scope is not fn and not inside(scope):
                    break  # a parameter of the code that set the tool up
                calls = callers(scope)
                if not calls or depth >= _DEPTH:
                    return True
                i = params[name]
                if any(i < len(call_args(c)) and _from_caller(call_args(c)[i], enclosing_function(c), callers, inside,
                                                              depth + 1, seen) for _, c in calls):
                    return True
                break
            declared, value = _bound(scope, name)
            if not declared:
                loop = next((f for f in find(scope, {"for_in_statement"}) if enclosing_function(f) == scope
                             and f.child_by_field_name("left") is not None
                             and name in {text(x) for x in walk(f.child_by_field_name("left")) if x.type == "identifier"}), None)
                declared, value = loop is not None, loop.child_by_field_name("right") if loop is not None else None
            if declared:
                if value is None or _from_caller(value, scope, callers, inside, depth, seen):
                    return True
                break
            scope = enclosing_function(scope)
    return False


def _module_function(call: ts.Node) -> ts.Node | None:
    """The function a call of a plain name calls, when the module declares it at its top level (`function f() {}`,
    `const f = () => ...`); None otherwise."""
    callee = strip_casts(call.child_by_field_name("function")) if call.type == "call_expression" else None
    if callee is None or callee.type != "identifier":
        return None
    root = call
    while root.parent is not None:
        root = root.parent
    return _top_functions(root).get(text(callee))


@lru_cache(maxsize=256)
def _top_functions(root: ts.Node) -> dict[str, ts.Node]:
    """The functions a module declares at its top level, by name (read once per module: a bundle has thousands of
    statements, and every effect's path may ask)."""
    table: dict[str, ts.Node] = {}
    for stmt in root.named_children:
        decl = stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else stmt
        if decl is not None and decl.type in {"function_declaration", "generator_function_declaration"}:
            table.setdefault(text(decl.child_by_field_name("name")), decl)
        declared = decl is not None and decl.type in {"lexical_declaration", "variable_declaration"}
        for d in (decl.named_children if declared else ()):
            value = strip_casts(d.child_by_field_name("value")) if d.type == "variable_declarator" else None
            if value is not None and value.type in FUNCTION_TYPES:
                table.setdefault(text(d.child_by_field_name("name")), value)
    return table


def _bound(fn: ts.Node, name: str) -> tuple[bool, ts.Node | None]:
    """Whether `name` is declared in `fn` (not a nested function), and the value it is declared with (for a
    destructuring `const {a} = f()`, the value destructured)."""
    for d in find(fn, {"variable_declarator"}):
        target = d.child_by_field_name("name")
        if target is None or enclosing_function(d) != fn:
            continue
        names = {text(target)} if target.type == "identifier" else \
            {text(x) for x in walk(target) if x.type in {"shorthand_property_identifier_pattern", "identifier"}}
        if name in names:
            return True, d.child_by_field_name("value")
    return False, None


def fixed_host(call: ts.Node, callers=None) -> bool:
    """Whether the leading part of the URL an HTTP call sends to (its scheme and host) is chosen by the server (a
    literal, a constant, a member of `this` or of a module binding, a function of the server's) rather than passed
    down by a caller: `fetch(`${base()}/v1${path}`)` is fixed even though `path` is a parameter; `fetch(url)` and
    `fetch(args.url)` with a parameter `url`, `args` are not, unless every call of the function in the tool's code
    (CALLERS, up to _DEPTH calls up) passes a fixed one: `get(url) { return fetch(url) }` called as
    `get(`${API}/items`)`."""
    args = call_args(call)
    return not args or _fixed_host(args[0], enclosing_function(call), callers, 0)


def _template_lead(template: ts.Node) -> ts.Node | None:
    """The first part of a template string: its leading written text, or its first substitution."""
    return next((c for c in template.named_children if c.type in {"string_fragment", "template_substitution"}), None)


_LOOPBACK = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)(?:[:/]|$)", re.I)


def loopback_host(call: ts.Node) -> bool:
    """Whether an HTTP call is written to a host on the same machine: its URL a literal (or a template whose leading
    part is written) on `localhost`, 127.x.x.x or ::1, or its options object's `hostname`/`host` such a literal
    (`http.request({ hostname: "127.0.0.1", port })`): a local service, no open world."""
    args = call_args(call)
    arg = strip_casts(args[0]) if args else None
    arg = strip_casts(_host_option(arg)) if arg is not None and arg.type == "object" else arg
    if arg is None:
        return False
    if arg.type == "template_string":
        lead = _template_lead(arg)
        written = text(lead) if lead is not None and lead.type == "string_fragment" else None
    else:
        written = string_value(arg)
    return written is not None and _LOOPBACK.match(written) is not None


def _host_option(options: ts.Node) -> ts.Node | None:
    """The value an HTTP call's options object gives the host it sends to (`baseURL`, `url`, `hostname`, `host`, the
    first written), or None."""
    pairs = object_pairs(options)
    key = next((k for k in ("baseURL", "url", "hostname", "host") if k in pairs and pairs[k].type == "pair"), None)
    return pair_value(pairs[key]) if key is not None else None


def _fixed_host(expr: ts.Node | None, fn: ts.Node | None, callers, depth: int) -> bool:
    params = _param_names(fn) if fn is not None else {}
    seen = 0
    while expr is not None and seen < 20:
        seen += 1
        expr = strip_casts(expr)
        t = expr.type
        if t in {"string", "number"}:
            return True
        if t == "template_string":
            first = _template_lead(expr)
            if first is None or first.type == "string_fragment":
                return True
            expr = first.named_children[0] if first.named_children else None
        elif t == "binary_expression":
            expr = expr.child_by_field_name("left")
        elif t == "new_expression":  # new URL(path, base): the base names the host
            inner = call_args(expr)
            expr = inner[1] if len(inner) > 1 else inner[0] if inner else None
        elif t == "call_expression":
            callee = strip_casts(expr.child_by_field_name("function"))
            if callee is None or callee.type != "member_expression":
                return True  # a function of the server computes it
            expr = callee.child_by_field_name("object")  # base.replace(...), url.toString()
        elif t in {"member_expression", "subscript_expression"}:
            expr = expr.child_by_field_name("object")
        elif t == "object":  # the options of `http.request({ hostname, ... })`, `axios({ url })`: where it names a host
            expr = _host_option(expr)
            if expr is None:
                return False
        elif t == "identifier":
            if text(expr) in params:
                calls = callers(fn) if callers is not None and depth < _DEPTH else []
                i = params[text(expr)]
                return bool(calls) and all(i < len(call_args(c)) and _fixed_host(call_args(c)[i], enclosing_function(c),
                                                                                  callers, depth + 1) for _, c in calls)
            declared, value = _bound(fn, text(expr)) if fn is not None else (False, None)
            if not declared:
                return True  # a module constant or import
            expr = value
        else:
            return t in {"this", "super"}
    return expr is not None


# -- one-time setup --------------------------------------------------------------------------

def one_time(node: ts.Node) -> bool:
    """Whether `node` lies in a function that starts by returning when it has already run, on a flag or a memo it
    sets itself (`if (this.initialized) return;` ... `this.initialized = true`; `if (cachedPath) return cachedPath;`
    ... `cachedPath = found`): its effects are the server's setup on first use, not each call's."""
    fn = enclosing_function(node)
    body = fn.child_by_field_name("body") if fn is not None else None
    first = next((c for c in body.named_children if c.type != "comment"), None) if body is not None and body.type == "statement_block" else None
    if first is None or first.type != "if_statement":
        return False
    cond = strip_casts(first.child_by_field_name("condition"))
    cond = strip_casts(cond.named_children[0]) if cond is not None and cond.type == "parenthesized_expression" and cond.named_children else cond
    then = first.child_by_field_name("consequence")
    if cond is None or cond.type not in {"identifier", "member_expression"} or then is None:
        return False
    stmt = then.named_children[0] if then.type == "statement_block" and then.named_children else then
    if stmt.type != "return_statement":
        return False
    flag = text(cond)
    return any(a.child_by_field_name("left") is not None and text(a.child_by_field_name("left")) == flag
               for a in find(fn, {"assignment_expression"}) if enclosing_function(a) == fn)


def created_once(node: ts.Node, tests: frozenset[str]) -> bool:
    """Whether the call NODE writes its first argument only while that path does not exist: inside the branch of
    `if (!existsSync(P))` (TESTS: the existence tests), P the same expression, or a local of the function holding such
    a test (`const exists = fs.existsSync(P); if (!exists) { fs.writeFileSync(P, "{}"); }`). It creates the file once."""
    args = call_args(node) if node.type == "call_expression" else []
    if not args or not tests:
        return False
    target = text(strip_casts(args[0]))
    fn = enclosing_function(node)
    for a in ancestors(node):
        if a == fn:
            return False
        then = a.child_by_field_name("consequence") if a.type == "if_statement" else None
        if then is None or not then.start_byte <= node.start_byte < then.end_byte:
            continue
        cond = strip_casts(a.child_by_field_name("condition"))
        cond = strip_casts(cond.named_children[0]) if cond is not None and cond.type == "parenthesized_expression" \
            and cond.named_children else cond
        if cond is None or cond.type != "unary_expression" or text(cond.child_by_field_name("operator")) != "!":
            continue
        test = strip_casts(cond.child_by_field_name("argument"))
        if test is not None and test.type == "identifier" and fn is not None:  # a local holding the test
            decl = next((d for d in find(fn, {"variable_declarator"}) if text(d.child_by_field_name("name")) == text(test)
                         and enclosing_function(d) == fn), None)
            test = strip_casts(decl.child_by_field_name("value")) if decl is not None else None
        if test is not None and test.type == "await_expression" and test.named_children:
            test = strip_casts(test.named_children[0])
        callee = (member_chain(strip_casts(test.child_by_field_name("function"))) or ()) \
            if test is not None and test.type == "call_expression" else ()
        if callee and callee[-1] in tests and call_args(test) and text(strip_casts(call_args(test)[0])) == target:
            return True
    return False
