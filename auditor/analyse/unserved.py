"""Tools that tools/list advertises and the tools/call dispatch has no branch for, where that dispatch is read whole
and its fallback refuses every name it does not handle: each call of such a tool fails as an unknown tool. The
ledger accounts for the tool (what a call does is known: the refusal), and a finding says so."""

from __future__ import annotations

import tree_sitter as ts

from auditor.extract.facts import Program
from auditor.extract.records import at, record
from auditor.extract.server import Fallback
from auditor.extract.syntax import enclosing_function, find, object_pairs, pair_value, string_value, strip_casts, text
from auditor.model import Record



def refused(p: Program) -> dict[str, Fallback]:
    """Tool name -> the fallback its calls meet, for each advertised tool no dispatch names, when: one tools/call
    handler dispatches every tool by a case of one switch on its name, every name it reads is a literal, the
    tools/list handlers' lists are read whole, and the switch's `default` is the handler's one fallback and refuses
    (its first statement throws, or returns an `isError: true` result). Empty when any of that does not hold (an
    `if` chain may run code for a name before it meets its fallback: `if (route) { await call(route) }`). Read once
    per program (the ledger and the findings both ask)."""
    memo = p.linker.memo if p.linker is not None else {}
    if "unserved.refused" not in memo:
        memo["unserved.refused"] = _refused(p)
    return memo["unserved.refused"]


def _refused(p: Program) -> dict[str, Fallback]:
    calls = [h for h in p.handlers if h.method == "tools/call"]
    if len(calls) != 1 or not p.dispatches or p.unread or any(l.unread or l.unnamed for l in p.listings):
        return {}
    handler = calls[0]
    if any(d.handler is not handler or d.form != "switch-case" for d in p.dispatches) \
            or len({d.node.parent.id for d in p.dispatches}) != 1:
        return {}
    fallbacks = [f for f in p.fallbacks if f.handler is handler]
    if len(fallbacks) != 1 or fallbacks[0].node.type != "switch_default" \
            or fallbacks[0].node.parent.id != p.dispatches[0].node.parent.id or not _refuses(fallbacks[0].node):
        return {}
    dispatched = {d.tool for d in p.dispatches}
    # (a name the dispatching code writes anyway, in a case out of reach behind a guard, is refused there, not by the
    # fallback: not this finding's to say)
    written = {string_value(n) for fn in {handler.fn, *(enclosing_function(d.node) for d in p.dispatches)}
               if fn is not None for n in find(fn, {"string"})}
    return {t.name: fallbacks[0] for t in p.tools
            if t.form == "descriptor" and t.name not in dispatched and t.name not in written}


def _refuses(node: ts.Node) -> bool:
    """Whether a fallback refuses whatever reaches it: its first statement throws, or returns a result object that
    says `isError: true` (a `default:` case, a block, or the one statement)."""
    while node is not None and node.type in {"switch_default", "statement_block", "else_clause"}:
        node = next((c for c in node.named_children if c.type != "comment"), None)
    if node is None:
        return False
    if node.type == "throw_statement":
        return True
    value = strip_casts(node.named_children[0]) if node.type == "return_statement" and node.named_children else None
    flag = object_pairs(value).get("isError") if value is not None and value.type == "object" else None
    return flag is not None and text(pair_value(flag)) == "true"


def findings(p: Program) -> list[Record]:
    """One finding per advertised tool every call of which the dispatch's fallback refuses (refused)."""
    out, found, seen = [], refused(p), set()
    for t in sorted((t for t in p.tools if t.name in found), key=lambda t: (t.name, t.module.path)):
        if t.name in seen:  # (the same descriptor in another build of the code)
            continue
        seen.add(t.name)
        fb = found[t.name]
        where = fb.module or fb.handler.home
        out.append(record(
            "finding", "FND", "unserved-tool", t.name,
            f"tool {t.name!r} is advertised by tools/list, but the tools/call dispatch has no branch for it: every "
            f"call meets the fallback at {where.path}:{fb.node.start_point[0] + 1}, which refuses it as an unknown tool",
            [at(t.module.path, t.node), at(where.path, fb.node)], "analyse.unserved.findings", tool=t.name))
    return out
