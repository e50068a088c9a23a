"""What a README documents, read from its Markdown structure: tools with their parameters (headings, lists and tables
under a Tools heading, tables with a Tool column anywhere), environment variables."""

from __future__ import annotations

import re
from dataclasses import dataclass

from auditor.extract.limits import MAX_DEPTH, load_json
from auditor.extract.readme import Item, MarkdownDoc, Table
from auditor.model import Anchor

_COMMENT = re.compile(r"<!--.*?-->", re.S)
TOOLS_HEADING = re.compile(r"(?i)^\W*(?:available\s+|provided\s+|mcp\s+)?tools?(?:\s+(?:available|provided|reference|list))?\W*$")
_NAME = r"[A-Za-z][\w.-]*"
# A capitalised plain word (`Organizations`, `Search`): in bold, not in code, the label of a group of tools, not a name.
LABEL_WORD = re.compile(r"[A-Z][a-z]+")
TOOL_ITEM = re.compile(rf"^(?:\d+[.)]\s*)?(?P<bold>\*\*|__)?(?P<tick>`)?(?P<name>{_NAME})`?(?:\*\*|__)?(?=\s*(?:$|:(?!//)|\(|\s[-—–]\s))")
PARAM_PREFIX = re.compile(r"(?i)^\s*(?:(?:required|optional)\s+)?(?:inputs?|parameters?|params?|arguments?|args?)\s*:\s*")
PARAM = re.compile(r"`(?P<name>[A-Za-z_$][\w$]*)`\s*(?:\((?P<spec>[^)]*)\))?")
# A list introduced by a paragraph like these ("Parameters:", "**Possible statuses:**") lists no tools.
NOT_TOOLS_LEAD = re.compile(r"(?i)\b(inputs?|param(?:eter)?s?|arguments?|args?|options?|fields?|returns?|outputs?|"
                            r"responses?|results?|status(?:es)?|values?|examples?|recommended|notes?)\b")
# A label over a list of names that are events a tool subscribes to or sends ("**Webhook Events:**"): no tools, unless
# it says tools ("**Calendar event tools:**"). (Not said of a sub-heading: "### Real-time Events" heads the tools
# that subscribe.)
EVENTS_LEAD = re.compile(r"(?i)\b(?:events?|notifications?)\b")
# A sub-heading of a Tools section that names what a server serves besides tools ("### MCP Prompts", "### Resources"):
# what it lists is not tools.
OTHER_KINDS = re.compile(r"(?i)\b(?:prompts?|resources?|resource\s+templates?)\b")
# A paragraph that is a bold label alone ("**Returns:**", "**Example prompts:**"): it names the part of a section below it.
BOLD_LABEL = re.compile(r"(?:\*\*|__)[^*_\n]{1,60}:?(?:\*\*|__):?")
# A list a tool's section introduces as commands, actions or kinds ("**Enhanced UI Interaction Commands**:",
# "**Available Node Types:**") lists the values one of its arguments takes, not its parameters.
VALUES_LEAD = re.compile(r"(?i)\b(?:commands?|actions?|operations?|modes?|types?|kinds?|formats?)\b")
# A list a tool's section introduces as tools ("Runtime tools exposed by the framework:") names tools, not its parameters
# (the plural: "This tool takes:" introduces parameters).
TOOLS_LEAD = re.compile(r"(?i)\btools\b")
# A paragraph before a list or table that says what it names is not served here ("These exist only on the hosted
# endpoint; this server does not list them", "not available in the npm package"): the rows are no claim about this
# server.
NOT_HERE = re.compile(r"(?i)\b(?:does|do|will|can)\s*(?:not|n't)\s+(?:list|expose|register|ship|offer|serve)"
                      r"\b|\bnot\s+(?:available|listed|exposed|registered|served)\s+(?:in|by|on|here|through"
                      r"|via|from)\b|\bexists?\s+only\s+(?:there|in|on)\b")
# What a README says of a tool it no longer serves, in the text beside its name ("`search` - Removed in 2.0",
# "(no longer available)", "has been removed"): no claim that the server provides it. "Deprecated" alone is not
# withdrawn: a deprecated tool ("Deprecated alias for `fetch`") is still one the README says the server serves.
WITHDRAWN = re.compile(r"(?i)^\W*(?:removed|obsolete|discontinued|retired)\b|\bno\s+longer\s+(?:available|"
                       r"supported|exists?|works?|offered|provided)\b|\b(?:has|have)\s+been\s+(?:removed|"
                       r"discontinued|retired)\b")
