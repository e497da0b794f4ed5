"""`dynamo-diff export`: captures as tables (Parquet) for DuckDB, Spark and pandas, built from the documents the
other commands print (`analyze`, `analyze --by-function`, with `--compare` the comparison of `compare A B`).

The work is the service's (`Service.export_tables`); pyarrow is the optional extra `dynamo-diff[parquet]`, and
without it the command fails with `missing_extra` and the install hint."""

from pathlib import Path
from typing import Annotated

import typer

from dynamo_diff_cli.captures_cmd import service_of
from dynamo_diff_cli.errors import handles_errors
from dynamo_diff_cli.output import print_document


@handles_errors
def export(
    ctx: typer.Context,
    refs: Annotated[
        list[str],
        typer.Argument(
            metavar="CAPTURE...",
            help="Captures: ids, unique prefixes, labels or paths (imported first).",
            show_default=False,
        ),
    ],
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Directory to write the tables into (new or empty).", file_okay=False)
    ],
    table_format: Annotated[str, typer.Option("--format", "-f", help="Table format: parquet.")] = "parquet",
    overwrite: Annotated[
        bool, typer.Option("--overwrite", help="Replace an earlier export in --out (never any other directory).")
    ] = False,
    compare: Annotated[
        bool,
        typer.Option(
            "--compare",
            help="Two captures, the baseline then the candidate: also write their comparison (one row per "
            "function pair, as `dynamo-diff compare A B --format json` lists them).",
        ),
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print what was written as an export_result document (--format is the tables')."),
    ] = False,
) -> None:
    """Write captures as tables (captures, ranks, functions, frames, compilations, phase_times, guards,
    graph_breaks, evidence; comparison with --compare): one Parquet file each, every row with its capture id."""
    from dynamo_diff_schema import short_id

    result = service_of(ctx).export(refs, out, table_format=table_format, overwrite=overwrite, compare=compare)
    if as_json:
        print_document(result)
        return
    typer.echo(f"exported {len(result.captures)} capture(s) ({', '.join(short_id(c) for c in result.captures)})")
    if result.comparison is not None:
        typer.echo(f"  with their comparison {short_id(result.comparison)}")
    for name, rows in result.rows.items():
        typer.echo(f"  {Path(result.out) / (name + '.parquet')}: {rows} row(s)")
