"""Mismatches the code itself shows: schema against runtime, prose against schema, docs against code."""

from __future__ import annotations

import bisect
import posixpath
import re

import tree_sitter as ts

from auditor.analyse import capabilities, unserved, validation
from auditor.analyse.absences import unread_code
from auditor.analyse.fields import record_fields, uses
from auditor.analyse.kept import kept
from auditor.analyse.uses import returned_unread
from auditor.extract.documented import tool_headings
from auditor.extract.facts import Program, dependency, entry_modules, module_for
from auditor.extract.limits import MAX_DEPTH, load_json
from auditor.extract.objects import schema_properties
from auditor.extract.program import made_requires
from auditor.extract.records import at, line, record
from auditor.extract.routes import launch_snippets
from auditor.extract.scope import server_readmes
from auditor.extract.frames import plain_parameters
from auditor.extract.bindings import references, value_of, visible
from auditor.sources import DEPENDENCY
from auditor.specifiers import bare_packages
from auditor.extract.syntax import (ancestors, call_args, enclosing_function, find, function_name, member_chain,
                                    object_pairs, pair_value, strip_casts, string_value, text)
from auditor.model import DECLARATIONS, Anchor, Record

SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
# What a field of type string may declare besides its type, which a string's method called on the value does not check.
_STRING_CONSTRAINTS = frozenset({"enum", "const", "pattern", "format", "minLength", "maxLength"})
TYPE_EXAMPLE = {"string": '""', "number": "0", "integer": "0"}


def _camel(snake: str) -> str:
    head, *rest = snake.split("_")
    return head + "".join(w[:1].upper() + w[1:] for w in rest)


def _gates_for(p: Program, tool) -> list:
    """Validation gates on the path from the tool's dispatch to its implementation."""
    out = []
    for d in validation.dispatches_of(p, tool):
        if d.target is None:
            continue
        for f in p.flows:
            if f.fn == d.target:
                out += [(g.path, g) for g in f.gates]
    return out


def _clamps_for(p: Program, tool) -> dict[str, dict[str, tuple[float, Anchor]]]:
    """Field name -> {"maximum"|"minimum": (limit, where)} of the numeric clamps on the tool's path (`if (x.f > 5) x.f = 5`,
    `x.f = Math.min(x.f, 5)`): a value beyond the limit is replaced, not rejected."""
    if p.linker is None:
        return {}
    roots = [(d.module, d.target) for d in validation.dispatches_of(p, tool) if d.target is not None]
    reached = {fn for _, fn in p.linker.reachable(roots)}
    out: dict[str, dict[str, tuple[float, Anchor]]] = {}
    for f in p.flows:
        if f.fn not in reached:
            continue
        for mu in f.mutations:
            kind = {"lower-only clamp": "maximum", "raise-only clamp": "minimum"}.get(mu.form)
            try:
                limit = float(mu.bound)
            except ValueError:
                continue  # a limit that is not a number literal (another field, a constant) is not compared
            if kind is not None:
                out.setdefault(mu.target.rsplit(".", 1)[-1], {})[kind] = (limit, at(f.module.path, mu.node))
    return out


def _named(fn) -> frozenset[str]:
    """The property names code mentions (`x.name`, `{ name }`, `x["name"]`)."""
    kinds = {"property_identifier", "shorthand_property_identifier", "shorthand_property_identifier_pattern"}
    return frozenset(text(n) for n in find(fn, kinds)) | frozenset(
        v for n in find(fn, {"subscript_expression"}) if (v := string_value(n.child_by_field_name("index"))) is not None)


def _handed_keys(call: ts.Node) -> frozenset[str] | None:
    """The names the object a gate's call hands it first mentions, when written there or in a local declared with it
    (`const op = { title: args.title }; create(op)`, keys set on it after too: `op.mode = m`) and spreading nothing:
    its keys and the fields its values read. A field of the input outside them never reaches the gate. None when the
    first argument is anything else (the input itself)."""
    args = call_args(call)
    first = strip_casts(args[0]) if args else None
    extra: set[str] = set()
    if first is not None and first.type == "identifier":
        decl = visible(first, text(first))
        if decl is None or decl.type != "variable_declarator":
            return None
        for ref in references(decl, text(first)):
            up = ref.parent
            if up is not None and up.type == "member_expression" and up.child_by_field_name("object") == ref:
                extra.add(text(up.child_by_field_name("property")))
            elif up is not None and (up.type == "spread_element" or up.type == "arguments" and up.parent != call):
                return None  # (`Object.assign(op, args)`, `{ ...op }`, handed elsewhere: what it holds is not known)
        first = strip_casts(decl.child_by_field_name("value"))
    if first is None or first.type != "object" or any(c.type != "pair" and c.type != "shorthand_property_identifier"
                                                      for c in first.named_children if c.type != "comment"):
        return None
    return _named(first) | extra  # (its keys, and the fields its values read: `{ root: args.path }` hands `path`)


def _read_beside(fn: ts.Node) -> frozenset[str]:
    """The names FN reads off its parameters after the first (`client.get`, `const { mode } = opts`): a field of the
    input it may take from one of those, not from the object handed first."""
    later = {k for k, i in plain_parameters(fn).items() if i > 0}
    out = {text(n.child_by_field_name("property")) for n in find(fn, {"member_expression"})
           if text(n.child_by_field_name("object")) in later}
    for d in find(fn, {"variable_declarator"}):
        value, pattern = strip_casts(d.child_by_field_name("value")), d.child_by_field_name("name")
        if value is not None and text(value) in later and pattern is not None and pattern.type == "object_pattern":
            out |= _named(pattern)
    return frozenset(out)


def _copied_unread(p: Program, g, names: set[str]) -> bool:
    """Whether the gate G names the field only where it copies it into the object it returns (`return { axis:
    input.axis }`) and no caller reads that entry but harmlessly (analyse/uses.py): the field is not stored."""
    reads = [n for n in find(g.validator, {"member_expression"}) if text(n.child_by_field_name("property")) in names] \
        + [n for n in find(g.validator, {"shorthand_property_identifier"}) if text(n) in names]
    return bool(reads) and all(returned_unread(p, n) for n in reads)


