"""The raw guard trees of the fixture captures, cut from their logs by pattern (never by the project's reader):
what the reader tests of guard trees take their expected values from."""

from __future__ import annotations

import re
from pathlib import Path

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def raw_guard_tree(name: str, frame: int, compile_id: int) -> str:
    """The guard tree torch wrote for `frame`/`compile_id` of capture `name` (the tab-indented lines under its
    dynamo_cpp_guards_str record)."""
    (raw,) = (CAPTURES / name / "raw").glob("*.log")
    head = re.compile(
        rf'^\S+ [\d:.]+ \d+ \S+\] \{{"dynamo_cpp_guards_str": {{}}, "frame_id": {frame}, '
        rf'"frame_compile_id": {compile_id}, .*$\n((?:\t.*\n)+)',
        re.M,
    )
    (body,) = head.findall(raw.read_text(encoding="utf-8"))
    return body
