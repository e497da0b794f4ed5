"""Source-function identities and cross-run correspondence for Dynamo Diff."""

from importlib.metadata import version as _version

__version__ = _version("dynamo-diff-match")

__all__ = ["__version__"]
