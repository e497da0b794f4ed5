"""MCP server exposing Dynamo Diff comparisons to coding agents.

The public entry points: `serve(store_path, roots)` runs the server on stdio (what `dynamo-diff serve-mcp` and
`dynamo-diff-mcp` call), `create_server(store_path, roots)` builds it for a client of one's own. They load the
server (and the MCP SDK) on first use, so importing the package stays cheap."""

from __future__ import annotations

from importlib.metadata import version as _version
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dynamo_diff_mcp.server import create_server, serve

__version__ = _version("dynamo-diff-mcp")


def __getattr__(name: str) -> Any:
    if name in {"create_server", "serve"}:
        from dynamo_diff_mcp import server

        return getattr(server, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["__version__", "create_server", "serve"]
