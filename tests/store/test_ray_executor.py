"""`dynamo-diff import --executor ray`: the per-rank analysis as Ray tasks gives the local executor's capture.

Inputs are jobs made from real rank logs (tests/conftest.py `rank_job`): rank N is a copy of a two_ranks rank log
with its rank rewritten, so the expected counts come from two_ranks/oracle.json and how the job was built. Each
test that starts a local Ray instance takes 10-20 s on two cores. Ray is in the dev group; under CI the tests fail
instead of skipping when it is missing."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from dynamo_diff_schema import DynamoDiffError, ErrorCode
from dynamo_diff_store import Limits, Store
from dynamo_diff_store.analysis import RankJob, analyse_ranks
from dynamo_diff_store.reading import PACK_INDEX_SUFFIX, PACK_SUFFIX

# As the executor does (dynamo_diff_store.analysis._ray.require_ray): workers run this interpreter, not the
# driver's `uv run` command line; read when ray is first imported.
os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
try:
    import ray
except ModuleNotFoundError:  # pragma: no cover - the dev group installs it
    if os.environ.get("CI"):
        raise
    pytest.skip('Ray is not installed (pip install "dynamo-diff[ray]")', allow_module_level=True)

pytestmark = pytest.mark.slow

ORACLE = json.loads((Path(__file__).resolve().parents[2] / "fixtures/captures/two_ranks/oracle.json").read_text())


@pytest.fixture
def own_temp() -> Iterator[Path]:
    """A system temp directory of the test's own for the subprocess (TMPDIR): what the local Ray instance leaves
    there is this test's alone, even while another test run starts Ray beside it (tox runs envs in parallel).
    Short, because Ray's socket paths must be."""
    with tempfile.TemporaryDirectory(prefix="ddr-") as temp:
        yield Path(temp)


def run_alone(code: str, *args: str, temp: Path) -> subprocess.CompletedProcess[str]:
    """`code` in a Python process of its own, with `temp` as its system temp directory. Each Ray instance the
    import starts and stops lives in its own driver process, as when a user runs `dynamo-diff import --executor
    ray`: an instance stopped and another started right after in one process can end that process (Ray exits a
    driver whose raylet went away)."""
    environment = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"} | {"TMPDIR": str(temp)}
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=environment, timeout=300, check=False
    )


CLI = "from dynamo_diff_cli.entry import main; main()"


def local_instances_left(temp: Path) -> list[str]:
    """What a local Ray instance started by the import would leave in the temp directory (nothing, once stopped)."""
    return [p.name for p in temp.iterdir() if p.name.startswith("dynamo-diff-ray-")]


def imported_locally(job: Path, store: Path, temp: Path) -> dict[str, Any]:
    """The capture summary `import --format json` prints for `job` imported with the local executor."""
    local = run_alone(CLI, "--store", str(store), "import", str(job), "--format", "json", temp=temp)
    assert local.returncode == 0, local.stderr[-3000:]
    return summary_printed(local.stdout)


def summary_printed(stdout: str) -> dict[str, Any]:
    """The summary of the one run an `import --format json` (an import_result) imported."""
    (imported,) = json.loads(stdout)["captures"]
    document: dict[str, Any] = imported["summary"]
    return document


