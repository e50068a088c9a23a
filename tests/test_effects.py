"""Effect routes (analyse/effects.py, effect_routes.py, effect_classes.py) and secrets written to output streams (analyse/secrets.py), from in-memory sources."""

from __future__ import annotations

from auditor.analyse import effect_routes, effects, secrets
from auditor.extract.components import components
from program_helpers import effects_kb, line_of, program


def _scan(files: dict[str, str]):
    p = program(files)
    fx = effects.scan(p, effects_kb())
    return p, fx, {r.id: r for r in effect_routes.routes(p, fx, components(p))}


def _sites(fx, kind: str) -> list[tuple[str, str, str]]:
    return [(s.function, s.what, s.cls) for s in fx.sites if s.kind == kind]


CONFIG = """\
const port = Number(process.env.PORT ?? 3000);
const { API_KEY, REGION: region = "eu", ...others } = process.env;
function pick(name: string) {
  return process.env[name] ?? process.env["FALLBACK"];
}
const target = process.argv[2];
const rest = process.argv.slice(3);
export function child() { return { env: process.env }; }
"""


def test_configuration_reads_name_their_variables():
    _, fx, routes = _scan({"index.ts": CONFIG})
    top = routes["RTE:effect-env:index#<module>"]
    assert top.attrs["names"] == ["*", "API_KEY", "PORT", "REGION"]
    assert routes["RTE:effect-env:index#pick"].attrs["names"] == ["FALLBACK", "[name]"]
    assert routes["RTE:effect-env:index#child"].attrs["names"] == ["*"]
    assert [s["call"] for s in routes["RTE:effect-argv:index#<module>"].attrs["sites"]] == ["process.argv[2]", "process.argv.slice(3)"]
    assert top.attrs["trigger"] == "process start (module top level)"
    assert [(a.start_line, a.end_line) for a in top.anchors] == [(1, 2)]  # the two reads, merged


def test_the_process_module_imported_under_another_name_is_the_process():
    """`import process$1 from "node:process"` (as bundlers write it) and `import * as proc from "process"`: their
    `env` and `argv` are the environment and the command line (kb/effects.yaml global_modules)."""
    source = ('import process$1 from "node:process";\nimport * as proc from "process";\n'
              'const port = process$1.env.MY_PORT;\nexport function run(argv = process$1.argv.slice(2)) { return argv; }\n'
              'export const region = proc.env["REGION"];\n')
    _, fx, routes = _scan({"index.ts": source})
    assert routes["RTE:effect-env:index#<module>"].attrs["names"] == ["MY_PORT", "REGION"]
    assert [s["call"] for s in routes["RTE:effect-argv:index#run"].attrs["sites"]] == ["process$1.argv.slice(2)"]


def test_the_process_module_a_bundler_requires_is_the_process():
    """webpack's `const process1 = __webpack_require__("node:process")` (a module it leaves external): its `argv` is
    the command line; a relative id names one of the bundle's own modules, not a file."""
    source = ('const process1 = __webpack_require__("node:process");\n'
              'const own = __webpack_require__("./src/process.ts");\n'
              'function parse(argv) { if (argv === void 0) argv = process1.argv; return own.argv.concat(argv.slice(2)); }\n'
              'module.exports = parse;\n')
    _, fx, routes = _scan({"index.js": source})
    assert [s["call"] for s in routes["RTE:effect-argv:index#parse"].attrs["sites"]] == ["process1.argv"]


