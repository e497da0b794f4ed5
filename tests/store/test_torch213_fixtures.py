"""Real torch 2.13 captures (the bundles fixtures/captures/*/) against what each workload recorded about itself.

The expected values are never derived from our analyser: they come from `oracle.json`, written by the
workload while it ran (graphs handed to its counting backend, exceptions it caught, and `expect`, what the
workload's author knows must be true; see fixtures/README.md).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from dynamo_diff_schema import Capture
from dynamo_diff_store import Store

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"
NAMES = sorted(p.name for p in CAPTURES.iterdir() if (p / "oracle.json").exists())
# Jobs of several ranks: their oracle holds one oracle per rank (test_rank_jobs).
RANK_JOBS = [n for n in NAMES if "ranks" in json.loads((CAPTURES / n / "oracle.json").read_text())]
# The oracle's guard vocabulary -> our categories.
KIND = {
    "size": "shape",
    "value": "value",
    "dtype": "dtype",
    "grad_mode": "grad_mode",
    "identity": "identity",
    "type": "type",
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store(tmp_path_factory.mktemp("fixtures") / "store")


def load(store: Store, name: str) -> tuple[Capture, dict[str, Any]]:
    oracle = json.loads((CAPTURES / name / "oracle.json").read_text())
    return store.import_path(CAPTURES / name).capture, oracle


def _rank_expect(name: str) -> dict[str, Any]:
    """The expectations of a multi-rank oracle's first rank."""
    ranks = json.loads((CAPTURES / name / "oracle.json").read_text())["ranks"]
    return dict(ranks[min(ranks)]["expect"])


def test_all_fixtures_are_present() -> None:
    assert len(NAMES) >= 19


@pytest.mark.parametrize("name", [n for n in NAMES if n not in RANK_JOBS])
def test_counts_equal_the_workload_oracle(store: Store, name: str) -> None:
    capture, oracle = load(store, name)
    assert capture.capture.producer.torch == oracle["torch_version"]
    check_oracle(capture.counts, [c for r in capture.ranks for c in r.compilations], oracle)


@pytest.mark.parametrize("name", [n for n in RANK_JOBS if "compilations" in _rank_expect(n)])
def test_each_rank_equals_its_oracle(store: Store, name: str) -> None:
    capture, oracle = load(store, name)
    assert capture.capture.producer.torch == oracle["torch_version"]
    # A rank writes its trace file when it starts compiling: one that compiled nothing has none.
    traced = sorted(r for r, o in oracle["ranks"].items() if o["expect"]["compilations"] or o["backend_invocations"])
    assert sorted(str(r.rank) for r in capture.ranks) == traced
    for rank in capture.ranks:
        check_oracle(rank.counts, rank.compilations, oracle["ranks"][str(rank.rank)])


def check_oracle(counts: Any, comps: list[Any], oracle: dict[str, Any]) -> None:
    """A capture's (or one rank's) counts and compilations against the oracle its workload wrote."""
    expect = oracle["expect"]
    assert counts.observed_compilation_identities == expect["compilations"]
    assert counts.failed == expect.get("failures", 0)
    assert counts.no_graph_observed == expect.get("no_graph", 0)
    assert counts.confirmed_recompilation_identities == expect.get("recompiles", 0)
    assert counts.graph_break_records == expect.get("graph_breaks", 0)
    assert counts.compiler_limit_events == expect.get("recompile_limit_hits", 0)
    # Only a compilation the process never finished (killed while compiling) has no terminal evidence.
    assert counts.unknown_outcomes == len(expect.get("unfinished", [])) and counts.unresolved_outcomes == 0
    # Every graph the backend accepted is one completed compilation with the backend's own op count (functions
    # compiled by a backend the workload does not count are left out).
    # Compile ids repeat after torch._dynamo.reset(): compared as a multiset, without our `#n` occurrence mark.
    accepted = Counter((g["compile_id"], g["op_count"]) for g in oracle.get("backend_graphs", []) if not g["raised"])
    if "backend_graphs" in oracle:
        uncounted = set(expect.get("uncounted_functions", []))
        completed = Counter(
            (c.compile_id.split("#")[0], c.graph.op_count)
            for c in comps
            if c.outcome == "completed" and c.graph and c.code.co_name not in uncounted
        )
        assert completed == accepted
    by_function = Counter(c.code.co_name for c in comps)
    assert dict(by_function) == expect["compilations_by_function"]


