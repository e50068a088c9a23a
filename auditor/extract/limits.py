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


# One token of JavaScript or TypeScript, for code_depth: a comment, a string, the start of a template, a slash, a
# bracket, a word, a number, white space, or a run of other punctuation.
_TOKEN = re.compile(rb"""(?P<comment>//[^\n]*|/\*.*?\*/)
    |(?P<string>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
    |(?P<tick>`)|(?P<slash>/)|(?P<open>[(\[{])|(?P<close>[)\]}])
    |(?P<word>[A-Za-z_$\x80-\xff][\w$\x80-\xff]*)|(?P<number>[0-9][\w.]*)|(?P<space>\s+)
    |(?P<other>[^\sA-Za-z0-9_$\x80-\xff'"`/()\[\]{}]+)""", re.DOTALL | re.VERBOSE)
_TEMPLATE_TEXT = re.compile(rb"(?:[^`\\$]|\\.|\$(?!\{))*", re.DOTALL)  # up to "`" or "${"
_REGEX = re.compile(rb"/(?![*/])(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[A-Za-z]*")
# Words after which a slash starts a regular expression (`return /x/`); after any other word it divides.
# (reserved words only: `of`, `await`, `yield` may name a variable, which a slash divides)
_BEFORE_REGEX = frozenset({b"return", b"typeof", b"case", b"do", b"else", b"in", b"new", b"delete", b"void", b"throw",
                           b"instanceof"})


def code_depth(data: bytes) -> int:
    """The deepest nesting of brackets in the code of `data`, JavaScript or TypeScript: those in comments, strings,
    template text and regular expressions left out (a grammar of highlighted languages writes `/\\{/` hundreds of
    times), those of a template's `${...}` counted. Every doubt counts brackets, so that no file the parser would
    find deeper passes: where a slash may divide or start a regular expression and the tokens before it do not
    settle which, it divides; a quote, a comment or a regular expression not closed is no string, comment or
    expression (only its first character is skipped); a template not closed gives bracket_depth's upper bound."""
    depth = deepest = pos = 0
    stack: list[bool | None] = []  # per open bracket, whether it is a template's `${` (its `}` goes back to the
    # template's text); None: in a template's text
    regex_next = True  # whether a slash here starts a regular expression
    end = len(data)
    closes = data.rfind(b"*/")  # (a `/*` after the last `*/` closes nowhere: not looked for to the end again)
    while pos < end:
        if stack and stack[-1] is None:  # (in template text)
            stack.pop()
            m = _TEMPLATE_TEXT.match(data, pos)
            pos = m.end()
            if pos >= end:
                return bracket_depth(data)  # (a template not closed)
            if data.startswith(b"${", pos):
                stack.append(True)
                depth += 1
                deepest = max(deepest, depth)
                pos, regex_next = pos + 2, True
            else:
                pos, regex_next = pos + 1, False  # (the closing "`")
            continue
        if pos > closes and data.startswith(b"/*", pos):  # (a comment not closed: no comment)
            pos, regex_next = pos + 1, True
            continue
        m = _TOKEN.match(data, pos)
        if m is None:  # (a quote not closed on its line)
            pos, regex_next = pos + 1, False
            continue
        kind = m.lastgroup
        if kind == "slash" and regex_next and (r := _REGEX.match(data, pos)) is not None:
            pos, regex_next = r.end(), False
            continue
        pos = m.end()
        if kind == "tick":
            stack.append(None)
        elif kind == "open":
            stack.append(False)
            depth += 1
            deepest = max(deepest, depth)
            regex_next = True
        elif kind == "close":
            template = stack.pop() if stack else False
            depth = max(depth - 1, 0)
            if template:
                stack.append(None)  # back into the template's text
            regex_next = False
        elif kind == "word":
            regex_next = m.group() in _BEFORE_REGEX and _before(data, m.start()) != b"."  # (not `x.return / 2`)
        elif kind == "other":
            op = m.group()
            regex_next = not (op.endswith(b"++") or op.endswith(b"--") or op.endswith(b"."))
        elif kind == "slash":
            regex_next = True  # (a division: an operand follows)
        elif kind not in ("space", "comment"):
            regex_next = False
    return deepest


def _before(data: bytes, pos: int) -> bytes:
    """The last byte before POS that is not white space (b"" at the start)."""
    i = pos - 1
    while i >= 0 and data[i] in b" \t\r\n":
        i -= 1
    return data[i:i + 1]


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
