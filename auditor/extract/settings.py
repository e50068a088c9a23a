"""Configuration that gates a route: a class field set once (extract/state.py settings) or a module constant set from
the environment, read in the condition around an output; each named with where it is set and the variables it reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from auditor.extract.syntax import text, walk

if TYPE_CHECKING:
    from auditor.extract.facts import Program


def gating(p: "Program", fx, module, guards) -> list[dict]:
    """The settings read in GUARDS (conditions of MODULE around a route's site): fields, then module constants.
    FX (analyse/effects.py) names the environment variables they are set from."""
    spans = [(g.start_byte, g.end_byte) for g in guards]
    fields = [c for c in p.settings if c.module is module and any(
        a.kind != "write" and a.node is not None and s <= a.node.start_byte < e for a in c.accesses for s, e in spans)]
    return [setting_record(p, fx, c) for c in sorted(fields, key=lambda c: c.key)] + constant_settings(p, fx, module, guards)


def setting_record(p: Program, fx, c) -> dict:
    """A configuration field (extract/state.py settings): its key, where it is set, and the environment variables
    (FX) read in the assignments that set it."""
    sets = [a for a in c.writes if a.node is not None]
    spans = [(a.node.start_byte, a.node.end_byte) for a in sets] + [(c.node.start_byte, c.node.end_byte)]
    env = sorted({n for s in (fx.sites if fx is not None else ()) if s.kind == "effect-env" and s.module is c.module
                  and any(a <= s.node.start_byte < b for a, b in spans) for n in s.names})
    first = min((a.line for a in sets), default=c.node.start_point[0] + 1)
    where = f"{c.module.path}:{first}"
    source = f"from the environment variable{'s' if len(env) > 1 else ''} {', '.join(env)}" if env else \
        "in the constructor" if sets else "where it is declared"
    return {"key": c.key, "line": first, "env": env, "path": c.module.path, "text": f"`{c.key}` (set once {source}, {where})"}


def constant_settings(p: Program, fx, module, guards) -> list[dict]:
    """Module constants read in GUARDS whose value reads the environment (`const QUIET = process.env.Q === "1"`, in this
    module or imported): configuration, like a field set once in a constructor."""
    out, seen = [], set()
    for g in guards:
        for n in walk(g):
            if n.type != "identifier" or text(n) in seen:
                continue
            where = p.linker.binding(module, text(n)) if p.linker is not None else (module, text(n))
            value = where[0].toplevel.get(where[1]) if where is not None else None
            decl = value.parent.parent if value is not None and value.parent is not None else None
            if decl is None or not text(decl).startswith("const"):
                continue
            env = sorted({x for s in (fx.sites if fx is not None else ()) if s.kind == "effect-env" and s.module is where[0]
                          and value.start_byte <= s.node.start_byte < value.end_byte for x in s.names})
            if env:
                seen.add(text(n))
                ln = value.start_point[0] + 1
                out.append({"key": where[1], "line": ln, "env": env, "path": where[0].path,
                            "text": f"`{where[1]}` (a constant set once from the environment variable{'s' if len(env) > 1 else ''} "
                                    f"{', '.join(env)}, {where[0].path}:{ln})"})
    return out
