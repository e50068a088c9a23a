"""Markdown documents: headings, list items, fenced code blocks, tables and HTML `<details>` blocks, each with its
lines."""

from __future__ import annotations

import re
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
    lead: str = ""  # the paragraph that introduces the item's list ("Parameters:"), when one does


@dataclass(frozen=True, kw_only=True, slots=True)
class Fence:
    info: str
    content: str
    line: int  # the opening fence
    end_line: int  # the closing fence
    section: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Row:
    cells: tuple[str, ...]  # the raw text of each cell
    line: int


@dataclass(frozen=True, kw_only=True, slots=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[Row, ...]
    line: int  # the header row
    section: str
    lead: str = ""  # the paragraph right before the table, when there is one


@dataclass(frozen=True, kw_only=True, slots=True)
class Paragraph:
    text: str
    line: int
    end_line: int
    section: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Details:
    """An HTML `<details>` block: its `<summary>` (tags removed, `<code>x</code>` as `x` in backticks), from the
    opening tag to the closing one (the end of the document when it is never closed)."""
    summary: str
    line: int
    end_line: int
    section: str


@dataclass(frozen=True, kw_only=True, slots=True)
class MarkdownDoc:
    path: str
    headings: tuple[Heading, ...]
    items: tuple[Item, ...]
    fences: tuple[Fence, ...]
    total_lines: int
    tables: tuple[Table, ...] = ()
    paragraphs: tuple[Paragraph, ...] = ()  # prose outside lists and tables
    details: tuple[Details, ...] = ()  # by opening line; nested blocks each have their own


@lru_cache(maxsize=1)
def _parser():
    # Building a MarkdownIt compiles its rule chains: once per process, not once per document.
    from markdown_it import MarkdownIt

    # Only block structure is read (headings, list items, fences, tables, with the raw text of their inline content):
    # the inline pass, which would split that text into child tokens nobody reads, is switched off. Tables are GFM's.
    return MarkdownIt("commonmark").disable("inline").enable("table")


def read_markdown(path: str, text: str) -> MarkdownDoc:
    tokens = _parser().parse(text)
    headings, items, fences, tables, paragraphs = [], [], [], [], []
    details: list[Details] = []
    opened: list[tuple[int, str, str]] = []  # the <details> blocks open at this point: (line, summary, section)
    section = ""
    leads: list[str] = []  # of the lists open at this point, innermost last
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.map:
            section = tokens[i + 1].content
            headings.append(Heading(level=int(tok.tag[1]), text=section, line=tok.map[0] + 1))
        elif tok.type in {"bullet_list_open", "ordered_list_open"}:
            leads.append(_lead(tokens, i))
        elif tok.type in {"bullet_list_close", "ordered_list_close"}:
            leads.pop()
        elif tok.type == "list_item_open" and tok.map:
            inline = next((t for t in tokens[i + 1:] if t.type == "inline"), None)
            if inline is not None:
                items.append(Item(text=inline.content, line=tok.map[0] + 1, end_line=tok.map[1], section=section,
                                  lead=leads[-1] if leads else ""))
        elif tok.type == "fence" and tok.map:
            fences.append(Fence(info=tok.info.strip(), content=tok.content, line=tok.map[0] + 1,
                                end_line=tok.map[1], section=section))
        elif tok.type == "table_open" and tok.map:
            tables.append(_table(tokens, i, section))
        elif tok.type == "paragraph_open" and tok.map and not leads and i + 1 < len(tokens) and tokens[i + 1].type == "inline":
            paragraphs.append(Paragraph(text=tokens[i + 1].content, line=tok.map[0] + 1, end_line=tok.map[1], section=section))
        elif tok.type == "html_block" and tok.map:
            _html(tok.content, tok.map[0] + 1, section, opened, details)
    total = len(text.splitlines())
    details += [Details(summary=s, line=ln, end_line=total, section=sec) for ln, s, sec in opened]
    return MarkdownDoc(path=path, headings=tuple(headings), items=tuple(items), fences=tuple(fences),
                       total_lines=total, tables=tuple(tables), paragraphs=tuple(paragraphs),
                       details=tuple(sorted(details, key=lambda d: (d.line, d.end_line))))


_DETAILS_TAG = re.compile(r"(?is)<(?P<close>/)?details\b[^>]*>|<summary\b[^>]*>(?P<summary>.*?)</summary\s*>")
_CODE_TAG = re.compile(r"(?is)<code\b[^>]*>(.*?)</code\s*>")
_TAG = re.compile(r"<[^>]*>")


def _html(content: str, line: int, section: str, opened: list[tuple[int, str, str]], details: list[Details]) -> None:
    """Reads the `<details>`, `<summary>` and `</details>` tags of an HTML block starting at LINE: opens a block on
    OPENED, gives the innermost open one its summary, closes it into DETAILS."""
    for m in _DETAILS_TAG.finditer(content):
        ln = line + content.count("\n", 0, m.start())
        if m["summary"] is not None:
            if opened and not opened[-1][1]:
                summary = _TAG.sub("", _CODE_TAG.sub(lambda c: f"`{c[1]}`", m["summary"]))
                opened[-1] = (opened[-1][0], " ".join(summary.split()), opened[-1][2])
        elif m["close"]:
            if opened:
                start, summary, sec = opened.pop()
                details.append(Details(summary=summary, line=start, end_line=ln, section=sec))
        else:
            opened.append((ln, "", section))


def _table(tokens: list, i: int, section: str) -> Table:
    """The table opened at tokens[i]: its header cells and, for each body row, its cells and line."""
    rows: list[tuple[list[str], int]] = []
    j = i + 1
    while j < len(tokens) and tokens[j].type != "table_close":
        t = tokens[j]
        if t.type == "tr_open" and t.map:
            rows.append(([], t.map[0] + 1))
        elif t.type == "inline" and rows:
            rows[-1][0].append(t.content)
        j += 1
    header, line = (tuple(rows[0][0]), rows[0][1]) if rows else ((), tokens[i].map[0] + 1)
    return Table(header=header, rows=tuple(Row(cells=tuple(c), line=ln) for c, ln in rows[1:]), line=line,
                 section=section, lead=_lead(tokens, i))


def _lead(tokens: list, i: int) -> str:
    """The text of the paragraph right before the list opened at tokens[i], at the same depth ("" when the list
    follows a heading, or nothing). After another list, the last line of that list's last paragraph when it ends with
    a colon: a label ("**Parameters:**") whose list is indented too little to nest in its item (three spaces under
    `10. `) and so starts a list of its own."""
    level = tokens[i].level
    j = i - 1
    while j >= 0 and tokens[j].level > level:
        j -= 1
    if j >= 2 and tokens[j].type == "paragraph_close" and tokens[j].level == level and tokens[j - 1].type == "inline":
        return tokens[j - 1].content
    if j >= 2 and tokens[j].type in {"bullet_list_close", "ordered_list_close"} and tokens[j].level == level \
            and tokens[j - 1].type == "list_item_close" and tokens[j - 2].type == "paragraph_close" \
            and tokens[j - 3].type == "inline":
        last = tokens[j - 3].content.rstrip().rsplit("\n", 1)[-1].strip()
        return last if last.rstrip("*_ ").endswith(":") else ""
    return ""