def _prop_line(tool, name: str) -> Anchor:
    from auditor.analyse.absences import _walk_pairs
    if tool.schema_node is None:  # a schema read in another module than the tool's site: the site
        return at(tool.module.path, tool.node)
    pairs = sorted(_walk_pairs(tool.schema_node), key=lambda n: n.start_byte)  # (in the order they are written)
    key = lambda n: text(n.child_by_field_name("key")).strip("'\"")  # noqa: E731
    # In a JSON Schema, a field is a key of a `properties` object: `description: "..."` of another field is no field
    # named `description`.
    declared = [n for n in pairs if n.parent is not None and n.parent.parent is not None
                and n.parent.parent.type == "pair" and key(n.parent.parent) == "properties"]
    for n in declared or pairs:
        if key(n) == name:
            return at(tool.module.path, n)
    return at(tool.module.path, tool.schema_node)


def mismatches(p: Program, absences_kb: dict) -> list[Record]:
    out: list[Record] = []
    # A descriptor-shaped tool object whose name a high-level registration of a zod schema registers
    # (`server.tool(t.name, t.description, t.inputSchema?.shape ?? {}, t.execute)`): the SDK parses its calls.
    validated_elsewhere = {t.name for t in p.tools if t.form != "descriptor" and t.schema_node is not None}
    for tool in p.tools:
        props = {x["name"]: x for x in schema_properties(tool.schema)}
        # The high-level SDK parses every call with the zod schema before the callback runs: what the
        # schema declares is enforced there, so a later gate re-checking part of it leaves nothing unenforced.
        sdk_validated = tool.form != "descriptor" and tool.schema_form == "zod" or tool.form == "descriptor" \
            and tool.name in validated_elsewhere  # (the tool object a high-level registration hands its schema)
        gates = _gates_for(p, tool)
        clamps = _clamps_for(p, tool) if gates else {}
        # A check anywhere on the path (a schema validator, or a function that rejects bad input) counts: the fields
        # a readable schema declares are enforced, an unreadable one enforces the whole input.
        own, path = validation.places(p, tool) if not sdk_validated else ([], [])
        found = validation.checks(p, tool, path, own)
        whole = any(c.fields is None for c in found)
        by_schema = {f for c in found if c.form == "schema" for f in c.fields or ()}
        by_hand = {f for c in found if c.form in {"hand-written", "outside"} for f in c.fields or ()}
        given = {f for c in found if c.form == "when-given" for f in c.fields or ()}  # (checks an optional field only)
        for gate_path, g in gates:
            checked: dict[str, list] = {}
            for pr in g.predicates:
                checked.setdefault(pr.field, []).append(pr)
            gate_anchor = at(gate_path, g.validator)
            # a field the gate never names is not stored by it; a field is named in its snake_case or camelCase
            # spelling (`normalize(args)` copies `include_sprints` as `includeSprints`)
            named = _named(g.validator) | _named(g.call)  # (the call may pass it under another key: `{ root: a.path }`)
            handed = _handed_keys(g.call)
            beside = _read_beside(g.validator) if handed is not None else frozenset()
            for name, spec in props.items():
                if handed is not None and not {name, _camel(name)} & (handed | beside):
                    continue  # (`create({ title: args.title })`: a field the call does not hand on never reaches it)
                preds = checked.get(name, [])
                forms = {pr.form for pr in preds}
                types = {pr.expected for pr in preds if pr.form == "type-check"}
                declared = []
                jtype = _json_type(spec["type"])
                if spec["type"]:
                    declared.append(f"type {jtype}")
                declared += [f"{k} {v}" for k, v in spec["constraints"].items() if k in {"minimum", "maximum", "minLength", "maxLength", "pattern", "enum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems"}]
                unenforced, clamped = [], []
                if not preds:
                    unenforced = declared if {name, _camel(name)} & named \
                        and not _copied_unread(p, g, {name, _camel(name)}) else []
                else:
                    if jtype == "integer" and "integer" not in types:
                        unenforced.append("type integer (the check accepts any number)")
                    if jtype and jtype != "integer" and jtype not in types and not forms & {"falsy-guard", "membership"}:
                        unenforced.append(f"type {jtype}")
                    for k, v in spec["constraints"].items():
                        if k == "enum" and "membership" in forms:
                            continue  # (`!VALID.includes(x)`: only the list's values go on)
                        if k in {"minimum", "exclusiveMinimum"}:
                            unenforced.append(f"{k} {v}" + (" (the falsy guard rejects only 0; negative numbers pass)" if "falsy-guard" in forms else ""))
                        elif k in {"maximum", "exclusiveMaximum", "minLength", "maxLength", "pattern", "enum"}:
                            if not (k == "minLength" and v == 1 and "falsy-guard" in forms):
                                unenforced.append(f"{k} {v!r}")
                        clamp = clamps.get(name, {}).get(k)
                        if clamp is not None and clamp[0] == v:
                            unenforced[-1] += (f" (not rejected: a {'larger' if k == 'maximum' else 'smaller'} value is "
                                               f"clamped to {v!r} at {clamp[1]})")
                            clamped.append(clamp[1])
                if unenforced and not sdk_validated and not whole and name not in by_schema \
                        and not (not preds and {name, _camel(name)} & (by_hand | (given if not spec["required"] else set()))):
                    kind = "unchecked-optional" if not preds and not spec["required"] else "schema-unenforced"
                    what = ("optional field stored with no runtime check" if kind == "unchecked-optional" else
                            f"runtime check ({', '.join(sorted(forms)) or 'none'}) does not enforce")
                    out.append(record("finding", "FND", kind, f"{tool.name}/{name}",
                                      f"`{name}` of tool {tool.name!r}: schema declares {', '.join(declared)}; {what}: {', '.join(unenforced)}",
                                      [_prop_line(tool, name), gate_anchor, *clamped], "analyse.mismatches.schema",
                                      tool=tool.name, field=name, declared=declared, unenforced=unenforced, checks=sorted(forms)))
            for name, preds in checked.items():
                falsy = [pr for pr in preds if pr.form == "falsy-guard"]
                typed = [pr.expected for pr in preds if pr.form == "type-check"]
                if not falsy or not typed or typed[0] not in TYPE_EXAMPLE:
                    continue
                example = TYPE_EXAMPLE[typed[0]]
                spec = props.get(name, {})
                conforming = not (example == "0" and any(k in spec.get("constraints", {}) and spec["constraints"][k] >= 1 for k in ("minimum",) if isinstance(spec.get("constraints", {}).get(k), (int, float))))
                enum = spec.get("constraints", {}).get("enum")
                if example == '""' and ("minLength" in spec.get("constraints", {})
                                        or isinstance(enum, list) and "" not in enum):
                    conforming = False  # (an enum without "" excludes it too)
                msg = falsy[0].message or "(no message)"
                out.append(record("finding", "FND", "false-diagnostic", f"{tool.name}/{name}",
                                  f"`{falsy[0].source}` rejects {example}, which is a {typed[0]}, with {msg!r}: the message is false for that input"
                                  + (" and the input conforms to the advertised schema" if conforming else " (the schema itself excludes it, so only a caller that bypasses schema validation reaches it)"),
                                  [line(gate_path, falsy[0].line)] + ([_prop_line(tool, name)] if name in props else []),
                                  "analyse.mismatches.diagnostics", tool=tool.name, field=name, input=example, message=msg,
                                  schema_conforming=conforming))
        # A field no check on the path tests (a guard of what is no field of the input, `if (!tool) throw` after a
        # lookup, checks none; a check of other fields leaves this one unchecked).
        if tool.form == "descriptor" and not sdk_validated and not gates and not whole:
            checked = {f for c in found if c.form != "when-given" for f in c.fields or ()}
            out += _unvalidated(tool, {k: v for k, v in props.items() if not {k, _camel(k)} & checked
                                       and not (not v["required"] and {k, _camel(k)} & given)},
                                validation.reads(p, own, frozenset(k for k, v in props.items() if _json_type(v["type"]) == "boolean"),
                                                 frozenset(k for k, v in props.items() if _json_type(v["type"]) == "string"
                                                           and not set(v["constraints"]) & _STRING_CONSTRAINTS),
                                                 frozenset(k for k, v in props.items() if not v["required"])),
                                partial=bool(checked & set(props)))
        out += _prose_names(tool, props)
        out += _coercions(tool) if not _decorated_outside(p, tool) else []
    out += _tool_names(p)
    out += _write_before_throw(p)
    out += render_unchecked(p)
    out += _unchecked_references(p, absences_kb)
    out += _unused_dependencies(p)
    out += _unpinned_launch(p)
    out += unserved.findings(p) + capabilities.findings(p)
    return out


