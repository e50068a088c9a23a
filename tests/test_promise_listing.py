"""A tools/list result read through a promise's handlers (extract/reach.py `Reach._settled`): `p.then((t) =>
t.flat())` resolves to what P resolves to, `.catch(() => [])` and `.finally(f)` pass it through and add what a
handler returns. Tools fetched from a remote endpoint at run time are named by the response, not by the code: the
listing says their names are not read, and the descriptor-shaped objects of the code it does not list are no tools
(before, the unread `.then` made every one of them a tool)."""

from __future__ import annotations

from program_helpers import SDK, program

TOOLS = '''function tool(feature, mcp, fn) { return { mcp: { ...mcp, inputSchema: { type: "object" } }, fn }; }
export const login = tool("core", { name: "login", description: "Log in." }, async () => "ok");
export const logout = tool("core", { name: "logout", description: "Log out." }, async () => "ok");
export const readRules = tool("rules", { name: "read_rules", description: "Read the rules." }, async () => "[]");
export const LOCAL = { core: [login, logout], rules: [readRules] };
'''

REMOTE = '''export class RemoteServer {
  constructor(feature, origin) { this.feature = feature; this.origin = origin; }
  async listTools() {
    const res = await fetch(`${this.origin}/mcp`, { method: "POST", body: "{}" });
    const body = await res.json();
    return body.result.tools.map((t) => ({ mcp: { ...t, name: `${this.feature}_${t.name}` } }));
  }
}
export const REMOTES = { docs: new RemoteServer("docs", "https://docs.invalid") };
'''

INDEX = SDK + '''import { LOCAL } from "./tools.js";
import { REMOTES } from "./remote.js";
function prefixed(feature, tools) { return tools.map((t) => ({ ...t, mcp: { ...t.mcp, name: `${feature}_${t.mcp.name}` } })); }
const ALL = [...prefixed("firebase", LOCAL.core), ...prefixed("rules", LOCAL.rules)];
async function remoteTools() {
  const pending = [];
  for (const key of Object.keys(REMOTES)) pending.push(REMOTES[key].listTools());
  return Promise.all(pending).then((lists) => lists.flat());
}
async function available() {
  const remote = await remoteTools();
  return [...ALL, ...remote];
}
const server = new Server({ name: "s", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (await available()).map((t) => t.mcp) }));
'''


def _program(index: str = INDEX):
    return program({"package.json": '{"name":"s","version":"1.0.0","type":"module","bin":"src/index.js"}',
                    "src/tools.js": TOOLS, "src/remote.js": REMOTE, "src/index.js": index})


def test_a_then_handler_handing_on_its_value_lists_what_the_promise_resolves_to():
    p = _program()
    assert sorted(t.name for t in p.tools) == ["firebase_login", "firebase_logout", "rules_read_rules"]
    listing = p.listings[0]
    assert not listing.unread  # (the remote part is read: objects named at run time)
    assert [n.start_point[0] + 1 for _, n in listing.unnamed] == [6]


def test_a_catch_handler_s_value_is_listed_beside_the_promise_s():
    p = _program(INDEX.replace("then((lists) => lists.flat())",
                               "then((lists) => lists.flat()).catch(() => [{ mcp: { name: \"offline\", inputSchema: { type: \"object\" } } }])"))
    assert sorted(t.name for t in p.tools) == ["firebase_login", "firebase_logout", "offline", "rules_read_rules"]
    assert not p.listings[0].unread


def test_a_then_handler_making_a_value_of_its_own_is_read_as_written():
    p = _program(INDEX.replace("then((lists) => lists.flat())", "then((lists) => ALL_LATER)")
                 + "const ALL_LATER = [{ mcp: { name: \"late\", inputSchema: { type: \"object\" } } }];\n")
    assert sorted(t.name for t in p.tools) == ["firebase_login", "firebase_logout", "late", "rules_read_rules"]
    assert not p.listings[0].unread
