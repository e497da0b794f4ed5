"""Commands that compare: compare (two captures, or the ranks of one), check (a CI gate) and demo."""

import json
import tempfile
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dynamo_diff_cli.captures_cmd import open_capture, service_of
from dynamo_diff_cli.errors import handles_errors
from dynamo_diff_cli.output import (
    Format,
    file_console,
    json_document,
    print_json,
    print_text,
    stderr,
    stdout,
    write_file,
)

# The packages that do the work are imported by the commands that use them (`--help` and `--version` stay fast).
if TYPE_CHECKING:
    from dynamo_diff_schema import Capture, Comparison
    from dynamo_diff_service import Service


class ReportFormat(StrEnum):
    """What compare and demo print."""

    TEXT = "text"
    MARKDOWN = "markdown"
    JSON = "json"
    HTML = "html"


FORMAT_HELP = "Output format (json: a comparison document, or a rank_view with --ranks; html: the report page)."

DEMO_PAIR = ("edit_v1", "edit_v2")
# Where the demo's captures are: in the package (an installed wheel: hatch_build.py copies them in), else in the
# clone this module is imported from (the workspace's editable install).
_HERE = Path(__file__).resolve()
DEMO_FOLDERS = (_HERE.parent / "demo", *(p / "fixtures" / "captures" for p in _HERE.parents[4:5]))


CHANGE_HELP = (
    "A comparability key that differs on purpose, the change under test (repeatable): e.g. command, torch_version, "
    "compile.backend, dynamo.recompile_limit, 'inductor config'. Its difference does not confound the pair."
)


def emit(
    service: "Service",
    comparison: "Comparison",
    output_format: str,
    output: Path | None,
    *,
    all_rows: bool = False,
    captures: "tuple[Capture, Capture] | None" = None,
) -> None:
    """Print or write the comparison; `captures`, the compared captures (the HTML report draws on them)."""
    from dynamo_diff_compare import comparison_html, comparison_markdown, comparison_text

    from dynamo_diff_cli.hints import CLI_HINTS

    if output_format == "json":
        document = json_document(comparison)  # a comparison, or a rank_view
        if output is None:
            print_json(document)
            return
        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    elif output_format == "markdown":
        text = comparison_markdown(comparison, all_rows=all_rows, hints=CLI_HINTS)
    elif output_format == "html":
        text = comparison_html(comparison, material=service.report_material(comparison, captures), hints=CLI_HINTS)
    else:
        if output is None:
            stdout().print(comparison_text(comparison, all_rows=all_rows, hints=CLI_HINTS))
            return
        console = file_console()
        console.print(comparison_text(comparison, all_rows=all_rows, hints=CLI_HINTS))
        text = console.export_text()
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_file(output, text)
        stderr().print(f"wrote {output}")


@handles_errors
def compare(
    ctx: typer.Context,
    refs: Annotated[
        list[str],
        typer.Argument(
            metavar="CAPTURE...",
            help="The baseline then the candidate (ids, prefixes, labels or paths, imported first); with --ranks, "
            "one capture then the ranks to compare: `compare CAPTURE --ranks 0 1`; one capture of several ranks alone: "
            "its ranks, as with --ranks.",
            show_default=False,
        ),
    ],
    ranks: Annotated[
        bool,
        typer.Option(
            "--ranks",
            help="Compare the ranks of one capture: the first rank given (default: the lowest) against the others.",
        ),
    ] = False,
    source_map: Annotated[
        Path | None,
        typer.Option(
            "--source-map",
            help='A JSON file pairing functions by hand: {"model.py::Net.forward": "model.py::Net.forward"}; an id '
            "is path::qualified name, with @FIRST_LINE when the name is not unique or the run has no source snapshot.",
            dir_okay=False,
        ),
    ] = None,
    change: Annotated[list[str] | None, typer.Option("--change", metavar="KEY", help=CHANGE_HELP)] = None,
    output_format: Annotated[ReportFormat, typer.Option("--format", "-f", help=FORMAT_HELP)] = ReportFormat.TEXT,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file.", dir_okay=False)] = None,
    all_rows: Annotated[
        bool, typer.Option("--all", help="Text and markdown: also list the functions in which nothing changed.")
    ] = False,
) -> None:
    """Compare two captures per source function, or the ranks of one capture."""
    from dynamo_diff_schema import DynamoDiffError, ErrorCode
    from dynamo_diff_service import read_source_map

    service = service_of(ctx)
    alone = None
    if not ranks and len(refs) == 1:
        # One capture: a capture of several ranks is compared rank against rank, as --ranks does (said on stderr, so
        # stdout is the rank view alone); one of a single rank has nothing to compare with.
        alone = open_capture(service, refs[0])
        count = len(alone.ranks)
        if count < 2:
            raise DynamoDiffError(
                ErrorCode.INVALID_ARGUMENT,
                f"give a baseline and a candidate: `compare {refs[0]} OTHER`; {refs[0]} has {count} rank, so there "
                f"are no ranks to compare (`compare CAPTURE --ranks` compares the ranks of a capture of several)",
            )
        stderr().print(
            f"one capture of {count} ranks: comparing its ranks, as `compare {refs[0]} --ranks` does (give a second "
            "capture to compare two runs)",
            markup=False,
            highlight=False,
        )
        ranks = True
    if ranks:
        capture = alone or open_capture(service, refs[0])
        try:
            chosen = [int(r) for r in refs[1:]] or None
        except ValueError:
            raise DynamoDiffError(
                ErrorCode.INVALID_ARGUMENT,
                f"with --ranks, give one capture then rank numbers, e.g. `compare {refs[0]} --ranks 0 1`",
            ) from None
        comparison = service.compare_ranks(capture, chosen)
        captures = (capture, capture)
    else:
        if len(refs) != 2:
            raise DynamoDiffError(
                ErrorCode.INVALID_ARGUMENT, "give a baseline and a candidate (or one capture with --ranks)"
            )
        user_map = read_source_map(source_map)  # checked before anything is imported
        base = open_capture(service, refs[0])
        cand = open_capture(service, refs[1])
        comparison = service.compare(base, cand, source_map=user_map, change=change or ())
        captures = (base, cand)
    emit(service, comparison, output_format, output, all_rows=all_rows, captures=captures)


