"""compare / check / demo as a user runs them, on the retained bundles recorded by `dynamo-diff capture`."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from dynamo_diff_schema import validate

from .conftest import block

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "fixtures/captures"


def test_demo_is_the_edit_pair(run, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)
    code, out, err = run("demo")
    assert code == 0, err
    assert "comparability: COMPARABLE" in out
    gate = block(out, "gate (model.py")  # its line, what changed under it
    assert "matched (line_diff)" in gate and "compiles 2 -> 1" in gate and "recompiles 1 -> 0" in gate
    assert (
        "\n  value guards failing: 1 -> 0" in gate
        and "\n      baseline: 0/0: flag == True at model.py:23: if flag:\n" in gate
    )  # the trace: model.py:23 in gate
    post = next(line for line in out.splitlines() if line.startswith("postprocess (model.py"))
    assert "candidate only" in post


def test_demo_runs_from_any_directory(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """The demo's captures are found beside the package (a wheel) or in the clone it is imported from, never by
    looking up from the working directory (tests/workspace/test_install.py runs it from installed wheels)."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run("demo")
    assert code == 0, err
    assert "comparability: COMPARABLE" in out
    from dynamo_diff_cli.compare_cmd import DEMO_FOLDERS

    flat = " ".join(err.split())
    assert "demo: edit_v1 (baseline) vs edit_v2 (candidate) from " in flat, err
    shown = flat.split(" from ", 1)[1].split(",", 1)[0]
    folder = Path(shown).expanduser()
    assert folder.is_absolute() and (folder / "edit_v1").is_dir(), shown  # outside the working directory: whole
    assert folder in [f for f in DEMO_FOLDERS if (f / "edit_v1").is_dir()][:1]  # the first place that has them


