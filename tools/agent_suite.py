#!/usr/bin/env python3
"""Run the agent task suite (tests/mcp/agent_tasks.py) and print what each question costs an agent: tool calls
and characters read through the MCP tools (in-memory client, fresh store), and characters of the CLI's JSON.

    uv run python tools/agent_suite.py          # a markdown table, as in docs/INTEGRATIONS.md
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from anyio.from_thread import start_blocking_portal
from dynamo_diff_cli.app import app
from dynamo_diff_mcp.roots import AllowedRoots
from dynamo_diff_mcp.server import create_server
from mcp import Client
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.mcp.agent_tasks import FIXTURES, TASKS, answered  # noqa: E402


def main() -> int:
    rows = []
    with tempfile.TemporaryDirectory(prefix="agent-suite-") as tmp, start_blocking_portal() as portal:
        for task in TASKS:
            server = create_server(Path(tmp) / task.id / "mcp", AllowedRoots([FIXTURES]))
            manager = portal.wrap_async_context_manager(Client(server))
            client = manager.__enter__()
            try:
                results = [portal.call(client.call_tool, tool, args) for tool, args in task.calls]
            finally:
                manager.__exit__(None, None, None)
            chars = sum(len(r.model_dump_json(by_alias=True, exclude_none=True)) for r in results)
            text_chars = sum(len(getattr(b, "text", "")) for r in results for b in r.content)
            structured_chars = sum(len(json.dumps(r.structured_content or {}, separators=(",", ":"))) for r in results)
            texts = [getattr(r.content[0], "text", "") + json.dumps(r.structured_content or {}) for r in results]
            ok = not answered(task, texts)
            os.chdir(FIXTURES)
            runner = CliRunner(env={"COLUMNS": "200", "DYNAMO_DIFF_STORE": str(Path(tmp) / task.id / "cli")})
            outs = [runner.invoke(app, command).stdout for command in task.cli]
            cli_ok = not answered(task, outs)
            rows.append(
                (
                    task,
                    len(results),
                    chars,
                    ok,
                    len(task.cli),
                    sum(len(o) for o in outs),
                    cli_ok,
                    text_chars,
                    structured_chars,
                )
            )
    print("| question | MCP calls | MCP characters | MCP text | MCP structured | CLI commands | CLI JSON characters |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for task, calls, chars, ok, n_cli, cli_chars, cli_ok, text_chars, structured_chars in rows:
        mark = "" if ok and cli_ok else " (NOT ANSWERED)"
        print(
            f"| `{task.id}`: {task.question}{mark} | {calls} | {chars:,} | {text_chars:,} | {structured_chars:,} "
            f"| {n_cli} | {cli_chars:,} |"
        )
    total_calls = sum(r[1] for r in rows)
    total_chars = sum(r[2] for r in rows)
    total_text, total_structured = sum(r[7] for r in rows), sum(r[8] for r in rows)
    cli_calls, cli_chars = sum(r[4] for r in rows), sum(r[5] for r in rows)
    print(
        f"| all {len(rows)} | {total_calls} | {total_chars:,} | {total_text:,} | {total_structured:,} "
        f"| {cli_calls} | {cli_chars:,} |"
    )
    return 0 if all(r[3] and r[6] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