# A parameter item whose description ends by introducing a list ("`data`: Object containing:"; not a bare "`a`:").
INTRODUCES = re.compile(r"(?s)[:\u2014\u2013-]\s*\S.*:$")
HEADING_CODE = re.compile(r"`([A-Za-z][\w.-]*)`")
# A heading naming tools by a pattern (`` `bash_sandbox_*` ``, `browser_*`): the family, not one tool.
WILDCARD = re.compile(r"[A-Za-z][\w.-]*\*(?:`|\s|$)")
# A paragraph that introduces what a tool gives back ("**Returns:**", "Output:"): the lists after it, until one an input
# paragraph introduces, are fields of its result.
OUTPUT_LEAD = re.compile(r"(?i)\b(?:returns?|outputs?|responses?|results?)\b")
INPUT_CONTEXT = re.compile(r"(?i)\b(inputs?|param(?:eter)?s?|arguments?|args?|options?|optional|required)\b")
ENV_OBJECT = re.compile(r'"env"\s*:\s*\{(?P<body>[^{}]*)\}', re.S)
ENV_KEY = re.compile(r'"(?P<name>[A-Za-z_][A-Za-z0-9_]*)"\s*:')
ASSIGNMENTS = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*=(?:\"[^\"]*\"|'[^']*'|\S*)\s*)+")
LAUNCH_COMMAND = re.compile(r'"command"\s*:\s*"(?P<command>[^"]*)"')
LAUNCH_ARGS = re.compile(r'"args"\s*:\s*\[(?P<items>[^\[\]]*)\]', re.S)
DOCKER_ENV = re.compile(r'(?:^|[\s"\'\[,])(?P<opt>-e|--env)[\s"\',]+(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?=[=\s"\',\]]|$)')
# `node -e "..."`: the option evaluates the script that follows; it names no variable
EVALUATES = re.compile(r"\b(?:node|nodejs|bun)(?:\s+-{1,2}[\w-]+)*\s+-e$")
SHELL_ENV = re.compile(r"^\s*(?:export\s+|set\s+)?(?P<name>[A-Z][A-Z0-9_]*)=", re.M)
# Prose and tables: a code span in capitals (`LOG_LEVEL`) where the text speaks of the environment.
ENV_WORDS = re.compile(r"(?i)\b(?:env(?:ironment)?|env\s+vars?)\b")
ENV_SPAN = re.compile(r"`(?P<name>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)(?:=[^`]*)?`")
ENV_COLUMN = re.compile(r"(?i)^(?:(?:environment|env)\s+)?(?:variables?|vars?)$|^env(?:ironment)?$")
ENV_NAME_COLUMN = re.compile(r"(?i)^(?:name|key|setting)$")
# Table columns (the header cell, without emphasis or code marks). A column that says "tool" names the tools of the
# table wherever it is; a generic name column names them only under a Tools heading. A table with a column of
# types, defaults or whether a value is required lists parameters or settings, not tools.
TOOL_COLUMN = re.compile(r"(?i)^(?:mcp\s+)?tool(?:\s+name)?$")
NAME_COLUMN = re.compile(r"(?i)^(?:name|command|function|method)$")
DESCRIPTION_COLUMN = re.compile(r"(?i)^(?:description|purpose|summary|what it does|details?)$")
PARAMS_COLUMN = re.compile(r"(?i)^(?:(?:key|main|required)\s+)?(?:param(?:eter)?s?|arguments?|args|inputs?)\b")
# A column of a table of parameters (type, required, default), or of programs to install first (`| Tool | Install |`:
# the prerequisites, not the server's tools).
NOT_TOOLS_COLUMN = re.compile(r"(?i)^(?:type|required|optional|default(?:\s+value)?|install(?:ation)?(?:\s+command)?)$")
_CELL_PARAM = r"`?(?P<name>[A-Za-z_$][\w$]*)(?P<opt>\?)?`?(?:\s*\((?P<spec>[^)]*)\))?"
CELL_PARAM = re.compile(_CELL_PARAM)
CELL_PARAMS = re.compile(r"^{0}(?:\s*(?:,|;|<br\s*/?>)\s*{0})*$".format(re.sub(r"\?P<\w+>", "", _CELL_PARAM)))
@dataclass(frozen=True, kw_only=True, slots=True)
class DocParam:
    name: str
    type: str | None
    optional: bool | None  # True: documented optional; False: documented required; None: not said
    anchor: Anchor


