"""Per-file time budget: CPU time spent analysing each file, charged by sampling, so that no input can keep an audit
busy indefinitely (kb/method.yaml file_time_budget_seconds)."""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager
from typing import Iterator

TICK = 0.05  # seconds of CPU time between samples (at most a fifth of the budget)
_FRAMES = 80  # how far out from the interrupted frame to look for the file being analysed


class OverBudget(BaseException):
    """A file took more CPU time than the budget. A BaseException, like KeyboardInterrupt: no `except Exception` in
    an analysis may swallow it."""

    def __init__(self, path: str, seconds: float) -> None:
        super().__init__(f"{path}: over the time budget after {seconds:.1f} s")
        self.path, self.seconds = path, seconds


def _kinds() -> tuple[type, ...]:
    """What stands for a file in the analyses, most precise first: a module, a JSON or Markdown document, an entry."""
    from auditor.extract.manifest import JsonDoc
    from auditor.extract.program import Module
    from auditor.extract.readme import MarkdownDoc
    from auditor.sources import Entry

    return Module, JsonDoc, MarkdownDoc, Entry


def current_file(frame, kinds: tuple[type, ...]) -> str | None:
    """The file the code running in `frame` works on: the innermost frame with one of KINDS among its locals (the
    first kind when it has several). The analyses are written per module (`m`, `module`), so this needs no
    bookkeeping in them."""
    for _ in range(_FRAMES):
        if frame is None:
            return None
        best = None
        for v in frame.f_locals.values():
            rank = next((i for i, k in enumerate(kinds) if isinstance(v, k)), None)
            if rank is not None and (best is None or rank < best[0]):
                best = (rank, v)
        if best is not None:
            v = best[1]
            # An object sampled while its constructor runs has no path yet: look further out.
            path = getattr(getattr(v, "file", None), "path", None) if best[0] == len(kinds) - 1 else getattr(v, "path", None)
            if isinstance(path, str):
                return path
        frame = frame.f_back
    return None


def failing_file(exc: BaseException) -> str | None:
    """The file the analysis that raised EXC was working on: as `current_file`, from the innermost frame of its
    traceback."""
    tb = exc.__traceback__
    if tb is None:
        return None
    while tb.tb_next is not None:
        tb = tb.tb_next
    return current_file(tb.tb_frame, _kinds())


@contextmanager
def watching(seconds: float | None) -> Iterator[dict[str, float]]:
    """Within the block, every TICK of CPU time is charged to the file being analysed; when a file's charge passes
    `seconds`, OverBudget(path) is raised where the audit is (the caller audits again without that file). Yields the
    charges. Only in the main thread of a platform with setitimer (elsewhere nothing is watched)."""
    charged: dict[str, float] = {}
    if not seconds or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield charged
        return
    tick = min(TICK, seconds / 5)
    kinds = _kinds()
    last = time.process_time()

    def sample(signum, frame) -> None:
        nonlocal last
        now = time.process_time()
        spent, last = now - last, now
        try:
            path = current_file(frame, kinds)
        except Exception:  # noqa: BLE001 - a sample must never break the audit it watches
            return
        if path is None:
            return
        charged[path] = charged.get(path, 0.0) + spent
        if charged[path] > seconds:
            signal.setitimer(signal.ITIMER_PROF, 0)  # no second sample while the exception unwinds
            raise OverBudget(path, charged[path])

    before = signal.signal(signal.SIGPROF, sample)
    signal.setitimer(signal.ITIMER_PROF, tick, tick)
    try:
        yield charged
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, before)
