"""A recompile because another backend asked: one function under two torch.compile wrappers with different
backends, called alternately (two_backends.py). torch's own in-process record of the failing guard
(`torch._dynamo.utils.guard_failures`, copied into the oracle) is a BACKEND_MATCH failure with two object addresses
and a link; the report says it whole, less those, as a global-state recompile, never cut mid-word."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .conftest import Run, unwrapped

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"
NAME = "two_backends"


def test_a_backend_match_failure_is_said_whole_without_addresses(run: Run) -> None:
    oracle = json.loads((CAPTURES / NAME / "oracle.json").read_text(encoding="utf-8"))
    assert oracle["backend_invocations"] == 2
    assert oracle["backends_by_step"][:2] == ["eager", "aot_eager"]
    (failure,) = oracle["guard_failures"]["score"]
    assert failure.startswith("0/0: BACKEND_MATCH failure:") and "(id=0x" in failure and "More details:" in failure
    expected = re.sub(r" \(id=0x[0-9a-f]+\)", "", failure.split(" More details:")[0])
    code, out, err = run("analyze", str(CAPTURES / NAME), "--by-function")
    assert code == 0, err
    (line,) = [s.strip() for s in unwrapped(out) if "recompiled [" in s]
    assert line.startswith(f"0/1 completed: recompiled [global_state] {expected} (ev u1-e"), line
    assert "0x" not in line and "…" not in line


def test_the_whole_guard_of_the_plain_view_leaves_out_addresses_too(run: Run) -> None:
    """`analyze` without `--by-function` keeps a failing guard whole (never cut): torch's text, less the addresses
    and the link, the same words as the per-function view."""
    oracle = json.loads((CAPTURES / NAME / "oracle.json").read_text(encoding="utf-8"))
    (failure,) = oracle["guard_failures"]["score"]
    expected = re.sub(r" \(id=0x[0-9a-f]+\)", "", failure.split(" More details:")[0])
    code, out, err = run("analyze", str(CAPTURES / NAME))
    assert code == 0, err
    (line,) = [s.strip() for s in out.splitlines() if s.strip().startswith("recompile [")]
    assert line == f"recompile [global_state]: {expected}", line
