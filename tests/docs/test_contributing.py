"""CONTRIBUTING.md's recipes point at files and names that exist: a recipe that sends someone to a moved file is
a defect like a wrong count."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
# Folders no recipe points into (large, or made by tools).
SKIP = {
    ".git",
    ".venv",
    "node_modules",
    ".ci-cache",
    "captures",
    "corpus",
    "v1_bundles",
    "bundles",
    "out",
    "__pycache__",
}


def _files() -> list[Path]:
    found = []
    for top, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP and not d.startswith((".tox", ".dynamo-diff", ".venv-"))]
        found.extend(Path(top) / name for name in names)
    return found


FILES = _files()


def test_every_file_a_recipe_names_exists_exactly_once() -> None:
    named = set(re.findall(r"`([\w./<>-]+\.(?:py|md|sh|toml))`", TEXT)) | set(re.findall(r"\]\(([\w./-]+\.md)\)", TEXT))
    assert len(named) > 20
    for path in sorted(n for n in named if "<" not in n):
        matches = [f for f in FILES if ("/" + f.relative_to(ROOT).as_posix()).endswith("/" + path)]
        assert len(matches) == 1, f"CONTRIBUTING.md names {path}: found {len(matches)}"


def test_the_names_a_recipe_gives_are_defined_where_it_says() -> None:
    where = {
        "RECORD_KINDS": "analysis/_kinds.py",
        "GuardCategory": "dynamo_diff_schema/compilation.py",
        "categorize": "analysis/_guards.py",
        "NoticeCode": "dynamo_diff_schema/evidence.py",
        "ChangeKind": "dynamo_diff_schema/comparison.py",
        "mcp_tool": "dynamo_diff_mcp/server.py",
        "Offset": "dynamo_diff_mcp/server.py",
        "page": "dynamo_diff_mcp/budget.py",
        "READER_VERSION": "analysis/_reader_version.py",
        "COMPARE_VERSION": "dynamo_diff_compare/compare.py",
        "Service": "dynamo_diff_service/_service.py",
    }
    for name, suffix in where.items():
        assert f"`{name}`" in TEXT or f"{name}(" in TEXT or name in TEXT
        (path,) = [f for f in FILES if f.as_posix().endswith(suffix)]
        assert re.search(rf"^(?:class|def) {name}\b|^{name}\b", path.read_text(encoding="utf-8"), re.M), (name, path)
