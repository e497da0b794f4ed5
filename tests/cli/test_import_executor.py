"""`dynamo-diff import`: the executor choice without Ray, and `--format json` as the capture summary for scripts.

(Imports on a Ray instance: tests/store/test_ray_executor.py.)"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from dynamo_diff_schema import validate

ROOT = Path(__file__).resolve().parents[2]
ORACLE = json.loads((ROOT / "fixtures/captures/two_ranks/oracle.json").read_text(encoding="utf-8"))


def test_the_local_executor_never_imports_ray(rank_job: Callable[..., Path], tmp_path: Path) -> None:
    job = rank_job(tmp_path / "job", {r: r % 2 for r in range(4)})
    probe = (
        "import sys, pathlib\n"
        "from dynamo_diff_cli.app import app\n"
        "from dynamo_diff_store import Store\n"
        f"Store(pathlib.Path({str(tmp_path / 'store')!r})).import_path(pathlib.Path({str(job)!r}))\n"
        "assert 'ray' not in sys.modules, 'ray was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_without_ray_the_ray_executor_says_how_to_install_and_writes_nothing(  # type: ignore[no-untyped-def]
    run, rank_job: Callable[..., Path], tmp_path: Path, hide_module: Callable[[str], None]
) -> None:
    hide_module("ray")
    job = rank_job(tmp_path / "job", {0: 0, 1: 1})
    code, out, err = run("import", str(job), "--executor", "ray")
    assert code == 2 and out == ""
    assert err.strip() == 'error[missing_extra]: the Ray executor needs Ray: pip install "dynamo-diff[ray]"'
    assert not (tmp_path / "store").exists()  # refused before anything was copied


def test_import_json_is_the_capture_summary(run, rank_job: Callable[..., Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """What a script needs from an import: the id and the counts (total and per rank), without the compilations
    (`analyze ID --format json` has them); a capture document all the same."""
    job = rank_job(tmp_path / "job", {r: r % 2 for r in range(6)})
    code, out, err = run("import", str(job), "--format", "json", "--label", "six")
    assert code == 0, err
    imported = json.loads(out)
    validate(imported, "import_result")
    (run_imported,) = imported["captures"]
    assert run_imported["created"] is True and run_imported["label"] == "six"
    summary = run_imported["summary"]
    validate(summary, "capture")
    assert summary["capture"]["id"] == run_imported["id"] and summary["capture"]["label"] == "six"
    # two_ranks/oracle.json: rank 0 compiles once, rank 1 three times; even ranks copy rank 0, odd ranks rank 1.
    per_rank = ORACLE["expect"]["rank_compilations"]
    expected = [per_rank[str(r % 2)] for r in range(6)]
    assert [r["counts"]["observed_compilation_identities"] for r in summary["ranks"]] == expected
    assert summary["counts"]["observed_compilation_identities"] == sum(expected)
    assert all(r["compilations"] == [] for r in summary["ranks"]) and "evidence" not in summary
    code, again, err = run("import", str(job), "--format", "json")  # already in the store: the same summary
    assert code == 0, err
    (again_imported,) = json.loads(again)["captures"]
    assert again_imported["created"] is False and again_imported["summary"] == summary
    code, full, err = run("analyze", summary["capture"]["id"], "--format", "json")
    assert code == 0, err
    analysed = json.loads(full)
    assert [len(r["compilations"]) for r in analysed["ranks"]] == expected
    assert analysed["counts"] == summary["counts"]
