"""What each compiled entry guards on its frame's tensor arguments (GuardSummary.inputs): each argument's
TENSOR_MATCH (dtype, size, stride; None = symbolic) and the shape-env guards naming its sizes or strides, read from
the compilation's own guard tree (dynamo_cpp_guards_str). Expected values are the raw trace's guard tree text (each
checked there), never the analyser's output."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from dynamo_diff_schema.compilation import GuardSummary
from dynamo_diff_store import Store
from dynamo_diff_store.analysis._guards import INPUT_GUARDS_MAX, INPUTS_MAX, guards_on_inputs, tree_leaves

from .guard_trees import raw_guard_tree

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def _inputs(store: Store, name: str) -> dict[str, tuple[list[str], int]]:
    capture = store.import_path(CAPTURES / name).capture
    return {
        c.compile_id: (c.guards.inputs, c.guards.inputs_omitted)
        for rank in capture.ranks
        for c in rank.compilations
        if c.guards is not None
    }


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store(tmp_path_factory.mktemp("inputs") / "store")


def test_first_entry_and_the_recompile_that_made_a_size_symbolic(store: Store) -> None:
    # dynamic.py: auto(x) gets randn(4, 3), then randn(6, 3) (0/1 makes dim 0 symbolic); explicit(x) is marked
    # dynamic in both dims (1/0: one entry, its sizes and its first stride symbolic).
    raw = {cid: raw_guard_tree("dynamic", *map(int, cid.split("/"))) for cid in ("0/0", "0/1", "1/0")}
    assert "torch.float32, device=None, requires_grad=False, size=[4, 3], stride=[3, 1])" in raw["0/0"]
    assert "LAMBDA_GUARD" not in raw["0/0"].split("top_saved_tensors_hooks", 1)[1]  # no shape guard on x
    assert "size=[None, 3], stride=[3, 1])" in raw["0/1"] and "+- LAMBDA_GUARD: 2 <= L['x'].size()[0]  #" in raw["0/1"]
    shape = ["L['x'].stride()[0] == L['x'].size()[1]", "2 <= L['x'].size()[0]", "2 <= L['x'].size()[1]"]
    assert "size=[None, None], stride=[None, 1])" in raw["1/0"]
    assert [g for g in shape if f"+- LAMBDA_GUARD: {g}  #" in raw["1/0"]] == shape  # in the tree's order
    assert _inputs(store, "dynamic") == {
        "0/0": (["L['x']: torch.float32, size=[4, 3], stride=[3, 1]"], 0),
        "0/1": (["L['x']: torch.float32, size=[None, 3], stride=[3, 1]", "2 <= L['x'].size()[0]"], 0),
        "1/0": (["L['x']: torch.float32, size=[None, None], stride=[None, 1]", *shape], 0),
    }


def test_a_stride_guard_names_the_symbolic_stride_and_parameters_are_no_arguments(store: Store) -> None:
    # decoder.py: prefill(prompt) gets randn(1, 5, 4) then randn(1, 7, 4); Decoder.forward(tok) reads its
    # Linear's parameters (their TENSOR_MATCH guards are under L['self']: not an argument of the frame).
    t00, t01, t10 = (
        raw_guard_tree("rename_file_v1", 0, 0),
        raw_guard_tree("rename_file_v1", 0, 1),
        raw_guard_tree("rename_file_v1", 1, 0),
    )
    assert "check_tensor(L['prompt'], Tensor," in t00 and "size=[1, 5, 4], stride=[20, 4, 1])" in t00
    assert "size=[1, None, 4], stride=[None, 4, 1])" in t01
    assert "+- LAMBDA_GUARD: L['prompt'].stride()[0] == 4*L['prompt'].size()[1]  #" in t01
    assert "+- LAMBDA_GUARD: 2 <= L['prompt'].size()[1]  #" in t01
    assert "check_tensor(L['self']._modules['proj']._parameters['weight'], Parameter," in t10
    assert "check_tensor(L['tok'], Tensor," in t10 and "size=[1, 1, 4], stride=[4, 4, 1])" in t10
    got = _inputs(store, "rename_file_v1")
    assert got["0/0"] == (["L['prompt']: torch.float32, size=[1, 5, 4], stride=[20, 4, 1]"], 0)
    assert got["0/1"] == (
        [
            "L['prompt']: torch.float32, size=[1, None, 4], stride=[None, 4, 1]",
            "L['prompt'].stride()[0] == 4*L['prompt'].size()[1]",
            "2 <= L['prompt'].size()[1]",
        ],
        0,
    )
    # What an argument holds: the module attribute the resumed code read (`self.pos`), its value guard.
    assert "+- EQUALS_MATCH: L['self'].pos == 0" in t10
    assert got["1/0"] == (["L['tok']: torch.float32, size=[1, 1, 4], stride=[4, 4, 1]", "L['self'].pos == 0"], 0)


def test_a_resume_function_guards_its_stack_slot(store: Store) -> None:
    # stack_slots.py: tokens' graph breaks at line 25; its resume function gets the live tensor as ___stack0
    # (3 kept tokens, then 4: 3/1 makes its size symbolic).
    t30, t31 = raw_guard_tree("stack_slots", 3, 0), raw_guard_tree("stack_slots", 3, 1)
    assert "check_tensor(L['___stack0'], Tensor," in t30 and "torch.int64, device=None" in t30
    assert "size=[3], stride=[1])" in t30 and "size=[None], stride=[1])" in t31
    assert "+- LAMBDA_GUARD: 2 <= L['___stack0'].size()[0]  #" in t31
    got = _inputs(store, "stack_slots")
    assert got["3/0"] == (["L['___stack0']: torch.int64, size=[3], stride=[1]"], 0)
    assert got["3/1"] == (["L['___stack0']: torch.int64, size=[None], stride=[1]", "2 <= L['___stack0'].size()[0]"], 0)


def test_at_most_six_arguments_and_eight_shape_guards() -> None:
    # The bound, on a tree written the way torch 2.13 writes one (the lines of dynamic's 1/0, repeated per name).
    one = raw_guard_tree("dynamic", 1, 0)
    (match,) = [line for line in one.splitlines() if "TENSOR_MATCH" in line]
    names = [f"a{i}" for i in range(10)]
    lines = [match.replace("L['x']", f"L['{n}']") for n in names]
    lines += [f"\t+- LAMBDA_GUARD: 2 <= L['{n}'].size()[{d}]  # user code" for n in names[:6] for d in (0, 1)]
    shown, omitted, _ = guards_on_inputs(tree_leaves("\n".join(lines)))
    assert len(shown) == INPUTS_MAX + INPUT_GUARDS_MAX == 14
    assert shown[0] == "L['a0']: torch.float32, size=[None, None], stride=[None, 1]"
    assert shown[INPUTS_MAX] == "2 <= L['a0'].size()[0]"
    assert omitted == (10 - INPUTS_MAX) + (12 - INPUT_GUARDS_MAX)
    assert all(len(s) <= 200 for s in shown)


def test_a_capture_stored_before_the_field_reads_with_none() -> None:
    old = GuardSummary.model_validate({"count": 3, "categories": {"TENSOR_MATCH": 1}, "evidence_ids": ["u1-e3"]})
    assert old.inputs == [] and old.inputs_omitted == 0 and old.inputs_evidence_id is None


def test_what_the_arguments_hold_is_guarded_by_value(store: Store) -> None:
    """training_flip: model.eval() flips the modules' `training`; each entry's own guard tree says the flags it was
    compiled for (TRUE_MATCH / FALSE_MATCH on `L['self']._modules[...].training`), and its inputs list them, a
    module's mode first. A dynamic float guarded by its type alone reads `L['scale']: float`."""
    first, second = raw_guard_tree("training_flip", 0, 0), raw_guard_tree("training_flip", 0, 1)
    for name in ("drop", "norm"):
        assert f"+- TRUE_MATCH: L['self']._modules['{name}'].training == True" in first
        assert f"+- FALSE_MATCH: L['self']._modules['{name}'].training == False" in second
    got = _inputs(store, "training_flip")
    for cid, flag in (("0/0", True), ("0/1", False)):
        listed = [i for i in got[cid][0] if i.endswith(".training == True") or i.endswith(".training == False")]
        assert sorted(listed) == [f"L['self']._modules['{n}'].training == {flag}" for n in ("drop", "norm")]
    ids = [(0, 0), (1, 0), (1, 1)]
    trees = {f"{f}/{a}": raw_guard_tree("pair_dynamic_scalar_after", f, a) for f, a in ids}
    typed = [
        cid
        for cid, tree in trees.items()
        if "TYPE_MATCH: ___check_type_id(L['scale'], " in tree and "L['scale'] ==" not in tree
    ]
    assert typed, "an entry guards scale by its type alone"
    scalar = _inputs(store, "pair_dynamic_scalar_after")
    assert all("L['scale']: float" in scalar[cid][0] for cid in typed)


