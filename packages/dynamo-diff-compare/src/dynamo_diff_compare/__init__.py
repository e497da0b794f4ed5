"""Comparability, per-function rows, deltas and renderers for Dynamo Diff (works on schema models only)."""

from importlib.metadata import version as _version

from dynamo_diff_compare.capture_view import capture_markdown, capture_text

__version__ = _version("dynamo-diff-compare")

__all__ = ["__version__", "capture_markdown", "capture_text"]
