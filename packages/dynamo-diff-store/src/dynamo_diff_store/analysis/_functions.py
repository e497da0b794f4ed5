"""Group one rank's compilations by source function (code object location), one compilation at a time."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from dynamo_diff_schema.capture import FunctionGroup
from dynamo_diff_schema.compilation import CodeLocation, Compilation

from dynamo_diff_store.analysis._counting import CountAccumulator


def function_key(code: CodeLocation) -> str:
    """The code object, and for a library frame the user's call it was attributed to (a frame such as torch's
    shared `inner` wrapper, called from two user functions, is two groups)."""
    line = code.co_firstlineno if code.co_firstlineno is not None else "?"
    key = f"{code.co_filename or '?'}:{line}:{code.co_name or '?'}"
    if code.caller is not None:
        key += f" <- {code.caller.filename}:{code.caller.line}:{code.caller.name}"
    return key


@dataclass
class _Group:
    code: CodeLocation
    compile_ids: list[str] = field(default_factory=list)
    counts: CountAccumulator = field(default_factory=CountAccumulator)
    incomplete: set[str] = field(default_factory=set)


class FunctionGrouper:
    """Functions in order of their first compilation; each counted from its own compilations only."""

    def __init__(self) -> None:
        self._groups: dict[str, _Group] = {}

    def add(self, comp: Compilation, incomplete: Iterable[str] = ()) -> None:
        """`incomplete`: count keys this compilation's evidence leaves possibly low."""
        group = self._groups.get(function_key(comp.code))
        if group is None:
            group = self._groups[function_key(comp.code)] = _Group(code=comp.code)
        elif group.code.co_firstlineno is None and comp.code.co_firstlineno is not None:
            group.code = comp.code
        group.compile_ids.append(comp.compile_id)
        group.counts.add(comp)
        group.incomplete.update(incomplete)

    def functions(self) -> list[FunctionGroup]:
        return [
            FunctionGroup(
                key=key,
                code=group.code.model_copy(update={"source": None}),
                compile_ids=group.compile_ids,
                counts=group.counts.counts(group.incomplete),
            )
            for key, group in self._groups.items()
        ]
