"""What the program was at when a compilation started: the observer's values of the user's frames
(`Compilation.started_with`, only in a capture recorded by `dynamo-diff capture`), said in one short line."""

from __future__ import annotations

from collections.abc import Sequence

from dynamo_diff_schema.manifest import FrameValues, Scalar

# The line's values part is cut after this many characters (a value each, whole).
VALUES_CHARS = 100


def started_frame(frames: Sequence[FrameValues]) -> FrameValues | None:
    """The innermost user frame that has values (the call site, where a loop's variables are)."""
    return next((f for f in frames if f.values), None)


def started_outer(frames: Sequence[FrameValues]) -> FrameValues | None:
    """The outermost user frame that has values, when the innermost one holds no int (no loop counter: a
    `__torch_function__`'s `kwargs=None`) and it is another frame: the loop that made the call, a few calls out."""
    inner = started_frame(frames)
    if inner is None or any(type(v.value) is int for v in inner.values):
        return None
    outer = next((f for f in reversed(frames) if f.values), None)
    return outer if outer is not None and outer is not inner else None


def _value(value: Scalar) -> str:
    return repr(value) if isinstance(value, str) else str(value)


def started_text(
    frame: FrameValues | None, outer: FrameValues | None = None, *, where_said: str | None = None
) -> str | None:
    """`when it started: step=2, probe=True (train.py:55 in main)`, then the outermost frame's values when given
    (`<- epoch=3, it=2 (train.py:80 in <module>)`); None without values. `where_said`: the text said this frame's
    place for the previous compilation (the same): its values only."""
    if frame is None or not frame.values:
        return None
    own = _said(frame, where=where_said is None)
    return "when it started: " + own + (f" <- {_said(outer)}" if outer is not None and outer.values else "")


def _said(frame: FrameValues, *, where: bool = True) -> str:
    said: list[str] = []
    size = 0
    for v in frame.values:
        part = f"{v.name}={_value(v.value)}"
        if said and size + len(part) > VALUES_CHARS:
            said.append("…")
            break
        said.append(part)
        size += len(part) + 2
    if not where:
        return ", ".join(said)
    at = f"{frame.file.rsplit('/', 1)[-1]}:{frame.line if frame.line is not None else '?'}"
    return f"{', '.join(said)} ({at} in {frame.function or '?'})"
