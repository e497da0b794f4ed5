"""Building schema models from values that are already valid, fast: what `model_construct` does, with its per-field
checks made once per class.

The comparison builds tens of thousands of rows and sides from values taken out of validated captures; re-validating
them cost a third of a large comparison, and `model_construct` itself a sixth (tools/bench/compare_scaling.py). The
comparison is validated as a whole when it is rendered as JSON. This is the one place that writes a pydantic
model's own attributes: `trusted(cls, **values)` gives the same object `cls.model_construct(**values)` would (the same
`__dict__` in field order, the same fields set, defaults filled in), and checks that on the first object of each
class, falling back to `model_construct` for good should the installed pydantic build models differently. Models
with aliases, extra fields, private attributes, a root or a post-init hook always go through `model_construct`.
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

from dynamo_diff_schema.base import Model

M = TypeVar("M", bound=Model)


# What `model_construct` does for a model without aliases, extra fields, private attributes or post-init hook, with
# the per-field checks it makes on every call done once per class. Rows are built from already-validated values
# (the comparison is validated when it is rendered as JSON); building 30,000 of them with `model_construct` took a
# sixth of a large comparison.
_FIELDS: dict[type[Model], list[tuple[str, bool, Any]] | None] = {}
_NAMES: dict[type[Model], tuple[str, ...]] = {}


def trusted(cls: type[M], **values: Any) -> M:
    """`cls.model_construct(**values)` (same `__dict__`, in field order, and the same fields set)."""
    if cls not in _FIELDS:
        _FIELDS[cls] = _plain_fields(cls)
        _NAMES[cls] = tuple(cls.model_fields)
        if _FIELDS[cls] is not None:
            # The first object is built both ways: should the installed pydantic build models differently from
            # what this stands in for, the class goes back to `model_construct` for good.
            slow = cast(M, cls.model_construct(**values))
            if _built(cls, dict(values)).__getstate__() != slow.__getstate__():
                _FIELDS[cls] = None
            return slow
    if _FIELDS[cls] is None:
        return cast(M, cls.model_construct(**values))
    return _built(cls, values)


def _built(cls: type[M], values: dict[str, Any]) -> M:
    fields = _FIELDS[cls]
    assert fields is not None
    given: dict[str, Any]
    if tuple(values) == _NAMES[cls]:
        given = values  # every field, in field order (as the callers below give them): nothing to add or reorder
    else:
        given = {}
        for name, required, field in fields:
            if name in values:
                given[name] = values[name]
            elif not required:
                given[name] = field.get_default(call_default_factory=True, validated_data=given)
    model = cls.__new__(cls)
    object.__setattr__(model, "__dict__", given)
    object.__setattr__(model, "__pydantic_fields_set__", values.keys() & given.keys())
    object.__setattr__(model, "__pydantic_extra__", None)
    object.__setattr__(model, "__pydantic_private__", None)
    return model


def _plain_fields(cls: type[Model]) -> list[tuple[str, bool, Any]] | None:
    """(name, required, field info) of each field, or None when `trusted` cannot stand in for model_construct."""
    plain = (
        cls.model_config.get("extra") != "allow"
        and not cls.__pydantic_root_model__
        and not cls.__pydantic_post_init__
        and not cls.__private_attributes__
        and all(f.alias is None and f.validation_alias is None for f in cls.model_fields.values())
    )
    return [(name, f.is_required(), f) for name, f in cls.model_fields.items()] if plain else None
