"""Which function of the candidate run is which function of the baseline run.

Stages, each on what the previous ones left unmatched (docs/COMPARING.md §2, "Rows: one per source function"):
1. the user map (`usermap.py`);
2. identical structure hash, when the hash belongs to exactly one unmatched function on each side;
3. a line diff of the two snapshots of the same relative path: a baseline function matches the candidate
   function whose first and last lines are where the baseline function's first and last lines went (or, when
   a boundary line itself was edited, lie in the lines that replaced it and the name is the same);
4. the same qualified name (`Decoder.forward`), the only function of that name on each side, when its file was
   renamed or moved (the baseline's file is not among the candidate's snapshots, nor the candidate's among the
   baseline's): a method whose signature changed in a renamed script (`qualified_name`);
5. same file, first line and name, only when a side has no snapshot to compare (`same_location`);
6. same file and name, unique on both sides, only when a side has no snapshot (`name`: a function that moved
   down or up in an edited file; the row says from which line to which).
"Same file" survives input forms: a bundle names a file by its path relative to the project root, a bare trace
by the absolute path the process saw, and a run in another checkout by another root. Two paths are the same
file when they are equal, else when they share the longest path suffix (whole components, at least the file
name), the best for both and unique (`_file_pairs`).
What is left is `ambiguous` when some other unmatched function fitted as well (the row's `alternatives`),
else baseline-only or candidate-only, with likely counterparts (same name, or same file) as `alternatives`.
Resume functions follow the function they resume (`resume_parent`). A frame of library code (torch's `inner`
wrapper around a torch.nn module, a library's decorator around a forward) follows the user's function that called
it (`FunctionRef.caller`, found in the stack torch recorded); between matched functions such frames pair by their
library file, name and first line.
Generated code (a compiled-autograd graph, an FX GraphModule's code: `FunctionRef.generated`) has no source and a
counter in its file name; it pairs by what it is, in `generated.py`.
"""

from __future__ import annotations

import ast
import bisect
import operator
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from dynamo_diff_schema.code_paths import library_path
from dynamo_diff_schema.comparison import MatchMethod, RowStatus
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode

from dynamo_diff_match.generated import GeneratedMatch, correspond_generated
from dynamo_diff_match.identities import FunctionRef, SourceFunction, function_id
from dynamo_diff_match.linediff import DiffLimitError, LineMap, line_map
from dynamo_diff_match.snapshots import SnapshotSet, locate, locate_call
from dynamo_diff_match.usermap import UserMap, split_id


def qualified_name(ref: FunctionRef, source: SourceFunction | None) -> str:
    """The `__qualname__`-style name of an observed function; a resume function is named like its parent's
    sibling (`Net.torch_dynamo_resume_in_forward_at_12`), as Dynamo sets its `co_qualname`. A library frame keeps
    its own name (`source` is the user's function that called it); generated code is named for what it is
    ('compiled autograd graph 0')."""
    if ref.generated is not None and ref.generated.label:
        return ref.generated.label if ref.resume_parent is None else f"{ref.generated.label}: {ref.name}"
    if source is None or ref.caller is not None:
        return ref.name
    if ref.resume_parent is None:
        return source.qualified_name
    scope, dot, _ = source.qualified_name.rpartition(".")
    return f"{scope}{dot}{ref.name}"


@dataclass(frozen=True)
class Correspondence:
    """One row: an observed function of the baseline, of the candidate, or of both."""

    baseline: FunctionRef | None
    candidate: FunctionRef | None
    status: RowStatus
    method: MatchMethod
    reason: str
    baseline_id: str | None = None
    candidate_id: str | None = None
    # The definition each side comes from (for a resume function: the function it resumes).
    baseline_source: SourceFunction | None = None
    candidate_source: SourceFunction | None = None
    # Ids on the other side that fitted as well (ambiguous rows).
    alternatives: tuple[str, ...] = ()

    @property
    def baseline_qualified_name(self) -> str | None:
        return None if self.baseline is None else qualified_name(self.baseline, self.baseline_source)

    @property
    def candidate_qualified_name(self) -> str | None:
        return None if self.candidate is None else qualified_name(self.candidate, self.candidate_source)


@dataclass(frozen=True)
class FunctionMatch:
    """One source function of either run with everything compiled from it: its own frame and the resume functions
    Dynamo made after its graph breaks (`pieces`, each a Correspondence of its own). A comparison shows one row
    per FunctionMatch, counting all its pieces: the function's story is one row."""

    status: RowStatus
    method: MatchMethod
    reason: str
    baseline_id: str | None
    candidate_id: str | None
    baseline_name: str | None  # the function's qualified name (its own, also when only resume functions ran)
    candidate_name: str | None
    baseline_source: SourceFunction | None
    candidate_source: SourceFunction | None
    alternatives: tuple[str, ...]
    pieces: tuple[Correspondence, ...]
    # Where each side's function is (path, first line; the line is None when only the frames it called ran and
    # there is no snapshot to read the definition from).
    baseline_location: tuple[str, int | None] | None = None
    candidate_location: tuple[str, int | None] | None = None


