"""How far the copy of an input into staging has got, for reading that overlaps the copy.

An import copies (and hashes) its input into a staging directory and reads the staged copy, so that every evidence
offset points at bytes the store keeps. For a single large trace file the copy runs in a thread while the file is
read in byte ranges: a range is given to a worker only once the copy has written past its end, so the reading never
sees bytes other than those hashed into the capture id. The copying thread reports here; the reading waits here,
through the `ready(upto)` it is handed (`ready_for`, analysis.Copying): the analysis knows nothing of the copy.
"""

from __future__ import annotations

import threading

from dynamo_diff_store.analysis import Copying


class CopyCancelledError(Exception):
    """The reading stopped (it failed): the copy is abandoned (raised in the copying thread)."""


class StagedCopy:
    """Bytes of each staged file written so far, which files are complete, and how the copy ended."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._written: dict[str, int] = {}
        self._sizes: dict[str, int] = {}  # each file's size when its copy began
        self._complete: set[str] = set()
        self._ended = False
        self._error: BaseException | None = None
        self._cancelled = False

    # The copying thread.

    def begin(self, rel: str, size: int) -> None:
        with self._changed:
            self._check_cancelled()
            self._sizes[rel] = size
            self._written[rel] = 0
            self._changed.notify_all()

    def wrote(self, rel: str, total: int) -> None:
        """`total` bytes of `rel` are in the staged file (flushed to the OS: other processes read them)."""
        with self._changed:
            self._check_cancelled()
            self._written[rel] = total
            self._changed.notify_all()

    def complete(self, rel: str) -> None:
        with self._changed:
            self._complete.add(rel)
            self._changed.notify_all()

    def end(self, error: BaseException | None = None) -> None:
        """The copy is over: every file complete, or `error` stopped it."""
        with self._changed:
            self._ended = True
            self._error = error
            self._changed.notify_all()

    def _check_cancelled(self) -> None:
        if self._cancelled:
            raise CopyCancelledError

    # The reading.

    def cancel(self) -> None:
        """Stop the copy at its next write (the reading failed; the staging directory is then removed)."""
        with self._changed:
            self._cancelled = True
            self._changed.notify_all()

    def size_at_start(self, rel: str) -> int:
        """The size `rel` had when its copy began (it may still grow or shrink while it is copied)."""
        with self._changed:
            self._changed.wait_for(lambda: rel in self._sizes or self._ended)
            self._raise_error()
            return self._sizes.get(rel, 0)

    def wait(self, rel: str, upto: int) -> int | None:
        """Block until the staged `rel` holds its first `upto` bytes or is complete; its size when complete,
        else None. Raises the copy's error when the copy failed."""
        with self._changed:
            self._changed.wait_for(
                lambda: self._written.get(rel, 0) >= upto or rel in self._complete or self._ended or self._cancelled
            )
            self._raise_error()
            if rel in self._complete:
                return self._written.get(rel, 0)
            if self._written.get(rel, 0) >= upto:
                return None
            raise CopyCancelledError  # ended or cancelled without copying `rel`

    def ready_for(self, rel: str) -> Copying:
        """What the analysis is handed of `rel` while it is copied: its size when its copy began (waits for the copy
        to begin it) and `ready(upto)` (`wait`). Raises the copy's error when the copy failed before."""
        return Copying(file=rel, size=self.size_at_start(rel), ready=lambda upto: self.wait(rel, upto))

    def _raise_error(self) -> None:
        if self._error is not None:
            raise self._error