def test_demo_without_its_captures_says_so(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from dynamo_diff_cli import compare_cmd

    monkeypatch.setattr(compare_cmd, "DEMO_FOLDERS", (tmp_path / "demo",))
    code, out, err = run("demo")
    assert code == 2 and not out
    said = "error[unreadable_input]: the demo captures (edit_v1 and edit_v2) are not in this installation"
    assert err.startswith(said)
    assert str(tmp_path / "demo") in err


def test_compare_json_is_valid_and_paths_are_imported_first(run) -> None:  # type: ignore[no-untyped-def]
    args = ["compare", str(CAPTURES / "stable"), str(CAPTURES / "shape"), "--format", "json", "--change", "command"]
    code, out, err = run(*args)
    assert code == 0, err
    doc = json.loads(out)
    validate(doc, "comparison")
    # The two scripts are the change under test; everything else checked is equal.
    assert doc["comparability"]["verdict"] == "comparable"
    assert [d["key"] for d in doc["comparability"]["intended"]] == ["command", "program"]
    assert {"torch_version", "dynamo config", "devices"} <= {c["key"] for c in doc["comparability"]["checked"]}
    assert doc["baseline"]["run"]["state"] == doc["candidate"]["run"]["state"] == "completed"
    (row,) = doc["functions"]
    assert row["deltas"]["confirmed_recompilation_identities"] == 2
    code, out, _ = run("list", "--format", "json")
    assert {r["label"] for r in json.loads(out)["captures"]} == {"stable", "shape"}  # labels from the manifests


def test_compare_by_prefix_markdown_and_file(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ids = [run("import", str(CAPTURES / n))[1].splitlines()[0] for n in ("inductor_cold", "inductor_warm")]
    out_file = tmp_path / "cmp.md"
    code, _, err = run("compare", ids[0][:8], ids[1][:8], "--format", "markdown", "-o", str(out_file))
    assert code == 0, err
    text = out_file.read_text()
    assert "fx_graph cache: 1 miss -> 1 hit" in text


def test_compare_ranks(run) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run("compare", str(CAPTURES / "two_ranks"), "--ranks", "0", "1")
    assert code == 0, err
    assert "FIRST DIVERGENCE rank 1 vs rank 0" in out and "recompile [shape]" in out
    code, _, err = run("compare", str(CAPTURES / "two_ranks"), "--ranks", "0", "7")
    assert code == 2 and "has no rank 7" in err


def test_one_capture_of_several_ranks_compares_its_ranks_and_one_of_one_rank_says_the_command(run) -> None:  # type: ignore[no-untyped-def]
    # two_ranks: torch wrote one trace log per rank (rank_0, rank_1); shape: one log, no rank in its name.
    logs = sorted(p.name for p in (CAPTURES / "two_ranks" / "raw").glob("*.log"))
    assert len(logs) == 2 and "rank_0" in logs[0] and "rank_1" in logs[1]
    code, out, err = run("compare", str(CAPTURES / "two_ranks"))
    assert code == 0, err
    said = " ".join(err.split())
    assert "one capture of 2 ranks: comparing its ranks, as `compare " in said and " --ranks` does" in said
    code, explicit, _ = run("compare", str(CAPTURES / "two_ranks"), "--ranks")
    assert code == 0 and out == explicit  # the very rank view --ranks prints
    assert "rank view: 2 ranks in 2 behaviour group(s); reference rank 0" in out
    assert "FIRST DIVERGENCE rank 1 vs rank 0" in out
    assert len(list((CAPTURES / "shape" / "raw").glob("*.log"))) == 1
    code, out, err = run("compare", str(CAPTURES / "shape"))
    said = " ".join(err.split())
    assert code == 2 and out == "" and "error[invalid_argument]" in said
    assert f"`compare {CAPTURES / 'shape'} OTHER`" in said and "has 1 rank, so there are no ranks to compare" in said


def test_compare_ranks_of_a_64_rank_job_shows_two_groups(run, rank_job, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Ranks 0-31 copied from two_ranks' rank 0 log, 32-63 from its rank 1 log: two groups in every format."""
    job = rank_job(tmp_path / "job64", {r: 0 if r < 32 else 1 for r in range(64)})
    code, out, err = run("import", str(job), "--label", "job64")
    assert code == 0, err
    code, out, err = run("compare", "job64", "--ranks")
    assert code == 0, err
    assert "rank view: 64 ranks in 2 behaviour group(s); reference rank 0" in out
    assert re.search(r"group 1 \(reference\): ranks 0-31 \(32 ranks\), representative rank 0", out)
    assert re.search(r"group 2: ranks 32-63 \(32 ranks\), representative rank 32", out)
    assert "FIRST DIVERGENCE rank 32 vs rank 0" in out and "rank 7:" not in out
    code, out, err = run("compare", "job64", "--ranks", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    validate(doc, "rank_view")
    groups = doc["ranks"]["groups"]
    assert [(g["ranks"], g["representative"]) for g in groups] == [(list(range(32)), 0), (list(range(32, 64)), 32)]
    code, out, err = run("compare", "job64", "--ranks", "--format", "markdown")
    assert code == 0, err
    assert "## Ranks" in out and "group 2: ranks 32-63 (32 ranks)" in out
    code, _, err = run("compare", "job64", "--ranks", "--format", "html", "-o", str(tmp_path / "ranks.html"))
    assert code == 0, err
    page = (tmp_path / "ranks.html").read_text(encoding="utf-8")
    assert page.count('<tr data-group="') == 2 and 'data-ranks="32-63"' in page
    assert "64 ranks in 2 behaviour groups" in page


def test_source_map_pairs_functions_by_hand(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    source_map = tmp_path / "map.json"
    source_map.write_text(json.dumps({"model.py::gate": "model.py::postprocess"}))
    code, out, err = run(
        "compare",
        str(CAPTURES / "edit_v1"),
        str(CAPTURES / "edit_v2"),
        "--source-map",
        str(source_map),
        "--format",
        "json",
    )
    assert code == 0, err
    rows = {(r["baseline"] or {}).get("qualified_name"): r for r in json.loads(out)["functions"]}
    assert rows["gate"]["method"] == "user_map" and rows["gate"]["candidate"]["qualified_name"] == "postprocess"
    source_map.write_text('{"model.py::gate": "model.py::gate", "model.py::gate": "model.py::encoder"}')
    code, _, err = run("compare", str(CAPTURES / "edit_v1"), str(CAPTURES / "edit_v2"), "--source-map", str(source_map))
    assert code == 2 and err.startswith("error[invalid_argument]") and "twice" in err


@pytest.mark.parametrize(
    ("args", "exit_code", "line"),
    [
        (["--max-new-recompiles", "0"], 1, "FAIL confirmed recompilations: 0 -> 2 (+2, allowed +0)"),
        (["--max-new-recompiles", "2"], 0, "ok   confirmed recompilations: 0 -> 2 (+2, allowed +2)"),
        (["--fail-on-new-failures"], 0, "ok   failed compilations: 0 -> 0"),
    ],
)
def test_check_exit_codes(run, args: list[str], exit_code: int, line: str) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run("check", str(CAPTURES / "stable"), str(CAPTURES / "shape"), *args)
    assert code == exit_code
    assert line in out.splitlines()


def test_check_new_failures_and_errors(run) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(
        "check",
        str(CAPTURES / "stable"),
        str(CAPTURES / "backend_failure"),
        "--fail-on-new-failures",
        "--fail-on-confounded",
    )
    assert code == 1 and out.startswith("dynamo-diff check: FAILED")
    assert any(line.startswith("FAIL failed compilations: 0 -> 2") for line in out.splitlines())
    code, _, err = run("check", "nope", str(CAPTURES / "shape"))
    assert code == 2 and "unknown_capture" in err


def test_source_shows_the_captured_snapshot_not_the_working_tree(run) -> None:  # type: ignore[no-untyped-def]
    """edit_v1 and edit_v2 ran from the same path; each capture keeps its own version of the file."""
    run("import", str(CAPTURES / "edit_v1"))
    run("import", str(CAPTURES / "edit_v2"))
    code, v1, _ = run("source", "edit_v1", "gate")
    assert code == 0 and "def gate(" in v1
    code, out, _ = run("source", "edit_v2", "gate", "--format", "json")
    (loc,) = json.loads(out)["locations"]
    v2_file = (ROOT / "fixtures/workloads/edit_v2/model.py").read_text()
    assert loc["text"] == v2_file and loc["snapshot"] == "model.py"
    assert loc["text"].splitlines()[loc["first_line"] - 1].startswith("def gate(")
    v1_code = "\n".join(line.split(" | ", 1)[1] for line in v1.splitlines())
    assert v1_code in (ROOT / "fixtures/workloads/edit_v1/model.py").read_text()
    assert v1_code not in loc["text"]  # the two captured versions of gate() differ
    code, _, err = run("source", "edit_v1", "nope")
    assert code == 2 and "unknown_function" in err


def test_comparing_a_capture_with_itself_warns(run) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run("compare", str(CAPTURES / "stable"), str(CAPTURES / "stable"), "--format", "json")
    assert code == 0, err
    notices = {n["code"]: n for n in json.loads(out)["notices"]}
    assert "same_capture" in notices and "every delta is zero" in notices["same_capture"]["message"]


def test_a_name_that_is_both_a_folder_and_a_label_is_the_capture_and_says_so(  # type: ignore[no-untyped-def]
    run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run("import", str(CAPTURES / "stable"), "--label", "base")
    capture_id = out.splitlines()[0]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "base").mkdir()  # a folder of the same name, holding no trace
    code, out, err = run("analyze", "base", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["capture"]["id"] == capture_id
    assert "'base' is both a capture in the store" in err and "write ./base to import the path instead" in err
    # Written as a path, it is the folder (which holds no trace logs).
    code, _, err = run("analyze", "./base")
    assert code == 2 and "base" in err and "error[" in err


def test_a_folder_the_capture_was_imported_from_is_no_ambiguity(  # type: ignore[no-untyped-def]
    run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder of the same name holds the bytes the capture was imported from: no note; once a file in it
    changes, the folder is another run, and the note says which of the two is used."""
    here = tmp_path / "work"
    shutil.copytree(CAPTURES / "global_guard", here / "global_guard")
    monkeypatch.chdir(here)
    code, out, err = run("import", "global_guard", "--label", "global_guard")
    assert code == 0, err
    capture_id = out.splitlines()[0]
    code, out, err = run("analyze", "global_guard", "--by-function")
    assert code == 0 and "is both a capture" not in err, err
    assert out.startswith(f"capture {capture_id[:12]} (global_guard)")
    source = next((here / "global_guard" / "sources").rglob("global_guard.py"))
    source.write_text(source.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    code, out, err = run("analyze", "global_guard", "--by-function")
    assert code == 0 and "'global_guard' is both a capture in the store" in err, err


def test_source_finds_a_method_by_the_qualified_name_compare_shows(run) -> None:  # type: ignore[no-untyped-def]
    run("import", str(CAPTURES / "observed_on"), "--label", "observed")
    code, out, err = run("source", "observed", "Net.forward", "--format", "json")
    assert code == 0, err
    (loc,) = json.loads(out)["locations"]
    assert loc["text"].splitlines()[loc["first_line"] - 1].strip() == "def forward(self, x):"
    assert loc["co_filename"].endswith("fixtures/workloads/observed.py")
    # The row of that function in a comparison is named the same way.
    code, out, _ = run("compare", "observed", str(CAPTURES / "observed_off"), "--format", "json")
    names = {(r["baseline"] or r["candidate"])["qualified_name"] for r in json.loads(out)["functions"]}
    assert "Net.forward" in names


@pytest.mark.parametrize("pair", [("edit_v1", "edit_v2"), ("break_fix_v1", "break_fix_v2")])
def test_text_and_markdown_carry_the_guard_text_break_type_and_evidence_the_json_gives(run, pair) -> None:  # type: ignore[no-untyped-def]
    base, cand = (str(CAPTURES / name) for name in pair)
    code, out, _ = run("compare", base, cand, "--format", "json")
    assert code == 0
    document = json.loads(out)
    # A row whose compilation did not change is folded into one line, its source changes with it.
    changes = [
        c
        for row in document["functions"]
        if row["deltas"]
        or row["status"] != "matched"
        or any(c["kind"] not in ("phase_time", "source") for c in row["changes"])
        for c in row["changes"]
        if c["kind"] != "phase_time"
    ]
    evidence = {e for c in changes for e in (c["baseline_evidence"][:3] + c["candidate_evidence"][:3])}
    guards = [
        ex.split("  #")[0].strip()
        for c in changes
        if c["kind"] == "recompile_reason"
        for side in ("baseline", "candidate")
        for ex in c[side]["examples"][:1]
    ]
    break_types = [
        side["key"]
        for c in changes
        if c["kind"].startswith("graph_break")
        for side in (c["baseline"], c["candidate"])
        if side and side["key"].startswith("gb")
    ]
    assert evidence and (guards or break_types)
    for fmt in ("text", "markdown"):
        code, shown, _ = run("compare", base, cand, "--format", fmt)
        assert code == 0
        flat = " ".join(shown.replace("│", " ").split())
        for item in [*evidence, *guards, *break_types]:
            assert item in flat or item in shown, (fmt, item)
        assert "other counts are 0 in both runs" in shown
        assert "compile time" in shown and " s -> " in shown  # the run's compile time, each side


def test_compile_time_of_a_cut_run_says_it_may_be_low(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """midrun_kill: killed while compiling, so one compilation has no compilation_metrics and no time in the sum."""
    code, out, _ = run("compare", str(CAPTURES / "midrun_kill"), str(CAPTURES / "midrun_complete"))
    assert code == 0
    line = next(line for line in out.splitlines() if "compile time" in line and " s" in line)
    assert "s+?" in line
    # The sum of a side with a cut compilation is a lower bound: no change is judged from it, totals or rows.
    assert "not judged (+?)" in line and "%" not in line and "noise" not in line
    code, md, _ = run(
        "compare", str(CAPTURES / "midrun_kill"), str(CAPTURES / "midrun_complete"), "--format", "markdown"
    )
    assert "s+? |" in md


def test_compile_phases_under_the_total_and_on_the_rows_that_changed_with_their_metrics(run) -> None:  # type: ignore[no-untyped-def]
    """inductor_cold vs inductor_warm: code generation disappears on a warm cache. The totals split the compile
    time into phases; a row's phase change beyond the noise names the compilation_metrics records it is from."""
    cold, warm = str(CAPTURES / "inductor_cold"), str(CAPTURES / "inductor_warm")
    code, md, _ = run("compare", cold, warm, "--format", "markdown")
    assert code == 0
    assert re.search(r"\| &nbsp;&nbsp;code gen \| [1-9][0-9.]* s \| 0\.00 s \| -100% \|", md), md
    assert re.search(r"\| &nbsp;&nbsp;Dynamo \| [0-9.]+ s \| [0-9.]+ s \| noise \|", md)
    line = next(part for part in md.split("<br>") if part.startswith("code gen compile time:")).split(" |")[0]
    evidence = re.findall(r"(u\d+-e\d+)", line)
    assert len(evidence) == 2
    for side, ev in zip(("inductor_cold", "inductor_warm"), evidence, strict=True):
        code, record, _ = run("evidence", side, ev, "--format", "json")
        assert code == 0 and json.loads(record)["evidence"]["kind"] == "compilation_metrics"
    code, text, _ = run("compare", cold, warm)
    assert "code gen" in text and "AOT/backend" in text


def test_a_setting_the_user_made_says_both_values_and_what_it_changes(tmp_path: Path) -> None:
    """auto_dynamic_off's workload sets torch._dynamo.config.automatic_dynamic_shapes = False (its oracle's note):
    the confounded verdict names the key, both values, that the user set it, and what it changes, in an
    80-column terminal, in markdown and in JSON."""
    from dynamo_diff_cli.app import app
    from typer.testing import CliRunner

    on, off = (json.loads((CAPTURES / n / "oracle.json").read_text()) for n in ("auto_dynamic_on", "auto_dynamic_off"))
    assert (on["automatic_dynamic_shapes"], off["automatic_dynamic_shapes"]) == (True, False)
    pair = [str(CAPTURES / "auto_dynamic_on"), str(CAPTURES / "auto_dynamic_off")]
    runner = CliRunner(env={"COLUMNS": "80", "NO_COLOR": "1", "DYNAMO_DIFF_STORE": str(tmp_path / "store")})
    text = runner.invoke(app, ["compare", *pair])
    assert text.exit_code == 0, text.stderr
    assert all(len(line) <= 80 for line in text.stdout.splitlines()), text.stdout
    flat = " ".join(text.stdout.split())
    # The only difference is a setting the user set: compare takes it as the change under test, and says so.
    assert (
        "comparability: COMPARABLE, ASSUMING the change under test is dynamo.automatic_dynamic_shapes (observed): "
        "true -> false, set by the user in the candidate (the only difference; the gate does not assume it) "
        "assumed, not named: --change dynamo.automatic_dynamic_shapes when it is the change under test"
    ) in flat
    assert "effect: changes which guards dynamic shapes produce and when a new shape recompiles" in flat
    assert "(!)" not in flat  # the counts read as the change's
    markdown = runner.invoke(app, ["compare", *pair, "--format", "markdown"]).stdout
    assert "- effect: changes which guards dynamic shapes produce and when a new shape recompiles" in markdown
    document = json.loads(runner.invoke(app, ["compare", *pair, "--format", "json"]).stdout)
    validate(document, "comparison")
    comparability = document["comparability"]
    assert comparability["verdict"] == "comparable" and comparability["differences"] == []
    assert comparability["assumed"] == ["dynamo.automatic_dynamic_shapes"]
    # Named with --change, the same verdict, not assumed.
    named = json.loads(
        runner.invoke(app, ["compare", *pair, "--change", "dynamo.automatic_dynamic_shapes", "--format", "json"]).stdout
    )["comparability"]
    assert (named["verdict"], named["assumed"]) == ("comparable", [])
    # The gate never assumes: --fail-on-confounded fails until --change names it.
    gate = ["check", *pair, "--max-new-graph-breaks", "0", "--fail-on-confounded"]
    assert runner.invoke(app, gate).exit_code == 1
    assert runner.invoke(app, [*gate, "--change", "dynamo.automatic_dynamic_shapes"]).exit_code == 0
    (difference,) = comparability["intended"]
    assert (difference["key"], difference["baseline"], difference["candidate"]) == (
        "dynamo.automatic_dynamic_shapes",
        True,
        False,
    )
    assert difference["effect"] == "changes which guards dynamic shapes produce and when a new shape recompiles"
    # The recompilations it explains, from the oracles.
    (row,) = document["functions"]
    assert (
        row["deltas"]["confirmed_recompilation_identities"] == off["expect"]["recompiles"] - on["expect"]["recompiles"]
    )
