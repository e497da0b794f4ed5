"""Helpers shared by test folders."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

# The multi-rank job builder is shared with the rank-scaling benchmark (tools/bench/trace_inputs.py).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools" / "bench"))
from trace_inputs import TWO_RANKS_LOGS, write_rank_job

__all__ = ["TWO_RANKS_LOGS", "write_rank_job"]

_PREFIX = re.compile(r"^[VIWE]\d{4} [\d:.]+ \d+ \S+\] (\{.*)$")
# Values that differ from run to run whatever the program does: addresses, times, ids, guard latency.
_VOLATILE = (
    (re.compile(r"0x[0-9a-f]+"), "0x?"),
    (re.compile(r"\d{6,}"), "N"),
    (re.compile(r"Guard latency = [\d.]+ us"), "Guard latency"),
)
_META = ("frame_id", "frame_compile_id", "attempt", "has_payload", "stack", "rank", "compiled_autograd_id")

Payloads = list[tuple[str, int | None, int | None, str]]


def graph_payloads(raw: Path) -> Payloads:
    """(kind, frame id, frame compile id, payload) of the records that hold graphs, guards and reasons in the trace
    logs of `raw`, read straight from the files (not through our reader), with run-to-run noise replaced."""
    wanted = ("dynamo_output_graph", "dynamo_cpp_guards_str", "dynamo_graph_break_reason", "recompile_reasons")
    out: Payloads = []
    for log in sorted(raw.glob("*.log")):
        lines = log.read_text(encoding="utf-8").split("\n")
        for i, line in enumerate(lines):
            match = _PREFIX.match(line)
            if not match:
                continue
            record = json.loads(match.group(1))
            kind = next(k for k in record if k not in _META)
            if kind == "artifact":
                kind = record["artifact"].get("name", "artifact")
            if kind not in wanted:
                continue
            body = []
            for following in lines[i + 1 :]:
                if not following.startswith("\t"):
                    break
                body.append(following[1:])
            text = "\n".join(body)
            for pattern, replacement in _VOLATILE:
                text = pattern.sub(replacement, text)
            out.append((kind, record.get("frame_id"), record.get("frame_compile_id"), text))
    return out


@pytest.fixture
def trace_payloads() -> Callable[[Path], Payloads]:
    return graph_payloads


@pytest.fixture
def rank_job() -> Callable[..., Path]:
    return write_rank_job
