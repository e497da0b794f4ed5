"""How two runs' values of one setting are compared: places in the environment are not settings, and one value
has one text whatever its key order."""

from __future__ import annotations

import json
import re
from typing import Any

# Values that only name a place in the environment (a temp dir, a home dir, a venv) are not configuration.
_PATHLIKE = re.compile(r"^(?:/|~|[A-Za-z]:[\\/])")
PATH_PLACEHOLDER = "<path>"


def normalize(value: Any) -> Any:
    """Config values with environment paths replaced by a placeholder (recursively)."""
    if isinstance(value, str):
        return PATH_PLACEHOLDER if _PATHLIKE.match(value) else value
    if isinstance(value, list):
        return [normalize(v) for v in value]
    if isinstance(value, dict):
        return {k: normalize(v) for k, v in value.items()}
    return value


def canonical(value: Any) -> str:
    """One text per value, so lists of call descriptions compare by content, not by key order."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
