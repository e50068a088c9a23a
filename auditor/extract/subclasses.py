"""Server classes of the package's own: a class that extends an SDK server class (kb/sdk.yaml server_classes),
directly or through classes of its own, across modules and bundle chunk aliases, constructs a server of that class."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract.bindings import class_name
from auditor.extract.program import Module
from auditor.extract.syntax import call_args, class_base, find, text

MAX_CHAIN = 8  # classes extending classes followed


def sdk_class(module: Module, ctor: ts.Node, vocab: dict, link) -> tuple[str, list[ts.Node], Module] | None:
    """For `new C(...)`, C a class of the boundary that extends a server class: that SDK class, with the arguments
    the SDK's constructor gets (those of the `super(...)` call of the nearest constructor that has one; the
    arguments of `new` when no class of the chain declares a constructor) and their module. None otherwise."""
    return sdk_class_named(module, text(ctor), vocab, link)


def sdk_class_named(module: Module, name: str, vocab: dict, link) -> tuple[str, list[ts.Node], Module] | None:
    """sdk_class() for the class NAME (as MODULE names it)."""
    if link is None:
        return None
    args, amod = None, module
    for _ in range(MAX_CHAIN):
        found = link._class(module, name)
        if found is None:
            return None
        module, info = found
        ctor_fn = info.methods.get("constructor")
        if ctor_fn is not None and args is None:
            sup = next((c for c in find(ctor_fn, {"call_expression"}) if c.child_by_field_name("function") is not None
                        and c.child_by_field_name("function").type == "super"), None)
            args, amod = (call_args(sup), module) if sup is not None else ([], module)
        base = class_base(info.node)
        if base is None:
            return None
        cls = class_name(module, base, vocab["sdk_packages"])
        if cls in vocab["server_classes"]:
            return cls, args if args is not None else [], amod
        name = text(base)
    return None


def defined(modules: list[Module], vocab: dict, link) -> list[tuple[Module, str, str, list[ts.Node], Module]]:
    """(module, class name, SDK class, the arguments its `super(...)` gives, their module) of each class of the
    boundary that extends an SDK server class: a library's server, constructed by whoever imports it."""
    out = []
    for m in modules:
        for name in sorted(m.classes):
            found = sdk_class_named(m, name, vocab, link)
            if found is not None:
                out.append((m, name, *found))
    return out
