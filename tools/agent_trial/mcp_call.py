#!/usr/bin/env python3
"""The MCP arm: start the stdio server named by --server, then either print its instructions and tool listing
(--list) or make one tool call and print its text and its structured content; log the call and the characters of
each part."""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import sys
from typing import Any

from _log import cut, record
from mcp import Client
from mcp.client.stdio import StdioServerParameters


async def _run(server: list[str], tool: str | None, arguments: dict[str, Any]) -> tuple[str, dict[str, int]]:
    params = StdioServerParameters(command=server[0], args=server[1:])
    async with Client(params) as client:
        if tool is None:
            listing = await client.list_tools()
            tools = json.dumps(listing.model_dump(mode="json", exclude_none=True)["tools"], separators=(",", ":"))
            instructions = client.instructions or ""
            text = f"instructions: {instructions}\ntools: {tools}\n"
            return text, {"listing": len(text)}
        result = await client.call_tool(tool, arguments)
        text = "".join(getattr(c, "text", "") for c in result.content)
        structured = result.structured_content
        shown = json.dumps(structured, separators=(",", ":")) if structured is not None else ""
        error = " (error)" if result.is_error else ""
        out = f"text{error}:\n{text}\n" + (f"structured:\n{shown}\n" if shown else "")
        return out, {"text": len(text), "structured": len(shown)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--log")
    parser.add_argument("--server", required=True, help="the server's command line")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("tool", nargs="?")
    parser.add_argument("arguments", nargs="?", default="{}")
    args = parser.parse_args()
    if not args.list and not args.tool:
        parser.error("name a tool, or --list")
    try:
        arguments = json.loads(args.arguments)
    except json.JSONDecodeError as err:
        sys.stdout.write(f"arguments are not JSON: {err}\n")
        return 0
    try:
        out, parts = asyncio.run(_run(shlex.split(args.server), None if args.list else args.tool, arguments))
    except Exception as err:  # the server did not start or the connection broke: one line, as a client says it
        out, parts = f"the MCP call failed: {type(err).__name__}: {err}\n", {}
    shown = cut(out)
    sys.stdout.write(shown)
    call = "tools/list" if args.list else f"{args.tool} {json.dumps(arguments)}"
    record(args.log, "mcp", call, len(shown), **parts)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
