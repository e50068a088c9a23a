#!/usr/bin/env python3
"""Cost and outcome of auditing large single-file bundles, side by side for several auditor sources (a checkout, or
`git archive COMMIT` unpacked): per npm package and source, the user CPU time, wall time and peak RSS of the audit
process (`wait4`), the tools found, completeness and the gap kinds. Standard library only; each audit is a subprocess
`python -m auditor audit npm:SPEC --format json -q --jobs 1` run from the source folder.

    python bench/bench_bundles.py --source before=/tmp/base --source after=. \\
        --cache /tmp/npm-cache datadog-mcp@5.8.2 @cloudbase/cloudbase-mcp@2.34.6
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path


def audit(source: Path, spec: str, cache: str | None) -> dict:
    with tempfile.TemporaryDirectory() as out:
        env = {**os.environ, "PYTHONPATH": str(source), **({"npm_config_cache": cache} if cache else {})}
        start = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "auditor", "audit", f"npm:{spec}", "--out", out, "--format",
                                 "json", "-q", "--jobs", "1"], cwd=source, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        row = {"user": usage.ru_utime, "wall": wall, "peak_mib": usage.ru_maxrss / 1024, "exit": proc.returncode}
        path = Path(out) / "audit.json"
        if path.exists():
            cov = json.loads(path.read_text())["coverage"]
            row |= {"tools": len(cov["tools"]), "complete": cov["complete"],
                    "gaps": dict(Counter(g["kind"] for g in cov["gaps"]))}
        return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+", help="npm packages, NAME@VERSION")
    ap.add_argument("--source", action="append", required=True, help="LABEL=DIR of an auditor source")
    ap.add_argument("--cache", help="npm cache folder (npm_config_cache)")
    args = ap.parse_args()
    sources = [(label, Path(d).resolve()) for label, d in (s.split("=", 1) for s in args.source)]
    print("| package | source | user CPU | wall | peak | tools | complete | gaps |")
    print("|---|---|---|---|---|---|---|---|")
    for spec in args.specs:
        for label, source in sources:
            r = audit(source, spec, args.cache)
            gaps = ", ".join(f"{k} {v}" for k, v in sorted(r.get("gaps", {}).items()))
            print(f"| {spec} | {label} | {r['user']:.2f} s | {r['wall']:.2f} s | {r['peak_mib']:.0f} MiB | "
                  f"{r.get('tools', '-')} | {r.get('complete', '-')} | {gaps} |", flush=True)


if __name__ == "__main__":
    main()
