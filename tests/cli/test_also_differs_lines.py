"""`analyze` shows, under a recompile's failing guard, the other guards whose value differs between the older
entry's guard tree and the new one's. Expected values come from multiple_guards.py (call 2 passes a float64
tensor of 6 items and n = 3 after a float32 tensor of 4 and n = 2) and its raw guard trees."""

from __future__ import annotations

import re
from pathlib import Path

from .conftest import Run

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def test_analyze_lists_what_else_differs_under_the_failing_guard(run: Run) -> None:
    raw = "".join(p.read_text() for p in (CAPTURES / "multiple_guards" / "raw").glob("*.log"))
    tensors = re.findall(
        r"check_tensor\(L\['x'\], Tensor, DispatchKeySet\([^)]*\), (torch\.\w+), .*?size=(\[\d+\])", raw
    )
    assert tensors[:2] == [("torch.float32", "[4]"), ("torch.float64", "[6]")]
    code, out, err = run("analyze", str(CAPTURES / "multiple_guards"))
    assert code == 0, err
    text = " ".join(out.split())  # lines may wrap
    (d0, s0), (d1, s1) = tensors[:2]
    assert f"also differs from 0/0: L['x']: dtype {d0} -> {d1}; L['x']: size {s0} -> {s1}" in text
    # 0/2 fails 0/0 on the dtype (torch's reason): the size is what else differs.
    assert f"dtype mismatch. expected Float, actual Double made for: L['x']: {d1}, size={s1}, stride=[1] " in text
    assert f"also differs from 0/0: L['x']: size {s0} -> {s1}" in text
