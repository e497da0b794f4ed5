"""Commands over captures: import, analyze, list, show, rm."""

import json
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dynamo_diff_cli.context import Settings
from dynamo_diff_cli.errors import handles_errors
from dynamo_diff_cli.output import Format, ImportProgress, print_document, print_text, stderr, stdout

# The packages that do the work are imported by the commands that use them (`--help` and `--version` stay fast).
if TYPE_CHECKING:
    from dynamo_diff_compare import ShownScripts
    from dynamo_diff_schema import Capture, CaptureRow, ImportResult, RunReport
    from dynamo_diff_service import Service
    from rich.table import Table

# How many headline counts `list` shows per capture.
LISTED_COUNTS = 3
# The columns `list` leaves out first when the table is wider than the terminal.
LIST_DROPPED_FIRST = ("trace", "input", "imported")


class ExecutorChoice(StrEnum):
    """Where `import` analyses the ranks (the service's `executor`)."""

    LOCAL = "local"
    RAY = "ray"


def service_of(ctx: typer.Context) -> "Service":
    """The service over the store of `--store` (the only way the commands reach the store)."""
    from dynamo_diff_service import Service

    settings = ctx.find_object(Settings) or Settings()
    return Service.at(settings.store)


def open_capture(service: "Service", ref: str, *, label: str | None = None) -> "Capture":
    """A capture of the store (id, unique prefix or label), or a path that is imported first (the rule is the
    service's, the same as the MCP server's); notes and what was imported go to stderr."""
    from dynamo_diff_schema import short_id

    progress = ImportProgress()
    try:
        opened = service.open(ref, label=label, progress=progress)
    finally:
        progress.close()
    for note in opened.notes:
        stderr().print(f"note: {note}")
    if opened.imported is not None:
        verb = "imported" if opened.imported.created else "already in the store:"
        stderr().print(f"{verb} {ref} -> {short_id(opened.capture.capture.id)}")
    return opened.capture


def capture_ref(service: "Service", ref: str) -> str:
    """The id of the capture `ref` names, by `open_capture`'s rule (a path is imported first, said on stderr),
    without reading the capture: for the commands that need only its id (evidence, source)."""
    from dynamo_diff_schema import short_id

    progress = ImportProgress()
    try:
        capture_id, imported, notes = service.resolve(ref, progress=progress)
    finally:
        progress.close()
    for note in notes:
        stderr().print(f"note: {note}")
    if imported is not None:
        verb = "imported" if imported.created else "already in the store:"
        stderr().print(f"{verb} {ref} -> {short_id(capture_id)}")
    return capture_id


REF_HELP = "A capture id, unique prefix or label, or a path (imported first, as analyze does)."
VERBOSE_HELP = "Text: list every record kind the reader did not interpret (by default one line says how many)."


def _print_capture(capture: "Capture", output_format: Format, service: "Service", *, verbose: bool = False) -> None:
    from dynamo_diff_compare import capture_markdown, capture_text

    from dynamo_diff_cli.hints import CLI_HINTS

    if output_format == Format.JSON:
        print_document(service.shown(capture), exclude={"evidence"})
    elif output_format == Format.MARKDOWN:
        typer.echo(capture_markdown(capture, service.sources(capture), hints=CLI_HINTS), nl=False)
    else:
        stdout().print(capture_text(capture, sources=service.sources(capture), hints=CLI_HINTS, verbose=verbose))


@handles_errors
def import_(
    ctx: typer.Context,
    path: Annotated[
        Path,
        typer.Argument(
            help="A trace .log file, a TORCH_TRACE directory, a tlparse export or a bundle; or a folder whose "
            "sub-folders are such runs, or hold one (runs/a/bundle, runs/b/logs: two levels; each imported, "
            "labelled by its folder name; a run that fails is listed and the others imported).",
            show_default=False,
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
    output_format: Annotated[
        Format,
        typer.Option(
            "--format",
            "-f",
            help="Output format. json: an import_result document, one entry per run imported (its id, label, "
            "whether it was new, and its summary: a capture document without compilations); `analyze ID --format "
            "json` has the compilations.",
        ),
    ] = Format.TEXT,
    executor: Annotated[
        ExecutorChoice,
        typer.Option(
            "--executor",
            help="Where the ranks are analysed: local (processes on this machine) or ray (Ray tasks on the cluster "
            "at RAY_ADDRESS, else on a local Ray instance started for the import; needs dynamo-diff[ray]).",
        ),
    ] = ExecutorChoice.LOCAL,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help=VERBOSE_HELP)] = False,
) -> None:
    """Import a recorded run (or a folder of runs) into the store and print its id, per-rank counts and notices."""
    service = service_of(ctx)
    progress = ImportProgress()
    try:
        result = service.import_document(
            str(path),
            label=label,
            manifest=str(manifest) if manifest is not None else None,
            progress=progress,
            force_label=force_label,
            executor=executor.value,
        )
    finally:
        progress.close()
    if output_format == Format.JSON:
        # The summaries the import holds: no compilations are read back (a large job's would be megabytes).
        print_document(result, exclude={"captures": {"__all__": {"summary": {"evidence"}}}})
        return
    if result.folder_of_runs:
        _print_folder(result)
        return
    (one,) = result.captures
    typer.echo(one.id)
    stderr().print("imported" if one.created else "already in the store (same bytes): nothing written")
    _print_imported(service, one.summary, output_format, verbose=verbose)