def _unvalidated(tool, props: dict, reads: list, partial: bool = False) -> list[Record]:
    """A low-level tool whose input nothing checks on any path from the handler: each declared field it passes on
    (PROPS: those no check tests; PARTIAL: some check tests others)."""
    first: dict[str, object] = {}
    for r in sorted(reads, key=lambda r: (r.path, r.node.start_byte)):
        first.setdefault(r.field, r)
    out = []
    for name, r in sorted(first.items()):
        spec = props.get(name)
        if spec is None or not spec["type"]:
            continue
        declared = [f"type {_json_type(spec['type'])}"] + [f"{k} {v!r}" for k, v in spec["constraints"].items() if k in {
            "minimum", "maximum", "minLength", "maxLength", "pattern", "enum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems"}]
        kind = "schema-unenforced" if spec["required"] else "unchecked-optional"
        out.append(record("finding", "FND", kind, f"{tool.name}/{name}",
                          f"`{name}` of tool {tool.name!r}: schema declares {', '.join(declared)}; the low-level handler does not "
                          f"validate its input and no check {'of this field (only of others) ' if partial else ''}exists "
                          f"on any path from the handler to the call at {r.path}:"
                          f"{r.node.start_point[0] + 1} that receives it (a caller that ignores the schema reaches it unchanged)",
                          [_prop_line(tool, name), at(r.path, r.node)], "analyse.mismatches.unvalidated",
                          tool=tool.name, field=name, declared=declared, unenforced=declared, checks=[]))
    return out


def _json_type(t) -> str | None:
    """The type a property declares; for a nullable one (`["string", "null"]`) the type besides null."""
    if isinstance(t, list):
        others = [x for x in t if x != "null"]
        return " or ".join(map(str, others)) if others else "null"
    return t if isinstance(t, str) else None


def _decorated_outside(p: Program, tool) -> bool:
    """Whether TOOL is a descriptor held by a name that is only handed to functions of another package
    (`const Tool = { name, inputSchema }; export default withStandardDecorators(Tool)`, the function imported from a
    dependency, installed or not): what that function makes of it is what the server advertises, and its schema is
    that package's to say (a decorator may add, drop or rewrite fields)."""
    if tool.form != "descriptor" or tool.binding is None or p.linker is None:
        return False
    decl = tool.node.parent
    while decl is not None and decl.type != "variable_declarator":
        decl = decl.parent if decl.type in {"parenthesized_expression", "as_expression", "satisfies_expression"} else None
    if decl is None or text(decl.child_by_field_name("name")) != tool.binding:
        return False
    imports = p.linker.imports.get(tool.module.path, {})
    uses = [u for u in references(decl, tool.binding) if u.id != decl.child_by_field_name("name").id]
    for u in uses:
        args = u.parent
        call = args.parent if args is not None and args.type == "arguments" else None
        callee = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
        bound = imports.get(text(callee)) if callee is not None and callee.type == "identifier" else None
        if bound is None or bound.module is not None and not dependency(bound.module):
            return False
    return bool(uses)