@dataclass(eq=False)
class _Unit:
    """A source function of one side with the observed function(s) it accounts for."""

    baseline: bool
    id: str
    ref: FunctionRef | None  # None: only its resume functions were observed
    source: SourceFunction | None
    location: tuple[str, int, str]  # (path, first line, name): the key of `same_location`
    missing: str = ""  # why there is no source, if so
    resumes: list[FunctionRef] = field(default_factory=list)
    calls: list[FunctionRef] = field(default_factory=list)  # library frames compiled in its place
    # Named by what the user compiled (`location` is where torch.compile was called, line 0 when not known).
    compiled: bool = False
    match: _Unit | None = None
    method: MatchMethod = MatchMethod.NONE
    reason: str = ""
    note: str = ""  # why it did not match, if it does not
    alternatives: set[str] = field(default_factory=set)

    @property
    def order(self) -> tuple[str, int, str]:
        if self.source is not None:
            return self.source.rel_path, self.source.first_line, self.source.qualified_name
        return self.location

    @property
    def label(self) -> str:
        return self.source.qualified_name if self.source is not None else self.location[2]

    @property
    def where(self) -> tuple[str, int | None]:
        if self.source is not None:
            return self.source.rel_path, self.source.first_line
        if self.compiled:
            return self.location[0], self.location[1] or None
        return self.location[0], self.ref.first_line if self.ref is not None else None


# FunctionRef's field order: sorting by it gives the dataclass order without a Python-level __lt__ per comparison.
_REF_ORDER = operator.attrgetter("file", "first_line", "name", "caller")


def _units(refs: Iterable[FunctionRef], snapshots: SnapshotSet, *, baseline: bool) -> list[_Unit]:
    by_key: dict[object, _Unit] = {}
    unlocated: list[_Unit] = []
    all_refs = sorted(set(refs), key=_REF_ORDER)  # the dataclass order, compared as tuples in C
    for ref in (r for r in all_refs if r.resume_parent is None and r.caller is None):
        source = locate(ref, snapshots)
        path = snapshots.paths.get(ref.file, ref.file)
        unit = _Unit(
            baseline=baseline,
            id=source.id if source else function_id(path, ref.name, ref.first_line),
            ref=ref,
            source=source,
            location=(path, ref.first_line, ref.name),
            missing="" if source else snapshots.why_missing(ref),
        )
        by_key[source or ref] = unit
        if source is None:
            unlocated.append(unit)

    def unlocated_parent(file: str, name: str, line: int) -> _Unit | None:
        """Without a snapshot: the latest unlocated function of that name in the file starting above the line."""
        parents = [
            u for u in unlocated if u.ref and u.ref.file == file and u.ref.name == name and u.ref.first_line <= line
        ]
        return max(parents, key=lambda u: u.order) if parents else None

    for ref in (r for r in all_refs if r.caller is not None and r.caller.target):
        # Named by what the user compiled: one unit per target and torch.compile call, whatever calls it.
        site = ref.caller
        assert site is not None
        where, _, at = site.compiled_at.rpartition(":")
        path = snapshots.paths.get(where or site.file, where or site.file)
        target_key = ("compiled", site.target, path, at)
        parent = by_key.get(target_key)
        if parent is None:
            parent = by_key[target_key] = _Unit(
                baseline,
                function_id(path, site.target, int(at) if at.isdigit() else None),
                None,
                None,
                (path, int(at) if at.isdigit() else 0, site.target),
                compiled=True,
            )
        parent.calls.append(ref)
    for ref in (r for r in all_refs if r.caller is not None and not r.caller.target):
        site = ref.caller
        assert site is not None
        source = locate_call(site, snapshots)
        parent = by_key.get(source) if source is not None else unlocated_parent(site.file, site.name, site.line)
        if parent is None:
            path = snapshots.paths.get(site.file, site.file)
            key = source if source is not None else ("called from", path, site.name)
            parent = by_key.get(key)
            if parent is None:
                parent = by_key[key] = _Unit(
                    baseline,
                    source.id if source is not None else function_id(path, site.name),
                    None,
                    source,
                    (source.rel_path, source.first_line, source.name) if source else (path, site.line, site.name),
                    "" if source else f"no source snapshot of {site.file}",
                )
        parent.calls.append(ref)
    for ref in (r for r in all_refs if r.resume_parent is not None and r.caller is None):
        source = locate(ref, snapshots)
        if source is not None:
            if source not in by_key:
                by_key[source] = _Unit(
                    baseline, source.id, None, source, (source.rel_path, source.first_line, source.name)
                )
            by_key[source].resumes.append(ref)
            continue
        parent = unlocated_parent(ref.file, ref.resume_parent or "", ref.first_line)
        if parent is None:
            # Neither a snapshot nor its function's own frame (compiled earlier in the process, before the trace
            # began): the function it resumes, by its name in that file, as a library frame's caller is found.
            path = snapshots.paths.get(ref.file, ref.file)
            name = ref.resume_parent or ref.name
            key = ("resumed", path, name)
            parent = by_key.get(key)
            if parent is None:
                parent = by_key[key] = _Unit(
                    baseline,
                    function_id(path, name),
                    None,
                    None,
                    (path, ref.first_line, name),
                    snapshots.why_missing(ref),
                )
        parent.resumes.append(ref)
    return sorted(by_key.values(), key=lambda u: u.order)


