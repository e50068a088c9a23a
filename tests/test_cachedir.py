"""The auditor's own cache (kb files found valid, compiled templates): a speed-up that never changes a result."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from auditor import cachedir, kb

KB = kb.default_kb_dir()


@pytest.fixture
def cache_at(monkeypatch):
    def use(value: str | None):
        if value is None:
            monkeypatch.delenv("AUDITOR_CACHE_DIR", raising=False)
        else:
            monkeypatch.setenv("AUDITOR_CACHE_DIR", value)
        cachedir.folder.cache_clear()
    yield use
    cachedir.folder.cache_clear()


def _copy_kb(tmp_path: Path) -> Path:
    dest = tmp_path / "kb"
    shutil.copytree(KB, dest)
    return dest


def test_a_stamped_file_that_changes_is_validated_again(tmp_path, cache_at):
    cache_at(str(tmp_path / "cache"))
    copy = _copy_kb(tmp_path)
    data, problems = kb.validate_file(copy / "lens.yaml", "lens", copy)
    assert problems == [] and data
    assert len(list((tmp_path / "cache").rglob("kb-valid/*"))) == 1
    text = (copy / "lens.yaml").read_text(encoding="utf-8")
    (copy / "lens.yaml").write_text(text + "\nunexpected_key: 1\n", encoding="utf-8")
    _, problems = kb.validate_file(copy / "lens.yaml", "lens", copy)
    assert [p.field for p in problems] == ["unexpected_key"]


def test_a_changed_schema_is_a_new_key(tmp_path, cache_at):
    cache_at(str(tmp_path / "cache"))
    copy = _copy_kb(tmp_path)
    assert kb.validate_file(copy / "lens.yaml", "lens", copy)[1] == []
    schema = copy / "schema" / "lens.schema.yaml"
    # The top-level `required` changed in place (a second `required:` key would be a duplicate key: refused).
    text = schema.read_text(encoding="utf-8")
    assert "\nrequired: [" in text
    schema.write_text(text.replace("\nrequired: [", "\nrequired: [no_such_field, ", 1), encoding="utf-8")
    kb.load_schema.cache_clear()
    kb._validator.cache_clear()
    try:
        _, problems = kb.validate_file(copy / "lens.yaml", "lens", copy)
    finally:
        kb.load_schema.cache_clear()
        kb._validator.cache_clear()
    assert problems and "no_such_field" in problems[0].message


def test_empty_setting_turns_the_cache_off(tmp_path, cache_at, monkeypatch):
    cache_at("")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cachedir.folder("kb-valid") is None
    assert kb.validate_file(KB / "lens.yaml", "lens", KB)[1] == []
    assert not (tmp_path / "home").exists()


def test_default_folder_follows_xdg(tmp_path, cache_at, monkeypatch):
    cache_at(None)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cachedir.folder("templates") == tmp_path / "xdg" / "auditor" / cachedir.__version__ / "templates"


def test_a_folder_that_cannot_be_made_is_not_used(tmp_path, cache_at):
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    cache_at(str(tmp_path / "file" / "cache"))
    assert cachedir.folder("kb-valid") is None
    assert kb.validate_file(KB / "lens.yaml", "lens", KB)[1] == []
