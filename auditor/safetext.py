"""Text from the audited target made visible and inert wherever it is shown: terminal lines and Markdown reports.

Control characters (C0, DEL, C1: escape sequences, bell, carriage return, a newline faking another line) are shown
as `\\xHH`; characters that reorder or hide text (bidi embeddings, overrides and isolates, zero-width marks, line and
paragraph separators) as `<U+HHHH>`. The backslash itself is left alone: `\\x1b` written in a file name stays
readable as what it is, and nothing is decoded back."""

from __future__ import annotations

from functools import lru_cache

_CONTROLS = [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]
_INVISIBLE = [0x061C, 0x180E, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2060, 0x2065),
              *range(0x2066, 0x206A), 0x2028, 0x2029, 0xFEFF]

_LINE = str.maketrans({**{c: f"\\x{c:02x}" for c in _CONTROLS}, **{c: f"<U+{c:04X}>" for c in _INVISIBLE}})
_TEXT = str.maketrans({k: v for k, v in _LINE.items() if k not in (0x09, 0x0A)})  # tabs and newlines kept


@lru_cache(maxsize=4096)
def line(text: str) -> str:
    """One terminal line: every control character (newlines too) and every bidi or invisible mark made visible."""
    return text.translate(_LINE)


def text(value: str) -> str:
    """Multi-line text (a Markdown report): as `line`, but newlines and tabs kept."""
    return value.translate(_TEXT)
