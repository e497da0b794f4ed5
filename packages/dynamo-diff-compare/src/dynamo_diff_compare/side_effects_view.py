"""What a compilation's code changes outside its graph, in a line: `side effects (replayed after the graph):
L['self'].debug (dict) at debug_lm.py:21: self.debug["act"] = ... (ev u1-e4)`."""

from __future__ import annotations

from dynamo_diff_schema.compilation import SideEffect

SIDE_EFFECTS_SAID = 4


def _said(group: list[SideEffect]) -> str:
    """Objects of one type changed at the same lines, in a phrase: torch names a dict per parameter
    (`L['self'].state[list(dict.keys(L['self'].state))[0]]`, `...[1]`), one change each."""
    effect = group[0]
    names = [e.source or "an object" for e in group]
    what = ", ".join(names) if len(names) <= 2 else f"{names[0]} and {len(names) - 1} more like it"
    what += f" ({effect.type})"
    if effect.file is not None:
        what += f" at {effect.file.rsplit('/', 1)[-1]}:{effect.line}" + (f": {effect.code}" if effect.code else "")
    if effect.inside is not None:
        what += f" (in {effect.inside})"
    if effect.sites > 1:
        what += f" (+{effect.sites - 1} more lines)"
    return what


def side_effects_text(effects: list[SideEffect]) -> str:
    """`side effects (replayed after the graph): ...`: objects changed the same way said together, at most
    SIDE_EFFECTS_SAID phrases, the rest counted."""
    groups: dict[tuple[object, ...], list[SideEffect]] = {}
    for e in effects:
        groups.setdefault((e.type, e.file, e.line, e.code, e.inside, e.sites), []).append(e)
    phrases = [_said(g) for g in groups.values()]
    said = phrases[:SIDE_EFFECTS_SAID]
    rest = sum(len(g) for g in list(groups.values())[SIDE_EFFECTS_SAID:])
    ids = ", ".join(dict.fromkeys(e.evidence_id for e in effects if e.evidence_id))
    return (
        "side effects (replayed after the graph): "
        + "; ".join(said)
        + (f"; +{rest} more" if rest > 0 else "")
        + (f" (ev {ids})" if ids else "")
    )
