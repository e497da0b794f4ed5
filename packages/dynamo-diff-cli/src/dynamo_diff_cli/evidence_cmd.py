"""Commands that show the trace's own bytes: evidence excerpts and captured source snapshots."""

from __future__ import annotations

import hashlib
from typing import Annotated

import typer
from dynamo_diff_compare import user_sources
from dynamo_diff_match import FunctionRef, function_span, locate, qualified_name
from dynamo_diff_schema import CodeLocation, DynamoDiffError, ErrorCode, short_id
from rich.table import Table

from dynamo_diff_cli.captures_cmd import store_of
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
    offset: Annotated[int, typer.Option("--offset", min=0, help="Index: first entry. Excerpt: first character.")] = 0,
    max_chars: Annotated[int, typer.Option("--max-chars", min=1, help="Excerpt length in characters.")] = 4000,
    limit: Annotated[int, typer.Option("--limit", min=1, max=1000, help="Index entries per page.")] = 50,
    output_format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.TEXT,
) -> None:
    """The records behind the numbers: a paged index, or one hash-checked excerpt."""
    store = store_of(ctx)
    if evidence_id is None:
        items, total = store.evidence_index(ref, kind=kind, offset=offset, limit=limit)
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
        for col in ("id", "kind", "rank", "compile id", "file:line", "bytes"):
            table.add_column(col)
        for e in items:
            table.add_row(
                e.id,
                e.kind,
                "?" if e.rank is None else str(e.rank),
                e.compile_id or "",
                f"{e.file}:{e.line}",
                str(e.length),
            )
        stdout().print(table)
        if next_offset is not None:
            stderr().print(f"more: --offset {next_offset}")
        return
    excerpt = store.read_evidence(ref, evidence_id, offset=offset, max_chars=max_chars)
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
    store = store_of(ctx)
    capture = store.load(ref, evidence=False)
    snapshots = user_sources(*store.source_files(capture))

    def names(code: CodeLocation) -> set[str | None]:
        """What a user may call this function: its co_name, its qualified name (read from the captured snapshot,
        as compare shows it: `Net.forward`), its file:line."""
        assert code.co_filename is not None and code.co_firstlineno is not None
        observed = FunctionRef(code.co_filename, code.co_firstlineno, code.co_name or "?")
        found = locate(observed, snapshots)
        return {
            code.co_name,
            code.qualified_name,
            qualified_name(observed, found) if found is not None else None,
            f"{code.co_filename}:{code.co_firstlineno}",
            f"{code.co_filename.rsplit('/', 1)[-1]}:{code.co_firstlineno}",
        }

    codes = {
        (c.code.co_filename, c.code.co_firstlineno): c.code
        for rank in capture.ranks
        for c in rank.compilations
        if c.code.co_filename is not None and c.code.co_firstlineno is not None
    }
    locations = sorted(key for key, code in codes.items() if function in names(code))
    if not locations:
        raise DynamoDiffError(
            ErrorCode.UNKNOWN_FUNCTION,
            f"no compiled function {function!r} in capture "
            f"{short_id(capture.capture.id)} (see `dynamo-diff analyze {short_id(capture.capture.id)}`)",
        )
    found = []
    for co_filename, first_line in locations:
        assert co_filename is not None and first_line is not None
        snapshot, text = store.source_snapshot(capture.capture.id, co_filename)
        lines = text.splitlines()
        span = function_span(text, first_line) or (first_line, min(first_line + 39, len(lines)))
        found.append(
            {
                "co_filename": co_filename,
                "snapshot": snapshot,
                "first_line": span[0],
                "last_line": span[1],
                "co_firstlineno": first_line,
                "sha256": hashlib.sha256(text.encode()).hexdigest(),
                "text": text,
            }
        )
        if output_format == Format.JSON:
            continue
        stderr().print(f"{co_filename}:{first_line} (captured as {snapshot}, lines {span[0]}-{span[1]})")
        width = len(str(span[1]))
        for number in range(span[0], span[1] + 1):
            if number - 1 < len(lines):
                typer.echo(f"{number:>{width}} | {lines[number - 1]}")
    if output_format == Format.JSON:
        print_json({"capture": capture.capture.id, "function": function, "locations": found})
