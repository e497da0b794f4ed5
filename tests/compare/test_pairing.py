"""Rows pair the same function whatever form the runs were imported in: a bundle against its own raw trace folder,
and two bare traces of an edit in which functions moved. Expected facts come from the fixture files themselves
(the edit between fixtures/workloads/edit_v1/model.py and edit_v2/model.py), never from our analyser."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from dynamo_diff_compare import compare_captures, user_sources
from dynamo_diff_match import load_user_map
from dynamo_diff_schema import DynamoDiffError
from dynamo_diff_store import Store

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CAPTURES = FIXTURES / "captures"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store(tmp_path_factory.mktemp("pairing") / "store")


def compared(store: Store, base_path: Path, cand_path: Path, **kwargs):  # type: ignore[no-untyped-def]
    base, cand = store.import_path(base_path).capture, store.import_path(cand_path).capture
    return compare_captures(
        base,
        cand,
        baseline_sources=user_sources(*store.source_files(base)),
        candidate_sources=user_sources(*store.source_files(cand)),
        **kwargs,
    )


def first_line(version: str, name: str) -> int:
    text = (FIXTURES / "workloads" / version / "model.py").read_text()
    return next(i for i, line in enumerate(text.splitlines(), 1) if re.match(rf"def {name}\(", line))


@pytest.mark.parametrize(
    "name", ["graph_break", "observed_on", "two_ranks", "library_frames", "llama_213", "ddp_ranks", "wrapped_call"]
)
def test_a_bundle_and_its_own_raw_folder_pair_with_no_deltas(store: Store, tmp_path: Path, name: str) -> None:
    """The bundle names files relative to the project root; its raw folder, imported alone, by absolute path. A
    bundle's row named by what was compiled (its observer saw where: ddp_ranks, wrapped_call) and its raw trace's row
    named by the calling code are one row: the same library frames, called at the same lines."""
    shutil.copytree(CAPTURES / name / "raw", tmp_path / "raw")
    comparison = compared(store, CAPTURES / name, tmp_path / "raw")
    assert comparison.functions
    assert {r.status for r in comparison.functions} == {"matched"}
    assert all(r.deltas == {} for r in comparison.functions)
    assert not any(r.changes for r in comparison.functions)  # the same bytes: nothing differs


def test_two_bare_traces_of_an_edit_pair_moved_functions_by_name(store: Store, tmp_path: Path) -> None:
    for version in ("edit_v1", "edit_v2"):
        shutil.copytree(CAPTURES / version / "raw", tmp_path / version)
    comparison = compared(store, tmp_path / "edit_v1", tmp_path / "edit_v2")
    rows = {(r.baseline or r.candidate).qualified_name: r for r in comparison.functions}  # type: ignore[union-attr]
    encoder = rows["encoder"]
    before, after = first_line("edit_v1", "encoder"), first_line("edit_v2", "encoder")
    assert before != after  # the edit inserted lines above it
    assert (encoder.status, encoder.method) == ("matched", "name")
    assert f"moved from line {before} to {after}" in encoder.reason
    assert encoder.deltas == {}
    gate = rows["gate"]
    assert first_line("edit_v1", "gate") == first_line("edit_v2", "gate")
    assert (gate.status, gate.method) == ("matched", "same_location")
    assert rows["postprocess"].status == "candidate_only"  # new in v2


def test_a_source_map_pairs_bare_traces_and_unmatched_rows_suggest(store: Store, tmp_path: Path) -> None:
    """Without snapshots a function's id is its co_filename, name and first line; a map may write the file as
    the relative path and leave the line out when the name is unique. Rows left unpaired suggest what they may
    be (a function of the same name or file on the other side)."""
    for version in ("edit_v1", "edit_v2"):
        shutil.copytree(CAPTURES / version / "raw", tmp_path / version)
    plain = compared(store, tmp_path / "edit_v1", tmp_path / "edit_v2")
    (new,) = [r for r in plain.functions if r.status == "candidate_only"]
    assert new.candidate.qualified_name == "postprocess"  # type: ignore[union-attr]
    assert new.alternatives == [] or all("model.py" in a for a in new.alternatives)
    user_map = load_user_map('{"model.py::gate": "model.py::postprocess"}')
    comparison = compared(store, tmp_path / "edit_v1", tmp_path / "edit_v2", user_map=user_map)
    (row,) = [r for r in comparison.functions if r.method == "user_map"]
    assert row.baseline.qualified_name == "gate" and row.candidate.qualified_name == "postprocess"  # type: ignore[union-attr]
    (left,) = [r for r in comparison.functions if r.status == "candidate_only"]
    assert left.candidate.qualified_name == "gate"  # type: ignore[union-attr]
    assert left.alternatives == [], "nothing of the baseline is left to suggest"
    wrong = load_user_map('{"model.py::gate@99": "model.py::postprocess"}')
    with pytest.raises(DynamoDiffError) as err:
        compared(store, tmp_path / "edit_v1", tmp_path / "edit_v2", user_map=wrong)
    line = first_line("edit_v1", "gate")
    assert "names no observed baseline function" in err.value.message
    assert f"@{line}" in err.value.message  # the ids it could have meant


def test_a_graph_break_fix_is_one_row_counting_every_frame(store: Store) -> None:
    """break_fix_v1's step() broke at two print() calls (three frames); v2 removed them (one frame). The row of
    step counts every frame on each side, and lists the frames with their own counts."""
    comparison = compared(store, CAPTURES / "break_fix_v1", CAPTURES / "break_fix_v2")
    before = json.loads((CAPTURES / "break_fix_v1" / "oracle.json").read_text())["expect"]
    after = json.loads((CAPTURES / "break_fix_v2" / "oracle.json").read_text())["expect"]
    (row,) = comparison.functions  # resume functions are not rows of their own
    assert row.baseline.qualified_name == row.candidate.qualified_name == "step"  # type: ignore[union-attr]
    assert row.baseline.counts.observed_compilation_identities == before["compilations"] == 3  # type: ignore[union-attr]
    assert row.baseline.counts.graph_break_records == before["graph_breaks"] == 2  # type: ignore[union-attr]
    assert row.candidate.counts.observed_compilation_identities == after["compilations"] == 1  # type: ignore[union-attr]
    assert row.deltas["observed_compilation_identities"] == -2 and row.deltas["graph_break_records"] == -2
    assert sorted(p.name for p in row.pieces) == sorted(before["compilations_by_function"])
    own = next(p for p in row.pieces if p.name == "step")
    assert own.status == "matched" and own.candidate is not None
    assert all(p.status == "baseline_only" for p in row.pieces if p.name != "step")
    # Both breaks are the same kind (print): one change, both sites and both records as evidence.
    (gone,) = [c for c in row.changes if c.kind == "graph_break_gone"]
    assert "model.py:19" in gone.summary and "model.py:21" in gone.summary and len(gone.baseline_evidence) == 2


def call_line(script: str, function: str, call: str) -> int:
    """The line of `call` inside `def function(` of a fixture workload (read from the file, not the trace)."""
    lines = (FIXTURES / "workloads" / script).read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"def {function}("))
    return next(i for i in range(start, len(lines)) if call in lines[i]) + 1


def test_frames_compiled_in_library_code_are_rows_of_the_users_functions(store: Store, tmp_path: Path) -> None:
    """torch's `inner` (around an nn.Sequential) and a site-packages decorator are compiled in place of the
    user's functions: the rows are those functions, each with the compiled frame and the line of the call."""
    shutil.copytree(CAPTURES / "library_frames" / "raw", tmp_path / "raw")
    oracle = json.loads((CAPTURES / "library_frames" / "oracle.json").read_text())
    comparison = compared(store, CAPTURES / "library_frames", tmp_path / "raw")
    rows = {r.baseline.qualified_name: r for r in comparison.functions if r.baseline is not None}
    assert {k: r.baseline.counts.observed_compilation_identities for k, r in rows.items()} == oracle[
        "compilations_by_caller"
    ]
    want = {
        "train_step": (
            "inner",
            "torch/_dynamo/external_utils.py",
            call_line("library_frames.py", "train_step", "model(x)"),
        ),
        "evaluate": (
            "inner",
            "torch/_dynamo/external_utils.py",
            call_line("library_frames.py", "evaluate", "model(x)"),
        ),
        "predict": ("wrapped", "wraplib/__init__.py", call_line("library_frames.py", "predict", "net(inputs=x)")),
    }
    for name, (frame, library_file, line) in want.items():
        row = rows[name]
        assert row.baseline.name_from == "source" and row.candidate.name_from == "trace"  # bundle vs bare trace
        assert row.baseline.file.endswith("library_frames.py") and row.candidate.qualified_name == name
        (piece,) = row.pieces
        assert (piece.name, piece.library_file, piece.status) == (frame, library_file, "matched")
        assert piece.baseline.called_at == piece.candidate.called_at == line
