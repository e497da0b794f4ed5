"""A compilation that fails the same way at every call (custom_op_no_fake: a custom op with no fake implementation,
each call's compilation raising, caught by the workload) is said whole once: the later ones say `the same error as
0/0`, each with its own record and what happened after it; the suggestion is said once. The error's words are read
from the raw trace's compilation_metrics and the workload's own record of what it caught."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .conftest import Run, unwrapped

CAPTURE = Path(__file__).resolve().parents[2] / "fixtures/captures/custom_op_no_fake"


def test_the_same_failure_is_said_whole_once(run: Run) -> None:
    oracle = json.loads((CAPTURE / "oracle.json").read_text())
    assert [e["type"] for e in oracle["exceptions"]] == ["TorchRuntimeError"] * 3
    raw = "".join(p.read_text(encoding="utf-8") for p in (CAPTURE / "raw").glob("*.log"))
    reasons = re.findall(r'"fail_reason": "(.*?)", "fail_user_frame', raw)
    assert len(reasons) == 3 and len(set(reasons)) == 1
    assert "no fake impl registered for <CustomOpDef(ddfix::soft_clip)>" in reasons[0]
    code, out, err = run("analyze", str(CAPTURE), "--by-function")
    assert code == 0, err
    lines = [s.strip() for s in unwrapped(out)]
    heads = {m[1]: s for s in lines if (m := re.match(r"^(0/\d) failed: FAILED TorchRuntimeError at ", s))}
    assert sorted(heads) == ["0/0", "0/1", "0/2"]
    assert "no fake impl registered for <CustomOpDef(ddfix::soft_clip)>" in heads["0/0"]
    for cid in ("0/1", "0/2"):
        assert re.search(r": the same error as 0/0 \(ev u\d+-e\d+\)$", heads[cid]), heads[cid]
    evidence = [re.search(r"\(ev (u\d+-e\d+)\)$", heads[c])[1] for c in sorted(heads)]  # type: ignore[index]
    assert len(set(evidence)) == 3  # each failure's own record
    assert sum(s.startswith("the error reached the program") for s in lines) == 3
    assert sum(s.startswith("suggestion (") for s in lines) == 1
