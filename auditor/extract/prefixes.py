"""Tool names of templates that start with a value set at run time (`${prefix}${tool.name}`, the prefix an option):
the name the rest of the template gives, which is the advertised name when that value is left empty."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract.program import Module
from auditor.extract.syntax import text, unescape


def open_prefix(values, node: ts.Node | None, module: Module, frame) -> tuple[str, str] | None:
    """For a template name whose leading substitutions VALUES cannot read under FRAME while the rest reads: (the name
    with those left empty, the leading substitutions as written). None for any other name, or an empty rest."""
    node, module = values.definition(*values.bound(node, module, frame))
    if node is None or node.type != "template_string":
        return None
    parts: list[str] = []
    unread: list[str] = []
    for child in node.named_children:
        if child.type != "template_substitution":
            parts.append(unescape(text(child)))
            continue
        inner = child.named_children[0] if child.named_children else None
        value = values.string(*values.bound(inner, module, frame), frame=frame) if inner is not None else None
        if value is None and (parts or inner is None):  # not read, and not leading: no name
            return None
        if value is None:
            unread.append("${" + text(inner) + "}")
        else:
            parts.append(value)
    name = "".join(parts)
    return (name, "".join(unread)) if unread and name else None