def _coercions(tool) -> list[Record]:
    """Properties the runtime converts before (or after) checking them, which the advertised JSON Schema does not show."""
    by_prop: dict[str, list[tuple[str, str, int, str]]] = {}
    for path, what, ln, file in tool.coercions:  # FILE: where the coercion is written (a schema may be imported)
        top = path.split(".", 1)[0].split("[", 1)[0] or "input"
        by_prop.setdefault(top, []).append((path, what, ln, file))
    props = {x["name"]: x for x in schema_properties(tool.schema)}
    applied = "the SDK parses every call with this zod schema" if tool.form != "descriptor" else \
        "the advertised JSON Schema is generated from this zod schema; the conversion applies wherever the handler parses with it"
    out = []
    for prop, items in by_prop.items():
        shown = _json_type(props.get(prop, {}).get("type")) or "its type"
        whats = "; ".join((f"`{path}`: " if path != prop else "") + what for path, what, _, _ in items)
        out.append(record("finding", "FND", "schema-coercion", f"{tool.name}/{prop}",
                          f"`{prop}` of tool {tool.name!r}: the advertised JSON Schema declares {shown}, but {whats}. "
                          f"A caller reading the schema cannot see that other input is converted instead of rejected ({applied})",
                          [line(file, ln) for _, _, ln, file in items] + ([_prop_line(tool, prop)] if prop in props else []),
                          "analyse.mismatches.coercion", tool=tool.name, field=prop,
                          coercions=[{"path": path, "does": what, "line": ln, **({"file": file} if file != tool.module.path else {})}
                                     for path, what, ln, file in items]))
    return out


def _prose_names(tool, props: dict) -> list[Record]:
    if not tool.description or not props or tool.description_node is None:
        return []
    start = tool.description_node.start_point[0] + 1
    hits: dict[str, list[int]] = {}
    for i, ln in enumerate(tool.description.splitlines()):
        for m in SNAKE.finditer(ln):
            word = m.group(0)
            if word not in props and _camel(word) in props:
                hits.setdefault(word, []).append(start + i)
    if not hits:
        return []
    anchors = [line(tool.module.path, ln) for lines in hits.values() for ln in lines] + [at(tool.module.path, tool.schema_node)]
    return [record("finding", "FND", "param-name-mismatch", tool.name,
                   f"the description of tool {tool.name!r} names {len(hits)} parameter(s) the schema does not accept: "
                   + ", ".join(f"{w} (schema: {_camel(w)})" for w in hits), anchors, "analyse.mismatches.prose",
                   tool=tool.name, names={w: _camel(w) for w in hits})]


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _tool_names(p: Program) -> list[Record]:
    registered = {t.name for t in p.tools}
    if not registered:
        return []
    out = []
    for e, doc in server_readmes(p):  # the package's own README only (kb/sdk.yaml package_readme)
        path = e.file.path
        heads = list(doc.headings)
        for i, h in enumerate(heads):
            if not re.fullmatch(r"(?i)\s*tools?\s*", h.text):
                continue
            subs = []
            for sub in heads[i + 1:]:
                if sub.level <= h.level:
                    break
                subs.append(sub)
            lines = {sub.line: sub for sub in subs}
            for at_line, name in tool_headings(subs):  # a heading that names a tool (not `### Users` over a list)
                sub = lines[at_line]
                if name in registered:
                    continue
                near = [r for r in registered if _norm(r) == _norm(name)]
                out.append(record("finding", "FND", "tool-name-mismatch", f"{doc.path.rsplit('/', 1)[-1]}/{name}",
                                  f"{path} documents a tool named {name!r}; the server registers " + (f"{near[0]!r}" if near else ", ".join(sorted(map(repr, registered))))
                                  + (": a call by the documented name reaches the unknown-tool fallback" if p.fallbacks else
                                     ": a call by the documented name is rejected by the SDK as an unknown tool (the server has no fallback of its own)"),
                                  [line(path, sub.line)] + [at(t.module.path, t.node.child_by_field_name('name') or t.node) for t in p.tools if t.name in near][:1]
                                  + [at(d.module.path, d.node) for d in p.dispatches if d.tool in near][:1],
                                  "analyse.mismatches.tool_names", documented=name, registered=sorted(registered)))
    return out


def _write_before_throw(p: Program) -> list[Record]:
    out = []
    for f in p.flows:
        for c in f.captures:
            if not c.throwing_after_write:
                continue
            out.append(record("finding", "FND", "write-before-throw", f"{f.module.name}#{f.name}",
                              f"`{f.name}` writes state at line {c.first_write_line} and then calls "
                              + ", ".join(f"{n} (line {ln})" for n, ln in c.throwing_after_write)
                              + " inside the same try: a throw from them returns an error result with the state already written",
                              [line(f.module.path, c.first_write_line)] + [line(f.module.path, ln) for _, ln in c.throwing_after_write] + [at(f.module.path, c.node)],
                              "analyse.mismatches.write_before_throw", function=f.name,
                              calls=[{"call": n, "line": ln} for n, ln in c.throwing_after_write]))
    return out


def _unchecked_references(p: Program, absences_kb: dict) -> list[Record]:
    # coupling: the reference-field patterns live with the reference-linkage probe in kb/absences.yaml.
    out = []
    patterns = []
    for probe in absences_kb.get("probes", []):
        if probe["probe"] == "reference-linkage":
            patterns += [re.compile(x) for x in probe.get("search", {}).get("reference_fields", [])]
    for rtype, fields in record_fields(p).items():
        for f in fields:
            if not any(r.search(f["name"]) for r in patterns):
                continue
            us = uses(p, f["name"])
            if any(u.kind in {"index"} for u in us):
                continue
            # A reference dangles only in a record the server keeps: one that only reaches a call (an outbound
            # request, whose service answers for an unknown id; a lookup that fails) or a rendering is no record
            # of the server's that could refer to a missing one (analyse/kept.py).
            if not kept(p, rtype, f["name"], [u.node for u in us if u.node.type == "member_expression"]):
                continue
            out.append(record("finding", "FND", "unchecked-reference", f"{rtype}/{f['name']}",
                              f"`{rtype}.{f['name']}` names another record but nothing checks that the record exists or relates to it",
                              [Anchor(path=f["path"], start_line=f["line"], end_line=f["line"])] + [Anchor(path=u.path, start_line=u.line, end_line=u.line) for u in us],
                              "analyse.mismatches.references", record_type=rtype, field=f["name"]))
    return out


