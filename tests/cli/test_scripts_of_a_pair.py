"""`analyze A B --source`: the second run of a before/after pair shows its script as the lines that differ from the
first's (dynamic_flag_v1/v2 differ in a docstring line, a comment and the `dynamic=` argument), and a helper both
runs captured unchanged as the same; the changed lines are read here from the two snapshots with difflib."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from .conftest import Run

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def test_the_second_run_of_a_pair_shows_what_its_script_changed(run: Run) -> None:
    old = (CAPTURES / "dynamic_flag_v1/sources/model.py").read_text(encoding="utf-8").splitlines()
    new = (CAPTURES / "dynamic_flag_v2/sources/model.py").read_text(encoding="utf-8").splitlines()
    removed, added = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "equal":
            removed += [(n + 1, old[n]) for n in range(i1, i2)]
            added += [(n + 1, new[n]) for n in range(j1, j2)]
    assert any("dynamic=True" in line for _, line in added)
    code, out, err = run(
        "analyze", str(CAPTURES / "dynamic_flag_v1"), str(CAPTURES / "dynamic_flag_v2"), "--by-function", "--source"
    )
    assert code == 0, err
    second = out[out.index("dynamic_flag_v2") :]
    head = next(line for line in second.splitlines() if line.startswith("-- model.py"))
    assert head.startswith("-- model.py (49 lines): model.py of dynamic_flag_v1 above but for these lines")
    body = second.splitlines()
    start = body.index(head) + 1
    said = body[start : start + len(removed) + len(added)]
    assert sorted(said) == sorted(
        [f"-{n:>2} | {line}" for n, line in removed] + [f"+{n:>2} | {line}" for n, line in added]
    )
    # Nothing of the file is shown whole, and the helper module both runs captured is named, not shown again.
    rest = body[start + len(said) :]
    assert not any(re.match(r"^ *\d+ \| ", line) for line in rest)
    assert any(line.startswith("-- ") and "_oracle.py (" in line and ": the same as " in line for line in rest)
