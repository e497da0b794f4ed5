"""What one record says, extracted on its own (no state): the per-record half of classification.

Extraction (`_kinds.extract`, by the record's kind object) reads the payload (graph text, guard tree, reason
text) and keeps only the small `Fact` the classifier needs, so it can run where the record was read (in a worker
process for a large file) and the classifier folds the facts in file order. This module holds the Fact and the
shapes of the data extraction leaves in it that the classifier reads itself; the readers of torch's payloads are
in the family modules (`_kind_*.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

CompileKeyTuple = tuple[int | None, int | None, int | None]


class StartStack(NamedTuple):
    """A dynamo_start stack, reduced: the compiled frame and the frames below it (filenames may be intern
    indexes, resolved when the rank's `str` records have all been read). The compiled frame's `line` is its code
    object's `co_firstlineno` (torch's `log_dynamo_start` writes that, not the line being run), the same value
    compilation_metrics records."""

    filename: int | str | None
    name: str | None
    below: tuple[tuple[int | str, int | None, str | None], ...]
    line: int | None = None
    # The file of the stack's outermost frame when it is module-level code (`<module>`): the script the process
    # started from (python train.py, a torchrun worker); None for a thread's or runpy's stack.
    entry: int | str | None = None
    # The text of each frame's line in `below`, as torch's record gives it (`loc`, stripped; None where absent).
    locs: tuple[str | None, ...] = ()


@dataclass(slots=True)
class Fact:
    """One record, reduced. `key` is (compiled_autograd_id, frame_id, frame_compile_id), None for run records.
    `file`, `offset`, `length` locate the evidence bytes (the payload file for a tlparse export)."""

    kind: str
    name: str | None
    key: CompileKeyTuple | None
    attempt: int | None
    line: int
    file: str
    offset: int
    length: int
    rank: int | None = None
    data: Any = None
    # How many records in a row this fact stands for: consecutive records of a kind that is counted but not
    # indexed (timing spans, tensor descriptions) with the same compile id, attempt and data are folded once.
    repeat: int = 1
    # sha256 of the bytes at file/offset/length, when the worker that read the record hashed them (a record
    # that may become evidence): the importing process then need not read them again.
    sha256: str | None = None
