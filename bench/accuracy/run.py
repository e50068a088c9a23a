"""Accuracy benchmark: audit every pinned server of the labelled corpus and compare with the hand-checked labels.

Each server is labelled in labels/<slug>.yaml (format: bench/README.md, "Accuracy corpus"): the npm package and exact
version, the tools it registers (checked by reading its code), and true/false verdicts on a sample of the
findings (keyed by finding id). For each server this script runs, in a temporary folder,

    auditor audit npm:NAME@VERSION --out DIR --format json -q

and reads DIR/audit.json: the tools found are the names of the coverage ledger (`coverage.tools`, every row,
whatever its status: a tool the audit names is a tool it found), and the findings are `findings` (plus the
claims whose verdict is `contradicted`, labelled under `claims:`). It prints one row per server and totals for
each split (dev, holdout, holdout2 ... up to LAST_HOLDOUT: SPLITS) and all: tool recall, invented tools,
finding precision per kind (over the labelled findings), unlabelled findings per kind, and how many audits are
complete.

Only the standard library, PyYAML (a dependency of the project) and the `auditor` command are used; the
packages are fetched by the auditor itself (`npm pack`), or, with --servers-dir, read from folders holding the
unpacked tarballs (DIR/<slug>/package.json ...), committed into a temporary git repository.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
LABELS = HERE / "labels"
LAST_HOLDOUT = 244  # a new held-out split: one more
# Each later holdout was labelled after the one before had been looked at.
SPLITS = ("dev", "holdout", *(f"holdout{i}" for i in range(2, LAST_HOLDOUT + 1)))


def load_labels(only: list[str] | None) -> list[dict]:
    out = []
    for f in sorted(LABELS.glob("*.yaml")):
        try:
            lab = yaml.safe_load(f.read_text(encoding="utf-8"))
        except yaml.YAMLError as e:
            raise SystemExit(f"{f}: {e}") from None
        lab["slug"] = f.stem
        if only and not any(o in (f.stem, lab["npm"], lab["npm"].rsplit("@", 1)[0]) for o in only):
            continue
        tools = []
        for t in lab.get("tools") or []:
            tools.append(t if isinstance(t, dict) else {"name": t})
        lab["tools"] = tools
        lab["findings"] = lab.get("findings") or {}
        lab["claims"] = lab.get("claims") or {}
        if lab.get("split") not in SPLITS:
            raise SystemExit(f"{f}: split must be one of {SPLITS}")
        out.append(lab)
    return out


def _auditor(source: str | None) -> list[str]:
    if source:  # a checkout (or an export of one commit) run from its own files
        return [sys.executable, "-m", "auditor"]
    exe = shutil.which("auditor")
    return [exe] if exe else [sys.executable, "-m", "auditor"]


def _git_target(folder: Path, tmp: Path) -> Path:
    """A git repository holding FOLDER's files in one commit (the auditor reads git or npm targets only)."""
    repo = tmp / "repo"
    shutil.copytree(folder, repo, symlinks=True)
    env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@invalid",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@invalid",
           "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z"}
    for args in (["init", "-q"], ["add", "-A", "-f", "."], ["commit", "-q", "-m", "package", "--no-gpg-sign"]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)
    return repo


def audit(lab: dict, cache: str | None, servers_dir: str | None, keep: str | None, source: str | None = None) -> dict:
    """Run the auditor on one server; audit.json as a dict (or an error), with the wall time."""
    with tempfile.TemporaryDirectory(prefix="acc-") as tmp:
        out = Path(keep) / lab["slug"] if keep else Path(tmp) / "out"
        env = dict(os.environ)
        if cache:
            env["npm_config_cache"] = str(Path(cache).resolve())
        if source:
            env["PYTHONPATH"] = str(Path(source).resolve())
        if servers_dir:
            folder = Path(servers_dir) / lab["slug"]
            if (folder / "package").is_dir():
                folder = folder / "package"
            target = [str(_git_target(folder, Path(tmp))), "--revision", "HEAD"]
        else:
            target = [f"npm:{lab['npm']}"]
        t0 = time.monotonic()
        # cwd: a folder of ours, so that `python -m auditor` never picks up the checkout it was started from
        # ahead of --auditor-source (python puts the current folder first on sys.path).
        proc = subprocess.run([*_auditor(source), "audit", *target, "--out", str(out.resolve()), "--format", "json", "-q"],
                              capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL, cwd=tmp)
        wall = time.monotonic() - t0
        if proc.returncode != 0:
            return {"error": f"exit {proc.returncode}: {proc.stderr.strip().splitlines()[-1:] or ''}", "wall": wall}
        data = json.loads((out / "audit.json").read_text(encoding="utf-8"))
        return {"audit": data, "wall": wall}


