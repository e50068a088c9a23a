"""A tools/list made of groups of descriptors, some groups arrays and some records keyed by something other than the
tool name, flattened by a loop that spreads each group or its `Object.values`; the groups chosen by a module constant
set from the environment. An expression met again stands for the same descriptors (only a cycle stands for nothing);
a ternary whose condition reads only the environment lists both branches, and the ledger row of each tool of the
branch the default environment (every variable unset) does not pick says which variable lists it."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import SDK, program

MANIFEST = '{"name": "desk", "version": "1.0.0", "bin": {"desk": "index.ts"}}'


def _desc(name: str) -> str:
    return f'{{ name: "{name}", description: "{name} it", inputSchema: {{ type: "object", properties: {{}} }} }}'


# expect: tools/list by default = pin, peek (record, keys not names), stack (array); legacy_pin only with
# LEGACY_DESK=true (a tool all the same, its condition said).
GROUPS = f'''
const pinTool = {_desc("pin")};
export const modernTools = {{ "desk-pin": pinTool, ...{{ "desk-peek": {_desc("peek")} }} }};
export const sharedTools = [{_desc("stack")}];
export const legacyTools = [{_desc("legacy_pin")}];
'''

INDEX = SDK + '''import { modernTools, sharedTools, legacyTools } from "./groups.js";

const MODERN = process.env.LEGACY_DESK !== "true";
export const GROUPS = MODERN ? { modern: modernTools, shared: sharedTools } : { legacy: legacyTools, shared: sharedTools };

function flatten() {
  const all: any[] = [];
  for (const defs of Object.values(GROUPS)) {
    if (!defs) continue;
    if (Array.isArray(defs)) {
      all.push(...defs);
      continue;
    }
    all.push(...Object.values(defs));
  }
  return all;
}

const server = new Server({ name: "desk", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: flatten() }));
'''


def test_a_group_met_again_through_object_values_is_read_again():
    p = program({"index.ts": INDEX, "groups.ts": GROUPS, "package.json": MANIFEST})
    names = sorted(t.name for t in p.tools)
    assert {"pin", "peek", "stack"} <= set(names)
    (listing,) = p.listings
    assert not listing.unread


def test_a_ternary_on_the_environment_lists_both_branches_and_says_which_is_not_the_default():
    p = program({"index.ts": INDEX, "groups.ts": GROUPS, "package.json": MANIFEST})
    assert sorted(t.name for t in p.tools) == ["legacy_pin", "peek", "pin", "stack"]
    ledger = coverage.ledger(p)
    conditions = {t["name"]: t.get("condition") for t in ledger["tools"]}
    assert conditions == {"legacy_pin": "listed only when LEGACY_DESK is set: not by default", "peek": None,
                          "pin": None, "stack": None}
    assert ledger["unadvertised"] == []



def test_a_parameter_that_shadows_an_environment_constant_is_not_decided():
    """`pick(MODERN)` of a function whose parameter is named like the module's constant: the parameter's value is
    not known, both branches are listed (expect: pin, peek, stack and legacy_pin)."""
    index = INDEX.replace("for (const defs of Object.values(GROUPS))", "for (const defs of Object.values(pick(false)))")
    index += '''
function pick(MODERN: boolean) {
  return MODERN ? { modern: modernTools, shared: sharedTools } : { legacy: legacyTools, shared: sharedTools };
}
'''
    p = program({"index.ts": index, "groups.ts": GROUPS, "package.json": MANIFEST})
    assert sorted(t.name for t in p.tools) == ["legacy_pin", "peek", "pin", "stack"]
