"""package.json and tsconfig.json: values with the line span of every top-level key."""

from __future__ import annotations

import json
from dataclasses import dataclass

from auditor.extract import parse
from auditor.extract.syntax import lines, text


@dataclass(frozen=True, kw_only=True, slots=True)
class JsonDoc:
    path: str
    value: object  # parsed JSON, or None when invalid
    keys: dict[str, tuple[int, int]]  # top-level key -> (start, end) lines
    total_lines: int


def read_json(path: str, data: bytes) -> JsonDoc:
    try:
        value = json.loads(data)
    except ValueError:
        value = None
    tree = parse.parse(data, "json")
    keys: dict[str, tuple[int, int]] = {}
    root = tree.root_node.named_children[0] if tree.root_node.named_children else None
    if root is not None and root.type == "object":
        for pair in root.named_children:
            if pair.type == "pair":
                keys[text(pair.child_by_field_name("key")).strip('"')] = lines(pair)
    return JsonDoc(path=path, value=value, keys=keys, total_lines=data.count(b"\n") + (0 if data.endswith(b"\n") else 1))


def key_span(doc: JsonDoc, names: list[str]) -> tuple[int, int] | None:
    spans = [doc.keys[n] for n in names if n in doc.keys]
    if not spans:
        return None
    return min(s for s, _ in spans), max(e for _, e in spans)
