"""State containers (class fields, module-level collections) and their read/write inventory."""

from __future__ import annotations

from dataclasses import dataclass, field

import tree_sitter as ts

from auditor.extract.program import Module
from auditor.extract.syntax import CAST_TYPES, NOT_LITERAL, literal, callee_text, enclosing_function, lines, member_chain, strip_casts, text

COLLECTION_VALUES = frozenset({"array", "object"})
COLLECTION_CLASSES = frozenset({"Map", "Set", "WeakMap", "WeakSet", "Array", "Object"})


@dataclass(frozen=True, kw_only=True, slots=True)
class Access:
    kind: str  # declaration | write | content-read | metadata-read
    how: str  # push, assign, index-assign, length, keys, membership, value ...
    line: int
    end_line: int
    function: str  # qualified name of the enclosing function
    node: ts.Node | None = field(default=None, compare=False, hash=False)  # the site, for flow analysis


@dataclass(frozen=True, kw_only=True, slots=True)
class Container:
    module: Module
    key: str  # Class.field or variable name
    node: ts.Node  # the declaration
    type_text: str
    init_text: str
    accesses: tuple[Access, ...]

    @property
    def writes(self) -> tuple[Access, ...]:
        return tuple(a for a in self.accesses if a.kind == "write")


def _is_collection(value: ts.Node | None, type_text: str) -> bool:
    value = strip_casts(value)
    if value is not None:
        if value.type in COLLECTION_VALUES:
            return True
        if value.type == "new_expression" and text(value.child_by_field_name("constructor")) in COLLECTION_CLASSES:
            return True
    return type_text.endswith("[]") or type_text.split("<")[0].strip() in {"Record", "Map", "Set", "Array"}


def containers(module: Module, vocab: dict) -> list[Container]:
    """Every state container of a module with each site that touches it, classified (configuration fields apart:
    `settings`)."""
    return [c for c in _fields(module, vocab) if not is_setting(c) and not _scalar_initialized(c)]


def settings(module: Module, vocab: dict) -> list[Container]:
    """Configuration fields of a module's classes: a value set once, in the constructor (a switch read from the
    environment or an option), and only read afterwards. Reading it is not reading stored content back, and it does
    not grow: it configures, it does not hold what calls send."""
    return [c for c in _fields(module, vocab) if is_setting(c)]


def is_setting(c: Container) -> bool:
    """A class field that is not a collection, written only by an assignment in its class's constructor (or only
    by its initializer: `private readonly quiet = process.env.Q === "1"`)."""
    if "." not in c.key or _is_collection(c.node.child_by_field_name("value"), c.type_text):
        return False
    cls = c.key.split(".", 1)[0]
    in_constructor = all(a.how == "assign" and a.function == f"{cls}.constructor" for a in c.writes)
    return in_constructor and (bool(c.writes) or _scalar_initialized(c))


def _scalar_initialized(c: Container) -> bool:
    """A class field given a value that is not a collection where it is declared: never a state container."""
    value = c.node.child_by_field_name("value")
    return "." in c.key and value is not None and not _is_collection(value, c.type_text)


def _fields(module: Module, vocab: dict) -> list[Container]:
    found: list[tuple[str, ts.Node, str, str, set[tuple[str, ...]]]] = []
    for cls in module.classes.values():
        static_ok = True
        for fname, fnode in cls.fields.items():
            value = fnode.child_by_field_name("value")
            tnode = fnode.child_by_field_name("type")
            ttext = text(tnode).lstrip(":").strip() if tnode is not None else ""
            computed = value is not None and literal(value, {}) is NOT_LITERAL
            if not static_ok or not (_is_collection(value, ttext) or value is None and ttext or computed):
                continue  # (a field with a computed scalar value is followed to tell a setting: `containers` leaves it out)
            roots = {("this", fname)} | {(var, fname) for var, c in module.instances.items() if c == cls.name}
            found.append((f"{cls.name}.{fname}", fnode, ttext, text(value), roots))
    collections = {v: n for v, n in module.toplevel.items() if n.parent is not None and _is_collection(n, "")}
    written = _written(module, set(collections), vocab)  # one pass over the module's names, not one per collection
    for vname, value in collections.items():
        decl = value.parent
        # A module-level `const` literal is a constant (a descriptor, a table) unless something
        # writes to it; `let`/`var` collections are state from the start.
        constant = decl.parent is not None and text(decl.parent).startswith("const")
        if not constant or vname in written:
            tnode = decl.child_by_field_name("type")
            found.append((vname, decl, text(tnode).lstrip(":").strip() if tnode is not None else "", text(value), {(vname,)}))
    return _inventory(module, found, vocab)


