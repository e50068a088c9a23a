"""Load kb/ YAML files, validated against their checked-in JSON Schemas, with located errors."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from auditor import cachedir
from auditor.errors import AuditorError


@dataclass(frozen=True, kw_only=True, slots=True)
class KbProblem:
    path: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.field}: {self.message}"


def default_kb_dir() -> Path:
    """$AUDITOR_KB; else, run from a source (or editable) checkout, its kb/; else the kb built into the
    installed package (auditor/_kb/, from kb/ by setup.py)."""
    env = os.environ.get("AUDITOR_KB")
    if env:
        return Path(env)
    package = Path(__file__).resolve().parent
    checkout = package.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "kb").is_dir():
        return checkout / "kb"
    return package / "_kb"


def _line_of(node: yaml.Node | None, path: list) -> int:
    """Line (1-based) of the YAML node at `path` (keys and indexes), or of its nearest parent."""
    line = node.start_mark.line + 1 if node is not None else 1
    for step in path:
        if isinstance(node, yaml.MappingNode):
            nxt = next((v for k, v in node.value if k.value == step), None)
            if nxt is None:
                return line
            key = next(k for k, v in node.value if v is nxt)
            line, node = key.start_mark.line + 1, nxt
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
            line = node.start_mark.line + 1
        else:
            return line
    return line


_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_Composer = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@lru_cache(maxsize=None)
def _validator(kb_dir: Path, name: str):
    import jsonschema

    return jsonschema.Draft202012Validator(load_schema(kb_dir, name), format_checker=jsonschema.FormatChecker())


def validate_file(path: Path, schema_name: str, kb_dir: Path) -> tuple[Any, list[KbProblem]]:
    """Parse and validate one kb file; returns the data and every problem found."""
    shown = str(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, [KbProblem(path=shown, line=1, field="(file)", message="no such file")]
    except UnicodeDecodeError as exc:
        return None, [KbProblem(path=shown, line=1, field="(file)", message=f"not valid UTF-8 ({exc.reason})")]
    try:
        # libyaml when present: kb files are loaded on every audit. The node tree (for line
        # numbers) is composed only when there is a problem to locate.
        data = yaml.load(raw, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        return None, [KbProblem(path=shown, line=line, field="(yaml)", message=str(getattr(exc, "problem", exc)))]
    schema_path = kb_dir / "schema" / f"{schema_name}.schema.yaml"
    try:
        key = cachedir.stamp_key(raw.encode("utf-8"), schema_path.read_bytes())
    except OSError:
        key = None  # load_schema below reports the missing schema
    if key is not None and cachedir.has_stamp("kb-valid", key):
        return data, []  # this very file passed against this very schema before
    validator = _validator(kb_dir, schema_name)
    errors = sorted(validator.iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    node = yaml.compose(raw, Loader=_Composer) if errors else None
    problems = []
    for err in errors:
        where = list(err.absolute_path)
        field = ".".join(str(p) for p in where) or "(top level)"
        message = err.message
        if err.validator == "additionalProperties":
            extra = sorted(set((err.instance or {}).keys()) - set(err.schema.get("properties", {})))
            if extra:
                where = where + [extra[0]]
                field = ".".join(str(p) for p in where)
                message = f"unknown key {extra[0]!r}"
        problems.append(KbProblem(path=shown, line=_line_of(node, where), field=field, message=message))
    if not problems and key is not None:
        cachedir.add_stamp("kb-valid", key)
    return data, problems


@lru_cache(maxsize=None)
def load_schema(kb_dir: Path, name: str) -> dict:
    path = kb_dir / "schema" / f"{name}.schema.yaml"
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    except FileNotFoundError:
        raise AuditorError(f"{path}: schema file missing") from None


@lru_cache(maxsize=None)
def load(kb_dir: Path, name: str) -> Any:
    """Load kb/<name>.yaml, raising AuditorError on the first problem (the CLI's fast path)."""
    data, problems = validate_file(kb_dir / f"{name}.yaml", name, kb_dir)
    if problems:
        raise AuditorError(str(problems[0]) + (f" (and {len(problems) - 1} more; run `auditor check-kb`)" if len(problems) > 1 else ""))
    return data


# kb file -> schema name; claims/*.yaml share one schema.
def _schema_for(rel: str) -> str | None:
    if rel.startswith("claims/"):
        return "claims"
    if rel.startswith("schema/"):
        return None
    return rel[: -len(".yaml")]


def check_all(kb_dir: Path) -> list[KbProblem]:
    if not kb_dir.is_dir():
        raise AuditorError(f"{kb_dir}: knowledge base folder not found")
    problems: list[KbProblem] = []
    for path in sorted(kb_dir.rglob("*.y*ml")):
        rel = path.relative_to(kb_dir).as_posix()
        name = _schema_for(rel)
        if name is None:
            continue
        if not (kb_dir / "schema" / f"{name}.schema.yaml").is_file():
            problems.append(KbProblem(path=str(path), line=1, field="(file)", message=f"no schema kb/schema/{name}.schema.yaml for this file"))
            continue
        problems += validate_file(path, name, kb_dir)[1]
    return problems
