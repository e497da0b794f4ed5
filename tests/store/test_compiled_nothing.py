"""A run that compiled nothing is a capture (fixtures compiled_nothing, compiled_nothing_ranks: torch.compile called,
its result never called, no trace file written), and a run whose frames all ended without a graph says so
(fixture no_graph). Expected values come from the workloads' oracles and their source text, never from the analyser.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from dynamo_diff_schema import Capture, DynamoDiffError, ErrorCode, validate
from dynamo_diff_store import Store

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "fixtures/captures"
WORKLOADS = ROOT / "fixtures/workloads"
EMPTY = ("compiled_nothing", "compiled_nothing_ranks")


def oracle(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CAPTURES / name / "oracle.json").read_text(encoding="utf-8"))
    return data


def call_sites(script: str, *calls: str) -> list[str]:
    """'target at file:line' for each `torch.compile(<arg>` call in the workload's own source text."""
    lines = (WORKLOADS / script).read_text(encoding="utf-8").splitlines()
    found = []
    for target, arg in calls:
        (line,) = [n for n, text in enumerate(lines, 1) if f"torch.compile({arg}," in text]
        found.append(f"{target} at {script}:{line}")
    return found


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store(tmp_path_factory.mktemp("nothing") / "store")


def test_the_fixtures_compiled_nothing_by_their_own_account() -> None:
    for name in EMPTY:
        data = oracle(name)
        assert data["backend_invocations"] == 0 and data["counters"] == {}
        assert data["expect"]["compilations"] == 0 and data["expect"]["torch_compile_calls"] == 2
        assert not (CAPTURES / name / "raw").exists() or not any((CAPTURES / name / "raw").iterdir())
    ranks = oracle("compiled_nothing_ranks")["ranks"]
    assert sorted(ranks) == ["0", "1"] and all(r["torch_compile_calls"] == 1 for r in ranks.values())


@pytest.mark.parametrize(
    ("name", "sites"),
    [
        ("compiled_nothing", call_sites("compiled_nothing.py", ("Net", "net"), ("score", "score"))),
        ("compiled_nothing_ranks", call_sites("compiled_nothing_ranks.py", ("Net", "net"))),
    ],
)
def test_a_run_that_wrote_no_trace_is_a_capture_of_zero_compilations(store: Store, name: str, sites: list[str]) -> None:
    capture = store.import_path(CAPTURES / name).capture
    info = capture.capture
    assert capture.ranks == [] and set(capture.counts.values().values()) == {0} and capture.counts.incomplete == []
    # It completed (exit code 0, the manifest and the bundle agree that there is no trace file): it compiled nothing.
    assert (info.run.state, info.run.finished, info.validity.provenance) == ("completed", True, "verified")
    assert info.validity.workload_completion == "declared_completed"
    assert info.compiled.state == "nothing_compiled" and info.compiled.compilations == 0
    assert info.compiled.torch_compile_calls == oracle(name)["expect"]["torch_compile_calls"]
    assert info.compiled.summary == f"torch.compile was called 2 times ({'; '.join(sites)}) but no frame was compiled"
    assert info.producer.torch == oracle(name)["torch_version"]  # from the observer: there is no trace to say
    validate(capture.model_dump(mode="json", exclude={"evidence"}), "capture")


def test_a_clone_without_the_empty_raw_folder_is_the_same_capture(store: Store, tmp_path: Path) -> None:
    # git keeps no empty folder: a clone of the repository has the bundle without raw/.
    first = store.import_path(CAPTURES / "compiled_nothing").capture.capture.id
    copy = tmp_path / "compiled_nothing"
    shutil.copytree(CAPTURES / "compiled_nothing", copy)
    shutil.rmtree(copy / "raw", ignore_errors=True)
    assert Store(tmp_path / "other").import_path(copy).capture.capture.id == first


def test_frames_without_a_graph_say_so(store: Store) -> None:
    capture = store.import_path(CAPTURES / "no_graph").capture
    expect = oracle("no_graph")["expect"]
    assert oracle("no_graph")["backend_invocations"] == 0 and expect["graphs"] == 0
    compiled = capture.capture.compiled
    assert compiled.state == "no_graph" and compiled.compilations == expect["compilations"] == expect["no_graph"]
    assert compiled.summary == (
        f"frames ran but no graph reached the backend: {expect['compilations']} compilation(s), every one without a "
        "graph"
    )
    assert compiled.torch_compile_calls is None  # recorded before capture had an observer


