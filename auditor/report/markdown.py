"""Markdown reports from Jinja templates. Pure: render(audit) -> str; audited text escaped by filters."""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import quote

import jinja2

from auditor import cachedir, safetext
from auditor.model import Anchor, Audit
from auditor.report import links, views

# Markdown's inline markup characters get a backslash; < becomes an entity (no HTML, no autolink gets through). A `>`
# without a `<` is markup only at the start of a line (a block quote): there it gets a backslash, elsewhere it is
# left as is (`a -> b`).
_ESCAPE = str.maketrans({**{c: "\\" + c for c in "\\`*[]|~"}, "<": "&lt;"})
# `_` between two letters or digits can neither open nor close emphasis (CommonMark's flanking rules): it is left as
# is (`tool_name`); any other `_` gets a backslash. Run on the escaped text: escaping only adds a backslash
# before punctuation or turns `<` into `&lt;`, so a letter or digit beside a `_` was beside it in the input.
_UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")
_ENTITY = re.compile(r"&(?=#?[A-Za-z0-9]+;)")  # `&x;` would be read as an entity: written `&amp;x;`
# A backtick span of one line of text (the auditor's summaries quote code so): as in CommonMark, a run of backticks
# opens it and the next run of the same length closes it (a quoted template literal is written ``x ${y}``).
_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")


def md(value) -> str:
    """Escape untrusted text for a Markdown table cell or paragraph: no markup, no HTML, one line. A span between
    two backticks is shown as a code span (`code`); a backtick without a partner is escaped."""
    return _md(value if type(value) is str else str(value if value is not None else ""))


@lru_cache(maxsize=4096)  # the three reports of an audit repeat most texts (ids, summaries, anchors)
def _md(value: str) -> str:
    text = safetext.line(" ".join(value.split()))
    out, pos = [], 0
    for m in _SPAN.finditer(text):
        inner = m.group(2)
        if inner.strip():  # spaces at the span's edges stay outside it (a code span would drop them)
            out += [_plain(text[pos:m.start()]), " " * (inner[0] == " "), _code(inner), " " * (inner[-1] == " ")]
            pos = m.end()
    out.append(_plain(text[pos:]))
    text = "".join(out)
    return "\\" + text if text.startswith(">") else text


def _plain(text: str) -> str:
    if "&" in text:
        text = _ENTITY.sub("&amp;", text)
    text = text.translate(_ESCAPE)
    return _UNDERSCORE.sub(r"\\_", text) if "_" in text else text


def code(value) -> str:
    """An inline code span that survives any content, table pipes included: its fence is one backtick longer than
    the longest run of backticks inside (CommonMark), and a space pads content that starts or ends with one."""
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


@jinja2.pass_context
def anchors(ctx, values) -> str:
    """Anchors as code spans; each a link to its lines at the pinned commit when the repository's web address is
    known (the `link` of the context), else plain `path:line`."""
    link = ctx.get("link")
    out = []
    for a in values:
        a = a if isinstance(a, Anchor) else Anchor(**a)
        text = code(str(a))
        out.append(f"[{text}]({links.blob_url(link['base'], link['commit'], a)})" if link else text)
    return ", ".join(out)


def aid(record_id: str, kind: str = "") -> str:
    """An HTML anchor to link to (a record's row, a tool's section): an id of [a-z0-9-] only."""
    return f'<a id="{links.anchor_id(str(record_id), kind)}"></a>'


def ref(record_id, page: str = "", kind: str = "") -> str:
    """A link to the record's row (in PAGE, another report of the same folder, or this one): its id as a code span."""
    return f"[{code(record_id)}]({page}#{links.anchor_id(str(record_id), kind)})"


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
    env.filters.update(md=md, code=code, anchors=anchors, heading=heading, url=url, aid=aid, ref=ref,
                       anchor_id=lambda i, kind="": links.anchor_id(str(i), kind))
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