def _print_imported(service: "Service", summary: "Capture", output_format: Format, *, verbose: bool) -> None:
    from dynamo_diff_compare import capture_markdown, capture_text

    from dynamo_diff_cli.hints import CLI_HINTS

    sources = service.sources(summary)
    if output_format == Format.MARKDOWN:
        typer.echo(capture_markdown(service.load(summary.capture.id), sources, hints=CLI_HINTS), nl=False)
    else:
        # The summary (counts and notices) is all the text shows: the compilations are not read back.
        stdout().print(
            capture_text(summary, show_compilations=False, sources=sources, hints=CLI_HINTS, verbose=verbose)
        )


def _print_folder(result: "ImportResult") -> None:
    """A folder of runs: one line per run (id on stdout, what happened on stderr); `analyze ID` shows each."""
    from dynamo_diff_schema import short_id

    err = stderr()
    for run in result.captures:
        typer.echo(run.id)
        said = "imported" if run.created else "already in the store (same bytes)"
        label = f" as {run.label}" if run.label else ""
        err.print(f"{said}: {run.input}{label} -> {short_id(run.id)} ({run.summary.capture.run.summary})")
    for failed in result.failed:
        err.print(f"not imported: {failed.input}: error[{failed.code}] {failed.message}")
    err.print(
        f"{len(result.captures)} run(s) in the folder; see one with `dynamo-diff analyze ID`, all of them per "
        "function with `dynamo-diff analyze FOLDER`"
    )


@handles_errors
def analyze(
    ctx: typer.Context,
    refs: Annotated[
        list[str],
        typer.Argument(
            metavar="REF...",
            help="A capture id, unique prefix or label, or a path to import first; several, or a folder of runs: "
            "each run per function, one after the other.",
            show_default=False,
        ),
    ],
    output_format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.TEXT,
    by_function: Annotated[
        bool,
        typer.Option(
            "--by-function",
            help="Per source function, problems first: why it recompiled, where it broke, what failed and what "
            "happened next, with evidence ids (JSON: the same report the MCP tool analyze_capture pages).",
        ),
    ] = False,
    function: Annotated[
        str | None, typer.Option("--function", metavar="NAME", help="Only this function (implies --by-function).")
    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help=VERBOSE_HELP)] = False,
    source: Annotated[
        bool,
        typer.Option(
            "--source",
            help="After each run's report, its own scripts (the captured files its functions and call paths are "
            "in), whole and numbered, up to 16,000 characters a run (implies --by-function; text only).",
        ),
    ] = False,
) -> None:
    """Show what one capture says: counts per rank, every compilation with its evidence, notices. Several runs
    (or a folder of runs): each per function (JSON: one run_report document per line)."""
    from dynamo_diff_compare import run_report_text
    from dynamo_diff_schema import DynamoDiffError, ErrorCode

    if source and output_format != Format.TEXT:
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT,
            "--source adds the scripts to the text view; a file as JSON: `dynamo-diff source REF --file PATH -f json`",
        )
    service = service_of(ctx)
    if len(refs) == 1:
        try:
            capture = open_capture(service, refs[0])
        except DynamoDiffError as err:
            if err.code != ErrorCode.UNSUPPORTED_INPUT or not Path(refs[0]).is_dir():
                raise
        else:
            if not by_function and function is None and not source:
                _print_capture(capture, output_format, service, verbose=verbose)
                return
            report = service.report(capture, function=function)
            if output_format == Format.JSON:
                print_document(report)
                return
            print_text(
                run_report_text(report, scripts_below=source) + (_scripts(service, capture, report) if source else "")
            )
            return
    _analyze_runs(service, refs, output_format, function, source=source)


def _scripts(service: "Service", capture: "Capture", report: "RunReport", earlier: "ShownScripts | None" = None) -> str:
    """The run's scripts after its report (`analyze --source`); `earlier`: those of the runs listed before it (a
    script a few lines away from one of them is said as those lines)."""
    from dynamo_diff_compare import scripts_text
    from dynamo_diff_schema import short_id

    scripts = service.scripts(capture, report)
    read = f"see `dynamo-diff source {short_id(report.capture)} --file {{file}}`"
    return "\n\n" + scripts_text(scripts, read, earlier, report.label or short_id(report.capture))


