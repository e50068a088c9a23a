"""Many audits in one run: the units to audit (servers, revisions), worker processes, and each unit's rendered
files handed back as soon as they are ready, so that nothing grows with the number of units."""

from __future__ import annotations

import os
import pickle
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Mapping

from auditor import target as target_mod
from auditor.model import Audit
from auditor.monorepo import Plan, Server, Summary, failed, plan, summarise


@dataclass(frozen=True, kw_only=True, slots=True)
class Unit:
    """One audit to run: a subtree of a pinned commit, and the folder (relative to OUT, "" for OUT) of its reports."""

    pin: target_mod.GitPin
    server: Server
    folder: str
    label: str  # how progress names it: the subtree, with the revision when several are audited


@dataclass(frozen=True, kw_only=True, slots=True)
class Done:
    """What one unit produced: its files (path relative to OUT, text), its index row, its coverage gaps."""

    unit: int
    files: tuple[tuple[str, str], ...]
    summary: Summary
    gaps: tuple[str, ...]
    failed: str | None = None  # why the audit failed (a bug of the auditor, or out of memory): then no files


def schedule(pins: list[target_mod.GitPin], folders: list[str], subtree: str, vocab: Mapping,
             progress: Callable[[str], None] = lambda _: None) -> tuple[list[Unit], list[tuple[str, Plan]]]:
    """The audits to run for each pinned revision (its output folder beside it): the given subtree, or every
    server below the root when there is no subtree and the root is not itself one; and the plans of the latter."""
    units: list[Unit] = []
    plans: list[tuple[str, Plan]] = []
    for pin, folder in zip(pins, folders):
        found = None if subtree else plan(pin, vocab["sdk_packages"], vocab["other_projects"])
        at = f" at {pin.requested}" if len(pins) > 1 else ""
        if found is None:
            target_mod.check_subtree(pin, subtree)
            progress(f"pinned git target at {pin.commit[:20]}")
            units.append(Unit(pin=pin, server=Server(subtree=subtree, name=""), folder=folder,
                              label=(subtree or "(repository root)") + at))
            continue
        plans.append((folder, found))
        progress(f"pinned git target at {pin.commit[:20]}: {len(found.servers)} server(s) to audit")
        for k in found.skipped:
            progress(f"skipped {k.subtree}{at}: {k.reason}")
        units += [Unit(pin=pin, server=s, folder=f"{folder}/{s.name}" if folder else s.name, label=s.subtree + at)
                  for s in found.servers]
    return units, plans


def audit_unit(index: int, unit: Unit, kb_dir: Path, renderers: Mapping[str, Callable[[Audit], str]],
               isolate: bool = False) -> Done:
    """The files of one unit. ISOLATE: an audit that fails is a Done with the reason, so that one bad server does not
    stop the others (with AUDITOR_DEBUG set, the exception goes on, for its traceback)."""
    import os

    try:
        return _audit_unit(index, unit, kb_dir, renderers)
    except Exception as exc:  # noqa: BLE001 - reported by name, with the reason; the run exits EXIT_PARTIAL
        if not isolate or os.environ.get("AUDITOR_DEBUG"):
            raise
        return Done(unit=index, files=(), summary=failed(unit.server, f"{type(exc).__name__}: {exc}"), gaps=(),
                    failed=f"{type(exc).__name__}: {exc}")


def _audit_unit(index: int, unit: Unit, kb_dir: Path, renderers: Mapping[str, Callable[[Audit], str]]) -> Done:
    from auditor import audit as audit_mod

    result = audit_mod.run(target_mod.at_subtree(unit.pin, unit.server.subtree), kb_dir)
    prefix = unit.folder + "/" if unit.folder else ""
    files = tuple((prefix + name, render(result)) for name, render in renderers.items())
    return Done(unit=index, files=files, summary=summarise(unit.server, result, renderers), gaps=gap_lines(result))


def gap_lines(result: Audit) -> tuple[str, ...]:
    """What the audit could not read, one line each (`PATH:LINE: KIND: DETAIL`): the coverage gaps, then the parts of
    the ledger left unresolved."""
    out = [f"{g.anchor}: {g.kind}: {g.detail}" for g in result.gaps]
    for u in result.ledger.get("unresolved", []):
        a = u["anchor"]
        out.append(f"{a['path']}:{a['start_line']}: unresolved: {u['what']}")
    return tuple(out)


def _groups(units: list[Unit]) -> list[list[int]]:
    """Units of one subtree together (across revisions they share files, which the parse cache reuses),
    largest first (the longest audits start early, so workers finish close together)."""
    by_subtree: dict[tuple[str, str], list[int]] = {}
    for i, u in enumerate(units):
        by_subtree.setdefault((str(u.pin.path), u.server.subtree), []).append(i)

    def size(group: list[int]) -> int:
        u = units[group[0]]
        prefix = u.server.subtree + "/" if u.server.subtree else ""
        return len([p for p in u.pin.tree if p.startswith(prefix)]) * len(group)

    return sorted(by_subtree.values(), key=lambda g: (-size(g), g))


def _run_group(work: tuple, group: list[int]) -> list[Done]:
    from auditor.extract import cache

    units, kb_dir, renderers, _, isolate = work
    try:
        return [audit_unit(i, units[i], kb_dir, renderers, isolate) for i in group]
    finally:
        cache.clear()  # memory stays bounded by the largest group, not the corpus


