"""Each compilation's stored records, one click away: a row's compilations with links to their graphs, guards and
generated code, and the page's "Records" section that holds those texts (each in a closed <details> the link
opens; cut to the caller's bound, and what was cut said)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dynamo_diff_schema.comparison import FunctionRow
from dynamo_diff_schema.compilation import Compilation
from dynamo_diff_schema.hints import Hint, HintAction
from dynamo_diff_schema.ids import short_id
from dynamo_diff_schema.lists import head

from dynamo_diff_compare.hint_words import phrase
from dynamo_diff_compare.html_report.inputs import LINKED_RECORDS, RecordText, ReportMaterial
from dynamo_diff_compare.html_report.text import esc
from dynamo_diff_compare.render import row_name

SIDES = ("baseline", "candidate")
# Compile ids listed per side of one row (a function compiled more often says how many more).
MAX_COMPILATIONS = 20
_OUTCOME_WORDS = {"no_graph_observed": "no graph", "unknown": "never finished"}


def record_anchor(side: str, evidence_id: str) -> str:
    return f"rec-{side}-{evidence_id}"


@dataclass(frozen=True)
class RecordIndex:
    """The material's records per side and compile id (in the caller's order), and each side's compilations by
    compile id (their outcome); `owner` is filled as rows are drawn: record key -> (row anchor, function name)."""

    by_compile: Mapping[str, Mapping[str, list[tuple[str, RecordText]]]]
    compilations: Mapping[str, Mapping[str, list[Compilation]]]
    owner: dict[str, tuple[str, str]]
    looked_up: frozenset[str] = frozenset()


def record_index(material: ReportMaterial) -> RecordIndex:
    by_compile: dict[str, dict[str, list[tuple[str, RecordText]]]] = {side: {} for side in SIDES}
    for key, record in material.records.items():
        side, _, evidence_id = key.partition(":")
        if side in by_compile:
            by_compile[side].setdefault(record.compile_id, []).append((evidence_id, record))
    compilations: dict[str, dict[str, list[Compilation]]] = {side: {} for side in SIDES}
    for side in SIDES:
        for c in material.side(side).compilations:
            compilations[side].setdefault(c.compile_id, []).append(c)
    return RecordIndex(by_compile, compilations, {}, material.records_of)


def _outcome(compilations: Sequence[Compilation], rank: int | None) -> str:
    """The compilation's outcome (one per rank in a capture of several ranks: the side's rank, else them all)."""
    chosen = [c for c in compilations if rank is None or c.identity.rank == rank] or list(compilations)
    words = [_OUTCOME_WORDS.get(str(c.outcome), str(c.outcome)) for c in chosen]
    if len(set(words)) == 1:
        return words[0] + (f" (on {len(words)} ranks)" if len(words) > 1 else "")
    return ", ".join(f"rank {c.identity.rank}: {w}" for c, w in zip(chosen, words, strict=True))


def row_compilations(row: FunctionRow, anchor: str, index: RecordIndex) -> str:
    """The row's compilations, a line per compile id of each side: its outcome and a link to each of its records."""
    out = []
    any_link = False
    for side in SIDES:
        fside = getattr(row, side)
        if fside is None or not fside.compile_ids:
            continue
        lines = []
        listed_ids, more = head(fside.compile_ids, MAX_COMPILATIONS)
        for cid in listed_ids:
            records = index.by_compile[side].get(cid, [])
            links = []
            for evidence_id, record in records:
                key = f"{side}:{evidence_id}"
                index.owner.setdefault(key, (anchor, row_name(row)))
                label = LINKED_RECORDS.get(record.kind, record.kind)
                cut = "" if record.text is not None else " (not embedded)"
                links.append(
                    f'<a class="rec-link" href="#{record_anchor(side, evidence_id)}" data-kind="{esc(record.kind)}" '
                    f'data-evidence="{esc(evidence_id)}">{esc(label)}{cut}</a>'
                )
            any_link = any_link or bool(links)
            outcome = index.compilations[side].get(cid)
            said = f'<span class="cmp-outcome">{esc(_outcome(outcome, fside.rank))}</span>' if outcome else ""
            if links:
                listed = " ".join(links)
            elif f"{side}:{cid}" in index.looked_up:
                listed = '<span class="none">no graph, guard or code record</span>'
            else:  # past the compilations the caller looked records up for (or none were given)
                listed = ""
            lines.append(f'<li data-compile-id="{esc(cid)}"><code>{esc(cid)}</code> {said} {listed}</li>')
        if more > 0:
            lines.append(f'<li class="note">{more} more compilation(s) of this function not listed</li>')
        out.append(
            f'<div class="side {side}"><div class="side-name">{side}</div><ul class="cmps">{"".join(lines)}</ul></div>'
        )
    if not out or (not any_link and not index.compilations["baseline"] and not index.compilations["candidate"]):
        return ""
    return f'<div class="compilations"><h4>Compilations</h4><div class="pair">{"".join(out)}</div></div>'