def _analyze_runs(
    service: "Service", refs: list[str], output_format: Format, function: str | None, *, source: bool = False
) -> None:
    """Each run the references name (a folder of runs: each of its runs), per function, one after the other; a run
    that cannot be read, or lacks `function`, says why in its place and the others are shown."""
    from dynamo_diff_compare import ShownScripts, run_report_text
    from dynamo_diff_schema import DynamoDiffError, ErrorCode, short_id

    from dynamo_diff_cli.output import json_document

    runs: list[tuple[str, str]] = []
    failed: list[tuple[str, DynamoDiffError]] = []
    progress = ImportProgress()
    try:
        for ref in refs:
            found, refused = service.resolve_runs(ref, progress=progress)
            runs += found
            failed += refused
    finally:
        progress.close()
    texts: list[str] = []
    shown = ShownScripts()
    for given, capture_id in runs:
        capture = service.load(capture_id)
        try:
            report = service.report(capture, function=function)
        except DynamoDiffError as err:
            if err.code != ErrorCode.UNKNOWN_FUNCTION:
                raise
            texts.append(f"== {given}: capture {short_id(capture_id)}: {err.message}")
            continue
        if output_format == Format.JSON:
            typer.echo(json.dumps(json_document(report), ensure_ascii=False))
            continue
        texts.append(
            "== "
            + run_report_text(report, brief=True, scripts_below=source)
            + (_scripts(service, capture, report, shown) if source else "")
        )
    texts += [f"== {given}: not read: error[{err.code}] {err.message}" for given, err in failed]
    if output_format == Format.JSON:
        for text in texts:
            stderr().print(text, soft_wrap=True)
        return
    print_text("\n\n".join(texts))


@handles_errors
def list_(
    ctx: typer.Context,
    output_format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.TEXT,
) -> None:
    """List the captures in the store: each with its short id (what the other commands accept) and whole label."""
    document = service_of(ctx).capture_list()
    if output_format == Format.JSON:
        print_document(document)
        return
    if not document.captures:
        stderr().print("the store is empty: import a trace with `dynamo-diff import PATH`")
        return
    console = stdout()
    rows = [_list_row(r) for r in document.captures]
    if output_format == Format.MARKDOWN:
        header = list(rows[0])
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row.values()) + " |" for row in rows]
        console.print("\n".join(lines), soft_wrap=True)
        return
    # The widest table whose cells are all whole (id and label never cut): every column, then without the
    # columns read least; narrower than that, one block per capture, its id and label first.
    for dropped in ((), LIST_DROPPED_FIRST):
        table = _list_table([{k: v for k, v in row.items() if k not in dropped} for row in rows])
        if console.measure(table, options=console.options.update(max_width=10_000)).maximum <= console.width:
            console.print(table)
            return
    for index, row in enumerate(rows):
        if index:
            console.print()
        console.print(f"{row['id']}  {row['label']}".rstrip(), soft_wrap=True)
        details = [v if k in ("run", "input") else f"{k} {v}" for k, v in row.items() if k not in ("id", "label")]
        console.print(_packed(details, console.width, "  "), soft_wrap=True)


def _list_row(r: "CaptureRow") -> dict[str, str]:
    """One capture of `list` as the columns it shows, in order."""
    from dynamo_diff_compare import COMPILED_WORDS
    from dynamo_diff_schema import HEADLINE_COUNTS, CompiledState, short_id

    run = (
        r.run_state
        if r.compiled_state == "compiled"
        else f"{r.run_state}; {COMPILED_WORDS[CompiledState(r.compiled_state)]}"
    )
    row = {
        "id": short_id(r.id),
        "label": r.label or "",
        "run": run,
        "torch": r.torch_version or "?",
        "ranks": str(r.rank_count),
    }
    for key, short in HEADLINE_COUNTS[:LISTED_COUNTS]:
        row[short] = str(getattr(r.counts, key))
    row |= {"trace": r.artifact_structure, "input": r.input_kind, "imported": r.imported_at}
    return row


def _list_table(rows: list[dict[str, str]]) -> "Table":
    from rich.table import Table

    table = Table()
    for name in rows[0]:
        numeric = name not in ("id", "label", "run", "torch", "trace", "input", "imported")
        table.add_column(name, no_wrap=True, justify="right" if numeric else "left")
    for row in rows:
        table.add_row(*row.values())
    return table


def _packed(items: list[str], width: int, indent: str) -> str:
    """`items` joined by " · " into lines of at most `width` (an item is never split), each line indented."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + 3 + len(item) <= width:
            lines[-1] += " · " + item
        else:
            lines.append(indent + item)
    return "\n".join(lines)


@handles_errors
def show(
    ctx: typer.Context,
    ref: Annotated[str, typer.Argument(metavar="ID", help="A capture id, unique prefix or label.", show_default=False)],
    output_format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.TEXT,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help=VERBOSE_HELP)] = False,
) -> None:
    """Show one stored capture (like analyze, but never imports)."""
    service = service_of(ctx)
    _print_capture(service.load(ref), output_format, service, verbose=verbose)


@handles_errors
def rm(
    ctx: typer.Context,
    ref: Annotated[
        str,
        typer.Argument(
            metavar="ID",
            help="A capture id, unique prefix or label, or the path it was imported from (a path whose bytes the "
            "store does not hold removes nothing).",
            show_default=False,
        ),
    ],
    output_format: Annotated[
        Format, typer.Option("--format", "-f", help="Output format (json: a removed document).")
    ] = Format.TEXT,
) -> None:
    """Remove a capture from the store."""
    result = service_of(ctx).remove(ref)
    if output_format == Format.JSON:
        print_document(result)
        return
    typer.echo(f"removed {result.capture}")
