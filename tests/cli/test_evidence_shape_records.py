"""The evidence index says what each shape-environment record holds: the symbol torch made and from what, the guard
it added, the value it fixed a symbol to and why, each at the user's line the record's own stack names.
pinned_index.py writes `cache[:, pos] = h` (line 12) with pos = 0, 1, 2, 3: from the second call torch makes `pos` a
symbol and the indexed write fixes it back (the workload's own account). The expected lines are read here from the
raw trace's JSON headers (file names through its intern table), not from the analyzer."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .conftest import Run

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"
NAME = "pinned_index"
KINDS = ("create_symbol", "guard_added_fast", "symbolic_shape_specialization")


def _records() -> list[tuple[str, dict]]:
    (raw,) = (CAPTURES / NAME / "raw").glob("*.log")
    out: list[tuple[str, dict]] = []
    for line in raw.read_text(encoding="utf-8").splitlines():
        if line.startswith("\t") or "{" not in line:
            continue
        record = json.loads(line[line.index("{") :])
        out += [(k, record[k]) for k in KINDS if k in record]
    return out


def test_the_index_says_each_symbol_guard_and_specialization(run: Run) -> None:
    records = _records()
    assert [k for k, _ in records].count("symbolic_shape_specialization") == 3
    expected = []
    for kind, p in records:
        at = ""
        if p.get("user_stack"):
            frame = p["user_stack"][-1]
            at = f" at {NAME}.py:{frame['line']}: {frame['loc']}"
            assert frame["line"] == 12 and frame["loc"] == "cache[:, pos] = h"
        if kind == "create_symbol":
            expected.append(f"symbol {p['symbol']} = {p['source']} ({p['val']} when made, range {p['vr']}){at}")
        elif kind == "guard_added_fast":
            expected.append(f"guard {p['expr']}{at}")
        else:
            expected.append(f"{p['symbol']} ({', '.join(p['sources'])}) fixed to {p['value']} ({p['reason']}){at}")
    assert any(e.startswith("s24 (L['pos']) fixed to 1 (range_refined_to_singleton)") for e in expected)
    code, out, err = run("evidence", str(CAPTURES / NAME), "--limit", "500")
    assert code == 0, err
    said = [
        re.sub(r" \((line \d+|[^()]*\.log:\d+)\)$", "", line.split(": ", 1)[1])
        for line in out.splitlines()
        if re.match(rf"u\d+-e\d+ ({'|'.join(KINDS)}) ", line)
    ]
    assert said == expected