def test_an_object_argument_guarded_by_its_class_alone(store: Store) -> None:
    """compiled_autograd: `step(model, x)` is compiled with the module as an argument; the entry's guard tree checks
    `model`'s class (TYPE_MATCH) and never which object it is (no ID_MATCH on it): another instance of the class
    passes, and the inputs say so."""
    tree = raw_guard_tree("compiled_autograd", 0, 0)
    assert "+- TYPE_MATCH: ___check_type_id(L['model'], " in tree and "type=<class '__main__.Net'>" in tree
    assert "___check_obj_id(L['model']," not in tree
    got = _inputs(store, "compiled_autograd")
    assert "L['model']: Net (its class, not the object)" in got["0/0"][0]
    assert not any(i.startswith("L['self']:") for items, _ in got.values() for i in items)


def test_a_float_attribute_made_symbolic_is_guarded_by_its_range(store: Store) -> None:
    """float_attribute: `self.temperature` decays every step and forward branches on `> 0.5`. The first entry holds
    it as a constant (EQUALS_MATCH); the recompilations read it at run time, each guarded by the branch it took (the
    tree's top-level LAMBDA_GUARDs on the attribute path), at the steps the workload recorded; torch's implicit NaN
    guard on a float input says nothing a user set and is left out."""
    oracle = json.loads((CAPTURES / "float_attribute" / "oracle.json").read_text(encoding="utf-8"))
    assert oracle["compile_steps"] == [0, 1, 7]
    trees = {f"0/{i}": raw_guard_tree("float_attribute", 0, i) for i in range(3)}
    assert "+- EQUALS_MATCH: L['self'].temperature == 1.0" in trees["0/0"]
    assert "+- LAMBDA_GUARD: L['self'].temperature > 0.5  #" in trees["0/1"]
    assert "+- LAMBDA_GUARD: L['self'].temperature <= 0.5  #" in trees["0/2"]
    assert "+- LAMBDA_GUARD: not math.isnan(L['self'].temperature)" in trees["0/2"]
    got = _inputs(store, "float_attribute")
    values = {cid: [i for i in items if "temperature" in i] for cid, (items, _) in got.items()}
    assert values == {
        "0/0": ["L['self'].temperature == 1.0"],
        "0/1": ["L['self'].temperature > 0.5"],
        "0/2": ["L['self'].temperature <= 0.5"],
    }


