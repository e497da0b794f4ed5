"""What a recompiled graph bakes in differently: the literal arguments of its calls that differ from its frame's
previous graph (`graph arguments against 0/0: clamp(max) 0.5 -> 1.5`). Expected values are read by the test from
each compilation's last `dynamo_output_graph` record with a regular expression on torch's own code text, never from
the analyser; the workloads' oracles say which values ran."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .conftest import Run, unwrapped
from .test_break_words import log_of, records


def _graphs(name: str, pattern: str) -> dict[str, str]:
    """Compile id -> the value `pattern` captures in its graph's code (the last attempt's graph wins)."""
    out: dict[str, str] = {}
    for meta, payload in records(log_of(name)):
        if "dynamo_output_graph" not in meta:
            continue
        cid = f"{meta['frame_id']}/{meta['frame_compile_id']}"
        found = re.findall(pattern, payload)
        if found:
            out[cid] = found[0]
    return out


def _said(out: str) -> dict[str, str]:
    """Compile id -> its `graph arguments against ...` line."""
    said: dict[str, str] = {}
    cid = None
    for line in unwrapped(out):
        s = line.strip()
        if m := re.match(r"^(\d+/\d+)\b", s):
            cid = m[1]
        elif s.startswith("graph arguments against ") and cid is not None:
            said[cid] = s
    return said


def test_a_float_baked_in_again_says_its_old_and_new_value(run: Run) -> None:
    """tensorify_restart: `torch.clamp(x, max=limit)` with limit 0.5, 1.5, 2.5 (clamp's max takes a Python number,
    so each value is a constant of its graph); each recompilation says the value its graph has instead."""
    oracle = json.loads((log_of("tensorify_restart").parents[1] / "oracle.json").read_text(encoding="utf-8"))
    assert oracle["expect"]["compilations"] == 3
    values = _graphs("tensorify_restart", r"clamp\([^\n]*max = (-?[\d.]+)\)")
    assert sorted(values) == ["0/0", "0/1", "0/2"] and len(set(values.values())) == 3
    code, out, err = run("analyze", str(log_of("tensorify_restart").parents[1]), "--by-function")
    assert code == 0, err
    assert _said(out) == {
        "0/1": f"graph arguments against 0/0: clamp(max) {values['0/0']} -> {values['0/1']}",
        "0/2": f"graph arguments against 0/1: clamp(max) {values['0/1']} -> {values['0/2']}",
    }


def test_a_positional_int_and_the_json_document(run: Run) -> None:
    """after_raise: `torch.topk(scores, K)` with a module-level K; the recompiled graph's k, by position (the second
    argument is `arg 1`), and the document's `graph_literals_changed` / `graph_literals_against`."""
    values = _graphs("after_raise", r"topk\(\w+, (\d+)")
    assert len(values) == 2 and len(set(values.values())) == 2
    first, second = sorted(values)
    capture = str(log_of("after_raise").parents[1])
    code, out, err = run("analyze", capture, "--by-function")
    assert code == 0, err
    assert _said(out) == {second: f"graph arguments against {first}: topk(arg 1) {values[first]} -> {values[second]}"}
    code, out, err = run("analyze", capture, "--by-function", "--format", "json")
    assert code == 0, err
    lines = [c for fn in json.loads(out)["functions"] for c in fn["compilations"]]
    changed = {c["compile_id"]: (c.get("graph_literals_against"), c.get("graph_literals_changed")) for c in lines}
    assert changed[second] == (first, [f"topk(arg 1) {values[first]} -> {values[second]}"])
    assert changed[first] == (None, [])


def test_a_restarted_attempt_says_what_its_graph_held(run: Run) -> None:
    """tensorify_restart: at 0/1 the backend (the workload's own record) was handed two graphs: the first took one
    more input (the float `limit` as a 0-d tensor) and an `item` op, and raised; the second is the one kept. The
    compilation says what the replaced graph held that the kept one has not, with its record."""
    oracle = json.loads((log_of("tensorify_restart").parents[1] / "oracle.json").read_text(encoding="utf-8"))
    by_id: dict[str, list[dict[str, object]]] = {}
    for graph in oracle["backend_graphs"]:
        by_id.setdefault(str(graph["compile_id"]), []).append(graph)
    ((cid, (first, kept)),) = [(c, gs) for c, gs in by_id.items() if len(gs) == 2]
    assert first["raised"] and not kept["raised"]
    extra_ops = [op for op in first["ops"] if op not in kept["ops"]]  # type: ignore[attr-defined]
    extra_inputs = int(first["num_placeholders"]) - int(kept["num_placeholders"])  # type: ignore[call-overload]
    assert extra_ops == ["item"] and extra_inputs == 1
    code, out, err = run("analyze", str(log_of("tensorify_restart").parents[1]), "--by-function")
    assert code == 0, err
    said: dict[str, str] = {}
    at = None
    for line in unwrapped(out):
        s = line.strip()
        if m := re.match(r"^(\d+/\d+)\b", s):
            at = m[1]
        elif s.startswith("attempt 0's graph (replaced at the restart) ") and at is not None:
            said[at] = s
    assert list(said) == [cid]
    m = re.fullmatch(
        r"attempt 0's graph \(replaced at the restart\) took (?P<inputs>.+), an input the kept graph has not; ops "
        r"the kept graph has not: (?P<ops>.+) \(ev u\d+-e\d+\)",
        said[cid],
    )
    assert m is not None, said[cid]
    assert len(m["inputs"].split("; ")) == extra_inputs and m["inputs"].endswith(": f64[][]")  # a 0-d float64
    assert [k.rsplit(" ", 1)[0].removeprefix("Tensor.") for k in m["ops"].split(", ")] == extra_ops


def test_a_restart_whose_kept_graph_was_cut_compares_nothing(run: Run, tmp_path: Path) -> None:
    """tensorify_restart's log cut a few lines into 0/1's second graph (the one kept), imported as a bare log: that
    graph is partial, so the replaced attempt's inputs are said and nothing is compared with it."""
    lines = log_of("tensorify_restart").read_text(encoding="utf-8").splitlines(keepends=True)
    graphs = [i for i, line in enumerate(lines) if '"dynamo_output_graph"' in line and not line.startswith("\t")]
    second_of_0_1 = graphs[2]  # 0/0, then 0/1's attempts 0 and 1
    assert '"frame_compile_id": 1' in lines[second_of_0_1] and '"attempt": 1' in lines[second_of_0_1]
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "dedicated_log_torch_trace_cut.log").write_text("".join(lines[: second_of_0_1 + 4]), encoding="utf-8")
    code, out, err = run("analyze", str(logs), "--by-function")
    assert code == 0, err
    (said,) = [s.strip() for s in unwrapped(out) if "(replaced at the restart)" in s]
    assert "not compared with the kept graph (its compilation never finished)" in said, said
    assert "the kept graph has not" not in said and ": f64[][]" in said