@dataclass(frozen=True, kw_only=True, slots=True)
class DocTool:
    name: str
    anchor: Anchor
    section: str
    params: tuple[DocParam, ...]
    description: str = ""  # the description a table gives the tool


def _clean(s: str) -> str:
    return _COMMENT.sub("", s).strip()


def _contains(outer: Item, inner: Item) -> bool:
    return outer.line < inner.line and inner.end_line <= outer.end_line


def _spec(spec: str | None) -> tuple[str | None, bool | None]:
    parts = [x.strip().lower() for x in (spec or "").split(",") if x.strip()]
    typ = parts[0] if parts and not re.match(r"(optional|required|default)", parts[0]) else None
    if any(x.startswith(("optional", "default")) for x in parts):
        return typ, True
    return typ, (False if "required" in parts else None)


def _item_params(it: Item) -> list[tuple[str, str | None]]:
    """(name, spec) of the parameters an item documents: "`p` (type, optional): ...", "Input: `p` (type)"."""
    rest = PARAM_PREFIX.sub("", _clean(it.text), count=1)
    out, pos = [], 0
    while True:
        m = PARAM.match(rest, pos)
        if m is None:
            break
        out.append((m["name"], m["spec"]))
        sep = re.match(r"\s*(?:,|\band\b)\s*", rest[m.end():])
        if sep is None:
            break
        pos = m.end() + sep.end()
    return out


def _params(path: str, items: list[Item]) -> tuple[DocParam, ...]:
    """Parameters documented by the items of one tool; items nested under a parameter (the
    properties of an object or array parameter) are not parameters of the tool."""
    found = {id(it): _item_params(it) for it in items}
    fields = _introduced_fields(items, found)
    results, taken = _labelled_names(items, OUTPUT_LEAD), _labelled_names(items, INPUT_CONTEXT)
    out: list[DocParam] = []
    output = False  # after a list the section introduces as what the tool gives back ("**Returns:**")
    for it in sorted(items, key=lambda x: x.line):
        lead = _introduction(it)
        if lead and (OUTPUT_LEAD.search(lead) or INPUT_CONTEXT.search(lead)):
            output = bool(OUTPUT_LEAD.search(lead)) and not INPUT_CONTEXT.search(lead)
        if not found[id(it)] or id(it) in fields or _of_result(found[id(it)], it.line, results, taken):
            continue
        if output and lead:
            continue  # ("**Returns:**" then "Each diagnostic includes:": the fields of what it returns)
        if lead and (NOT_TOOLS_LEAD.search(lead) or TOOLS_LEAD.search(lead) or VALUES_LEAD.search(lead)
                     or {w.lower() for w in re.findall(r"\w+", lead)} & {d.name.lower() for d in out}) \
                and not INPUT_CONTEXT.search(lead):
            continue  # "Possible statuses:", "Example:": values, not parameters; "Tools it lists:": names, not
            # parameters; "Enhanced UI Interaction Commands:": the values of a `command` argument; "Component
            # Qualifiers:" below a documented `qualifiers`: that parameter's values
        parents = [o for o in items if _contains(o, it)]
        if any(found[id(o)] for o in parents):
            continue
        context = max(parents, key=lambda o: o.line, default=None)
        if context is not None and not INPUT_CONTEXT.search(_clean(context.text)):
            continue  # fields of what the tool returns, features, examples: not its parameters
        said = None
        if context is not None:
            said = True if re.search(r"(?i)\boptional\b", context.text) else False if re.search(r"(?i)\brequired\b", context.text) else None
        for name, spec in found[id(it)]:
            typ, optional = _spec(spec)
            out.append(DocParam(name=name, type=typ, optional=optional if optional is not None else said,
                                anchor=Anchor(path=path, start_line=it.line, end_line=it.line)))
    return tuple(out)


