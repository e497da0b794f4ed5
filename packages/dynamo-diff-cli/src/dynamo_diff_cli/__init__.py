"""The dynamo-diff command line."""

from __future__ import annotations

from typing import Any

__all__ = ["__version__"]


def __getattr__(name: str) -> Any:
    # Read from the installed metadata on first use: importlib.metadata costs more than the rest of `--help`.
    if name == "__version__":
        from importlib.metadata import version

        value = globals()["__version__"] = version("dynamo-diff-cli")
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
