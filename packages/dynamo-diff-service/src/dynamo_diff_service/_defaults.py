"""Where the store is when nobody says: $DYNAMO_DIFF_STORE, else .dynamo-diff in the current directory."""

from __future__ import annotations

import os
from pathlib import Path

STORE_ENV = "DYNAMO_DIFF_STORE"
DEFAULT_STORE = ".dynamo-diff"


def default_store_path() -> Path:
    return Path(os.environ.get(STORE_ENV) or DEFAULT_STORE)
