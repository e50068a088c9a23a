"""Where the auditor may keep what it derives from its own files (never from an audited target): the kb files
already found valid, and compiled report templates. Like Python's .pyc files: a speed-up, never a source of
truth. `$AUDITOR_CACHE_DIR` chooses the folder (empty: no cache); default `$XDG_CACHE_HOME/auditor` or
`~/.cache/auditor`. A folder that cannot be created or written is silently not used."""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

from auditor import __version__


@lru_cache(maxsize=None)
def folder(name: str) -> Path | None:
    """The cache subfolder NAME, created on first use; None when caching is off or impossible."""
    env = os.environ.get("AUDITOR_CACHE_DIR")
    if env is not None:
        base = Path(env) if env else None
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = (Path(xdg) if xdg else Path.home() / ".cache") / "auditor"
    if base is None:
        return None
    path = base / f"{__version__}" / name
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return path if os.access(path, os.W_OK) else None


def stamp_key(*parts: bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(len(p).to_bytes(8, "big"))
        h.update(p)
    return h.hexdigest()


def has_stamp(name: str, key: str) -> bool:
    path = folder(name)
    return path is not None and (path / key).is_file()


def add_stamp(name: str, key: str) -> None:
    path = folder(name)
    if path is None:
        return
    try:
        tmp = path / f".{key}.{os.getpid()}"
        tmp.write_bytes(b"")
        os.replace(tmp, path / key)
    except OSError:
        pass