@handles_errors
def check(
    ctx: typer.Context,
    base_ref: Annotated[
        str, typer.Argument(metavar="BASE", help="Baseline id, prefix, label or path.", show_default=False)
    ],
    cand_ref: Annotated[
        str, typer.Argument(metavar="CAND", help="Candidate id, prefix, label or path.", show_default=False)
    ],
    max_new_recompiles: Annotated[
        int | None,
        typer.Option("--max-new-recompiles", min=0, help="Fail when confirmed recompilations grow by more than N."),
    ] = None,
    max_new_graph_breaks: Annotated[
        int | None, typer.Option("--max-new-graph-breaks", min=0, help="Fail when graph breaks grow by more than N.")
    ] = None,
    fail_on_new_failures: Annotated[
        bool, typer.Option("--fail-on-new-failures", help="Fail when a compilation fails that did not before.")
    ] = False,
    fail_on_confounded: Annotated[
        bool,
        typer.Option(
            "--fail-on-confounded",
            help="Fail when the runs differ in something (configuration, versions, cache state, ...) that can "
            "change the counts this gate checks.",
        ),
    ] = False,
    change: Annotated[list[str] | None, typer.Option("--change", metavar="KEY", help=CHANGE_HELP)] = None,
    allow_incomplete: Annotated[
        bool,
        typer.Option(
            "--allow-incomplete",
            help="Check runs that did not finish (crashed, killed, interrupted, trace cut) instead of failing.",
        ),
    ] = False,
    allow_empty: Annotated[
        bool,
        typer.Option(
            "--allow-empty",
            help="Check runs that compiled nothing (no frame compiled, or no graph reached the backend) instead of "
            "failing.",
        ),
    ] = False,
    source_map: Annotated[
        Path | None,
        typer.Option(
            "--source-map", dir_okay=False, help="A JSON file pairing functions by hand (see compare --help)."
        ),
    ] = None,
    allow_same: Annotated[
        bool,
        typer.Option(
            "--allow-same",
            help="Check a capture against itself instead of refusing (every delta is zero by construction).",
        ),
    ] = False,
    output_format: Annotated[
        Format,
        typer.Option(
            "--format",
            "-f",
            help="text, json: a check document (passed, exit_code, the rules that fired, every finding), or "
            "markdown: the same findings as a table for a CI job's summary, also appended to the file "
            "$GITHUB_STEP_SUMMARY names when it is set; the exit status is the same.",
        ),
    ] = Format.TEXT,
) -> None:
    """A CI gate: exit 0 when within bounds, 1 when not, 2 on error.

    A run that compiled nothing fails first (all its counts are 0) unless --allow-empty; a run that did not finish
    fails (its low counts look like a gain) unless --allow-incomplete. The same capture on both sides is refused
    (same_capture) unless --allow-same."""
    from dynamo_diff_compare import check_markdown, check_text
    from dynamo_diff_schema import CheckBounds
    from dynamo_diff_service import read_source_map

    service = service_of(ctx)
    user_map = read_source_map(source_map)
    base = open_capture(service, base_ref)
    cand = open_capture(service, cand_ref)
    bounds = CheckBounds(
        max_new_recompiles=max_new_recompiles,
        max_new_graph_breaks=max_new_graph_breaks,
        fail_on_new_failures=fail_on_new_failures,
        fail_on_confounded=fail_on_confounded,
        allow_incomplete=allow_incomplete,
        allow_empty=allow_empty,
    )
    verdict = service.check(
        base, cand, bounds, source_map=user_map, change=change or (), allow_same=allow_same, refs=(base_ref, cand_ref)
    )
    if output_format == Format.JSON:
        print_json(json_document(verdict))
    elif output_format == Format.MARKDOWN:
        text = check_markdown(verdict)
        typer.echo(text, nl=False)
        append_step_summary(text)
    else:
        print_text(check_text(verdict))
    raise typer.Exit(verdict.exit_code)


