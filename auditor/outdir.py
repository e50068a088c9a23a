"""Writing OUT: one run at a time (a lock), every file or none (a staging folder and a journal that can be undone),
only inside OUT, and only the tool's own files removed (a manifest of what the last run wrote).

Everything lives inside OUT, so that every rename stays on one file system:
- `OUT/.auditor.lock`: held (flock, exclusive) by a writing run from before its staging folder exists until after its
  commit, then removed; a second run into the same OUT fails at once (exit 2). --check takes no lock.
- `OUT/.auditor-staging-<pid>-<random>/`: `owner.json` (pid, host, process start time), `new/` (the files, written
  as they are rendered) and `old/` (the files a commit replaces or removes, kept until it has succeeded). A folder
  left by a killed run is removed by the next writing run, once its owner is gone.
- `OUT/.auditor-manifest.json`: the files the last run wrote (sorted, relative to OUT). The next run removes those it
  does not write again; anything not listed (the user's own files) is never touched.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
from pathlib import Path
from typing import Callable

from auditor.errors import AuditorError

try:
    import fcntl
except ImportError:  # not POSIX: no lock
    fcntl = None

MANIFEST = ".auditor-manifest.json"
LOCK = ".auditor.lock"
STAGING = ".auditor-staging-"
RESERVED = ".auditor"  # OUT's top-level names starting with this are the tool's own bookkeeping, never a report


class UnsafeName(Exception):
    """An output name that is not a plain relative path inside OUT: a bug (names are sanitised before they get here)."""


def checked(name: str) -> str:
    """`name` if it is a relative path of non-empty components, none `.` or `..`, that is not one of OUT's own
    bookkeeping files; raises UnsafeName otherwise."""
    why = None
    if not isinstance(name, str) or not name:
        why = "empty"
    elif "\0" in name:
        why = "holds a NUL character"
    elif name.startswith("/") or os.path.isabs(name):
        why = "absolute"
    elif any(part in ("", ".", "..") for part in name.split("/")):
        why = "has an empty, '.' or '..' component"
    elif name.startswith(RESERVED):
        why = f"names one of OUT's own files ({RESERVED}*)"
    if why:
        raise UnsafeName(f"output name {name!r} {why} (a bug: output names are sanitised before they are written)")
    return name


def _within(out: Path, name: str) -> bool:
    """Whether the folder `name` goes into stays inside OUT once existing symbolic links are followed (the file
    itself may be a link: a rename replaces the link, never its target)."""
    root = os.path.realpath(out)
    folder = os.path.realpath(os.path.join(out, os.path.dirname(name)))
    return folder == root or folder.startswith(root.rstrip(os.sep) + os.sep)


def _inside(out: Path, name: str) -> None:
    if not _within(out, name):
        raise AuditorError(f"{out / name}: a symbolic link in {out} leads outside it; not writing through it")


def manifest_text(names) -> str:
    """The manifest of a run that wrote `names`: deterministic (sorted, no date, no version)."""
    return json.dumps({"schema": "auditor.manifest/1",
                       "note": "Files auditor wrote into this folder. The next run into it removes those it does not "
                               "write again; files not listed here are never touched.",
                       "files": sorted(names)}, indent=2) + "\n"


def read_manifest(out: Path) -> list[str]:
    """The files the last run into OUT wrote ([] when it left no manifest)."""
    path = out / MANIFEST
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as exc:
        raise AuditorError(f"{path}: not a manifest written by auditor ({exc}); remove it and run again") from None
    files = doc.get("files") if isinstance(doc, dict) else None
    try:
        if not isinstance(files, list):
            raise UnsafeName("no list of files")
        return [checked(n) for n in files]
    except UnsafeName as exc:
        raise AuditorError(f"{path}: not a manifest written by auditor ({exc}); remove it and run again") from None


def _start_time(pid: int) -> tuple[str, int] | None:
    """(state, start time in clock ticks) of a process, from /proc (None where there is none)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[-1].split()
    try:
        return fields[0], int(fields[19])
    except (IndexError, ValueError):
        return None


def _alive(pid: int, owner: dict) -> bool:
    """Whether the process that made a staging folder may still be running (when in doubt: yes)."""
    if owner.get("host", socket.gethostname()) != socket.gethostname():
        return True  # another machine's run on a shared file system: not ours to judge
    if pid == os.getpid():
        return False  # a folder of an earlier process with our pid: ours is made after the sweep
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # it exists, as another user
    now = _start_time(pid)
    if now is None:
        return True
    state, start = now
    return state not in ("Z", "X") and owner.get("start", start) == start  # a zombie, or the pid reused, is gone