def test_a_64_rank_job_on_a_local_ray_instance_equals_the_local_executor(
    rank_job: Callable[..., Path], tmp_path: Path, own_temp: Path
) -> None:
    job = rank_job(tmp_path / "job", {r: 0 if r < 32 else 1 for r in range(64)})
    args = ("--store", str(tmp_path / "ray"), "import", str(job), "--executor", "ray", "-f", "json")
    by_ray = run_alone(CLI, *args, temp=own_temp)
    assert by_ray.returncode == 0, by_ray.stderr[-3000:]
    # The local instance was started for the import and stopped after it, its files removed.
    assert local_instances_left(own_temp) == []
    documents = summary_printed(by_ray.stdout), imported_locally(job, tmp_path / "local", own_temp)
    assert documents[0]["capture"]["id"] == documents[1]["capture"]["id"]
    # two_ranks/oracle.json: rank 0 compiles once, rank 1 three times; ranks 0-31 copy rank 0, 32-63 rank 1.
    per_rank = ORACLE["expect"]["rank_compilations"]
    expected = [per_rank["0"] if r < 32 else per_rank["1"] for r in range(64)]
    for document in documents:
        assert [r["rank"] for r in document["ranks"]] == list(range(64))
        assert [r["counts"]["observed_compilation_identities"] for r in document["ranks"]] == expected
        assert document["counts"]["observed_compilation_identities"] == sum(expected)
        assert all(r["compilations"] == [] for r in document["ranks"])  # the summary: no compilations
    assert documents[0]["counts"] == documents[1]["counts"]
    # The whole stored document is the same, but for when it was imported.
    capture_id = documents[1]["capture"]["id"]
    stored = [
        json.loads((tmp_path / side / "captures" / capture_id / "capture.json").read_text(encoding="utf-8"))
        for side in ("ray", "local")
    ]
    for document in stored:
        document["capture"].pop("imported_at")
    assert stored[0] == stored[1]
    assert sorted(p.name for p in (tmp_path / "ray" / "tmp").iterdir()) == []


INTERRUPTED = """
import json, sys
from pathlib import Path
import ray
from dynamo_diff_store import Store

def interrupt(phase, done, total):
    if phase == "analyse" and done == 2:
        raise KeyboardInterrupt

try:
    Store(Path(sys.argv[2])).import_path(Path(sys.argv[1]), executor="ray", progress=interrupt)
except KeyboardInterrupt:
    print(json.dumps({"interrupted": True, "ray_running": ray.is_initialized()}))
"""


def test_ctrl_c_stops_the_local_instance_and_keeps_nothing(
    rank_job: Callable[..., Path], tmp_path: Path, own_temp: Path
) -> None:
    job = rank_job(tmp_path / "job", {r: r % 2 for r in range(8)})
    done = run_alone(INTERRUPTED, str(job), str(tmp_path / "store"), temp=own_temp)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout) == {"interrupted": True, "ray_running": False}
    assert local_instances_left(own_temp) == []
    assert list((tmp_path / "store" / "captures").iterdir()) == []
    assert list((tmp_path / "store" / "tmp").iterdir()) == []


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    """One local Ray instance for the failure tests (an import finds it initialised and leaves it running)."""
    with tempfile.TemporaryDirectory(prefix="dynamo-diff-ray-test-") as temp:
        ray.init(
            address="local",
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
            _temp_dir=temp,
        )
        try:
            yield
        finally:
            ray.shutdown()


def test_an_analysis_error_in_a_worker_is_the_same_error_and_keeps_nothing(
    ray_instance: None, rank_job: Callable[..., Path], tmp_path: Path
) -> None:
    """A rank over a limit fails in its Ray task with the local executor's error (resource_limit, picklable
    with its code and details), and the store keeps no capture and no staging. Which rank is named may differ:
    the local pool reports the first in rank order, Ray the first to finish."""
    job = rank_job(tmp_path / "job", {r: r % 2 for r in range(4)})
    store = Store(tmp_path / "store")
    with pytest.raises(DynamoDiffError) as local:
        store.import_path(job, limits=Limits(max_records=20))
    with pytest.raises(DynamoDiffError) as by_ray:
        store.import_path(job, limits=Limits(max_records=20), executor="ray")
    assert by_ray.value.code == local.value.code == ErrorCode.RESOURCE_LIMIT
    files = {p.name for p in job.iterdir()}
    for error in (by_ray.value, local.value):
        assert {k: error.details[k] for k in ("limit", "maximum")} == {"limit": "max_records", "maximum": 20}
        assert error.details["file"] in files
    assert list((tmp_path / "store" / "captures").iterdir()) == []
    assert list((tmp_path / "store" / "tmp").iterdir()) == []
    assert ray.is_initialized()  # an instance this process started itself is left running


