"""compare_runs on the rename_file pair (decoder.py renamed decoding.py, Decoder.forward given a `pos` argument):
the text pairs Decoder.forward across the renamed file and says how. Lines come from the workloads' own files."""

from __future__ import annotations

from dynamo_diff_schema import ComparisonPage

from .conftest import FIXTURES, Session, text_of

WORKLOADS = FIXTURES / "workloads"
V1, V2 = "captures/rename_file_v1", "captures/rename_file_v2"


def line_of(rel: str, text: str) -> int:
    (number,) = [n for n, line in enumerate((WORKLOADS / rel).read_text().splitlines(), 1) if text in line]
    return number


def test_compare_runs_pairs_the_method_of_the_renamed_file(session: Session) -> None:
    result = session.call("compare_runs", baseline=V1, candidate=V2)
    assert not result.is_error
    text = text_of(result)
    b, c = line_of("rename_file_v1/decoder.py", "def forward"), line_of("rename_file_v2/decoding.py", "def forward")
    assert (
        f"Decoder.forward (decoder.py:{b}) -> Decoder.forward (decoding.py:{c}) matched (qualified_name: the only "
        "Decoder.forward on each side; its file decoder.py is decoding.py now)"
    ) in text
    assert "baseline_only" not in text and "candidate_only" not in text
    page = ComparisonPage.model_validate(result.structured_content)
    assert sorted(str(entry.row.method) for entry in page.rows) == ["qualified_name", "structure"]
