"""How the CLI words a hint (dynamo_diff_schema.HintAction): the `dynamo-diff` command that takes the next step.

The layers below the CLI say what is so and which step comes next as a code with arguments; this table is the
only place the CLI's commands are named for them. The MCP server and the editor extension keep their own tables."""

from __future__ import annotations

from dynamo_diff_schema import HintAction

CLI_HINTS: dict[str, str] = {
    HintAction.LIST_CAPTURES: "see `dynamo-diff list`",
    HintAction.IMPORT_FIRST: "import a trace with `dynamo-diff import PATH`",
    HintAction.ANALYZE_CAPTURE: "see `dynamo-diff analyze {capture}`",
    HintAction.EVIDENCE_OF_KIND: "`dynamo-diff evidence {capture} --kind {kind}` lists the kept records of a kind",
    HintAction.COMPARE_RANKS: "`dynamo-diff compare {capture} --ranks` groups them by behaviour and shows where "
    "groups first differ",
    HintAction.RECORD_WITH_CAPTURE: "record runs with `dynamo-diff capture -- COMMAND` to keep their sources",
    HintAction.RECORD_RUN: "record it with `dynamo-diff capture -- COMMAND`, which imports a run that compiled "
    "nothing as a capture of 0 compilations",
    HintAction.IMPORT_WITH_LABEL: "import with --label to name it",
    HintAction.MOVE_LABEL: "choose another label, or pass --force-label to move it to the new capture",
    HintAction.PAIR_WITH_SOURCE_MAP: "pass --source-map to pair them explicitly",
    HintAction.NAME_THE_CHANGE: "--change {key} when it is the change under test",
    HintAction.WHOLE_DOCUMENT: "--format json holds them all",
}
