"""Op histograms of Dynamo's output graphs count what torch's graph_op_count counts: every call_function,
call_method and call_module node of the top-level graph, whether FX prints it as a call, an infix operator
(`a * 2`), a subscript (`x[0]`) or a prefix (`-a`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dynamo_diff_store import Store
from dynamo_diff_store.analysis import op_histogram

ROOT = Path(__file__).resolve().parents[2]
# Every real trace the repository holds: torch 2.6-2.9 (tlparse's tests), 2.13 (fixtures), 2.14 (0.1 bundles).
TRACES = [
    *sorted((ROOT / "fixtures/captures").iterdir()),
    *sorted(p for p in (ROOT / "fixtures/corpus/tlparse-tests").iterdir() if p.name != "LICENSE"),
    *sorted((ROOT / "fixtures/corpus/tlparse-exports").iterdir()),
    *sorted(p for p in (ROOT / "fixtures/v1_bundles").iterdir() if p.is_dir()),
    ROOT / "case_studies/transformers_cache/bundles/lazy",
    ROOT / "case_studies/transformers_cache/bundles/early",
]

GRAPH = """class GraphModule(torch.nn.Module):
    def forward(self, L_a_: "f32[4][1]cpu", L_b_: "f32[4][1]cpu"):
        l_a_ = L_a_
        l_b_ = L_b_
        mul: "f32[4][1]cpu" = l_a_ * 2
        sum_1: "f32[][]cpu" = mul.sum();  mul = None
        add: "f32[4][1]cpu" = l_a_ + l_b_
        truediv: "f32[4][1]cpu" = add / l_b_;  add = None
        getitem: "f32[][]cpu" = truediv[0];  truediv = None
        neg: "f32[4][1]cpu" = -l_a_;  l_a_ = None
        matmul: "f32[][]cpu" = neg @ l_b_;  neg = l_b_ = None
        ge: "b8[][]cpu" = matmul >= 0
        _tensor_constant0 = self._tensor_constant0
        sin: "f32[4][1]cpu" = torch.sin(_tensor_constant0)
        return (sum_1, getitem, ge, sin)

    class subgraph_0(torch.nn.Module):
        def forward(self, child: "f32[][]cpu"):
            mul: "f32[][]cpu" = child * 3
            return mul
"""


def test_infix_subscript_and_prefix_operators_are_ops() -> None:
    assert op_histogram(GRAPH) == {
        "Tensor.sum": 1,
        "operator.add": 1,
        "operator.ge": 1,
        "operator.getitem": 1,
        "operator.matmul": 1,
        "operator.mul": 1,  # not the nested subgraph's mul: a higher-order op's body is part of one op
        "operator.neg": 1,
        "operator.truediv": 1,
        "torch.sin": 1,
    }


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store(tmp_path_factory.mktemp("histograms") / "store")


@pytest.mark.parametrize("path", TRACES, ids=[f"{p.parent.name}/{p.name}" for p in TRACES])
def test_every_histogram_sums_to_torchs_graph_op_count(store: Store, path: Path) -> None:
    capture = store.import_path(path).capture
    graphs = [
        c.graph
        for r in capture.ranks
        for c in r.compilations
        if c.graph is not None and c.graph.op_count is not None and c.graph.op_histogram
    ]
    for graph in graphs:
        assert sum(graph.op_histogram.values()) == graph.op_count, graph
