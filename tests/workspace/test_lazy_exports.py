"""Packages whose names load on first use (schema, store, compare, service, cli: dynamo_diff_*) export the
same objects however they are reached: after every submodule has been imported, in either order."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import types

import pytest

LAZY = ["dynamo_diff_schema", "dynamo_diff_store", "dynamo_diff_compare", "dynamo_diff_service", "dynamo_diff_cli"]


@pytest.mark.parametrize("package", LAZY)
def test_each_exported_name_is_what_its_module_defines_after_every_submodule_is_imported(package: str) -> None:
    probe = f"""
import importlib, pkgutil, types, sys
pkg = importlib.import_module({package!r})
for info in pkgutil.walk_packages(pkg.__path__, {package!r} + "."):
    importlib.import_module(info.name)
bad = [name for name in pkg.__all__ if isinstance(getattr(pkg, name), types.ModuleType)]
print(", ".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize("package", LAZY)
def test_every_exported_name_resolves(package: str) -> None:
    pkg = importlib.import_module(package)
    for name in pkg.__all__:
        value = getattr(pkg, name)
        assert not isinstance(value, types.ModuleType), name
    assert isinstance(pkg.__version__, str)
    assert [info.name for info in pkgutil.iter_modules(pkg.__path__)]
