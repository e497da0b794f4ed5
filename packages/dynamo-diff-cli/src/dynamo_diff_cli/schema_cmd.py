"""`dynamo-diff schema`: print or write the JSON Schema of a public document kind."""

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from dynamo_diff_cli.errors import handles_errors
from dynamo_diff_cli.output import write_file


class SchemaKind(StrEnum):
    CAPTURE = "capture"
    COMPARISON = "comparison"
    MANIFEST = "manifest"
    ERROR = "error"


@handles_errors
def schema(
    kind: Annotated[SchemaKind, typer.Option("--kind", "-k", help="Which document's schema.")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file instead of stdout.", dir_okay=False)
    ] = None,
) -> None:
    """Print the JSON Schema (draft 2020-12) of a capture, comparison or manifest document."""
    from dynamo_diff_schema.documents import committed_schema_text

    text = committed_schema_text(kind.value)
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_file(output, text)
        typer.echo(f"wrote {output}", err=True)
