"""Commands that show the trace's own bytes: evidence excerpts and captured source snapshots."""

from typing import TYPE_CHECKING, Annotated

import typer

from dynamo_diff_cli.captures_cmd import REF_HELP, capture_ref, open_capture, service_of
from dynamo_diff_cli.errors import handles_errors
from dynamo_diff_cli.output import Format, print_document, stderr

if TYPE_CHECKING:
    from dynamo_diff_schema import EvidenceExcerpt, SourceDiff, SourceLocation
    from dynamo_diff_service import Service


@handles_errors
def evidence(
    ctx: typer.Context,
    ref: Annotated[str, typer.Argument(metavar="ID", help=REF_HELP, show_default=False)],
    evidence_ids: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[EVIDENCE_ID]...",
            help="Show this evidence; without it, list the evidence index (with --grep: search every record; "
            "when --kind, --function or --compile-id leave one record: show it); several ids: each record in turn "
            "(--max-chars each), with --grep: search those records.",
            show_default=False,
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
            "--grep",
            metavar="PATTERN",
            help="Only the parts matching PATTERN (regex or text, any case; (?-i:ord) for exact case): of the "
            "record, or without EVIDENCE_ID of every record (--kind, --function, --compile-id filter them).",
        ),
    ] = None,
    in_config: Annotated[
        bool,
        typer.Option(
            "--in-config",
            help="--grep: search the configuration the record embeds too (compilation_metrics' serialized "
            "dynamo/inductor config); by default only the record's own text.",
        ),
    ] = False,
    max_matches: Annotated[
        int, typer.Option("--max-matches", min=1, help="--grep: matches shown, in all (the rest are counted).")
    ] = 10,
    offset: Annotated[int, typer.Option("--offset", min=0, help="Index: first entry. Excerpt: first character.")] = 0,
    max_chars: Annotated[int, typer.Option("--max-chars", min=1, help="Excerpt length in characters.")] = 4000,
    full: Annotated[
        bool,
        typer.Option(
            "--full",
            help="The record as written, every stack frame and the embedded configuration; by default runs of "
            "torch/library frames are one line each (the user's frames kept), the configuration is left out, and "
            "a graph's code, a guard tree (a leaf a line) and Inductor's module are shown compact (--grep too).",
        ),
    ] = False,
    diff: Annotated[
        str | None,
        typer.Option(
            "--diff",
            metavar="[REF:]ID",
            help="Against EVIDENCE_ID: a unified diff of the two records as shown (compact unless --full), the other "
            "of this capture or of REF (e.g. --diff after:u1-e15: the generated code of two runs).",
        ),
    ] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, max=1000, help="Index entries per page.")] = 50,
    output_format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.TEXT,
) -> None:
    """The records behind the numbers: a paged index, one hash-checked excerpt, or --grep matches."""
    service = service_of(ctx)
    ref = capture_ref(service, ref)
    ids = list(dict.fromkeys(evidence_ids or []))
    if diff is not None:
        _print_diff(service, ref, ids, diff, full=full, output_format=output_format)
        return
    if len(ids) > 1 and grep is None:  # each record in turn, `--max-chars` each (JSON: a document a line)
        excerpts = [service.evidence_excerpt(ref, one, offset=offset, max_chars=max_chars, full=full) for one in ids]
        for excerpt in excerpts:
            if output_format == Format.JSON:
                typer.echo(excerpt.model_dump_json(exclude_none=True))
            else:
                _print_excerpt(excerpt, heading=True)
        return
    evidence_id = ids[0] if len(ids) == 1 else None
    if evidence_id is None and grep is not None:
        search = service.evidence_search(
            ref,
            grep,
            kind=kind,
            compile_id=compile_id,
            function=function,
            evidence_ids=ids or None,
            max_matches=max_matches,
            in_config=in_config,
            full=full,
        )
        if output_format == Format.JSON:
            print_document(search)
            return
        where = " (the embedded configuration searched too)" if search.in_config else ""
        stderr().print(
            f"{search.total_matches} match(es) of {grep!r} in {search.records_matched} of {search.records_searched} "
            f"records{where}, sha256 verified; {search.shown_matches} shown"
            + (
                f" ({search.joint_graphs_skipped} aot_joint_graph record(s) not searched: the forward and backward "
                "graphs hold their nodes; --kind aot_joint_graph searches them)"
                if search.joint_graphs_skipped
                else ""
            )
        )
        for hit in search.records:
            if not hit.matches:
                continue
            typer.echo(hit.heading())
            for m in hit.matches:
                typer.echo(f"  {m.heading()}")
                for text in m.lines:
                    typer.echo(f"    {text}")
        rest = [
            f"{h.evidence.id} ({h.total_matches - h.shown_matches})"
            for h in search.records
            if h.shown_matches < h.total_matches
        ]
        if rest:
            stderr().print(
                f"... {search.total_matches - search.shown_matches} more match(es), in {', '.join(rest)}: "
                "--max-matches N, or EVIDENCE_ID --grep PATTERN"
            )
        if search.config_matches and not search.in_config:
            stderr().print(f"{search.config_matches} more in the embedded configuration: --in-config")
        return
    if evidence_id is None:
        from dynamo_diff_compare import index_lines

        page = service.evidence_page(
            ref, kind=kind, compile_id=compile_id, function=function, offset=offset, limit=limit
        )
        items, total, next_offset = page.items, page.total, page.next_offset
        if output_format == Format.JSON:
            print_document(page)
            return
        if total == 1 and offset == 0 and (kind or compile_id or function):  # the filters name one record: it
            _print_excerpt(service.evidence_excerpt(ref, items[0].id, max_chars=max_chars, full=full))
            return
        one, lines = index_lines(items)
        stderr().print(f"evidence {offset + 1}-{offset + len(items)} of {total}" + (f", all in {one}" if one else ""))
        for line in lines:  # one line each, whole: id, kind, rank, compile id, function, what it says, where
            typer.echo(line)
        if next_offset is not None:
            stderr().print(f"more: --offset {next_offset}")
        return
    if grep is not None:
        found = service.evidence_grep(ref, evidence_id, grep, max_matches=max_matches, in_config=in_config, full=full)
        if output_format == Format.JSON:
            print_document(found)
            return
        ev = found.evidence
        stderr().print(
            f"{ev.id}: {ev.kind} (compile {ev.compile_id or '-'}), sha256 verified: {found.total_matches} match(es)"
            + (" (the embedded configuration searched too)" if found.in_config else "")
            + (" in the record shown compact (--full: as written)" if found.compact else "")
        )
        for m in found.matches:
            typer.echo(m.heading())
            for text in m.lines:
                typer.echo(f"  {text}")
        if found.total_matches > found.shown_matches:
            stderr().print(f"... {found.total_matches - found.shown_matches} more match(es): --max-matches")
        if found.config_matches and not found.in_config:
            stderr().print(f"{found.config_matches} more in the embedded configuration: --in-config")
        return
    excerpt = service.evidence_excerpt(ref, evidence_id, offset=offset, max_chars=max_chars, full=full)
    if output_format == Format.JSON:
        print_document(excerpt)
        return
    _print_excerpt(excerpt)