@pytest.mark.parametrize(
    "name",
    [
        n
        for n in NAMES
        if "recompile_guard_kinds" in json.loads((CAPTURES / n / "oracle.json").read_text()).get("expect", {})
    ],
)
def test_recompile_guard_categories(store: Store, name: str) -> None:
    capture, oracle = load(store, name)
    expect = oracle["expect"]
    recompiles = [c for r in capture.ranks for c in r.compilations if c.recompile is not None]
    got = [[r.category for r in c.recompile.reasons] for c in recompiles]  # type: ignore[union-attr]
    want = [
        [KIND[k] for k in (kinds if isinstance(kinds, list) else [kinds])] for kinds in expect["recompile_guard_kinds"]
    ]
    if "recompile_reason_entries" in expect:
        assert [len(g) for g in got] == expect["recompile_reason_entries"]
        assert [g[: len(w)] for g, w in zip(got, want, strict=True)] == want or got == want
    else:
        assert [g[0] for g in got] == [w[0] for w in want]


def test_graph_break_sites_and_types(store: Store) -> None:
    capture, oracle = load(store, "graph_break")
    breaks = [gb for r in capture.ranks for c in r.compilations for gb in c.graph_breaks]
    sites = sorted(f"{Path(gb.user_file or '').name}:{gb.user_line}" for gb in breaks)
    assert sites == sorted(oracle["expect"]["graph_break_sites"])
    assert capture.counts.unique_graph_break_sites == len(set(sites))
    assert {gb.gb_id for gb in breaks} == {"gb0059", "gb0124"}


def test_failures_keep_the_fail_type(store: Store) -> None:
    for name in ("backend_failure", "fullgraph_error", "recompile_limit"):
        capture, oracle = load(store, name)
        failed = [c for r in capture.ranks for c in r.compilations if c.outcome == "failed"]
        assert sorted(c.failure.fail_type for c in failed) == sorted(oracle["expect"]["fail_types"])  # type: ignore[union-attr]
        if "failed_functions" in oracle["expect"]:
            assert sorted(c.code.co_name for c in failed) == sorted(oracle["expect"]["failed_functions"])


@pytest.mark.parametrize("name", ["inductor_cold", "inductor_warm", "cache_bypass"])
def test_inductor_cache(store: Store, name: str) -> None:
    capture, oracle = load(store, name)
    expect = oracle["expect"]
    events = [e for r in capture.ranks for c in r.compilations for e in c.cache_events]
    fx = [e.decision for e in events if e.cache == "fx_graph"]
    assert fx.count("hit") == expect["fx_graph_cache_hits"]
    assert fx.count("miss") == expect["fx_graph_cache_misses"]
    assert fx.count("bypass") == expect.get("fx_graph_cache_bypasses", 0)
    aot = [e.decision for e in events if e.cache == "aotautograd"]
    assert aot.count("bypass") == expect.get("aotautograd_cache_bypasses", 0)
    # A bypass says why, in torch's words.
    assert {e.reason for e in events if e.decision == "bypass"} <= {expect.get("cache_bypass_reason")}


def test_compiled_autograd_identity(store: Store) -> None:
    capture, oracle = load(store, "compiled_autograd")
    ids = {c.identity.compiled_autograd_id for r in capture.ranks for c in r.compilations}
    assert ids - {None} == set(oracle["expect"]["compiled_autograd_ids"])
    assert any(c.compile_id.startswith("!0/") for r in capture.ranks for c in r.compilations)


def test_training_backward_is_part_of_the_compilation(store: Store) -> None:
    capture, _ = load(store, "training")
    (comp,) = [c for r in capture.ranks for c in r.compilations]
    assert comp.outcome == "completed"
    assert any(ev.startswith("u1-") for ev in comp.evidence_ids)
    kinds = {e.kind for e in capture.evidence if e.id in comp.evidence_ids}
    assert "bwd_compilation_metrics" in kinds


@pytest.mark.parametrize("name", RANK_JOBS)
def test_rank_jobs(store: Store, name: str) -> None:
    capture, oracle = load(store, name)
    # Every rank writes its trace file when it starts compiling a frame: a job that compiled nothing has none.
    traced = oracle["expect"].get("ranks_with_traces", len(oracle["ranks"]))
    assert [r.rank for r in capture.ranks] == sorted(int(r) for r in oracle["ranks"])[:traced]
    by_rank = {str(r.rank): r.counts for r in capture.ranks}
    for rank, rank_oracle in oracle["ranks"].items():
        expect = rank_oracle["expect"]
        if rank not in by_rank:
            assert expect["compilations"] == 0 and rank_oracle["backend_invocations"] == 0
            continue
        assert by_rank[rank].observed_compilation_identities == expect["compilations"]
        assert by_rank[rank].confirmed_recompilation_identities == expect.get("recompiles", 0)
    if traced:
        assert {r: c.observed_compilation_identities for r, c in by_rank.items()} == oracle["expect"][
            "rank_compilations"
        ]


