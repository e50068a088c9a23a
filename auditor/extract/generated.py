"""Tools a registration makes under names the code computes at run time from data the package ships (an OpenAPI or
Postman document read and walked at startup): read by running the boundary's code to the registration
(extract/interpret.py), one tool per name the runs reach it with.

Asked only of a registration whose name nothing else reads (extract/summaries.py found no instance, no choice). A
run that does not go to its end (out of steps, or a way to the registration that depends on what is not known) keeps
the tools it reached and a gap that says the list may be incomplete."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from auditor.extract import highlevel, jsvalues
from auditor.extract.interpret import Interpreter
from auditor.extract.syntax import call_args
from auditor.model import Anchor, Gap

MAX_TOOLS = 5_000  # names one registration is read with


def registered(reg: highlevel.Registration, interpreter: Interpreter, vocab: dict, link,
               known: frozenset[str] = frozenset()) -> list[tuple]:
    """(tool, dispatch, registration, ()) for each name a run reaches REG with; [] when none. A name of KNOWN (a
    tool read otherwise: the descriptor object the loop hands on) gives its dispatch, not a second tool."""
    rules = vocab["high_level"]["registrations"]
    rule = rules.get(reg.method)
    if rule is None or rule["kind"] != "tool" or reg.node is None or reg.node.type != "call_expression" \
            or highlevel.patched(reg.node, reg.method):
        return []  # (what a wrapper over the method registers is read where the method is called)
    args = highlevel.registration_args(reg.node, vocab, reg.module)
    if not args:
        return []
    written = call_args(reg.node)
    at = [next((i for i, a in enumerate(written) if a.id == n.id), None) for n in args]
    probed = interpreter.probe(reg.node, reg.module)
    hl = vocab["high_level"]
    signature = rule["signature"]
    if signature != "object" and rule["receiver"] == "server" and highlevel.object_first(list(args), reg.module,
                                                                                          hl["object"]):
        signature = "object"
    seen: set[str] = set()
    out: list[tuple] = []
    unread = 0
    complete = probed.complete
    for values in probed.arguments:
        got = [interpreter.plain(values[i]) if i is not None and i < len(values) else None for i in at]
        name, description, spec = _read(got, signature, hl)
        if not isinstance(name, str) or not name:
            unread += 1
            continue
        if name in seen:
            continue
        if len(seen) == MAX_TOOLS:
            complete = False  # (the names past it are not listed)
            break
        seen.add(name)
        handed, bind = args, None
        if spec is not None and spec.node is not None and spec.module is not None:  # `addTool(tool)`, `tool` an
            lit, lit_module = spec.node, spec.module                                 # object a literal made
            handed = (lit, *args[1:])
            bind = (lambda n, m, lit=lit, lm=lit_module: (n, lm) if n is not None and n.id == lit.id else (n, m))
        site = highlevel.Site(module=reg.module, call=reg.node, rule={**rule, "signature": signature},
                              method=reg.method, args=handed, bind=bind, name=name,
                              description=description if isinstance(description, str) else None)
        tool, dispatch, registration = highlevel.read(site, vocab, link.resolver(reg.module), link)
        if name in known:
            tool = None
            registration = replace(registration, gaps=tuple(g for g in registration.gaps
                                                            if g.kind not in {"schema", "description"}))
        out.append((tool, dispatch, registration, ()))
    if out and (unread or not complete):
        out.append((None, None, replace(reg, gaps=(_gap(reg, len(out), unread, complete),)), ()))
    return out


def _read(values: list, signature: str, hl: dict) -> tuple[Any, Any, Any]:
    """(name, description, the object holding them) of one reached registration's arguments."""
    first = values[0] if values else None
    if signature == "object":
        if not isinstance(first, dict):
            return None, None, None
        keys = hl["object"]
        return first.get(keys["name"]), first.get(keys["description"]), \
            first if isinstance(first, jsvalues.JsObject) else None
    second = values[1] if len(values) > 1 else None
    if signature == "config":
        return first, second.get(hl["config"]["description"]) if isinstance(second, dict) else None, None
    return first, second if isinstance(second, str) else None, None


def _gap(reg: highlevel.Registration, found: int, unread: int, complete: bool) -> Gap:
    why = []
    if unread:
        why.append(f"{unread} time(s) a run reached it with a name that is not read")
    if not complete:
        why.append("a run did not go to its end (out of steps, or a way to it that depends on what is not known), "
                   f"or it was reached with more than {MAX_TOOLS} names")
    return Gap(kind="registration", detail=(
        f"{reg.method}(): {found} tool(s) read by running the code to it on the package's own data; "
        f"{'; '.join(why)}: the tools listed may not be all it registers"),
        anchor=Anchor(path=reg.module.path, start_line=reg.node.start_point[0] + 1,
                      end_line=reg.node.end_point[0] + 1))
