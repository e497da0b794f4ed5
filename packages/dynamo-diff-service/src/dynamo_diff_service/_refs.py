"""How a user names a capture, the same in the CLI and the MCP server.

A reference written as a path (it contains a slash or backslash, starts with '.' or '~', or ends in .log, .txt or
.json) is a path: it is imported (an existing capture of the same bytes is found, not duplicated); only when no
such file exists is it looked up as a label. Any other word is a capture of the store (full id, unique prefix or
label); when none has that name and a file or folder of that name exists, it is imported. A word that is both
names the capture, and a note says to write ./NAME for the path. The MCP server reads only paths inside its
allowed roots: a path written outside them is refused (`unsafe_path`).
"""

from __future__ import annotations

import re

_PATH_SUFFIXES = (".log", ".txt", ".json")


def looks_like_path(ref: str) -> bool:
    return "/" in ref or "\\" in ref or ref.startswith((".", "~")) or ref.endswith(_PATH_SUFFIXES)


_EVIDENCE_ID = re.compile(r"u\d+-e\d+")


def diff_target(other: str) -> tuple[str | None, str]:
    """`[REF:]ID` (the record an evidence diff is against) -> (REF, or None for the same capture; ID)."""
    from dynamo_diff_schema import DynamoDiffError, ErrorCode

    ref, _, evidence_id = other.rpartition(":")
    if not _EVIDENCE_ID.fullmatch(evidence_id):
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT, f"a diff is against ID or REF:ID (an evidence id like u1-e15): {other!r}"
        )
    return ref or None, evidence_id
