"""How the MCP server words a hint (dynamo_diff_schema.HintAction) for an agent: the tool call that takes the next
step. The layers below say which step as a code with arguments; the structured results keep that code, the text an
agent reads first has this wording. A step no tool takes (recording a run) names the CLI command to run in a
shell."""

from __future__ import annotations

from dynamo_diff_compare import with_hint
from dynamo_diff_schema import Hint, HintAction

MCP_HINTS: dict[str, str] = {
    HintAction.LIST_CAPTURES: "see list_captures()",
    HintAction.IMPORT_FIRST: "import a run first with import_trace(path=...)",
    HintAction.ANALYZE_CAPTURE: 'see analyze_capture(capture="{capture}")',
    HintAction.EVIDENCE_OF_KIND: 'get_evidence(capture="{capture}", kind="{kind}") lists the kept records of a kind',
    HintAction.COMPARE_RANKS: 'compare_ranks(capture="{capture}") groups them by behaviour and shows where groups '
    "first differ",
    HintAction.RECORD_WITH_CAPTURE: "runs recorded with `dynamo-diff capture -- COMMAND` in a shell keep their "
    "sources (no tool runs a workload)",
    HintAction.RECORD_RUN: "record it with `dynamo-diff capture -- COMMAND` in a shell (no tool runs a workload), "
    "which imports a run that compiled nothing as a capture of 0 compilations",
    HintAction.IMPORT_WITH_LABEL: 'import_trace(path=..., label="...") names it',
    HintAction.MOVE_LABEL: "choose another label for import_trace(label=...)",
    HintAction.PAIR_WITH_SOURCE_MAP: "compare_runs(source_map=...) pairs them explicitly",
    HintAction.NAME_THE_CHANGE: 'compare_runs(change=["{key}"]) when it is the change under test',
    HintAction.WHOLE_DOCUMENT: "the structured result holds them all",
}


def for_agents(message: str, hint: Hint | None, **context: str) -> str:
    """A message with its hint worded as the tool call an agent makes (`context`: e.g. the capture it is about)."""
    return with_hint(message, hint, MCP_HINTS, **context)
