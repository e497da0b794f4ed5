"""A compilation that failed before it had a graph is passed over when a frame's next compilation says only what
changed: failed_between's 0/2 has the guards on values and the ATen ops of 0/0 (read here from the raw guard trees
and AOT forward graphs), so it says neither line again, though 0/1 (failed, no graph) came between them."""

from __future__ import annotations

import json
import re
from collections import Counter

from .conftest import Run, unwrapped
from .test_break_words import log_of, records

NAME = "failed_between"


def _by_compile(kind: str) -> dict[str, str]:
    """Compile id -> the payload of its last record of `kind` (a dynamo_cpp_guards_str or a graph)."""
    out: dict[str, str] = {}
    for meta, payload in records(log_of(NAME)):
        if kind in meta:
            out[f"{meta['frame_id']}/{meta['frame_compile_id']}"] = payload
    return out


def _blocks(out: str) -> dict[str, list[str]]:
    """Compile id -> the lines under its compilation line."""
    blocks: dict[str, list[str]] = {}
    cid = None
    for line in unwrapped(out):
        s = line.strip()
        if m := re.match(r"^(\d+/\d+) (completed|failed)\b", s):
            cid = m[1]
            blocks[cid] = []
        elif cid is not None:
            blocks[cid].append(s)
    return blocks


def test_a_failed_compilation_between_two_alike_is_passed_over(run: Run) -> None:
    oracle = json.loads((log_of(NAME).parents[1] / "oracle.json").read_text(encoding="utf-8"))
    assert oracle["expect"]["compilations"] == 3 and oracle["expect"]["failures"] == 1
    assert [n for n in oracle["notes"] if "caught" in n] == ["step 2: TorchRuntimeError caught"]
    trees = _by_compile("dynamo_cpp_guards_str")
    assert sorted(trees) == ["0/0", "0/2"]  # the failed 0/1 installed no guards
    values = {cid: sorted(re.findall(r"EQUALS_MATCH: (L\['self'\]\.\w+ == \S+)", t)) for cid, t in trees.items()}
    assert values["0/0"] == values["0/2"] == ["L['self'].start == 1"]
    graphs = _by_compile("aot_forward_graph")
    ops = {cid: Counter(re.findall(r"torch\.ops\.aten\.(\w+)\.", g)) for cid, g in graphs.items()}
    assert sorted(ops) == ["0/0", "0/2"] and ops["0/0"] == ops["0/2"]
    code, out, err = run("analyze", str(log_of(NAME).parents[1]), "--by-function")
    assert code == 0, err
    blocks = _blocks(out)
    assert sorted(blocks) == ["0/0", "0/1", "0/2"]
    first, later = blocks["0/0"], blocks["0/2"]
    assert any(s.startswith("guards on values: L['self'].start == 1 (ev ") for s in first)
    assert any(s.startswith("aten ops: forward ") for s in first)
    assert not any(s.startswith(("guards on values:", "aten ops:")) for s in later), later
    assert any(s.startswith("graph: 4 ops, the kinds and counts of 0/0's") for s in later), later
    (inputs,) = [s for s in later if s.startswith("guards on inputs: ")]
    assert re.search(r" \(ev u\d+-e\d+\)$", inputs)  # its own guard tree's record, the values line not said