def test_an_attribute_scalar_guarded_by_its_type_alone() -> None:
    # A float attribute read at run time whose value no guard compares (the tree torch 2.13 wrote for
    # `self.lin(x) / self.temperature` after it changed: its type, and the implicit NaN guard).
    tree = "\n".join(
        [
            "\t| | | +- GuardManager: source=L['self'].temperature, accessed_by=DictGetItemGuardAccessor('t')",
            "\t| | | | +- TYPE_MATCH: ___check_type_id(L['self'].temperature, 140487998919168), type=<class 'float'>"
            "  # return self.lin(x) / self.temperature  # sf.py:6 in forward (HINT: type float)",
            "\t+- LAMBDA_GUARD: not math.isnan(L['self'].temperature)  # implicit guard for float input",
            "\t| | | +- TYPE_MATCH: ___check_type_id(L['self'].temperature_scale, 1404879), type=<class 'float'>  # x",
            "\t| | | +- EQUALS_MATCH: L['self'].temperature_scale == 2.0  # x",
        ]
    )
    shown, omitted, _ = guards_on_inputs(tree_leaves(tree))
    assert shown == ["L['self'].temperature_scale == 2.0", "L['self'].temperature: float"] and omitted == 0


def _global_state(tree: str) -> dict[str, object]:
    """The settings the tree's ___check_global_state compares against (its JSON)."""
    (state,) = re.findall(r"GLOBAL_STATE: ___check_global_state\(\) against (\{.*\})", tree)
    loaded: dict[str, object] = json.loads(state)
    return loaded


