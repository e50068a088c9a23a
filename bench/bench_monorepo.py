#!/usr/bin/env python3
"""Benchmark monorepo mode: the full audit of every TS/JS server of a repository at two revisions, as a user
runs it (`python -m auditor audit REPO -r A -r B --out DIR`), side by side with semgrep (and ast-grep) answering
six equivalent extraction rules over the same files, at 1x and at replicated corpus sizes.

    python bench/bench_monorepo.py --repo PATH --revision HEAD --revision 1f705677 \\
        --semgrep /tmp/semgrep-venv/bin/semgrep [--ast-grep /tmp/semgrep-venv/bin/ast-grep] [--runs 5] [--scales 1,4,16]

The files every server audit reads (its subtree and its build context) at each revision are copied
into a temporary git repository, one commit per revision, with each server folder replicated under
new names (`src/x`, `src/x-r2`, ...) for the larger scales; the same files are laid out as plain
folders for semgrep and ast-grep. Everything is written under a temporary folder and removed at the
end; the repository given with --repo is only read. The auditor runs with its default --jobs (one
process per CPU) and with --jobs 1; semgrep with --jobs 1 and 2. Figures: whole-process wall time
(median of --runs interleaved runs, after one warm-up run), CPU time, lines/s and MB/s over the TS/JS
files of the corpus; memory as the peak of the summed PSS of the process tree (sampled in the warm-up
run) and as the peak RSS of the largest single process (wait4). Then, in this process: what the
parse cache saves when one run audits two revisions of --repo (--cache-pair).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's auditor, also for the children (PYTHONPATH below)

GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@auditor.invalid", "GIT_AUTHOR_DATE": "2024-01-01T00:00:00+00:00",
    "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@auditor.invalid",
    "GIT_COMMITTER_DATE": "2024-01-01T00:00:00+00:00", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
}
NO_NETWORK = {"SEMGREP_ENABLE_VERSION_CHECK": "0", "SEMGREP_SEND_METRICS": "off"}
SEMGREP_RULES = ROOT / "bench" / "semgrep-rules.yaml"
AST_GREP_RULES = ROOT / "bench" / "ast-grep-rules.yaml"
# The run-time packages the developers' guide makes required (a subset of pyproject.toml's), as imported.
REQUIRED_IMPORTS = ("click", "jinja2", "yaml", "tree_sitter", "tree_sitter_typescript")


def audit_revisions(repo: str, revisions: list[str], kb_dir: Path) -> tuple[dict[str, dict[str, str]], object]:
    """The full monorepo audit (extraction, analysis, all renderers) of the revisions in one run, in this
    process (what `auditor audit REPO -r A -r B --jobs 1` does, without writing); (files by revision, cache stats)."""
    from auditor import batch, kb, monorepo, target
    from auditor.extract import cache
    from auditor.report import json as json_report
    from auditor.report import markdown

    vocab = kb.load(kb_dir, "sdk")
    renderers = {"audit.json": json_report.render, **markdown.RENDERERS}  # what --format all writes
    units, plans = [], []
    for rev in revisions:
        plan = monorepo.plan(target.pin_git(repo, rev), vocab["sdk_packages"], vocab["other_projects"])
        if plan is None:
            sys.exit(f"bench: {repo} at {rev} holds no server below its root (monorepo mode does not apply)")
        plans.append(plan)
        units += [batch.Unit(pin=plan.pin, server=s, folder=f"{rev}/{s.name}", label=s.subtree) for s in plan.servers]
    before = cache.stats()
    out: dict[str, dict[str, str]] = {rev: {} for rev in revisions}
    for done in batch.execute(units, kb_dir, renderers, jobs=1):
        for name, body in done.files:
            rev, rel = name.split("/", 1)
            out[rev][rel] = body
    after = cache.stats()
    return out, (after.misses - before.misses, after.hits - before.hits)


def corpus_files(repo: str, revisions: list[str]) -> list[tuple[str, dict[str, bytes], list[str]]]:
    """(commit, files the audits read by path, server subtrees) per revision, read through git plumbing."""
    from auditor import kb, monorepo, target

    vocab = kb.load(kb.default_kb_dir(), "sdk")
    out = []
    for rev in revisions:
        pin = target.pin_git(repo, rev)
        plan = monorepo.plan(pin, vocab["sdk_packages"], vocab["other_projects"])
        if plan is None:
            sys.exit(f"bench: {repo} at {rev} holds no server below its root")
        files: dict[str, bytes] = {}
        for s in plan.servers:
            t = target.at_subtree(pin, s.subtree)
            files.update({f.path: f.data for f in t.files + t.context_files})
        out.append((pin.commit, files, [s.subtree for s in plan.servers]))
    return out


def replicate(files: dict[str, bytes], servers: list[str], scale: int) -> dict[str, bytes]:
    """Each server folder `S` copied to `S`, `S-r2`, ... `S-rN`; files outside every server kept once."""
    out = {}
    for path, data in files.items():
        owner = next((s for s in servers if path.startswith(s + "/")), None)
        if owner is None:
            out[path] = data
            continue
        for i in range(scale):
            out[(owner if i == 0 else f"{owner}-r{i + 1}") + path[len(owner):]] = data
    return out


def write_tree(dest: Path, files: dict[str, bytes]) -> None:
    for path, data in files.items():
        p = dest / path
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV}).stdout


def build_corpus(work: Path, sources, scale: int) -> tuple[Path, list[str], list[Path], dict]:
    """A git repository with one commit per revision, and the same trees as plain folders."""
    repo, plain = work / "repo", []
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    commits, nfiles, nbytes, nlines = [], 0, 0, 0
    from auditor.extract import parse

    for i, (commit, files, servers) in enumerate(sources):
        tree = replicate(files, servers, scale)
        for p in repo.iterdir():
            if p.name != ".git":
                shutil.rmtree(p) if p.is_dir() else p.unlink()
        write_tree(repo, tree)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "--allow-empty", "-m", f"revision {commit[:12]} x{scale}")
        commits.append(git(repo, "rev-parse", "HEAD").strip())
        folder = work / f"rev{i + 1}"
        write_tree(folder, tree)
        plain.append(folder)
        scripts = [d for p, d in tree.items() if parse.language_for(p) in {"typescript", "tsx"}]
        nfiles += len(scripts)
        nbytes += sum(len(d) for d in scripts)
        nlines += sum(d.count(b"\n") + (0 if d.endswith(b"\n") or not d else 1) for d in scripts)
    (work / ".semgrepignore").write_text("# scan every file (no default ignores)\n", encoding="utf-8")
    return repo, commits, plain, {"files": nfiles, "bytes": nbytes, "lines": nlines}


def measure(cmd: list[str], cwd: Path, env: dict | None = None) -> tuple[float, int, float, bytes]:
    """(wall seconds, peak RSS KiB of one process, CPU seconds, stdout) of one child process."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=err, env={**os.environ, **(env or {})})
        out = proc.stdout.read()  # to the end, then reap with wait4: this child's own rusage
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        proc.stdout.close()
        if proc.returncode != 0:
            err.seek(0)
            sys.exit(f"bench: {' '.join(cmd[:4])} ... exited {proc.returncode}: {err.read().decode(errors='replace').strip()[-400:]}")
    return wall, usage.ru_maxrss, usage.ru_utime + usage.ru_stime, out


