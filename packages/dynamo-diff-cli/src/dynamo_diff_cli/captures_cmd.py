"""Commands over captures: import, analyze, list, show, rm."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from dynamo_diff_compare import capture_markdown, capture_text
from dynamo_diff_schema import COUNT_LABELS, HEADLINE_COUNTS, Capture, DynamoDiffError, ErrorCode, short_id, validate
from dynamo_diff_store import Store
from rich.table import Table

from dynamo_diff_cli.context import Settings
from dynamo_diff_cli.errors import handles_errors
from dynamo_diff_cli.output import Format, ImportProgress, print_json, stderr, stdout

# The counts `list` shows per capture: the first headline counts.
LISTED = HEADLINE_COUNTS[:3]


def store_of(ctx: typer.Context) -> Store:
    settings = ctx.find_object(Settings) or Settings()
    return Store(settings.store)


def _looks_like_path(ref: str) -> bool:
    return "/" in ref or "\\" in ref or ref.startswith((".", "~")) or ref.endswith((".log", ".txt", ".json"))


def import_or_resolve(store: Store, ref: str, *, label: str | None = None) -> Capture:
    """A capture of the store (id, unique prefix or label), or a path that is imported first.

    A word that names both a capture and a folder here is the capture (the store's names come first) and a note
    says how to choose the folder (`./NAME`); anything written as a path (with a slash, or starting with '.' or
    '~') is always the path."""
    path = Path(ref).expanduser()
    if not _looks_like_path(ref):
        try:
            capture_id = store.resolve(ref)
        except DynamoDiffError as err:
            if err.code != ErrorCode.UNKNOWN_CAPTURE or not path.exists():
                raise
        else:
            if path.exists():
                stderr().print(
                    f"note: {ref!r} is both a capture in the store ({short_id(capture_id)}) and a path here: using the "
                    f"capture; write ./{ref} to import the path instead"
                )
            return store.load(capture_id, evidence=False)
    if path.exists():
        progress = ImportProgress()
        try:
            result = store.import_path(path, label=label, progress=progress)
        finally:
            progress.close()
        verb = "imported" if result.created else "already in the store:"
        stderr().print(f"{verb} {path} -> {short_id(result.summary.capture.id)}")
        return store.load(result.summary.capture.id, evidence=False)
    try:
        return store.load(ref, evidence=False)
    except DynamoDiffError as err:
        if err.code == ErrorCode.UNKNOWN_CAPTURE and _looks_like_path(ref):
            raise DynamoDiffError(
                ErrorCode.UNREADABLE_INPUT,
                f"{ref} does not exist (it is written as a path, so it was not looked up as a capture label)",
                path=ref,
            ) from None
        raise


def _print_capture(capture: Capture, output_format: Format) -> None:
    if output_format == Format.JSON:
        document = capture.model_dump(mode="json", exclude={"evidence"})
        validate(document, "capture")
        print_json(document)
    elif output_format == Format.MARKDOWN:
        typer.echo(capture_markdown(capture), nl=False)
    else:
        stdout().print(capture_text(capture))


@handles_errors
def import_(
    ctx: typer.Context,
    path: Annotated[
        Path,
        typer.Argument(
            help="A trace .log file, a TORCH_TRACE directory, a tlparse export or a bundle.", show_default=False
        ),
    ],
    manifest: Annotated[
        Path | None,
        typer.Option("--manifest", help="A manifest.json to import with a trace that has none.", dir_okay=False),
    ] = None,
    label: Annotated[str | None, typer.Option("--label", help="A name to find the capture by.")] = None,
    force_label: Annotated[
        bool, typer.Option("--force-label", help="Move the label to this capture if another capture has it.")
    ] = False,
    output_format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.TEXT,
) -> None:
    """Import a recorded run into the store and print its id, per-rank counts and notices."""
    store = store_of(ctx)
    progress = ImportProgress()
    try:
        result = store.import_path(path, label=label, manifest=manifest, progress=progress, force_label=force_label)
    finally:
        progress.close()
    if output_format == Format.JSON:
        _print_capture(result.store.load(result.summary.capture.id, evidence=False), output_format)
        return
    typer.echo(result.summary.capture.id)
    stderr().print("imported" if result.created else "already in the store (same bytes): nothing written")
    if output_format == Format.MARKDOWN:
        typer.echo(capture_markdown(result.store.load(result.summary.capture.id, evidence=False)), nl=False)
    else:
        # The summary (counts and notices) is all the text shows: the compilations are not read back.
        stdout().print(capture_text(result.summary, show_compilations=False))


@handles_errors
def analyze(
    ctx: typer.Context,
    ref: Annotated[
        str,
        typer.Argument(
            metavar="ID|PREFIX|PATH",
            help="A capture id, unique prefix or label, or a path to import first.",
            show_default=False,
        ),
    ],
    output_format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.TEXT,
) -> None:
    """Show what one capture says: counts per rank, every compilation with its evidence, notices."""
    _print_capture(import_or_resolve(store_of(ctx), ref), output_format)


@handles_errors
def list_(
    ctx: typer.Context,
    output_format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.TEXT,
) -> None:
    """List the captures in the store."""
    rows = store_of(ctx).list_captures()
    if output_format == Format.JSON:
        print_json(
            [
                {
                    "id": r.id,
                    "label": r.label,
                    "run": r.run_state,
                    "imported_at": r.imported_at,
                    "input_kind": r.input_kind,
                    "torch_version": r.torch_version,
                    "artifact_structure": r.artifact_structure,
                    "ranks": r.rank_count,
                    "counts": r.counts,
                }
                for r in rows
            ]
        )
        return
    if not rows:
        stderr().print("the store is empty: import a trace with `dynamo-diff import PATH`")
        return
    table = Table()
    for col in (
        "id",
        "label",
        "run",
        "imported",
        "input",
        "torch",
        "ranks",
        *(COUNT_LABELS[key] for key, _ in LISTED),
        "trace",
    ):
        table.add_column(col)
    for r in rows:
        c = r.counts
        table.add_row(
            short_id(r.id),
            r.label or "",
            r.run_state,
            r.imported_at,
            r.input_kind,
            r.torch_version or "?",
            str(r.rank_count),
            *(str(c.get(key)) for key, _ in LISTED),
            r.artifact_structure,
        )
    stdout().print(table)


@handles_errors
def show(
    ctx: typer.Context,
    ref: Annotated[str, typer.Argument(metavar="ID", help="A capture id, unique prefix or label.", show_default=False)],
    output_format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.TEXT,
) -> None:
    """Show one stored capture (like analyze, but never imports)."""
    _print_capture(store_of(ctx).load(ref, evidence=False), output_format)


@handles_errors
def rm(
    ctx: typer.Context,
    ref: Annotated[str, typer.Argument(metavar="ID", help="A capture id or unique prefix.", show_default=False)],
) -> None:
    """Remove a capture from the store."""
    removed = store_of(ctx).remove(ref)
    typer.echo(f"removed {removed}")
