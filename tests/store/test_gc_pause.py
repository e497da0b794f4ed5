"""The one way library code pauses the cyclic garbage collector."""

from __future__ import annotations

import gc
import re
import weakref
from pathlib import Path

import pytest
from dynamo_diff_store import collector_paused

ROOT = Path(__file__).resolve().parents[2]


def test_the_collector_is_paused_inside_and_resumed_after_also_on_an_error() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()


def test_no_other_library_code_switches_the_collector() -> None:
    own = ROOT / "packages/dynamo-diff-store/src/dynamo_diff_store/gc_pause.py"
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in (ROOT / "packages").rglob("src/**/*.py")
        if path != own
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bgc\.(disable|enable)\(", line)
    ]
    assert found == []


class _Node:
    next: object = None


def test_what_the_block_kept_goes_to_the_oldest_generation_and_cycles_are_still_collected() -> None:
    gc.collect()
    frozen_before = gc.get_freeze_count()  # some interpreters freeze objects at start-up: then nothing is moved
    with collector_paused():
        kept = [[n] for n in range(1000)]
        cycle = _Node()
        cycle.next = cycle
        gone = weakref.ref(cycle)
        del cycle
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen_before
    if not frozen_before:
        assert gc.get_count()[0] < 100  # no pending scan of the block's objects
    gc.collect()
    assert gone() is None  # the cycle made inside the block
    assert len(kept) == 1000


def test_objects_the_program_froze_stay_frozen() -> None:
    gc.collect()
    ours = not gc.get_freeze_count()
    if ours:
        gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with collector_paused():
            _ = [[n] for n in range(100)]
        assert gc.get_freeze_count() == frozen
    finally:
        if ours:
            gc.unfreeze()


def _generation_of(obj: object) -> int | None:
    return next((g for g in range(3) if any(o is obj for o in gc.get_objects(generation=g))), None)


def test_a_guest_pauses_the_collector_and_leaves_the_programs_generations_alone() -> None:
    gc.collect()
    if gc.get_freeze_count():
        pytest.skip("the interpreter froze objects at start-up: nothing is moved for anyone")
    young = [object()]  # the program's own object, not yet scanned by the collector
    assert _generation_of(young) == 0
    with collector_paused(guest=True):
        assert not gc.isenabled()
        made = [[n] for n in range(100)]
    assert gc.isenabled()
    assert _generation_of(young) == 0 and _generation_of(made) == 0  # where the program's collector left them
    with collector_paused():
        pass
    assert _generation_of(young) == 2  # not a guest: everything is moved to the oldest generation


def test_reading_a_trace_as_a_guest_leaves_the_programs_objects_where_they_were(tmp_path: Path) -> None:
    """The pytest plugin's store is a guest in the user's test process (docs/PYTEST.md)."""
    from dynamo_diff_store import Store

    trace = ROOT / "fixtures/captures/graph_break/raw"
    gc.collect()
    if gc.get_freeze_count():
        pytest.skip("the interpreter froze objects at start-up: nothing is moved for anyone")
    thresholds = gc.get_threshold()
    gc.set_threshold(1_000_000, 1000, 1000)  # no collection of the program's own while it looks
    try:
        young = [object()]
        assert _generation_of(young) == 0
        Store(tmp_path / "guest", guest=True).read_path(trace)
        assert _generation_of(young) == 0
        Store(tmp_path / "host").read_path(trace)  # the CLI's own process: what a read kept goes to the oldest
        assert _generation_of(young) == 2
    finally:
        gc.set_threshold(*thresholds)
