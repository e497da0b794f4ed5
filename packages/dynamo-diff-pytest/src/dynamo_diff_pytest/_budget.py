"""The `dynamo_budget` marker: what it allows, what a test's trace spent, and the words of a failure.

Counted on the test's own capture, by the analyser's rules (docs/SEMANTICS.md): the capture's counts, the numbers
`analyze` prints (`COUNT_OF`): `recompiles` are confirmed recompilations (compilations with a recompile reason),
`graph_breaks` graph-break records, `failures` failed compilations (a recompile-limit hit included), `compilations`
compile identities. A passing test's counts are read without assembling its capture (`Service.read_counts`);
the compilations behind them are listed from the capture of a failing test. With `only`, a graph break
counts when its site (the user frame torch names, "Graph break in user code at FILE:LINE") is inside one of
the named packages, and a recompilation when the recompiled code's file is."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the schema (pydantic) is imported by the first test that compiled, not by an empty one
    from dynamo_diff_schema import Capture, Compilation, Counts, RunReport, Suggestion

ARGUMENTS = ("recompiles", "graph_breaks", "failures", "compilations", "only")
_COUNTED = ("recompiles", "graph_breaks", "failures", "compilations")


class BudgetError(ValueError):
    """The marker's arguments are wrong: the test fails with this message."""


@dataclass(frozen=True)
class Budget:
    recompiles: int | None = 0
    graph_breaks: int | None = 0
    failures: int | None = 0
    compilations: int | None = None
    only: tuple[str, ...] = ()

    @classmethod
    def of(cls, args: Sequence[Any], kwargs: dict[str, Any]) -> Budget:
        if args:
            raise BudgetError(f"dynamo_budget takes keyword arguments only ({', '.join(ARGUMENTS)}), given {args!r}")
        unknown = sorted(set(kwargs) - set(ARGUMENTS))
        if unknown:
            raise BudgetError(f"dynamo_budget: unknown argument {unknown[0]!r}; it takes {', '.join(ARGUMENTS)}")
        limits: dict[str, int | None] = {}
        for name in _COUNTED:
            if name not in kwargs:
                continue
            value = kwargs[name]
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise BudgetError(f"dynamo_budget: {name} is a count (an int >= 0) or None, given {value!r}")
            limits[name] = value
        only = kwargs.get("only")
        if only is None:
            packages: tuple[str, ...] = ()
        elif isinstance(only, str):
            packages = (only,)
        elif isinstance(only, list | tuple) and only and all(isinstance(p, str) for p in only):
            packages = tuple(only)
        else:
            raise BudgetError(f"dynamo_budget: only is a package name or a list of them, given {only!r}")
        return cls(**limits, only=packages)


# Each count a budget limits, as the capture counts it (`Capture.counts`: what `analyze` prints, docs/SEMANTICS.md).
COUNT_OF = {
    "recompiles": "confirmed_recompilation_identities",
    "graph_breaks": "graph_break_records",
    "failures": "failed",
    "compilations": "observed_compilation_identities",
}


@dataclass
class Spent:
    """What the test's trace spent: each count a budget limits, and (when the capture was read whole) the
    compilations behind them (compile ids, for a failure's explanation)."""

    numbers: dict[str, int] = field(default_factory=lambda: dict.fromkeys(_COUNTED, 0))
    recompiles: list[Compilation] = field(default_factory=list)
    graph_breaks: list[tuple[Compilation, int]] = field(default_factory=list)  # (compilation, index of its break)
    failures: list[Compilation] = field(default_factory=list)

    def count(self, name: str) -> int:
        return self.numbers[name]


def counted(counts: Counts) -> Spent:
    """What a trace spent by its capture's counts (`Service.read_counts`, `Capture.counts`): a budget without
    `only` limits those counts."""
    return Spent(numbers={name: int(getattr(counts, key)) for name, key in COUNT_OF.items()})


