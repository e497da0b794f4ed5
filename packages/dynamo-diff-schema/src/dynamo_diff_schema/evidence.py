"""Evidence: the exact bytes of the trace behind a number, and notices about the input."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field

from dynamo_diff_schema.base import Model


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


class Severity(StrEnum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


class Notice(Model):
    """Something the reader wants the user to know: partial evidence, unknown kinds, damaged payloads."""

    code: str = Field(description="Stable code, e.g. 'payload_md5_mismatch', 'unknown_record_kinds'.")
    severity: Severity = Severity.WARNING
    message: str
    rank: int | None = None
    evidence_ids: list[str] = Field(default_factory=list)
    details: dict[str, Any] = Field(default_factory=dict)