def _take(work: tuple, counter) -> list[int] | None:
    """The next group nobody has taken yet (the processes share one counter: the slowest never waits idle)."""
    groups = work[3]
    with counter.get_lock():
        i = counter.value
        counter.value += 1
    return groups[i] if i < len(groups) else None


def _die_with(parent: int) -> None:
    """A worker must not outlive the run: on Linux the kernel kills it when its parent dies, even by SIGKILL
    (prctl PR_SET_PDEATHSIG); elsewhere, and if the parent died before that took effect, it exits when it finds it
    has another parent (checked here and between groups)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # 1: PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)  # at once: nobody reads the queue any more, so no clean-up may wait on it


_INTERRUPTS = {signal.SIGINT, signal.SIGTERM}


def _child(work: tuple, counter, results, parent: int) -> None:
    """A worker process: takes groups until none is left; sends ("done", [Done]) or ("error", exception).
    Interruptions are the parent's to handle: it terminates the workers (SIGTERM, default action: exit now)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _INTERRUPTS)  # held back by the parent while it forked this one
    _die_with(parent)
    try:
        while (group := _take(work, counter)) is not None:
            results.put(("done", _run_group(work, group)))
            _die_with(parent)
    except BaseException as exc:  # noqa: BLE001 - the parent re-raises it
        try:
            pickle.dumps(exc)
        except Exception:  # noqa: BLE001 - what cannot cross the pipe is sent as text
            exc = RuntimeError(f"{type(exc).__name__}: {exc}")
        results.put(("error", exc))
    finally:
        results.put(("exit", None))
        results.close()
        results.join_thread()


def _warm(kb_dir: Path) -> None:
    """Load what every audit needs once, before forking, so the workers share it instead of each loading it."""
    from auditor import kb
    from auditor.analyse import claims
    from auditor.audit import KB_FILES
    from auditor.extract import parse, readme
    from auditor.report import markdown

    for name in KB_FILES:
        kb.load(kb_dir, name)
    claims.load_registries(kb_dir)
    parse.captures(parse.parse(b"", "typescript"), "typescript")
    readme.read_markdown("", "")
    markdown.warm()


def execute(units: list[Unit], kb_dir: Path, renderers: Mapping[str, Callable[[Audit], str]], jobs: int = 1,
            isolate: bool = True) -> Iterator[Done]:
    """Audit every unit in `jobs` processes (this one and jobs-1 children); yields each result as it is ready and
    never holds them all. The files of a unit depend neither on `jobs` nor on the order: the cache changes no byte.
    ISOLATE: a unit whose audit fails gives a Done with the reason (`failed`) instead of stopping the run."""
    groups = _groups(units)
    work = (units, kb_dir, renderers, groups, isolate)
    jobs = max(1, min(jobs, len(groups)))
    if jobs == 1:
        for group in groups:
            yield from _run_group(work, group)
        return
    import gc
    import multiprocessing
    import queue

    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    _warm(kb_dir)
    gc.collect()
    gc.freeze()  # what is loaded now stays on pages the children share (a collection would write to them)
    counter, results = ctx.Value("i", 0), ctx.Queue()
    children = [ctx.Process(target=_child, args=(work, counter, results, os.getpid()), daemon=True)
                for _ in range(jobs - 1)]
    try:
        # A worker starts with Ctrl-C and SIGTERM held back until it has set its own handlers: one that arrived
        # before would raise KeyboardInterrupt in it and come back to the parent as a second interruption.
        before = signal.pthread_sigmask(signal.SIG_BLOCK, _INTERRUPTS)
        try:
            for p in children:
                p.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)
        running = len(children)

        def drain(block: bool) -> Iterator[Done]:
            nonlocal running
            while running:
                try:
                    kind, payload = results.get(timeout=0.2) if block else results.get_nowait()
                except queue.Empty:
                    if not block:
                        return
                    if any(p.exitcode not in (None, 0) for p in children):
                        raise RuntimeError("a worker process died (out of memory, or killed)") from None
                    continue
                if kind == "error":
                    raise payload
                if kind == "exit":
                    running -= 1
                else:
                    yield from payload

        finished = 0
        while (group := _take(work, counter)) is not None:  # this process works too
            for done in (*_run_group(work, group), *drain(block=False)):
                finished += 1
                yield done
        for done in drain(block=True):
            finished += 1
            yield done
        if finished != len(units):
            raise RuntimeError(f"worker processes returned {finished} of {len(units)} audits")
    finally:
        gc.unfreeze()
        for p in children:
            if p.is_alive():
                p.terminate()
            p.join(timeout=5)
            if p.is_alive():  # never wait on a worker forever
                p.kill()
                p.join()


def describe(done: Done, units: list[Unit], finished: int) -> str:
    """The progress line of a finished unit."""
    row = done.summary
    folder = units[done.unit].folder
    if done.failed:
        return f"[{finished}/{len(units)}] {units[done.unit].label}: audit failed ({done.failed}); no reports"
    return (f"[{finished}/{len(units)}] {units[done.unit].label}: {row.files} file(s), {row.tools} tool(s), "
            f"{row.routes} route(s), coverage {'complete' if row.complete else 'incomplete'}, {row.gaps} gap(s)"
            + (f" -> {folder}/" if folder else ""))
