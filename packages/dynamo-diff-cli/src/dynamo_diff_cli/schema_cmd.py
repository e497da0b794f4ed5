"""`dynamo-diff schema`: print or write the JSON Schema of a public document kind."""

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from dynamo_diff_cli.errors import handles_errors
from dynamo_diff_cli.output import write_file


class SchemaKind(StrEnum):
    """Every document kind (dynamo_diff_schema.KINDS; a test checks they agree)."""

    CAPTURE = "capture"
    COMPARISON = "comparison"
    MANIFEST = "manifest"
    ERROR = "error"
    RUN_REPORT = "run_report"
    CAPTURE_LIST = "capture_list"
    IMPORT_RESULT = "import_result"
    RANK_VIEW = "rank_view"
    CHECK = "check"
    EVIDENCE_INDEX = "evidence_index"
    EVIDENCE_EXCERPT = "evidence_excerpt"
    EVIDENCE_GREP = "evidence_grep"
    EVIDENCE_SEARCH = "evidence_search"
    EVIDENCE_EXCERPTS = "evidence_excerpts"
    EVIDENCE_DIFF = "evidence_diff"
    SOURCE = "source"
    SOURCE_DIFF = "source_diff"
    VERIFY_REPORT = "verify_report"
    REMOVED = "removed"
    EXPORT_RESULT = "export_result"
    COMPILE_SNAPSHOT = "compile_snapshot"
    SNAPSHOT_VERDICT = "snapshot_verdict"
    CAPTURE_PAGE = "capture_page"
    IMPORT_PAGE = "import_page"
    RUN_REPORT_PAGE = "run_report_page"
    COMPARISON_PAGE = "comparison_page"
    RANK_VIEW_PAGE = "rank_view_page"


@handles_errors
def schema(
    kind: Annotated[
        SchemaKind,
        typer.Option("--kind", "-k", metavar="KIND", help="Which document's schema: " + ", ".join(SchemaKind) + "."),
    ],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file instead of stdout.", dir_okay=False)
    ] = None,
) -> None:
    """Print the JSON Schema (draft 2020-12) of a document kind (a JSON document a command prints names its kind)."""
    from dynamo_diff_schema.documents import committed_schema_text

    text = committed_schema_text(kind.value)
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_file(output, text)
        typer.echo(f"wrote {output}", err=True)
