"""`analyze --by-function`: a line per compilation saying what its graph holds by op (`graph: 7 ops: getitem 3,
...`); when its frame's previous compilation said the same kinds, its line counts its ops and names that one; the
run report JSON carries the list. Expected
lines are built from the workload's own backend, which lists the targets of the graph it was handed (the oracle's
`ops`)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from .conftest import Run, unwrapped

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def _oracle_graphs(name: str) -> dict[str, list[str]]:
    oracle = json.loads((CAPTURES / name / "oracle.json").read_text(encoding="utf-8"))
    return {g["compile_id"]: g["ops"] for g in oracle["backend_graphs"]}


def _expected(ops: list[str]) -> str:
    """Most first, ties by name (the documented order)."""
    ranked = sorted(Counter(ops).items(), key=lambda kv: (-kv[1], kv[0]))
    return f"graph: {len(ops)} ops: " + ", ".join(f"{name} {n}" for name, n in ranked)


def _lines_under(out: str, head: str) -> dict[str, str]:
    """compile id -> the line under it that starts with `head` (its first line's compile id)."""
    got, cid = {}, None
    for line in unwrapped(out):
        s = line.strip()
        if m := re.match(r"^(?:rank \d+ )?(\d+/\d+)\b", s):
            cid = m[1]
        elif s.startswith(head) and cid is not None:
            got[cid] = s
    return got


def _ops_lines(out: str) -> dict[str, str]:
    """The `graph:` lines, each without the graph's record and its count of inputs it ends with."""
    got = _lines_under(out, "graph: ")
    for cid, s in got.items():
        assert re.search(r" \(ev u\d+-e\d+\)$", s), s  # the graph's own record
        got[cid] = re.sub(r"(?:; \d+ graph inputs?)? \(ev u\d+-e\d+\)$", "", s)
    return got


def test_the_ops_line_counts_the_graphs_inputs(run: Run) -> None:
    """Each graph's inputs (its placeholders: the frame's tensors and symbols, the parameters and buffers it reads),
    as the workload's own backend counted the graph it was handed, on every fixture whose oracle has them."""
    checked = 0
    for name in ("checkpoint_fn", "shape", "dynamic", "resume_locals", "loop_steps", "global_guard"):
        oracle = json.loads((CAPTURES / name / "oracle.json").read_text(encoding="utf-8"))
        placeholders = {g["compile_id"]: g["num_placeholders"] for g in oracle["backend_graphs"]}
        code, out, err = run("analyze", str(CAPTURES / name), "--by-function")
        assert code == 0, err
        for cid, line in _lines_under(out, "graph: ").items():
            n = placeholders[cid]
            assert re.search(rf"; {n} graph input{'' if n == 1 else 's'} \(ev u\d+-e\d+\)$", line), (name, cid, line)
            checked += 1
    assert checked >= 8


def test_checkpointed_blocks_and_a_custom_function_show_as_their_higher_order_ops(run: Run) -> None:
    graphs = _oracle_graphs("checkpoint_fn")
    assert set(graphs) == {"0/0"}
    assert {"tag_activation_checkpoint", "autograd_function_apply", "linear"} <= set(graphs["0/0"])
    code, out, err = run("analyze", str(CAPTURES / "checkpoint_fn"), "--by-function")
    assert code == 0, err
    assert _ops_lines(out) == {"0/0": _expected(graphs["0/0"])}
    code, out, err = run("analyze", str(CAPTURES / "checkpoint_fn"), "--by-function", "--format", "json")
    assert code == 0, err
    (fn,) = json.loads(out)["functions"]
    (comp,) = fn["compilations"]
    assert comp["graph_ops"] == len(graphs["0/0"])
    assert comp["graph_op_kinds"] == _expected(graphs["0/0"]).split(": ", 2)[2].split(", ")


def _kinds(line: str) -> Counter[str]:
    """A `graph:` line's op counts, a method's `Tensor.` left off (the oracle names a method's target alone)."""
    _, _, listed = line.partition(" ops: ")
    return Counter({name.removeprefix("Tensor."): int(n) for name, n in (k.rsplit(" ", 1) for k in listed.split(", "))})


def test_a_recompilation_with_the_same_ops_names_the_line_that_listed_them(run: Run) -> None:
    # shape.py: three entries of one function, each graph the same five ops; dynamic.py: auto's two entries the
    # same, and the other function's graph its own. A later entry's line counts its ops and names the entry whose
    # line lists them, with its own graph's record.
    shape = _oracle_graphs("shape")
    assert len(shape) == 3 and len({tuple(sorted(ops)) for ops in shape.values()}) == 1
    code, out, err = run("analyze", str(CAPTURES / "shape"), "--by-function")
    assert code == 0, err
    got = _ops_lines(out)
    assert list(got) == ["0/0", "0/1", "0/2"] and _kinds(got["0/0"]) == Counter(shape["0/0"])
    assert got["0/0"].startswith(f"graph: {len(shape['0/0'])} ops: ")
    for cid in ("0/1", "0/2"):
        assert got[cid] == f"graph: {len(shape[cid])} ops, the kinds and counts of 0/0's"
    dynamic = _oracle_graphs("dynamic")
    assert sorted(dynamic["0/0"]) == sorted(dynamic["0/1"]) != sorted(dynamic["1/0"])
    code, out, err = run("analyze", str(CAPTURES / "dynamic"), "--by-function")
    assert code == 0, err
    got = _ops_lines(out)
    assert list(got) == ["0/0", "0/1", "1/0"]
    assert _kinds(got["0/0"]) == Counter(dynamic["0/0"]) and _kinds(got["1/0"]) == Counter(dynamic["1/0"])
    assert got["0/1"] == f"graph: {len(dynamic['0/1'])} ops, the kinds and counts of 0/0's"
    # Each names its own graph's record, not 0/0's.
    evidence = [re.search(r"\(ev (u\d+-e\d+)\)$", s)[1] for s in _lines_under(out, "graph: ").values()]  # type: ignore[index]
    assert len(evidence) == 3 and len(set(evidence)) == 3


def _aot_calls(name: str, kind: str) -> list[int]:
    """Per record of `kind` in the raw trace, its `= torch.ops.` call lines (a grep, not the analyser's parser)."""
    (raw,) = (CAPTURES / name / "raw").glob("*.log")
    counts, inside = [], False
    for line in raw.read_text(encoding="utf-8").splitlines():
        if f'{{"{kind}"' in line:
            counts.append(0)
            inside = True
        elif inside and line.startswith("\t"):
            counts[-1] += bool(re.search(r'^\t\s+\w+: "[^"]*" = torch\.ops\.', line))
        else:
            inside = False
    return counts


def test_the_ops_line_says_what_aotautograd_made_of_the_graph(run: Run) -> None:
    # training.py: one Inductor compilation of an MLP trained on: AOTAutograd's forward and backward graphs.
    (forward,), (backward,) = _aot_calls("training", "aot_forward_graph"), _aot_calls("training", "aot_backward_graph")
    assert forward > 0 and backward > 0
    code, out, err = run("analyze", str(CAPTURES / "training"), "--by-function")
    assert code == 0, err
    (line,) = _ops_lines(out).values()
    assert line.endswith(f"; AOTAutograd: forward {forward} ops, backward {backward} ops (compiled)")


def _signatures(name: str) -> dict[str, str]:
    """compile id -> the `def forward(self, ...)` line of its dynamo_output_graph record in the raw trace."""
    (raw,) = (CAPTURES / name / "raw").glob("*.log")
    got, cid = {}, None
    for line in raw.read_text(encoding="utf-8").splitlines():
        if '{"dynamo_output_graph"' in line:
            m = re.search(r'"frame_id": (\d+), "frame_compile_id": (\d+)', line)
            cid = f"{m[1]}/{m[2]}" if m else None
        elif cid and line.lstrip("\t").lstrip().startswith("def forward(self, "):
            got[cid], cid = line.strip(), None
    return got


def test_a_graph_says_its_inputs_as_its_signature_prints_them(run: Run) -> None:
    # dynamic.py: auto(x) gets randn(4, 3), then randn(6, 3): 0/1 takes the symbolic size as an input.
    sig = _signatures("dynamic")
    assert sig["0/0"] == 'def forward(self, L_x_: "f32[4, 3][3, 1]cpu"):'
    assert re.fullmatch(r'def forward\(self, (s\d+): "Sym\(\1\)", L_x_: "f32\[\1, 3\]\[3, 1\]cpu"\):', sig["0/1"])
    symbol = re.search(r"\((s\d+)", sig["0/1"])[1]  # type: ignore[index]
    code, out, err = run("analyze", str(CAPTURES / "dynamic"), "--function", "auto")
    assert code == 0, err
    got = _lines_under(out, "graph inputs: ")
    # 0/0's inputs are static tensors, which its `guards on inputs:` line says: no line of their own.
    assert got == {"0/1": f"graph inputs: {symbol}: Sym({symbol}); L_x_: f32[{symbol}, 3][3, 1]"}
    code, out, err = run("analyze", str(CAPTURES / "dynamic"), "--function", "auto", "--format", "json")
    assert code == 0, err
    (fn,) = json.loads(out)["functions"]
    assert [c["graph_inputs"] for c in fn["compilations"]] == [
        ["L_x_: f32[4, 3][3, 1]"],
        [f"{symbol}: Sym({symbol})", f"L_x_: f32[{symbol}, 3][3, 1]"],
    ]


def test_a_graph_that_returns_more_than_its_result_says_what_it_returns(run: Run) -> None:
    """after_raise: `top` returns topk's values summed and its indices; the graph's `return (sum_1, idx)` and each
    value's annotation are read here from the raw dynamo_output_graph record."""
    raw = "".join(p.read_text(encoding="utf-8") for p in (CAPTURES / "after_raise" / "raw").glob("*.log"))
    (graph,) = re.findall(r'"dynamo_output_graph".*\n((?:\t.*\n)+)', raw)[:1]
    names = re.findall(r"return \(([^)]*)\)", graph)[-1].replace(" ", "").split(",")
    assert names == ["sum_1", "idx"]
    kinds = [re.search(rf'\b{n}: "(\w+\[[^\]]*\])', graph)[1] for n in names]  # type: ignore[index]
    code, out, err = run("analyze", str(CAPTURES / "after_raise"), "--by-function")
    assert code == 0, err
    said = f"graph outputs: {names[0]}: {kinds[0]}; {names[1]}: {kinds[1]}"
    assert said in [s.strip() for s in out.splitlines()], out


def test_a_graph_says_the_floats_it_bakes_in(run: Run) -> None:
    """tensorify_restart: `torch.clamp(x, max=limit)` called with limit 0.5, 1.5 and 2.5 (the workload's own calls);
    each entry's graph bakes its limit in (`max = 0.5` in the raw graph of its last attempt), said once per graph.
    llama_213's graph: each RMSNorm's `+ 1e-06` counted, and attention's scale, as its raw record holds them."""
    source = (CAPTURES / "tensorify_restart/sources").rglob("tensorify_restart.py")
    limits = re.findall(r"o\.call\(cf, f, x, ([\d.]+)\)", next(source).read_text(encoding="utf-8"))
    assert limits == ["0.5", "1.5", "2.5"]
    raw = "".join(p.read_text(encoding="utf-8") for p in (CAPTURES / "tensorify_restart" / "raw").glob("*.log"))
    assert all(f"torch.clamp(l_x_, max = {v})" in raw for v in limits)
    code, out, err = run("analyze", str(CAPTURES / "tensorify_restart"), "--by-function")
    assert code == 0, err
    said = _lines_under(out, "graph constants: ")
    assert said == {f"0/{i}": f"graph constants: clamp max={v}" for i, v in enumerate(limits)}
    llama = "".join(p.read_text(encoding="utf-8") for p in (CAPTURES / "llama_213" / "raw").glob("*.log"))
    graph = re.findall(r'"dynamo_output_graph".*\n((?:\t.*\n)+)', llama)[0]
    eps = len(re.findall(r'" = \w+ \+ 1e-06;', graph))  # each RMSNorm's `variance + eps`
    scale = re.search(r"scaled_dot_product_attention\(.*?scale = ([\d.]+)", graph)[1]  # type: ignore[index]
    code, out, err = run("analyze", str(CAPTURES / "llama_213"), "--by-function")
    assert code == 0, err
    (line,) = [s.strip() for s in unwrapped(out) if s.strip().startswith("graph constants: ")]
    assert f"+ 1e-06 x{eps}" in line.split("; ") and f"scale={scale}" in line


def test_a_minus_infinity_fill_is_a_graph_constant(run: Run) -> None:
    """masked_fill_inf: padded scores filled with `float("-inf")` (the workload's own fill value, as Python prints
    it) before a softmax; the raw graph bakes it in as `-inf`, and its all-padding row came out NaN (the workload's
    record of its output)."""
    oracle = json.loads((CAPTURES / "masked_fill_inf/oracle.json").read_text())
    assert oracle["fill_value"] == "-inf" and oracle["nan_rows"] == [[False, True], [False, True]]
    raw = "".join(p.read_text(encoding="utf-8") for p in (CAPTURES / "masked_fill_inf" / "raw").glob("*.log"))
    assert re.search(r"\.masked_fill\(l_pad_mask_, -inf\)", raw)
    code, out, err = run("analyze", str(CAPTURES / "masked_fill_inf"), "--by-function")
    assert code == 0, err
    assert _lines_under(out, "graph constants: ") == {"0/0": f"graph constants: masked_fill {oracle['fill_value']}"}


def test_a_graph_whose_compilation_failed_lists_its_ops_without_a_count(run: Run) -> None:
    """backend_failure: the counting backend was handed the graphs of 1/0 and 2/0 and raised on them (its record:
    `raised`, with each graph's ops); torch's compilation_metrics of a failed compilation has no op count. The line
    lists the graph's ops from its record and says no count was recorded (never `None ops`)."""
    oracle = json.loads((CAPTURES / "backend_failure/oracle.json").read_text(encoding="utf-8"))
    refused = {g["compile_id"]: g["ops"] for g in oracle["backend_graphs"] if g["raised"]}
    assert sorted(refused) == ["1/0", "2/0"]
    code, out, err = run("analyze", str(CAPTURES / "backend_failure"), "--by-function")
    assert code == 0, err
    lines = _ops_lines(out)
    for cid, ops in refused.items():
        ranked = sorted(Counter(ops).items(), key=lambda kv: (-kv[1], kv[0]))
        assert lines[cid] == "graph: ops (torch recorded no count): " + ", ".join(f"{k} {n}" for k, n in ranked)
    assert "None ops" not in out


# The ops that only view or lay out their input, which the `aten ops:` line leaves out (docs/SEMANTICS.md).
_LAYOUT = {
    "view", "_unsafe_view", "reshape", "t", "transpose", "permute", "expand", "unsqueeze", "squeeze", "slice",
    "select", "alias", "detach", "as_strided", "view_as", "unbind", "split", "split_with_sizes", "sym_size",
    "sym_stride", "sym_numel", "sym_storage_offset",
}  # fmt: skip


def _aten_calls(name: str, kind: str) -> Counter[str]:
    """The `torch.ops.aten.OP.overload(` calls of the first record of `kind` in the raw trace, by OP (a grep)."""
    (raw,) = (CAPTURES / name / "raw").glob("*.log")
    found: Counter[str] = Counter()
    inside = seen = False
    for line in raw.read_text(encoding="utf-8").splitlines():
        if f'{{"{kind}"' in line and not seen:
            inside = seen = True
        elif inside and line.startswith("\t"):
            if m := re.search(r" = torch\.ops\.aten\.(\w+)\.\w+\(", line):
                found[m[1]] += 1
        else:
            inside = False
    return found


def test_the_aten_ops_line_says_what_aotautograd_computes(run: Run) -> None:
    """training.py: one Inductor compilation of an MLP trained on; its forward and backward graphs' ATen ops, the
    view and layout ops left out, most first (ties by name), as a grep of the raw graphs counts them."""
    said = []
    for kind, graph in (("aot_forward_graph", "forward"), ("aot_backward_graph", "backward")):
        ops = _aten_calls("training", kind)
        assert ops
        ranked = sorted(((op, n) for op, n in ops.items() if op not in _LAYOUT), key=lambda kv: (-kv[1], kv[0]))
        shown = ", ".join(f"{op} {n}" for op, n in ranked[:8]) + (
            f", {len(ranked) - 8} more" if len(ranked) > 8 else ""
        )
        said.append(f"{graph} {shown}")
    code, out, err = run("analyze", str(CAPTURES / "training"), "--by-function")
    assert code == 0, err
    (line,) = [s.strip() for s in unwrapped(out) if s.strip().startswith("aten ops: ")]
    assert line == "aten ops: " + "; ".join(said) + " (view and layout ops left out)"
