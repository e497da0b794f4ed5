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

# The top-level help ends with the commands that answer the common questions, with their useful options and an
# example each, so that one `--help` is enough (an agent pays a call for each command's own help; the whole help
# stays within 4,500 characters). Lines of at most 78 characters:
# rich wraps the epilog to the 80 columns the stored help is rendered at.
GUIDE = """\
Questions -> commands (REF: a capture's id, prefix, label, or a path;
-f json on each: a document, its fields: schema --kind KIND):
 record a run: capture [--label L] -- python train.py; or import PATH
   (a trace holds what torch.compile did, not what the program printed)
 why did it recompile, break or fail; did the program go on?
   analyze REF --by-function [--function NAME]   (without: in trace order)
   add --source: the run's own scripts after its report, in the same call
   analyze runs/   (every run of a folder, or A B C: each per function)
   e.g. analyze run1 --function Net.forward -f json
 what changed between two runs, per function; between the ranks of one?
   compare A B [--change KEY] [--source-map FILE] [-f html -o FILE]
   compare REF --ranks [0 1]   (the first against the others)
   e.g. compare base cand --change torch_version
 the trace record behind a number?
   evidence REF [ID...] [--grep PATTERN] [--in-config] [--max-matches N]
   no id: the index (--kind K --function NAME --compile-id 0/1 --offset N;
   one record left: it), with --grep every record's matches; an id: one
   record [--full]; ids: each; ID --diff [REF:]ID2: two records' diff
   e.g. evidence run1 --grep 'size mismatch' --kind recompile_reasons
 a function's code, a file, or its change between two runs?
   source REF FUNCTION [--context N] [--diff B]; source REF --file PATH
   e.g. source base Net.forward --diff cand
 a CI gate (exit 0: within bounds, 1: not, 2: error)?
   check A B --max-new-recompiles 0 [--max-new-graph-breaks N] [--change KEY]"""

app = typer.Typer(
    name="dynamo-diff",
    help="Compare two recorded torch.compile runs and see, per source function, what changed and why.",
    epilog=GUIDE,
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


app.command(
    "capture",
    short_help="Run a command with torch's trace on; import the bundle it writes.",
    cls=ConventionalCommand,
    context_settings=CAPTURE_CONTEXT,
)(capture)
app.command(
    "import", short_help="Import a recorded run (or a folder of runs) into the store.", cls=ConventionalCommand
)(import_)
app.command(
    "analyze", short_help="What one capture says: counts, compilations, breaks, failures.", cls=ConventionalCommand
)(analyze)
app.command("list", short_help="List the captures in the store (short ids and labels).", cls=ConventionalCommand)(list_)
app.command("show", short_help="Show one stored capture (like analyze, but never imports).", cls=ConventionalCommand)(
    show
)
app.command("rm", short_help="Remove a capture from the store.", cls=ConventionalCommand)(rm)
app.command(
    "compare", short_help="Compare two captures per source function, or the ranks of one.", cls=ConventionalCommand
)(compare)
app.command(
    "check", short_help="A CI gate: exit 0 when within bounds, 1 when not, 2 on error.", cls=ConventionalCommand
)(check)
app.command("demo", short_help="Compare the retained edit pair (a worked example).", cls=ConventionalCommand)(demo)
app.command(
    "evidence", short_help="The trace records behind the numbers: an index, or one excerpt.", cls=ConventionalCommand
)(evidence)
app.command("export", short_help="Write captures as Parquet tables.", cls=ConventionalCommand)(export)
app.command(
    "source", short_help="A compiled function's captured source, a file, or a code change.", cls=ConventionalCommand
)(source)
app.command("schema", short_help="The JSON Schema of a document kind.", cls=ConventionalCommand)(schema)
app.command(
    "serve-mcp", short_help="Serve the comparison model to coding agents over MCP (stdio).", cls=ConventionalCommand
)(serve_mcp)
app.command(
    "verify", short_help="Check every stored file and evidence range against its sha256.", cls=ConventionalCommand
)(verify)


def main() -> None:
    """The executable's entry is dynamo_diff_cli.entry.main (a faster `--version`); this runs the app as is."""
    app()
