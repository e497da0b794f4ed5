"""Words and numbers on the page: escaped, and never Python's or JSON's spelling of a missing value."""

from __future__ import annotations

from html import escape

from dynamo_diff_schema.comparison import FunctionSide

from dynamo_diff_compare.values import NOT_SET, value_text

__all__ = ["ABSENT", "MINUS", "NOT_SET", "esc", "row_anchor", "seconds", "value_text", "where"]
# A cell of a side a row does not have (an en dash), and the minus sign of a negative percentage.
ABSENT = "\u2013"
MINUS = "\u2212"


def esc(text: str) -> str:
    return escape(text, quote=True)


def seconds(value: float) -> str:
    """'0.28 s' (two decimals, as text and markdown print compile time); '3.1 ms' below a hundredth."""
    if 0 < value < 0.01:
        return f"{value * 1000:.1f} ms"
    return f"{value:.2f} s"


def where(side: FunctionSide) -> str:
    """'model.py:21' (the file's last component)."""
    name = (side.file or "").rsplit("/", 1)[-1] or "file not known"
    return f"{name}:{side.line}" if side.line else name


def row_anchor(index: int) -> str:
    return f"row-{index}"
