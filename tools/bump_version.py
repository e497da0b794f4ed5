"""Set one version everywhere: every package's pyproject, the exact sibling pins, the extension and the docs.

Usage: uv run python tools/bump_version.py X.Y.Z
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from versioning import (
    DOC_VERSION,
    EXTENSION_MANIFEST,
    PROJECT_VERSION,
    SIBLING_PIN,
    VERSION_RE,
    doc_files,
    pyprojects,
)


def bump(new: str) -> list[Path]:
    if not re.fullmatch(VERSION_RE, new):
        raise SystemExit(f"error: {new!r} is not a version like 1.2.3")
    changed: list[Path] = []
    for path in pyprojects():
        text = path.read_text(encoding="utf-8")
        updated = PROJECT_VERSION.sub(rf"\g<1>{new}\g<3>", text)
        updated = SIBLING_PIN.sub(rf"\g<1>=={new}\g<3>", updated)
        if updated != text:
            path.write_text(updated, encoding="utf-8")
            changed.append(path)
    if EXTENSION_MANIFEST.exists():
        data = json.loads(EXTENSION_MANIFEST.read_text(encoding="utf-8"))
        data["version"] = new
        data.setdefault("dynamoDiff", {})["cliVersion"] = new
        EXTENSION_MANIFEST.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        changed.append(EXTENSION_MANIFEST)
    for path in doc_files():
        text = path.read_text(encoding="utf-8")
        updated = DOC_VERSION.sub(rf"\g<1>{new}", text)
        if updated != text:
            path.write_text(updated, encoding="utf-8")
            changed.append(path)
    return changed


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for path in bump(argv[0]):
        print(f"updated {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
