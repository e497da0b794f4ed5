"""`accepts: L['feats'].size()[2] 9 and up`: the sizes an entry serves, from its symbolic shape guards on each size
alone, tried up to ±4096 (sizes from 0). size_ranges.py asks each cache entry's own guard check (torch's, after the
run) which lengths it accepts and records them in its oracle: the line must say exactly those."""

from __future__ import annotations

import json
import re
from pathlib import Path

from dynamo_diff_store.analysis._size_ranges import size_ranges

from .conftest import Run, unwrapped

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"
NAME = "size_ranges"
TRIED = 4096


def _sizes(said: str) -> set[int]:
    """`9 and up` / `2-7, 12` / `16, 24, 32, ... (step 8) and up` -> the sizes from 0 to TRIED it names."""
    if m := re.fullmatch(r"(\d+), (\d+), (\d+), \.\.\. \(step (\d+)\)(?: and up| to (\d+))", said):
        last = int(m[5]) if m[5] else TRIED
        return set(range(int(m[1]), last + 1, int(m[4])))
    out: set[int] = set()
    for part in said.split(", "):
        if m := re.fullmatch(r"(\d+) and up", part):
            out |= set(range(int(m[1]), TRIED + 1))
        elif m := re.fullmatch(r"(\d+)-(\d+)", part):
            out |= set(range(int(m[1]), int(m[2]) + 1))
        else:
            assert part.isdigit(), said
            out.add(int(part))
    return out


def test_the_sizes_an_entry_accepts_are_those_its_guard_check_accepts(run: Run) -> None:
    oracle = json.loads((CAPTURES / NAME / "oracle.json").read_text(encoding="utf-8"))
    accepted = {cid: set(sizes) for cid, sizes in oracle["accepted"].items()}
    # The static entry serves its one length; the dynamic one every length its guards allow (torch's own check).
    assert accepted["0/0"] == {13} and min(accepted["0/1"]) > 2 and {16, 21, 30} <= accepted["0/1"]
    code, out, err = run("analyze", str(CAPTURES / NAME), "--by-function")
    assert code == 0, err
    lines: dict[str, str] = {}
    cid = None
    for line in unwrapped(out):
        s = line.strip()
        if m := re.match(r"^(\d+/\d+)\b", s):
            cid = m[1]
        elif s.startswith("accepts: ") and cid is not None:
            lines[cid] = s
    # 0/0's length is static (its TENSOR_MATCH says 13): no line; 0/1's says the oracle's lengths.
    assert list(lines) == ["0/1"]
    m = re.fullmatch(
        r"accepts: L\['feats'\]\.size\(\)\[2\] (.+?) \(its guards on each alone, tried up to ±4096.*\)", lines["0/1"]
    )
    assert m, lines["0/1"]
    assert _sizes(m[1]) == accepted["0/1"]
    code, out, err = run("analyze", str(CAPTURES / NAME), "--by-function", "--format", "json")
    assert code == 0, err
    (fn,) = json.loads(out)["functions"]
    said = {c["compile_id"]: c["sizes_accepted"] for c in fn["compilations"]}
    assert said == {"0/0": [], "0/1": [f"L['feats'].size()[2] {m[1]}"]}


