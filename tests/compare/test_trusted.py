"""`trusted` builds the same models `model_construct` does, from values taken out of validated captures."""

from __future__ import annotations

from typing import Any

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


def test_rows_are_built_as_model_construct_builds_them() -> None:
    """Rows skip validation (their values come from validated models) through a shortcut of model_construct."""
    from dynamo_diff_compare.trusted import trusted
    from dynamo_diff_schema.comparison import FunctionPiece, FunctionRow, FunctionSide, MatchMethod, RowStatus
    from dynamo_diff_schema.counts import Counts

    side = {"qualified_name": "f", "name_from": "trace", "file": "m.py", "line": 3, "counts": Counts(completed=1)}
    row = {"status": RowStatus.MATCHED, "method": MatchMethod.STRUCTURE, "reason": "r", "baseline": None}
    full = {name: side.get(name) for name in FunctionSide.model_fields} | {"rank": 0, "compile_ids": ["0/0"]}
    assert tuple(full) == tuple(FunctionSide.model_fields)  # every field, in field order: the shortcut's shortcut
    cases = ((FunctionSide, side), (FunctionSide, full), (FunctionRow, row), (FunctionPiece, {"name": "g", **row}))
    for cls, values in cases:
        trusted(cls, **values)  # the first object of a class is model_construct's own (checked against the shortcut)
        fast, slow = trusted(cls, **values), cls.model_construct(**values)  # type: ignore[attr-defined]
        assert fast == slow
        assert list(fast.__dict__) == list(slow.__dict__)
        assert fast.model_fields_set == slow.model_fields_set
        assert fast.model_dump_json() == slow.model_dump_json()


def test_a_pydantic_that_builds_models_otherwise_gets_model_construct(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The shortcut checks itself against model_construct on a class's first object; a difference (what another
    pydantic version might bring) sends that class back to model_construct for good."""
    from dynamo_diff_compare import trusted as module
    from dynamo_diff_schema.comparison import Totals
    from dynamo_diff_schema.counts import Counts

    monkeypatch.setattr(module, "_FIELDS", {})
    monkeypatch.setattr(module, "_NAMES", {})
    real = module._built

    def otherwise(cls, values):  # type: ignore[no-untyped-def]
        model = real(cls, values)
        object.__setattr__(model, "__pydantic_fields_set__", set())  # not what model_construct sets
        return model

    monkeypatch.setattr(module, "_built", otherwise)
    values = {"baseline": Counts(completed=1), "candidate": Counts(completed=2)}
    for _ in range(3):
        built = module.trusted(Totals, **values)
        assert built.model_fields_set == {"baseline", "candidate"}
    assert module._FIELDS[Totals] is None


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
