"""Parse the text of a `dynamo_graph_break_reason` artifact into a GraphBreak.

Torch 2.13 writes (abridged):
    Graph break in user code at /path/model.py:5
    Graph Break Reason: Encountered graph break when attempting to trace CALL: ...:
    <blank>
    Failed to trace builtin operator                 <- the graph-break type
      Explanation: ...
     For more details about this graph break, please visit: .../gb/gb0059.html
    User code traceback:
      File "/path/model.py", line 9, in <module>
        ...
    Traceback (most recent call last):               <- torch's own frames (not user code)
Older torch has only the first two lines and the user traceback.
"""

from __future__ import annotations

import re

from dynamo_diff_schema.compilation import GraphBreak, StackFrame

_SITE = re.compile(r"^Graph break in user code at (?P<file>.+?):(?P<line>\d+)\s*$", re.M)
_REASON = re.compile(r"^Graph Break Reason:\s*(?P<reason>.*)$", re.M)
_GB_ID = re.compile(r"\b(gb\d{4})\b")
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<name>.+?)\s*$')
_GB_TYPE_NEXT = re.compile(r"^\s+Explanation:")


def parse_graph_break(text: str, evidence_id: str | None) -> GraphBreak:
    site = _SITE.search(text)
    reason_match = _REASON.search(text)
    lines = text.splitlines()
    gb_type = None
    for i, line in enumerate(lines[1:], start=1):
        if _GB_TYPE_NEXT.match(line) and lines[i - 1].strip():
            gb_type = lines[i - 1].strip()
            break
    reason = reason_match.group("reason").strip() if reason_match else ""
    if gb_type and gb_type not in reason:
        reason = f"{reason} {gb_type}".strip()
    if not reason:
        reason = next((line.strip() for line in lines if line.strip()), "")
    gb_id = _GB_ID.search(text)
    return GraphBreak(
        gb_id=gb_id.group(1) if gb_id else None,
        gb_type=gb_type,
        reason=reason,
        user_file=site.group("file") if site else None,
        user_line=int(site.group("line")) if site else None,
        user_stack=_user_stack(lines),
        evidence_id=evidence_id,
    )


def _user_stack(lines: list[str]) -> list[StackFrame]:
    frames: list[StackFrame] = []
    inside = False
    for line in lines:
        stripped = line.strip()
        if stripped == "User code traceback:":
            inside = True
            continue
        if inside and stripped.startswith("Traceback (most recent call last)"):
            break
        if inside:
            match = _FRAME.match(line)
            if match:
                frames.append(StackFrame(filename=match["file"], line=int(match["line"]), name=match["name"]))
    return frames