def _of_result(params: list[tuple[str, str | None]], line: int, results: dict[str, int],
               taken: dict[str, int]) -> bool:
    """Whether an item at LINE naming PARAMS (name, spec) speaks of the tool's result: no type given, every name one an
    "Output:" line above it gives (RESULTS) and no "Input:" line does (TAKEN): `allowed_users` and `allowed_groups`
    after "Output: `{ ..., allowed_users, allowed_groups }`"."""
    return all(spec is None for _, spec in params) and all(
        results.get(n, line) < line and n not in taken for n, _ in params)


LABELLED = re.compile(r"^\W*(?P<label>\w+(?:\s+\w+)?)\W*:\s*(?P<rest>.*`.*)$", re.S)


def _labelled_names(items: list[Item], label: re.Pattern) -> dict[str, int]:
    """The names the code spans of the items labelled so name ("Output: `{ topic_id, slug, posts }`", "Input: `{
    topic_id: number }`"), each with the first line that names it: the fields of what the tool gives back, or of
    what it takes."""
    out: dict[str, int] = {}
    for it in sorted(items, key=lambda x: x.line):
        m = LABELLED.match(_clean(it.text))
        if m and label.fullmatch(m["label"].strip()):
            for span in re.findall(r"`([^`]*)`", m["rest"]):
                for w in re.findall(r"[A-Za-z_$][\w$]*", span):
                    out.setdefault(w, it.line)
    return out


def _introduced_fields(items: list[Item], found: dict[int, list]) -> set[int]:
    """The items (by id) a parameter item introduces without nesting them: after "`data`: Object containing:" with no
    item inside it, the items that follow it in the same list (indented too little to nest) are its fields."""
    out: set[int] = set()
    intro = [it for it in items if found[id(it)] and INTRODUCES.search(_clean(it.text)) and not any(_contains(it, x) for x in items)]
    parents = {id(x): [id(o) for o in items if _contains(o, x)] for x in items} if intro else {}
    for it in intro:
        out |= {id(x) for x in items if x.line > it.line and parents[id(x)] == parents[id(it)]}
    return out


def documented_tools(doc: MarkdownDoc) -> list[DocTool]:
    """Tools a README documents: name-like headings, list items or table rows under a Tools heading, with the
    parameters listed beneath each (or in the row), and the rows of a table with a Tool column anywhere."""
    out: list[DocTool] = []
    heads = list(doc.headings)
    read: set[int] = set()  # the tables already read as tool tables (by line)
    for i, h in enumerate(heads):
        if not TOOLS_HEADING.match(_clean(h.text)):
            continue
        end = next((x.line for x in heads[i + 1:] if x.level <= h.level), doc.total_lines + 1)
        subs = [x for x in heads[i + 1:] if x.line < end]
        regions = []
        named = dict(tool_headings(subs))
        for j, sub in enumerate(subs):
            name = named.get(sub.line)
            if name is None and (OTHER_KINDS.search(_clean(sub.text)) or NOT_TOOLS_LEAD.search(_clean(sub.text))) \
                    and not TOOLS_LEAD.search(_clean(sub.text)):
                below = next((x.line for x in subs[j + 1:] if x.level <= sub.level), end)
                regions.append((sub.line, below))  # `### MCP Prompts`, `### Search Engines (se parameter)` in a
                # Tools section: what it lists is no tools
            if name is not None:
                stop = subs[j + 1].line if j + 1 < len(subs) else end
                regions.append((sub.line, stop))
                items = [it for it in doc.items if sub.line < it.line < stop]
                if WITHDRAWN.search(re.sub(r"^\W*\S+", "", _clean(sub.text), count=1)):
                    continue  # (`### search (deprecated)`: a tool withdrawn, its parameters with it)
                out.append(DocTool(name=name, anchor=Anchor(path=doc.path, start_line=sub.line, end_line=sub.line),
                                   section=h.text, params=_params(doc.path, items)))
        for d in doc.details:  # a <details> block whose <summary> names a tool is that tool's section, as a sub-heading is
            name = _heading_tool(d.summary) if h.line < d.line < end else None
            if name is None or any(a <= d.line < b for a, b in regions):
                continue
            regions.append((d.line, d.end_line + 1))
            items = [it for it in doc.items if d.line < it.line < d.end_line]
            out.append(DocTool(name=name, anchor=Anchor(path=doc.path, start_line=d.line, end_line=d.line),
                               section=h.text, params=_params(doc.path, items)))
        inside = [it for it in doc.items if h.line < it.line < end and not any(a <= it.line < b for a, b in regions)]
        for it in inside:
            if any(_contains(o, it) for o in inside):
                continue
            item = _clean(it.text)
            m = TOOL_ITEM.match(item)
            if m is None or not (m["bold"] or m["tick"] or re.search(r"[_-]", m["name"])):
                continue
            rest = item[m.end():]
            group = _grouped(item, m)
            if not m["tick"] and LABEL_WORD.fullmatch(m["name"]) and not group:
                continue  # `- **Organizations**: List, create...`: a capitalised word in bold labels a group of tools
            if m["tick"] and "." in m["name"] and rest.startswith("("):
                continue  # `- `toolkit.users()`: ...`: a method called on an object of the code, not a tool's name
            if group:  # `- **Session**: `lock`, `unlock``: a label over the tools it lists
                out += [DocTool(name=name, anchor=Anchor(path=doc.path, start_line=it.line, end_line=it.line),
                                section=h.text, params=()) for name in group]
                continue
            if any(NOT_TOOLS_LEAD.search(lead) or EVENTS_LEAD.search(lead) and not TOOLS_LEAD.search(lead)
                   for lead in (_introduction(it), _label(doc, it))) \
                    or NOT_HERE.search(_clean(it.lead)) or WITHDRAWN.search(rest.splitlines()[0] if rest else ""):
                continue  # the list of a tool's parameters, or of the values it returns, or of tools served elsewhere,
                # or a tool withdrawn
            items = [x for x in inside if _contains(it, x)]
            out.append(DocTool(name=m["name"], anchor=Anchor(path=doc.path, start_line=it.line, end_line=it.line),
                               section=h.text, params=_params(doc.path, items)))
        for t in doc.tables:
            if h.line < t.line < end and not any(a <= t.line < b for a, b in regions) and t.line not in read:
                found = _table_tools(doc.path, t, h.text, generic=True)
                read |= {t.line} if found else set()
                out += found
    for t in doc.tables:  # a table whose column says "tool" documents tools under any heading
        if t.line not in read:
            out += _table_tools(doc.path, t, t.section, generic=False)
    return out


