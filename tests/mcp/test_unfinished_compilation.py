"""compare_runs on a run killed inside a compilation (fixtures/captures/killed_compile_*): one row per source
function, the compilation that never finished counted in its function's row (the workload's oracle)."""

from __future__ import annotations

import json

from dynamo_diff_schema import ComparisonPage

from .conftest import CAPTURES, Session, text_of


def test_compare_runs_gives_one_row_per_function_of_a_killed_run(session: Session) -> None:
    oracle = json.loads((CAPTURES / "killed_compile_resume" / "oracle.json").read_text())["expect"]
    complete = json.loads((CAPTURES / "killed_compile_complete" / "oracle.json").read_text())["expect"]
    for baseline, candidate in (
        ("captures/killed_compile_complete", "captures/killed_compile_resume"),
        (
            next((CAPTURES / "killed_compile_complete" / "raw").glob("*.log")).as_posix(),
            next((CAPTURES / "killed_compile_resume" / "raw").glob("*.log")).as_posix(),
        ),
    ):
        # Every page of the comparison (a page holds what fits in the response bound).
        entries, offset = [], 0
        while offset is not None:
            result = session.call("compare_runs", baseline=baseline, candidate=candidate, offset=offset, full=True)
            assert not result.is_error, text_of(result)
            page = ComparisonPage.model_validate(result.structured_content)
            entries += page.rows
            offset = page.next_offset
        names = [(e.row.baseline or e.row.candidate).qualified_name for e in entries]  # type: ignore[union-attr]
        assert sorted(names) == sorted(complete["functions"]) and page.total_rows == len(names)
        g = next(e.row for e in entries if e.row.candidate and e.row.candidate.qualified_name == "g")
        assert g.status == "matched" and g.candidate is not None
        # g and its resume function (the compilation killed in the backend), as the oracle counts them.
        of_g = sum(
            n
            for code, n in oracle["compilations_by_function"].items()
            if code == "g" or code.startswith("torch_dynamo_resume_in_g_at_")
        )
        assert g.candidate.counts.observed_compilation_identities == of_g == 2
        assert g.candidate.counts.unknown_outcomes == len(oracle["unfinished"])
        assert "candidate_only" not in {e.row.status for e in entries}
