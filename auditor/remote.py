"""The web address of an audited repository: from its origin remote (github.com, gitlab.com) or --link-base."""

from __future__ import annotations

import re

from auditor.errors import AuditorError

# A remote the reports may link to: a repository of github.com (owner/name) or gitlab.com (group/.../name), over
# https or ssh. Anything else (another host, a local path, a URL with credentials, a port) gets no links.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_REMOTE = re.compile(r"^(?:https://|git@)(github\.com|gitlab\.com)[/:]([^\s]+?)(?:\.git)?/?$")
# --link-base: https, a host, a path of plain characters; nothing a Markdown link destination would read
# otherwise (spaces, parentheses, angle brackets, backslashes) and no query, fragment or credentials.
_BASE = re.compile(r"^https://[A-Za-z0-9.-]+(?::[0-9]{1,5})?(?:/[A-Za-z0-9._~%+-]+)*/?$")


def web_base(remote: str | None) -> str | None:
    """The https address of the repository a git remote URL names (normalised), or None if it is not a known host."""
    m = _REMOTE.match(remote.strip()) if remote else None
    if not m:
        return None
    host, parts = m.group(1), m.group(2).split("/")
    if (len(parts) != 2 if host == "github.com" else len(parts) < 2) or not all(
            _NAME.fullmatch(p) and p.strip(".") for p in parts):
        return None
    return f"https://{host}/{'/'.join(parts)}"


def link_base(value: str) -> str:
    """--link-base checked: an https address of a repository on the web; an input error otherwise."""
    if not _BASE.match(value):
        raise AuditorError(f"--link-base {value!r}: expected an https:// address of a repository on the web, "
                           "such as https://github.com/OWNER/NAME (no spaces, query, fragment or credentials)")
    return value.rstrip("/")
