"""dynamic_norm: a pooling head compiled with dynamic=True whose LayerNorm(12) pins the feature size inside torch's
`F.layer_norm`, and a gate that branches on a float after an `.item()` break. `analyze --by-function` says, on the
first compilation, which sizes the graph is dynamic in and names the user's line that pinned the other (torch's
frame under it as `via`); each entry of the gate's resume function says the value guard on the float. Expected
texts come from the raw trace's records (create_symbol, symbolic_shape_specialization, the guard trees)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .conftest import Run, unwrapped

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def _records(kind: str) -> list[dict]:
    (raw,) = (CAPTURES / "dynamic_norm" / "raw").glob("*.log")
    return [json.loads(line.split("] ", 1)[1])[kind] for line in raw.read_text().splitlines() if f'{{"{kind}"' in line]


def _lines(out: str, cid: str) -> list[str]:
    """The logical lines of compilation `cid` (its own line and the ones under it)."""
    got: list[str] = []
    inside = False
    for line in unwrapped(out):
        s = line.strip()
        if m := re.match(r"^(\d+/\d+)\b", s):
            inside = m[1] == cid
        if inside:
            got.append(s)
    return got


def test_the_user_line_that_pinned_a_size_is_named_with_torchs_frame_under_it(run: Run) -> None:
    (spec,) = [r for r in _records("symbolic_shape_specialization") if r["reason"] == "range_refined_to_singleton"]
    assert spec["sources"] == ["L['tokens'].size()[2]"] and spec["value"] == "12"
    assert [(f["line"], f["loc"]) for f in spec["user_stack"][-2:]] == [
        (16, "h = self.norm(tokens)"),
        (228, "return F.layer_norm("),
    ]
    code, out, err = run("analyze", str(CAPTURES / "dynamic_norm"), "--by-function")
    assert code == 0, err
    (line,) = [s for s in _lines(out, "0/0") if "specialized:" in s]
    assert (
        f"{spec['symbol']} (L['tokens'].size()[2]) fixed to 12 at dynamic_norm.py:16: h = self.norm(tokens) "
        "(via normalization.py:228 `return F.layer_norm(`) (range_refined_to_singleton)"
    ) in line


def test_a_first_compilation_under_dynamic_true_says_what_it_is_dynamic_in(run: Run) -> None:
    made = {r["source"]: (r["symbol"], r["val"]) for r in _records("create_symbol")}
    batch, length = made["L['tokens'].size()[0]"], made["L['tokens'].size()[1]"]
    assert (batch[1], length[1]) == ("3", "5")  # the first call: randn(3, 5, 12)
    code, out, err = run("analyze", str(CAPTURES / "dynamic_norm"), "--by-function")
    assert code == 0, err
    (line,) = [s for s in _lines(out, "0/0") if "dynamic: " in s]
    assert (
        f"dynamic: the graph has symbolic sizes: {batch[0]} = L['tokens'].size()[0] (3 when made), "
        f"{length[0]} = L['tokens'].size()[1] (5 when made)"
    ) in line


def test_each_resume_entry_says_the_value_guard_on_the_float(run: Run) -> None:
    # The trees' top-level guards of frame 2 (the resume function): the constant, then one per branch.
    (raw,) = (CAPTURES / "dynamic_norm" / "raw").glob("*.log")
    text = raw.read_text()
    for cid, guard in ((0, "EQUALS_MATCH: L['___stack0'] == 0.5"), (1, "LAMBDA_GUARD: L['___stack0'] > 0.0")):
        head = rf'"dynamo_cpp_guards_str": {{}}, "frame_id": 2, "frame_compile_id": {cid}, .*$\n((?:\t.*\n)+)'
        (tree,) = re.findall(head, text, re.M)
        assert f"+- {guard}" in tree
    code, out, err = run("analyze", str(CAPTURES / "dynamic_norm"), "--by-function")
    assert code == 0, err
    said = {
        cid: [re.sub(r" \(ev u1-e\d+\)$", "", s) for s in _lines(out, cid) if s.startswith("guards on inputs: ")]
        for cid in ("2/0", "2/1", "2/2")
    }
    assert said["2/0"][0].endswith("; L['___stack0'] == 0.5")
    assert said["2/1"][0].endswith("; L['___stack0'] > 0.0")
    assert said["2/2"][0].endswith("; L['___stack0'] <= 0.0")
    assert not [s for lines in said.values() for s in lines if "isnan" in s]
