"""Errors as values: every failure a user can cause has a stable code and a human sentence."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from dynamo_diff_schema.hints import Hint
from dynamo_diff_schema.version import SCHEMA_VERSION


class ErrorCode(StrEnum):
    """Stable error codes. Tools and tests match on these, never on the message text."""

    MALFORMED_INPUT = "malformed_input"
    UNREADABLE_INPUT = "unreadable_input"
    UNSUPPORTED_INPUT = "unsupported_input"
    NO_TRACE = "no_trace"
    UNSAFE_PATH = "unsafe_path"
    PATH_NOT_ALLOWED = "path_not_allowed"
    RESOURCE_LIMIT = "resource_limit"
    UNKNOWN_CAPTURE = "unknown_capture"
    AMBIGUOUS_PREFIX = "ambiguous_prefix"
    LABEL_TAKEN = "label_taken"
    SAME_CAPTURE = "same_capture"
    NAME_TOO_LONG = "name_too_long"
    UNKNOWN_EVIDENCE = "unknown_evidence"
    UNKNOWN_FUNCTION = "unknown_function"
    MISSING_SNAPSHOT = "missing_snapshot"
    CORRUPT_STORE = "corrupt_store"
    INVALID_ARGUMENT = "invalid_argument"
    INVALID_DOCUMENT = "invalid_document"
    STALE_MANIFEST = "stale_manifest"
    WORKLOAD_FAILED = "workload_failed"
    IO_ERROR = "io_error"
    MISSING_EXTRA = "missing_extra"
    EXECUTOR_FAILED = "executor_failed"


class ErrorInfo(BaseModel):
    """The serialisable form of an error, as the CLI prints it with `--format json` and MCP returns it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["error"] = "error"
    schema_version: str = SCHEMA_VERSION
    code: ErrorCode
    message: str = Field(description="One human sentence saying what is wrong; what to do next is the hint.")
    hint: Hint | None = Field(
        None, description="The next step, as a code with arguments: each front end words it (a command, a tool call)."
    )
    details: dict[str, Any] = Field(default_factory=dict)


class DynamoDiffError(Exception):
    """Raised at package boundaries for anything the user can cause or fix."""

    def __init__(self, code: ErrorCode, message: str, *, hint: Hint | None = None, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        self.details = details

    def __reduce__(self) -> tuple[Any, ...]:
        # Picklable with its code, hint and details: raised in a worker process (or a Ray task), re-raised here.
        return (_rebuild, (type(self), self.code, self.message, self.hint, self.details))

    def info(self) -> ErrorInfo:
        return ErrorInfo(code=self.code, message=self.message, hint=self.hint, details=self.details)

    def __str__(self) -> str:
        return f"{self.code.value}: {self.message}"


def _rebuild(
    cls: type[DynamoDiffError], code: ErrorCode, message: str, hint: Hint | None, details: dict[str, Any]
) -> DynamoDiffError:
    return cls(code, message, hint=hint, **details)
