"""A method called on a parameter or a local resolves to the method of the class data flow gives that value
(extract/instance_of.py): a tool's function `(client, input) => client.fetchJob(input.job)`, handed a client by a
lookup-table dispatch, reaches the client's check of `job`; a value that may be of two classes resolves to neither."""

from __future__ import annotations

from auditor.analyse import mismatches
from auditor.extract.syntax import find, member_chain
from tests.program_helpers import SDK, program

CLIENT = ('export class JobClient {\n'
          '  constructor(base) { this.base = base; }\n'
          '  async fetchJob(job, build) {\n'
          '    if (typeof job !== "string" || job.length === 0) throw new Error("job must be a non-empty string");\n'
          '    return fetch(`${this.base}/job/${job}/${build}`);\n'
          '  }\n'
          '}\n'
          'export class OtherClient {\n'
          '  async fetchJob(job, build) { return fetch(`/other/${job}/${build}`); }\n'
          '}\n')

TOOL = ('export const getJob = async (client, input) => {\n'
        '  return client.fetchJob(input.job, input.build);\n'
        '};\n')


def server(made: str = "new JobClient(url)") -> str:
    """A low-level server whose tools/call looks the tool's function up in a table and hands it a client taken from a
    Map of clients; MADE is what the Map is filled with."""
    return (SDK + 'import { JobClient, OtherClient } from "./client.js";\nimport { getJob } from "./tools/get-job.js";\n'
            'const server = new Server({ name: "jobs", version: "1" }, { capabilities: { tools: {} } });\n'
            'const HANDLERS = { get_job: getJob };\n'
            'const clients = new Map();\n'
            'for (const [name, url] of Object.entries({ main: process.env.JOBS_URL })) {\n'
            f'  clients.set(name, {made});\n'
            '}\n'
            'const pick = (name) => {\n'
            '  const c = clients.get(name ?? "main");\n'
            '  if (!c) throw new Error("unknown instance");\n'
            '  return c;\n'
            '};\n'
            'server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [\n'
            '  { name: "get_job", description: "Get a job", inputSchema: { type: "object", properties: {\n'
            '      job: { type: "string" }, build: { type: "number" } }, required: ["job", "build"] } },\n'
            ']}));\n'
            'server.setRequestHandler(CallToolRequestSchema, async (request) => {\n'
            '  const { name, arguments: args } = request.params;\n'
            '  const handler = HANDLERS[name];\n'
            '  if (!handler) throw new Error("unknown tool");\n'
            '  const { instance, ...rest } = args ?? {};\n'
            '  const client = pick(instance);\n'
            '  const result = await handler(client, rest);\n'
            '  return { content: [{ type: "text", text: JSON.stringify(result) }] };\n'
            '});\n')


def flagged(files: dict[str, str]) -> dict[str, str]:
    return {f.attrs["field"]: f.kind for f in mismatches.mismatches(program(files), {"probes": []})
            if f.kind in {"schema-unenforced", "unchecked-optional"}}


def resolved(files: dict[str, str], path: str, callee: tuple[str, ...]) -> str | None:
    """The qualified name the call CALLEE of PATH resolves to."""
    p = program(files)
    m = p.linker.by_path[path]
    call = next(c for c in find(m.tree.root_node, {"call_expression"})
                if member_chain(c.child_by_field_name("function")) == callee)
    hit = p.linker.resolve(m, call)
    return hit[2] if hit is not None else None


def files(made: str = "new JobClient(url)") -> dict[str, str]:
    return {"index.js": server(made), "client.js": CLIENT, "tools/get-job.js": TOOL}


def test_a_client_from_a_map_handed_by_a_table_dispatch_reaches_its_check():
    assert resolved(files(), "tools/get-job.js", ("client", "fetchJob")) == "JobClient.fetchJob"
    assert flagged(files()) == {"build": "schema-unenforced"}  # `job` is checked in JobClient.fetchJob; `build` is not


