"""README claims for any server: documented tools, parameters, environment and arguments (extract/documented.py)
against the code."""

from __future__ import annotations

import functools
import posixpath
import re
from dataclasses import replace

from auditor.analyse import validation
from auditor.analyse.claims import CONSUMERS
from auditor.analyse.coverage import tool_names_unknown
from auditor.analyse.effects import Effects, covers
from auditor.extract.documented import DocParam, DocTool, documented_env, documented_tools
from auditor.extract import entrypoints
from auditor.extract.facts import Program, entry_modules
from auditor.extract.objects import schema_properties
from auditor.extract.readme import MarkdownDoc
from auditor.extract.routes import launch_snippets
from auditor.extract.scope import server_readmes
from auditor.extract.syntax import NOT_LITERAL
from auditor.model import Anchor, Record, merge_anchors

# README type words -> the JSON Schema types they allow (None: not a type word; not compared).
_TYPES = {"string": {"string"}, "str": {"string"}, "text": {"string"}, "number": {"number", "integer"},
          "integer": {"integer", "number"}, "int": {"integer", "number"}, "float": {"number"},
          "boolean": {"boolean"}, "bool": {"boolean"}, "object": {"object"}, "array": {"array"}, "list": {"array"}}


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _section(doc: MarkdownDoc, line: int) -> str:
    title = "opening"
    for h in doc.headings:
        if h.line <= line:
            title = h.text
    return title


def _claim(kind: str, k: str, rel: str, doc: MarkdownDoc, quote: str, anchors, verdict: str, cited: list[str],
           mismatch: str, operations: list[str], **attrs) -> Record:
    anchors = merge_anchors(anchors)
    return Record(category="claim", id=f"CLM:{kind}:{k}@readme:{rel}" if k else f"CLM:{kind}@readme:{rel}", kind=kind,
                  summary=f"{quote} (readme, {_section(doc, anchors[0].start_line)}): {verdict}", anchors=anchors,
                  rule=f"analyse.generic.{kind.replace('readme-', '').replace('-', '_')}",
                  attrs={"quote": quote, "channel": f"readme:{rel}", "section": _section(doc, anchors[0].start_line),
                         "consumer": CONSUMERS["readme"], "operations": operations, "verdict": verdict,
                         "routes": sorted(dict.fromkeys(cited)), "mismatch": mismatch, **attrs})


# -- the checks ------------------------------------------------------------------------------