def _print_diff(service: "Service", ref: str, ids: list[str], other: str, *, full: bool, output_format: Format) -> None:
    """`--diff [REF:]ID`: the records' texts as shown, as a unified diff (`evidence_diff` in JSON)."""
    from dynamo_diff_schema import DynamoDiffError, ErrorCode
    from dynamo_diff_service import diff_target

    if len(ids) != 1:
        raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, "--diff compares one record: give one EVIDENCE_ID")
    other_ref, other_id = diff_target(other)
    found = service.evidence_diff(
        ref, ids[0], capture_ref(service, other_ref) if other_ref else ref, other_id, full=full
    )
    if output_format == Format.JSON:
        print_document(found)
        return
    stderr().print(
        f"{found.evidence.id} against {found.other.id}, sha256 verified: "
        + (f"{found.lines_differ} line(s) differ" if found.lines else "the same")
        + (" (shown compact; --full: as written)" if found.compact else "")
    )
    for line in found.lines:
        typer.echo(line)


def _print_excerpt(excerpt: "EvidenceExcerpt", *, heading: bool = False) -> None:
    """One record's excerpt: what it is (on stderr; with `heading`, one of several, on stdout before its text), its
    text, what is left and how to read it."""
    ev = excerpt.evidence
    head = f"{ev.id}: {ev.kind} {ev.compile_id or '-'} at {ev.file}:{ev.line}, sha256 verified"
    if heading:
        typer.echo(f"== {head}")
    else:
        stderr().print(head)
    typer.echo(excerpt.text, nl=not excerpt.text.endswith("\n"))
    if excerpt.next_offset is not None:
        more = f"--offset {excerpt.next_offset}" + (f" ({ev.id} alone)" if heading else "")
        stderr().print(f"... {excerpt.total_chars - excerpt.next_offset} more characters: {more}")
    if excerpt.condensed:
        stderr().print(
            condensed_note(excerpt.collapsed_frames, excerpt.config_chars, excerpt.record_chars, excerpt.compact)
        )


def condensed_note(frames: int, config_chars: int, record_chars: int | None, compact: str | None = None) -> str:
    """What the condensed excerpt left out, and how to see it."""
    left = [compact] if compact else []
    if frames:
        left.append(f"{frames} torch/library stack frames collapsed")
    if config_chars:
        left.append(f"{config_chars} characters of embedded configuration left out")
    whole = f" from {record_chars} characters" if record_chars is not None else ""
    return f"condensed{whole}: {', '.join(left)}; --full: as written"


