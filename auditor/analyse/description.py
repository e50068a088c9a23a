"""Split tool descriptions into assertive and directive parts; find relabelled instructions and stripped hedges."""

from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter as ts

from auditor.extract.facts import Program
from auditor.extract.records import line, record
from auditor.extract.scope import server_readmes
from auditor.extract.values import Values
from auditor.model import Record

ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(.*)$")


@dataclass(frozen=True, kw_only=True, slots=True)
class Part:
    tool: str
    path: str
    line: int
    text: str
    section: str
    kind: str  # assertive | directive | parameter-doc | capability-grant


def parts(p: Program, kb: dict) -> list[Part]:
    out = []
    for t in p.tools:
        if not t.description or t.description_node is None:
            continue
        node, path = _written(p, t)
        first = node.start_point[0] + 1
        # Line i of the text is line FIRST + i of the file only where one literal holds it as it is written (not a
        # concatenation, nor a template whose substitutions may hold lines of their own): else each part is anchored
        # at the literal's first line.
        exact = node.type == "string" or node.type == "template_string" and not any(
            c.type == "template_substitution" for c in node.named_children)
        section, part = "opening", "assertive"
        for i, raw in enumerate(t.description.splitlines()):
            text = raw.strip()
            if not text:
                continue
            m = ITEM.match(raw)
            if m is None and text.endswith(":"):
                section = text.rstrip(":")
                part = next((s["part"] for s in kb["sections"] if re.search(s["pattern"], section)), kb["default_part"])
                continue
            body = m.group(1) if m else text
            kind = next((it["kind"] for it in kb["items"] if re.search(it["pattern"], body)), part)
            out.append(Part(tool=t.name, path=path, line=first + i if exact else first, text=body, section=section,
                            kind=kind))
    return out


def _written(p: Program, t) -> tuple[ts.Node, str]:
    """The node that writes TOOL's description and its file: the string a name bound to it stands for (`description:
    TOOL_DESCRIPTION`, the constant declared above or imported), in whatever module declares it."""
    node = t.description_node
    module = (p.linker.module_of(node) if p.linker is not None else None) or t.module
    if p.linker is not None and node.type in {"identifier", "shorthand_property_identifier", "member_expression"}:
        found, where = Values(p.linker).definition(node, module)
        if found is not None and found.type in {"string", "template_string"}:
            node, module = found, where
    return node, module.path


def _stem(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    word = word.rstrip("s") if len(word) > 3 else word
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def _content(text: str, stop: set[str]) -> set[str]:
    return {_stem(w) for w in re.findall(r"[a-z]+", text.lower()) if w not in stop}


def objects(ps: list[Part]) -> list[Record]:
    out = []
    for tool in sorted({x.tool for x in ps}):
        mine = [x for x in ps if x.tool == tool]
        for kind in ("assertive", "capability-grant", "directive", "parameter-doc"):
            chosen = [x for x in mine if x.kind == kind]
            if not chosen:
                continue
            truth = {"assertive": "truth-apt assertions about the tool", "capability-grant": "second-person grants to the model",
                     "directive": "instructions to the model (not truth-apt)", "parameter-doc": "parameter documentation"}[kind]
            out.append(record("object", "OBJ", "description-part", f"{tool}/{kind}",
                              f"{kind} part of the description of tool {tool!r}: {len(chosen)} line(s), {truth}; sections: "
                              + ", ".join(dict.fromkeys(x.section for x in chosen)),
                              [line(x.path, x.line) for x in chosen], "analyse.description.parts",
                              tool=tool, part=kind, items=[{"line": x.line, "text": x.text, "section": x.section} for x in chosen]))
    return out


def findings(ps: list[Part], kb: dict) -> list[Record]:
    stop = set(kb["stopwords"])
    out = []
    for tool in sorted({x.tool for x in ps}):
        features = [x for x in ps if x.tool == tool and x.kind == "assertive" and x.section != "opening"]
        directives = [x for x in ps if x.tool == tool and x.kind == "directive"]
        for f in features:
            words = _content(f.text, stop)
            if len(words) < 2:
                continue
            best = max(directives, key=lambda d: len(words & _content(d.text, stop)), default=None)
            if best is None or len(words & _content(best.text, stop)) / len(words) < kb["relabel_threshold"]:
                continue
            slug = "-".join(sorted(words))[:60]
            out.append(record("finding", "FND", "relabelled-instruction", f"{tool}/{slug}",
                              f"feature {f.text!r} ({f.section}) restates the instruction to the model {best.text!r} ({best.section}) "
                              "as something the tool does", [line(f.path, f.line), line(best.path, best.line)],
                              "analyse.description.relabel", tool=tool, feature=f.text, instruction=best.text))
            stripped = [h for h in kb["hedges"] if re.search(rf"\b{re.escape(h)}\b", best.text, re.I)
                        and not re.search(rf"\b{re.escape(h)}\b", f.text, re.I)]
            if stripped:
                out.append(record("finding", "FND", "hedge-stripped", f"{tool}/{slug}",
                                  f"the instruction {best.text!r} is hedged ({', '.join(stripped)}); the feature {f.text!r} states it without the hedge",
                                  [line(f.path, f.line), line(best.path, best.line)], "analyse.description.hedges",
                                  tool=tool, hedges=stripped))
    return out


def candidates(p: Program, ps: list[Part], claim_records: list[Record], kb: dict) -> list[Record]:
    """Capability statements not covered by a registered claim: keep the registry complete."""
    covered = {(a.path, ln) for c in claim_records for a in c.anchors for ln in range(a.start_line, a.end_line + 1)}
    out = []
    for x in ps:
        if x.kind in {"assertive", "capability-grant"} and (x.path, x.line) not in covered:
            out.append(_candidate(f"tool-description:{x.tool}", x.text, line(x.path, x.line), x.section))
    for e, doc in server_readmes(p):  # the package's own README only (kb/sdk.yaml package_readme)
        path = e.file.path
        for it in doc.items:
            if re.search(kb["readme_claim_sections"], it.section) and (path, it.line) not in covered and " " in it.text.strip():
                out.append(_candidate(f"readme:{e.rel}", it.text, line(path, it.line, it.end_line), it.section))
    for d in p.manifests():
        desc = (d.value or {}).get("description") if isinstance(d.value, dict) else None
        span = d.keys.get("description")
        if desc and span and (d.path, span[0]) not in covered:
            out.append(_candidate(f"manifest:{p.entry(d.path).rel}", desc, line(d.path, *span), "description"))
    return out


def _candidate(channel: str, text: str, anchor, section: str) -> Record:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]
    return record("candidate", "CND", "unregistered-claim", f"{channel}/{slug}", f"unregistered claim candidate in {channel} ({section}): {text!r}",
                  [anchor], "analyse.description.candidates", channel=channel, text=text, section=section)
