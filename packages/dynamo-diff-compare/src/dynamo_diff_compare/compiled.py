"""What every view says first about a run that compiled nothing: its counts are all 0, which reads as a perfect
run (docs/SEMANTICS.md, "Runs that compiled nothing")."""

from __future__ import annotations

from dynamo_diff_schema.capture import CompiledState, CompiledStatus

# The loud word of each state that is not `compiled`.
COMPILED_WORDS = {CompiledState.NOTHING_COMPILED: "NOTHING COMPILED", CompiledState.NO_GRAPH: "NO GRAPH COMPILED"}


def compiled_nothing(status: CompiledStatus | None) -> bool:
    """True when no graph reached the backend: no frame was compiled, or every compilation ended without a graph."""
    return status is not None and status.state != CompiledState.COMPILED


def compiled_line(status: CompiledStatus | None, side: str | None = None) -> str | None:
    """'NOTHING COMPILED: torch.compile was called 2 times (Net at train.py:27) but no frame was compiled' (with
    `side`: 'the candidate COMPILED NOTHING: ...'); None when the run compiled something (or it is not known)."""
    if status is None or not compiled_nothing(status):
        return None
    word = COMPILED_WORDS[CompiledState(status.state)]
    if side is None:
        return f"{word}: {status.summary}"
    verb = "COMPILED NOTHING" if status.state == CompiledState.NOTHING_COMPILED else "COMPILED NO GRAPH"
    return f"the {side} {verb}: {status.summary}"
