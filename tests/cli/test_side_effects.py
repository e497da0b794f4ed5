"""What a compilation's code changes outside its graph (torch replays it after the graph runs): the object, how
torch names it, and the user's line that changed it. The expected lines are found in the bundles' own source
snapshots by their text (never read from the analyser); the objects are the workloads' arguments and attributes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .conftest import Run, unwrapped

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def _line_of(name: str, file: str, text: str) -> int:
    (path,) = (CAPTURES / name / "sources").rglob(file)
    (number,) = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if line.strip() == text]
    return number


def _effects(run: Run, name: str) -> dict[str, list[dict[str, Any]]]:
    code, out, err = run("analyze", str(CAPTURES / name), "--by-function", "--format", "json")
    assert code == 0, err
    return {
        f"{fn['name']} {c['compile_id']}": c["side_effects"]
        for fn in json.loads(out)["functions"]
        for c in fn["compilations"]
        if c["side_effects"]
    }


def test_a_dict_argument_written_in_the_compiled_function(run: Run) -> None:
    # empty_graph: store(x, d) only writes d["x"] = x: no graph, one side effect on its argument d.
    line = _line_of("empty_graph", "empty_graph.py", 'd["x"] = x')
    (effect,) = _effects(run, "empty_graph")["store 1/0"]
    assert (effect["type"], effect["source"], effect["line"], effect["code"]) == ("dict", "L['d']", line, 'd["x"] = x')
    _, out, _ = run("analyze", str(CAPTURES / "empty_graph"), "--by-function")
    assert any(
        s.strip().startswith(f"side effects (replayed after the graph): L['d'] (dict) at empty_graph.py:{line}: ")
        for s in unwrapped(out)
    )


def test_a_module_attribute_incremented_in_forward(run: Run) -> None:
    # rename_file_v1: Decoder.forward does self.pos += 1 (its guard on pos recompiles it at every step).
    line = _line_of("rename_file_v1", "decoder.py", "self.pos += 1")
    found = _effects(run, "rename_file_v1")
    effects = [e for cid, es in found.items() if cid.startswith("Decoder.forward") for e in es]
    expected = ("Decoder", "L['self']", line, "self.pos += 1")
    assert effects and all((e["type"], e["source"], e["line"], e["code"]) == expected for e in effects)
    _, out, _ = run("analyze", str(CAPTURES / "rename_file_v1"), "--by-function")
    said = [s for s in unwrapped(out) if "side effects (replayed after the graph)" in s]
    assert len(said) == 1  # each recompilation changes the same: said once


def test_an_optimizers_state_dicts_named_whole_and_said_once(run: Run) -> None:
    """optimizer_state: `torch.compile(opt.step)` of SGD with momentum. The workload's own record says each of its
    two parameters got a momentum buffer; torch names each parameter's state dict by the position of its key, a name
    with parentheses in it, and the change is in torch's sgd.py, called from the user's line. The names are read
    from the trace's own text here."""
    oracle = json.loads((CAPTURES / "optimizer_state/oracle.json").read_text())
    assert oracle["state_entries"] == [["momentum_buffer"], ["momentum_buffer"]]
    (log,) = (CAPTURES / "optimizer_state/raw").glob("*.log")
    named = [
        line.split("(source name: ", 1)[1][:-1]
        for line in log.read_text(encoding="utf-8").splitlines()
        if line.startswith("\tMutating object of type dict (source name: ")
    ]
    first = named[:2]  # the first compilation of `step` writes both parameters' state dicts
    assert all(n.startswith("L['self'].state[list(dict.keys(L['self'].state))[") for n in first)
    effects = _effects(run, "optimizer_state")
    (step,) = [es for cid, es in effects.items() if cid.endswith(" 1/0")]
    assert [e["source"] for e in step] == first
    line = _line_of("optimizer_state", "_oracle.py", "return compiled(*args, **kwargs)")
    for e in step:
        assert (e["type"], e["line"], e["code"]) == ("dict", line, "return compiled(*args, **kwargs)")
        assert e["inside"].startswith("torch/optim/sgd.py:")
        assert e["inside"].endswith(': state["momentum_buffer"] = momentum_buffer')
    _, out, _ = run("analyze", str(CAPTURES / "optimizer_state"), "--by-function")
    said = [s.strip() for s in unwrapped(out) if "side effects (replayed after the graph)" in s]
    assert said[0].startswith(f"side effects (replayed after the graph): {first[0]}, {first[1]} (dict) at _oracle.py")
    assert said[0].count("sgd.py") == 1  # the two dicts, changed at the same lines, said together
