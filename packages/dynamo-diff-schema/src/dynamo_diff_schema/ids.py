"""How capture and comparison ids are shown: the first 12 hex digits of the sha256 (`dynamo-diff list`, every
message), which the store also accepts as a prefix."""

from __future__ import annotations

SHORT_ID_LENGTH = 12


def short_id(full_id: str) -> str:
    """The shown form of a capture or comparison id."""
    return full_id[:SHORT_ID_LENGTH]
