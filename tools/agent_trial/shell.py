#!/usr/bin/env python3
"""The shell arm: run one command with `bash -c` in the runs folder, print its output (cut), log the call."""

from __future__ import annotations

import argparse
import subprocess
import sys

from _log import cut, record


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--log")
    parser.add_argument("--cwd", default=".")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = " ".join(a for a in args.command if a != "--")
    try:
        done = subprocess.run(
            ["bash", "-c", command],
            check=False,
            cwd=args.cwd,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=args.timeout,
        )
        out, rc = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired:
        out, rc = f"[timed out after {args.timeout:g} s]\n", 124
    shown = cut(out) + (f"[exit status {rc}]\n" if rc else "")
    sys.stdout.write(shown)
    record(args.log, "shell", command, len(shown), rc=rc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
