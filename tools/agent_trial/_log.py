"""The trial log: one JSON line per call, appended; and the cut every wrapper applies to what it prints."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

CUT = 30_000


def cut(text: str) -> str:
    """What an agent's tool shows of a long output: its first CUT characters and how many more there were."""
    if len(text) <= CUT:
        return text
    return text[:CUT] + f"\n[output cut: {len(text) - CUT:,} more characters]\n"


def record(log: str | None, arm: str, call: str, printed: int, **parts: Any) -> None:
    """Append the call to the log named by `log` (else TRIAL_LOG); no log, no record."""
    path = log or os.environ.get("TRIAL_LOG")
    if not path:
        return
    entry = {"t": round(time.time(), 3), "arm": arm, "call": call, "chars": printed, **parts}
    with Path(path).open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(entry) + "\n")
