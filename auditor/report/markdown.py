"""Markdown reports from Jinja templates. Pure: render(audit) -> str; audited text escaped by filters."""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import quote

import jinja2

from auditor import cachedir, safetext
from auditor.model import Anchor, Audit
from auditor.report import views

# Markdown's inline markup characters get a backslash; < and > become entities (no HTML gets through).
_ESCAPE = str.maketrans({**{c: "\\" + c for c in "\\`*_[]|~"}, "<": "&lt;", ">": "&gt;"})
_ENTITY = re.compile(r"&(?=#?[A-Za-z0-9]+;)")  # `&x;` would be read as an entity: written `&amp;x;`


def md(value) -> str:
    """Escape untrusted text for a Markdown table cell or paragraph: no markup, no HTML, one line."""
    return _md(value if type(value) is str else str(value if value is not None else ""))


@lru_cache(maxsize=4096)  # the three reports of an audit repeat most texts (ids, summaries, anchors)
def _md(value: str) -> str:
    text = safetext.line(" ".join(value.split()))
    if "&" in text:
        text = _ENTITY.sub("&amp;", text)
    return text.translate(_ESCAPE)


def code(value) -> str:
    """An inline code span that survives any content, table pipes included."""
    return _code(value if type(value) is str else str(value if value is not None else ""))


@lru_cache(maxsize=4096)
def _code(value: str) -> str:
    text = safetext.line(" ".join(value.split()))
    if not text:
        return ""
    if "`" not in text:
        return "`" + text.replace("|", "\\|") + "`"
    fence = "`" * (max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    text = text.replace("|", "\\|")
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def anchors(values) -> str:
    out = []
    for a in values:
        a = a if isinstance(a, Anchor) else Anchor(**a)
        out.append(code(str(a)))
    return ", ".join(out)


def url(value) -> str:
    """A relative link target that no audited name can break out of: every reserved character percent-encoded."""
    return quote(str(value), safe="")


def heading(text: str, level: int = 2) -> str:
    return "#" * level + " " + md(text)


class _Environment(jinja2.Environment):
    """`x.key` on a dict (every view is made of dicts) looks the key up first. Same meaning as Jinja's default,
    which tries the attribute first and falls back to the key, minus an exception per lookup; a name that is
    also a dict method (`x.get`) still means the method."""

    _METHODS = frozenset(dir(dict))

    def getattr(self, obj, attribute):
        if type(obj) is dict and attribute not in self._METHODS:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


@lru_cache(maxsize=None)
def _env() -> jinja2.Environment:
    compiled = cachedir.folder("templates")  # Jinja checks each entry against the template's source
    env = _Environment(loader=jinja2.PackageLoader("auditor.report", "templates"), undefined=jinja2.StrictUndefined,
                       autoescape=False, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
                       bytecode_cache=jinja2.FileSystemBytecodeCache(str(compiled)) if compiled else None)
    env.filters.update(md=md, code=code, anchors=anchors, heading=heading, url=url)
    return env


def warm() -> None:
    """Compile every template now (a process about to fork workers shares them)."""
    for name in _env().list_templates(extensions=["jinja"]):
        _env().get_template(name)


def render_template(template: str, context: dict) -> str:
    text = _env().get_template(template).render(**context)
    # The filters made every audited text visible; this holds for any text a template shows without them.
    return safetext.text(re.sub(r"\n{3,}", "\n\n", text).rstrip("\n") + "\n")


def evidence_packet(audit: Audit) -> str:
    return render_template("evidence-packet.md.jinja", views.packet(audit))


def runtime_baseline(audit: Audit) -> str:
    return render_template("runtime-baseline.md.jinja", views.baseline(audit))


def epistemic_ledger(audit: Audit) -> str:
    return render_template("epistemic-ledger.md.jinja", views.ledger(audit))


# coupling: cli._renderers maps --format md/all through this table.
RENDERERS = {"evidence-packet.md": evidence_packet, "runtime-baseline.md": runtime_baseline,
             "epistemic-ledger.md": epistemic_ledger}
