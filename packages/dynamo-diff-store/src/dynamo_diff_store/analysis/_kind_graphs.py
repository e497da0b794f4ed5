"""The graphs of a compilation: Dynamo's `dynamo_output_graph` (its op histogram) and AOTAutograd's forward,
backward and inference graphs (their op counts)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from dynamo_diff_schema.code_paths import library_path
from dynamo_diff_schema.compilation import (
    AotSummary,
    DiscardedGraph,
    GraphSummary,
    Outcome,
    Specialization,
    SymbolicSize,
)

from dynamo_diff_store.analysis._facts import Fact
from dynamo_diff_store.analysis._folding import Folding, Identity, RecordKind, payload
from dynamo_diff_store.analysis._graphs import (
    graph_constants,
    graph_inputs,
    graph_literals,
    graph_outputs,
    op_histogram,
)
from dynamo_diff_store.reading import Record

# A symbolic size in dynamo_output_graph's `sizes` (`"l_x_": ["s77", 3]`): a symbol, or an expression of them.
_SYMBOL = re.compile(r"\b[su]\d+\b")


def graph_symbols(body: Any) -> list[str]:
    """The symbols in a dynamo_output_graph record's `sizes`, in order of first appearance."""
    sizes = body.get("sizes") if isinstance(body, dict) else None
    found: dict[str, None] = {}
    if isinstance(sizes, dict):
        for dims in sizes.values():
            for dim in dims if isinstance(dims, list) else []:
                if isinstance(dim, str):
                    found.update(dict.fromkeys(_SYMBOL.findall(dim)))
    return list(found)


def _extract_output_graph(
    rec: Record,
) -> tuple[dict[str, int] | None, list[str], tuple[list[str], int] | None, list[str], list[str], list[str]]:
    if rec.payload is None:
        return None, graph_symbols(rec.body), None, [], [], []
    text = rec.payload
    return (
        op_histogram(text),
        graph_symbols(rec.body),
        graph_inputs(text),
        graph_outputs(text),
        graph_constants(text),
        graph_literals(text),
    )


def _fold_output_graph(folding: Folding, fact: Fact, ident: Identity) -> None:
    ident.graphs.append(folding.evidence(fact, fact.kind, ident))
    # The graph of the last attempt is the one compiled: an attempt whose analysis restarted after its backend was
    # handed a graph (AOTAutograd's TensorifyScalarRestartAnalysis) wrote one too.
    attempt = fact.attempt or 0
    histogram, symbols, inputs, outputs, constants, literals = (
        fact.data if fact.data is not None else (None, [], None, [], [], [])
    )
    if histogram is not None and ident.histogram is not None and attempt > ident.histogram_attempt:
        ident.discarded_graph = (ident.histogram_attempt, ident.histogram, ident.graph_inputs, ident.graph_record)
    elif histogram is not None and ident.histogram is not None and attempt < ident.histogram_attempt:
        ident.discarded_graph = (attempt, histogram, inputs, ident.graphs[-1])  # an earlier attempt written later
    if histogram is not None and (ident.histogram is None or attempt > ident.histogram_attempt):
        ident.histogram = histogram
        ident.histogram_attempt = attempt
        ident.graph_symbols = symbols
        ident.graph_inputs = inputs
        ident.graph_outputs = outputs
        ident.graph_constants = constants
        ident.graph_literals = literals
        ident.graph_record = ident.graphs[-1]
    elif ident.histogram is None:
        ident.graph_symbols = symbols


def _extract_symbol(rec: Record) -> tuple[str, str | None, str | None] | None:
    body = rec.body if isinstance(rec.body, dict) else {}
    symbol, source, value = body.get("symbol"), body.get("source"), body.get("val")
    if not isinstance(symbol, str):
        return None
    return (
        symbol[:40],
        source[:200] if isinstance(source, str) else None,
        value[:40] if isinstance(value, str) else None,
    )


def _fold_symbol(folding: Folding, fact: Fact, ident: Identity) -> None:
    ev = folding.evidence(fact, fact.kind, ident)
    if fact.data is not None:
        symbol, source, value = fact.data
        ident.created_symbols.setdefault(symbol, (source, value, ev))


def _text(value: Any, most: int) -> str | None:
    return value[:most] if isinstance(value, str) else None


