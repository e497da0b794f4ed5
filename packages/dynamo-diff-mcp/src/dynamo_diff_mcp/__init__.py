"""MCP server exposing Dynamo Diff comparisons to coding agents."""

from importlib.metadata import version as _version

__version__ = _version("dynamo-diff-mcp")

__all__ = ["__version__"]