def _tree(root: int) -> list[int]:
    """ROOT and its descendants."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as f:
                    ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += children.get(pid, [])
    return out


def _pss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            return next(int(line.split()[1]) for line in f if line.startswith(b"Pss:"))
    except (OSError, StopIteration, ValueError):
        return 0


def sampled_memory(cmd: list[str], cwd: Path, env: dict | None = None, every: float = 0.01) -> tuple[int, bytes]:
    """(peak of the process tree's summed PSS in KiB, stdout), sampled every EVERY seconds. A run of its own:
    sampling costs CPU, so timed runs are never sampled. PSS splits shared pages among their sharers; a process
    counts from its second sample on, so that the instant between fork and exec of a helper (git, semgrep-core),
    when it maps all of its parent's memory, is not counted twice."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, env={**os.environ, **(env or {})})
        peak, seen = 0, {proc.pid}
        while proc.poll() is None:
            tree = _tree(proc.pid)
            peak = max(peak, sum(_pss_kib(pid) for pid in tree if pid in seen))
            seen = {proc.pid, *tree}
            time.sleep(every)
        if proc.returncode != 0:
            err.seek(0)
            sys.exit(f"bench: {' '.join(cmd[:4])} ... exited {proc.returncode}: {err.read().decode(errors='replace').strip()[-400:]}")
        out.seek(0)
        return peak, out.read()


def tools(args, repo: Path, commits: list[str], plain: list[Path], work: Path) -> tuple[dict[str, list[str]], dict[str, str]]:
    env = {"PYTHONPATH": str(ROOT), **NO_NETWORK}
    audit = [sys.executable, "-m", "auditor", "audit", str(repo), *[a for c in commits for a in ("--revision", c)],
             "--out", str(work / "out"), "--quiet"]
    out = {f"auditor -j{args.jobs or 'auto'}": audit + ["--jobs", str(args.jobs)]}
    if args.jobs != 1:
        out["auditor -j1"] = audit + ["--jobs", "1"]
    # The floor of any Python tool on tree-sitter: parse everything, one combined query of the six rules.
    out["tree-sitter floor"] = [sys.executable, str(ROOT / "bench" / "floor.py"), *[p.name for p in plain]]
    # The floor of start-up alone: the interpreter importing the packages the project requires, nothing else.
    out["import floor"] = [sys.executable, "-c", f"import {', '.join(REQUIRED_IMPORTS)}; print(len({REQUIRED_IMPORTS!r}))"]
    for jobs in (1, 2) if args.semgrep else ():  # semgrep's own parallelism, like the auditor's --jobs
        out[f"semgrep -j{jobs}"] = [args.semgrep, "scan", "--config", str(SEMGREP_RULES), "--json", "--metrics", "off",
                                    "--disable-version-check", "--jobs", str(jobs), "--quiet", *[p.name for p in plain]]
    if args.ast_grep:
        out["ast-grep -j1"] = [args.ast_grep, "scan", "--rule", str(AST_GREP_RULES), "--json=compact", "--threads", "1",
                               *[p.name for p in plain]]
    return out, env


def matches(name: str, stdout: bytes, work: Path) -> str:
    """A one-line count of what a tool found, to show the runs did the same work every time."""
    if name == "tree-sitter floor":
        return f"{stdout.decode().strip()} matches"
    if name == "import floor":
        return f"{stdout.decode().strip()} packages imported"
    if name.startswith("auditor"):
        files = [p for p in (work / "out").rglob("*") if p.is_file()]
        audits = sum(1 for p in files if p.name == "audit.json")
        return f"{audits} server audits, {len(files)} files written"
    try:
        doc = json.loads(stdout)
    except ValueError:
        return "?"
    results = doc["results"] if isinstance(doc, dict) else doc
    scanned = f", {len(doc['paths']['scanned'])} files scanned" if isinstance(doc, dict) else ""
    return f"{len(results)} matches{scanned}"


def scaling(args, sources) -> list[dict]:
    rows = []
    for scale in args.scales:
        with tempfile.TemporaryDirectory(prefix=f"auditor-bench-x{scale}-") as tmp:
            work = Path(tmp)
            repo, commits, plain, size = build_corpus(work, sources, scale)
            cmds, env = tools(args, repo, commits, plain, work)
            runs: dict[str, list] = {n: [] for n in cmds}
            found, pss = {}, {}
            for name, cmd in cmds.items():  # warm-up (page cache, .pyc files, semgrep's rule cache), memory sampled
                shutil.rmtree(work / "out", ignore_errors=True)
                pss[name], stdout = sampled_memory(cmd, work, env)
                found[name] = matches(name, stdout, work)
            for _ in range(args.runs):  # interleaved, so that drift in machine load hits every tool alike
                for name, cmd in cmds.items():
                    runs[name].append(measure(cmd, work, env)[:3])
            for name, rs in runs.items():
                wall = statistics.median(r[0] for r in rs)
                rows.append({"scale": scale, "tool": name, **size, "wall": wall, "min": min(r[0] for r in rs),
                             "rss_kib": max(r[1] for r in rs), "pss_kib": pss[name],
                             "cpu": statistics.median(r[2] for r in rs), "found": found[name]})
    return rows


def print_scaling(rows: list[dict], runs: int) -> None:
    print(f"{'scale':>5} {'tool':<14} {'files':>6} {'lines':>8} {'MB':>6} {'wall s':>7} {'min s':>6} {'cpu s':>6} "
          f"{'lines/s':>9} {'MB/s':>5} {'tree MiB':>8} {'proc MiB':>8}  work")
    for r in rows:
        mb = r["bytes"] / 1e6
        print(f"{r['scale']:>4}x {r['tool']:<14} {r['files']:>6} {r['lines']:>8} {mb:>6.2f} {r['wall']:>7.2f} "
              f"{r['min']:>6.2f} {r['cpu']:>6.2f} {r['lines'] / r['wall']:>9,.0f} {mb / r['wall']:>5.2f} "
              f"{r['pss_kib'] / 1024:>8.1f} {r['rss_kib'] / 1024:>8.1f}  {r['found']}")
    print(f"  wall: whole process, median of {runs} interleaved runs after one warm-up; lines and MB: the TS/JS files of "
          "both revisions;\n  tree MiB: peak of the summed PSS of the process and its children (sampled every 10 ms "
          "in the warm-up run);\n  proc MiB: peak RSS of the largest single process (wait4)")
    print()
    print("ratios auditor / other tool (wall time, tree memory; < 1 means the auditor is faster or smaller)")
    for scale in sorted({r["scale"] for r in rows}):
        for mine in (r for r in rows if r["scale"] == scale and r["tool"].startswith("auditor")):
            for r in rows:
                if r["scale"] == scale and not r["tool"].startswith("auditor"):
                    print(f"{scale:>4}x {mine['tool']:<12} / {r['tool']:<13} wall {mine['wall'] / r['wall']:>6.2f}x   "
                          f"memory {mine['pss_kib'] / r['pss_kib']:>6.2f}x")
    print()
    print("budget of a 10x speed-up over semgrep -j1, against the floors measured in the same run")
    for scale in sorted({r["scale"] for r in rows}):
        at = {r["tool"]: r for r in rows if r["scale"] == scale}
        if "semgrep -j1" not in at:
            continue
        budget = at["semgrep -j1"]["wall"] / 10
        floors = ", ".join(f"{n} {at[n]['wall']:.2f} s" for n in ("import floor", "tree-sitter floor") if n in at)
        mine = ", ".join(f"{n} {r['wall']:.2f} s ({at['semgrep -j1']['wall'] / r['wall']:.1f}x)"
                         for n, r in at.items() if n.startswith("auditor"))
        print(f"{scale:>4}x budget {budget:.2f} s; floors: {floors}; {mine}")


def cache_section(repo: str, first: str, second: str) -> None:
    """Two revisions of --repo in one run, in this process: what the parse cache saves, and that it changes no byte."""
    from auditor import kb

    kb_dir = kb.default_kb_dir()
    print(f"parse cache (in process, one run of {first} and {second} as `-r {first} -r {second} --jobs 1` does; {repo})")
    audit_revisions(repo, [first], kb_dir)  # warm-up: grammars, queries, kb, templates

    def step(label: str, revs: list[str]) -> dict[str, dict[str, str]]:
        t0 = time.perf_counter()
        files, (parsed, reused) = audit_revisions(repo, revs, kb_dir)
        print(f"  {label:<28} {(time.perf_counter() - t0) * 1e3:>8.1f} ms   parsed {parsed:>4}, reused {reused:>4}")
        return files

    step(f"{first} alone", [first])
    cold = step(f"{second} alone", [second])[second]
    both = step(f"{first} and {second}", [first, second])[second]
    same = both == cold
    print(f"  {second} in the pair == {second} alone: {'identical' if same else 'DIFFERENT'} ({len(cold)} files)")
    if not same:
        sys.exit("bench: the cache changed the output")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", help="git repository (bare or not) holding several servers")
    ap.add_argument("--revision", action="append", dest="revisions", help="revision to audit (repeat; default HEAD)")
    ap.add_argument("--semgrep", help="path of a semgrep executable (install it in its own venv)")
    ap.add_argument("--ast-grep", dest="ast_grep", help="path of an ast-grep executable (optional)")
    ap.add_argument("--runs", type=int, default=5, help="measured runs of each command (default 5)")
    ap.add_argument("--scales", default="1,4,16", help="corpus replication factors (default 1,4,16; 0: cache figures only)")
    ap.add_argument("--cache-pair", nargs=2, metavar="REV", help="revisions for the cache figures "
                    "(default: the first and last --revision)")
    ap.add_argument("--jobs", type=int, default=0, help="the auditor's --jobs (default 0: one per CPU); "
                    "a -j1 row is added when it is not 1")
    args = ap.parse_args()
    revisions = args.revisions or ["HEAD"]
    if not args.repo:
        ap.error("--repo is required")
    args.scales = [int(s) for s in args.scales.split(",")]
    sources = corpus_files(args.repo, revisions)
    print(f"corpus   {args.repo} at {', '.join(f'{r} ({c[:12]}, {len(s)} servers)' for r, (c, _, s) in zip(revisions, sources))}")
    print(f"python   {sys.version.split()[0]}; cpus {os.cpu_count()}; auditor from {ROOT}")
    for name, path, extra in (("semgrep", args.semgrep, ["--disable-version-check"]), ("ast-grep", args.ast_grep, [])):
        if path:  # semgrep's own version check waits for the network: keep it off everywhere
            v = subprocess.run([path, "--version", *extra], capture_output=True, text=True,
                               env={**os.environ, **NO_NETWORK}).stdout.strip()
            print(f"{name:<8} {v} ({path})")
    print()
    if args.scales != [0]:
        print_scaling(scaling(args, sources), args.runs)
        print()
    cache_section(args.repo, *(args.cache_pair or (revisions[0], revisions[-1])))


if __name__ == "__main__":
    main()
