"""The default findings that were noisy on servers nobody tuned for: unpinned-launch and unused-dependency."""

from __future__ import annotations

import pytest

from auditor.analyse import mismatches
from program_helpers import program

SERVER = ('import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
          'import { z } from "zod";\n'
          'import { readFileSync } from "node:fs";\n'
          'const server = new McpServer({ name: "demo", version: "1" });\n'
          'server.registerTool("ping", { description: "Ping", inputSchema: { x: z.string() } }, async () => ({ content: [] }));\n')


@pytest.mark.parametrize("command, args, spec", [
    ("npx", ["-y", "demo-server"], "demo-server"),
    ("npx", ["demo-server@1.2.3", "--flag"], "demo-server@1.2.3"),
    ("npx", ["-p", "demo-server@2", "demo"], "demo-server@2"),
    ("bunx", ["@scope/demo"], "@scope/demo"),
    ("pnpm", ["dlx", "demo-server"], "demo-server"),
    ("npm", ["exec", "demo-server"], "demo-server"),
    ("yarn", ["add", "demo-server"], None),
    ("pnpm", ["--filter", "demo-server", "build"], None),
    ("npm", ["install", "-g", "demo-server"], None),
    ("node", ["dist/index.js"], None),
    ("docker", ["run", "-i", "demo/server"], None),
])
def test_the_package_a_command_launches(command, args, spec):
    assert mismatches.launched_package(command, args) == spec


def test_unpinned_launch_only_for_commands_that_run_this_package_with_no_version():
    readme = ("# demo\n\n```sh\nyarn add demo-server\npnpm --filter demo-server build\nnpx demo-server@1.2.3\n```\n\n"
              "```json\n{\"mcpServers\": {\"demo\": {\"command\": \"npx\", \"args\": [\"-y\", \"demo-server\"]}}}\n```\n\n"
              "```sh\nnpx demo-server@latest\nnpx other-server\n```\n")
    p = program({"index.ts": SERVER, "README.md": readme,
                 "package.json": '{"name": "demo-server", "dependencies": {"@modelcontextprotocol/sdk": "1", "zod": "3"}}'})
    found = [f for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "unpinned-launch"]
    assert sorted((f.anchors[0].start_line, f.attrs["args"][-1]) for f in found) == [(9, "demo-server"), (13, "demo-server@latest")]


def test_type_packages_count_as_used_with_what_they_type():
    manifest = ('{"name": "demo", "scripts": {"start": "node -r dotenv/config dist/index.js", "dev": "tsx src/index.ts"},'
                ' "dependencies": {"@modelcontextprotocol/sdk": "1", "zod": "3", "@types/node": "20", "@types/zod": "1",'
                ' "@types/scope__lib": "1", "@types/express": "4", "dotenv": "16", "tsx": "4", "left-pad": "1"}}')
    p = program({"index.ts": SERVER, "package.json": manifest})
    unused = sorted(f.attrs["dependency"] for f in mismatches.mismatches(p, {"probes": []}) if f.kind == "unused-dependency")
    assert unused == ["@types/express", "@types/scope__lib", "left-pad"]
