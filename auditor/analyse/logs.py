"""What writes to a log (kb/sdk.yaml stderr_calls, stdout_calls, loggers): a secret's sink, and no use of an input
field that reaches nothing else. The reading is extract/outputs.py's (`log_call`), which a write-before-throw's
non-throwing calls use too."""

from __future__ import annotations

from auditor.extract.outputs import log_call

__all__ = ["log_call"]
