"""A row or a list cut to fit never drops an item silently: a cut row's compile ids say how many more there are and
which call lists them, each side's failing guards are named by side and counted per side, and no list hides one
item behind "+1 more". Expected values from the traces themselves (grep over the rank logs, the workloads'
oracle.json `guard_failures`), never from our analyser."""

from __future__ import annotations

import json
import re

from dynamo_diff_schema import ComparisonPage

from .conftest import CAPTURES, CORPUS, Session, text_of

MULTI = {
    "baseline": str(CORPUS / "tlparse-tests" / "multi_rank_logs"),
    "candidate": str(CORPUS / "tlparse-tests" / "multi_rank_runtime"),
}


def _kernel_compilations() -> int:
    """compilation_metrics records of `kernel` over the baseline's rank logs (rank 1: 15, rank 3: 7)."""
    logs = sorted((CORPUS / "tlparse-tests" / "multi_rank_logs").glob("*.log"))
    return sum(
        1
        for log in logs
        for line in log.read_text(encoding="utf-8").splitlines()
        if '"compilation_metrics"' in line and '"co_name": "kernel"' in line
    )


def test_a_cut_rows_compile_ids_say_how_many_more_and_where(session: Session) -> None:
    total = _kernel_compilations()
    assert total == 22
    result = session.call("compare_runs", **MULTI, full=True)
    page = ComparisonPage.model_validate(result.structured_content)
    (entry,) = [e for e in page.rows if e.row.baseline is not None and e.row.baseline.qualified_name == "kernel"]
    shown = entry.row.baseline.compile_ids  # type: ignore[union-attr]
    assert entry.truncated and len(shown) < total
    line = next(x for x in text_of(result).splitlines() if x.startswith(f"[{entry.index}] kernel "))
    ids = line.split("; compile ids ", 1)[1]
    baseline = short_id_of(page.baseline.id)
    assert ids == (
        f'{", ".join(shown)} (+{total - len(shown)} more: analyze_capture(capture="{baseline}", function="kernel") '
        "lists each)"
    )
    cut = next(x for x in text_of(result).splitlines() if x.startswith("  cut to fit: "))
    candidate = short_id_of(page.candidate.id)
    room = f'compare_runs(baseline="{baseline}", candidate="{candidate}", offset={entry.index}, page_size=1)'
    assert cut.endswith(f"with more room: {room}")
    # That call: the row with the room of a whole page, every compile id and the guards that changed.
    alone = session.call("compare_runs", **MULTI, offset=entry.index, page_size=1, full=True)
    row = ComparisonPage.model_validate(alone.structured_content).rows[0].row
    assert row.baseline is not None and len(row.baseline.compile_ids) == total
    assert any(c.kind == "recompile_reason" for c in row.changes)
    assert "\n      baseline: 0/0: tensor 'x' size mismatch at index 0." in text_of(alone)


def short_id_of(capture_id: str) -> str:
    return capture_id[:12]


def test_each_sides_failing_guards_are_named_and_counted_by_side(session: Session) -> None:
    on, off = (
        json.loads((CAPTURES / n / "oracle.json").read_text(encoding="utf-8"))["guard_failures"]["f"]
        for n in ("auto_dynamic_on", "auto_dynamic_off")
    )
    assert (len(on), len(off)) == (1, 6)  # automatic dynamic shapes: one recompile; off: every new size
    result = session.call(
        "compare_runs", baseline=str(CAPTURES / "auto_dynamic_on"), candidate=str(CAPTURES / "auto_dynamic_off")
    )
    # At most 4 texts a side (under each, what the new entries were made for), then how many more and where.
    lines = [x for x in text_of(result).splitlines() if not x.startswith("      (new entr")]
    at = next(i for i, x in enumerate(lines) if x.startswith("  shape guards failing: 1 -> 6"))
    assert lines[at + 1 : at + 6] == [f"      baseline: {on[0]}"] + [f"      candidate: {g}" for g in off[:4]]
    assert lines[at + 6].startswith(f"      (candidate: {len(off) - 4} more texts, {len(off)} in all from")
    assert "more failing guard" not in text_of(result)
    # recompile_limit's pair: the baseline's 10 failing guards repeat 4 texts (torch checks each cached entry).
    guards = json.loads((CAPTURES / "pair_recompile_limit_before" / "oracle.json").read_text(encoding="utf-8"))[
        "guard_failures"
    ]["step"]
    firsts = list(dict.fromkeys(g.split("  #", 1)[0].strip() for g in guards))
    result = session.call(
        "compare_runs",
        baseline=str(CAPTURES / "pair_recompile_limit_before"),
        candidate=str(CAPTURES / "pair_recompile_limit_after"),
    )
    text = text_of(result)
    for guard in firsts:
        assert f"\n      baseline: {guard} at model.py:" in text, guard
    assert f"(baseline: {len(guards)} failing guards of this kind, repeating the {len(firsts)} texts above)" in text


# "+1 more", "(+1 more ...)", "... +1]", ", 1 more", "and 1 more": one item hidden behind a count of one.
ONE_HIDDEN = re.compile(r"\+1 more|\+1\]|\+1\)|[,(] 1 more|and 1 more\b|\b1 more (?:failing|function|notice|rank)")
PAIRS = [
    ("pair_recompile_limit_before", "pair_recompile_limit_after"),
    ("auto_dynamic_on", "auto_dynamic_off"),
    ("edit_v1", "edit_v2"),
    ("multiple_guards", "shape"),
    ("llama_213", "llama_214"),
]
RUNS = ["multiple_guards", "recompile_limit", "stack_slots", "resume_locals", "ddp_ranks", "data_breaks", "dynamic"]


def test_no_tool_result_hides_one_item_behind_a_count(session: Session) -> None:
    texts = [
        text_of(session.call("compare_runs", baseline=str(CAPTURES / b), candidate=str(CAPTURES / c))) for b, c in PAIRS
    ]
    texts += [text_of(session.call("analyze_capture", capture=str(CAPTURES / n))) for n in RUNS]
    texts.append(text_of(session.call("compare_runs", **MULTI, full=True)))
    for text in texts:
        assert not ONE_HIDDEN.search(text), ONE_HIDDEN.search(text)
