"""A package's names loaded on first use: each from the module that defines it, and `__version__` from the
installed distribution, so that importing a package loads only what its callers use (the pytest plugin's reading
of a test's trace, docs/PERFORMANCE.md)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_names(package: str, distribution: str, where: Mapping[str, str]) -> Callable[[str], Any]:
    """The module `__getattr__` of `package`: a name of `where` is read from `package.<where[name]>` when first
    asked for, then kept in the package's namespace; `where[name]` may also name another package absolutely
    (`dynamo_diff_store:CaptureResult`, a name kept under another name)."""

    def attribute(name: str) -> Any:
        if name == "__version__":
            from importlib.metadata import version

            value: Any = version(distribution)
        elif name in where:
            module, _, attribute = where[name].partition(":")
            value = getattr(import_module(module if attribute else f"{package}.{module}"), attribute or name)
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        setattr(sys.modules[package], name, value)
        return value

    return attribute
