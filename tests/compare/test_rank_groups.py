"""The rank view at scale: ranks with identical behaviour form groups.

Inputs are jobs made from real rank logs (tests/conftest.py `rank_job`): rank N is a copy of a two_ranks rank log
with its rank rewritten, so the expected groups come from how the job was built, never from the analyser."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from dynamo_diff_compare import compare_ranks
from dynamo_diff_compare.ranks import blank_numbers, rank_ranges
from dynamo_diff_schema import validate
from dynamo_diff_store import Store


def test_rank_ranges_are_compact() -> None:
    assert rank_ranges([7, 0, 1, 2, 3, 5, *range(8, 4096)]) == "0-3, 5, 7-4095"
    assert rank_ranges([4]) == "4"
    assert rank_ranges([1, None, 2]) == "1-2, ?"
    assert rank_ranges(range(0, 4096, 2)) == "0-4094 step 2"  # even ranks: one pipeline stage of two
    assert rank_ranges(range(1, 4096, 8)) == "1-4089 step 8"
    assert rank_ranges([0, 2, 4, 5, 6, 7]) == "0, 2, 4-7"  # consecutive ranks stay a plain range
    assert rank_ranges([1, 3]) == "1, 3"


def test_numbers_in_guard_text_are_blanked() -> None:
    assert blank_numbers("0/1: tensor 'x' size mismatch at index 0. expected 6, actual 8") == (
        "#/#: tensor 'x' size mismatch at index #. expected #, actual #"
    )
    assert blank_numbers("___check_obj_id(fn, 140439264606080) 0x7f1a L['x1'][3]") == (
        "___check_obj_id(fn, #) # L['x1'][#]"
    )


def test_a_64_rank_job_with_two_behaviours_shows_two_groups(rank_job: Callable[..., Path], tmp_path: Path) -> None:
    """Ranks 0-31 behave like two_ranks' rank 0 (one compilation), ranks 32-63 like its rank 1 (three, two shape
    recompiles): exactly two groups, with those ranges, and the first divergence of the second group."""
    job = rank_job(tmp_path / "job", {r: 0 if r < 32 else 1 for r in range(64)})
    capture = Store(tmp_path / "store").import_path(job).capture
    comparison = compare_ranks(capture)
    validate(comparison.model_dump(mode="json"), "rank_view")
    view = comparison.ranks
    assert view is not None and len(view.ranks) == 64
    assert [(g.rank_ranges, g.size, g.representative, g.reference) for g in view.groups] == [
        ("0-31", 32, 0, True),
        ("32-63", 32, 32, False),
    ]
    assert view.groups[0].ranks == list(range(32)) and view.groups[1].ranks == list(range(32, 64))
    # two_ranks/oracle.json: rank 0 compiles f once; rank 1 three times, recompiling at 0/1 on a size guard.
    assert [g.counts.observed_compilation_identities for g in view.groups] == [1, 3]
    (divergence,) = view.divergences
    assert divergence.rank == 32 and divergence.reference_rank == 0 and divergence.compile_id == "0/1"
    assert "recompile [shape]" in divergence.reason and divergence.evidence_ids
    # The rows compare the reference rank with the other group's representative.
    assert comparison.candidate.label is not None and comparison.candidate.label.endswith("rank 32")


def test_groups_follow_the_layout_not_rank_order(rank_job: Callable[..., Path], tmp_path: Path) -> None:
    """Interleaved behaviours: the larger group comes after the reference group, ranges are compact, and a rank
    named first is the reference whatever its group's size."""
    layout = {r: 1 if r in (3, 5, 6, 7) else 0 for r in range(10)}
    capture = Store(tmp_path / "store").import_path(rank_job(tmp_path / "job", layout)).capture
    view = compare_ranks(capture).ranks
    assert view is not None
    assert [(g.rank_ranges, g.representative) for g in view.groups] == [("0-2, 4, 8-9", 0), ("3, 5-7", 3)]
    chosen = compare_ranks(capture, [5, 0, 1, 6]).ranks
    assert chosen is not None and chosen.reference_rank == 5
    assert [(g.rank_ranges, g.representative, g.reference) for g in chosen.groups] == [
        ("5-6", 5, True),
        ("0-1", 0, False),
    ]
    same = compare_ranks(capture, [0, 1, 2]).ranks
    assert same is not None and len(same.groups) == 1 and same.divergences == []


def test_a_break_one_rank_has_reads_as_only_on_that_rank(tmp_path: Path) -> None:
    """Two ranks of one run differ side by side: a graph break the reference rank has and the other has not is
    'only on rank 0', never 'gone' (which reads as fixed). The ranks are the graph_break capture's own rank and a
    copy of it without its graph-break records."""
    fixture = Path(__file__).resolve().parents[2] / "fixtures/captures/graph_break"
    capture = Store(tmp_path / "store").import_path(fixture).capture
    (rank,) = capture.ranks
    assert any(c.graph_breaks for c in rank.compilations)
    clean = rank.model_copy(
        update={"rank": 1, "compilations": [c.model_copy(update={"graph_breaks": []}) for c in rank.compilations]}
    )
    job = capture.model_copy(update={"ranks": [rank.model_copy(update={"rank": 0}), clean]})
    for ranks, only, other in (([0, 1], 0, 1), ([1, 0], 0, 1)):
        comparison = compare_ranks(job, ranks)
        said = [c.summary for row in comparison.functions for c in row.changes if "graph_break" in c.kind]
        assert said and all(s.startswith("graph break only on rank ") for s in said), said
        assert all(f"only on rank {only}" in s and f"not rank {other}" in s for s in said)
        assert not any(word in s for s in said for word in ("gone", "new graph break"))


def test_failures_between_ranks_say_which_rank_has_how_many(tmp_path: Path) -> None:
    """'inductor failures: 1 -> 0' between two ranks reads as a fix; a rank view says which rank has how many. The
    ranks are the backend_failure capture's rank and a copy of it whose compilations carry no failure."""
    fixture = Path(__file__).resolve().parents[2] / "fixtures/captures/backend_failure"
    capture = Store(tmp_path / "store").import_path(fixture).capture
    (rank,) = capture.ranks
    failed = [c for c in rank.compilations if c.failure is not None]
    assert failed
    fail_type = failed[0].failure.fail_type  # type: ignore[union-attr]
    clean = rank.model_copy(
        update={"rank": 1, "compilations": [c.model_copy(update={"failure": None}) for c in rank.compilations]}
    )
    job = capture.model_copy(update={"ranks": [rank.model_copy(update={"rank": 0}), clean]})
    assert len({c.code.co_name for c in failed}) == len(failed)  # one failure a function here: one row each
    for ranks, expected in (
        ([0, 1], "1 on rank 0 (reference), 0 on rank 1"),
        ([1, 0], "0 on rank 1 (reference), 1 on rank 0"),
    ):
        said = [c.summary for row in compare_ranks(job, ranks).functions for c in row.changes if "failure" in c.kind]
        assert len(said) == len(failed)
        assert all(line.startswith(f"{fail_type} failures: {expected} (") for line in said), said
