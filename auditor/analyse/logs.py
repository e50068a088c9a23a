"""What writes to a log (kb/sdk.yaml stderr_calls, stdout_calls, loggers): a secret's sink, and no use of an input
field that reaches nothing else."""

from __future__ import annotations

import tree_sitter as ts

from auditor.analyse.secret_names import words
from auditor.extract.syntax import callee_text, member_chain


def log_call(call: ts.Node, vocab: dict) -> bool:
    """Whether CALL writes to a log: a stream call (`console.error`), or a logging method on a logger
    (`logger.info`, `this.log.warn`: the receiver's last word one of `loggers.receivers`)."""
    if callee_text(call) in vocab["stderr_calls"] or callee_text(call) in vocab["stdout_calls"]:
        return True
    chain = member_chain(call.child_by_field_name("function"))
    loggers = vocab["loggers"]
    if not chain or len(chain) < 2 or chain[-1] not in loggers["methods"]:
        return False
    receiver = words(chain[-2])
    return bool(receiver) and receiver[-1] in loggers["receivers"]
