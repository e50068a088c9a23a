"""The language's own functions and Node's modules as extract/interpret.py runs them: the methods of strings,
lists, Maps and Sets, `JSON`, `Object`, `Array`, `Math`, `Number`, `console`, and of Node's `fs`, `path`, `url` and
`process` what a startup reads. `fs` reads only the boundary's own files, by the text the audit read (under
jsvalues.ROOT); `process.env` is a launch's with no configuration (every variable unset), `process.argv` names the
script a run runs and no argument. Each function takes the interpreter running it (IT: its values read, its
callbacks called) and answers UNKNOWN for what it does not model."""

from __future__ import annotations

import functools
import math
import posixpath
import re
from typing import Any, Callable
from urllib.parse import quote

from auditor.extract import jsvalues as J
from auditor.extract.evaluate import NULL, UNKNOWN

_GONE = object()


class EnvVars(dict):
    """`process.env` in a launch with no configuration: every variable unset."""

    __hash__ = object.__hash__


class BuiltinModule(dict):
    """A module of Node's the interpreter models (its other members are UNKNOWN)."""

    __hash__ = object.__hash__


NEW = object()  # (`this` of a builtin called with `new`)


def error(message: str) -> J.JsObject:
    return J.JsObject({"message": message, "name": "TypeError"})



STRING_METHODS = frozenset({
    "toLowerCase", "toUpperCase", "toLocaleLowerCase", "toLocaleUpperCase", "trim", "trimStart", "trimEnd",
    "replace", "replaceAll", "split", "startsWith", "endsWith", "includes", "indexOf", "lastIndexOf", "slice",
    "substring", "substr", "charAt", "charCodeAt", "padStart", "padEnd", "repeat", "concat", "match", "toString",
    "at", "normalize", "localeCompare", "search", "valueOf"})
LIST_METHODS = frozenset({
    "push", "pop", "shift", "unshift", "map", "filter", "forEach", "reduce", "some", "every", "find", "findIndex",
    "findLast", "includes", "indexOf", "join", "slice", "concat", "flat", "flatMap", "sort", "reverse", "keys",
    "values", "entries", "at", "splice", "fill", "toString", "lastIndexOf"})
OBJECT_METHODS = frozenset({"hasOwnProperty", "toString"})