def test_an_entry_made_under_no_grad_says_so_and_a_tensor_that_requires_grad_says_it(store: Store) -> None:
    """grad_mode: f(x, w) called under no_grad (0/0), then with grad enabled (0/1); w requires grad. The grad mode a
    tree guards is in its global state JSON; requires_grad in each TENSOR_MATCH."""
    trees = {cid: raw_guard_tree("grad_mode", 0, int(cid[-1])) for cid in ("0/0", "0/1")}
    assert [_global_state(trees[c])["grad_mode"] for c in ("0/0", "0/1")] == [False, True]
    assert "check_tensor(L['w'], Tensor, " in trees["0/0"] and ", requires_grad=True, size=[4, 4]" in trees["0/0"]
    got = {cid: items for cid, (items, _) in _inputs(store, "grad_mode").items()}
    assert "GLOBAL_STATE grad_mode=false" in got["0/0"]
    assert not any(i.startswith("GLOBAL_STATE") for i in got["0/1"])  # grad enabled: torch's default, not said
    (w,) = [i for i in got["0/0"] if i.startswith("L['w']:")]
    assert w == "L['w']: torch.float32, requires_grad=True, size=[4, 4], stride=[4, 1]"
    (x,) = [i for i in got["0/0"] if i.startswith("L['x']:")]
    assert "requires_grad" not in x


def test_a_bool_argument_s_value_is_a_guard_on_an_input(store: Store) -> None:
    """guards: bool_value(x, flag) compiled with flag=True, then False (the workload's own record of torch's guard
    failure: `8/0: flag == True`)."""
    oracle = json.loads((CAPTURES / "guards" / "oracle.json").read_text(encoding="utf-8"))
    (failure,) = oracle["guard_failures"]["bool_value"]
    assert failure.startswith("8/0: flag == True")
    assert "TRUE_MATCH: L['flag'] == True" in raw_guard_tree("guards", 8, 0)
    assert "FALSE_MATCH: L['flag'] == False" in raw_guard_tree("guards", 8, 1)
    got = {cid: items for cid, (items, _) in _inputs(store, "guards").items()}
    assert "L['flag'] == True" in got["8/0"] and "L['flag'] == False" in got["8/1"]


