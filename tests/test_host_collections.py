"""A listing that reads a collection another class holds (`this.host.tools.values()` of a wire class handed the
server object as its host: what that class stores into its `this.tools = new Map()`), and a record made of
`[key, value]` pairs (`Object.fromEntries(NAMES.map((n) => [n, [...GROUPS[n]]]))`: the lists paired with the keys)."""

from __future__ import annotations

from program_helpers import SDK, program

from auditor.extract.syntax import object_pairs, pair_value, string_value

TOOLS = '''export const findItems = { name: "find-items", description: "Find", inputSchema: { type: "object" } };
export const readDocs = { name: "read-docs", description: "Docs", inputSchema: { type: "object" } };
export const runJob = { name: "run-job", description: "Run", inputSchema: { type: "object" } };
'''

GROUPS = '''import { findItems, readDocs, runJob } from "./tools.js";
const groups = { items: [findItems], docs: [readDocs], jobs: [runJob] };
const NAMES = Object.keys(groups);
export function groupTools() {
  return RECORD;
}
export function toolsFor(selected) {
  const byGroup = groupTools();
  const out = [];
  for (const g of selected ?? ["items", "docs"]) out.push(...byGroup[g]);
  return out;
}
'''

HOST = '''import { toolsFor } from "./groups.js";
import { Wire } from "./wire.js";
class Host {
  constructor(options) {
    this.options = options;
    this.tools = new Map();
    this.wire = new Wire(this);
  }
  load(selected) {
    const tools = toolsFor(selected);
    if (tools.length > 0) this.upsert(tools);
  }
  upsert(tools) {
    for (const tool of tools) this.tools.set(tool.name, tool);
  }
}
const host = new Host({});
host.load(process.env.GROUPS ? process.env.GROUPS.split(",") : undefined);
'''

WIRE = SDK + '''export class Wire {
  constructor(host) {
    this.host = host;
    this.server = new Server({ name: "w", version: "1.0.0" }, { capabilities: { tools: {} } });
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: Array.from(HELD).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    }));
  }
}
'''


def _files(record: str, held: str = "this.host.tools.values()") -> dict[str, str]:
    return {"package.json": '{"name":"w","version":"1.0.0","type":"module","bin":"src/host.js"}',
            "src/tools.js": TOOLS, "src/groups.js": GROUPS.replace("RECORD", record),
            "src/host.js": HOST, "src/wire.js": WIRE.replace("HELD", held)}


PAIRED = "Object.fromEntries(NAMES.map((name) => [name, [...groups[name]]]))"


def test_a_collection_of_the_host_class_lists_what_that_class_stores_into_it():
    p = program(_files("groups"))
    assert _listed(p) == ["find-items", "read-docs", "run-job"] and _unread(p) == []
    assert sorted(t.name for t in p.tools) == ["find-items", "read-docs", "run-job"]


def test_a_record_made_of_pairs_holds_the_value_each_key_is_paired_with():
    p = program(_files(PAIRED))
    assert _listed(p) == ["find-items", "read-docs", "run-job"] and _unread(p) == []


def test_pairs_written_out_hold_their_values_and_pairs_of_unknown_shape_are_a_gap():
    written = program(_files('Object.fromEntries([["items", [findItems]], ["docs", [readDocs, runJob]]])'))
    assert _listed(written) == ["find-items", "read-docs", "run-job"] and _unread(written) == []
    unknown = program(_files("Object.fromEntries(loadPairs())"))
    assert _listed(unknown) == [] and _unread(unknown) == ["loadPairs()"]


def test_a_member_of_another_object_that_is_no_class_field_stays_unread():
    p = program(_files("groups", held="this.host.cache.values()"))
    assert _listed(p) == [] and _unread(p) == ["this.host.cache"]


def _listed(p) -> list[str]:
    """The names of the tool objects the program's one listing reaches."""
    [listing] = p.listings
    pairs = [object_pairs(o).get("name") for o in listing.objects if o.type == "object"]
    return sorted(string_value(pair_value(n)) for n in pairs if n is not None)


def _unread(p) -> list[str]:
    [listing] = p.listings
    return [n.text.decode() for _, n, *_ in listing.unread]