PARSERS = {
    "esm.ts": 'import { parseArgs } from "node:util";\n'
              'const { values } = parseArgs({ options: { port: { type: "string", short: "p" } } });\n'
              'export const own = parseArgs({ args: ["--x"], options: {} });\n',
    "cjs.js": 'const node_util_1 = require("node:util");\n'
              'const { values } = (0, node_util_1.parseArgs)({ options: { transport: { type: "string" } } });\n',
    "cli.ts": 'import { program } from "commander";\nimport yargs from "yargs";\n'
              'program.option("-t, --transport <t>").parse();\nconst argv = yargs.option("port", {}).argv;\n',
    # cleye's cli() reads process.argv unless handed its third argument; command() only declares a subcommand.
    "cleye.ts": 'import { cli, command } from "cleye";\nconst sub = command({ name: "fetch", flags: {} });\n'
                'const parsed = cli({ flags: { apiKey: { type: String } }, commands: [sub] });\n'
                'export const own = cli({ flags: {} }, undefined, ["--x"]);\n',
    "small.ts": 'import arg from "arg";\nimport cac from "cac";\nimport minimist from "minimist";\n'
                'export const a = arg({ "--port": Number });\nexport const b = arg({ "--port": Number }, { argv: ["--port", "1"] });\n'
                'export const c = cac("demo");\nexport const m = minimist(["--x"]);\n',
    # meow's options may hand it its own vector (the second argument here)
    "meow.ts": 'import meow from "meow";\nexport const a = meow("help", { importMeta: import.meta });\n'
               'export const b = meow("help", { importMeta: import.meta, argv: ["--x"] });\n',
}


def test_argument_parsers_that_read_the_process_arguments_are_command_line_reads():
    _, fx, routes = _scan(PARSERS)
    got = sorted((s.module.path, s.what, s.node.start_point[0] + 1) for s in fx.sites if s.kind == "effect-argv")
    assert got == [("cjs.js", "node_util_1.parseArgs", 2), ("cleye.ts", "cli", 3), ("cli.ts", "program.option", 3),
                   ("cli.ts", "yargs.option", 4), ("esm.ts", "parseArgs", 2), ("meow.ts", "meow", 2),
                   ("small.ts", "arg", 4), ("small.ts", "cac", 6)]  # minimist parses the vector it is handed
    # not the parseArgs handed its own `args`, the cli() handed its own vector, the meow() handed `argv`
    assert "RTE:effect-argv:esm#<module>" in routes


# An esbuild bundle of a server whose argument parser is bundled into it: its own code constructs the parser through the
# names the bundle declares in the parser's region, or initialises from it.
BUNDLED_PARSER = """\
var __toESM = (mod) => mod;

// node_modules/commander/index.js
var require_commander = (() => ({ Command: class { parse() { return []; } } }));

// node_modules/commander/esm.mjs
var import_index = __toESM(require_commander(), 1);
var { program, Command } = import_index.default;

// src/cli.ts
var import_commander = __toESM(require_commander(), 1);
var opts = new Command().option("--port <n>").parse().opts();
var more = new import_commander.Command().parse();
"""


def test_a_bundled_argument_parser_is_read_as_an_imported_one():
    _, fx, _ = _scan({"package.json": '{"name": "demo", "bin": "dist/cli.js"}', "dist/cli.js": BUNDLED_PARSER})
    got = sorted((s.what, s.node.start_point[0] + 1) for s in fx.sites if s.kind == "effect-argv")
    # the two calls of the bundled commander by the server's own code; not the loader's, none in the dependency's regions
    assert got == [("Command", 12), ("import_commander.Command", 13)]


FILES = """\
import { promises as fs } from "fs";
import * as fsp from "fs/promises";
import { existsSync } from "node:fs";
const { appendFileSync } = require("fs");
import nodefs from "fs";
export async function touch(p: string) {
  if (!existsSync(p)) await fs.mkdir(p, { recursive: true });
  await fsp.writeFile(p + "/a", "x");
  appendFileSync(p + "/log", "line");
  await nodefs.promises.rm(p + "/old", { force: true });
  const h = await fsp.open(p + "/a", "r");
  const w = await fsp.open(p + "/b", "a+");
  return fsp.readFile(p + "/a", "utf8");
}
"""