def _tool_claims(p: Program, rel: str, doc: MarkdownDoc, docs: list[DocTool], routes: list[Record],
                 unknown: list[str]) -> list[Record]:
    """`unknown`: why the tools found may not be all (coverage.tool_names_unknown), once per audit."""
    tools = {t.name: t for t in p.tools}
    dispatch = {}
    for r in routes:
        if r.kind in {"dispatch", "list"}:
            for name in ([r.attrs.get("tool")] if r.kind == "dispatch" else r.attrs.get("tools", [])):
                dispatch.setdefault(name, []).append(r.id)
    fallbacks = [r.id for r in routes if r.kind == "fallback"]
    registered = ", ".join(repr(n) for n in sorted(tools)) or "no tool"
    if unknown:  # a tool not found may still be registered: what is missing is not a contradiction
        registered += f" (and maybe more: {unknown[0]}" + (f"; {len(unknown) - 1} more reason(s)" if len(unknown) > 1 else "") + ")"
    # (a value a registered tool's parameter enumerates: `- `overview`` under "Packaging Guide Topics", the values of
    # `topic`, names no tool)
    enumerated = {str(v) for t in p.tools for x in schema_properties(t.schema)
                  for v in (x["constraints"].get("enum") or []) if isinstance(x["constraints"].get("enum"), list)}
    out, matched = [], set()
    for d in _merged(docs):
        t = tools.get(d.name)
        if t is None and d.name in enumerated and d.name not in dispatch:
            continue
        near = [n for n in tools if _norm(n) == _norm(d.name)] if t is None else []
        pt = t if t is not None else tools[near[0]] if len(near) == 1 else None  # the tool the parameters are checked against
        props = {x["name"]: x for x in schema_properties(pt.schema)} if pt is not None else {}
        matched |= {pt.name} if pt is not None else set()
        documented = {x.name for x in d.params}
        if not tools:
            verdict, mismatch, cited = "unsupported", "no tool registration was extracted from the boundary, so the documented tool cannot be checked", []
        elif t is None and unknown:
            verdict, cited = "unsupported", []
            mismatch = f"no tool found by the documented name {d.name!r}; the server registers {registered}"
        elif t is None and d.name in dispatch:  # a branch of tools/call serves the name: callable, not advertised
            verdict, cited = "partial", dispatch[d.name]
            mismatch = f"a call by the documented name {d.name!r} reaches its branch of the tools/call dispatch, but the " \
                f"tool list does not advertise it (the server lists {registered})"
        elif t is None:
            verdict, cited = "contradicted", fallbacks
            mismatch = f"the server registers {registered}; a call by the documented name {d.name!r} is rejected as an unknown tool" \
                + (f" (the registered {pt.name!r} differs only in case or punctuation)" if pt is not None else "")
        elif documented and props and set(props) - documented:
            verdict, cited = "partial", dispatch.get(d.name, []) + [f"OBJ:tool-schema:{d.name}"]
            mismatch = f"the schema of {d.name!r} also accepts {', '.join(sorted(set(props) - documented))}, which the README does not document"
        else:
            verdict, mismatch, cited = "supported", "", dispatch.get(d.name, [])
        out.append(_claim("readme-tool", d.name, rel, doc, f"tool {d.name}", [d.anchor], verdict, cited, mismatch,
                          ["provide a tool"], tool=d.name, **({"documented_description": d.description} if d.description else {})))
        read = functools.cache(lambda pt=pt: validation.read_fields(p, pt) if pt is not None and pt.form == "descriptor"
                               else frozenset())  # (asked only of a parameter the schema lacks)
        out += [_param_claim(rel, doc, d, x, pt, props, dispatch, registered, not unknown, read)
                for x in {x.name: x for x in d.params}.values()]
    if docs and tools:
        extra = sorted(set(tools) - matched)  # a tool documented under a near name is not undocumented
        out.append(_claim("readme-tool-list", "", rel, doc, "tools documented: " + ", ".join(dict.fromkeys(d.name for d in docs)),
                          [d.anchor for d in docs], "partial" if extra else "supported",
                          [i for n in sorted(tools) for i in dispatch.get(n, [])],
                          f"the server also registers {', '.join(map(repr, extra))}, which the README does not document" if extra else "",
                          ["provide a tool"], undocumented=extra))
    return out


def _merged(docs: list[DocTool]) -> list[DocTool]:
    """One DocTool a name: the last place that documents it, with the parameters of every place (a tool in a Tools
    table and again in its own section below, whose parameters the table does not list)."""
    out: dict[str, DocTool] = {}
    for d in docs:
        prev = out.get(d.name)
        seen = {x.name for x in prev.params} if prev is not None else set()
        out[d.name] = d if prev is None else replace(d, params=prev.params + tuple(x for x in d.params if x.name not in seen))
    return list(out.values())


def _doc_types(typ: str | None) -> set[str] | None:
    """The JSON Schema types a README type word allows; None when it is not a type word."""
    t = (typ or "").strip().lower()
    if t.endswith("[]") or t.startswith(("array", "list")):
        return {"array"}
    return _TYPES.get(t) or _TYPES.get(t[:-1] if t.endswith("s") else t)


