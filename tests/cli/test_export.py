"""`dynamo-diff export --format parquet` as a user runs it, read back with DuckDB.

Expected values come from the workloads' own records (fixtures/captures/*/oracle.json), never from the analyser."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import duckdb
import pytest
from dynamo_diff_service import COUNT_COLUMNS, TABLES

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "fixtures/captures"
EXPORTED = ("edit_v1", "shape", "multiple_guards", "recompile_limit", "graph_break", "two_ranks")


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


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from dynamo_diff_cli.app import app
    from typer.testing import CliRunner

    root = tmp_path_factory.mktemp("export")
    runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1", "DYNAMO_DIFF_STORE": str(root / "store")})
    out = root / "tables"
    result = runner.invoke(
        app, ["export", *(str(CAPTURES / n) for n in EXPORTED), "--format", "parquet", "--out", str(out)]
    )
    assert result.exit_code == 0, result.stderr
    assert f"exported {len(EXPORTED)} capture(s)" in result.stdout
    return out


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
    for table in TABLES:
        (row,) = query(exported, f"select count(*), count(capture_id) from {table}")
        assert row[0] == row[1], table  # the capture id on every row
        ((unknown,),) = query(exported, f"select count(*) from {table} anti join captures using (capture_id)")
        assert unknown == 0


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
    for table, columns in TABLES.items():
        block = re.search(rf"^#### `{table}`\n(.*?)(?=^####|^## |\Z)", section, flags=re.S | re.M)
        assert block is not None, table
        documented = re.findall(r"^\| `([a-z_0-9]+)` \| `([^`]+)` \|", block.group(1), flags=re.M)
        expected = [(name, kind) for name, kind, _ in columns]
        if columns[-len(COUNT_COLUMNS) :] == COUNT_COLUMNS:
            expected = expected[: -len(COUNT_COLUMNS)]
            assert "then the counts" in block.group(1), table
        assert documented == expected, table
    block = re.search(r"^#### The counts\n(.*?)(?=^####|^## |\Z)", section, flags=re.S | re.M)
    assert block is not None
    assert re.findall(r"`([a-z_0-9]+)`", block.group(1).split("\n\n")[0]) == [n for n, _, _ in COUNT_COLUMNS]


def test_the_docs_queries_run_over_nightly_exports(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """Two "nights" (shape, then multiple_guards) exported into tables/<night>, and every SQL block of the docs'
    section run over them as written."""
    for night, name in (("2026-11-29", "shape"), ("2026-11-30", "multiple_guards")):
        code, _, err = run("export", str(CAPTURES / name), "--out", str(tmp_path / "tables" / night))
        assert code == 0, err
    monkeypatch.chdir(tmp_path)
    text = (ROOT / "docs/INTEGRATIONS.md").read_text(encoding="utf-8")
    section = text[text.index("## Tables for DuckDB, Spark and pandas") :]
    blocks = re.findall(r"```sql\n(.*?)```", section, flags=re.S)
    assert len(blocks) >= 3
    con = duckdb.connect()
    results = [
        arrow_rows(con.sql(statement)) for block in blocks for statement in block.split(";") if statement.strip()
    ]
    per_function = {(label, name): recompiles for label, _, name, _, recompiles, _ in results[0]}
    assert per_function == {
        ("shape", "f"): oracle("shape")["expect"]["recompiles"],
        ("multiple_guards", "f"): oracle("multiple_guards")["expect"]["recompiles"],
    }
