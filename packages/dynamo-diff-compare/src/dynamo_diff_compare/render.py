"""Render a comparison for people: rich text and markdown (JSON is the Comparison model itself)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from dynamo_diff_schema.capture import RunStatus
from dynamo_diff_schema.comparison import (
    COUNT_AREAS,
    Change,
    ChangeKind,
    Comparability,
    Comparison,
    Difference,
    FunctionPiece,
    FunctionRow,
    FunctionSide,
    MatchMethod,
    RowStatus,
    Side,
)
from dynamo_diff_schema.counts import COMPILE_PHASES, COUNT_KEYS, COUNT_LABELS, HEADLINE_COUNTS, Counts
from dynamo_diff_schema.evidence import Notice, NoticeCode
from dynamo_diff_schema.hints import Hint, HintAction
from dynamo_diff_schema.ids import short_id
from dynamo_diff_schema.lists import head, joined
from rich.console import Group, RenderableType
from rich.text import Text

from dynamo_diff_compare.changes import guard_failure_text
from dynamo_diff_compare.compile_time import compile_time_change, compile_time_noise, compile_time_text
from dynamo_diff_compare.compiled import compiled_line
from dynamo_diff_compare.hint_words import PLAIN_HINTS, HintWords, phrase, with_hint
from dynamo_diff_compare.rank_sums import summed
from dynamo_diff_compare.suggestions import suggestion_text
from dynamo_diff_compare.terminal_lines import Aligned, Line, Lines
from dynamo_diff_compare.user_lines import guard_line
from dynamo_diff_compare.values import value_text
from dynamo_diff_compare.verdict_text import (
    areas_text,
    difference_lines,
    difference_phrase,
    effect_text,
    followers,
    no_snapshots_message,
    unexplained_harmless,
    verdict_headline,
    with_it,
)

# The counts shown on each row (dynamo_diff_schema.HEADLINE_COUNTS).
ROW_KEYS = HEADLINE_COUNTS


def side_name(side: Side) -> str:
    return f"{short_id(side.id)}" + (f" ({side.label})" if side.label else "")


def changed_first(rows: Sequence[FunctionRow]) -> list[FunctionRow]:
    """The order every view shows rows in: rows with changes first (largest count change first), then by name."""
    return sorted(rows, key=interest)


def timing_noise(change: Change) -> bool:
    """A compile-phase timing that moved within the noise rule (JSON keeps it; the views fold it)."""
    if change.kind != ChangeKind.PHASE_TIME:
        return False
    b, c = change.baseline, change.candidate
    return not isinstance(b, int | float) or not isinstance(c, int | float) or compile_time_noise(b, c)


def behaviour_unchanged(change: Change) -> bool:
    """A change that says nothing about compile behaviour on its own: a compile-phase timing within the noise rule,
    or the source lines around the function (shown on a row that changed, folded with one that did not)."""
    return change.kind == ChangeKind.SOURCE or timing_noise(change)


def interest(row: FunctionRow) -> tuple[int, int, str]:
    """Rows with changes first (largest count change first), then by name."""
    weight = sum(abs(v) for v in row.deltas.values())
    meaningful = [c for c in row.changes if not behaviour_unchanged(c)]
    side = row.baseline or row.candidate
    name = side.qualified_name if side is not None else ""
    return (0 if (weight or meaningful or row.status != RowStatus.MATCHED) else 1, -weight, name or "")


def same_file(a: str | None, b: str | None) -> bool:
    """One file named two ways (a bundle's relative path, a bare trace's absolute one): one ends with the other."""
    if a == b:
        return True
    if a is None or b is None:
        return False
    x, y = a.replace("\\", "/").strip("/").split("/"), b.replace("\\", "/").strip("/").split("/")
    short, long = (x, y) if len(x) <= len(y) else (y, x)
    return long[len(long) - len(short) :] == short


def same_name(a: str | None, b: str | None) -> bool:
    """`Block.forward` (read from a snapshot) and `forward` (a bare trace's co_name) name one function."""
    if a == b:
        return True
    if a is None or b is None:
        return False
    return a.endswith("." + b) or b.endswith("." + a)


def function_name(side: FunctionSide) -> str:
    """A function as rows name it: 'Net.forward (model.py:12)'; generated code by what it is ('compiled autograd
    graph 0'), without the file name torch made up for it."""
    if side.generated is not None:
        return side.qualified_name or "?"
    return f"{side.qualified_name} ({_where(side.file, side.line)})"


def row_name(row: FunctionRow) -> str:
    b, c = row.baseline, row.candidate
    if (b is not None and b.generated is not None) or (c is not None and c.generated is not None):
        names = list(dict.fromkeys(function_name(s) for s in (b, c) if s is not None))
        return " -> ".join(names)
    # Paired by file and name: the matcher already found the two paths to be one file (e.g. two checkouts).
    one_file = row.method in (MatchMethod.NAME, MatchMethod.SAME_LOCATION) or (b and c and same_file(b.file, c.file))
    if b and c and not (same_name(b.qualified_name, c.qualified_name) and one_file):
        return (
            f"{side_label(b.qualified_name, b.file, b.line, b.name_from)} -> "
            f"{side_label(c.qualified_name, c.file, c.line, c.name_from)}"
        )
    sides = [s for s in (b, c) if s is not None]
    assert sides
    side = max(sides, key=lambda s: len(s.qualified_name or ""))  # the qualified name, when one side knows it
    if b and c and b.line and c.line and b.line != c.line and side.name_from != "compiled":
        # The same function at another line of its file (code above it was edited): both lines.
        return f"{side.qualified_name} ({_where(b.file, b.line)} -> {c.line})"
    return side_label(side.qualified_name, side.file, side.line, side.name_from)


def side_label(name: str | None, file: str | None, line: int | None, name_from: str | None) -> str:
    """`Net.forward (model.py:12)`; a row named by what was compiled says where torch.compile was called
    (`LlamaForCausalLM.forward (compiled at llama_upgrade.py:57)`), or, not known, in which file it was called."""
    if name_from == "generated":  # code torch generated, named for what it is, not by the file name torch made up
        return name or "?"
    if name_from == "compiled":
        return (
            f"{name} (compiled at {_where(file, line)})"
            if line
            else f"{name} (compiled, called in {_where(file, None)})"
        )
    return f"{name} ({_where(file, line)})"


def _where(file: str | None, line: int | None) -> str:
    name = (file or "?").rsplit("/", 1)[-1]
    return f"{name}:{line}" if line else name


def row_compile_time(row: FunctionRow) -> str:
    """The row's compile time on each side (one-sided rows: that side's), with noise marked."""
    if row.baseline is None or row.candidate is None:
        side = row.baseline or row.candidate
        value = side.counts.compile_time_s if side is not None else 0.0
        return f"{value:.2f} s" if value else ""
    b, c = row.baseline.counts, row.candidate.counts
    if not (b.compile_time_s or c.compile_time_s):
        return ""
    cut = (bool(b.unknown_outcomes), bool(c.unknown_outcomes))
    return compile_time_change(b.compile_time_s, c.compile_time_s, cut=cut)


def side_count(side: FunctionSide, key: str) -> str:
    """A side's count, saying how it splits over ranks when it is a sum over several (rank_sums.py)."""
    return summed(getattr(side.counts, key), side.ranks_summed, side.per_rank.get(key))


def count_pair(b: FunctionSide | None, c: FunctionSide | None, key: str) -> str:
    """'2', '2 -> 3', '2 (1 per rank x 2) -> 4 (rank 0: 1, rank 1: 3)'; one-sided rows show that side's count."""
    texts = [side_count(s, key) for s in (b, c) if s is not None]
    if len(texts) == 1 or texts[0] == texts[1]:
        return texts[0]
    return f"{texts[0]} -> {texts[1]}"


def _pair(row: FunctionRow, key: str) -> str:
    return count_pair(row.baseline, row.candidate, key)


def _status(row: FunctionRow) -> str:
    if row.status == RowStatus.MATCHED:
        return f"matched ({row.method})"
    return str(row.status).replace("_", " ")


_RESUME_NAME = re.compile(r"^torch_dynamo_resume_in_(.+)_at_(\d+)$")


def piece_name(name: str) -> str:
    """`resume at 40` for Dynamo's `torch_dynamo_resume_in_forward_at_40` (inside forward's row)."""
    match = _RESUME_NAME.match(name)
    return f"resume at {match.group(2)}" if match else name


def _piece_counts(piece: FunctionPiece, row_status: str) -> str:
    def one(key: str, label: str) -> str | None:
        b = getattr(piece.baseline.counts, key) if piece.baseline else None
        c = getattr(piece.candidate.counts, key) if piece.candidate else None
        if not b and not c:
            return None
        return f"{count_pair(piece.baseline, piece.candidate, key)} {label}"

    parts = [one(key, label) for key, label in HEADLINE_COUNTS[:4]]
    where = "" if piece.status in (RowStatus.MATCHED, row_status) else f", {str(piece.status).replace('_', ' ')}"
    name = piece_name(piece.name)
    if piece.library_file is not None:
        side = piece.candidate or piece.baseline
        line = f":{side.line}" if side is not None and side.line is not None else ""
        calls = [s.called_at for s in (piece.baseline, piece.candidate) if s is not None and s.called_at is not None]
        called = f", called at line {' -> '.join(str(n) for n in dict.fromkeys(calls))}" if calls else ""
        name = f"{name} in {piece.library_file}{line}{called}"
    return f"{name} ({', '.join(p for p in parts if p)}{where})"


def piece_line(row: FunctionRow) -> str | None:
    """One line naming the frames a row counts, when the function broke into several."""
    if not row.pieces:
        return None
    n = len(row.pieces)
    return f"{n} frame{'s' if n > 1 else ''}: " + "; ".join(_piece_counts(p, row.status) for p in row.pieces)


# Evidence ids shown per side of a change in text and markdown (JSON has them all).
_EVIDENCE_SHOWN = 3


def change_evidence(change: Change) -> str:
    """'[evidence: baseline u1-e6; candidate u1-e2]' (the first three ids a side), '' when the change has none."""
    return _evidence(change).strip()


def _evidence(change: Change) -> str:
    parts = []
    for side, ids in (("baseline", change.baseline_evidence), ("candidate", change.candidate_evidence)):
        if ids:
            parts.append(f"{side} {joined(ids, _EVIDENCE_SHOWN, more=' +{n}')}")
    return f" [evidence: {'; '.join(parts)}]" if parts else ""


def _guard(example: str) -> str:
    at = guard_line(example)
    return guard_failure_text(example, limit=None) + (f" {at.text()}" if at is not None else "")


# Failing-guard texts a row lists per side (the JSON keeps up to changes._EXAMPLES).
_GUARDS_PER_SIDE = 4


def guard_lines(change: Change) -> list[str]:
    """Under a recompile-reason change: each side's failing guards of the kind (at most _GUARDS_PER_SIDE), a line
    each and named by side (`baseline: 0/0: n == 2 at model.py:10: ...`), under each what the entries compiled
    after it failed were made for (`(new entries made for: L['n'] == 3; L['n'] == 4)`), then, per side, what the
    lines do not show: how many failing guards repeat them, how many other texts there are and where to read them."""
    if change.kind != ChangeKind.RECOMPILE_REASON:
        return []
    out: list[str] = []
    for name, side in (("baseline", change.baseline), ("candidate", change.candidate)):
        if not isinstance(side, dict):
            continue
        examples = [e for e in side.get("examples") or [] if isinstance(e, str)]
        made_for = side.get("made_for")
        made: list[Any] = made_for if isinstance(made_for, list) else []
        shown, _ = head(examples, _GUARDS_PER_SIDE)  # never one left out
        for i, e in enumerate(shown):
            out.append(f"    {name}: {_guard(e)}")
            if i < len(made) and isinstance(made[i], list) and made[i]:  # each entry made after this guard failed
                values, rest = head([str(m) for m in made[i]], _GUARDS_PER_SIDE)
                what = "; ".join(values) + (f"; +{rest} more" if rest else "")
                out.append(f"    (new entr{'y' if len(made[i]) == 1 else 'ies'} made for: {what})")
        failing, other = side.get("failing_guards"), side.get("other_texts")
        more = len(examples) - len(shown) + (other if isinstance(other, int) else 0)
        if more > 0:
            total = len(examples) + (other if isinstance(other, int) else 0)
            out.append(
                f"    ({name}: {more} more texts, {total} in all from {failing} failing guard(s) of this kind: "
                f"the {name} run's analysis lists every one per compilation; the change's JSON examples hold "
                f"{len(examples)})"
            )
        elif examples and isinstance(failing, int) and failing > len(examples):
            texts = "the text above" if len(examples) == 1 else f"the {len(examples)} texts above"
            out.append(f"    ({name}: {failing} failing guards of this kind, repeating {texts})")
    return out


def _detail(change: Change) -> str | None:
    """The compiler's own words behind a change a line can hold: the graph break's registry id."""
    if change.kind in (ChangeKind.GRAPH_BREAK_NEW, ChangeKind.GRAPH_BREAK_GONE, ChangeKind.GRAPH_BREAK_MOVED):
        side = change.candidate if isinstance(change.candidate, dict) else change.baseline
        key = side.get("key") if isinstance(side, dict) else None
        if isinstance(key, str) and key.startswith("gb"):
            return f"    graph-break type {key} (torch's registry)"
    return None


def specialized_detail(change: Change) -> list[str]:
    """Under a recompile-reason change: per side, what its code fixed back to one value (symbolic_shape_specialization),
    one line a symbol."""
    if change.kind != ChangeKind.RECOMPILE_REASON:
        return []
    out = []
    for name, side in (("baseline", change.baseline), ("candidate", change.candidate)):
        lines = side.get("specialized") if isinstance(side, dict) else None
        out += [f"    specialized ({name}): {line}" for line in lines or [] if isinstance(line, str)]
    return out


def _page(change: Change) -> str | None:
    """The page of a graph break's type that torch's record links, when it links one."""
    if change.kind in (ChangeKind.GRAPH_BREAK_NEW, ChangeKind.GRAPH_BREAK_GONE, ChangeKind.GRAPH_BREAK_MOVED):
        side = change.candidate if isinstance(change.candidate, dict) else change.baseline
        url = side.get("url") if isinstance(side, dict) else None
        if isinstance(url, str):
            return f"    torch's page: {url}"
    return None


# Changed source lines shown under a `source` change in text and markdown (JSON has up to 8 a side).
_SOURCE_LINES = 4


def source_lines(change: Change, row: FunctionRow | None = None) -> list[str]:
    """The lines a `source` change removed ('- 32: ...') and added ('+ 30: ...'), at most four, then how many more.
    Given its row, only the function's own change and the innermost caller's show lines (the call site); the outer
    callers' lines are in the JSON."""
    if change.kind != ChangeKind.SOURCE:
        return []
    if row is not None and _role(change) == "caller":
        first = next((c for c in row.changes if c.kind == ChangeKind.SOURCE and _role(c) == "caller"), None)
        if first is not change:
            return []
    numbered: list[str] = []
    total = 0
    for side, key, sign in ((change.baseline, "removed", "-"), (change.candidate, "added", "+")):
        if isinstance(side, dict):
            items = [item for item in side.get(key) or [] if isinstance(item, dict)]
            numbered += [f"{sign} {item['line']}: {str(item['text']).strip()}" for item in items]
            more = side.get(f"{key}_more")
            total += len(items) + (more if isinstance(more, int) else 0)
    shown = numbered[:_SOURCE_LINES]
    return shown + ([f"... {total - len(shown)} more changed line(s)"] if total > len(shown) else [])


def _role(change: Change) -> object:
    return change.baseline.get("role") if isinstance(change.baseline, dict) else None


def change_lines(row: FunctionRow, *, phases: bool = False) -> list[str]:
    """What changed on a row, each change with its evidence ids and, under it, each side's failing guards (named by
    side) or the break type."""
    lines = []
    for c in row.changes:
        if not phases and timing_noise(c):
            continue
        lines.append(c.summary + _evidence(c))
        lines += guard_lines(c)
        if (detail := _detail(c)) is not None:
            lines.append(detail)
        lines += specialized_detail(c)
        if (page := _page(c)) is not None:
            lines.append(page)
        lines += [f"    {line}" for line in source_lines(c, row)]
    pieces = piece_line(row)
    if pieces:
        lines.append(pieces)
    if row.status == RowStatus.AMBIGUOUS and row.alternatives:
        lines.append("could be: " + joined(row.alternatives, 4))
    return lines


def run_text(run: RunStatus | None) -> str:
    """How a run ended, loud when it did not finish."""
    if run is None:
        return "run status not known"
    if run.finished is False:
        return f"DID NOT FINISH: {run.summary} (counts may be low)"
    return run.summary


def run_line(comparison: Comparison) -> str:
    if comparison.kind == "rank_view":
        return f"run: {run_text(comparison.baseline.run)}"
    return f"runs: baseline {run_text(comparison.baseline.run)} | candidate {run_text(comparison.candidate.run)}"


def _value(value: object, limit: int = 60) -> str:
    return value_text(value, limit, quote=True)


def difference_text(d: Difference) -> str:
    return f"{difference_phrase(d)}; can change {areas_text(d)}"


def comparability_lines(comp: Comparability, hints: HintWords = PLAIN_HINTS) -> list[str]:
    lines: list[str] = [f"comparability: {verdict_headline(comp)}"]
    if comp.assumed:
        named = "; ".join(phrase(Hint(action=HintAction.NAME_THE_CHANGE, args={"key": k}), hints) for k in comp.assumed)
        lines.append(f"  assumed, not named: {named}")
    if len(comp.differences) == 1:
        d = comp.differences[0]
        items = followers(comp, d.key)
        if items:
            lines.append(f"  with it: {with_it(items)}")
        change = phrase(Hint(action=HintAction.NAME_THE_CHANGE, args={"key": d.key}), hints)
        lines.append(f"  effect: {effect_text(d)}")
        lines.append(f"  it can change {areas_text(d)}: counts may come from it, not only from your change ({change})")
    elif comp.differences:
        differences, rest = head(comp.differences, 6)
        for d in differences:
            lines += difference_lines(comp, d)
        if rest:
            lines.append(f"  (+{rest} more: {joined([d.key for d in comp.differences[len(differences) :]], 12)})")
        lines.append("  counts in the areas above may come from these differences, not only from your change")
    elif comp.verdict != "unknown" and not comp.assumed:
        lines[0] += f": {joined([c.key for c in comp.checked], 8)}"
    for d in comp.intended:  # the change under test: each one said
        lines += difference_lines(comp, d, prefix="  the change under test: ")
    harmless, rest = head(unexplained_harmless(comp), 4)
    lines += [f"  not confounding: {difference_phrase(d)}" for d in harmless]
    lines += [f"  not confounding: {rest} more difference(s)"] if rest else []
    for c in comp.contradictions:  # a declaration the run contradicts: each one said
        shown = f"{c.key}={_value(c.declared)} but the run shows {_value(c.observed)}"
        lines.append(f"  {c.side} declares {shown} (observation used)")
    if comp.missing:
        lines.append(f"  not checked: {joined(comp.missing, 4, sep='; ')}")
    return lines


def compiled_lines(comparison: Comparison) -> list[str]:
    """'the candidate COMPILED NOTHING: ...' for each side that compiled nothing: said before anything else (its
    counts are all 0, which reads as a perfect run)."""
    if comparison.kind == "rank_view":
        return [line] if (line := compiled_line(comparison.baseline.compiled)) is not None else []
    sides = (("baseline", comparison.baseline), ("candidate", comparison.candidate))
    return [line for name, side in sides if (line := compiled_line(side.compiled, name)) is not None]


def header(comparison: Comparison, hints: HintWords = PLAIN_HINTS) -> list[str]:
    lines = [
        *compiled_lines(comparison),
        run_line(comparison),
        f"baseline  {side_name(comparison.baseline)}  torch {comparison.baseline.torch or '?'}",
        f"candidate {side_name(comparison.candidate)}  torch {comparison.candidate.torch or '?'}",
    ]
    if comparison.kind == "comparison":
        lines += comparability_lines(comparison.comparability, hints)
    return lines


def confounded_counts(comparison: Comparison) -> dict[str, list[str]]:
    """Count key -> the differences that can change it."""
    out: dict[str, list[str]] = {}
    for d in comparison.comparability.differences:
        for key, area in COUNT_AREAS.items():
            if area in d.affects:
                out.setdefault(key, []).append(d.key)
    return out


def count_label(key: str, confounded: dict[str, list[str]]) -> str:
    return COUNT_LABELS[key] + (" (!)" if key in confounded else "")


def confounded_note(confounded: dict[str, list[str]]) -> str | None:
    if not confounded:
        return None
    keys = sorted({k for ks in confounded.values() for k in ks})
    return f"(!) may be changed by a comparability difference: {joined(keys, 6)}"


def time_rows(b: Counts, c: Counts) -> list[tuple[str, str, str, str]]:
    """Compile time under the totals, then its phases that took time: (label, baseline, candidate, change)."""
    if not (b.compile_time_s or c.compile_time_s):
        return []
    cut = (bool(b.unknown_outcomes), bool(c.unknown_outcomes))
    total = _time_delta(b.compile_time_s, c.compile_time_s, cut)
    rows = [("compile time", compile_time_text(b), compile_time_text(c), total)]
    for key, label, _ in COMPILE_PHASES:
        bt, ct = b.phase_times_s.get(key, 0.0), c.phase_times_s.get(key, 0.0)
        if round(bt, 2) or round(ct, 2):  # a phase under 5 ms on both sides would read 0.00 s
            rows.append((f"  {label}", f"{bt:.2f} s", f"{ct:.2f} s", _time_delta(bt, ct, cut)))
    return rows


def _time_delta(before: float, after: float, cut: tuple[bool, bool] = (False, False)) -> str:
    """The compile-time change as the third column says it: a percentage, or 'noise'; 'not judged (+?)' when a
    compilation of a side never finished."""
    if any(cut):
        return "not judged (+?)"
    change = compile_time_change(before, after)
    return "noise" if change.endswith("(noise)") else (change.rsplit("(", 1)[-1].rstrip(")") if "(" in change else "")


def shown_counts(comparison: Comparison) -> list[str]:
    """The totals worth a line: non-zero on either side (the rest are 0 on both and said in one line)."""
    b, c = comparison.totals.baseline, comparison.totals.candidate
    return [k for k in COUNT_KEYS if getattr(b, k) or getattr(c, k) or k in b.incomplete or k in c.incomplete]


def zero_note(comparison: Comparison) -> str | None:
    hidden = len(COUNT_KEYS) - len(shown_counts(comparison))
    return f"{hidden} other counts are 0 in both runs" if hidden else None


def folded(rows: list[FunctionRow], all_rows: bool) -> tuple[list[FunctionRow], list[FunctionRow]]:
    """(rows to show, unchanged rows folded into one line): a matched row with no delta and no change (compile
    phase timings within the noise rule and source lines aside) says nothing; `all_rows` shows every row."""
    if all_rows:
        return rows, []
    quiet = [
        r
        for r in rows
        if r.status == RowStatus.MATCHED and not r.deltas and all(behaviour_unchanged(c) for c in r.changes)
    ]
    return [r for r in rows if r not in quiet], quiet


def folded_line(quiet: list[FunctionRow]) -> str:
    names = joined([row_name(r) for r in quiet], 8, more=" (+{n} more)")
    return f"{len(quiet)} unchanged function(s) not shown (--all shows them): {names}"


def _inc(value: str, key: str, incomplete: list[str]) -> str:
    return value + "+?" if key in incomplete else value


def rank_counts_line(counts: Counts) -> str:
    return (
        f"{counts.observed_compilation_identities} compilation(s), "
        f"{counts.confirmed_recompilation_identities} confirmed recompile(s), {counts.graph_break_records} "
        f"graph break(s), {counts.failed} failed, {counts.compiler_limit_events} limit hit(s)"
    )


def ranks_lines(comparison: Comparison) -> list[str]:
    """The rank view: one line per behaviour group (its ranks, representative and counts), each group's first
    divergence from the reference rank under it."""
    view = comparison.ranks
    if view is None:
        return []
    groups = view.groups
    lines = [
        f"rank view: {len(view.ranks)} ranks in {len(groups)} behaviour group(s); reference rank {view.reference_rank}"
    ]
    divergence_of = {d.rank: d for d in view.divergences}
    for number, group in enumerate(groups, 1):
        tag = " (reference)" if group.reference else ""
        lines.append(
            f"  group {number}{tag}: "
            + (
                f"rank {group.rank_ranges} alone"
                if group.size == 1
                else f"ranks {group.rank_ranges} ({group.size} ranks), representative rank {group.representative}"
            )
            + f", behaviour {group.behaviour}: {rank_counts_line(group.counts)}"
        )
        d = divergence_of.get(group.representative)
        if d is not None and not group.reference:
            lines.append(f"    FIRST DIVERGENCE rank {d.rank} vs rank {d.reference_rank}: {d.reason}")
            if d.evidence_ids:
                lines.append(f"      evidence: {', '.join(d.evidence_ids[:6])}")
    if len(groups) == 1:
        lines.append("  no divergence: every rank behaves the same (one group)")
    return lines


def notice_line(notice: Notice, hints: HintWords = PLAIN_HINTS) -> str:
    """'[severity] code: message (its hint, worded by `hints`)'."""
    return f"[{notice.severity}] {notice.code}: {with_hint(notice.message, notice.hint, hints)}"


def one_snapshot_notice(notices: Sequence[Notice]) -> list[Notice]:
    """The notices as text and markdown list them: the two sides' `no_source_snapshots` said once for both (the
    JSON document keeps one per side)."""
    missing = [n for n in notices if n.code == NoticeCode.NO_SOURCE_SNAPSHOTS]
    if len(missing) != 2:
        return list(notices)
    both = missing[0].model_copy(update={"message": no_snapshots_message("the baseline and the candidate", "have")})
    return [both if n is missing[0] else n for n in notices if n is not missing[1]]


def row_counts(row: FunctionRow) -> str:
    """A row's counts that are not 0 in both runs ('compiles 2 -> 1, recompiles 1 -> 0'), then its compile time."""
    parts = []
    for key, label in ROW_KEYS:
        values = [getattr(s.counts, key) for s in (row.baseline, row.candidate) if s is not None]
        if any(values):
            parts.append(f"{label} {_pair(row, key)}")
    if time := row_compile_time(row):
        parts.append(f"compile time {time}")
    return ", ".join(parts)


def row_lines(row: FunctionRow) -> list[Line]:
    """A function as the terminal shows it: one line with its name, how it was paired and its counts, then what
    changed, one change a line (evidence ids at its end), the guard text or graph-break id under it, whole."""
    counts = row_counts(row)
    lines = [Line(f"{row_name(row)} [{_status(row)}]" + (f": {counts}" if counts else ""), style="bold")]
    for c in row.changes:
        if timing_noise(c):
            continue
        lines.append(Line(c.summary, indent=2, tail=_evidence(c).strip()))
        lines += [Line(line.strip(), indent=6, keep=not line.startswith("    (")) for line in guard_lines(c)]
        if (detail := _detail(c)) is not None:
            lines.append(Line(detail.strip(), indent=6, keep=True))
        lines += [Line(line.strip(), indent=6) for line in specialized_detail(c)]
        if (page := _page(c)) is not None:
            lines.append(Line(page.strip(), indent=6))
        lines += [Line(line, indent=6) for line in source_lines(c, row)]
    if (pieces := piece_line(row)) is not None:
        lines.append(Line(pieces, indent=2))
    if row.status == RowStatus.AMBIGUOUS and row.alternatives:
        lines.append(Line("could be: " + joined(row.alternatives, 4), indent=2))
    lines += [Line(suggestion_text(s), indent=2) for s in row.suggestions]
    return lines


def totals_block(comparison: Comparison) -> Aligned:
    """The totals: a count a line (those not 0 in both runs), baseline, candidate and the change."""
    b, c = comparison.totals.baseline, comparison.totals.candidate
    confounded = confounded_counts(comparison)
    rows = []
    for key in shown_counts(comparison):
        bv, cv = getattr(b, key), getattr(c, key)
        delta = cv - bv
        rows.append(
            [
                count_label(key, confounded),
                _inc(str(bv), key, b.incomplete),
                _inc(str(cv), key, c.incomplete),
                f"{delta:+d}" if delta else "",
            ]
        )
    rows += [list(row) for row in time_rows(b, c)]
    notes = [note for note in (zero_note(comparison), confounded_note(confounded)) if note]
    return Aligned("totals", ["count", "baseline", "candidate", "delta"], rows, notes)


def comparison_text(
    comparison: Comparison, *, all_rows: bool = False, hints: HintWords = PLAIN_HINTS
) -> RenderableType:
    """The comparison for a terminal, wrapped to its width; `hints` words the next steps notices point to (the
    caller's front end)."""
    parts: list[RenderableType] = [Lines(header(comparison, hints))]
    rank_text = ranks_lines(comparison)
    if rank_text:
        parts += [Text(""), Lines(rank_text)]
    parts += [Text(""), totals_block(comparison)]
    shown, quiet = folded(changed_first(comparison.functions), all_rows)
    if shown or quiet:
        parts += [Text(""), Text("functions (changed first)", style="bold")]
    for row in shown:
        parts.append(Lines(row_lines(row)))
    if quiet:
        parts.append(Lines([folded_line(quiet)]))
    notices = one_snapshot_notice(comparison.notices)
    if notices:
        parts += [Text(""), Lines(["notices:", *(Line(notice_line(n, hints), indent=2) for n in notices)])]
    return Group(*parts)


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")


def comparison_markdown(comparison: Comparison, *, all_rows: bool = False, hints: HintWords = PLAIN_HINTS) -> str:
    """The comparison as Markdown; `hints` words the next steps notices point to (the caller's front end)."""
    out = ["# Dynamo Diff comparison", ""] + [f"- {_md(line.strip())}" for line in header(comparison, hints)]
    rank_text = ranks_lines(comparison)
    if rank_text:
        out += ["", "## Ranks", ""] + [f"- {_md(line.strip())}" for line in rank_text]
    out += ["", "## Totals", "", "| count | baseline | candidate | delta |", "|---|---:|---:|---:|"]
    b, c = comparison.totals.baseline, comparison.totals.candidate
    confounded = confounded_counts(comparison)
    for key in shown_counts(comparison):
        delta = getattr(c, key) - getattr(b, key)
        out.append(
            f"| {count_label(key, confounded)} | {getattr(b, key)} | {getattr(c, key)} | "
            f"{f'{delta:+d}' if delta else ''} |"
        )
    for label, bt, ct, delta in time_rows(b, c):
        indented = f"&nbsp;&nbsp;{label.strip()}" if label.startswith(" ") else label
        out.append(f"| {indented} | {bt} | {ct} | {delta} |")
    for note in (zero_note(comparison), confounded_note(confounded)):
        if note:
            out += ["", note]
    shown, quiet = folded(changed_first(comparison.functions), all_rows)
    if shown:
        out += [
            "",
            "## Functions",
            "",
            "| match | function | " + " | ".join(label for _, label in ROW_KEYS) + " | compile time | what changed |",
            "|---|---|" + "---:|" * (len(ROW_KEYS) + 1) + "---|",
        ]
        for row in shown:
            match = _status(row)
            out.append(
                f"| {match} | {_md(row_name(row))} | "
                + " | ".join(_md(_pair(row, key)) for key, _ in ROW_KEYS)
                + f" | {_md(row_compile_time(row))}"
                + f" | {_md(chr(10).join(change_lines(row)))} |"
            )
    if quiet:
        out += ["", _md(folded_line(quiet))]
    suggested = [(row, s) for row in shown for s in row.suggestions]
    if suggested:
        out += ["", "## Suggestions (for what is new or grew in the candidate)", ""]
        out += [f"- {_md(row_name(row))}: {_md(suggestion_text(s))}" for row, s in suggested]
    notices = one_snapshot_notice(comparison.notices)
    if notices:
        out += ["", "## Notices", ""] + [
            f"- **{n.severity}** `{n.code}`: {_md(with_hint(n.message, n.hint, hints))}" for n in notices
        ]
    return "\n".join(out) + "\n"
