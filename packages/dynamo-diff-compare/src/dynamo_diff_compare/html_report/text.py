"""Words and numbers on the page: escaped, and never Python's or JSON's spelling of a missing value."""

from __future__ import annotations

import math
from collections.abc import Mapping
from html import escape

from dynamo_diff_schema.comparison import FunctionSide

# What the page says where a value is missing (an unset option, a side a row does not have).
NOT_SET = "not set"
# A cell of a side a row does not have (an en dash), and the minus sign of a negative percentage.
ABSENT = "\u2013"
MINUS = "\u2212"


def esc(text: str) -> str:
    return escape(text, quote=True)


def value_text(value: object, limit: int = 160) -> str:
    """A configuration or trace value for people: strings as they are, None as 'not set', NaN spelled out,
    containers with the same rules inside (a repr would print None, a JSON dump null)."""
    text = _value(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _value(value: object) -> str:
    if value is None:
        return NOT_SET
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "not a number"
        if math.isinf(value):
            return "infinite" if value > 0 else "minus infinite"
        return f"{value:g}"
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_value(k)}: {_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple | set | frozenset):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


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
