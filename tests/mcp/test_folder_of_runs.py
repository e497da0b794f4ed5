"""import_trace and `dynamo-diff import` of a folder of runs two levels deep (runs/a/bundle, runs/b/logs): each run
imported on its own, labelled by its folder, listed with its id and path; a run that fails is listed with its error
and the others are imported; a link out of the allowed root is refused for that run only."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from dynamo_diff_cli.app import app
from dynamo_diff_schema import ImportPage
from typer.testing import CliRunner

from .conftest import CAPTURES, Session, error_code, text_of

BUNDLE = CAPTURES / "global_guard"
(RAW_LOG,) = (BUNDLE / "raw").glob("*.log")


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    """root/runs: a/bundle (a copy of a fixture bundle), b/logs (its raw log alone), c/notes (no run), d/logs
    (an empty log: torch wrote nothing)."""
    runs = tmp_path / "root" / "runs"
    shutil.copytree(BUNDLE, runs / "a" / "bundle")
    (runs / "b" / "logs").mkdir(parents=True)
    shutil.copy(RAW_LOG, runs / "b" / "logs" / RAW_LOG.name)
    (runs / "c" / "notes").mkdir(parents=True)
    (runs / "c" / "notes" / "readme.txt").write_text("not a run\n")
    (runs / "d" / "logs").mkdir(parents=True)
    (runs / "d" / "logs" / "dedicated_log_torch_trace_empty.log").write_text("")
    return runs


def test_a_folder_of_run_folders_imports_each_run(connect: Callable[..., Session], runs: Path) -> None:
    s = connect(runs.parent)
    result = s.call("import_trace", path="runs", full=True)
    assert not result.is_error, text_of(result)
    page = ImportPage.model_validate(result.structured_content)
    assert page.folder_of_runs and page.total == 2
    listed = [(r.capture.label, r.input, r.capture.input_kind) for r in page.captures]
    assert listed == [("a", "runs/a/bundle", "bundle"), ("b", "runs/b/logs", "raw_directory")]
    ((failed),) = page.failed
    assert (failed.input, failed.code) == ("runs/d/logs", "no_trace")
    text = text_of(result)
    for run in page.captures:
        folder_relative = run.input.removeprefix("runs/")
        assert f"== {run.capture.label} {run.capture.id[:12]} (new, from {folder_relative}): torch " in text
    assert "runs/d/logs: error[no_trace]" in text and "runs/c" not in text
    # Each is its own capture, found by its label; the bundle is the one its manifest describes.
    manifest = json.loads((BUNDLE / "manifest.json").read_text())
    assert "global_guard" in json.dumps(manifest)
    assert 'compare_runs(baseline="a", candidate="b")' in text
    assert not s.call("analyze_capture", capture="a").is_error
    # The same folder again: the same captures, nothing new.
    again = ImportPage.model_validate(s.call("import_trace", path="runs").structured_content)
    assert [r.capture.id for r in again.captures] == [r.capture.id for r in page.captures]
    assert not any(r.created for r in again.captures)


def test_a_link_out_of_the_root_refuses_the_folder(connect: Callable[..., Session], runs: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    shutil.copytree(BUNDLE, outside / "bundle")
    (runs / "e").symlink_to(outside / "bundle", target_is_directory=True)
    s = connect(runs.parent)
    assert error_code(s.call("import_trace", path="runs")) in {"unsafe_path", "path_not_allowed"}
    assert error_code(s.call("import_trace", path="runs/e")) == "path_not_allowed"
    assert "empty" in text_of(s.call("list_captures"))  # nothing was imported


def test_a_folder_with_no_run_that_imports_says_why(connect: Callable[..., Session], runs: Path) -> None:
    shutil.rmtree(runs / "a")
    shutil.rmtree(runs / "b")
    s = connect(runs.parent)
    result = s.call("import_trace", path="runs")
    assert error_code(result) == "no_trace" and "runs/d/logs" in text_of(result)


def test_the_cli_imports_the_same_runs(runs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(runs.parent)
    result = CliRunner().invoke(app, ["--store", str(tmp_path / "store"), "import", "runs", "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["folder_of_runs"]
    assert [(c["label"], c["input"]) for c in document["captures"]] == [("a", "runs/a/bundle"), ("b", "runs/b/logs")]
    assert [(f["input"], f["code"]) for f in document["failed"]] == [("runs/d/logs", "no_trace")]
    text = CliRunner().invoke(app, ["--store", str(tmp_path / "store"), "import", "runs"])
    assert text.exit_code == 0
    assert "already in the store (same bytes): runs/a/bundle as a ->" in text.stderr
    assert "not imported: runs/d/logs: error[no_trace]" in text.stderr


def test_a_runs_own_folder_names_the_run_it_holds(connect: Callable[..., Session], runs: Path) -> None:
    """runs/a holds one bundle, runs/b one trace folder: written as the run's folder, each is that run (labelled
    by the folder, as a folder of runs labels it), in analyze_capture and in the CLI's analyze."""
    s = connect(runs.parent)
    for name in ("a", "b"):
        text = text_of(s.call("analyze_capture", capture=f"runs/{name}"))
        assert "apply (global_guard.py:16)" in text  # the workload's compiled function (its source)
    listed = text_of(s.call("list_captures"))
    assert " a " in f" {listed} " and " b " in f" {listed} "
    assert error_code(s.call("analyze_capture", capture="runs")) == "unsupported_input"  # several runs: import them


