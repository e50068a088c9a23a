"""Helpers shared by the record passes: anchors from nodes and stable ids."""

from __future__ import annotations

from collections import Counter

import tree_sitter as ts

from auditor.model import Anchor, Record, merge_anchors


def at(path: str, node: ts.Node | None, end: ts.Node | None = None) -> Anchor:
    if node is None:
        return Anchor(path=path, start_line=1, end_line=1)
    last = end if end is not None else node
    return Anchor(path=path, start_line=node.start_point[0] + 1, end_line=last.end_point[0] + 1)


def line(path: str, start: int, end: int | None = None) -> Anchor:
    return Anchor(path=path, start_line=start, end_line=start if end is None else end)


def key(module_name: str, name: str) -> str:
    """Stable key of a thing defined in a module: `<module>#<name>` (never a line number)."""
    return f"{module_name}#{name}"


def record(category: str, prefix: str, kind: str, k: str, summary: str, anchors, rule: str, **attrs) -> Record:
    return Record(category=category, id=f"{prefix}:{kind}:{k}", kind=kind, summary=summary,
                  anchors=merge_anchors(anchors), rule=rule, attrs=attrs)


def unique(records: list[Record]) -> list[Record]:
    """Make ids unique: the second record with an id gets `~2`, in source order (stable under edits
    elsewhere in the file), and sort by the one explicit ordering key."""
    ordered = sorted(records, key=Record.sort_key)
    seen: Counter[str] = Counter()
    out = []
    from dataclasses import replace
    for r in ordered:
        seen[r.id] += 1
        out.append(r if seen[r.id] == 1 else replace(r, id=f"{r.id}~{seen[r.id]}"))
    return out
