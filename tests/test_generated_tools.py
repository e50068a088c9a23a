"""Tools whose names the code computes at startup from data the package ships (extract/interpret.py, generated.py):
an OpenAPI document walked by loops, regular expressions and string functions; a Postman-like collection read by a
class whose configuration comes from the environment with defaults; tool objects a generator class makes, handed to
FastMCP's addTool in a loop, under a filter that depends on what is not known. Each server is written for the test;
each test fails without the interpreter (the registration stays a gap with no tool)."""

from __future__ import annotations

import builtins

import pytest

from auditor.analyse import coverage
from auditor.extract import interpret, jsvalues as J
from auditor.extract.evaluate import NULL, UNKNOWN
from program_helpers import line_of, program

PACKAGE = '{"name": "gen", "version": "1.0.0", "type": "module", "bin": {"gen": "src/index.js"}}'

OPENAPI = '''{"openapi": "3.0.0", "paths": {
  "/v2/users": {"get": {"operationId": "listUsers", "summary": "List the users"},
                "post": {"operationId": "createUser", "summary": "Create a user"}},
  "/v2/users/{id}": {"get": {"operationId": "get_v2users_id"},
                     "delete": {"operationId": "deleteUser", "deprecated": true}},
  "/v2/teams/{team}/members": {"put": {"operationId": "put_v2teams_team_members", "summary": "Set members"}}}}'''

TOP_LEVEL = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const ACTIONS = { get: "get", post: "create", put: "update", delete: "delete" };

function cleanId(id) {
  return !/^(get|post|put|delete)_/i.test(id);
}

function toolName(method, route, id) {
  if (cleanId(id)) {
    return id.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
  }
  const parts = route.replace(/^\\/v2\\//, "").split("/").filter((p) => p && !p.startsWith("{"));
  return `${ACTIONS[method]}_${parts.join("_")}`.substring(0, 40);
}

function operations(spec) {
  const found = [];
  for (const [route, methods] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!op.operationId || op.deprecated) {
        continue;
      }
      found.push({ name: toolName(method, route, op.operationId),
                   description: op.summary ?? `${method.toUpperCase()} ${route}` });
    }
  }
  return found;
}

const spec = JSON.parse(fs.readFileSync(path.join(here, "..", "openapi.json"), "utf8"));
const server = new McpServer({ name: "gen", version: "1.0.0" });
for (const op of operations(spec)) {
  server.tool(op.name, op.description, {}, async () => ({ content: [{ type: "text", text: op.name }] }));
}
await server.connect(new StdioServerTransport());
'''


def _tools(p) -> dict:
    return {t.name: t for t in p.tools}


def test_names_computed_from_a_shipped_openapi_document_are_tools():
    p = program({"package.json": PACKAGE, "openapi.json": OPENAPI, "src/index.js": TOP_LEVEL})
    tools = _tools(p)
    assert sorted(tools) == ["create_user", "get_users", "list_users", "update_teams_members"]  # (deprecated: none)
    assert tools["list_users"].description == "List the users"
    assert tools["get_users"].description == "GET /v2/users/{id}"
    at = line_of(TOP_LEVEL, "server.tool(op.name")
    assert {t.node.start_point[0] + 1 for t in p.tools} == {at}  # anchored at the registration
    assert not [g for g in p.gaps if g.kind == "registration"]
    assert coverage.ledger(p)["complete"]


COLLECTION = '''{"item": [
  {"name": "Get started", "item": [{"name": "Intro", "request": {"method": "GET", "url": {"raw": "x"}}}]},
  {"name": "Monitors", "item": [
     {"name": "List all monitors", "request": {"method": "GET", "url": {"raw": "{{base}}/monitor"}}},
     {"name": "Mute a monitor!", "request": {"method": "POST", "url": {"raw": "{{base}}/monitor/mute"}}},
     {"name": "A folder note"}]},
  {"name": "Billing", "item": [{"name": "Get usage", "request": {"method": "GET", "url": {"raw": "u"}}}]},
  {"name": "Service Checks", "item": [{"name": "Submit a check", "request": {"method": "POST", "url": {"raw": "c"}}}]}
]}'''

CONFIG = '''import path from "path";
import { fileURLToPath } from "url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function folders(value) {
  if (!value) return null;
  const list = String(value).split(",").map((v) => v.trim()).filter(Boolean);
  return list.length ? list : null;
}

