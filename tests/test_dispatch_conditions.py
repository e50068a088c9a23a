"""Inside an if-dispatch (`if (name === "tool") { ... }`), the branch is how a call reaches the tool's code, not a
condition of what that code does: writes and mutations are conditional only on the `if`s inside the branch,
exactly as inside a `switch` case."""

from __future__ import annotations

from auditor.extract import routes as routes_mod
from program_helpers import SDK, line_of, program

SERVER = SDK + '''
const notes: string[] = [];
const tags = new Map<string, number>();

const server = new Server({ name: "jar", version: "1.0.0" }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const name = request.params.name;
  const args = request.params.arguments as { note: string; tag?: string; limit: number };
  if (name === "add_note") {
    notes.push(args.note);
    if (args.tag) {
      tags.set(args.tag, (tags.get(args.tag) ?? 0) + 1);
    }
    return { content: [{ type: "text", text: "ok" }] };
  }
  if (name === "trim") {
    if (args.limit > 10) {
      args.limit = 10;
    }
    return { content: [{ type: "text", text: String(notes.length) }] };
  }
  throw new Error("unknown tool");
});
'''


def _routes(kind: str):
    return [r for r in routes_mod.routes(program({"index.ts": SERVER})) if r.kind == kind]


def test_a_write_directly_in_a_tool_branch_is_unconditional():
    (write,) = [r for r in _routes("state-write") if r.attrs["writer"] and "notes" in r.id]
    assert write.attrs["condition"] is None and "unconditional" in write.summary
    assert write.anchors[0].start_line == write.anchors[0].end_line == line_of(SERVER, "notes.push(")


def test_a_write_under_an_if_inside_a_tool_branch_keeps_that_condition():
    (write,) = [r for r in _routes("state-write") if "tags" in r.id]
    assert write.attrs["condition"] == "args.tag"
    assert (write.anchors[0].start_line, write.anchors[0].end_line) == (line_of(SERVER, "if (args.tag)"),
                                                                        line_of(SERVER, "if (args.tag)") + 2)


def test_a_clamp_inside_a_tool_branch_is_read_from_its_own_if():
    (mutation,) = _routes("mutate")
    assert mutation.attrs["condition"] == "args.limit > 10" and mutation.attrs["form"] == "lower-only clamp"
