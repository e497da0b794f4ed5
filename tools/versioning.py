"""Where the shared version lives, for tools/bump_version.py and the consistency test.

One version for all nine distributions, the extension and the docs. Sibling pins are exact (`==`).
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ROOT / "packages"
EXTENSION_MANIFEST = ROOT / "extension" / "package.json"
# Text files that quote the version as `dynamo-diff X.Y.Z` (what `dynamo-diff --version` prints)
# or as `dynamo-diff==X.Y.Z`.
DOC_GLOBS = ("README.md", "docs/*.md", "extension/README.md")
VERSION_RE = r"\d+\.\d+\.\d+(?:(?:a|b|rc|\.dev|\.post)\d+)?"
DOC_VERSION = re.compile(rf"(dynamo-diff(?:-[a-z]+)?(?:==| ))({VERSION_RE})\b")
SIBLING_PIN = re.compile(rf'("dynamo-diff(?:-[a-z]+)?(?:\[[a-z,]+\])?)==({VERSION_RE})(")')
PROJECT_VERSION = re.compile(rf'^(version = ")({VERSION_RE})(")$', re.MULTILINE)


def pyprojects() -> list[Path]:
    return sorted(PACKAGES.glob("*/pyproject.toml"))


def project_versions() -> dict[str, str]:
    out: dict[str, str] = {}
    for path in pyprojects():
        project = tomllib.loads(path.read_text(encoding="utf-8"))["project"]
        out[project["name"]] = project["version"]
    return out


def sibling_pins() -> dict[str, list[str]]:
    """Distribution -> the requirement strings naming a sibling."""
    out: dict[str, list[str]] = {}
    for path in pyprojects():
        project = tomllib.loads(path.read_text(encoding="utf-8"))["project"]
        reqs = list(project.get("dependencies", []))
        for extra in project.get("optional-dependencies", {}).values():
            reqs.extend(extra)
        out[project["name"]] = [r for r in reqs if re.match(r"dynamo-diff(-[a-z]+)?\b", r)]
    return out


def doc_files() -> list[Path]:
    files: list[Path] = []
    for pattern in DOC_GLOBS:
        files.extend(sorted(ROOT.glob(pattern)))
    return files


def doc_versions() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for path in doc_files():
        found = {m.group(2) for m in DOC_VERSION.finditer(path.read_text(encoding="utf-8"))}
        if found:
            out[str(path.relative_to(ROOT))] = found
    return out


def extension_version() -> str | None:
    if not EXTENSION_MANIFEST.exists():
        return None
    data = json.loads(EXTENSION_MANIFEST.read_text(encoding="utf-8"))
    pinned = data.get("dynamoDiff", {}).get("cliVersion")
    if pinned is not None and pinned != data["version"]:
        return f"{data['version']} (pins CLI {pinned})"
    return str(data["version"])
