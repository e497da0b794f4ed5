"""One trace record as the readers yield it, independent of whether it came from a raw log or a tlparse export."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# JSON keys of a trace record that describe it rather than name its kind (torch/_logging/_internal.py).
# `stack` (a user stack with filenames interned via `str` records) rides along with some kinds, e.g. artifact,
# guard_added, exported_program, describe_* (torch 2.6+); it describes the record, so it is metadata too.
META_KEYS = frozenset(
    {
        "rank",
        "frame_id",
        "frame_compile_id",
        "attempt",
        "compiled_autograd_id",
        "has_payload",
        "payload_filename",
        "stack",
    }
)


@dataclass(frozen=True, slots=True)
class CompileKey:
    """The compile identity fields of a record, as torch wrote them (all optional)."""

    compiled_autograd_id: int | None
    frame_id: int | None
    frame_compile_id: int | None
    attempt: int | None


@dataclass(frozen=True, slots=True)
class Span:
    """A byte range of an input file (relative path inside the input root)."""

    file: str
    offset: int
    length: int


@dataclass(slots=True)
class Record:
    """A metadata line plus its payload.

    `kind` is the record's single non-metadata key (e.g. 'compilation_metrics', 'artifact', 'dynamo_start');
    `body` is that key's value. `payload` is the joined payload text (None when the record has none or the
    payload could not be read). `payload_ok` is False when its md5 did not match `has_payload`.
    `span` covers the metadata line and its payload lines in a raw log; for a tlparse export it covers the
    raw.jsonl line, and `payload_span` the payload file.
    """

    kind: str
    body: Any
    compile: CompileKey
    rank: int | None
    line: int
    span: Span
    payload: str | None = None
    payload_ok: bool | None = None
    payload_span: Span | None = None
    extra_kinds: tuple[str, ...] = field(default=())
    # The record's top-level `stack` field when present (frames as torch wrote them; `filename` is an index
    # into the file's intern table, FileReport.strings).
    stack: Any = None
    # How many alike records in a row this one stands for (read_raw_log(fold_spans=True) folds runs of timing
    # spans with the same compile id and rank into their first; every other reading gives 1).
    repeat: int = 1

    @property
    def artifact_name(self) -> str | None:
        """For 'artifact' records, the artifact's name (e.g. 'recompile_reasons')."""
        if self.kind == "artifact" and isinstance(self.body, dict):
            name = self.body.get("name")
            return name if isinstance(name, str) else None
        return None
