"""A tool tools/list advertises and the tools/call dispatch has no branch for, where that dispatch is read whole and
its fallback refuses any other name: every call of it fails as an unknown tool. The ledger accounts for it (its
outcome is the refusal) and a finding says so; a fallback that hands the name on, or a dispatch not read whole,
leaves it unknown. Each server here is written for the test."""

from __future__ import annotations

from auditor.analyse import coverage, mismatches
from program_helpers import SDK, program

MANIFEST = '{"name": "notes", "bin": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'


def _server(default: str) -> str:
    return SDK + f'''const server = new Server({{ name: "notes", version: "1" }}, {{ capabilities: {{ tools: {{}} }} }});
server.setRequestHandler(ListToolsRequestSchema, async () => ({{ tools: [
  {{ name: "add_note", description: "Add a note.", inputSchema: {{ type: "object", properties: {{}} }} }},
  {{ name: "list_notes", description: "List notes.", inputSchema: {{ type: "object", properties: {{}} }} }},
  {{ name: "trash_note", description: "Move a note to the trash.", inputSchema: {{ type: "object", properties: {{}} }} }},
]}}));
async function forward(name) {{ return {{ content: [{{ type: "text", text: name }}] }}; }}
server.setRequestHandler(CallToolRequestSchema, async (request) => {{
  switch (request.params.name) {{
    case "add_note": return {{ content: [{{ type: "text", text: "added" }}] }};
    case "list_notes": return {{ content: [{{ type: "text", text: "none" }}] }};
    default:
{default}
  }}
}});
await server.connect(new StdioServerTransport());
'''


def _audit(default: str):
    p = program({"index.js": _server(default), "package.json": MANIFEST})
    led = coverage.ledger(p)
    found = [f for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "unserved-tool"]
    return led, {t["name"]: (t["status"], t["dispatch"]) for t in led["tools"]}, found


def test_an_advertised_tool_the_refusing_fallback_meets_is_a_finding_and_accounted_for():
    """`default: throw new Error("Unknown tool")` (or a returned `isError: true` result): trash_note, listed with no
    case, is refused at every call (expect: one unserved-tool finding anchored at its descriptor and the fallback; the
    tool analysed, its dispatch the fallback; the audit complete)."""
    for default in ('      throw new Error(`Unknown tool: ${request.params.name}`);',
                    '      return { content: [{ type: "text", text: "unknown tool" }], isError: true };'):
        led, tools, found = _audit(default)
        assert tools["trash_note"] == ("analysed", "fallback")
        assert [f.attrs["tool"] for f in found] == ["trash_note"]
        assert [a.start_line for a in found[0].anchors] == [8, 15]
        assert led["complete"] is True


def test_a_fallback_that_does_not_refuse_or_a_dispatch_not_read_whole_leaves_the_tool_unknown():
    """`default: return { content: [...] }` (a result, no error), or a case whose name is not read (`case
    NAMES.trash:` of an object not known): what a call of trash_note does is not known (expect: no finding; the tool
    partially analysed, the audit incomplete). Handed on (`default: return forward(name)`), the tool is forwarded."""
    led, tools, found = _audit('      return { content: [{ type: "text", text: "done" }] };')
    assert found == [] and tools["trash_note"] == ("partially analysed", None) and led["complete"] is False
    unread = _server("      throw new Error(`Unknown tool: ${request.params.name}`);").replace(
        '    case "list_notes":', '    case globalThis.NAMES.list:')
    p = program({"index.js": unread, "package.json": MANIFEST})
    assert [f for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "unserved-tool"] == []
    assert {t["name"]: t["status"] for t in coverage.ledger(p)["tools"]}["trash_note"] == "partially analysed"
    led, tools, found = _audit("      return forward(request.params.name);")
    assert found == [] and tools["trash_note"] == ("analysed", "forwarded")
