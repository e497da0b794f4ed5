"""The committed JSON Schemas equal what the models generate, and validate() accepts and rejects."""

from __future__ import annotations

import json

import pytest
from dynamo_diff_schema import (
    KINDS,
    SCHEMA_VERSION,
    Capture,
    CaptureInfo,
    Counts,
    DynamoDiffError,
    ErrorCode,
    InputKind,
    Manifest,
    Rank,
    RunStatus,
    Validity,
    compiled_status,
    generate_schema,
    render_schema,
    validate,
)
from dynamo_diff_schema.documents import committed_schema_text


@pytest.mark.parametrize("kind", KINDS)
def test_committed_schema_matches_models(kind: str) -> None:
    committed = committed_schema_text(kind)
    assert committed == render_schema(generate_schema(kind)), (
        f"{kind}.schema.json drifted from the models: run `uv run python tools/write_schemas.py`"
    )


def minimal_capture() -> Capture:
    return Capture(
        capture=CaptureInfo(
            id="0" * 64,
            input_kind=InputKind.RAW_LOG,
            reader_version="1",
            run=RunStatus(state="unknown", finished=None, summary="workload status unknown", source="none"),
            compiled=compiled_status(Counts(observed_compilation_identities=1, completed=1), None),
            validity=Validity(artifact_structure="complete"),
        ),
        counts=Counts(observed_compilation_identities=1, completed=1),
        ranks=[Rank(rank=None, counts=Counts(observed_compilation_identities=1, completed=1))],
    )


def test_model_dump_validates_against_committed_schema() -> None:
    doc = minimal_capture().model_dump(mode="json")
    validate(doc, "capture")
    assert doc["schema_version"] == SCHEMA_VERSION
    validate(Manifest().model_dump(mode="json"), "manifest")


def test_validate_names_the_wrong_field() -> None:
    doc = minimal_capture().model_dump(mode="json")
    doc["counts"]["completed"] = -1
    doc["ranks"][0]["surprise"] = True
    with pytest.raises(DynamoDiffError) as info:
        validate(doc, "capture")
    assert info.value.code == ErrorCode.INVALID_DOCUMENT
    problems = info.value.details["problems"]
    assert any(p.startswith("counts/completed") for p in problems)
    assert any("surprise" in p for p in problems)


def test_unknown_kind_is_an_error_with_a_code() -> None:
    with pytest.raises(DynamoDiffError) as info:
        validate({}, "nonsense")
    assert info.value.code == ErrorCode.INVALID_ARGUMENT


def test_count_keys_are_the_contract() -> None:
    schema = json.loads(committed_schema_text("capture"))
    counts = schema["$defs"]["Counts"]["properties"]
    # Counts, plus one measurement beside them (compile time and its phases, in seconds: never a count, never
    # gated).
    assert counts["compile_time_s"]["type"] == "number"
    assert counts["phase_times_s"]["additionalProperties"]["type"] == "number"
    assert set(counts) - {"incomplete", "compile_time_s", "phase_times_s"} == {
        "observed_compilation_identities",
        "observed_attempts",
        "completed",
        "failed",
        "no_graph_observed",
        "unknown_outcomes",
        "unresolved_outcomes",
        "confirmed_recompilation_identities",
        "confirmed_successful_recompilations",
        "additional_frame_compilations",
        "guard_reason_entries",
        "graph_break_records",
        "unique_graph_break_sites",
        "compiler_limit_events",
        "restarts",
        "cache_hits",
        "cache_misses",
        "backward_compilations",
    }
