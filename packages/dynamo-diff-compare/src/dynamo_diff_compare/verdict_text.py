"""How a comparability verdict reads: one phrase per difference, and what comes with it, for every front end.

A torch upgrade is one headline ("torch upgrade 2.13.0+cpu -> 2.14.1+cu130, and 35 differences that come with it"),
not 36 lines, and says which of the other differences the user set; each difference says what its key changes
(effects.py); a command is shown by the words that differ; settings that came with a version or a torch.compile
argument are counted under the difference they follow from.
"""

from __future__ import annotations

from collections.abc import Sequence

from dynamo_diff_schema.comparison import ALL_AREAS, Comparability, Difference
from dynamo_diff_schema.lists import head, joined

from dynamo_diff_compare.consequences import EACH_VERSION_DEFAULT, ONLY_ONE_VERSION
from dynamo_diff_compare.effects import effect
from dynamo_diff_compare.values import value_text


def _value(value: object, limit: int = 60) -> str:
    return value_text(value, limit, quote=True)


def areas_text(d: Difference) -> str:
    if set(d.affects) >= set(ALL_AREAS):
        return "every count"
    return ", ".join(str(a) for a in d.affects)


_USER_SET = "set by the user"


def _release(version: object) -> tuple[int, ...] | None:
    """'2.14.1+cu130' -> (2, 14, 1); None when it does not start with numbers."""
    parts = []
    for part in str(version).split("+", 1)[0].split("."):
        digits = "".join(ch for ch in part if ch.isdigit()) if part[:1].isdigit() else ""
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts) or None


def torch_change(baseline: object, candidate: object) -> str:
    """'torch upgrade', 'torch downgrade' or 'another torch build' (same release, another build tag)."""
    b, c = _release(baseline), _release(candidate)
    if b is None or c is None:
        return "another torch"
    return "torch upgrade" if c > b else "torch downgrade" if c < b else "another torch build"


def difference_phrase(d: Difference) -> str:
    """The difference in a few words: `torch upgrade 2.13.0+cpu -> 2.14.1+cu130`, `program 'a.py' -> 'b.py'`, the
    words of two commands that differ, else `key (source): baseline -> candidate`, with why when it is known."""
    if d.key == "torch_version":
        return f"{torch_change(d.baseline, d.candidate)} {value_text(d.baseline, 40)} -> {value_text(d.candidate, 40)}"
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
        listed = ds if len(ds) <= shown + 2 else ds[:shown]
        example = ", ".join(f"{e.key} {_value(e.baseline, 20)} -> {_value(e.candidate, 20)}" for e in listed)
        more = f", and {len(ds) - len(listed)} more in the JSON's explained" if len(ds) > len(listed) else ""
        parts.append(
            f"{len(ds)} default(s) torch changed between the versions, each side at its own version's default "
            f"({example}{more})"
        )
    if "only" in groups:
        per_version: dict[str, int] = {}
        for e in groups["only"]:
            version = (e.why or "")[len(ONLY_ONE_VERSION) :].strip().removesuffix(" has")
            per_version[version] = per_version.get(version, 0) + 1
        split = ", ".join(f"{n} only in {v}" for v, n in per_version.items() if v)
        parts.append(
            f"{len(groups['only'])} setting(s) only one of the versions has" + (f" ({split})" if split else "")
        )
    if "other" in groups:
        parts.append("; ".join(f"{difference_phrase(e)}" for e in groups["other"][:shown]))
    return "; ".join(parts)


def coming_with(comp: Comparability, d: Difference) -> str:
    """', and 35 differences that come with it' (empty when nothing does)."""
    n = len(followers(comp, d.key))
    if not n:
        return ""
    return f", and {n} difference{'' if n == 1 else 's'} that come{'s' if n == 1 else ''} with it"


def effect_text(d: Difference) -> str:
    """What the key changes ('changes how often a function may recompile ...'), from the document or its table."""
    return d.effect or effect(d.key)


def difference_lines(comp: Comparability, d: Difference, prefix: str = "  ") -> list[str]:
    """A difference with the areas it can change and what it changes, and under it what comes with it."""
    lines = [
        f"{prefix}{difference_phrase(d)}{coming_with(comp, d)}; can change {areas_text(d)}",
        f"    effect: {effect_text(d)}",
    ]
    items = followers(comp, d.key)
    if items:
        lines.append(f"    with it: {with_it(items)}")
    return lines


def user_set(differences: Sequence[Difference]) -> list[Difference]:
    """The differences the observer saw the user set (not a version's own default)."""
    return [d for d in differences if (d.why or "").startswith(_USER_SET)]


def verdict_headline(comp: Comparability) -> str:
    """The comparability line: `CONFOUNDED: torch upgrade 2.13.0 -> 2.14.1, and 35 differences that come with
    it`; beside a torch upgrade, how many other differences there are and which settings the user set."""
    verdict = str(comp.verdict).upper()
    if comp.assumed:
        said, _ = head([difference_phrase(d) for d in comp.intended if d.key in comp.assumed], 3)
        more = f" (+{len(comp.assumed) - len(said)} more)" if len(comp.assumed) > len(said) and said else ""
        only = "the only difference" if len(comp.assumed) == 1 else "the only differences"
        return (
            f"{verdict}, ASSUMING the change under test is {'; '.join(said) or ', '.join(comp.assumed)}{more} "
            f"({only}; the gate does not assume it)"
        )
    if comp.differences:
        if len(comp.differences) == 1:
            d = comp.differences[0]
            return f"{verdict}: {difference_phrase(d)}{coming_with(comp, d)}"
        torch = next((d for d in comp.differences if d.key == "torch_version"), None)
        if torch is not None:
            others = [d for d in comp.differences if d is not torch]
            mine = user_set(others)
            text = f"{verdict}: {difference_phrase(torch)}{coming_with(comp, torch)}; {len(others)} other difference(s)"
            if mine:
                shown = joined([d.key for d in mine], 3, more=", +{n}")
                text += f", {len(mine)} of them set by the user ({shown})"
            return text
        mine = user_set(comp.differences)
        text = f"{verdict}: {len(comp.differences)} difference(s)"
        return text + (f", {len(mine)} set by the user" if mine else "")
    if comp.verdict == "unknown":
        return f"{verdict}: {len(comp.checked)} key(s) checked equal, essentials not checked"
    return f"{verdict}: {len(comp.checked)} key(s) checked equal"


def unexplained_harmless(comp: Comparability) -> list[Difference]:
    """Explained differences that follow from nothing: they change nothing counted (a rendezvous port)."""
    return [e for e in comp.explained if e.follows_from is None]


def no_snapshots_message(who: str, has: str = "has") -> str:
    """The `no_source_snapshots` notice's words: 'the baseline has ...', or both sides at once."""
    return f"{who} {has} no source snapshots: functions are matched by file, line and name only, not by their source"