def _extract_specialization(rec: Record) -> tuple[Any, ...] | None:
    """`{"symbol": "s24", "sources": ["L['pos']"], "value": "1", "reason": "range_refined_to_singleton",
    "user_stack": [{"line": 31, "filename": 1, "loc": "self.cache[:, pos] = h[:, 0]"}]}`: the symbol, what it
    stands for, the value it was fixed to, why, and the frames of the user stack that fixed it (its last
    _STACK_FRAMES, innermost last: Dynamo's user stack holds the library frames it inlined, `F.layer_norm`'s
    among them, after the user's line that called them)."""
    body = rec.body if isinstance(rec.body, dict) else {}
    symbol = body.get("symbol")
    if not isinstance(symbol, str):
        return None
    sources = body.get("sources")
    source = sources[0] if isinstance(sources, list) and sources else body.get("source")
    stack = body.get("user_stack")
    frames = tuple(
        _frame(f) for f in (stack[-_STACK_FRAMES:] if isinstance(stack, list) else []) if isinstance(f, dict)
    )
    whole = body.get("stack")
    inner = tuple(
        (*_frame(f), _text(f.get("name"), 80))
        for f in (whole[-_INNER_FRAMES:] if isinstance(whole, list) else [])
        if isinstance(f, dict)
    )
    return (
        symbol[:40],
        _text(source, 200),
        _text(body.get("value"), 40),
        _text(body.get("reason"), 80),
        frames,
        inner,
    )


def _frame(f: dict[str, Any]) -> tuple[int | str | None, int | None, str | None]:
    """A user stack frame as (its file, interned or named; its line; its line's text)."""
    name, line = f.get("filename"), f.get("line")
    return (
        name if isinstance(name, int | str) and not isinstance(name, bool) else None,
        line if type(line) is int and line >= 0 else None,
        _text(f.get("loc"), 200),
    )


# The user stack frames a specialization keeps (the user's line is rarely more than a few inlined frames out).
_STACK_FRAMES = 6
# The innermost frames of the whole Python stack it keeps: under the user's line, the library call that asked the
# shape environment for a concrete value (`functional.py:747: return torch.max_pool1d(...)`) and how (`guard_int`),
# above the shape environment's own frames (a dozen).
_INNER_FRAMES = 24
# Frames of torch's tracing machinery, not the call that needed a value: Dynamo running the node, the shape
# environment and its sympy helpers, fake tensors, the structured logger, and the wrappers between (a SymInt's
# `__int__`, boolean dispatch, an op overload's call, dispatch modes).
_MACHINERY = (
    "torch/_dynamo/",
    "torch/fx/",
    "torch/_logging/",
    "torch/utils/_sympy/",
    "torch/_subclasses/",
    "torch/__init__.py",
    "torch/_utils_internal.py",
    "torch/_jit_internal.py",
    "torch/_ops.py",
    "torch/utils/_python_dispatch.py",
    "torch/utils/_stats.py",
)
# The shape environment's entry points a library call asks for a concrete value through.
_ASKED_BY = re.compile(r"^(?:guard_\w+|expect_\w+|evaluate\w*|__(?:bool|int|index|float)__)$")


def _asked_from(
    stack: tuple[tuple[str | None, int | None, str | None, str | None], ...],
) -> str | None:
    """`guard_int from functional.py:747: return torch.max_pool1d(input, kernel_size, ...)`: on the whole stack of a
    specialization (files resolved), the innermost frame outside torch's tracing machinery and under the user's
    line, after the shape environment's entry it called (`guard_int`: it needed the int); None when there is
    none (the user's own line asked: an `if` on the value, an index)."""
    at = None
    for i, (name, _, _, _) in enumerate(stack):
        short = library_path(name) if name else None
        if short is None:
            at = None  # a user frame: what it calls comes after it
            continue
        if not short.startswith(_MACHINERY):
            at = i
    if at is None:
        return None
    name, line, code, _ = stack[at]
    asked = next(
        (fn for n, _, _, fn in stack[at + 1 :] if fn and n and "torch/fx/experimental/" in n and _ASKED_BY.match(fn)),
        None,
    )
    parts = (library_path(name) or name or "?").rsplit("/", 2)
    # A package's `__init__.py` with its package (`_prims_common/__init__.py`): the file name alone says nothing.
    short = "/".join(parts[-2:]) if parts[-1] == "__init__.py" and len(parts) > 1 else parts[-1]
    return (f"{asked} from " if asked else "") + f"{short}:{line}" + (f": {code.strip()}" if code else "")


def _fold_specialization(folding: Folding, fact: Fact, ident: Identity) -> None:
    ev = folding.evidence(fact, fact.kind, ident)
    if fact.data is not None and all(seen[1][0] != fact.data[0] for seen in ident.specialized):
        ident.specialized.append((fact.file, fact.data, ev))


