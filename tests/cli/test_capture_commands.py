"""import / analyze / list / show / rm / evidence as a user runs them, on real corpus traces."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from dynamo_diff_cli.app import app
from dynamo_diff_schema import validate
from typer.testing import CliRunner

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CORPUS = FIXTURES / "corpus/tlparse-tests"


def test_import_prints_id_counts_and_is_idempotent(run) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run("import", str(CORPUS / "multi_rank_logs"), "--label", "ranks")
    assert code == 0, err
    capture_id = out.splitlines()[0]
    assert len(capture_id) == 64
    assert "rank 1" in out and "total" in out
    assert "imported" in err
    code, out2, err2 = run("import", str(CORPUS / "multi_rank_logs"))
    assert code == 0 and out2.splitlines()[0] == capture_id
    assert "nothing written" in err2
    code, out, _ = run("list", "--format", "json")
    rows = json.loads(out)["captures"]
    assert [r["id"] for r in rows] == [capture_id] and rows[0]["label"] == "ranks"


def test_analyze_json_is_valid_and_has_the_contract_shape(run) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run("analyze", str(CORPUS / "comp_metrics.log"), "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    validate(doc, "capture")
    assert set(doc) >= {"capture", "counts", "ranks", "notices"}
    assert doc["counts"]["observed_compilation_identities"] == 3
    assert [c["compile_id"] for c in doc["ranks"][0]["compilations"]] == ["0/0", "1/0", "2/0"]


def test_analyze_by_prefix_and_label_text_and_markdown(run) -> None:  # type: ignore[no-untyped-def]
    _, out, _ = run("import", str(CORPUS / "comp_failure.log"), "--label", "failing")
    prefix = out.splitlines()[0][:8]
    code, text, _ = run("analyze", prefix)
    assert code == 0 and "BackendCompilerFailed" in text and "failed" in text
    code, md, _ = run("show", "failing", "--format", "markdown")
    assert code == 0 and md.startswith("# Capture ") and "| failed | 1 |" in md
    # The run status comes first: a bare log does not say how its program ended.
    assert md.split("\n")[2].startswith("- run: workload status unknown")


def test_unknown_ids_and_taken_labels_are_errors_with_codes(run) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run("show", "deadbeef")
    assert code == 2 and err.startswith("error[unknown_capture]")
    first = run("import", str(CORPUS / "simple.log"), "--label", "same")[1].splitlines()[0]
    # A label names one capture: a second capture may not take it silently.
    code, _, err = run("import", str(CORPUS / "comp_metrics.log"), "--label", "same")
    assert code == 2 and err.startswith("error[label_taken]") and first[:12] in err and "--force-label" in err
    code, out, _ = run("show", "same", "--format", "json")
    assert code == 0 and json.loads(out)["capture"]["id"] == first
    # The same bytes imported again under their own label are not refused.
    code, out, err = run("import", str(CORPUS / "simple.log"), "--label", "same")
    assert code == 0 and out.splitlines()[0] == first and "already in the store" in err
    code, out, err = run("import", str(CORPUS / "comp_metrics.log"), "--label", "same", "--force-label")
    second = out.splitlines()[0]
    assert code == 0 and second != first
    code, out, _ = run("show", "same", "--format", "json")
    assert json.loads(out)["capture"]["id"] == second  # the label moved
    # An unknown name suggests the nearest ones.
    code, _, err = run("show", "sme")
    assert code == 2 and err.startswith("error[unknown_capture]") and "did you mean same" in err
    code, _, err = run("show", first[:3])
    assert code == 2 and "unknown_capture" in err  # prefixes need at least 4 hex digits


def test_evidence_index_and_hash_checked_excerpt(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, out, _ = run("import", str(CORPUS / "multi_rank_logs"))
    capture_id = out.splitlines()[0]
    code, out, _ = run("evidence", capture_id, "--kind", "recompile_reasons", "--format", "json", "--limit", "5")
    assert code == 0
    page = json.loads(out)
    assert page["total"] == 20 and len(page["items"]) == 5 and page["next_offset"] == 5  # 14 + 6 (grep)
    first = page["items"][0]
    code, out, _ = run("evidence", capture_id, first["id"], "--format", "json", "--max-chars", "40")
    excerpt = json.loads(out)
    assert code == 0 and excerpt["text"].startswith("V0718 15:30:03") and excerpt["next_offset"] == 40
    # Tamper with the stored bytes: the read must fail with corrupt_store, naming the file.
    stored = tmp_path / "store" / "captures" / capture_id / "input" / first["file"]
    data = bytearray(stored.read_bytes())
    data[first["offset"] + 5] ^= 0x01
    stored.write_bytes(bytes(data))
    code, _, err = run("evidence", capture_id, first["id"])
    assert code == 2 and "corrupt_store" in err and first["file"] in err


def test_rm_removes(run) -> None:  # type: ignore[no-untyped-def]
    _, out, _ = run("import", str(CORPUS / "simple.log"))
    capture_id = out.splitlines()[0]
    code, out, _ = run("rm", capture_id[:10])
    assert code == 0 and capture_id in out
    assert json.loads(run("list", "--format", "json")[1])["captures"] == []


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (None, "unreadable_input"),  # does not exist
        (b"", "unsupported_input"),  # empty file
    ],
)
def test_bad_input_is_a_coded_error_not_a_traceback(
    run,
    tmp_path: Path,
    content: bytes | None,  # type: ignore[no-untyped-def]
    code: str,
) -> None:
    path = tmp_path / "input.log"
    if content is not None:
        path.write_bytes(content)
    exit_code, out, err = run("import", str(path))
    assert exit_code == 2
    assert err.startswith(f"error[{code}]") and "Traceback" not in err + out
    assert not (tmp_path / "store" / "captures").exists() or not any((tmp_path / "store" / "captures").iterdir())


def test_store_option_and_env(tmp_path: Path) -> None:
    runner = CliRunner(env={"COLUMNS": "200"})
    elsewhere = tmp_path / "other"
    result = runner.invoke(app, ["--store", str(elsewhere), "import", str(CORPUS / "simple.log")])
    assert result.exit_code == 0
    assert (elsewhere / "index.sqlite").exists()


def test_trace_text_is_never_read_as_markup(run) -> None:  # type: ignore[no-untyped-def]
    """Labels and trace text with [brackets] print as they are (rich markup would eat them)."""
    code, out, _ = run("import", str(CORPUS / "multi_rank_logs"), "--label", "[red]x[/red]")
    assert code == 0
    code, out, _ = run("list")
    assert "[red]x[/red]" in out
    code, out, _ = run("analyze", "[red]x[/red]")
    assert code == 0 and "recompile [shape]: 0/0: tensor 'x' size mismatch" in out


def test_verify_names_every_damaged_capture(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ids = [run("import", str(CORPUS / n))[1].splitlines()[0] for n in ("simple.log", "comp_metrics.log")]
    code, out, _ = run("verify")
    assert code == 0 and out.strip().endswith("no damage")
    # One byte of one stored trace changed (outside any evidence range or not: verify checks whole files).
    stored = tmp_path / "store" / "captures" / ids[1] / "input" / "comp_metrics.log"
    data = bytearray(stored.read_bytes())
    data[len(data) // 2] ^= 0x20
    stored.write_bytes(bytes(data))
    code, out, _ = run("verify", "--format", "json")
    report = json.loads(out)
    assert code == 1 and report["damaged_captures"] == [ids[1]]
    assert any(d["file"].endswith("comp_metrics.log") for d in report["damage"])
    code, _, err = run("--store", str(tmp_path / "nowhere"), "verify")
    assert code == 2 and err.startswith("error[")


def test_analyze_counts_library_frames_in_the_users_function(run) -> None:  # type: ignore[no-untyped-def]
    """A training step calls an nn.Sequential compiled with torch.compile: Dynamo compiles torch's `inner` wrapper.
    The function table names the user's function (from the stack torch recorded), the compiled frame and the call."""
    code, text, _ = run("analyze", str(FIXTURES / "captures" / "library_frames"))
    assert code == 0
    source = (FIXTURES / "workloads" / "library_frames.py").read_text().splitlines()
    call = next(i for i, line in enumerate(source, 1) if "loss = torch.nn.functional.mse_loss(model(x), y)" in line)
    row = next(line for line in text.splitlines() if "train_step (library_frames.py)" in line)
    assert f"inner (torch/_dynamo/external_utils.py:67, called at line {call})" in row
    assert "compiles 2, recompiles 1," in row  # the oracle: two graphs from train_step
    assert f"inner (external_utils.py:67), called from train_step at line {call}" in text