def records_section(comparison_ids: Mapping[str, str], material: ReportMaterial, index: RecordIndex) -> str:
    """The texts the rows link to, each in a closed <details> (a link opens it), grouped by function."""
    if not material.records:
        return ""
    embedded = [r for r in material.records.values() if r.text is not None]
    chars = sum(len(r.text or "") for r in embedded)
    cut = [r for r in embedded if r.text is not None and len(r.text) < r.total_chars]
    left_out = len(material.records) - len(embedded)
    said = [f"{len(embedded)} record(s), {chars:,} characters, read hash-checked from the store when the page was made"]
    if cut:
        said.append(f"{len(cut)} cut to their first characters (each says how much)")
    if left_out:
        said.append(f"{left_out} not embedded: the page's budget for record text was spent")
    out = [
        '<section id="records"><h2>Graphs, guards and generated code</h2>'
        f'<p class="note">{esc("; ".join(said))}. A link under a function\'s compilations opens its record here.</p>'
    ]
    for key, record in material.records.items():
        side, _, evidence_id = key.partition(":")
        anchor, function = index.owner.get(key, ("", ""))
        label = LINKED_RECORDS.get(record.kind, record.kind)
        back = f' <a class="back" href="#{anchor}">{esc(function)}</a>' if anchor else ""
        head = (
            f'<span class="side-name">{esc(side)}</span> <code>{esc(record.compile_id)}</code> '
            f'<span class="fn-name">{esc(function)}</span> {esc(label)} '
            f'<span class="note"><code>{esc(record.kind)}</code> evidence <code>{esc(evidence_id)}</code></span>'
        )
        how = phrase(
            Hint(
                action=HintAction.EVIDENCE_OF_KIND,
                args={"capture": short_id(comparison_ids[side]), "kind": record.kind},
            ),
            material.hints,
        )
        if record.text is None:
            out.append(
                f'<div class="record" id="{record_anchor(side, evidence_id)}" data-side="{esc(side)}">'
                f"<p>{head}{back}: not embedded ({esc(how)})</p></div>"
            )
            continue
        whole = len(record.text) >= record.total_chars
        size = (
            f"{record.total_chars:,} characters"
            if whole
            else f"the first {len(record.text):,} of {record.total_chars:,} characters"
        )
        rest = "" if whole else f'<p class="note cut">The rest is not on this page ({esc(how)}).</p>'
        source = f'<p class="note">back to{back}</p>' if back else ""
        out.append(
            f'<details class="record" id="{record_anchor(side, evidence_id)}" data-side="{esc(side)}" '
            f'data-evidence="{esc(evidence_id)}"><summary>{head} <span class="note">{esc(size)}</span></summary>'
            f'{source}<pre class="trace" data-trace>{esc(record.text)}</pre>{rest}</details>'
        )
    out.append("</section>")
    return "\n".join(out)