def test_an_empty_graph_that_reached_the_backend_is_completed(store: Store) -> None:
    """fullgraph `return x`: the counting backend was called with a graph of 0 ops (the oracle), so the
    compilation completed with an empty graph; frames without a graph stay `no_graph_observed`."""
    capture, oracle = load(store, "empty_graph")
    by_name = {c.code.co_name: c for r in capture.ranks for c in r.compilations}
    accepted = {g["compile_id"]: g["op_count"] for g in oracle["backend_graphs"]}
    for name in oracle["expect"]["empty_graphs"]:
        comp = by_name[name]
        assert accepted[comp.compile_id] == 0
        assert comp.outcome == "completed" and comp.graph is not None and comp.graph.empty
        assert comp.graph.op_count == 0 and comp.graph.op_histogram == {}
    assert by_name["store"].outcome == "no_graph_observed" and by_name["store"].compile_id not in accepted


def test_records_of_a_repeated_compile_id_stay_with_their_occurrence(store: Store) -> None:
    """After torch._dynamo.reset() ids repeat; each recompile reason belongs to its own occurrence of 0/1."""
    capture, oracle = load(store, "reset")
    expect = oracle["expect"]
    reasons = {
        c.compile_id: [r.text for r in c.recompile.reasons]
        for r in capture.ranks
        for c in r.compilations
        if c.recompile is not None
    }
    assert sorted(reasons) == sorted(expect["recompile_reasons_by_occurrence"])
    for compile_id, text in expect["recompile_reasons_by_occurrence"].items():
        (only,) = reasons[compile_id]
        assert text in only
    assert capture.counts.guard_reason_entries == sum(expect["recompile_reason_entries"])


def test_phase_times_are_each_kept_once_with_their_evidence(store: Store) -> None:
    """torch 2.13 writes the frame's compile time as entire_frame_compile_time_s and again in microseconds
    (dynamo_cumulative_compile_time_us, duration_us): one quantity is shown once, and points to its record."""
    capture, _ = load(store, "stable")
    (comp,) = [c for r in capture.ranks for c in r.compilations]
    assert "entire_frame_compile_time_s" in comp.phase_times
    assert not {"dynamo_cumulative_compile_time_us", "duration_us"} & set(comp.phase_times)
    excerpt = store.read_evidence(capture.capture.id, comp.phase_evidence_id or "", max_chars=100_000).text
    record = json.loads(excerpt[excerpt.index("{") :].split("\n")[0])["compilation_metrics"]
    assert comp.phase_times["entire_frame_compile_time_s"] == record["entire_frame_compile_time_s"]
    assert record["dynamo_cumulative_compile_time_us"] == round(record["entire_frame_compile_time_s"] * 1e6)


def _aten_ops(name: str, kind: str) -> int:
    """Ops of one AOT graph, counted straight from the trace text (`= torch.ops.` lines of its payload)."""
    (log,) = (CAPTURES / name / "raw").glob("*.log")
    lines = log.read_text().split("\n")
    start = next(i for i, line in enumerate(lines) if f'{{"{kind}"' in line and not line.startswith("\t"))
    payload = []
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            break
        payload.append(line)
    return sum(1 for line in payload if "= torch.ops." in line)


def test_training_counts_the_backward_compilation_and_its_graphs(store: Store) -> None:
    capture, oracle = load(store, "training")
    assert capture.counts.backward_compilations == oracle["expect"]["backward_compilations"] == 1
    (comp,) = [c for r in capture.ranks for c in r.compilations]
    assert comp.aot is not None and comp.aot.backward_compiled
    assert comp.aot.forward_op_count == _aten_ops("training", "aot_forward_graph")
    assert comp.aot.backward_op_count == _aten_ops("training", "aot_backward_graph") > 0
    assert comp.aot.backward_compile_time_s is not None and comp.aot.backward_compile_time_s > 0
    kinds = {e.kind for e in capture.evidence if e.id in comp.aot.evidence_ids}
    assert kinds == {"aot_forward_graph", "aot_backward_graph", "bwd_compilation_metrics"}


