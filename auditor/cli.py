"""Command line: the only place that touches argv, files and stdout. Exit: 0 ok, 1 drift, 2 input error, 3 bug."""

from __future__ import annotations

import os
import re
import signal
import sys
import threading
from collections import Counter
from pathlib import Path

import click

from auditor import __version__, outdir, safetext
from auditor.errors import AuditorError

EXIT_OK, EXIT_DRIFT, EXIT_INPUT = 0, 1, 2


def _renderers(fmt: str) -> dict[str, callable]:
    """File name -> renderer for a --format choice; fails loudly on a missing case."""
    from auditor.report import json as json_report

    table = {
        "json": {"audit.json": json_report.render},
    }
    try:
        table["all"] = dict(table["json"])
        try:
            from auditor.report import markdown
            table["md"] = markdown.RENDERERS
            table["all"].update(markdown.RENDERERS)
        except ImportError:
            pass
        return table[fmt]
    except KeyError:
        raise AuditorError(f"--format {fmt}: no renderer for this format") from None


def _folders(revisions: tuple[str, ...], commits: list[str]) -> list[str]:
    """Output folder per revision when several are audited: the revision as given, made a safe folder name
    (`origin/main` -> `origin-main`), with the short commit hash added when two would collide or the name is
    one of OUT's own index files."""
    if len(revisions) == 1:
        return [""]
    names = [re.sub(r"[^A-Za-z0-9._-]+", "-", r).strip("-.") or c[:12] for r, c in zip(revisions, commits)]
    folded = Counter(n.casefold() for n in names)
    taken = {"index.json", "index.md"}  # OUT's own index of the revisions
    return [f"{n}-{c[:12]}" if folded[n.casefold()] > 1 or n.casefold() in taken else n for n, c in zip(names, commits)]


def _revisions_index(locator: str, pins, folders: list[str], units, rows, plans, renderers) -> dict[str, str]:
    """OUT/index.json and OUT/index.md of a run over several revisions (as --format asks)."""
    from auditor.report import revisions

    planned = {id(plan.pin) for _, plan in plans}
    table = []
    for pin, folder in zip(pins, folders):
        mine = [rows[i] for i, u in enumerate(units) if u.pin is pin]
        subtree = next((u.server.subtree for u in units if u.pin is pin), "")
        table.append(revisions.Revision(folder=folder, requested=pin.requested, commit=pin.commit,
                                        commit_date=pin.commit_date, scope="monorepo" if id(pin) in planned else "subtree",
                                        subtree="" if id(pin) in planned else subtree, audits=len(mine),
                                        complete=sum(r.complete for r in mine), gaps=sum(r.gaps for r in mine)))
    files = {}
    if "audit.json" in renderers:
        files["index.json"] = revisions.render_json(locator, table)
    if any(n.endswith(".md") for n in renderers):
        files["index.md"] = revisions.render_md(locator, table)
    return files


def _jobs(value: int) -> int:
    if value > 0:
        return value
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


EXIT_INTERNAL = 3
EXIT_PARTIAL = 4  # a run over several audits (servers, revisions) where some failed: the others are written


def _say(message: str) -> None:
    """One line on stderr; whatever it quotes of the audited target (names, code) shown inert (auditor/safetext)."""
    click.echo(safetext.line(message), err=True)


def _terminated(signum, frame) -> None:
    raise KeyboardInterrupt  # handled like Ctrl-C: clean up, say "interrupted", exit 130


