"""`trusted` builds the same models `model_construct` does, from values taken out of validated captures."""

from __future__ import annotations

from typing import Any

import pytest
from dynamo_diff_compare.trusted import trusted
from dynamo_diff_schema import Counts, FunctionRow, FunctionSide, MatchMethod, RowStatus
from dynamo_diff_schema.base import Model
from pydantic import Field


def _same(a: Model, b: Model) -> None:
    assert type(a) is type(b)
    assert list(a.__dict__) == list(b.__dict__)  # field order, which model_dump_json follows
    assert a.__dict__ == b.__dict__
    assert a.model_fields_set == b.model_fields_set
    assert a.model_dump_json() == b.model_dump_json()
    assert a == b


SIDE: dict[str, Any] = {
    "qualified_name": "Model.forward",
    "name_from": "source",
    "file": "model.py",
    "line": 12,
    "counts": Counts(completed=2, failed=1),
    "compile_ids": ["0/0", "0/1"],
}


@pytest.mark.parametrize(
    "values",
    [
        SIDE,
        {name: SIDE[name] for name in reversed(list(SIDE))},  # any order of keywords
        {"counts": Counts()},  # defaults (and default factories) filled in, not marked as set
        {
            name: SIDE.get(name, [] if name == "compile_ids" else {} if name == "per_rank" else None)
            for name in FunctionSide.model_fields
        },  # every field, in field order
    ],
    ids=["some", "reversed", "one", "all"],
)
def test_trusted_builds_what_model_construct_builds(values: dict[str, Any]) -> None:
    for _ in range(2):  # the first object of a class is checked against model_construct, the later ones are not
        _same(trusted(FunctionSide, **values), FunctionSide.model_construct(**values))


def test_default_factories_give_each_object_its_own_value() -> None:
    row: dict[str, Any] = {"status": RowStatus.MATCHED, "method": MatchMethod.STRUCTURE}
    first, second = trusted(FunctionRow, **row), trusted(FunctionRow, **row)
    for name, info in FunctionRow.model_fields.items():
        if info.default_factory is not None:
            value = getattr(first, name)
            assert value == getattr(second, name)
            if isinstance(value, list | dict):
                assert value is not getattr(second, name), name


class _Aliased(Model):
    value: int = Field(alias="v")


def test_a_model_with_aliases_goes_through_model_construct() -> None:
    _same(trusted(_Aliased, v=3), _Aliased.model_construct(v=3))
    assert trusted(_Aliased, v=3).value == 3


def test_a_trusted_model_validates_like_any_other_when_rendered() -> None:
    side = trusted(FunctionSide, **SIDE)
    assert FunctionSide.model_validate_json(side.model_dump_json()) == side


def test_the_fast_path_holds_with_the_installed_pydantic() -> None:
    """Should pydantic build models differently, `trusted` falls back to model_construct (right, but a sixth of a
    large comparison slower): this says so when it happens."""
    from dynamo_diff_compare import trusted as module

    for cls, values in ((FunctionSide, SIDE), (FunctionRow, {"status": "matched", "method": "structure"})):
        trusted(cls, **values)
        assert module._FIELDS[cls] is not None, cls
