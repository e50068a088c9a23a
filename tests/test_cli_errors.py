"""Input errors: exit status 2, exactly one `auditor: error:` line naming the culprit, no traceback,
nothing written. Run as real processes so that stderr and the exit status are the real ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from contract_helpers import init_repo, ledger_files, proc


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("errors") / "repo"
    head = init_repo(root, ledger_files("srv/"))
    return root, head


def assert_input_error(result, *named: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {lines!r}"
    assert lines[0].startswith("auditor: error: "), lines[0]
    assert "Traceback" not in result.stderr
    for word in named:
        assert word in lines[0], f"{word!r} not named in {lines[0]!r}"
    assert result.stdout == ""


def assert_nothing_written(out: Path, existed: bool) -> None:
    if existed:
        assert list(out.iterdir()) == [], f"files written to {out}: {list(out.iterdir())}"
    else:
        assert not out.exists(), f"{out} was created"


@pytest.fixture(params=[False, True], ids=["out-missing", "out-empty"])
def out(request, tmp_path) -> tuple[Path, bool]:
    path = tmp_path / "out"
    if request.param:
        path.mkdir()
    return path, request.param


def test_not_a_git_repository(tmp_path, out, monkeypatch):
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "index.ts").write_text("export const x = 1;\n")
    # Never let git walk up into an enclosing repository from tmp_path.
    env = {"GIT_CEILING_DIRECTORIES": str(tmp_path)}
    result = proc("audit", plain, "--out", out[0], "--format", "json", env=env)
    assert_input_error(result, str(plain), "not a git repository")
    assert_nothing_written(*out)


def test_folder_inside_a_work_tree_is_not_a_repository(repo, out):
    # git would otherwise find the enclosing repository and audit its whole tree under this name.
    root, _ = repo
    result = proc("audit", root / "srv", "--out", out[0])
    assert_input_error(result, str(root / "srv"), "--subtree srv")
    assert_nothing_written(*out)


def test_nonexistent_path(tmp_path, out):
    missing = tmp_path / "no" / "such" / "repo"
    result = proc("audit", missing, "--out", out[0])
    assert_input_error(result, str(missing))
    assert_nothing_written(*out)


def test_unknown_revision(repo, out):
    root, _ = repo
    result = proc("audit", root, "--revision", "no-such-rev-0123", "--subtree", "srv", "--out", out[0])
    assert_input_error(result, str(root), "no-such-rev-0123")
    assert_nothing_written(*out)


def test_subtree_missing_at_revision(repo, out):
    root, head = repo
    result = proc("audit", root, "--revision", head[:10], "--subtree", "src/elsewhere", "--out", out[0])
    assert_input_error(result, str(root), "src/elsewhere", head[:10])
    assert_nothing_written(*out)


def test_subtree_that_is_a_file_prefix_is_missing(repo, out):
    # `srv/index` is a prefix of `srv/index.ts`, not a folder: it must not match.
    root, _ = repo
    result = proc("audit", root, "--subtree", "srv/index", "--out", out[0])
    assert_input_error(result, "srv/index")
    assert_nothing_written(*out)


def test_npm_target_with_subtree(out):
    # Rejected before any `npm pack`: no network is needed for this error.
    result = proc("audit", "npm:left-pad@1.3.0", "--subtree", "lib", "--out", out[0])
    assert_input_error(result, "--subtree", "npm")
    assert_nothing_written(*out)


@pytest.mark.parametrize("spec", ["npm:", "npm:--help", "npm:@scope", "npm: left-pad"])
def test_npm_target_that_names_no_package(spec, out):
    # Rejected before any `npm pack` (which would read an option, or fetch an unrelated package).
    result = proc("audit", spec, "--out", out[0])
    assert_input_error(result, spec, "npm:NAME@VERSION")
    assert_nothing_written(*out)


def test_npm_failure_names_what_went_wrong():
    from auditor.npm import _npm_reason

    stderr = (b"npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/zz9\nnpm error 404\n"
              b"npm error A complete log of this run can be found in: /root/.npm/_logs/x.log\n")
    assert _npm_reason(stderr) == "404 Not Found - GET https://registry.npmjs.org/zz9"
    assert _npm_reason(b"npm ERR! code ETARGET\nnpm ERR! notarget No matching version found for a@9.\n") == \
        "notarget No matching version found for a@9."
    assert _npm_reason(b"") == "no message"


def test_main_help():
    result = proc("--help")
    assert result.returncode == 0, result.stderr
    for word in ("audit", "check-kb", "Exit status"):
        assert word in result.stdout


def test_audit_help():
    result = proc("audit", "--help")
    assert result.returncode == 0, result.stderr
    for word in ("TARGET", "npm:NAME@VERSION", "--revision", "--subtree", "--out", "--format", "--check", "--quiet",
                 "bare"):
        assert word in result.stdout, word


def test_out_below_a_file_is_an_input_error_and_leaves_nothing(repo, tmp_path):
    root, _ = repo
    (tmp_path / "file").write_text("not a folder\n", encoding="utf-8")
    result = proc("audit", root, "--subtree", "srv", "--out", tmp_path / "file" / "out", "-q")
    assert_input_error(result, str(tmp_path / "file" / "out"), "cannot write reports")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]  # no staging folder left beside it


def test_check_against_a_file_that_is_not_utf8_reports_drift(repo, tmp_path):
    root, _ = repo
    dest = tmp_path / "out"
    assert proc("audit", root, "--subtree", "srv", "--out", dest, "-q", "--format", "json").returncode == 0
    (dest / "audit.json").write_bytes(b"\xff\xfe not UTF-8")
    result = proc("audit", root, "--subtree", "srv", "--out", dest, "-q", "--format", "json", "--check")
    assert result.returncode == 1 and f"drift: {dest / 'audit.json'} differs" in result.stderr
