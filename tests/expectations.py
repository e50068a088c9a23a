"""Expectations written inside fixture files (see fixtures/README.md), and checking them against audit.json.

    // expect: ID              a record ID exists and one of its anchors covers this line; an own-line
                               comment means the next line that is not itself a comment
    // expect: ID @FILE        a record ID exists with an anchor in FILE (for files that cannot hold comments)
    // expect-not: ID          no record has this id
    // expect-absence: PROBE holds|does-not-hold
                               the absence record whose id ends with `:PROBE` has that status
    // expect-verdict: ID VERDICT
                               the claim record ID exists and its verdict is VERDICT
    // expect-coverage: complete|incomplete
                               the coverage ledger says the audit is complete (or not)
    // expect-tested: ID confirms|contradicts|exercised
                               the record ID has the tier `tested`, and a test whose block covers the next line that
                               is not a comment (write it above an `it`/`test` call) is linked to it with that verdict
    // expect-not-tested: ID   no test whose block covers the next line that is not a comment is linked to ID

In Markdown the same text goes in `<!-- ... -->`. One expectation per comment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

COMMENT = re.compile(r"^(?P<lead>.*?)(?://|<!--)\s*(?P<kind>expect(?:-not-tested|-not|-absence|-verdict|-coverage|-tested)?):\s*(?P<body>.*?)\s*(?:-->)?\s*$")
OWN_LINE_COMMENT = re.compile(r"^\s*(?://.*|<!--.*-->)\s*$")
STATUSES = {"holds": "holds", "does-not-hold": "does not hold"}
TEST_VERDICTS = {"confirms", "contradicts", "exercised"}
VERDICTS = {"supported", "partial", "unsupported", "contradicted", "out-of-boundary", "stale"}


class ExpectationError(ValueError):
    """A malformed expectation comment; the message starts with FILE:LINE."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Expectation:
    kind: str  # expect | expect-not | expect-absence | expect-verdict | expect-coverage | expect-tested | expect-not-tested
    subject: str  # a record id, a probe id for expect-absence, `complete` or `incomplete` for expect-coverage
    path: str  # the file holding the comment, relative to the fixture root
    line: int  # the line of the comment (1-based)
    target_path: str | None = None  # expect: the file an anchor must be in
    target_line: int | None = None  # expect: the line an anchor must cover; None means any line of target_path
    status: str | None = None  # expect-absence: "holds" or "does not hold"; expect-verdict: the verdict

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def parse_text(text: str, path: str) -> list[Expectation]:
    lines = text.splitlines()
    out = []
    for i, raw in enumerate(lines):
        m = COMMENT.match(raw)
        if m is None:
            continue
        kind, body, where = m["kind"], m["body"].split(), f"{path}:{i + 1}"
        if kind == "expect-absence":
            if len(body) != 2 or body[1] not in STATUSES:
                raise ExpectationError(f"{where}: expected `expect-absence: PROBE holds|does-not-hold`, got {m['body']!r}")
            out.append(Expectation(kind=kind, subject=body[0], path=path, line=i + 1, status=STATUSES[body[1]]))
        elif kind == "expect-verdict":
            if len(body) != 2 or body[1] not in VERDICTS:
                raise ExpectationError(f"{where}: expected `expect-verdict: ID {'|'.join(sorted(VERDICTS))}`, got {m['body']!r}")
            out.append(Expectation(kind=kind, subject=body[0], path=path, line=i + 1, status=body[1]))
        elif kind == "expect-coverage":
            if body not in (["complete"], ["incomplete"]):
                raise ExpectationError(f"{where}: expected `expect-coverage: complete|incomplete`, got {m['body']!r}")
            out.append(Expectation(kind=kind, subject=body[0], path=path, line=i + 1))
        elif kind in {"expect-tested", "expect-not-tested"}:
            tested = kind == "expect-tested"
            if len(body) != (2 if tested else 1) or tested and body[1] not in TEST_VERDICTS:
                form = f"expect-tested: ID {'|'.join(sorted(TEST_VERDICTS))}" if tested else "expect-not-tested: ID"
                raise ExpectationError(f"{where}: expected `{form}`, got {m['body']!r}")
            target = next((j for j in range(i + 1, len(lines)) if not OWN_LINE_COMMENT.match(lines[j])), None)
            if target is None:
                raise ExpectationError(f"{where}: `{kind}:` with no line below it")
            out.append(Expectation(kind=kind, subject=body[0], path=path, line=i + 1, target_path=path,
                                   target_line=target + 1, status=body[1] if tested else None))
        elif kind == "expect-not":
            if len(body) != 1:
                raise ExpectationError(f"{where}: expected `expect-not: ID`, got {m['body']!r}")
            out.append(Expectation(kind=kind, subject=body[0], path=path, line=i + 1))
        elif len(body) == 2 and body[1].startswith("@") and len(body[1]) > 1:
            out.append(Expectation(kind=kind, subject=body[0], path=path, line=i + 1, target_path=body[1][1:]))
        elif len(body) == 1:
            target = i
            if not m["lead"].strip():  # own-line comment: it speaks of the next line that is not a comment
                target = next((j for j in range(i + 1, len(lines)) if not OWN_LINE_COMMENT.match(lines[j])), None)
                if target is None:
                    raise ExpectationError(f"{where}: `expect:` on its own line with no line below it")
            out.append(Expectation(kind=kind, subject=body[0], path=path, line=i + 1, target_path=path, target_line=target + 1))
        else:
            raise ExpectationError(f"{where}: expected `expect: ID` or `expect: ID @FILE`, got {m['body']!r}")
    return out


