"""A run that compiled nothing, as a user meets it in every format (fixtures compiled_nothing_ranks and
compiled_nothing: torch.compile called, its result never called, no trace file; no_graph: frames without a graph).
The loud line comes first, counts are 0, and the CI gate fails unless --allow-empty."""

from __future__ import annotations

import json
import re
from pathlib import Path

from dynamo_diff_schema import validate

from .conftest import Run

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "fixtures/captures"
RANKS, SINGLE, NO_GRAPH, STABLE = (
    str(CAPTURES / n) for n in ("compiled_nothing_ranks", "compiled_nothing", "no_graph", "stable")
)


def compile_line(script: str, arg: str) -> int:
    """The line of the workload's own `torch.compile(<arg>, ...)` call (read from its source, not from us)."""
    lines = (ROOT / "fixtures/workloads" / script).read_text(encoding="utf-8").splitlines()
    (line,) = [n for n, text in enumerate(lines, 1) if f"torch.compile({arg}," in text]
    return line


LINE = compile_line("compiled_nothing_ranks.py", "net")
HEADLINE = f"torch.compile was called 2 times (Net at compiled_nothing_ranks.py:{LINE}) but no frame was compiled"


def test_analyze_says_it_first_with_zero_counts(run: Run) -> None:
    code, out, err = run("analyze", RANKS)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == f"NOTHING COMPILED: {HEADLINE}"
    assert lines[1] == "run: completed (exit code 0)"
    assert "no trace file (torch writes none for a run that compiles no frame)" in out
    assert re.search(r"\n  compilations +0\n", out) and "17 other counts are 0" in out
    code, out, _ = run("analyze", RANKS, "--format", "markdown")
    assert out.splitlines()[2] == f"- NOTHING COMPILED: {HEADLINE}" and "| compilations | 0 |" in out
    code, out, _ = run("analyze", RANKS, "--format", "json")
    document = json.loads(out)
    validate(document, "capture")
    assert document["capture"]["compiled"] == {
        "state": "nothing_compiled",
        "summary": HEADLINE,
        "compilations": 0,
        "torch_compile_calls": 2,
    }
    counts = document["counts"]
    assert document["ranks"] == [] and counts["observed_compilation_identities"] == 0 and counts["incomplete"] == []
    assert all(v == 0 for v in counts.values() if isinstance(v, int | float))
    assert document["capture"]["run"]["state"] == "completed"


def test_the_run_report_and_list_say_it(run: Run) -> None:
    code, out, err = run("analyze", RANKS, "--by-function")
    assert code == 0, err
    assert out.splitlines()[0] == f"NOTHING COMPILED: {HEADLINE}"
    code, out, _ = run("analyze", RANKS, "--by-function", "--format", "json")
    report = json.loads(out)
    validate(report, "run_report")
    assert report["compiled"]["state"] == "nothing_compiled" and report["functions"] == []
    code, out, _ = run("list")
    assert "NOTHING" in out and "COMPILED" in out
    code, out, _ = run("list", "--format", "json")
    assert [r["compiled_state"] for r in json.loads(out)["captures"]] == ["nothing_compiled"]


def test_compare_says_the_candidate_compiled_nothing(run: Run) -> None:
    code, out, err = run("compare", STABLE, RANKS)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == f"the candidate COMPILED NOTHING: {HEADLINE}"
    assert lines[1] == "runs: baseline completed (exit code 0) | candidate completed (exit code 0)"
    # No trace file, so no configuration to compare: one line says so (not a key-by-key list, not an Inductor
    # difference), and two rank counts (1 and none) are not a rank difference.
    assert "candidate: it compiled no frame and wrote no trace file" in out
    assert "inductor config" not in out and "rank_count_differs" not in out
    assert "[error] nothing_compiled: the candidate compiled nothing" in out
    code, out, _ = run("compare", RANKS, STABLE)
    assert out.splitlines()[0] == f"the baseline COMPILED NOTHING: {HEADLINE}"
    code, out, _ = run("compare", STABLE, RANKS, "--format", "json")
    comparison = json.loads(out)
    validate(comparison, "comparison")
    assert comparison["candidate"]["compiled"]["state"] == "nothing_compiled"
    assert comparison["baseline"]["compiled"]["state"] == "compiled"
    assert [n["code"] for n in comparison["notices"] if n["severity"] == "error"] == ["nothing_compiled"]
    assert comparison["totals"]["candidate"]["observed_compilation_identities"] == 0
    code, out, _ = run("compare", STABLE, RANKS, "--format", "markdown")
    assert f"- the candidate COMPILED NOTHING: {HEADLINE}" in out.splitlines()[:4]


def test_the_html_report_card_says_it(run: Run, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    code, _, err = run("compare", STABLE, RANKS, "--format", "html", "-o", str(page))
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    card = re.search(r'<div class="run-card run-good run-empty" data-side="candidate">(.*?)</div></div>', html)
    assert card is not None
    assert 'data-compiled="nothing_compiled">NOTHING COMPILED</div>' in card.group(1)
    assert HEADLINE in card.group(1)
    # 1 -> 0 compilations is not good news when the candidate compiled nothing.
    assert 'class="tile tile-neutral" data-count="observed_compilation_identities"' in html
    assert "A run compiled nothing: its counts are 0" in html


def test_check_fails_on_a_run_that_compiled_nothing_unless_allowed(run: Run) -> None:
    code, out, _ = run("check", STABLE, RANKS, "--max-new-recompiles", "0", "--max-new-graph-breaks", "0")
    lines = out.splitlines()
    assert code == 1
    assert lines[:2] == [
        "dynamo-diff check: FAILED",
        f"FAIL compiled: the candidate COMPILED NOTHING: {HEADLINE} (--allow-empty compares anyway)",
    ]
    # On its counts alone it passes every threshold: 0 recompilations, 0 graph breaks.
    assert "ok   confirmed recompilations: 0 -> 0 (+0, allowed +0)" in lines
    code, out, _ = run("check", STABLE, RANKS, "--max-new-recompiles", "0", "--allow-empty")
    assert code == 0
    assert (
        out.splitlines()[1] == f"warn compiled: the candidate COMPILED NOTHING: {HEADLINE} (allowed by --allow-empty)"
    )
    code, out, _ = run("check", SINGLE, STABLE)
    assert code == 1 and out.splitlines()[1].startswith("FAIL compiled: the baseline COMPILED NOTHING: torch.compile")


def test_check_fails_when_no_graph_reached_the_backend(run: Run) -> None:
    code, out, _ = run("check", STABLE, NO_GRAPH)
    assert code == 1
    assert out.splitlines()[1] == (
        "FAIL compiled: the candidate COMPILED NO GRAPH: frames ran but no graph reached the backend: "
        "2 compilation(s), every one without a graph (--allow-empty compares anyway)"
    )
    code, out, _ = run("analyze", NO_GRAPH)
    assert out.splitlines()[0].startswith("NO GRAPH COMPILED: frames ran but no graph reached the backend")


def test_a_bare_empty_trace_directory_is_refused_with_a_code(run: Run, tmp_path: Path) -> None:
    trace = tmp_path / "TORCH_TRACE"
    trace.mkdir()
    code, _, err = run("import", str(trace))
    assert code == 2
    assert err.startswith("error[no_trace]: ") and "dynamo-diff capture" in err
