"""A run killed inside a compilation, as a user reads it: the compilation that never finished (it has a
dynamo_start and no compilation_metrics) belongs to its function, with the same file, first line and name as its
finished siblings, so every view shows one row per source function, for a bundle and for the bare trace log of
the same run.

The captures are real (fixtures/captures, recorded by tools/generate_fixtures.py): midrun_kill (killed while
compiling f's third graph, a recompile), killed_compile_kill (killed while compiling h, whose only compilation
that is) and killed_compile_resume (killed while compiling g's resume function after its graph break), each
beside the same script run to the end. The expected functions and counts are the workloads' own oracles."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from dynamo_diff_schema import validate

from .conftest import Run

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"
PAIRS = [
    ("midrun_complete", "midrun_kill"),
    ("killed_compile_complete", "killed_compile_kill"),
    ("killed_compile_complete", "killed_compile_resume"),
]
RESUME = re.compile(r"torch_dynamo_resume_in_(.+)_at_\d+")
STATUSES = ("matched", "baseline only", "candidate only", "ambiguous")


def expect(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CAPTURES / name / "oracle.json").read_text())["expect"]
    return data


def functions(name: str) -> list[str]:
    """The source functions the workload compiled (its oracle's list; midrun's only one is its function)."""
    found = expect(name).get("functions") or sorted(expect(name)["compilations_by_function"])
    return list(found)


def compilations_per_function(name: str) -> Counter[str]:
    """The oracle's compilations per code name, a resume function's counted in the function it resumes."""
    counts: Counter[str] = Counter()
    for code_name, n in expect(name)["compilations_by_function"].items():
        match = RESUME.fullmatch(code_name)
        counts[match.group(1) if match else code_name] += n
    return counts


def form(name: str, kind: str) -> str:
    """The run as a bundle, or as its bare trace log (what a user imports with `import <bundle>/raw/<file>.log`)."""
    if kind == "bundle":
        return str(CAPTURES / name)
    (log,) = (CAPTURES / name / "raw").glob("*.log")
    return str(log)


@pytest.mark.parametrize("kind", ["bundle", "log"])
@pytest.mark.parametrize(("complete", "killed"), PAIRS)
def test_one_row_per_function_in_every_compare_format(
    run: Run, tmp_path: Path, complete: str, killed: str, kind: str
) -> None:
    base, cand = form(complete, kind), form(killed, kind)
    wanted = functions(complete)
    assert set(functions(killed)) <= set(wanted)
    code, out, err = run("compare", base, cand, "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    validate(doc, "comparison")
    assert doc["candidate"]["run"]["finished"] is False
    rows = {((row["baseline"] or row["candidate"])["qualified_name"]): row for row in doc["functions"]}
    assert len(rows) == len(doc["functions"])  # each function once
    assert sorted(rows) == sorted(wanted)
    per_function = compilations_per_function(killed)
    for name in functions(killed):
        row = rows[name]
        assert row["status"] == "matched", row
        # The unfinished compilation is counted in its function's row, with the finished ones.
        assert row["candidate"]["counts"]["observed_compilation_identities"] == per_function[name]
        assert row["candidate"]["line"] == row["baseline"]["line"] is not None
    for name in set(wanted) - set(functions(killed)):
        assert rows[name]["status"] == "baseline_only"  # never called in the killed run
    candidate = [row["candidate"]["counts"] for row in doc["functions"] if row["candidate"]]
    assert sum(c["observed_compilation_identities"] for c in candidate) == expect(killed)["compilations"]
    assert sum(c["unknown_outcomes"] for c in candidate) == len(expect(killed)["unfinished"]) == 1
    statuses = Counter(row["status"].replace("_", " ") for row in doc["functions"])

    code, md, _ = run("compare", base, cand, "--format", "markdown", "--all")
    assert code == 0
    md_rows = [line for line in md.splitlines() if line.startswith(tuple(f"| {s}" for s in STATUSES))]
    assert len(md_rows) == len(wanted)
    cells = [line.split(" | ")[1] for line in md_rows]
    for name in wanted:
        assert sum(cell.startswith(f"{name} (") for cell in cells) == 1, (name, cells)
    assert not [cell for cell in cells if re.search(r"\(\S+\.py\)$", cell)], cells  # a location without its line

    code, text, _ = run("compare", base, cand, "--all")
    assert code == 0
    text_statuses = Counter(
        status for line in text.splitlines() for status in STATUSES if re.match(rf"\S.* \[{status}[\]( ]", line)
    )
    assert text_statuses == statuses and "candidate only" not in text

    page = tmp_path / "report.html"
    assert run("compare", base, cand, "--format", "html", "-o", str(page))[0] == 0
    table = re.findall(r'<table id="functions">.*?</table>', page.read_text(), re.S)[0]
    html_rows = re.findall(r'<td data-v="[^"]*"><a href="#row-\d+">([^<]+)</a></td>', table)
    assert sorted(row.split(" (")[0] for row in html_rows) == sorted(wanted), html_rows


@pytest.mark.parametrize("kind", ["bundle", "log"])
@pytest.mark.parametrize("killed", [killed for _, killed in PAIRS])
def test_analyze_places_the_unfinished_compilation_at_its_function(run: Run, killed: str, kind: str) -> None:
    code, out, err = run("analyze", form(killed, kind), "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    (rank,) = doc["ranks"]
    unfinished = [c for c in rank["compilations"] if c["outcome"] == "unknown"]
    assert [c["compile_id"] for c in unfinished] == expect(killed)["unfinished"]
    (comp,) = unfinished
    assert comp["code"]["co_firstlineno"] is not None and comp["code"]["source"] == "dynamo_start"
    # Its functions group is keyed like its siblings': file, first line and name, never '?'.
    keys = [group["key"] for group in rank["functions"]]
    assert not [key for key in keys if ":?:" in key]
    assert Counter(key.rsplit(":", 1)[1] for key in keys) == Counter(expect(killed)["compilations_by_function"].keys())
    code, text, _ = run("analyze", form(killed, kind))
    assert code == 0
    (line,) = [line for line in text.splitlines() if line.startswith(f"{comp['compile_id']} ")]
    where = f"{comp['code']['co_name']} ({Path(comp['code']['co_filename']).name}:{comp['code']['co_firstlineno']})"
    assert where in line


@pytest.mark.parametrize("kind", ["bundle", "log"])
@pytest.mark.parametrize(("complete", "killed"), PAIRS)
def test_check_fails_on_the_killed_run_and_names_each_function_once(
    run: Run, complete: str, killed: str, kind: str
) -> None:
    base, cand = form(complete, kind), form(killed, kind)
    code, out, _ = run("check", base, cand, "--max-new-recompiles", "0", "--max-new-graph-breaks", "0")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "dynamo-diff check: FAILED"
    assert lines[2].startswith("FAIL run: the candidate did not finish: ")
    # Equal recompilations and breaks on both sides (the oracles agree): nothing else fails.
    assert expect(killed)["recompiles"] == expect(complete)["recompiles"]
    assert [line for line in lines if line.startswith("FAIL")] == [line for line in lines if "FAIL run" in line]


@pytest.mark.parametrize("kind", ["bundle", "log"])
def test_check_names_the_function_of_an_unfinished_recompile_once(run: Run, kind: str) -> None:
    """midrun_kill's unfinished compilation 0/2 is a recompile of f: against a run without recompiles the gate
    names f once, with both of its recompiles (the oracle's 2), not f twice."""
    code, out, _ = run("check", form("stable", kind), form("midrun_kill", kind), "--max-new-recompiles", "0")
    assert code == 1
    lines = out.splitlines()
    recompiles = expect("midrun_kill")["recompiles"]
    fail = lines.index(f"FAIL confirmed recompilations: 0 -> {recompiles} (+{recompiles}, allowed +0)")
    named = [line for line in lines[fail + 1 :] if line.startswith("       ") and line[7] != " "]
    assert len(named) == 1 and re.search(rf"\bf \(midrun\.py:\d+\): 0 -> {recompiles};", named[0]), named
