"""`dynamo-diff export --format parquet` as a user runs it, read back with DuckDB and pyarrow.

Expected values come from the workloads' own records (fixtures/captures/*/oracle.json) and from torch's own records
in the trace (compilation_metrics, read as JSON), never from the analyser; the tables are also checked against the
JSON the CLI prints for the same captures (`analyze --by-function`, `compare`), which they are built from."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import duckdb
import pytest
from dynamo_diff_schema.counts import COUNT_KEYS
from dynamo_diff_service import COUNT_COLUMNS, TABLES

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "fixtures/captures"
EXPORTED = (
    "edit_v1",
    "shape",
    "multiple_guards",
    "recompile_limit",
    "graph_break",
    "two_ranks",
    "library_frames",
    "ca_cold",
)
COUNTS = (*COUNT_KEYS,)
# Count columns that do not sum over compilations: distinct break sites.
NOT_SUMMED = {"unique_graph_break_sites"}


def oracle(name: str) -> dict[str, Any]:
    return json.loads((CAPTURES / name / "oracle.json").read_text(encoding="utf-8"))


def arrow_rows(relation: Any) -> list[tuple[Any, ...]]:
    """Rows through Arrow: DuckDB's fetchall() needs pytz for time zone-aware columns."""
    table = relation.to_arrow_table() if hasattr(relation, "to_arrow_table") else relation.arrow()
    return [tuple(row.values()) for row in table.to_pylist()]


def query(out: Path, sql: str) -> list[tuple[Any, ...]]:
    con = duckdb.connect()
    for table in TABLES:
        con.execute(f"create view {table} as select * from read_parquet('{out / (table + '.parquet')}')")
    return con.execute(sql).fetchall()


def table(out: Path, name: str) -> list[dict[str, Any]]:
    """A table's rows as pyarrow reads them."""
    import pyarrow.parquet as pq

    rows: list[dict[str, Any]] = pq.read_table(out / f"{name}.parquet").to_pylist()
    return rows


@pytest.fixture(scope="module")
def store_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("export")


def cli(root: Path, *args: str) -> str:
    """The CLI's stdout for `args`, over the module's store (exit 0 asserted)."""
    from dynamo_diff_cli.app import app
    from typer.testing import CliRunner

    runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1", "DYNAMO_DIFF_STORE": str(root / "store")})
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.stderr
    return result.stdout


def cli_json(root: Path, *args: str) -> Any:
    return json.loads(cli(root, *args, "--format", "json"))


@pytest.fixture(scope="module")
def exported(store_root: Path) -> Path:
    out = store_root / "tables"
    stdout = cli(store_root, "export", *(str(CAPTURES / n) for n in EXPORTED), "--format", "parquet", "--out", str(out))
    assert f"exported {len(EXPORTED)} capture(s)" in stdout
    return out


@pytest.fixture(scope="module")
def compared(store_root: Path) -> Path:
    """edit_v1 against edit_v2 (the workload's own edit: gate changed, encoder unchanged, postprocess added)."""
    out = store_root / "compared"
    stdout = cli(
        store_root, "export", str(CAPTURES / "edit_v1"), str(CAPTURES / "edit_v2"), "--compare", "--out", str(out)
    )
    assert "exported 2 capture(s)" in stdout and "with their comparison" in stdout
    assert "comparison.parquet: 3 row(s)" in stdout
    return out


def ids_by_label(out: Path) -> dict[str, str]:
    return {row["label"]: row["capture_id"] for row in table(out, "captures")}


def test_one_compilation_row_per_counted_compilation_identity(exported: Path) -> None:
    rows = dict(
        query(
            exported,
            "select c.label, count(k.compile_id) from captures c left join compilations k using (capture_id) "
            "group by c.label",
        )
    )
    counted = dict(query(exported, "select label, observed_compilation_identities from captures"))
    assert rows == counted
    for name in EXPORTED:
        expect = oracle(name)["expect"]
        total = sum(expect["rank_compilations"].values()) if name == "two_ranks" else expect["compilations"]
        assert rows[name] == total, name
    per_rank = query(
        exported,
        "select rank, count(*) from compilations join captures using (capture_id) where label = 'two_ranks' "
        "group by rank order by rank",
    )
    assert {str(r): n for r, n in per_rank} == oracle("two_ranks")["expect"]["rank_compilations"]


