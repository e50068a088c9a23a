"""package.json and tsconfig.json: values with the line span of every top-level key."""

from __future__ import annotations

from dataclasses import dataclass

from auditor.extract import parse
from auditor.extract.limits import MAX_DEPTH, load_json
from auditor.extract.syntax import lines, text


@dataclass(frozen=True, kw_only=True, slots=True)
class JsonDoc:
    path: str
    value: object  # parsed JSON, or None when invalid
    keys: dict[str, tuple[int, int]]  # top-level key -> (start, end) lines
    total_lines: int
    problem: str | None = None  # what made the value unreadable (too deep), or what was replaced in it (surrogates)


def read_json(path: str, data: bytes, max_depth: int = MAX_DEPTH) -> JsonDoc:
    value, problem = load_json(data, max_depth)
    if value is None and problem is not None:  # too deep: the tree would be as deep; the keys are not needed
        return JsonDoc(path=path, value=None, keys={}, problem=problem,
                       total_lines=data.count(b"\n") + (0 if data.endswith(b"\n") else 1))
    tree = parse.parse(data, "json")
    keys: dict[str, tuple[int, int]] = {}
    root = tree.root_node.named_children[0] if tree.root_node.named_children else None
    if root is not None and root.type == "object":
        for pair in root.named_children:
            if pair.type == "pair":
                keys[text(pair.child_by_field_name("key")).strip('"')] = lines(pair)
    return JsonDoc(path=path, value=value, keys=keys, total_lines=data.count(b"\n") + (0 if data.endswith(b"\n") else 1),
                   problem=problem)


def key_span(doc: JsonDoc, names: list[str]) -> tuple[int, int] | None:
    spans = [doc.keys[n] for n in names if n in doc.keys]
    if not spans:
        return None
    return min(s for s, _ in spans), max(e for _, e in spans)
