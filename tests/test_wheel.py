"""A real package: the wheel built from this working tree, installed into a new virtual environment, runs
from a folder outside the checkout with the knowledge base it ships (kb/ built in as auditor/_kb/).

Needs PyPI (the build backend and the dependencies): marked `network`, never skipped. The wheel is built
and installed once per module (about 20 s)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import auditor
from contract_helpers import cli, init_repo

pytestmark = pytest.mark.network

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "fixtures" / "field-notes"  # has a claims registry in kb/claims/, so that part of the kb is used


def _run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                          check=False)


def _ok(proc: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert proc.returncode == 0, f"{' '.join(proc.args)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
    return proc


def _working_tree() -> list[str]:
    """The files a fresh clone with the current edits would hold: tracked and untracked, not ignored, present."""
    out = _ok(_run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)).stdout
    return sorted(f for f in out.split("\0") if f and (ROOT / f).is_file())


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict:
    """Build the wheel from a copy of the working tree (so the checkout gets no build/ or egg-info) and
    install it, with its dependencies from PyPI, into a new venv made without pip (pip runs from here)."""
    base = tmp_path_factory.mktemp("wheel")
    assert not base.resolve().is_relative_to(ROOT)
    files = _working_tree()
    src = base / "src"
    for rel in files:
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, src / rel)
    dist = base / "dist"
    _ok(_run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist, src, cwd=base))
    [wheel] = dist.glob("auditor-*.whl")
    venv = base / "venv"
    _ok(_run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=base))
    python = venv / "bin" / "python"
    _ok(_run(sys.executable, "-m", "pip", "--python", python, "install", "-q", wheel, cwd=base))
    env = {k: v for k, v in os.environ.items()
           if k not in {"AUDITOR_KB", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSAFEPATH"}}
    env["AUDITOR_CACHE_DIR"] = str(base / "cache")  # nothing shared with the checkout's test runs
    work = base / "elsewhere"  # the working directory of every command: outside the checkout
    work.mkdir()
    return {"files": files, "wheel": wheel, "venv": venv, "python": python, "env": env, "work": work}


def test_wheel_holds_the_package_its_data_and_the_kb(built):
    names = set(zipfile.ZipFile(built["wheel"]).namelist())
    files = built["files"]
    package = {f for f in files if f.startswith("auditor/") and "__pycache__" not in f}
    kb = {f"auditor/_kb/{f.removeprefix('kb/')}" for f in files if f.startswith("kb/")}
    assert {f for f in package if not f.endswith(".py")}, "no package data found (queries, templates)"
    assert any(f.startswith("auditor/_kb/schema/") for f in kb) and any(f.startswith("auditor/_kb/claims/") for f in kb)
    assert not (package | kb) - names, f"missing from the wheel: {sorted((package | kb) - names)}"


def test_installed_package_runs_outside_the_checkout(built):
    env, work = built["env"], built["work"]
    assert "AUDITOR_KB" not in env
    probe = _ok(_run(built["python"], "-c", "import sysconfig, auditor, auditor.kb; print(sysconfig.get_path('purelib'));"
                     " print(auditor.__file__); print(auditor.kb.default_kb_dir())", cwd=work, env=env))
    site, where, kb_dir = map(Path, probe.stdout.splitlines())
    assert site.resolve().is_relative_to(built["venv"].resolve())
    assert Path(where).resolve().is_relative_to(site.resolve()), f"auditor imported from {where}, not the venv"

    auditor_bin = built["venv"] / "bin" / "auditor"
    assert auditor.__version__ in _ok(_run(auditor_bin, "--version", cwd=work, env=env)).stdout
    checked = _ok(_run(auditor_bin, "check-kb", cwd=work, env=env))
    assert kb_dir.resolve() == (site / "auditor" / "_kb").resolve()
    assert "all files valid" in checked.stdout and str(kb_dir) in checked.stdout, checked.stdout

    repo, out = work / "field-notes", work / "out"
    init_repo(repo, {p.relative_to(FIXTURE).as_posix(): p.read_bytes() for p in sorted(FIXTURE.rglob("*")) if p.is_file()})
    # All formats, so that the report templates are read from the installed package too.
    _ok(_run(auditor_bin, "audit", repo, "--out", out, "--format", "all", "-q", cwd=work, env=env))
    assert (out / "audit.json").is_file() and (out / "evidence-packet.md").is_file()
    assert b'"kb/claims/field-notes.yaml' in (out / "audit.json").read_bytes()
    # The shipped kb is the checkout's: the same audit from the checkout writes the same files, byte for byte.
    mine = work / "out-checkout"
    result = cli("audit", repo, "--out", mine, "--format", "all", "-q")
    assert result.exit_code == 0, result.output
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert written == sorted(p.relative_to(mine).as_posix() for p in mine.rglob("*") if p.is_file())
    for name in written:
        assert (out / name).read_bytes() == (mine / name).read_bytes(), name