class Lock:
    """An exclusive flock on OUT/.auditor.lock, taken without waiting; release() removes the file. After taking it,
    the file is checked to still be the one at the path, so a run that opened it just before the holder removed it
    cannot hold a lock nobody else sees."""

    def __init__(self, out: Path) -> None:
        self.path, self.fd = out / LOCK, None
        if fcntl is None:
            return
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.read(fd, 32).decode("ascii", "replace").strip()
                os.close(fd)
                raise AuditorError(f"{out}: another auditor run{f' (pid {holder})' if holder.isdigit() else ''} is "
                                   f"writing into it (it holds {self.path}); run again when it has finished") from None
            except BaseException:
                os.close(fd)
                raise
            mine = os.fstat(fd)
            try:
                now = os.stat(self.path)
            except FileNotFoundError:
                now = None
            if now is not None and (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino):
                break
            os.close(fd)  # removed (or replaced) by the run that held it: take the new one
        self.fd = fd
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))

    def release(self) -> None:
        if self.fd is not None:
            try:
                os.unlink(self.path)  # while still holding it: whoever opened it before checks the path and retries
            except OSError:
                pass
            os.close(self.fd)
            self.fd = None


class Staging:
    """A writing run: takes the lock (creating OUT and its missing parents, removed again on abort), removes the
    staging folders of killed runs, writes each file into a fresh staging folder as it is rendered (nothing is held
    in memory), and commit() moves them into place."""

    def __init__(self, out: Path, say: Callable[[str], None] = lambda _: None) -> None:
        self.out, self.say, self.names = out, say, []
        self.tmp: Path | None = None
        self.lock: Lock | None = None
        self._created: list[Path] = []  # OUT and its parents that this run made, outermost first
        self._seen: set[str] = set()
        self._keep = False  # set when a failed commit could not be undone: the staging folder holds the old files
        try:
            missing = []
            folder = out.absolute()
            while not folder.is_dir():
                missing.append(folder)
                folder = folder.parent
            for folder in reversed(missing):
                try:
                    folder.mkdir()
                except FileExistsError:
                    if not folder.is_dir():
                        raise
                    continue  # made by a run started at the same time: not ours to remove
                self._created.append(folder)
            self.lock = Lock(out)
            self._sweep()
            self.tmp = Path(tempfile.mkdtemp(dir=out, prefix=f"{STAGING}{os.getpid()}-"))
            now = _start_time(os.getpid())
            (self.tmp / "owner.json").write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                                                             "start": now[1] if now else None}) + "\n",
                                                 encoding="utf-8")
            (self.tmp / "new").mkdir()
        except OSError as exc:
            self.abort()
            raise AuditorError(f"{out}: cannot write reports ({exc.strerror})") from None
        except BaseException:
            self.abort()
            raise

    def _sweep(self) -> None:
        """Remove staging folders whose run is gone (killed: SIGKILL, power loss). We hold the lock, so no live run
        into OUT can be using one; the owner check is for the runs that no lock can see (another machine)."""
        for d in sorted(self.out.iterdir()):
            if not d.name.startswith(STAGING) or d.is_symlink() or not d.is_dir():
                continue
            try:
                pid = int(d.name[len(STAGING):].split("-", 1)[0])
            except ValueError:
                continue
            try:
                owner = json.loads((d / "owner.json").read_text(encoding="utf-8"))
            except (OSError, ValueError):
                owner = {}  # killed before it wrote its marker: the pid in the name says whose it was
            if not isinstance(owner, dict) or _alive(pid, owner):
                continue
            shutil.rmtree(d, ignore_errors=True)  # best effort: what cannot be removed does not stop this run
            if not d.exists():
                self.say(f"removed {d}: staging folder of an interrupted run (pid {pid})")

    def put(self, name: str, body: str) -> None:
        checked(name)
        if name in self._seen:
            raise UnsafeName(f"output name {name!r} written twice (a bug: two reports would share one file)")
        _inside(self.out, name)
        path = self.tmp / "new" / name
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(body, encoding="utf-8")
        except OSError as exc:
            raise AuditorError(f"{self.out}: cannot write reports ({exc.strerror})") from None
        self._seen.add(name)
        self.names.append(name)

    def commit(self) -> list[str]:
        """Move every file into place, and the files the last run wrote and this one does not out of the way; on any
        failure undo every step, so that OUT is as it was. Returns the files removed (relative to OUT)."""
        out, new, old = self.out, self.tmp / "new", self.tmp / "old"
        journal: list[tuple[str, Path, Path | None]] = []  # every step done, to undo in reverse
        try:
            for name in self.names:
                _inside(out, name)  # again: the user may have changed OUT during the run
            ours = set(self.names)
            stale = [n for n in sorted(set(read_manifest(out)))
                     if n not in ours and _within(out, n) and os.path.lexists(out / n)
                     and (os.path.islink(out / n) or not os.path.isdir(out / n))]
            (new / MANIFEST).write_text(manifest_text(self.names), encoding="utf-8")
            for name in stale:  # first: a file of the last run may stand where this one makes a folder
                self._aside(out / name, old / name, journal)
            for name in [*self.names, MANIFEST]:
                dst = out / name
                self._folders(out, name, journal)
                if os.path.lexists(dst) and (os.path.islink(dst) or not os.path.isdir(dst)):
                    self._aside(dst, old / name, journal)
                os.replace(new / name, dst)
                journal.append(("placed", dst, new / name))
        except BaseException as exc:
            undone = self._undo(journal)
            self.abort()
            if not isinstance(exc, OSError):
                raise
            if undone:
                raise AuditorError(f"{out}: cannot write reports ({exc.strerror}); {out} is left as it was") from None
            raise AuditorError(f"{out}: cannot write reports ({exc.strerror}), and could not put every earlier file back: "
                               f"{out} holds old and new files; the earlier ones are in {old}") from None
        for name in stale:  # the folders that held only files of ours, now empty (a link to a folder is no folder)
            folder = (out / name).parent
            while folder != out:
                try:
                    folder.rmdir()
                except OSError:
                    break
                folder = folder.parent
        self._created = []  # OUT stays
        self.abort()  # the staging folder (and the earlier files in it) and the lock
        return stale

    def _folders(self, out: Path, name: str, journal: list) -> None:
        folder = out
        for part in name.split("/")[:-1]:
            folder = folder / part
            if not os.path.lexists(folder):
                folder.mkdir()
                journal.append(("mkdir", folder, None))

    @staticmethod
    def _aside(path: Path, keep: Path, journal: list) -> None:
        keep.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, keep)
        journal.append(("aside", path, keep))

    def _undo(self, journal: list) -> bool:
        """Undo the steps of a failed commit, last first; False (and the staging folder is kept) if one failed."""
        ok = True
        for kind, path, where in reversed(journal):
            try:
                if kind == "mkdir":
                    path.rmdir()
                elif kind == "placed":
                    os.replace(path, where)
                else:
                    os.replace(where, path)
            except OSError:
                ok = False
        self._keep = self._keep or not ok
        return ok

    def abort(self) -> None:
        """Remove the staging folder (unless it holds earlier files a failed commit could not put back), release the
        lock, and remove the folders this run created if they are empty."""
        if self.tmp is not None and not self._keep:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.tmp = None
        if self.lock is not None:
            self.lock.release()
            self.lock = None
        for folder in reversed(self._created):
            try:
                folder.rmdir()
            except OSError:
                break
        self._created = []


class Checker:
    """--check: compares each file as it is rendered with the one in OUT; writes nothing and takes no lock."""

    def __init__(self, out: Path) -> None:
        self.out, self.names, self.drift = out, [], []

    def put(self, name: str, body: str) -> None:
        checked(name)
        _inside(self.out, name)
        self.names.append(name)
        path = self.out / name
        if not path.is_file() or path.read_bytes() != body.encode("utf-8"):
            self.drift.append(f"{path} differs from a fresh run")

    def manifest_drift(self) -> list[str]:
        """Files the last run wrote (by OUT's manifest) that a fresh run does not write, and the manifest itself when
        it differs from the one a fresh run writes. No manifest is no drift (OUT written by an older auditor)."""
        path = self.out / MANIFEST
        if not path.is_file():
            return []
        try:
            listed = read_manifest(self.out)
        except AuditorError as exc:
            return [str(exc)]
        ours = set(self.names)
        drift = [f"{self.out / n} was written by an earlier run and a fresh run does not write it"
                 for n in sorted(set(listed)) if n not in ours and _within(self.out, n) and os.path.isfile(self.out / n)]
        if path.read_bytes() != manifest_text(self.names).encode("utf-8"):
            drift.append(f"{path} differs from a fresh run")
        return drift
