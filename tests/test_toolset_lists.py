"""A tools/list made of toolsets: a record of configs, each with a function member that returns its descriptors,
flattened by `Object.values(record).flatMap((c) => c.tools())` or by picking configs by a key the code does not know
(`record[name]` per element of a list of names). A callback's element parameter stands for each element of the list
it is called on; `x.m()` for what the function member `m` of what x stands for returns; `record[key]` with a key not
known for any of the record's values. The list is then read whole."""

from __future__ import annotations

from program_helpers import SDK, program

MANIFEST = '{"name": "kit", "version": "1.0.0", "bin": {"kit": "index.ts"}}'


def _desc(name: str) -> str:
    return f'{{ name: "{name}", description: "{name} it", inputSchema: {{ type: "object", properties: {{}} }} }}'


# expect: tools/list = hammer, saw (function member), drill (arrow member returning spreads); spare not advertised.
SETS = f'''
export const getHandTools = () => [{_desc("hammer")}, {_desc("saw")}];
const getPowerTools = () => [{_desc("drill")}];
export const getSpareTools = () => [{_desc("spare")}];

const CONFIGS = {{
  hand: {{ name: "hand", tools: getHandTools }},
  power: {{ name: "power", tools: (() => [...getPowerTools()]) }},
}};

export class Manager {{
  all() {{
    return Object.values(CONFIGS).flatMap((config) => config.tools());
  }}
  enabled(names: string[]) {{
    return names.flatMap((n) => {{
      const config = CONFIGS[n];
      if (!config) return [];
      return config.tools();
    }});
  }}
}}
export const manager = new Manager();
'''

INDEX = SDK + '''import { manager } from "./sets.js";

const server = new Server({ name: "kit", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => {
  let tools;
  const wanted = (process.env.KIT_SETS || "").split(",").filter(Boolean);
  if (wanted.length > 0) {
    tools = [...manager.enabled(["hand"]), ...manager.enabled(wanted)];
  } else {
    tools = manager.all();
  }
  return { tools };
});
'''


def test_toolsets_flattened_through_function_members_are_read_whole():
    p = program({"index.ts": INDEX, "sets.ts": SETS, "package.json": MANIFEST})
    assert sorted(t.name for t in p.tools) == ["drill", "hammer", "saw"]
    assert [t.name for t in p.unadvertised] == ["spare"]
    (listing,) = p.listings
    assert not listing.unread
