"""Components: servers, transport and entrypoint, request handlers, stateful classes, methods, package."""

from __future__ import annotations

from auditor.extract.facts import Program
from auditor.extract.flow import is_validator
from auditor.extract.manifest import key_span
from auditor.extract.records import at, key, line, record, unique
from auditor.extract.syntax import enclosing, strip_casts, text, walk
from auditor.model import Record


def components(p: Program) -> list[Record]:
    out: list[Record] = []
    for s in p.servers:
        caps = ", ".join(s.capabilities) if s.capabilities is not None else "not a literal"
        out.append(record("component", "CMP", "server", key(s.module.name, s.var),
                          f"MCP {s.cls} instance `{s.var}`: name {s.info.get('name')!r}, version {s.info.get('version')!r}, capabilities: {caps}",
                          [at(s.module.path, s.node)], "extract.server.servers",
                          server_class=s.cls, name=s.info.get("name"), version=s.info.get("version"),
                          capabilities=list(s.capabilities) if s.capabilities is not None else None))
    for l in p.launches:
        anchors = [at(l.module.path, l.fn)] + ([at(l.module.path, l.invocation)] if l.invocation is not None else [])
        fatal = f"; fatal error -> exit {l.exit_code}" if l.fatal is not None else "; no fatal-error handler"
        out.append(record("component", "CMP", "entrypoint", key(l.module.name, l.fn_name),
                          f"entrypoint `{l.fn_name}()` binds {l.transport or 'a transport'} and connects the server{fatal}",
                          anchors, "extract.server.launches", transport=l.transport))
    for h in p.handlers:
        out.append(record("component", "CMP", "handler", key(h.module.name, h.method),
                          f"request handler for {h.method} on `{h.server_var}`" + ("; tool-name dispatch" if h.method == "tools/call" else ""),
                          [at(h.module.path, h.node)], "extract.server.handlers", method=h.method))
    flow_by_fn = {f.fn: f for f in p.flows}
    for m in p.modules:
        for cls in m.classes.values():
            holders = [c for c in p.containers if c.module is m and c.key.startswith(cls.name + ".")]
            if not holders:
                continue
            sites = _instantiations(p, m, cls.name)
            module_scope = sites and all(enclosing(n, {'function_declaration', 'method_definition', 'arrow_function'}) is None for _, n in sites)
            out.append(record("component", "CMP", "class", key(m.name, cls.name),
                              f"class `{cls.name}` holds state ({', '.join(c.key.split('.', 1)[1] for c in holders)}); "
                              f"{len(sites)} instantiation site(s)" + (", module scope: one instance per process" if module_scope else ""),
                              [at(m.path, cls.node)] + [at(sm.path, n) for sm, n in sites], "extract.program.classes",
                              fields=[c.key for c in holders]))
            for name, meth in cls.methods.items():
                role = _role(meth, flow_by_fn.get(meth))
                out.append(record("component", "CMP", "method", key(m.name, f"{cls.name}.{name}"),
                                  f"method `{cls.name}.{name}`: {role}", [at(m.path, meth)], "extract.program.classes", role=role))
    for doc in p.manifests():
        value = doc.value if isinstance(doc.value, dict) else {}
        span = key_span(doc, ["bin", "main", "files", "scripts"])
        anchors = [line(doc.path, *span)] if span else [line(doc.path, 1, doc.total_lines)]
        anchors += [line(j.path, 1, j.total_lines) for path, j in sorted(p.jsons.items()) if path.rsplit("/", 1)[-1].startswith("tsconfig")]
        build = (value.get("scripts") or {}).get("build")
        out.append(record("component", "CMP", "package", _rel(p, doc.path),
                          f"package {value.get('name')!r}: build {build!r}, bin {value.get('bin')!r}, files {value.get('files')!r}",
                          anchors, "extract.manifest", name=value.get("name"), bin=value.get("bin"), files=value.get("files"),
                          scripts=value.get("scripts"), dependencies=sorted((value.get("dependencies") or {}))))
    return unique(out)


def _instantiations(p: Program, m, name: str) -> list:
    """(module, node) of every `new NAME(...)` of the class NAME of module M, in any module that imports it."""
    out = []
    for sm in p.modules:
        for n in sm.nodes("new"):
            ctor = n.child_by_field_name("constructor")
            if ctor is None or ctor.type != "identifier":
                continue
            where = p.linker.binding(sm, text(ctor)) if p.linker is not None else (sm, text(ctor))
            if where is not None and where[0] is m and where[1] == name:
                out.append((sm, n))
    return out


def _rel(p: Program, path: str) -> str:
    e = p.entry(path)
    return e.rel if e is not None else path


def _role(meth, fl) -> str:
    if is_validator(meth):
        return "validation (throws on a failed predicate, returns a record)"
    rtype = text(meth.child_by_field_name("return_type")).lstrip(":").strip()
    returns = [strip_casts(n.named_children[0]) for n in walk(meth) if n.type == "return_statement" and n.named_children]
    if rtype in {"string", "Promise<string>"} or (returns and all(r is not None and r.type in {"template_string", "string", "binary_expression"} for r in returns)):
        return "rendering (builds text)"
    if fl is not None:
        does = [name for name, present in (("validation", fl.gates), ("state writes", fl.writes),
                                           ("response construction", fl.results)) if present]
        if len(does) > 1:
            return f"orchestration ({', '.join(does)})"
        if does:
            return does[0]
    return "helper"
