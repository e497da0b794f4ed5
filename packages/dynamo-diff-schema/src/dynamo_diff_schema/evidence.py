"""Evidence: the exact bytes of the trace behind a number, and notices about the input."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field

from dynamo_diff_schema.base import Model
from dynamo_diff_schema.hints import Hint


class Evidence(Model):
    """A byte range of one stored input file. Its sha256 is checked on every read."""

    id: str = Field(description="Stable within a capture, e.g. 'r1-e42'.")
    kind: str = Field(description="Record kind or artifact name, e.g. 'compilation_metrics', 'recompile_reasons'.")
    rank: int | None = None
    compile_id: str | None = Field(None, description="tlparse-style compile id, e.g. '0/1' or '!0/0/1'.")
    file: str = Field(description="Path of the stored input file, relative to the capture's input root.")
    line: int = Field(ge=1, description="1-based line of the record in that file.")
    offset: int = Field(ge=0, description="Byte offset of the range in the file.")
    length: int = Field(ge=0, description="Byte length of the range.")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class EvidenceEntry(Evidence):
    """An evidence index entry with what it is about: the source function and a one-line summary."""

    function: str | None = Field(None, description="The source function of its compilation, when it has one.")
    summary: str | None = Field(None, description="What the record says, in one line (None: not interpreted).")


class GrepMatch(Model):
    """Lines of one record that match a pattern, with context."""

    line: int = Field(ge=1, description="Line of the (first) match within the record's text (1-based).")
    lines: list[str] = Field(
        description="The matching line with up to `context` lines before and after (matches whose context lines "
        "overlap share one block); in a long line, the text around its matches (windows that overlap merged)."
    )
    first_line: int | None = Field(None, ge=1, description="Line of `lines[0]` (None: one window of `line`).")
    matched_lines: list[int] = Field(
        default_factory=list, description="Every matching line of a merged block (empty: only `line`)."
    )

    def heading(self) -> str:
        """`line 7:` (a window of a long line), or for a block with its context `lines 5-9 (match on 7, 8):`."""
        if self.first_line is None:
            return f"line {self.line}:"
        on = ", ".join(str(n) for n in self.matched_lines or [self.line])
        return f"lines {self.first_line}-{self.first_line + len(self.lines) - 1} (match on {on}):"


class Severity(StrEnum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


class NoticeCode(StrEnum):
    """Every notice Dynamo Diff writes (docs/SEMANTICS.md, "Notices", says what each means and what to do)."""

    # Reading one file of a trace.
    TRUNCATED = "truncated"
    PAYLOAD_MD5_MISMATCH = "payload_md5_mismatch"
    MISSING_PAYLOAD = "missing_payload"
    MALFORMED_RECORDS = "malformed_records"
    NOISE_LINES = "noise_lines"
    NON_UTF8_PAYLOAD = "non_utf8_payload"
    BAD_ID_FIELDS = "bad_id_fields"
    PAYLOAD_UNVERIFIABLE = "payload_unverifiable"
    # A rank, and a whole input.
    MIXED_RANK_FIELDS = "mixed_rank_fields"
    RANK_FIELD_DISAGREES = "rank_field_disagrees"
    NO_COMPILE_IDS = "no_compile_ids"
    UNINTERPRETED_RECORD_KINDS = "uninterpreted_record_kinds"
    MIXED_TORCH_VERSIONS = "mixed_torch_versions"
    RAW_TRACE_PREFERRED = "raw_trace_preferred"
    EXPORT_ONLY = "export_only"
    IGNORED_FILES = "ignored_files"
    LABEL_TAKEN = "label_taken"
    # A comparison.
    SAME_CAPTURE = "same_capture"
    NO_SOURCE_SNAPSHOTS = "no_source_snapshots"
    RUN_INCOMPLETE = "run_incomplete"
    NOTHING_COMPILED = "nothing_compiled"
    NO_GRAPH_COMPILED = "no_graph_compiled"
    AMBIGUOUS_ROWS = "ambiguous_rows"
    RANK_COUNT_DIFFERS = "rank_count_differs"


class Notice(Model):
    """Something the reader wants the user to know: partial evidence, unknown kinds, damaged payloads."""

    code: NoticeCode | str = Field(
        description="A NoticeCode (a capture stored by an earlier version may carry a code no longer written)."
    )
    severity: Severity = Severity.WARNING
    message: str = Field(
        description="What is so, in one sentence; what to do next is the hint, worded by each front end."
    )
    hint: Hint | None = Field(None, description="The next step, as a code with arguments (None: none to suggest).")
    rank: int | None = None
    evidence_ids: list[str] = Field(default_factory=list)
    details: dict[str, Any] = Field(default_factory=dict)
