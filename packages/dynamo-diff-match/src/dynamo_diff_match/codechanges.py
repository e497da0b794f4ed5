"""Which lines changed around one compiled function between two runs' source snapshots: the function itself, the
functions that called it (the frames below it on the stack torch recorded when it compiled) and the functions of
its own file it calls. A change outside the compiled function (a `torch._dynamo.mark_dynamic(x, 0)` added in the
loop that calls it) changes what Dynamo compiles as surely as an edit inside it."""

from __future__ import annotations

import ast
import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field

from dynamo_diff_match.identities import SourceFunction
from dynamo_diff_match.snapshots import SnapshotSet
from dynamo_diff_match.sourcediff import CONTEXT

# What a piece of code is to the compiled function.
ROLES = ("function", "caller", "callee")


@dataclass(frozen=True)
class Frame:
    """A frame of the stack below a compiled function: its file (as the trace names it), the line being run and
    the function's bare name; `evidence` the records whose stacks name it."""

    file: str
    line: int
    name: str
    evidence: tuple[str, ...] = ()


@dataclass(frozen=True)
class CodeSide:
    """One run's version of a piece of code: its snapshot path, qualified name and lines (the file's numbers);
    `call_line` the line of the call into the compiled function (a caller only)."""

    rel_path: str
    qualified_name: str
    first_line: int
    last_line: int
    call_line: int | None = None
    evidence: tuple[str, ...] = ()

    @property
    def where(self) -> str:
        return f"{self.rel_path.rsplit('/', 1)[-1]}:{self.first_line}"


@dataclass(frozen=True)
class CodeChange:
    """A piece of code whose lines differ between the runs: the unified diff (the file's line numbers in its hunk
    headers) and the lines removed from the baseline and added in the candidate, each with its number."""

    role: str  # one of ROLES
    baseline: CodeSide
    candidate: CodeSide
    lines: list[str]
    removed: list[tuple[int, str]] = field(default_factory=list)
    added: list[tuple[int, str]] = field(default_factory=list)


def defined_at(snapshots: SnapshotSet, file: str | None, line: int | None, name: str | None) -> SourceFunction | None:
    """The definition a row's side names (its file, first line and qualified or bare name), or None."""
    if file is None or line is None:
        return None
    rel = snapshots.rel_path(file)
    if rel is None:
        return None
    for f in snapshots.functions(rel):
        if f.kind != "class" and line in (f.first_line, f.def_line) and name in (f.qualified_name, f.name, None):
            return f
    return None


def _calling(frame: Frame, snapshots: SnapshotSet) -> SourceFunction | None:
    """The innermost function of the frame's name whose lines hold the frame's line (module-level code: None)."""
    rel = snapshots.rel_path(frame.file)
    if rel is None or frame.name.startswith("<"):
        return None
    holding = [
        f for f in snapshots.named(rel, frame.name) if f.kind != "class" and f.first_line <= frame.line <= f.last_line
    ]
    return max(holding, key=lambda f: f.first_line, default=None)


def _callees(snapshots: SnapshotSet, function: SourceFunction) -> dict[str, SourceFunction]:
    """The functions of the same file the function calls by name (`helper(x)`, `self.helper(x)` for a method of
    its class), by qualified name."""
    node = function.node
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        return {}
    owner = function.qualified_name.rsplit(".", 1)[0] if "." in function.qualified_name else ""
    wanted: set[str] = set()
    for call in ast.walk(node):
        if not isinstance(call, ast.Call):
            continue
        if isinstance(call.func, ast.Name):
            wanted.add(call.func.id)
        elif (
            isinstance(call.func, ast.Attribute)
            and isinstance(call.func.value, ast.Name)
            and call.func.value.id == "self"
            and owner
        ):
            wanted.add(f"{owner}.{call.func.attr}")
    found: dict[str, SourceFunction] = {}
    for f in snapshots.functions(function.rel_path):
        if f.kind == "function" and f.qualified_name in wanted and f is not function:
            found.setdefault(f.qualified_name, f)
    return found