def _param_claim(rel: str, doc: MarkdownDoc, d: DocTool, x: DocParam, t, props: dict, dispatch: dict, registered: str,
                 names_known: bool, read=lambda: frozenset()) -> Record:
    """READ: the fields of the input the tool's own code reads (a low-level server's: it hands on undeclared keys)."""
    said = " (" + ", ".join(filter(None, [x.type, {True: "optional", False: "required", None: None}[x.optional]])) + ")" \
        if x.type or x.optional is not None else ""
    spec = props.get(x.name)
    name = t.name if t is not None else d.name
    cited = dispatch.get(name, []) + ([f"OBJ:tool-schema:{name}"] if t is not None else [])
    if t is None and registered == "no tool":
        verdict, mismatch = "unsupported", "no tool registration was extracted from the boundary, so the documented parameter cannot be checked"
    elif t is None and not names_known:
        verdict, mismatch = "unsupported", f"no tool named {d.name!r} was found (the server registers {registered})"
    elif t is None and d.name in dispatch:
        verdict, mismatch = "unsupported", f"{d.name!r} is dispatched but not advertised: no schema says what it takes"
    elif t is None:
        verdict, mismatch = "contradicted", f"no tool named {d.name!r} is registered (the server registers {registered}), so the parameter cannot be passed"
    elif t.schema is NOT_LITERAL or not isinstance(t.schema, dict):
        verdict, mismatch = "unsupported", f"the advertised input schema of {d.name!r} is not a literal the audit can read"
    elif spec is None and (where := _nested(t.schema, x.name)) is not None:  # `replacements[].useRegex`, or a value
        verdict = "supported"  # of an enum the README lists under the tool (`mode`: `text`, `jsonlogic`)
        mismatch = f"not a top-level property: {where}"
    elif spec is None and x.name in read():  # (a low-level server hands the handler keys its schema leaves out)
        verdict = "partial"
        mismatch = f"the schema of {d.name!r} has no property `{x.name}`, but the tool's code reads it from its input: " \
            "a call may pass it, though no schema advertises it"
    elif spec is None:
        verdict = "contradicted"
        mismatch = f"the schema of {d.name!r} has no property `{x.name}` (it declares {', '.join(sorted(props)) or 'none'})"
    else:
        wanted = _doc_types(x.type)
        declared = spec["type"] if isinstance(spec["type"], list) else [spec["type"]] if spec["type"] else []
        problems = []
        if wanted and declared and not (set(declared) & wanted):
            problems.append(("contradicted", f"the README says {x.type}, the schema declares {' or '.join(map(str, declared))}"))
        if x.optional is True and spec["required"]:
            problems.append(("contradicted", "the README marks it optional, but the schema requires it"))
        elif x.optional is False and not spec["required"]:
            problems.append(("partial", "the README marks it required, but the schema does not require it"))
        verdict = "contradicted" if any(v == "contradicted" for v, _ in problems) else problems[0][0] if problems else "supported"
        mismatch = "; ".join(m for _, m in problems)
    if t is not None and t.name != d.name:
        mismatch = f"checked against the registered tool {t.name!r} (the README calls it {d.name!r})" + (f"; {mismatch}" if mismatch else "")
    return _claim("readme-param", f"{d.name}/{x.name}", rel, doc, f"parameter {x.name} of {d.name}{said}", [x.anchor], verdict,
                  cited, mismatch, ["accept a parameter"], tool=d.name, param=x.name, documented_type=x.type,
                  documented_optional=x.optional, checked_against=name)


def _dependencies(p: Program, effects_kb: dict) -> list[str]:
    """Imported packages that could read the environment themselves (not inert, not Node built-ins)."""
    out = set()
    for m in p.modules:
        for src, _ in m.imports:
            if not src.startswith(".") and not src.startswith("node:") and not covers(effects_kb["inert_modules"], src) \
                    and not covers(effects_kb["builtin_modules"], src):
                out.add(src)
    return sorted(out)