def string_method(it, s: str, name: str, args: list) -> Any:
    a0 = args[0] if args else None
    if any(a is UNKNOWN for a in args):
        return UNKNOWN
    if name in ("toLowerCase", "toLocaleLowerCase"):
        return s.lower()
    if name in ("toUpperCase", "toLocaleUpperCase"):
        return s.upper()
    if name == "trim":
        return s.strip(" \t\n\r\v\f\u00a0\ufeff")
    if name == "trimStart":
        return s.lstrip(" \t\n\r\v\f\u00a0\ufeff")
    if name == "trimEnd":
        return s.rstrip(" \t\n\r\v\f\u00a0\ufeff")
    if name in ("replace", "replaceAll"):
        return J.replace(s, a0, args[1] if len(args) > 1 else "undefined", it.call, name == "replaceAll")
    if name == "split":
        return J.split(s, a0, args[1] if len(args) > 1 else None)
    if name in ("toString", "valueOf"):
        return s
    if name == "match":
        return J.match(s, a0)
    if name == "search":
        if not isinstance(a0, J.JsRegex) or a0.compiled is None:
            return UNKNOWN
        m = a0.compiled.search(s)
        return m.start() if m else -1
    if name == "concat":
        parts = [J.to_str(a) for a in args]
        return UNKNOWN if UNKNOWN in parts else s + "".join(parts)
    if name == "localeCompare":
        return UNKNOWN if not isinstance(a0, str) else (s > a0) - (s < a0)
    if name == "normalize":
        return s
    n = [J.integral(J.to_number(a)) if a is not None else None for a in args[1:]]
    if name in ("startsWith", "endsWith", "includes", "indexOf", "lastIndexOf"):
        sub = J.to_str(a0)
        if sub is UNKNOWN:
            return UNKNOWN
        pos = n[0] if n else None
        if name == "startsWith":
            return s.startswith(sub, pos or 0)
        if name == "endsWith":
            return s[:pos].endswith(sub) if pos is not None else s.endswith(sub)
        if name == "includes":
            return sub in s[pos or 0:]
        if name == "indexOf":
            return s.find(sub, pos or 0)
        return s.rfind(sub)
    i0 = J.integral(J.to_number(a0)) if a0 is not None else None
    if a0 is not None and i0 is None and name not in ("padStart", "padEnd", "repeat"):
        i0 = 0 if J.to_number(a0) != J.to_number(a0) else None
        if i0 is None:
            return UNKNOWN
    if name == "slice":
        return s[slice(i0, n[0] if n else None)]
    if name == "substring":
        a, b = max(i0 or 0, 0), (max(n[0], 0) if n and n[0] is not None else len(s))
        a, b = min(a, len(s)), min(b, len(s))
        return s[min(a, b):max(a, b)]
    if name == "substr":
        start = i0 or 0
        start = start if start >= 0 else max(len(s) + start, 0)
        length = n[0] if n and n[0] is not None else len(s)
        return s[start:start + max(length, 0)]
    if name == "charAt":
        i = i0 or 0
        return s[i] if 0 <= i < len(s) else ""
    if name == "charCodeAt":
        i = i0 or 0
        return ord(s[i]) if 0 <= i < len(s) and ord(s[i]) < 0x10000 else (math.nan if not 0 <= i < len(s) else UNKNOWN)
    if name == "at":
        i = i0 or 0
        return s[i] if -len(s) <= i < len(s) else None
    if name in ("padStart", "padEnd"):
        width = J.integral(J.to_number(a0))
        fill = J.to_str(args[1]) if len(args) > 1 else " "
        if width is None or fill is UNKNOWN or width > J.MAX_ITEMS:
            return UNKNOWN
        if len(s) >= width or not fill:
            return s
        pad = (fill * width)[:width - len(s)]
        return pad + s if name == "padStart" else s + pad
    if name == "repeat":
        count = J.integral(J.to_number(a0))
        return s * count if count is not None and 0 <= count and len(s) * count <= J.MAX_ITEMS else UNKNOWN
    return UNKNOWN