# The call_compiled pair's "before": torch.compile called once, the original function called instead.
UNCALLED = "pair_call_compiled_before"
COMPILED = sorted(
    p.name for p in CAPTURES.iterdir() if (p / "oracle.json").is_file() and p.name not in (*EMPTY, UNCALLED)
)


def test_a_compiled_function_never_called_is_nothing_compiled(store: Store) -> None:
    data = oracle(UNCALLED)
    assert data["backend_invocations"] == 0 and data["counters"] == {} and data["expect"]["torch_compile_calls"] == 1
    info = store.import_path(CAPTURES / UNCALLED).capture.capture
    assert info.compiled.state == "nothing_compiled" and info.compiled.compilations == 0
    assert info.compiled.torch_compile_calls == 1
    # The workload ran as model.py (the pairs run from one fixed path): its torch.compile line, from its own source.
    (site,) = call_sites("pairs/call_compiled_before.py", ("score", "score"))
    where = "model.py:" + site.rsplit(":", 1)[1]
    assert info.compiled.summary == f"torch.compile was called once (score at {where}) but no frame was compiled"


@pytest.mark.parametrize("name", [n for n in COMPILED if n != "no_graph"])
def test_every_other_fixture_compiled(store: Store, name: str) -> None:
    data = oracle(name)
    ranks = data.get("ranks", {}).values()
    # The backend received a graph, or a compilation failed (fullgraph_error fails in Dynamo, before any backend).
    graphs = data.get("backend_invocations", sum(r["backend_invocations"] for r in ranks))
    assert graphs or data["expect"].get("failures")
    assert store.import_path(CAPTURES / name).capture.capture.compiled.state == "compiled"


def _without_traces(tmp_path: Path, manifest: dict[str, Any]) -> Path:
    bundle = tmp_path / "bundle"
    shutil.copytree(CAPTURES / "compiled_nothing", bundle)
    (bundle / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return bundle


def test_a_bundle_that_records_no_run_is_no_trace(tmp_path: Path) -> None:
    manifest = json.loads((CAPTURES / "compiled_nothing" / "manifest.json").read_text(encoding="utf-8"))
    manifest["workload"] = {}  # no command ended here: nothing says a run happened
    store = Store(tmp_path / "store")
    with pytest.raises(DynamoDiffError) as info:
        store.import_path(_without_traces(tmp_path, manifest))
    assert info.value.code is ErrorCode.NO_TRACE and "does not record how a command ended" in info.value.message
    assert not (tmp_path / "store" / "captures").exists() or not any((tmp_path / "store" / "captures").iterdir())


def test_an_unobserved_run_that_compiled_nothing_says_what_is_not_known(tmp_path: Path) -> None:
    manifest = json.loads((CAPTURES / "compiled_nothing" / "manifest.json").read_text(encoding="utf-8"))
    manifest["observed"] = None  # as `capture --no-observe` writes it
    capture = Store(tmp_path / "store").import_path(_without_traces(tmp_path, manifest)).capture
    compiled = capture.capture.compiled
    assert compiled.state == "nothing_compiled" and compiled.torch_compile_calls is None
    assert compiled.summary == "no frame was compiled (whether torch.compile was called was not observed)"


@pytest.mark.parametrize("content", [[], ["dedicated_log_torch_trace_abc.log"]])
def test_a_bare_empty_trace_directory_is_no_trace(tmp_path: Path, content: list[str]) -> None:
    trace = tmp_path / "TORCH_TRACE"
    trace.mkdir()
    for name in content:
        (trace / name).write_bytes(b"")
    with pytest.raises(DynamoDiffError) as info:
        Store(tmp_path / "store").import_path(trace)
    assert info.value.code is ErrorCode.NO_TRACE


def test_a_capture_of_an_earlier_reader_says_whether_it_compiled(store: Store) -> None:
    for name, state in (
        ("compiled_nothing_ranks", "nothing_compiled"),
        ("no_graph", "no_graph"),
        ("stable", "compiled"),
    ):
        document = store.import_path(CAPTURES / name).capture.model_dump(mode="json", exclude={"evidence"})
        want = document["capture"].pop("compiled")
        read = Capture.model_validate(document)  # as capture.json of reader version 10 reads back
        assert read.capture.compiled.model_dump(mode="json") == want and want["state"] == state
