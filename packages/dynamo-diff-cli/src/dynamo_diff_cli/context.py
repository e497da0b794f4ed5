"""Options shared by every command (set by the app callback, read by commands)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_STORE = ".dynamo-diff"
STORE_ENV = "DYNAMO_DIFF_STORE"


@dataclass
class Settings:
    store: Path = Path(DEFAULT_STORE)


def default_store() -> Path:
    return Path(os.environ.get(STORE_ENV) or DEFAULT_STORE)