def _pair(b: _Unit, c: _Unit, method: MatchMethod, reason: str) -> None:
    b.match, c.match = c, b
    b.method = c.method = method
    b.reason = c.reason = reason


def _ambiguous(b: _Unit, c: _Unit) -> None:
    b.alternatives.add(c.id)
    c.alternatives.add(b.id)


def _apply_user_map(user_map: UserMap, base: list[_Unit], cand: list[_Unit]) -> None:
    def lookup(units: list[_Unit], fid: str, side: str) -> _Unit:
        # Functions the user can name: not resume functions (they follow their parent) nor library frames.
        found = {u.id: u for u in units if u.ref is None or u.ref.resume_parent is None}
        found |= {
            function_id(u.source.rel_path, u.source.qualified_name, u.source.first_line): u
            for u in found.values()
            if u.source is not None
        }
        if fid in found:
            return found[fid]
        parts = split_id(fid)
        if parts is not None:
            # The same file written another way (relative vs absolute, another checkout): path suffix, name, line.
            path, name, line = parts
            close = {
                u.id: u
                for key, u in found.items()
                if (other := split_id(key)) is not None
                and other[1] == name
                and (line is None or line == u.where[1])
                and _common_suffix(_path_parts(other[0]), _path_parts(path))
                == min(len(_path_parts(other[0])), len(_path_parts(path)))
            }
            if len(close) == 1:
                return next(iter(close.values()))
        hint = ""
        with_lines = sorted({u.id for u in found.values() if u.id.startswith(fid + "@")})
        if parts and "torch_dynamo_resume_in_" in parts[1]:
            hint = " Resume functions follow their parent; map the parent function instead."
        elif len(with_lines) > 1:
            hint = f" Several functions have this name in that file; add '@<first line>': {', '.join(with_lines[:4])}."
        elif with_lines:
            hint = f" It has no source snapshot, so its id names its first line: {with_lines[0]!r}."
        else:
            known = sorted(found)[:6]
            hint = f" Ids of this {side}'s functions: {', '.join(known)}" + (" ..." if len(found) > 6 else "")
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT,
            f"User map id {fid!r} names no observed {side} function.{hint}",
            problem="unknown_id",
            id=fid,
            side=side,
        )

    resolved = [(lookup(base, b, "baseline"), lookup(cand, c, "candidate")) for b, c in user_map.pairs]
    for b, c in resolved:
        _pair(b, c, MatchMethod.USER_MAP, "user map")


def _match_structure(base: list[_Unit], cand: list[_Unit]) -> None:
    # Identical source text first (it implies an identical AST and is cheap), then the AST hash for the rest.
    _match_by(base, cand, lambda s: s.source_key, "identical source", ambiguous_ok=True)
    # Hashing an AST walks all of it. A function can share its hash only with a function of the other side of the
    # same shape (`_shape`: a few facts that equal ASTs share), so functions of a shape one side lacks are not
    # hashed: their hash groups would hold functions of one side only, which pair with nothing.
    shapes = [{_shape(u.source) for u in units if u.match is None and u.source is not None} for units in (base, cand)]
    both = (shapes[0] & shapes[1]) - {None}
    _match_by(base, cand, lambda s: s.structure_hash if _shape(s) in both else "", "identical AST", ambiguous_ok=False)


def _shape(f: SourceFunction) -> tuple[object, ...] | None:
    """What every function with the same structure hash has in common, read off the top of its AST: the node type,
    the argument names, the number of decorators and the statement types of the body (None: no hash)."""
    node = f.node
    if f.kind == "class" or node is None:
        return None
    if isinstance(node, ast.Lambda):
        return ("lambda", type(node.body))
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    args = node.args
    names = tuple(a.arg for a in (*args.posonlyargs, *args.args, args.vararg, *args.kwonlyargs, args.kwarg) if a)
    return (type(node), names, len(args.posonlyargs), len(node.decorator_list), *map(type, node.body))


