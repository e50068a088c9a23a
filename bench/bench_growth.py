#!/usr/bin/env python3
"""Growth of the audit's cost with the size of hostile inputs: for each shape (a long `else if` chain, a long member
chain, deep parentheses, arrays or objects, many small functions, a long switch, and the same deep shapes repeated
below the nesting limit) a minimal MCP server holding it is generated at each size, committed into a temporary git
repository and audited by the CLI in a subprocess. Prints, per shape and size, the wall time, the peak RSS of the
audit process, its exit status and coverage, and the growth ratio against the previous size (time ratio / size
ratio: about 1 is linear, about 2 at a doubling of the size would be quadratic). Standard library plus the project.

    python bench/bench_growth.py                                    # every shape, 10 KB to 1.9 MB
    python bench/bench_growth.py --shapes else-if,switch --sizes 10000,100000
    python bench/bench_growth.py --max-depth 100000000              # lift kb/method.yaml max_nesting_depth

With --max-depth the deep shapes are analysed instead of refused by the nesting limit, so that the figures show the
cost of the analyses themselves on trees thousands of levels deep (no recursion in Python on the depth of the code).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@auditor.invalid", "GIT_AUTHOR_DATE": "2024-01-01T00:00:00+00:00",
    "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@auditor.invalid",
    "GIT_COMMITTER_DATE": "2024-01-01T00:00:00+00:00", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
}
SIZES = (10_000, 40_000, 160_000, 640_000, 1_900_000)  # under kb/method.yaml max_file_bytes (3,000,000)
MANIFEST = json.dumps({"name": "hostile", "version": "1.0.0", "bin": "dist/index.js",
                       "dependencies": {"@modelcontextprotocol/sdk": "1.0.0", "zod": "3.0.0"}}, indent=2) + "\n"

# -- the two kinds of server ------------------------------------------------------------------------------------------

HIGH = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
        'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
        'import { z } from "zod";\n\n'
        'const server = new McpServer({ name: "hostile", version: "1.0.0" });\n\n'
        '{prelude}'
        'server.registerTool("probe", { description: "Probe.", inputSchema: { x: z.string() } }, async ({ x }) => {\n'
        '{body}'
        '  return { content: [{ type: "text", text: String(x) }] };\n'
        '});\n\n'
        'await server.connect(new StdioServerTransport());\n')

LOW = ('import { Server } from "@modelcontextprotocol/sdk/server/index.js";\n'
       'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
       'import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";\n\n'
       'const server = new Server({ name: "hostile", version: "1.0.0" }, { capabilities: { tools: {} } });\n\n'
       '{prelude}'
       'server.setRequestHandler(ListToolsRequestSchema, async () => ({\n'
       '  tools: [{ name: "t0", description: "Tool zero.", inputSchema: { type: "object", properties: {} } }],\n'
       '}));\n\n'
       'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
       '  const name = request.params.name;\n'
       '{body}'
       '  throw new Error(`unknown tool ${name}`);\n'
       '});\n\n'
       'await server.connect(new StdioServerTransport());\n')


def high(body: str, prelude: str = "") -> str:
    return HIGH.replace("{prelude}", prelude).replace("{body}", body)


def low(body: str, prelude: str = "") -> str:
    return LOW.replace("{prelude}", prelude).replace("{body}", body)


# -- shapes: n (how many links, levels or items) -> the text of index.ts ---------------------------------------------

def else_if(n: int) -> str:
    arms = "".join(f'  }} else if (name === "t{i}") {{\n    return {{ content: [{{ type: "text", text: "{i}" }}] }};\n'
                   for i in range(1, n))
    return low('  if (name === "t0") {\n    return { content: [{ type: "text", text: "0" }] };\n' + arms + "  }\n")


def switch(n: int) -> str:
    cases = "".join(f'    case "t{i}":\n      return {{ content: [{{ type: "text", text: "{i}" }}] }};\n' for i in range(n))
    return low("  switch (name) {\n" + cases + "  }\n")


def member_chain(n: int) -> str:
    return high(f"  const v = globalThis{'.b' * n};\n  console.error(v);\n")


def nested(open_: str, close: str) -> Callable[[int], str]:
    return lambda n: high(f"  const v = {open_ * n}x{close * n};\n  console.error(v);\n")


def functions(n: int) -> str:
    fns = "".join(f"function f{i}(a: number): number {{\n  return a + {i};\n}}\n" for i in range(n))
    return high("  console.error(f0(1));\n", prelude=fns + "\n")


def repeated(one: Callable[[int], str], depth: int) -> Callable[[int], str]:
    """n copies of a construct `depth` deep, each in its own function: the size grows, the nesting does not."""
    return lambda n: high("  console.error(g0(x));\n", prelude="".join(
        f"function g{i}(x: string) {{\n{one(depth)}}}\n" for i in range(n)) + "\n")


def _chain_body(depth: int) -> str:
    arms = "".join(f'  }} else if (x === "k{i}") {{\n    return {i};\n' for i in range(1, depth))
    return '  if (x === "k0") {\n    return 0;\n' + arms + "  }\n  return -1;\n"


SHAPES: dict[str, Callable[[int], str]] = {
    "else-if": else_if,
    "switch": switch,
    "member-chain": member_chain,
    "parens": nested("(", ")"),
    "arrays": nested("[", "]"),
    "objects": nested("{a: ", "}"),
    "functions": functions,
    "else-if x100": repeated(_chain_body, 100),
    "member-chain x400": repeated(lambda d: f"  return String(x{'.b' * d});\n", 400),
    "parens x400": repeated(lambda d: f"  return {'(' * d}x{')' * d};\n", 400),
}


def sized(shape: Callable[[int], str], size: int) -> str:
    """The text of the shape whose length is closest to `size` from above (n found by doubling, then bisection)."""
    hi = 1
    while len(shape(hi)) < size:
        hi *= 2
    lo = hi // 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if len(shape(mid)) < size else (lo, mid)
    return shape(hi)


# -- running ------------------------------------------------------------------------------------------------------------

def _repo(where: Path, shape: str, size: int) -> int:
    """A repository holding the shape at the size; returns the bytes of index.ts. The text is made in a child
    process: the peak RSS of a process counts what its parent held when it forked, so this one stays small."""
    where.mkdir(parents=True)
    (where / "package.json").write_text(MANIFEST, encoding="utf-8")
    subprocess.run([sys.executable, __file__, "--generate", shape, str(size), str(where / "index.ts")], check=True)
    env = {**os.environ, **GIT_ENV}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "hostile input"]):
        subprocess.run(["git", "-C", str(where), *args], check=True, env=env, capture_output=True)
    return (where / "index.ts").stat().st_size


def _audit(repo: Path, out: Path, kb: Path | None, timeout: float) -> tuple[int | None, float, float, str]:
    """(exit status or None on timeout, wall seconds, peak RSS in MiB, stderr's last line) of one audit process."""
    cmd = [sys.executable, "-m", "auditor", "audit", str(repo), "--out", str(out), "--format", "json", "-q"]
    cmd += ["--kb", str(kb)] if kb is not None else []
    start = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = start + timeout
    status = None
    while status is None and time.perf_counter() < deadline:
        pid, raw, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            status = os.waitstatus_to_exitcode(raw)
            break
        time.sleep(0.01)
    if status is None:
        child.kill()
        _, _, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    err = child.stderr.read().decode("utf-8", "replace").strip().splitlines()
    child.stderr.close()
    return status, wall, usage.ru_maxrss / 1024, (err[-1] if err else "")


_COVERAGE = """
import json, sys
try:
    cov = json.load(open(sys.argv[1], encoding="utf-8"))["coverage"]
except (OSError, ValueError, KeyError):
    print("-"); sys.exit()
kinds = sorted({g["kind"] for g in cov["gaps"]})
print(("complete" if cov["complete"] else "incomplete") + (f" (gaps: {', '.join(kinds)})" if kinds else ""))
"""


def _coverage(out: Path) -> str:
    """The coverage of audit.json, read in a child process (an audit.json can be hundreds of MB: see _repo)."""
    return subprocess.run([sys.executable, "-c", _COVERAGE, str(out / "audit.json")], capture_output=True, text=True,
                          check=False).stdout.strip() or "-"


def _kb(work: Path, max_depth: int) -> Path:
    dst = work / "kb"
    src = subprocess.run([sys.executable, "-c", "from auditor import kb; print(kb.default_kb_dir())"],
                         capture_output=True, text=True, check=True).stdout.strip()  # not imported here: see _repo
    shutil.copytree(src, dst)
    method = dst / "method.yaml"
    text = re.sub(r"(?m)^max_nesting_depth: \d+", f"max_nesting_depth: {max_depth}", method.read_text(encoding="utf-8"))
    method.write_text(text, encoding="utf-8")
    return dst


def main() -> None:
    if sys.argv[1:2] == ["--generate"]:  # the child of _repo
        shape, size, dest = sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
        dest.write_text(sized(SHAPES[shape], size), encoding="utf-8")
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shapes", default=",".join(SHAPES), help=f"comma-separated, of: {', '.join(SHAPES)}")
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)), help="bytes of index.ts, comma-separated")
    ap.add_argument("--max-depth", type=int, default=None, help="audit with kb/method.yaml max_nesting_depth set to this")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds before an audit is killed")
    args = ap.parse_args()
    shapes = [s.strip() for s in args.shapes.split(",") if s.strip()]
    unknown = [s for s in shapes if s not in SHAPES]
    if unknown:
        ap.error(f"unknown shape(s): {', '.join(unknown)}")
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="bench-growth-") as tmp:
        work = Path(tmp)
        kb = _kb(work, args.max_depth) if args.max_depth is not None else None
        print(f"# auditor on generated servers (python {sys.version.split()[0]}"
              + (f", max_nesting_depth {args.max_depth}" if kb else ", kb/method.yaml as checked in") + ")")
        print(f"{'shape':<18} {'bytes':>9} {'exit':>4} {'time s':>8} {'peak MiB':>9} {'growth':>7}  coverage")
        for shape in shapes:
            before = None
            for k, size in enumerate(sizes):
                repo = work / f"{shape.replace(' ', '_')}-{size}"
                length = _repo(repo, shape, size)
                out = work / f"out-{shape.replace(' ', '_')}-{size}"
                status, wall, rss, last = _audit(repo, out, kb, args.timeout)
                growth = f"{(wall / before[1]) / (length / before[0]):.2f}" if before else "-"
                shown = "kill" if status is None else str(status)
                print(f"{shape:<18} {length:>9,} {shown:>4} {wall:>8.2f} {rss:>9.0f} {growth:>7}  "
                      + (_coverage(out) if status == 0 else last[:100]), flush=True)
                before = (length, wall)
                shutil.rmtree(repo, ignore_errors=True)
                shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
