"""Packages and package data. The wheel ships the knowledge base: the checkout's kb/ (the source of truth,
edited by hand) is mapped to the package auditor._kb, so it is built into the wheel (and the sdist) as
auditor/_kb/ without a copy in the source tree; auditor/kb.py reads it when not run from a checkout.
Everything else is in pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py


class fresh_build_py(build_py):
    """Builds into an emptied build/lib/auditor: a file deleted since the last in-tree build (pip wheel .)
    would otherwise still ship, and a kb file left behind changes what an audit reports."""

    def run(self):
        shutil.rmtree(Path(self.build_lib, "auditor"), ignore_errors=True)
        super().run()


NOT_CODE = ["__pycache__", "*.__pycache__"]
KB_FOLDERS = [f"auditor._kb.{p}" for p in find_namespace_packages(where="kb", exclude=NOT_CODE)]  # schema, claims

setup(
    packages=[*find_namespace_packages(include=["auditor", "auditor.*"], exclude=NOT_CODE), "auditor._kb", *KB_FOLDERS],
    package_dir={"auditor._kb": "kb"},
    # Tree-sitter queries, report templates, and every kb file (check-kb reads *.yaml and *.yml).
    package_data={"": ["*.scm", "*.jinja", "*.yaml", "*.yml"]},
    cmdclass={"build_py": fresh_build_py},
)
