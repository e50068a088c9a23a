"""High-level McpServer registrations (registerTool, tool, registerResource, registerPrompt) and zod schemas."""

from __future__ import annotations

from auditor.extract.program import Module
from auditor.extract.server import Dispatch, ToolDecl


def registrations(module: Module, vocab: dict, resolve) -> tuple[list[ToolDecl], list[Dispatch]]:
    """Tools registered through the high-level API, and the dispatch each registration implies.

    `resolve(call_or_identifier_node)` maps a callee to (function node, qualified name) or None."""
    return [], []