def test_filesystem_calls_are_read_or_write_by_kb_vocabulary():
    _, fx, routes = _scan({"index.ts": FILES})
    assert _sites(fx, "effect-fs-read") == [("touch", "existsSync", "read"), ("touch", "fsp.open", "read"),
                                            ("touch", "fsp.readFile", "read")]
    assert _sites(fx, "effect-fs-write") == [("touch", "fs.mkdir", "create"), ("touch", "fsp.writeFile", "overwrite"),
                                             ("touch", "appendFileSync", "append"), ("touch", "nodefs.promises.rm", "delete"),
                                             ("touch", "fsp.open", "append")]
    write = routes["RTE:effect-fs-write:index#touch"]
    assert write.attrs["classes"] == ["append", "create", "delete", "overwrite"]
    assert [s["conditional"] for s in write.attrs["sites"]][:2] == [True, False]  # mkdir only when absent


NETWORK = {
    "db.ts": """\
import pg from "pg";
export const pool = new pg.Pool({ connectionString: "postgres://x" });
""",
    "index.ts": """\
import axios from "axios";
import { createClient } from "redis";
import { pool } from "./db.js";
const cache = createClient();
function fetch(x: string) { return x; }
export async function remote(url: string, method: string) {
  await globalThis.fetch(url);
  await globalThis.fetch(url, { method: "POST", body: "{}" });
  await globalThis.fetch(url, { method });
  await axios.post(url, {});
  const client = await pool.connect();
  await client.query("INSERT INTO t VALUES ($1)", [1]);
  const sql = `SELECT * FROM t WHERE id = ${1}`;
  await pool.query(sql);
  await cache.set("k", "v");
  await cache.get("k");
  await cache.del("k");
  client.release();
  return fetch(url);
}
""",
}


def test_network_clients_follow_constructors_factories_and_imports():
    _, fx, routes = _scan(NETWORK)
    got = [(s.what, s.detail, s.cls, s.world) for s in fx.sites if s.kind == "effect-network"]
    assert got == [
        ("globalThis.fetch", "GET", "read", "open"),
        ("globalThis.fetch", "POST", "unknown", "open"),
        ("globalThis.fetch", "method method", "unknown", "open"),
        ("axios.post", "post", "unknown", "open"),
        ("client.query", "INSERT", "append", "closed"),
        ("pool.query", "SELECT", "read", "closed"),
        ("cache.set", "set", "overwrite", "closed"),
        ("cache.get", "get", "read", "closed"),
        ("cache.del", "del", "delete", "closed"),
    ]  # the local `fetch` and client.release() are not effects
    assert routes["RTE:effect-network:index#remote"].attrs["endpoints"][1] == "network (closed, open world)"


PROCESSES = """\
import { exec, spawn } from "child_process";
import { promisify } from "util";
import { chromium } from "playwright";
import EverThing from "ever-thing";
const run = promisify(exec);
const sdk = new EverThing("key");
export async function work() {
  await run("ls");
  spawn("tar", ["-cf", "x.tar", "."]).on("close", () => undefined);
  const browser = await chromium.launch();
  await sdk.images.create("cat");
}
"""


def test_subprocess_browser_and_uninspected_dependency_calls():
    _, fx, routes = _scan({"index.ts": PROCESSES})
    assert _sites(fx, "effect-subprocess") == [("work", "run", "execute"), ("work", "spawn", "execute")]
    assert _sites(fx, "effect-browser") == [("work", "chromium.launch", "launch")]
    assert _sites(fx, "dependency") == [("work", "sdk.images.create", "call")]
    assert "RTE:effect-subprocess:index#work" in routes and not any(r.startswith("RTE:dependency") for r in routes)


def test_callbacks_inside_a_function_belong_to_it():
    src = 'import { spawn } from "child_process";\nexport function pack() {\n  return new Promise((ok) => {\n    spawn("tar");\n  });\n}\n'
    _, _, routes = _scan({"index.ts": src})
    assert list(routes) == ["RTE:effect-subprocess:index#pack"]


