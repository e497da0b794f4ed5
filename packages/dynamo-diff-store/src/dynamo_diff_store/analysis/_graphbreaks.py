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
Older torch has only the first two lines and the user traceback: its explanation, hints, operator and page stay
None / [] (nothing is read from anywhere else).

torch formats the message in `format_graph_break_message` (torch/_dynamo/exc.py): the type line, then
`  Explanation: `, one `  Hint: ` line per hint and `  Developer debug context: `, a value's further lines indented
by four spaces; torch repeats the message in the exception at the end of the record, so only the part before the
user traceback is read.
"""

from __future__ import annotations

import re

from dynamo_diff_schema.compilation import GraphBreak, StackFrame

_SITE = re.compile(r"^Graph break in user code at (?P<file>.+?):(?P<line>\d+)\s*$", re.M)
_REASON = re.compile(r"^Graph Break Reason:\s*(?P<reason>.*)$", re.M)
_GB_ID = re.compile(r"\b(gb\d{4})\b")
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<name>.+?)\s*$')
_CARETS = re.compile(r"^[~^\s]+$")
_GB_TYPE_NEXT = re.compile(r"^\s+Explanation:")
_URL = re.compile(r"please visit: (?P<url>\S+)")
_FIELDS = (("explanation", "  Explanation: "), ("hint", "  Hint: "), ("context", "  Developer debug context: "))
_CONTINUED = "    "
# Where the explanation or the developer debug context names what the break is about (torch 2.13's wordings):
# builtin operator `print`; method `m` of class `C`; the function `f` (a skipped function); tracing `Tensor.item()`;
# Called `torch._dynamo.graph_break()`; Operator `aten.nonzero.default`'s output shape (a dynamic shape operator);
# the context of a builtin: 'builtin print [...]'.
_OPERATOR = (
    re.compile(r"builtin operator `(?P<name>[^`]+)`"),
    re.compile(r"^Operator `(?P<name>[^`]+)`'s output"),
    re.compile(r"method `(?P<method>[^`]+)` of class `(?P<cls>[^`]+)`"),
    re.compile(r"the function `(?P<name>[^`]+)`"),
    re.compile(r"tracing `(?P<name>[^`(]+)\(\)`"),
    re.compile(r"^Called `(?P<name>[^`(]+)\(\)`"),
    re.compile(r"^builtin (?P<name>[A-Za-z_][\w.]*) \["),
    # A builtin Dynamo cannot trace (`random.random()`): "trace the builtin `<unknown module>.Random.random.`".
    re.compile(r"trace the builtin `(?:<unknown module>\.)?(?P<name>[\w.]+?)\.?`"),
    # An argument Dynamo cannot put in a graph (`Failed to convert args/kwargs to proxy`): the context lists the
    # call's arguments as Dynamo holds them, a user object as `UserDefinedObjectVariable(Generator)`.
    re.compile(r"^call_function args: .*?\bUserDefined(?:Object|Class)Variable\((?P<name>[\w.]+)\)"),
)
# torch 2.8+ appends a second break it hit while handling the first (a break inside a for/while loop: "graph break
# in loop", which skips the frame); the first break's own explanation and hints are those before it.
CHAINED_BREAK = "*** While handling this graph break, another graph break occurred: ***"


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
    own = _torch_part(lines)
    fields = _fields(own)
    explanation = fields["explanation"][0] if fields["explanation"] else None
    context = fields["context"][0] if fields["context"] else None
    url = next((m.group("url") for line in own if (m := _URL.search(line))), None)
    return GraphBreak(
        gb_id=gb_id.group(1) if gb_id else None,
        gb_type=gb_type,
        reason=reason,
        explanation=explanation,
        hints=fields["hint"],
        operator=_operator(explanation, context),
        url=url,
        user_file=site.group("file") if site else None,
        user_line=int(site.group("line")) if site else None,
        user_stack=_user_stack(lines),
        evidence_id=evidence_id,
    )


def _torch_part(lines: list[str]) -> list[str]:
    """The record's lines up to the user traceback, torch's own traceback or a second break torch hit while handling
    this one, whichever comes first."""
    out = []
    for line in lines:
        stripped = line.strip()
        if (
            stripped == "User code traceback:"
            or stripped.startswith("Traceback (most recent call last)")
            or stripped == CHAINED_BREAK
        ):
            break
        out.append(line)
    return out


def _fields(lines: list[str]) -> dict[str, list[str]]:
    """torch's 'Explanation:', 'Hint:' and 'Developer debug context:' values, verbatim, each with the further lines
    torch indented under it joined by newlines."""
    found: dict[str, list[str]] = {name: [] for name, _ in _FIELDS}
    current: str | None = None
    for line in lines:
        for name, prefix in _FIELDS:
            if line.startswith(prefix):
                found[name].append(line[len(prefix) :].rstrip())
                current = name
                break
        else:
            if current is not None and line.startswith(_CONTINUED) and line.strip():
                found[current][-1] += "\n" + line[len(_CONTINUED) :].rstrip()
            else:
                current = None
    return found


def _operator(explanation: str | None, context: str | None) -> str | None:
    """What the break is about, when the explanation (else the debug context) names it; None otherwise."""
    for text in (explanation, context):
        if not text:
            continue
        for pattern in _OPERATOR:
            match = pattern.search(text)
            if match is not None:
                groups = match.groupdict()
                return f"{groups['cls']}.{groups['method']}" if "cls" in groups else groups["name"]
    return None


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
            elif frames and frames[-1].code is None and stripped and not _CARETS.match(stripped):
                # the line's text, which traceback prints under its frame (carets under it are not code)
                frames[-1] = frames[-1].model_copy(update={"code": stripped})
    return frames
