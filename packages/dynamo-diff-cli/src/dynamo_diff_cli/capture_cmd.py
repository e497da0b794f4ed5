"""`dynamo-diff capture -- COMMAND`: record a run into a bundle and import it (the work is the service's:
`Service.record`, then `Service.import_path`)."""

from pathlib import Path
from typing import Annotated

import typer

from dynamo_diff_cli.captures_cmd import service_of
from dynamo_diff_cli.errors import handles_errors
from dynamo_diff_cli.output import ImportProgress, stderr

# Exit status when the workload did not complete: its own non-zero code when it has one, 128 + N when signal N
# killed it (as a shell reports it: 137 for SIGKILL), else these.
EXIT_INTERRUPTED = 130
EXIT_INCOMPLETE = 1
EXIT_SIGNAL_BASE = 128

# `dynamo-diff capture python train.py --lr 1` works without `--`: options after the command are its own.
CAPTURE_CONTEXT = {"allow_interspersed_args": False}


@handles_errors
def capture(
    ctx: typer.Context,
    command: Annotated[
        list[str],
        typer.Argument(help="The command to run, after `--` (run directly, without a shell).", show_default=False),
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="The new bundle directory (default: dynamo-diff-bundles/<time>-<name>)."),
    ] = None,
    label: Annotated[str | None, typer.Option("--label", help="A name to find the capture by.")] = None,
    declare: Annotated[
        list[str] | None,
        typer.Option("--declare", "-D", metavar="KEY=VALUE", help="Declare a fact about the workload (repeatable)."),
    ] = None,
    declarations: Annotated[
        Path | None,
        typer.Option("--declarations", dir_okay=False, help="A JSON object of declarations (--declare wins)."),
    ] = None,
    env: Annotated[
        list[str] | None,
        typer.Option("--env", metavar="NAME", help="Record this environment variable's value (repeatable)."),
    ] = None,
    warm_cache: Annotated[
        bool, typer.Option("--warm-cache", help="Use the Inductor cache the environment already has.")
    ] = False,
    cache_dir: Annotated[
        Path | None,
        typer.Option("--cache-dir", file_okay=False, help="Use this TORCHINDUCTOR_CACHE_DIR (created if missing)."),
    ] = None,
    no_convert: Annotated[bool, typer.Option("--no-convert", help="Do not run tlparse.")] = False,
    include: Annotated[
        list[str] | None,
        typer.Option("--include", metavar="GLOB", help="Snapshot matching files even if skipped by default."),
    ] = None,
    exclude: Annotated[
        list[str] | None, typer.Option("--exclude", metavar="GLOB", help="Never snapshot matching files.")
    ] = None,
    no_import: Annotated[bool, typer.Option("--no-import", help="Write the bundle only.")] = False,
    no_observe: Annotated[
        bool,
        typer.Option(
            "--no-observe",
            help="Do not load the observer (which records torch.compile arguments, seeds and how each Python "
            "process ended) into the command.",
        ),
    ] = False,
    force_label: Annotated[
        bool, typer.Option("--force-label", help="Move --label to this capture if another capture has it.")
    ] = False,
) -> None:
    """Run a command with torch's structured trace on, write a bundle (trace, sources, manifest) and import it.

    Prints the capture id. The command's own output is shown as it runs. A failed or interrupted run still
    leaves a bundle, marked incomplete; the exit status is then the command's (128 + N when signal N killed it,
    130 after Ctrl-C)."""
    from dynamo_diff_compare import compiled_line
    from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode

    if warm_cache and cache_dir is not None:
        raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, "--warm-cache and --cache-dir exclude each other")
    service = service_of(ctx)
    if label is not None and not force_label and not no_import:
        service.check_label(label)  # before the workload runs, not after
    err = stderr()
    result = service.record(
        command,
        bundle=out,
        label=label,
        declare=declare,
        declarations=declarations,
        environment=env,
        cache="warm" if warm_cache else "custom" if cache_dir is not None else "fresh",
        cache_dir=cache_dir,
        convert=not no_convert,
        include=include,
        exclude=exclude,
        observe=not no_observe,
        say=lambda text: err.print(f"dynamo-diff: {text}"),
    )
    manifest = result.manifest
    status = "completed" if result.completed else f"DID NOT FINISH: {result.incomplete_reason}"
    err.print(
        f"dynamo-diff: bundle {result.bundle} ({len(manifest.raw_traces)} trace file(s), "
        f"{len(manifest.sources.files)} source snapshot(s)); run {status}"
    )
    # A run that wrote no trace file compiled no frame: it is imported all the same (a capture of 0 compilations).
    if not (no_import or result.interrupted_late):
        progress = ImportProgress()
        try:
            imported = service.import_path(str(result.bundle), label=label, progress=progress, force_label=force_label)
        finally:
            progress.close()
        typer.echo(imported.summary.capture.id)
        info = imported.summary.capture
        err.print(f"dynamo-diff: imported; run: {info.run.summary}; provenance {info.validity.provenance}")
        if (loud := compiled_line(info.compiled)) is not None:
            err.print(f"dynamo-diff: {loud}")
    if not result.completed:
        raise typer.Exit(exit_status(result.exit_code, interrupted=result.interrupted))


def exit_status(exit_code: int | None, *, interrupted: bool) -> int:
    """capture's own exit status for a run that did not complete (the manifest keeps the command's: -9 for
    SIGKILL)."""
    if interrupted:
        return EXIT_INTERRUPTED
    if exit_code is not None and exit_code < 0:
        return EXIT_SIGNAL_BASE - exit_code
    return exit_code if exit_code is not None and exit_code > 0 else EXIT_INCOMPLETE