LEAKS = """\
const REDIS_URL = process.argv[2] || "redis://localhost";
const level = process.env.LOG_LEVEL;
export function start() {
  const token = process.env.API_TOKEN;
  const header = `Bearer ${token}`;
  console.error("auth", header);
  console.error("token length", token.length, !token);
  console.error(`level ${level}`);
  process.stderr.write(JSON.stringify(process.env));
}
export function watch(on: (e: string, f: () => void) => void) {
  on("error", () => console.error(`lost ${REDIS_URL}`));
}
"""


def test_secrets_logged_directly_or_through_locals_and_module_constants():
    p, fx, _ = _scan({"index.ts": LEAKS})
    found = {f.id: f for f in secrets.findings(p, fx, effects_kb())}
    assert sorted(found) == ["FND:secret-logged:index#start", "FND:secret-logged:index#watch"]
    start = found["FND:secret-logged:index#start"].attrs["values"]
    assert [(v["source"], v["via"], v["line"]) for v in start] == [
        ("process.env.API_TOKEN", ["token", "header"], line_of(LEAKS, '"auth"')),
        ("process.env", [], line_of(LEAKS, "process.stderr.write"))]  # not the length, not LOG_LEVEL
    watch = found["FND:secret-logged:index#watch"]
    assert watch.attrs["values"][0]["via"] == ["REDIS_URL"]
    assert {a.start_line for a in watch.anchors} == {1, line_of(LEAKS, "lost")}


NOT_SECRETS = """\
import { Command } from "commander";
import { createClient } from "svc";
export function options() {
  const program = new Command().option("--api-key <k>", "key", process.env.API_KEY ?? "").parse(process.argv);
  const opts = program.opts();
  console.error(`invalid tools: ${opts.enabledTools}`);
  console.error(`unknown transport ${opts.transport}`);
}
export function missing() {
  const absent = ["API_KEY", "AWS_SECRET_ACCESS_KEY"].filter((n) => !process.env[n]);
  console.warn(`set ${absent.join(", ")}`);
  if (!process.env.AWS_ACCESS_KEY_ID) console.log("AWS_ACCESS_KEY_ID is not set");
}
export async function connect() {
  const [url, supabaseKey, accessToken] = process.argv.slice(2);
  const client = createClient(url, supabaseKey);
  const { error: authError } = await client.refresh(accessToken);
  console.error("auth error:", authError?.message);
  console.error("token", accessToken.slice(0, 4), accessToken.length);
}
export function files() {
  const keyFile = process.env.API_KEY_FILE;
  const env = process.env;
  console.error(`reading the key from ${keyFile}; port ${env.PORT}; no proxy for ${process.env.NO_PROXY}`);
  console.error(`max ${process.env.MAX_TOKENS}, auth url ${process.env.AUTH_URL}`);
}
"""


def test_secret_logged_needs_the_value_of_a_secret_not_its_name_nor_what_a_call_made_of_it():
    """issue 9, pattern 4: options objects, lists of missing names, error messages, files and counts are no secret."""
    p, fx, _ = _scan({"index.ts": NOT_SECRETS})
    assert secrets.findings(p, fx, effects_kb()) == []


ARGV_ELEMENTS = """\
export function parse() {
  const args = process.argv;
  const command = args[2];
  if (command !== "start") console.error(`unknown command: ${command}`);
  const [, , mode, token] = args;
  console.error(`mode ${mode}`);
  return { command, apiKey: args[3], token };
}
export function leak() {
  const args = process.argv;
  const conf = { apiKey: args[3] };
  console.error(`starting with ${args[3]}`);
  return conf;
}
"""


def test_an_argument_vector_element_is_a_secret_only_at_the_index_the_secret_is_read():
    """The subcommand `args[2]` is logged; the key `args[3]` is not, in `parse`; in `leak` it is."""
    p, fx, _ = _scan({"index.ts": ARGV_ELEMENTS})
    found = {f.id: f for f in secrets.findings(p, fx, effects_kb())}
    assert sorted(found) == ["FND:secret-logged:index#leak"]
    assert [v["source"] for v in found["FND:secret-logged:index#leak"].attrs["values"]] == ["process.argv[3]"]


