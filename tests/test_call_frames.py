"""A listing read through a call of a function of the boundary is read with that call's arguments: a condition on a
parameter (`options.chat === true ? [...ALL, extra] : ALL`, a `flatMap` callback's `if (... && options.chat !== true)
return []`) is decided by what this call passes (an option absent from an object literal is undefined), so a tool
that only another caller turns on (a chat agent of the same package) is not the server's. Where the call passes
something not known, both branches are read, as before."""

from __future__ import annotations

from program_helpers import SDK, program

from auditor.extract.syntax import object_pairs, pair_value, string_value

TOOLS = '''function defineTool(name, description, run) { return { name, description, parameters: { type: "object" }, run }; }
const listSites = defineTool("list_sites", "List the sites.", async () => "[]");
const startSite = defineTool("start_site", "Start a site.", async () => "started");
export const refreshView = defineTool("refresh_view", "Refresh the chat's view.", async () => "ok");
const presentCard = defineTool("present_card", "Show a card in the chat.", async () => "ok");
const ALL = [listSites, startSite, refreshView];
export function resolveTools(options = {}) {
  return (options.chat === true ? [...ALL, presentCard] : ALL).flatMap((candidate) => {
    if (candidate.name === refreshView.name && options.chat !== true) return [];
    return [candidate];
  });
}
'''

AGENT = '''import { resolveTools } from "./tools.js";
export function chatTools() { return resolveTools({ chat: true, tracks: 2 }); }
'''

INDEX = SDK + '''import { resolveTools } from "./tools.js";
export async function serve(flag) {
  const tools = resolveTools(OPTIONS);
  const server = new Server({ name: "s", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters })),
  }));
  return server;
}
serve(process.argv[2]);
'''


def _names(options: str) -> list[str]:
    p = program({"package.json": '{"name":"s","version":"1.0.0","type":"module","bin":"src/index.js"}',
                 "src/tools.js": TOOLS, "src/agent.js": AGENT, "src/index.js": INDEX.replace("OPTIONS", options)})
    return sorted(t.name for t in p.tools)


def test_the_call_s_options_decide_the_tools_it_lists():
    assert _names("{ images: flag === 'x' }") == ["list_sites", "start_site"]


def test_an_option_the_call_turns_on_lists_its_tools():
    assert _names("{ chat: true }") == ["list_sites", "present_card", "refresh_view", "start_site"]


def test_options_not_known_read_every_branch():
    assert _names("{ chat: flag === 'chat' }") == ["list_sites", "present_card", "refresh_view", "start_site"]