def _match_by(
    base: list[_Unit], cand: list[_Unit], key: Callable[[SourceFunction], str], label: str, *, ambiguous_ok: bool
) -> None:
    """Pair units whose key is unique on both sides. With `ambiguous_ok`, groups that are not one-to-one are
    left for the next stage instead of being marked ambiguous."""
    groups: dict[str, tuple[list[_Unit], list[_Unit]]] = defaultdict(lambda: ([], []))
    for side, units in ((0, base), (1, cand)):
        for u in units:
            if u.match is None and u.source is not None and (k := key(u.source)):
                groups[k][side].append(u)
    for bs, cs in groups.values():
        if len(bs) == 1 and len(cs) == 1:
            b, c = bs[0], cs[0]
            assert b.source and c.source
            notes = []
            if b.source.qualified_name != c.source.qualified_name:
                notes.append(f"renamed from {b.source.qualified_name}")
            if b.source.rel_path != c.source.rel_path:
                notes.append(f"moved from {b.source.rel_path}")
            _pair(b, c, MatchMethod.STRUCTURE, "; ".join([label, *notes]))
        elif not ambiguous_ok:
            for b in bs:
                for c in cs:
                    _ambiguous(b, c)


class _ByLastLine:
    """A snapshot's functions sorted by last line, to find those ending in a range of lines without a scan."""

    def __init__(self, functions: list[SourceFunction]) -> None:
        ordered = sorted(range(len(functions)), key=lambda i: functions[i].last_line)
        self.order = ordered  # source-order positions
        self.lasts = [functions[i].last_line for i in ordered]
        self.functions = functions

    def ending_in(self, lo: int, hi: int) -> list[SourceFunction]:
        """The functions whose last line is in lo..hi, in source order."""
        at, to = bisect.bisect_left(self.lasts, lo), bisect.bisect_right(self.lasts, hi)
        return [self.functions[i] for i in sorted(self.order[at:to])]


def _fits(f: SourceFunction, candidates: _ByLastLine, lm: LineMap) -> tuple[list[SourceFunction], list[SourceFunction]]:
    """Candidate functions whose boundary lines are where f's went (exact), and those whose boundary lines lie
    where an edited boundary line of f went and whose name is f's (loose)."""
    first = lm.image(f.first_line, widen="up")
    def_line = lm.image(f.def_line, widen="up")
    last = lm.image(f.last_line, widen="down")
    exact: list[SourceFunction] = []
    loose: list[SourceFunction] = []
    if first is None or def_line is None or last is None:
        return exact, loose
    for g in candidates.ending_in(last.lo, last.hi):  # the others' last line is not in `last`
        if g.kind == "class":
            continue
        if g.last_line == last.line and (g.first_line == first.line or g.def_line == def_line.line):
            exact.append(g)
        elif g.name == f.name and (g.first_line in first or g.def_line in def_line):
            loose.append(g)
    return exact, loose


def _match_lines(base: list[_Unit], cand: list[_Unit], bsnap: SnapshotSet, csnap: SnapshotSet) -> None:
    cand_by_source = {u.source: u for u in cand if u.source is not None}
    maps: dict[str, LineMap | str] = {}
    by_last: dict[str, _ByLastLine] = {}
    claims: dict[_Unit, list[tuple[_Unit, str]]] = defaultdict(list)
    for b in base:
        if b.match is not None or b.source is None or b.source.rel_path not in csnap.files:
            continue
        rel = b.source.rel_path
        if rel not in maps:
            try:
                maps[rel] = line_map(bsnap.lines(rel), csnap.lines(rel))
            except DiffLimitError as e:
                maps[rel] = f"line diff of {rel} skipped: {e}"
        lm = maps[rel]
        if isinstance(lm, str):
            b.note = lm
            for other in cand:
                if other.match is None and other.location[0] == b.location[0]:
                    other.note = lm
                    _ambiguous(b, other)
            continue
        if rel not in by_last:
            by_last[rel] = _ByLastLine(csnap.functions(rel))
        exact, loose = _fits(b.source, by_last[rel], lm)
        chosen = exact or loose
        if len(chosen) > 1:
            chosen = [g for g in chosen if g.name == b.source.name] or chosen
        if not chosen:
            continue
        if len(chosen) > 1:
            b.note = f"its lines map to {len(chosen)} candidate functions"
            for g in chosen:
                if (alt := cand_by_source.get(g)) is not None and alt.match is None:
                    _ambiguous(b, alt)
            continue
        g = chosen[0]
        target = cand_by_source.get(g)
        if target is None:
            b.note = f"its lines map to {g.qualified_name}, which the candidate did not compile"
        elif target.match is not None:
            b.note = f"its lines map to {g.qualified_name}, already matched by {target.method.value}"
        else:
            span = f"lines {b.source.first_line}-{b.source.last_line} map to {g.first_line}-{g.last_line}"
            claims[target].append((b, span))
    for c, bs in claims.items():
        if len(bs) == 1:
            _pair(bs[0][0], c, MatchMethod.LINE_DIFF, bs[0][1])
        else:
            for b, _ in bs:
                b.note = f"its lines and others' map to {c.label}"
                _ambiguous(b, c)