def instances(module: Module, cls: str, vocab: dict) -> list[Container]:
    """The module's holders of an instance of class CLS, as containers of their own: a top-level `x = new CLS(...)`
    and a class field set to `new CLS(...)` (where it is declared or by `this.x = new CLS(...)`). Each access is
    classified as a collection's would be (`x.set(k, v)` a write, `x.get(k)` a read), so that how the instance is
    used can be judged as a collection's use is (annotations: a class wrapping a Map used as a cache)."""
    def made(value: ts.Node | None) -> bool:
        value = strip_casts(value)
        return value is not None and value.type == "new_expression" \
            and text(value.child_by_field_name("constructor")) == cls
    found: list[tuple[str, ts.Node, str, str, set[tuple[str, ...]]]] = []
    for vname, value in module.toplevel.items():
        if value.parent is not None and made(value):
            found.append((vname, value.parent, "", text(value), {(vname,)}))
    for c in module.classes.values():
        for fname, fnode in c.fields.items():
            if made(fnode.child_by_field_name("value")):
                found.append((f"{c.name}.{fname}", fnode, "", text(fnode.child_by_field_name("value")),
                              {("this", fname)}))
    held = {f for f, _, _, _, _ in found}
    for node in module.nodes("member"):  # `this.x = new CLS(...)` in a method of the class holding x
        up = node.parent
        chain = member_chain(node) if up is not None and up.type == "assignment_expression" \
            and up.child_by_field_name("left") == node and made(up.child_by_field_name("right")) else None
        c = next((c for c in module.classes.values() if c.node.start_byte <= node.start_byte < c.node.end_byte),
                 None) if chain is not None and len(chain) == 2 and chain[0] == "this" else None
        if c is not None and f"{c.name}.{chain[1]}" not in held:
            held.add(f"{c.name}.{chain[1]}")
            found.append((f"{c.name}.{chain[1]}", up, "", text(up.child_by_field_name("right")), {("this", chain[1])}))
    return _inventory(module, found, vocab)


def _inventory(module: Module, found: list, vocab: dict) -> list[Container]:
    """FOUND's containers (key, declaring node, type text, initializer text, the member chains that name it), each
    with every site of the module that touches it, classified."""
    if not found:
        return []
    by_root: dict[tuple[str, ...], int] = {}
    for i, (_, _, _, _, roots) in enumerate(found):
        for r in roots:
            by_root[r] = i
    sites: list[list[Access]] = [[] for _ in found]
    for i, (_, node, _, _, _) in enumerate(found):
        start, end = lines(node)
        sites[i].append(Access(kind="declaration", how="declaration", line=start, end_line=end, node=node,
                               function="<class>" if node.type.endswith("field_definition") else "<module>"))
    for node in module.nodes("member") + module.nodes("ident"):
        chain = member_chain(node) if node.type != "subscript_expression" else None
        if chain is None or chain not in by_root:
            continue
        if node.type == "identifier" and _is_declaration_name(node):
            continue
        if node.type == "identifier" and node.parent is not None and node.parent.type == "member_expression" and node.parent.child_by_field_name("property") == node:
            continue
        if node.parent is not None and node.parent.type == "member_expression" and node.parent.child_by_field_name("object") == node and member_chain(node.parent) in by_root:
            continue  # `this` inside `this.x`: the longer chain is the reference
        kind, how, site = classify(node, vocab)
        start, end = lines(site)
        func = enclosing_function(node)
        sites[by_root[chain]].append(Access(kind=kind, how=how, line=start, end_line=end, node=site,
                                            function=module.qualified(func)))
    return [Container(module=module, key=key, node=node, type_text=ttext, init_text=init,
                      accesses=tuple(sorted(set(s), key=_order)))
            for (key, node, ttext, init, _), s in zip(found, sites)]


