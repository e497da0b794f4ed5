#!/usr/bin/env python3
"""The CLI arm: run `dynamo-diff --store STORE ARGS...` (the frozen clone's, or --exe) at 120 columns, print its
output (cut), log the call."""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys

from _log import cut, record


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--log")
    parser.add_argument("--store", required=True)
    parser.add_argument("--exe", default="dynamo-diff")
    parser.add_argument("--cwd", default=".")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    argv = [a for a in args.args if a != "--"] if args.args[:1] == ["--"] else list(args.args)
    env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1"}
    done = subprocess.run(
        [args.exe, "--store", args.store, *argv],
        check=False,
        cwd=args.cwd,
        capture_output=True,
        text=True,
        errors="replace",
        env=env,
    )
    out = done.stdout + done.stderr
    shown = cut(out) + (f"[exit status {done.returncode}]\n" if done.returncode else "")
    sys.stdout.write(shown)
    record(args.log, "cli", shlex.join(argv), len(shown), rc=done.returncode)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