def list_method(it, items: list, name: str, args: list) -> Any:
    a0 = args[0] if args else None
    if name == "push":  # (also where a run may or may not add them: the list the runs that do make)
        items.extend(args)
        if it._maybe:
            it._uncertain[id(items)] = items  # (held: an id is not reused while it is here)
            return UNKNOWN
        return len(items) if id(items) not in it._uncertain else UNKNOWN
    if name == "unshift":
        items[0:0] = args
        return len(items)
    if name == "pop":
        return UNKNOWN if it._maybe else (items.pop() if items else None)
    if name == "shift":
        return UNKNOWN if it._maybe else (items.pop(0) if items else None)
    if name in ("map", "filter", "forEach", "some", "every", "find", "findIndex", "findLast", "flatMap"):
        fn = a0
        out: list = []
        seq = list(enumerate(items))
        if name == "findLast":
            seq.reverse()
        for i, item in seq:
            got = it.call(fn, [item, i, items])
            if name in ("map", "forEach", "flatMap"):
                if name == "flatMap" and isinstance(it._value(got), list):
                    out += it._value(got)
                elif name != "forEach":
                    out.append(got)
                continue
            t = J.truth(it._value(got))
            if t is UNKNOWN:
                return UNKNOWN
            if name == "filter":
                if t:
                    out.append(item)
            elif name == "some" and t:
                return True
            elif name == "every" and not t:
                return False
            elif name in ("find", "findLast") and t:
                return item
            elif name == "findIndex" and t:
                return i
        return {"forEach": None, "some": False, "every": True, "find": None, "findLast": None,
                "findIndex": -1}.get(name, out)
    if name == "reduce":
        seq = list(items)
        if len(args) > 1:
            acc = args[1]
        elif seq:
            acc = seq.pop(0)
        else:
            return UNKNOWN
        start = len(items) - len(seq)
        for i, item in enumerate(seq, start):
            acc = it.call(a0, [acc, item, i, items])
        return acc
    if name in ("includes", "indexOf", "lastIndexOf"):
        if a0 is UNKNOWN:
            return UNKNOWN
        hits = [i for i, x in enumerate(items) if (J.strict_equal(it._value(x), a0) is True
                                                    or name == "includes" and a0 != a0 and x != x)]
        if any(it._value(x) is UNKNOWN for x in items) and not hits:
            return UNKNOWN
        if name == "includes":
            return bool(hits)
        return (hits[0] if name == "indexOf" else hits[-1]) if hits else -1
    if name in ("join", "toString"):
        sep = J.to_str(a0) if a0 is not None and name == "join" else ","
        parts = ["" if x is None or x is NULL else J.to_str(it._value(x)) for x in items]
        return UNKNOWN if sep is UNKNOWN or UNKNOWN in parts else sep.join(parts)
    if name == "slice":
        a = J.integral(J.to_number(a0)) if a0 is not None else 0
        b = J.integral(J.to_number(args[1])) if len(args) > 1 and args[1] is not None else None
        return UNKNOWN if a is None else items[a:b]
    if name == "concat":
        out = list(items)
        for a in args:
            out += a if isinstance(a, list) else [a]
        return out
    if name == "flat":
        depth = J.integral(a0) if a0 is not None else 1
        out = list(items)
        for _ in range(max(depth or 0, 0)):
            out = [y for x in out for y in (x if isinstance(x, list) else [x])]
        return out
    if name == "sort":
        if it._maybe:
            return items
        vals = [it._value(x) for x in items]
        if a0 is None:
            texts = [J.to_str(v) for v in vals]
            if UNKNOWN in texts:
                return UNKNOWN
            order = sorted(range(len(vals)), key=lambda i: texts[i].encode("utf-16-be"))
        else:
            failed = []

            def cmp(i: int, j: int) -> int:
                r = J.to_number(it._value(it.call(a0, [vals[i], vals[j]])))
                if r is UNKNOWN or r != r:
                    failed.append(True)
                    return 0
                return (r > 0) - (r < 0)
            order = sorted(range(len(vals)), key=functools.cmp_to_key(cmp))
            if failed:
                return UNKNOWN
        items[:] = [items[i] for i in order]
        return items
    if name == "reverse":
        if not it._maybe:
            items.reverse()
        return items
    if name == "keys":
        return list(range(len(items)))
    if name == "values":
        return list(items)
    if name == "entries":
        return [[i, x] for i, x in enumerate(items)]
    if name == "at":
        i = J.integral(J.to_number(a0)) if a0 is not None else 0
        return items[i] if i is not None and -len(items) <= i < len(items) else None
    return UNKNOWN


def map_method(it, m: J.JsMap, name: str, args: list) -> Any:
    a0 = args[0] if args else None
    if a0 is UNKNOWN and name in ("get", "has", "set", "delete"):
        return UNKNOWN
    if name == "get":
        hit = m.entries.get(J.key(a0))
        return hit[1] if hit is not None else None
    if name == "has":
        return J.key(a0) in m.entries
    if name == "set":
        m.entries[J.key(a0)] = (a0, args[1] if len(args) > 1 else None)
        return m
    if name == "delete":
        return False if it._maybe else m.entries.pop(J.key(a0), None) is not None
    if name == "keys":
        return [k for k, _ in m.entries.values()]
    if name == "values":
        return [v for _, v in m.entries.values()]
    if name == "entries":
        return [[k, v] for k, v in m.entries.values()]
    if name == "forEach":
        for k, v in list(m.entries.values()):
            it.call(a0, [v, k, m])
        return None
    if name == "clear" and not it._maybe:
        m.entries.clear()
    return UNKNOWN


