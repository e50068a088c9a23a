"""The local names of a module that stand for the zod namespace: an import of zod, the namespace object a bundler
makes of a copy of zod it inlines (esbuild: `var ns = {}; __export(ns, {object: () => objectType, ...})`), and any
top-level alias of one (`var z = ns`); and the constructors of an inlined zod called directly (`stringType()`).
Vocabulary: kb/sdk.yaml `zod`."""

from __future__ import annotations

import re

import tree_sitter as ts

from auditor.extract.bindings import imports
from auditor.extract.frames import returned
from auditor.extract.program import Module
from auditor.extract.syntax import call_args, member_chain, object_pairs, pair_value, strip_casts, text

MAX_ALIASES = 10  # alias of an alias, followed this deep


def namespaces(module: Module, vocab: dict) -> tuple[frozenset[str], frozenset[str]]:
    """(names bound to the zod namespace, those of them whose member `z` is the namespace again: a whole-module import,
    `zod_1.z.string()`, or a bundled namespace). Read once per module."""
    key = "zod.namespaces"
    hit = module.memo.get(key)
    if hit is not None:
        return hit
    z = vocab["zod"]
    ns: set[str] = set()
    star: set[str] = set()
    for local, (src, name) in imports(module).items():
        if src in z["modules"] and (name in {"*", "default"} or name in z["namespace_exports"]) \
                or src in z.get("reexported_by", ()) and name in z["namespace_exports"]:  # `import { z } from "fw"`
            ns.add(local)
            if name in {"*", "default"}:
                star.add(local)
    bundled = _bundled(module, z)
    ns |= bundled
    star |= bundled
    aliases = _aliases(module, ns, z)
    found = module.memo[key] = (frozenset(ns | aliases), frozenset(star))
    return found


def _bundled(module: Module, z: dict) -> set[str]:
    """Top-level names a bundler's export helper makes a namespace of zod: `f(name, {key: () => value, ...})` (esbuild's
    `__export`, renamed by a minifier) whose getters include every name of kb `zod.bundled_namespace` (zod's own
    exports; neither the helper's name nor the bundle's region markers are needed)."""
    signature = set(z.get("bundled_namespace") or ())
    out: set[str] = set()
    if not signature:
        return out
    for stmt in module.tree.root_node.named_children:
        call = strip_casts(stmt.named_children[0]) if stmt.type == "expression_statement" and stmt.named_children else None
        for one in (call.named_children if call is not None and call.type == "sequence_expression" else [call]):
            name = _namespace_of(one, signature)
            if name is not None:
                out.add(name)
    return out


def _namespace_of(call: ts.Node | None, signature: set[str]) -> str | None:
    """NAME of `f(NAME, {getters})` when the getters (`key: () => value`) cover SIGNATURE, else None."""
    if call is None or call.type != "call_expression":
        return None
    args = call_args(call)
    getters = strip_casts(args[1]) if len(args) == 2 else None
    if getters is None or getters.type != "object" or args[0].type != "identifier":
        return None
    pairs = object_pairs(getters)
    if not signature <= set(pairs) or any(strip_casts(pair_value(pairs[k])).type != "arrow_function" for k in signature):
        return None
    return text(args[0])


def _aliases(module: Module, ns: set[str], z: dict) -> set[str]:
    """Top-level names whose value is a zod namespace already known (`var z = ns`, `var z = ns.z` of a whole-module
    one), to a fixed point."""
    out: set[str] = set()
    known = set(ns)
    for _ in range(MAX_ALIASES):
        more = set()
        for name, value in module.toplevel.items():
            value = strip_casts(value)
            if name in known or value is None:
                continue
            if value.type == "identifier" and text(value) in known:
                more.add(name)
            elif value.type == "member_expression" and strip_casts(value.child_by_field_name("object")) is not None \
                    and text(strip_casts(value.child_by_field_name("object"))) in known \
                    and text(value.child_by_field_name("property")) in z["namespace_exports"]:
                more.add(name)
        if not more:
            break
        out |= more
        known |= more
    return out



def constructors(module: Module, vocab: dict) -> dict[str, str]:
    """Top-level names of a copy of zod a bundler inlined that are its constructors, called directly (`stringType()`
    for `z.string()`, where zod's own code, in a region of the bundle outside the boundary, assigns
    `stringType = ZodString.create`): name -> the constructor of kb `zod.types`. Read once per module."""
    key = "zod.constructors"
    hit = module.memo.get(key)
    if hit is not None:
        return hit
    known = vocab["zod"].get("bundled_constructors") or {}
    seen: dict[str, set[str]] = {}
    if known:
        for name, value in module.toplevel.items():  # (the module's own `var string = ZodString.create`)
            value = strip_casts(value)
            if value is not None and value.type == "member_expression":
                seen.setdefault(name, set()).add(".".join(member_chain(value) or ()))
        root = module.tree.root_node
        source = root.text
        for hit_ in _ASSIGNED.finditer(source) if any(k.encode() in source for k in known) else ():
            node = root.descendant_for_byte_range(hit_.start(1), hit_.end(1))
            if node is not None and node.type == "identifier" and node.parent is not None \
                    and node.parent.type == "assignment_expression" and node.parent.parent is not None \
                    and node.parent.parent.type == "expression_statement":
                seen.setdefault(hit_.group(1).decode(), set()).add(hit_.group(2).decode())
    found = {name: known[next(iter(values))] for name, values in seen.items()
             if len(values) == 1 and next(iter(values)) in known}
    classes = vocab["zod"].get("bundled_classes") or {}
    for name, fn in module.functions.items() if classes else ():  # zod 4's `function string(p) {...}`, inlined
        made = {_made_class(v) for v in returned(fn)}
        if len(made) == 1 and (cls := made.pop()) in classes and name not in found:
            found[name] = classes[cls]
    module.memo[key] = found
    return found


def _made_class(value: ts.Node | None) -> str | None:
    """The class VALUE constructs: `new ZodObject(def)`, or the class a helper is handed first (`_string(ZodString,
    params)`); None for anything else, and for a helper that coerces (`_coercedNumber(ZodNumber, params)`)."""
    value = strip_casts(value)
    if value is not None and value.type == "new_expression":
        ctor = value.child_by_field_name("constructor")
        return text(ctor) if ctor is not None and ctor.type == "identifier" else None
    if value is None or value.type != "call_expression":
        return None
    fn, args = strip_casts(value.child_by_field_name("function")), call_args(value)
    first = strip_casts(args[0]) if args else None
    if fn is None or fn.type != "identifier" or "coerce" in text(fn).lower() or first is None or first.type != "identifier":
        return None
    return text(first)


# `name = ZodString.create;`, a statement of its own (in a bundler's lazily run module body, `__esm(() => {...})`).
_ASSIGNED = re.compile(rb"(?m)^[ \t]*([A-Za-z_$][\w$]*)[ \t]*=[ \t]*([A-Za-z_$][\w$]*\.[A-Za-z_$][\w$]*);")