def test_analyze_by_function_answers_a_question_about_one_run(run) -> None:  # type: ignore[no-untyped-def]
    """For an agent with a shell: which guard made `grad_mode` recompile, from the CLI's JSON alone."""
    code, out, _ = run("analyze", str(FIXTURES / "captures" / "guards"), "--function", "grad_mode", "--format", "json")
    assert code == 0
    report = json.loads(out)
    validate(report, "run_report")
    (fn,) = report["functions"]
    oracle = json.loads((FIXTURES / "captures" / "guards" / "oracle.json").read_text())
    guards = [g for c in fn["compilations"] for g in c["recompile"]]
    assert guards and {g["category"] for g in guards} == {"grad_mode"}
    assert fn["counts"]["observed_compilation_identities"] == oracle["expect"]["compilations_by_function"]["grad_mode"]
    code, text, _ = run("analyze", str(FIXTURES / "captures" / "guards"), "--by-function")
    assert code == 0 and "recompiled [grad_mode]" in text


def test_evidence_by_function_and_grep_from_the_cli(run) -> None:  # type: ignore[no-untyped-def]
    bundle = str(FIXTURES / "captures" / "backend_failure")
    assert run("import", bundle)[0] == 0
    code, out, _ = run("evidence", "backend_failure", "--function", "raised", "--format", "json")
    items = json.loads(out)["items"]
    assert code == 0 and items and {i["function"] for i in items} == {"raised"}
    (metrics,) = [i["id"] for i in items if i["kind"] == "compilation_metrics"]
    code, out, _ = run("evidence", "backend_failure", metrics, "--grep", "config_suppress_errors", "--format", "json")
    found = json.loads(out)
    assert code == 0 and '"config_suppress_errors": false' in found["matches"][0]["lines"][0]