def _order(a: Access) -> tuple:
    """Every compared field of an Access: a total order (ties left to set order would follow string hashing, which
    changes from run to run)."""
    return a.line, a.kind, a.how, a.end_line, a.function


def _written(module: Module, names: set[str], vocab: dict) -> set[str]:
    """Those of NAMES that some reference in the module writes to."""
    out: set[str] = set()
    for node in module.nodes("ident") if names else ():
        name = text(node)
        if name in names and name not in out and not _is_declaration_name(node) and classify(node, vocab)[0] == "write":
            out.add(name)
    return out


def _is_declaration_name(node: ts.Node) -> bool:
    parent = node.parent
    return parent is not None and parent.type == "variable_declarator" and parent.child_by_field_name("name") == node


def classify(ref: ts.Node, vocab: dict) -> tuple[str, str, ts.Node]:
    """Classify one reference to a container: (kind, how, node spanning the site)."""
    parent = ref.parent
    mutating = set(vocab["mutating_methods"])
    if parent is None:
        return "content-read", "value", ref
    if parent.type in {"assignment_expression", "augmented_assignment_expression"} and parent.child_by_field_name("left") == ref:
        return "write", "assign", parent
    if parent.type == "member_expression" and parent.child_by_field_name("object") == ref:
        prop = text(parent.child_by_field_name("property"))
        call = parent.parent
        is_call = call is not None and call.type == "call_expression" and call.child_by_field_name("function") == parent
        if is_call and prop in mutating:
            return "write", prop, call
        if is_call and prop in vocab["entry_methods"]:
            # `m.get(k).push(v)`, `m.get(k)!.push(v)`: a write into the stored entry, as `o[k].push(v)` is.
            entry = call
            while entry.parent is not None and entry.parent.type in CAST_TYPES:
                entry = entry.parent
            outer = entry.parent
            if outer is not None and outer.type == "member_expression" and outer.child_by_field_name("object") == entry:
                method = text(outer.child_by_field_name("property"))
                site = outer.parent
                if method in mutating and site is not None and site.type == "call_expression" and site.child_by_field_name("function") == outer:
                    return "write", f"{prop}().{method}", site
        if prop in vocab["metadata_members"]:
            return "metadata-read", prop, parent
        if is_call and prop in vocab["metadata_methods"]:
            return "metadata-read", prop, call
        return "content-read", prop, call if is_call else parent
    if parent.type == "subscript_expression" and parent.child_by_field_name("object") == ref:
        outer = parent.parent
        if outer is not None and outer.type in {"assignment_expression", "augmented_assignment_expression"} and outer.child_by_field_name("left") == parent:
            return "write", "index-assign", outer
        if outer is not None and outer.type == "unary_expression" and text(outer.child_by_field_name("operator")) == "delete":
            return "write", "delete", outer
        if outer is not None and outer.type == "member_expression" and outer.child_by_field_name("object") == parent:
            prop = text(outer.child_by_field_name("property"))
            call = outer.parent
            if call is not None and call.type == "call_expression" and prop in mutating:
                return "write", f"[]{prop}", call
        if outer is not None and outer.type == "unary_expression" and text(outer.child_by_field_name("operator")) == "!":
            return "metadata-read", "membership", outer
        if outer is not None and outer.type == "parenthesized_expression" and outer.parent is not None and outer.parent.type in {"if_statement", "while_statement"}:
            return "metadata-read", "membership", parent
        return "content-read", "index", parent
    if parent.type == "binary_expression" and text(parent.child_by_field_name("operator")) == "in" and parent.child_by_field_name("right") == ref:
        return "metadata-read", "membership", parent
    if parent.type == "arguments" and parent.parent is not None and parent.parent.type == "call_expression":
        call = parent.parent
        if callee_text(call) in vocab["metadata_functions"]:
            return "metadata-read", callee_text(call).split(".")[-1], call
        return "content-read", f"argument of {callee_text(call)}", call
    return "content-read", "value", ref
