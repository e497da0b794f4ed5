"""How a front end words a hint (dynamo_diff_schema.hints): a table HintAction -> clause, `phrase` to fill one in,
`with_hint` to join it to its message, and `PLAIN_HINTS`, the wording of compare's renderers when the caller passes no
table of its own. The CLI (dynamo_diff_cli.hints), the MCP server (dynamo_diff_mcp.hints) and the editor extension
(extension/src/common/hints.ts) each keep their own table."""

from __future__ import annotations

from collections.abc import Mapping

from dynamo_diff_schema.hints import Hint, HintAction

HintWords = Mapping[str, str]
"""A front end's phrasing: HintAction value -> a clause with `{arg}` placeholders (`{capture}`, `{kind}`, ...)."""


class _Placeholders(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return key.upper()  # an argument the hint does not know, shown as what to put there: CAPTURE, KIND


def phrase(hint: Hint, words: HintWords, **context: str) -> str:
    """The clause `words` gives for `hint`, its placeholders filled from the hint's args, then from `context` (what
    the caller knows, e.g. the capture a notice belongs to), else named in capitals (`CAPTURE`)."""
    template = words.get(str(hint.action))
    if template is None:  # an action this front end does not know (written by a later version)
        return " ".join([str(hint.action), *(f"{k}={v}" for k, v in sorted(hint.args.items()))])
    return template.format_map(_Placeholders({**context, **hint.args}))


def with_hint(message: str, hint: Hint | None, words: HintWords, **context: str) -> str:
    """A message with its hint worded by `words` after it, in brackets (the one way every front end joins them)."""
    return message if hint is None else f"{message} ({phrase(hint, words, **context)})"


# The wording of a front end that names no commands of its own (compare's renderers without a caller's table).
PLAIN_HINTS: dict[str, str] = {
    HintAction.LIST_CAPTURES: "list the captures in the store to see which there are",
    HintAction.IMPORT_FIRST: "import a trace first",
    HintAction.ANALYZE_CAPTURE: "read capture {capture} on its own",
    HintAction.EVIDENCE_OF_KIND: "the evidence of capture {capture} lists the kept records of a kind, e.g. {kind}",
    HintAction.COMPARE_RANKS: "comparing the ranks of {capture} groups them by behaviour and shows where groups "
    "first differ",
    HintAction.RECORD_WITH_CAPTURE: "record runs with Dynamo Diff's capture, not a bare trace, to keep their sources",
    HintAction.RECORD_RUN: "record the run with Dynamo Diff's capture: a recorded run that compiled nothing imports "
    "as a capture of 0 compilations",
    HintAction.IMPORT_WITH_LABEL: "give it a label when importing it",
    HintAction.MOVE_LABEL: "choose another label, or move it to the new capture",
    HintAction.PAIR_WITH_SOURCE_MAP: "a source map pairs them explicitly",
    HintAction.NAME_THE_CHANGE: "name {key} as the change under test when it is",
    HintAction.WHOLE_DOCUMENT: "the JSON document holds all of them",
}
