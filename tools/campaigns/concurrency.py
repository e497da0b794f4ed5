"""Campaign: at least 8 processes importing the same and different inputs into one store at once.

Each round starts N processes behind a barrier; half import the same input, the rest different ones (raw logs
and tlparse exports). Checks: every process ends with a capture (no error, no traceback), the same input gives
the same id in every process, every distinct id is listed once, `Store.verify` finds no damage, tmp/ is empty.

    uv run python tools/campaigns/concurrency.py [--smoke]   (full: 10 rounds of 12 processes, smoke: 2 of 8)
"""

from __future__ import annotations

import multiprocessing as mp
import shutil
import sys
import tempfile
import traceback
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import FIXTURES, Figures, arguments, finish
from dynamo_diff_store import Store

INPUTS = [
    FIXTURES / "captures" / "stable" / "raw",
    FIXTURES / "captures" / "shape" / "raw",
    FIXTURES / "captures" / "two_ranks" / "raw",
    FIXTURES / "corpus" / "tlparse-exports" / "simple",
    FIXTURES / "corpus" / "tlparse-exports" / "comp_metrics",
    FIXTURES / "captures" / "training",
]


def worker(store: str, source: str, barrier: Any, out: Any) -> None:
    try:
        barrier.wait()
        result = Store(Path(store)).import_path(Path(source), workers=1)
        out.put((source, result.capture.capture.id, None))
    except BaseException:
        out.put((source, None, traceback.format_exc()))


def round_(root: Path, n: int, index: int, figures: Figures) -> str:
    store = root / f"store-{index}"
    sources = [INPUTS[0]] * (n // 2) + [INPUTS[i % len(INPUTS)] for i in range(n - n // 2)]
    ctx = mp.get_context("spawn")
    barrier, out = ctx.Barrier(n), ctx.Queue()
    procs = [ctx.Process(target=worker, args=(str(store), str(s), barrier, out)) for s in sources]
    for p in procs:
        p.start()
    results = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    ids: dict[str, set[str]] = {}
    for source, capture_id, error in results:
        if error is not None:
            figures.fail(f"round {index}: {source}:\n{error}")
        else:
            ids.setdefault(source, set()).add(capture_id)
    for source, found in ids.items():
        if len(found) != 1:
            figures.fail(f"round {index}: {source} gave {len(found)} different ids")
    expected = {i for found in ids.values() for i in found}
    s = Store(store)
    listed = [row.id for row in s.list_captures()]
    if sorted(listed) != sorted(expected):
        figures.fail(f"round {index}: listed {len(listed)} captures, imported {len(expected)} distinct")
    damage = s.verify().damage
    if damage:
        figures.fail(f"round {index}: verify found {damage[:3]}")
    if list((store / "tmp").iterdir()):
        figures.fail(f"round {index}: tmp/ not empty")
    return f"{n} processes, {len(expected)} captures"


def main() -> None:
    args = arguments(__doc__ or "")
    figures = Figures("concurrency")
    rounds, n = (2, 8) if args.smoke else (10, 12)
    root = Path(tempfile.mkdtemp(prefix="concurrency-"))
    try:
        for index in range(rounds):
            figures.run(f"round {index}", partial(round_, root, n, index, figures), bound=180.0)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    finish(figures)


if __name__ == "__main__":
    main()
