"""Graph breaks, restarts and unfinished compilations in words, the same in every view.

A graph break in one line: torch's type line, the operator the record names when the
type line does not, the registry id, and torch's first hint that asks for a change in the user's code.

torch ends many breaks' hints with a request to report the break to PyTorch ("Please report an issue to PyTorch.",
"Please file an issue to PyTorch.", "It may be possible to write Dynamo tracing rules ... Please report an issue
..."): those are kept in the JSON (`GraphBreak.hints`) and left out of the line, which has room for one hint.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dynamo_diff_schema.compilation import Compilation, LastRecord, Restart

_ASKS_FOR_AN_ISSUE = re.compile(r"\b(?:report|file) an issue\b", re.IGNORECASE)


def actionable_hint(hints: Sequence[str]) -> str | None:
    """torch's first hint that is not a request to report the break to PyTorch, on one line; None when none is."""
    for hint in hints:
        if not _ASKS_FOR_AN_ISSUE.search(hint):
            return " ".join(hint.split())
    return None


def _names(text: str, operator: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(operator)}(?!\w)", text) is not None


def break_title(what: str, operator: str | None, gb_id: str | None = None) -> str:
    """`Failed to trace builtin operator `print` [gb0059]`: the type line (or the reason's first line), the operator
    when the type line does not name it already, and the registry id when given."""
    title = what
    if operator and not _names(what, operator):
        title += f" `{operator}`"
    return title + (f" [{gb_id}]" if gb_id else "")


def break_summary(
    what: str, operator: str | None, hints: Sequence[str], gb_id: str | None = None, code: str | None = None
) -> str:
    """The title, the text of the user's line when known (`code`) and torch's first actionable hint: `... [gb0059];
    its line: `print(x)`; torch's hint: Avoid calling builtin `print` ...`. A record without hints (older torch)
    gives no hint."""
    hint = actionable_hint(hints)
    title = break_title(what, operator, gb_id) + (f"; its line: `{code}`" if code else "")
    return f"{title}; torch's hint: {hint}" if hint else title


# torch 2.8+ appends to a break's text the break it hit while handling it (a break inside a for/while loop is "graph
# break in loop": torch skips the whole frame), with that break's own explanation.
_CHAINED = re.compile(
    r"\*\*\* While handling this graph break, another graph break occurred: \*\*\*\s*\n\s*(?P<title>[^\n]+)"
    r"(?:\n\s*Explanation: (?P<explanation>[^\n]+))?"
)


def chained_break(text: str) -> str | None:
    """`graph break in loop: torch.compile detected a graph break in a for/while loop. Skipping the frame ...`: the
    second break torch hit while handling the first, with its explanation; None when the text has none."""
    m = _CHAINED.search(text)
    if m is None:
        return None
    title = m["title"].strip()
    return f"{title}: {m['explanation'].strip()}" if m["explanation"] else title


def loop_break(text: str) -> bool:
    """Whether the second break is torch's break inside a for/while loop (it skips the whole frame)."""
    return (found := chained_break(text)) is not None and found.startswith("graph break in loop")


def restart_words(restart: Restart) -> str:
    """What restarted the analysis, in a few words: after its graph break, the exception torch named, else the
    reason's first line."""
    if restart.graph_break:
        return "after the graph break"
    if restart.exception:
        return restart.exception
    first = restart.reason.strip().split("\n", 1)[0].strip()
    return first or "reason not in the trace"


def restarts_text(comp: Compilation) -> str:
    """`1 restart: TensorifyScalarRestartAnalysis`; restarts torch counted without listing a reason say so."""
    words = list(dict.fromkeys(restart_words(r) for r in comp.restarts))
    n = comp.restart_count
    said = "; ".join(words) if words else "reason not in the trace"
    return f"{n} restart{'s' if n != 1 else ''}: {said}"


_STAGE_WORDS = {
    "dynamo": "Dynamo tracing the frame",
    "backend": "the backend (Dynamo's graph was handed to it)",
    "aot_autograd": "AOTAutograd",
    "inductor": "Inductor",
    "guards": "building the guards",
}


def reached_text(reached: LastRecord, *, evidence: bool = True) -> str:
    """`never finished: reached the backend (...); last record dynamo_output_graph (ev u1-e23), no
    compilation_metrics`; `evidence=False` leaves the evidence id out (a change lists it at its end)."""
    stage = _STAGE_WORDS.get(reached.stage, "a stage not known")
    ev = f" (ev {reached.evidence_id})" if reached.evidence_id and evidence else ""
    return f"never finished: reached {stage}; last record {reached.kind}{ev}, no compilation_metrics"
