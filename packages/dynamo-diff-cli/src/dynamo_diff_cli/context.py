"""Options shared by every command (set by the app callback, read by commands)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from dynamo_diff_service import STORE_ENV, default_store_path

__all__ = ["STORE_ENV", "Settings", "default_store"]


@dataclass
class Settings:
    store: Path = field(default_factory=default_store_path)


def default_store() -> Path:
    return default_store_path()