def _declared_imports(p: Program) -> set[str]:
    """What the package's type declarations (`.d.ts`, shipped or written) import: their packages are part of its
    published API, so they are used even when no code imports them."""
    from auditor.extract import cache

    out: set[str] = set()
    for e in p.entries:  # parsed through the cache: once across the revisions of a run, like the code
        if not e.context and e.text is not None and e.rel.endswith(DECLARATIONS):
            tree = cache.tree(e.file.blob, e.file.path, e.rel, "typescript", e.code())
            out |= {src for src, _ in cache.module(e.file.blob, e.file.path, e.rel, "typescript", tree).imports}
    return out


def _unused_dependencies(p: Program) -> list[Record]:
    imported = {src[5:] if src.startswith("node:") else src for m in p.modules for src, _ in m.imports}
    imported |= _declared_imports(p) | _shipped_dependency_imports(p)
    unread = unread_code(p)
    written: dict[str, set[str]] = {}  # (the packages each file not analysed names, read once)
    out = []
    for doc in p.manifests():
        deps = (doc.value or {}).get("dependencies") or {} if isinstance(doc.value, dict) else {}
        span = doc.keys.get("dependencies")
        scripts = (doc.value or {}).get("scripts") if isinstance(doc.value, dict) else None
        words = {w for cmd in (scripts.values() if isinstance(scripts, dict) else ()) if isinstance(cmd, str)
                 for w in re.split(r"[\s;&|()=]+", cmd) if w}
        named = None
        for dep in sorted(deps):
            if _used(dep, imported | words):
                continue
            named = _named_strings(p) if named is None else named
            if _used(dep, named) and dep != (doc.value or {}).get("name"):  # loaded by name: a transport target, a
                continue  # plugin, require.resolve("dep"), `npx dep`; not the package itself (`npx -y self@latest`
                # in a config it writes fetches it from the registry; it depends on itself for nothing)
            where = [line(doc.path, *span)] if span else [line(doc.path, 1)]
            gaps = [g for g in unread if _may_name(p, g, dep, written)]
            paths = sorted({g.anchor.path for g in gaps})
            if gaps:  # a file not read may import it: no absence shown (as for an evidenced absence)
                status = f"unknown (gap in {paths[0]}" + (f" and {len(paths) - 1} more file(s))" if len(paths) > 1 else ")")
                out.append(record("finding", "FND", "dependency-use-unknown", f"{p.entry(doc.path).rel}/{dep}",
                                  f"dependency {dep!r} ({deps[dep]}) is declared and imported by no file the audit read: {status}; "
                                  f"the file(s) not read may import it", where + [g.anchor for g in gaps[:3]],
                                  "analyse.mismatches.dependencies", dependency=dep, version=deps[dep], status=status))
                continue
            out.append(record("finding", "FND", "unused-dependency", f"{p.entry(doc.path).rel}/{dep}",
                              f"dependency {dep!r} ({deps[dep]}) is declared but never imported by the implementation",
                              where, "analyse.mismatches.dependencies", dependency=dep, version=deps[dep]))
    return out


_COMMENTS = re.compile(r"/\*.*?\*/|^[ \t]*//[^\n]*", re.S | re.M)


def _named_packages(code: str) -> set[str]:
    """The packages a file's text names as modules, its comments left out (a name in a comment loads nothing)."""
    return bare_packages(_COMMENTS.sub("", code))


def _shipped_dependency_imports(p: Program) -> set[str]:
    """What the code of the packages shipped inside this one (its own `node_modules`, bundleDependencies) imports or
    requires by a written name: a dependency they load is needed where they run (not parsed: read for the names)."""
    out: set[str] = set()
    shipped = {d for e in p.entries for d in _package_dirs(e.rel)}  # every `.../node_modules/<pkg>` shipped
    for e in p.entries:
        dirs = _package_dirs(e.rel)
        if e.layer == DEPENDENCY and e.text is not None and e.lang not in {None, "json"} and dirs:
            names = _named_packages(e.text)
            out |= {n for n in names if not any(f"{d}/node_modules/{n}" in shipped for d in dirs)}
            # (a name a nested copy answers, the shipped package's own or one above it, is not this package's)
    return out


def _package_dirs(rel: str) -> list[str]:
    """The package folders below `node_modules/` a path lies in, outermost first (`node_modules/a/node_modules/b/x.js`:
    `node_modules/a`, `node_modules/a/node_modules/b`)."""
    out, parts = [], rel.split("/")
    for i, part in enumerate(parts[:-1]):
        if part == "node_modules" and i + 1 < len(parts) - 1:
            width = 2 if parts[i + 1].startswith("@") else 1
            out.append("/".join(parts[:i + 1 + width]))
    return out


