"""The user's line a failing guard or a graph break is about, on the line that reports it (analyze's text, both
views, and compare's rows), so that no `source` or `evidence` call is needed to see it. Expected values are read
from the raw trace with a regex and from the bundle's source snapshot, never from the analyser."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .conftest import Run, unwrapped

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "fixtures/captures"


def _raw(name: str) -> str:
    return "".join(p.read_text(encoding="utf-8") for p in sorted((CAPTURES / name / "raw").glob("*.log")))


def _snapshot_line(name: str, file: str, line: int) -> str:
    (path,) = (CAPTURES / name / "sources").rglob(file)
    return path.read_text(encoding="utf-8").splitlines()[line - 1].strip()


def test_a_failing_guard_says_the_user_line_torch_attributes_it_to(run: Run) -> None:
    # torch's recompile_reasons: `0/0: G['MODE'] == 'sin'   # if MODE == "sin":  # .../global_guard.py:17 in apply`
    (line,) = {
        int(n) for n in re.findall(r"^\t0/0: G\['MODE'\].*global_guard\.py:(\d+) in apply$", _raw("global_guard"), re.M)
    }
    code = _snapshot_line("global_guard", "global_guard.py", line)
    assert code.startswith("if MODE")
    at = f"at global_guard.py:{line}: {code}"
    code_, out, err = run("analyze", str(CAPTURES / "global_guard"))
    assert code_ == 0, err
    text = "\n".join(unwrapped(out))
    assert f"recompile [value]: 0/0: G['MODE'] == 'sin' {at}" in text
    # What the new entries were made for (global_guard.py: MODE "cos"; a float64 tensor of 5), in the raw guard
    # trees of 0/1 and 1/1 and on the text view's guard lines.
    raw = _raw("global_guard")
    assert (
        "EQUALS_MATCH: G['MODE'] == 'cos'" in raw and "torch.float64, device=None, requires_grad=False, size=[5]" in raw
    )
    # (the text view: on a line of its own, under the guard's, which is never wrapped)
    assert f"recompile [value]: 0/0: G['MODE'] == 'sin' {at}\n      made for: G['MODE'] == 'cos'\n" in text
    assert "actual Double\n      made for: L['x']: torch.float64, size=[5], stride=[1]\n" in text
    # The dtype guard's record names no user line: nothing is made up for it.
    (dtype,) = [s for s in text.splitlines() if "dtype mismatch" in s]
    assert " at " not in dtype.split("dtype mismatch", 1)[1]
    code_, out, err = run("analyze", str(CAPTURES / "global_guard"), "--by-function")
    assert code_ == 0, err
    # The new entry was made for MODE == "cos" (the workload's second value): said after the line.
    assert f"recompiled [value] 0/0: G['MODE'] == 'sin' {at} (made for: G['MODE'] == 'cos') (ev " in "\n".join(
        unwrapped(out, hang=4)
    )
    code_, out, err = run("analyze", str(CAPTURES / "global_guard"), "--by-function", "--format", "json")
    guards = [g for f in json.loads(out)["functions"] for c in f["compilations"] for g in c["recompile"]]
    assert {(g["category"], g["site"], g["code"]) for g in guards} == {
        ("value", f"global_guard.py:{line}", code),
        ("dtype", None, None),
    }


def test_a_graph_break_carries_the_text_of_its_line(run: Run) -> None:
    raw = _raw("data_breaks")
    lines = [int(n) for n in re.findall(r"Graph break in user code at \S*data_breaks\.py:(\d+)", raw)]
    assert len(lines) == 2
    for view in ((), ("--by-function",)):
        code_, out, err = run("analyze", str(CAPTURES / "data_breaks"), *view)
        assert code_ == 0, err
        text = " ".join(s.strip() for s in out.splitlines())
        for line in lines:
            assert f"its line: `{_snapshot_line('data_breaks', 'data_breaks.py', line)}`" in text, (view, line)


def test_a_comparison_row_says_where_its_guard_is(run: Run) -> None:
    raw = _raw("pair_dynamic_scalar_before")
    (first,) = re.findall(r"^\t(0/0: [^\n#]*?)\s+# .*model\.py:(\d+) in scaled$", raw, re.M)[:1]
    guard, line = first[0].strip(), int(first[1])
    code = _snapshot_line("pair_dynamic_scalar_before", "model.py", line)
    code_, out, err = run(
        "compare", str(CAPTURES / "pair_dynamic_scalar_before"), str(CAPTURES / "pair_dynamic_scalar_after")
    )
    assert code_ in (0, 1), err
    assert f"baseline: {guard} at model.py:{line}: {code}" in "\n".join(unwrapped(out, hang=4))


def test_a_recompiled_graph_says_it_is_dynamic_and_in_what(run: Run) -> None:
    """auto_dynamic_on: the second shape recompiles f with a symbolic first dimension. torch's create_symbol record
    names the symbol, the input dimension and its size; dynamo_output_graph's sizes print the symbol."""
    raw = _raw("auto_dynamic_on")
    made = [
        json.loads(line.split("] ", 1)[1])["create_symbol"] for line in raw.splitlines() if '"create_symbol"' in line
    ]
    assert len(made) == 1
    symbol, source, value = made[0]["symbol"], made[0]["source"], made[0]["val"]
    graphs = [json.loads(line.split("] ", 1)[1]) for line in raw.splitlines() if '{"dynamo_output_graph"' in line]
    dynamic = [g["frame_compile_id"] for g in graphs if symbol in json.dumps(g["dynamo_output_graph"]["sizes"])]
    assert dynamic == [1]  # the recompilation, 0/1
    said = f"dynamic: the graph has symbolic sizes: {symbol} = {source} ({value} when made)"
    for view in ((), ("--by-function",)):
        code, out, err = run("analyze", str(CAPTURES / "auto_dynamic_on"), *view)
        assert code == 0, err
        text = " ".join(" ".join(out.split()).split())
        assert text.count(said) == 1, (view, out)
    code, out, _ = run("analyze", str(CAPTURES / "auto_dynamic_on"), "--by-function", "--format", "json")
    compilations = [c for f in json.loads(out)["functions"] for c in f["compilations"]]
    assert [(c["compile_id"], [d["symbol"] for d in c["dynamic"]]) for c in compilations] == [
        ("0/0", []),
        ("0/1", [symbol]),
    ]
    # automatic_dynamic_shapes off: every recompilation is static, and nothing says dynamic.
    assert '{"create_symbol"' not in _raw("auto_dynamic_off")
    code, out, _ = run("analyze", str(CAPTURES / "auto_dynamic_off"))
    assert code == 0 and "dynamic:" not in out