SECRETS = """\
const PROXY = process.env.HTTPS_PROXY ?? process.env.http_proxy;
const config = { port: process.env.PORT, apiKey: process.env.SERVICE_KEY };
export function proxy() {
  console.error(`proxy ${PROXY} failed`);
}
export function fields(logger: any) {
  console.log(config.port);
  console.log("config", JSON.stringify(config));
  logger.info(`key ${config.apiKey.trim()}`);
}
export function used() {
  const value = process.env.SERVICE_VALUE;
  fetch("https://api.example.com", { headers: { Authorization: `Bearer ${value}` } });
  console.error("using", value);
}
"""


def test_secret_logged_by_name_by_field_and_by_use():
    p, fx, _ = _scan({"index.ts": SECRETS})
    found = {f.id: f for f in secrets.findings(p, fx, effects_kb())}
    assert sorted(found) == ["FND:secret-logged:index#fields", "FND:secret-logged:index#proxy", "FND:secret-logged:index#used"]
    proxy = found["FND:secret-logged:index#proxy"].attrs["values"]
    assert [(v["source"], v["secret"]) for v in proxy] == [("process.env.HTTPS_PROXY", "named `HTTPS_PROXY`"),
                                                            ("process.env.http_proxy", "named `http_proxy`")]
    fields = found["FND:secret-logged:index#fields"].attrs["values"]
    assert [(v["source"], v["sink"], v["line"]) for v in fields] == [  # not config.port
        ("process.env.SERVICE_KEY", "console.log", line_of(SECRETS, "JSON.stringify")),
        ("process.env.SERVICE_KEY", "logger.info", line_of(SECRETS, "logger.info"))]
    used = found["FND:secret-logged:index#used"]
    assert used.attrs["values"][0]["secret"] == "used as `Authorization`"
    assert used.attrs["values"][0]["use_line"] == line_of(SECRETS, "Authorization")
    assert any(a.start_line <= line_of(SECRETS, "Authorization") <= a.end_line for a in used.anchors)


def test_the_working_directory_is_no_secret_though_pwd_abbreviates_password():
    """kb/effects.yaml secret_names.not_secrets: `process.env.PWD` logged is the shell's working directory; a name
    whose words say password (`DB_PWD`) still is one."""
    code = ('const cwd = process.env.PWD;\nconsole.error(`working in ${cwd}`);\n'
            'const dbPwd = process.env.DB_PWD;\nconsole.error(`db password ${dbPwd}`);\n')
    p, fx, _ = _scan({"index.ts": code})
    values = [v["source"] for f in secrets.findings(p, fx, effects_kb()) for v in f.attrs["values"]]
    assert values == ["process.env.DB_PWD"]


def test_public_metadata_and_a_key_file_s_path_are_no_secret():
    """A value published as `authorization_servers` (OAuth metadata: a list of servers, plural of a last word that
    names no secret) and the path of Google's key file (kb not_secrets) are no secret when logged; a key used as
    `apiKeys` still is one."""
    code = ('const issuer = process.env.ISSUER_URL;\nconst meta = { authorization_servers: [issuer] };\n'
            'console.error(`issuer ${issuer}`);\n'
            'const keyFile = process.env.GOOGLE_APPLICATION_CREDENTIALS;\nconsole.log(`using ${keyFile}`);\n'
            'const k = process.env.SERVICE;\nconst client = { apiKeys: [k] };\nconsole.log(`service ${k}`);\n')
    p, fx, _ = _scan({"index.ts": code})
    values = [(v["source"], v["secret"]) for f in secrets.findings(p, fx, effects_kb()) for v in f.attrs["values"]]
    assert values == [("process.env.SERVICE", "used as `apiKeys`")]

