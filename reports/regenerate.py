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
GIT_ENV = {"GIT_AUTHOR_NAME": "auditor fixtures", "GIT_AUTHOR_EMAIL": "fixtures@auditor.invalid",
           "GIT_COMMITTER_NAME": "auditor fixtures", "GIT_COMMITTER_EMAIL": "fixtures@auditor.invalid",
           "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+00:00", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+00:00"}


def fixture_repo(src: Path, dest: Path) -> None:
    """Copy a fixture and commit it, reproducibly (same files -> same commit hash)."""
    shutil.copytree(src, dest)
    env = {**os.environ, **GIT_ENV, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "fixture"]):
        subprocess.run(["git", *args], cwd=dest, env=env, check=True)


def audit(target: str, out: Path, cwd: Path, check: bool) -> int:
    args = [sys.executable, "-m", "auditor", "audit", target, "--out", str(out), "-q"] + (["--check"] if check else [])
    return subprocess.run(args, cwd=cwd).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed reports; exit 1 on drift")
    parser.add_argument("--only", action="append", default=[], help="regenerate only this report folder (repeatable)")
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
        for name, (target, cwd) in targets.items():
            if args.only and name not in args.only:
                continue
            out = ROOT / "reports" / name
            if not args.check:
                shutil.rmtree(out, ignore_errors=True)
            rc = audit(target, out, cwd, args.check)
            if rc != 0:
                print(f"reports: {name}: {'drift' if args.check and rc == 1 else f'audit failed (exit {rc})'}", file=sys.stderr)
                status = 1
    if args.check:
        known = set(NPM_TARGETS) | {p.name for p in (ROOT / "fixtures").iterdir() if p.is_dir()}
        stale = sorted(p.name for p in (ROOT / "reports").iterdir() if p.is_dir() and p.name not in known)
        for name in stale:
            print(f"reports: {name}: no longer generated; remove reports/{name}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
