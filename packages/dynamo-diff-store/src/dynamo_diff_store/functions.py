"""Group one rank's compilations by source function (code object location)."""

from __future__ import annotations

from collections.abc import Sequence

from dynamo_diff_schema.capture import FunctionGroup
from dynamo_diff_schema.compilation import CodeLocation, Compilation

from dynamo_diff_store.counting import count_compilations


def function_key(code: CodeLocation) -> str:
    line = code.co_firstlineno if code.co_firstlineno is not None else "?"
    return f"{code.co_filename or '?'}:{line}:{code.co_name or '?'}"


def group_functions(compilations: Sequence[Compilation], incomplete: set[str]) -> list[FunctionGroup]:
    groups: dict[str, list[Compilation]] = {}
    for comp in compilations:
        groups.setdefault(function_key(comp.code), []).append(comp)
    out = []
    for key, comps in groups.items():
        first = next((c.code for c in comps if c.code.co_firstlineno is not None), comps[0].code)
        out.append(
            FunctionGroup(
                key=key,
                code=first.model_copy(update={"source": None}),
                compile_ids=[c.compile_id for c in comps],
                counts=count_compilations(comps, incomplete),
            )
        )
    return out
