"""Compile snapshots of real fixture captures and the verdict of a run against one (docs/INTEGRATIONS.md, "Compile
snapshots"). Expected values come from the workloads' oracles, fixtures/expected.json and the workloads' own source
(the line of a def and of its break, found with ast), never from the analyser."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from pathlib import Path

from dynamo_diff_compare import (
    snapshot_json,
    snapshot_of,
    snapshot_row,
    snapshot_verdict,
    snapshot_verdict_markdown,
    snapshot_verdict_text,
    summary_markdown,
)
from dynamo_diff_schema import CompileSnapshot, validate

from tests.compare.conftest import CAPTURES, Loaded

ROOT = CAPTURES.parents[1]
EXPECTED = json.loads((ROOT / "fixtures/expected.json").read_text(encoding="utf-8"))["fixtures"]

Load = Callable[..., Loaded]


def oracle(name: str) -> dict:  # type: ignore[type-arg]
    return json.loads((CAPTURES / name / "oracle.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def total(name: str, key: str) -> int:
    return int(EXPECTED[name]["total"][key]["value"])


def snap(load: Load, name: str) -> CompileSnapshot:
    capture, sources = load(name)
    return snapshot_of(capture, sources, test=f"tests/test_model.py::test_{name}")


def test_snapshot_counts_match_the_oracles(load: Load) -> None:
    for name in ("edit_v1", "edit_v2", "shape", "graph_break", "llama_213", "backend_failure"):
        s = snap(load, name)
        assert sum(f.compilations for f in s.functions) == total(name, "observed_compilation_identities"), name
        assert sum(f.recompiles for f in s.functions) == total(name, "confirmed_recompilation_identities"), name
        assert sum(b.count for f in s.functions for b in f.graph_breaks) == total(name, "graph_break_records"), name
        assert sum(sum(f.failures.values()) for f in s.functions) == total(name, "failed"), name
        assert s.torch == oracle(name)["torch_version"]


def test_edit_v1_per_function_by_the_oracle(load: Load) -> None:
    s = snap(load, "edit_v1")
    expect = oracle("edit_v1")["expect"]
    assert {f.qualified_name: f.compilations for f in s.functions} == expect["compilations_by_function"]
    assert {f.qualified_name: f.recompiles for f in s.functions if f.recompiles} == expect["recompiles_by_function"]
    categories = {c for f in s.functions for c in f.recompiles_by_category}
    assert categories == set(expect["recompile_guard_kinds"])
    assert {f.file for f in s.functions} == {"model.py"}  # relative to the project, never the recorded /tmp path


def _def_and_lines(path: Path, function: str, needle: str) -> tuple[int, int]:
    text = path.read_text(encoding="utf-8")
    node = next(n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.FunctionDef) and n.name == function)
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    line = next(i for i, t in enumerate(text.splitlines(), 1) if needle in t and i >= first)
    return first, line


def test_graph_breaks_are_keyed_by_gb_id_and_offset_in_the_function(load: Load) -> None:
    s = snap(load, "graph_break")
    workload = ROOT / "fixtures/workloads/graph_break.py"
    sites = {site.split(":")[1] for site in oracle("graph_break")["expect"]["graph_break_sites"]}
    breaks = {f.qualified_name: f.graph_breaks for f in s.functions}
    for function, needle in (("with_print", 'print("'), ("with_item", ".item()")):
        first, line = _def_and_lines(workload, function, needle)
        assert str(line) in sites
        (only,) = breaks[function]
        assert only.site == f"+{line - first}" and only.count == 1
    # torch's registry id of a print() break (the graph-break record's own text names it)
    raw = "".join(p.read_text(encoding="utf-8") for p in (CAPTURES / "graph_break/raw").glob("*.log"))
    assert "gb0059" in raw and breaks["with_print"][0].gb == "gb0059"


def test_written_snapshot_is_byte_stable_and_portable(load: Load) -> None:
    a = snapshot_json(snap(load, "edit_v1"))
    assert a == snapshot_json(snap(load, "edit_v1"))
    document = json.loads(a)
    validate(document, "compile_snapshot")
    assert "capture" not in document and all("evidence" not in f for f in document["functions"])
    assert "/tmp" not in a and '"line' not in a
    assert a.splitlines()[1].startswith('  "functions"')  # sorted keys, indented: one value per line
    # One workload (inductor_cache.py) recorded twice, cold and warm cache: the same bytes.
    cold, warm = (snapshot_of(*load(name), test="t") for name in ("cache_cold", "cache_warm"))
    assert snapshot_json(cold) == snapshot_json(warm)
    # The same workload recorded on two machines with two torch builds (llama 2.13 and 2.14) differs only in torch.
    t13, t14 = json.loads(snapshot_json(snap(load, "llama_213"))), json.loads(snapshot_json(snap(load, "llama_214")))
    assert t13["torch"] != t14["torch"]
    assert {**t13, "torch": None, "test": None} == {**t14, "torch": None, "test": None}


def test_a_removed_recompile_is_an_improvement(load: Load) -> None:
    verdict = snapshot_verdict(snap(load, "edit_v1"), snap(load, "edit_v2"))
    validate(verdict.model_dump(mode="json"), "snapshot_verdict")
    assert verdict.passed and verdict.outcome == "improved" and not verdict.upgrade
    (gone,) = [c for c in verdict.changes if c.effect == "improvement"]
    assert (gone.function, gone.what, gone.key, gone.snapshot, gone.run) == ("gate", "recompile", "value", 1, 0)
    text = snapshot_verdict_text(verdict)
    assert text.startswith("compile snapshot passed: improved")
    assert "- gate: recompile gone on a value guard: 1 -> 0" in text


def test_an_added_recompile_fails_naming_its_guard_and_evidence(load: Load) -> None:
    capture, _ = load("edit_v1")
    verdict = snapshot_verdict(snap(load, "edit_v2"), snap(load, "edit_v1"))
    assert not verdict.passed and verdict.outcome == "regressed"
    (new,) = [c for c in verdict.changes if c.effect == "regression"]
    assert (new.function, new.key, new.snapshot, new.run) == ("gate", "value", 0, 1)
    guard = oracle("edit_v1")["guard_failures"]["gate"][0].split("\n")[0]
    assert " ".join(guard.split()) in new.text  # the failing guard's text, as torch wrote it
    known = {e.id for e in capture.evidence}
    assert new.evidence_ids and set(new.evidence_ids) <= known  # the new capture's evidence
    assert verdict.capture == capture.capture.id
    text = snapshot_verdict_text(verdict, trace=".dynamo-diff")
    assert text.startswith("compile snapshot FAILED: regressed: 1 regression(s)")
    assert f"(evidence {new.evidence_ids[0]})" in text and "kept at .dynamo-diff" in text
    row = snapshot_verdict_markdown(verdict)
    assert (
        row.startswith("| `tests/test_model.py::test_edit_v1` | snapshot | ❌ FAILED |") and new.evidence_ids[0] in row
    )


def test_a_new_graph_break_fails_and_a_fixed_one_passes(load: Load) -> None:
    bad = snapshot_verdict(snap(load, "break_fix_v2"), snap(load, "break_fix_v1"))
    good = snapshot_verdict(snap(load, "break_fix_v1"), snap(load, "break_fix_v2"))
    assert not bad.passed and good.passed and good.outcome == "improved"
    new = [c for c in bad.changes if c.effect == "regression"]
    assert len(new) == total("break_fix_v1", "graph_break_records") - total("break_fix_v2", "graph_break_records")
    assert all(c.what == "graph_break" and c.evidence_ids for c in new)


def test_another_torch_version_reads_as_an_upgrade(load: Load) -> None:
    verdict = snapshot_verdict(snap(load, "llama_213"), snap(load, "llama_214"))
    assert verdict.passed and verdict.outcome == "upgrade" and verdict.upgrade
    assert (verdict.snapshot_torch, verdict.run_torch) == (
        oracle("llama_213")["torch_version"],
        oracle("llama_214")["torch_version"],
    )
    assert verdict.summary.startswith("torch upgrade 2.13.0 -> 2.14.1")
    # A regression that comes with an upgrade is reported as the upgrade's and passes unless asked to fail.
    old = snap(load, "edit_v2").model_copy(update={"torch": "2.13.0+cpu"})
    new = snap(load, "edit_v1").model_copy(update={"torch": "2.14.1+cu130"})
    upgraded = snapshot_verdict(old, new)
    assert upgraded.passed and upgraded.outcome == "upgrade"
    assert any(
        c.effect == "regression" and c.text.startswith("with the torch upgrade 2.13.0 -> 2.14.1: gate")
        for c in upgraded.changes
    )
    assert not snapshot_verdict(old, new, fail_on_upgrade=True).passed


def test_a_snapshot_read_back_gives_the_same_verdict(load: Load) -> None:
    written = snapshot_json(snap(load, "shape"))
    back = CompileSnapshot.model_validate_json(written)
    verdict = snapshot_verdict(back, snap(load, "shape"))
    assert verdict.passed and verdict.outcome == "unchanged" and not verdict.changes


def test_summary_puts_failures_first(load: Load) -> None:
    rows = [
        snapshot_row(snapshot_verdict(snap(load, "edit_v1"), snap(load, "edit_v2"))),
        snapshot_row(snapshot_verdict(snap(load, "edit_v2"), snap(load, "edit_v1"))),
    ]
    text = summary_markdown(rows)
    lines = text.splitlines()
    assert lines[0] == "### Compile behaviour: 1 of 2 FAILED"
    assert "❌ FAILED" in lines[4] and "✅ passed" in lines[5]
    assert summary_markdown([]) == "### Compile behaviour: nothing was checked\n"
