"""auditor: audit an MCP server's claims against its TypeScript code at a pinned revision."""

__version__ = "0.1.0"
