"""`dynamo-diff serve-mcp`: the MCP server for coding agents, when dynamo-diff-mcp is installed.

dynamo-diff-mcp is the CLI's optional extra `mcp` (`pip install "dynamo-diff[mcp]"`): the command imports the MCP
package's entry point `serve` when it runs, and says how to install the extra when it is missing.
"""

from pathlib import Path
from typing import Annotated

import typer

from dynamo_diff_cli.context import Settings
from dynamo_diff_cli.errors import ERROR_EXIT, handles_errors, report_error

INSTALL_HINT = 'the MCP server is not installed: pip install "dynamo-diff[mcp]"'


@handles_errors
def serve_mcp(
    ctx: typer.Context,
    allow_root: Annotated[
        list[Path] | None,
        typer.Option(
            "--allow-root",
            metavar="DIR",
            help="A directory whose traces the server may read (repeatable; at least one).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Serve the comparison model to coding agents over MCP (stdio); reads traces only below --allow-root."""
    from dynamo_diff_schema import DynamoDiffError, ErrorCode

    if not allow_root:
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT,
            "no allowed root: give at least one --allow-root DIR (the server reads traces only below these)",
        )
    try:
        from dynamo_diff_mcp import serve
    except ModuleNotFoundError:  # the extra is not installed (the package, or the MCP SDK it needs)
        report_error(DynamoDiffError(ErrorCode.INVALID_ARGUMENT, INSTALL_HINT))
        raise typer.Exit(ERROR_EXIT) from None
    settings = ctx.find_object(Settings) or Settings()
    serve(settings.store, allow_root)