def append_step_summary(text: str) -> None:
    """Append to the file $GITHUB_STEP_SUMMARY names (a GitHub Actions job's summary), when it is set; a file that
    cannot be written is an `io_error`, never a traceback."""
    import os

    from dynamo_diff_schema import DynamoDiffError, ErrorCode

    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        return
    try:
        with Path(target).open("a", encoding="utf-8") as summary:
            summary.write(text if text.endswith("\n") else text + "\n")
    except OSError as err:
        raise DynamoDiffError(
            ErrorCode.IO_ERROR, f"GITHUB_STEP_SUMMARY: cannot append to {target}: {err.strerror or err}", path=target
        ) from err


def _find_demo() -> tuple[Path, Path]:
    from dynamo_diff_schema import DynamoDiffError, ErrorCode

    folders = DEMO_FOLDERS
    for folder in folders:
        base, cand = folder / DEMO_PAIR[0], folder / DEMO_PAIR[1]
        if base.is_dir() and cand.is_dir():
            return base, cand
    raise DynamoDiffError(
        ErrorCode.UNREADABLE_INPUT,
        f"the demo captures ({DEMO_PAIR[0]} and {DEMO_PAIR[1]}) are not in this installation "
        f"(looked in {', '.join(str(f) for f in folders)}); a wheel built from the repository carries them",
    )


def _shown_folder(folder: Path) -> str:
    """A folder as a person reads it: relative to the working directory when it is below it, else from the home
    directory as `~/...`, else whole (a site-packages path is long: it should not fill the line)."""
    for base, prefix in ((Path.cwd(), ""), (Path.home(), "~/")):
        try:
            return prefix + str(folder.relative_to(base))
        except ValueError:
            continue
    return str(folder)


@handles_errors
def demo(
    output_format: Annotated[
        ReportFormat,
        typer.Option("--format", "-f", help="Output format (json: a comparison document; html: the report page)."),
    ] = ReportFormat.TEXT,
) -> None:
    """Compare the retained edit pair (an edit that removes a recompile and adds a compiled helper)."""
    from dynamo_diff_service import Service

    base_path, cand_path = _find_demo()
    with tempfile.TemporaryDirectory(prefix="dynamo-diff-demo-") as tmp:
        service = Service.at(Path(tmp) / "store")
        base = service.open(str(base_path), label="edit_v1").capture
        cand = service.open(str(cand_path), label="edit_v2").capture
        from dynamo_diff_compare import terminal_text

        said = (
            f"demo: {base_path.name} (baseline) vs {cand_path.name} (candidate) from {_shown_folder(base_path.parent)},"
            " in a temporary store"
        )
        stderr().print(terminal_text(said))
        comparison = service.compare(base, cand)
        if output_format in ("text", "markdown"):
            _print_edit(service, comparison, (base, cand), markdown=output_format == "markdown")
        emit(service, comparison, output_format, None, captures=(base, cand))


def _line_style(line: str) -> str:
    if line.startswith(("---", "+++")):
        return "bold"
    if line.startswith("@@"):
        return "cyan"
    return "green" if line.startswith("+") else "red" if line.startswith("-") else ""


def _print_edit(
    service: "Service", comparison: "Comparison", captures: "tuple[Capture, Capture]", *, markdown: bool
) -> None:
    """The code change between the two runs (the compiled functions whose source differs, from the runs' source
    snapshots), before the rows it explains."""
    from dynamo_diff_compare import terminal_text
    from rich.text import Text

    changes = service.source_changes(comparison, captures)
    if not changes:
        return
    names = ", ".join(change.qualified_name for change in changes)
    title = f"the edit: {len(changes)} compiled function(s) differ between the runs' source snapshots ({names})"
    if markdown:
        body = "\n".join(line for change in changes for line in change.lines)
        typer.echo(f"## The edit\n\n{title}\n\n```diff\n{body}\n```\n")
        return
    stdout().print(terminal_text(title))
    out = Text()
    for change in changes:
        for line in change.lines:
            out.append(line + "\n", style=_line_style(line))
    stdout().print(out)
