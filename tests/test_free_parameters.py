"""The parameter a loop's list is made from (summaries._free_parameter): a name a function inside the list binds is
not free in it. `TOOLS.map((t) => ({ name: t.name }))` over a module's array of tool objects whose handlers take
`args` needs no frame for `args` (following every `x.handler(...)` call of a large bundle for it took an audit past
half an hour); a list built from a parameter of the function around it still needs that parameter's frames."""

from __future__ import annotations

from auditor.extract import summaries
from auditor.extract.syntax import find, text
from program_helpers import MCP, program

OWN = MCP + '''
const echo = { name: "echo", description: "Echo", inputSchema: {},
  handler: async (args) => { const said = args.text; return said; } };
const TOOLS = [echo];
export const listed = TOOLS.map((t) => ({ name: t.name, description: t.description }));
'''

HANDED = MCP + '''
function build(tools) { const all = [...tools]; return all; }
export function listed(tools) { return build(tools).map((t) => ({ name: t.name })); }
'''


def _holder(files: dict[str, str], name: str, call: str):
    p = program(files)
    module = next(m for m in p.modules if m.path == "index.ts")
    node = next(n for n in find(module.tree.root_node, {"call_expression"}) if text(n).startswith(call))
    holder = node.child_by_field_name("function").child_by_field_name("object")
    assert text(holder) == name
    return holder, module


def test_a_name_a_tool_object_binds_is_not_free_in_the_list():
    holder, module = _holder({"index.ts": OWN}, "TOOLS", "TOOLS.map")
    assert summaries._free_parameter(holder, module) is None


def test_the_parameter_a_list_is_built_from_is_free():
    holder, module = _holder({"index.ts": HANDED}, "build(tools)", "build(tools).map")
    found = summaries._free_parameter(holder, module)
    assert found is not None and text(found) == "tools"