def _env_claims(p: Program, fx: Effects, rel: str, doc: MarkdownDoc, env: dict[str, list[Anchor]], routes: list[Record],
                effects_kb: dict) -> list[Record]:
    reads = [r for r in routes if r.kind == "effect-env"]
    named = sorted({n for r in reads for n in r.attrs.get("names", []) if n != "*" and not n.startswith("[")})
    whole = [r.id for r in reads if any(n == "*" or n.startswith("[") for n in r.attrs.get("names", []))]
    spawns = [r.id for r in routes if r.kind == "effect-subprocess"]
    deps = _dependencies(p, effects_kb)
    unread = _unread_files(p)
    out = []
    for var, anchors in sorted(env.items()):
        hits = [r.id for r in reads if var in r.attrs.get("names", [])]
        if not p.modules:
            verdict, cited = "unsupported", []
            mismatch = "no TypeScript or JavaScript implementation file in the boundary was analysed, so no read can be found"
        elif hits:
            verdict, mismatch, cited = "supported", "", hits
        elif var in effects_kb["env"]["runtime"]:
            verdict, cited = "out-of-boundary", []
            mismatch = f"{var} is read by the Node.js runtime, not by the server's code"
        elif whole or spawns:
            verdict, cited = "out-of-boundary", whole + spawns
            mismatch = (f"no read of {var} by name; the environment is read as a whole or handed to a child process ("
                        + ", ".join(whole + spawns) + "), where its use is outside the boundary")
        elif deps:
            verdict, cited = "unsupported", []
            mismatch = (f"no read of {var} in the boundary (named reads: {', '.join(named) or 'none'}); a declared dependency "
                        f"({', '.join(deps)}) could read it, and the audit does not inspect dependencies")
        elif unread:
            verdict, cited = "unsupported", []
            mismatch = f"no read of {var} in the code analysed; code that was not read may hold one ({unread})"
        else:
            verdict, cited = "contradicted", []
            mismatch = f"nothing in the boundary reads {var} (named reads: {', '.join(named) or 'none'}), and no dependency is imported that could"
        out.append(_claim("readme-env", var, rel, doc, f"environment variable {var}", anchors, verdict, cited, mismatch,
                          ["read configuration"], variable=var))
    undocumented = [n for n in named if n not in env and n not in effects_kb["env"]["runtime"]]
    if env or undocumented:
        anchors = [a for xs in env.values() for a in xs] or [Anchor(path=doc.path, start_line=1, end_line=max(doc.total_lines, 1))]
        out.append(_claim("readme-config", "", rel, doc, "configuration documented: " + (", ".join(sorted(env)) or "none"),
                          anchors, "unsupported" if not p.modules else "partial" if undocumented else "supported",
                          [r.id for r in reads if set(r.attrs.get("names", [])) & set(undocumented)],
                          "no TypeScript or JavaScript implementation file in the boundary was analysed" if not p.modules else
                          f"the code also reads {', '.join(undocumented)}, which the README does not document" if undocumented else "",
                          ["read configuration"], undocumented=undocumented))
    return out


def _server_args(p: Program, command: str, args: list[str]) -> list[str]:
    """The arguments a launch command passes to the server itself: those after the package, the
    script, or (for `docker run`) the image."""
    names = [(d.value or {}).get("name") for d in p.manifests() if isinstance(d.value, dict)]
    if command == "docker":
        start = args.index("run") + 1 if "run" in args else len(args)
        image = next((i for i in range(start, len(args)) if re.fullmatch(r"[\w.-]+/[\w.-]+(?::[\w.-]+)?", args[i])), None)
        rest = args[image + 1:] if image is not None else []
        if rest and rest[0].rsplit("/", 1)[-1] in _PROGRAMS:  # `IMAGE node sse.js`: a command in the container in
            return _server_args(p, rest[0].rsplit("/", 1)[-1], rest[1:])  # place of the image's, not arguments to it
        return rest
    if command in _RUNNERS or (command in {"pnpm", "yarn"} and args[:1] in (["dlx"], ["exec"])):
        rest = _runner_args(args if command in _RUNNERS else args[1:], names)
        return rest[1:] if rest and rest[0] in _bin_names(p) else rest  # (`npx -y PKG BIN`: the command named, as
        # `npx -p PKG BIN` would; the server is handed it and it changes nothing)
    if command.rsplit("/", 1)[-1] in _PYTHON_RUNNERS:  # `uvx --from git+.../NAME NAME`: a Python package, not this one
        return []
    if command.rsplit("/", 1)[-1] in _MANAGERS and next((a for a in args if not a.startswith("-")), None) in _INSTALLS:
        return []  # `pnpm install PKG -D`, `yarn add PKG`: the package installed, not launched; its flags are the manager's
    if command.rsplit("/", 1)[-1] == "npm":  # `npm --prefix DIR start -- --port 1`: a script's name, then (after
        if args[:1] in (["exec"], ["x"]):  # `--`) what it is handed; `npm exec PKG ARGS` runs a package
            return _runner_args(args[1:], names)
        return args[args.index("--") + 1:] if "--" in args else []
    if command.rsplit("/", 1)[-1] in {"pnpm", "yarn"}:  # `pnpm --filter PKG build:local`, `yarn workspace PKG dev`:
        return args[args.index("--") + 1:] if "--" in args else []  # a script of the package, its name no argument
    for i, a in enumerate(args):
        if any(n and n in a for n in names) or re.search(r"\.(?:m?js|cjs|ts)$", a) and _an_entry(p, a):
            return args[i + 1:]
    return []


