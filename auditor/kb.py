"""Load kb/ YAML files, validated against their checked-in JSON Schemas, with located errors."""

from __future__ import annotations

import os
import re
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


_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: kb files are loaded on every audit

# Aliases may add at most this many nodes to what a file writes out: kb/effects.yaml uses one alias (a few dozen
# nodes), and an alias bomb (9 levels of 9 aliases in 4.9 KB: 387 million nodes) took 3.9 GB to validate.
MAX_ALIAS_NODES = 10_000
# An alias can only follow white space or a flow indicator (a plain scalar cannot start with `*`): a file without
# this has none, and is not parsed a second time for them.
_MAYBE_ALIAS = re.compile(r"(?:^|[\s\[{,:])\*", re.M)


class YamlProblem(yaml.MarkedYAMLError):
    """What the kb loader refuses: an alias that expands too far or into itself, a key given twice in a mapping."""

    def __init__(self, message: str, mark, mapping: yaml.Node | None = None, key: str | None = None):
        super().__init__(problem=message, problem_mark=mark)
        self.mapping, self.key = mapping, key
        self.field = "(yaml)"  # the path of the key, once known


class _KbLoader(_Base):
    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            seen: dict[tuple[str, str], yaml.Node] = {}
            for key_node, _ in node.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
                    first = seen.setdefault((key_node.tag, key_node.value), key_node)
                    if first is not key_node:  # YAML would keep the last one silently
                        raise YamlProblem(f"duplicate key {key_node.value!r} (first at line {first.start_mark.line + 1})",
                                          key_node.start_mark, node, key_node.value)
        return super().construct_mapping(node, deep=deep)


def _check_aliases(raw: str) -> None:
    """Refuse an alias that expands the document by more than MAX_ALIAS_NODES nodes, or into itself."""
    if not _MAYBE_ALIAS.search(raw):
        return
    sizes: dict[str, int] = {}  # anchor -> nodes it stands for, expanded
    open_: list[list] = []  # [anchor, nodes so far] of each collection being read
    written = expanded = 0
    for ev in yaml.parse(raw, Loader=_Base):
        if isinstance(ev, yaml.AliasEvent):
            if any(a == ev.anchor for a, _ in open_):
                raise YamlProblem(f"alias *{ev.anchor} refers to a node that contains it (a recursive alias)", ev.start_mark)
            n = sizes.get(ev.anchor, 1)  # an undefined anchor is the composer's error
            expanded += n
            if expanded - written > MAX_ALIAS_NODES:
                raise YamlProblem(f"alias *{ev.anchor} expands the file beyond {MAX_ALIAS_NODES:,} nodes more than it "
                                  "writes (an alias bomb?); write the values out", ev.start_mark)
        elif isinstance(ev, (yaml.ScalarEvent, yaml.CollectionStartEvent)):
            written, expanded, n = written + 1, expanded + 1, 1
            if isinstance(ev, yaml.CollectionStartEvent):
                open_.append([ev.anchor, 1])
                continue
            if ev.anchor:
                sizes[ev.anchor] = 1
        elif isinstance(ev, yaml.CollectionEndEvent):
            anchor, n = open_.pop()
            if anchor:
                sizes[anchor] = n
        else:
            continue
        if open_:
            open_[-1][1] += n


def load_yaml(raw: str) -> tuple[Any, yaml.Node | None]:
    """Parse kb YAML safely: the data and its node tree (for lines). Raises yaml.YAMLError (YamlProblem for a key given
    twice or an alias that expands too far); every YAML the auditor reads goes through here."""
    _check_aliases(raw)
    loader = _KbLoader(raw)
    try:
        node = loader.get_single_node()
        try:
            return (loader.construct_document(node) if node is not None else None), node
        except YamlProblem as exc:
            if exc.mapping is not None:
                exc.field = ".".join(str(p) for p in _path_to(node, exc.mapping) + [exc.key])
            raise
    finally:
        loader.dispose()


def _path_to(root: yaml.Node | None, target: yaml.Node) -> list:
    """Keys and indexes from `root` to `target` (a node of its tree), for the FIELD of a problem."""
    stack = [(root, [])]
    seen: set[int] = set()
    while stack:
        node, path = stack.pop()
        if node is target:
            return path
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            stack += [(v, path + [getattr(k, "value", "?")]) for k, v in node.value]
        elif isinstance(node, yaml.SequenceNode):
            stack += [(v, path + [i]) for i, v in enumerate(node.value)]
    return []


def _yaml_problem(shown: str, exc: yaml.YAMLError) -> KbProblem:
    mark = getattr(exc, "problem_mark", None)
    return KbProblem(path=shown, line=mark.line + 1 if mark else 1, field=getattr(exc, "field", "(yaml)"),
                     message=str(getattr(exc, "problem", None) or exc))


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
        data, node = load_yaml(raw)
    except yaml.YAMLError as exc:
        return None, [_yaml_problem(shown, exc)]
    schema_path = kb_dir / "schema" / f"{schema_name}.schema.yaml"
    try:
        key = cachedir.stamp_key(raw.encode("utf-8"), schema_path.read_bytes())
    except OSError:
        key = None  # load_schema below reports the missing schema
    if key is not None and cachedir.has_stamp("kb-valid", key):
        return data, []  # this very file passed against this very schema before
    validator = _validator(kb_dir, schema_name)
    errors = sorted(validator.iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), e.message))
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
        return load_yaml(path.read_text(encoding="utf-8"))[0]
    except FileNotFoundError:
        raise AuditorError(f"{path}: schema file missing") from None
    except UnicodeDecodeError as exc:
        raise AuditorError(str(KbProblem(path=str(path), line=1, field="(file)", message=f"not valid UTF-8 ({exc.reason})"))) from None
    except yaml.YAMLError as exc:
        raise AuditorError(str(_yaml_problem(str(path), exc))) from None


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
    return problems + (probe_references(kb_dir) if not problems else [])


# coupling: auditor/analyse/materiality.py and runtime.py look these probes up by id; a typo would silently drop a
# loop impact, or report a surface as searched by a probe that never ran.
def probe_references(kb_dir: Path) -> list[KbProblem]:
    """Absence probes that kb/method.yaml names (loop_impacts, surface_searches) but kb/absences.yaml does not define."""
    method_path = kb_dir / "method.yaml"
    try:
        method, node = load_yaml(method_path.read_text(encoding="utf-8"))
        absences = load_yaml((kb_dir / "absences.yaml").read_text(encoding="utf-8"))[0]
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return []  # the per-file validation reports these
    if not isinstance(method, dict) or not isinstance(absences, dict):
        return []
    known = {p.get("id") for p in absences.get("probes") or [] if isinstance(p, dict)}
    refs = [(["loop_impacts", i, "holds", j], probe) for i, rule in enumerate(method.get("loop_impacts") or [])
            if isinstance(rule, dict) for j, probe in enumerate(rule.get("holds") or [])]
    refs += [(["surface_searches", name, "probes", j], probe) for name, search in sorted((method.get("surface_searches") or {}).items())
             if isinstance(search, dict) for j, probe in enumerate(search.get("probes") or [])]
    return [KbProblem(path=str(method_path), line=_line_of(node, where), field=".".join(map(str, where)),
                      message=f"no absence probe {probe!r} in kb/absences.yaml") for where, probe in refs if probe not in known]
