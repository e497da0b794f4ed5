"""Where the ranks of an import are analysed: "local", a pool of processes on this machine (one rank on its own
is read in this process, a large file of it as byte ranges in a pool), or "ray", one Ray task per rank
(analysis._ray; Ray is imported only then). Every executor runs the same `analyse_rank` and gives the same
results."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Literal

from dynamo_diff_store.analysis._rank_analysis import analyse_rank
from dynamo_diff_store.analysis._rank_job import Copying, RankJob, RankResult, SharedConfigs
from dynamo_diff_store.analysis._workers import exit_with_parent

Executor = Literal["local", "ray"]
EXECUTORS: tuple[Executor, ...] = ("local", "ray")


def require_executor(executor: Executor) -> None:
    """Fail early (before an input is copied) when the executor cannot run here: `missing_extra` without Ray."""
    if executor == "ray":
        from dynamo_diff_store.analysis._ray import require_ray

        require_ray()
    elif executor != "local":
        raise ValueError(f"executor {executor!r}: one of {', '.join(EXECUTORS)}")


def analyse_ranks(
    jobs: Sequence[RankJob],
    work: Path,
    workers: int | None = None,
    on_rank: Callable[[int], None] | None = None,
    executor: Executor = "local",
    copying: Copying | None = None,
    on_bytes: Callable[[int, int], None] | None = None,
    guest: bool = False,
) -> list[RankResult]:
    """Run analyse_rank over the jobs, in parallel processes when there is more than one (or as Ray tasks,
    `executor="ray"`: the same results); each rank's compilations and evidence are written under `work`.
    `on_rank(n)` is told how many ranks are done; `on_bytes(done, total)`, for one job (read in this process), how
    many of its trace bytes are read. `copying`: the one raw log of one local job is still being
    copied (Copying); should the analysis fail, the caller cancels that copy. `guest`: this process is not ours (the
    pytest plugin's): a rank read in it leaves the collector's generations as they are (RankJob.guest)."""
    if copying is not None and (
        len(jobs) != 1 or executor != "local" or (copying.file, "raw_log") not in jobs[0].files
    ):
        raise ValueError("reading while the input is copied: one raw log of one job, on the local executor")
    if not jobs:
        return []  # a bundle without trace files (a run that compiled no frame)
    jobs = [replace(job, work=str(work), guest=guest) for job in jobs]
    done = on_rank or (lambda _: None)
    if executor == "ray":
        from dynamo_diff_store.analysis._ray import analyse_ranks_ray

        return analyse_ranks_ray(jobs, done)
    if executor != "local":
        raise ValueError(f"executor {executor!r}: one of {', '.join(EXECUTORS)}")
    if len(jobs) == 1:
        cpus = os.cpu_count() or 1
        job = replace(jobs[0], chunk_workers=cpus if workers is None else max(workers, 1))
        result = analyse_rank(job, copying, on_bytes)
        done(1)
        return [result]
    if workers is None:
        workers = min(len(jobs), os.cpu_count() or 1)
    results: list[RankResult] = []
    shared = SharedConfigs()
    if workers <= 1:
        for job in jobs:
            results.append(shared.share(analyse_rank(job)))
            done(len(results))
        return results
    with ProcessPoolExecutor(max_workers=workers, initializer=exit_with_parent, initargs=(os.getpid(),)) as pool:
        for result in pool.map(analyse_rank, jobs):
            results.append(shared.share(result))
            done(len(results))
    return results