def test_a_key_that_names_a_thing_is_no_secret():
    """kb/effects.yaml secret_names.key_names: `COMPONENT_KEYS` (the projects a scanner searches) and `PUBLIC_KEY` logged
    are names, not credentials; `SONAR_KEY` and `PRIVATE_KEY` still are secrets."""
    code = ('const components = process.env.COMPONENT_KEYS;\nconsole.error(`scanning ${components}`);\n'
            'const pub = process.env.PUBLIC_KEY;\nconsole.error(`verify with ${pub}`);\n'
            'const sonar = process.env.SONAR_KEY;\nconsole.error(`key ${sonar}`);\n'
            'const priv = process.env.PRIVATE_KEY;\nconsole.error(`sign with ${priv}`);\n')
    p, fx, _ = _scan({"index.ts": code})
    values = sorted(v["source"] for f in secrets.findings(p, fx, effects_kb()) for v in f.attrs["values"])
    assert values == ["process.env.PRIVATE_KEY", "process.env.SONAR_KEY"]


def test_a_variable_parsed_as_a_number_is_no_secret_whatever_its_words():
    """kb/effects.yaml secret_names.numeric_parsers: `MCP_CHARS_PER_TOKEN`, parsed with parseFloat, is a number of
    characters; echoed when it does not parse, it is no secret. `API_TOKEN`, never parsed as a number, still is."""
    code = ('const cpt = parseFloat(process.env.MCP_CHARS_PER_TOKEN ?? "4");\n'
            'if (isNaN(cpt)) console.warn(`Invalid MCP_CHARS_PER_TOKEN (${process.env.MCP_CHARS_PER_TOKEN})`);\n'
            'console.error(`token ${process.env.API_TOKEN}`);\n')
    p, fx, _ = _scan({"index.ts": code})
    values = [v["source"] for f in secrets.findings(p, fx, effects_kb()) for v in f.attrs["values"]]
    assert values == ["process.env.API_TOKEN"]


def test_a_variable_compared_with_a_switch_s_word_is_no_secret_whatever_its_words():
    """kb/effects.yaml secret_names.switch_values: `LAZY_AUTH`, compared with "false" where it is read, is an on/off
    setting; logged, it is no secret. `AUTH_TOKEN`, compared with nothing, still is."""
    code = ('const lazy = process.env.LAZY_AUTH !== "false";\n'
            'const strict = process.env.STRICT_AUTH?.toLowerCase() === "true";\n'
            'console.error(`LAZY_AUTH: ${process.env.LAZY_AUTH || "not set"} ${process.env.STRICT_AUTH}`);\n'
            'console.error(`token ${process.env.AUTH_TOKEN}`);\n')
    p, fx, _ = _scan({"index.ts": code})
    values = [v["source"] for f in secrets.findings(p, fx, effects_kb()) for v in f.attrs["values"]]
    assert values == ["process.env.AUTH_TOKEN"]


def test_a_variable_a_file_is_read_at_is_a_path_whatever_its_words():
    """A file read of kb/effects.yaml (the filesystem provider): `SSH_PRIVATE_KEY` read as a file's path (through
    copies of it, when it holds no key itself) is the path of the key file; logged when the read fails, it is no
    secret. `SSH_PASSPHRASE`, never a file's path, still is one."""
    code = ('import { readFileSync } from "fs";\n'
            'const config = { key: process.env.SSH_PRIVATE_KEY || "", phrase: process.env.SSH_PASSPHRASE };\n'
            'export function load() {\n  let content = config.key;\n'
            '  if (content && !content.includes("BEGIN")) {\n'
            '    try { content = readFileSync(content, "utf-8"); }\n'
            '    catch (e) { console.error(`Failed to read the key at ${config.key}:`, e); }\n  }\n'
            '  console.error(`phrase ${config.phrase}`);\n  return content;\n}\n')
    p, fx, _ = _scan({"index.ts": code})
    values = [v["source"] for f in secrets.findings(p, fx, effects_kb()) for v in f.attrs["values"]]
    assert values == ["process.env.SSH_PASSPHRASE"]


