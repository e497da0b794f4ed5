"""The dynamo-diff command line."""

from importlib.metadata import version as _version

__version__ = _version("dynamo-diff-cli")

__all__ = ["__version__"]
