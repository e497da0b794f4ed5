"""Comparability, per-function rows and renderers for Dynamo Diff comparisons."""

from importlib.metadata import version as _version

__version__ = _version("dynamo-diff-compare")

__all__ = ["__version__"]
