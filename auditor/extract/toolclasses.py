"""Frameworks whose server serves the tool classes it finds on disk at start (kb/sdk.yaml framework_tool_classes):
no code names them, so every class of the boundary that extends the framework's tool base class is a tool, where the
framework's server is constructed. Its name and description are literal fields of the class; its implementation
the callback method; its schema (a field of the framework's own shape) is a detail not read."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract.bindings import imports
from auditor.extract.frameworks import Read, _imported
from auditor.extract.highlevel import Registration, _gap
from auditor.extract.program import ClassInfo, Module
from auditor.extract.server import Dispatch, ServerDecl, ToolDecl
from auditor.extract.syntax import NOT_LITERAL, class_base, statement_of, string_value, text

FORM = "framework-class"  # the form of a tool read from a tool class (coverage ledger, routes)


def tool_classes(modules, vocab: dict) -> Read:
    """The servers of the frameworks of kb/sdk.yaml framework_tool_classes the modules construct, and the tool
    classes of the boundary each serves."""
    out = Read()
    for spec in vocab.get("framework_tool_classes") or ():
        users = [m for m in modules if any(src == spec["package"] or src.startswith(spec["package"] + "/")
                                           for src, _ in m.imports)]
        servers = [_server(m, new, spec) for m in users for new in m.nodes("new")
                   if _imported(imports(m), new.child_by_field_name("constructor")) == (spec["package"], spec["server"])]
        if not servers:
            continue
        tools, dispatches, regs, unread = [], [], [], set()
        for m in users:
            for info in m.classes.values():
                if _imported(imports(m), class_base(info.node)) == (spec["package"], spec["base"]):
                    made = _tool(m, info, spec)
                    if made is None:  # a tool class whose name is not read: its module stays unresolved
                        unread.add(m.path)
                        continue
                    tools.append(made[0])
                    dispatches.append(made[1])
                    regs.append(made[2])
        if not tools:  # no tool class read: what the server finds on disk is not known (other_frameworks says so)
            continue
        out = Read(servers=out.servers + tuple(servers), tools=out.tools + tuple(tools),
                   dispatches=out.dispatches + tuple(dispatches), registrations=out.registrations + tuple(regs),
                   read_whole=out.read_whole | ({m.path for m in users} - unread))
    return out


def _server(m: Module, new: ts.Node, spec: dict) -> ServerDecl:
    decl = new.parent if new.parent is not None and new.parent.type == "variable_declarator" else None
    return ServerDecl(module=m, var=text(decl.child_by_field_name("name")) if decl is not None else "<expression>",
                      cls=spec["server"], node=statement_of(new), info={}, capabilities=(), caps_node=None)


def _tool(m: Module, info: ClassInfo, spec: dict) -> tuple[ToolDecl, Dispatch, Registration] | None:
    """The tool a class declares: None when its name field is not a literal string."""
    cls = info.node
    fields = {k: f.child_by_field_name("value") for k, f in info.fields.items()}
    methods = info.methods
    name = string_value(fields.get(spec["name"]))
    if name is None:
        return None
    desc_node = fields.get(spec["description"])
    description = string_value(desc_node)
    callback = methods.get(spec["callback"])
    gaps = (_gap(m, cls, f"tool {name!r}: the `{spec['input_schema']}` field of class {info.name} "
                 f"is {spec['package']}'s own shape: not read", kind="schema"),)
    tool = ToolDecl(module=m, name=name, node=cls, binding=info.name, description=description,
                    description_node=desc_node if description is not None else None, described=desc_node is not None,
                    schema=NOT_LITERAL, schema_node=fields.get(spec["input_schema"]), form=FORM, schema_form="unknown",
                    gaps=gaps)
    target_name = f"{info.name}.{spec['callback']}" if callback is not None else None
    dispatch = Dispatch(module=m, tool=name, node=cls, subject=f"{spec['package']} tool class", target=callback,
                        target_name=target_name, handler=None, form="registration")
    reg = Registration(module=m, kind="tool", method=FORM, name=name, node=cls, fn=callback, gaps=gaps)
    return tool, dispatch, reg
