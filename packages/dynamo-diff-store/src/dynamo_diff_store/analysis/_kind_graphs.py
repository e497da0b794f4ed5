"""The graphs of a compilation: Dynamo's `dynamo_output_graph` (its op histogram) and AOTAutograd's forward,
backward and inference graphs (their op counts)."""

from __future__ import annotations

from typing import Any

from dynamo_diff_schema.compilation import AotSummary, GraphSummary, Outcome

from dynamo_diff_store.analysis._facts import Fact
from dynamo_diff_store.analysis._folding import Folding, Identity, RecordKind, payload
from dynamo_diff_store.analysis._graphs import op_histogram


def _fold_output_graph(folding: Folding, fact: Fact, ident: Identity) -> None:
    ident.graphs.append(folding.evidence(fact, fact.kind, ident))
    # The graph of the last attempt is the one compiled: an attempt whose analysis restarted after its backend was
    # handed a graph (AOTAutograd's TensorifyScalarRestartAnalysis) wrote one too.
    attempt = fact.attempt or 0
    if fact.data is not None and (ident.histogram is None or attempt > ident.histogram_attempt):
        ident.histogram = fact.data
        ident.histogram_attempt = attempt


def _fold_aot_graph(folding: Folding, fact: Fact, ident: Identity) -> None:
    ident.aot_graphs.append((fact.kind, fact.data, folding.evidence(fact, fact.kind, ident)))


def _aot_graph(kind: str) -> RecordKind:
    return RecordKind(kind, extract=payload(lambda p: sum(op_histogram(p).values())), fold=_fold_aot_graph)


DYNAMO_OUTPUT_GRAPH = RecordKind(
    "dynamo_output_graph", extract=payload(op_histogram), fold=_fold_output_graph, compiling=True
)
# AOTAutograd's graphs of a compilation (training: forward and backward; inference: one).
AOT_FORWARD_GRAPH = _aot_graph("aot_forward_graph")
AOT_BACKWARD_GRAPH = _aot_graph("aot_backward_graph")
AOT_INFERENCE_GRAPH = _aot_graph("aot_inference_graph")


def graph_summary(
    ident: Identity, final: dict[str, Any], metrics_ev: str | None, outcome: Outcome
) -> GraphSummary | None:
    op_count = final.get("graph_op_count")
    if not ident.graphs and not isinstance(op_count, int):
        return None
    return GraphSummary(
        op_count=op_count if isinstance(op_count, int) and op_count >= 0 else None,
        empty=bool(ident.graphs) and op_count == 0 and outcome == Outcome.COMPLETED,
        op_histogram=ident.histogram or {},
        evidence_ids=list(ident.graphs) + ([metrics_ev] if isinstance(op_count, int) and metrics_ev else []),
    )


def aot_summary(ident: Identity) -> AotSummary | None:
    if not ident.aot_graphs and not ident.bwd_metrics:
        return None
    ops = {kind: count for kind, count, _ in ident.aot_graphs}
    times = [fields.get("inductor_compile_time_s") for fields, _ in ident.bwd_metrics]
    seconds = [float(t) for t in times if isinstance(t, int | float) and not isinstance(t, bool)]
    return AotSummary(
        forward_op_count=ops.get("aot_forward_graph"),
        backward_op_count=ops.get("aot_backward_graph"),
        inference_op_count=ops.get("aot_inference_graph"),
        backward_compiled=bool(ident.bwd_metrics),
        backward_compile_time_s=sum(seconds) if seconds else None,
        evidence_ids=[ev for _, _, ev in ident.aot_graphs] + [ev for _, ev in ident.bwd_metrics],
    )
