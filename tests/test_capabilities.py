"""A low-level Server that sets a request handler without declaring the capability the SDK requires for it: the SDK's
setRequestHandler throws, so the server stops where the handler is set (analyse/capabilities.py). Said only when the
capabilities are read whole, nothing registers capabilities later, and the package's SDK range admits a version that
checks."""

from __future__ import annotations

import json

import pytest

from program_helpers import SDK, program

from auditor.analyse import capabilities

SERVER = SDK + '''import { CompleteRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const server = new Server({ name: "c", version: "1.0.0" }OPTIONS);
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "ping", description: "Ping",
  inputSchema: { type: "object", properties: {} } }] }));
server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: "text", text: "pong" }] }));
server.setRequestHandler(CompleteRequestSchema, async () => ({ completion: { values: [] } }));
LATER
'''


def _found(options: str, sdk: str = "^1.22.0", later: str = "") -> list[str]:
    manifest = {"name": "c", "version": "1.0.0", "bin": "index.js", "dependencies": {"@modelcontextprotocol/sdk": sdk}}
    p = program({"package.json": json.dumps(manifest),
                 "index.js": SERVER.replace("OPTIONS", options).replace("LATER", later)})
    return sorted(f.id for f in capabilities.findings(p))


def test_a_handler_of_a_capability_the_server_does_not_declare_is_refused():
    assert _found("") == ["FND:capability-undeclared:server/completions", "FND:capability-undeclared:server/tools"]
    assert _found(", { capabilities: { tools: {} } }") == ["FND:capability-undeclared:server/completions"]
    # (a capability spelt as the SDK does not: `completion`, not `completions`)
    assert _found(", { capabilities: { tools: {}, completion: {} } }") == ["FND:capability-undeclared:server/completions"]
    assert _found(", { capabilities: { tools: {}, completions: {} } }") == []


def test_capabilities_not_read_whole_or_registered_later_leave_nothing_said():
    assert _found(", options") == []
    assert _found(", { ...base }") == []  # (a spread may hold the capabilities)
    assert _found(", { capabilities: makeCapabilities() }") == []
    assert _found("", later='server.registerCapabilities({ tools: {}, completions: {} });') == []


def test_an_sdk_range_that_admits_no_version_that_checks_leaves_nothing_said():
    assert _found(", { capabilities: { tools: {} } }", sdk="~1.17.0") == []
    assert _found(", { capabilities: { tools: {} } }", sdk="1.21.0") == []
    assert _found("", sdk="0.4.0") == []
    assert _found("", sdk="^1.17.2") == ["FND:capability-undeclared:server/completions",
                                        "FND:capability-undeclared:server/tools"]


@pytest.mark.parametrize("spec, since, admits", [
    ("^1.17.2", "1.22.0", True), ("~1.17.0", "1.22.0", False), ("1.21.0", "1.22.0", False),
    ("1.22.0", "1.22.0", True), (">=1.0.0", "1.22.0", True), ("*", "1.22.0", True), ("latest", "1.22.0", True),
    ("1.x", "1.22.0", True), ("1.21.x", "1.22.0", False), ("<1.22.0", "1.22.0", False), ("<=1.22.0", "1.22.0", True),
    (">=1.0.0 <1.20.0", "1.22.0", False), ("1.0.0 - 1.21.9", "1.22.0", False), ("^0.6.0", "0.5.0", True),
    ("^0.4.0", "0.5.0", False), ("^0.6.0 || ^1.0.0", "1.22.0", True), ("workspace:*", "0.5.0", False),
    ("github:owner/sdk", "0.5.0", False),
])
def test_a_range_admits_a_version_from_since_on(spec, since, admits):
    assert capabilities.admits_from(spec, since) is admits
