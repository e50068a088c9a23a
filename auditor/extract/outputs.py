"""What a tool implementation outputs: text written to streams, results returned, errors captured."""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from auditor.extract.flow import _guards, _stmt_in, resolver
from auditor.extract.program import Module
from auditor.extract.state import Container
from auditor.extract.syntax import (FUNCTION_TYPES, call_args, callee_text, enclosing, enclosing_function, find,
                                    member_chain, object_pairs, pair_value, strip_casts, text, walk, words)


@dataclass(frozen=True, kw_only=True, slots=True)
class Emit:
    function: str
    stream: str  # stderr | stdout
    call: ts.Node
    argument: str
    renderer: str | None
    renderer_node: ts.Node | None
    producer: ts.Node | None  # statement that computed the argument
    renderer_path: str | None = None  # the file of the renderer, set by the caller that knows the modules
    condition: str | None = None  # the condition of the innermost `if` around the write (None: unconditional)
    guards: tuple[ts.Node, ...] = ()  # the conditions of every `if` around it, innermost first


@dataclass(frozen=True, kw_only=True, slots=True)
class Result:
    function: str
    node: ts.Node
    kind: str  # success | error
    in_catch: bool
    fields: tuple[tuple[str, str], ...]  # serialized payload key -> source expression
    reads: tuple[tuple[str, str, str], ...]  # (container, kind, how)
    structured: str | None = None  # the `structuredContent` of the result as written, when it has one


@dataclass(frozen=True, kw_only=True, slots=True)
class Capture:
    function: str
    node: ts.Node  # catch clause
    returns_error: bool
    throwing_after_write: tuple[tuple[str, int], ...]  # calls still able to throw after a state write
    first_write_line: int | None


def emits(module: Module, fn: ts.Node, vocab: dict, resolve=None, branches: frozenset[int] = frozenset()) -> list[Emit]:
    out = []
    resolve = resolve or resolver(module)
    name = module.qualified(fn)
    streams = {c: "stderr" for c in vocab["stderr_calls"]} | {c: "stdout" for c in vocab["stdout_calls"]}
    for node in find(fn, {"call_expression"}):
        if enclosing_function(node) != fn:
            continue
        stream = streams.get(callee_text(node))
        if stream is None:
            continue
        args = call_args(node)
        arg = args[0] if args else None
        renderer = renderer_node = producer = None
        if arg is not None and arg.type == "identifier":
            for decl in walk(fn):
                if decl.type == "variable_declarator" and text(decl.child_by_field_name("name")) == text(arg):
                    value = strip_casts(decl.child_by_field_name("value"))
                    producer = decl.parent
                    if value is not None and value.type == "call_expression":
                        hit = resolve(value)
                        if hit is not None:
                            renderer_node, renderer = hit
                    break
        elif arg is not None and strip_casts(arg).type == "call_expression":
            hit = resolve(strip_casts(arg))
            if hit is not None:
                renderer_node, renderer = hit
        guards = tuple(g.child_by_field_name("condition") for g in _guards(node, fn, branches))
        guards = tuple(g for g in guards if g is not None)
        out.append(Emit(function=name, stream=stream, call=node, argument=text(arg) if arg is not None else "",
                        renderer=renderer, renderer_node=renderer_node, producer=producer,
                        condition=text(strip_casts(guards[0])) if guards else None, guards=guards))
    return out


def results(module: Module, fn: ts.Node, containers: list[Container]) -> list[Result]:
    out = []
    name = module.qualified(fn)
    sites = {}  # byte spans are per file: only this module's containers can be read here
    decls = None
    for c in (c for c in containers if c.module is module):
        for a in c.accesses:
            if a.node is not None and a.kind != "declaration":
                sites[(a.node.start_byte, a.node.end_byte)] = (c.key, a.kind, a.how)
    body = fn.child_by_field_name("body")
    # What the function returns: its return statements, or the expression body of an arrow (`async () => ({...})`).
    returned = [(body, strip_casts(body))] if fn.type == "arrow_function" and body is not None \
        and body.type != "statement_block" else []
    returned += [(n, strip_casts(n.named_children[0])) for n in walk(fn)
                 if n.type == "return_statement" and enclosing_function(n) == fn and n.named_children]
    for node, obj in returned:
        pairs = object_pairs(obj)
        if "content" not in pairs:
            continue
        in_catch = enclosing(node, {"catch_clause"}) is not None and _stmt_in(fn, enclosing(node, {"catch_clause"}))
        is_error = "isError" in pairs and text(pair_value(pairs["isError"])) != "false"
        decls = _local_values(fn) if decls is None else decls
        reads = tuple(sorted({sites[(n.start_byte, n.end_byte)] for src in _sources(fn, obj, decls=decls) for n in walk(src)
                              if (n.start_byte, n.end_byte) in sites}))
        fields: list[tuple[str, str]] = []
        for n in walk(obj):
            if n.type == "call_expression" and callee_text(n) == "JSON.stringify" and call_args(n):
                for key, pair in object_pairs(call_args(n)[0]).items():
                    fields.append((key, text(pair_value(pair))))
                break
        structured = text(pair_value(pairs["structuredContent"])) if "structuredContent" in pairs else None
        out.append(Result(function=name, node=node, kind="error" if is_error or in_catch else "success",
                          in_catch=in_catch, fields=tuple(fields), reads=reads, structured=structured))
    return out


