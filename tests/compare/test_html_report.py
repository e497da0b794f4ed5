"""The HTML report as a pure function of the comparison and what the caller read for it (compilations, snapshots):
what it says when something is missing, and that it never writes Python's None, JSON's null or NaN.

The page in a real browser (chart, timeline, screenshots) is tests/cli/test_html_report.py."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from dynamo_diff_compare import ReportMaterial, RunMaterial, compare_captures, comparison_html, user_sources
from dynamo_diff_schema import Capture, Comparison
from dynamo_diff_schema.comparison import Difference
from dynamo_diff_store import Store

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"
# A missing value as Python, JSON or a float would spell it.
MISSING_WORDS = re.compile(r"\b(None|null|nan|NaN)\b")


class _Text(HTMLParser):
    """The page's own words: text outside <style>, <script> and verbatim trace or source text (data-trace)."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("meta", "br", "line", "path", "input", "img"):
            return
        hidden = tag in ("style", "script") or any(name == "data-trace" for name, _ in attrs)
        self.stack.append(hidden or (bool(self.stack) and self.stack[-1]))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        if tag not in ("meta", "br", "line", "path", "input", "img") and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not (self.stack and self.stack[-1]):
            self.parts.append(data)


def own_words(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(parser.parts)


def captured(store: Store, name: str) -> tuple[Capture, RunMaterial]:
    capture = store.import_path(CAPTURES / name).capture
    sources = user_sources(*store.source_files(capture.capture.id))
    return capture, RunMaterial([c for r in capture.ranks for c in r.compilations], sources)


@pytest.fixture(scope="module")
def edit_pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Comparison, ReportMaterial]:
    store = Store(tmp_path_factory.mktemp("html") / "store")
    (base, b_run), (cand, c_run) = captured(store, "edit_v1"), captured(store, "edit_v2")
    comparison = compare_captures(base, cand, baseline_sources=b_run.sources, candidate_sources=c_run.sources)
    return comparison, ReportMaterial({}, b_run, c_run)


def test_unset_values_are_said_in_words(edit_pair: tuple[Comparison, ReportMaterial]) -> None:
    comparison, material = edit_pair
    comp = comparison.comparability.model_copy(
        update={
            "differences": [
                Difference(key="compile.mode", source="observer", baseline=[None], candidate=["max-autotune"]),
                Difference(key="inductor.x", source="observed", baseline=float("nan"), candidate=None),
            ]
        }
    )
    html = comparison_html(comparison.model_copy(update={"comparability": comp}), material=material)
    words = own_words(html)
    assert not MISSING_WORDS.search(words), MISSING_WORDS.search(words)
    assert "[not set]" in words and "max-autotune" in words and "not a number" in words


def test_without_start_times_the_timeline_is_in_compile_order_and_says_so(
    edit_pair: tuple[Comparison, ReportMaterial],
) -> None:
    comparison, material = edit_pair
    untimed = [c.model_copy(update={"start_time": None}) for c in material.candidate.compilations]
    page = comparison_html(
        comparison, material=ReportMaterial({}, material.baseline, RunMaterial(untimed, material.candidate.sources))
    )
    words = own_words(page)
    assert "placed in compile order: this trace records no start times" in words
    assert "placed by start time" in words  # the baseline still has its start times
    ids = re.findall(r'<svg class="timeline" data-side="candidate".*?</svg>', page, re.S)[0]
    assert re.findall(r'data-compile-id="([^"]+)"', ids) == [c.compile_id for c in untimed]


def test_a_run_without_snapshots_says_so_instead_of_showing_source(
    edit_pair: tuple[Comparison, ReportMaterial],
) -> None:
    comparison, material = edit_pair
    bare = ReportMaterial({}, RunMaterial(material.baseline.compilations, None), material.candidate)
    page = comparison_html(comparison, material=bare)
    words = own_words(page)
    # Said once for the page, with how to keep the sources, not once per function.
    assert words.count("No source snapshots in the baseline: it was imported from a trace alone") == 1
    assert "record runs with Dynamo Diff's capture" in words
    assert words.count("imported from a trace alone") == 1 and "no source snapshot of this run" in words
    assert "def gate(x, mix):" in page  # the candidate kept its snapshot: its version is still shown
    # Neither run with snapshots: one note, and no source block at all.
    neither = ReportMaterial(
        {}, RunMaterial(material.baseline.compilations, None), RunMaterial(material.candidate.compilations, None)
    )
    page = comparison_html(comparison, material=neither)
    words = own_words(page)
    assert words.count("No source snapshots: neither run kept any") == 1
    assert '<div class="source">' not in page and "def gate(x, mix):" not in page


def test_without_material_the_page_still_has_the_chart_and_says_why_there_is_no_timeline(
    edit_pair: tuple[Comparison, ReportMaterial],
) -> None:
    comparison, _ = edit_pair
    page = comparison_html(comparison)
    assert 'id="compile-time-chart"' in page and 'class="timeline"' not in page
    assert "compilations of the runs were not given to the report" in own_words(page)
    assert page.count("<script") == 1 and 'href="http' not in page  # only the page's own script


def test_a_warning_is_said_in_the_header(tmp_path: Path) -> None:
    """Comparing a capture with itself makes every delta zero: the header says so, not only the notices."""
    store = Store(tmp_path / "store")
    capture, run = captured(store, "stable")
    comparison = compare_captures(capture, capture, baseline_sources=run.sources, candidate_sources=run.sources)
    (notice,) = [n for n in comparison.notices if n.code == "same_capture"]
    page = comparison_html(comparison, material=ReportMaterial({}, run, run))
    header = page[page.index('<header id="summary">') : page.index("</header>")]
    assert notice.message in unescape(header)


def test_an_upgrade_reads_as_one_difference_with_what_comes_with_it(tmp_path: Path) -> None:
    """llama_213 vs llama_214 (torch 2.13.0 and 2.14.1): the verdict card names the upgrade and how many differences
    come with it; the comparability section lists each of them once, under what it follows from."""
    store = Store(tmp_path / "store")
    base, cand = (store.import_path(CAPTURES / n).capture for n in ("llama_213", "llama_214"))
    comparison = compare_captures(base, cand)
    page = comparison_html(comparison)
    explained = comparison.comparability.explained
    assert len(explained) > 20
    words = own_words(page)
    assert f"torch upgrade 2.13.0+cpu -> 2.14.1+cu130, and {len(explained)} differences that come with it" in words
    rows = re.findall(r'<tr data-explained="([^"]+)">', page)
    assert sorted(rows) == sorted(e.key for e in explained)
    assert re.findall(r'<tr data-key="([^"]+)">', page) == ["torch_version"]
    assert not MISSING_WORDS.search(words)
