"""What a test's assertions state about a route it exercises: confirms, contradicts, or nothing either way."""

from __future__ import annotations

import re

from auditor.extract.syntax import find, string_value
from auditor.extract.assertions import ABSENT, Assertion
from auditor.extract.tests import TestCase
from auditor.model import Record, span


def tokens(source: str) -> set[str]:
    """The identifiers of an expression's source text (read from a record's attributes, not from code)."""
    return set(re.findall(r"[A-Za-z_$][\w$]*", source))


def message(a: Assertion, kb: dict) -> str | None:
    """The text an assertion expects of an error or a result, when it is a literal long enough to be telling."""
    if isinstance(a.value, str) and len(a.value) >= 8 and not a.negated:
        return a.value
    return None


class Strings:
    """The string literals of the boundary's modules, by line (to find where an asserted message is written)."""

    def __init__(self, prog):
        self.link, self.by_path = prog.linker, {}

    def within(self, r: Record, wanted: str) -> bool:
        for a in r.anchors:
            for line, value in self._of(a.path):
                if a.start_line <= line <= a.end_line and (_words(wanted, value) or _pattern(wanted, value)):
                    return True
        return False

    def _of(self, path: str) -> list[tuple[int, str]]:
        if path not in self.by_path:
            m = self.link.by_path.get(path)
            nodes = find(m.tree.root_node, {"string", "template_string"}) if m is not None else []
            self.by_path[path] = [(n.start_point[0] + 1, v) for n in nodes if (v := string_value(n)) is not None]
        return self.by_path[path]


def _words(wanted: str, value: str) -> bool:
    """WANTED is in VALUE as whole words (`resource` is not in `resource_link`; `must not be blank` is in
    `memo text must not be blank`): a word the route happens to contain is no message it writes."""
    return re.search(r"(?<!\w)" + re.escape(wanted) + r"(?!\w)", value) is not None


_REGEX_META = frozenset("^$*+?{}[]|()\\")


def _pattern(wanted: str, value: str) -> bool:
    """A regular expression a test expects (`toThrow(/bad input/)`), matched only when it is plain text: the
    audited code never gets to run an expression of its own (one that backtracks could take the audit hostage)."""
    plain = wanted.replace("\\.", ".").replace("\\/", "/")
    return not (set(plain) & _REGEX_META) and plain.replace(".", "") != "" and _words(plain, value)


def judge(prog, case: TestCase, r: Record, key, hits: list[Assertion], said: list[Assertion], kb: dict, responds):
    """What the assertions state about the route: (confirms | contradicts | None, a sentence)."""
    if r.kind == "mutate":
        judged = _clamp(prog, case, r, hits, kb)
        if judged is not None:
            return judged
    if r.kind == "state-write":
        counted = _count(case, r, key, hits, kb, responds)
        if counted is not None:
            return counted
    if r.kind in {"gate", "unchecked-copy"}:
        echoed = _echo(case, hits, kb)
        if echoed is not None:
            return echoed
    if said:
        a = said[0]
        return "confirms", f"asserts the text {a.value!r} (line {a.line}), which the route writes"
    return None, f"asserts {shown(hits)}"


def shown(assertions: list[Assertion]) -> str:
    """The first few assertions as written: `line 42: data.totalThoughts toBe 3; ...`."""
    return "; ".join(f"line {a.line}: {a.subject} {'not ' if a.negated else ''}{a.matcher} {a.expected or ''}".rstrip()
                     for a in assertions[:4]) + ("; ..." if len(assertions) > 4 else "")


def _echo(case: TestCase, hits: list[Assertion], kb: dict):
    """A value passed through, stated by a test: the asserted field equals the value the test's input gave it."""
    for a in hits:
        if a.matcher not in kb["equality_matchers"] or a.negated or a.value is ABSENT or not a.fields:
            continue
        given = [fields for line, fields in case.inputs if line <= a.line and a.fields[-1] in fields]
        if given and given[-1][a.fields[-1]] == a.value:
            return "confirms", (f"asserts {a.subject} is {a.value!r} (line {a.line}), the {a.fields[-1]} its input "
                                "gave: admitted and passed on unchanged")
    return None


def _mutation(prog, r: Record):
    for f in prog.flows:
        for mu in f.mutations:
            if span(f.module.path, mu.node.start_point[0] + 1, mu.node.end_point[0] + 1) == r.anchors[0]:
                return mu
    return None


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _clamp(prog, case: TestCase, r: Record, hits: list[Assertion], kb: dict):
    """A clamp stated by a test: the input it writes crosses the bound, and the asserted value is (not) the bound."""
    mu = _mutation(prog, r)
    if mu is None or mu.form not in {"raise-only clamp", "lower-only clamp"} or not mu.bound:
        return None
    short = mu.target.rsplit(".", 1)[-1]
    fixed = _literal_number(mu.bound)
    same_object = "." in mu.bound and mu.bound.rsplit(".", 1)[0] == mu.target.rsplit(".", 1)[0]
    other = mu.bound.rsplit(".", 1)[-1] if same_object else None
    if fixed is None and other is None:
        return None
    for a in hits:
        if a.matcher not in kb["equality_matchers"] or a.negated or not _number(a.value):
            continue
        given = [fields for line, fields in case.inputs if line <= a.line and _number(fields.get(short))
                 and (other is None or _number(fields.get(other)))]
        if not given:
            continue
        before = given[-1][short]
        limit = fixed if fixed is not None else given[-1][other]
        fires = before < limit if mu.form == "raise-only clamp" else before > limit
        if not fires:
            continue
        what = f"{short} {before:g} and " + (f"the bound {limit:g}" if fixed is not None else f"{mu.bound} {limit:g}")
        if a.value == limit:
            return "confirms", f"asserts {a.subject} is {a.value:g} (line {a.line}) for {what}: the {mu.form} to the bound"
        return "contradicts", (f"asserts {a.subject} is {a.value:g} (line {a.line}) for {what}, where the {mu.form} "
                               f"gives {limit:g}")
    return None


def _literal_number(s: str):
    try:
        return float(s)
    except ValueError:
        return None


_APPENDS = frozenset({"push", "unshift", "add", "set"})


def _count(case: TestCase, r: Record, key, hits: list[Assertion], kb: dict, responds: list[Record]):
    """A length of retained state stated by a test: N after N calls of a function that appends on every call."""
    if r.attrs.get("condition") or not set(r.attrs.get("operations", [])) <= _APPENDS:
        return None
    short = next((e for e in r.attrs.get("endpoints", []) if e.startswith("OBJ:state:")), "").rsplit(".", 1)[-1]
    lengths = {f["key"] for x in responds for f in x.attrs.get("fields", [])
               if short and short in tokens(f["source"]) and f["source"].endswith((".length", ".size"))}
    calls = sum(1 for c in case.calls if not c.setup and (c.path, c.name) == key)
    for a in hits:
        if a.fields and a.fields[-1] in lengths and a.matcher in kb["equality_matchers"] and _number(a.value) and not a.negated:
            if a.value == calls:
                return "confirms", (f"asserts {a.subject} is {a.value:g} (line {a.line}) after {calls} call(s) of {key[1]}: "
                                   "one record retained per call, unconditionally")
            return None, f"asserts {a.subject} is {a.value:g} (line {a.line}) after {calls} call(s) of {key[1]} in the test"
    return None
