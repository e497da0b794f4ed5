"""What a shape-environment record says, in one line, for the evidence index: the symbol torch made for a size or an
int and from what (`create_symbol`), the guard it added (`guard_added_fast`, `guard_added`), the value it fixed a
symbol to and why (`symbolic_shape_specialization`), each with the user's line it was added at. Read from the
record's own JSON header; a record of another form is not summarised."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from dynamo_diff_schema.code_paths import library_path

SHAPE_RECORD_KINDS = frozenset(
    {
        "create_symbol",
        "create_unbacked_symbol",
        "guard_added_fast",
        "guard_added",
        "symbolic_shape_specialization",
    }
)
_CODE_CHARS = 80


def _payload(kind: str, text: str) -> dict[str, Any] | None:
    """The record's `{kind: {...}}` payload, from its header line (the glog prefix, then JSON)."""
    header = text.split("\n", 1)[0]
    start = header.find("{")
    if start < 0:
        return None
    try:
        record = json.loads(header[start:])
    except ValueError:
        return None
    payload = record.get(kind) if isinstance(record, dict) else None
    return payload if isinstance(payload, dict) else None


def _file(frame: dict[str, Any], strings: Mapping[int, str]) -> str | None:
    """A stack frame's file: its name, or the trace's intern table's entry for its index (torch 2.5 on)."""
    name = frame.get("filename")
    if type(name) is int:
        return strings.get(name)
    return str(name) if name else None


def _user_line(payload: dict[str, Any], strings: Mapping[int, str]) -> str:
    """` at misc.py:7: h = self.conv(x)`: the innermost frame of the record's user stack in the user's own files
    (none when a frame's file is not known)."""
    frames = [(f, _file(f, strings)) for f in payload.get("user_stack") or [] if isinstance(f, dict)]
    if any(file is None for _, file in frames):
        return ""
    mine = [(f, file) for f, file in frames if file is not None and library_path(file) is None]
    if not mine:
        return ""
    last, file = mine[-1]
    name = file.replace("\\", "/").rsplit("/", 1)[-1]
    code = str(last.get("loc") or "").strip()
    if len(code) > _CODE_CHARS:
        code = code[: _CODE_CHARS - 1] + "…"
    return f" at {name}:{last.get('line', '?')}" + (f": {code}" if code else "")


def shape_record_summary(kind: str, text: str, strings: Mapping[int, str] | None = None) -> str | None:
    """One line for a shape-environment record (`guard Eq(s89, 16) at misc.py:7: h = self.conv(x)`), or None;
    `strings`: the trace's intern table (file names by index)."""
    if kind not in SHAPE_RECORD_KINDS:
        return None
    p = _payload(kind, text)
    if p is None:
        return None
    at = _user_line(p, strings or {})
    if kind in ("guard_added_fast", "guard_added") and p.get("expr"):
        return f"guard {p['expr']}{at}"
    if kind == "create_symbol" and p.get("symbol"):
        source = f" = {p['source']}" if p.get("source") else ""
        made = [f"{p['val']} when made"] if p.get("val") is not None else []
        made += [f"range {p['vr']}"] if p.get("vr") else []
        return f"symbol {p['symbol']}{source}" + (f" ({', '.join(made)})" if made else "") + at
    if kind == "create_unbacked_symbol" and p.get("symbol"):
        return f"unbacked symbol {p['symbol']}" + (f" (range {p['vr']})" if p.get("vr") else "") + at
    if kind == "symbolic_shape_specialization" and p.get("symbol"):
        sources = [str(s) for s in p.get("sources") or []]
        of = f" ({', '.join(sources)})" if sources else ""
        why = f" ({p['reason']})" if p.get("reason") else ""
        return f"{p['symbol']}{of} fixed to {p.get('value', '?')}{why}{at}"
    return None
