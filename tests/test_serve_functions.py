"""A server the SDK 2 package serves through a function handed a factory (`serveStdio(() => createServer())`,
kb/sdk.yaml serve_functions) is launched there: the module that calls it is a launch file, so an entry of the package
when its named entries launch nothing (a CLI that reaches it only through a launcher the audit does not follow)."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import program

SERVER = '''import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";
export function createServer() {
  const server = new McpServer({ name: "notes", version: "1.0.0" });
  server.registerTool("find", { description: "Find notes.", inputSchema: { q: z.string() } },
    async ({ q }) => ({ content: [{ type: "text", text: q }] }));
  return server;
}
export async function startServer() {
  const handle = serveStdio(() => createServer());
  await handle.closed;
}
'''

FILES = {
    "dist/mcp/server.js": SERVER,
    "dist/index.js": "export const version = '1.0.0';\n",
    "package.json": '{"name": "notes", "type": "module", "exports": {".": "./dist/index.js"}, '
                    '"bin": {"notes": "bin/notes"}, "dependencies": {"@modelcontextprotocol/server": "2"}}',
}


def test_a_module_serving_through_an_sdk_serve_function_is_a_launch_and_an_entry():
    p = program(FILES)
    assert [(l.module.path, l.fn_name, l.transport) for l in p.launches] == [("dist/mcp/server.js", "startServer", "stdio")]
    led = coverage.ledger(p)
    rows = {f["path"]: f["status"] for f in led["files"]}
    assert rows["dist/mcp/server.js"] == "analysed", rows
    assert [t["name"] for t in led["tools"]] == ["find"]
    assert led["complete"] is True, led


def test_a_function_of_that_name_not_from_the_sdk_serves_nothing():
    own = SERVER.replace('import { serveStdio } from "@modelcontextprotocol/server/stdio";\n',
                         "function serveStdio(make) { return { closed: Promise.resolve(make) }; }\n")
    assert program({**FILES, "dist/mcp/server.js": own}).launches == ()
