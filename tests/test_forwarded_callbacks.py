"""A listing callback that hands its element on to a function of the boundary and returns what that gives
(`tools.map((t) => toPublic(t, { mode }))`) is read as that function: a copy of each element that keeps the
element's name (`{ name: t.name, ... }`) lists the elements, named by their names."""

from __future__ import annotations

from program_helpers import SDK, program

from auditor.extract.syntax import object_pairs, pair_value, string_value

PUBLIC = '''function fix(schema) { return { ...schema, required: schema.required ?? [] }; }
export function toPublic(tool, options = {}) {
  const description = options.brief ? tool.description.split(".")[0] : tool.description;
  return { name: tool.name, description, inputSchema: fix(tool.inputSchema) };
}
'''

INDEX = SDK + '''import { toPublic } from "./public.js";
const TOOLS = [
  { name: "find-items", description: "Find items.", inputSchema: { type: "object" } },
  { name: "read-docs", description: "Read docs.", inputSchema: { type: "object" } },
];
const PLACEHOLDER = [{ kind: "remote", name: "__placeholder__" }];  // (handed in by another caller of the listing)
const server = new Server({ name: "f", version: "1.0.0" }, { capabilities: { tools: {} } });
function listed(extra) { return [...TOOLS, ...extra].map(CALLBACK); }
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed([]) }));
export const names = () => listed(PLACEHOLDER).map((t) => t.name);
'''


def _program(callback: str):
    return program({"package.json": '{"name":"f","version":"1.0.0","type":"module","bin":"src/index.js"}',
                    "src/public.js": PUBLIC, "src/index.js": INDEX.replace("CALLBACK", callback)})


def _listed(p) -> tuple[list[str], list[str]]:
    """The names of the tool objects the program's one listing reaches, and what it leaves unread."""
    [listing] = p.listings
    pairs = [object_pairs(o).get("name") for o in listing.objects if o.type == "object"]
    names = sorted(string_value(pair_value(n)) or "?" for n in pairs if n is not None)
    return names, [n.text.decode() for _, n, *_ in listing.unread]


def test_a_callback_handing_its_element_to_a_function_lists_the_elements():
    p = _program("(t) => toPublic(t, { brief: true })")
    assert _listed(p)[1] == [] and {"find-items", "read-docs"} <= set(_listed(p)[0])
    # (an element without the input schema the copy reads, a placeholder another caller hands in, is no tool the copy
    # names: not among the copied)
    [listing] = p.listings
    assert sorted(string_value(pair_value(object_pairs(o)["name"])) for o in listing.copied) == ["find-items", "read-docs"]
    assert sorted(t.name for t in p.tools) == ["find-items", "read-docs"]
    assert sorted(t.name for t in _program("toPublic").tools) == ["find-items", "read-docs"]


def test_a_callback_handing_on_something_else_than_its_element_is_read_as_written():
    names, unread = _listed(_program("(t) => toPublic({ ...t.meta }, { brief: true })"))
    assert "find-items" not in names and "read-docs" not in names
