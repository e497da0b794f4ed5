"""The server as agents start it: a subprocess on stdio (`dynamo-diff-mcp`, `dynamo-diff serve-mcp`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from dynamo_diff_cli.app import app
from dynamo_diff_mcp.budget import RESPONSE_LIMIT
from dynamo_diff_schema import CapturePage, ComparisonPage
from mcp import Client, StdioServerParameters
from typer.testing import CliRunner

from .conftest import FIXTURES, error_code, size_of

BIN = Path(sys.executable).parent


def test_stdio_round_trip_through_the_entry_point(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=str(BIN / "dynamo-diff-mcp"),
        args=["--allow-root", str(FIXTURES), "--store", str(tmp_path / "store")],
        cwd=str(tmp_path),
    )

    async def session() -> None:
        async with Client(params) as client:
            assert client.server_info is not None and client.server_info.name == "dynamo-diff"
            tools = await client.list_tools()
            assert len(tools.tools) == 7
            result = await client.call_tool(
                "compare_runs", {"baseline": "captures/stable", "candidate": "captures/shape"}
            )
            assert not result.is_error and size_of(result) < RESPONSE_LIMIT
            page = ComparisonPage.model_validate(result.structured_content)
            assert page.totals.candidate.confirmed_recompilation_identities == 2
            # The code around a compiled function, between two runs: the mark_dynamic added at the call site.
            diff = await client.call_tool(
                "get_source",
                {"capture": "captures/call_site_v1", "against": "captures/call_site_v2", "function": "preprocess"},
            )
            assert not diff.is_error and size_of(diff) < RESPONSE_LIMIT
            assert "+            torch._dynamo.mark_dynamic(x, 0)" in diff.content[0].text  # type: ignore[union-attr]
            refused = await client.call_tool("import_trace", {"path": "/etc"})
            assert error_code(refused) == "path_not_allowed"

    anyio.run(session)
    assert (tmp_path / "store" / "captures").is_dir()  # the store it was given, and nothing else
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store"]


def test_serve_mcp_uses_the_global_store(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=str(BIN / "dynamo-diff"),
        args=["--store", str(tmp_path / "s"), "serve-mcp", "--allow-root", str(FIXTURES)],
        cwd=str(tmp_path),
    )

    async def session() -> None:
        async with Client(params) as client:
            await client.call_tool("import_trace", {"path": "captures/stable"})
            listing = CapturePage.model_validate(
                (await client.call_tool("list_captures", {"full": True})).structured_content
            )
            assert listing.store == str(tmp_path / "s") and listing.total == 1

    anyio.run(session)


@pytest.mark.parametrize("command", [["dynamo-diff-mcp"], ["dynamo-diff", "serve-mcp"]])
def test_no_allowed_root_or_a_file_root_refuses_to_start(tmp_path: Path, command: list[str]) -> None:
    exe = [str(BIN / command[0]), *command[1:]]
    done = subprocess.run(exe, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error[invalid_argument]: no allowed root")
    file_root = tmp_path / "trace.log"
    file_root.write_text("x\n")
    done = subprocess.run(
        [*exe, "--allow-root", str(file_root)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and done.stderr.startswith("error[path_not_allowed]:")


@pytest.mark.parametrize("missing", ["dynamo_diff_mcp", "mcp"])
def test_serve_mcp_without_the_mcp_extra_prints_the_install_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, missing: str
) -> None:
    """Without the extra (the MCP package, or the SDK it needs) `import` fails: the command says what to install."""
    for name in [m for m in sys.modules if m.split(".")[0] in {missing, "dynamo_diff_mcp"}]:
        monkeypatch.delitem(sys.modules, name)  # imported afresh (and put back afterwards)
    monkeypatch.setitem(sys.modules, missing, None)  # importing it raises ModuleNotFoundError
    result = CliRunner().invoke(app, ["--store", str(tmp_path), "serve-mcp", "--allow-root", str(tmp_path)])
    assert result.exit_code == 2
    assert 'pip install "dynamo-diff[mcp]"' in result.stderr
