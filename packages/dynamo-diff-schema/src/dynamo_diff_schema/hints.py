"""Next steps as codes with arguments: a notice or an error says what is so in its message and, in its hint, what
the user can do next. Each front end words a hint from its own table (the CLI names a command, the MCP server a
tool call, the editor extension one of its commands; dynamo_diff_compare.hint_words joins a hint to its message);
nothing below them names a front end's commands."""

from __future__ import annotations

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
