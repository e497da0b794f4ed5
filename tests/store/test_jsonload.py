"""Strict JSON: what orjson would quietly accept (duplicate keys, deep nesting) must be refused."""

from __future__ import annotations

import contextlib
import json

import pytest
from dynamo_diff_store.limits import Limits
from dynamo_diff_store.reading import StrictJSONError, loads_strict
from hypothesis import given, settings
from hypothesis import strategies as st


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "a": 2}',
        '{"a": {"b": 1, "b": "x:y"}}',
        '[{"k": "v"}, {"k": 1, "k": 1}]',
        '{"a\\u003a": 1, "a": 1, "a": 2}',  # an escaped ':' must not hide the repeat
        '{"s": "a:b:c", "s": "d"}',
    ],
)
def test_duplicate_keys_are_rejected(text: str) -> None:
    with pytest.raises(StrictJSONError, match="duplicate key"):
        loads_strict(text)


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '{"x": -Infinity}', "[1e999]", "{", '{"a": 1} x', ""])
def test_non_json_is_rejected(text: str) -> None:
    with pytest.raises(StrictJSONError):
        loads_strict(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a:b": "c:d", "t": "15:18:16"}', {"a:b": "c:d", "t": "15:18:16"}),
        ('{"a\\u003a": 1, "a": 2}', {"a:": 1, "a": 2}),
        ('{"x": [1, 2.5, null, true, "\\u00e9"]}', {"x": [1, 2.5, None, True, "é"]}),
        ("[]", []),
        ('"plain"', "plain"),
    ],
)
def test_valid_json_is_returned(text: str, expected: object) -> None:
    assert loads_strict(text) == expected
    assert loads_strict(text.encode()) == expected


def test_depth_limit() -> None:
    assert loads_strict("[" * 64 + "]" * 64) is not None
    with pytest.raises(StrictJSONError, match="deeper than 64"):
        loads_strict("[" * 65 + "]" * 65)
    with pytest.raises(StrictJSONError, match="deeper than 2"):
        loads_strict('{"a": {"b": {}}}', Limits(max_json_depth=2))
    assert loads_strict('{"a": {"b": 1}}', Limits(max_json_depth=2)) == {"a": {"b": 1}}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(alphabet=st.characters(codec="utf-8")),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_round_trip_of_valid_documents(value: object) -> None:
    assert loads_strict(json.dumps(value)) == value
    assert loads_strict(json.dumps(value, ensure_ascii=False)) == value


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_only_raise_strict_json_error(data: bytes) -> None:
    with contextlib.suppress(StrictJSONError):
        loads_strict(data)


def _has_duplicate(text: str) -> bool:
    found = False

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        nonlocal found
        keys = [k for k, _ in items]
        found = found or len(set(keys)) != len(keys)
        return dict(items)

    json.loads(text, object_pairs_hook=pairs)
    return found


_colon_text = st.text(alphabet=st.sampled_from(list('ab:"\\é\n')), max_size=4)
pair_values = st.recursive(
    st.none() | st.integers(-5, 5) | _colon_text,
    lambda children: (
        st.lists(children, max_size=3)
        | st.lists(st.tuples(_colon_text, children), max_size=4).map(lambda items: ("pairs", items))
    ),
    max_leaves=12,
)


def _render(value: object, ascii_only: bool) -> str:
    if isinstance(value, tuple) and value[0] == "pairs":
        inner = ", ".join(f"{json.dumps(k, ensure_ascii=ascii_only)}: {_render(v, ascii_only)}" for k, v in value[1])
        return "{" + inner + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_render(v, ascii_only) for v in value) + "]"
    return json.dumps(value, ensure_ascii=ascii_only)


@settings(max_examples=500, deadline=None)
@given(pair_values, st.booleans())
def test_duplicate_keys_are_found_exactly(value: object, ascii_only: bool) -> None:
    """Objects whose keys and strings hold ':' (raw, or \\u-escaped when ascii_only), some with repeated keys: refused
    exactly when the standard library sees a repeated key."""
    text = _render(value, ascii_only)
    if _has_duplicate(text):
        with pytest.raises(StrictJSONError, match="duplicate key"):
            loads_strict(text)
    else:
        assert loads_strict(text) == json.loads(text)