def _table_tools(path: str, t: Table, section: str, generic: bool) -> list[DocTool]:
    """The tools a table documents, one a row: its name (the code span of the tool column, else the cell when it is a
    name), the description column, the parameters column. GENERIC: a Name or Command column names the tools too."""
    cols = [_clean(c).strip("`*_ ").strip() for c in t.header]
    tool = next((i for i, c in enumerate(cols) if TOOL_COLUMN.match(c)), None)
    if tool is None and generic:
        tool = next((i for i, c in enumerate(cols) if NAME_COLUMN.match(c)), None)
    lead = _clean(t.lead).strip("*_ ")
    if tool is None or any(NOT_TOOLS_COLUMN.match(c) for c in cols) \
            or (lead.endswith(":") and NOT_TOOLS_LEAD.search(lead) and not TOOLS_LEAD.search(lead)) \
            or NOT_HERE.search(lead):
        return []  # (a table introduced as values or results, not one introduced as tools: "tools that return ...:"; or
        # one of tools served elsewhere)
    desc = next((i for i, c in enumerate(cols) if DESCRIPTION_COLUMN.match(c)), None)
    pcol = next((i for i, c in enumerate(cols) if i != tool and PARAMS_COLUMN.match(c)), None)
    out = []
    filled = named = 0
    spans = False
    for row in t.rows:
        cell = lambda i: _clean(row.cells[i]) if i is not None and i < len(row.cells) else ""
        names = _cell_tools(cell(tool)) if not WITHDRAWN.search(cell(desc)) else []  # (a row of a withdrawn tool)
        filled, named = filled + bool(cell(tool).strip("*_ ")), named + bool(names)
        spans = spans or bool(HEADING_CODE.search(cell(tool)))
        anchor = Anchor(path=path, start_line=row.line, end_line=row.line)
        out += [DocTool(name=name, anchor=anchor, section=section, params=_cell_params(cell(pcol), anchor),
                        description=cell(desc)) for name in names]
    if not spans and 2 * named < filled:
        return []  # a column of products written as prose ("GitHub Copilot", "Codex CLI"), one of which is spelt like
        # a name ("deepagents-cli"): names no tool
    return out


