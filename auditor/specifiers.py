"""Module specifiers written in code: the package one names, and the packages a file's text imports by name. Read
from text, without a parse (npm's choice of dependencies to read with a target; the imports of the packages a tarball
ships in its own node_modules), so the standard library alone."""

from __future__ import annotations

import re

# A bare specifier in code: `from "x"`, `import "x"`, `require("x")`, `import("x")` (not `./x`, `node:x`, `#x`).
_BARE = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"'./#][^"':]*)["']""")


def package_of(spec: str) -> str:
    """The package an import specifier names, without its subpath (`@scope/pkg/sub.js` -> `@scope/pkg`)."""
    parts = spec.split("/")
    return "/".join(parts[:2] if spec.startswith("@") else parts[:1])


def bare_packages(code: str) -> set[str]:
    """The packages CODE (a file's text) imports or requires by a written bare specifier."""
    return {package_of(spec) for spec in _BARE.findall(code)}
