"""A `const` or `let` is in scope only in the block that declares it: two `if` blocks of one function may each
declare `const original = server.registerX.bind(server)` and wrap the method with it. A wrapper of `registerPrompt`
calls the prompt's original, not the first block's `registerTool`: what it registers is no tool."""

from __future__ import annotations

from program_helpers import MCP, program

from auditor.extract.bindings import value_of
from auditor.extract.syntax import find, text

TRACKED = MCP + '''import { z } from "zod";
const seen = [];
function tracked(server) {
  if (server.registerTool) {
    const original = server.registerTool.bind(server);
    server.registerTool = (name, ...rest) => { seen.push(name); return original(name, ...rest); };
  }
  if (server.registerPrompt) {
    DECLARE original = server.registerPrompt.bind(server);
    server.registerPrompt = (name, ...rest) => { seen.push(name); return original(name, ...rest); };
  }
  return server;
}
tracked(server);
server.registerTool("echo", { description: "Echo", inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: "text", text }] }));
server.registerPrompt("greet", { description: "Greet", argsSchema: { who: z.string() } },
  ({ who }) => ({ messages: [{ role: "user", content: { type: "text", text: who } }] }));
'''


def _program(declare: str):
    return program({"index.js": TRACKED.replace("DECLARE", declare),
                    "package.json": '{"name":"w","version":"1.0.0","type":"module","bin":"index.js"}'})


def test_a_wrapper_of_another_method_in_its_own_block_registers_no_tool():
    assert sorted(t.name for t in _program("const").tools) == ["echo"]
    assert sorted(t.name for t in _program("let").tools) == ["echo"]


def test_each_read_of_a_block_scoped_name_finds_the_declaration_of_its_own_block():
    p = _program("const")
    [module] = [m for m in p.modules if m.path == "index.js"]
    reads = [n for n in find(module.tree.root_node, {"identifier"}) if text(n) == "original"
             and n.parent.type == "call_expression"]
    assert [text(value_of(module, n)) for n in reads] == ["server.registerTool.bind(server)",
                                                          "server.registerPrompt.bind(server)"]