def _match_qualified_name(base: list[_Unit], cand: list[_Unit], bsnap: SnapshotSet, csnap: SnapshotSet) -> None:
    """A function whose file was renamed or moved, and whose body changed too much for its structure to match:
    the same qualified name, the only function of that name among each side's (matched or not), where the
    baseline's file is not among the candidate's snapshots and the candidate's not among the baseline's. Two
    functions of that name on one side (in two files) pair by nothing here: the name alone cannot say which."""
    groups: dict[str, tuple[list[_Unit], list[_Unit]]] = defaultdict(lambda: ([], []))
    for side, units in ((0, base), (1, cand)):
        for u in units:
            if u.source is not None and u.source.kind != "class":
                groups[u.source.qualified_name][side].append(u)
    for name, (bs, cs) in groups.items():
        if len(bs) != 1 or len(cs) != 1 or bs[0].match is not None or cs[0].match is not None:
            continue
        b, c = bs[0], cs[0]
        assert b.source is not None and c.source is not None
        b_rel, c_rel = b.source.rel_path, c.source.rel_path
        if b_rel in csnap.files or c_rel in bsnap.files:
            continue  # a file both sides hold: the line diff placed (or refused) the function
        _pair(b, c, MatchMethod.QUALIFIED_NAME, f"the only {name} on each side; its file {b_rel} is {c_rel} now")


def _path_parts(path: str) -> list[str]:
    return [part for part in path.replace("\\", "/").split("/") if part and part != "."]


def _common_suffix(a: list[str], b: list[str]) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


def _file_pairs(base_files: Iterable[str], cand_files: Iterable[str]) -> dict[str, str]:
    """Baseline path -> the candidate path of the same file (see the module docstring)."""
    base_set, cand_set = set(base_files), set(cand_files)
    out = {f: f for f in base_set & cand_set}
    rest_c = sorted(cand_set - base_set)
    best: dict[str, tuple[int, str]] = {}
    for b in sorted(base_set - cand_set):
        scores = [(n, c) for c in rest_c if (n := _common_suffix(_path_parts(b), _path_parts(c))) >= 1]
        if scores:
            top = max(n for n, _ in scores)
            tops = [c for n, c in scores if n == top]
            if len(tops) == 1:
                best[b] = (top, tops[0])
    claims: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for b, (n, c) in best.items():
        claims[c].append((n, b))
    for c, claimed in claims.items():
        top = max(n for n, _ in claimed)
        tops = [b for n, b in claimed if n == top]
        if len(tops) == 1:
            out[tops[0]] = c
    return out


def _same_file(base: list[_Unit], cand: list[_Unit]) -> dict[str, str]:
    """Candidate path -> the baseline path of the same file, for the units still unmatched."""
    pairs = _file_pairs(
        {u.location[0] for u in base if u.match is None}, {u.location[0] for u in cand if u.match is None}
    )
    return {c: b for b, c in pairs.items()}


def _match_targets(base: list[_Unit], cand: list[_Unit]) -> None:
    """Rows named by what the user compiled pair by that name in the same file (unique on both sides)."""
    as_base = _same_file(base, cand)
    groups: dict[tuple[str, str], tuple[list[_Unit], list[_Unit]]] = defaultdict(lambda: ([], []))
    for side, units in ((0, base), (1, cand)):
        for u in units:
            if u.match is None and u.compiled:
                path, _, name = u.location
                groups[(as_base.get(path, path) if side else path, name)][side].append(u)
    for bs, cs in groups.values():
        # One target compiled at several places of the file (two models of one class): in the order of the calls.
        if len(bs) == len(cs):
            for b, c in zip(sorted(bs, key=lambda u: u.location), sorted(cs, key=lambda u: u.location), strict=True):
                (_, b_line), (_, c_line) = b.where, c.where
                lines = "" if b_line is None or c_line is None else f", compiled at line {b_line} -> {c_line}"
                _pair(b, c, MatchMethod.NAME, f"the same torch.compile target{lines}")


def _call_key(unit: _Unit, as_base: dict[str, str] | None = None) -> tuple[object, ...] | None:
    """What a unit of library frames only is made of: the frames and the lines of the calls that reached them."""
    if unit.ref is not None or unit.resumes or not unit.calls:
        return None
    files = {r.caller.file for r in unit.calls if r.caller is not None}
    frames = frozenset((_library_frame(r), _call_site(r)) for r in unit.calls)
    paths = frozenset((as_base or {}).get(f, f) for f in files)
    return paths, frames


def _match_calls(base: list[_Unit], cand: list[_Unit]) -> None:
    """A row named by what the user compiled on one side, and by the code that called it on the other (a bundle's
    observer tells where torch.compile was called, a bare trace cannot): the same library frames called at the
    same lines are one row."""
    as_base = _file_pairs(
        {r.caller.file for u in base if u.match is None for r in u.calls if r.caller is not None},
        {r.caller.file for u in cand if u.match is None for r in u.calls if r.caller is not None},
    )
    as_base = {c: b for b, c in as_base.items()}
    groups: dict[tuple[object, ...], tuple[list[_Unit], list[_Unit]]] = defaultdict(lambda: ([], []))
    for side, units in ((0, base), (1, cand)):
        for u in units:
            if u.match is None and (key := _call_key(u, as_base if side else None)) is not None:
                groups[key][side].append(u)
    for bs, cs in groups.values():
        if len(bs) == 1 and len(cs) == 1 and (bs[0].compiled or cs[0].compiled):
            lines = sorted({_call_site(r) for r in bs[0].calls})
            _pair(bs[0], cs[0], MatchMethod.SAME_LOCATION, f"the same library frames, called at line(s) {lines}")


