"""Lists cut for a line of text: the first items and how many are left out, never one left out alone (the note that
says "+1 more" takes about the room of the item, and hides what it counts)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

Item = TypeVar("Item")


def head(items: Sequence[Item], keep: int) -> tuple[list[Item], int]:
    """The first `keep` items and how many are left out: all of them when at most one would be left out."""
    if len(items) <= keep + 1:
        return list(items), 0
    return list(items[:keep]), len(items) - keep


def joined(items: Sequence[str], keep: int, sep: str = ", ", more: str = " (+{n} more)") -> str:
    """The first `keep` items joined, then `more` with the number left out (never one: see `head`)."""
    shown, rest = head(items, keep)
    return sep.join(shown) + (more.format(n=rest) if rest else "")
