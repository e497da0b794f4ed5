"""Remove every address from extension/package-lock.json (npm here already omits `resolved`; `funding` links
remain). Run after `npm install` changes the lock: `uv run python tools/clean_package_lock.py`."""

from __future__ import annotations

import json
from pathlib import Path

LOCK = Path(__file__).resolve().parents[1] / "extension" / "package-lock.json"


def main() -> int:
    data = json.loads(LOCK.read_text(encoding="utf-8"))
    removed = 0
    for entry in data.get("packages", {}).values():
        for key in ("funding", "resolved"):
            if key in entry:
                del entry[key]
                removed += 1
    LOCK.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(f"removed {removed} address fields from {LOCK.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