def _match_location(base: list[_Unit], cand: list[_Unit]) -> None:
    as_base = _same_file(base, cand)
    groups: dict[tuple[str, int, str], tuple[list[_Unit], list[_Unit]]] = defaultdict(lambda: ([], []))
    for side, units in ((0, base), (1, cand)):
        for u in units:
            if u.match is None and u.ref is not None:
                path, line, name = u.location
                groups[(as_base.get(path, path) if side else path, line, name)][side].append(u)
    for bs, cs in groups.values():
        if len(bs) == 1 and len(cs) == 1 and (bs[0].source is None or cs[0].source is None):
            missing = bs[0].missing or cs[0].missing
            _pair(bs[0], cs[0], MatchMethod.SAME_LOCATION, f"same file, line and name; {missing}")


def _match_name(base: list[_Unit], cand: list[_Unit]) -> None:
    """Same file and name, unique on both sides, where a side has no snapshot to compare the sources with."""
    as_base = _same_file(base, cand)
    groups: dict[tuple[str, str], tuple[list[_Unit], list[_Unit]]] = defaultdict(lambda: ([], []))
    for side, units in ((0, base), (1, cand)):
        for u in units:
            if u.match is None:
                path, _, name = u.location
                groups[(as_base.get(path, path) if side else path, name)][side].append(u)
    for bs, cs in groups.values():
        if len(bs) == 1 and len(cs) == 1 and (bs[0].source is None or cs[0].source is None):
            b, c = bs[0], cs[0]
            (_, b_line), (_, c_line) = b.where, c.where
            if b_line is None or c_line is None:
                moved = "only the library frames it called ran"
            elif b_line != c_line:
                moved = f"moved from line {b_line} to {c_line}"
            else:
                moved = f"line {b_line}"
            missing = b.missing or c.missing
            _pair(b, c, MatchMethod.NAME, f"same file and name, {moved}; {missing}")


def _suggest(unit: _Unit, others: list[_Unit]) -> set[str]:
    """Likely counterparts of an unmatched unit: unmatched functions of the same name, else of the same file."""
    open_others = [o for o in others if o.match is None and (o.ref is not None or o.calls)]
    if unit.ref is None and not unit.calls:
        return set()
    same_name = {o.id for o in open_others if o.location[2] == unit.location[2]}
    if same_name:
        return same_name
    name = _path_parts(unit.location[0])[-1:]
    return {o.id for o in open_others if _path_parts(o.location[0])[-1:] == name}


def _resume_rows(b: _Unit, c: _Unit, bsnap: SnapshotSet, csnap: SnapshotSet) -> list[Correspondence]:
    """Rows of the resume functions of a matched pair of functions."""
    pairs: list[tuple[FunctionRef, FunctionRef, str]] = []
    rb, rc = sorted(b.resumes), sorted(c.resumes)
    lm: LineMap | None = None
    # The line map only places resume functions: without them on both sides there is nothing to place.
    if rb and rc and b.source is not None and c.source is not None:
        fb, fc = b.source, c.source
        try:
            lm = line_map(
                bsnap.lines(fb.rel_path)[fb.first_line - 1 : fb.last_line],
                csnap.lines(fc.rel_path)[fc.first_line - 1 : fc.last_line],
            )
        except DiffLimitError:
            lm = None
    for r in list(rb):
        if lm is not None and b.source is not None and c.source is not None:
            image = lm.image(r.first_line - b.source.first_line + 1)
            target = None if image is None or image.line is None else image.line + c.source.first_line - 1
        else:
            target = r.first_line
        for s in rc:
            if s.first_line == target and (lm is not None or s.name == r.name):
                pairs.append((r, s, f"follows {b.label}; resume line {r.first_line} maps to {s.first_line}"))
                rb.remove(r)
                rc.remove(s)
                break
    if len(rb) == 1 and len(rc) == 1:
        pairs.append((rb[0], rc[0], f"follows {b.label}; its only other resume function on each side"))
        rb, rc = [], []
    rows = [
        Correspondence(
            r,
            s,
            RowStatus.MATCHED,
            MatchMethod.RESUME_PARENT,
            why,
            _row_id(b, r),
            _row_id(c, s),
            b.source,
            c.source,
        )
        for r, s, why in pairs
    ]
    for mine, theirs, unit, other, status in (
        (rb, rc, b, c, RowStatus.BASELINE_ONLY),
        (rc, rb, c, b, RowStatus.CANDIDATE_ONLY),
    ):
        alternatives = tuple(sorted(_row_id(other, s) for s in theirs))
        for r in mine:
            row_status = RowStatus.AMBIGUOUS if alternatives else status
            why = f"follows {unit.label}; " + (
                "no line maps between its resume functions"
                if alternatives
                else "no resume function at this point on the other side"
            )
            rows.append(_one_sided(unit, r, row_status, why, alternatives))
    return rows