def test_recompilations_per_function_are_the_workloads(exported: Path) -> None:
    got = {
        (label, name): n
        for label, name, n in query(
            exported,
            "select c.label, k.co_name, count(*) filter (where k.recompile_confirmed) from compilations k "
            "join captures c using (capture_id) group by all",
        )
    }
    assert got[("edit_v1", "gate")] == oracle("edit_v1")["expect"]["recompiles_by_function"]["gate"]
    assert got[("edit_v1", "encoder")] == 0
    for name in ("shape", "multiple_guards", "recompile_limit"):  # one compiled function, f
        assert got[(name, "f")] == oracle(name)["expect"]["recompiles"], name
    ranks = oracle("two_ranks")["ranks"]
    per_rank = dict(
        query(
            exported,
            "select rank, count(*) filter (where recompile_confirmed) from compilations join captures "
            "using (capture_id) where label = 'two_ranks' group by rank",
        )
    )
    assert per_rank == {int(r): ranks[r]["expect"]["recompiles"] for r in ranks}


def test_guards_breaks_and_evidence_rows(exported: Path) -> None:
    guards = dict(
        query(
            exported,
            "select c.label, count(g.text) from captures c left join guards g using (capture_id) group by c.label",
        )
    )
    for name in ("shape", "multiple_guards"):  # failing guards per recompilation, as the workload counted them
        assert guards[name] == sum(oracle(name)["expect"]["recompile_reason_entries"]), name
    breaks = query(
        exported,
        "select count(*), count(distinct user_line) from graph_breaks join captures using (capture_id) "
        "where label = 'graph_break'",
    )
    assert breaks == [(oracle("graph_break")["expect"]["graph_breaks"], 2)]
    # every evidence id a compilation names is a row of the evidence table of its capture
    missing = query(
        exported,
        "select count(*) from (select capture_id, unnest(evidence_ids) as evidence_id from compilations) "
        "anti join evidence using (capture_id, evidence_id)",
    )
    assert missing == [(0,)]
    for name in TABLES:
        if name == "comparison":  # a comparison row names its two captures (test_comparison_rows_...)
            continue
        (row,) = query(exported, f"select count(*), count(capture_id) from {name}")
        assert row[0] == row[1], name  # the capture id on every row
        ((unknown,),) = query(exported, f"select count(*) from {name} anti join captures using (capture_id)")
        assert unknown == 0


def test_functions_are_the_rows_analyze_shows(exported: Path, store_root: Path) -> None:
    """One row per function as `analyze --by-function --format json` folds it: the same names, places, frames and
    counts, keyed 'file::name@line' with the file as the JSON shows it."""
    rows = table(exported, "functions")
    for label, capture_id in ids_by_label(exported).items():
        report = cli_json(store_root, "analyze", capture_id, "--by-function")
        mine = sorted(
            (r["name"], r["file"], r["line"], r["frames"], {k: v for k, v in r.items() if k in COUNTS and v})
            for r in rows
            if r["capture_id"] == capture_id
        )
        shown = sorted((f["name"], f["file"], f["line"], f["frames"], f["counts"]) for f in report["functions"])
        assert mine == shown, label
        for r in rows:
            if r["capture_id"] == capture_id and not r["function_key"].startswith("<generated>::"):
                assert r["function_key"] == f"{r['file']}::{r['name']}@{r['line']}", label
        # Folding keeps every compilation: the functions' counts sum to the capture's.
        (capture,) = (c for c in table(exported, "captures") if c["capture_id"] == capture_id)
        for key in COUNTS:
            if key not in NOT_SUMMED:
                assert sum(r[key] for r in rows if r["capture_id"] == capture_id) == capture[key], (label, key)