def test_a_worker_that_cannot_see_the_store_is_executor_failed(ray_instance: None, tmp_path: Path) -> None:
    """What a cluster whose nodes do not mount the store sees: a clear error naming the rank and what to do."""
    job = RankJob(root=str(tmp_path / "not-shared"), group="r3", rank=3, files=(("rank_3.log", "raw_log"),))
    with pytest.raises(DynamoDiffError) as failed:
        analyse_ranks([job], tmp_path / "work-not-shared", executor="ray")
    assert failed.value.code == ErrorCode.EXECUTOR_FAILED
    assert "cannot see the staged input" in failed.value.message and "same path" in failed.value.message
    assert failed.value.details["rank"] == 3


def test_any_other_failure_in_a_task_is_executor_failed_naming_the_rank(ray_instance: None, tmp_path: Path) -> None:
    """An exception the analysis does not turn into an error of its own (here: a damaged payload index that only
    a tampered staging directory could hold) is `executor_failed` with the rank, its files and the cause."""
    root, work = tmp_path / "staged", tmp_path / "work"
    root.mkdir()
    work.mkdir()
    (root / "raw.jsonl").write_text("")
    (root / ("raw.jsonl" + PACK_SUFFIX)).write_bytes(b"")
    (root / ("raw.jsonl" + PACK_INDEX_SUFFIX)).write_text("{")
    job = RankJob(root=str(root), group="r5", rank=5, files=(("raw.jsonl", "tlparse_jsonl"),))
    with pytest.raises(DynamoDiffError) as failed:
        analyse_ranks([job], work, executor="ray")
    assert failed.value.code == ErrorCode.EXECUTOR_FAILED
    assert "rank 5 (raw.jsonl)" in failed.value.message and "JSONDecodeError" in failed.value.message
    assert failed.value.details == {"rank": 5, "files": ["raw.jsonl"]}


@pytest.fixture
def ray_cluster(own_temp: Path) -> Iterator[tuple[dict[str, str], subprocess.Popen[bytes]]]:
    """A Ray cluster of its own, started as an operator starts one (`ray start --head --block`) with token
    authentication and a token of its own, in a process group that is stopped after the test. Yields the
    environment that reaches it (RAY_ADDRESS, RAY_AUTH_MODE, RAY_AUTH_TOKEN) and the head process."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    environment = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"} | {
        "TMPDIR": str(own_temp),
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN": secrets.token_hex(32),
        "RAY_USAGE_STATS_ENABLED": "0",
    }
    command = [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block", f"--port={port}"]
    command += ["--num-cpus=2", "--include-dashboard=false", f"--temp-dir={own_temp / 'cluster'}"]
    head = subprocess.Popen(
        command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            assert head.poll() is None, "ray start --head exited"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the cluster's port never opened"
                time.sleep(0.2)
        yield environment | {"RAY_ADDRESS": f"127.0.0.1:{port}"}, head
    finally:
        # The whole group: `ray start --block` stops its processes itself only after a long grace.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)
        head.wait(timeout=60)


def test_ray_address_imports_on_a_running_cluster_and_leaves_it_running(
    ray_cluster: tuple[dict[str, str], subprocess.Popen[bytes]],
    rank_job: Callable[..., Path],
    tmp_path: Path,
    own_temp: Path,
) -> None:
    environment, head = ray_cluster
    job = rank_job(tmp_path / "job", {r: r % 2 for r in range(16)})
    args = ["--store", str(tmp_path / "cluster"), "import", str(job), "--executor", "ray", "-f", "json"]
    on_cluster = subprocess.run(
        [sys.executable, "-c", CLI, *args], capture_output=True, text=True, env=environment, timeout=300, check=False
    )
    assert on_cluster.returncode == 0, on_cluster.stderr[-3000:]
    assert head.poll() is None  # the import disconnected; the cluster it did not start still runs
    assert local_instances_left(own_temp) == []  # none was started
    documents = summary_printed(on_cluster.stdout), imported_locally(job, tmp_path / "local", own_temp)
    assert documents[0]["capture"]["id"] == documents[1]["capture"]["id"]
    per_rank = ORACLE["expect"]["rank_compilations"]
    expected = [per_rank[str(r % 2)] for r in range(16)]
    for document in documents:
        assert [r["counts"]["observed_compilation_identities"] for r in document["ranks"]] == expected
