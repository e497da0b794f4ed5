"""What Inductor generated for a compilation (its `inductor_output_code` modules): what `call` takes, the weights
freezing folded in, the kernels and the library kernels it calls. Expected values are read by the test from the
raw trace with Python's own parser (`ast`), never from the analyser; the workloads' oracles say what ran."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

from .conftest import Run, unwrapped
from .test_break_words import flat, log_of, records

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def _dotted(node: ast.expr) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def modules(name: str) -> list[dict[str, Any]]:
    """Each generated module of the capture, read with `ast`: the names `call` unpacks from `args`, the module-level
    `_frozen_param*` names, the kernels assigned from `async_compile` and how often each is run, the library calls
    of `call`."""
    out = []
    for meta, payload in records(log_of(name)):
        if "inductor_output_code" not in meta:
            continue
        tree = ast.parse(payload)
        frozen = [
            t.id
            for node in tree.body
            if isinstance(node, ast.Assign)
            for t in node.targets
            if isinstance(t, ast.Name) and t.id.startswith("_frozen_param")
        ]
        kernels = [
            node.targets[0].id
            for node in tree.body
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and _dotted(node.value.func).startswith("async_compile.")
            and isinstance(node.targets[0], ast.Name)
        ]
        (call,) = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "call"]
        (unpack,) = [
            n for n in call.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id == "args"
        ]
        target = unpack.targets[0]
        inputs = len(target.elts) if isinstance(target, ast.Tuple) else 1
        calls: dict[str, int] = {}
        for n in ast.walk(call):
            if isinstance(n, ast.Call):
                d = _dotted(n.func)
                if d.startswith("extern_kernels."):
                    key = d.split(".", 1)[1]
                elif d.startswith("torch.ops."):
                    ns, op = d.split(".")[2:4]
                    key = op if ns == "aten" else f"{ns}.{op}"
                else:
                    continue
                calls[key] = calls.get(key, 0) + 1
        # Each kernel's runs: `kernel(...)` (C++) or `kernel.run(...)` (Triton), anywhere in the module.
        runs = dict.fromkeys(kernels, 0)
        for n in ast.walk(tree):
            if isinstance(n, ast.Call):
                d = _dotted(n.func).removesuffix(".run")
                if d in runs:
                    runs[d] += 1
        out.append({"inputs": inputs, "frozen": frozen, "kernels": kernels, "calls": calls, "runs": runs})
    return out


def _compilations(run: Run, name: str) -> list[dict[str, Any]]:
    code, out, err = run("analyze", str(CAPTURES / name), "--by-function", "--format", "json")
    assert code == 0, err
    return [c for fn in json.loads(out)["functions"] for c in fn["compilations"]]


def test_freezing_folds_the_weights_into_the_code_and_call_takes_the_input_alone(run: Run) -> None:
    oracle = json.loads((CAPTURES / "inductor_freezing/oracle.json").read_text(encoding="utf-8"))
    # One graph, compiled once; the load at step 2 compiled nothing, and the compiled scores drifted from eager.
    assert oracle["backend_invocations"] == 1 and oracle["stale_after_load"] is True
    (module,) = modules("inductor_freezing")
    assert module["inputs"] == 1 and len(module["frozen"]) == 7  # Head's 6 parameters (two prepacked for mkl)
    (comp,) = _compilations(run, "inductor_freezing")
    (code,) = comp["inductor_code"]
    assert code["inputs"] == module["inputs"]
    assert code["frozen_params"] == len(module["frozen"])
    assert code["kernels"] == module["kernels"] and code["kernels_total"] == len(module["kernels"])
    assert code["extern_calls"] == module["calls"] == {"mkl._mkl_linear": 2}
    assert code["kernel_calls"] == module["runs"] == dict.fromkeys(module["kernels"], 1)
    _, out, _ = run("analyze", str(CAPTURES / "inductor_freezing"), "--by-function")
    (line,) = [s for s in unwrapped(out) if s.strip().startswith("inductor code:")]
    assert flat(line).startswith(
        f"inductor code: call takes 1 input; 7 frozen params (weights folded into the code, not read at each call); "
        f"2 kernels: {', '.join(module['kernels'])}; calls mkl._mkl_linear 2 (ev "
    )


def test_a_training_graph_says_the_forwards_and_the_backwards_code(run: Run) -> None:
    """training: one compilation of MLP.forward under Inductor; its forward module is written when it compiles, its
    backward's at the first .backward(): both belong to the compilation, in that order."""
    forward, backward = modules("training")
    (comp,) = _compilations(run, "training")
    assert [(c["inputs"], c["kernels"], c["extern_calls"]) for c in comp["inductor_code"]] == [
        (m["inputs"], m["kernels"], m["calls"]) for m in (forward, backward)
    ]
    assert all(c["frozen_params"] == 0 for c in comp["inductor_code"])
    _, out, _ = run("analyze", str(CAPTURES / "training"), "--by-function")
    (line,) = [flat(s) for s in unwrapped(out) if s.strip().startswith("inductor code:")]
    assert line.startswith(f"inductor code: forward: call takes {forward['inputs']} inputs; ")
    assert f" | backward: call takes {backward['inputs']} inputs; " in line


