"""JavaScript's values as extract/interpret.py holds them, and the language's own functions over them: conversions,
comparisons, and the methods of strings, lists, regular expressions, `Map`, `Set`, `JSON`, `Math` and `path`.

A string is a str, a number an int or a float, a boolean a bool, undefined None, null NULL; an object a dict (a
JsObject when the code made it: it keeps the literal it was written as), a list a list. UNKNOWN is a value the code
does not fix; every function here answers UNKNOWN when an operand is UNKNOWN or when it is asked for what it does not
model. Nothing here reads a file, the environment or the network."""

from __future__ import annotations

import json
import math
import posixpath
import re
from typing import Any, Callable

from auditor.extract.evaluate import NULL, UNKNOWN

MAX_ITEMS = 100_000  # a list or a text longer than this is not made (UNKNOWN)
ROOT = "/__package__"  # where the boundary's files are, as the code's paths see them (`__dirname` under it)


class Throw(Exception):
    """A JavaScript exception (`throw value`), caught by the code's `catch` or ending the run."""

    def __init__(self, value: Any):
        self.value = value


class Exit(Exception):
    """`process.exit()`: the run ends."""


class JsObject(dict):
    """An object the code made: NODE the object literal it was written as (None: made otherwise), CLS the class of
    an instance (extract/interpret.py's JsClass)."""

    __slots__ = ("node", "module", "cls")

    def __init__(self, *a, node=None, module=None, cls=None, **k):
        super().__init__(*a, **k)
        self.node, self.module, self.cls = node, module, cls

    __hash__ = object.__hash__  # (identity: an object is a key of a Map by what it is, not by what it holds)

    def __eq__(self, other):
        return self is other


class JsRegex:
    __slots__ = ("source", "flags", "compiled")

    def __init__(self, source: str, flags: str):
        self.source, self.flags = source, flags
        self.compiled = _compile(source, flags)


class JsMap:
    __slots__ = ("entries",)

    def __init__(self):
        self.entries: dict = {}  # key(v) -> (v, value)


class JsSet:
    __slots__ = ("entries",)

    def __init__(self):
        self.entries: dict = {}  # key(v) -> v


class Builtin:
    """A function of the language (or of a builtin module) written here: FN(this, args) -> value."""

    __slots__ = ("name", "fn")

    def __init__(self, name: str, fn: Callable):
        self.name, self.fn = name, fn


def key(v: Any) -> tuple:
    """What identifies V as a key of a Map or an element of a Set (SameValueZero)."""
    if isinstance(v, bool):
        return ("b", v)
    if isinstance(v, (int, float)):
        return ("n", float(v))
    if isinstance(v, str):
        return ("s", v)
    if v is None or v is NULL:
        return ("u", repr(v))
    return ("o", id(v))


# -- conversions ------------------------------------------------------------------------------------------------------
def truth(v: Any) -> Any:
    if v is UNKNOWN:
        return UNKNOWN
    if v is None or v is NULL or v is False:
        return False
    if isinstance(v, str):
        return v != ""
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return not (v == 0 or v != v)
    return True


def number_text(n: float | int) -> str:
    if isinstance(n, bool):
        return "true" if n else "false"
    if isinstance(n, int):
        return str(n)
    if n != n:
        return "NaN"
    if n in (math.inf, -math.inf):
        return "Infinity" if n > 0 else "-Infinity"
    if n == int(n) and abs(n) < 1e21:
        return str(int(n))
    return repr(n)


def to_str(v: Any) -> Any:
    if v is UNKNOWN:
        return UNKNOWN
    if isinstance(v, str):
        return v
    if v is None:
        return "undefined"
    if v is NULL:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return number_text(v)
    if isinstance(v, list):
        parts = [("" if x is None or x is NULL else to_str(x)) for x in v]
        return UNKNOWN if any(p is UNKNOWN for p in parts) else ",".join(parts)
    if isinstance(v, JsRegex):
        return f"/{v.source}/{v.flags}"
    if isinstance(v, dict) and not isinstance(v, JsObject) or isinstance(v, JsObject) and v.cls is None:
        return "[object Object]"
    return UNKNOWN  # (an instance's own toString, a function's text: not modelled)


