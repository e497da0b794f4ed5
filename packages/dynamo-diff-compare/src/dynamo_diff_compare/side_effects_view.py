"""What a compilation's code changes outside its graph, in a line: `side effects (replayed after the graph):
L['self'].debug (dict) at debug_lm.py:21: self.debug["act"] = ... (ev u1-e4)`."""

from __future__ import annotations

from dynamo_diff_schema.compilation import SideEffect

SIDE_EFFECTS_SAID = 4


def _one(effect: SideEffect) -> str:
    what = f"{effect.source or 'an object'} ({effect.type})"
    if effect.file is None:
        return what
    at = f" at {effect.file.rsplit('/', 1)[-1]}:{effect.line}" + (f": {effect.code}" if effect.code else "")
    more = f" (+{effect.sites - 1} more lines)" if effect.sites > 1 else ""
    return what + at + more


def side_effects_text(effects: list[SideEffect]) -> str:
    """`side effects (replayed after the graph): ...`, at most SIDE_EFFECTS_SAID, the rest counted."""
    said = [_one(e) for e in effects[:SIDE_EFFECTS_SAID]]
    rest = len(effects) - len(said)
    ids = ", ".join(dict.fromkeys(e.evidence_id for e in effects if e.evidence_id))
    return (
        "side effects (replayed after the graph): "
        + "; ".join(said)
        + (f"; +{rest} more" if rest > 0 else "")
        + (f" (ev {ids})" if ids else "")
    )
