"""Next steps as codes with arguments: a notice or an error says what is so in its message and, in its hint, what
the user can do next. Each front end words a hint from its own table (the CLI names a command, the MCP server a
tool call, the editor extension one of its commands); nothing below them names a front end's commands."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from pydantic import Field

from dynamo_diff_schema.base import Model


class HintAction(StrEnum):
    """Every next step a notice or an error can point to (docs/SEMANTICS.md, "Notices", "Hints")."""

    LIST_CAPTURES = "list_captures"  # which captures the store holds
    IMPORT_FIRST = "import_first"  # the store is empty: import a run
    ANALYZE_CAPTURE = "analyze_capture"  # args: capture; read one capture on its own
    EVIDENCE_OF_KIND = "evidence_of_kind"  # args: kind, capture (when known); records of one kind
    COMPARE_RANKS = "compare_ranks"  # args: capture; its ranks grouped by behaviour
    RECORD_WITH_CAPTURE = "record_with_capture"  # record runs (not bare traces) to keep their sources
    RECORD_RUN = "record_run"  # record the run: a recorded run that compiled nothing is a capture of 0
    IMPORT_WITH_LABEL = "import_with_label"  # name a capture when importing it
    MOVE_LABEL = "move_label"  # args: label; another label, or move this one to the new capture
    PAIR_WITH_SOURCE_MAP = "pair_with_source_map"  # pair functions explicitly
    NAME_THE_CHANGE = "name_the_change"  # args: key; a difference that is the change under test
    WHOLE_DOCUMENT = "whole_document"  # a text view cut a list short: the structured document has all of it


class Hint(Model):
    """A next step: what to do (`action`) and the values it needs (`args`, e.g. the capture's short id)."""

    action: HintAction | str = Field(
        description="A HintAction (a capture stored by an earlier version may carry one no longer written)."
    )
    args: dict[str, str] = Field(default_factory=dict, description="e.g. {'capture': '3f2a9c01b7de'}.")


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
