"""Common base for every public model: strict (unknown fields are an error) and immutable."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=True, defer_build=True)