def test_by_function_lists_every_compilation(run: Run) -> None:
    """graph_break: the resume functions compile with no failing guard, break or failure (each says only its guards
    on its inputs, its frame's first compilation); the listing still names each compilation the trace holds (a
    compilation left out without saying so reads as not there). ddp_ranks: rank 1's Net.forward guards its input
    as rank 0's does (the same check_tensor in both ranks' trees), so it has nothing to report."""
    ids = re.findall(r'"compilation_metrics": \{"compile_id": "([^"]+)"', _raw("graph_break"))
    assert len(ids) == 4
    code, out, err = run("analyze", str(CAPTURES / "graph_break"), "--by-function")
    assert code == 0, err
    text = "\n".join(unwrapped(out))
    for cid in ids:
        assert re.search(rf"(?<![\d/]){re.escape(cid)} (\S+ )?(completed|no_graph_observed|failed)\b", text), cid
    checks = set(re.findall(r"TENSOR_MATCH: check_tensor\(L\['x'\], .*?\)  #", _raw("ddp_ranks")))
    assert len(checks) == 1  # the same guard on x in every tree that has one, on both ranks
    code, out, err = run("analyze", str(CAPTURES / "ddp_ranks"), "--by-function")
    assert code == 0, err
    text = "\n".join(unwrapped(out))
    assert "other compilations, nothing to report: rank 1 4/0 completed" in text


def test_a_break_in_a_bare_trace_says_its_line_from_the_record(run: Run, tmp_path: Path) -> None:
    """A bare trace (the log alone, no source snapshot): the break's line text is the one torch's record prints
    under the frame of its user traceback, read here with a regex over the trace."""
    (log,) = (CAPTURES / "graph_break" / "raw").glob("*.log")
    raw = log.read_text(encoding="utf-8")
    sites = re.findall(r"^\tGraph break in user code at (\S+):(\d+)$", raw, re.M)
    assert len(sites) == 2
    expected = set()
    for file, line in sites:
        (code,) = set(re.findall(rf'^\t  File "{re.escape(file)}", line {line}, in \w+\n\t    (.+)$', raw, re.M))
        expected.add(code.strip())
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / log.name).write_text(raw, encoding="utf-8")
    code_, out, err = run("analyze", str(bare))
    assert code_ == 0, err
    text = " ".join(out.split())  # (the terminal wraps a long line at a space: compared with spaces collapsed)
    for code in expected:
        assert f"its line: `{' '.join(code.split())}`" in text, code
    code_, out, err = run("analyze", str(bare), "--by-function", "--format", "json")
    assert code_ == 0, err
    found = {gb["code"] for f in json.loads(out)["functions"] for c in f["compilations"] for gb in c["graph_breaks"]}
    assert found == expected
