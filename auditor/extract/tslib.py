"""TypeScript's runtime helpers in compiled output (tsc's inline helpers, or tslib's with `importHelpers`), read as
what they stand for: a re-export, an import, an async function's body. Knowledge of tsc's output, not of a server."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract.syntax import FUNCTION_TYPES, call_args, call_function, member_chain, string_value, strip_casts

# `__exportStar(require("./x"), exports)`: `export * from "./x"`.
EXPORT_STAR = "__exportStar"
# `__createBinding(exports, m_1, "k", "alias")`: `export { k as alias } from` (alias defaults to k).
CREATE_BINDING = "__createBinding"
# `__importStar(require("./x"))`, `__importDefault(require("./x"))`: the module object of an import, as imported.
IMPORT_WRAPPERS = frozenset({"__importStar", "__importDefault"})
# `__awaiter(this, arguments, void 0, function* (...) { ... })` (tsc) and `__async(this, null, function* () { ... })`
# (esbuild): an async function's body, as a generator, the last argument; the second is the arguments it is handed.
AWAITERS = frozenset({"__awaiter", "__async"})


def helper(call: ts.Node | None) -> str | None:
    """The helper a call calls (`__x(...)`, `tslib_1.__x(...)`, `(0, tslib_1.__x)(...)`), or None."""
    call = strip_casts(call)
    if call is None or call.type != "call_expression":
        return None
    chain = member_chain(call_function(call))
    if not chain or len(chain) > 2 or not chain[-1].startswith("__"):
        return None
    return chain[-1]


def unwrap_import(node: ts.Node | None) -> ts.Node | None:
    """`__importStar(X)` and `__importDefault(X)` -> X; anything else as it is."""
    node = strip_casts(node)
    if helper(node) in IMPORT_WRAPPERS:
        args = call_args(node)
        return strip_casts(args[0]) if len(args) == 1 else node
    return node


def required_spec(node: ts.Node | None) -> str | None:
    """The specifier of `require("x")` (through an import wrapper), or None."""
    node = unwrap_import(node)
    if node is None or node.type != "call_expression":
        return None
    fn, args = node.child_by_field_name("function"), call_args(node)
    if fn is None or fn.type != "identifier" or fn.text != b"require" or len(args) != 1:
        return None
    return string_value(args[0])


def export_star(expr: ts.Node) -> str | None:
    """The specifier `__exportStar(require("./x"), exports)` re-exports, or None."""
    if helper(expr) != EXPORT_STAR:
        return None
    args = call_args(strip_casts(expr))
    if len(args) != 2 or member_chain(args[1]) != ("exports",):
        return None
    return required_spec(args[0])


def created_binding(expr: ts.Node) -> tuple[str, str, str] | None:
    """(exported name, namespace local, its name) of `__createBinding(exports, m_1, "k"[, "alias"])`, or None."""
    if helper(expr) != CREATE_BINDING:
        return None
    args = call_args(strip_casts(expr))
    if len(args) not in {3, 4} or member_chain(args[0]) != ("exports",) or strip_casts(args[1]).type != "identifier":
        return None
    names = [string_value(a) for a in args[2:]]
    if any(n is None for n in names):
        return None
    return names[-1], strip_casts(args[1]).text.decode("utf-8", "replace"), names[0]


def awaited(fn: ts.Node) -> ts.Node | None:
    """The generator an async function compiled by tsc or esbuild runs: FN's body is (or returns only)
    `__awaiter(this, args, P, function* (...) { ... })` or `__async(this, args, function* () { ... })`; None for any
    other function."""
    body = fn.child_by_field_name("body")
    if body is None:
        return None
    if body.type == "statement_block":
        stmts = [c for c in body.named_children if c.type != "comment"]
        if len(stmts) != 1 or stmts[0].type != "return_statement" or not stmts[0].named_children:
            return None
        body = stmts[0].named_children[0]
    if helper(body) not in AWAITERS:
        return None
    args = call_args(strip_casts(body))
    gen = strip_casts(args[-1]) if len(args) in {3, 4} else None
    return gen if gen is not None and gen.type in FUNCTION_TYPES else None


def unyield(node: ts.Node) -> ts.Node:
    """`yield x` -> x: in the generator of `__awaiter` or `__async`, a yield is an await."""
    inner = strip_casts(node)
    return inner.named_children[0] if inner is not None and inner.type == "yield_expression" and inner.named_children \
        else node


def passes_arguments(fn: ts.Node) -> bool:
    """Whether FN's `__awaiter` or `__async` hands the generator FN's own arguments (`__awaiter(this, arguments,
    ...)`), so that the generator's parameters are FN's arguments in order."""
    body = fn.child_by_field_name("body")
    call = body
    if body is not None and body.type == "statement_block":
        ret = next((c for c in body.named_children if c.type == "return_statement"), None)
        call = ret.named_children[0] if ret is not None and ret.named_children else None
    args = call_args(strip_casts(call)) if helper(call) in AWAITERS else []
    return len(args) in {3, 4} and strip_casts(args[1]) is not None and strip_casts(args[1]).type in {"arguments", "identifier"} \
        and strip_casts(args[1]).text == b"arguments"
