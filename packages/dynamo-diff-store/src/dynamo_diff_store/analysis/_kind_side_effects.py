"""Side effects: a `dynamo_side_effects` artifact lists the Python objects a compilation's code changes outside its
graph, which torch replays after the graph runs (`Mutating object of type dict (source name: L['self'].debug)`,
then the stack of each change). What each object is, how torch names it, and the user's line that changed it."""

from __future__ import annotations

import re

from dynamo_diff_schema.code_paths import library_path
from dynamo_diff_schema.compilation import SideEffect

from dynamo_diff_store.analysis._facts import Fact
from dynamo_diff_store.analysis._folding import Folding, Identity, RecordKind, payload

SIDE_EFFECTS_KEPT = 8

# torch joins its messages with a line of 40 `=` and the stacks of one object's changes with `********`.
_MESSAGES = re.compile(r"\n\s*={40}\s*\n")
# The first line of a message; a source name may hold parentheses (`L['self'].state[list(dict.keys(...))[0]]`), so it
# runs to the line's last `)`.
_MESSAGE = re.compile(
    r"^Mutating object of type (?P<type>\S+) \((?:source name: (?P<named>[^\n]+)|source: (?P<other>[^\n]+)"
    r"|no source)\)[ \t]*$",
    re.M,
)
_FRAME = re.compile(r'^\s*File "(?P<file>[^"\n]+)", line (?P<line>\d+), in [^\n]+\n(?P<code>[^\n]*)', re.M)


def read_side_effects(text: str) -> list[SideEffect]:
    """The record's payload -> one SideEffect per object, in torch's order (evidence ids are set when folded)."""
    out: list[SideEffect] = []
    for message in _MESSAGES.split(text.strip()):
        m = _MESSAGE.match(message.strip())
        if m is None:
            continue
        sites: dict[tuple[str, int, str], None] = {}
        inside: str | None = None
        for stack in message.split("********"):
            frames = list(_FRAME.finditer(stack))
            user = [f for f in frames if library_path(f["file"]) is None]
            if user:
                last = user[-1]
                sites[(last["file"][-300:], int(last["line"]), last["code"].strip()[:200])] = None
            where = library_path(frames[-1]["file"]) if frames else None
            if inside is None and where is not None:  # the change itself is in torch's or a library's code
                inside = f"{where[-200:]}:{frames[-1]['line']}: {frames[-1]['code'].strip()[:200]}"
        first = next(iter(sites), None)
        out.append(
            SideEffect(
                type=m["type"][:100],
                source=(m["named"] or m["other"] or "")[:200] or None,
                file=first[0] if first else None,
                line=first[1] if first else None,
                code=first[2] if first else None,
                sites=len(sites),
                inside=inside,
            )
        )
    return out


def _fold_side_effects(folding: Folding, fact: Fact, ident: Identity) -> None:
    ev = folding.evidence(fact, fact.name or fact.kind, ident)
    for effect in fact.data or []:
        if len(ident.side_effects) < SIDE_EFFECTS_KEPT:
            ident.side_effects.append(effect.model_copy(update={"evidence_id": ev}))


DYNAMO_SIDE_EFFECTS = RecordKind(
    "artifact:dynamo_side_effects", extract=payload(read_side_effects), fold=_fold_side_effects, compiling=True
)
