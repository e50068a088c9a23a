"""What a reviewer reads first: the summary atop each report (ranked by kb/findings.yaml), claims with their verdicts
and routes, per-tool sections, and anchors that link to the pinned commit."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest
from markdown_it import MarkdownIt

from auditor import kb
from auditor.analyse import conclusion, runtime
from auditor.analyse.summary import summarise
from auditor.errors import AuditorError
from auditor.model import Anchor, Audit, Record, Target, span
from auditor import remote
from auditor.report import links, markdown
from contract_helpers import cli, git, init_repo, ledger_files

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / "reports"
# A clone of modelcontextprotocol/servers, when there is one, to read the linked files from.
MIRROR = Path(os.environ.get("AUDITOR_SERVERS_REPO") or "/work/.mirror/modelcontextprotocol+servers/repo")
FINDINGS_KB = kb.load(ROOT / "kb", "findings")


def _record(category: str, rid: str, kind: str, **attrs) -> Record:
    return Record(category=category, id=rid, kind=kind, summary=f"{kind} summary", anchors=(span("src/a.ts", 3, 5),),
                  rule="test", attrs=attrs)


def _audit(findings=(), claims=(), objects=(), routes=(), tools=()) -> Audit:
    target = Target(kind="git", locator="repo", revision="c" * 40, requested="HEAD", commit_date=None,
                    worktree_clean=None, subtree="", files=())
    ledger = {"tools": [{"name": t, "file": "src/a.ts", "form": "registerTool", "schema_form": "zod", "dispatch": "registration",
                         "implementation": None, "status": "analysed", "reasons": []} for t in tools],
              "files": [], "unresolved": [], "entries": [], "complete": True}
    audit = Audit(target=target, sources=(), components=(), objects=tuple(objects), routes=tuple(routes), absences=(),
                  paths=(), findings=tuple(findings), claims=tuple(claims), ledger=ledger,
                  method={"external": [], "anti_conflation": [], "detail_gaps": []})
    audit = Audit(**{**{f: getattr(audit, f) for f in audit.__slots__}, "summary": summarise(audit, FINDINGS_KB)})
    kbs = {name: kb.load(ROOT / "kb", name) for name in ("method", "findings", "verdicts")}
    return Audit(**{**{f: getattr(audit, f) for f in audit.__slots__}, "baseline": runtime.baseline(audit, kbs),
                    "conclusion": conclusion.bounded(audit)})


# 1. The summary: ranking as data, one screen, in audit.json and atop every report

def test_findings_are_ranked_by_the_consequence_kb_findings_yaml_gives_their_kind():
    fnds = [_record("finding", f"FND:{k}:x", k) for k in ("unchecked-optional", "param-name-mismatch", "secret-logged",
                                                           "schema-unenforced")]
    ranked = [f["id"] for f in summarise(_audit(fnds), FINDINGS_KB)["findings"]["ranked"]]
    assert ranked == ["FND:secret-logged:x", "FND:schema-unenforced:x", "FND:param-name-mismatch:x",
                      "FND:unchecked-optional:x"]
    assert summarise(_audit(fnds), FINDINGS_KB)["findings"]["ranked"][0]["consequence"] == "high"
    # The order is the kb's: reverse the levels, or move a kind, and the ranking follows.
    reversed_kb = copy.deepcopy(FINDINGS_KB)
    reversed_kb["consequences"].reverse()
    ranked = [f["id"] for f in summarise(_audit(fnds), reversed_kb)["findings"]["ranked"]]
    assert ranked == ["FND:param-name-mismatch:x", "FND:unchecked-optional:x", "FND:secret-logged:x",
                      "FND:schema-unenforced:x"]


def test_every_finding_kind_has_a_consequence_of_the_listed_levels():
    levels = [c["level"] for c in FINDINGS_KB["consequences"]]
    assert levels == ["high", "medium", "low"]
    assert all(k["consequence"] in levels for k in FINDINGS_KB["kinds"].values())


def test_a_kind_without_consequence_is_a_kb_error(tmp_path):
    import shutil
    shutil.copytree(ROOT / "kb", tmp_path / "kb")
    path = tmp_path / "kb" / "findings.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    consequence: high\n", "", 1), encoding="utf-8")
    result = cli("check-kb", "--kb", tmp_path / "kb")
    assert result.exit_code == 2 and "consequence" in result.stderr


def _section(text: str, heading: str) -> list[str]:
    lines = text.splitlines()
    start = lines.index(heading)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start:end]


def test_the_summary_of_a_large_server_fits_one_screen_and_counts_what_it_leaves_out():
    tools = [f"tool_{i:02d}" for i in range(60)]
    fnds = [_record("finding", f"FND:unchecked-optional:{t}/p", "unchecked-optional", tool=t) for t in tools]
    fnds += [_record("finding", "FND:secret-logged:x", "secret-logged")]
    clms = [_record("claim", f"CLM:c{i}", "readme-tool", verdict="contradicted", quote=f"tool {i}", routes=["RTE:x"],
                    channel="readme:README.md", voice="maintainer", operations=["provide a tool"], mismatch="")
            for i in range(30)]
    state = [_record("object", f"OBJ:state:index#s{i}", "state", truth_apt="no", role="state", disposition="kept")
             for i in range(20)]
    audit = _audit(fnds, clms, state, tools=tools)
    for render in markdown.RENDERERS.values():
        summary = _section(render(audit), "## Summary")
        assert len(summary) <= 40, "\n".join(summary)
    packet = markdown.evidence_packet(audit)
    summary = "\n".join(_section(packet, "## Summary"))
    assert "1. **high** secret-logged (1): [`FND:secret-logged:x`](#fnd-" in summary  # the most consequential first
    assert "2. **medium** unchecked-optional (60): [`FND:unchecked-optional:tool_00/p`](#fnd-" in summary
    assert "and 57 more. The first: " in summary
    assert "and 24 more, in [the claims table](#claims)" in summary
    assert "and 52 more." in summary and "and 14 more" in summary  # tools and state containers beyond the caps
    # audit.json holds it whole
    doc = json.loads(__import__("auditor.report.json", fromlist=["render"]).render(audit))
    assert len(doc["summary"]["findings"]["ranked"]) == 61 and len(doc["summary"]["claims"]["flagged"]) == 30


@pytest.mark.parametrize("report", ["evidence-packet.md", "runtime-baseline.md", "epistemic-ledger.md"])
def test_every_committed_report_opens_with_a_summary_of_one_screen(report):
    for folder in sorted(p for p in REPORTS.iterdir() if p.is_dir()):
        text = (folder / report).read_text(encoding="utf-8")
        headings = [ln for ln in text.splitlines() if ln.startswith("## ")]
        assert headings[0] == "## Summary", (folder.name, headings[:2])
        assert len(_section(text, "## Summary")) <= 40
        doc = json.loads((folder / "audit.json").read_text(encoding="utf-8"))
        assert set(doc["summary"]) == {"server", "findings", "claims", "coverage"}
        assert doc["summary"]["coverage"]["complete"] == doc["coverage"]["complete"]


def test_the_summary_links_each_item_to_its_record():
    text = (REPORTS / "sequentialthinking-2ecb382a" / "evidence-packet.md").read_text(encoding="utf-8")
    summary = "\n".join(_section(text, "## Summary"))
    doc = json.loads((REPORTS / "sequentialthinking-2ecb382a" / "audit.json").read_text(encoding="utf-8"))
    top = doc["summary"]["findings"]["ranked"][0]["id"]
    assert f"[`{top}`](#{links.anchor_id(top)})" in summary
    assert f'<a id="{links.anchor_id(top)}"></a>`{top}`' in text  # its row in 4g
    baseline = (REPORTS / "sequentialthinking-2ecb382a" / "runtime-baseline.md").read_text(encoding="utf-8")
    assert f"[`{top}`](evidence-packet.md#{links.anchor_id(top)})" in baseline


def test_anchor_ids_are_deterministic_and_safe_for_any_id():
    evil = 'FND:x:"><script>alert(1)</script>\n\u202e`|'
    aid = links.anchor_id(evil)
    assert re.fullmatch(r"fnd-[0-9a-f]{10}", aid) and aid == links.anchor_id(evil)
    assert links.anchor_id("FND:x:a") != links.anchor_id("FND:x:b")
    assert re.fullmatch(r"r-[0-9a-f]{10}", links.anchor_id("<>:x"))


# 2. Claims tables: verdict and the routes it rests on

def test_the_packet_claims_table_shows_verdict_and_routes():
    text = (REPORTS / "sequentialthinking-2ecb382a" / "evidence-packet.md").read_text(encoding="utf-8")
    assert "| ID | Claim (verbatim) | Channel and section | Voice | Verdict | Rests on | Tier | Anchors |" in text
    doc = json.loads((REPORTS / "sequentialthinking-2ecb382a" / "audit.json").read_text(encoding="utf-8"))
    for c in doc["claims"]:
        row = next(ln for ln in text.splitlines() if ln.startswith(f'| <a id="{links.anchor_id(c["id"])}"></a>'))
        assert f"**{c['verdict']}**" in row
        for r in c["routes"]:
            assert f"](#{links.anchor_id(r)})" in row


# 5. Per-tool sections, before the record tables

def test_each_tool_has_a_section_with_its_records_before_the_record_tables():
    text = (REPORTS / "tool-belt" / "evidence-packet.md").read_text(encoding="utf-8")
    doc = json.loads((REPORTS / "tool-belt" / "audit.json").read_text(encoding="utf-8"))
    tools = [t["name"] for t in doc["coverage"]["tools"]]
    sections = _section(text, "## Tools")
    heads = [ln for ln in sections if ln.startswith("### ")]
    assert heads == [f'### <a id="{links.anchor_id(t, "tool")}"></a>Tool `{t}`' for t in tools]
    assert text.index("## Tools") < text.index("## 1. Run identity") < text.index("## 4. Canonical records")
    body = "\n".join(sections)
    for r in doc["routes"]:
        if r.get("tool"):
            assert f"[`{r['id']}`](#{links.anchor_id(r['id'])})" in body


# 3. Anchors link to the file at the pinned commit

def test_web_base_accepts_github_and_gitlab_remotes_only():
    assert remote.web_base("https://github.com/o/r.git") == "https://github.com/o/r"
    assert remote.web_base("git@github.com:o/r.git") == "https://github.com/o/r"
    assert remote.web_base("https://github.com/o/r/") == "https://github.com/o/r"
    assert remote.web_base("git@gitlab.com:group/sub/r.git") == "https://gitlab.com/group/sub/r"
    for bad in ("http://github.com/o/r", "https://evil.example/o/r", "https://github.com/o", "https://github.com/o/r/x",
                "https://tok@github.com/o/r", "https://github.com/../r", "file:///srv/r", "/srv/r.git", "", None,
                "https://github.com/o/r s", "ext::sh -c x"):
        assert remote.web_base(bad) is None, bad


def test_link_base_must_be_https():
    assert remote.link_base("https://github.com/o/r/") == "https://github.com/o/r"
    for bad in ("http://github.com/o/r", "javascript:alert(1)", "https://github.com/o/r)x", "https://github.com/o r",
                "https://github.com/o/r?x=1", "https://u:p@github.com/o/r", "https://github.com/o/r#L1"):
        with pytest.raises(AuditorError):
            remote.link_base(bad)


def test_blob_url_percent_encodes_the_path():
    a = Anchor(path="src/a b/(x)`<script>|\u202e.ts", start_line=4, end_line=9)
    url = links.blob_url("https://github.com/o/r", "c" * 40, a)
    assert url == "https://github.com/o/r/blob/" + "c" * 40 + "/src/a%20b/%28x%29%60%3Cscript%3E%7C%E2%80%AE.ts#L4-L9"
    assert unquote(url.split("/blob/" + "c" * 40 + "/")[1].split("#")[0]) == a.path
    assert links.blob_url("https://github.com/o/r", "c", span("a.ts", 7)).endswith("/blob/c/a.ts#L7")
    assert links.blob_url("https://gitlab.com/g/r", "c", span("a.ts", 7, 8)) == "https://gitlab.com/g/r/-/blob/c/a.ts#L7-8"


def test_the_baseline_links_resolve_to_the_anchored_lines():
    """Every link of the committed baseline report names the file and the line range of its anchor, at the commit."""
    commit = "2ecb382a02d7921511180dfbadcef24eb66a052f"
    prefix = f"https://github.com/modelcontextprotocol/servers/blob/{commit}/"
    seen = 0
    for report in ("evidence-packet.md", "runtime-baseline.md", "epistemic-ledger.md"):
        text = (REPORTS / "sequentialthinking-2ecb382a" / report).read_text(encoding="utf-8")
        for label, url in re.findall(r"\[`([^`]+)`\]\((https://[^)]+)\)", text):
            assert url.startswith(prefix), url
            path, lines = url[len(prefix):].split("#")
            m = re.fullmatch(r"L(\d+)(?:-L(\d+))?", lines)
            expect = f"{unquote(path)}:{m.group(1)}" + (f"-{m.group(2)}" if m.group(2) else "")
            assert label == expect
            seen += 1
            if MIRROR.is_dir():  # the lines exist in that file at that commit
                body = subprocess.run(["git", "-C", str(MIRROR), "show", f"{commit}:{unquote(path)}"],
                                      capture_output=True, check=True).stdout
                assert len(body.splitlines()) >= int(m.group(2) or m.group(1))
    assert seen > 50
    assert "](http" not in (REPORTS / "sequentialthinking-npm-0.6.2" / "evidence-packet.md").read_text(encoding="utf-8")
    assert "](http" not in (REPORTS / "tool-belt" / "evidence-packet.md").read_text(encoding="utf-8")


def test_the_origin_remote_gives_links_and_link_base_overrides_it(tmp_path):
    repo = tmp_path / "repo"
    commit = init_repo(repo, ledger_files("srv/"))
    git(repo, "remote", "add", "origin", "git@github.com:someone/ledger.git")
    result = cli("audit", repo, "--subtree", "srv", "--out", tmp_path / "a", "-q")
    assert result.exit_code == 0, result.stderr
    packet = (tmp_path / "a" / "evidence-packet.md").read_text(encoding="utf-8")
    assert f"](https://github.com/someone/ledger/blob/{commit}/srv/index.ts#L" in packet
    assert json.loads((tmp_path / "a" / "audit.json").read_text())["target"]["web"] == "https://github.com/someone/ledger"
    result = cli("audit", repo, "--subtree", "srv", "--out", tmp_path / "b", "-q", "--link-base", "https://gitlab.com/g/l")
    assert result.exit_code == 0, result.stderr
    packet = (tmp_path / "b" / "evidence-packet.md").read_text(encoding="utf-8")
    assert f"](https://gitlab.com/g/l/-/blob/{commit}/srv/index.ts#L" in packet and "github.com/someone" not in packet


def test_a_remote_of_another_host_gives_no_links(tmp_path):
    repo = tmp_path / "repo"
    init_repo(repo, ledger_files("srv/"))
    git(repo, "remote", "add", "origin", "https://git.example/someone/ledger.git")
    result = cli("audit", repo, "--subtree", "srv", "--out", tmp_path / "a", "-q")
    assert result.exit_code == 0, result.stderr
    assert "](http" not in (tmp_path / "a" / "evidence-packet.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("value", ["http://github.com/o/r", "https://github.com/o/r)x[y]", "file:///etc"])
def test_a_bad_link_base_is_one_line_exit_2_and_writes_nothing(tmp_path, value):
    repo = tmp_path / "repo"
    init_repo(repo, ledger_files("srv/"))
    result = cli("audit", repo, "--subtree", "srv", "--out", tmp_path / "out", "--link-base", value)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "--link-base" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


# 4. Code spans instead of escaped backticks, arrows as arrows

def test_backtick_spans_become_code_spans_and_arrows_stay_arrows():
    assert markdown.md("class `Foo` holds a -> b") == "class `Foo` holds a -> b"
    assert markdown.md("a `x|y` b") == "a `x\\|y` b"
    assert markdown.md("one ` tick") == "one \\` tick"
    assert markdown.md("<b> & `<b>`") == "&lt;b> & `<b>`"


@pytest.mark.parametrize("name", ["a`b", "``", "`<script>alert(1)</script>`", "x|y`|`z", "line\nbreak `a\nb`",
                                  "bidi \u202e`rtl\u2066`", "`a` `b`` c"])
def test_code_spans_of_hostile_names_stay_inert(name):
    for out in (markdown.md(f"class `{name}` holds"), markdown.code(name)):
        assert "\n" not in out and "\u202e" not in out and "\u2066" not in out
        cells = f"| {out} | x |"
        tokens = MarkdownIt("commonmark").enable("table").parse(f"| a | b |\n|---|---|\n{cells}\n")
        inline = [c for t in tokens if t.children for c in t.children]
        assert {c.type for c in inline} <= {"text", "code_inline"}, [(c.type, c.content) for c in inline]
        assert sum(1 for t in tokens if t.type == "td_open") == 2  # the name did not add a cell


def test_plain_text_round_trips_through_commonmark_with_fewer_escapes():
    """Every string of up to four characters over a markup-heavy alphabet is shown as exactly itself (no emphasis,
    no HTML, no link), and an underscore inside a word is written without a backslash."""
    import itertools

    parser = MarkdownIt("commonmark")
    alphabet = "a_ *<>|é1.&["
    for n in range(1, 5):
        for chars in itertools.product(alphabet, repeat=n):
            text = "".join(chars)
            out = markdown.md(text)
            tokens = parser.parseInline(out)[0].children
            assert {t.type for t in tokens} <= {"text"}, (text, out, [t.type for t in tokens])
            assert "".join(t.content for t in tokens) == " ".join(text.split()), (text, out)
    assert markdown.md("sequential_thinking __init__") == "sequential_thinking \\_\\_init\\_\\_"


def test_tool_sections_and_the_summary_name_the_effects_each_tool_reaches():
    """file-drop: save_note writes files, archive_notes starts a process, list_notes reads a folder (its expectations)."""
    doc = json.loads((REPORTS / "file-drop" / "audit.json").read_text(encoding="utf-8"))
    reached: dict[str, list[str]] = {}
    for r in doc["routes"]:
        if r["kind"].startswith("effect-") and r["kind"] not in ("effect-env", "effect-argv"):
            reached[r["kind"]] = sorted(reached.get(r["kind"], []) + r["reached_from"])
    assert reached == {"effect-fs-write": ["append_log", "save_note"], "effect-subprocess": ["archive_notes"],
                       "effect-fs-read": ["list_notes"]}
    assert {e["kind"]: e["tools"] for e in doc["summary"]["server"]["effects"]}["effect-subprocess"] == ["archive_notes"]
    text = (REPORTS / "file-drop" / "evidence-packet.md").read_text(encoding="utf-8")
    section = text.split("Tool `archive_notes`")[1].split("### ")[0]
    spawn = next(r["id"] for r in doc["routes"] if r["kind"] == "effect-subprocess")
    assert f"| [`{spawn}`](#{links.anchor_id(spawn)}) | reached by a call |" in section
    assert "[subprocess (1)](#" in text and "from `archive_notes`" in text


def test_coverage_in_the_summary_says_why_it_is_incomplete():
    from auditor.model import Gap

    audit = _audit(tools=["t"])
    ledger = {**audit.ledger, "complete": False,
              "files": [{"path": f"src/x{i}.ts", "status": "parsed, not reached"} for i in range(5)],
              "tools": [{**audit.ledger["tools"][0], "status": "partially analysed",
                         "reasons": ["the implementation does not resolve to a function of the boundary"]}],
              "unresolved": [{"what": "a dispatch branch names a tool by `n`, which is not a literal"}]}
    gap = Gap(kind="parse", detail="syntax error", anchor=span("src/y.ts", 4))
    audit = Audit(**{**{f: getattr(audit, f) for f in audit.__slots__}, "ledger": ledger, "gaps": (gap,)})
    coverage = summarise(audit, FINDINGS_KB)["coverage"]
    assert coverage["complete"] is False
    assert coverage["why_not"] == [
        "1 parse gap(s)",
        "tool t partially analysed: the implementation does not resolve to a function of the boundary",
        "5 file(s) parsed, not reached from an entry file: src/x0.ts, src/x1.ts, src/x2.ts and 2 more",
        "a dispatch branch names a tool by `n`, which is not a literal"]
    complete = summarise(_audit(tools=["t"]), FINDINGS_KB)["coverage"]
    assert complete == {"complete": True, "why_not": [], "details_not_read": []}
