"""The SDK's server classes as a bundler inlines them without its markers (a minified bundle writes `var gt=class{
constructor(e,t){this._registeredTools={},...}}` with no `// node_modules/...` line to say whose code it is): a class
of the module whose members include all of one kb/sdk.yaml `inlined_servers` entry's is a copy of that SDK class, and
`new gt(...)` constructs that server (bindings.class_name). Vocabulary: kb/sdk.yaml `inlined_servers`."""

from __future__ import annotations

from dataclasses import replace

import tree_sitter as ts

from auditor.extract.program import Module, class_info
from auditor.extract.syntax import class_base, find, member_chain, text

KEY = "inlined.servers"  # module.memo: local class name -> the SDK class it is a copy of


def mark(module: Module, vocab: dict) -> Module:
    """MODULE with the classes that are copies of an SDK server class remembered (local name -> SDK class name, in
    its memo, for bindings.class_name), and their code, with that of the classes of the module they extend (the
    SDK's Protocol), no longer its own (captures, classes): it is the SDK's, not the server's (its `this.server =
    new Server()`, its default request handlers), as a bundler's marked region of it is. Read again on every build
    (the vocabulary may differ)."""
    wanted = {sdk: frozenset(members) for sdk, members in (vocab.get("inlined_servers") or {}).items()}
    found: dict[str, str] = {}
    for name, info in module.classes.items() if wanted else ():
        members = set(info.fields) | _assigned(info.methods.get("constructor"))
        hit = sorted(sdk for sdk, needed in wanted.items() if needed <= members)
        if len(hit) == 1 and name not in wanted:  # (a class written under the SDK's own name is read as that)
            found[name] = hit[0]
    spans = []  # and the classes not in module.classes (a class expression of a webpack bundle's module function:
    known = {info.node.id for info in module.classes.values()}  # `t.McpServer = class McpServer {...}`), by any name
    for node in find(module.tree.root_node, {"class", "class_declaration"}) if wanted else ():
        if node.id in known:
            continue
        info = class_info(node, "")
        members = set(info.fields) | _assigned(info.methods.get("constructor"))
        if len([sdk for sdk, needed in wanted.items() if needed <= members]) == 1:
            spans.append((node.start_byte, node.end_byte))
    if not found and not spans:
        module.memo[KEY] = found
        return module
    todo = list(found)
    while todo:  # each copy, and the classes of the module it extends
        info = module.classes.get(todo.pop())
        if info is None or any(a == info.node.start_byte for a, _ in spans):
            continue
        spans.append((info.node.start_byte, info.node.end_byte))
        base = class_base(info.node)
        todo += [text(base)] if base is not None and base.type == "identifier" else []
    def own(node: ts.Node) -> bool:
        return not any(a <= node.start_byte < b for a, b in spans)
    caps = {k: [n for n in nodes if own(n)] for k, nodes in module.caps.items()}
    classes = {k: info for k, info in module.classes.items() if own(info.node)}  # (no call resolves into them)
    return replace(module, caps=caps, classes=classes, memo={KEY: found})


def sdk_class(module: Module, name: str) -> str | None:
    """The SDK class NAME (a class of MODULE) is a copy of, when mark() found it one."""
    return (module.memo.get(KEY) or {}).get(name)


def _assigned(ctor: ts.Node | None) -> set[str]:
    """The members `this.x = ...` the constructor CTOR assigns in its own statements (sequences included, as a
    minifier joins them: `this.a={},this.b={}`)."""
    body = ctor.child_by_field_name("body") if ctor is not None else None
    out: set[str] = set()
    todo = [s.named_children[0] for s in (body.named_children if body is not None else [])
            if s.type == "expression_statement" and s.named_children]
    while todo:
        node = todo.pop()
        if node.type == "sequence_expression":
            todo += node.named_children
        elif node.type == "assignment_expression":
            chain = member_chain(node.child_by_field_name("left"))
            if chain and len(chain) == 2 and chain[0] == "this":
                out.add(chain[1])
            right = node.child_by_field_name("right")
            todo += [right] if right is not None and right.type == "assignment_expression" else []
        elif node.type == "parenthesized_expression":
            todo += node.named_children
    return out

