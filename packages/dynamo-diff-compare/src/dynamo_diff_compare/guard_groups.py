"""A recompilation's failing guards in a few words: torch names one failing guard per older cache entry, so a
value that changes at every call (a counter, a timestamp) names the same guard N times at the N-th recompile. The
text says such a guard once, with each older entry's own value after it; the JSON keeps every reason."""

from __future__ import annotations

import re
from collections.abc import Callable

from dynamo_diff_schema.run_report import GuardLine

# `0/6: G['_updates'] == 6`: the older entry's id, then the guard.
_ENTRY = re.compile(r"^(\[?!?\d+(?:/\d+)+\]?): ")
_OBJECT_ID = re.compile(r"^\d{9,}$")
_LITERAL = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|-?\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\b|\b(?:True|False|None)\b")


def _shape(g: GuardLine) -> tuple[object, ...] | None:
    """What two failing guards must share to be said once: the category, the user line, what the new entry was made
    for, and the guard with its literals left out; None for a guard that says more (what else differs)."""
    m = _ENTRY.match(g.text)
    if m is None or g.also_differs:
        return None
    return (g.category, g.site, g.code, tuple(g.made_for), _LITERAL.sub("?", g.text[m.end() :]))


def _own_values(g: GuardLine, first: GuardLine) -> str:
    """`0/5 (5)`: the older entry and the literals of its guard that differ from the first guard's."""
    entry = _ENTRY.match(g.text)
    head = _ENTRY.match(first.text)
    assert entry is not None and head is not None  # both have a shape
    mine = _LITERAL.findall(g.text[entry.end() :])
    theirs = _LITERAL.findall(first.text[head.end() :])
    # An object's id (`___check_obj_id(act, 140315090860240)`) says nothing to a reader: the entry alone.
    differ = [m for m, t in zip(mine, theirs, strict=True) if m != t and not _OBJECT_ID.match(m)]
    return f"{entry[1]} ({', '.join(differ)})" if differ else entry[1]


def grouped_guards(reasons: list[GuardLine], said: Callable[[GuardLine], str]) -> list[str]:
    """Each failing guard as `said` writes it, in torch's order, except that a run of guards of the same shape is
    written once, followed by `; the same guard failed on 0/5 (5), 0/4 (4), ...` (each older entry with its own
    values)."""
    out: list[str] = []
    i = 0
    while i < len(reasons):
        first, shape = reasons[i], _shape(reasons[i])
        j = i + 1
        while shape is not None and j < len(reasons) and _shape(reasons[j]) == shape:
            j += 1
        text = said(first)
        if j - i > 1:
            text += "; the same guard failed on " + ", ".join(_own_values(g, first) for g in reasons[i + 1 : j])
        out.append(text)
        i = j
    return out
