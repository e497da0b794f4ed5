"""A dozen typical tool calls on the retained fixture captures, one of each kind of result an agent reads (a run
imported, the store listed, one run read, two runs and two ranks compared, evidence and source), for measuring
what a result costs: `tools/mcp_sizes.py` prints their sizes, `tests/mcp/test_outline.py` bounds them.

Each call is `(name, make)`, where `make(call)` makes the calls it needs first (imports, an evidence index) through
`call(tool, **arguments)` and returns the result to measure; `full=True` in `extra` asks for the whole document.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mcp.types import CallToolResult

Call = Callable[..., CallToolResult]
Make = Callable[[Call, dict[str, Any]], CallToolResult]


def _id(call: Call, name: str) -> str:
    result = call("import_trace", path=f"captures/{name}")
    return str(result.structured_content["captures"][0]["capture"]["id"])


def _first_evidence(call: Call, name: str, kind: str) -> tuple[str, str]:
    cid = _id(call, name)
    items = call("get_evidence", capture=cid, kind=kind, full=True).structured_content["items"]
    return cid, str(items[0]["id"])


def _listed(call: Call, extra: dict[str, Any]) -> CallToolResult:
    for name in ("shape", "stable", "edit_v1"):
        _id(call, name)
    return call("list_captures", **extra)


def _excerpt(call: Call, extra: dict[str, Any]) -> CallToolResult:
    cid, evidence = _first_evidence(call, "graph_break", "dynamo_graph_break_reason")
    return call("get_evidence", capture=cid, evidence_id=evidence, **extra)


def _grep(call: Call, extra: dict[str, Any]) -> CallToolResult:
    cid, evidence = _first_evidence(call, "shape", "compilation_metrics")
    return call("get_evidence", capture=cid, evidence_id=evidence, grep="fail_|compile_id", **extra)


TYPICAL: list[tuple[str, Make]] = [
    ("import_trace recompile_limit", lambda c, x: c("import_trace", path="captures/recompile_limit", **x)),
    ("import_trace two_ranks", lambda c, x: c("import_trace", path="captures/two_ranks", **x)),
    ("list_captures", _listed),
    ("analyze_capture recompile_limit", lambda c, x: c("analyze_capture", capture="captures/recompile_limit", **x)),
    ("analyze_capture backend_failure", lambda c, x: c("analyze_capture", capture="captures/backend_failure", **x)),
    (
        "analyze_capture graph_break with_print",
        lambda c, x: c("analyze_capture", capture="captures/graph_break", function="with_print", **x),
    ),
    (
        "compare_runs edit_v1 edit_v2",
        lambda c, x: c("compare_runs", baseline="captures/edit_v1", candidate="captures/edit_v2", **x),
    ),
    (
        "compare_runs break_fix_v1 break_fix_v2",
        lambda c, x: c("compare_runs", baseline="captures/break_fix_v1", candidate="captures/break_fix_v2", **x),
    ),
    (
        "compare_runs inductor_cold inductor_warm",
        lambda c, x: c("compare_runs", baseline="captures/inductor_cold", candidate="captures/inductor_warm", **x),
    ),
    (
        "compare_runs llama_213 llama_214",
        lambda c, x: c("compare_runs", baseline="captures/llama_213", candidate="captures/llama_214", **x),
    ),
    ("compare_ranks two_ranks", lambda c, x: c("compare_ranks", capture="captures/two_ranks", **x)),
    ("get_evidence index", lambda c, x: c("get_evidence", capture=_id(c, "llama_214"), **x)),
    ("get_evidence excerpt", _excerpt),
    ("get_evidence grep", _grep),
    ("get_source file", lambda c, x: c("get_source", capture="captures/call_site_v2", file="main.py", **x)),
    (
        "get_source diff",
        lambda c, x: c(
            "get_source", capture="captures/call_site_v1", against="captures/call_site_v2", function="preprocess", **x
        ),
    ),
]


def text_chars(result: CallToolResult) -> int:
    """Characters of the text an agent reads."""
    return sum(len(getattr(block, "text", "")) for block in result.content)


def structured_chars(result: CallToolResult) -> int:
    """Characters of the structured content as compact JSON (what a client that passes it on adds)."""
    return len(json.dumps(result.structured_content or {}, separators=(",", ":"), ensure_ascii=False))


def listing_chars(tools: Any, instructions: str | None) -> int:
    """Characters of the tools/list result as JSON, with the server's instructions (both sit in an agent's
    context on every turn)."""
    return len(tools.model_dump_json(by_alias=True, exclude_none=True)) + len(instructions or "")
