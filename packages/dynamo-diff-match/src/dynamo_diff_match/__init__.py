"""Source-function identities and cross-run correspondence for Dynamo Diff."""

from importlib.metadata import version as _version

from dynamo_diff_match.spans import function_span

__version__ = _version("dynamo-diff-match")

__all__ = ["__version__", "function_span"]
