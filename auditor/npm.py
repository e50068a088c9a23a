"""npm targets: a package of the registry, named NAME@EXACT-VERSION or NAME@DIST-TAG (resolved, and said), fetched
with the user's own `npm` and read in memory. Folders, `file:`, `git+...`, URLs, aliases and ranges are refused:
`npm pack` runs a folder's or a git repository's lifecycle scripts, and a range is no pin."""

from __future__ import annotations

import io
import json
import posixpath
import re
import shutil
import subprocess
import tarfile
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from auditor.errors import AuditorError
from auditor.model import DECLARATIONS, Package, SourceFile, Target, git_blob_hash
from auditor.specifiers import bare_packages

_PART = r"[A-Za-z0-9~][A-Za-z0-9._~-]*"  # npm package names: URL-safe, not starting with . _ or - (an option)
_NAME = re.compile(rf"(?:@{_PART}/)?{_PART}")
_EXACT = re.compile(r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?")
_TAG = re.compile(r"[A-Za-z][A-Za-z0-9._-]*")
_USAGE = "expected npm:NAME@VERSION or npm:NAME@TAG (a package of the registry, e.g. npm:@scope/name@1.2.3)"


def split_spec(spec: str) -> tuple[str, str]:
    """(name, version or tag) of a registry spec (the tag "latest" when none is given); an input error for
    anything else: a folder, file:, git+..., a URL, an alias, a range."""
    name, at, version = spec[1:].partition("@") if spec.startswith("@") else spec.partition("@")
    name = spec[0] + name if spec.startswith("@") else name
    if not name or not _NAME.fullmatch(name) or len(name) > 214:
        raise AuditorError(f"npm:{spec}: not a package name of the registry; {_USAGE} (folders, file:, git and URL "
                           "specs are refused: npm would run their lifecycle scripts)")
    if not at:
        return name, "latest"
    if _EXACT.fullmatch(version) or (_TAG.fullmatch(version) and not re.fullmatch(r"v?\d+(\.\d+)*", version)):
        return name, version
    raise AuditorError(f"npm:{spec}: {version!r} is neither an exact version nor a dist-tag; {_USAGE}")


def check_npm_spec(spec: str) -> None:
    split_spec(spec)


def _npm() -> str:
    npm = shutil.which("npm")
    if npm is None:
        raise AuditorError("npm is not installed or not on PATH (needed for npm: targets)")
    return npm


def _npm_reason(stderr: bytes) -> str:
    """The line of npm's error output that says what went wrong (not its error code, nor where its log is)."""
    lines = [ln.strip() for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
    said = [ln for ln in lines if not re.match(r"npm (error|ERR!) (code |errno |A complete log|\S+$)", ln)]
    best = said[0] if said else lines[-1] if lines else "no message"
    return re.sub(r"^npm (error|ERR!) ", "", best)


def _run(args: list[str], cwd: str) -> subprocess.CompletedProcess:
    # In an empty folder of ours: no project .npmrc of the current folder is read, and no script runs.
    return subprocess.run([_npm(), *args, "--ignore-scripts"], capture_output=True, cwd=cwd, stdin=subprocess.DEVNULL,
                          check=False)


def resolve_npm(spec: str) -> str:
    """NAME@EXACT-VERSION for SPEC: an exact version as given; a dist-tag (or no version: latest) asked of the
    registry with `npm view`, which runs nothing of the package."""
    name, version = split_spec(spec)
    if _EXACT.fullmatch(version):
        return f"{name}@{version}"
    with tempfile.TemporaryDirectory(prefix="auditor-npm-") as tmp:
        proc = _run(["view", f"{name}@{version}", "version", "--json"], tmp)
    if proc.returncode != 0:
        raise AuditorError(f"npm:{spec}: npm view failed: {_npm_reason(proc.stderr)}")
    try:
        found = json.loads(proc.stdout or b"null")
    except ValueError:
        found = None
    if not isinstance(found, str) or not _EXACT.fullmatch(found):
        raise AuditorError(f"npm:{spec}: the registry names no single version for {version!r}")
    return f"{name}@{found}"


def open_npm(spec: str, max_bytes: int | None = None) -> Target:
    """Fetch NAME@EXACT-VERSION with the user's own `npm pack --ignore-scripts` and read the tarball in memory;
    members over MAX_BYTES (by their tar header) are registered, not read."""
    name, version = split_spec(spec)
    if not _EXACT.fullmatch(version):
        raise AuditorError(f"npm:{spec}: resolve the tag to an exact version first (auditor/npm.py resolve_npm)")
    with tempfile.TemporaryDirectory(prefix="auditor-npm-") as tmp:
        proc = _run(["pack", f"{name}@{version}", "--json", "--pack-destination", tmp], tmp)
        if proc.returncode != 0:
            raise AuditorError(f"npm:{spec}: npm pack failed: {_npm_reason(proc.stderr)}")
        try:
            info = json.loads(proc.stdout)[0]
            tarball = Path(tmp) / posixpath.basename(info["filename"])
        except (ValueError, IndexError, KeyError, TypeError):
            raise AuditorError(f"npm:{spec}: npm pack printed no JSON description") from None
        files, skipped = _read_tarball(tarball.read_bytes(), spec, max_bytes)
    return Target(kind="npm", locator=f"npm:{spec}", revision=info.get("integrity", ""),
                  requested=f"{info.get('name', name)}@{info.get('version', version)}", commit_date=None,
                  worktree_clean=None, subtree="", files=files, not_followed=skipped)


def _member_name(member: tarfile.TarInfo) -> str | None:
    name = member.name.split("/", 1)[1] if "/" in member.name else member.name
    # tarfile gives undecodable name bytes as surrogates, which no report can encode: escape them.
    name = posixpath.normpath(name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace"))
    return None if name.startswith("..") or name.startswith("/") or name == "." else name


def _read_tarball(data: bytes, spec: str, max_bytes: int | None = None
                  ) -> tuple[tuple[SourceFile, ...], tuple[tuple[str, str], ...]]:
    """(files, (path, why not followed)) of a package tarball. A member over MAX_BYTES is not read at all (its
    size comes from its header), so a small tarball of a huge file costs no memory."""
    files, skipped = [], []
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            for member in tar:
                name = _member_name(member)
                if name is None:
                    continue
                if member.issym() or member.islnk():
                    skipped.append((name, f"a {'symbolic' if member.issym() else 'hard'} link: not followed"))
                    continue
                if not member.isfile():
                    continue
                if max_bytes is not None and member.size > max_bytes:
                    files.append(SourceFile(path=name, blob="", data=b"", size=member.size))
                    continue
                body = tar.extractfile(member).read()
                files.append(SourceFile(path=name, blob=git_blob_hash(body), data=body))
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise AuditorError(f"npm:{spec}: the tarball cannot be read ({exc})") from None
    if not files:
        raise AuditorError(f"npm:{spec}: the tarball holds no files")
    return tuple(sorted(files, key=lambda f: f.path)), tuple(sorted(skipped))


# -- dependencies read with the target ---------------------------------------------------------------------------

_CODE = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts")
_RANGE = re.compile(r"[\w.*^~<>=| -]+")  # a version range of the registry (no file:, git+, npm:, workspace:, URL)
MAX_PACKAGES = 10  # dependencies read with one target, at most: those that build on an MCP SDK package
MAX_SCOPED = 4  # of them, at most this many that only share the target's scope (its vendor's libraries)


def _code(path: str) -> bool:
    return path.endswith(_CODE) and not path.endswith(DECLARATIONS)


def imported(files: tuple[SourceFile, ...]) -> set[str]:
    """The packages the code of FILES imports by name (`@v/toolkit` of `@v/toolkit/mcp`)."""
    out = set()
    for f in files:
        if not _code(f.path) or f.missing or "node_modules/" in f.path:
            continue
        out |= bare_packages(f.data.decode("utf-8", "replace"))
    return out


def _semver(v: str) -> tuple:
    core, _, pre = v.partition("-")
    nums = [int(x) if x.isdigit() else 0 for x in core.split("+")[0].split(".")[:3]]
    return (*nums, not pre, pre)


def view(name: str, wanted: str) -> tuple[str, set[str]] | None:
    """(the newest version of NAME the range WANTED admits, the packages it depends on or asks its host for) by
    `npm view`, which runs nothing of the package; None when the registry does not say."""
    with tempfile.TemporaryDirectory(prefix="auditor-npm-") as tmp:
        proc = _run(["view", f"{name}@{wanted}", "version", "dependencies", "peerDependencies", "--json"], tmp)
    try:
        found = json.loads(proc.stdout or b"null") if proc.returncode == 0 else None
    except ValueError:
        return None
    rows = found if isinstance(found, list) else [found] if isinstance(found, dict) else []
    rows = [r for r in rows if isinstance(r, dict) and isinstance(r.get("version"), str) and _EXACT.fullmatch(r["version"])]
    if not rows:
        return None
    best = max(rows, key=lambda r: _semver(r["version"]))
    deps = {k for key in ("dependencies", "peerDependencies") if isinstance(best.get(key), dict) for k in best[key]}
    return best["version"], deps


def follow(target: Target, sdk: set[str], skip: set[str], progress=lambda msg: None, ask=view, fetch=None,
           max_bytes: int | None = None, libraries: tuple[str, ...] = ()) -> Target:
    """TARGET with the dependencies that are its vendor's own MCP layer read with it: those its package.json
    `dependencies` lists and its code imports that build on an MCP SDK package themselves (SDK: they depend on one, or
    ask their host for one), or share the target's npm scope; not an SDK package or a framework of SKIP, nor a package
    of the LIBRARIES scopes (the SDK's and the frameworks' own: transports, adapters). Each is read
    at the newest version its range admits (asked of the registry now: the report names it), its code files and
    package.json under node_modules/NAME. At most MAX_PACKAGES on the SDK, and those that only share the scope while
    fewer than MAX_SCOPED are chosen; one the registry does not give, or past those limits, is left out and said (a
    `not followed` row)."""
    root = next((f for f in target.files if f.path == "package.json"), None)
    try:
        manifest = json.loads(root.data) if root is not None else {}
    except ValueError:
        manifest = {}
    deps = manifest.get("dependencies") if isinstance(manifest, dict) else None
    if not isinstance(deps, dict):
        return target
    ranges = {n: r.strip() or "*" for n, r in deps.items() if isinstance(n, str) and isinstance(r, str)}
    wanted = sorted(n for n in imported(target.files) if n in ranges and _NAME.fullmatch(n)
                    and _RANGE.fullmatch(ranges[n]) and n not in sdk | skip
                    and not n.startswith(("@types/", *libraries)))
    if not wanted:
        return target
    progress(f"asking the registry about {len(wanted)} imported dependenc{'y' if len(wanted) == 1 else 'ies'}")
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(lambda n: ask(n, ranges[n]), wanted))
    scope = manifest.get("name", "").split("/")[0] + "/" if str(manifest.get("name", "")).startswith("@") else None
    chosen = [(n, a) for n, a in zip(wanted, answers) if a is not None and (a[1] & sdk or scope and n.startswith(scope))]
    chosen = sorted(chosen, key=lambda x: not x[1][1] & sdk)  # (those on the SDK first)
    kept = [c for c in chosen if c[1][1] & sdk][:MAX_PACKAGES]
    kept += [c for c in chosen if not c[1][1] & sdk][:max(0, MAX_SCOPED - len(kept))]
    files, packages, skipped = list(target.files), [], list(target.not_followed)

    def reason(needs: set[str]) -> str:
        return f"builds on {', '.join(sorted(needs & sdk))}" if needs & sdk else f"is of the same scope, {scope[:-1]}"

    names = {n for n, _ in kept}
    for name, (_, needs) in chosen:
        if name not in names:  # past the limit: named, so the ledger says what was not read
            skipped.append((f"node_modules/{name}",
                            f"a dependency that {reason(needs)}, not read: the audit reads at most {MAX_PACKAGES} "
                            f"dependencies of a target that build on an MCP SDK package, and of its scope alone only "
                            f"while fewer than {MAX_SCOPED} are chosen: this one is past that"))
    for name, (version, needs) in kept:
        why = reason(needs)
        progress(f"reading the dependency {name}@{version} (it {why})")
        try:
            got = (fetch or (lambda spec: open_npm(spec, max_bytes)))(f"{name}@{version}")
        except AuditorError as exc:
            skipped.append((f"node_modules/{name}", f"a dependency that {why}, not read: {exc}"))
            continue
        folder = f"node_modules/{name}"
        files += [replace(f, path=f"{folder}/{f.path}") for f in got.files
                  if _code(f.path) or f.path == "package.json"]
        packages.append(Package(name=name, version=version, range=ranges[name], folder=folder,
                                integrity=got.revision, why=why))
    if not packages and len(skipped) == len(target.not_followed):
        return target
    return replace(target, files=tuple(sorted(files, key=lambda f: f.path)), packages=tuple(packages),
                   not_followed=tuple(sorted(skipped)))
