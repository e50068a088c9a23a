"""Names and code of the audited repository reach the terminal and the reports inert: no escape sequence, bell,
carriage return, bidi override or newline of theirs is written raw (auditor/safetext.py)."""

from __future__ import annotations

import json
import os

from contract_helpers import commit, init_repo, ledger_files, proc

RAW = ("\x1b", "\x07", "\r", "\u202e", "\u2066", "\x9b")
EVIL = "x\x1b]0;pwned\x07\x1b[2J\u202eyrt\u2066\x9b\nauditor: wrote everything to etc"


def _repo(tmp_path):
    repo = tmp_path / "repo"
    init_repo(repo, ledger_files("srv/"))
    # A file named with escape sequences, a bidi override and a newline, not valid UTF-8 (a coverage gap, so
    # stderr names it), whose code quotes the same characters.
    body = f'export const banner = "{EVIL}";\n// caf\xe9\n'.encode("utf-8", "surrogateescape").replace(b"\xc3\xa9", b"\xe9")
    with open(os.path.join(os.fsencode(repo / "srv"), f"{EVIL}.ts".encode("utf-8")), "wb") as fh:
        fh.write(body)
    commit(repo, {}, "an evil file")
    return repo


def test_terminal_lines_show_control_and_bidi_characters_visibly(tmp_path):
    repo = _repo(tmp_path)
    result = proc("audit", repo, "--subtree", "srv", "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    for ch in RAW:
        assert ch not in result.stderr, repr(ch)
    lines = result.stderr.splitlines()
    assert all(line.startswith("auditor: ") for line in lines), lines  # no line faked by a newline in a name
    assert any("\\x1b]0;pwned\\x07" in line and "<U+202E>" in line for line in lines), lines


def test_reports_show_control_and_bidi_characters_visibly(tmp_path):
    repo = _repo(tmp_path)
    out = tmp_path / "out"
    result = proc("audit", repo, "--subtree", "srv", "--out", out)
    assert result.returncode == 0, result.stderr
    for name in ("evidence-packet.md", "runtime-baseline.md", "epistemic-ledger.md"):
        text = (out / name).read_text(encoding="utf-8")
        for ch in RAW:
            assert ch not in text, (name, repr(ch))
    packet = (out / "evidence-packet.md").read_text(encoding="utf-8")
    assert "<U+202E>" in packet and "\\x1b" in packet
    doc = json.loads((out / "audit.json").read_text(encoding="utf-8"))  # the JSON keeps the name as data
    assert any(f["path"].startswith("srv/x\x1b]0;pwned") for f in doc["coverage"]["files"])
