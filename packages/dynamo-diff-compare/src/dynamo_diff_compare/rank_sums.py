"""A function's counts in a capture of several ranks are sums over its ranks, and every view says so: `2 (1 per
rank x 2)` when each rank has the same value, `4 (rank 0: 1, rank 1: 3)` when they differ (over four ranks: the
lowest and highest value on a rank and the ranks at the highest). JSON keeps the sums, with `ranks_summed` and,
for each count that differs between ranks, each rank's value (`per_rank`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from dynamo_diff_schema.counts import COUNT_KEYS, Counts

from dynamo_diff_compare.ranks import rank_ranges

# Over this many ranks, differing values are shown as their spread, not rank by rank.
RANKS_LISTED = 4


def rank_text(rank: int | None) -> str:
    return "?" if rank is None else str(rank)


def rank_split(
    per_rank: Iterable[tuple[int | None, Counts]], ranks: list[int | None]
) -> tuple[int | None, dict[str, dict[str, int]]]:
    """(ranks summed, per_rank) of counts summed over `ranks` (every rank of the capture: a rank where the
    function did not compile has 0): (None, {}) for one rank; per_rank holds the counts whose value differs
    between ranks, rank (as text) -> value."""
    if len(ranks) < 2:
        return None, {}
    values = {rank_text(r): dict.fromkeys(COUNT_KEYS, 0) for r in ranks}
    for rank, counts in per_rank:
        row = values.setdefault(rank_text(rank), dict.fromkeys(COUNT_KEYS, 0))
        for key, value in counts.values().items():
            row[key] += value
    split: dict[str, dict[str, int]] = {}
    for key in COUNT_KEYS:
        seen = {rank: row[key] for rank, row in values.items()}
        if len(set(seen.values())) > 1:
            split[key] = seen
    return len(values), split


def summed(total: int, ranks_summed: int | None, values: Mapping[str, int] | None) -> str:
    """A count summed over ranks, saying how it splits: '2 (1 per rank x 2)', '4 (rank 0: 1, rank 1: 3)'."""
    if not ranks_summed or ranks_summed < 2 or total == 0:
        return str(total)
    if not values:
        return f"{total} ({total // ranks_summed} per rank x {ranks_summed})"
    ordered = sorted(values.items(), key=lambda kv: (not kv[0].isdigit(), int(kv[0]) if kv[0].isdigit() else 0))
    if len(ordered) <= RANKS_LISTED:
        return f"{total} (" + ", ".join(f"rank {rank}: {value}" for rank, value in ordered) + ")"
    low, high = min(values.values()), max(values.values())
    at = rank_ranges(int(r) if r.isdigit() else None for r, v in ordered if v == high)
    return f"{total} ({low}-{high} per rank, {high} on rank(s) {at})"
