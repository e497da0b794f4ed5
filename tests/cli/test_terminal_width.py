"""The text views in a real terminal of 80 and 100 columns (a pseudo-terminal whose window size is set, COLUMNS
unset: tools/terminal_shots.py): no line wider than the terminal, every guard text, graph-break id and evidence id
the JSON document gives whole on one line, and the line counts the issue set (the edit pair in 40 lines at 80
columns; it took 129 before, cold vs warm 182)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from terminal_shots import SHOTS, cli, in_terminal  # noqa: E402

from .conftest import Run  # noqa: E402

CAPTURES = ROOT / "fixtures/captures"
# Lines at most, per view, at 80 columns (what each printed before this layout: 129, 182, 218, 143, 49, 150).
# The edit pair's rows list the source lines that changed in gate and in the loop that calls it (17 lines of it).
# analyze of edit_v1 shows the loop that calls gate and encoder (7 lines: its header, its body up to each call);
# analyze --by-function of graph_break the two loops that call with_item and with_print (3 lines each).
MOST_LINES = {
    "compare-edit": 60,
    "compare-cold-warm": 60,
    "compare-cache": 60,
    "compare-ranks": 45,
    "analyze-edit": 48,
    "analyze-by-function": 52,
    "demo": 80,
}


def shown(name: str, columns: int, store: Path) -> str:
    code, text = in_terminal(SHOTS[name], columns, store=store)
    assert code in (0, 1), text
    return text


def comparison(run: Run, *args: str) -> dict[str, Any]:
    code, out, err = run(*args, "--format", "json")
    assert code == 0, err
    document: dict[str, Any] = json.loads(out)
    return document


def whole_on_a_line(text: str, needle: str) -> bool:
    return any(needle in line for line in text.splitlines())


def words_of(text: str) -> set[str]:
    return {word.strip("[],;()") for line in text.splitlines() for word in line.split()}


def guards_breaks_evidence(document: dict[str, Any]) -> tuple[list[str], list[str], list[str]]:
    """The guard texts, graph-break registry ids and evidence ids the text shows of a comparison: the first example
    guard of a recompile-reason change, a break's gb id, the first three evidence ids per side of each change."""
    guards, breaks, evidence = [], [], []
    for row in document["functions"]:
        folded = not row["deltas"] and row["status"] == "matched"
        folded = folded and all(c["kind"] in ("phase_time", "source") for c in row["changes"])
        for change in row["changes"]:
            if change["kind"] == "phase_time" or folded:
                continue  # timings within noise and unchanged rows are folded; the others say their evidence
            for side in (change["candidate"], change["baseline"]):
                if change["kind"] == "recompile_reason" and isinstance(side, dict) and side.get("examples"):
                    guards.append(side["examples"][0].split("  #", 1)[0].strip())
                    break
            for side in (change["candidate"], change["baseline"]):
                key = side.get("key") if isinstance(side, dict) else None
                if change["kind"].startswith("graph_break") and isinstance(key, str) and key.startswith("gb"):
                    breaks.append(key)
            evidence += change["baseline_evidence"][:3] + change["candidate_evidence"][:3]
    return guards, breaks, evidence


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("terminal") / "store"


@pytest.mark.parametrize("columns", [80, 100])
@pytest.mark.parametrize(
    ("name", "pair"),
    [
        ("compare-edit", ("edit_v1", "edit_v2")),
        ("compare-cold-warm", ("inductor_cold", "inductor_warm")),
        ("compare-cache", ("cache_cold", "cache_warm")),
    ],
)
def test_a_comparison_fits_the_terminal_and_shows_its_evidence_whole(
    run: Run, store: Path, name: str, pair: tuple[str, str], columns: int
) -> None:
    text = shown(name, columns, store)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= columns, text
    assert len(lines) <= MOST_LINES[name], text
    document = comparison(run, "compare", *(str(CAPTURES / p) for p in pair))
    guards, breaks, evidence = guards_breaks_evidence(document)
    assert evidence, "the pair's changes name their evidence"
    for guard in guards:
        assert whole_on_a_line(text, guard), (guard, text)
    words = words_of(text)
    for key in breaks + evidence:
        assert key in words, (key, text)
    # Every function with a change has its line: its name first, not a table cell.
    changed = [
        row
        for row in document["functions"]
        if row["deltas"]
        or row["status"] != "matched"
        or any(c["kind"] not in ("phase_time", "source") for c in row["changes"])
    ]
    starts = [line for line in lines if not line.startswith(" ")]
    for row in changed:
        side = row["candidate"] or row["baseline"]
        assert any(line.startswith(f"{side['qualified_name']} (") for line in starts), (side, text)