_SPANS = re.compile(r"\s*`[A-Za-z][\w.-]*`(?:\s*(?:/|,|&|\bor\b|\band\b)\s*`[A-Za-z][\w.-]*`)+\s*")


def _cell_tools(cell: str) -> list[str]:
    """The tools a table cell names: each code span of a cell that is only code spans joined by `/`, `,`, "or" or
    "and" (`` `go_back` / `go_forward` ``), else the one _cell_tool reads."""
    if _SPANS.fullmatch(cell):
        return HEADING_CODE.findall(cell)
    name = _cell_tool(cell)
    return [name] if name is not None else []


_NO_PARAMS = re.compile(r"(?i)none|nothing|no parameters|no arguments|n/?a|[-\u2013\u2014]|\(none\)")


def _cell_tool(cell: str) -> str | None:
    """The tool a table cell names: its first code span, else the cell itself when it is a name (not a capitalised
    word such as "Search", which is prose)."""
    codes = HEADING_CODE.findall(cell)
    if codes:
        return codes[0]
    name = cell.strip("*_ ")
    return name if re.fullmatch(_NAME, name) and (re.search(r"[_-]", name) or not name[0].isupper()) else None


def _cell_params(cell: str, anchor: Anchor) -> tuple[DocParam, ...]:
    """Parameters a table cell lists: "`query` (string), `limit` (number, optional)", "query, limit?"; none for a cell
    that says there are none ("None", "-", "n/a")."""
    if not CELL_PARAMS.match(cell.strip()) or _NO_PARAMS.fullmatch(cell.strip("*_` ").strip()):
        return ()
    out = []
    for m in CELL_PARAM.finditer(cell):
        typ, optional = _spec(m["spec"])
        out.append(DocParam(name=m["name"], type=typ, optional=True if m["opt"] else optional, anchor=anchor))
    return tuple(out)


def _label(doc: MarkdownDoc, it: Item) -> str:
    """The last bold label paragraph ("**Returns:**") above the item in its section, when there is one, else "": the
    part of a tool's section the item is in, whatever paragraphs come between ("Each issue includes:")."""
    above = [p for p in doc.paragraphs if p.line < it.line and p.section == it.section and BOLD_LABEL.fullmatch(p.text.strip())]
    return _clean(above[-1].text).strip("*_ ") if above else ""


def _introduction(it: Item) -> str:
    """The paragraph that introduces the item's list when it ends with a colon ("**Arguments:**"), else ""."""
    lead = _clean(it.lead).strip("*_ ")
    return lead if lead.endswith(":") else ""


GROUPED = re.compile(r"\s*:\s*(`[A-Za-z][\w.-]*`(?:\s*,\s*(?:and\s+)?`[A-Za-z][\w.-]*`)*)\s*\.?\s*$")


def _grouped(item: str, m: re.Match) -> list[str]:
    """The tools a bold label's item lists and nothing else (`**Session**: `lock`, `unlock``): the label is a group."""
    if not m["bold"] or m["tick"]:
        return []
    rest = GROUPED.match(item[m.end():].lstrip("*_"))
    return HEADING_CODE.findall(rest.group(1)) if rest else []


def tool_headings(subs: list) -> list[tuple[int, str]]:
    """(line, tool name) of the sub-headings of a Tools section (SUBS, in order) that name a tool: a name-like heading
    (`_heading_tool`) that is not a group of tools (`### server-a` over `#### tool_1`, `#### tool_2`)."""
    out = []
    for j, sub in enumerate(subs):
        name = _heading_tool(sub.text)
        if name is None:
            continue
        below = next((k for k in range(j + 1, len(subs)) if subs[k].level <= sub.level), len(subs))
        if not any(_heading_tool(x.text) is not None for x in subs[j + 1:below]):
            out.append((sub.line, name))
    return out


