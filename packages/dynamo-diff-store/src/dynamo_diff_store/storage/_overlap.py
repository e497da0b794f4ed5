"""An import's copy into staging and its reading, overlapped for a single large raw log.

The copy hashes every byte into the capture id and the reading must see exactly those bytes, so the reading waits
for the copy (storage._staged_copy, handed to the analysis as `analysis.Copying`: a size and a `ready(upto)`): a
byte range goes to a worker once the copy has written past its end. The copy runs in a thread (reading, hashing and
writing release the interpreter lock), and the importing process folds the first ranges' facts while later bytes
are still being copied. Should the reading fail or be interrupted, the copy is cancelled here.

What changes for the caller: the capture id is known only when the copy has ended, after the reading, so bytes
already in the store are read again before the import finds them there, and a label that another capture holds is
refused after the reading rather than before it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

from dynamo_diff_store.analysis import RankResult, analyse_ranks, reads_in_ranges
from dynamo_diff_store.limits import Limits
from dynamo_diff_store.reading import InputLayout
from dynamo_diff_store.storage._staged_copy import CopyCancelledError, StagedCopy
from dynamo_diff_store.storage._staging import Beside, copy_input, plan_jobs

Progress = Callable[[str, int, int], None]


def overlaps(layout: InputLayout, executor: str, workers: int | None) -> bool:
    """Whether the input is one raw log large enough to be read in ranges by local workers while it is copied."""
    cores = os.cpu_count() or 1
    if executor != "local" or cores < 2 or (workers is not None and workers < 2):
        return False
    only = layout.files[0] if len(layout.files) == 1 else None
    return only is not None and only.format == "raw_log" and reads_in_ranges(only.size, workers or cores)


def copy_while_reading(
    layout: InputLayout,
    dest: Path,
    work: Path,
    limits: Limits,
    *,
    manifest: Path | None,
    progress: Progress | None,
    workers: int | None,
    guest: bool = False,
    beside: Beside | None = None,
) -> tuple[dict[str, str], list[RankResult]]:
    """copy_input and analyse_ranks of an input `overlaps` accepts, at once: (the copied files' hashes, the
    results). The copy's own error comes first, as when it ran before the reading."""
    staged = StagedCopy()
    lock = threading.Lock()  # progress is reported from both threads

    def report(phase: str, done: int, total: int) -> None:
        if progress is not None:
            with lock:
                progress(phase, done, total)

    outcome: dict[str, dict[str, str] | BaseException] = {}

    def copy() -> None:
        try:
            outcome["files"] = copy_input(
                layout, dest, limits, manifest=manifest, progress=report, staged=staged, beside=beside
            )
        except BaseException as exc:  # handed to the importing thread
            outcome["error"] = exc
            staged.end(exc)
        else:
            staged.end()
            report("analyse", 0, 1)

    thread = threading.Thread(target=copy, name="dynamo-diff-copy", daemon=True)

    def rank_done(n: int) -> None:
        thread.join()  # the copy's last report ("analyse", 0, 1) comes before the rank's
        report("analyse", n, len(jobs))

    thread.start()
    try:
        jobs = plan_jobs(layout, dest, limits)
        copying = staged.ready_for(layout.files[0].rel)
        results = analyse_ranks(
            jobs,
            work,
            workers=workers,
            on_rank=rank_done,
            copying=copying,
            on_bytes=lambda done, total: report("read", done, total),
            guest=guest,
        )
    except BaseException:
        staged.cancel()  # the reading failed or was interrupted: the copy stops at its next write
        thread.join()
        error = outcome.get("error")
        if isinstance(error, BaseException) and not isinstance(error, CopyCancelledError):
            raise error from None
        raise
    thread.join()
    error = outcome.get("error")
    if isinstance(error, BaseException):
        raise error
    files = outcome["files"]
    assert isinstance(files, dict)
    return files, results
