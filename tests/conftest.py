"""Test session setup: the auditor's own cache (auditor/cachedir.py) goes to a folder of this session, so that
tests neither read nor write the user's ~/.cache."""

from __future__ import annotations

import os
import shutil
import tempfile

_CACHE = tempfile.mkdtemp(prefix="auditor-test-cache-")
os.environ["AUDITOR_CACHE_DIR"] = _CACHE  # before anything imports auditor.cachedir; children inherit it


def pytest_unconfigure(config):
    shutil.rmtree(_CACHE, ignore_errors=True)
