"""A single-file bundle over the size limits: its dependencies' regions, found by the bundler's markers before any
parse, blanked so that its own code is analysed."""

from __future__ import annotations

import re
from dataclasses import dataclass

from auditor.extract.program import _BUNDLE_MARK, _package, vendored_path

# coupling: the markers of program._vendored, here as whole lines at column 0 (where esbuild, tsup and rolldown write
# them at the top level of a bundle); program._vendored finds them again in the syntax tree of the blanked text, which
# checks that each one is a top-level comment and not a line of a string (facts.build).
_MARK = re.compile(rb"^" + _BUNDLE_MARK.pattern + rb"[ \t\r]*$", re.M)
_REGION = re.compile(rb"^(?://#region (\S+)|//#endregion)[ \t\r]*$", re.M)
# The top-level statements of a region that bind its package's names for the rest of the bundle, kept (so that, for
# one, a namespace object the bundler makes of an inlined zod is still known): a declaration on one line (`var z = {};`,
# `var x = y.default;`), a call statement (esbuild's `__export(ns, {...})`) up to its closing line, and of a module
# wrapper (`var require_x = __commonJS({...});`: the loader the bundle calls) its first and last lines only. The
# bundler writes them at column 0 and indents what they hold; the rest, its code, is blanked.
_KEPT = re.compile(rb"^var [\w$]+ = [^\n]*;[ \t\r]*$"
                   rb"|^[\w$]+\((?:[^\n]*\);[ \t\r]*$|[^\n]*\n(?:[ \t][^\n]*\n|\r?\n)*?\}?\);?[ \t\r]*$)"
                   rb"|^(?P<head>var [\w$]+ = [\w$]+\(\{)[ \t\r]*\n(?:[ \t][^\n]*\n|\r?\n)*?(?P<tail>\}\);)[ \t\r]*$", re.M)
# Every byte but a line break as a space: each line, and so each anchor's line and byte column, stays where it was.
_BLANK = bytes(b if b in b"\r\n" else 0x20 for b in range(256))


@dataclass(frozen=True, kw_only=True, slots=True)
class Blanked:
    data: bytes  # the file with its dependencies' regions blanked (as many bytes, the same lines)
    regions: tuple[tuple[int, int, str], ...]  # (first line, last line, package) of each blanked region
    kept: int  # bytes of the file not blanked (the markers, the bundler's runtime and the package's own code)


def spans(data: bytes) -> list[tuple[int, int, str]]:
    """(start byte, end byte, package) of the body of each region of DATA that a bundler marks as node_modules code:
    after its marker line up to the next marker (esbuild), or up to its `//#endregion` (rolldown). The marker lines
    stay. Like program._vendored: rolldown's regions when there are any, else at least two esbuild markers of which
    one names node_modules (one such line is a comment, not a bundle)."""
    out, opened = [], None
    for m in _REGION.finditer(data):
        if m.group(1) is not None:
            opened = (m.end() + 1, m.group(1).decode("utf-8", "replace"))
        elif opened is not None:
            start, where = opened
            if "node_modules/" in where and start < m.start():
                out.append((start, m.start(), _package(where)))
            opened = None
    if out:
        return out
    marks = [(m.start(), m.end() + 1, m.group(1).decode("utf-8", "replace")) for m in _MARK.finditer(data)]
    if len(marks) < 2 or not any(vendored_path(w) for _, _, w in marks):
        return []
    ends = [start for start, _, _ in marks[1:]] + [len(data)]
    return [(body, end, _package(where)) for (_, body, where), end in zip(marks, ends)
            if vendored_path(where) and body < end]


def blank(data: bytes, keep: bool = True) -> Blanked | None:
    """DATA with the bodies of its dependencies' regions (`spans`) blanked, but for the statements that bind names
    (`_KEPT`) when KEEP; None when it marks none."""
    found = spans(data)
    if not found:
        return None
    parts, pos, regions, blanked, line, counted = [], 0, [], 0, 1, 0
    for start, end, package in found:
        line += data.count(b"\n", counted, start)  # the line `start` is on, counted on from the previous span
        last = line + data.count(b"\n", start, end) - (1 if data[end - 1:end] == b"\n" else 0)
        regions.append((line, last, package))
        parts.append(data[pos:start])
        pos, counted = start, start
        for m in _KEPT.finditer(data, start, end) if keep else ():
            for a, b in [m.span("head"), m.span("tail")] if m.group("head") else [m.span()]:
                parts += [data[pos:a].translate(_BLANK), data[a:b]]
                blanked += a - pos
                pos = b
        parts.append(data[pos:end].translate(_BLANK))
        blanked += end - pos
        pos = end
    parts.append(data[pos:])
    return Blanked(data=b"".join(parts), regions=tuple(regions), kept=len(data) - blanked)
