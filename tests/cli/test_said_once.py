"""`analyze --by-function`: what a text has said whole it says short the next time, naming where it said it: a
graph break at the same site for the same reason (`the same as 4/0`), and what torch does with a failed
compilation's error (`the error reached the program, as for 0/0`). With `--source` the code around each call is
named by its lines in the script that follows instead of quoted. Expected counts come from the raw trace's own
records, and lines from the script snapshots, never from the analyser."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from .conftest import Run, unwrapped

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def _raw(name: str) -> str:
    (log,) = (CAPTURES / name / "raw").glob("*.log")
    return log.read_text(encoding="utf-8")


def test_a_graph_break_is_said_whole_once_a_text(run: Run) -> None:
    # resume_locals.py: each of three functions breaks at its own torch._dynamo.graph_break() line; two of them are
    # compiled again (a recompile), so their break is recorded twice.
    records = re.findall(
        r'"name": "dynamo_graph_break_reason".*\n\tGraph break in user code at .*resume_locals\.py:(\d+)',
        _raw("resume_locals"),
    )
    by_line = Counter(int(n) for n in records)
    assert by_line == {22: 2, 28: 1, 34: 2}
    code, out, err = run("analyze", str(CAPTURES / "resume_locals"), "--by-function")
    assert code == 0, err
    text = " ".join(line.strip() for line in unwrapped(out))
    for line, n in by_line.items():
        whole = re.findall(rf"graph break at resume_locals\.py:{line}: Call to `torch\._dynamo\.graph_break\(\)`", text)
        short = re.findall(rf"graph break at resume_locals\.py:{line}: the same as (\d+/\d+) \(ev (u1-e\d+)\)", text)
        assert len(whole) == 1 and len(short) == n - 1, (line, whole, short)
        for said_at, evidence in short:
            assert re.search(rf"\b{re.escape(said_at)} \w+.*?graph break at resume_locals\.py:{line}: Call to", text)
            code, out, err = run("evidence", str(CAPTURES / "resume_locals"), evidence, "--max-chars", "400")
            assert code == 0 and f"resume_locals.py:{line}" in out, out


def test_what_torch_did_after_a_failure_is_said_whole_once(run: Run) -> None:
    # custom_op_no_fake.py: the custom op without a fake implementation fails each of the three calls' compilations;
    # each error is raised into the program, which catches it and goes on.
    oracle = json.loads((CAPTURES / "custom_op_no_fake" / "oracle.json").read_text(encoding="utf-8"))
    assert [e["type"] for e in oracle["exceptions"]] == ["TorchRuntimeError"] * 3  # the workload caught each
    code, out, err = run("analyze", str(CAPTURES / "custom_op_no_fake"), "--by-function")
    assert code == 0, err
    text = " ".join(line.strip() for line in unwrapped(out))
    assert text.count("the error reached the program (torch.compile did not suppress it)") == 1
    assert text.count("the error reached the program, as for 0/0;") == 2


def test_with_source_the_loop_is_named_by_its_lines_in_the_script(run: Run) -> None:
    code, plain, err = run("analyze", str(CAPTURES / "loop_skip"), "--by-function")
    assert code == 0, err
    code, with_source, err = run("analyze", str(CAPTURES / "loop_skip"), "--by-function", "--source")
    assert code == 0, err
    assert re.search(r"the loop loop_skip\.py:\d+ runs in:\n +\d+ ", plain)
    named = re.search(
        r"the loop loop_skip\.py:(\d+) runs in: lines (\d+)-(\d+) of loop_skip\.py \(the script below\)", with_source
    )
    assert named is not None, with_source
    (snapshot,) = (CAPTURES / "loop_skip" / "sources").rglob("loop_skip.py")
    lines = snapshot.read_text(encoding="utf-8").splitlines()
    call, first, last = (int(n) for n in named.groups())
    assert lines[first - 1].lstrip().startswith(("for ", "while ")) and last == call
    assert f"\n{first:>{len(str(len(lines)))}} | {lines[first - 1]}" in with_source  # the script holds them
