"""Generated code pairs by what it is, never by the counter in its name (docs/COMPARING.md, "Generated code").

torch names the code of an FX GraphModule `<eval_with_key>.N`, N being torch.fx's count of modules generated so
far in the process: it changes with anything that generates modules earlier (a cache hit that skips tracing,
unrelated code, another torch version), so two runs of one program name one graph differently, and two unrelated
graphs alike. A frame of generated code (`FunctionRef.generated`) is one of

- a **compiled-autograd graph**: the backward Compiled Autograd captured under one compiled-autograd id, with every
  frame Dynamo compiled from it (its `forward`, the resume functions after a graph break in it);
- an **FX graph**: an FX GraphModule's code compiled on its own (`torch.compile` of a traced module).

Units of one kind pair across runs, in this order:
1. **identical graphs** (`graph`): the same op histograms, in compile order; several identical graphs on each side
   pair in order of their numbers;
2. **order**: when the same number of units of the kind is left on each side, the n-th left pairs with the n-th
   left (their graphs differ: the row shows how);
3. otherwise each is one-sided, the other side's units of that kind left unpaired named as `alternatives`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from dynamo_diff_schema.comparison import GeneratedKind, MatchMethod, RowStatus

from dynamo_diff_match.identities import FunctionRef

_KIND_WORDS = {GeneratedKind.COMPILED_AUTOGRAD: "compiled autograd graph", GeneratedKind.FX_GRAPH: "FX graph"}


@dataclass(eq=False)
class _Unit:
    """One generated thing of one side with the frames compiled from it (its own first)."""

    baseline: bool
    kind: GeneratedKind
    number: int
    label: str
    refs: list[FunctionRef] = field(default_factory=list)
    match: _Unit | None = None
    method: MatchMethod = MatchMethod.NONE
    reason: str = ""

    @property
    def graph(self) -> str:
        return "\x1e".join(r.generated.graph for r in self.refs if r.generated is not None)


def _units(refs: Iterable[FunctionRef], *, baseline: bool) -> list[_Unit]:
    by_key: dict[tuple[GeneratedKind, int], _Unit] = {}
    for ref in refs:
        gen = ref.generated
        assert gen is not None
        unit = by_key.get((gen.kind, gen.number))
        if unit is None:
            unit = by_key[(gen.kind, gen.number)] = _Unit(baseline, gen.kind, gen.number, gen.label)
        unit.refs.append(ref)
    for unit in by_key.values():
        # Its own frame first, then its resume functions in line order.
        unit.refs.sort(key=lambda r: (r.resume_parent is not None, r.first_line, r.name, r.file))
        own = next((r for r in unit.refs if r.resume_parent is None), None)
        if own is not None and own.generated is not None and own.generated.label:
            unit.label = own.generated.label
    return sorted(by_key.values(), key=lambda u: (u.kind, u.number))


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _pair(b: _Unit, c: _Unit, method: MatchMethod, reason: str) -> None:
    b.match, c.match = c, b
    b.method = c.method = method
    b.reason = c.reason = reason


def _match_kind(base: list[_Unit], cand: list[_Unit], words: str) -> None:
    groups: dict[str, tuple[list[_Unit], list[_Unit]]] = defaultdict(lambda: ([], []))
    for side, units in ((0, base), (1, cand)):
        for u in units:
            if u.graph:
                groups[u.graph][side].append(u)
    for bs, cs in groups.values():
        pairs = list(zip(bs, cs, strict=False))
        for i, (b, c) in enumerate(pairs):
            if len(pairs) == 1 and len(bs) == len(cs) == 1:
                why = "identical graphs"
            else:
                why = f"identical graphs; the {_ordinal(i + 1)} of {len(bs)} and {len(cs)} such {words}s"
            _pair(b, c, MatchMethod.GRAPH, why)
    rest_b = [u for u in base if u.match is None]
    rest_c = [u for u in cand if u.match is None]
    if rest_b and len(rest_b) == len(rest_c):
        for i, (b, c) in enumerate(zip(rest_b, rest_c, strict=True)):
            _pair(
                b,
                c,
                MatchMethod.ORDER,
                f"the {_ordinal(i + 1)} of the {len(rest_b)} {words}(s) left on each side; their graphs differ",
            )


@dataclass(frozen=True)
class GeneratedMatch:
    """A row of generated code: a unit of either run or of both, with its frames paired."""

    status: RowStatus
    method: MatchMethod
    reason: str
    baseline_name: str | None
    candidate_name: str | None
    alternatives: tuple[str, ...]
    pieces: tuple[tuple[FunctionRef | None, FunctionRef | None, RowStatus, MatchMethod, str], ...]


def _frame_pairs(
    b: _Unit, c: _Unit
) -> list[tuple[FunctionRef | None, FunctionRef | None, RowStatus, MatchMethod, str]]:
    """The frames of two paired units: their own frames together, resume functions by name, then in order."""
    rb, rc = list(b.refs), list(c.refs)
    out: list[tuple[FunctionRef | None, FunctionRef | None, RowStatus, MatchMethod, str]] = []
    for r in list(rb):
        s = next((s for s in rc if s.name == r.name and (r.resume_parent is None) == (s.resume_parent is None)), None)
        if s is not None:
            out.append((r, s, RowStatus.MATCHED, b.method, b.reason if r.resume_parent is None else "same frame"))
            rb.remove(r)
            rc.remove(s)
    for r, s in zip(list(rb), list(rc), strict=False):
        out.append((r, s, RowStatus.MATCHED, b.method, "the frame left on each side"))
        rb.remove(r)
        rc.remove(s)
    out += [(r, None, RowStatus.BASELINE_ONLY, MatchMethod.NONE, "no such frame on the other side") for r in rb]
    out += [(None, s, RowStatus.CANDIDATE_ONLY, MatchMethod.NONE, "no such frame on the other side") for s in rc]
    return out


def correspond_generated(baseline: Iterable[FunctionRef], candidate: Iterable[FunctionRef]) -> list[GeneratedMatch]:
    """One match per generated unit (see the module docstring): the baseline's in order of kind and number, then the
    candidate's unmatched ones."""
    base = _units(baseline, baseline=True)
    cand = _units(candidate, baseline=False)
    for kind in GeneratedKind:
        _match_kind(
            [u for u in base if u.kind == kind], [u for u in cand if u.kind == kind], _KIND_WORDS.get(kind, "graph")
        )
    out: list[GeneratedMatch] = []
    for b in base:
        if b.match is not None:
            c = b.match
            pieces = tuple(_frame_pairs(b, c))
            out.append(GeneratedMatch(RowStatus.MATCHED, b.method, b.reason, b.label, c.label, (), pieces))
    for units, others, status in ((base, cand, RowStatus.BASELINE_ONLY), (cand, base, RowStatus.CANDIDATE_ONLY)):
        for u in units:
            if u.match is not None:
                continue
            left = tuple(o.label for o in others if o.match is None and o.kind == u.kind)
            words = _KIND_WORDS.get(u.kind, "graph")
            other = "candidate" if u.baseline else "baseline"
            if left:
                here = sum(1 for x in units if x.match is None and x.kind == u.kind)
                why = (
                    f"no {other} {words} has the same graphs; {len(left)} are left there and {here} here, "
                    "so none is paired by order"
                )
            else:
                why = f"the {other} has no {words} left to pair with"
            pieces = tuple(
                (r, None, status, MatchMethod.NONE, why) if u.baseline else (None, r, status, MatchMethod.NONE, why)
                for r in u.refs
            )
            out.append(
                GeneratedMatch(
                    status,
                    MatchMethod.NONE,
                    why,
                    u.label if u.baseline else None,
                    None if u.baseline else u.label,
                    left,
                    pieces,
                )
            )
    return out