def _library_frame(ref: FunctionRef) -> tuple[str, str, int]:
    """A library frame's identity across runs: its file from the package on (the same in any environment)."""
    return library_path(ref.file) or ref.file, ref.name, ref.first_line


def _caller(unit: _Unit, ref: FunctionRef) -> str:
    """Who called a library frame: the unit's function, or (a unit named by what was compiled) the calling code."""
    if unit.compiled and ref.caller is not None:
        return ref.caller.name
    return unit.label


def _call_site(ref: FunctionRef) -> int:
    return ref.caller.line if ref.caller is not None else 0


def _call_rows(b: _Unit, c: _Unit) -> list[Correspondence]:
    """Rows of the library frames two matched functions called: equal frames (file from the package on, name,
    first line) pair in the order of their call lines; a frame on one side only is that side's."""
    rb = sorted(b.calls, key=lambda r: (_call_site(r), r))
    rc = sorted(c.calls, key=lambda r: (_call_site(r), r))
    rows: list[Correspondence] = []
    for r in list(rb):
        s = next((s for s in rc if _library_frame(s) == _library_frame(r)), None)
        if s is None:
            continue
        why = (
            f"called from {_caller(b, r)} (line {_call_site(r)} -> {_call_site(s)}); the same frame of "
            f"{_library_frame(r)[0]}"
        )
        rows.append(
            Correspondence(
                r,
                s,
                RowStatus.MATCHED,
                MatchMethod.SAME_LOCATION,
                why,
                _row_id(b, r),
                _row_id(c, s),
                b.source,
                c.source,
            )
        )
        rb.remove(r)
        rc.remove(s)
    for mine, unit, status in ((rb, b, RowStatus.BASELINE_ONLY), (rc, c, RowStatus.CANDIDATE_ONLY)):
        for r in mine:
            why = f"called from {_caller(unit, r)} (line {_call_site(r)}); the other side's function did not compile it"
            rows.append(_one_sided(unit, r, status, why))
    return rows


def _row_id(unit: _Unit, ref: FunctionRef) -> str:
    if ref.caller is not None:
        lib, name, line = _library_frame(ref)
        return function_id(lib, name, line)
    if ref == unit.ref:
        return unit.id
    if unit.source is None:
        return function_id(unit.location[0], ref.name, ref.first_line)
    return function_id(unit.source.rel_path, qualified_name(ref, unit.source))


def _one_sided(
    unit: _Unit, ref: FunctionRef, status: RowStatus, reason: str, alternatives: tuple[str, ...] = ()
) -> Correspondence:
    rid = _row_id(unit, ref)
    if unit.baseline:
        return Correspondence(ref, None, status, MatchMethod.NONE, reason, rid, None, unit.source, None, alternatives)
    return Correspondence(None, ref, status, MatchMethod.NONE, reason, None, rid, None, unit.source, alternatives)


def _unmatched_rows(unit: _Unit, unmatched_others: set[str], others: list[_Unit]) -> list[Correspondence]:
    alternatives = tuple(sorted(unit.alternatives & unmatched_others))
    if alternatives:
        status = RowStatus.AMBIGUOUS
        reason = unit.note or f"{len(alternatives)} functions on the other side fit as well"
    else:
        status = RowStatus.BASELINE_ONLY if unit.baseline else RowStatus.CANDIDATE_ONLY
        other = "candidate" if unit.baseline else "baseline"
        reason = unit.note or unit.missing or f"no {other} function with the same AST or boundary lines"
        alternatives = tuple(sorted(_suggest(unit, others)))
        if alternatives:
            reason += f"; maybe {', '.join(alternatives[:3])} (pair it with a source map)"
    rows = [] if unit.ref is None else [_one_sided(unit, unit.ref, status, reason, alternatives)]
    for r in sorted(unit.resumes):
        rows.append(_one_sided(unit, r, status, f"follows {unit.label}, which is {status.value}", alternatives))
    for r in sorted(unit.calls, key=lambda r: (_call_site(r), r)):
        why = f"called from {_caller(unit, r)} (line {_call_site(r)}), which is {status.value}"
        rows.append(_one_sided(unit, r, status, why, alternatives))
    return rows


def _pair_rows(b: _Unit, c: _Unit, bsnap: SnapshotSet, csnap: SnapshotSet) -> list[Correspondence]:
    rows: list[Correspondence] = []
    if b.ref is not None and c.ref is not None:
        rows.append(Correspondence(b.ref, c.ref, RowStatus.MATCHED, b.method, b.reason, b.id, c.id, b.source, c.source))
    elif b.ref is not None or c.ref is not None:
        # Matched to a function of which the other side compiled only resume functions.
        unit = b if b.ref is not None else c
        status = RowStatus.BASELINE_ONLY if unit.baseline else RowStatus.CANDIDATE_ONLY
        assert unit.ref is not None
        why = f"its counterpart ({b.method.value}: {b.reason}) ran only as resume functions or library frames"
        rows.append(_one_sided(unit, unit.ref, status, why))
    return rows + _resume_rows(b, c, bsnap, csnap) + _call_rows(b, c)