class _Cli(click.Group):
    """Every failure is one line on stderr: usage mistakes exit 2, bugs exit 3 (never 1, the drift code)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        # A kill (SIGTERM) runs the clean-up like Ctrl-C: no staging folder is left behind. Both handlers are as they
        # were after the run (run in-process, as tests do, an interrupted run must not leave Ctrl-C ignored for the
        # rest of the process and for every child it starts later).
        main = threading.current_thread() is threading.main_thread()
        before = (signal.signal(signal.SIGTERM, _terminated), signal.getsignal(signal.SIGINT)) if main else None
        try:
            self._main(args, prog_name, complete_var, **extra)
        finally:
            if before is not None:
                signal.signal(signal.SIGTERM, before[0])
                if before[1] is not None:
                    signal.signal(signal.SIGINT, before[1])

    def _main(self, args, prog_name, complete_var, **extra):
        try:
            rv = super().main(args, prog_name or "auditor", complete_var, standalone_mode=False, **extra)
        except click.UsageError as exc:
            hint = f" (see: {exc.ctx.command_path} --help)" if exc.ctx is not None else ""
            _say(f"auditor: error: {exc.format_message()}{hint}")
            sys.exit(EXIT_INPUT)
        except click.ClickException as exc:
            _say(f"auditor: error: {exc.format_message()}")
            sys.exit(EXIT_INPUT)
        except click.exceptions.Abort:
            if threading.current_thread() is threading.main_thread():  # a second signal must not break the exit
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
            _say("auditor: interrupted")
            sys.exit(130)
        except Exception as exc:  # a bug in auditor, not the user's mistake
            if os.environ.get("AUDITOR_DEBUG"):
                raise
            _say(f"auditor: internal error: {type(exc).__name__}: {exc} (set AUDITOR_DEBUG=1 for the traceback)")
            sys.exit(EXIT_INTERNAL)
        sys.exit(rv if isinstance(rv, int) else EXIT_OK)


@click.group(cls=_Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="auditor")
def main() -> None:
    """Audit what an MCP server says it does against what its TypeScript code does.

    Reads the server's files at a pinned revision (never checking out, never running its code),
    extracts components, objects, routes and evidenced absences with tree-sitter, and writes an
    anchored inventory as JSON (and Markdown reports).

    Exit status: 0 success; 1 --check found drift; 2 usage or input error; 3 internal error;
    4 some audits of a run over several servers or revisions failed (each named on stderr and in
    OUT/index.md and index.json; the others are written).
    """


@main.command()
@click.argument("target")
@click.option("--revision", "-r", "revisions", multiple=True, default=("HEAD",), show_default=True,
              help="Commit-ish to audit (hash, tag, branch); resolved to a full commit hash in the report. "
                   "Repeat to audit several revisions in one run: each goes to OUT/<revision>/.")
@click.option("--subtree", "-s", default="", help="Folder of the server inside the repository, e.g. src/myserver.")
@click.option("--out", "-o", "out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder to write the reports into (created if missing).")
@click.option("--format", "fmt", type=click.Choice(["all", "json", "md"]), default="all", show_default=True,
              help="Which reports to write.")
@click.option("--kb", "kb_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Knowledge base folder (default: the kb/ of this checkout, or $AUDITOR_KB).")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, show_default=True,
              help="Worker processes for several servers or revisions (0: one per available CPU). "
                   "The reports do not depend on it.")
@click.option("--link-base", default=None, metavar="URL",
              help="The repository's web address (https://github.com/OWNER/NAME): report anchors link to its files "
                   "at the pinned commit. Default: the repository's origin remote, if on github.com or gitlab.com.")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if the files in --out differ from a fresh run.")
@click.option("--quiet", "-q", is_flag=True, help="No progress messages on stderr.")
@click.option("--deps/--no-deps", "follow_deps", default=True, show_default=True,
              help="npm: targets: also read the dependencies that are the vendor's own MCP layer (listed in "
                   "package.json, imported by the code, and built on an MCP SDK package themselves or of the "
                   "package's own npm scope; at most ten, and of the scope alone while fewer than four), each at the newest version its "
                   "range admits, fetched with npm pack; the reports name each and its version, and those left out.")
def audit(target: str, revisions: tuple[str, ...], subtree: str, out: Path, fmt: str, kb_dir: Path | None,
          jobs: int, link_base: str | None, check: bool, quiet: bool, follow_deps: bool) -> None:
    """Audit TARGET: a git repository (bare or not) at --revision, or npm:NAME@VERSION.

    Without --subtree, a repository that is not itself a server but holds several (folders whose
    package.json depends on the MCP SDK) is audited server by server into OUT/<folder>/, with
    OUT/index.md and OUT/index.json listing them and the project folders skipped.

    With --revision given more than once, each revision is audited as above into OUT/<revision>/,
    with OUT/index.md and OUT/index.json listing the revisions; files shared between revisions are
    parsed once.

    \b
    Examples:
      auditor audit ../servers --revision v1.2.0 --subtree src/myserver --out out/
      auditor audit ../servers --revision main --out out/          (every server found)
      auditor audit ../servers -r 1f705677 -r main --out out/      (two revisions, side by side)
      auditor audit npm:@scope/some-mcp-server@1.0.0 --out out/
    """
    from auditor import audit as audit_mod
    from auditor import batch, kb, monorepo, target as target_mod

    def progress(msg: str) -> None:
        if not quiet:
            _say(f"auditor: {msg}")

    def notice(msg: str) -> None:  # what is done to files in OUT is said even with -q
        _say(f"auditor: {msg}")

    sink = outdir.Checker(out) if check else None
    plans: list[tuple[str, monorepo.Plan]] = []  # (folder, plan) of each revision audited server by server
    folders: list[str] = []  # output folder of each revision ("" when there is one)
    gaps: list[str] = []
    failures: list[str] = []  # audits that failed in a run over several: the others are written (EXIT_PARTIAL)
    try:
        kb_path = kb_dir or kb.default_kb_dir()
        if not kb_path.is_dir():
            raise AuditorError(f"{kb_path}: knowledge base folder not found (use --kb)")
        renderers = _renderers(fmt)
        if link_base is not None:
            from auditor.remote import link_base as checked_base
            link_base = checked_base(link_base)
        if target.startswith("npm:"):
            if subtree or revisions != ("HEAD",) or link_base:
                raise AuditorError(f"{target}: --revision, --subtree and --link-base do not apply to npm: targets "
                                   "(the tarball is pinned by its integrity hash)")
            exact = target_mod.resolve_npm(target[4:])
            if exact != target[4:]:  # a dist-tag (or no version): say which version it named, even with -q
                _say(f"auditor: npm:{safetext.line(target[4:])} resolved to npm:{safetext.line(exact)}")
            progress(f"fetching {exact} with npm pack")
            method = kb.load(kb_path, "method")  # a bundle over max_file_bytes may be read with its packages blanked
            pinned = target_mod.open_npm(exact, max(method["max_file_bytes"], method.get("max_bundle_bytes", 0)))
            progress(f"pinned {pinned.kind} target at {pinned.revision[:20]}")
            if follow_deps:
                sdk = kb.load(kb_path, "sdk")
                pinned = target_mod.follow(pinned, set(sdk["sdk_packages"]), set(sdk.get("other_frameworks", ())),
                                           progress, max_bytes=max(method["max_file_bytes"],
                                                                   method.get("max_bundle_bytes", 0)),
                                           libraries=tuple(sdk.get("library_scopes", ())))
            result = audit_mod.run(pinned, kb_path, progress)
            sink = sink or outdir.Staging(out, notice)
            for name, render in renderers.items():
                sink.put(name, render(result))
            gaps = list(batch.gap_lines(result))
        else:
            pins = target_mod.pin_revisions(target, list(dict.fromkeys(revisions)), link_base)
            if not check:
                target_mod.refuse_out_inside(out, pins)
            folders = _folders(tuple(p.requested for p in pins), [p.commit for p in pins])
            units, plans = batch.schedule(pins, folders, subtree, kb.load(kb_path, "sdk"), progress)
            sink = sink or outdir.Staging(out, notice)
            rows: dict[int, monorepo.Summary] = {}
            # One failed audit among several is named and the others written; the one audit asked for fails the run.
            for done in batch.execute(units, kb_path, renderers, _jobs(jobs), isolate=len(units) > 1 or bool(plans)):
                failures += [f"{units[done.unit].label}: audit failed ({done.failed}); its reports are not written, "
                             "the others are"] if done.failed else []
                for name, body in done.files:
                    sink.put(name, body)
                rows[done.unit] = done.summary
                if len(units) > 1:
                    progress(batch.describe(done, units, len(rows)))
                gaps += [f"{units[done.unit].label}: {g}" if len(units) > 1 else g for g in done.gaps]
            for folder, plan in plans:
                mine = [rows[i] for i, u in enumerate(units) if u.pin is plan.pin]
                for name, body in monorepo.index_files(plan, mine, renderers).items():
                    sink.put(f"{folder}/{name}" if folder else name, body)
            if len(pins) > 1:
                for name, body in _revisions_index(target, pins, folders, units, rows, plans, renderers).items():
                    sink.put(name, body)
    except AuditorError as exc:
        if isinstance(sink, outdir.Staging):
            sink.abort()
        _say(f"auditor: error: {exc}")
        sys.exit(EXIT_INPUT)
    except BaseException:
        if isinstance(sink, outdir.Staging):
            sink.abort()
        raise
    if isinstance(sink, outdir.Checker):
        drift = list(sink.drift) + sink.manifest_drift()
        for folder, plan in plans:
            base = out / folder if folder else out
            mine = {n[len(folder) + 1:] if folder else n: "" for n in sink.names if not folder or n.startswith(folder + "/")}
            drift += [f"{base / n} holds reports of a server this run does not find" for n in monorepo.stale(base, mine)]
        if len(folders) > 1 and out.is_dir():  # revision folders written by an earlier run over other revisions
            ours = ("index.json", "index.md", "audit.json", "evidence-packet.md")
            drift += [f"{d} holds reports of a revision this run does not audit" for d in sorted(out.iterdir())
                      if d.is_dir() and d.name not in folders and any((d / f).is_file() for f in ours)]
        for d in drift:
            _say(f"auditor: drift: {d}")
        for f in failures:
            _say(f"auditor: error: {f}")
        sys.exit(EXIT_PARTIAL if failures else EXIT_DRIFT if drift else EXIT_OK)
    if threading.current_thread() is threading.main_thread():  # the reports go in place now: a kill from here on
        signal.signal(signal.SIGTERM, signal.SIG_IGN)              # interrupts nothing, and the run ends as it finishes
        # (ignored before the commit, not after it: a kill between the two ended a complete run with 130)
    try:
        removed = sink.commit()  # every file or none; on failure OUT is as it was, or the message says otherwise
    except AuditorError as exc:
        _say(f"auditor: error: {exc}")
        sys.exit(EXIT_INPUT)
    for name in removed:
        notice(f"removed {out / name}: an earlier run wrote it, this one does not")
    for gap in gaps:
        progress(f"coverage gap: {gap}")
    top = sorted({n.split("/", 1)[0] + ("/" if "/" in n else "") for n in sink.names})
    progress(f"wrote {', '.join(top)} to {out}")
    for f in failures:  # even with -q
        _say(f"auditor: error: {f}")
    if failures:
        sys.exit(EXIT_PARTIAL)


@main.command("check-kb")
@click.option("--kb", "kb_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Knowledge base folder (default: the kb/ of this checkout, or $AUDITOR_KB).")
def check_kb(kb_dir: Path | None) -> None:
    """Validate every file under kb/ against its schema; print each problem as FILE:LINE: FIELD: MESSAGE."""
    from auditor import kb

    kb_path = kb_dir or kb.default_kb_dir()
    try:
        problems = kb.check_all(kb_path)
    except AuditorError as exc:
        _say(f"auditor: error: {exc}")
        sys.exit(EXIT_INPUT)
    for p in problems:
        _say(str(p))
    if problems:
        _say(f"auditor: {len(problems)} problem(s) in {kb_path}")
        sys.exit(EXIT_INPUT)
    click.echo(safetext.line(f"auditor: {kb_path}: all files valid"))
