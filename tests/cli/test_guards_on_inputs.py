"""`analyze --by-function` / `--function NAME`: a line per compilation saying what it guards on its tensor
arguments (from its guard tree), left out when its frame's previous compilation said the same; the run report JSON
carries the list. Expected texts are the raw trace's guard tree text (checked there), never the analyser's."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .conftest import Run, unwrapped

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def _tree(name: str, frame: int, compile_id: int) -> str:
    (raw,) = (CAPTURES / name / "raw").glob("*.log")
    head = re.compile(
        rf'"dynamo_cpp_guards_str": {{}}, "frame_id": {frame}, "frame_compile_id": {compile_id}, .*$\n((?:\t.*\n)+)',
        re.M,
    )
    (body,) = head.findall(raw.read_text(encoding="utf-8"))
    return body


def _inputs_lines(out: str) -> dict[str, str]:
    """compile id -> the `guards on inputs:` line under it (its first line's compile id), without the guard
    tree's evidence id that ends it (when no `guards on values:` line follows to end with it)."""
    got, cid = {}, None
    for line in unwrapped(out):
        s = line.strip()
        if m := re.match(r"^(?:rank \d+ )?(\d+/\d+)\b", s):
            cid = m[1]
        elif s.startswith("guards on inputs: ") and cid is not None:
            got[cid] = re.sub(r" \(ev u1-e\d+\)$", "", s)
    return got


def test_each_entry_says_its_guards_on_x_once(run: Run) -> None:
    # dynamic.py: auto(x) gets randn(4, 3), then randn(6, 3) (0/1: dim 0 symbolic, `2 <= L['x'].size()[0]`).
    assert "size=[4, 3], stride=[3, 1])" in _tree("dynamic", 0, 0)
    assert "size=[None, 3], stride=[3, 1])" in _tree("dynamic", 0, 1)
    assert "+- LAMBDA_GUARD: 2 <= L['x'].size()[0]  #" in _tree("dynamic", 0, 1)
    code, out, err = run("analyze", str(CAPTURES / "dynamic"), "--function", "auto")
    assert code == 0, err
    assert _inputs_lines(out) == {
        "0/0": "guards on inputs: L['x']: torch.float32, size=[4, 3], stride=[3, 1]",
        "0/1": "guards on inputs: L['x']: torch.float32, size=[None, 3], stride=[3, 1]; 2 <= L['x'].size()[0]",
    }


def test_a_compilation_with_the_same_guards_on_its_inputs_says_nothing_new(run: Run) -> None:
    # global_guard.py: apply gets the same randn(5) twice (0/1 recompiled on the global MODE, not on x): one
    # line, under 0/0.
    for cid in (0, 1):
        assert "torch.float32, device=None, requires_grad=False, size=[5], stride=[1])" in _tree("global_guard", 0, cid)
    code, out, err = run("analyze", str(CAPTURES / "global_guard"), "--function", "apply")
    assert code == 0, err
    assert _inputs_lines(out) == {"0/0": "guards on inputs: L['x']: torch.float32, size=[5], stride=[1]"}


def test_a_resume_entry_says_the_values_it_carries(run: Run) -> None:
    # stack_slots.py: jitter's resume function carries a tensor and two floats across the break (___stack0..2);
    # 1/0 holds both floats as constants, 1/1 (recompiled on the second) only the first: the other is a symbol,
    # whose implicit NaN guard says nothing.
    assert "+- EQUALS_MATCH: L['___stack1'] == 1.0 " in _tree("stack_slots", 1, 0)
    assert "+- EQUALS_MATCH: L['___stack2'] == 0.8444218515250481 " in _tree("stack_slots", 1, 0)
    assert "+- EQUALS_MATCH: L['___stack1'] == 1.0 " in _tree("stack_slots", 1, 1)
    assert "EQUALS_MATCH: L['___stack2']" not in _tree("stack_slots", 1, 1)
    assert "+- LAMBDA_GUARD: not math.isnan(L['___stack2'])" in _tree("stack_slots", 1, 1)
    code, out, err = run("analyze", str(CAPTURES / "stack_slots"), "--by-function")
    assert code == 0, err
    got = _inputs_lines(out)
    tensor = "guards on inputs: L['___stack0']: torch.float32, size=[4], stride=[1]"
    assert got["1/0"] == f"{tensor}; L['___stack1'] == 1.0; L['___stack2'] == 0.8444218515250481"
    assert got["1/1"] == f"{tensor}; L['___stack1'] == 1.0"
    assert got["3/1"] == (
        "guards on inputs: L['___stack0']: torch.int64, size=[None], stride=[1]; 2 <= L['___stack0'].size()[0]"
    )


def test_the_run_report_json_carries_the_list(run: Run) -> None:
    t = _tree("rename_file_v1", 0, 1)
    assert "+- LAMBDA_GUARD: L['prompt'].stride()[0] == 4*L['prompt'].size()[1]  #" in t
    code, out, err = run("analyze", str(CAPTURES / "rename_file_v1"), "--function", "prefill", "--format", "json")
    assert code == 0, err
    (fn,) = json.loads(out)["functions"]
    by_id = {c["compile_id"]: c for c in fn["compilations"]}
    assert by_id["0/1"]["guards_on_inputs"] == [
        "L['prompt']: torch.float32, size=[1, None, 4], stride=[None, 4, 1]",
        "L['prompt'].stride()[0] == 4*L['prompt'].size()[1]",
        "2 <= L['prompt'].size()[1]",
    ]
    assert by_id["0/1"]["guards_on_inputs_omitted"] == 0 and by_id["0/1"]["guards_evidence_id"]
    assert by_id["0/0"]["guards_on_inputs"] == ["L['prompt']: torch.float32, size=[1, 5, 4], stride=[20, 4, 1]"]


def test_a_long_list_is_cut_by_whole_items_naming_the_rest_and_the_tree() -> None:
    from dynamo_diff_compare.run_report_view import INPUTS_LINE_CHARS, inputs_text

    # dynamic's 1/0 (explicit: both dims marked dynamic), its argument and shape guards as its tree writes them.
    items = ["L['x']: torch.float32, size=[None, None], stride=[None, 1]"]
    items += [g for g in re.findall(r"\+- LAMBDA_GUARD: (.*?)  #", _tree("dynamic", 1, 0)) if "L['x']" in g]
    assert len(items) == 4
    whole = inputs_text(items, 0, "u1-e16")
    assert whole == "guards on inputs: " + "; ".join(items) + " (ev u1-e16)" and len(whole) <= INPUTS_LINE_CHARS
    cut = inputs_text(items * 4, 2, "u1-e16")  # 16 items and 2 the reader left out
    assert len(cut) <= INPUTS_LINE_CHARS
    shown, tail = cut.removeprefix("guards on inputs: ").rsplit("; +", 1)
    assert shown.split("; ") == (items * 4)[: len(shown.split("; "))]
    assert tail == f"{16 - len(shown.split('; ')) + 2} more (ev u1-e16)"
