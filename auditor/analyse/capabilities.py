"""Request handlers the SDK refuses: a low-level `Server` that sets a handler for a request method (tools/list,
prompts/get, completion/complete...) without declaring the capability the SDK requires for it, in the constructor's
options or by `registerCapabilities`: `Server.setRequestHandler` throws ("Server does not support tools (required for
tools/list)"): the handler is refused, and the server stops unless the error is caught. Said only when every part is
read: the capabilities are a literal, nothing registers capabilities later, and the SDK range of the package's
manifest admits a version that checks (kb/sdk.yaml handler_capabilities)."""

from __future__ import annotations

import posixpath
import re

from auditor.extract.facts import Program, dependency
from auditor.extract.records import at, record
from auditor.extract.syntax import member_chain
from auditor.model import Record

_VERSION = re.compile(r"v?(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:[-+][\w.+-]*)?")
_NEWEST = (10 ** 6, 0, 0)  # (no upper bound)


def findings(p: Program) -> list[Record]:
    """One finding per capability a low-level server lacks for a handler it sets (the first such handler)."""
    vocab = p.vocab
    needs = {m: r for r in vocab.get("handler_capabilities") or [] for m in r["methods"]}
    if any((member_chain(c.child_by_field_name("function")) or ("",))[-1] == "registerCapabilities"
           for m in p.modules for c in m.nodes("call")):
        return []  # (capabilities declared later, by code this does not follow: nothing is said)
    out, seen = [], set()
    for s in p.servers:
        if s.cls not in vocab["server_classes"] or s.cls in vocab["high_level"]["server_classes"] \
                or dependency(s.module.path) or s.capabilities is None or s.options_whole is not True:
            continue
        spec = _sdk_range(p, s.module.path, vocab["sdk_packages"])
        for h in p.handlers:
            rule = needs.get(h.method)
            if rule is None or h.module is not s.module or h.server_var != s.var or rule["capability"] in s.capabilities:
                continue
            if spec is None or not admits_from(spec[1], rule["since"]) or (s.module.path, s.var, rule["capability"]) in seen:
                continue
            seen.add((s.module.path, s.var, rule["capability"]))
            declared = ", ".join(f"`{c}`" for c in s.capabilities) or "none"
            out.append(record(
                "finding", "FND", "capability-undeclared", f"{s.var}/{rule['capability']}",
                f"`{s.var}` sets a {h.method} handler but its `{s.cls}` declares no `{rule['capability']}` capability "
                f"(declared: {declared}): the SDK's setRequestHandler throws there (\"Server does not support "
                f"{rule['capability']}\", {spec[0]} from {rule['since']} on; the package asks for {spec[1]!r}): the "
                f"handler is refused, and the server stops unless that error is caught",
                [at(s.module.path, s.node), at(h.module.path, h.node)], "analyse.capabilities.findings"))
    return out


def _sdk_range(p: Program, path: str, packages: list[str]) -> tuple[str, str] | None:
    """(package, version range) of the SDK the nearest package.json above PATH depends on (dependencies, then
    devDependencies for a bundled SDK, then peerDependencies); None when it names none."""
    docs = {posixpath.dirname(d.path): d.value for d in p.manifests() if isinstance(d.value, dict)}
    folder = posixpath.dirname(path)
    while True:
        doc = docs.get(folder)
        if doc is not None:
            for key in ("dependencies", "devDependencies", "peerDependencies"):
                deps = doc.get(key) if isinstance(doc.get(key), dict) else {}
                hit = next(((n, deps[n]) for n in packages if isinstance(deps.get(n), str)), None)
                if hit is not None:
                    return hit
            return None
        if not folder:
            return None
        folder = posixpath.dirname(folder)


def admits_from(spec: str, since: str) -> bool:
    """Whether the npm version range SPEC admits a version at or after SINCE (`^1.17.2` admits 1.22.0; `1.17.2` and
    `~1.17.0` do not); a range this does not read (a tag, a URL, `workspace:`) is taken to admit it only when it is
    `latest` or `*`."""
    floor = _triple(since)
    return any(_upper(alt.strip()) > floor for alt in spec.split("||"))


def _upper(alt: str) -> tuple[int, int, int]:
    """The least version above every version the one range ALT admits (exclusive), or (0, 0, 0) when not read."""
    if alt in {"", "*", "latest", "x", "X"}:
        return _NEWEST
    if " - " in alt:  # `1.2.0 - 1.4.0`
        return _after(alt.split(" - ", 1)[1].strip(), inclusive=True)
    bound = _NEWEST
    for part in alt.split():
        op = re.match(r"(\^|~|>=|<=|>|<|=)?\s*(.*)", part)
        kind, rest = op.group(1) or "", op.group(2)
        if not _VERSION.fullmatch(rest):
            return (0, 0, 0)
        major, minor, patch = _VERSION.fullmatch(rest).groups()
        wild = minor is None or not minor.isdigit() or patch is None or not patch.isdigit()
        if kind in {">", ">="}:
            continue
        if kind == "<":
            top = _triple(rest)
        elif kind == "<=":
            top = _after(rest, inclusive=True)
        elif kind == "^":
            top = (int(major) + 1, 0, 0) if int(major) > 0 or minor is None or not minor.isdigit() else \
                (0, int(minor) + 1, 0) if int(minor) > 0 or patch is None or not patch.isdigit() else \
                (0, 0, int(patch) + 1)
        elif kind == "~":
            top = (int(major), int(minor) + 1, 0) if minor is not None and minor.isdigit() else (int(major) + 1, 0, 0)
        elif wild:  # `1`, `1.x`, `1.2.x`
            top = (int(major) + 1, 0, 0) if minor is None or not minor.isdigit() else (int(major), int(minor) + 1, 0)
        else:  # an exact version
            top = _after(rest, inclusive=True)
        bound = min(bound, top)
    return bound


def _triple(v: str) -> tuple[int, int, int]:
    m = _VERSION.fullmatch(v.strip())
    nums = [int(x) if x is not None and x.isdigit() else 0 for x in m.groups()] if m else [0, 0, 0]
    return (nums[0], nums[1], nums[2])


def _after(v: str, inclusive: bool) -> tuple[int, int, int]:
    major, minor, patch = _triple(v)
    return (major, minor, patch + 1) if inclusive else (major, minor, patch)
