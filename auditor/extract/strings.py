"""JavaScript's string methods, evaluated on known strings: what `name.slice(4)`, `id.replace(/\\./g, "_")`,
`"wordpress_" + t.name.slice("respira_".length)` or `key.startsWith("x_")` give when the receiver and the arguments are
constants (a descriptor's name read under a loop's frame). Pure functions of Python values; UNKNOWN when the method,
an argument or a pattern is not one evaluated here (a replacement function, a regular expression beyond the simple
subset, a receiver too long to be a name)."""

from __future__ import annotations

import re

UNKNOWN = object()
MAX_LENGTH = 256  # receivers longer than this are no tool name: not evaluated (a pattern's cost grows with it)
# Regular expressions evaluated: literal characters, escapes, classes, groups and quantifiers on single items. A
# quantified group (`(a+)+`) is refused: with a receiver from the audited code it could take exponential time.
_QUANTIFIED_GROUP = re.compile(r"\)[*+?{]")
# More than one unbounded quantifier (`a*a*c`) backtracks polynomially on a long receiver: refused too.
_UNBOUNDED = re.compile(r"[*+]|\{\d*,\}")
_ESCAPED_OR_CLASS = re.compile(r"\\.|\[(?:\\.|[^\]\\])*\]")
_UNSUPPORTED = re.compile(r"\(\?<?[=!]|\\[pPkucx0-9]|\(\?<[A-Za-z]")  # look-arounds, property/unicode escapes, backrefs
METHODS = frozenset({"toLowerCase", "toLocaleLowerCase", "toUpperCase", "toLocaleUpperCase", "trim", "trimStart",
                     "trimEnd", "trimLeft", "trimRight", "slice", "substring", "startsWith", "endsWith", "includes",
                     "concat", "split", "join", "replace", "replaceAll", "has"})
_REPLACEMENT = re.compile(r"\$([$&]|\d{1,2})")


def regex(pattern: str, flags: str) -> tuple[re.Pattern, bool] | None:
    """The Python pattern for a JavaScript regular expression literal `/PATTERN/FLAGS` and whether it replaces every
    match (flag g); None when it is not one evaluated here."""
    if set(flags) - {"g", "i"} or _QUANTIFIED_GROUP.search(pattern) or _UNSUPPORTED.search(pattern) or len(pattern) > 200 \
            or len(_UNBOUNDED.findall(_ESCAPED_OR_CLASS.sub("x", pattern))) > 1:
        return None
    try:
        return re.compile(pattern, re.IGNORECASE if "i" in flags else 0), "g" in flags
    except re.error:
        return None


def _replacement(template: str) -> str | None:
    """A JavaScript replacement string (`$1`, `$&`, `$$`) as Python's re.sub template; None for `$<name>`."""
    if "$<" in template:
        return None
    escaped = template.replace("\\", "\\\\")

    def swap(m: re.Match) -> str:
        token = m.group(1)
        return "$" if token == "$" else r"\g<0>" if token == "&" else rf"\g<{int(token)}>"
    return _REPLACEMENT.sub(swap, escaped)


def _index(value, default: int) -> int | None:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return int(value)


def evaluate(method: str, receiver, args: list):
    """RECEIVER.METHOD(*ARGS) for a string receiver (and `join`, `includes` of a list of strings: one a `split` gave,
    a written one; `has` of a Set written of strings); UNKNOWN when not evaluated.
    Arguments are Python values: str, int/float, a (pattern, global) pair from regex(), or a list."""
    if isinstance(receiver, list):
        if method == "join" and all(isinstance(x, str) for x in receiver) and len(args) <= 1 \
                and (not args or isinstance(args[0], str)):
            return (args[0] if args else ",").join(receiver)
        if method in {"includes", "has"} and len(args) == 1 and isinstance(args[0], str) \
                and all(isinstance(x, str) for x in receiver):  # (a list of known strings: membership)
            return args[0] in receiver
        return UNKNOWN
    if not isinstance(receiver, str) or len(receiver) > MAX_LENGTH:
        return UNKNOWN
    n = len(receiver)
    if method in {"toLowerCase", "toLocaleLowerCase"} and not args:
        return receiver.lower()
    if method in {"toUpperCase", "toLocaleUpperCase"} and not args:
        return receiver.upper()
    if method in {"trim", "trimStart", "trimEnd", "trimLeft", "trimRight"} and not args:
        return {"trim": receiver.strip, "trimStart": receiver.lstrip, "trimLeft": receiver.lstrip}.get(
            method, receiver.rstrip)()
    if method == "slice" and len(args) <= 2:
        start, end = _index(args[0] if args else None, 0), _index(args[1] if len(args) > 1 else None, n)
        return UNKNOWN if start is None or end is None else receiver[start:end]
    if method == "substring" and 1 <= len(args) <= 2:
        start, end = _index(args[0], 0), _index(args[1] if len(args) > 1 else None, n)
        if start is None or end is None:
            return UNKNOWN
        start, end = sorted((min(max(start, 0), n), min(max(end, 0), n)))
        return receiver[start:end]
    if method in {"startsWith", "endsWith", "includes"} and len(args) == 1 and isinstance(args[0], str):
        return {"startsWith": receiver.startswith, "endsWith": receiver.endswith,
                "includes": receiver.__contains__}[method](args[0])
    if method == "concat" and all(isinstance(a, str) for a in args):
        return receiver + "".join(args)
    if method == "split" and len(args) == 1 and isinstance(args[0], str) and args[0]:
        return receiver.split(args[0])
    if method in {"replace", "replaceAll"} and len(args) == 2 and isinstance(args[1], str):
        if isinstance(args[0], str):
            if "$" in args[1]:
                return UNKNOWN
            return receiver.replace(args[0], args[1], -1 if method == "replaceAll" else 1)
        if isinstance(args[0], tuple):
            pattern, every = args[0]
            template = _replacement(args[1])
            if template is None or method == "replaceAll" and not every:
                return UNKNOWN
            try:
                return pattern.sub(template, receiver, count=0 if every else 1)
            except (re.error, IndexError):
                return UNKNOWN
    return UNKNOWN