def test_only_integer_arithmetic_is_tried() -> None:
    # A guard that is not integer arithmetic over the size is never run: that size says nothing.
    size = "L['x'].size()[0]"
    assert size_ranges([f"2 <= {size}", f"{size} != __import__('os').getpid()"]) == ([], 0)
    assert size_ranges([f"2 <= {size}", f"{size} < 0.5"]) == ([], 0)
    # Two guards of one size: what passes both; a guard relating two sizes is counted.
    other = "L['y'].size()[0]"
    assert size_ranges([f"2 <= {size}", f"({size} % 8) == 0", f"{size} == {other}"]) == (
        [f"{size} 8, 16, 24, ... (step 8) and up"],
        1,
    )
    assert size_ranges([f"{size} != 1", f"1 <= {size} <= 20"]) == ([f"{size} 2-20"], 0)
    # A few values are each said; an int torch made symbolic, an item of a tuple argument, is tried the same way.
    n, item = "L['n']", "L['shape'][1]"
    assert size_ranges([f"0 <= {n}", f"{n} != 1", f"(64 % {n}) == 0", f"{n} != 64"]) == ([f"{n} 2, 4, 8, 16, 32"], 0)
    assert size_ranges([f"20 <= {item}", f"{item} != 20"]) == ([f"{item} 21 and up"], 0)
    # An int may be negative (a roll's shift): tried from -4096; a size from 0.
    k = "L['k']"
    assert size_ranges([f"{k} < 0 and {k} >= -23", f"((-1)*{k}) != 1"]) == ([f"{k} -23 to -2"], 0)
    assert size_ranges([f"{k} <= -1", f"((-1)*{k}) != 1"]) == ([f"{k} -2 and below"], 0)
    assert size_ranges([f"{k} != 0", f"{k} != 1"]) == ([f"{k} -1 and below, 2 and up"], 0)
    assert size_ranges([f"{size} <= -1", f"{size} != 3"]) == ([f"{size} none"], 0)
    # A division by zero fails the guard, as torch's own check would.
    # An expression nested past what Python compiles (a damaged or hostile trace) is not tried, and does not crash.
    deep = "(" + size + "+1" * 990 + ") > 2"
    assert size_ranges([deep, f"{size} != 5"]) == ([], 0)
    # x // 8 in 6..8; 0-7 divide by zero.
    assert size_ranges([f"2 <= {size}", f"(16 // ({size} // 8)) == 2"]) == ([f"{size} 48-71"], 0)


def test_the_shifts_an_entry_accepts_are_those_its_guard_check_accepts(run: Run) -> None:
    """shift_ranges: `torch.roll(x, shifts=k)` under dynamic=True, k = 3, -2, 5; each entry's guards on the shift
    relate it to the input's length (`L['k'] <= L['x'].size()[1]`): tried with the length the entry was made for,
    they say exactly the shifts torch's own guard check accepts for an input of that shape, negative ones too."""
    oracle = json.loads((CAPTURES / "shift_ranges" / "oracle.json").read_text(encoding="utf-8"))
    accepted = {cid: set(ks) for cid, ks in oracle["accepted"].items()}
    assert set(accepted) == {"0/0", "0/1"} and {3, 5} <= accepted["0/0"] and -2 in accepted["0/1"]
    code, out, err = run("analyze", str(CAPTURES / "shift_ranges"), "--by-function")
    assert code == 0, err
    said: dict[str, str] = {}
    cid = None
    for line in unwrapped(out):
        s = line.strip()
        if m := re.match(r"^(\d+/\d+)\b", s):
            cid = m[1]
        elif s.startswith("accepts: ") and cid is not None:
            said[cid] = s
    assert set(said) == {"0/0", "0/1"}
    for cid, line in said.items():
        m = re.fullmatch(r"accepts: L\['k'\] (.+?) \(L\['x'\]\.size\(\)\[1\] = 24, as made\) \(.*\)", line)
        assert m, line
        assert _values(m[1]) == accepted[cid], line


def _values(said: str) -> set[int]:
    """`1-24`, `-24 to -1`, `-2 and below`, `9 and up` (runs, comma-separated) -> the ints from -TRIED to TRIED."""
    out: set[int] = set()
    for part in said.split(", "):
        if m := re.fullmatch(r"(-?\d+) and up", part):
            out |= set(range(int(m[1]), TRIED + 1))
        elif m := re.fullmatch(r"(-?\d+) and below", part):
            out |= set(range(-TRIED, int(m[1]) + 1))
        elif m := re.fullmatch(r"(-?\d+)(?:-| to )(-?\d+)", part):
            out |= set(range(int(m[1]), int(m[2]) + 1))
        else:
            out.add(int(part))
    return out
