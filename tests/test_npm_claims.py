"""Verdicts on the published baseline agree with the seed lens's claim-versus-route comparison (block 5)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from auditor.cli import main

# Seed lens block 5, claim by claim (kb/claims/sequentialthinking.yaml names each seed record).
EXPECTED = {
    "generates-hypothesis": "unsupported",      # CLM-1 (a)
    "verifies-hypothesis": "unsupported",       # CLM-1 (b)
    "repeats-until-satisfied": "unsupported",   # CLM-1 (c)
    "correct-answer": "contradicted",           # CLM-1 (d): no answer slot in the result
    "generate-and-verify": "unsupported",       # CLM-1, README instance (EPI-CORR-2)
    "revise-thoughts": "partial",               # CLM-2: label only
    "branch-paths": "partial",                  # CLM-3: bookkeeping only
    "adjust-total": "partial",                  # CLM-4: upward only
    "maintain-context": "partial",              # CLM-5: retention without read-back
    "filter-irrelevant": "unsupported",         # CLM-6
    "structured-thinking-tool": "supported",    # CLM-7: literal reading
    "tool-name": "contradicted",                # packet CLM-9 / CMP-2/a1
    "adapt-and-evolve": "out-of-boundary",      # packet CLM-10
    "package-description": "supported",         # SRC-3:4
}


@pytest.fixture(scope="module")
def audit(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("npm-claims")
    result = CliRunner().invoke(main, ["audit", "npm:@modelcontextprotocol/server-sequential-thinking@0.6.2",
                                       "--out", str(out), "--format", "json", "-q"])
    assert result.exit_code == 0, result.output
    return json.loads((out / "audit.json").read_text(encoding="utf-8"))


@pytest.mark.network
def test_verdicts_match_the_seed_lens(audit):
    got: dict[str, set[str]] = {}
    for c in audit["claims"]:
        if "registry" not in c:
            continue  # README and annotation claims found without a registry (analyse/generic.py, annotations.py)
        got.setdefault(c["id"].split(":", 1)[1].split("@", 1)[0], set()).add(c["verdict"])
    assert got == {k: {v} for k, v in EXPECTED.items()}


@pytest.mark.network
def test_a_quote_in_two_channels_is_two_claims(audit):
    ids = {c["id"] for c in audit["claims"]}
    assert {"CLM:maintain-context@readme:README.md", "CLM:maintain-context@tool-description:sequentialthinking"} <= ids
    assert {"CLM:generates-hypothesis@tool-description:sequentialthinking", "CLM:generate-and-verify@readme:README.md"} <= ids


@pytest.mark.network
def test_relabelled_instructions_and_stripped_hedges(audit):
    kinds = [f["kind"] for f in audit["advisories"]]  # wording heuristics: advisories (kb/findings.yaml)
    assert kinds.count("relabelled-instruction") == 4
    hedged = [f for f in audit["advisories"] if f["kind"] == "hedge-stripped"]
    assert sorted(h for f in hedged for h in f["hedges"]) == ["ideally", "when appropriate"]
    parts = {o["id"] for o in audit["objects"] if o["kind"] == "description-part"}
    assert {"OBJ:description-part:sequentialthinking/assertive", "OBJ:description-part:sequentialthinking/directive"} <= parts