def test_a_computed_variable_name_and_a_value_overwritten_before_the_log_are_no_secret():
    """`process.env[key]` in a helper: the name is computed at run time, no name to judge (its use may still tell);
    `token = randomUUID()` before the log in the same block: the log shows that value, not the configured one. A
    secret logged before it is overwritten still is one."""
    code = ('export function envNumber(key: string, fallback: number) {\n'
            '  const value = process.env[key];\n'
            '  if (value && isNaN(Number(value))) console.warn(`Invalid ${key}=${value}`);\n'
            '  return value ? Number(value) : fallback;\n}\n'
            'export function start(given?: string) {\n'
            '  let token = given || process.env.AUTH_TOKEN;\n'
            '  if (!token) {\n'
            '    token = crypto.randomUUID();\n'
            '    console.error(`generated token ${token}`);\n'
            '  }\n'
            '  console.error(`using token ${token}`);\n'
            '  return token;\n}\n')
    p, fx, _ = _scan({"index.ts": code})
    found = [(f.id, f.anchors[-1].start_line) for f in secrets.findings(p, fx, effects_kb())]
    assert found == [("FND:secret-logged:index#start", line_of(code, "using token"))]


def test_a_name_declared_again_in_a_block_or_bound_by_a_catch_is_another_value():
    """A minifier's `let a = process.env.STORAGE_KEY; try { ... } catch (b) { let a = b.message; console.error(a) }`:
    the log shows the error's message, not the key; so does `catch (a) { console.error(a) }`. The key logged in the
    block that declares it, or a block declaring it again from the key, still is one."""
    code = ('export function derive() {\n'
            '  let a = process.env.STORAGE_KEY;\n'
            '  if (!a) return null;\n'
            '  try {\n    return a.length;\n  } catch (b) {\n'
            '    let a = b instanceof Error ? b.message : String(b);\n'
            '    console.error(`Failed to derive key from STORAGE_KEY: ${a}`);\n'
            '    return null;\n  }\n}\n'
            'export function other() {\n'
            '  const a = process.env.STORAGE_KEY;\n'
            '  try {\n    return a.length;\n  } catch (a) {\n    console.error(a);\n    return 0;\n  }\n}\n')
    p, fx, _ = _scan({"index.ts": code})
    assert secrets.findings(p, fx, effects_kb()) == []
    again = code.replace("let a = b instanceof Error ? b.message : String(b);", "let a = process.env.STORAGE_KEY + b;")
    p, fx, _ = _scan({"index.ts": again})
    assert [f.id for f in secrets.findings(p, fx, effects_kb())] == ["FND:secret-logged:index#derive"]
    shown = code.replace("  if (!a) return null;\n", "  if (!a) return null;\n  console.error(`key ${a}`);\n", 1)
    p, fx, _ = _scan({"index.ts": shown})
    assert [(f.id, f.anchors[-1].start_line) for f in secrets.findings(p, fx, effects_kb())] == \
        [("FND:secret-logged:index#derive", line_of(shown, "console.error(`key"))]


def test_a_copy_whose_secret_member_is_redacted_before_the_log_is_no_secret():
    """`const shown = { ...config }; if (shown.PASSWORD) shown.PASSWORD = "[REDACTED]"; log(shown)`: the log shows the
    redaction; a copy redacted under another test still shows the secret."""
    code = ('const config = { USER: process.env.APP_USER, PASSWORD: process.env.APP_PASSWORD || process.env.APP_PASS };\n'
            'const shown = { ...config };\n'
            'if (shown.PASSWORD) shown.PASSWORD = "[REDACTED]";\n'
            'console.error(`config ${JSON.stringify(shown, null, 2)}`);\n')
    p, fx, _ = _scan({"index.ts": code})
    assert secrets.findings(p, fx, effects_kb()) == []
    other = code.replace("if (shown.PASSWORD)", "if (process.env.DEBUG)")
    p, fx, _ = _scan({"index.ts": other})
    found = [(f.id, f.anchors[-1].start_line) for f in secrets.findings(p, fx, effects_kb())]
    assert found == [("FND:secret-logged:index#<module>", line_of(other, "console.error"))]


