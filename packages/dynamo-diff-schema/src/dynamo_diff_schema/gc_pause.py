"""One way to pause Python's cyclic garbage collector around work that allocates many objects and no cycles.

Reading a trace and comparing two large captures allocate hundreds of thousands to millions of small objects
that form no reference cycles worth collecting; the collector's repeated scans of the growing object graph cost
a fifth of an import and half of a large comparison (tools/bench/import_scaling.py, tools/bench/compare_scaling.py).
Reference counting still frees everything as usual; the collector is resumed (if it was on) when the block ends,
also on an exception. Library code uses this context manager only, never gc.disable() on its own.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