def _diff(
    role: str,
    base: SnapshotSet,
    b: SourceFunction,
    cand: SnapshotSet,
    c: SourceFunction,
    lines: tuple[int | None, int | None] = (None, None),
    evidence: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
) -> CodeChange | None:
    before = base.lines(b.rel_path)[b.first_line - 1 : b.last_line]
    after = cand.lines(c.rel_path)[c.first_line - 1 : c.last_line]
    if before == after:
        return None
    removed: list[tuple[int, str]] = []
    added: list[tuple[int, str]] = []
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            removed += [(b.first_line + i, before[i]) for i in range(i1, i2)]
        if tag in ("replace", "insert"):
            added += [(c.first_line + j, after[j]) for j in range(j1, j2)]
    diff = list(
        difflib.unified_diff(
            before,
            after,
            fromfile=f"baseline/{b.rel_path}",
            tofile=f"candidate/{c.rel_path}",
            n=CONTEXT,
            lineterm="",
        )
    )
    diff = [_numbered(line, b.first_line, c.first_line) if line.startswith("@@") else line for line in diff]
    return CodeChange(
        role,
        CodeSide(b.rel_path, b.qualified_name, b.first_line, b.last_line, lines[0], evidence[0]),
        CodeSide(c.rel_path, c.qualified_name, c.first_line, c.last_line, lines[1], evidence[1]),
        diff,
        removed,
        added,
    )


def _numbered(header: str, b_first: int, c_first: int) -> str:
    """A hunk header with the file's line numbers instead of lines counted from the function's first line."""
    parts = header.split(" ")  # "@@ -1,5 +1,7 @@"
    if len(parts) < 4:
        return header

    def moved(part: str, first: int) -> str:
        start, _, count = part[1:].partition(",")
        if not start.isdigit():
            return part
        shifted = int(start) + first - 1 if int(start) else 0
        return f"{part[0]}{shifted}" + (f",{count}" if count else "")

    return " ".join([parts[0], moved(parts[1], b_first), moved(parts[2], c_first), *parts[3:]])


def _outside(change: CodeChange, taken: list[CodeChange]) -> CodeChange | None:
    """The change without the lines a change already listed holds (an outer caller holds its inner function)."""

    def held(number: int, side: str) -> bool:
        return any(
            getattr(t, side).rel_path == getattr(change, side).rel_path
            and getattr(t, side).first_line <= number <= getattr(t, side).last_line
            for t in taken
        )

    removed = [r for r in change.removed if not held(r[0], "baseline")]
    added = [a for a in change.added if not held(a[0], "candidate")]
    if not removed and not added:
        return None
    return CodeChange(change.role, change.baseline, change.candidate, change.lines, removed, added)


def _callers(frames: Sequence[Frame], snapshots: SnapshotSet) -> list[tuple[SourceFunction, Frame]]:
    out: dict[tuple[str, int], tuple[SourceFunction, Frame]] = {}
    for frame in frames:
        f = _calling(frame, snapshots)
        if f is not None:
            out.setdefault((f.rel_path, f.first_line), (f, frame))
    return list(out.values())


def code_changes(
    base: SnapshotSet,
    cand: SnapshotSet,
    functions: tuple[SourceFunction | None, SourceFunction | None],
    frames: tuple[Sequence[Frame], Sequence[Frame]],
) -> list[CodeChange]:
    """What changed between the runs in the compiled function (`functions`: its definition in each run, None when
    not known), in the functions below it on its compilations' stacks (`frames`, innermost first: paired by
    qualified name) and in the functions of its file it calls (paired by qualified name). Each line changed is
    listed once: an outer caller lists only the lines outside the inner functions already listed."""
    taken: list[CodeChange] = []
    b_fn, c_fn = functions
    if b_fn is not None and c_fn is not None and (change := _diff("function", base, b_fn, cand, c_fn)) is not None:
        taken.append(change)
    if b_fn is not None and c_fn is not None:
        b_called, c_called = _callees(base, b_fn), _callees(cand, c_fn)
        for name in [n for n in b_called if n in c_called]:
            change = _diff("callee", base, b_called[name], cand, c_called[name])
            if change is not None and (kept := _outside(change, taken)) is not None:
                taken.append(kept)
    c_callers = _callers(frames[1], cand)
    for b_caller, b_frame in _callers(frames[0], base):
        paired = next(((f, fr) for f, fr in c_callers if f.qualified_name == b_caller.qualified_name), None)
        if paired is None:
            continue
        c_caller, c_frame = paired
        change = _diff(
            "caller",
            base,
            b_caller,
            cand,
            c_caller,
            (b_frame.line, c_frame.line),
            (b_frame.evidence, c_frame.evidence),
        )
        if change is not None and (kept := _outside(change, taken)) is not None:
            taken.append(kept)
    return taken
