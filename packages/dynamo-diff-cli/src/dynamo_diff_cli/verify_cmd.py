"""`dynamo-diff verify`: check every capture in the store; exit 0 intact, 1 damage found, 2 error."""

import sys
from typing import Annotated

import typer

from dynamo_diff_cli.captures_cmd import service_of
from dynamo_diff_cli.errors import handles_errors
from dynamo_diff_cli.output import Format, print_document

DAMAGE_EXIT = 1


@handles_errors
def verify(
    ctx: typer.Context,
    output_format: Annotated[
        Format, typer.Option("--format", "-f", help="Output format (json: a verify_report document).")
    ] = Format.TEXT,
) -> None:
    """Check the whole store: every imported file and evidence range against its sha256, and the index."""
    report = service_of(ctx).verify()
    if output_format == Format.JSON:
        print_document(report)
    else:
        for d in report.damage:
            where = f"capture {d.capture}" if d.capture else "store"
            sys.stdout.write(f"damaged: {where}: {d.file}: {d.problem}\n")
        summary = f"checked {report.captures} captures, {report.files} files, {report.evidence} evidence ranges: " + (
            f"{len(report.damage)} problems in {len(report.damaged_captures)} captures"
            if report.damage
            else "no damage"
        )
        sys.stdout.write(summary + "\n")
    if report.damage:
        raise typer.Exit(DAMAGE_EXIT)
