"""A configuration or trace value as people read it, in every view: never Python's `None` or JSON's `null`
(an unset option is 'not set'), NaN and infinities spelled out, containers with the same rules inside."""

from __future__ import annotations

import math
from collections.abc import Mapping

# Where a value is missing (an unset option, a side a row does not have).
NOT_SET = "not set"


def value_text(value: object, limit: int = 160, *, quote: bool = False) -> str:
    """`value` for people, cut at `limit` characters; `quote` puts strings in quotes (text and markdown, where a
    value sits in a sentence)."""
    text = _value(value, quote)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _value(value: object, quote: bool) -> str:
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
        return repr(value) if quote else value
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_value(k, quote)}: {_value(v, quote)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple | set | frozenset):
        return "[" + ", ".join(_value(v, quote) for v in value) + "]"
    return str(value)
