"""Input records a framework validates before the tool's code runs: the zod input schema of a high-level registration
(registerTool, tool, addTool), parsed by the SDK on every call, and the record type the code declares for it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import tree_sitter as ts

from auditor.extract.syntax import text

if TYPE_CHECKING:
    from auditor.extract.facts import Program

# JSON Schema keywords a zod schema compiles to, and the check each stands for (what the SDK's parse enforces).
BOUNDS = {"minimum": "min", "exclusiveMinimum": "min", "maximum": "max", "exclusiveMaximum": "max",
          "minLength": "min length", "maxLength": "max length", "minItems": "min items", "maxItems": "max items",
          "enum": "enum", "pattern": "pattern", "format": "format"}


@dataclass(frozen=True, kw_only=True, slots=True)
class InputRecord:
    tool: object  # the server.ToolDecl whose schema the framework parses
    record_type: str  # the interface the code declares with exactly the schema's fields, else `<tool>.input`
    declared: tuple | None  # (module, interface node) of that interface, when there is one
    fields: tuple[dict, ...]  # name, optional, type, line, path (the interface's lines, else the schema's)


def validated(p: "Program") -> list[InputRecord]:
    """The input record of every high-level tool whose input schema is zod read as a literal."""
    interfaces: dict[frozenset[str], list[tuple]] = {}
    for m in p.modules:
        for node in m.nodes("interface"):
            sigs = _signatures(node)
            interfaces.setdefault(frozenset(text(s.child_by_field_name("name")) for s in sigs), []).append((m, node))
    out = []
    for t in sorted((t for t in p.tools if is_parsed(t)), key=lambda t: (t.module.path, t.node.start_byte)):
        props = t.schema.get("properties") or {}
        required = set(t.schema.get("required") or [])
        matches = interfaces.get(frozenset(props), [])
        if len(matches) == 1:  # one declared type with exactly these fields: the record the code handles
            m, node = matches[0]
            fields = tuple({"name": text(s.child_by_field_name("name")), "optional": text(s.child_by_field_name("name")) not in required,
                            "type": text(s.child_by_field_name("type")).lstrip(":").strip(), "line": s.start_point[0] + 1,
                            "path": m.path} for s in _signatures(node))
            out.append(InputRecord(tool=t, record_type=text(node.child_by_field_name("name")), declared=(m, node), fields=fields))
            continue
        lines = _schema_lines(t.schema_node)
        start = t.schema_node.start_point[0] + 1 if t.schema_node is not None else t.node.start_point[0] + 1
        fields = tuple({"name": name, "optional": name not in required,
                        "type": spec.get("type") or "" if isinstance(spec, dict) else "", "line": lines.get(name, start),
                        "path": t.module.path} for name, spec in props.items())
        out.append(InputRecord(tool=t, record_type=f"{t.name}.input", declared=None, fields=fields))
    return out


def is_parsed(t) -> bool:
    """A tool registered through a framework that parses every call with its zod input schema."""
    return t.form != "descriptor" and t.schema_form == "zod" and isinstance(t.schema, dict) and bool(t.schema.get("properties"))


def predicates(t) -> list[dict]:
    """What the parse enforces, per property: required, its type, its bounds (from the JSON Schema it compiles to)."""
    required = set(t.schema.get("required") or [])
    lines = _schema_lines(t.schema_node)
    start = t.schema_node.start_point[0] + 1 if t.schema_node is not None else t.node.start_point[0] + 1
    out = []
    for name, spec in (t.schema.get("properties") or {}).items():
        spec = spec if isinstance(spec, dict) else {}
        checks = (["required"] if name in required else []) + ([f"type {spec['type']}"] if spec.get("type") else []) + \
            [f"{BOUNDS[k]} {v if not isinstance(v, list) else '|'.join(map(str, v))}" for k, v in spec.items() if k in BOUNDS]
        forms = (["required"] if name in required else []) + (["type-check"] if spec.get("type") else []) + \
            list(dict.fromkeys(BOUNDS[k] for k in spec if k in BOUNDS))
        out.append({"field": name, "form": "+".join(forms) or "parsed", "expected": spec.get("type") or "",
                    "message": None, "line": lines.get(name, start), "source": f"{name}: " + (", ".join(checks) or "any value")})
    return out


def _signatures(node: ts.Node) -> list[ts.Node]:
    body = node.child_by_field_name("body") or node.child_by_field_name("value")
    return [s for s in (body.named_children if body is not None else []) if s.type == "property_signature"]


def _schema_lines(node: ts.Node | None) -> dict[str, int]:
    """Line of each top-level property of a schema's object literal (`{ name: z.string(), ... }`)."""
    out: dict[str, int] = {}
    if node is None:
        return out
    obj = node
    if obj.type != "object":  # z.object({...}): the first object argument
        obj = next((n for n in _descendants(node) if n.type == "object"), None)
    for pair in (obj.named_children if obj is not None else []):
        if pair.type == "pair":
            out.setdefault(text(pair.child_by_field_name("key")).strip("'\""), pair.start_point[0] + 1)
    return out


def _descendants(node: ts.Node):
    stack = [node]
    while stack:
        n = stack.pop(0)
        yield n
        stack.extend(n.named_children)
