"""Files a launcher runs in a process of its own: a package entry that starts Node on another file of the package
(`spawn(process.execPath, [join(root, "dist", "bin", "cli.js"), ...])`, `fork(join(__dirname, "server.js"))`) has
that file for an entry too. The file is named by the literal names a path is joined from (`join(base, "dist", "bin",
"cli.js")`, the base a folder the launcher computes), read from the package's folder or the launcher's own; only a
file of the boundary is one."""

from __future__ import annotations

import posixpath

from auditor.extract.program import Module
from auditor.extract.syntax import call_args, member_chain, string_value, strip_casts, text

_RUNS = frozenset({"spawn", "spawnSync", "execFile", "execFileSync", "fork"})  # coupling: node:child_process
_NODE = frozenset({"process.execPath", "process.argv[0]"})  # the running Node binary
_JOINS = frozenset({"join", "resolve"})  # path.join / path.resolve
_CODE = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts")


def runs_node(module: Module) -> bool:
    """Whether MODULE starts a Node process on a script: `fork(...)`, or `spawn`/`execFile` of `process.execPath`
    or `"node"`."""
    for call in module.nodes("call"):
        chain = member_chain(call.child_by_field_name("function")) or ()
        args = call_args(call)
        if chain[-1:] == ("fork",) or chain and chain[-1] in _RUNS and args \
                and (text(strip_casts(args[0])) in _NODE or string_value(args[0]) == "node"):
            return True
    return False


def scripts(module: Module, package: str) -> list[str]:
    """The paths, relative to the folder PACKAGE, of code files MODULE names by literal names joined to a base
    (`join(root, "dist", "bin", "cli.js")`): each as from the package's folder, then as from the module's own."""
    out: list[str] = []
    here = posixpath.dirname(module.path)
    for call in module.nodes("call"):
        chain = member_chain(call.child_by_field_name("function")) or ()
        if not chain or chain[-1] not in _JOINS:
            continue
        tail: list[str] = []
        for arg in reversed(call_args(call)[1:]):
            name = string_value(arg)
            if name is None:
                break
            tail.insert(0, name)
        if not tail or not tail[-1].endswith(_CODE):
            continue
        rel = posixpath.normpath(posixpath.join(*tail))
        for base in (package, here):
            path = posixpath.normpath(posixpath.join(base, rel)) if base else rel
            inner = posixpath.relpath(path, package) if package else path
            if not inner.startswith("..") and inner not in out:
                out.append(inner)
    return out