def score(lab: dict, res: dict) -> dict:
    expected = [t["name"] for t in lab["tools"]]
    row = {"slug": lab["slug"], "npm": lab["npm"], "split": lab["split"], "shape": lab.get("shape", ""),
           "expected": expected, "wall": round(res.get("wall", 0.0), 2)}
    if "error" in res:
        row.update(error=res["error"], found=[], missing=expected, invented=[], complete=False, findings=[])
        return row
    a = res["audit"]
    found = sorted({t["name"] for t in a["coverage"]["tools"]})
    row["found"] = found
    row["missing"] = [n for n in expected if n not in found]
    tolerated = set(lab.get("dispatch_only") or [])  # dispatched but advertised by no descriptor: neither way
    row["invented"] = [n for n in found if n not in expected and n not in tolerated]
    row["complete"] = bool(a["coverage"]["complete"])
    row["unresolved"] = [u["what"] for u in a["coverage"].get("unresolved", [])]
    row["gaps"] = len(a["coverage"].get("gaps", []))
    items = []
    for advisory, key in ((False, "findings"), (True, "advisories")):  # advisories: kb/findings.yaml level
        for f in a.get(key, []):
            v = lab["findings"].get(f["id"])
            items.append({"id": f["id"], "kind": f["kind"], "label": None if v is None else bool(v["verdict"]),
                          "reason": None if v is None else v.get("reason", ""), "advisory": advisory})
    for c in a.get("claims", []):
        if c.get("verdict") == "contradicted":
            v = lab["claims"].get(c["id"])
            items.append({"id": c["id"], "kind": "claim-contradicted",
                          "label": None if v is None else bool(v["verdict"]),
                          "reason": None if v is None else v.get("reason", ""), "advisory": False})
    row["findings"] = items
    return row


def totals(rows: list[dict]) -> dict:
    exp = sum(len(r["expected"]) for r in rows)
    hit = sum(len(r["expected"]) - len(r["missing"]) for r in rows)
    invented = [f"{r['slug']}:{n}" for r in rows for n in r["invented"]]
    per_kind: dict[str, Counter] = defaultdict(Counter)
    advisory: set[str] = set()
    for r in rows:
        for f in r["findings"]:
            per_kind[f["kind"]]["right" if f["label"] is True else "wrong" if f["label"] is False else "unlabelled"] += 1
            if f.get("advisory"):
                advisory.add(f["kind"])
    kinds = {k: {"right": c["right"], "wrong": c["wrong"], "unlabelled": c["unlabelled"],
                 "precision": round(c["right"] / (c["right"] + c["wrong"]), 3) if c["right"] + c["wrong"] else None,
                 "level": "advisory" if k in advisory else "claim" if k == "claim-contradicted" else "finding"}
             for k, c in sorted(per_kind.items())}
    # Finding precision: the kinds reported by default (not advisories, not claim verdicts).
    right = sum(c["right"] for c in kinds.values() if c["level"] == "finding")
    wrong = sum(c["wrong"] for c in kinds.values() if c["level"] == "finding")
    complete = sum(1 for r in rows if r["complete"])
    return {"servers": len(rows), "tools_expected": exp, "tools_found": hit,
            "tool_recall": round(hit / exp, 3) if exp else None,
            "servers_all_tools": sum(1 for r in rows if not r["missing"]),
            "invented": len(invented), "invented_list": invented, "finding_kinds": kinds,
            "findings_right": right, "findings_wrong": wrong,
            "finding_precision": round(right / (right + wrong), 3) if right + wrong else None,
            "complete": complete, "complete_pct": round(100 * complete / len(rows), 1) if rows else None,
            "errors": [r["slug"] for r in rows if "error" in r]}


def summarize(rows: list[dict]) -> dict[str, dict]:
    """The totals of each split that has rows, in SPLITS order, then of all rows."""
    summary = {}
    for split in SPLITS:
        part = [r for r in rows if r["split"] == split]
        if part:
            summary[split] = totals(part)
    summary["all"] = totals(rows)
    return summary


def _pct(x):
    return "-" if x is None else f"{100 * x:.1f}%"