class Packages:
    """Where the packages named by `only` are, to tell whether a file is inside one of them."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)
        self.roots: list[str] = []
        for name in names:
            try:
                spec = importlib.util.find_spec(name)
            except (ImportError, ValueError):
                spec = None
            if spec is None:
                continue
            if spec.submodule_search_locations:
                self.roots.extend(os.path.realpath(p) for p in spec.submodule_search_locations)
            elif spec.origin:
                self.roots.append(os.path.realpath(spec.origin))

    def unknown(self) -> list[str]:
        """The names that are not importable here (matched by path components instead)."""
        found = []
        for name in self.names:
            try:
                if importlib.util.find_spec(name) is None:
                    found.append(name)
            except (ImportError, ValueError):
                found.append(name)
        return found

    def holds(self, filename: str | None) -> bool:
        if not filename:
            return False
        real = os.path.realpath(filename)
        for root in self.roots:
            if real == root or real.startswith(root.rstrip(os.sep) + os.sep):
                return True
        parts = Path(filename).parts
        for name in self.names:  # not importable here: a path component sequence of that name
            want = tuple(name.split("."))
            for i in range(len(parts) - len(want) + 1):
                window = parts[i : i + len(want)]
                if window[:-1] == want[:-1] and window[-1] in (want[-1], f"{want[-1]}.py"):
                    return True
        return False


def spent(capture: Capture, budget: Budget) -> Spent:
    """The counts (the capture's own, or with `only` those inside its packages) and the compilations behind them."""
    from dynamo_diff_schema import Outcome

    packages = Packages(budget.only) if budget.only else None
    out = counted(capture.counts)
    for comp in (c for rank in capture.ranks for c in rank.compilations):
        inside = packages is None or packages.holds(comp.code.co_filename)
        if comp.recompile is not None and comp.recompile.confirmed and inside:
            out.recompiles.append(comp)
        for i, gb in enumerate(comp.graph_breaks):
            if packages is None or packages.holds(gb.user_file):
                out.graph_breaks.append((comp, i))
        if comp.outcome == Outcome.FAILED:
            out.failures.append(comp)
    if packages is not None:
        out.numbers.update(recompiles=len(out.recompiles), graph_breaks=len(out.graph_breaks))
    return out


def over(budget: Budget, used: Spent) -> list[str]:
    """The counts over budget, as 'recompiles 1 > 0'."""
    return [
        f"{name} {used.count(name)} > {limit}"
        for name in _COUNTED
        if (limit := getattr(budget, name)) is not None and used.count(name) > limit
    ]


def _shown(path: str | None, root: Path) -> str:
    if not path:
        return "?"
    try:
        return str(Path(path).resolve().relative_to(root.resolve()))
    except (ValueError, OSError):
        return path


def _site(site: str | None, root: Path) -> str:
    if not site:
        return "(no user frame)"
    file, sep, line = site.rpartition(":")
    return f"{_shown(file, root)}:{line}" if sep and line.isdigit() else _shown(site, root)


def _suggestion(s: Suggestion) -> str:
    """A suggestion as a failing test shows it: the change and its knob (docs/SEMANTICS.md, "Suggestions")."""
    knob = f" [{s.knob}]" if s.knob and s.knob not in s.change else ""
    docs = f" ({s.docs})" if s.docs and s.docs not in s.change else ""
    return f"suggestion ({s.kind}): {s.change}{knob}{docs}"


def explain(
    budget: Budget,
    used: Spent,
    report: RunReport,
    *,
    root: Path,
) -> list[str]:
    """What `analyze` shows for the compilations behind the counts over budget, per function: the failing guard's
    text and category, the graph break's gb id, site and torch's hint, the failure's type; with evidence ids."""
    failing = {
        name for name in _COUNTED if getattr(budget, name) is not None and used.count(name) > getattr(budget, name)
    }
    ids: dict[str, set[str]] = {
        "recompiles": {c.compile_id for c in used.recompiles} if "recompiles" in failing else set(),
        "graph_breaks": {c.compile_id for c, _ in used.graph_breaks} if "graph_breaks" in failing else set(),
        "failures": {c.compile_id for c in used.failures} if "failures" in failing else set(),
    }
    from dynamo_diff_compare import piece_name

    packages = Packages(budget.only) if budget.only else None
    lines: list[str] = []
    for function in report.functions:
        body: list[str] = []
        for comp in function.compilations:
            # A resume function is counted in the function it resumes (as `analyze` folds it): say which frame.
            frame = (
                f" in {piece_name(comp.frame)}" if comp.frame and comp.frame != function.name.rsplit(".")[-1] else ""
            )
            if comp.compile_id in ids["recompiles"]:
                for guard in comp.recompile:
                    evidence = guard.evidence_id or "-"
                    body.append(
                        f"    recompiled {comp.compile_id}{frame} ({guard.category}): {guard.text}  [{evidence}]"
                    )
            if comp.compile_id in ids["graph_breaks"]:
                for gb in comp.graph_breaks:
                    site_file = gb.site.rpartition(":")[0] if gb.site else None
                    if packages is not None and not packages.holds(site_file):
                        continue
                    # The operator torch's record names, when its type line does not (`print` of builtin print).
                    what = gb.type + (f" `{gb.operator}`" if gb.operator and gb.operator not in gb.type else "")
                    body.append(
                        f"    graph break {gb.gb_id or '(no gb id)'} {what} at {_site(gb.site, root)}"
                        f"  [{gb.evidence_id or '-'}]"
                    )
                    if gb.hint:  # torch's first hint that asks for a change (not a request to report an issue)
                        body.append(f"      hint: {gb.hint}")
            if comp.compile_id in ids["failures"] and comp.failure is not None:
                fail = comp.failure
                where = f" at {_site(fail.site, root)}" if fail.site else ""
                body.append(
                    f"    failed {comp.compile_id}{frame} {fail.fail_type or '(no type)'}{where}: {fail.message}; "
                    f"{fail.then}  [{', '.join(fail.evidence_ids) or '-'}]"
                )
            for s in comp.suggestions:
                if (s.kind == "graph_break" and comp.compile_id in ids["graph_breaks"]) or (
                    s.kind == "suppressed_failure" and comp.compile_id in ids["failures"]
                ):
                    body.append(f"      {_suggestion(s)}")
        if ids["recompiles"] & {c.compile_id for c in function.compilations}:
            body += [f"    {_suggestion(s)}" for s in function.suggestions if s.kind != "recompile_limit"]
        if body:
            place = _shown(function.file, root) if function.file else "?"
            if function.line is not None:
                place += f":{function.line}"
            lines.append(f"  {function.name}  ({place})")
            lines.extend(body)
    return lines