def _bin_names(p: Program) -> set[str]:
    """The commands the package.json files of the boundary install (`bin`'s keys; a `bin` path alone installs the
    package's name without its scope)."""
    out = set()
    for d in p.manifests():
        value = d.value if isinstance(d.value, dict) else {}
        name, bin_ = value.get("name"), value.get("bin")
        if isinstance(bin_, dict):
            out |= {k for k in bin_ if isinstance(k, str)}
        elif isinstance(bin_, str) and isinstance(name, str):
            out.add(name.rsplit("/", 1)[-1])
    return out


def _an_entry(p: Program, script: str) -> bool:
    """Whether the script a launch line runs (`node /path/to/build/index.js`) is an entry of the package: a file its
    package.json names (bin, main, exports, ...) or the source one maps to, at the end of the path given; a script of
    another name (`node .claude/skills/x/run.js`) is another program, whose arguments are not the server's. With no
    entry named, any script may be the server."""
    memo = p.linker.memo if p.linker is not None else {}
    named = memo.get("generic.entries")
    if named is None:  # (once per audit: each launch line of each README asks)
        development = (p.method.get("entry_points") or {}).get("development_scripts", [])
        named = {posixpath.normpath(t) for d in p.manifests() for _, t in entrypoints.targets(d.value, development)[0]}
        named = memo["generic.entries"] = frozenset(named | set(entry_modules(p)))
    path = posixpath.normpath(script)
    return not named or any(path == t or path.endswith("/" + t) for t in named)


# Package managers, and their subcommands that install or remove a package rather than run one.
_MANAGERS = {"npm", "pnpm", "yarn", "bun"}
_INSTALLS = {"install", "i", "add", "remove", "rm", "uninstall", "update", "up", "upgrade", "link", "ci"}

# Programs a `docker run IMAGE PROGRAM ...` runs in place of the image's command.
_PROGRAMS = {"node", "npx", "bunx", "pnpx", "bun", "deno", "tsx", "ts-node", "sh", "bash", "python", "python3"}

# Commands that fetch a Python package and run it: what they run is never the audited npm package.
_PYTHON_RUNNERS = {"uvx", "pipx"}

# Commands that fetch a package and run it: the package is their first argument that is not an option (or the one
# `-p`/`--package` names), and only what follows it is passed to that package.
_RUNNERS = {"npx", "bunx", "pnpx"}


def _runner_args(args: list[str], names: list) -> list[str]:
    """The arguments a package runner (`npx -y PKG ARGS`) passes to this package; none when the package it runs is
    another one (`npx @some/cli install THIS --client x` runs an installer, whose arguments are not the server's)."""
    run, i = _run_package(args)
    mine = run is not None and any(n and (run == n or run.startswith(n + "@")) for n in names)
    return args[i + 1:] if mine else []


def _runs_another(p: Program):
    """Whether a host entry's launch (command, args) fetches and runs a package other than the audited one
    (`"command": "bunx", "args": ["@other/server"]` beside this server's entry in one configuration)."""
    names = [(d.value or {}).get("name") for d in p.manifests() if isinstance(d.value, dict)]

    def another(command: str, args: list[str]) -> bool:
        if command in {"pnpm", "yarn"} and args[:1] in (["dlx"], ["exec"]):
            command, args = "npx", args[1:]
        run = _run_package(args)[0] if command.rsplit("/", 1)[-1] in _RUNNERS else None
        return run is not None and any(names) and not any(n and (run == n or run.startswith(n + "@")) for n in names)
    return another


