"""The two probes of who the caller is (kb/absences.yaml no-caller-authorization, no-caller-partition): evaluator
`names` of analyse/absences.py, on servers of our own, in memory."""

from __future__ import annotations

from auditor import kb
from auditor.analyse import absences
from program_helpers import KB, SDK, program

PROBES = kb.load(KB, "absences")

PLAIN = SDK + """\
const notes: string[] = [];
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  notes.push(String(request.params.arguments?.text));
  return { content: [{ type: "text", text: "ok" }] };
});
"""

GUARDED = SDK + """\
const notes = new Map<string, string[]>();
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  if (!extra.authInfo?.scopes.includes("notes:write")) throw new Error("forbidden");
  const { sessionId } = extra;
  notes.set(sessionId ?? "", [String(request.params.arguments?.text)]);
  return { content: [{ type: "text", text: "ok" }] };
});
"""


def _status(files):
    got = {r.id.rsplit(":", 1)[1]: r for r in absences.absences(program(files), PROBES)}
    return got["no-caller-authorization"], got["no-caller-partition"]


def test_a_server_that_never_names_its_caller_holds_both_absences():
    auth, part = _status({"index.ts": PLAIN})
    assert auth.attrs["status"] == "holds" and part.attrs["status"] == "holds"
    assert "authInfo" in auth.attrs["boundary"]["query"]  # the search is named, not only its result


def test_authinfo_scopes_and_session_ids_are_hits_with_their_lines():
    auth, part = _status({"index.ts": GUARDED})
    assert auth.attrs["status"] == "does not hold" and part.attrs["status"] == "does not hold"
    line = next(i for i, ln in enumerate(GUARDED.splitlines(), 1) if "authInfo?.scopes" in ln)
    assert {(h["what"], h["anchor"]["start_line"]) for h in auth.attrs["hits"]} == {
        ("reads authInfo", line), ("reads scopes", line)}
    assert {h["what"] for h in part.attrs["hits"]} == {"reads authInfo", "destructures sessionId"}


def test_undeclared_capabilities_are_unknown_when_the_capabilities_are_not_a_literal():
    def status(caps: str) -> str:
        files = {"index.ts": PLAIN.replace("{ capabilities: { tools: {} } }", caps)}
        got = {r.id.rsplit(":", 1)[1]: r for r in absences.absences(program(files), PROBES)}
        return got["undeclared-capabilities"].attrs["status"]
    assert status("{ capabilities: { tools: {} } }") == "holds"  # resources and prompts are not declared
    assert status("{ capabilities: makeCapabilities() }").startswith("unknown (the capabilities of `server` at index.ts:")
