"""A range on an int attribute torch made symbolic: fft_length.py sets its module's `n_fft` 32, 64, 48, 36, 36 on a
length-40 signal with int attributes of modules dynamic (the workload's own record). The entries' guard trees (read
here from the raw records) bound the symbol with the length first (`41 <= L['self'].n_fft`,
`2 <= L['self'].n_fft <= 39`), and torch's in-process record of the failing guards (the oracle) names the first;
the report says each range on its entry's `guards on values:` line and the failing one as a value guard."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .conftest import Run, unwrapped

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"
NAME = "fft_length"


def _ranges() -> list[list[str]]:
    (raw,) = (CAPTURES / NAME / "raw").glob("*.log")
    trees: list[list[str]] = []
    inside = False
    for line in raw.read_text(encoding="utf-8").splitlines():
        if '{"dynamo_cpp_guards_str"' in line:
            trees.append([])
            inside = True
        elif inside and line.startswith("\t"):
            if m := re.search(r"LAMBDA_GUARD: (.*?L\['self'\]\.n_fft.*?)\s*(?:#.*)?$", line):
                trees[-1].append(m[1])
        else:
            inside = False
    return trees


def test_a_symbolic_attributes_range_is_a_guard_on_values(run: Run) -> None:
    oracle = json.loads((CAPTURES / NAME / "oracle.json").read_text(encoding="utf-8"))
    assert oracle["n_fft"] == [32, 64, 48, 36, 36] and oracle["backend_invocations"] == 3
    failures = [f.split("  #", 1)[0].strip() for f in oracle["guard_failures"]["forward"]]
    assert failures[-2:] == ["0/1: 41 <= self.n_fft", "0/0: self.n_fft == 32"]
    trees = _ranges()
    assert trees[0] == [] and trees[1] == ["41 <= L['self'].n_fft"] and trees[2] == ["2 <= L['self'].n_fft <= 39"]
    code, out, err = run("analyze", str(CAPTURES / NAME), "--by-function")
    assert code == 0, err
    said = [s.strip() for s in unwrapped(out)]
    values = [s for s in said if s.startswith("guards on values: ")]
    assert values[1].startswith(f"guards on values: {trees[1][0]} (ev u1-e")
    assert values[2].startswith(f"guards on values: {trees[2][0]} (ev u1-e")
    assert any(
        s.startswith("0/2 completed: recompiled [value] 0/1: 41 <= self.n_fft at fft_length.py:18") for s in said
    )
