"""`guards on values:`: what the arguments hold, cut at a few items, puts the settings torch's own modules were built
with (a conv's stride, padding, dilation, groups; a norm's eps and normalized_shape) after the user's values,
counted as one item, so a list of gains the program changes is on the line and not counted in `+N more`.
module_settings.py: `pre.gain` is [1.0, 0.5] at steps 0-1 and [0.25, 2.0] at step 2 (the workload's own record); the
guard leaves are read here from the raw guard trees (the second entry guards the gains' types: torch made them
symbolic floats)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .conftest import Run, unwrapped

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"
NAME = "module_settings"


def _trees() -> list[list[str]]:
    """Each dynamo_cpp_guards_str record's leaves (`EQUALS_MATCH: ...`), the user-code comment left off."""
    (raw,) = (CAPTURES / NAME / "raw").glob("*.log")
    trees: list[list[str]] = []
    inside = False
    for line in raw.read_text(encoding="utf-8").splitlines():
        if '{"dynamo_cpp_guards_str"' in line:
            trees.append([])
            inside = True
        elif inside and line.startswith("\t"):
            if m := re.search(r"\+- ([A-Z_]+: .*?)\s*(?:#.*)?$", line):
                trees[-1].append(m[1])
        else:
            inside = False
    return trees


def test_the_users_values_come_before_the_modules_settings(run: Run) -> None:
    oracle = json.loads((CAPTURES / NAME / "oracle.json").read_text(encoding="utf-8"))
    gains = oracle["gains"]
    assert gains[0] == gains[1] != gains[2] and oracle["backend_invocations"] == 2
    trees = _trees()
    assert len(trees) == 2
    # 0/0 guards each gain's value; 0/1 (the gains' second values: torch made them symbolic floats, graph inputs)
    # each gain's type.
    expected = {
        "0/0": [f"L['self']._modules['pre'].gain[{i}] == {v}" for i, v in enumerate(gains[0])],
        "0/1": [f"L['self']._modules['pre'].gain[{i}]: float" for i in range(len(gains[2]))],
    }
    for i, v in enumerate(gains[0]):
        assert f"EQUALS_MATCH: L['self']._modules['pre'].gain[{i}] == {v}" in trees[0]
        assert not any(f"gain[{i}] ==" in leaf for leaf in trees[1])
        assert any(
            re.match(
                rf"TYPE_MATCH: ___check_type_id\(L\['self'\]._modules\['pre'\].gain\[{i}\], \d+\), "
                r"type=<class 'float'>",
                leaf,
            )
            for leaf in trees[1]
        )
    for tree in trees:
        # The conv's and the norm's settings are guarded too: more items than the line holds.
        assert any(re.search(r"_modules\['conv'\]\.(stride|padding|dilation|groups)", leaf) for leaf in tree)
        assert any(re.search(r"_modules\['norm'\]\.(eps|normalized_shape)", leaf) for leaf in tree)
    code, out, err = run("analyze", str(CAPTURES / NAME), "--by-function")
    assert code == 0, err
    lines: dict[str, str] = {}
    cid = None
    for line in unwrapped(out):
        s = line.strip()
        if m := re.match(r"^(\d+/\d+)\b", s):
            cid = m[1]
        elif s.startswith("guards on values: ") and cid is not None:
            lines[cid] = s
    assert set(lines) == {"0/0", "0/1"}
    for tree, (cid, said) in zip(trees, expected.items(), strict=True):
        # The settings' guards on values (their tuples' type checks are not values): counted, one item, last.
        settings = [
            leaf
            for leaf in tree
            if re.match(r"(EQUALS_MATCH|LENGTH_CHECK): .*_modules\['(conv|norm)'\]\.(?!_|training)", leaf)
        ]
        items = re.sub(r" \(ev u\d+-e\d+\)$", "", lines[cid]).removeprefix("guards on values: ").split("; ")
        assert items[-1] == f"{len(settings)} on submodule settings (conv, norm)", lines[cid]
        assert set(said) <= set(items[:-1]) and not any("['conv']" in i or "['norm']" in i for i in items), lines[cid]


def test_the_values_line_counts_only_values_left_out(run: Run) -> None:
    """size_ranges: the dynamic entry has many shape guards on the length (more than the inputs line keeps) and one
    guard on what the arguments hold (`L['self'].block == 8`), both read here from the raw trees: the shape guards
    left out are counted on `guards on inputs:`, never on `guards on values:`."""
    name = "size_ranges"
    (raw,) = (CAPTURES / name / "raw").glob("*.log")
    text = raw.read_text(encoding="utf-8")
    values = set(re.findall(r"EQUALS_MATCH: (L\['self'\]\.\w+ == \S+)", text))
    assert values == {"L['self'].block == 8"}
    # The guards naming the argument's own sizes or strides (a view's `_base` is another source), each once.
    shape = {
        m for m in re.findall(r"LAMBDA_GUARD: (.*?)\s+#", text) if re.search(r"L\['feats'\]\.(?:size|stride)\(\)", m)
    }
    assert len(shape) > 10
    code, out, err = run("analyze", str(CAPTURES / name), "--by-function")
    assert code == 0, err
    said = [line.strip() for line in unwrapped(out)]
    assert [s for s in said if s.startswith("guards on values: ")] == [
        "guards on values: L['self'].block == 8 (ev u1-e4)"
    ]
    (inputs,) = [s for s in said if s.startswith("guards on inputs: ") and "None" in s]
    m = re.search(r"; \+(\d+) more(?: \(ev u\d+-e\d+\))?$", inputs)  # the tree's id: its values line is 0/0's
    assert m is not None, inputs
    shown = inputs.removeprefix("guards on inputs: ")[: m.start() - len("guards on inputs: ")].split("; ")[1:]
    assert set(shown) <= shape and len(shown) + int(m[1]) == len(shape), inputs