def correspond(
    baseline: Iterable[FunctionRef],
    baseline_sources: SnapshotSet,
    candidate: Iterable[FunctionRef],
    candidate_sources: SnapshotSet,
    user_map: UserMap | None = None,
) -> list[Correspondence]:
    """Rows pairing the observed functions of two runs: every observed function appears in exactly one row.
    Order: baseline functions in source order (each followed by its resume functions), then the candidate's
    unmatched ones. Raises DynamoDiffError(INVALID_ARGUMENT) when a user-map id names no observed function."""
    return [
        piece
        for match in correspond_functions(baseline, baseline_sources, candidate, candidate_sources, user_map)
        for piece in match.pieces
    ]


def _function_match(b: _Unit | None, c: _Unit | None, pieces: list[Correspondence]) -> FunctionMatch:
    if b is not None and c is not None:
        return FunctionMatch(
            RowStatus.MATCHED,
            b.method,
            b.reason,
            b.id,
            c.id,
            b.label,
            c.label,
            b.source,
            c.source,
            (),
            tuple(pieces),
            b.where,
            c.where,
        )
    unit = b if b is not None else c
    assert unit is not None
    own = next((p for p in pieces if (p.baseline if unit.baseline else p.candidate) == unit.ref), pieces[0])
    status = own.status if unit.ref is not None else pieces[0].status
    alternatives = own.alternatives
    ran = "library frames it called" if unit.calls and not unit.resumes else "resume functions"
    if unit.compiled:
        reason = f"what was compiled ran as library frames; {pieces[0].reason}"
    else:
        reason = own.reason if unit.ref is not None else f"only {ran} of {unit.label} ran; {pieces[0].reason}"
    return FunctionMatch(
        status,
        MatchMethod.NONE,
        reason,
        unit.id if unit.baseline else None,
        None if unit.baseline else unit.id,
        unit.label if unit.baseline else None,
        None if unit.baseline else unit.label,
        unit.source if unit.baseline else None,
        None if unit.baseline else unit.source,
        alternatives,
        tuple(pieces),
        unit.where if unit.baseline else None,
        None if unit.baseline else unit.where,
    )


def correspond_functions(
    baseline: Iterable[FunctionRef],
    baseline_sources: SnapshotSet,
    candidate: Iterable[FunctionRef],
    candidate_sources: SnapshotSet,
    user_map: UserMap | None = None,
) -> list[FunctionMatch]:
    """One FunctionMatch per source function, in the order `correspond` gives its rows (its pieces); then one per
    generated unit (a compiled-autograd graph, an FX graph)."""
    baseline, candidate = list(baseline), list(candidate)
    base = _units((r for r in baseline if r.generated is None), baseline_sources, baseline=True)
    cand = _units((r for r in candidate if r.generated is None), candidate_sources, baseline=False)
    if user_map is not None:
        _apply_user_map(user_map, base, cand)
    _match_structure(base, cand)
    _match_lines(base, cand, baseline_sources, candidate_sources)
    _match_qualified_name(base, cand, baseline_sources, candidate_sources)
    _match_targets(base, cand)
    _match_location(base, cand)
    _match_name(base, cand)
    _match_calls(base, cand)
    unmatched_base = {u.id for u in base if u.match is None}
    unmatched_cand = {u.id for u in cand if u.match is None}
    matches: list[FunctionMatch] = []
    for b in base:
        if b.match is None:
            matches.append(_function_match(b, None, _unmatched_rows(b, unmatched_cand, cand)))
        else:
            matches.append(_function_match(b, b.match, _pair_rows(b, b.match, baseline_sources, candidate_sources)))
    for c in cand:
        if c.match is None:
            matches.append(_function_match(None, c, _unmatched_rows(c, unmatched_base, base)))
    generated = correspond_generated(
        [r for r in baseline if r.generated is not None], [r for r in candidate if r.generated is not None]
    )
    matches += [_generated_function(g) for g in generated]
    return [m for m in matches if m.pieces]


def _generated_function(match: GeneratedMatch) -> FunctionMatch:
    """A generated unit's row: its frames as pieces, named for what it is."""

    def piece_id(ref: FunctionRef | None) -> str | None:
        return None if ref is None else qualified_name(ref, None)

    pieces = tuple(
        Correspondence(
            b, c, status, method, why, piece_id(b), piece_id(c), alternatives=() if c and b else match.alternatives
        )
        for b, c, status, method, why in match.pieces
    )
    return FunctionMatch(
        match.status,
        match.method,
        match.reason,
        match.baseline_name,
        match.candidate_name,
        match.baseline_name,
        match.candidate_name,
        None,
        None,
        match.alternatives,
        pieces,
    )