def specializations(ident: Identity, strings_for: Callable[[str], dict[int, str]]) -> list[Specialization]:
    """The compilation's specializations, their files resolved through the intern table of the file each record
    was read from: the line is the innermost frame of the user's own code (not torch, the standard library or an
    installed package), the library frame under it, if any, `via`; the innermost frame when none is the user's."""
    out = []
    for file, (symbol, source, value, reason, frames, inner), ev in ident.specialized:
        names = strings_for(file)
        resolved = [(names.get(n) if isinstance(n, int) else n, line, code) for n, line, code in frames]
        users = [i for i, (name, _, _) in enumerate(resolved) if name and library_path(name) is None]
        at = users[-1] if users else len(resolved) - 1
        filename, line, code = resolved[at] if resolved else (None, None, None)
        via = None
        if resolved and at < len(resolved) - 1:
            v_name, v_line, v_code = resolved[-1]
            short = (library_path(v_name) or v_name or "?").rsplit("/", 1)[-1]
            via = f"{short}:{v_line}" + (f": {v_code.strip()}" if v_code else "")
        elif inner:
            via = _asked_from(tuple((names.get(n) if isinstance(n, int) else n, ln, c, fn) for n, ln, c, fn in inner))
        out.append(
            Specialization(
                symbol=symbol,
                source=source,
                value=value,
                reason=reason,
                file=filename,
                line=line,
                code=code.strip() if code else None,
                via=via,
                evidence_id=ev,
            )
        )
    return out


AOT_OPS_KEPT = 24  # an AOTAutograd graph's op kinds kept, most first


def _aten_ops(histogram: dict[str, int]) -> dict[str, int]:
    """An AOTAutograd graph's ops by ATen op, its overload left off (`torch.ops.aten.mm.default`: `mm`), most
    first, ties by name; at most AOT_OPS_KEPT; `operator.getitem` (a tuple's part) left out."""
    merged: dict[str, int] = {}
    for target, n in histogram.items():
        parts = target.split(".")
        if target.startswith("torch.ops.") and len(parts) >= 4:
            name = parts[3] if parts[2] == "aten" else f"{parts[2]}.{parts[3]}"
        elif target == "operator.getitem":
            continue
        else:
            name = target.rsplit(".", 1)[-1]
        merged[name] = merged.get(name, 0) + n
    return dict(sorted(merged.items(), key=lambda kv: (-kv[1], kv[0]))[:AOT_OPS_KEPT])


def _fold_aot_graph(folding: Folding, fact: Fact, ident: Identity) -> None:
    count, ops = fact.data if fact.data is not None else (None, {})
    ident.aot_graphs.append((fact.kind, count, folding.evidence(fact, fact.kind, ident)))
    ident.aot_ops[fact.kind] = ops


def _aot_graph(kind: str) -> RecordKind:
    def extract(text: str) -> tuple[int, dict[str, int]]:
        histogram = op_histogram(text)
        return sum(histogram.values()), _aten_ops(histogram)

    return RecordKind(kind, extract=payload(extract), fold=_fold_aot_graph)


DYNAMO_OUTPUT_GRAPH = RecordKind(
    "dynamo_output_graph", extract=_extract_output_graph, fold=_fold_output_graph, compiling=True
)
# A symbolic size made while tracing (`{"symbol": "s77", "val": "6", "source": "L['x'].size()[0]"}`): which input
# and dimension a symbol of the graph stands for.
CREATE_SYMBOL = RecordKind("create_symbol", extract=_extract_symbol, fold=_fold_symbol, compiling=True)
# A symbol made while tracing and then fixed to one value (range_refined_to_singleton: an indexed write with a
# Python int, a matmul that needs one width): what pinned a size or an int that dynamic shapes made symbolic.
SYMBOLIC_SHAPE_SPECIALIZATION = RecordKind(
    "symbolic_shape_specialization", extract=_extract_specialization, fold=_fold_specialization, compiling=True
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
        inputs=ident.graph_inputs[0] if ident.graph_inputs else [],
        inputs_omitted=ident.graph_inputs[1] if ident.graph_inputs else 0,
        outputs=ident.graph_outputs,
        constants=ident.graph_constants,
        literals=ident.graph_literals,
        discarded=(
            DiscardedGraph(
                attempt=ident.discarded_graph[0],
                op_histogram=ident.discarded_graph[1],
                inputs=ident.discarded_graph[2][0] if ident.discarded_graph[2] else [],
                evidence_id=ident.discarded_graph[3],
            )
            if ident.discarded_graph is not None
            else None
        ),
        graph_evidence_id=ident.graph_record,
        symbolic_sizes=[symbolic_size(ident, symbol) for symbol in ident.graph_symbols],
        evidence_ids=list(ident.graphs) + ([metrics_ev] if isinstance(op_count, int) and metrics_ev else []),
    )


def symbolic_size(ident: Identity, symbol: str) -> SymbolicSize:
    source, value, ev = ident.created_symbols.get(symbol, (None, None, None))
    return SymbolicSize(symbol=symbol, source=source, value=value, evidence_id=ev)


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
        forward_ops=ident.aot_ops.get("aot_forward_graph", {}),
        backward_ops=ident.aot_ops.get("aot_backward_graph", {}),
        inference_ops=ident.aot_ops.get("aot_inference_graph", {}),
        backward_compiled=bool(ident.bwd_metrics),
        backward_compile_time_s=sum(seconds) if seconds else None,
        evidence_ids=[ev for _, _, ev in ident.aot_graphs] + [ev for _, ev in ident.bwd_metrics],
    )
