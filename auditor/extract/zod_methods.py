"""What each method of a zod chain (`.optional()`, `.min(1)`, `.extend({...})`, ...) does to the JSON Schema read so
far, by the effect kb/sdk.yaml `zod.methods` gives it; and the JSON Schema helpers the zod reader shares."""

from __future__ import annotations

import copy

import tree_sitter as ts

from auditor.extract.syntax import NOT_LITERAL, call_args, excerpt, literal, strip_casts, text, unknown_part


def object_schema(props: dict, required: list, base: dict | None = None) -> dict:
    """An object schema with these properties (replacing those of `base`, whose other keywords are kept)."""
    out: dict = {k: v for k, v in (base or {"type": "object"}).items() if k not in {"properties", "required"}}
    out["properties"] = props
    if required:
        out["required"] = required
    return out


def type_of(spec: dict) -> str | None:
    t = spec.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), None)
    return t if isinstance(t, str) else None


def nullable(spec: dict) -> dict:
    """`x.nullable()`: a plain typed schema gets `null` added to its type; anything else becomes anyOf."""
    t = spec.get("type")
    if isinstance(t, str) and not {"properties", "items", "anyOf", "additionalProperties"} & set(spec):
        return spec if t == "null" else {**spec, "type": [t, "null"]}
    return {"anyOf": [spec, {"type": "null"}]}


def _regex(node: ts.Node | None, env) -> str | None:
    """The source of a regex: a literal `/.../` (its flags aside), `new RegExp("...")` of a constant string without
    flags, or a name bound to either."""
    for _ in range(10):
        node = strip_casts(node)
        if node is None or node.type != "identifier":
            break
        value = env(node) if callable(env) else None
        node = value if isinstance(value, ts.Node) else None
    if node is not None and node.type == "regex":
        pattern = node.child_by_field_name("pattern")
        return text(pattern) if pattern is not None else None
    if node is not None and node.type == "new_expression" and text(node.child_by_field_name("constructor")) == "RegExp":
        args = call_args(node)
        source = literal(args[0], env) if len(args) == 1 else NOT_LITERAL
        return source if isinstance(source, str) else None
    return None


