#!/usr/bin/env python3
"""Sum trial logs: per log, its calls and the characters printed (MCP: text, structured, listing apart)."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(paths: list[str]) -> int:
    print("| log | calls | characters | text | structured | listing |")
    print("|---|---:|---:|---:|---:|---:|")
    for path in paths:
        rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
        sums = {k: sum(int(r.get(k, 0)) for r in rows) for k in ("chars", "text", "structured", "listing")}
        figures = " | ".join(f"{sums[k]:,}" for k in ("chars", "text", "structured", "listing"))
        print(f"| {path} | {len(rows)} | {figures} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
