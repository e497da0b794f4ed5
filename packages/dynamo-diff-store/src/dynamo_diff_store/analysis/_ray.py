"""The per-rank analysis as Ray tasks (`executor="ray"`): one task runs `analyse_rank(job)` and returns its
`RankResult`, exactly what a process of the local pool returns, so the capture is the same (same id, same
document).

Ray is the optional extra `dynamo-diff-store[ray]` and is imported only here, when an import asks for it. With
`RAY_ADDRESS` set the tasks go to that cluster; otherwise a local Ray instance is started for the run (one CPU
per core, no dashboard, its files in a temporary directory of its own) and stopped afterwards, also on an error
or Ctrl-C. Workers read the staged files and write the rank's work files where the job names them: on a
cluster, the store must be on storage every node sees at the same path."""

from __future__ import annotations

import importlib
import logging
import os
import shutil
import socket
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import replace
from pathlib import Path
from typing import Any

from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode

from dynamo_diff_store.analysis._rank_analysis import analyse_rank
from dynamo_diff_store.analysis._rank_job import RankJob, RankResult, SharedConfigs
from dynamo_diff_store.analysis._reader_version import READER_VERSION

INSTALL_HINT = 'the Ray executor needs Ray: pip install "dynamo-diff[ray]"'
# A task that fails because its worker or node died is run again (analyse_rank is pure: a retry rewrites the
# same work files); an exception raised by the analysis itself is not retried.
MAX_RETRIES = 2
# How long the driver waits for more results before it reports progress.
WAIT_SECONDS = 0.2


class StoreNotVisibleError(Exception):
    """Raised in a Ray worker that cannot see the staged input (the store is not on storage the cluster sees)."""

    def __init__(self, root: str, host: str) -> None:
        super().__init__(root, host)
        self.root = root
        self.host = host


def _task(job: RankJob) -> tuple[str, RankResult]:
    """What one Ray task runs: the reader version it was built with (checked by the driver) and the result."""
    if not Path(job.root).is_dir() or not Path(job.work).is_dir():
        raise StoreNotVisibleError(job.root, socket.gethostname())
    return READER_VERSION, analyse_rank(job)


def require_ray() -> Any:
    # Ray starts its workers with the driver's own `uv run ...` command line when the driver runs under `uv run`
    # (read when ray is first imported): under `uv run --python 3.13 tox`, that re-synced the project's
    # environment for every worker and the import never finished. Workers run this interpreter instead.
    os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    try:
        return importlib.import_module("ray")
    except ModuleNotFoundError:
        raise DynamoDiffError(ErrorCode.MISSING_EXTRA, INSTALL_HINT) from None


# Ray clusters started with token authentication (the default of `ray start` when a token exists) refuse a driver
# that does not send the token, and Ray sends it only when told to: the error says so.
AUTH_HINT = (
    ". If the cluster uses token authentication, set RAY_AUTH_MODE=token, with the cluster's token in "
    "RAY_AUTH_TOKEN or ~/.ray/auth_token"
)


@contextmanager
def _session(ray: Any) -> Iterator[str]:
    """Ray connected for the run: the cluster at RAY_ADDRESS, one already initialised in this process (kept
    running), or a local instance started here and stopped on the way out. Yields where the tasks run."""
    if ray.is_initialized():
        yield "the Ray instance this process is connected to"
        return
    address = os.environ.get("RAY_ADDRESS")
    if address:
        try:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
        except Exception as err:
            raise DynamoDiffError(
                ErrorCode.EXECUTOR_FAILED,
                f"cannot connect to the Ray cluster at RAY_ADDRESS={address}: {type(err).__name__}: {err}"
                + ("" if os.environ.get("RAY_AUTH_MODE") else AUTH_HINT),
                address=address,
            ) from err
        try:
            yield f"the Ray cluster at {address}"
        finally:
            ray.shutdown()
        return
    # A local instance of our own: its sockets and logs in a new directory under the system temp (Ray's socket
    # paths must stay short), removed when it stops, also after an error or Ctrl-C; no usage report is sent.
    temp = tempfile.mkdtemp(prefix="dynamo-diff-ray-")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    cpus = os.cpu_count() or 1
    try:
        # Ray enables token authentication for a new local instance (its token in ~/.ray) and warns that it did
        # so on stderr: kept, without the warning.
        quiet = logging.getLogger("ray._private.authentication.authentication_token_setup")
        level = quiet.level
        quiet.setLevel(logging.ERROR)
        try:
            ray.init(
                address="local",
                num_cpus=cpus,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
                _temp_dir=temp,
            )
        except Exception as err:
            raise DynamoDiffError(
                ErrorCode.EXECUTOR_FAILED, f"a local Ray instance could not start: {type(err).__name__}: {err}"
            ) from err
        finally:
            quiet.setLevel(level)
        yield f"a local Ray instance ({cpus} CPUs)"
    finally:
        _shutdown(ray)
        shutil.rmtree(temp, ignore_errors=True)


