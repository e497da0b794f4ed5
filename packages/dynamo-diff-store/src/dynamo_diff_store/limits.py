"""Bounds on untrusted input: every reader checks these and stops with `resource_limit` when one is exceeded."""

from __future__ import annotations

from dataclasses import dataclass

from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode

KiB = 1024
MiB = 1024 * KiB
GiB = 1024 * MiB


@dataclass(frozen=True)
class Limits:
    """Resource bounds for one import. Inputs are streamed, so the byte bounds cap work, not memory."""

    max_total_bytes: int = 16 * GiB
    max_record_bytes: int = 256 * MiB
    max_line_bytes: int = 256 * MiB
    max_json_depth: int = 64
    max_records: int = 50_000_000
    max_files: int = 100_000
    # A source file found beside a bare log at import (reading._beside): a larger one is not kept.
    max_source_bytes: int = 16 * MiB

    def exceeded(self, name: str, value: int, *, file: str | None = None, line: int | None = None) -> DynamoDiffError:
        """The error for `value` going past the limit called `name` (a field of this class)."""
        limit = getattr(self, name)
        where = ""
        if file is not None:
            where = f" in {file}" + (f" at line {line}" if line is not None else "")
        return DynamoDiffError(
            ErrorCode.RESOURCE_LIMIT,
            f"Input exceeds {name}={limit}{where} (saw {value}); raise the limit if this input is trusted.",
            limit=name,
            value=value,
            maximum=limit,
            file=file,
            line=line,
        )


DEFAULT_LIMITS = Limits()