def test_a_parameter_or_local_of_an_inner_function_shadows_a_tainted_name():
    """Minified code reuses `A` in every function: `const A = process.env.SERVICE` outside, and an arrow's own `A`
    used as `{ key: A }` inside, are two values; the outer one logged is no secret by the inner one's use. The outer
    name used inside a function that binds no `A` of its own still is the same value."""
    code = ('function r() {\n  const A = process.env.SERVICE;\n  console.log(`service ${A}`);\n'
            '  const items = [1, 2].map((A) => ({ key: A }));\n'
            '  const other = () => { const A = "x"; return { key: A }; };\n  return [items, other];\n}\n')
    p, fx, _ = _scan({"index.ts": code})
    assert [f.id for f in secrets.findings(p, fx, effects_kb())] == []
    same = code.replace("map((A) => ({ key: A }))", "map((B) => ({ key: A }))")
    p, fx, _ = _scan({"index.ts": same})
    values = [(v["source"], v["secret"]) for f in secrets.findings(p, fx, effects_kb()) for v in f.attrs["values"]]
    assert values == [("process.env.SERVICE", "used as `key`")]


def test_the_left_of_a_conjunction_is_not_the_value_logged():
    """`const r = process.env && process.env[opts.levelVar] || undefined; console.error(`bad level ${r}`)`: the
    value is the one variable (process.env is never falsy), not the whole environment; `process.env || {}` is."""
    code = ('function make(opts: any) {\n'
            '  const r = typeof process !== "undefined" && process.env && process.env[opts.levelVar] || undefined;\n'
            '  if (r) console.error(`unknown log level ${r}`);\n}\n')
    p, fx, _ = _scan({"index.ts": code})
    assert [f.id for f in secrets.findings(p, fx, effects_kb())] == []
    whole = code.replace("process.env && process.env[opts.levelVar] || undefined", "process.env || {}")
    p, fx, _ = _scan({"index.ts": whole})
    assert [f.id for f in secrets.findings(p, fx, effects_kb())] == ["FND:secret-logged:index#make"]


def test_a_member_taken_out_of_a_secret_named_holder_is_judged_by_its_own_names():
    """`jwtConfig` names the object, not each value in it: its tenant id logged on its own is no secret; its signing
    key is (by its own name), and so is the whole object when it is logged with the key inside."""
    code = ('const jwtConfig = { tenantId: process.env.JWT_TENANT_ID, signingKey: process.env.JWT_SIGNING_KEY };\n'
            'export function announce() {\n  console.error(`auth on (tenant: ${jwtConfig.tenantId})`);\n}\n'
            'export function leakKey() {\n  console.error("key", jwtConfig.signingKey);\n}\n'
            'export function dump() {\n  console.error(jwtConfig);\n}\n')
    p, fx, _ = _scan({"index.ts": code})
    found = sorted(f.id for f in secrets.findings(p, fx, effects_kb()))
    assert found == ["FND:secret-logged:index#dump", "FND:secret-logged:index#leakKey"]


def test_a_key_naming_a_record_makes_no_secret_of_what_the_record_holds():
    """`auth: { clientId, authority: `https://login/${tenant}`, clientSecret }`: `auth` names the record, and each of
    its values is judged by its own key: the tenant in the authority's address is no secret when logged, the client
    secret is one."""
    code = ('const tenant = process.env.TENANT_ID || "common";\nconst s = process.env.CLIENT_SHHH;\n'
            'console.log(`tenant ${tenant}`);\nconsole.log(`s ${s}`);\n'
            'const config = { auth: { clientId: "x", authority: `https://login/${tenant}`, clientSecret: s } };\n')
    p, fx, _ = _scan({"index.ts": code})
    values = [(v["source"], v["secret"]) for f in secrets.findings(p, fx, effects_kb()) for v in f.attrs["values"]]
    assert values == [("process.env.CLIENT_SHHH", "used as `clientSecret`")]
