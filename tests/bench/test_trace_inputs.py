"""The benchmark's input builder (tools/bench/trace_inputs.py) writes a trace that is still a valid torch trace:
every payload's md5 matches, every copy is new compilations, and interned file names still name the same
files. Checked by reading the log here, without the project's reader."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "bench"))

from trace_inputs import DEFAULT_BASES, MiB, build_log, payload_check  # noqa: E402

META = re.compile(rb"^[VIWEF]\d{4} [\d:.]+\s+\d+ [^\]]+\] (\{.*)$")


def metadata(path: Path) -> list[dict[str, object]]:
    return [json.loads(m.group(1)) for line in path.read_bytes().splitlines() if (m := META.match(line))]


def stack_files(records: list[dict[str, object]]) -> list[str]:
    """The file names of every dynamo_start stack, resolved through the log's own `str` records."""
    table: dict[int, str] = {}
    names: list[str] = []
    for obj in records:
        if "str" in obj:
            text, index = obj["str"]  # type: ignore[misc]
            assert table.setdefault(index, text) == text, "an interned id names two strings"
        elif "dynamo_start" in obj:
            names += [table[frame["filename"]] for frame in obj["dynamo_start"]["stack"]]  # type: ignore[index]
    return names


def test_built_log_keeps_md5s_makes_new_compilations_and_keeps_file_names(tmp_path: Path) -> None:
    out = tmp_path / "trace.log"
    facts = build_log(out, 3 * MiB)
    assert facts.copies >= 6 and facts.bytes == out.stat().st_size >= 3 * MiB
    assert payload_check(out) == (facts.payloads, 0)
    records = metadata(out)
    assert len(records) == facts.records
    assert sum("chromium_event" in r for r in records) == facts.chromium_events > facts.records // 2

    starts = Counter(
        (r.get("compiled_autograd_id"), r.get("frame_id"), r.get("frame_compile_id"), r.get("attempt"))
        for r in records
        if "dynamo_start" in r
    )
    assert starts and max(starts.values()) == 1, "a compilation identity repeats across copies"
    for r in records:
        metrics = r.get("compilation_metrics")
        if isinstance(metrics, dict) and isinstance(metrics.get("compile_id"), str):
            expected = f"{r['frame_id']}/{r['frame_compile_id']}"
            if r.get("compiled_autograd_id") is not None:
                expected = f"!{r['compiled_autograd_id']}/{expected}"
            assert metrics["compile_id"] == expected

    rounds = facts.copies // len(DEFAULT_BASES)
    expected_names = [name for base in DEFAULT_BASES for name in stack_files(metadata(base))] * rounds
    assert stack_files(records)[: len(expected_names)] == expected_names
