"""Regenerate the committed reports under reports/, or check them for drift (--check, exit 1 on drift).

Targets: every fixture under fixtures/ (made a git repository at a fixed path inside a temporary
folder, with fixed author and dates, so its commit hash is reproducible), and the published npm
package of the baseline server (fetched with `npm pack`; nothing downloaded is committed).

    python reports/regenerate.py           # rewrite reports/
    python reports/regenerate.py --check   # CI: fail when a committed report differs from a fresh run
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NPM_TARGETS = {"sequentialthinking-npm-0.6.2": "npm:@modelcontextprotocol/server-sequential-thinking@0.6.2"}
# The baseline of shared/seeds/, audited from a checkout of github.com/modelcontextprotocol/servers
# when one is given (--servers-repo or $AUDITOR_SERVERS_REPO); it is shown to auditor as `servers`.
# Its anchors link to the files on GitHub at that commit (--link-base: the clone given may have any remote, or none).
GIT_TARGETS = {"sequentialthinking-2ecb382a": ("2ecb382a02d7921511180dfbadcef24eb66a052f", "src/sequentialthinking"),
               # the same server on the current SDK: McpServer.registerTool, zod, lib.ts, an environment switch, tests
               "sequentialthinking-76d64c82": ("76d64c822f5125032f89eb71dbdb94e42b434821", "src/sequentialthinking")}
LINK_BASE = "https://github.com/modelcontextprotocol/servers"
GIT_ENV = {"GIT_AUTHOR_NAME": "auditor fixtures", "GIT_AUTHOR_EMAIL": "fixtures@auditor.invalid",
           "GIT_COMMITTER_NAME": "auditor fixtures", "GIT_COMMITTER_EMAIL": "fixtures@auditor.invalid",
           "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+00:00", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+00:00"}


def fixture_repo(src: Path, dest: Path) -> None:
    """Copy a fixture and commit it, reproducibly (same files -> same commit hash)."""
    shutil.copytree(src, dest)
    env = {**os.environ, **GIT_ENV, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "fixture"]):
        subprocess.run(["git", *args], cwd=dest, env=env, check=True)


def audit(target: str, out: Path, cwd: Path, check: bool, extra: list[str]) -> int:
    args = [sys.executable, "-m", "auditor", "audit", target, *extra, "--out", str(out), "-q"] + (["--check"] if check else [])
    return subprocess.run(args, cwd=cwd).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed reports; exit 1 on drift")
    parser.add_argument("--only", action="append", default=[], help="regenerate only this report folder (repeatable)")
    parser.add_argument("--servers-repo", default=os.environ.get("AUDITOR_SERVERS_REPO"),
                        help="a clone (bare or not) of modelcontextprotocol/servers, for the baseline reports")
    args = parser.parse_args()
    status = 0
    with tempfile.TemporaryDirectory(prefix="auditor-reports-") as tmp:
        work = Path(tmp)
        targets: dict[str, tuple[str, Path]] = {}
        for fx in sorted(p for p in (ROOT / "fixtures").iterdir() if p.is_dir()):
            fixture_repo(fx, work / "fixtures" / fx.name)
            targets[fx.name] = (f"fixtures/{fx.name}", work)
        for name, spec in NPM_TARGETS.items():
            targets[name] = (spec, work)
        extra: dict[str, list[str]] = {}
        if args.servers_repo:
            (work / "servers").symlink_to(Path(args.servers_repo).resolve())
            for name, (rev, subtree) in GIT_TARGETS.items():
                targets[name] = ("servers", work)
                extra[name] = ["--revision", rev, "--subtree", subtree, "--link-base", LINK_BASE]
        else:
            for name in GIT_TARGETS:
                print(f"reports: {name}: not regenerated (no --servers-repo / $AUDITOR_SERVERS_REPO)", file=sys.stderr)
        for name, (target, cwd) in targets.items():
            if args.only and name not in args.only:
                continue
            out = ROOT / "reports" / name
            if not args.check:
                shutil.rmtree(out, ignore_errors=True)
            rc = audit(target, out, cwd, args.check, extra.get(name, []))
            if rc != 0:
                print(f"reports: {name}: {'drift' if args.check and rc == 1 else f'audit failed (exit {rc})'}", file=sys.stderr)
                status = 1
    if args.check:
        known = set(NPM_TARGETS) | set(GIT_TARGETS) | {p.name for p in (ROOT / "fixtures").iterdir() if p.is_dir()}
        stale = sorted(p.name for p in (ROOT / "reports").iterdir() if p.is_dir() and p.name not in known)
        for name in stale:
            print(f"reports: {name}: no longer generated; remove reports/{name}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
