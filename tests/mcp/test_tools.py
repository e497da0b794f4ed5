"""Every tool through the SDK's in-memory client: results, paging, bounds and error codes."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable

import pytest
from dynamo_diff_mcp import budget
from dynamo_diff_mcp.budget import RESPONSE_LIMIT
from dynamo_diff_schema import CapturePage, ComparisonPage, EvidenceExcerpt, EvidenceIndex, ImportPage, validate

from .conftest import CAPTURES, CORPUS, Session, error_code, size_of, text_of

ORDER = [
    "import_trace",
    "list_captures",
    "analyze_capture",
    "compare_runs",
    "compare_ranks",
    "get_evidence",
    "get_source",
]
TOOLS = set(ORDER)


def imported_id(session: Session, path: str) -> str:
    return ImportPage.model_validate(session.call("import_trace", path=path).structured_content).captures[0].capture.id


def test_tools_are_listed_with_descriptions_and_the_listing_is_bounded(session: Session) -> None:
    listing = session.list_tools()
    assert [t.name for t in listing.tools] == ORDER  # the order the methods are written in
    for tool in listing.tools:
        assert tool.description and "\n    " not in tool.description  # dedented docstring
        assert tool.input_schema["type"] == "object"
    compare = next(t for t in listing.tools if t.name == "compare_runs")
    assert compare.input_schema["properties"]["page_size"]["maximum"] == 100
    assert compare.input_schema["required"] == ["baseline", "candidate"]
    assert size_of(listing) < RESPONSE_LIMIT


def test_import_trace_returns_id_counts_notices_and_next_calls(session: Session) -> None:
    result = session.call("import_trace", path=str(CAPTURES / "two_ranks"), full=True)
    assert not result.is_error
    summary = ImportPage.model_validate(result.structured_content)
    (imported,) = summary.captures
    row = imported.capture
    assert imported.created and row.input_kind == "bundle" and row.label == "two_ranks" and not summary.folder_of_runs
    assert [r.rank for r in summary.ranks] == [0, 1] and summary.ranks_omitted == 0
    assert row.counts.confirmed_recompilation_identities == 2 and row.rank_count == 2
    # Counts list only what is not zero (a count not listed is 0).
    listed = result.structured_content["captures"][0]["capture"]["counts"]  # type: ignore[index]
    assert (
        listed
        and all(listed.values())
        and all(v for r in result.structured_content["ranks"] for v in r["counts"].values())
    )  # type: ignore[index]
    assert any(call.startswith("compare_ranks(") for call in summary.next_calls)
    text = text_of(result)
    assert (
        text.startswith("run: completed (exit code 0)\n")
        and summary.run is not None
        and summary.run.state == "completed"
    )
    assert f"imported: {row.id}" in text and "rank 1: compilations 3" in text
    again = ImportPage.model_validate(
        session.call("import_trace", path="captures/two_ranks", label="again").structured_content
    ).captures[0]
    assert again.capture.id == row.id and not again.created  # relative to the first root; same bytes


def test_import_trace_reads_a_raw_log_and_says_what_it_could_not_read(session: Session) -> None:
    result = session.call("import_trace", path=str(CORPUS / "tlparse-tests/simple_corrupted_json.log"), full=True)
    summary = ImportPage.model_validate(result.structured_content)
    assert summary.captures[0].capture.input_kind == "raw_log"
    assert summary.notices and all(n.code for n in summary.notices)


def test_import_trace_errors_carry_our_codes(session: Session) -> None:
    assert error_code(session.call("import_trace", path="captures/no_such_run")) == "unreadable_input"
    assert error_code(session.call("import_trace", path="corpus/README.md")) in {"malformed_input", "unsupported_input"}


def test_list_captures_pages(session: Session) -> None:
    empty = session.call("list_captures")
    assert not empty.is_error and "empty" in text_of(empty)
    for name in ("stable", "shape", "edit_v1"):
        session.call("import_trace", path=f"captures/{name}")
    page = CapturePage.model_validate(session.call("list_captures", full=True).structured_content)
    assert page.total == 3 and {c.label for c in page.captures} == {"stable", "shape", "edit_v1"}
    assert page.next_offset is None
    tail = CapturePage.model_validate(session.call("list_captures", offset=2, full=True).structured_content)
    assert [c.id for c in tail.captures] == [page.captures[2].id]
    assert error_code(session.call("list_captures", offset=-1)) == "invalid_argument"


def test_compare_runs_paths_comparability_first_rows_and_evidence(session: Session) -> None:
    result = session.call("compare_runs", baseline="captures/edit_v1", candidate="captures/edit_v2", full=True)
    assert not result.is_error, text_of(result)
    page = ComparisonPage.model_validate(result.structured_content)
    assert page.comparability.verdict == "comparable" and page.total_rows == 3 and page.next_offset is None
    first = page.rows[0].row
    assert first.baseline is not None and first.baseline.qualified_name == "gate"
    assert first.candidate is not None and first.deltas == {}  # a page leaves the deltas out: both sides list counts
    assert first.baseline.counts.confirmed_recompilation_identities == 1
    assert first.candidate.counts.confirmed_recompilation_identities == 0
    assert [e.index for e in page.rows] == [0, 1, 2] and not page.rows_truncated
    text = text_of(result)
    assert text.index("comparability: COMPARABLE") < text.index("rows 1-3 of 3")
    assert "[0] gate (model.py:21) matched (line_diff: lines 21-25 map to 21-24)" in text
    assert (
        "recompiles (confirmed) 1 -> 0"
        in text.splitlines()[text.splitlines().index(next(x for x in text.splitlines() if x.startswith("[0] ")))]
    )
    # Every row is a valid comparison row: the page's rows form a schema-valid Comparison document.
    document = {
        "id": page.comparison_id,
        "kind": {"comparison_page": "comparison", "rank_view_page": "rank_view"}[page.kind],
        "baseline": page.baseline.model_dump(mode="json"),
        "candidate": page.candidate.model_dump(mode="json"),
        "comparability": page.comparability.model_dump(mode="json"),
        "totals": page.totals.model_dump(mode="json"),
        "functions": [e.row.model_dump(mode="json") for e in page.rows],
    }
    validate(document, "comparison")
    # The evidence behind a change reads back hash-checked from the capture it belongs to.
    change = next(c for c in first.changes if c.baseline_evidence)
    excerpt = EvidenceExcerpt.model_validate(
        session.call(
            "get_evidence", capture=page.baseline.id[:12], evidence_id=change.baseline_evidence[0], full=True
        ).structured_content
    )
    assert excerpt.evidence.id == change.baseline_evidence[0] and excerpt.text


def test_compare_runs_by_label_with_a_source_map(session: Session) -> None:
    session.call("import_trace", path="captures/edit_v1")
    session.call("import_trace", path="captures/edit_v2")
    result = session.call(
        "compare_runs", baseline="edit_v1", candidate="edit_v2", source_map={"model.py::gate": "model.py::postprocess"}
    )
    assert not result.is_error, text_of(result)
    page = ComparisonPage.model_validate(result.structured_content)
    rows = {e.row.baseline.qualified_name if e.row.baseline else None: e.row for e in page.rows}
    assert rows["gate"].method == "user_map" and rows["gate"].candidate is not None
    assert rows["gate"].candidate.qualified_name == "postprocess"
    bad = session.call("compare_runs", baseline="edit_v1", candidate="edit_v2", source_map={"nope": "x.py::f"})
    assert error_code(bad) == "invalid_argument"


def test_compare_runs_pages_cover_every_row_once(session: Session) -> None:
    seen: list[int] = []
    offset: int | None = 0
    while offset is not None:
        page = ComparisonPage.model_validate(
            session.call(
                "compare_runs", baseline="captures/edit_v1", candidate="captures/edit_v2", offset=offset, page_size=1
            ).structured_content
        )
        # What the whole comparison says comes once, on the first page, before the rows.
        if offset == 0:
            assert page.comparability is not None and page.comparability.verdict == "comparable"
            assert page.totals is not None
        else:
            assert page.comparability is None and page.totals is None
        seen += [e.index for e in page.rows]
        offset = page.next_offset
    assert seen == [0, 1, 2]


def test_compare_runs_errors(session: Session) -> None:
    base, cand = "captures/stable", "captures/shape"
    assert error_code(session.call("compare_runs", baseline="nothing", candidate="else")) == "unknown_capture"
    for bad in ({"page_size": 0}, {"page_size": 101}, {"offset": -1}, {"offset": 5}):
        assert error_code(session.call("compare_runs", baseline=base, candidate=cand, **bad)) == "invalid_argument"


def test_rows_that_do_not_fit_move_to_the_next_page_or_are_cut_with_notes(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a small budget nothing is dropped silently: fewer rows per page, and a cut row says what was cut."""
    edit = {"baseline": "captures/edit_v1", "candidate": "captures/edit_v2", "full": True}
    full = ComparisonPage.model_validate(session.call("compare_runs", **edit).structured_content)
    monkeypatch.setattr(budget, "BUDGET", 5_000)
    page = ComparisonPage.model_validate(session.call("compare_runs", **edit).structured_content)
    assert len(page.rows) < full.total_rows and page.next_offset == len(page.rows)
    first = page.rows[0]
    if first.truncated:  # the header alone leaves little room: the first row is cut, with notes
        assert page.rows_truncated and "  cut to fit: " in text_of(session.call("compare_runs", **edit))
    monkeypatch.setattr(budget, "BUDGET", 3_600)
    tight = ComparisonPage.model_validate(session.call("compare_runs", **edit).structured_content)
    assert len(tight.rows) == 1 and tight.next_offset == 1
    assert tight.rows_truncated and tight.rows[0].truncated
    assert any(" of " in note or "omitted" in note for note in tight.rows[0].truncated)