def _named_strings(p: Program) -> set[str]:
    """The packages the implementation loads by their name given as a string (kb/method.yaml loaded_by_name):
    `require.resolve("x")`, `pino({transport: {target: "pino-pretty"}})`; a resolver handed a name made at run time
    (`require.resolve(`${pkg}/${file}`)`) may load any package its module holds in a member of a name it is made from
    (`{ pkg: "tree-sitter-go" }`), and a resolver handed a parameter of its function as it is may load what the
    module's calls of that function pass there (`resolveBin("@acme/cli")`); a command string the code builds runs
    the package after a runner (`npx cross-env ...`); outside the regions a bundler marks as a dependency's code and
    the syntax error regions (whose dependencies are unknown, not used: _may_name)."""
    rule = p.method.get("loaded_by_name") or {}
    resolvers, keys = set(rule.get("resolvers", ())), set(rule.get("keys", ()))
    run = re.compile(r"(?:^|[\s;&|(\"'`])(?:" + "|".join(map(re.escape, rule.get("runners", ()))) +
                     r")(?:\s+-{1,2}[\w-]+)*\s+(@?[\w.-]+(?:/[\w.-]+)?)") if rule.get("runners") else None
    runners = frozenset(rule.get("runners", ()))
    out: set[str] = set()
    handed: set[tuple[str, int]] = set()  # (function's last name, index) of a parameter a resolver is handed as it
    calls: dict[str, list] = {}  # last name of a callee -> the arguments of each call of it (any module: a wrapper
    # `dynamicImport(mod)` exported and called by other modules)
    for m in p.modules:
        aside = _Spans([(first, last) for first, last, _ in m.vendored] + [
            (g.anchor.start_line, g.anchor.end_line) for g in p.gaps if g.kind == "parse" and g.anchor.path == m.path])
        made: set[str] = set()  # the names a resolver's argument made at run time is made from (`${pkg}/${file}`)
        held: dict[str, list] = {}  # key -> the values the module's members of that key hold
        named_by = resolvers | {f"{r}.resolve" for r in made_requires(m.caps)} | _made_loaders(m)
        # (`req.resolve("x")` of createRequire's; `load("x")` of `const load = new Function("id", "return import(id)")`)
        for node in find(m.tree.root_node, {"pair", "call_expression", "string", "template_string"}):
            if node.start_point[0] + 1 in aside:
                continue
            if node.type in {"string", "template_string"}:  # a command it builds: `npx cross-env ${vars}`
                out |= set(run.findall(text(node))) if run is not None else set()
                continue
            if node.type == "call_expression":
                fn, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
                out |= _runner_argv(m, args, runners)  # `spawn("npx", ["@scope/cli", "-i", f])`
                named = [args.named_children[0]] if fn is not None and text(fn) in named_by and args is not None \
                    and args.named_children else []
                chain = member_chain(fn) if fn is not None else None
                if chain:  # (by the callee's last name: `Manager.require("x")`, `dynamicImport("x")` of an import)
                    calls.setdefault(chain[-1], []).append(args.named_children if args is not None else [])
                if named and named[0].type == "identifier" and _constant_string(m, named[0]) is not None:
                    # (`load(PI_MODULE_ID)` of `const PI_MODULE_ID = "@acme/pi"`: that string)
                    named = [strip_casts(value_of(m, named[0]))]
                if named and (joined := _joined(named[0])) is not None:  # `import(["@acme", "fed"].join("/"))`
                    out.add(joined)
                    named = []
                if named and string_value(named[0]) is None:  # a string a member of such a name holds, below
                    out |= _package_head(named[0])  # (`req.resolve(`@acme/icons/${group}/${name}`)`: that package)
                    made |= {text(n) for n in find(named[0], {"identifier", "property_identifier"})}
                    out |= _table_values(m, named[0])  # `const t = GRAMMARS[lang]; req.resolve(t + "/package.json")`
                    own = enclosing_function(node)  # `function resolveBin(pkg) { require.resolve(pkg) }`: a string
                    name = _called_as(own) if own is not None else None  # its callers pass there, below
                    index = plain_parameters(own).get(text(named[0])) if name and named[0].type == "identifier" else None
                    handed |= {(name, index)} if index is not None else set()
                    named = []
                given = call_args(node)
                if len(given) == 2 and string_value(given[0]) in keys:  # `app.set("view engine", "ejs")`: a setting
                    named.append(given[1])  # that names the package to load, as a key of an object does
            else:
                key, value = node.child_by_field_name("key"), node.child_by_field_name("value")
                held.setdefault(text(key), []).append(pair_value(node))
                name = string_value(key) if key is not None and key.type == "string" else text(key) if key is not None else None
                named = [] if name not in keys or value is None else \
                    value.named_children if value.type == "array" else [value]
            out |= {v for v in map(string_value, named) if v}
        out |= {v for k in made for v in map(string_value, held.get(k, ())) if v}
    out |= {v for f, i in handed for args in calls.get(f, ()) if i < len(args) and (v := string_value(args[i]))}
    return out


_LOADER_BODY = re.compile(r"^\s*return\s+(?:import|require)\(\s*(\w+)\s*\)\s*;?\s*$")


def _made_loaders(m) -> set[str]:
    """The names of the loaders a module makes at run time so that a bundler or compiler leaves its `import()` alone:
    `const load = new Function("id", "return import(id)")`, also returned by a function called where it is declared
    (`const load = (() => { ...; return new Function(...) })()`)."""
    out = set()
    for made in find(m.tree.root_node, {"new_expression"}):
        args = call_args(made) if text(made.child_by_field_name("constructor")) == "Function" else []
        strings = [string_value(a) for a in args]
        body = _LOADER_BODY.match(strings[-1]) if len(args) == 2 and None not in strings else None
        if body is None or body.group(1) != strings[0]:
            continue
        decl = next((a for a in ancestors(made) if a.type == "variable_declarator"), None)
        name = decl.child_by_field_name("name") if decl is not None else None
        if name is not None and name.type == "identifier":
            out.add(text(name))
    return out


def _constant_string(m, ident: ts.Node) -> str | None:
    """The string a name of the module holds, when its declaration gives it one (`const ID = "@acme/pi"`, `const
    spec = ["@acme", "pi"].join("/")`)."""
    value = strip_casts(value_of(m, ident))
    return string_value(value) if value is not None and value.type == "string" else _joined(value) \
        if value is not None else None


def _joined(node: ts.Node) -> str | None:
    """The string `[...].join(sep)` of a list of written strings makes (`["@acme", "fed"].join("/")`), else None."""
    node = strip_casts(node)
    fn = node.child_by_field_name("function") if node is not None and node.type == "call_expression" else None
    if fn is None or fn.type != "member_expression" or text(fn.child_by_field_name("property")) != "join":
        return None
    items, args = strip_casts(fn.child_by_field_name("object")), call_args(node)
    parts = [string_value(i) for i in items.named_children] if items is not None and items.type == "array" else [None]
    sep = string_value(args[0]) if len(args) == 1 and args[0] is not None else "," if not args else None
    return sep.join(parts) if sep is not None and None not in parts else None


_PACKAGE_HEAD = re.compile(r"(@[\w.-]+/[\w.-]+|[\w.-]+)/")


