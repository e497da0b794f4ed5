"""The text views as a user sees them in a terminal of a given width: each command run in a real pseudo-terminal
(its window size set with TIOCSWINSZ, no COLUMNS), its output written to `<out>/<name>-<columns>.txt` and, drawn by
rich, `<name>-<columns>.svg`; `summary.txt` has each shot's line count and widest line.

    uv run python tools/terminal_shots.py [--columns 80] [--out test-artifacts/terminal]

CI keeps the folder as an artifact; tests/cli/test_terminal_width.py runs the same commands (`in_terminal`)."""

from __future__ import annotations

import argparse
import fcntl
import io
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CAPTURES = "fixtures/captures"

# name -> the arguments after `dynamo-diff` (run in the repository root).
SHOTS: dict[str, list[str]] = {
    "compare-edit": ["compare", f"{CAPTURES}/edit_v1", f"{CAPTURES}/edit_v2"],
    "compare-cold-warm": ["compare", f"{CAPTURES}/inductor_cold", f"{CAPTURES}/inductor_warm"],
    "compare-cache": ["compare", f"{CAPTURES}/cache_cold", f"{CAPTURES}/cache_warm"],
    "compare-ranks": ["compare", f"{CAPTURES}/two_ranks", "--ranks"],
    "check-edit": ["check", f"{CAPTURES}/edit_v1", f"{CAPTURES}/edit_v2", "--max-new-recompiles", "0"],
    "analyze-edit": ["analyze", f"{CAPTURES}/edit_v1"],
    "analyze-by-function": ["analyze", f"{CAPTURES}/graph_break", "--by-function"],
    "demo": ["demo"],
}

_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def cli() -> list[str]:
    """The `dynamo-diff` of this interpreter's environment."""
    beside = Path(sys.executable).parent / "dynamo-diff"
    found = str(beside) if beside.exists() else shutil.which("dynamo-diff")
    if found is None:
        raise SystemExit("dynamo-diff is not installed in this environment: run with `uv run`")
    return [found]


def in_terminal(
    args: list[str], columns: int, *, store: Path, cwd: Path = ROOT, timeout: float = 120.0
) -> tuple[int, str]:
    """Run `dynamo-diff ARGS` in a pseudo-terminal `columns` wide (stdout and stderr both the terminal, as in a
    shell); its exit status and what the terminal received, escape sequences removed, lines ending in '\\n'."""
    leader, follower = os.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR")}
    env.update(TERM="xterm-256color", DYNAMO_DIFF_STORE=str(store))
    proc = subprocess.Popen(
        [*cli(), *args], stdin=follower, stdout=follower, stderr=follower, cwd=cwd, env=env, close_fds=True
    )
    os.close(follower)
    received = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.1)
            if ready:
                try:
                    data = os.read(leader, 65536)
                except OSError:  # the terminal closed: the command ended
                    break
                if not data:
                    break
                received += data
            elif proc.poll() is not None:
                break
        else:
            proc.kill()
    finally:
        os.close(leader)
    code = proc.wait()
    text = _ESCAPE.sub("", received.decode("utf-8", "replace")).replace("\r\n", "\n").replace("\r", "")
    return code, text


def widest(text: str) -> int:
    return max((len(line) for line in text.splitlines()), default=0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--columns", type=int, action="append", help="terminal width (repeatable; default 80)")
    parser.add_argument("--out", type=Path, default=ROOT / "test-artifacts" / "terminal")
    parser.add_argument("--only", action="append", choices=sorted(SHOTS), help="one shot (repeatable)")
    options = parser.parse_args()
    from rich.console import Console
    from rich.text import Text

    options.out.mkdir(parents=True, exist_ok=True)
    summary = []
    with tempfile.TemporaryDirectory(prefix="dynamo-diff-shots-") as tmp:
        for columns in options.columns or [80]:
            for name in options.only or SHOTS:
                code, text = in_terminal(SHOTS[name], columns, store=Path(tmp) / "store")
                stem = f"{name}-{columns}"
                (options.out / f"{stem}.txt").write_text(text, encoding="utf-8")
                console = Console(record=True, width=columns, file=io.StringIO(), color_system=None)
                console.print(Text(text.rstrip("\n")), soft_wrap=True)
                (options.out / f"{stem}.svg").write_text(
                    console.export_svg(title=f"dynamo-diff {' '.join(SHOTS[name])}"), encoding="utf-8"
                )
                line = f"{stem}: exit {code}, {len(text.splitlines())} lines, widest {widest(text)}"
                summary.append(line)
                print(line)
    (options.out / "summary.txt").write_text("\n".join(summary) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