def test_analyze_shows_the_counts_that_are_not_zero_and_the_compile_time_split(run) -> None:  # type: ignore[no-untyped-def]
    """inductor_cold: two functions compiled by Inductor, every cache lookup missed (its oracle). The zero counts are
    said in one line; compile time and its phases follow the counts, each function has its time."""
    oracle = json.loads((FIXTURES / "captures/inductor_cold/oracle.json").read_text())
    for fmt in ("text", "markdown"):
        code, out, _ = run("analyze", str(FIXTURES / "captures/inductor_cold"), "--format", fmt)
        assert code == 0
        flat = " ".join(out.replace("|", " ").split())
        assert f"compilations {oracle['expect']['compilations']}" in flat
        assert "graph breaks" not in flat and re.search(r"\d+ other counts are 0", flat)
        assert re.search(r"compile time \d+\.\d\d s", flat) and "code gen" in flat
        assert re.search(r"mlp \(_inductor_workload\.py:10\):? .* \d+\.\d\d s", flat)


def test_a_capture_of_many_ranks_reads_as_a_spread_not_a_column_per_rank(run, rank_job, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """12 ranks alternating between two_ranks' rank 0 (1 compilation) and rank 1 (3; oracle.json): one column per
    rank stops being readable long before a job's 4,096. Totals and spreads follow from how the job was built."""
    oracle = json.loads((Path(__file__).resolve().parents[2] / "fixtures/captures/two_ranks/oracle.json").read_text())
    per_rank = {int(r): n for r, n in oracle["expect"]["rank_compilations"].items()}
    layout = {rank: rank % 2 for rank in range(12)}
    job = rank_job(tmp_path / "job", layout)
    code, out, err = run("import", str(job))
    assert code == 0, err
    total = sum(per_rank[source] for source in layout.values())
    low, high = min(per_rank.values()), max(per_rank.values())
    at_high = "1-11 step 2"  # the odd ranks copy rank 1, the one with more compilations
    assert re.search(rf"\n  compilations +{total} +{low} +{high} +{re.escape(at_high)}\n", out), out
    assert "rank 11" not in out and "--ranks` groups them by behaviour" in out
    # The record kinds not interpreted: one line by default (how many), each distinct notice with its ranks under
    # --verbose (two_ranks' two logs give two different record-kind notices).
    (quiet,) = out.split("notices:\n", 1)[1].splitlines()
    assert quiet.startswith("  [info] uninterpreted_record_kinds: ") and quiet.endswith("(--verbose lists them)")
    code, out, err = run("import", str(job), "--verbose")
    assert code == 0, err
    notices = out.split("notices:\n", 1)[1].splitlines()
    assert [line.split(":", 1)[0].strip() for line in notices] == [
        "[info] uninterpreted_record_kinds (ranks 0-10 step 2)",
        "[info] uninterpreted_record_kinds (ranks 1-11 step 2)",
    ]
    capture_id = out.splitlines()[0]
    code, markdown, _ = run("show", capture_id, "--format", "markdown")
    assert f"| compilations | {total} | {low} | {high} | {at_high} |" in markdown
    assert markdown.count(": compilations") == 8  # the first eight ranks' compilation tables, then a pointer
    assert "Compilations of 4 more rank(s) not shown" in markdown
    code, text, _ = run("show", capture_id)
    assert text.count(": compilations") == 8 and "compilations of 4 more rank(s) not shown" in text
