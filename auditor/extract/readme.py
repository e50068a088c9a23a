"""Markdown documents: headings, list items and fenced code blocks, each with its lines."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True, kw_only=True, slots=True)
class Heading:
    level: int
    text: str
    line: int


@dataclass(frozen=True, kw_only=True, slots=True)
class Item:
    text: str
    line: int
    end_line: int
    section: str  # the nearest heading above


@dataclass(frozen=True, kw_only=True, slots=True)
class Fence:
    info: str
    content: str
    line: int  # the opening fence
    end_line: int  # the closing fence
    section: str


@dataclass(frozen=True, kw_only=True, slots=True)
class MarkdownDoc:
    path: str
    headings: tuple[Heading, ...]
    items: tuple[Item, ...]
    fences: tuple[Fence, ...]
    total_lines: int


@lru_cache(maxsize=1)
def _parser():
    # Building a MarkdownIt compiles its rule chains: once per process, not once per document.
    from markdown_it import MarkdownIt

    # Only block structure is read (headings, list items, fences, with the raw text of their inline content):
    # the inline pass, which would split that text into child tokens nobody reads, is switched off.
    return MarkdownIt("commonmark").disable("inline")


def read_markdown(path: str, text: str) -> MarkdownDoc:
    tokens = _parser().parse(text)
    headings, items, fences = [], [], []
    section = ""
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.map:
            section = tokens[i + 1].content
            headings.append(Heading(level=int(tok.tag[1]), text=section, line=tok.map[0] + 1))
        elif tok.type == "list_item_open" and tok.map:
            inline = next((t for t in tokens[i + 1:] if t.type == "inline"), None)
            if inline is not None:
                items.append(Item(text=inline.content, line=tok.map[0] + 1, end_line=tok.map[1], section=section))
        elif tok.type == "fence" and tok.map:
            fences.append(Fence(info=tok.info.strip(), content=tok.content, line=tok.map[0] + 1,
                                end_line=tok.map[1], section=section))
    return MarkdownDoc(path=path, headings=tuple(headings), items=tuple(items), fences=tuple(fences),
                       total_lines=len(text.splitlines()))
