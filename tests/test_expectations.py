"""The expectation comments of fixtures/: parsing and checking, without running an audit."""

from __future__ import annotations

import pytest

from expectations import Expectation, ExpectationError, check, parse_text

SOURCE = """\
const a = new Map(); // expect: OBJ:state:index#a
// expect: RTE:state-write:index#a
// a plain comment in between
// expect: OBJ:state:index#a
a.set("k", 1);
const url = "https://example.org"; // expect-not: FND:nothing:here
// expect-absence: external-effects does-not-hold
// expect: FND:unused-dependency:package.json/left-pad @package.json
"""


def test_parse_end_of_line_own_line_and_file_level_forms():
    got = parse_text(SOURCE, "index.ts")
    assert [(e.kind, e.subject, e.line, e.target_path, e.target_line, e.status) for e in got] == [
        ("expect", "OBJ:state:index#a", 1, "index.ts", 1, None),
        ("expect", "RTE:state-write:index#a", 2, "index.ts", 5, None),  # skips the comment lines below it
        ("expect", "OBJ:state:index#a", 4, "index.ts", 5, None),
        ("expect-not", "FND:nothing:here", 6, None, None, None),
        ("expect-absence", "external-effects", 7, None, None, "does not hold"),
        ("expect", "FND:unused-dependency:package.json/left-pad", 8, "package.json", None, None),
    ]


def test_parse_markdown_comments():
    text = "# Title\n<!-- expect: OBJ:readme:README.md -->\n## Tools\n### x <!-- expect: FND:t:README.md/x -->\n"
    got = parse_text(text, "README.md")
    assert [(e.subject, e.target_line) for e in got] == [("OBJ:readme:README.md", 3), ("FND:t:README.md/x", 4)]


@pytest.mark.parametrize("bad", ["// expect-absence: effects maybe", "// expect: A B C", "// expect-not:", "x // expect:"])
def test_malformed_comments_name_their_line(bad):
    with pytest.raises(ExpectationError, match=r"^index\.ts:2: "):
        parse_text("ok\n" + bad + "\nz\n", "index.ts")


AUDIT = {
    "schema": "x",
    "routes": [{"id": "RTE:a:index#f", "anchors": [{"path": "index.ts", "start_line": 3, "end_line": 5}]}],
    "absences": [{"id": "ABS:effects:external-effects", "status": "holds", "anchors": []}],
    "findings": [{"id": "FND:unused-dependency:package.json/x", "anchors": [{"path": "package.json", "start_line": 9, "end_line": 12}]}],
}


def _e(kind, subject, **kw) -> Expectation:
    return Expectation(kind=kind, subject=subject, path="index.ts", line=kw.pop("line", 1), **kw)


def test_check_passes_and_fails_with_locations():
    ok = [_e("expect", "RTE:a:index#f", target_path="index.ts", target_line=4),
          _e("expect", "FND:unused-dependency:package.json/x", target_path="package.json"),
          _e("expect-not", "RTE:b:index#f"),
          _e("expect-absence", "external-effects", status="holds")]
    assert check(ok, AUDIT) == []
    bad = [_e("expect", "RTE:a:index#f", target_path="index.ts", target_line=6, line=10),
           _e("expect", "RTE:a:index#g", target_path="index.ts", target_line=4, line=11),
           _e("expect-not", "RTE:a:index#f", line=12),
           _e("expect-absence", "external-effects", status="does not hold", line=13),
           _e("expect-absence", "no-such-probe", status="holds", line=14)]
    failures = check(bad, AUDIT)
    assert [f.split(":")[1] for f in failures] == ["10", "11", "12", "13", "14"]
    assert "no anchor covers index.ts:6 (anchors index.ts:3-5)" in failures[0]
    assert "no such record; ids of that kind: RTE:a:index#f" in failures[1]


def test_expect_verdict_parses_and_checks_the_claim_verdict():
    (e,) = parse_text("<!-- expect-verdict: CLM:readme-tool:x@readme:README.md contradicted -->\n", "README.md")
    assert (e.kind, e.subject, e.status) == ("expect-verdict", "CLM:readme-tool:x@readme:README.md", "contradicted")
    with pytest.raises(ExpectationError, match=r"^index\.ts:1: "):
        parse_text("// expect-verdict: CLM:a@b wrong\n", "index.ts")
    audit = {"claims": [{"id": "CLM:a@b", "verdict": "supported", "mismatch": "", "anchors": []}]}
    assert check([_e("expect-verdict", "CLM:a@b", status="supported")], audit) == []
    bad = check([_e("expect-verdict", "CLM:a@b", status="contradicted", line=3), _e("expect-verdict", "CLM:z@b", status="supported", line=4)], audit)
    assert [f.split(":")[1] for f in bad] == ["3", "4"]
    assert "verdict is 'supported', expected 'contradicted'" in bad[0] and "no such record" in bad[1]


def test_expect_coverage_parses_and_checks_the_ledger():
    (e,) = parse_text("// expect-coverage: incomplete\n", "index.ts")
    assert (e.kind, e.subject) == ("expect-coverage", "incomplete")
    with pytest.raises(ExpectationError, match=r"^index\.ts:1: "):
        parse_text("// expect-coverage: mostly\n", "index.ts")
    audit = {"coverage": {"complete": False, "gaps": [], "unresolved": [{"what": "no server", "anchor": {}}]}}
    assert check([_e("expect-coverage", "incomplete")], audit) == []
    (bad,) = check([_e("expect-coverage", "complete", line=7)], audit)
    assert bad.startswith("index.ts:7: expect-coverage complete: the ledger says incomplete") and "no server" in bad


def test_expect_tested_names_the_test_below_it_and_checks_tier_and_verdict():
    text = "// expect-tested: RTE:m:src/a#f confirms\n// a comment\nit(\"x\", () => {\n// expect-not-tested: RTE:r:src/a#f\nit(\"y\", () => {\n"
    got = parse_text(text, "test/a.test.ts")
    assert [(e.kind, e.subject, e.target_line, e.status) for e in got] == [
        ("expect-tested", "RTE:m:src/a#f", 3, "confirms"), ("expect-not-tested", "RTE:r:src/a#f", 5, None)]
    for bad in ("// expect-tested: RTE:m:src/a#f maybe\nit()\n", "// expect-tested: RTE:m:src/a#f\nit()\n",
                "// expect-not-tested: A B\nit()\n"):
        with pytest.raises(ExpectationError, match=r"^test/a\.test\.ts:1: "):
            parse_text(bad, "test/a.test.ts")
    link = {"test": "TST:t#x", "anchor": "test/a.test.ts:3-4", "verdict": "confirms", "detail": "d"}
    audit = {"routes": [{"id": "RTE:m:src/a#f", "tier": "tested", "tests": [link], "anchors": []},
                        {"id": "RTE:r:src/a#f", "tier": "tested", "tests": [{**link, "anchor": "test/a.test.ts:5-6"}], "anchors": []}]}
    assert check(got[:1], audit) == []
    failures = check(got[1:] + [Expectation(kind="expect-tested", subject="RTE:m:src/a#f", path="test/a.test.ts", line=9,
                                            target_path="test/a.test.ts", target_line=3, status="contradicts")], audit)
    assert [f.split(": ")[1].split(" ")[0] for f in failures] == ["expect-not-tested", "expect-tested"]
    assert "verdict ['confirms'], expected 'contradicts'" in failures[1]
