"""The import's progress moves for a single large rank: in a real pseudo-terminal, the "analysing" line counts the
bytes read, with the time left, and advances more than once; piped, stderr gets no progress at all."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest
from trace_inputs import build_log

ANALYSING = re.compile(r"analysing[^\n\r]*?([\d.]+ [kMG]?B)/([\d.]+ [kMG]?B)")
CLI = str(Path(sys.executable).parent / "dynamo-diff")


@pytest.fixture(scope="module")
def large_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One rank's raw log of about 12 MiB (read whole, in this process) made from the retained traces."""
    out = tmp_path_factory.mktemp("progress") / "dedicated_log_torch_trace_rank_0_big.log"
    build_log(out, 12 * 1024 * 1024)
    return out


def _in_a_terminal(args: list[str], cwd: Path) -> tuple[int, str]:
    """Run with stderr on a pseudo-terminal of 120 columns (stdout piped); what the terminal showed."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120"}
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    shown = bytearray()
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            shown += chunk
        elif proc.poll() is not None:
            break
    proc.communicate(timeout=120)
    os.close(master)
    return proc.returncode, shown.decode("utf-8", "replace")


@pytest.mark.slow
def test_a_single_large_rank_shows_its_bytes_read_moving(large_log: Path, tmp_path: Path) -> None:
    code, shown = _in_a_terminal([CLI, "--store", str(tmp_path / "store"), "import", str(large_log)], tmp_path)
    assert code == 0, shown
    read = [done for done, _total in ANALYSING.findall(shown)]
    assert len(set(read)) >= 2, f"the analysing line did not move: {read[:5]}\n{shown[-2000:]}"
    totals = {total for _done, total in ANALYSING.findall(shown)}
    assert len(totals) == 1, totals  # one total: the rank's bytes
    assert "rank(s)" not in shown  # a single rank is not counted as 0/1 ranks
    assert "left" in shown


def test_piped_stderr_gets_no_progress(large_log: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [CLI, "--store", str(tmp_path / "store"), "import", str(large_log)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "analysing" not in done.stderr and "\x1b[" not in done.stderr
