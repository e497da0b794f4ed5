"""Facts about the real corpus (torch 2.6-2.9 logs from tlparse's tests), pinned independently of our code.

Sources of each expected value: INDEX-FACTS below quote the corpus index that came with these logs
(fixtures/corpus/README.md; written from tlparse's own tests); counts marked "grep" were taken with grep on the
log, e.g. `grep -c '"compilation_metrics"' FILE` and `grep -c '"name": "recompile_reasons"' FILE`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from dynamo_diff_schema import Capture, Outcome, validate
from dynamo_diff_store import Store

CORPUS = Path(__file__).resolve().parents[2] / "fixtures/corpus/tlparse-tests"
EXPORTS = Path(__file__).resolve().parents[2] / "fixtures/corpus/tlparse-exports"
ALL_INPUTS = sorted(p.name for p in CORPUS.iterdir() if p.name != "LICENSE" and not p.name.endswith(".md"))


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store(tmp_path_factory.mktemp("corpus") / "store")


@pytest.fixture(scope="module")
def imported(store: Store) -> dict[str, Capture]:
    return {name: store.import_path(CORPUS / name, workers=2).capture for name in ALL_INPUTS}


def by_id(capture: Capture, rank: int | None = None) -> dict[str, object]:
    ranks = [r for r in capture.ranks if r.rank == rank] if rank is not None else capture.ranks
    return {c.compile_id: c for r in ranks for c in r.compilations}


def test_every_corpus_input_imports_and_validates(imported: dict[str, Capture]) -> None:
    assert len(imported) == 18
    for name, capture in imported.items():
        validate(capture.model_dump(mode="json", exclude={"evidence"}), "capture")
        assert capture.ranks, name


def test_comp_metrics_three_compilations_with_restarts(imported: dict[str, Capture]) -> None:
    """INDEX: graph breaks with restarts: [0/0],[0/0_1],[1/0],[1/0_1],[2/0]; compilations with output graphs
    and metrics are [0/0 attempt 1], [1/0 attempt 1], [2/0]."""
    cap = imported["comp_metrics.log"]
    comps = by_id(cap)
    assert list(comps) == ["0/0", "1/0", "2/0"]
    assert [len(c.attempts) for c in comps.values()] == [2, 2, 1]  # type: ignore[attr-defined]
    c = cap.counts
    assert (c.observed_compilation_identities, c.observed_attempts, c.restarts, c.completed) == (3, 5, 2, 3)
    assert c.confirmed_recompilation_identities == 0  # no recompile evidence in this log


def test_multi_rank_logs_rank_facts(imported: dict[str, Capture]) -> None:
    """INDEX: rank 1: 15 compiles [0/0..0/14] with 14 recompile_reasons, 10 fx cache hits + 5 misses; rank 3:
    7 compiles, all hits; ranks 0 and 2: one failed compile each. No `rank` field in the JSON."""
    cap = imported["multi_rank_logs"]
    assert [r.rank for r in cap.ranks] == [0, 1, 2, 3]
    r = {rank.rank: rank for rank in cap.ranks}
    assert r[1].counts.observed_compilation_identities == 15
    assert r[1].counts.confirmed_recompilation_identities == 14
    assert list(by_id(cap, 1)) == [f"0/{i}" for i in range(15)]
    fx = [e.decision for c in r[1].compilations for e in c.cache_events if e.cache == "fx_graph"]
    assert (fx.count("hit"), fx.count("miss")) == (10, 5)
    assert r[3].counts.observed_compilation_identities == 7
    assert all(e.decision == "hit" for c in r[3].compilations for e in c.cache_events)
    for rank in (0, 2):
        assert r[rank].counts.observed_compilation_identities == 1
        assert r[rank].counts.failed == 1
    assert cap.counts.observed_compilation_identities == 24  # summed over ranks


def test_cache_hit_miss_ids_repeat_after_reset(imported: dict[str, Capture]) -> None:
    """INDEX: 6 compilation_metrics but only ids 0/0 and 1/0 (torch._dynamo.reset() between runs; ids repeat);
    the three fx cache artifacts all belong to compile id 1/0 (miss, hit, miss in the log)."""
    cap = imported["cache_hit_miss.log"]
    comps = list(by_id(cap).values())
    assert len(comps) == 6
    assert {(c.identity.frame_id, c.identity.frame_compile_id) for c in comps} == {(0, 0), (1, 0)}  # type: ignore[attr-defined]
    assert sorted(c.identity.occurrence for c in comps) == [0, 0, 1, 1, 2, 2]  # type: ignore[attr-defined]
    fx = [(c.compile_id, e.decision) for c in comps for e in c.cache_events if e.cache == "fx_graph"]  # type: ignore[attr-defined]
    assert [d for _, d in fx] == ["miss", "hit", "miss"]
    assert all(cid.split("#")[0] == "1/0" for cid, _ in fx)
    assert (cap.counts.cache_hits, cap.counts.cache_misses) == (1, 2)


def test_comp_failure_is_a_failure(imported: dict[str, Capture]) -> None:
    """INDEX: one failing compile: fail_type BackendCompilerFailed, a dynamo_error artifact (even though a
    dynamo_output_graph was emitted: failure wins)."""
    cap = imported["comp_failure.log"]
    (comp,) = by_id(cap).values()
    assert comp.outcome == Outcome.FAILED  # type: ignore[attr-defined]
    assert comp.failure.fail_type == "BackendCompilerFailed"  # type: ignore[attr-defined]
    assert cap.counts.failed == 1 and cap.counts.completed == 0


def test_multi_rank_schedule_rank_from_file_name(imported: dict[str, Capture]) -> None:
    """INDEX: 3 ranks, 2 compiles each; every file says "rank": 0 in JSON, so the file name is the truth."""
    cap = imported["multi_rank_schedule"]
    assert [r.rank for r in cap.ranks] == [0, 1, 2]
    assert [r.counts.observed_compilation_identities for r in cap.ranks] == [2, 2, 2]
    assert any(n.code == "rank_field_disagrees" for n in cap.notices)


def test_multi_rank_runtime_counts(imported: dict[str, Capture]) -> None:
    """INDEX: 7 ranks: 0-4 one run (4 compiles each, 3 recompile_reasons), 5-6 another run (2 compiles).
    grep: ranks 5-6 have 1 recompile_reasons each."""
    cap = imported["multi_rank_runtime"]
    assert [r.rank for r in cap.ranks] == list(range(7))
    assert [r.counts.observed_compilation_identities for r in cap.ranks] == [4] * 5 + [2] * 2
    assert [r.counts.confirmed_recompilation_identities for r in cap.ranks] == [3] * 5 + [1] * 2


def test_graph_exec_order_one_recompile_per_rank(imported: dict[str, Capture]) -> None:
    cap = imported["graph_exec_order_tests"]
    assert [r.rank for r in cap.ranks] == [0, 1]
    assert [r.counts.confirmed_recompilation_identities for r in cap.ranks] == [1, 1]


def test_export_has_no_compile_ids_and_a_damaged_payload(imported: dict[str, Capture]) -> None:
    """INDEX: torch.export (no compile ids); last payload md5 mismatch."""
    cap = imported["export.log"]
    codes = {n.code for n in cap.notices}
    assert "no_compile_ids" in codes and "payload_md5_mismatch" in codes
    assert cap.counts.observed_compilation_identities == 0


def test_corrupted_payload_is_a_notice_not_a_crash(imported: dict[str, Capture]) -> None:
    clean, damaged = imported["simple.log"], imported["simple_corrupted_json.log"]
    assert not any(n.code == "payload_md5_mismatch" for n in clean.notices)
    (notice,) = [n for n in damaged.notices if n.code == "payload_md5_mismatch"]
    assert len(notice.details["lines"]) == 1
    assert clean.counts == damaged.counts


def test_simple_one_inductor_compile_with_cache_miss(imported: dict[str, Capture]) -> None:
    """INDEX: one Inductor compile [0/0] ... fx_graph_cache_miss."""
    cap = imported["simple.log"]
    assert list(by_id(cap)) == ["0/0"]
    assert cap.counts.completed == 1 and cap.counts.cache_misses == 1


def test_messy_directory_ignores_noise_files(imported: dict[str, Capture]) -> None:
    cap = imported["multi_rank_messy_input"]
    assert [r.rank for r in cap.ranks] == [0, 1]
    assert any(n.code == "ignored_files" for n in cap.notices)


@pytest.mark.parametrize("name", sorted(p.name for p in EXPORTS.iterdir() if p.is_dir()))
def test_raw_log_and_tlparse_export_give_the_same_counts(store: Store, name: str) -> None:
    raw = CORPUS / (name if (CORPUS / name).is_dir() else f"{name}.log")
    from_raw = store.import_path(raw).capture
    from_export = store.import_path(EXPORTS / name).capture
    assert from_export.capture.input_kind == "tlparse_export"
    assert [r.counts for r in from_raw.ranks] == [r.counts for r in from_export.ranks]
    assert from_raw.capture.id != from_export.capture.id


def test_reimport_is_a_no_op(store: Store, imported: dict[str, Capture]) -> None:
    again = store.import_path(CORPUS / "comp_metrics.log")
    assert not again.created
    assert again.capture.capture.id == imported["comp_metrics.log"].capture.id
    assert [row.id for row in store.list_captures()].count(again.capture.capture.id) == 1