def _shutdown(ray: Any) -> None:
    with suppress(Exception):  # stopping must not hide the error that got us here
        ray.shutdown()


def analyse_ranks_ray(jobs: Sequence[RankJob], on_rank: Callable[[int], None]) -> list[RankResult]:
    """Run analyse_rank over the jobs as Ray tasks; results in the jobs' order, `on_rank(n)` as each finishes."""
    ray = require_ray()
    # Each task reads one rank in one process (no byte-range pool inside a Ray worker).
    jobs = [replace(job, chunk_workers=1) for job in jobs]
    with _session(ray) as where:
        remote = ray.remote(num_cpus=1, max_retries=MAX_RETRIES)(_task)
        pending = {remote.remote(job): i for i, job in enumerate(jobs)}
        results: list[RankResult | None] = [None] * len(jobs)
        shared = SharedConfigs()
        try:
            while pending:
                # Every result ready within a moment, not one at a time: a wait is linear in the refs it is given.
                ready, _ = ray.wait(list(pending), num_returns=len(pending), timeout=WAIT_SECONDS)
                for ref in ready:
                    i = pending.pop(ref)
                    try:
                        version, result = ray.get(ref)
                    except Exception as err:
                        raise _task_error(ray, err, jobs[i], where) from err
                    if version != READER_VERSION:
                        raise DynamoDiffError(
                            ErrorCode.EXECUTOR_FAILED,
                            f"the Ray workers on {where} run reader version {version}, this process {READER_VERSION}: "
                            "install the same dynamo-diff version on the cluster; no partial capture was kept",
                        )
                    results[i] = shared.share(result)
                    on_rank(len(jobs) - len(pending))
        except BaseException:
            # A local instance of our own is stopped on the way out, which ends its tasks; on a cluster, the tasks
            # not yet done are cancelled (not forced: forcing while a reply is in flight crashed Ray's core
            # worker, "Tried to complete task that was not pending", in our Ctrl-C test).
            if os.environ.get("RAY_ADDRESS"):
                for ref in pending:
                    with suppress(Exception):  # best effort: the cluster may be gone already
                        ray.cancel(ref)
            raise
    return [r for r in results if r is not None]


def _task_error(ray: Any, err: Exception, job: RankJob, where: str) -> BaseException:
    """What a failed task means for the user: the analysis's own error as the local executor raises it, or
    `executor_failed` saying which rank failed, where and why."""
    cause = getattr(err, "cause", None) if isinstance(err, ray.exceptions.RayTaskError) else None
    if isinstance(cause, DynamoDiffError | OSError):
        return cause  # what the local executor raises (an OSError becomes io_error)
    rank = "the file without a rank" if job.rank is None else f"rank {job.rank}"
    files = ", ".join(rel for rel, _ in job.files)
    if isinstance(cause, StoreNotVisibleError):
        return DynamoDiffError(
            ErrorCode.EXECUTOR_FAILED,
            f"the Ray worker on host {cause.host} cannot see the staged input {cause.root}: with RAY_ADDRESS, "
            "the store must be on storage every node of the cluster sees at the same path "
            "(--store, DYNAMO_DIFF_STORE); no partial capture was kept",
            rank=job.rank,
            host=cause.host,
        )
    what = f"{type(cause).__name__}: {cause}" if cause is not None else f"{type(err).__name__}: {err}"
    return DynamoDiffError(
        ErrorCode.EXECUTOR_FAILED,
        f"the Ray task for {rank} ({files}) failed on {where}: {what.strip().splitlines()[-1]}; "
        "no partial capture was kept",
        rank=job.rank,
        files=[rel for rel, _ in job.files],
    )
