"""write-before-throw (advisory): state written inside a `try` before a call that can still throw, whose catch
answers with the write left behind. Only a call that can run after the write on the same path counts (not one in
another case of the switch, on the other side of an `if`, or past a `return` that follows the write), and only one
that can throw at all: a log line, Date.now, a Set's `has` are none (JSON.stringify is one: a cycle, a BigInt, a text
over the length limit) (kb/sdk.yaml
non_throwing_calls and non_throwing_methods). Every server here is written for the test."""

from __future__ import annotations

import pytest

from auditor.analyse import mismatches
from program_helpers import SDK, program

BASE = SDK + '''const history: string[] = [];
const cache = new Map<string, number>();
declare const logger: any;
async function load(id: string): Promise<any> { const r = await fetch("https://notes.invalid/" + id); return r.json(); }
export async function record(kind: string, id: string) {
  try {
BODY
    return { content: [{ type: "text", text: "ok" }] };
  } catch (e) {
    return { content: [{ type: "text", text: String(e) }], isError: true };
  }
}
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: "note", description: "Note.", inputSchema: { type: "object", properties: { id: { type: "string" } } } }] }));
server.setRequestHandler(CallToolRequestSchema, async (req: any) => record("a", String(req.params.arguments.id)));
await server.connect(new StdioServerTransport());
'''


def _found(body: str) -> list[str]:
    p = program({"index.ts": BASE.replace("BODY", body), "package.json": '{"name": "s", "main": "index.ts"}'})
    return [c["call"] for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "write-before-throw"
            for c in f.attrs["calls"]]


def test_a_call_that_can_throw_after_the_write_is_reported():
    assert _found("    history.push(id);\n    const data = await load(id);\n    logger.info(`got ${data.n}`);") == ["load"]
    assert _found("    history.push(id);\n    const text = JSON.stringify({ id });") == ["JSON.stringify"]


@pytest.mark.parametrize("body", [
    # only calls that do not throw on plain data follow the write
    "    history.push(id);\n    logger.info(`noted ${id}`);\n    const at = Date.now();\n"
    "    console.error(`${id} ${at} ${cache.has(id)}`);",
    # the call that can throw is in another case of the switch
    "    switch (kind) {\n      case \"a\": history.push(id); break;\n"
    "      case \"b\": { const data = await load(id); return { content: [{ type: \"text\", text: String(data) }] }; }\n    }",
    # on the other side of the if
    "    if (cache.has(id)) {\n      cache.set(id, 2);\n    } else {\n      await load(id);\n    }",
    # past the return that follows the write
    "    if (kind === \"cached\") { cache.set(id, 1); return { content: [] }; }\n    await load(id);",
])
def test_no_call_that_can_throw_can_run_after_the_write(body):
    assert _found(body) == []
