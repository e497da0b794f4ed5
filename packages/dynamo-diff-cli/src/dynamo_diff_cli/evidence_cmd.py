"""Commands that show the trace's own bytes: evidence excerpts and captured source snapshots."""

from typing import Annotated

import typer

from dynamo_diff_cli.captures_cmd import service_of
from dynamo_diff_cli.errors import handles_errors
from dynamo_diff_cli.output import Format, print_json, stderr, stdout


@handles_errors
def evidence(
    ctx: typer.Context,
    ref: Annotated[str, typer.Argument(metavar="ID", help="A capture id, unique prefix or label.", show_default=False)],
    evidence_id: Annotated[
        str | None,
        typer.Argument(
            metavar="[EVIDENCE_ID]", help="Show this evidence; without it, list the evidence index.", show_default=False
        ),
    ] = None,
    kind: Annotated[str | None, typer.Option("--kind", help="Only this record kind, e.g. recompile_reasons.")] = None,
    function: Annotated[
        str | None, typer.Option("--function", metavar="NAME", help="Index: only this function's records.")
    ] = None,
    compile_id: Annotated[
        str | None, typer.Option("--compile-id", metavar="ID", help="Index: only this compilation's records, e.g. 0/1.")
    ] = None,
    grep: Annotated[
        str | None,
        typer.Option(
            "--grep", metavar="PATTERN", help="Excerpt: only the parts matching PATTERN (regex or text, any case)."
        ),
    ] = None,
    offset: Annotated[int, typer.Option("--offset", min=0, help="Index: first entry. Excerpt: first character.")] = 0,
    max_chars: Annotated[int, typer.Option("--max-chars", min=1, help="Excerpt length in characters.")] = 4000,
    limit: Annotated[int, typer.Option("--limit", min=1, max=1000, help="Index entries per page.")] = 50,
    output_format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.TEXT,
) -> None:
    """The records behind the numbers: a paged index, or one hash-checked excerpt."""
    from rich.table import Table
    from rich.text import Text

    service = service_of(ctx)
    if evidence_id is None:
        _, items, total = service.evidence_index(
            ref, kind=kind, compile_id=compile_id, function=function, offset=offset, limit=limit
        )
        next_offset = offset + len(items) if offset + len(items) < total else None
        if output_format == Format.JSON:
            print_json(
                {
                    "total": total,
                    "offset": offset,
                    "next_offset": next_offset,
                    "items": [e.model_dump(mode="json") for e in items],
                }
            )
            return
        table = Table(title=f"evidence {offset + 1}-{offset + len(items)} of {total}", title_justify="left")
        for col in ("id", "kind", "rank", "compile id", "function", "what it says", "file:line"):
            table.add_column(col, overflow="fold")
        for e in items:
            table.add_row(
                e.id,
                e.kind,
                "?" if e.rank is None else str(e.rank),
                e.compile_id or "",
                Text(e.function or ""),
                Text(e.summary or ""),
                f"{e.file}:{e.line}",
            )
        stdout().print(table)
        if next_offset is not None:
            stderr().print(f"more: --offset {next_offset}")
        return
    if grep is not None:
        head, matches, total_matches = service.grep_evidence(ref, evidence_id, grep)
        if output_format == Format.JSON:
            print_json(
                {
                    "evidence": head.evidence.model_dump(mode="json"),
                    "pattern": grep,
                    "total_matches": total_matches,
                    "matches": [m.model_dump(mode="json") for m in matches],
                }
            )
            return
        ev = head.evidence
        stderr().print(
            f"{ev.id}: {ev.kind} (compile {ev.compile_id or '-'}), sha256 verified: {total_matches} match(es)"
        )
        for m in matches:
            typer.echo(f"line {m.line}:")
            for text in m.lines:
                typer.echo(f"  {text}")
        return
    excerpt = service.read_evidence(ref, evidence_id, offset=offset, max_chars=max_chars)
    if output_format == Format.JSON:
        print_json(
            {
                "evidence": excerpt.evidence.model_dump(mode="json"),
                "offset": excerpt.offset,
                "next_offset": excerpt.next_offset,
                "total_chars": excerpt.total_chars,
                "text": excerpt.text,
            }
        )
        return
    ev = excerpt.evidence
    stderr().print(f"{ev.id}: {ev.kind} at {ev.file}:{ev.line} (compile {ev.compile_id or '-'}), sha256 verified")
    typer.echo(excerpt.text, nl=not excerpt.text.endswith("\n"))
    if excerpt.next_offset is not None:
        stderr().print(
            f"... {excerpt.total_chars - excerpt.next_offset} more characters: --offset {excerpt.next_offset}"
        )


@handles_errors
def source(
    ctx: typer.Context,
    ref: Annotated[str, typer.Argument(metavar="ID", help="A capture id, unique prefix or label.", show_default=False)],
    function: Annotated[
        str,
        typer.Argument(
            metavar="FUNCTION",
            help="A function's name (co_name, or the qualified name compare shows, e.g. Net.forward), or FILE:LINE.",
            show_default=False,
        ),
    ],
    output_format: Annotated[
        Format, typer.Option("--format", "-f", help="text: the function's lines; json: the whole snapshot too.")
    ] = Format.TEXT,
) -> None:
    """Print the captured source snapshot of a compiled function (never the working-tree file)."""
    capture, locations = service_of(ctx).source(ref, function)
    if output_format == Format.JSON:
        print_json(
            {
                "capture": capture.capture.id,
                "function": function,
                "locations": [
                    {
                        "co_filename": loc.co_filename,
                        "snapshot": loc.snapshot,
                        "first_line": loc.first_line,
                        "last_line": loc.last_line,
                        "co_firstlineno": loc.co_firstlineno,
                        "sha256": loc.sha256,
                        "text": loc.text,
                    }
                    for loc in locations
                ],
            }
        )
        return
    for loc in locations:
        lines = f"lines {loc.first_line}-{loc.last_line}"
        stderr().print(f"{loc.co_filename}:{loc.co_firstlineno} (captured as {loc.snapshot}, {lines})")
        width = len(str(loc.last_line))
        for number, line in loc.lines:
            typer.echo(f"{number:>{width}} | {line}")