def _package_head(node: ts.Node) -> set[str]:
    """The package a name made at run time starts with, when its written head names one before a `/`
    (`@acme/icons/${group}/${name}`, `"lodash/" + part`): {name}, else none."""
    node = strip_casts(node)
    while node is not None and node.type == "binary_expression" and text(node.child_by_field_name("operator")) == "+":
        node = strip_casts(node.child_by_field_name("left"))
    head = string_value(node) if node is not None and node.type == "string" else \
        text(node.named_children[0]) if node is not None and node.type == "template_string" and node.named_children \
        and node.named_children[0].type == "string_fragment" else None
    found = _PACKAGE_HEAD.match(head) if head else None
    return {found.group(1)} if found is not None and not found.group(1).startswith(".") else set()


def _called_as(fn: ts.Node) -> str | None:
    """The last name FN is called by: its own or its variable's (syntax.function_name), or the member it is assigned
    to (`Manager.require = function (name) { ... }`: require)."""
    name = function_name(fn)
    up = fn.parent
    if name is None and up is not None and up.type == "assignment_expression" and up.child_by_field_name("right") == fn:
        chain = member_chain(up.child_by_field_name("left"))
        name = chain[-1] if chain else None
    return name


def _table_values(m, arg: ts.Node) -> set[str]:
    """The strings a resolver's argument made at run time may hold through a local read from a table by a key
    (`const t = GRAMMARS[lang]`, GRAMMARS an object literal of the module): each string value of that table."""
    out: set[str] = set()
    for ident in find(arg, {"identifier"}):
        own = enclosing_function(ident)
        written = [a.child_by_field_name("right") for a in find(own, {"assignment_expression"})
                   if text(a.child_by_field_name("left")) == text(ident)] if own is not None else []
        for init in [strip_casts(value_of(m, ident))] + [strip_casts(w) for w in written]:  # (also `name =
            table = strip_casts(init.child_by_field_name("object")) if init is not None \
                and init.type == "subscript_expression" else None  # ALIASES[name]` in its function)
            table = strip_casts(value_of(m, table)) if table is not None and table.type == "identifier" else None
            if table is not None and table.type == "object":
                out |= {v for pair in object_pairs(table).values() if (v := string_value(pair_value(pair)))}
    return out


def _runner_argv(m, args: ts.Node | None, runners: frozenset[str]) -> set[str]:
    """The package a process launch of a runner runs (`spawn("npx", ["-y", "@scope/cli", ...])`, the list written
    there or a local bound to it): its first argument that is no option."""
    given = args.named_children if args is not None else []
    if len(given) < 2 or string_value(given[0]) not in runners:
        return set()
    argv = strip_casts(given[1])
    argv = strip_casts(value_of(m, argv)) if argv is not None and argv.type == "identifier" else argv
    words = [string_value(e) for e in argv.named_children] if argv is not None and argv.type == "array" else []
    first = next((w for w in words if w is None or not w.startswith("-")), None)
    return {first} if first else set()


class _Spans:
    """Line ranges, merged once, for a membership test in O(log n) (a bundle marks thousands of dependency regions,
    and every pair and call of it is tested)."""

    def __init__(self, spans):
        merged: list[list[int]] = []
        for first, last in sorted(spans):
            if merged and first <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], last)
            else:
                merged.append([first, last])
        self.starts = [a for a, _ in merged]
        self.ends = [b for _, b in merged]

    def __contains__(self, line: int) -> bool:
        i = bisect.bisect_right(self.starts, line) - 1
        return i >= 0 and line <= self.ends[i]


def _may_name(p: Program, gap, dep: str, written: dict[str, set[str]]) -> bool:
    """Whether the code a gap left unread may import `dep`: a file whose text is not there (missing, too big to
    load); in a file read with a syntax error, only when the lines of the error region name it as a module (`"dep`);
    in one whose text is there but whose analysis did not run or stopped (too deep, too slow), only when its text
    names it as a package (specifiers.bare_packages, as code shipped in node_modules is read): a file imports a
    package by writing its name, here as in the files read."""
    e = p.entry(gap.anchor.path)
    if e is None or e.text is None:
        return True
    if gap.kind != "parse":
        if e.rel not in written:
            written[e.rel] = _named_packages(e.text)
        return dep in written[e.rel]
    region = "\n".join(e.text.splitlines()[gap.anchor.start_line - 1:gap.anchor.end_line])
    return any(q + dep in region for q in ("\"", "'", "`"))


def _used(dep: str, names: set[str]) -> bool:
    """Whether a dependency is imported (or run by a script of the manifest); a type package `@types/x` (also
    `@types/scope__x`) is used when `x` is, and `@types/node` by any code that runs on Node."""
    if dep.startswith("@types/"):
        base = dep[len("@types/"):]
        base = "@" + base.replace("__", "/", 1) if "__" in base else base
        return base == "node" or _used(base, names)
    return any(n == dep or n.startswith(dep + "/") for n in names)


def _unpinned_launch(p: Program) -> list[Record]:
    """README commands that launch this package from the registry with no version (or `@latest`): a deployment that
    follows them runs whatever is newest. Installs (`yarn add`), workspace and build commands launch nothing."""
    names = {(doc.value or {}).get("name") for doc in p.manifests() if isinstance(doc.value, dict)}
    found: dict[tuple[str, str], list] = {}  # (README, package) -> every (fence, command, args) that launches it
    for path, fence, command, args in launch_snippets(p):
        spec = launched_package(command, args)
        if spec is None:
            continue
        name, _, version = spec[1:].partition("@") if spec.startswith("@") else spec.partition("@")
        name = spec[0] + name if spec.startswith("@") else name
        if name in names and version in ("", "latest"):
            found.setdefault((path, name), []).append((fence, command, args))
    out = []
    for (path, name), uses in sorted(found.items()):
        uses = [u for u in _server_launches(uses) if _runs_server(p, name, *u[1:])]
        if not uses:
            continue
        shown = list(dict.fromkeys(f"{c} {' '.join(a)}" for _, c, a in uses))  # each distinct command once
        said = ", ".join(f"`{x}`" for x in shown[:3]) + (f" and {len(shown) - 3} more" if len(shown) > 3 else "")
        tags = {(launched_package(c, a) or "").endswith("@latest") for _, c, a in uses}
        how = "with no version" if tags == {False} else "with the moving tag @latest" if tags == {True} else \
            "with no version or the moving tag @latest"
        out.append(record("finding", "FND", "unpinned-launch", f"{path.rsplit('/', 1)[-1]}/{name}",
                          f"{path} tells operators to launch {name} {how} ({said}"
                          + (f", {len(uses)} times in all" if len(uses) > 1 else "") + "): "
                          "a deployment that follows it runs whatever is latest, not the audited revision",
                          [line(path, f.line, f.end_line) for f, _, _ in uses], "analyse.mismatches.launch", package=name,
                          launch_commands=[{"command": c, "args": a, "anchor": line(path, f.line, f.end_line).as_json()}
                                           for f, c, a in uses]))
    return out


