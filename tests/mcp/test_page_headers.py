"""Every page of a comparison says what its first page says of the runs (or nothing), never a different fact."""

from __future__ import annotations

from dynamo_diff_mcp import budget
from dynamo_diff_schema import ComparisonPage

from .conftest import Session, text_of

EDIT = {"baseline": "captures/edit_v1", "candidate": "captures/edit_v2"}


def _runs_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("runs: "))


def test_a_later_page_states_the_first_pages_run_status(session: Session) -> None:
    first = session.call("compare_runs", **EDIT, page_size=1)
    later = session.call("compare_runs", **EDIT, offset=1, page_size=1)
    assert "offset=1" in text_of(first)  # there is a second page
    assert "not known" not in _runs_line(text_of(first))
    assert _runs_line(text_of(later)) == _runs_line(text_of(first))
    assert "run:" not in text_of(later)  # the facts behind it (the command) stay on the first page


def _row_line(text: str, index: int) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"[{index}] "))


def test_a_row_says_each_count_before_and_after_or_unchanged_once(session: Session) -> None:
    """A two-sided row writes a count that differs as `before -> after` and names the equal ones once, as unchanged,
    so a single number is never read as one side's."""
    result = session.call("compare_runs", **EDIT)
    page = result.structured_content
    line = _row_line(text_of(result), 0)
    b, c = page["rows"][0]["row"]["baseline"]["counts"], page["rows"][0]["row"]["candidate"]["counts"]  # type: ignore[index]
    assert b["confirmed_recompilation_identities"] != c.get("confirmed_recompilation_identities", 0)
    assert "recompiles (confirmed) 1 -> 0" in line
    counts = line.split("; compile ids")[0]
    assert counts.count("unchanged: ") == 1 and "graph breaks 0" in counts.split("unchanged: ")[1]


def test_a_row_cut_to_fit_keeps_each_sides_failing_guards(session: Session) -> None:
    """The cut that leaves the changes' values out (to keep the structured content within twice the text) keeps
    each side of a recompile-reason change: its count and every failing guard's first line (what the text shows)."""
    page = ComparisonPage.model_validate(session.call("compare_runs", **EDIT, full=True).structured_content)
    entry = page.rows[0]
    whole = next(c for c in entry.row.changes if c.kind == "recompile_reason")
    cut = next(c for c in budget.without_change_values(entry).row.changes if c.kind == "recompile_reason")
    for name in ("baseline", "candidate"):
        before, after = getattr(whole, name), getattr(cut, name)
        assert after["failing_guards"] == before["failing_guards"]
        assert after.get("examples", []) == [e.split("\n", 1)[0] for e in before["examples"]]
    assert whole.baseline["failing_guards"] != whole.candidate["failing_guards"]
