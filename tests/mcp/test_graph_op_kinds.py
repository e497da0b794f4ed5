"""analyze_capture's text: what each compilation's graph holds by op, from the workload's own backend (the oracle
lists the targets of the graph it was handed)."""

from __future__ import annotations

import json
import re
from collections import Counter

from .conftest import CAPTURES, Session, text_of


def test_the_text_says_what_the_graph_holds(session: Session) -> None:
    oracle = json.loads((CAPTURES / "checkpoint_fn" / "oracle.json").read_text(encoding="utf-8"))
    (graph,) = oracle["backend_graphs"]
    ranked = sorted(Counter(graph["ops"]).items(), key=lambda kv: (-kv[1], kv[0]))
    expected = f"graph: {len(graph['ops'])} ops: " + ", ".join(f"{name} {n}" for name, n in ranked)
    text = text_of(session.call("analyze_capture", capture="captures/checkpoint_fn"))
    (line,) = [s.strip() for s in text.splitlines() if s.strip().startswith("graph: ")]
    inputs = f"; {graph['num_placeholders']} graph inputs"  # the placeholders of the graph it was handed
    assert re.fullmatch(re.escape(expected + inputs) + r" \(ev u\d+-e\d+\)", line), line