def test_a_confounded_pair_says_how_many_keys_differ(session: Session) -> None:
    """torch 2.13 against a torch 2.9 trace: hundreds of configuration keys differ; the cut says how many."""
    result = session.call(
        "compare_runs", baseline="captures/stable", candidate="corpus/tlparse-tests/multi_rank_runtime", full=True
    )
    page = ComparisonPage.model_validate(result.structured_content)
    assert page.comparability.verdict == "confounded"
    shown = page.comparability.differences
    (summary,) = [n for n in page.comparability_truncated if n.startswith("differences:")]
    total = int(summary.split(" of ")[1].split()[0])
    assert 0 < len(shown) < total
    text = text_of(result)
    assert f"comparability: CONFOUNDED: {total} difference(s)" in text
    # Each difference shown has its line with both values and what it changes; the rest are counted.
    assert "- python (observed): '3.11.7' -> '3.12.11'; effect: changes the bytecode Dynamo traces" in text
    assert f"- {total - 6} more difference(s): " in text


def test_compare_ranks_shows_the_first_divergence(session: Session) -> None:
    result = session.call("compare_ranks", capture="captures/two_ranks", full=True)
    page = ComparisonPage.model_validate(result.structured_content)
    assert page.kind == "rank_view_page" and page.ranks is not None
    (divergence,) = page.ranks.divergences
    assert divergence.rank == 1 and divergence.reference_rank == 0 and divergence.evidence_ids
    assert "FIRST DIVERGENCE rank 1 vs rank 0" in text_of(result)
    chosen = ComparisonPage.model_validate(
        session.call("compare_ranks", capture="two_ranks", ranks=[1, 0]).structured_content
    )
    assert chosen.ranks is not None and chosen.ranks.reference_rank == 1
    assert error_code(session.call("compare_ranks", capture="two_ranks", ranks=[0, 7])) == "invalid_argument"
    assert error_code(session.call("compare_ranks", capture="two_ranks", page_size=500)) == "invalid_argument"


