"""The explicit user map: one-to-one, validated, and checked against the observed functions."""

from __future__ import annotations

import pytest
from dynamo_diff_match import FunctionRef, SnapshotSet, correspond, load_user_map
from dynamo_diff_schema import DynamoDiffError, ErrorCode, MatchMethod, RowStatus

BASE = "def f(x):\n    return x + 1\n\n\ndef g(x):\n    return x * 2\n"
CAND = "def f2(x):\n    return x - 1\n\n\ndef g2(x):\n    return x / 2\n"


def run(text: str) -> list[tuple[str | None, str | None, RowStatus, MatchMethod]]:
    base = SnapshotSet({"m.py": BASE}, {"/a/m.py": "m.py"})
    cand = SnapshotSet({"m.py": CAND}, {"/b/m.py": "m.py"})
    rows = correspond(
        [FunctionRef("/a/m.py", 1, "f"), FunctionRef("/a/m.py", 5, "g")],
        base,
        [FunctionRef("/b/m.py", 1, "f2"), FunctionRef("/b/m.py", 5, "g2")],
        cand,
        load_user_map(text),
    )
    return [(r.baseline_id, r.candidate_id, r.status, r.method) for r in rows]


def problem(text: str) -> str:
    with pytest.raises(DynamoDiffError) as info:
        run(text)
    assert info.value.code is ErrorCode.INVALID_ARGUMENT
    return str(info.value.details["problem"])


def test_user_map_pairs_functions_nothing_else_would() -> None:
    # Renamed and edited: neither structure nor the line diff (loose fits need the same name) pairs them.
    assert run("{}") == [
        ("m.py::f", None, RowStatus.BASELINE_ONLY, MatchMethod.NONE),
        ("m.py::g", None, RowStatus.BASELINE_ONLY, MatchMethod.NONE),
        (None, "m.py::f2", RowStatus.CANDIDATE_ONLY, MatchMethod.NONE),
        (None, "m.py::g2", RowStatus.CANDIDATE_ONLY, MatchMethod.NONE),
    ]
    assert run('{"m.py::f": "m.py::g2", "m.py::g@5": "m.py::f2"}') == [
        ("m.py::f", "m.py::g2", RowStatus.MATCHED, MatchMethod.USER_MAP),
        ("m.py::g", "m.py::f2", RowStatus.MATCHED, MatchMethod.USER_MAP),
    ]


def test_duplicate_key_is_an_error_even_though_json_would_keep_the_last() -> None:
    assert problem('{"m.py::f": "m.py::f2", "m.py::f": "m.py::g2"}') == "duplicate_key"


def test_target_used_twice_is_an_error() -> None:
    assert problem('{"m.py::f": "m.py::f2", "m.py::g": "m.py::f2"}') == "duplicate_target"


def test_ids_naming_no_observed_function_are_errors() -> None:
    assert problem('{"m.py::nope": "m.py::f2"}') == "unknown_id"
    assert problem('{"m.py::f": "other.py::f2"}') == "unknown_id"
    assert problem('{"m.py::f@9": "m.py::f2"}') == "unknown_id"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{", "syntax"),
        ('["m.py::f"]', "not_object"),
        ('{"m.py::f": 3}', "not_string"),
        ('{"m.py::f": {"a": "b"}}', "not_string"),
        ('{"f": "m.py::f2"}', "bad_id"),
        ('{"m.py::f": "m.py::"}', "bad_id"),
    ],
)
def test_malformed_maps_are_errors(text: str, expected: str) -> None:
    with pytest.raises(DynamoDiffError) as info:
        load_user_map(text)
    assert info.value.code is ErrorCode.INVALID_ARGUMENT
    assert info.value.details["problem"] == expected


def test_resume_functions_cannot_be_mapped_directly() -> None:
    base = SnapshotSet({"m.py": BASE}, {"/a/m.py": "m.py"})
    refs = [FunctionRef("/a/m.py", 1, "f"), FunctionRef("/a/m.py", 2, "torch_dynamo_resume_in_f_at_2")]
    user_map = load_user_map('{"m.py::torch_dynamo_resume_in_f_at_2": "m.py::torch_dynamo_resume_in_f_at_2"}')
    with pytest.raises(DynamoDiffError, match="follow their parent"):
        correspond(refs, base, refs, base, user_map)
