"""The functions a capture compiled, with their compilations and counts summed over ranks."""

from __future__ import annotations

from dataclasses import dataclass, field

from dynamo_diff_match import CallSite, FunctionRef, Generated, SnapshotSet
from dynamo_diff_schema.capture import Capture, FunctionGroup
from dynamo_diff_schema.code_paths import library_path
from dynamo_diff_schema.compilation import Compilation, StackFrame
from dynamo_diff_schema.counts import Counts, sum_counts

from dynamo_diff_compare.generated import generated_form, generated_frames
from dynamo_diff_compare.rank_sums import rank_split
from dynamo_diff_compare.targets import MODULE_LEVEL, compiled_targets, top_level_site, with_target


@dataclass
class Observed:
    """One source function (code object location) of one capture, over all its ranks."""

    ref: FunctionRef
    groups: list[tuple[int | None, FunctionGroup]] = field(default_factory=list)
    compilations: list[tuple[int | None, Compilation]] = field(default_factory=list)
    # Every rank of the capture (its counts are summed over them, 0 on a rank where it did not compile).
    capture_ranks: list[int | None] = field(default_factory=list)

    @property
    def counts(self) -> Counts:
        return sum_counts(group.counts for _, group in self.groups)

    def rank_split(self) -> tuple[int | None, dict[str, dict[str, int]]]:
        """(ranks summed, per-rank values of the headline counts that differ between ranks): rank_sums.py."""
        return rank_split(((rank, group.counts) for rank, group in self.groups), self.capture_ranks)

    @property
    def ranks(self) -> list[int | None]:
        return sorted({rank for rank, _ in self.groups}, key=lambda r: (r is None, r or 0))

    def compile_ids(self, multi_rank: bool) -> list[str]:
        if not multi_rank:
            return [c.compile_id for _, c in self.compilations]
        return [f"rank {'?' if rank is None else rank}:{c.compile_id}" for rank, c in self.compilations]


def ref_of(group: FunctionGroup, generated: Generated | None = None, site: StackFrame | None = None) -> FunctionRef:
    """The observed function of a group; a made-up file name (generated code) without its counters. `site`: its
    call (`code.caller`, else `targets.top_level_site`)."""
    code = group.code
    site = site or code.caller
    file = code.co_filename or "?"
    return FunctionRef(
        file=generated_form(file) or file,
        first_line=code.co_firstlineno or 0,
        name=code.co_name or "?",
        caller=None if site is None else CallSite(site.filename, site.line or 0, site.name or "?"),
        generated=generated,
    )


def _site(group: FunctionGroup, by_id: dict[str, Compilation]) -> StackFrame | None:
    """A group's call: torch's stack's (`code.caller`), else the observer's where torch's names none
    (`top_level_site`). A library frame whose stack names only the script's top level as its caller, while its own
    graph break's user stack holds a user function that called into it, is that function's: torch's `dynamo_start`
    stack leaves out the user frames running between the compiled entry and the library frame (a frame torch
    skipped after a failure runs eagerly there), the break's traceback has them (`cached_property.__get__` reached
    from `rotate`, not from the module's call)."""
    caller = group.code.caller
    if caller is None:
        return top_level_site(group, by_id)
    if caller.name != MODULE_LEVEL:
        return caller
    for cid in group.compile_ids:
        c = by_id.get(cid)
        for gb in c.graph_breaks if c is not None else []:
            users = [f for f in gb.user_stack if f.filename and library_path(f.filename) is None]
            if users and users[-1].name not in (None, MODULE_LEVEL):
                return users[-1]
    return caller


def observed_functions(capture: Capture, sources: SnapshotSet | None = None) -> dict[FunctionRef, Observed]:
    """`sources`: the run's snapshots, which tell whether a library frame's caller is the function that compiled
    the model (its row is then named by the compiled target, `targets.py`)."""
    out: dict[FunctionRef, Observed] = {}
    # Each rank's groups with their call: torch's stack's, else the observer's where torch's names none.
    sited = []
    for rank in capture.ranks:
        by_id = {c.compile_id: c for c in rank.compilations}
        sited.append([(g, _site(g, by_id), by_id) for g in rank.functions])
    targets = compiled_targets(
        capture, ((g, site) for groups in sited for g, site, _ in groups), sources or SnapshotSet({}, {})
    )
    ranks = [rank.rank for rank in capture.ranks]
    for rank, groups in zip(capture.ranks, sited, strict=True):
        generated = {key: Generated(*frame) for key, frame in generated_frames(rank).items()}
        for group, site, by_id in groups:
            ref = with_target(ref_of(group, generated.get(group.key), site), targets)
            entry = out.setdefault(ref, Observed(ref, capture_ranks=ranks))
            entry.groups.append((rank.rank, group))
            entry.compilations.extend((rank.rank, by_id[cid]) for cid in group.compile_ids if cid in by_id)
    return out
