"""One way to pause Python's cyclic garbage collector around work that allocates many objects and no cycles.

Reading a trace and comparing two large captures allocate hundreds of thousands to millions of small objects
that form no reference cycles worth collecting; the collector's repeated scans of the growing object graph cost
a fifth of an import and half of a large comparison (tools/bench/import_scaling.py, tools/bench/compare_scaling.py).
Reference counting still frees everything as usual; the collector is resumed (if it was on) when the block ends,
also on an exception. Library code uses this context manager only, never gc.disable() on its own. It lives in
the store, the lowest package that pauses the collector itself (in its import workers); whoever runs a large
comparison (the service, the benchmarks) pauses it around `compare_captures` with the same context manager.

When the block ends, the objects it kept (its result) are moved to the collector's oldest generation without a
scan (`gc.freeze()` then `gc.unfreeze()`), unless the program has frozen objects of its own: otherwise the first
allocation after the block would scan all of them at once (a quarter of a large comparison), and scan them again
on their way through the middle generation. A cycle among them is still collected, by the next full collection.

A guest (`guest=True`: the pytest plugin, whose reads run inside the user's test process) pauses and resumes the
collector and changes nothing else of it: the program's objects stay in their generations, and its collections
come when they would have come (moving them all to the oldest generation would put off the program's next full
collection, not only ours).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused(*, guest: bool = False) -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if not guest and not gc.get_freeze_count():
                # What the block made and kept is long-lived (the result): move it, with every other tracked
                # object, straight to the oldest generation, where the collector would put it after scanning it
                # twice (the first scan, right here, cost a quarter of a large comparison). Skipped when the
                # program froze objects itself: unfreeze would release them.
                gc.freeze()
                gc.unfreeze()
            gc.enable()