def parse_tree(root: Path) -> list[Expectation]:
    """Every expectation in the text files under `root`, paths relative to it, in path order."""
    out = []
    for f in sorted(p for p in root.rglob("*") if p.is_file()):
        try:
            text = f.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        out += parse_text(text, f.relative_to(root).as_posix())
    return out


def records(audit: dict) -> dict[str, dict]:
    """Every record of audit.json (any top-level list of objects with an `id`), by id."""
    out = {}
    for value in audit.values():
        if isinstance(value, list):
            out.update({r["id"]: r for r in value if isinstance(r, dict) and "id" in r})
    return out


def _anchors(r: dict) -> str:
    spans = [f"{a['path']}:{a['start_line']}" + (f"-{a['end_line']}" if a["end_line"] != a["start_line"] else "")
             for a in r.get("anchors", [])]
    return ", ".join(spans) or "(none)"


def _similar(ids, subject: str) -> str:
    prefix = ":".join(subject.split(":")[:2]) + ":"
    near = sorted(i for i in ids if i.startswith(prefix))
    return f"; ids of that kind: {', '.join(near)}" if near else ""


def _covers(anchor: str, path: str | None, line: int | None) -> bool:
    """Whether the anchor text `PATH:START[-END]` (the path ends with the fixture's PATH) covers LINE."""
    where, _, lines = anchor.rpartition(":")
    start, _, end = lines.partition("-")
    return bool(path) and (where == path or where.endswith("/" + path)) and int(start) <= (line or 0) <= int(end or start)


def check(expectations: list[Expectation], audit: dict) -> list[str]:
    """One message per failed expectation, each starting with FILE:LINE of its comment."""
    by_id = records(audit)
    failures = []
    for e in expectations:
        r = by_id.get(e.subject)
        if e.kind == "expect-not":
            if r is not None:
                failures.append(f"{e.where}: expect-not {e.subject}: the record exists (anchors {_anchors(r)})")
        elif e.kind == "expect-verdict":
            if r is None:
                failures.append(f"{e.where}: expect-verdict {e.subject}: no such record{_similar(by_id, e.subject)}")
            elif r.get("verdict") != e.status:
                failures.append(f"{e.where}: expect-verdict {e.subject}: verdict is {r.get('verdict')!r}, expected {e.status!r}"
                                + (f" ({r['mismatch']})" if r.get("mismatch") else ""))
        elif e.kind in {"expect-tested", "expect-not-tested"}:
            links = [t for t in (r or {}).get("tests", []) if _covers(t["anchor"], e.target_path, e.target_line)]
            if e.kind == "expect-not-tested":
                if links:
                    failures.append(f"{e.where}: expect-not-tested {e.subject}: linked to {links[0]['test']} ({links[0]['verdict']})")
            elif r is None:
                failures.append(f"{e.where}: expect-tested {e.subject}: no such record{_similar(by_id, e.subject)}")
            elif r.get("tier") != "tested" or not links:
                failures.append(f"{e.where}: expect-tested {e.subject}: tier {r.get('tier')!r}, no test covering line "
                                f"{e.target_line} is linked (tests: {[t['anchor'] for t in r.get('tests', [])]})")
            elif e.status not in {t["verdict"] for t in links}:
                failures.append(f"{e.where}: expect-tested {e.subject}: verdict {[t['verdict'] for t in links]}, "
                                f"expected {e.status!r} ({links[0]['detail']})")
        elif e.kind == "expect-coverage":
            said = "complete" if audit.get("coverage", {}).get("complete") else "incomplete"
            if said != e.subject:
                failures.append(f"{e.where}: expect-coverage {e.subject}: the ledger says {said} "
                                f"(gaps {len(audit.get('coverage', {}).get('gaps', []))}, unresolved "
                                f"{[u['what'] for u in audit.get('coverage', {}).get('unresolved', [])]})")
        elif e.kind == "expect-absence":
            found = [x for i, x in by_id.items() if i.startswith("ABS:") and i.endswith(":" + e.subject)]
            if not found:
                failures.append(f"{e.where}: expect-absence {e.subject}: no absence record ends with ':{e.subject}'")
            elif found[0].get("status") != e.status:
                failures.append(f"{e.where}: expect-absence {e.subject}: status is {found[0].get('status')!r}, expected {e.status!r}")
        elif r is None:
            failures.append(f"{e.where}: expect {e.subject}: no such record{_similar(by_id, e.subject)}")
        elif not any(a["path"] == e.target_path and (e.target_line is None or a["start_line"] <= e.target_line <= a["end_line"])
                     for a in r.get("anchors", [])):
            want = f"{e.target_path}:{e.target_line}" if e.target_line is not None else f"any line of {e.target_path}"
            failures.append(f"{e.where}: expect {e.subject}: no anchor covers {want} (anchors {_anchors(r)})")
    return failures
