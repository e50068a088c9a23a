"""Frameworks whose server serves the tool classes it finds on disk at start (kb/sdk.yaml framework_tool_classes):
no code names them, so every class of the boundary that extends the framework's tool base class is a tool, where the
framework's server is constructed. Its name and description are literal fields of the class; its implementation
the callback method; its schema (a field of the framework's own shape) is a detail not read."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract.bindings import imports
from auditor.extract.frameworks import Read, _imported
from auditor.extract.highlevel import Registration, _gap
from auditor.extract.program import Module, class_name_of
from auditor.extract.server import Dispatch, ServerDecl, ToolDecl
from auditor.extract.syntax import NOT_LITERAL, class_base, find, statement_of, string_value, text

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
            for cls in find(m.tree.root_node, {"class_declaration", "class"}):
                if _imported(imports(m), class_base(cls)) == (spec["package"], spec["base"]):
                    made = _tool(m, cls, spec)
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


def _tool(m: Module, cls: ts.Node, spec: dict) -> tuple[ToolDecl, Dispatch, Registration] | None:
    """The tool a class declares: None when its name field is not a literal string."""
    fields, methods = _members(cls)
    name = string_value(fields.get(spec["name"]))
    if name is None:
        return None
    desc_node = fields.get(spec["description"])
    description = string_value(desc_node)
    callback = methods.get(spec["callback"])
    gaps = (_gap(m, cls, f"tool {name!r}: the `{spec['input_schema']}` field of class {class_name_of(cls) or '<class>'} "
                 f"is {spec['package']}'s own shape: not read", kind="schema"),)
    tool = ToolDecl(module=m, name=name, node=cls, binding=class_name_of(cls) or None, description=description,
                    description_node=desc_node if description is not None else None, described=desc_node is not None,
                    schema=NOT_LITERAL, schema_node=fields.get(spec["input_schema"]), form=FORM, schema_form="unknown",
                    gaps=gaps)
    target_name = f"{class_name_of(cls)}.{spec['callback']}" if callback is not None else None
    dispatch = Dispatch(module=m, tool=name, node=cls, subject=f"{spec['package']} tool class", target=callback,
                        target_name=target_name, handler=None, form="registration")
    reg = Registration(module=m, kind="tool", method=FORM, name=name, node=cls, fn=callback, gaps=gaps)
    return tool, dispatch, reg


def _members(cls: ts.Node) -> tuple[dict[str, ts.Node], dict[str, ts.Node]]:
    """(field name -> its value, method name -> the method) of a class body."""
    body = cls.child_by_field_name("body")
    fields, methods = {}, {}
    for c in body.named_children if body is not None else ():
        key = c.child_by_field_name("name") or c.child_by_field_name("property")
        if key is None:
            continue
        if c.type == "method_definition":
            methods[text(key)] = c
        elif c.type in {"public_field_definition", "field_definition"} and c.child_by_field_name("value") is not None:
            fields[text(key)] = c.child_by_field_name("value")
    return fields, methods