def test_compare_ranks_of_4096_ranks_stays_small(session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 4,096-rank job made from two_ranks' two rank models (each copied under a new rank number): ranks 1000-1999
    and every rank 7 mod 64 outside them behave like rank 1, the rest like rank 0. The page shows the two groups
    with their ranges, fits the response bound, and says what it cut."""
    from dynamo_diff_schema import Capture
    from dynamo_diff_service import Service

    other = {r for r in range(4096) if 1000 <= r < 2000 or r % 64 == 7}
    real = Service.compare_ranks

    def inflated(self: Service, capture: Capture, ranks: list[int] | None = None):  # type: ignore[no-untyped-def]
        by_rank = {r.rank: r for r in capture.ranks}
        job = [by_rank[1 if r in other else 0].model_copy(update={"rank": r}) for r in range(4096)]
        return real(self, capture.model_copy(update={"ranks": job}), ranks)

    monkeypatch.setattr(Service, "compare_ranks", inflated)
    result = session.call("compare_ranks", capture="captures/two_ranks", full=True)  # the session checks the bound
    page = ComparisonPage.model_validate(result.structured_content)
    assert page.ranks is not None and page.ranks.reference_rank == 0
    majority = sorted(set(range(4096)) - other)
    expected_other = [7, 71, *range(135, 1000, 64), *range(1000, 2000), *range(2055, 4096, 64)]
    assert sorted(other) == sorted(set(expected_other))
    assert [(g.size, g.representative, g.reference) for g in page.ranks.groups] == [
        (len(majority), 0, True),
        (len(other), 7, False),
    ]
    # Strided runs read as one: range(7, 1000, 64) ends at 967, range(2055, 4096, 64) at 4039.
    assert page.ranks.groups[1].rank_ranges == "7-967 step 64, 1000-1999, 2055-4039 step 64"
    majority_ranges = page.ranks.groups[0].rank_ranges
    assert majority_ranges.startswith("0-6, 8-70, 72-134, ") and majority_ranges.endswith("…")
    assert page.ranks.groups[0].ranks == majority[:32]
    assert any(n.startswith("groups[0].rank_ranges: first 300") for n in page.ranks_truncated)
    assert any(n.startswith("ranks: first 32 of 4096") for n in page.ranks_truncated)
    (divergence,) = page.ranks.divergences
    assert divergence.rank == 7 and "recompile [shape]" in divergence.reason
    text = text_of(result)
    assert "rank view: 4096 ranks in 2 behaviour group(s)" in text and "FIRST DIVERGENCE rank 7 vs rank 0" in text


def test_get_evidence_index_pages_and_kind(session: Session) -> None:
    cid = imported_id(session, "corpus/tlparse-tests/multi_rank_logs")
    first = EvidenceIndex.model_validate(session.call("get_evidence", capture=cid[:10], full=True).structured_content)
    assert first.total > len(first.items) and first.next_offset == len(first.items)
    second = EvidenceIndex.model_validate(
        session.call("get_evidence", capture=cid, offset=first.next_offset, full=True).structured_content
    )
    assert second.items[0].id not in {e.id for e in first.items}
    metrics = EvidenceIndex.model_validate(
        session.call("get_evidence", capture=cid, kind="compilation_metrics", full=True).structured_content
    )
    assert metrics.items and {e.kind for e in metrics.items} == {"compilation_metrics"}


def test_get_evidence_excerpt_pages_by_characters(session: Session) -> None:
    cid = imported_id(session, "captures/stable")
    # stable.py compiles one graph: the kind names one record, and the call returns it (not a one-line index).
    oracle = json.loads((CAPTURES / "stable/oracle.json").read_text(encoding="utf-8"))
    assert oracle["backend_invocations"] == 1
    one = session.call("get_evidence", capture=cid, kind="dynamo_output_graph", full=True)
    whole = EvidenceExcerpt.model_validate(one.structured_content)
    assert whole.evidence.kind == "dynamo_output_graph" and whole.text in text_of(one)
    assert "def forward" in whole.text
    evidence_id = whole.evidence.id
    parts: list[str] = []
    offset: int | None = 0
    while offset is not None:
        result = session.call(
            "get_evidence", capture=cid, evidence_id=evidence_id, offset=offset, max_chars=300, full=True
        )
        excerpt = EvidenceExcerpt.model_validate(result.structured_content)
        assert len(excerpt.text) <= 300
        assert excerpt.text in text_of(result)
        parts.append(excerpt.text)
        offset = excerpt.next_offset
    assert len(parts) > 1 and len("".join(parts)) == excerpt.total_chars


def test_get_evidence_errors(session: Session) -> None:
    session.call("import_trace", path="captures/stable")
    assert error_code(session.call("get_evidence", capture="stable", evidence_id="r9-e999")) == "unknown_evidence"
    assert error_code(session.call("get_evidence", capture="nope")) == "unknown_capture"
    assert error_code(session.call("get_evidence", capture="stable", max_chars=0)) == "invalid_argument"
    assert error_code(session.call("get_evidence", capture="stable", max_chars=5001)) == "invalid_argument"


def test_a_large_excerpt_is_cut_to_fit_and_says_where_to_read_on(session: Session) -> None:
    """A cache record of ~72 KB of JSON (quotes and newlines escape to two characters): cut, with next_offset."""
    cid = imported_id(session, "captures/training")
    index = EvidenceIndex.model_validate(
        session.call("get_evidence", capture=cid, kind="fx_graph_cache_miss", full=True).structured_content
    )
    biggest = max(index.items, key=lambda e: e.length)
    assert biggest.length > 50_000
    result = session.call("get_evidence", capture=cid, evidence_id=biggest.id, max_chars=5000, full=True)
    excerpt = EvidenceExcerpt.model_validate(result.structured_content)
    assert excerpt.next_offset == len(excerpt.text) and 0 < len(excerpt.text) <= 5000
    assert f"offset={excerpt.next_offset}" in text_of(result)


@pytest.mark.parametrize("tool", sorted(TOOLS - {"list_captures"}))
def test_missing_arguments_are_tool_errors(session: Session, tool: str) -> None:
    result = session.call(tool)
    assert error_code(result) == "invalid_argument"
    required = next(t for t in session.list_tools().tools if t.name == tool).input_schema["required"]
    assert text_of(result).startswith(f"error[invalid_argument]: {required[0]} is required")


def test_every_published_bound_is_the_one_a_call_is_checked_against(session: Session) -> None:
    """A bound is declared once, in the parameter's type: tools/list publishes it and the SDK checks it; a call
    just outside it is an invalid_argument error naming the bound, a call on it is not refused for it."""
    checked = []
    for tool in session.list_tools().tools:
        schema = tool.input_schema
        given = {name: "nothing" for name in schema.get("required", [])}  # no such capture: found after the check
        for name, prop in schema["properties"].items():
            # An offset's lower bound, 0, goes unpublished (what an offset is); the SDK checks it all the same.
            low, high = prop.get("minimum", 0 if name == "offset" else None), prop.get("maximum")
            if low is None:
                assert high is None, (tool.name, name)
                continue
            within = f"at least {low}" if high is None else f"from {low} to {high}"
            for outside in [low - 1] + ([high + 1] if high is not None else []):
                result = session.call(tool.name, **given, **{name: outside})
                assert error_code(result) == "invalid_argument", (tool.name, name, outside)
                assert text_of(result) == f"error[invalid_argument]: {name} must be {within}, not {outside}"
                assert result.meta is not None and result.meta["dynamo-diff/error"]["details"] == {"argument": name}
            for inside in [low] + ([high] if high is not None else []):
                result = session.call(tool.name, **given, **{name: inside})
                assert not text_of(result).startswith(f"error[invalid_argument]: {name} must be"), text_of(result)
            checked.append((tool.name, name))
    assert sorted(checked) == sorted(
        [
            ("import_trace", "offset"),
            ("list_captures", "offset"),
            ("get_evidence", "offset"),
            ("get_evidence", "max_chars"),
        ]
        + [("get_source", "context"), ("get_source", "offset")]
        + [("get_evidence", "max_matches")]
        + [(t, p) for t in ("analyze_capture", "compare_runs", "compare_ranks") for p in ("offset", "page_size")]
    )


def test_a_mistyped_argument_is_an_invalid_argument_error(session: Session) -> None:
    result = session.call("list_captures", offset="x")
    assert error_code(result) == "invalid_argument"
    assert text_of(result).startswith("error[invalid_argument]: offset: Input should be a valid integer")


def test_every_fixture_pair_fits(connect: Callable[..., Session]) -> None:
    """All retained bundles against each other's neighbour: every response stays under the limit."""
    s = connect()
    names = sorted(p.name for p in CAPTURES.iterdir() if (p / "manifest.json").exists())
    for base, cand in itertools.pairwise(names):
        result = s.call("compare_runs", baseline=f"captures/{base}", candidate=f"captures/{cand}")
        assert not result.is_error, text_of(result)
        assert size_of(result) < RESPONSE_LIMIT


def test_run_status_comes_first_and_the_change_under_test_is_named(session: Session) -> None:
    result = session.call("compare_runs", baseline="captures/midrun_complete", candidate="captures/midrun_kill")
    page = ComparisonPage.model_validate(result.structured_content)
    assert page.candidate.run is not None and page.candidate.run.state == "killed"
    text = text_of(result)
    assert text.splitlines()[0].startswith("runs: baseline completed (exit code 0) | candidate DID NOT FINISH: killed")
    listed = CapturePage.model_validate(session.call("list_captures", full=True).structured_content)
    assert sorted(c.run_state for c in listed.captures) == ["completed", "killed"]
    cold_warm = {"baseline": "captures/cache_cold", "candidate": "captures/cache_warm"}
    page = ComparisonPage.model_validate(session.call("compare_runs", **cold_warm, full=True).structured_content)
    assert page.comparability.verdict == "confounded"
    assert [(d.key, d.affects) for d in page.comparability.differences] == [("cache_state", ["cache", "compile_time"])]
    named = session.call("compare_runs", **cold_warm, change=["cache_state"], full=True)
    page = ComparisonPage.model_validate(named.structured_content)
    assert page.comparability.verdict == "comparable"
    assert [d.key for d in page.comparability.intended] == ["cache_state"]
    assert "the change under test: cache_state" in text_of(named)


def test_a_torch_upgrade_is_one_difference_and_what_comes_with_it(session: Session) -> None:
    """llama_213 vs llama_214 (torch 2.13.0 and 2.14.1 of one transformers model): the page names the upgrade and
    counts what comes with it; the settings that came with it are listed (bounded) under `explained`."""
    pair = {"baseline": "captures/llama_213", "candidate": "captures/llama_214"}
    page = ComparisonPage.model_validate(session.call("compare_runs", **pair, full=True).structured_content)
    assert page.comparability.verdict == "confounded"
    assert [d.key for d in page.comparability.differences] == ["torch_version"]
    # What comes with the upgrade gives way before the row does: its change (guards per compilation) is shown.
    assert page.rows[0].row.changes and not any(n.startswith("changes:") for n in page.rows[0].truncated)
    assert any(n.startswith("explained: ") for n in page.comparability_truncated)
    text = text_of(session.call("compare_runs", **pair))

    assert "comparability: CONFOUNDED: torch upgrade 2.13.0+cpu -> 2.14.1+cu130, and 35 differences that come " in text
    # The text alone names the defaults torch changed between the versions with both values, and what it affects.
    assert "dynamo.use_lamba_guard_for_object_aliasing true -> false" in text
    assert "; effect: changes Dynamo, its guards, its defaults and the backends" in text
    named = session.call("compare_runs", **pair, change=["torch_version"], full=True)
    page = ComparisonPage.model_validate(named.structured_content)
    assert page.comparability.verdict == "comparable"
    assert all(e.follows_from == "torch_version" for e in page.comparability.explained)
    assert "the change under test: torch upgrade 2.13.0+cpu -> 2.14.1+cu130, and 35 differences" in text_of(named)
    assert size_of(named) < RESPONSE_LIMIT