@handles_errors
def source(
    ctx: typer.Context,
    ref: Annotated[str, typer.Argument(metavar="ID", help=REF_HELP, show_default=False)],
    rest: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[CAND] [FUNCTION]",
            help="A function's name (co_name, or the qualified name compare shows, e.g. Net.forward), or FILE:LINE. "
            "With two words, the first is a second capture CAND: the diff of that function (as compare pairs it, "
            "renamed or moved too) and of the functions that call it and that it calls, between the two runs.",
            show_default=False,
        ),
    ] = None,
    diff: Annotated[
        str | None,
        typer.Option(
            "--diff",
            metavar="CAND",
            help="The code change from this capture to CAND (id, prefix, label or path): a unified diff of each "
            "compiled function whose source differs between the two runs' snapshots (of FUNCTION only, when given).",
        ),
    ] = None,
    file: Annotated[
        str | None,
        typer.Option(
            "--file",
            metavar="PATH",
            help="A whole captured file (its path in the snapshot, the path the run saw, or its end, e.g. main.py); "
            "with a second capture, its diff.",
        ),
    ] = None,
    context: Annotated[
        int | None,
        typer.Option(
            "--context",
            min=0,
            max=200,
            help="Lines shown before and after the function [default: 0; 10 around a FILE:LINE].",
            show_default=False,
        ),
    ] = None,
    output_format: Annotated[
        Format,
        typer.Option(
            "--format", "-f", help="text: the function's lines; json: a source document, the whole snapshot too."
        ),
    ] = Format.TEXT,
) -> None:
    """Print the captured source snapshot of a compiled function or of a file (never the working-tree file), or
    with a second capture the code change between two runs."""
    from dynamo_diff_schema import DynamoDiffError, ErrorCode

    words = list(rest or [])
    if len(words) > 2:
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT, f"at most two words after the capture (CAND FUNCTION), not {len(words)}"
        )
    cand = diff
    if len(words) == 2 or (len(words) == 1 and file is not None and diff is None):
        if diff is not None:
            raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, "give the second capture once: CAND or --diff CAND")
        cand = words.pop(0)
    function = words[0] if words else None
    if function is not None and file is not None:
        raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, "give a FUNCTION or --file PATH, not both")
    service = service_of(ctx)
    ref = capture_ref(service, ref)
    if cand is not None:
        changes = service.source_diff(service.load(ref), open_capture(service, cand), function=function, file=file)
        if output_format == Format.JSON:
            print_document(changes)
        else:
            _print_source_diff(changes)
        return
    if function is None and file is None:
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT, "give a FUNCTION or --file PATH (or a second capture for the code change)"
        )
    found = service.source_document(ref, function, file=file, context=context)
    context = found.context
    if output_format == Format.JSON:
        print_document(found)
        return
    if found.sources_note is not None:
        stderr().print(found.sources_note)
    for loc in found.locations:
        text = loc.text.splitlines()
        if found.file is not None:
            stderr().print(f"{loc.co_filename} (captured as {loc.snapshot}, {len(text)} lines)")
            first, last = 1, len(text)
        else:
            stderr().print(_where(loc))
            first, last = max(loc.first_line - context, 1), min(loc.last_line + context, len(text))
        width = len(str(last))
        for number in range(first, last + 1):
            typer.echo(f"{number:>{width}} | {text[number - 1]}")


def _where(loc: "SourceLocation") -> str:
    """Where a function (or the line asked for) is in the snapshot, and whether this run compiled it."""
    if loc.line is not None:
        where = "at module level" if loc.name == "module level" else f"in {loc.name}"
        held = "" if loc.compiled or loc.name == "module level" else ", not compiled in this run"
        return f"{loc.co_filename}:{loc.line} (captured as {loc.snapshot}, line {loc.line}, {where}{held})"
    lines = f"lines {loc.first_line}-{loc.last_line}"
    if not loc.compiled:
        lines = f"{loc.name}, {lines}; not compiled in this run: defined in the captured file"
    return f"{loc.co_filename}:{loc.co_firstlineno} (captured as {loc.snapshot}, {lines})"


_ROLE_WORDS = {
    "function": "the compiled function",
    "caller": "a function that called it (the call site)",
    "callee": "a function it calls",
    "file": "the whole file",
}


def _print_source_diff(changes: "SourceDiff") -> None:
    """One unified diff per piece of code whose source differs (from the runs' snapshots, never the working
    tree)."""
    if not changes.functions:
        what = changes.file or changes.function
        about = f"{what!r} does not differ" if what else "no compiled function's source differs"
        stderr().print(f"{about} between the two runs' snapshots")
        return
    if changes.function is None and changes.file is None:
        names = ", ".join(f.qualified_name or "?" for f in changes.functions)
        stderr().print(
            f"{len(changes.functions)} compiled function(s) differ between the runs' source snapshots ({names})"
        )
    for change in changes.functions:
        if changes.function is not None:
            where = " -> ".join(dict.fromkeys(w for w in (change.baseline, change.candidate) if w))
            stderr().print(f"{change.qualified_name} ({where}): {_ROLE_WORDS[change.role]}")
        for line in change.lines:
            typer.echo(line)
