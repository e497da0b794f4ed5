"""Summaries of Dynamo's output graph (the `dynamo_output_graph` payload is GraphModule.print_readable() text)."""

from __future__ import annotations

import re
from collections import Counter

# `    sin: "f32[4][1]cpu" = torch.sin(l_x_);  l_x_ = None`  or, in older torch, `    sin = torch.sin(l_x_)`
_ASSIGN_CALL = re.compile(r'^\s+[A-Za-z_]\w*(?:\s*:\s*"[^"]*")?\s*=\s*([A-Za-z_][\w.]*)\(')
_DEF_FORWARD = re.compile(r"^\s*def forward\(")


def op_histogram(graph_text: str) -> dict[str, int]:
    """Count the calls of the graph's forward by target: `torch.sin`, `operator.add`, `Tensor.sin` (a method
    on a local), `module` (a submodule call). Calls inside nested GraphModules of higher-order ops count too."""
    counts: Counter[str] = Counter()
    in_forward = False
    for line in graph_text.splitlines():
        if _DEF_FORWARD.match(line):
            in_forward = True
            continue
        if not in_forward:
            continue
        match = _ASSIGN_CALL.match(line)
        if match is None:
            continue
        target = match.group(1)
        head, _, rest = target.partition(".")
        if head in {"torch", "operator", "math", "builtins", "_operator"}:
            counts[target] += 1
        elif head == "self":
            counts["module"] += 1
        elif rest:
            counts[f"Tensor.{rest.rsplit('.', 1)[-1]}"] += 1
        else:
            counts[target] += 1
    return dict(sorted(counts.items()))
