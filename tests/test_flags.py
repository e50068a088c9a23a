"""A registration under a branch a compile-time flag never takes registers nothing (extract/flags.py)."""

from __future__ import annotations

from program_helpers import program

FEATURES = """\
// Dormant features: turning one on is a code change.
export const EXPORT_ENABLED = false;
export const BETA = true;
export const LEGACY = EXPORT_ENABLED;
"""

INDEX = """\
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { EXPORT_ENABLED, BETA, LEGACY } from "./features.js";
const server = new McpServer({ name: "s", version: "1" });
server.registerTool("keep", { description: "always" }, async () => ({ content: [] }));
if (EXPORT_ENABLED) {
  server.registerTool("export", { description: "off by a constant" }, async () => ({ content: [] }));
}
if (!BETA) {
  server.registerTool("old", { description: "the branch a true constant skips" }, async () => ({ content: [] }));
} else {
  server.registerTool("beta", { description: "the branch it takes" }, async () => ({ content: [] }));
}
if (LEGACY) server.registerTool("legacy", { description: "a constant of a constant" }, async () => ({ content: [] }));
if (process.env.EXTRA) server.registerTool("extra", { description: "the environment decides" }, async () => ({ content: [] }));
function optional(EXPORT_ENABLED: boolean) {
  if (EXPORT_ENABLED) server.registerTool("opt", { description: "a parameter, not the constant" }, async () => ({ content: [] }));
}
optional(true);
"""


def test_a_registration_a_constant_flag_switches_off_is_no_tool():
    p = program({"index.ts": INDEX, "features.ts": FEATURES})
    # export/old/legacy: under branches a `const` bound to a boolean literal never takes (through an import, a `!`,
    # another constant); extra: the environment decides; opt: a parameter shadows the constant's name
    assert sorted(t.name for t in p.tools) == ["beta", "extra", "keep", "opt"]
    assert sorted(d.tool for d in p.dispatches) == ["beta", "extra", "keep", "opt"]
