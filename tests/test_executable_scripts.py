"""A file with no suffix is code when its `#!` line runs it with node (or bun, deno, tsx, ts-node): the executable a
package.json `bin` names is often such a file (`"bin": {"notes": "bin/notes"}`, a bundle in `dist/startserver`), and
it is read, parsed and reached like any .js file. And an audit that finds no tool while a handler answers a request it
cannot name is not complete: that handler may be the tools/list."""

from __future__ import annotations

import pytest

from auditor.analyse import coverage
from auditor.extract import parse
from program_helpers import SDK, program


@pytest.mark.parametrize("first, lang", [
    ("#!/usr/bin/env node", "javascript"),
    ("#!/usr/bin/env -S node --no-warnings", "javascript"),
    ("#!/usr/local/bin/node", "javascript"),
    ("#!/usr/bin/env bun", "javascript"),
    ("#!/usr/bin/env -S npx tsx", "typescript"),
    ("#!/usr/bin/env ts-node", "typescript"),
    ("#!/bin/sh", None),
    ("#!/usr/bin/env python3", None),
    ("const x = 1;", None),
])
def test_a_file_with_no_suffix_is_known_by_the_interpreter_its_first_line_names(first, lang):
    assert parse.language_of("bin/notes", f"{first}\nconsole.log(1);\n".encode()) == lang


def test_a_suffix_decides_before_the_first_line():
    assert parse.language_of("bin/notes.sh", b"#!/usr/bin/env node\n") is None
    assert parse.language_of("bin/notes.js", b"#!/bin/sh\n") == "javascript"


SERVER = '''#!/usr/bin/env node
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
const server = new McpServer({ name: "notes", version: "1.0.0" });
server.registerTool("find", { description: "Find notes.", inputSchema: { q: z.string() } },
  async ({ q }) => ({ content: [{ type: "text", text: q }] }));
await server.connect(new StdioServerTransport());
'''

FILES = {
    "bin/notes": SERVER,
    "bin/install": "#!/bin/sh\nnpm install\n",
    "package.json": '{"name": "notes", "type": "module", "bin": {"notes": "bin/notes"}, '
                    '"dependencies": {"@modelcontextprotocol/sdk": "1"}}',
}


def test_an_executable_with_no_suffix_is_the_servers_code_and_its_entry():
    p = program(FILES)
    layers = {e.file.path: (e.layer, e.lang) for e in p.entries}
    assert layers["bin/notes"] == ("implementation", "javascript")
    assert layers["bin/install"] == ("unclassified", None)  # a shell script: registered, not read as code
    assert [t.name for t in p.tools] == ["find"]
    led = coverage.ledger(p)
    assert led["entries"] == ["bin/notes"]
    assert {f["path"]: f["status"] for f in led["files"]}["bin/notes"] == "analysed"
    assert led["complete"] is True, led


UNKNOWN_REQUEST = SDK + '''import { Lister } from "./lister.js";
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
const lister = new Lister();
server.setRequestHandler(lister.schema, lister.handle());
await server.connect(new StdioServerTransport());
'''
LISTER = '''export class Lister {
  constructor() { this.schema = pick(); }
  handle() { return async () => ({ tools: [] }); }
}
'''


def test_no_tool_found_and_a_handler_for_a_request_not_known_is_not_complete():
    p = program({"src/index.js": UNKNOWN_REQUEST, "src/lister.js": LISTER,
                 "package.json": '{"name": "s", "main": "src/index.js", "type": "module"}'})
    assert [h.method for h in p.handlers] == ["schema"]
    led = coverage.ledger(p)
    assert led["complete"] is False
    assert [u["anchor"]["start_line"] for u in led["unresolved"]] == [7]
    assert "a request that is not known" in led["unresolved"][0]["what"]


def test_a_handler_for_a_request_not_known_beside_a_tool_found_leaves_it_complete():
    known = UNKNOWN_REQUEST.replace("await server", '''server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: "ping", description: "Ping.", inputSchema: { type: "object", properties: {} } }] }));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  if (req.params.name === "ping") return { content: [{ type: "text", text: "pong" }] };
  throw new Error("unknown tool");
});
await server''')
    p = program({"src/index.js": known, "src/lister.js": LISTER,
                 "package.json": '{"name": "s", "main": "src/index.js", "type": "module"}'})
    led = coverage.ledger(p)
    assert [t["name"] for t in led["tools"]] == ["ping"]
    assert not any("a request that is not known" in u["what"] for u in led["unresolved"]), led["unresolved"]
