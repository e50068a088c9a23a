"""A registration written in a callback handed to a method of a receiver whose class is not known where it is
handed (`client.registerTools((spec, handler) => super.registerTool(this.nameOf(client, spec.title), ...))`): the
callback is instantiated at each call of that parameter in the methods of that name of the classes the boundary
constructs, the receiver read as an instance of the method's class (summaries.Expander._handed_calls); a rest
pattern (`const { handler, ...spec } = tool`) holds the object's other members. Every server here is written for
the test."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import program

HUB = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
       'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
       'import { NotesClient } from "./notes.js";\n'
       'import { TasksClient } from "./tasks.js";\n'
       'class HubServer extends McpServer {\n'
       '  nameOf(client: any, title: string) {\n'
       '    return `${client.prefix}_${title.replace(/\\s+/g, "_").toLowerCase()}`;\n'
       '  }\n'
       '  async addClient(client: any) {\n'
       '    await client.registerTools((spec: any, handler: any) => {\n'
       '      const toolName = this.nameOf(client, spec.title);\n'
       '      return super.registerTool(toolName, { description: spec.summary, inputSchema: {} }, handler);\n'
       '    });\n'
       '  }\n'
       '}\n'
       'const hub = new HubServer({ name: "hub", version: "1" });\n'
       'for (const client of [new NotesClient(), new TasksClient()]) {\n'
       '  await hub.addClient(client);\n'
       '}\n'
       'await hub.connect(new StdioServerTransport());\n')
NOTES = ('class ReadNote {\n'
         '  specification = { title: "Read Note", summary: "Read a note" };\n'
         '  handle = async () => ({ content: [] });\n'
         '}\n'
         'export class NotesClient {\n'
         '  prefix = "notes";\n'
         '  async registerTools(register: any) {\n'
         '    for (const tool of [new ReadNote()]) {\n'
         '      register(tool.specification, tool.handle);\n'
         '    }\n'
         '  }\n'
         '}\n')
TASKS = ('const TASK_TOOLS = [\n'
         '  { title: "Add Task", summary: "Add a task", handler: "add", clients: ["web"] },\n'
         '  { title: "List Tasks", summary: "List the tasks", handler: "list", clients: [] },\n'
         '];\n'
         'export class TasksClient {\n'
         '  prefix = "tasks";\n'
         '  async registerTools(register: any) {\n'
         '    for (const tool of TASK_TOOLS) {\n'
         '      const { handler, clients: _, ...spec } = tool;\n'
         '      register(spec, async () => ({ content: [{ type: "text", text: handler }] }));\n'
         '    }\n'
         '  }\n'
         '}\n')
PACKAGE = '{"name": "hub", "main": "server.ts", "dependencies": {"@modelcontextprotocol/sdk": "1"}}'


def _names(files: dict[str, str]) -> list[str]:
    return sorted(t["name"] for t in coverage.ledger(program(files))["tools"])


def test_a_callback_handed_to_each_clients_method_registers_under_each_clients_prefix():
    files = {"package.json": PACKAGE, "server.ts": HUB, "notes.ts": NOTES, "tasks.ts": TASKS}
    assert _names(files) == ["notes_read_note", "tasks_add_task", "tasks_list_tasks"]


def test_a_class_the_boundary_never_constructs_registers_nothing():
    # a third client class with the same method, never made: its call of the callback is no tool
    spare = TASKS.replace("TasksClient", "SpareClient").replace('"tasks"', '"spare"')
    files = {"package.json": PACKAGE, "server.ts": HUB, "notes.ts": NOTES, "tasks.ts": TASKS, "spare.ts": spare}
    assert _names(files) == ["notes_read_note", "tasks_add_task", "tasks_list_tasks"]


def test_titles_and_prefixes_from_nested_constants_of_other_modules():
    # `title: NAMES.READ_NOTE.TITLE`, `prefix = CONFIG.PREFIX`, both imported: the nested constants' strings
    names = ('export const NAMES = {\n'
             '  /** the note reader */\n'
             '  READ_NOTE: { TITLE: "Read Note", SUMMARY: "Read a note" },\n'
             '};\n'
             'export const CONFIG = { PREFIX: "memo" };\n')
    notes = ('import { NAMES, CONFIG } from "./names.js";\n'
             + NOTES.replace('title: "Read Note"', "title: NAMES.READ_NOTE.TITLE")
             .replace('prefix = "notes";', "prefix = CONFIG.PREFIX;"))
    files = {"package.json": PACKAGE, "server.ts": HUB, "notes.ts": notes, "tasks.ts": TASKS, "names.ts": names}
    assert _names(files) == ["memo_read_note", "tasks_add_task", "tasks_list_tasks"]