export function loadConfig(env = process.env) {
  return {
    schemaPath: env.COLLECTION_PATH || path.join(root, "collection.json"),
    folders: folders(env.COLLECTION_FOLDERS),
    apiKey: env.API_KEY,
  };
}
'''

PARSER = '''import fs from "fs";

const KEEP = new Set(["Monitors", "Dashboards"]);

function normalise(name) {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
}

function relevant(folder) {
  return KEEP.has(folder) || ["service", "trace"].some((k) => folder.toLowerCase().includes(k));
}

export function parseCollection(file, folders = null) {
  try {
    const data = JSON.parse(fs.readFileSync(file, "utf8"));
    const operations = [];
    for (const folder of data.item) {
      if (folder.name === "Get started") continue;
      if (!(folders ? folders.includes(folder.name) : relevant(folder.name))) continue;
      for (const item of folder.item ?? []) {
        if (!item.request) continue;
        operations.push({ name: normalise(item.name), method: item.request.method });
      }
    }
    return { operations };
  } catch (error) {
    return { operations: [] };
  }
}
'''

CLASS_SERVER = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { parseCollection } from "./parser.js";
import { loadConfig } from "./config.js";

export class CollectionServer {
  constructor(config) {
    this.config = config;
    this.server = new McpServer({ name: "collection", version: "1.0.0" });
    this.tools = new Map();
  }

  registerCollection() {
    const { operations } = parseCollection(this.config.schemaPath, this.config.folders);
    for (const operation of operations) {
      if (this.tools.has(operation.name)) continue;
      const readOnly = operation.method === "GET";
      this.server.tool(operation.name, `${operation.method} request`, { body: z.string().optional() },
        { readOnlyHint: readOnly }, async (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }));
      this.tools.set(operation.name, operation);
    }
  }
}

async function main() {
  const config = loadConfig();
  if (!config.apiKey) {
    console.error("API_KEY is required");
    process.exit(1);
  }
  const app = new CollectionServer(config);
  app.registerCollection();
}

main();
'''


def test_a_class_registers_tools_from_a_collection_read_under_the_default_configuration():
    p = program({"package.json": PACKAGE, "collection.json": COLLECTION, "src/config.js": CONFIG,
                 "src/parser.js": PARSER, "src/index.js": CLASS_SERVER})
    # default folders (none configured): Monitors and service-like folders; "Billing" and the guide are not read;
    # the item with no request is none; the API key check is one a configured launch passes
    assert sorted(_tools(p)) == ["list_all_monitors", "mute_a_monitor", "submit_a_check"]
    assert _tools(p)["mute_a_monitor"].description == "POST request"
    assert not [g for g in p.gaps if g.kind == "registration"]


ACCESS = '''export function scopeOf(token) {
  return token.startsWith("st.") ? { project: token.split(".")[1] } : {};
}
'''

GENERATOR = '''export class Generator {
  constructor(client) {
    this.client = client;
  }
  generate(ops) {
    return ops.map((op) => this.make(op));
  }
  make(op) {
    return {
      name: op.id.replace(/-/g, "_"),
      description: op.title,
      parameters: op.schema,
      execute: async (input) => this.client.call(op.id, input),
    };
  }
}
'''

FASTMCP = '''import { FastMCP } from "fastmcp";
import { readToken } from "keychain-lib";
import { Generator } from "./generator.js";
import { scopeOf } from "./access.js";
import spec from "../ops.json" with { type: "json" };

async function start(spec) {
  const token = await readToken();
  const scope = scopeOf(token);
  let ops = spec.operations.filter((op) => !op.hidden);
  if (scope.project) {
    ops = ops.filter((op) => op.id.startsWith("project-"));
  }
  const tools = new Generator(null).generate(ops);
  const server = new FastMCP({ name: "ops", version: "1.0.0" });
  for (const tool of tools) {
    server.addTool(tool);
  }
  server.start({ transportType: "stdio" });
}

start(spec);
'''

OPS = '''{"operations": [
  {"id": "project-list", "title": "List projects"},
  {"id": "project-delete", "title": "Delete a project"},
  {"id": "org-settings", "title": "Organisation settings"},
  {"id": "internal-debug", "title": "Debug", "hidden": true}]}'''


def test_tool_objects_a_generator_makes_are_read_under_a_filter_that_depends_on_what_is_not_known():
    p = program({"package.json": PACKAGE, "ops.json": OPS, "src/access.js": ACCESS, "src/generator.js": GENERATOR,
                 "src/index.js": FASTMCP})
    tools = _tools(p)
    # the project filter applies only to some tokens: the tools any run lists (the hidden one in none)
    assert sorted(tools) == ["org_settings", "project_delete", "project_list"]
    assert tools["project_list"].description == "List projects"
    # the callback of each tool object is the `execute` the generator writes
    targets = {d.tool: d.target for d in p.dispatches if d.tool in tools}
    assert all(t is not None and t.start_point[0] + 1 == line_of(GENERATOR, "execute: async") for t in targets.values())