def _local_values(fn: ts.Node) -> dict[str, ts.Node]:
    return {text(d.child_by_field_name("name")): d.child_by_field_name("value") for d in walk(fn)
            if d.type == "variable_declarator" and d.child_by_field_name("value") is not None
            and enclosing_function(d) == fn}


def _sources(fn: ts.Node, expr: ts.Node, depth: int = 3, decls: dict | None = None) -> list[ts.Node]:
    """`expr` plus the initializers of the local variables it uses, transitively: a result built
    from `const text = lines.join(...)` reads what `lines` read."""
    decls = _local_values(fn) if decls is None else decls
    out, todo, seen = [expr], [expr], set()
    for _ in range(depth):
        names = {text(n) for e in todo for n in walk(e) if n.type == "identifier"} - seen
        seen |= names
        todo = [decls[n] for n in sorted(names) if n in decls]
        out += todo
    return out


def captures(module: Module, fn: ts.Node, containers: list[Container], vocab: dict) -> list[Capture]:
    out = []
    name = module.qualified(fn)
    writes = sorted((a.node for c in containers for a in c.writes if a.node is not None and enclosing_function(a.node) == fn),
                    key=lambda n: n.start_byte)
    benign = set(vocab["metadata_functions"]) | set(vocab.get("non_throwing_calls") or ())
    quiet = frozenset(vocab.get("non_throwing_methods") or ())
    for node in walk(fn):
        if node.type != "try_statement" or enclosing_function(node) != fn:
            continue
        handler = node.child_by_field_name("handler")
        if handler is None:
            continue
        body = node.child_by_field_name("body")
        write = next((w for w in writes if body.start_byte <= w.start_byte < body.end_byte), None)
        first = write.start_point[0] + 1 if write is not None else None
        after: list[tuple[str, int]] = []
        if write is not None:
            written = {(a.node.start_byte) for c in containers if c.module is module for a in c.writes if a.node is not None}
            for n in walk(body):
                if n.type != "call_expression" or n.start_point[0] + 1 <= first or enclosing_function(n) != fn:
                    continue
                callee = callee_text(n)
                chain = callee.split(".")
                if callee in benign or n.start_byte in written or _inside_call(n, body) \
                        or len(chain) > 1 and chain[-1] in quiet or log_call(n, vocab) \
                        or not _may_follow(write, n, body):
                    continue
                after.append((callee, n.start_point[0] + 1))
        returns_error = any(n.type == "pair" and text(n.child_by_field_name("key")) == "isError" for n in walk(handler))
        out.append(Capture(function=name, node=handler, returns_error=returns_error,
                           throwing_after_write=tuple(after), first_write_line=first))
    return out


def log_call(call: ts.Node, vocab: dict) -> bool:
    """Whether CALL writes to a log: a stream call (`console.error`), a logging method on a logger
    (`logger.info`, `this.log.warn`: the receiver's last word one of `loggers.receivers`), or a function or method
    named for the audit log it writes (`logAudit(...)`, `this.appendAuditLog(...)`: every word of `loggers.records`
    among its name's words)."""
    if callee_text(call) in vocab["stderr_calls"] or callee_text(call) in vocab["stdout_calls"]:
        return True
    chain = member_chain(call.child_by_field_name("function"))
    loggers = vocab["loggers"]
    records = loggers.get("records") or ()
    if chain and records and set(records) <= set(words(chain[-1])):
        return True
    if not chain or len(chain) < 2 or chain[-1] not in loggers["methods"]:
        return False
    receiver = words(chain[-2])
    return bool(receiver) and receiver[-1] in loggers["receivers"]


def _may_follow(write: ts.Node, call: ts.Node, stop: ts.Node) -> bool:
    """Whether CALL, written after WRITE within STOP (a try block), can run after it: not in another case of the
    switch WRITE is in, nor on the other side of an `if` it is in, nor after a `return` or `throw` that follows WRITE
    in a block holding it (`cache.set(k, v); return false;`)."""
    inside = lambda n, a: a.start_byte <= n.start_byte < a.end_byte  # noqa: E731
    cur = write
    while cur is not None and cur != stop:
        up = cur.parent
        if up is None:
            break
        if up.type == "switch_case" and not inside(call, up) and up.parent is not None and inside(call, up.parent):
            return False  # (another case of the same switch)
        if up.type == "if_statement":
            for side in ("consequence", "alternative"):
                branch = up.child_by_field_name(side)
                other = up.child_by_field_name("alternative" if side == "consequence" else "consequence")
                if branch is not None and inside(write, branch) and other is not None and inside(call, other):
                    return False
        if up.type in {"statement_block", "switch_case"}:
            for stmt in up.named_children:
                if stmt.start_byte > cur.start_byte and stmt.type in {"return_statement", "throw_statement"} \
                        and call.start_byte >= stmt.end_byte:
                    return False  # (the write's path leaves there)
        cur = up
    return True


def _inside_call(node: ts.Node, stop: ts.Node) -> bool:
    """True when `node` is an argument of another call (counted once, at the outer call)."""
    cur = node.parent
    while cur is not None and cur != stop:
        if cur.type == "call_expression":
            return True
        if cur.type in FUNCTION_TYPES:
            return False
        cur = cur.parent
    return False
