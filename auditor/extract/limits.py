"""Bounds on hostile input, checked before deep analysis: nesting depth, and JSON strings that are not Unicode text."""

from __future__ import annotations

import json
import re
from itertools import accumulate

_OPEN, _CLOSE = b"([{", b")]}"
_NOT_BRACKET = bytes(range(256)).translate(None, _OPEN + _CLOSE)
_STEP = {b: 1 for b in _OPEN} | {b: -1 for b in _CLOSE}
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")

# The default of kb/method.yaml max_nesting_depth. Real code nests far less: across the 1,157 JavaScript files npm
# ships, no syntax tree is deeper than 53 and no bracket nesting deeper than 17.
MAX_DEPTH = 500
# The default of kb/method.yaml max_syntax_nodes (the memory the analyses lay out is linear in it).
MAX_NODES = 2_000_000


def bracket_depth(data: bytes) -> int:
    """The deepest nesting of brackets in `data`, counting those in strings and comments too: an upper bound of the
    depth the parser will meet, read in C-speed passes before anything is parsed (a parse of 1 MB of nested
    parentheses alone costs about 170 MB)."""
    brackets = data.translate(None, _NOT_BRACKET)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def json_depth(data: bytes) -> int:
    """The deepest nesting of arrays and objects in JSON text (brackets inside strings left out)."""
    return bracket_depth(_JSON_STRING.sub(b'""', data))


def over(depth: int, limit: int, what: str = "") -> str:
    """The reason a file nested `depth` deep is not analysed."""
    if what == "syntax tree":  # measured until past the limit only
        return f"syntax tree nested more than {limit:,} levels deep (kb/method.yaml max_nesting_depth)"
    return f"{what or 'nested'} {depth:,} levels deep, over the limit of {limit:,} (kb/method.yaml max_nesting_depth)"


def load_json(data: bytes, limit: int) -> tuple[object, str | None]:
    """json.loads with its hazards turned into a problem: nesting deeper than `limit` (the decoder recurses, and a
    thousand levels exhaust the stack) gives (None, why); a string holding a lone UTF-16 surrogate (`"\\ud800"`,
    which no report could encode) has it replaced by U+FFFD, and says so. Invalid JSON gives (None, None)."""
    depth = json_depth(data)
    if depth > limit:
        return None, over(depth, limit, "JSON")
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        return None, None
    if not _SURROGATE_ESCAPE.search(data):
        return value, None
    value, n = _replace_surrogates(value)
    return value, (f"{n} string(s) holding a lone UTF-16 surrogate escape; read with U+FFFD in its place" if n else None)


def _replace_surrogates(value: object) -> tuple[object, int]:
    """`value` with every lone surrogate of its strings (keys too) made U+FFFD; how many strings had one. A stack, not
    recursion (the depth is bounded, but by a limit of the kb, not of Python)."""
    count = 0

    def clean(s: str) -> str:
        nonlocal count
        fixed, n = _SURROGATE.subn("\ufffd", s)
        count += n > 0
        return fixed

    root: list = [value]
    todo: list[tuple[object, object, object]] = [(root, 0, value)]  # (holder, key in holder, value)
    while todo:
        holder, key, cur = todo.pop()
        if isinstance(cur, str):
            holder[key] = clean(cur)
        elif isinstance(cur, list):
            todo += [(cur, i, v) for i, v in enumerate(cur)]
        elif isinstance(cur, dict):
            items = list(cur.items())
            cur.clear()
            for k, v in items:
                k = clean(k)
                cur[k] = v
                todo.append((cur, k, v))
    return root[0], count
