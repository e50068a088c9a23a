"""The parse/index cache: hits only for the same (blob, path, module name, language), bounded, and invisible in output."""

from __future__ import annotations

import json

import pytest

from auditor.extract import cache, parse, program
from auditor.target import git_blob_hash
from contract_helpers import audit, cli, commit, init_repo, ledger_files

SRC = b"export const a = 1;\nexport function f(x: number) { return x + a; }\n"


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.configure()
    yield
    cache.configure()


def _lookup(path: str = "src/a.ts", name: str = "a", data: bytes = SRC, lang: str = "typescript"):
    blob = git_blob_hash(data)
    tree = cache.tree(blob, path, name, lang, data)
    return tree, cache.module(blob, path, name, lang, tree)


def test_same_key_parses_and_indexes_once():
    t1, m1 = _lookup()
    t2, m2 = _lookup()
    assert t1 is t2 and m1 is m2
    assert cache.stats().hits == 1 and cache.stats().misses == 1
    assert m1.path == "src/a.ts" and m1.name == "a" and "f" in m1.functions


def test_every_part_of_the_key_matters():
    base, _ = _lookup()
    for kwargs in ({"path": "src/b.ts"}, {"name": "b"}, {"lang": "tsx"}, {"data": SRC + b"\n"}):
        tree, module = _lookup(**kwargs)
        assert tree is not base
    assert cache.stats().misses == 5 and cache.stats().hits == 0


def test_a_blob_hash_that_does_not_match_the_bytes_is_not_trusted():
    tree, _ = _lookup()
    other = SRC.replace(b"1", b"2")
    t2 = cache.tree(git_blob_hash(SRC), "src/a.ts", "a", "typescript", other)
    assert t2 is not tree and t2.root_node.text == other
    assert cache.module(git_blob_hash(SRC), "src/a.ts", "a", "typescript", t2).tree is t2


def test_cached_module_equals_a_fresh_build():
    _, cached = _lookup()
    fresh = program.build("src/a.ts", "a", parse.parse(SRC, "typescript"), "typescript")
    assert sorted(cached.functions) == sorted(fresh.functions) and sorted(cached.toplevel) == sorted(fresh.toplevel)
    assert {k: [n.start_byte for n in v] for k, v in cached.caps.items()} == \
           {k: [n.start_byte for n in v] for k, v in fresh.caps.items()}


def test_bounded_by_entries_and_bytes_least_recently_used_first():
    cache.configure(max_entries=2)
    first, _ = _lookup(path="1.ts")
    _lookup(path="2.ts")
    _lookup(path="1.ts")  # 1 is now the most recent
    _lookup(path="3.ts")  # evicts 2
    assert cache.stats().entries == 2
    assert _lookup(path="1.ts")[0] is first
    misses = cache.stats().misses
    _lookup(path="2.ts")
    assert cache.stats().misses == misses + 1
    cache.configure(max_bytes=len(SRC) * 2)
    for i in range(5):
        _lookup(path=f"{i}.ts")
    assert cache.stats().entries == 2 and cache.stats().bytes == len(SRC) * 2


def test_zero_entries_disables_caching():
    cache.configure(max_entries=0)
    t1, m1 = _lookup()
    t2, m2 = _lookup()
    assert t1 is not t2 and m1 is not m2 and cache.stats().entries == 0


def test_second_revision_reparses_only_changed_files_and_output_is_unchanged(tmp_path):
    repo = tmp_path / "repo"
    files = ledger_files()
    first = init_repo(repo, {**files, "extra.ts": "export const extra = 1;\n"})
    second = commit(repo, {"extra.ts": "export const extra = 2;\n"}, "change one file")
    cold = audit(repo, tmp_path / "cold", "--revision", second)
    cache.configure()
    cold_misses = cache.stats().misses
    both = tmp_path / "both"
    result = cli("audit", repo, "--revision", first, "--revision", second, "--out", both, "-q", "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    scripts = sum(1 for name in [*files, "extra.ts"] if name.endswith(".ts"))
    after = cache.stats()
    assert after.misses - cold_misses == scripts + 1  # every script at the first revision, then extra.ts only
    assert after.hits == scripts - 1
    assert after.entries == 0  # emptied once the subtree's revisions are done: memory stays bounded
    assert sorted(p.name for p in both.iterdir()) == sorted([first, second, "index.json", "index.md", ".auditor-manifest.json"])
    warm = json.loads((both / second / "audit.json").read_text(encoding="utf-8"))
    assert json.dumps(warm) == json.dumps(cold)