def _run_package(args: list[str]) -> tuple[str | None, int]:
    """(the package a runner's ARGS run, the index of the argument that names it or of the first one it is handed)."""
    package, i = None, 0
    while i < len(args) and args[i].startswith("-"):
        if args[i] in {"-p", "--package"} and i + 1 < len(args):
            package, i = args[i + 1], i + 2
            continue
        package = args[i].split("=", 1)[1] if args[i].startswith("--package=") else package
        i += 1
    if i >= len(args):
        return package, i
    return package or args[i], i


def _args_claims(p: Program, rel: str, path: str, doc: MarkdownDoc, routes: list[Record]) -> list[Record]:
    found = [(fence, _server_args(p, command, args)) for where, fence, command, args in launch_snippets(p) if where == path]
    found = [(f, a) for f, a in found if a]
    if not found:
        return []
    argv = [r.id for r in routes if r.kind == "effect-argv"]
    shown = "; ".join(dict.fromkeys(" ".join(a) for _, a in found))
    unread = _unread_files(p)
    verdict = "supported" if argv else "contradicted" if p.modules and not unread else "unsupported"
    mismatch = "" if argv else f"nothing in the code analysed reads the command line; code that was not read may ({unread})" \
        if unread else "the README passes arguments to the server, but nothing in the boundary reads the command line" \
        if p.modules else "no TypeScript or JavaScript implementation file in the boundary was analysed"
    return [_claim("readme-args", "", rel, doc, f"launch arguments: {shown}",
                   [Anchor(path=path, start_line=f.line, end_line=f.end_line) for f, _ in found], verdict, argv, mismatch,
                   ["read configuration"], arguments=[a for _, a in found])]


def _unread_files(p: Program) -> str:
    """The code files not read (too big, not parsed, ...), named for a claim whose absence they leave open; "" if none."""
    from auditor.analyse.absences import unread_code  # (absences imports this module's neighbours)

    files = sorted({g.anchor.path for g in unread_code(p)})
    return ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")


def claims(p: Program, fx: Effects, routes: list[Record], effects_kb: dict) -> list[Record]:
    """README claims of the package's own README (extract/scope.py), whether or not a kb/claims registry applies."""
    out = []
    readmes = server_readmes(p)
    unknown = tool_names_unknown(p) if readmes else []
    for e, doc in readmes:
        path = e.file.path
        out += _tool_claims(p, e.rel, doc, documented_tools(doc), routes, unknown)
        out += _env_claims(p, fx, e.rel, doc, documented_env(doc, _runs_another(p)), routes, effects_kb)
        out += _args_claims(p, e.rel, path, doc, routes)
    return out


def _nested(schema, name: str, path: str = "", depth: int = 0) -> str | None:
    """Where NAME is in a JSON Schema below its top level: a nested property (`replacements[].useRegex`) or a value of
    an enum (`mode` = `jsonlogic`); None when it is neither."""
    if not isinstance(schema, dict) or depth > 8:
        return None
    for key, sub in (schema.get("properties") or {}).items() if isinstance(schema.get("properties"), dict) else ():
        here = f"{path}.{key}" if path else key
        if depth and key == name:
            return f"`{here}`"
        if isinstance(sub, dict) and isinstance(sub.get("enum"), list) and name in sub["enum"]:
            return f"a value of `{here}`'s enum"
        found = _nested(sub, name, here, depth + 1)
        if found is not None:
            return found
    items = schema.get("items")
    if isinstance(items, dict):
        return _nested(items, name, path + "[]", depth + 1)
    alternatives = schema.get("anyOf") or schema.get("oneOf") or []
    for alt in alternatives if isinstance(alternatives, list) else []:
        found = _nested(alt, name, path, depth + 1)
        if found is not None:
            return found
    return None
