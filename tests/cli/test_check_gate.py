"""`dynamo-diff check` as a CI gate on real captures (fixtures/captures): a run that did not finish never passes,
the reason comes first, and a failed check names the functions behind it with the first failing guard or graph
break and its evidence id. Every format says the run status first."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from dynamo_diff_cli.app import app
from typer.testing import CliRunner

from .conftest import unwrapped

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def runner(tmp_path: Path) -> CliRunner:
    return CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1", "DYNAMO_DIFF_STORE": str(tmp_path / "store")})


def check(tmp_path: Path, *args: str) -> tuple[int, list[str]]:
    result = runner(tmp_path).invoke(app, ["check", *args])
    return result.exit_code, unwrapped(result.stdout)


def oracle(name: str) -> dict:  # type: ignore[type-arg]
    data: dict = json.loads((CAPTURES / name / "oracle.json").read_text())  # type: ignore[type-arg]
    return data


def test_a_run_that_raised_fails_the_gate_first(tmp_path: Path) -> None:
    code, lines = check(
        tmp_path, str(CAPTURES / "midrun_complete"), str(CAPTURES / "midrun_raise"), "--max-new-recompiles", "0"
    )
    assert code == 1
    assert lines[0] == "dynamo-diff check: FAILED"
    assert lines[1] == "ok   run: the baseline completed (exit code 0)"
    assert lines[2].startswith(
        "FAIL run: the candidate did not finish: exited with code 1 after an uncaught RuntimeError"
    )
    # The crash has fewer recompiles (the oracle: 1 instead of 2): on counts alone it would have passed.
    assert oracle("midrun_raise")["expect"]["recompiles"] < oracle("midrun_complete")["expect"]["recompiles"]
    assert "ok   confirmed recompilations: 2 -> 1 (-1, allowed +0)" in lines


def test_a_killed_run_and_a_cut_trace_fail_the_gate(tmp_path: Path) -> None:
    code, lines = check(
        tmp_path, str(CAPTURES / "midrun_complete"), str(CAPTURES / "midrun_kill"), "--max-new-recompiles", "0"
    )
    assert code == 1
    assert lines[2] == (
        "FAIL run: the candidate did not finish: killed by SIGKILL; trace cut: compilation 0/2 never finished; its "
        "counts may be low (--allow-incomplete compares anyway)"
    )
    (log,) = (CAPTURES / "midrun_complete" / "raw").glob("*.log")
    data = log.read_bytes()
    cut = tmp_path / "cut" / log.name
    cut.parent.mkdir()
    cut.write_bytes(data[: len(data) // 2 + 11])
    code, lines = check(tmp_path, str(CAPTURES / "midrun_complete"), str(cut), "--max-new-recompiles", "0")
    assert code == 1 and lines[2].startswith(
        f"FAIL run: the candidate did not finish: trace cut: {log.name} ends mid-record"
    )
    # A cut baseline fails the gate just the same.
    code, lines = check(tmp_path, str(cut), str(CAPTURES / "midrun_complete"), "--max-new-recompiles", "0")
    assert code == 1 and lines[1].startswith("FAIL run: the baseline did not finish: trace cut")


def test_allow_incomplete_is_explicit_and_printed(tmp_path: Path) -> None:
    args = [str(CAPTURES / "midrun_complete"), str(CAPTURES / "midrun_raise"), "--max-new-recompiles", "0"]
    code, lines = check(tmp_path, *args, "--allow-incomplete")
    assert code == 0 and lines[0] == "dynamo-diff check: passed"
    assert lines[2].startswith("warn run: the candidate did not finish: exited with code 1")
    assert lines[2].endswith("(allowed by --allow-incomplete)")


def test_the_same_command_twice_passes(tmp_path: Path) -> None:
    args = [str(CAPTURES / "midrun_complete"), str(CAPTURES / "midrun_again"), "--max-new-recompiles", "0"]
    code, lines = check(
        tmp_path, *args, "--max-new-graph-breaks", "0", "--fail-on-new-failures", "--fail-on-confounded"
    )
    assert code == 0, lines
    assert lines[-1].startswith("info comparability: comparable (")


def test_a_bare_trace_passes_with_its_status_unknown_said_first(tmp_path: Path) -> None:
    shutil.copytree(CAPTURES / "midrun_complete" / "raw", tmp_path / "bare")
    code, lines = check(tmp_path, str(CAPTURES / "midrun_again"), str(tmp_path / "bare"), "--max-new-recompiles", "0")
    assert code == 0
    assert lines[2].startswith("warn run: the candidate's workload status unknown: a bare trace")


def test_a_failed_check_names_the_function_guard_and_evidence(tmp_path: Path) -> None:
    # stable.py and shape.py: the same function, the script is the change under test (see test_compare.py).
    args = [str(CAPTURES / "stable"), str(CAPTURES / "shape"), "--max-new-recompiles", "0", "--change", "command"]
    code, lines = check(tmp_path, *args)
    assert code == 1
    at = lines.index("FAIL confirmed recompilations: 0 -> 2 (+2, allowed +0)")
    detail = lines[at + 1]
    assert detail.startswith("       f (stable.py:13) -> f (shape.py:9): 0 -> 2; first failing guard [shape]: ")
    assert "size mismatch at index 0. expected 4, actual 6" in detail
    evidence = detail.split("(evidence ")[1].rstrip(")").split(", ")
    # The evidence id resolves to the trace bytes, which say the same (the oracle's own guard failure text too).
    shown = runner(tmp_path).invoke(app, ["evidence", "shape", evidence[0]])
    assert shown.exit_code == 0 and "size mismatch at index 0" in shown.stdout
    assert any("size mismatch at index 0. expected 4, actual 6" in r for r in oracle("shape")["guard_failures"]["f"])


def test_a_new_graph_break_names_its_site_type_and_evidence(tmp_path: Path) -> None:
    args = [str(CAPTURES / "stable"), str(CAPTURES / "graph_break"), "--max-new-graph-breaks", "0"]
    code, lines = check(tmp_path, *args)
    assert code == 1
    at = next(i for i, line in enumerate(lines) if line.startswith("FAIL graph breaks: 0 -> 2"))
    # a function line each (its suggestion, indented further, is not one)
    details = [line for line in lines[at + 1 :] if line.startswith("       ") and line[7] != " "]
    sites = oracle("graph_break")["expect"]["graph_break_sites"]
    assert len(details) == len(sites)
    for site in sites:
        assert any(site in line and "(evidence " in line for line in details), (site, details)


def test_a_cache_state_difference_does_not_confound_recompile_checks(tmp_path: Path) -> None:
    args = [str(CAPTURES / "cache_cold"), str(CAPTURES / "cache_warm"), "--max-new-recompiles", "0"]
    code, lines = check(tmp_path, *args, "--fail-on-confounded")
    assert code == 0, lines
    assert lines[-1] == (
        "info comparability: confounded (cache_state), which can change only cache, compile_time: not gated here"
    )


def test_every_format_says_the_run_status_first(tmp_path: Path) -> None:
    run = runner(tmp_path)
    kill = str(CAPTURES / "midrun_kill")
    assert run.invoke(app, ["import", kill, "--label", "kill"]).exit_code == 0
    text = run.invoke(app, ["analyze", "kill"]).stdout
    assert text.startswith("run: DID NOT FINISH: killed by SIGKILL")
    markdown = run.invoke(app, ["analyze", "kill", "--format", "markdown"]).stdout
    assert markdown.splitlines()[2].startswith("- run: DID NOT FINISH: killed by SIGKILL")
    document = json.loads(run.invoke(app, ["analyze", "kill", "--format", "json"]).stdout)
    assert document["capture"]["run"]["state"] == "killed" and document["capture"]["run"]["signal"] == "SIGKILL"
    listed = json.loads(run.invoke(app, ["list", "--format", "json"]).stdout)
    assert [r["run_state"] for r in listed["captures"]] == ["killed"]
    base = str(CAPTURES / "midrun_complete")
    compared = run.invoke(app, ["compare", base, "kill"]).stdout
    assert compared.startswith("runs: baseline completed (exit code 0) | candidate DID NOT FINISH: killed by SIGKILL")
    markdown = run.invoke(app, ["compare", base, "kill", "--format", "markdown"]).stdout
    assert markdown.splitlines()[2].startswith("- runs: baseline completed (exit code 0) \\| candidate DID NOT FINISH")
    document = json.loads(run.invoke(app, ["compare", base, "kill", "--format", "json"]).stdout)
    assert document["candidate"]["run"]["state"] == "killed" and document["baseline"]["run"]["finished"] is True
    assert [n["code"] for n in document["notices"]].count("run_incomplete") == 1
    page = tmp_path / "report.html"
    assert run.invoke(app, ["compare", base, "kill", "--format", "html", "-o", str(page)]).exit_code == 0
    html = page.read_text()
    assert html.index("completed (exit code 0)") < html.index("DID NOT FINISH") < html.index('class="verdict ')


def test_the_change_under_test_carries_what_comes_with_it(tmp_path: Path) -> None:
    """dynamic=True against the default (one argument edited): torch patches assume_static_by_default for it. Named
    with --change compile.dynamic the gate passes --fail-on-confounded; unnamed it fails, naming the change and
    what comes with it. A torch upgrade of one transformers model likewise, with --change torch_version."""
    pair = [str(CAPTURES / "dynamic_flag_v1"), str(CAPTURES / "dynamic_flag_v2"), "--max-new-recompiles", "0"]
    code, lines = check(tmp_path, *pair, "--fail-on-confounded")
    assert code == 1, lines
    assert "FAIL comparability: confounded (compile.dynamic, and 1 difference that comes with it), which can " in (
        "\n".join(lines)
    )
    code, lines = check(tmp_path, *pair, "--fail-on-confounded", "--change", "compile.dynamic")
    assert code == 0, lines
    assert lines[-1].startswith("info comparability: comparable (")
    assert "the change under test: compile.dynamic (observer): [not set] -> [true], and 1 difference" in lines[-1]
    upgrade = [str(CAPTURES / "llama_213"), str(CAPTURES / "llama_214")]
    code, lines = check(tmp_path, *upgrade, "--fail-on-confounded", "--change", "torch_version")
    assert code == 0, lines
    assert (
        "the change under test: torch upgrade 2.13.0+cpu -> 2.14.1+cu130, and 35 differences that come with it"
        in (lines[-1])
    )
