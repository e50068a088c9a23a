"""Every git call of the auditor, hardened: nothing in the audited repository (its config, attributes, hooks,
remotes) makes git run a command, fetch from a network or write into the repository.

Why the git CLI and not a library (dulwich, pygit2): the audit needs git's own revision syntax, path-limited
history and every object store format git writes (packs, alternates, commit graphs, partial clones), at git's
speed; the guards below are what makes a repository's configuration inert. They are, in order of defence:
- the environment holds no GIT_* variable of the user's, no system or global configuration, no replace refs,
  no lazy fetch, no terminal prompt, and GIT_ALLOW_PROTOCOL empty: no transport (file, ssh, http, ext::, remote
  helpers) may be used, whatever the repository's `protocol.*` settings say, so a partial clone's missing
  object stays missing instead of being fetched;
- configuration overrides, which win over the repository's own file: no fsmonitor, hooks, pager, signature
  display, external diff, credential helper, submodule recursion; and every clean/smudge/process filter the
  repository defines is emptied (read from its configuration before `git status`, the one call that filters);
- every call is read-only (`--no-optional-locks`: `git status` does not refresh the index on disk).
"""

from __future__ import annotations

import os
import re
import subprocess
from functools import lru_cache
from pathlib import Path

from auditor.errors import AuditorError

MIN_VERSION = (2, 31)  # GIT_CONFIG_COUNT (configuration from the environment, for names -c cannot carry)

_OVERRIDES = (
    ("core.fsmonitor", "false"), ("core.untrackedCache", "false"), ("core.hooksPath", os.devnull),
    ("core.pager", "cat"), ("core.askPass", ""), ("core.sshCommand", "false"), ("core.gitProxy", ""),
    ("core.useReplaceRefs", "false"), ("core.alternateRefsCommand", ""), ("credential.helper", ""),
    ("log.showSignature", "false"), ("log.follow", "false"), ("diff.external", ""), ("diff.renames", "false"),
    ("protocol.allow", "never"), ("submodule.recurse", "false"), ("status.submoduleSummary", "false"),
    ("fetch.recurseSubmodules", "false"), ("gc.auto", "0"), ("maintenance.auto", "false"),
    ("uploadpack.packObjectsHook", ""), ("fetch.writeCommitGraph", "false"),
)


def environment(extra: tuple[tuple[str, str], ...] = ()) -> dict[str, str]:
    """The environment of every git call: the user's, less anything that configures git, plus the guards and
    the configuration overrides (as GIT_CONFIG_KEY_n/VALUE_n, which carry any key, also to git's children)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update({"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_NO_REPLACE_OBJECTS": "1",
                "GIT_NO_LAZY_FETCH": "1", "GIT_TERMINAL_PROMPT": "0", "GIT_ALLOW_PROTOCOL": "",
                "GIT_PROTOCOL_FROM_USER": "0", "GIT_OPTIONAL_LOCKS": "0", "GIT_PAGER": "cat",
                "GIT_ATTR_NOSYSTEM": "1", "GIT_ASKPASS": "", "SSH_ASKPASS": "", "GIT_SSH_COMMAND": "false"})
    overrides = _OVERRIDES + extra
    env["GIT_CONFIG_COUNT"] = str(len(overrides))
    for i, (key, value) in enumerate(overrides):
        env[f"GIT_CONFIG_KEY_{i}"], env[f"GIT_CONFIG_VALUE_{i}"] = key, value
    return env


def _argv(repo: Path, args: tuple[str, ...]) -> list[str]:
    # The overrides that matter most also go on the command line: they hold even for a git too old for the
    # environment's (which check_version refuses anyway).
    return ["git", "--no-pager", "--no-replace-objects", "--no-optional-locks", "-c", "core.fsmonitor=false",
            "-c", f"core.hooksPath={os.devnull}", "-c", "protocol.allow=never", "-c", "log.showSignature=false",
            "-C", str(repo), *args]


@lru_cache(maxsize=1)
def check_version() -> tuple[int, int]:
    """The version of git on PATH; an input error when git is missing or older than MIN_VERSION."""
    try:
        out = subprocess.run(["git", "--version"], capture_output=True, env=environment(), check=False).stdout
    except FileNotFoundError:
        raise AuditorError("git is not installed or not on PATH") from None
    found = re.search(rb"(\d+)\.(\d+)", out)
    version = (int(found.group(1)), int(found.group(2))) if found else (0, 0)
    if version < MIN_VERSION:
        raise AuditorError(f"git {'.'.join(map(str, MIN_VERSION))} or newer is needed to read a repository safely "
                           f"(found {out.decode('utf-8', 'replace').strip() or 'no version'})")
    return version


def run(repo: Path, *args: str, extra: tuple[tuple[str, str], ...] = ()) -> subprocess.CompletedProcess:
    """Run one hardened git command in REPO; its output captured, never a terminal, no standard input."""
    check_version()
    return subprocess.run(_argv(repo, args), stdin=subprocess.DEVNULL, capture_output=True, check=False,
                          env=environment(extra))


def popen(repo: Path, *args: str) -> subprocess.Popen:
    """A long-running hardened git command (cat-file --batch) with pipes to and from it."""
    check_version()
    return subprocess.Popen(_argv(repo, args), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=environment())


def filter_overrides(repo: Path) -> tuple[tuple[str, str], ...] | None:
    """Empty every filter driver REPO's configuration defines (clean, smudge, process, not required), so that
    `git status` hashes files as they are; None when the configuration cannot be read."""
    proc = run(repo, "config", "--null", "--name-only", "--get-regexp", r"^filter\.")
    if proc.returncode not in (0, 1):  # 1: no such key
        return None
    out: list[tuple[str, str]] = []
    for key in proc.stdout.decode("utf-8", "surrogateescape").split("\0"):
        if key.count(".") >= 2:
            name = key[len("filter."):key.rindex(".")]
            out += [(f"filter.{name}.{k}", v) for k, v in (("clean", ""), ("smudge", ""), ("process", ""),
                                                            ("required", "false"))]
    return tuple(dict.fromkeys(out))


def origin_url(repo: Path) -> str | None:
    """REPO's `remote.origin.url` as its configuration states it (read, never contacted); None when unset."""
    proc = run(repo, "config", "--get", "remote.origin.url")
    return proc.stdout.decode("utf-8", "replace").strip() or None if proc.returncode == 0 else None