def test_the_edit_pair_reads_as_the_issue_asks_at_80_columns(store: Path) -> None:
    """edit_v1 -> edit_v2 (the oracles: gate recompiled once on its bool, v2 removes it and adds postprocess)."""
    text = shown("compare-edit", 80, store)
    lines = text.splitlines()
    gate = next(i for i, line in enumerate(lines) if line.startswith("gate (model.py:21) [matched (line_diff)]:"))
    assert "compiles 2 -> 1, recompiles 1 -> 0" in lines[gate]
    assert lines[gate + 2] == "  value guards failing: 1 -> 0 [evidence: baseline u1-e10]"
    assert (
        lines[gate + 3] == "      baseline: 0/0: flag == True at model.py:23: if flag:"
    )  # the trace: model.py:23 in gate
    assert "postprocess (model.py:27) [candidate only]: compiles 1, compile time 0.03 s" in lines
    # Counts that are 0 in both runs are not said per function (breaks, failed, limits, cache hits and misses).
    assert not [line for line in lines if re.search(r"\b(breaks|failed|limits|hits|misses) 0\b", line)]
    assert not [line for line in lines if "│" in line or "┃" in line]


@pytest.mark.parametrize("columns", [80, 100])
def test_analyze_the_rank_view_check_and_demo_fit(run: Run, store: Path, columns: int) -> None:
    for name in ("analyze-edit", "analyze-by-function", "compare-ranks", "check-edit", "demo"):
        text = shown(name, columns, store)
        lines = text.splitlines()
        assert max(len(line) for line in lines) <= columns, (name, text)
        assert len(lines) <= MOST_LINES.get(name, 40), (name, text)
        assert "rank ?" not in text, (name, text)
    analyzed = shown("analyze-edit", columns, store)
    capture = comparison(run, "analyze", str(CAPTURES / "edit_v1"))
    reasons = [r for c in capture["ranks"][0]["compilations"] if c["recompile"] for r in c["recompile"]["reasons"]]
    assert reasons, "edit_v1 recompiled gate once (its oracle)"
    for reason in reasons:
        assert whole_on_a_line(analyzed, reason["text"].split("  #", 1)[0].strip()), analyzed
    notice = [line for line in analyzed.splitlines() if "uninterpreted_record_kinds" in line]
    assert len(notice) == 1 and "(--verbose lists them)" in analyzed and "chromium_event" not in analyzed
    report = comparison(run, "analyze", str(CAPTURES / "graph_break"), "--by-function")
    by_function = words_of(shown("analyze-by-function", columns, store))
    for function in report["functions"]:
        for compilation in function["compilations"]:
            for gb in compilation["graph_breaks"]:
                assert gb["gb_id"] in by_function and gb["evidence_id"] in by_function
    ranks = shown("compare-ranks", columns, store)
    view = comparison(run, "compare", str(CAPTURES / "two_ranks"), "--ranks")
    guards, _, evidence = guards_breaks_evidence(view)
    assert guards and all(whole_on_a_line(ranks, guard) for guard in guards), ranks
    assert set(evidence) <= words_of(ranks)


def test_piped_output_is_100_columns(tmp_path: Path) -> None:
    """Piped (a CI log): lines of at most 100 characters, where a table was stretched to 160."""
    env = {"PATH": "/usr/bin:/bin", "DYNAMO_DIFF_STORE": str(tmp_path / "store"), "NO_COLOR": "1"}
    for args in (SHOTS["compare-cold-warm"], SHOTS["analyze-edit"]):
        done = subprocess.run([*cli(), *args], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        assert max(len(line) for line in done.stdout.splitlines()) <= 100, done.stdout


def test_two_runs_without_snapshots_are_said_once(run: Run) -> None:
    """Two bare traces (the raw logs of stable and shape): the JSON keeps a notice per side, the text says it once."""
    base, cand = str(CAPTURES / "stable" / "raw"), str(CAPTURES / "shape" / "raw")
    document = comparison(run, "compare", base, cand)
    assert [n["code"] for n in document["notices"]].count("no_source_snapshots") == 2
    for fmt in ("text", "markdown"):
        code, out, err = run("compare", base, cand, "--format", fmt)
        assert code == 0, err
        flat = " ".join(out.split())
        assert flat.count("no_source_snapshots") == 1
        assert "the baseline and the candidate have no source snapshots" in flat


def test_a_line_wider_than_the_terminal_is_printed_whole_never_cut(tmp_path: Path) -> None:
    """A word that cannot fit (here the demo captures' folder in 16 columns) stands alone on its line and is printed
    whole for the terminal to wrap: rich crops lines at the width by default, which cut the paths to '.../demo/e'."""
    env = {"PATH": "/usr/bin:/bin", "DYNAMO_DIFF_STORE": str(tmp_path / "store"), "NO_COLOR": "1", "COLUMNS": "16"}
    done = subprocess.run([*cli(), "demo"], cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    (folder,) = re.findall(r"\bfrom\s+(\S+),", done.stderr)
    assert len(folder) > 16 and Path(folder).expanduser().joinpath("edit_v1").is_dir(), done.stderr  # whole