def apply(r, rule: dict, name: str, args: list, call: ts.Node, spec: dict, optional: bool, path: str,
          depth: int) -> tuple[dict, bool, bool]:
    """What method `name` (its kb rule) does to the schema read so far: (schema, may be omitted, read fully).
    `r` is the zod reader of the conversion (its constants, problems, coercions and nested reads)."""
    effect = rule["effect"]
    first = args[0] if args else None
    where = path or "input"
    if effect == "optional":
        return spec, True, True
    if effect == "nullable":
        return nullable(spec), optional, True
    if effect == "nullish":
        return nullable(spec), True, True
    if effect == "default":
        value = literal(first, r.constants) if first is not None else NOT_LITERAL
        return ({**spec, "default": value} if value is not NOT_LITERAL else spec), True, True
    if effect == "describe":
        value = literal(first, r.constants)
        if isinstance(value, str):
            return {**spec, "description": value}, optional, True
        part = unknown_part(first, r.constants)
        unknown = f" (`{excerpt(part)}` is not a constant)" if part is not None and part != strip_casts(first) else ""
        r.problem(f".{name}() text at `{where}` is not a literal{unknown}; the description is not shown", call)
        return spec, optional, True
    if effect == "meta":  # `.meta({ description: "...", examples: [...] })`: its entries join the schema
        value = literal(first, r.constants) if first is not None else NOT_LITERAL
        if isinstance(value, dict):
            return {**spec, **value}, optional, True
        r.problem(f".{name}() at `{where}` is not a literal object; its metadata is not shown", call)
        return spec, optional, True
    if effect == "wrap-array":
        return {"type": "array", "items": spec}, False, True
    if effect == "union-with":
        other, _ = r.read(first, path, depth + 1)
        return ({"anyOf": [spec, other]} if other is not None else spec), optional, other is not None
    if effect == "intersect-with":  # `A.and(B)`: z.intersection(A, B)
        other, _ = r.read(first, path, depth + 1)
        return ({"allOf": [spec, other]} if other is not None else spec), optional, other is not None
    if effect == "keyword":
        keyword = rule["keywords"].get(type_of(spec) or "")
        value = rule["value"] if "value" in rule else literal(first, r.constants)
        if keyword is None or not isinstance(value, (int, float)) or isinstance(value, bool):
            r.problem(f".{name}() at `{where}` has no JSON Schema form here; the constraint is not shown", call)
            return spec, optional, True
        keys = keyword if isinstance(keyword, list) else [keyword]
        return {**spec, **{k: value for k in keys}}, optional, True
    if effect == "set":
        return {**spec, **copy.deepcopy(rule["schema"])}, optional, True
    if effect == "pattern":
        pattern = _regex(first, r.constants)
        if pattern is None:
            r.problem(f".{name}() at `{where}` is not a regex literal; the pattern is not shown", call)
            return spec, optional, True
        return {**spec, "pattern": pattern}, optional, True
    if effect in {"enum-exclude", "enum-extract"}:
        values = literal(first, r.constants) if first is not None else NOT_LITERAL
        if not isinstance(spec.get("enum"), list) or not isinstance(values, list):
            r.problem(f".{name}() at `{where}` is not of a known enum and a literal list; the property is not read", call)
            return spec, optional, False
        keep = (lambda v: v not in values) if effect == "enum-exclude" else (lambda v: v in values)
        return {**spec, "enum": [v for v in spec["enum"] if keep(v)]}, optional, True
    if effect == "literal-pattern":  # `.startsWith("a_")`: the pattern a converter writes for it
        value = literal(first, r.constants) if first is not None else NOT_LITERAL
        if not isinstance(value, str) or "pattern" in spec:
            r.problem(f".{name}() at `{where}` has no JSON Schema form here; the constraint is not shown", call)
            return spec, optional, True
        return {**spec, "pattern": rule["template"].replace("{}", _escaped(value))}, optional, True
    if effect == "catchall":  # `.catchall(S)`: the properties not named are checked as S
        other, _ = r.read(first, f"{path}{{}}", depth + 1) if first is not None else (None, False)
        return ({**spec, "additionalProperties": other} if other is not None else spec), optional, other is not None
    if effect in {"extend", "merge"}:
        if effect == "extend":
            more, req = r.shape(first, path, depth + 1) if first is not None else ({}, [])
        else:
            other, _ = r.read(first, path, depth + 1)
            more, req = (dict(other.get("properties") or {}), list(other.get("required") or [])) if other else (None, [])
        if more is None:
            return spec, optional, False
        props = {**(spec.get("properties") or {}), **more}
        required = [r for r in spec.get("required") or [] if r not in more] + req
        return object_schema(props, required, spec), optional, True
    if effect in {"partial", "required", "pick", "omit"}:
        props = dict(spec.get("properties") or {})
        required = list(spec.get("required") or [])
        keys = literal(first, r.constants) if first is not None else None
        if first is not None and not isinstance(keys, dict):
            r.problem(f".{name}() keys at `{where}` are not a literal", call)
            return spec, optional, False
        chosen = set(keys) if isinstance(keys, dict) else set(props)
        if effect == "partial":
            required = [r for r in required if r not in chosen]
        elif effect == "required":
            required += [p for p in props if p in chosen and p not in required]
        else:
            keep = (lambda p: p in chosen) if effect == "pick" else (lambda p: p not in chosen)
            props = {k: v for k, v in props.items() if keep(k)}
            required = [r for r in required if keep(r)]
        return object_schema(props, required, spec), optional, True
    return spec, optional, True  # none (a runtime-only refinement, a transform) or normalise (a string stays a string)


def _escaped(value: str) -> str:
    """VALUE as a regular expression that matches it literally."""
    return "".join("\\" + c if c in "\\^$.|?*+()[]{}/-" else c for c in value)