def test_an_entry_made_for_two_arguments_that_are_one_tensor(store: Store) -> None:
    """aliased_inputs: step(g, d) twice, then step(g, g): torch's guard failure (the workload's own record) says
    the arguments alias; the new entry's tree requires them to be the same tensor, and says so on its inputs and as
    what the recompile was made for."""
    oracle = json.loads((CAPTURES / "aliased_inputs" / "oracle.json").read_text(encoding="utf-8"))
    assert oracle["guard_failures"]["step"] == ['0/0: Duplicate tensors found: ["acc", "delta"]']
    assert "NO_TENSOR_ALIASING: check_no_aliasing(L['acc'], L['delta'])" in raw_guard_tree("aliased_inputs", 0, 0)
    assert "LAMBDA_GUARD: L['acc'] is L['delta']" in raw_guard_tree("aliased_inputs", 0, 1)
    got = {cid: items for cid, (items, _) in _inputs(store, "aliased_inputs").items()}
    assert "L['acc'] is L['delta']" in got["0/1"] and not any(" is " in i for i in got["0/0"])
    capture = store.import_path(CAPTURES / "aliased_inputs").capture
    (recompiled,) = [c for r in capture.ranks for c in r.compilations if c.recompile is not None]
    (reason,) = recompiled.recompile.reasons
    assert (reason.category, reason.made_for) == ("aliasing", ["L['acc'] is L['delta']"])


_SHORT = {"torch.float32": "f32"}


def _structure(said: dict) -> str:  # type: ignore[type-arg]
    """What the workload passed (its own record), written as the report says a container: `list of 3 [f32[2, 5] x3]`;
    a tensor's stride only when it is not the contiguous one."""
    if "dtype" in said:
        size, stride = said["size"], said["stride"]
        contiguous = [1] * len(size)
        for i in range(len(size) - 2, -1, -1):
            contiguous[i] = contiguous[i + 1] * size[i + 1]
        text = f"{_SHORT[said['dtype']]}{size}"
        return text if stride == contiguous else f"{text} stride={stride}"
    if "value" in said:
        return repr(said["value"])
    ((kind, items),) = said.items()
    if kind == "dict":
        return "dict {" + ", ".join(f"'{k}': {_structure(v)}" for k, v in items.items()) + "}"
    parts: list[list] = []  # type: ignore[type-arg]
    for item in map(_structure, items):
        if parts and parts[-1][0] == item:
            parts[-1][1] += 1
        else:
            parts.append([item, 1])
    inside = ", ".join(p if n == 1 else f"{p} x{n}" for p, n in parts)
    opening, closing = ("[", "]") if kind == "list" else ("(", ")")
    return f"{kind} of {len(items)} {opening}{inside}{closing}"


def test_a_container_argument_is_one_item_with_its_elements(store: Store) -> None:
    """container_args: a list of clips, a nested tuple and a dict batch (a transposed tensor and an int). Each is one
    item of the entry's inputs, its structure as the workload built it (its own record); the raw guard tree checks
    each element (TENSOR_MATCH on `L['clips'][i]`, the list's length) and the list's length guard is not said again.
    The dict's guards do not check its length, so its size is not said; its keys in the tree's order."""
    oracle = json.loads((CAPTURES / "container_args/oracle.json").read_text())
    raw = raw_guard_tree("container_args", 0, 0)
    assert "+- LENGTH_CHECK: len(L['clips']) == 3" in raw and "check_tensor(L['clips'][2], Tensor" in raw
    assert "check_tensor(L['pair'][0][1], Tensor" in raw and "check_tensor(L['batch']['feat'], Tensor" in raw
    found = _inputs(store, "container_args")
    for cid, call in (("0/0", oracle["arguments"][0]), ("0/1", oracle["arguments"][1])):
        items, omitted = found[cid]
        assert omitted == 0
        assert f"L['clips']: {_structure(call['clips'])}" in items
        assert f"L['pair']: {_structure(call['pair'])}" in items
        (batch,) = [i for i in items if i.startswith("L['batch']: ")]
        said, built = batch.removeprefix("L['batch']: "), _structure(call["batch"])
        assert sorted(re.split(r", (?=')", said[6:-1])) == sorted(re.split(r", (?=')", built[6:-1]))
        assert said.startswith("dict {") and built.startswith("dict {")
        assert not any(i.startswith("len(L['clips'])") for i in items)