def test_resume_functions_and_library_frames_fold_as_the_workload_counted(exported: Path) -> None:
    by_name = {
        (label, r["name"]): r
        for label, cid in ids_by_label(exported).items()
        for r in table(exported, "functions")
        if r["capture_id"] == cid
    }
    frames = table(exported, "frames")
    ids = ids_by_label(exported)
    # graph_break: each function broke once; its resume function counts in it.
    per_frame = oracle("graph_break")["expect"]["compilations_by_function"]
    for fn in ("with_print", "with_item"):
        row = by_name[("graph_break", fn)]
        resume = next(name for name in per_frame if name.startswith(f"torch_dynamo_resume_in_{fn}_at_"))
        assert row["frames"] == [fn, resume]
        assert row["observed_compilation_identities"] == per_frame[fn] + per_frame[resume]
        assert row["graph_break_records"] == 1
        assert {
            (f["co_name"], f["observed_compilation_identities"])
            for f in frames
            if f["function_key"] == row["function_key"]
        } == {(fn, per_frame[fn]), (resume, per_frame[resume])}
    # library_frames: torch's `inner` and a library's `wrapped` compiled in place of the user's calls count in the
    # function that called them (the workload recorded its compilations per calling function and per frame).
    expect = oracle("library_frames")["expect"]
    for caller, n in expect["compilations_by_caller"].items():
        assert by_name[("library_frames", caller)]["observed_compilation_identities"] == n, caller
    lib = [f for f in frames if f["capture_id"] == ids["library_frames"]]
    got: dict[str, int] = {}
    for f in lib:
        got[f["co_name"]] = got.get(f["co_name"], 0) + f["observed_compilation_identities"]
        assert f["function_key"] in {
            by_name[("library_frames", c)]["function_key"] for c in expect["compilations_by_caller"]
        }
    assert got == expect["compilations_by_function"]
    assert {f["co_filename"] for f in lib} == {"torch/_dynamo/external_utils.py", "wraplib/__init__.py"}
    # edit_v1: gate recompiled once (the workload's count), encoder never.
    assert by_name[("edit_v1", "gate")]["confirmed_recompilation_identities"] == 1
    assert oracle("edit_v1")["expect"]["recompiles_by_function"] == {"gate": 1}


def test_keys_are_relative_to_the_project_root(exported: Path) -> None:
    """A bundle's keys name its files as the CLI does (its source paths, library code from its package on), never
    by the absolute path the trace recorded. (Code torch generated keeps the file name torch made up for it,
    '<eval_with_key>.4 from FILE:LINE in forward', as the JSON does; its key names what it is.)"""
    captures = table(exported, "captures")
    roots = {c["capture_id"]: c["source_root"] for c in captures}
    assert all(roots.values())  # every exported capture is a bundle
    for name, columns in (
        ("functions", ("function_key", "file")),
        ("frames", ("function_key", "frame_key", "co_filename", "caller_file")),
        ("compilations", ("function_key", "frame_key", "co_filename", "caller_file")),
        ("phase_times", ("function_key",)),
        ("graph_breaks", ("user_file",)),
    ):
        for row in table(exported, name):
            for column in columns:
                value = row[column]
                if value is None or value.startswith("<"):
                    continue
                assert not value.startswith("/") and roots[row["capture_id"]] not in value, (name, column, value)
    keys = {r["function_key"] for r in table(exported, "functions")}
    assert "fixtures/workloads/graph_break.py::with_item@16" in keys
    # Generated code by what it is, not by the file name torch made up for it ('<eval_with_key>.10').
    ca = {
        r["function_key"] for r in table(exported, "functions") if r["capture_id"] == ids_by_label(exported)["ca_cold"]
    }
    assert "<generated>::compiled autograd graph 0" in ca and not any("eval_with_key" in k for k in ca)


