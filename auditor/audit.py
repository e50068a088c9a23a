"""The orchestrator: pinned target -> register -> facts -> findings -> Audit. No I/O beyond kb/."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Callable

from auditor import kb, sources
from auditor.errors import AuditorError
from auditor.model import Audit, Record, Target


def _regions(objects: list[Record], method: dict) -> list[Record]:
    """Regions of implementation files whose layer differs: text addressed to the model."""
    out = []
    for o in objects:
        if o.kind == "tool-description":
            layer = method["region_layers"]["tool-description"]
            a = o.anchors[0]
            out.append(Record(category="source", id=f"SRC:{a.path}#tool-description:{o.attrs['tool']}", kind="region",
                              summary=f"region {a}: description of tool {o.attrs['tool']!r}; {layer}",
                              anchors=o.anchors, rule="sources.regions", attrs={"layer": layer, "region_of": f"SRC:{a.path}"}))
    return out


def _dependencies(program) -> list[Record]:
    """Declared runtime dependencies: sources the audit names but does not inspect."""
    from auditor.model import Anchor
    out = []
    for doc in program.manifests():
        deps = doc.value.get("dependencies") or {} if isinstance(doc.value, dict) else {}
        start, end = doc.keys.get("dependencies", (1, 1))
        for name in sorted(deps):
            out.append(Record(category="source", id=f"SRC:dependency:{name}", kind="declared-dependency",
                              summary=f"declared dependency {name} {deps[name]}: not inspected (not part of the boundary)",
                              anchors=(Anchor(path=doc.path, start_line=start, end_line=end),), rule="sources.dependencies",
                              attrs={"layer": "none (uninspected)", "version": deps[name]}))
    return out


# Every kb file an audit reads (batch.py loads them before forking its workers, so that they share them).
KB_FILES = ("method", "sdk", "absences", "doctrine", "verdicts", "lens", "effects", "annotations", "findings", "tests")


# How many files an audit may set aside for an internal error before the error ends it (a bug that is not one
# file's would otherwise cost one more attempt per file).
_MAX_FAILED_FILES = 3


def run(target: Target, kb_dir: Path, progress: Callable[[str], None] = lambda _: None) -> Audit:
    """The audit of `target`. A file whose analysis takes more CPU time than kb/method.yaml file_time_budget_seconds
    stops it, and so does a file whose analysis meets a bug of the auditor (an internal error); the audit is run
    again without that file, which is a coverage gap (parsed trees are cached: the second run analyses again, it does
    not parse again). With AUDITOR_DEBUG set, an internal error ends the audit, for its traceback."""
    from auditor import budget
    from auditor.extract import syntax

    seconds = kb.load(kb_dir, "method")["file_time_budget_seconds"]
    excluded: dict[str, tuple[str, str]] = {}  # path -> (gap kind, why it is not analysed)
    while True:
        try:
            with budget.watching(seconds):
                return _run(target, kb_dir, progress, excluded)
        except budget.OverBudget as over:
            if over.path in excluded:  # cannot be: an excluded file is not analysed
                raise RuntimeError(f"{over.path}: over the time budget twice") from None
            excluded[over.path] = ("time", f"its analysis took more than {seconds:g} s of CPU time "
                                   "(kb/method.yaml file_time_budget_seconds) and was stopped")
            progress(f"{over.path}: over the time budget of {seconds:g} s; auditing again without it")
        except AuditorError:
            raise
        except Exception as exc:  # noqa: BLE001 - a bug of the auditor met in one file: that file is a gap
            path = None if os.environ.get("AUDITOR_DEBUG") else budget.failing_file(exc)
            failed = sum(kind == "internal" for kind, _ in excluded.values())
            if path is None or path in excluded or failed >= _MAX_FAILED_FILES:
                raise
            excluded[path] = ("internal", f"its analysis met an internal error of the auditor ({type(exc).__name__}: "
                              f"{exc}; set AUDITOR_DEBUG=1 for the traceback) and was stopped")
            progress(f"{path}: internal error ({type(exc).__name__}); auditing again without it")
        finally:
            syntax.forget()  # the walk index holds this audit's trees


def _run(target: Target, kb_dir: Path, progress: Callable[[str], None],
         excluded: dict[str, tuple[str, str]]) -> Audit:
    from auditor.analyse import claims as claims_mod
    from auditor.analyse import (annotations, conclusion, coverage, description, effect_routes, effects, generic, lens,
                                 runtime, secrets, summary, tested, voice)
    from auditor.analyse.absences import absences
    from auditor.analyse.mismatches import mismatches
    from auditor.analyse.paths import paths
    from auditor.extract import facts, tests
    from auditor.extract.components import components
    from auditor.extract.objects import objects
    from auditor.extract.records import unique
    from auditor.extract.routes import routes

    kbs = {name: kb.load(kb_dir, name) for name in KB_FILES}
    named = {p for rule in kbs["method"]["loop_impacts"] for p in rule["holds"]} | {
        p for search in kbs["method"]["surface_searches"].values() for p in search["probes"]}
    if named - {p["id"] for p in kbs["absences"]["probes"]}:  # a typo would drop a loop impact silently: located, exit 2
        unknown = kb.probe_references(kb_dir)
        raise AuditorError(str(unknown[0]) + (f" (and {len(unknown) - 1} more; run `auditor check-kb`)" if len(unknown) > 1 else ""))
    method, vocab, absence_kb = kbs["method"], kbs["sdk"], kbs["absences"]
    doctrine, rules, lens_kb = kbs["doctrine"], kbs["verdicts"], kbs["lens"]
    registries = claims_mod.load_registries(kb_dir)
    progress(f"register: {len(target.files)} file(s) in the boundary")
    entries = sources.register(target, method)
    progress("extract: parsing and tracing")
    program = facts.build(entries, target.subtree, vocab, method, excluded)
    parts = description.parts(program, doctrine)
    effects_kb = kbs["effects"]
    fx = effects.scan(program, effects_kb)
    cmps, rtes = components(program), routes(program, fx)
    rtes = unique(rtes + effect_routes.routes(program, fx, cmps))
    objs = unique(objects(program) + description.objects(parts))
    progress("analyse: absences, mismatches, paths, claims")
    abss = absences(program, absence_kb)
    fnds = unique(mismatches(program, absence_kb) + description.findings(parts, doctrine) + secrets.findings(program, fx, effects_kb))
    baps = paths(program, rtes, objs, method)
    rtes, objs = lens.routes(rtes, baps, lens_kb), lens.objects(objs, lens_kb)
    applied = claims_mod.select(registries, program)
    clms = claims_mod.claims(program, {"routes": rtes, "absences": abss, "findings": fnds}, applied, rules, kb_dir, doctrine)
    cands = unique(description.candidates(program, parts, clms, doctrine))
    every = annotations.reach(program, fx, rtes, kbs["annotations"], effects_kb)
    clms += [voice.structured(c, doctrine, rules)
             for c in annotations.claims(program, fx, rtes, kbs["annotations"], effects_kb, every)
             + generic.claims(program, fx, rtes, effects_kb)]
    rtes = annotations.with_reach(rtes, every)  # which tools reach each effect and state write (per-tool sections)
    cases = tests.read(program, kbs["tests"], target.subtree)
    links = tested.links(program, cases, rtes, kbs["tests"])
    rtes, clms = tested.apply(rtes, unique(clms), links)
    audit = Audit(target=target, sources=sources.source_records(program.entries, _regions(objs, method) + _dependencies(program)),
                  components=tuple(cmps), objects=tuple(objs), routes=tuple(rtes), absences=tuple(abss),
                  paths=tuple(baps), findings=_level(fnds, kbs["findings"], "finding"),
                  advisories=_level(fnds, kbs["findings"], "advisory"), claims=tuple(clms), candidates=tuple(cands),
                  tests=tuple(tested.records(cases, links, clms, kbs["tests"])),
                  registries=tuple(r.data["target"] for r in applied), gaps=program.gaps,
                  method={"external": method["external"], "anti_conflation": method["anti_conflation"],
                          "detail_gaps": method["detail_gaps"]},
                  ledger=_with_not_followed(coverage.ledger(program, coverage.effects_by_module(fx.sites)), target))
    audit = replace(audit, summary=summary.summarise(audit, kbs["findings"]))
    # The lines each tool's call runs, for its loop of the runtime baseline (behind an exclusion guard
    # `if (name !== x) throw`: the statements after the guard).
    cache: dict = {}
    regions = {t: r.spans for t in sorted({t.name for t in program.tools})
               if (r := annotations.regions(program, t, cache)) is not None}
    return replace(audit, baseline=runtime.baseline(audit, kbs, regions), conclusion=conclusion.bounded(audit),
                   amendments=conclusion.amendments(audit))


def _level(findings: list[Record], kinds: dict, level: str) -> tuple[Record, ...]:
    """The findings whose kind kb/findings.yaml reports at LEVEL (finding or advisory)."""
    for f in findings:
        if f.kind not in kinds["kinds"]:  # a bug: every kind an analysis produces is listed there
            raise RuntimeError(f"finding kind {f.kind!r} is not in kb/findings.yaml")
    return tuple(f for f in findings if kinds["kinds"][f.kind]["level"] == level)


def _with_not_followed(ledger: dict, target: Target) -> dict:
    """The ledger's file rows, with the tree entries the audit did not follow (links, submodules, unsafe names)."""
    if not target.not_followed:
        return ledger
    rows = [{"path": p, "layer": "none", "status": "not followed", "reason": why, "gaps": 0, "entry": False}
            for p, why in target.not_followed]
    return {**ledger, "files": sorted(ledger["files"] + rows, key=lambda f: f["path"])}