def test_the_cli_reads_a_runs_own_folder(runs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(runs.parent)
    for name, holds in (("a", "bundle"), ("b", "logs")):
        result = CliRunner().invoke(app, ["--store", str(tmp_path / "store"), "analyze", f"runs/{name}"])
        assert result.exit_code == 0, result.output
        assert f"runs/{name} holds one run, {holds}/: read that" in result.stderr
        assert f"capture {result.stderr.split(' -> ')[-1].strip()[:12]}  ({name})" in result.stdout


def _oracle_lines() -> list[str]:
    """What the workload's own record says each function did: its compilations (counted by the backend) and the
    guard torch said failed first, as the text should carry them."""
    oracle = json.loads((BUNDLE / "oracle.json").read_text())
    lines = [f"{name} " for name in oracle["expect"]["compilations_by_function"]]
    lines += [
        f"compilations {n}" for n in oracle["expect"]["compilations_by_function"].values()
    ]  # each function's line
    lines += [reasons[0].split(": ", 1)[1].split("  ")[0].strip() for reasons in oracle["guard_failures"].values()]
    return lines


def test_a_folder_of_runs_says_each_run_per_function(connect: Callable[..., Session], runs: Path) -> None:
    """One import_trace call answers per run: each run's functions, their compilations and failing guards, under a
    line naming the run's folder; the structured content stays the list of runs."""
    s = connect(runs.parent)
    text = text_of(s.call("import_trace", path="runs"))
    a, b = text.split("\n== ")[1:3]
    assert text.startswith("imported 2 runs of runs; ")
    assert a.startswith(f"a {a[2:14]} (new, from a/bundle): torch ") and b.startswith(
        f"b {b[2:14]} (new, from b/logs): "
    )
    for run in (a, b):
        for line in _oracle_lines():
            assert line in run, (line, run)
    # The run's text is analyze_capture's (suggestions by kind only): the same failing guard, its evidence id.
    single = text_of(s.call("analyze_capture", capture="a"))
    guard_line = next(line for line in single.splitlines() if "recompiled" in line and "MODE" in line)
    assert guard_line.split(" (ev ")[0].strip() in a.replace("\n      ", " ")
    # Where a function's suggestions are said whole: the MCP call that reads it (not a CLI flag).
    said = [line.strip() for line in a.splitlines() if line.strip().startswith("suggestions: ")]
    assert said and all(
        re.search(r'\(the change and its cost: analyze_capture\(capture="\w{12}", function="[\w.]+"\)\)$', line)
        for line in said
    ), said
    function = re.search(r'function="([\w.]+)"', said[0])
    assert function is not None
    whole = text_of(s.call("analyze_capture", capture="a", function=function[1]))
    assert "suggestion (" in whole


def test_the_cli_analyzes_every_run_of_a_folder(runs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`analyze runs` (a folder of runs) and `analyze A B`: each run per function, one after the other, the run
    that cannot be read said in its place; `-f json`: one run_report document per line."""
    monkeypatch.chdir(runs.parent)
    store = ["--store", str(tmp_path / "store")]
    result = CliRunner().invoke(app, [*store, "analyze", "runs"])
    assert result.exit_code == 0, result.output
    a, b, d = result.stdout.split("\n== ")
    assert a.startswith("== capture ") and " (a) torch " in a and " (b) torch " in b
    for run in (a, b):
        for line in _oracle_lines():
            assert line in run.replace("\n      ", " "), (line, run)
    assert d.startswith("runs/d/logs: not read: error[no_trace]")
    named = CliRunner().invoke(app, [*store, "analyze", "a", "runs/b/logs"])
    assert named.exit_code == 0, named.output
    assert named.stdout.count("\n== ") == 1 and " (a) torch " in named.stdout and " (b) torch " in named.stdout
    lines = CliRunner().invoke(app, [*store, "analyze", "runs", "-f", "json"])
    assert lines.exit_code == 0, lines.output
    documents = [json.loads(line) for line in lines.stdout.splitlines()]
    assert [(d["kind"], d["label"]) for d in documents] == [("run_report", "a"), ("run_report", "b")]
    assert "runs/d/logs: not read: error[no_trace]" in lines.stderr


def test_a_folder_of_runs_pages_on_with_each_runs_scripts(connect: Callable[..., Session], tmp_path: Path) -> None:
    """Ten fixture bundles in one folder, read with source=true: each page says whole runs with their scripts
    (numbered as the bundles' snapshots hold them), as many as fit one response; offset=next_offset pages on until
    every run was said once, and a later page lists only its own runs."""
    names = [
        "after_raise", "after_skip", "aliased_inputs", "autocast_switch", "checkpoint_fn",
        "dynamic_norm", "error_on_recompile", "float_attribute", "inductor_freezing", "loop_skip",
    ]  # fmt: skip
    runs = tmp_path / "root" / "runs"
    for name in names:
        shutil.copytree(CAPTURES / name, runs / name)
    s = connect(runs.parent)
    said: list[str] = []
    offset: int | None = 0
    pages = 0
    while offset is not None:
        result = s.call("import_trace", path="runs", source=True, offset=offset, full=True)
        assert not result.is_error, text_of(result)
        page = ImportPage.model_validate(result.structured_content)
        text = text_of(result)
        assert len(text) < 30_000
        whole = [r.capture.label for r in page.captures if f"== {r.capture.label} {r.capture.id[:12]} (" in text]
        if offset:
            assert [r.capture.label for r in page.captures] == whole  # only its own runs
        for label in whole:
            assert label is not None
            (script,) = (CAPTURES / label / "sources").rglob(f"{label}.py")
            lines = script.read_text(encoding="utf-8").splitlines()
            width = len(str(len(lines)))
            assert f"-- {script.relative_to(CAPTURES / label / 'sources')} ({len(lines)} lines)\n" in text
            assert "\n".join(f"{n:>{width}} | {line}" for n, line in enumerate(lines, 1) if line.strip()) in text
        said += whole
        offset, pages = page.next_offset, pages + 1
        if offset is not None:
            assert f'import_trace(path="runs", offset={offset}, source=true)' in text
    assert sorted(said) == sorted(names) and len(said) == len(names) and pages >= 2
