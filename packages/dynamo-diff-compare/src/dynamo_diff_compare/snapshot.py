"""A capture's compile behaviour as a snapshot (`snapshot_of`), the written form (`snapshot_json`), and a run's
verdict against a committed snapshot (`snapshot_verdict`); docs/INTEGRATIONS.md, "Compile snapshots".

The functions are the comparison's: each source function with its resume functions and the library frames
compiled in its place, named as a comparison row names it (`compare.py`)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import PurePath

from dynamo_diff_match import FunctionMatch, FunctionRef, SnapshotSet, correspond_functions
from dynamo_diff_schema.capture import Capture
from dynamo_diff_schema.code_paths import library_path
from dynamo_diff_schema.compilation import Compilation
from dynamo_diff_schema.snapshot import (
    CompileSnapshot,
    SnapshotBreak,
    SnapshotChange,
    SnapshotEffect,
    SnapshotFunction,
    SnapshotPairing,
    SnapshotVerdict,
)

from dynamo_diff_compare.break_words import break_summary
from dynamo_diff_compare.compare import EMPTY, _function_row
from dynamo_diff_compare.observed import Observed, observed_functions

UNKNOWN = "unknown"


def snapshot_of(capture: Capture, sources: SnapshotSet | None = None, *, test: str | None = None) -> CompileSnapshot:
    """The capture's compile behaviour per source function (`sources`: its source snapshots, which give qualified
    names, relative paths and the AST hash; without them functions are named by their code objects)."""
    src = sources or EMPTY
    observed = observed_functions(capture, src)
    matches = correspond_functions(list(observed), src, list(observed), src, None)
    multi_rank = len(capture.ranks) > 1
    functions = [_function(match, observed, src, multi_rank) for match in matches]
    functions.sort(key=lambda f: (f.qualified_name, f.file or ""))
    return CompileSnapshot(
        torch=capture.capture.producer.torch, test=test, capture=capture.capture.id, functions=functions
    )


def _function(
    match: FunctionMatch, observed: dict[FunctionRef, Observed], src: SnapshotSet, multi_rank: bool
) -> SnapshotFunction:
    row = _function_row(match, observed, observed, (src, src), multi_rank)
    side = row.baseline or row.candidate
    assert side is not None
    refs = [p.baseline for p in match.pieces if p.baseline is not None]
    compilations = [c for ref in refs if ref in observed for _, c in observed[ref].compilations]
    source = match.baseline_source
    own = refs[0] if refs else None
    first_line = (
        source.first_line
        if source is not None
        else (match.baseline_location[1] if match.baseline_location else None) or (own.first_line if own else None)
    )
    own_files = {ref.file for ref in refs if ref.caller is None}
    if source is not None:
        own_files |= {f for f, rel in src.paths.items() if rel == source.rel_path}
    evidence: dict[str, list[str]] = {}
    details: dict[str, str] = {}
    categories: Counter[str] = Counter()
    recompiles = 0
    breaks: Counter[tuple[str, str]] = Counter()
    failures: Counter[str] = Counter()
    for c in compilations:
        if c.recompile is not None and c.recompile.confirmed:
            recompiles += 1
            found = sorted({str(r.category) for r in c.recompile.reasons}) or [UNKNOWN]
            for category in found:
                categories[category] += 1
                ids = [r.evidence_id for r in c.recompile.reasons if r.category == category and r.evidence_id]
                _add(evidence, f"recompile:{category}", ids or c.recompile.evidence_ids)
                text = next((r.text for r in c.recompile.reasons if r.category == category), None)
                if text:
                    details.setdefault(
                        f"recompile:{category}", f"failing guard [{category}]: {_line(text.strip().splitlines()[0])}"
                    )
        for gb in c.graph_breaks:
            site = _site(gb.user_file, gb.user_line, own_files, first_line, src)
            breaks[(gb.key, site)] += 1
            _add(evidence, f"graph_break:{gb.key}@{site}", [gb.evidence_id] if gb.evidence_id else [])
            said = break_summary(gb.gb_type or _line(gb.reason), gb.operator, gb.hints)
            where = f" at {_portable(gb.user_file)}:{gb.user_line}" if gb.user_file and gb.user_line else ""
            details.setdefault(f"graph_break:{gb.key}@{site}", f"{said}{where}")
        if c.failure is not None:
            fail_type = c.failure.fail_type or UNKNOWN
            failures[fail_type] += 1
            _add(evidence, f"failure:{fail_type}", c.failure.evidence_ids or _some(c))
            if c.failure.reason:
                details.setdefault(f"failure:{fail_type}", _line(c.failure.reason))
    return SnapshotFunction(
        qualified_name=side.qualified_name,
        file=_portable(side.file),
        structure=(source.structure_hash[:16] or None) if source is not None else None,
        compilations=len(compilations),
        recompiles=recompiles,
        recompiles_by_category=dict(sorted(categories.items())),
        graph_breaks=[SnapshotBreak(gb=k, site=s, count=n) for (k, s), n in sorted(breaks.items())],
        failures=dict(sorted(failures.items())),
        evidence=evidence,
        details=details,
    )


def _add(evidence: dict[str, list[str]], key: str, ids: Iterable[str]) -> None:
    have = evidence.setdefault(key, [])
    have.extend(i for i in ids if i not in have)


def _line(text: str, limit: int = 200) -> str:
    line = " ".join(text.strip().split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _some(c: Compilation) -> list[str]:
    return c.evidence_ids[:1]


def _portable(file: str | None) -> str | None:
    """A path that reads the same on another machine: relative or a library path as given, else its file name."""
    if file is None:
        return None
    norm = file.replace("\\", "/")
    if norm.startswith("/") or (len(norm) > 2 and norm[1] == ":"):
        return library_path(norm) or PurePath(norm).name
    return norm


def _site(file: str | None, line: int | None, own: set[str], first_line: int | None, src: SnapshotSet) -> str:
    if file is None:
        return "?"
    if file in own and line is not None and first_line is not None:
        return f"{line - first_line:+d}"
    return src.rel_path(file) or _portable(file) or "?"


def snapshot_json(snapshot: CompileSnapshot) -> str:
    """The snapshot as it is committed: sorted keys, one value per line, without the capture id and evidence ids
    (they differ on every run). The same behaviour gives the same bytes."""
    document = snapshot.model_dump(
        mode="json", exclude={"capture": True, "functions": {"__all__": {"evidence", "details"}}}
    )
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# --- the verdict -------------------------------------------------------------------------------------------------


def _release(version: str | None) -> str | None:
    """'2.13.0+cpu' -> '2.13.0': a local build tag names the same torch release."""
    return None if version is None else version.split("+", 1)[0]


def _label(f: SnapshotFunction) -> str:
    return f"{f.qualified_name} ({f.file})" if f.file else f.qualified_name


def _pair(
    old: list[SnapshotFunction], new: list[SnapshotFunction]
) -> tuple[list[tuple[SnapshotFunction | None, SnapshotFunction | None]], list[SnapshotPairing]]:
    """Same qualified name and file; then the same qualified name, unique on both sides among the unpaired (a
    moved file); then the same AST hash, unique on both sides (a renamed function whose body is unchanged)."""
    pairs: list[tuple[SnapshotFunction | None, SnapshotFunction | None]] = []
    paired: list[SnapshotPairing] = []
    rest_old, rest_new = list(old), list(new)

    def by(key: object, method: str | None) -> None:
        nonlocal rest_old, rest_new
        groups_old: dict[object, list[SnapshotFunction]] = {}
        groups_new: dict[object, list[SnapshotFunction]] = {}
        for f in rest_old:
            if (k := key(f)) is not None:  # type: ignore[operator]
                groups_old.setdefault(k, []).append(f)
        for f in rest_new:
            if (k := key(f)) is not None:  # type: ignore[operator]
                groups_new.setdefault(k, []).append(f)
        taken_old, taken_new = set(), set()
        for k, olds in groups_old.items():
            news = groups_new.get(k, [])
            if len(olds) == 1 and len(news) == 1:
                pairs.append((olds[0], news[0]))
                taken_old.add(id(olds[0]))
                taken_new.add(id(news[0]))
                if method is not None:
                    paired.append(SnapshotPairing(snapshot=_label(olds[0]), run=_label(news[0]), method=method))
        rest_old = [f for f in rest_old if id(f) not in taken_old]
        rest_new = [f for f in rest_new if id(f) not in taken_new]

    by(lambda f: (f.qualified_name, f.file), None)
    by(lambda f: f.qualified_name, "qualified_name")
    by(lambda f: f.structure, "identical_source")
    pairs.extend((f, None) for f in rest_old)
    pairs.extend((None, f) for f in rest_new)
    return pairs, paired


def _changes(old: SnapshotFunction | None, new: SnapshotFunction | None, prefix: str) -> list[SnapshotChange]:
    name = (new or old).qualified_name  # type: ignore[union-attr]
    evidence = new.evidence if new is not None else {}
    details = new.details if new is not None else {}
    out: list[SnapshotChange] = []

    def change(what: str, key: str | None, before: int, after: int, text: str, entry: str | None = None) -> None:
        grew = after > before
        ids = evidence.get(entry, []) if entry and grew else []
        if entry and grew and details.get(entry):
            text += f"; {details[entry]}"
        effect = "regression" if grew else "improvement"
        if what in ("compilations", "function"):
            effect = "info"
        out.append(
            SnapshotChange(
                function=name,
                effect=effect,
                what=what,
                key=key,
                snapshot=before,
                run=after,
                text=prefix + text,
                evidence_ids=ids,
            )
        )

    if old is None and new is not None:
        change("function", None, 0, new.compilations, f"{name}: compiled, not in the snapshot")
    if new is None and old is not None:
        change("function", None, old.compilations, 0, f"{name}: in the snapshot, not compiled in this run")
    o_cat = old.recompiles_by_category if old else {}
    n_cat = new.recompiles_by_category if new else {}
    for category in sorted(set(o_cat) | set(n_cat)):
        b, a = o_cat.get(category, 0), n_cat.get(category, 0)
        if a != b:
            word = "new recompile" if a > b else "recompile gone" if a == 0 else "fewer recompiles"
            change(
                "recompile",
                category,
                b,
                a,
                f"{name}: {word} on a {category} guard: {b} -> {a}",
                f"recompile:{category}",
            )
    o_br = {f"{x.gb}@{x.site}": x.count for x in (old.graph_breaks if old else [])}
    n_br = {f"{x.gb}@{x.site}": x.count for x in (new.graph_breaks if new else [])}
    for key in sorted(set(o_br) | set(n_br)):
        b, a = o_br.get(key, 0), n_br.get(key, 0)
        if a != b:
            gb, site = key.rsplit("@", 1)
            where = f"line {site} of the function" if site[:1] in "+-" else site
            word = "new graph break" if a > b else "graph break gone" if a == 0 else "fewer graph breaks"
            change(
                "graph_break",
                key,
                b,
                a,
                f"{name}: {word} {gb} at {where}: {b} -> {a}",
                f"graph_break:{key}",
            )
    o_fail = old.failures if old else {}
    n_fail = new.failures if new else {}
    for fail_type in sorted(set(o_fail) | set(n_fail)):
        b, a = o_fail.get(fail_type, 0), n_fail.get(fail_type, 0)
        if a != b:
            word = "new failure" if a > b else "fewer failures"
            change(
                "failure",
                fail_type,
                b,
                a,
                f"{name}: {word} {fail_type}: {b} -> {a}",
                f"failure:{fail_type}",
            )
    if old is not None and new is not None and old.compilations != new.compilations:
        change(
            "compilations",
            None,
            old.compilations,
            new.compilations,
            f"{name}: compilations {old.compilations} -> {new.compilations}",
        )
    return out


_ORDER = {"regression": 0, "improvement": 1, "info": 2}


def snapshot_verdict(old: CompileSnapshot, new: CompileSnapshot, *, fail_on_upgrade: bool = False) -> SnapshotVerdict:
    """A run (`new`, built from its capture: its evidence ids are named) against the committed snapshot (`old`).
    A regression fails; an improvement passes and says so. When the torch versions differ the changes are read as
    the upgrade's and the verdict passes (unless `fail_on_upgrade` and a regression)."""
    o_torch, n_torch = _release(old.torch), _release(new.torch)
    upgrade = o_torch is not None and n_torch is not None and o_torch != n_torch
    prefix = f"with the torch upgrade {o_torch} -> {n_torch}: " if upgrade else ""
    pairs, paired = _pair(old.functions, new.functions)
    changes = [c for o, n in pairs for c in _changes(o, n, prefix)]
    changes.sort(key=lambda c: (_ORDER[c.effect], c.function, c.what, c.key or ""))
    effects = Counter(c.effect for c in changes)
    regressed = effects["regression"] > 0
    if upgrade:
        outcome, passed = "upgrade", not (fail_on_upgrade and regressed)
    elif regressed:
        outcome, passed = "regressed", False
    elif effects["improvement"]:
        outcome, passed = "improved", True
    elif changes:
        outcome, passed = "changed", True
    else:
        outcome, passed = "unchanged", True
    return SnapshotVerdict(
        test=new.test or old.test,
        passed=passed,
        outcome=outcome,
        summary=_summary(outcome, effects, o_torch, n_torch, passed),
        snapshot_torch=old.torch,
        run_torch=new.torch,
        upgrade=upgrade,
        capture=new.capture,
        changes=changes,
        paired=paired,
    )


def _summary(
    outcome: str, effects: Counter[SnapshotEffect], o_torch: str | None, n_torch: str | None, passed: bool
) -> str:
    counted = ", ".join(
        f"{n} {word}"
        for word, n in (
            ("regression(s)", effects["regression"]),
            ("improvement(s)", effects["improvement"]),
            ("other change(s)", effects["info"]),
        )
        if n
    )
    if outcome == "upgrade":
        head = f"torch upgrade {o_torch} -> {n_torch}: " + (counted or "compile behaviour unchanged")
        return head + ("" if passed else " (failing: upgrades are checked)")
    if outcome == "unchanged":
        return "compile behaviour matches the snapshot"
    return {"regressed": "regressed", "improved": "improved", "changed": "changed"}[outcome] + ": " + counted
