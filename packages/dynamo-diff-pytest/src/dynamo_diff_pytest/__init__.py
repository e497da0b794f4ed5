"""A pytest plugin that checks the compile behaviour of torch.compile in a project's own tests.

`plugin` is the module pytest loads (entry point `pytest11`); it imports neither torch nor the analyser until a
test asks for them, so that an installed plugin costs nothing where no test uses it. `__version__` is read from
the installed distribution when first asked for (not when pytest loads the plugin)."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import version

        globals()[name] = version("dynamo-diff-pytest")
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["__version__"]
