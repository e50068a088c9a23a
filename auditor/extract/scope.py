"""The Markdown that speaks for the audited server: its package's own README (kb/sdk.yaml `package_readme`).

README tool, parameter, environment and argument claims (analyse/generic.py) and the launch commands a README gives
(extract/routes.py `launch_snippets`: the build route, unpinned-launch, readme-launch paths) are read from these
files only; a CHANGELOG, a changeset, a vendored library's or an example's README, docs shipped in dist/ are not."""

from __future__ import annotations

import posixpath
import re

from auditor.extract.facts import Program
from auditor.extract.readme import MarkdownDoc
from auditor.sources import Entry, manifest


def package_folders(p: Program) -> set[str]:
    """Folders (relative to the boundary) of the audited package: those of the boundary's shallowest package.json,
    and the boundary's root when it holds at most one package.json (a one-package repository)."""
    rels = [e.rel for e in p.entries if manifest(e) and e.file.path in p.jsons]
    depth = min((r.count("/") for r in rels), default=0)
    folders = {posixpath.dirname(r) for r in rels if r.count("/") == depth}
    return folders | {""} if len(rels) <= 1 else folders


def server_readmes(p: Program) -> list[tuple[Entry, MarkdownDoc]]:
    """The README files of the audited package's folder, by path."""
    name = re.compile(p.vocab["package_readme"])
    folders = package_folders(p)
    by_path = {e.file.path: e for e in p.entries if not e.context}
    out = []
    for path, doc in sorted(p.docs.items()):
        e = by_path.get(path)
        if e is not None and posixpath.dirname(e.rel) in folders and name.search(posixpath.basename(e.rel)):
            out.append((e, doc))
    return out
