"""How analyze words a compilation's backward: compiled (a bwd_compilation_metrics record), or traced by
AOTAutograd (aot_backward_graph) and never compiled on its own. Expected values come from the raw traces (which
records each bundle holds) and the workloads (training.py calls .backward() on an Inductor graph; compiled
autograd's backward is captured by Compiled Autograd), never from the analyser."""

from __future__ import annotations

import re
from pathlib import Path

from dynamo_diff_compare.capture_view import backward_not_compiled

from .conftest import Run, unwrapped

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def _kinds(name: str) -> set[str]:
    raw = "".join(p.read_text(encoding="utf-8") for p in sorted((CAPTURES / name / "raw").glob("*.log")))
    return set(re.findall(r'^\S+ [\d:.]+ \d+ \S+\] \{"(\w+)"', raw, re.M))


def _aot_lines(run: Run, name: str) -> list[str]:
    code, out, err = run("analyze", str(CAPTURES / name))
    assert code == 0, err
    return [s.strip() for s in unwrapped(out) if "AOTAutograd:" in s]


def test_a_backward_compiled_at_the_first_backward_call(run: Run) -> None:
    assert {"aot_backward_graph", "bwd_compilation_metrics"} <= _kinds("training")
    (line,) = _aot_lines(run, "training")
    assert "; backward compiled in " in line and "not compiled" not in line


def test_a_backward_compiled_autograd_took_is_not_called_missing(run: Run) -> None:
    kinds = _kinds("compiled_autograd")
    assert "aot_backward_graph" in kinds and "compiled_autograd_graph" in kinds
    assert "bwd_compilation_metrics" not in kinds
    (line, _ca) = _aot_lines(run, "compiled_autograd")
    assert line.endswith(
        "backward graph traced (aot_backward_graph); not compiled in this run by AOTAutograd (no "
        "bwd_compilation_metrics; the backward went through Compiled Autograd: !0/1/0)"
    ), line


def test_a_backward_no_call_reached() -> None:
    assert backward_not_compiled() == (
        "backward graph traced (aot_backward_graph); not compiled in this run (no bwd_compilation_metrics: no "
        ".backward() reached it)"
    )


def _by_function_aot(run: Run, name: str) -> list[str]:
    code, out, err = run("analyze", str(CAPTURES / name), "--by-function")
    assert code == 0, err
    return [s.strip() for s in unwrapped(out) if "AOTAutograd:" in s]


def test_the_ops_line_says_whether_each_backward_compiled(run: Run) -> None:
    """training compiled its backward (bwd_compilation_metrics); compiled_autograd's backward graph was traced by
    AOTAutograd but went through Compiled Autograd, so AOTAutograd never compiled it in this run."""
    (line,) = _by_function_aot(run, "training")
    assert re.search(r"AOTAutograd: forward \d+ ops, backward \d+ ops \(compiled\)", line), line
    lines = _by_function_aot(run, "compiled_autograd")
    assert any(re.search(r"backward \d+ ops \(not compiled in this run\)", s) for s in lines), lines
