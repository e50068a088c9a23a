"""A wrapper package's entry fixes a parameter of the shared code it starts (`startServer({ tier: "reader" })`): a
branch that parameter rules out (the `case` of another tier, an `if` on a constant made from it) runs in no program
of this package, so the tools it would add are neither listed nor dispatched (extract/envdefault.py `unreached`). When
another call passes another value, or a value read at run time, every branch stays."""

from __future__ import annotations

from program_helpers import SDK, program

MANIFEST = '{"name": "reader", "version": "1.0.0", "bin": {"reader": "index.ts"}}'


def _tool(local: str, name: str) -> str:
    return (f'const {local} = {{ name: "{name}", description: "{name} it", inputSchema: {{ type: "object", properties: {{}} }},'
            f' run: async (args: any) => ({{ done: "{name}" }}) }};\n')


# expect: with tier "reader": read_rows only; with "admin" too (or a tier read at run time): every tool.
CORE = SDK + _tool("readRows", "read_rows") + _tool("dropTable", "drop_table") + _tool("begin", "begin") + '''
export function startServer(config: any) {
  let exposed: any[];
  switch (config.tier) {
    case "reader":
      exposed = [readRows];
      break;
    case "writer":
    case "admin":
      exposed = [readRows, dropTable];
      break;
  }
  const mode = config.tier === "reader" ? "none" : process.env.TX_MODE ?? "explicit";
  if (mode !== "none") {
    exposed.push(begin);
  }
  const byName = new Map();
  for (const tool of exposed) byName.set(tool.name, tool);
  const server = new Server({ name: "core", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: exposed.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new Error("unknown tool");
    return { content: [{ type: "text", text: JSON.stringify(await tool.run(request.params.arguments)) }] };
  });
  return server;
}
'''
INDEX = 'import { startServer } from "./core.js";\nstartServer({ name: "reader", tier: "reader" });\n'


def _served(index: str) -> tuple[list[str], list[str]]:
    p = program({"package.json": MANIFEST, "index.ts": index, "core.ts": CORE})
    return sorted(t.name for t in p.tools), sorted(d.tool for d in p.dispatches)


def test_the_branches_a_fixed_argument_rules_out_list_and_dispatch_nothing():
    assert _served(INDEX) == (["read_rows"], ["read_rows"])


def test_every_branch_stays_when_a_call_passes_another_value_or_one_read_at_run_time():
    every = (["begin", "drop_table", "read_rows"], ["begin", "drop_table", "read_rows"])
    assert _served(INDEX + 'startServer({ name: "admin", tier: "admin" });\n') == every
    assert _served(INDEX.replace('tier: "reader"', "tier: process.argv[2]")) == every


def test_a_parameter_the_function_assigns_is_not_what_its_callers_passed():
    """`config = { ...DEFAULTS, ...config }` (or `config.tier = ...`) before the switch: the tier is not the literal
    the entry passes, so every branch stays."""
    every = (["begin", "drop_table", "read_rows"], ["begin", "drop_table", "read_rows"])
    for reassigned in ("  config = { tier: \"admin\", ...config };\n", "  config.tier = process.argv[2];\n"):
        core = CORE.replace("  let exposed: any[];\n", reassigned + "  let exposed: any[];\n")
        p = program({"package.json": MANIFEST, "index.ts": INDEX, "core.ts": core})
        assert (sorted(t.name for t in p.tools), sorted(d.tool for d in p.dispatches)) == every