def print_table(rows: list[dict], summary: dict[str, dict]) -> None:
    print(f"{'server':44} {'split':8} {'shape':22} {'exp':>4} {'found':>5} {'miss':>4} {'inv':>4} "
          f"{'complete':8} {'f.right':>7} {'f.wrong':>7} {'f.unlab':>7} {'s':>5}")
    for r in rows:
        fr = sum(1 for f in r["findings"] if f["label"] is True)
        fw = sum(1 for f in r["findings"] if f["label"] is False)
        fu = sum(1 for f in r["findings"] if f["label"] is None)
        print(f"{r['npm'][:44]:44} {r['split']:8} {r['shape'][:22]:22} {len(r['expected']):4} {len(r['found']):5} "
              f"{len(r['missing']):4} {len(r['invented']):4} {'yes' if r['complete'] else 'no':8} {fr:7} {fw:7} {fu:7} "
              f"{r['wall']:5.1f}")
    print()
    for r in rows:
        bits = []
        if "error" in r:
            bits.append(f"ERROR {r['error']}")
        if r["missing"]:
            bits.append(f"missing {len(r['missing'])}: {', '.join(r['missing'][:12])}{' ...' if len(r['missing']) > 12 else ''}")
        if r["invented"]:
            bits.append(f"invented {len(r['invented'])}: {', '.join(r['invented'][:12])}{' ...' if len(r['invented']) > 12 else ''}")
        wrong = [f for f in r["findings"] if f["label"] is False]
        if wrong:
            bits.append("wrong findings: " + "; ".join(f"{f['id']} ({f['reason']})" for f in wrong[:6])
                        + (" ..." if len(wrong) > 6 else ""))
        unl = [f for f in r["findings"] if f["label"] is None]
        if unl:
            bits.append(f"unlabelled {len(unl)}: " + ", ".join(f["id"] for f in unl[:6]) + (" ..." if len(unl) > 6 else ""))
        if bits:
            print(f"{r['slug']}:")
            for b in bits:
                print(f"    {b}")
    for name, s in summary.items():
        print(f"\n== {name}: {s['servers']} servers")
        print(f"tool recall        {_pct(s['tool_recall'])} ({s['tools_found']}/{s['tools_expected']}); "
              f"servers with every tool found: {s['servers_all_tools']}/{s['servers']}")
        print(f"invented tools     {s['invented']}" + (f": {', '.join(s['invented_list'][:20])}"
                                                      + (" ..." if s['invented'] > 20 else "") if s["invented"] else ""))
        print(f"complete           {s['complete']}/{s['servers']} ({s['complete_pct']}%)")
        print(f"finding precision  {_pct(s['finding_precision'])} ({s['findings_right']} right, {s['findings_wrong']} wrong;"
              " kinds reported by default)")
        for level in ("finding", "claim", "advisory"):
            for k, c in s["finding_kinds"].items():
                if c["level"] == level:
                    print(f"    {k:28} {level:8} precision {_pct(c['precision']):>7}  right {c['right']:3}  "
                          f"wrong {c['wrong']:3}  unlabelled {c['unlabelled']:3}")
        if s["errors"]:
            print(f"errors             {', '.join(s['errors'])}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", help="a server (slug, NAME or NAME@VERSION); repeat for several")
    ap.add_argument("--jobs", "-j", type=int, default=2, help="audits run in parallel (default 2)")
    ap.add_argument("--json", action="store_true", help="print the rows and totals as JSON")
    ap.add_argument("--cache", help="npm cache folder kept between runs (npm_config_cache), so tarballs are "
                                    "fetched once")
    ap.add_argument("--servers-dir", help="folder of unpacked tarballs, DIR/<slug>/[package/], audited instead "
                                          "of fetching")
    ap.add_argument("--keep", help="write each audit.json to KEEP/<slug>/ instead of a temporary folder")
    ap.add_argument("--split", choices=SPLITS, metavar="SPLIT",
                    help=f"only this split: dev, holdout, holdout2 ... holdout{LAST_HOLDOUT}")
    ap.add_argument("--auditor-source", metavar="DIR",
                    help="run the auditor from this folder (a checkout, or `git archive COMMIT` unpacked) with "
                         "python -m auditor, instead of the installed `auditor`; e.g. to measure a commit without "
                         "the working tree's uncommitted changes")
    args = ap.parse_args(argv)
    labs = load_labels(args.only)
    if args.split:
        labs = [lab for lab in labs if lab["split"] == args.split]
    if not labs:
        print("no server matches", file=sys.stderr)
        return 2
    env = {**os.environ, **({"PYTHONPATH": str(Path(args.auditor_source).resolve())} if args.auditor_source else {})}
    probe = subprocess.run([*_auditor(args.auditor_source), "--version"], capture_output=True, text=True, env=env,
                           stdin=subprocess.DEVNULL, cwd=tempfile.gettempdir())
    if probe.returncode != 0:  # (a Python without the auditor: every audit would fail at once, each 0.1 s)
        print(f"run.py: the auditor does not start ({' '.join(_auditor(args.auditor_source))} --version: "
              f"{(probe.stderr.strip().splitlines() or ['exit ' + str(probe.returncode)])[-1]}); activate the "
              "environment it is installed in, or give --auditor-source", file=sys.stderr)
        return 2
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda lab: audit(lab, args.cache, args.servers_dir, args.keep, args.auditor_source), labs))
    rows = [score(lab, res) for lab, res in zip(labs, results)]
    summary = summarize(rows)
    if args.json:
        print(json.dumps({"rows": rows, "totals": summary}, indent=2))
    else:
        print_table(rows, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
