"""The MCP server under test, reached through the SDK's in-memory client, with a private store.

`call(tool, **arguments)` is synchronous (an anyio blocking portal runs the client) and checks the promise
every response keeps: its JSON is shorter than RESPONSE_LIMIT characters (PAGED_RESPONSE_LIMIT when the call names
its page_size, and analyze_capture of one function).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import start_blocking_portal
from dynamo_diff_mcp.budget import PAGED_RESPONSE_LIMIT, RESPONSE_LIMIT
from dynamo_diff_mcp.roots import AllowedRoots
from dynamo_diff_mcp.server import create_server
from mcp import Client
from mcp.types import CallToolResult, TextContent

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
CAPTURES = FIXTURES / "captures"
CORPUS = FIXTURES / "corpus"

Call = Callable[..., CallToolResult]


def size_of(result: Any) -> int:
    return len(result.model_dump_json(by_alias=True, exclude_none=True))


def text_of(result: CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


def error_code(result: CallToolResult) -> str:
    assert result.is_error, text_of(result)
    assert result.meta is not None
    info = result.meta["dynamo-diff/error"]
    # The text is the message and, when the error has a hint, the tool call it words (dynamo_diff_mcp.hints).
    plain = f"error[{info['code']}]: {info['message']}"
    assert text_of(result) == plain if info.get("hint") is None else text_of(result).startswith(plain + " (")
    return str(info["code"])


class Session:
    def __init__(self, call: Call, list_tools: Callable[[], Any], store: Path) -> None:
        self.call = call
        self.list_tools = list_tools
        self.store = store


@pytest.fixture
def connect(tmp_path: Path) -> Iterator[Callable[..., Session]]:
    """connect(*roots) -> a Session with a fresh in-memory client (roots default to fixtures/)."""
    with start_blocking_portal() as portal:
        opened: list[Any] = []

        def open_session(*roots: Path, store: Path | None = None) -> Session:
            store = store or tmp_path / "store"
            server = create_server(store, AllowedRoots(list(roots) or [FIXTURES]))
            manager = portal.wrap_async_context_manager(Client(server))
            client = manager.__enter__()
            opened.append(manager)

            def call(tool: str, **arguments: Any) -> CallToolResult:
                result: CallToolResult = portal.call(client.call_tool, tool, arguments)
                # A call that names its page_size is bounded by the paged limit (that many whole rows).
                # So is analyze_capture of one function (all its compilations in one call).
                paged = "page_size" in arguments or (tool == "analyze_capture" and "function" in arguments)
                # And an analyze_capture page whose first function did not fit an ordinary one: it holds that one.
                functions = (result.structured_content or {}).get("functions")
                paged = paged or (tool == "analyze_capture" and isinstance(functions, list) and len(functions) == 1)
                # A folder of runs said run by run, and a run's report with its scripts (source=true), are paged too.
                paged = paged or bool((result.structured_content or {}).get("folder_of_runs"))
                paged = paged or (tool == "analyze_capture" and arguments.get("source") is True)
                limit = PAGED_RESPONSE_LIMIT if paged else RESPONSE_LIMIT
                assert size_of(result) < limit, (tool, size_of(result))
                return result

            return Session(call, lambda: portal.call(client.list_tools), store)

        yield open_session
        for manager in reversed(opened):
            manager.__exit__(None, None, None)


@pytest.fixture
def session(connect: Callable[..., Session]) -> Session:
    return connect()
