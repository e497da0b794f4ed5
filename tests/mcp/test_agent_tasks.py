"""The agent task suite through the MCP tools: the in-memory client (every task) and a real stdio server."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult, TextContent

from .agent_tasks import FIXTURES, TASKS, Task, answered
from .conftest import Session, size_of

BIN = Path(sys.executable).parent


def _read(result: CallToolResult) -> str:
    text = "".join(b.text for b in result.content if isinstance(b, TextContent))
    return text + "\n" + json.dumps(result.structured_content or {})


@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_each_question_is_answered_within_its_budget(connect: Callable[..., Session], task: Task) -> None:
    session = connect()
    results = [session.call(tool, **arguments) for tool, arguments in task.calls]
    assert not any(r.is_error for r in results), [r.content for r in results]
    chars = sum(size_of(r) for r in results)
    assert len(results) <= task.max_calls and chars <= task.max_chars, (len(results), chars)
    assert answered(task, [_read(r) for r in results]) == [], task.question


def test_the_suite_over_a_real_stdio_server(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=str(BIN / "dynamo-diff-mcp"),
        args=["--allow-root", str(FIXTURES), "--store", str(tmp_path / "store")],
        cwd=str(tmp_path),
    )
    missed: dict[str, list[str]] = {}

    async def run() -> None:
        async with Client(params) as client:
            for task in TASKS:
                results = [await client.call_tool(tool, arguments) for tool, arguments in task.calls]
                if any(r.is_error for r in results) or sum(size_of(r) for r in results) > task.max_chars:
                    missed[task.id] = ["error or over budget"]
                elif gaps := answered(task, [_read(r) for r in results]):
                    missed[task.id] = gaps

    anyio.run(run)
    assert missed == {}
