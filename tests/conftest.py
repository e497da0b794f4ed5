"""Helpers shared by test folders."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

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


FIXTURE_CAPTURES = Path(__file__).resolve().parents[1] / "fixtures/captures"
# two_ranks: rank 0 compiles f once, rank 1 three times with two shape recompiles (the workload's oracle.json).
TWO_RANKS_LOGS = {
    0: next((FIXTURE_CAPTURES / "two_ranks/raw").glob("dedicated_log_torch_trace_rank_0_*.log")),
    1: next((FIXTURE_CAPTURES / "two_ranks/raw").glob("dedicated_log_torch_trace_rank_1_*.log")),
}


def write_rank_job(target: Path, layout: dict[int, int], logs: dict[int, Path] = TWO_RANKS_LOGS) -> Path:
    """A TORCH_TRACE directory of a job whose rank N is a copy of the real rank log `logs[layout[N]]`, with the
    rank in its file name and in every record header rewritten to N: what N ranks of one job would write if ranks
    behaved like the source ranks."""
    target.mkdir(parents=True, exist_ok=True)
    texts = {source: path.read_text(encoding="utf-8") for source, path in logs.items()}
    for rank, source in layout.items():
        text = texts[source].replace(f'"rank": {source},', f'"rank": {rank},')
        (target / f"dedicated_log_torch_trace_rank_{rank}_job.log").write_text(text, encoding="utf-8")
    return target


@pytest.fixture
def rank_job() -> Callable[..., Path]:
    return write_rank_job