def set_method(it, s: J.JsSet, name: str, args: list) -> Any:
    a0 = args[0] if args else None
    if a0 is UNKNOWN and name in ("add", "has", "delete"):
        return UNKNOWN
    if name == "add":
        s.entries[J.key(a0)] = a0
        return s
    if name == "has":
        return J.key(a0) in s.entries
    if name == "delete":
        return False if it._maybe else s.entries.pop(J.key(a0), _GONE) is not _GONE
    if name in ("values", "keys"):
        return list(s.entries.values())
    if name == "entries":
        return [[v, v] for v in s.entries.values()]
    if name == "forEach":
        for v in list(s.entries.values()):
            it.call(a0, [v, v, s])
        return None
    return UNKNOWN


def modules(it) -> dict[str, Any]:
    """The globals and Node's modules the interpreter models, by name (modules under `module:NAME`)."""
    B = J.Builtin

    def v(args: list, i: int = 0) -> Any:
        return it._value(args[i]) if i < len(args) else None

    def read_file(this, args):
        p = v(args)
        if not isinstance(p, str) or not p.startswith(J.ROOT + "/"):
            return UNKNOWN
        got = it.texts.get(p[len(J.ROOT) + 1:])
        if got is None:
            raise J.Throw(error(f"ENOENT: {p}"))
        return got

    def exists(this, args):
        p = v(args)
        if not isinstance(p, str) or not p.startswith(J.ROOT + "/"):
            return UNKNOWN
        rel = p[len(J.ROOT) + 1:]
        return rel in it.paths or any(q.startswith(rel + "/") for q in it.paths)

    def readdir(this, args):
        p = v(args)
        if not isinstance(p, str) or not p.startswith(J.ROOT):
            return UNKNOWN
        rel = p[len(J.ROOT) + 1:].rstrip("/")
        names = sorted({q[len(rel) + 1:].split("/")[0] for q in it.paths if q.startswith(rel + "/")}) if rel \
            else sorted({q.split("/")[0] for q in it.paths})
        return names if names else UNKNOWN

    fs = BuiltinModule(readFileSync=B("readFileSync", read_file), existsSync=B("existsSync", exists),
                        readdirSync=B("readdirSync", readdir))
    fs_promises = BuiltinModule(readFile=B("readFile", read_file), readdir=B("readdir", readdir))
    fs["promises"] = fs_promises
    path = BuiltinModule({name: B(name, lambda this, args, name=name: J.path_function(
        name, [v(args, i) for i in range(len(args))])) for name in
        ("join", "resolve", "dirname", "basename", "extname", "normalize", "isAbsolute", "relative")})
    path["sep"], path["delimiter"] = "/", ":"
    path["posix"] = path

    def file_path(this, args):
        u = v(args)
        return u[len("file://"):] if isinstance(u, str) and u.startswith("file://" + J.ROOT) else UNKNOWN
    url = BuiltinModule(fileURLToPath=B("fileURLToPath", file_path))

    def exit_(this, args):
        raise J.Exit()

    def argv() -> Any:
        main = next((r.main for r in it._runs if r.main is not None), None)
        return ["node", posixpath.join(J.ROOT, main)] if main is not None else UNKNOWN
    process = ProcessObject(argv, env=EnvVars(), exit=B("exit", exit_), on=B("on", lambda this, a: None),
                             once=B("once", lambda this, a: None))
    noop = B("log", lambda this, args: None)
    console = BuiltinModule({k: noop for k in ("log", "error", "warn", "info", "debug", "trace")})

    def json_parse(this, args):
        got = J.json_parse(v(args))
        if got is UNKNOWN and isinstance(v(args), str):
            raise J.Throw(error("Unexpected token in JSON"))
        return got
    json_ = BuiltinModule(parse=B("parse", json_parse),
                           stringify=B("stringify", lambda this, args: J.json_stringify(v(args), v(args, 2))))

    def obj_keys(this, args):
        keys = it._keys(v(args))
        return UNKNOWN if keys is None else keys

    def obj_values(this, args):
        o = v(args)
        keys = it._keys(o)
        return UNKNOWN if keys is None else [it._member(o, k) for k in keys]

    def obj_entries(this, args):
        o = v(args)
        keys = it._keys(o)
        return UNKNOWN if keys is None else [[k, it._member(o, k)] for k in keys]

    def obj_assign(this, args):
        target = v(args)
        if not isinstance(target, dict):
            return UNKNOWN
        for src in args[1:]:
            src = it._value(src)
            if isinstance(src, dict):
                target.update(src)
            elif src is not None and src is not NULL:
                return UNKNOWN
        return target

    def from_entries(this, args):
        items = it._items(v(args))
        if items is None:
            return UNKNOWN
        out = J.JsObject()
        for pair in items:
            pair = it._value(pair)
            if not isinstance(pair, list) or not pair:
                return UNKNOWN
            k = J.to_str(it._value(pair[0]))
            if k is UNKNOWN:
                return UNKNOWN
            out[k] = pair[1] if len(pair) > 1 else None
        return out
    object_ = BuiltinModule(keys=B("keys", obj_keys), values=B("values", obj_values),
                             entries=B("entries", obj_entries), assign=B("assign", obj_assign),
                             fromEntries=B("fromEntries", from_entries), freeze=B("freeze", lambda this, a: v(a)),
                             seal=B("seal", lambda this, a: v(a)))

    def array_from(this, args):
        items = it._items(v(args))
        if items is None:
            o = v(args)
            n = J.integral(it._member(o, "length")) if isinstance(o, dict) else None
            if n is None:
                return UNKNOWN
            items = [None] * n
        if len(args) > 1:
            return [it.call(args[1], [x, i]) for i, x in enumerate(items)]
        return list(items)
    array = BuiltinModule(isArray=B("isArray", lambda this, a: UNKNOWN if v(a) is UNKNOWN else
                                       isinstance(v(a), list)),
                           **{"from": B("from", array_from)},
                           of=B("of", lambda this, a: [it._value(x) for x in a]))

    def given_items(args):  # (`new Map(entries)`, `new Set(values)`, `new Set()`)
        return it._items(v(args)) if args and v(args) is not None else []

    def new_map(this, args):
        m = J.JsMap()
        items = given_items(args)
        if items is None:
            return UNKNOWN
        for pair in items:
            pair = it._value(pair)
            if not isinstance(pair, list) or not pair:
                return UNKNOWN
            m.entries[J.key(it._value(pair[0]))] = (it._value(pair[0]), pair[1] if len(pair) > 1 else None)
        return m

    def new_set(this, args):
        s = J.JsSet()
        items = given_items(args)
        if items is None:
            return UNKNOWN
        for x in items:
            x = it._value(x)
            s.entries[J.key(x)] = x
        return s

    def new_error(this, args):
        return J.JsObject({"message": J.to_str(v(args)) if args else "", "name": "Error"})

    def new_regexp(this, args):
        src, flags = v(args), v(args, 1) if len(args) > 1 else ""
        if isinstance(src, J.JsRegex):
            src = src.source
        return J.JsRegex(src, flags) if isinstance(src, str) and isinstance(flags, str) else UNKNOWN

    def to_string(this, args):
        return J.to_str(v(args)) if args else ""

    def to_number(this, args):
        return J.to_number(v(args)) if args else 0

    def parse_int(this, args):
        s = J.to_str(v(args))
        radix = J.integral(v(args, 1)) if len(args) > 1 and v(args, 1) is not None else 10
        if s is UNKNOWN or radix is None:
            return UNKNOWN
        m = re.match(r"\s*([+-]?)(0[xX])?([0-9a-zA-Z]+)", s)
        if not m or not 2 <= radix <= 36:
            return math.nan
        digits = ""
        base = 16 if m.group(2) and (len(args) < 2 or radix == 16) else radix
        for ch in m.group(3):
            if int(ch, 36) >= base:
                break
            digits += ch
        return int(m.group(1) + digits, base) if digits else math.nan

    def parse_float(this, args):
        s = J.to_str(v(args))
        if s is UNKNOWN:
            return UNKNOWN
        m = re.match(r"\s*[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?|Infinity)", s, re.I)
        return float(m.group(0)) if m else math.nan

    def is_nan(this, args):
        n = J.to_number(v(args))
        return UNKNOWN if n is UNKNOWN else n != n

    def math_fn(name):
        f = {"floor": math.floor, "ceil": math.ceil, "abs": abs, "trunc": math.trunc,
             "round": lambda x: math.floor(x + 0.5), "sqrt": math.sqrt}.get(name)

        def run(this, args):
            nums = [J.to_number(it._value(a)) for a in args]
            if UNKNOWN in nums:
                return UNKNOWN
            if name == "max":
                return max(nums) if nums else -math.inf
            if name == "min":
                return min(nums) if nums else math.inf
            if not nums or nums[0] != nums[0] or nums[0] in (math.inf, -math.inf):
                return nums[0] if nums else math.nan
            try:
                return f(nums[0])
            except (ValueError, OverflowError):
                return math.nan
        return B(name, run)
    math_ = BuiltinModule({k: math_fn(k) for k in ("floor", "ceil", "abs", "trunc", "round", "sqrt", "max", "min")})
    math_["PI"] = math.pi

    def boolean(this, args):
        return J.truth(v(args)) if args else False

    def encode(this, args):
        s = J.to_str(v(args))
        return UNKNOWN if s is UNKNOWN else quote(s, safe="-_.!~*'()")

    def promise_all(this, args):
        items = it._items(v(args))
        return UNKNOWN if items is None else list(items)
    promise = BuiltinModule(all=B("all", promise_all), allSettled=B("allSettled", lambda this, a: UNKNOWN),
                             resolve=B("resolve", lambda this, a: v(a) if a else None))

    number = BuiltinModule(isNaN=B("isNaN", lambda this, a: isinstance(v(a), float) and v(a) != v(a)),
                            isInteger=B("isInteger", lambda this, a: J.integral(v(a)) is not None),
                            parseInt=B("parseInt", parse_int), parseFloat=B("parseFloat", parse_float))
    out = {
        "JSON": json_, "Object": object_, "Array": array, "Math": math_, "console": console, "process": process,
        "Map": B("Map", new_map), "Set": B("Set", new_set), "Error": B("Error", new_error),
        "TypeError": B("TypeError", new_error), "RangeError": B("RangeError", new_error),
        "RegExp": B("RegExp", new_regexp), "String": B("String", to_string), "Number": B("Number", to_number),
        "Boolean": B("Boolean", boolean), "parseInt": B("parseInt", parse_int),
        "parseFloat": B("parseFloat", parse_float), "isNaN": B("isNaN", is_nan),
        "encodeURIComponent": B("encodeURIComponent", encode), "Promise": promise,
        "NaN": math.nan, "Infinity": math.inf,
        "module:fs": fs, "module:fs/promises": fs_promises, "module:path": path, "module:url": url,
        "module:process": process,
    }
    out["Number"] = WithMembers(out["Number"], number)  # (`Number(x)`, and `Number.isNaN(x)`)
    return out


class ProcessObject(BuiltinModule):
    """`process`: its `argv` the script a run runs (no argument), its `env` unset."""

    def __init__(self, argv: Callable[[], Any], **members):
        super().__init__(**members)
        self._argv = argv

    def get(self, key, default=None):
        if key == "argv":
            return self._argv()
        return super().get(key, default)

    def __contains__(self, key) -> bool:
        return key == "argv" or super().__contains__(key)

    def __getitem__(self, key):
        if key == "argv":
            return self._argv()
        return super().__getitem__(key)


class WithMembers(J.Builtin):
    """A builtin function that also has members (`Number(x)` and `Number.isNaN(x)`)."""

    __slots__ = ("members",)

    def __init__(self, fn: J.Builtin, members: dict):
        super().__init__(fn.name, fn.fn)
        self.members = members