def test_an_eager_backend_writes_no_generated_code(run: Run) -> None:
    assert not modules("float_attribute")
    assert all(c["inductor_code"] == [] for c in _compilations(run, "float_attribute"))
    _, out, _ = run("analyze", str(CAPTURES / "float_attribute"), "--by-function")
    assert "inductor code:" not in out


def test_a_kernel_inductor_runs_once_per_head_says_how_many_times(run: Run) -> None:
    """inductor_heads: a Python loop over 4 heads, unrolled into one graph; Inductor writes one softmax kernel and
    runs it once per head, and calls the library's bmm twice per head."""
    oracle = json.loads((CAPTURES / "inductor_heads/oracle.json").read_text(encoding="utf-8"))
    heads = oracle["heads"]
    assert heads == 4 and oracle["backend_invocations"] == 1
    (module,) = modules("inductor_heads")
    softmax = [k for k in module["kernels"] if "softmax" in k]
    assert len(softmax) == 1 and module["runs"][softmax[0]] == heads
    assert module["calls"]["bmm"] == 2 * heads
    (comp,) = _compilations(run, "inductor_heads")
    (code,) = comp["inductor_code"]
    assert code["kernel_calls"] == module["runs"]
    _, out, _ = run("analyze", str(CAPTURES / "inductor_heads"), "--by-function")
    (line,) = [flat(s) for s in unwrapped(out) if s.strip().startswith("inductor code:")]
    said = ", ".join(k + (f" x{module['runs'][k]}" if module["runs"][k] > 1 else "") for k in module["kernels"])
    assert f"{len(module['kernels'])} kernels: {said}; calls bmm {2 * heads}" in line
    assert f"{softmax[0]} x{heads}" in line


def test_the_evidence_index_says_each_graph_and_module_in_a_line(run: Run) -> None:
    """The index entries of inductor_heads' AOT inference graph and Inductor module say what they hold: the graph's
    call count (its nodes: the record's assignments, an ATen op's or an item of one's result, counted here) and the
    module's kernels, each with how many times `call` runs it (read with `ast`)."""
    (module,) = modules("inductor_heads")
    (graph_code,) = [payload for meta, payload in records(log_of("inductor_heads")) if "aot_inference_graph" in meta]
    node = re.compile(r'^\s+\w+(?:: "[^"]*")? = ')
    nodes = sum(1 for line in graph_code.splitlines() if node.match(line))
    assert nodes > sum(1 for line in graph_code.splitlines() if " = torch.ops.aten." in line)
    code, out, err = run("evidence", str(CAPTURES / "inductor_heads"), "--limit", "500")
    assert code == 0, err
    (graph,) = [line for line in out.splitlines() if " aot_inference_graph " in line]
    assert f" 0/0 HeadLoop.forward: AOT inference graph of forward: {nodes} ops: " in graph, graph
    (said,) = [line for line in out.splitlines() if " inductor_output_code " in line]
    kernels = ", ".join(k + (f" x{module['runs'][k]}" if module["runs"][k] > 1 else "") for k in module["kernels"])
    assert f" 0/0 HeadLoop.forward: Inductor code of forward: call takes {module['inputs']} input" in said, said
    assert f"{len(module['kernels'])} kernels: {kernels}" in said, said


def test_a_comparison_says_which_kernels_an_edit_changed(run: Run) -> None:
    """log_softmax_split and log_softmax_fused differ in one line (`log(softmax(...))` against `log_softmax(...)`):
    the row says the kernel each side's module defines (read here with `ast`) and that the library calls are the
    same, with both modules as evidence; a pair without Inductor says nothing of generated code."""
    (split,) = modules("log_softmax_split")
    (fused,) = modules("log_softmax_fused")
    assert split["kernels"] != fused["kernels"] and split["calls"] == fused["calls"] == {"addmm": 1}
    code, out, err = run(
        "compare", str(CAPTURES / "log_softmax_split"), str(CAPTURES / "log_softmax_fused"), "--format", "json"
    )
    assert code == 0, err
    (row,) = json.loads(out)["functions"]
    (change,) = [c for c in row["changes"] if c["kind"] == "generated_code"]
    (a,), (b,) = split["kernels"], fused["kernels"]
    assert change["summary"] == (
        f"generated code (Inductor): kernels 1 -> 1, {a} -> {b} (0 the same); library calls the same (addmm)"
    )
    assert change["baseline"]["kernels"] == {a: 1} and change["candidate"]["kernels"] == {b: 1}
    assert change["baseline_evidence"] and change["candidate_evidence"]
    code, out, err = run(
        "compare", str(CAPTURES / "pair_dtype_device_before"), str(CAPTURES / "pair_dtype_device_after"), "-f", "json"
    )
    assert code == 0, err
    assert not any(c["kind"] == "generated_code" for r in json.loads(out)["functions"] for c in r["changes"])