def _heading_tool(heading: str) -> str | None:
    """The tool a sub-heading of a Tools section names: the heading itself when it is a name (written as code, or
    not a capitalised word such as "Add-ons": lower case first, or joined by `_` as in "DNS_getRecordsV1"), the one
    code span of a title ("Download Attachment (`download_attachment`)"), or the code span it opens with."""
    if WILDCARD.search(_clean(heading)):  # `bash_sandbox_*`: a family of tools, each named below it
        return None
    name = _clean(heading).strip("`*_ ")
    if re.fullmatch(_NAME, name) and ("`" in heading or not name[0].isupper() or "_" in name):
        return name
    codes = HEADING_CODE.findall(heading)
    if len(codes) == 1 and ("(`" in heading or "_" in codes[0]):
        return codes[0]
    lead = HEADING_CODE.match(heading.strip())  # "`index-operation` (only `operation: 'list'` read-only)": the code
    return lead.group(1) if lead is not None else None  # span the heading opens with, what follows a note on it


def _launch(entry: str) -> tuple[str, list[str]] | None:
    """The last `"command": "..."` of a host entry's text and the `"args": [...]` that follow it, or None."""
    commands = list(LAUNCH_COMMAND.finditer(entry))
    if not commands:
        return None
    args = LAUNCH_ARGS.search(entry, commands[-1].end())
    values = load_json(f"[{args['items']}]".encode("utf-8", "surrogatepass"), MAX_DEPTH)[0] if args is not None else []
    if values is None:  # not JSON (a lone surrogate escape is read as U+FFFD: no report could encode it)
        return None
    return commands[-1]["command"], [v for v in values if isinstance(v, str)]


def documented_env(doc: MarkdownDoc, another=lambda command, args: False) -> dict[str, list[Anchor]]:
    """Environment variables the README names: in code blocks (`env` objects, `-e NAME`, `NAME=value`), in a table's
    variable column (or its name column, under a heading or lead that speaks of the environment), and as a code span in
    capitals in prose or a list item that speaks of the environment ("set env var `NAME` to `true`"). An `env` object
    of a host entry whose command and args (written before it) run another package (ANOTHER(command, args)) is that
    server's, not this one's."""
    out: dict[str, list[Anchor]] = {}

    def add(name: str, fence, offset: int) -> None:
        ln = fence.line + 1 + fence.content.count("\n", 0, offset)
        out.setdefault(name, []).append(Anchor(path=doc.path, start_line=ln, end_line=ln))

    for fence in doc.fences:
        after = 0
        for obj in ENV_OBJECT.finditer(fence.content):
            entry, after = fence.content[after:obj.start()], obj.end()
            if _launch(entry) is not None and another(*_launch(entry)):
                continue
            for k in ENV_KEY.finditer(obj["body"]):
                add(k["name"], fence, obj.start("body") + k.start())
        for m in DOCKER_ENV.finditer(fence.content):
            opt = fence.content.index("-", m.start())  # (the option's line, up to it)
            if not EVALUATES.search(fence.content[fence.content.rfind("\n", 0, opt) + 1:opt] + m["opt"]):
                add(m["name"], fence, m.start("name"))
        for m in SHELL_ENV.finditer(fence.content):
            line = fence.content[m.start():].split("\n", 1)[0]
            command = ASSIGNMENTS.sub("", line.strip().removeprefix("export ").removeprefix("set ")).split()
            if not (command and another(command[0], command[1:])):  # `KEY=x npx other-tool ...`: that tool's
                add(m["name"], fence, m.start("name"))
    for text, ln in [(x.text, x.line) for x in (*doc.paragraphs, *doc.items)]:
        if ENV_WORDS.search(_clean(text)):
            for m in ENV_SPAN.finditer(text):
                if len(m["name"]) > 2:
                    out.setdefault(m["name"], []).append(Anchor(path=doc.path, start_line=ln + text.count("\n", 0, m.start()),
                                                                end_line=ln + text.count("\n", 0, m.start())))
    for table in doc.tables:
        header = [_clean(h).strip("*_` ") for h in table.header]
        col = next((i for i, h in enumerate(header) if ENV_COLUMN.match(h)), None)
        if col is None and ENV_WORDS.search(f"{table.section} {table.lead}"):
            col = next((i for i, h in enumerate(header) if ENV_NAME_COLUMN.match(h)), None)
        for row in table.rows if col is not None else ():
            m = re.fullmatch(r"`?(?P<name>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)`?", _clean(row.cells[col]).strip("*_ ")) if col < len(row.cells) else None
            if m is not None:
                out.setdefault(m["name"], []).append(Anchor(path=doc.path, start_line=row.line, end_line=row.line))
    return out
