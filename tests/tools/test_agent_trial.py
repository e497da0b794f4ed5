"""The trial wrappers (tools/agent_trial) print what the agent reads and log exactly that many characters per call;
the MCP wrapper talks to a real stdio server and logs its text and structured content apart."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRIAL = ROOT / "tools" / "agent_trial"
RUN = ROOT / "fixtures" / "captures" / "trial_mode_limit"


def _run(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(TRIAL / script), *args], check=True, capture_output=True, text=True, timeout=300
    )
    return done.stdout


def _log(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_shell_wrapper_logs_what_it_printed_and_cuts_long_output(tmp_path: Path) -> None:
    log = tmp_path / "shell.jsonl"
    short = _run("shell.py", "--log", str(log), "--cwd", str(tmp_path), "--", "echo hello; exit 3")
    long = _run("shell.py", "--log", str(log), "--cwd", str(tmp_path), "--", "python3 -c 'print(\"x\" * 40000)'")
    assert short == "hello\n[exit status 3]\n"
    assert long.startswith("x" * 30_000) and "[output cut: 10,001 more characters]" in long
    entries = _log(log)
    assert [e["chars"] for e in entries] == [len(short), len(long)]
    assert entries[0]["rc"] == 3 and entries[0]["call"] == "echo hello; exit 3"


def test_cli_and_mcp_wrappers_log_their_calls(tmp_path: Path) -> None:
    exe = shutil.which("dynamo-diff", path=str(Path(sys.executable).parent))
    mcp = shutil.which("dynamo-diff-mcp", path=str(Path(sys.executable).parent))
    assert exe and mcp, "the workspace's venv has both entry points"
    cli_log, mcp_log = tmp_path / "cli.jsonl", tmp_path / "mcp.jsonl"
    printed = _run(
        "cli.py", "--log", str(cli_log), "--exe", exe, "--store", str(tmp_path / "s1"), "--", "import", str(RUN)
    )
    assert "imported" in printed and _log(cli_log)[0]["chars"] == len(printed)
    server = f"{mcp} --allow-root {RUN.parent} --store {tmp_path / 's2'}"
    listing = _run("mcp_call.py", "--log", str(mcp_log), "--server", server, "--list")
    answer = _run(
        "mcp_call.py", "--log", str(mcp_log), "--server", server, "analyze_capture", json.dumps({"capture": str(RUN)})
    )
    assert '"name":"analyze_capture"' in listing
    assert "QuantAwareNet.forward" in answer and '"kind":"run_report_page"' in answer
    first, second = _log(mcp_log)
    assert first["call"] == "tools/list" and first["listing"] == first["chars"] == len(listing)
    text = answer.split("text:\n", 1)[1].split("\nstructured:\n", 1)[0]
    assert second["text"] == len(text) and second["chars"] == len(answer)
    assert second["structured"] == len(answer.split("\nstructured:\n", 1)[1]) - 1
    table = _run("tally.py", str(mcp_log))
    assert f"| {mcp_log} | 2 | {len(listing) + len(answer):,} |" in table