def test_a_bare_trace_keeps_the_paths_its_trace_recorded(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A bare trace names no project root: its keys use the files as the trace (and the CLI's JSON) name them."""
    out = tmp_path / "tables"
    code, _, err = run("export", str(CAPTURES / "library_frames" / "raw"), "--out", str(out))
    assert code == 0, err
    (capture,) = table(out, "captures")
    assert capture["source_root"] is None
    code, stdout, err = run("analyze", capture["capture_id"], "--by-function", "--format", "json")
    assert code == 0, err
    shown = {
        f"{f['file']}::{f['name']}" + (f"@{f['line']}" if f["line"] else "") for f in json.loads(stdout)["functions"]
    }
    assert {r["function_key"] for r in table(out, "functions")} == shown
    assert {r["name"] for r in table(out, "functions")} == set(
        oracle("library_frames")["expect"]["compilations_by_caller"]
    )


def test_compilation_counts_keep_the_json_names_and_sum_to_the_capture(exported: Path) -> None:
    captures = {c["capture_id"]: c for c in table(exported, "captures")}
    compilations = table(exported, "compilations")
    for capture_id, capture in captures.items():
        mine = [c for c in compilations if c["capture_id"] == capture_id]
        for key in COUNTS:
            if key not in NOT_SUMMED:
                assert sum(c[key] for c in mine) == capture[key], (capture["label"], key)
        assert all(c["observed_compilation_identities"] == 1 for c in mine)
    ranks = {r["rank"]: r for r in table(exported, "ranks") if r["capture_id"] == ids_by_label(exported)["two_ranks"]}
    per_rank = {str(r): ranks[r]["observed_compilation_identities"] for r in ranks}
    assert per_rank == oracle("two_ranks")["expect"]["rank_compilations"]
    limit = [c for c in compilations if c["capture_id"] == ids_by_label(exported)["recompile_limit"]]
    assert sum(c["compiler_limit_events"] for c in limit) == oracle("recompile_limit")["expect"]["recompile_limit_hits"]
    assert sum(c["failed"] for c in limit) == oracle("recompile_limit")["expect"]["failures"]


def metrics(name: str) -> list[dict[str, Any]]:
    """torch's compilation_metrics records of a fixture's trace, read as JSON (metadata lines only)."""
    found = []
    for log in sorted((CAPTURES / name / "raw").glob("*.log")):
        for line in log.read_text(encoding="utf-8").splitlines():
            if not line.startswith("\t") and '{"compilation_metrics"' in line:
                found.append(json.loads(line[line.index("{") :])["compilation_metrics"])
    return found


def test_phase_times_are_torchs_timers(exported: Path, store_root: Path) -> None:
    """Each compilation's phases from its compilation_metrics (dynamo = entire frame - backend compile, aot_backend =
    backend compile - inductor compile, ...), and per capture the phase_times_s of the CLI's JSON."""
    phases = table(exported, "phase_times")
    ids = ids_by_label(exported)
    for label in ("edit_v1", "graph_break", "shape", "library_frames"):
        rows = {(r["compile_id"], r["phase"]): r["seconds"] for r in phases if r["capture_id"] == ids[label]}
        expect: dict[tuple[str, str], float] = {}
        for m in metrics(label):
            entire, backend = m["entire_frame_compile_time_s"], m["backend_compile_time_s"]
            if entire is not None and entire - (backend or 0) > 0:
                expect[(m["compile_id"], "dynamo")] = entire - (backend or 0)
            if backend is not None and m["inductor_compile_time_s"] is None and backend > 0:
                expect[(m["compile_id"], "aot_backend")] = backend
        assert rows.keys() == expect.keys(), label
        assert all(abs(rows[k] - expect[k]) < 1e-6 for k in rows), label
        document = cli_json(store_root, "analyze", ids[label], "--by-function")
        summed: dict[str, float] = {}
        for (_, phase), seconds in rows.items():
            summed[phase] = summed.get(phase, 0.0) + seconds
        assert summed.keys() == document["phase_times_s"].keys(), label
        assert all(abs(summed[p] - document["phase_times_s"][p]) < 1e-5 for p in summed), label
    labels = {r["phase"]: r["phase_label"] for r in phases}
    assert labels["dynamo"] == "Dynamo" and labels["aot_backend"] == "AOT/backend"
    functions = {r["function_key"] for r in table(exported, "functions")}
    assert {r["function_key"] for r in phases} <= functions


def test_comparison_rows_are_compares_json(compared: Path, store_root: Path) -> None:
    ids = ids_by_label(compared)
    document = cli_json(store_root, "compare", ids["edit_v1"], ids["edit_v2"])
    rows = sorted(table(compared, "comparison"), key=lambda r: r["position"])
    assert [(r["status"], r["method"], r["baseline_name"], r["candidate_name"]) for r in rows] == [
        (
            f["status"],
            f["method"],
            (f["baseline"] or {}).get("qualified_name"),
            (f["candidate"] or {}).get("qualified_name"),
        )
        for f in document["functions"]
    ]
    assert {r["comparison_id"] for r in rows} == {document["id"]}
    assert {(r["baseline_capture_id"], r["candidate_capture_id"]) for r in rows} == {(ids["edit_v1"], ids["edit_v2"])}
    for row, shown in zip(rows, document["functions"], strict=True):
        for side in ("baseline", "candidate"):
            if shown[side] is None:
                assert row[f"{side}_function_key"] is None and row[f"{side}_observed_compilation_identities"] is None
                continue
            for key in COUNTS:
                assert row[f"{side}_{key}"] == shown[side]["counts"][key], (side, key)
        assert row["change_kinds"] == [c["kind"] for c in shown["changes"]]
    # The workload's edit: gate changed (and no longer recompiles), encoder is the same code, postprocess is new.
    expect_v1, expect_v2 = oracle("edit_v1")["expect"], oracle("edit_v2")["expect"]
    by_name = {r["candidate_name"] or r["baseline_name"]: r for r in rows}
    assert set(by_name) == {"gate", "encoder", *expect_v2["added_functions"]}
    gate = by_name["gate"]
    assert gate["method"] == "line_diff" and "recompile_reason" in gate["change_kinds"]
    assert gate["baseline_confirmed_recompilation_identities"] == expect_v1["recompiles_by_function"]["gate"]
    assert gate["candidate_confirmed_recompilation_identities"] == expect_v2["recompiles_by_function"]["gate"]
    assert by_name["encoder"]["method"] == "structure"
    (added,) = expect_v2["added_functions"]
    assert by_name[added]["status"] == "candidate_only" and by_name[added]["baseline_function_key"] is None
    # Each side's key is a row of that capture's functions table: a pair joins to both runs.
    functions = {(r["capture_id"], r["function_key"]) for r in table(compared, "functions")}
    for row in rows:
        for side in ("baseline", "candidate"):
            if row[f"{side}_function_key"] is not None:
                assert (row[f"{side}_capture_id"], row[f"{side}_function_key"]) in functions
    manifest = json.loads((compared / "export.json").read_text(encoding="utf-8"))
    assert manifest["comparison"] == {"id": document["id"], "baseline": ids["edit_v1"], "candidate": ids["edit_v2"]}


def test_compare_takes_two_captures(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "tables"
    for refs in ([CAPTURES / "shape"], [CAPTURES / "shape", CAPTURES / "edit_v1", CAPTURES / "edit_v2"]):
        code, _, err = run("export", *map(str, refs), "--compare", "--out", str(out))
        assert code == 2 and "error[invalid_argument]" in err and "--compare takes two captures" in err
        assert not out.exists()
    code, stdout, err = run("export", str(CAPTURES / "shape"), "--out", str(out))
    assert code == 0, err
    assert "comparison.parquet: 0 row(s)" in stdout  # without --compare the table is there, empty


def test_a_second_export_is_refused_unless_overwrite(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "tables"
    code, _, err = run("export", str(CAPTURES / "shape"), "--out", str(out))
    assert code == 0, err
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    code, _, err = run("export", str(CAPTURES / "edit_v1"), "--out", str(out))
    assert code == 2 and "error[invalid_argument]" in err and "--overwrite" in err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    code, _, err = run("export", str(CAPTURES / "edit_v1"), "--out", str(out), "--overwrite")
    assert code == 0, err
    assert [r[0] for r in query(out, "select label from captures")] == ["edit_v1"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store", "tables"]  # nothing left beside it
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    code, _, err = run("export", str(CAPTURES / "shape"), "--out", str(other), "--overwrite")
    assert code == 2 and "holds no earlier export" in err
    assert [p.name for p in other.iterdir()] == ["notes.txt"]


def test_a_bad_capture_writes_nothing(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "tables"
    code, _, err = run("export", str(CAPTURES / "shape"), "no-such-capture", "--out", str(out))
    assert code == 2 and err.startswith("error[unknown_capture]")
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store"]
    code, _, err = run("export", str(CAPTURES / "shape"), "--format", "csv", "--out", str(out))
    assert code == 2 and "error[invalid_argument]" in err and not out.exists()


def test_without_pyarrow_the_error_says_how_to_install(run, tmp_path: Path, hide_module) -> None:  # type: ignore[no-untyped-def]
    hide_module("pyarrow")
    out = tmp_path / "tables"
    code, _, err = run("export", str(CAPTURES / "shape"), "--out", str(out))
    assert code == 2
    assert err.strip() == 'error[missing_extra]: Parquet export needs pyarrow: pip install "dynamo-diff[parquet]"'
    assert not out.exists()


def test_the_docs_list_every_column_with_its_type() -> None:
    text = (ROOT / "docs/INTEGRATIONS.md").read_text(encoding="utf-8")
    section = text[text.index("## Tables for DuckDB, Spark and pandas") :]
    for name, columns in TABLES.items():
        block = re.search(rf"^#### `{name}`\n(.*?)(?=^####|^## |\Z)", section, flags=re.S | re.M)
        assert block is not None, name
        documented = re.findall(r"^\| `([a-z_0-9]+)` \| `([^`]+)` \|", block.group(1), flags=re.M)
        expected = [(column, kind) for column, kind, _ in columns]
        sides = [(f"{side}_{c}", k) for side in ("baseline", "candidate") for c, k, _ in COUNT_COLUMNS]
        if expected[-len(sides) :] == sides:
            expected = expected[: -len(sides)]
            assert "then the counts twice" in block.group(1), name
        elif columns[-len(COUNT_COLUMNS) :] == COUNT_COLUMNS:
            expected = expected[: -len(COUNT_COLUMNS)]
            assert "then the counts" in block.group(1), name
        assert documented == expected, name
    block = re.search(r"^#### The counts\n(.*?)(?=^####|^## |\Z)", section, flags=re.S | re.M)
    assert block is not None
    assert re.findall(r"`([a-z_0-9]+)`", block.group(1).split("\n\n")[0]) == [n for n, _, _ in COUNT_COLUMNS]


def test_the_docs_queries_run_over_nightly_exports(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """Two "nights" (shape, then multiple_guards) exported into tables/<night>, edit_v1 against edit_v2 into
    compared, and every SQL block of the docs' section run over them as written."""
    for night, name in (("2026-11-29", "shape"), ("2026-11-30", "multiple_guards")):
        code, _, err = run("export", str(CAPTURES / name), "--out", str(tmp_path / "tables" / night))
        assert code == 0, err
    code, _, err = run(
        "export", str(CAPTURES / "edit_v1"), str(CAPTURES / "edit_v2"), "--compare", "--out", str(tmp_path / "compared")
    )
    assert code == 0, err
    monkeypatch.chdir(tmp_path)
    text = (ROOT / "docs/INTEGRATIONS.md").read_text(encoding="utf-8")
    section = text[text.index("## Tables for DuckDB, Spark and pandas") :]
    blocks = re.findall(r"```sql\n(.*?)```", section, flags=re.S)
    assert len(blocks) >= 4
    con = duckdb.connect()
    results = [
        arrow_rows(con.sql(statement)) for block in blocks for statement in block.split(";") if statement.strip()
    ]
    per_function = {(label, name): recompiles for label, _, name, _, recompiles, _ in results[0]}
    assert per_function == {
        ("shape", "f"): oracle("shape")["expect"]["recompiles"],
        ("multiple_guards", "f"): oracle("multiple_guards")["expect"]["recompiles"],
    }
    # The comparison query: gate recompiled once before the edit and never after (the workloads' counts).
    pairs = {key.rsplit("::", 1)[1].split("@")[0]: (before, after) for _, _, key, before, after, _ in results[-1]}
    gate = (
        oracle("edit_v1")["expect"]["recompiles_by_function"]["gate"],
        oracle("edit_v2")["expect"]["recompiles_by_function"]["gate"],
    )
    assert pairs["gate"] == gate
    assert pairs["postprocess"] == (None, 0)
