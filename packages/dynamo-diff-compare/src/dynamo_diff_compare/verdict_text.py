"""How a comparability verdict reads: one phrase per difference, and what comes with it, for every front end.

A torch upgrade is one headline ("torch 2.13.0+cpu -> 2.14.1+cu130, and 35 differences that come with it"), not
36 lines; a command is shown by the words that differ; settings that came with a version or a torch.compile
argument are counted under the difference they follow from.
"""

from __future__ import annotations

from collections.abc import Sequence

from dynamo_diff_schema.comparison import ALL_AREAS, Comparability, Difference

from dynamo_diff_compare.consequences import EACH_VERSION_DEFAULT, ONLY_ONE_VERSION
from dynamo_diff_compare.values import value_text


def _value(value: object, limit: int = 60) -> str:
    return value_text(value, limit, quote=True)


def areas_text(d: Difference) -> str:
    if set(d.affects) >= set(ALL_AREAS):
        return "every count"
    return ", ".join(str(a) for a in d.affects)


def difference_phrase(d: Difference) -> str:
    """The difference in a few words: `torch 2.13.0+cpu -> 2.14.1+cu130`, `program 'a.py' -> 'b.py'`, the words
    of two commands that differ, else `key (source): baseline -> candidate`, with why when it is known."""
    if d.key == "torch_version":
        return f"torch {value_text(d.baseline, 40)} -> {value_text(d.candidate, 40)}"
    if d.key == "program":
        return f"different programs: {_value(d.baseline)} -> {_value(d.candidate)}"
    if d.key == "command" and d.why:
        return f"command ({d.source}): {d.why}"
    text = f"{d.key} ({d.source}): {_value(d.baseline)} -> {_value(d.candidate)}"
    return f"{text}, {d.why}" if d.why else text


def followers(comp: Comparability, key: str) -> list[Difference]:
    return [e for e in comp.explained if e.follows_from == key]


def with_it(items: Sequence[Difference], shown: int = 3) -> str:
    """What comes with a difference, grouped: 'torch_git; 4 setting(s) at each version's own default (dynamo.x
    true -> false, ...); 30 setting(s) only one of the versions has'."""
    groups: dict[str, list[Difference]] = {}
    for e in items:
        why = e.why or ""
        if e.key == "torch_git":
            group = "torch_git"
        elif why.startswith(ONLY_ONE_VERSION):
            group = "only"
        elif why.startswith(EACH_VERSION_DEFAULT):
            group = "default"
        elif e.follows_from == "compile.dynamic":
            group = "derived"
        else:
            group = "other"
        groups.setdefault(group, []).append(e)
    parts = []
    if "torch_git" in groups:
        parts.append("torch_git")
    if "derived" in groups:
        parts.append(
            "set by torch from the dynamic argument: "
            + ", ".join(f"{e.key} {_value(e.baseline)} -> {_value(e.candidate)}" for e in groups["derived"])
        )
    if "default" in groups:
        ds = groups["default"]
        example = ", ".join(f"{e.key} {_value(e.baseline, 20)} -> {_value(e.candidate, 20)}" for e in ds[:shown])
        more = f", +{len(ds) - shown} more" if len(ds) > shown else ""
        parts.append(f"{len(ds)} setting(s) at each version's own default ({example}{more})")
    if "only" in groups:
        parts.append(f"{len(groups['only'])} setting(s) only one of the versions has")
    if "other" in groups:
        parts.append("; ".join(f"{difference_phrase(e)}" for e in groups["other"][:shown]))
    return "; ".join(parts)


def coming_with(comp: Comparability, d: Difference) -> str:
    """', and 35 differences that come with it' (empty when nothing does)."""
    n = len(followers(comp, d.key))
    if not n:
        return ""
    return f", and {n} difference{'' if n == 1 else 's'} that come{'s' if n == 1 else ''} with it"


def difference_lines(comp: Comparability, d: Difference, prefix: str = "  ") -> list[str]:
    """A difference with the areas it can change, and under it what comes with it."""
    lines = [f"{prefix}{difference_phrase(d)}{coming_with(comp, d)}; can change {areas_text(d)}"]
    items = followers(comp, d.key)
    if items:
        lines.append(f"    with it: {with_it(items)}")
    return lines


def verdict_headline(comp: Comparability) -> str:
    """The comparability line: `CONFOUNDED: torch 2.13.0 -> 2.14.1, and 35 differences that come with it`."""
    verdict = str(comp.verdict).upper()
    if comp.differences:
        if len(comp.differences) == 1:
            d = comp.differences[0]
            return f"{verdict}: {difference_phrase(d)}{coming_with(comp, d)}"
        return f"{verdict}: {len(comp.differences)} difference(s)"
    if comp.verdict == "unknown":
        return f"{verdict}: {len(comp.checked)} key(s) checked equal, essentials not checked"
    return f"{verdict}: {len(comp.checked)} key(s) checked equal"


def unexplained_harmless(comp: Comparability) -> list[Difference]:
    """Explained differences that follow from nothing: they change nothing counted (a rendezvous port)."""
    return [e for e in comp.explained if e.follows_from is None]


def no_snapshots_message(who: str, has: str = "has") -> str:
    """The `no_source_snapshots` notice's words: 'the baseline has ...', or both sides at once."""
    return f"{who} {has} no source snapshots: functions are matched by file, line and name only, not by their source"
