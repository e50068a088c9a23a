"""A module loaded on first use into a name declared empty (`let capture; ... capture ??= await import("./c.js")`,
`if (!capture) capture = await import("./c.js")`) is that module's namespace wherever the name is read: a check its
function makes (`capture.grab({ url })`, `grab` testing `typeof url`) is on the path from the handler."""

from __future__ import annotations

import pytest

from program_helpers import SDK, program

from auditor.analyse.mismatches import mismatches

CAPTURE = '''export async function grab(options) {
  if (typeof options.url !== "string") throw new Error("url must be a string");
  const res = await fetch(options.url);
  return res.text();
}
'''

SERVE = SDK + '''DECLARE
const server = new Server({ name: "lazy", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "grab", description: "Grab a page",
  inputSchema: { type: "object", properties: { url: { type: "string" } }, required: ["url"] } }] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === "grab") {
    const args = request.params.arguments;
    if (!capture) {
      capture = await import("./capture.js");
    }
    const text = await capture.grab({ url: args.url });
    return { content: [{ type: "text", text }] };
  }
  throw new Error("unknown tool");
});
'''


def _findings(declare: str) -> list[str]:
    p = program({"package.json": '{"name":"l","version":"1.0.0","type":"module","bin":"serve.js"}',
                 "capture.js": CAPTURE, "serve.js": SERVE.replace("DECLARE", declare)})
    return sorted(f.id for f in mismatches(p, {}) if f.kind in {"schema-unenforced", "unchecked-optional"})


@pytest.mark.parametrize("declare", ["let capture;", "let capture = null;", "var capture;"])
def test_a_module_loaded_on_first_use_is_read_where_its_name_is(declare):
    assert _findings(declare) == []


def test_a_name_that_held_something_else_first_is_not_the_module():
    assert _findings("let capture = { grab: async (o) => fetch(o.url).then((r) => r.text()) };") == [
        "FND:schema-unenforced:grab/url"]
