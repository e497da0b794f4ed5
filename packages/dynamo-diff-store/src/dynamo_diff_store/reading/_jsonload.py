"""Strict JSON for untrusted text: no duplicate keys, no NaN/Infinity, bounded nesting.

orjson does the parse (it already rejects NaN, Infinity, numbers that overflow a double and lone surrogates);
depth and duplicate keys are checked afterwards with one walk over the containers (no walk over scalars):
a repeated key is silently dropped by orjson, so the keys it kept are fewer than the ':' separators in the
text. Separators are ':' characters outside strings: the text's ':' count minus the ':' inside the parsed
strings (or, when the text has \\u escapes that could hide a ':', minus those inside string literals found
by a regex). The parsed object written back by orjson holds one ':' per kept key plus those of its strings, so
without \\u escapes a duplicate shows as fewer ':' there than in the text.
Known looseness: orjson reads integers beyond 64 bits as floats (torch writes none in trace metadata).
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from dynamo_diff_store.limits import DEFAULT_LIMITS, Limits


class StrictJSONError(ValueError):
    """The text is not acceptable JSON; `reason` is a short phrase for reports."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class JSONTooDeepError(StrictJSONError):
    """Nesting deeper than `Limits.max_json_depth`: a resource bound (`resource_limit`), not a malformed record."""

    def __init__(self, limit: int, depth: int) -> None:
        super().__init__(f"nesting {depth} deep, deeper than {limit}")
        self.limit = limit
        self.depth = depth


# Earlier name, kept for callers written against it.
JSONRejected = StrictJSONError

# A JSON string literal (unrolled form: much faster in `re` than an alternation per character).
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)


def nesting_depth(data: bytes) -> int:
    """How deep the brackets of JSON text nest (strings skipped); for messages, so it need not be fast."""
    depth = deepest = 0
    for byte in _STRING.sub(b"", data):
        if byte in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        elif byte in b"]}":
            depth -= 1
    return deepest


def _walk(obj: Any, depth: int, limit: int) -> int:
    """Number of object keys under `obj`; raises when nesting goes deeper than `limit`."""
    if depth > limit:
        raise _TooDeepError
    keys = 0
    values = obj.values() if type(obj) is dict else obj
    if type(obj) is dict:
        keys = len(obj)
    for value in values:
        if type(value) is dict or type(value) is list:
            keys += _walk(value, depth + 1, limit)
    return keys


def _colons_in_strings(obj: Any) -> int:
    """':' characters inside the keys and string values under `obj` (after JSON unescaping)."""
    count = 0
    if type(obj) is dict:
        for key in obj:
            count += key.count(":")
        values = obj.values()
    else:
        values = obj
    for value in values:
        if type(value) is str:
            count += value.count(":")
        elif type(value) is dict or type(value) is list:
            count += _colons_in_strings(value)
    return count


def _written_colons(obj: Any) -> int:
    """':' characters in `obj` written as compact JSON: one per key plus those in its strings. Without \\u escapes
    each ':' in a parsed string was a literal ':' in the text, so this equals the text's count exactly when no key
    was dropped (a dropped key takes its separator and its strings' ':' with it). orjson writes it several times
    faster than _colons_in_strings walks it."""
    try:
        return orjson.dumps(obj).count(b":")
    except orjson.JSONEncodeError:  # nothing orjson.loads returns; counted the slow way all the same
        return _keys(obj) + _colons_in_strings(obj)


def _keys(obj: Any) -> int:
    return _walk(obj, 1, 1 << 30)


class _TooDeepError(Exception):
    pass


def loads_strict(text: str | bytes, limits: Limits = DEFAULT_LIMITS) -> Any:
    """Parse `text` as strict JSON and return Python objects; raise StrictJSONError when it is not acceptable.

    Callers turn StrictJSONError into a notice (a bad record) or a DynamoDiffError, as fits where the text came
    from; JSONTooDeepError (a StrictJSONError) is a resource bound and becomes `resource_limit`.
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    try:
        return _loads(data, limits)
    except _TooDeepError:
        raise JSONTooDeepError(limits.max_json_depth, nesting_depth(data)) from None


def _loads(data: bytes, limits: Limits) -> Any:
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        if "depth limit" in str(exc):  # orjson's own bound (1024) is past ours
            raise _TooDeepError from None
        raise StrictJSONError(f"invalid JSON ({exc})") from exc
    if type(obj) is dict or type(obj) is list:
        colons = data.count(b":")
        if colons:
            keys = _walk(obj, 1, limits.max_json_depth)
            # colons = separators + ':' inside strings; keys = separators - dropped duplicates.
            if colons != keys:
                if b"\\u" in data:
                    # A \\u escape can hide a ':': count those in the text's string literals.
                    inside = colons - _STRING.sub(b"", data).count(b":")
                    if colons - inside != keys:
                        raise StrictJSONError("duplicate key")
                elif _written_colons(obj) != colons:
                    raise StrictJSONError("duplicate key")
        elif data.count(b"{") + data.count(b"[") > limits.max_json_depth:
            _walk(obj, 1, limits.max_json_depth)
    return obj


def loads_payload(text: str | bytes) -> Any:
    """JSON for payload text that is only mined for facts: orjson (several times faster on the large cache
    and metrics payloads), and `json.loads` for what orjson refuses but torch may write (NaN, Infinity);
    nesting too deep for the parser is a ValueError like any other unreadable payload, not a RecursionError."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        pass
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deep to read") from None
