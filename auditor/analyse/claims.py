"""Claims: load the registry, find each quote at the revision (one instance per channel), decide verdicts."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from auditor.analyse import verdicts, voice
from auditor.errors import AuditorError
from auditor.extract.facts import Program
from auditor.kb import _line_of, load_yaml, validate_file
from auditor.model import Anchor, Record, merge_anchors

# Who reads each channel: the consumer differs, so one quote in two channels is two claims.
CONSUMERS = {"tool-description": "host LLM (the tool description is placed in its context)",
             "readme": "human operator deciding to install or configure the server",
             "manifest": "human operator or registry browsing the package"}


_HTML_COMMENT = re.compile(rb"<!--.*?-->", re.S)


@dataclass(frozen=True, kw_only=True, slots=True)
class Channel:
    name: str  # tool-description:<tool> | readme:<rel> | manifest:<rel>
    kind: str
    path: str
    data: bytes
    start: int  # byte span of the channel inside the file
    end: int
    sections: tuple[tuple[int, str], ...]  # (line, section title), ascending


@dataclass(frozen=True, kw_only=True, slots=True)
class Registry:
    path: Path
    data: dict
    lines: dict[tuple[int, int], int]  # (claim index, quote index) -> line in the registry file


@lru_cache(maxsize=None)
def load_registries(kb_dir: Path) -> tuple[Registry, ...]:
    """Every kb/claims/*.yaml, validated, with the line of each quote (loaded once per process)."""
    out = []
    for path in sorted((kb_dir / "claims").glob("*.yaml")):
        data, problems = validate_file(path, "claims", kb_dir)
        if problems:
            more = f" (and {len(problems) - 1} more; run `auditor check-kb`)" if len(problems) > 1 else ""
            raise AuditorError(str(problems[0]) + more)
        node = load_yaml(path.read_text(encoding="utf-8"))[1]  # the kb's safe loader: refuses what validate_file did
        lines = {(i, j): _line_of(node, ["claims", i, "quotes", j])
                 for i, c in enumerate(data["claims"]) for j in range(len(c["quotes"]))}
        out.append(Registry(path=path, data=data, lines=lines))
    return tuple(out)


def select(registries: list[Registry], p: Program) -> list[Registry]:
    packages = {(d.value or {}).get("name") for d in p.manifests() if isinstance(d.value, dict)}
    servers = {s.info.get("name") for s in p.servers}
    return [r for r in registries if packages & set(r.data["applies_to"].get("packages", []))
            or servers & set(r.data["applies_to"].get("servers", []))]


def channels(p: Program) -> list[Channel]:
    out = []
    for t in p.tools:
        if t.description_node is None:
            continue
        data = p.entry(t.module.path).code()  # the bytes the tree was parsed from: its byte offsets are theirs
        first = t.description_node.start_point[0] + 1
        desc_lines = (t.description or "").splitlines()
        sections = tuple((first + i, ln.strip().rstrip(":")) for i, ln in enumerate(desc_lines)
                         if ln.strip().endswith(":") and not re.match(r"\s*([-*•]|\d+[.)])", ln))
        out.append(Channel(name=f"tool-description:{t.name}", kind="tool-description", path=t.module.path, data=data,
                           start=t.description_node.start_byte, end=t.description_node.end_byte,
                           sections=((first, "opening"),) + sections))
    for path, doc in sorted(p.docs.items()):
        e = p.entry(path)
        if e is None or e.context:
            continue
        # HTML comments are not shown to readers: blank them (keeping line breaks) before searching.
        shown = _HTML_COMMENT.sub(lambda m: re.sub(rb"[^\n]", b" ", m.group(0)), e.file.data)
        out.append(Channel(name=f"readme:{e.rel}", kind="readme", path=path, data=shown, start=0, end=len(shown),
                           sections=((1, "opening"),) + tuple((h.line, h.text) for h in doc.headings)))
    for doc in p.manifests():
        e = p.entry(doc.path)
        out.append(Channel(name=f"manifest:{e.rel}", kind="manifest", path=doc.path, data=e.file.data, start=0,
                           end=len(e.file.data), sections=((1, "package.json"),)))
    return out


# Between two words of a quote, a channel may hold any run of white space; in source code and JSON (tool
# descriptions, package.json) also the escapes \n, \r, \t and the seams of concatenated string literals
# (`"... one " + "two ..."`); inside a word there, a quote character may be escaped (`don\'t`).
_GAP = rb"\s+"
_CODE_GAP = rb"(?:\s|\\[nrt]|[\"'`]\s*\+\s*[\"'`])+"


@lru_cache(maxsize=1024)
def _pattern(quote: str, code: bool) -> re.Pattern:
    words = [re.escape(w.encode("utf-8")) for w in quote.split()]
    if code:
        words = [re.sub(rb"\\?([\"'`])", rb"\\\\?\1", w) for w in words]
    return re.compile((_CODE_GAP if code else _GAP).join(words))


def find(channel: Channel, quote: str) -> list[Anchor]:
    return [a for a, _ in _hits(channel, quote)]


def _hits(channel: Channel, quote: str) -> list[tuple[Anchor, str]]:
    """Each place QUOTE is found in CHANNEL, with the text before it on its line (a `\\n` escape ends a line in code)."""
    out = []
    for m in _pattern(quote, channel.kind != "readme").finditer(channel.data, channel.start, channel.end):
        start = channel.data.count(b"\n", 0, m.start()) + 1
        end = start + channel.data.count(b"\n", m.start(), m.end())
        before = channel.data[max(channel.data.rfind(b"\n", 0, m.start()) + 1, channel.start):m.start()]
        if channel.kind != "readme":
            before = before.rsplit(b"\\n", 1)[-1]
        out.append((Anchor(path=channel.path, start_line=start, end_line=end), before.decode("utf-8", "replace")))
    return out


def section_of(channel: Channel, line: int) -> str:
    title = ""
    for ln, text in channel.sections:
        if ln <= line:
            title = text
    return title


def claims(p: Program, audit_records: dict, registries: list[Registry], rules: dict, kb_dir: Path, doctrine: dict) -> list[Record]:
    out: list[Record] = []
    chans = channels(p)
    addressed = {ch.name: voice.addressed(ch.data[ch.start:ch.end].decode("utf-8", "replace"), doctrine) for ch in chans}
    facts = verdicts.Facts.build(p, audit_records)
    for reg in registries:
        rel_reg = f"kb/{reg.path.relative_to(kb_dir).as_posix()}" if reg.path.is_relative_to(kb_dir) else str(reg.path)
        for i, c in enumerate(reg.data["claims"]):
            allowed = set(c.get("channels") or CONSUMERS)
            found: dict[str, tuple[Channel, list[tuple[str, Anchor, str]]]] = {}
            for j, quote in enumerate(c["quotes"]):
                for ch in chans:
                    if ch.kind in allowed:
                        for a, before in _hits(ch, quote):
                            found.setdefault(ch.name, (ch, []))[1].append((quote, a, before))
            verdict, cited, mismatch = verdicts.decide(c, facts, rules)
            base = {"seed": c.get("seed"), "operations": c["operations"],
                    "registry": f"{rel_reg}:{reg.lines[(i, 0)]}", "registry_target": reg.data["target"]}
            if not found:
                out.append(Record(category="claim", id=f"CLM:{c['id']}@stale", kind="stale",
                                  summary=f"stale claim: none of its quotes is found at this revision ({' / '.join(c['quotes'])})",
                                  anchors=(Anchor(path=rel_reg, start_line=reg.lines[(i, 0)], end_line=reg.lines[(i, 0)]),),
                                  rule="analyse.claims.find", attrs={**base, "voice": "unknown: no quote is found", "quote": " / ".join(c["quotes"]), "channel": None,
                                                                     "verdict": "stale", "routes": [], "mismatch": "quote not found in any channel"}))
                continue
            for name, (ch, hits) in sorted(found.items()):
                quotes = sorted({q for q, _, _ in hits}, key=c["quotes"].index)
                anchors = merge_anchors(a for _, a, _ in hits)
                section = section_of(ch, anchors[0].start_line)
                first = min(hits, key=lambda h: (h[1], c["quotes"].index(h[0])))  # the voice of its first instance
                said = voice.attrs(*voice.classify(first[0], ch.kind, first[2], addressed[name], doctrine), doctrine, rules)
                out.append(Record(category="claim", id=f"CLM:{c['id']}@{name}", kind=" + ".join(c["operations"]),
                                  summary=f"{' / '.join(repr(q) for q in quotes)} ({ch.kind}, {section}): {verdict} ({said['reading']} reading)",
                                  anchors=anchors, rule=f"{rel_reg}#{c['id']}",
                                  attrs={**base, **said, "quote": " / ".join(quotes), "channel": name, "section": section,
                                         "consumer": CONSUMERS[ch.kind], "verdict": verdict, "routes": cited,
                                         "mismatch": mismatch, **({"tool": c["tool"]} if "tool" in c else {})}))
    return out
