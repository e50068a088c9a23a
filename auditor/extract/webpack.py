"""The module map of a webpack (or rspack) bundle: each module is a function `(module, exports, require)` held under
its id (`"./src/tools/x.ts"`, `7011`) in an object the bundle hands its runtime, and defines its exports with
`require.d(exports, { P: () => localName })` (webpack 5, rspack), `require.d(exports, "P", function () { return
localName; })` (webpack 4), or as CommonJS, `exports.P = value`. `require("./src/tools/x.ts").P` is then that
module's `localName`, read in the module function's scope. Found from the calls and assignments alone (one pass over
each module's, remembered per audit)."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract import inlined
from auditor.extract.bindings import value_of
from auditor.extract.frames import parameters, returned
from auditor.extract.program import Module
from auditor.extract.syntax import (FUNCTION_TYPES, call_args, enclosing_function, literal, member_chain, object_pairs,
                                    pair_value, string_value, strip_casts, text)

KEY = "webpack.modules"


def modules(link, all_modules) -> dict[str, dict[str, tuple[Module, ts.Node]]]:
    """Module id -> export name -> (module, the getter's value), for every webpack module function of the audit."""
    found = link.memo.get(KEY)
    if found is not None:
        return found
    found = link.memo[KEY] = {}
    for m in all_modules:
        for call in m.nodes("call"):
            fn = strip_casts(call.child_by_field_name("function"))
            if fn is None or fn.type != "member_expression" or text(fn.child_by_field_name("property")) != "d":
                continue
            args = call_args(call)
            if len(args) not in {2, 3} or args[0].type != "identifier":
                continue
            owner = enclosing_function(call)
            names = _parameters(owner)
            if len(names) < 3 or names[1] != text(args[0]) or text(fn.child_by_field_name("object")) != names[2]:
                continue  # (`require.d(exports, ...)` with the module function's own parameters)
            ident = _module_id(owner)
            if ident is None:
                continue
            table = found.setdefault(ident, {})
            if len(args) == 2 and args[1].type == "object":
                for key, pair in object_pairs(args[1]).items():
                    value = _got(pair_value(pair) if pair.type == "pair" else pair)
                    if value is not None:
                        table[key] = (m, value)
            elif len(args) == 3 and string_value(args[1]) is not None:
                value = _got(args[2])
                if value is not None:
                    table[string_value(args[1])] = (m, value)
        for node in m.nodes("assign"):  # a CommonJS module of the map: `t.McpServer = class McpServer {...}`
            chain = member_chain(node.child_by_field_name("left")) if node.type == "assignment_expression" else None
            owner = enclosing_function(node) if chain and len(chain) == 2 else None
            names = _parameters(owner)
            if len(names) < 2 or names[1] != chain[0]:
                continue
            ident = _module_id(owner)
            value = strip_casts(node.child_by_field_name("right"))
            if ident is None or value is None or value.type in {"unary_expression", "undefined", "assignment_expression"}:
                continue  # (`t.x = void 0`, tsc's declaration ahead of the value; chains of those)
            found.setdefault(ident, {}).setdefault(chain[1], (m, value))
    return found


def required(node: ts.Node | None) -> str | None:
    """The module id a call `require("./src/x.ts")` / `r(7011)` asks for (one string or integer argument), or None."""
    node = strip_casts(node)
    if node is None or node.type != "call_expression" or strip_casts(node.child_by_field_name("function")) is None \
            or strip_casts(node.child_by_field_name("function")).type != "identifier":
        return None
    args = call_args(node)
    if len(args) != 1:
        return None
    value = literal(args[0])
    return str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else None


def _parameters(fn: ts.Node | None) -> list[str]:
    """FN's parameter names in order (a module function's: `module, exports, require`)."""
    return [n for n, _ in sorted(parameters(fn).items(), key=lambda kv: kv[1][0])] if fn is not None else []


def _module_id(fn: ts.Node) -> str | None:
    """The id a module function is held under: the key of its pair, or the name of a method `"./x.ts"(m, e, r) {}`."""
    holder = fn.parent
    key = fn.child_by_field_name("name") if fn.type == "method_definition" else \
        holder.child_by_field_name("key") if holder is not None and holder.type == "pair" else None
    if key is None:
        return None
    value = string_value(key) if key.type == "string" else text(key) if key.type == "number" else None
    return value if value is not None and (value.isdigit() or value.startswith(("./", "../", "/"))
                                            or "node_modules/" in value) else None  # (a module's id, no other key)


def _got(getter: ts.Node | None) -> ts.Node | None:
    """What a getter `() => x` / `function () { return x; }` gives."""
    getter = strip_casts(getter)
    if getter is None or getter.type not in FUNCTION_TYPES:
        return None
    values = returned(getter)
    return values[0] if len(values) == 1 else None


def exported_class(module: Module, ctor: ts.Node | None, link) -> tuple[Module, str] | None:
    """(module, name) of what `new X.k(...)` constructs when X holds a webpack module (`var X = require("./x.ts")`,
    `n = r(7011)`) whose export k is a name of that module (`k: () => McpServer`); None otherwise."""
    ctor = strip_casts(ctor)
    if link is None or ctor is None or ctor.type != "member_expression":
        return None
    holder = strip_casts(ctor.child_by_field_name("object"))
    ident = required(value_of(module, holder)) if holder is not None and holder.type == "identifier" else None
    table = modules(link, link.by_path.values()).get(ident, {}) if ident is not None else {}
    found = table.get(text(ctor.child_by_field_name("property")))
    value = strip_casts(found[1]) if found is not None else None
    if value is not None and value.type in {"class", "class_declaration"} and value.child_by_field_name("name") is not None:
        return found[0], text(value.child_by_field_name("name"))  # (`t.McpServer = class McpServer {...}`)
    return (found[0], text(value)) if value is not None and value.type == "identifier" else None


def server_class(module: Module, ctor: ts.Node | None, classes, link) -> str | None:
    """The SDK server class (one of CLASSES) `new X.k(...)` of a webpack module constructs: the class exported under
    k by its own name, or a copy of the SDK's class a minifier renamed (extract/inlined.py)."""
    found = exported_class(module, ctor, link)
    if found is None:
        return None
    name = found[1] if found[1] in classes else inlined.sdk_class(*found)
    return name if name in classes else None
