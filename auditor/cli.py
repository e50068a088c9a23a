"""Command line: the only place that touches argv, files and stdout. Exit: 0 ok, 1 drift, 2 input error, 3 bug."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import click

from auditor import __version__
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


def _write_all(out: Path, files: dict[str, str]) -> None:
    """Write every file or none: render into a temporary folder beside OUTDIR, then move into place."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out, prefix=".auditor-") as tmp:
        for name, body in files.items():  # names may hold one folder (monorepo mode: SERVER/audit.json)
            (Path(tmp) / name).parent.mkdir(parents=True, exist_ok=True)
            (Path(tmp) / name).write_text(body, encoding="utf-8")
        for name in files:
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            os.replace(Path(tmp) / name, out / name)


EXIT_INTERNAL = 3


class _Cli(click.Group):
    """Every failure is one line on stderr: usage mistakes exit 2, bugs exit 3 (never 1, the drift code)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            rv = super().main(args, prog_name or "auditor", complete_var, standalone_mode=False, **extra)
        except click.UsageError as exc:
            hint = f" (see: {exc.ctx.command_path} --help)" if exc.ctx is not None else ""
            click.echo(f"auditor: error: {exc.format_message()}{hint}", err=True)
            sys.exit(EXIT_INPUT)
        except click.ClickException as exc:
            click.echo(f"auditor: error: {exc.format_message()}", err=True)
            sys.exit(EXIT_INPUT)
        except click.exceptions.Abort:
            click.echo("auditor: interrupted", err=True)
            sys.exit(130)
        except Exception as exc:  # a bug in auditor, not the user's mistake
            if os.environ.get("AUDITOR_DEBUG"):
                raise
            click.echo(f"auditor: internal error: {type(exc).__name__}: {exc} (set AUDITOR_DEBUG=1 for the traceback)", err=True)
            sys.exit(EXIT_INTERNAL)
        sys.exit(rv if isinstance(rv, int) else EXIT_OK)


@click.group(cls=_Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="auditor")
def main() -> None:
    """Audit what an MCP server says it does against what its TypeScript code does.

    Reads the server's files at a pinned revision (never checking out, never running its code),
    extracts components, objects, routes and evidenced absences with tree-sitter, and writes an
    anchored inventory as JSON (and Markdown reports).

    Exit status: 0 success; 1 --check found drift; 2 usage or input error; 3 internal error.
    """


@main.command()
@click.argument("target")
@click.option("--revision", "-r", default="HEAD", show_default=True,
              help="Commit-ish to audit (hash, tag, branch); resolved to a full commit hash in the report.")
@click.option("--subtree", "-s", default="", help="Folder of the server inside the repository, e.g. src/myserver.")
@click.option("--out", "-o", "out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder to write the reports into (created if missing).")
@click.option("--format", "fmt", type=click.Choice(["all", "json", "md"]), default="all", show_default=True,
              help="Which reports to write.")
@click.option("--kb", "kb_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Knowledge base folder (default: the kb/ of this checkout, or $AUDITOR_KB).")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if the files in --out differ from a fresh run.")
@click.option("--quiet", "-q", is_flag=True, help="No progress messages on stderr.")
def audit(target: str, revision: str, subtree: str, out: Path, fmt: str, kb_dir: Path | None, check: bool, quiet: bool) -> None:
    """Audit TARGET: a git repository (bare or not) at --revision, or npm:NAME@VERSION.

    Without --subtree, a repository that is not itself a server but holds several (folders whose
    package.json depends on the MCP SDK) is audited server by server into OUT/<folder>/, with
    OUT/index.md and OUT/index.json listing them and the project folders skipped.

    \b
    Examples:
      auditor audit ../servers --revision v1.2.0 --subtree src/myserver --out out/
      auditor audit ../servers --revision main --out out/          (every server found)
      auditor audit npm:@scope/some-mcp-server@1.0.0 --out out/
    """
    from auditor import audit as audit_mod
    from auditor import kb, monorepo, target as target_mod

    def progress(msg: str) -> None:
        if not quiet:
            click.echo(f"auditor: {msg}", err=True)

    plan, gaps = None, ()
    try:
        kb_path = kb_dir or kb.default_kb_dir()
        if not kb_path.is_dir():
            raise AuditorError(f"{kb_path}: knowledge base folder not found (use --kb)")
        if target.startswith("npm:"):
            if subtree or revision != "HEAD":
                raise AuditorError(f"{target}: --revision and --subtree do not apply to npm: targets "
                                   "(the tarball is pinned by its integrity hash)")
            progress(f"fetching {target[4:]} with npm pack")
            pinned = target_mod.open_npm(target[4:])
        else:
            repo = target_mod.pin_git(target, revision)
            plan = None if subtree else monorepo.plan(repo, kb.load(kb_path, "sdk")["sdk_packages"])
            pinned = None if plan else target_mod.at_subtree(repo, subtree)
        if plan is not None:
            progress(f"pinned git target at {repo.commit[:20]}: {len(plan.servers)} server(s) to audit")
            files = monorepo.run(plan, kb_path, _renderers(fmt), progress)
        else:
            progress(f"pinned {pinned.kind} target at {pinned.revision[:20]}")
            result = audit_mod.run(pinned, kb_path, progress)
            files, gaps = {name: render(result) for name, render in _renderers(fmt).items()}, result.gaps
    except AuditorError as exc:
        click.echo(f"auditor: error: {exc}", err=True)
        sys.exit(EXIT_INPUT)
    if check:
        drift = [n for n, body in files.items() if not (out / n).is_file() or (out / n).read_text(encoding="utf-8") != body]
        for n in drift:
            click.echo(f"auditor: drift: {out / n} differs from a fresh run", err=True)
        for n in monorepo.stale(out, files) if plan else []:
            drift.append(n)
            click.echo(f"auditor: drift: {out / n} holds reports of a server this run does not find", err=True)
        sys.exit(EXIT_DRIFT if drift else EXIT_OK)
    try:
        _write_all(out, files)
    except OSError as exc:
        click.echo(f"auditor: error: {out}: cannot write reports ({exc.strerror})", err=True)
        sys.exit(EXIT_INPUT)
    for gap in gaps:
        progress(f"coverage gap: {gap.anchor}: {gap.kind}: {gap.detail}")
    written = sorted(n for n in files if "/" not in n) + ([f"{len(plan.servers)} server folder(s)"] if plan else [])
    progress(f"wrote {', '.join(written)} to {out}")


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
        click.echo(f"auditor: error: {exc}", err=True)
        sys.exit(EXIT_INPUT)
    for p in problems:
        click.echo(str(p), err=True)
    if problems:
        click.echo(f"auditor: {len(problems)} problem(s) in {kb_path}", err=True)
        sys.exit(EXIT_INPUT)
    click.echo(f"auditor: {kb_path}: all files valid")
