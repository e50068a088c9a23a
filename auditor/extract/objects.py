"""Objects: tool descriptors, record types, state containers, result payloads, stderr text, docs, manifest."""

from __future__ import annotations

import json

from auditor.extract import inputs
from auditor.extract.facts import Program
from auditor.extract.records import at, key, line, record, unique
from auditor.extract.syntax import NOT_LITERAL, enclosing, excerpt, text
from auditor.model import Record


def schema_properties(schema) -> list[dict]:
    """Properties of a literal JSON Schema: name, type, required, description and constraints."""
    if not isinstance(schema, dict):
        return []
    required = set(schema.get("required") or [])
    out = []
    for name, spec in (schema.get("properties") or {}).items():
        spec = spec if isinstance(spec, dict) else {}
        constraints = {k: v for k, v in spec.items() if k not in {"type", "description"}}
        out.append({"name": name, "type": spec.get("type"), "required": name in required,
                    "description": spec.get("description"), "constraints": constraints})
    return out


def objects(p: Program) -> list[Record]:
    out: list[Record] = []
    for t in p.tools:
        if t.description_node is not None:
            n = len((t.description or "").splitlines())
            out.append(record("object", "OBJ", "tool-description", t.name,
                              f"description of tool {t.name!r}: natural-language text, {n} lines, shipped to the model by tools/list",
                              [at(t.module.path, t.description_node)], "extract.server.tools",
                              tool=t.name, text=t.description, form="natural-language"))
        props = schema_properties(t.schema)
        req = [x["name"] for x in props if x["required"]]
        literal = t.schema is not NOT_LITERAL
        rule = "extract.server.tools" if t.form == "descriptor" else "extract.highlevel.registrations"
        written = {"zod": " (zod, as the SDK advertises it)", "zod-to-json-schema": " (converted from zod)"}.get(t.schema_form, "")
        coerced = {"coercions": [{"property": c, "does": what, "line": ln, **({"file": f} if f != t.module.path else {})}
                                 for c, what, ln, f in t.coercions]} if t.coercions else {}
        out.append(record("object", "OBJ", "tool-schema", t.name,
                          f"input schema of tool {t.name!r}{written}: {len(props)} properties, {len(req)} required" if literal
                          else f"input schema of tool {t.name!r}: not a literal ({excerpt(t.schema_node, 40)}…)",
                          [at(t.module.path, t.schema_node)], rule,
                          tool=t.name, properties=props, required=req, literal=literal, form="symbolic",
                          schema_form=t.schema_form, **coerced))
        if t.output_schema_node is not None:
            oprops = schema_properties(t.output_schema) if isinstance(t.output_schema, dict) else []
            out.append(record("object", "OBJ", "tool-output-schema", t.name,
                              f"output schema of tool {t.name!r}" + (f" (zod, as the SDK advertises it): {len(oprops)} properties ("
                                                                     + ", ".join(x["name"] for x in oprops) + ")" if oprops else ": not a literal")
                              + "; listed by tools/list, and the SDK checks each result's structuredContent against it",
                              [at(t.module.path, t.output_schema_node)], rule, tool=t.name, properties=oprops, form="symbolic"))
        if t.annotations_node is not None:
            hints = ", ".join(f"{k} {json.dumps(v)}" for k, v in t.annotations.items()) or "no literal entries"
            out.append(record("object", "OBJ", "tool-annotations", t.name,
                              f"annotations of tool {t.name!r}: {hints}; hints the host may show or act on, never enforced",
                              [at(t.module.path, t.annotations_node)], rule, tool=t.name, annotations=t.annotations))
    validated = inputs.validated(p)
    gates_by_type = {}
    for f in p.flows:
        for g in f.gates:
            if g.record_type and g.result_node is not None:
                gates_by_type.setdefault(g.record_type, []).append(g)
    for m in p.modules:
        for node in m.nodes("interface"):
            name = text(node.child_by_field_name("name"))
            body = node.child_by_field_name("body") or node.child_by_field_name("value")
            fields = []
            for sig in body.named_children if body is not None else []:
                if sig.type == "property_signature":
                    optional = any(c.type == "?" for c in sig.children)
                    fields.append({"name": text(sig.child_by_field_name("name")), "optional": optional,
                                   "type": text(sig.child_by_field_name("type")).lstrip(":").strip()})
            built = [at(g.path, g.result_node) for g in gates_by_type.get(name, [])]
            parsed = [r.tool for r in validated if r.declared is not None and r.declared[1] == node]
            built += [at(t.module.path, t.schema_node) for t in parsed if t.schema_node is not None]
            out.append(record("object", "OBJ", "record", key(m.name, name),
                              f"record type `{name}`: {len(fields)} fields ({sum(1 for f in fields if not f['optional'])} required)"
                              + (f"; built by {', '.join(g.name for g in gates_by_type[name])}" if name in gates_by_type else "")
                              + (f"; the input of tool(s) {', '.join(repr(t.name) for t in parsed)}, parsed with its zod input schema on every call"
                                 if parsed else ""),
                              [at(m.path, node)] + built, "extract.objects.interfaces", fields=fields))
    for c in p.containers:
        writes = c.writes
        accesses = [{"kind": a.kind, "how": a.how, "function": a.function,
                     "anchor": line(c.module.path, a.line, a.end_line).as_json()} for a in c.accesses]
        counts = {k: sum(1 for a in c.accesses if a.kind == k) for k in ("write", "content-read", "metadata-read")}
        out.append(record("object", "OBJ", "state", key(c.module.name, c.key),
                          f"state container `{c.key}`" + (f": {c.type_text}" if c.type_text else "") + f" = {c.init_text}; "
                          f"{counts['write']} write(s), {counts['content-read']} content read(s), {counts['metadata-read']} metadata read(s)",
                          [at(c.module.path, c.node)] + [line(c.module.path, a.line, a.end_line) for a in writes],
                          "extract.state.containers", accesses=accesses, **{k.replace("-", "_"): v for k, v in counts.items()}))
    for c in p.settings:
        reads = [a for a in c.accesses if a.kind not in {"write", "declaration"}]
        out.append(record("object", "OBJ", "configuration", key(c.module.name, c.key),
                          f"configuration field `{c.key}`" + (f": {c.type_text}" if c.type_text else "")
                          + (f", set once in `{c.key.split('.', 1)[0]}.constructor`" if c.writes else ", set once where it is declared")
                          + f" and only read afterwards ({len(reads)} read(s)): "
                          "a switch, not a state container", [at(c.module.path, c.node)] + [line(c.module.path, a.line, a.end_line) for a in c.writes],
                          "extract.state.settings", reads=[line(c.module.path, a.line, a.end_line).as_json() for a in reads]))
    outputs_of = {d.target_name: d.tool for d in p.dispatches if d.target_name}
    with_output = {t.name for t in p.tools if t.output_schema_node is not None}
    for f in p.flows:
        for r in f.results:
            keys = ", ".join(k for k, _ in r.fields) or "plain text"
            tool = outputs_of.get(f.name)
            structured = ""
            if r.structured is not None:
                structured = f"; structuredContent `{r.structured[:40]}`" + (
                    f", checked by the SDK against OBJ:tool-output-schema:{tool}" if tool in with_output else "")
            out.append(record("object", "OBJ", "result", key(f.module.name, f"{f.name}:{r.kind}"),
                              f"{r.kind} result of `{f.name}`: {{{keys}}}" + (" with isError: true" if r.kind == "error" else "")
                              + " in one text content block" + structured,
                              [at(f.module.path, enclosing(r.node, {"catch_clause"}) if r.in_catch else r.node)], "extract.outputs.results",
                              fields=[{"key": k, "source": v} for k, v in r.fields], reads=[list(x) for x in r.reads],
                              **({"structured_content": r.structured} if r.structured is not None else {})))
        for e in f.emits:
            anchors = [at(f.module.path, e.call)]
            if e.renderer_node is not None:
                anchors.append(at(e.renderer_path or f.module.path, e.renderer_node))
            what = f"rendered by `{e.renderer}`" if e.renderer else f"`{e.argument[:60]}`"
            out.append(record("object", "OBJ", e.stream, key(f.module.name, f.name),
                              f"text written to {e.stream} by `{f.name}`: {what}", anchors, "extract.outputs.emits",
                              argument=e.argument, renderer=e.renderer))
    for path, doc in sorted(p.docs.items()):
        entry = p.entry(path)
        if entry is None or entry.context:
            continue
        sections = [h.text for h in doc.headings]
        out.append(record("object", "OBJ", "readme", entry.rel,
                          f"documentation text {entry.rel}: {len(doc.headings)} headings, {len(doc.items)} list items, {len(doc.fences)} code blocks",
                          [line(path, 1, max(doc.total_lines, 1))], "extract.readme", sections=sections, form="natural-language"))
    for doc in p.manifests():
        value = doc.value if isinstance(doc.value, dict) else {}
        out.append(record("object", "OBJ", "manifest", p.entry(doc.path).rel,
                          f"package manifest {value.get('name')!r} version {value.get('version')!r}: "
                          f"{len(value.get('dependencies') or {})} dependencies, bin {sorted((value.get('bin') or {}) if isinstance(value.get('bin'), dict) else [value.get('bin')])}",
                          [line(doc.path, 1, doc.total_lines)], "extract.manifest", name=value.get("name"),
                          version=value.get("version"), description=value.get("description"),
                          dependencies=value.get("dependencies") or {}, bin=value.get("bin")))
    return unique(out)
