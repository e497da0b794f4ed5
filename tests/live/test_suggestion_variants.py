"""The forms of the suggestions that the fixture pairs do not record (fixtures/workloads/pairs/variants.py), run
on real torch: which also work and which do not on this torch, counted by torch itself (the oracle's `measured`
blocks: its in-process compilation metrics and graph-break counter), never by our analyser."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
WORKLOADS = REPO / "fixtures/workloads"


def test_variants_count_what_the_workload_expects(tmp_path: Path) -> None:
    oracle_path = tmp_path / "oracle.json"
    env = {**os.environ, "DYNAMO_DIFF_ORACLE": str(oracle_path), "PYTHONPATH": str(WORKLOADS)}
    for name in ("TORCH_LOGS", "TORCH_TRACE", "TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS"):
        env.pop(name, None)
    script = WORKLOADS / "pairs" / "variants.py"
    proc = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    oracle = json.loads(oracle_path.read_text())
    assert oracle["outputs_match_eager"]
    measured, expect = oracle["measured"], oracle["expect"]
    got = {name: len(measured[name]["compilations"]) for name in expect["measured_compilations"]}
    assert got == expect["measured_compilations"]
    breaks = {name: measured[name]["graph_breaks"] for name in expect["measured_graph_breaks"]}
    assert breaks == expect["measured_graph_breaks"]
    # What still breaks with print reorderable, in torch's words.
    (reason,) = measured["reorder_print_of_a_size"]["graph_break_reasons"]
    assert reason.startswith("attempted to reorder a debugging function that can't actually be reordered")
