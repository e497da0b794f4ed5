#!/usr/bin/env python3
"""What typical MCP tool results cost an agent (tests/mcp/typical_calls.py): characters of the text and of the
structured content of each, by default (the document's outline) and with full=true (the whole document), and of
the tool listing and the server's instructions. Each call runs on a fresh in-memory client over a fresh store.

    uv run python tools/mcp_sizes.py          # markdown tables, as in docs/INTEGRATIONS.md
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from anyio.from_thread import start_blocking_portal
from dynamo_diff_mcp.roots import AllowedRoots
from dynamo_diff_mcp.server import INSTRUCTIONS, create_server
from mcp import Client
from mcp.types import CallToolResult

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.mcp.typical_calls import TYPICAL, listing_chars, structured_chars, text_chars  # noqa: E402

FIXTURES = ROOT / "fixtures"


def main() -> int:
    rows = []
    with tempfile.TemporaryDirectory(prefix="mcp-sizes-") as tmp, start_blocking_portal() as portal:
        for n, (name, make) in enumerate(TYPICAL):
            server = create_server(Path(tmp) / str(n), AllowedRoots([FIXTURES]))
            manager = portal.wrap_async_context_manager(Client(server))
            client = manager.__enter__()
            try:

                def call(tool: str, _client: Any = client, **arguments: Any) -> CallToolResult:
                    result: CallToolResult = portal.call(_client.call_tool, tool, arguments)
                    return result

                if n == 0:
                    listing = listing_chars(portal.call(client.list_tools), None)
                default, whole = make(call, {}), make(call, {"full": True})
            finally:
                manager.__exit__(None, None, None)
            rows.append((name, text_chars(default), structured_chars(default), structured_chars(whole)))
    print("| call | text | structured (outline) | outline / text | full=true: structured |")
    print("|---|---:|---:|---:|---:|")
    for name, text, structured, entire in rows:
        print(f"| {name} | {text:,} | {structured:,} | {structured / text:.2f} | {entire:,} |")
    texts, outlines, wholes = (sum(int(r[i]) for r in rows) for i in (1, 2, 3))
    print(f"| all {len(rows)} | {texts:,} | {outlines:,} | {outlines / texts:.2f} | {wholes:,} |")
    print(f"\ntool listing (tools/list as JSON): {listing:,} characters; server instructions: {len(INSTRUCTIONS):,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
