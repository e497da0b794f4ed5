"""An explicit, one-to-one map from baseline functions to candidate functions, given by the user as JSON.

The text is one JSON object: `{"<baseline id>": "<candidate id>", ...}`. An id is
`<relative path>::<qualified name>`, e.g. `"pkg/model.py::Net.forward"` or `"model.py::f.<locals>.inner"`,
with `@<first line>` appended to pick one of several definitions of the same name in a file
(`"model.py::f@12"`; always accepted). A function without a snapshot has the id
`<relative path, or co_filename when unmapped>::<co_name>@<co_firstlineno>`. Resume functions have no id of
their own: they follow the function they resume.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode


@dataclass(frozen=True)
class UserMap:
    """Validated pairs (baseline id, candidate id), sorted; ids are checked against the runs by `correspond`."""

    pairs: tuple[tuple[str, str], ...]


def split_id(function_id: str) -> tuple[str, str, int | None] | None:
    """(path, qualified name, first line or None) of a well-formed id, else None."""
    path, sep, name = function_id.rpartition("::")
    line: int | None = None
    head, at, tail = name.rpartition("@")
    if at and tail.isdigit():
        name, line = head, int(tail)
    if not sep or not path or not name or "@" in name:
        return None
    return path, name, line


def _invalid(message: str, **details: Any) -> DynamoDiffError:
    return DynamoDiffError(ErrorCode.INVALID_ARGUMENT, message, **details)


def _pairs_no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json.loads keeps the last of duplicate keys silently; a user map must not.
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _invalid(f"User map names baseline function {key!r} twice.", problem="duplicate_key", id=key)
        seen[key] = value
    return seen


def load_user_map(text: str) -> UserMap:
    """Parse and validate a user map; raises DynamoDiffError(INVALID_ARGUMENT) with details["problem"] one of
    "syntax", "not_object", "not_string", "bad_id", "duplicate_key", "duplicate_target"."""
    try:
        data = json.loads(text, object_pairs_hook=_pairs_no_duplicates)
    except json.JSONDecodeError as e:
        raise _invalid(f"User map is not valid JSON: {e.msg} at line {e.lineno}.", problem="syntax") from None
    except RecursionError:
        raise _invalid("User map is nested too deeply.", problem="syntax") from None
    if not isinstance(data, dict):
        raise _invalid("User map must be a JSON object of baseline id to candidate id.", problem="not_object")
    targets: dict[str, str] = {}
    for key, value in data.items():
        if not isinstance(value, str):
            raise _invalid(
                f"User map value for {key!r} must be a candidate id (a string).", problem="not_string", id=key
            )
        for fid in (key, value):
            if split_id(fid) is None:
                raise _invalid(
                    f"User map id {fid!r} is not of the form 'relative/path.py::Qualified.name'.",
                    problem="bad_id",
                    id=fid,
                )
        if value in targets:
            raise _invalid(
                f"User map maps both {targets[value]!r} and {key!r} to {value!r}; the map must be one-to-one.",
                problem="duplicate_target",
                id=value,
            )
        targets[value] = key
    return UserMap(tuple(sorted(data.items())))