def test_a_map_of_two_classes_gives_no_class():
    two = "name === \"main\" ? new JobClient(url) : new OtherClient()"
    assert resolved(files(two), "tools/get-job.js", ("client", "fetchJob")) is None
    mixed = files()
    mixed["index.js"] = mixed["index.js"].replace("clients.set(name, new JobClient(url));",
                                                  "clients.set(name, new JobClient(url));\n  clients.set(\"x\", new OtherClient());")
    assert resolved(mixed, "tools/get-job.js", ("client", "fetchJob")) is None
    assert flagged(mixed) == {"job": "schema-unenforced", "build": "schema-unenforced"}


def test_a_declared_parameter_type_names_the_class():
    typed = {"client.ts": CLIENT, "use.ts": 'import { JobClient } from "./client.js";\n'
             'export async function run(client: JobClient, job: string) { return client.fetchJob(job, 1); }\n'}
    assert resolved(typed, "use.ts", ("client", "fetchJob")) == "JobClient.fetchJob"
    untyped = {"client.ts": CLIENT, "use.ts": 'export async function run(client, job) { return client.fetchJob(job, 1); }\n'}
    assert resolved(untyped, "use.ts", ("client", "fetchJob")) is None  # (no call of run: nothing hands it a client)


def test_a_local_made_by_a_factory_names_the_class():
    code = ('import { JobClient } from "./client.js";\n'
            'function makeClient(url) { const c = new JobClient(url); return c; }\n'
            'export async function run(job) { const api = await makeClient("u"); return api.fetchJob(job, 1); }\n')
    assert resolved({"client.js": CLIENT, "use.js": code}, "use.js", ("api", "fetchJob")) == "JobClient.fetchJob"


def test_a_constructor_a_parameter_names_is_not_the_module_class_of_that_name():
    """`function make(JobClient) { return new JobClient() }`: the class is whatever the caller hands, not the module's
    import of the same name."""
    code = ('import { JobClient } from "./client.js";\n'
            'function make(JobClient) { const c = new JobClient("u"); return c; }\n'
            'export async function run(job, Other) { const api = make(Other); return api.fetchJob(job, 1); }\n')
    assert resolved({"client.js": CLIENT, "use.js": code}, "use.js", ("api", "fetchJob")) is None


CLOSURE = SDK + '''
class Manager {
  sessions = new Map;
  constructor(opts) { this.opts = opts; }
  sendInput(sessionId, text) {
    const entry = this.liveEntry(sessionId);
    if (!entry) return false;
    entry.proc.stdin.write(text);
    return true;
  }
  liveEntry(sessionId) {
    return this.sessions.get(sessionId);
  }
}
function defineTools(manager) {
  const tools = [];
  tools.push({ name: "send_input", description: "Send", inputSchema: { type: "object", properties: {
      session_id: { type: "string" } }, required: ["session_id"] },
    handler: async (args) => {
      const ok = manager.sendInput(args.session_id, "x");
      return { content: [{ type: "text", text: String(ok) }] };
    } });
  return tools;
}
async function main() {
  const server = new Server({ name: "v", version: "1" }, { capabilities: { tools: {} } });
  const manager = new Manager({ verbose: false });
  const tools = defineTools(manager);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map(({ handler, ...t }) => t) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) throw new Error("unknown tool");
    return tool.handler(request.params.arguments);
  });
}
main();
'''


def test_a_method_called_in_a_closure_on_a_parameter_of_the_function_around_it_resolves():
    """`handler: async (args) => manager.sendInput(args.session_id)`, MANAGER a parameter of the function that builds
    the tools, handed a `new Manager()` by its one caller: the method is the class's, whose only use of the id is a
    Map's key (a value of another type finds nothing). A local of the closure's own of that name is not the
    parameter."""
    assert flagged({"index.js": CLOSURE}) == {}
    shadowed = CLOSURE.replace('const ok = manager.sendInput(args.session_id, "x");',
                               'const manager = globalThis.other; const ok = manager.sendInput(args.session_id, "x");')
    assert shadowed != CLOSURE
    assert flagged({"index.js": shadowed}) == {"session_id": "schema-unenforced"}
