"""Entry files of the coverage ledger: the manifest's bin and main, and the files its scripts run."""

from __future__ import annotations

from auditor.analyse import coverage
from program_helpers import SDK, program

SERVER = SDK + '''
export function createServer() {
  return new Server({ name: "two-doors", version: "1.0.0" }, { capabilities: { tools: {} } });
}
'''
STDIO = 'import { createServer } from "./server.js";\nawait createServer().connect(new StdioServerTransport());\n'
HTTP = 'import { createServer } from "./server.js";\nexport const app = createServer();\n'
MANIFEST = '''{"name": "two-doors", "version": "1.0.0", "bin": {"two-doors": "dist/index.js"},
 "scripts": {"build": "tsc && shx chmod +x dist/*.js", "start": "node dist/index.js",
             "start:http": "node --enable-source-maps dist/http.js --port 3001", "test": "node --test dist/x.test.js"}}'''


def test_files_run_by_the_manifest_scripts_are_entries():
    p = program({"src/index.ts": STDIO, "src/http.ts": HTTP, "src/server.ts": SERVER, "src/orphan.ts": "export const x = 1;\n",
                 "package.json": MANIFEST})
    ledger = coverage.ledger(p)
    assert ledger["entries"] == ["src/index.ts", "src/http.ts"]
    status = {f["path"]: f["status"] for f in ledger["files"]}
    assert status == {"src/index.ts": "analysed", "src/http.ts": "analysed", "src/server.ts": "analysed",
                      "src/orphan.ts": "not reached, holds no server code", "package.json": "read"}
