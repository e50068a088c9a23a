#!/usr/bin/env python3
"""Benchmark the auditor: whole-process audit time against the interpreter start-up floor, and
in-process tree-sitter parse + query throughput. Standard library plus the project only.

    python bench/bench_audit.py --repo PATH --revision REV [--subtree DIR] [--runs 7] [--iterations 300]
    python bench/bench_audit.py            # the published baseline, npm:@modelcontextprotocol/server-sequential-thinking@0.6.2

For an npm target the package is fetched once with `npm pack`, unpacked and committed into a temporary
git repository, and that repository is what gets benchmarked (npm pack's network time would dominate).
The repository given with --repo is only read (never written): the audit reads it through git plumbing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

DEFAULT_NPM = "@modelcontextprotocol/server-sequential-thinking@0.6.2"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@auditor.invalid", "GIT_AUTHOR_DATE": "2024-01-01T00:00:00+00:00",
    "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@auditor.invalid",
    "GIT_COMMITTER_DATE": "2024-01-01T00:00:00+00:00", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
}


def npm_to_repo(spec: str, workdir: Path) -> Path:
    """`npm pack` SPEC once, unpack it and commit it into a fresh git repository; returns the repository."""
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("bench: npm is not on PATH (give --repo instead)")
    proc = subprocess.run([npm, "pack", spec, "--json", "--pack-destination", str(workdir)],
                          capture_output=True, text=True, cwd=workdir, check=False)
    if proc.returncode != 0:
        sys.exit(f"bench: npm pack {spec} failed: {proc.stderr.strip().splitlines()[-1:]}")
    tarball = workdir / json.loads(proc.stdout)[0]["filename"]
    repo = workdir / "repo"
    repo.mkdir()
    with tarfile.open(tarball, "r:gz") as tar:
        for m in tar.getmembers():
            if not m.isfile():
                continue
            rel = Path(m.name.split("/", 1)[1] if "/" in m.name else m.name)
            if rel.is_absolute() or ".." in rel.parts:
                continue
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            (repo / rel).write_bytes(tar.extractfile(m).read())
    env = {**os.environ, **GIT_ENV}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", f"npm pack {spec}"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=env, capture_output=True)
    return repo


def wall(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} exited {proc.returncode}: {proc.stderr.decode(errors='replace').strip()}")
    return elapsed


def throughput(repo: str, revision: str, subtree: str, iterations: int) -> dict:
    """Parse every script of the target (read at the revision) and run the combined query, in process."""
    from auditor.extract import parse
    from auditor.target import open_git

    target = open_git(repo, revision, subtree)
    scripts = [(f.path, f.data, parse.language_for(f.path)) for f in target.files]
    scripts = [(p, d, lang) for p, d, lang in scripts if lang in {"typescript", "tsx"}]
    if not scripts:
        return {"files": 0}
    for _, data, lang in scripts:  # warm-up: load grammars, compile the query
        parse.captures(parse.parse(data, lang), lang)
    times = []
    for _ in range(iterations):
        t0 = time.perf_counter()
        for _, data, lang in scripts:
            parse.captures(parse.parse(data, lang), lang)
        times.append(time.perf_counter() - t0)
    nbytes = sum(len(d) for _, d, _ in scripts)
    nlines = sum(d.count(b"\n") + (0 if d.endswith(b"\n") else 1) for _, d, _ in scripts)
    med = statistics.median(times)
    return {"files": len(scripts), "bytes": nbytes, "lines": nlines, "median": med, "min": min(times),
            "lines_per_s": nlines / med, "mb_per_s": nbytes / med / 1e6, "commit": target.revision}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", help="git repository (bare or not); default: the npm baseline, committed to a temp repo")
    ap.add_argument("--revision", default="HEAD")
    ap.add_argument("--subtree", default="")
    ap.add_argument("--npm", default=DEFAULT_NPM, help=f"npm spec used when --repo is not given (default {DEFAULT_NPM})")
    ap.add_argument("--runs", type=int, default=7, help="whole-process runs of each command (default 7)")
    ap.add_argument("--iterations", type=int, default=300, help="in-process parse+query iterations (default 300)")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="auditor-bench-") as tmp:
        tmpdir = Path(tmp)
        if args.repo:
            repo, revision, subtree, label = args.repo, args.revision, args.subtree, f"{args.repo} @ {args.revision}"
            label += f" --subtree {subtree}" if subtree else ""
        else:
            repo, revision, subtree = str(npm_to_repo(args.npm, tmpdir)), "HEAD", ""
            label = f"npm:{args.npm} (npm pack once, committed to a temp git repo)"
        out = tmpdir / "out"
        audit_cmd = [sys.executable, "-m", "auditor", "audit", repo, "--revision", revision, "--out", str(out),
                     "--format", "json", "-q"] + (["--subtree", subtree] if subtree else [])
        import_cmd = [sys.executable, "-c", "import auditor.cli"]

        wall(audit_cmd)  # warm-up: page cache, .pyc files
        wall(import_cmd)
        audits, imports = [], []
        for _ in range(args.runs):  # interleaved, so that drift in machine load hits both alike
            imports.append(wall(import_cmd))
            audits.append(wall(audit_cmd))
        report = json.loads((out / "audit.json").read_text(encoding="utf-8"))
        tp = throughput(repo, revision, subtree, args.iterations)

    n_records = sum(len(report[k]) for k in ("sources", "components", "objects", "routes", "absences", "paths", "findings", "claims"))

    def ms(s: float) -> str:
        return f"{s * 1e3:.1f} ms"

    def row(name: str, med: str, low: str) -> None:
        print(f"{name:<44}{med:>12}{low:>12}")

    print(f"target   {label}")
    print(f"pinned   {report['target'].get('commit') or report['target'].get('integrity')}: "
          f"{report['target']['files']} file(s), {n_records} records, coverage complete={report['coverage']['complete']}")
    print(f"python   {sys.version.split()[0]}  ({sys.executable})")
    print()
    med_a, med_i = statistics.median(audits), statistics.median(imports)
    row("measure", "median", "min")
    row("audit  (python -m auditor audit ... -q)", ms(med_a), ms(min(audits)))
    row('floor  (python -c "import auditor.cli")', ms(med_i), ms(min(imports)))
    row("ratio  audit / floor", f"{med_a / med_i:.2f}x", f"{min(audits) / min(imports):.2f}x")
    row("above floor  audit - floor", ms(med_a - med_i), ms(min(audits) - min(imports)))
    print(f"  ({args.runs} interleaved runs each, after one warm-up run)")
    print()
    if not tp["files"]:
        print("parse+query: the target has no .ts/.js files")
        return
    print(f"parse+query in process: {tp['files']} script(s), {tp['lines']} lines, {tp['bytes'] / 1024:.1f} KiB, "
          f"{args.iterations} iterations")
    row("  time per pass over all scripts", ms(tp["median"]), ms(tp["min"]))
    print(f"  throughput at the median: {tp['lines_per_s']:,.0f} lines/s, {tp['mb_per_s']:.2f} MB/s")

if __name__ == "__main__":
    main()
