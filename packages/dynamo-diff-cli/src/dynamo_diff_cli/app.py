"""The `dynamo-diff` command: one Typer app; each command group lives in its own module.

The command modules evaluate their annotations when they are imported (no `from __future__ import
annotations`): Typer reads every command's parameters from its annotations to build the help, and string
annotations would each be compiled and evaluated there (a third of `--help`'s time)."""

from pathlib import Path
from typing import Annotated

import typer

from dynamo_diff_cli.capture_cmd import CAPTURE_CONTEXT, capture
from dynamo_diff_cli.captures_cmd import analyze, import_, list_, rm, show
from dynamo_diff_cli.compare_cmd import check, compare, demo
from dynamo_diff_cli.context import STORE_ENV, Settings, default_store
from dynamo_diff_cli.conventional import ConventionalCommand, ConventionalGroup
from dynamo_diff_cli.evidence_cmd import evidence, source
from dynamo_diff_cli.export_cmd import export
from dynamo_diff_cli.schema_cmd import schema
from dynamo_diff_cli.serve_cmd import serve_mcp
from dynamo_diff_cli.verify_cmd import verify

app = typer.Typer(
    name="dynamo-diff",
    help="Compare two recorded torch.compile runs and see, per source function, what changed and why.",
    context_settings={"help_option_names": ["-h", "--help"]},
    cls=ConventionalGroup,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # Rich help panels; the top-level `--help` is stored (help_text.py), so only a command's help pays for rich.
    rich_markup_mode="rich",
)


def _version_callback(value: bool) -> None:
    if value:
        from dynamo_diff_cli import __version__

        typer.echo(f"dynamo-diff {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    ctx: typer.Context,
    store: Annotated[
        Path | None,
        typer.Option(
            "--store",
            envvar=STORE_ENV,
            help="Store directory (default: .dynamo-diff in the current directory).",
            show_default=False,
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version_callback, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    ctx.obj = Settings(store=store if store is not None else default_store())


app.command("capture", cls=ConventionalCommand, context_settings=CAPTURE_CONTEXT)(capture)
app.command("import", cls=ConventionalCommand)(import_)
app.command("analyze", cls=ConventionalCommand)(analyze)
app.command("list", cls=ConventionalCommand)(list_)
app.command("show", cls=ConventionalCommand)(show)
app.command("rm", cls=ConventionalCommand)(rm)
app.command("compare", cls=ConventionalCommand)(compare)
app.command("check", cls=ConventionalCommand)(check)
app.command("demo", cls=ConventionalCommand)(demo)
app.command("evidence", cls=ConventionalCommand)(evidence)
app.command("export", cls=ConventionalCommand)(export)
app.command("source", cls=ConventionalCommand)(source)
app.command("schema", cls=ConventionalCommand)(schema)
app.command("serve-mcp", cls=ConventionalCommand)(serve_mcp)
app.command("verify", cls=ConventionalCommand)(verify)


def main() -> None:
    """The executable's entry is dynamo_diff_cli.entry.main (a faster `--version`); this runs the app as is."""
    app()