# Runners that fetch a package from the registry and run it: the command, then the words before the package.
_RUNNERS = {"npx": (), "bunx": (), "npm": ("exec",), "pnpm": ("dlx",), "yarn": ("dlx",), "bun": ("x",)}
_VALUED = {"-p", "--package", "-c", "--call"}  # options of npx that take a value
_INFORMATION = {"help", "--help", "-h", "version", "--version", "-v", "-V"}  # words that print and start nothing


def _server_launches(uses: list) -> list:
    """USES (fence, command, args) that launch the server: not a line that only asks the package for its help or
    version (`npx pkg help`, `npx pkg --version`), which prints and exits; and when every host configuration of the
    README (a JSON `command`/`args` entry) runs the package with a subcommand (`["-y", "@x/cli", "serve"]`), a shell
    line running it with another (`npx @x/cli scan`) runs another command of a CLI, not the server."""
    def after(command: str, args: list[str]) -> list[str]:
        spec = launched_package(command, args)
        return args[args.index(spec) + 1:] if spec in args else []

    def sub(command: str, args: list[str]) -> str | None:
        rest = after(command, args)
        return rest[0] if rest and not rest[0].startswith("-") else None
    uses = [(f, c, a) for f, c, a in uses if not ((rest := after(c, a)) and set(rest) <= _INFORMATION)]
    configured = [sub(c, a) for f, c, a in uses
                  if load_json(f.content.encode("utf-8", "surrogatepass"), MAX_DEPTH)[0] is not None]
    if not configured or None in configured:
        return uses
    return [(f, c, a) for f, c, a in uses if sub(c, a) in configured]


def _runs_server(p: Program, name: str, command: str, args: list[str]) -> bool:
    """Whether the runner line may start the server: False only when the bin it runs is known and reaches no server
    while another bin of the package does (`npx yahoo-finance2 search AAPL` runs the `yahoo-finance2` command line,
    the server being the `yahoo-finance-mcp` bin). Without `-p`, a runner runs the package's only bin, or the one
    named like the package (unscoped); a line that names a bin reaching a server (`npx -y @x/cli x-mcp`) is taken
    for a launch of it. False as well when no entry of the package (its bins, main and exports, what they launch)
    reaches the server's code: a script run by hand (`src/site-intel/mcp-server.js` of a CLI whose `npx pkg init`
    sets up a folder) is started by no runner line."""
    serving = {s.module.path for s in p.servers} | {t.module.path for t in p.tools}
    entries = entry_modules(p) if p.linker is not None and serving else []
    if entries and not p.linker.closure(entries, dynamic=True) & serving:
        return False
    if p.linker is None or any(a in {"-p", "--package", "-c", "--call"} or a.startswith(("--package=", "--call="))
                               for a in args):
        return True
    doc = next((d for d in p.manifests() if isinstance(d.value, dict) and d.value.get("name") == name), None)
    bins = doc.value.get("bin") if doc is not None else None
    bins = {name.rsplit("/", 1)[-1]: bins} if isinstance(bins, str) else bins
    if not isinstance(bins, dict) or len(bins) < 2 or not all(isinstance(v, str) for v in bins.values()):
        return True
    base = posixpath.dirname(doc.path)

    def reaches(target: str) -> bool:
        path = module_for(p, base, posixpath.normpath(target))
        return path is not None and bool(p.linker.closure([path], dynamic=True) & serving)
    run = bins.get(name.rsplit("/", 1)[-1])
    named = [bins[a] for a in args if a in bins and a != name.rsplit("/", 1)[-1]]  # (`npx -y @x/cli x-mcp`: the
    if run is None or any(reaches(b) for b in named):  # line names the server's bin, whatever the runner makes of it)
        return True
    return reaches(run) or not any(reaches(b) for b in bins.values() if b != run)


def launched_package(command: str, args: list[str]) -> str | None:
    """The package spec a command fetches and runs (`npx -y pkg@1 --flag` gives `pkg@1`), or None: not a runner, or
    a subcommand that installs or builds (`yarn add`, `pnpm --filter x build`)."""
    runner = command.rsplit("/", 1)[-1]
    if runner not in _RUNNERS:
        return None
    words = list(args)
    for sub in _RUNNERS[runner]:
        if not words or words.pop(0) != sub:
            return None
    package = None
    i = 0
    while i < len(words):
        w = words[i]
        if w in {"-p", "--package"} and i + 1 < len(words):
            package = words[i + 1]
            i += 2
            continue
        if w.startswith("--package="):
            package = w.split("=", 1)[1]
        elif w in _VALUED:
            i += 2
            continue
        elif not w.startswith("-"):
            return package or w
        i += 1
    return package


def render_unchecked(p: Program) -> list[Record]:
    """Renderers whose output depends on fields the gate copied without a check."""
    out = []
    for f in p.flows:
        unchecked = {c.field for g in f.gates for c in g.copies if not c.checked}
        for e in f.emits:
            if not e.renderer or not unchecked:
                continue
            used = sorted({u.field for name in unchecked for u in uses(p, name) if u.function == e.renderer})
            if used:
                out.append(record("finding", "FND", "render-unchecked", f"{f.module.name}#{e.renderer}",
                                  f"`{e.renderer}` builds its {e.stream} text from field(s) never checked at runtime: {', '.join(used)}; "
                                  "a value of any type is rendered as if it conformed to the schema",
                                  [at(e.renderer_path or f.module.path, e.renderer_node)], "analyse.mismatches.render", renderer=e.renderer, fields=used))
    return out