def to_number(v: Any) -> Any:
    if v is UNKNOWN:
        return UNKNOWN
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float)):
        return v
    if v is None:
        return math.nan
    if v is NULL:
        return 0
    if isinstance(v, str):
        s = v.strip()
        if s == "":
            return 0
        try:
            return int(s, 0) if re.fullmatch(r"0[xXoObB][0-9a-fA-F]+|\d+", s) else float(s)
        except ValueError:
            return math.nan
    if isinstance(v, list):
        return to_number(to_str(v)) if len(v) <= 1 else math.nan
    return math.nan


def integral(v: Any) -> int | None:
    """V as an index (an integer-valued number), None when it is none."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    if isinstance(v, float) and (v != v or v in (math.inf, -math.inf) or v != int(v)):
        return None
    return int(v)


def typeof(v: Any) -> Any:
    if v is UNKNOWN:
        return UNKNOWN
    if v is None:
        return "undefined"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, Builtin) or callable_value(v):
        return "function"
    return "object"


_CALLABLE: tuple = ()  # (interpret.py registers its function and class types)


def callable_value(v: Any) -> bool:
    return isinstance(v, _CALLABLE)


def strict_equal(a: Any, b: Any) -> Any:
    if a is UNKNOWN or b is UNKNOWN:
        return UNKNOWN
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    if a is None or a is NULL or b is None or b is NULL:
        return a is b
    return a is b


def loose_equal(a: Any, b: Any) -> Any:
    if a is UNKNOWN or b is UNKNOWN:
        return UNKNOWN
    if (a is None or a is NULL) and (b is None or b is NULL):
        return True
    if a is None or a is NULL or b is None or b is NULL:
        return False
    if isinstance(a, (str, int, float)) and isinstance(b, (str, int, float)) and type(a) is not type(b):
        if isinstance(a, str) and isinstance(b, str):
            return a == b
        return to_number(a) == to_number(b)
    return strict_equal(a, b)


def compare(op: str, a: Any, b: Any) -> Any:
    if a is UNKNOWN or b is UNKNOWN:
        return UNKNOWN
    if not (isinstance(a, str) and isinstance(b, str)):
        a, b = to_number(a), to_number(b)
        if a is UNKNOWN or b is UNKNOWN or a != a or b != b:
            return UNKNOWN if UNKNOWN in (a, b) else False
    else:
        a, b = a.encode("utf-16-be"), b.encode("utf-16-be")
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def arithmetic(op: str, a: Any, b: Any) -> Any:
    if a is UNKNOWN or b is UNKNOWN:
        return UNKNOWN
    if op == "+":
        if isinstance(a, (list, dict)) or isinstance(b, (list, dict)):
            a, b = to_str(a) if isinstance(a, (list, dict)) else a, to_str(b) if isinstance(b, (list, dict)) else b
        if isinstance(a, str) or isinstance(b, str):
            sa, sb = to_str(a), to_str(b)
            if sa is UNKNOWN or sb is UNKNOWN or len(sa) + len(sb) > MAX_ITEMS * 10:
                return UNKNOWN
            return sa + sb
    x, y = to_number(a), to_number(b)
    if x is UNKNOWN or y is UNKNOWN:
        return UNKNOWN
    try:
        if op == "+":
            return x + y
        if op == "-":
            return x - y
        if op == "*":
            return x * y
        if op == "/":
            if y == 0:
                return math.nan if x == 0 or x != x else math.copysign(math.inf, x)
            r = x / y
            return int(r) if r == int(r) and isinstance(x, int) and isinstance(y, int) and abs(r) < 2 ** 53 else r
        if op == "%":
            if y == 0:
                return math.nan
            return math.fmod(x, y) if isinstance(x, float) or isinstance(y, float) else int(math.fmod(x, y))
        if op == "**":
            return x ** y
        xi, yi = _int32(x), _int32(y)
        if op == "|":
            return _signed(xi | yi)
        if op == "&":
            return _signed(xi & yi)
        if op == "^":
            return _signed(xi ^ yi)
        if op == "<<":
            return _signed(xi << (yi & 31))
        if op == ">>":
            return _signed(xi) >> (yi & 31)
        if op == ">>>":
            return (xi & 0xFFFFFFFF) >> (yi & 31)
    except (OverflowError, ValueError, ZeroDivisionError):
        return UNKNOWN
    return UNKNOWN


def _int32(x: float) -> int:
    if x != x or x in (math.inf, -math.inf):
        return 0
    return int(x) & 0xFFFFFFFF


def _signed(x: int) -> int:
    x &= 0xFFFFFFFF
    return x - 0x100000000 if x & 0x80000000 else x


# -- regular expressions ----------------------------------------------------------------------------------------------
def _compile(source: str, flags: str):
    """Python's pattern for a JavaScript regular expression, or None when it uses what Python reads otherwise, or
    when a quantified group ends in a quantifier (`(a+)+`: a match may take time exponential in the text)."""
    if set(flags) - set("gimsuyd") or "y" in flags or re.search(r"\\[pPk]", source) \
            or re.search(r"[+*}]\)[+*{]", source):
        return None
    pattern = re.sub(r"\(\?<(?![=!])", "(?P<", source).replace("[^]", "[\\s\\S]")
    pattern = pattern.replace("\\/", "/")
    f = re.ASCII | (re.I if "i" in flags else 0) | (re.M if "m" in flags else 0) | (re.S if "s" in flags else 0)
    # (ASCII: JavaScript's \w, \d and \b are ASCII's, with or without the u flag)
    try:
        return re.compile(pattern, f)
    except (re.error, OverflowError, RecursionError):
        return None


def _expand(template: str, m: re.Match) -> str:
    """A replacement text with its `$1`, `$&`, `$<name>` and `$$` filled from M."""
    def sub(t: re.Match) -> str:
        s = t.group(0)
        if s == "$$":
            return "$"
        if s == "$&":
            return m.group(0)
        if s.startswith("$<"):
            try:
                return m.group(s[2:-1]) or ""
            except (IndexError, re.error):
                return s
        n = int(s[1:])
        if 0 < n <= (m.re.groups or 0):
            return m.group(n) or ""
        return s
    return re.sub(r"\$\$|\$&|\$<[^>]*>|\$\d{1,2}", sub, template)


def replace(s: str, pattern: Any, replacement: Any, call: Callable, every: bool) -> Any:
    """`s.replace(pattern, replacement)` (EVERY: `replaceAll`, or a global pattern); CALL(fn, args) calls a
    function replacement."""
    if isinstance(pattern, JsRegex):
        if pattern.compiled is None:
            return UNKNOWN
        count = 0 if every or "g" in pattern.flags else 1
        failed = []

        def repl(m: re.Match) -> str:
            if isinstance(replacement, str):
                return _expand(replacement, m)
            got = call(replacement, [m.group(0), *[g if g is not None else None for g in m.groups()], m.start(), s])
            text = to_str(got)
            if text is UNKNOWN:
                failed.append(True)
                return ""
            return text
        if not isinstance(replacement, str) and not callable_value(replacement):
            return UNKNOWN
        out = pattern.compiled.sub(repl, s, count=count)
        return UNKNOWN if failed else out
    needle = to_str(pattern)
    if needle is UNKNOWN or not isinstance(replacement, str):
        return UNKNOWN
    if every:
        return s.replace(needle, replacement.replace("$$", "$")) if "$" not in replacement.replace("$$", "") \
            else UNKNOWN
    m = re.compile(re.escape(needle)).search(s)
    return s if m is None else s[:m.start()] + _expand(replacement, m) + s[m.end():]


def split(s: str, sep: Any, limit: Any) -> Any:
    if sep is None:
        out = [s]
    elif isinstance(sep, JsRegex):
        if sep.compiled is None:
            return UNKNOWN
        out = [p if p is not None else None for p in sep.compiled.split(s)] if s or not sep.compiled.match("") else []
        if out and out[0] == "" and sep.compiled.match("", 0) and s:
            out = out[1:]
    else:
        sep = to_str(sep)
        if sep is UNKNOWN:
            return UNKNOWN
        out = list(s) if sep == "" else s.split(sep)
    n = integral(limit) if limit is not None else None
    return out[:n] if n is not None and n >= 0 else out


def match(s: str, pattern: Any) -> Any:
    if not isinstance(pattern, JsRegex):
        pattern = JsRegex(re.escape(to_str(pattern)) if isinstance(to_str(pattern), str) else "", "")
    if pattern.compiled is None:
        return UNKNOWN
    if "g" in pattern.flags:
        found = [m.group(0) for m in pattern.compiled.finditer(s)]
        return found if found else NULL
    m = pattern.compiled.search(s)
    return match_result(m, s) if m is not None else NULL


def match_result(m: re.Match, s: str) -> list:
    out = [m.group(0), *m.groups()]
    return out


# -- JSON -------------------------------------------------------------------------------------------------------------
def json_parse(text: Any) -> Any:
    if not isinstance(text, str):
        return UNKNOWN
    try:
        return json.loads(text, parse_constant=lambda c: UNKNOWN, object_pairs_hook=_object,
                          parse_float=float, parse_int=int)
    except (ValueError, RecursionError):
        return UNKNOWN


def _object(pairs: list) -> dict:
    out = {}
    for k, v in pairs:
        out[k] = NULL if v is None else v
    return out


def json_stringify(v: Any, indent: Any = None) -> Any:
    def plain(x: Any, depth: int) -> Any:
        if depth > 200 or x is UNKNOWN:
            raise ValueError
        if x is NULL:
            return None
        if isinstance(x, (str, bool, int)):
            return x
        if isinstance(x, float):
            return None if x != x or x in (math.inf, -math.inf) else (int(x) if x == int(x) and abs(x) < 1e21 else x)
        if isinstance(x, list):
            return [None if y is None or callable_value(y) else plain(y, depth + 1) for y in x]
        if isinstance(x, dict):
            return {k: plain(y, depth + 1) for k, y in x.items() if y is not None and not callable_value(y)}
        raise ValueError
    if v is None or callable_value(v):
        return None
    try:
        data = plain(v, 0)
    except (ValueError, RecursionError):
        return UNKNOWN
    n = integral(indent)
    if isinstance(indent, str):
        return json.dumps(data, ensure_ascii=False, indent=indent) if indent else \
            json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    if n is not None and n > 0:
        return json.dumps(data, ensure_ascii=False, indent=min(n, 10))
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


# -- path (POSIX) -----------------------------------------------------------------------------------------------------
def path_join(parts: list) -> Any:
    if not parts or not all(isinstance(p, str) for p in parts):
        return UNKNOWN
    joined = "/".join(p for p in parts if p)
    return posixpath.normpath(joined) if joined else "."


def path_resolve(parts: list) -> Any:
    out = ""
    for p in parts:
        if not isinstance(p, str):
            return UNKNOWN
        out = p if p.startswith("/") else (out + "/" + p if out else p)
    if not out.startswith("/"):
        return UNKNOWN  # (relative to the working folder, which a launch sets)
    return posixpath.normpath(out)


def path_function(name: str, args: list) -> Any:
    if name == "join":
        return path_join(args)
    if name == "resolve":
        return path_resolve(args)
    if not args or not isinstance(args[0], str):
        return UNKNOWN
    p = args[0]
    if name == "dirname":
        return posixpath.dirname(p.rstrip("/")) or ("/" if p.startswith("/") else ".")
    if name == "basename":
        base = posixpath.basename(p.rstrip("/"))
        if len(args) > 1 and isinstance(args[1], str) and base.endswith(args[1]) and base != args[1]:
            base = base[:-len(args[1])]
        return base
    if name == "extname":
        base = posixpath.basename(p)
        dot = base.rfind(".")
        return base[dot:] if dot > 0 else ""
    if name == "normalize":
        return posixpath.normpath(p)
    if name == "isAbsolute":
        return p.startswith("/")
    if name == "relative" and len(args) > 1 and isinstance(args[1], str):
        return posixpath.relpath(args[1], p)
    return UNKNOWN