def test_every_record_kind_a_notice_names_is_listed_as_evidence(store: Store) -> None:
    """The notice says which kinds are kept but not interpreted; each is reachable through the evidence index."""
    capture, _ = load(store, "training")
    (notice,) = [n for n in capture.notices if n.code == "uninterpreted_record_kinds"]
    _, _, not_indexed = notice.message.partition("not indexed")
    assert "chromium_event" in not_indexed and "describe_tensor" in not_indexed
    for label, count in notice.details["kinds"].items():
        if label in not_indexed:
            continue  # too many to index: the notice says so
        kind = label.removeprefix("artifact:")
        found, total = store.evidence_index(capture.capture.id, kind=kind, limit=1)
        assert total == count and found, label


@pytest.mark.parametrize(
    "name",
    [n for n in NAMES if "compilations_by_caller" in json.loads((CAPTURES / n / "oracle.json").read_text())["expect"]],
)
def test_library_frames_are_attributed_to_the_users_calling_function(store: Store, name: str) -> None:
    """The workload counted, at every graph its backend received, the innermost frame of its own file on the
    Python stack; each compilation of a library frame must name that function as its caller."""
    capture, oracle = load(store, name)
    expect = oracle["expect"]
    assert oracle["compilations_by_caller"] == expect["compilations_by_caller"]
    comps = [c for r in capture.ranks for c in r.compilations]
    callers = Counter(c.code.caller.name for c in comps if c.code.caller is not None)
    assert dict(callers) == expect["compilations_by_caller"]
    workload = json.loads((CAPTURES / name / "fixture.json").read_text())["workload"]
    assert {Path(c.code.caller.filename).name for c in comps if c.code.caller} == {Path(workload).name}


@pytest.mark.parametrize("name", ["inductor_cold", "two_ranks", "graph_break"])
def test_compile_time_is_the_sum_torch_wrote(store: Store, name: str) -> None:
    """The capture's compile time is torch's entire_frame_compile_time_s summed over its compilation_metrics
    (read here with a regular expression over the logs, not through our reader)."""
    import re

    capture, _ = load(store, name)
    seconds = [
        float(m)
        for log in (CAPTURES / name / "raw").glob("*.log")
        for line in log.read_text().splitlines()
        if '{"compilation_metrics"' in line
        for m in re.findall(r'"entire_frame_compile_time_s": ([0-9.]+)', line)
    ]
    assert seconds and abs(capture.counts.compile_time_s - sum(seconds)) < 1e-4
    assert abs(sum(r.counts.compile_time_s for r in capture.ranks) - capture.counts.compile_time_s) < 1e-4


def _metrics_lines(name: str) -> list[dict[str, Any]]:
    """Every compilation_metrics payload of a fixture's logs, parsed here with json, not through our reader."""
    found = []
    for log in sorted((CAPTURES / name / "raw").glob("*.log")):
        for line in log.read_text().splitlines():
            start = line.find('{"compilation_metrics"')
            if start >= 0:
                found.append(json.loads(line[start:])["compilation_metrics"])
    return found


@pytest.mark.parametrize("name", ["inductor_cold", "inductor_warm", "graph_break"])
def test_compile_phases_split_torchs_nested_timers(store: Store, name: str) -> None:
    """Dynamo = entire - backend, AOT/backend = backend - inductor, Inductor = inductor - code gen, code gen, each
    summed over the metrics records; together they are the compile time."""
    capture, _ = load(store, name)
    expected = dict.fromkeys(("dynamo", "aot_backend", "inductor", "code_gen"), 0.0)
    for m in _metrics_lines(name):
        levels = [m.get(k) for k in ("entire_frame_compile_time_s", "backend_compile_time_s")]
        levels += [m.get(k) for k in ("inductor_compile_time_s", "code_gen_time_s")]
        for key, outer, inner in zip(expected, levels, [*levels[1:], None], strict=True):
            if outer is None:
                break
            expected[key] += outer - (inner or 0.0)
    phases = capture.counts.phase_times_s
    assert set(phases) == {k for k, v in expected.items() if v > 0}
    assert all(abs(phases[k] - expected[k]) < 1e-4 for k in phases)
    assert abs(sum(phases.values()) - capture.counts.compile_time_s) < 1e-4
    if name == "inductor_cold":  # Inductor compiled: code generation is most of it
        assert phases["code_gen"] > phases["dynamo"]


def test_each_compilation_says_when_it_started(store: Store) -> None:
    """start_time is the compilation_metrics start_time, in the order torch wrote the records."""
    capture, _ = load(store, "graph_break")
    comps = [c for r in capture.ranks for c in r.compilations]
    written = {m["compile_id"]: m["start_time"] for m in _metrics_lines("graph_break")}
    assert written and {c.compile_id: c.start_time for c in comps if c.start_time is not None} == written