NETWORK = '''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import fs from "fs";

const server = new McpServer({ name: "remote", version: "1.0.0" });
const listed = await fetch("https://example.invalid/tools.json").then((r) => r.json());
for (const t of listed.tools) {
  server.tool(t.name, t.description, async () => ({ content: [] }));
}
const secret = fs.readFileSync("/etc/hostname", "utf8").trim();
for (const line of secret.split("\\n")) {
  server.tool(line, "from a file outside the package", async () => ({ content: [] }));
}
'''


def test_names_from_the_network_or_from_files_outside_the_package_are_not_read(monkeypatch):
    opened = []
    real_open = builtins.open
    monkeypatch.setattr(builtins, "open", lambda f, *a, **k: opened.append(str(f)) or real_open(f, *a, **k))
    p = program({"package.json": PACKAGE, "src/index.js": NETWORK})
    assert not p.tools
    assert len([g for g in p.gaps if g.kind == "registration"]) == 2  # (both stay gaps: nothing invented)
    assert not [f for f in opened if "hostname" in f]


def test_a_run_out_of_steps_keeps_what_it_reached_and_says_so(monkeypatch):
    code = TOP_LEVEL.replace("  server.tool(op.name, op.description", "  for (let k = 0; k < 1000; k++) {}\n  server.tool(op.name, op.description")
    monkeypatch.setattr(interpret, "MAX_STEPS", 9000)
    p = program({"package.json": PACKAGE, "openapi.json": OPENAPI, "src/index.js": code})
    assert 0 < len(p.tools) < 4  # (reached before the steps ran out)
    gap = next(g for g in p.gaps if g.kind == "registration")
    assert "did not go to its end" in gap.detail and "may not be all it registers" in gap.detail


@pytest.mark.parametrize("source,flags,text,replacement,expected", [
    ("([a-z])([A-Z])", "g", "listUserTeams", "$1_$2", "list_User_Teams"),
    ("[^a-z0-9]+", "g", "get a monitor's details", "_", "get_a_monitor_s_details"),
    ("^_+|_+$", "g", "__x__", "", "x"),
    ("(?<word>\\w+)-(\\d)", "", "id-7 rest", "$<word>$2", "id7 rest"),
    ("\\/", "g", "a/b", "-", "a-b"),
])
def test_regular_expressions_replace_as_in_javascript(source, flags, text, replacement, expected):
    assert J.replace(text, J.JsRegex(source, flags), replacement, lambda f, a: UNKNOWN, False) == expected


def test_values_convert_as_in_javascript():
    assert J.to_str(3.0) == "3" and J.to_str(0.5) == "0.5" and J.to_str([1, None, "a"]) == "1,,a"
    assert J.to_str(NULL) == "null" and J.to_str(None) == "undefined"
    assert J.split("a,b,,c", ",", None) == ["a", "b", "", "c"] and J.split("abc", "", 2) == ["a", "b"]
    assert J.truth("") is False and J.truth(float("nan")) is False and J.truth([]) is True
    assert J.loose_equal(None, NULL) is True and J.strict_equal(None, NULL) is False
    assert J.arithmetic("+", "v", 2) == "v2" and J.arithmetic("/", 7, 2) == 3.5 and J.arithmetic("/", 6, 3) == 2
    assert J.JsRegex("\\p{L}+", "u").compiled is None  # (a pattern Python reads otherwise: not used)
    assert J.path_join(["/__package__/src", "..", "data.json"]) == "/__package__/data.json"
    assert J.path_resolve(["relative/only"]) is UNKNOWN  # (the working folder is the launch's)
    assert J.ROOT.startswith("/")


def test_a_pattern_whose_matching_may_take_exponential_time_is_not_run():
    assert J.JsRegex("(a+)+$", "").compiled is None and J.JsRegex("(\\w+\\.)*x", "").compiled is not None
    assert J.replace("a" * 40 + "b", J.JsRegex("(a+)+$", ""), "", lambda f, a: UNKNOWN, False) is UNKNOWN
    assert J.JsRegex("\\w+", "u").compiled.fullmatch("caf\u00e9") is None  # (JavaScript's \w is ASCII's)
