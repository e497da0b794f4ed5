"""One version everywhere: pyprojects, exact sibling pins, runtime __version__, the extension, the docs."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import versioning  # noqa: E402

DISTRIBUTIONS = {
    "dynamo-diff",
    "dynamo-diff-schema",
    "dynamo-diff-store",
    "dynamo-diff-match",
    "dynamo-diff-compare",
    "dynamo-diff-service",
    "dynamo-diff-cli",
    "dynamo-diff-mcp",
    "dynamo-diff-pytest",
}


def shared_version() -> str:
    versions = set(versioning.project_versions().values())
    assert len(versions) == 1, f"packages disagree on the version: {versioning.project_versions()}"
    return versions.pop()


def test_all_nine_distributions_share_one_version() -> None:
    found = versioning.project_versions()
    assert set(found) == DISTRIBUTIONS
    shared_version()


def test_sibling_pins_are_exact_and_current() -> None:
    v = shared_version()
    pins = versioning.sibling_pins()
    assert pins["dynamo-diff"] == [
        f"dynamo-diff-cli=={v}",
        f"dynamo-diff-mcp=={v}",
        f"dynamo-diff-service[parquet]=={v}",
        f"dynamo-diff-pytest=={v}",
        f"dynamo-diff-store[ray]=={v}",
    ]
    for dist, reqs in pins.items():
        for req in reqs:
            assert req.endswith(f"=={v}"), f"{dist} pins {req!r}, expected =={v}"


@pytest.mark.parametrize("module", ["schema", "store", "match", "compare", "service", "cli", "mcp", "pytest"])
def test_runtime_version_matches(module: str) -> None:
    mod = importlib.import_module(f"dynamo_diff_{module}")
    assert mod.__version__ == shared_version() == version(f"dynamo-diff-{module}")


def test_extension_and_docs_agree() -> None:
    v = shared_version()
    ext = versioning.extension_version()
    assert ext in (None, v), f"extension/package.json says {ext}, packages say {v}"
    for path, found in versioning.doc_versions().items():
        assert found == {v}, f"{path} quotes {sorted(found)}, packages say {v}"


def test_bump_changes_every_place(tmp_path: Path) -> None:
    """Run the bump tool on a copy of the repo's versioned files and check nothing is left behind."""
    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "packages", copy / "packages", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "tools", copy / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    for rel in ["README.md", "docs", "extension/package.json", "extension/README.md"]:
        src = ROOT / rel
        if src.is_dir():
            shutil.copytree(src, copy / rel)
        elif src.exists():
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, copy / rel)
    new = "9.8.7"
    subprocess.run([sys.executable, str(copy / "tools/bump_version.py"), new], check=True, capture_output=True)
    probe = (
        "import sys, json; sys.path.insert(0, 'tools'); import versioning as v; "
        "print(json.dumps([sorted(set(v.project_versions().values())), v.sibling_pins(), "
        "{k: sorted(s) for k, s in v.doc_versions().items()}, v.extension_version()]))"
    )
    out = subprocess.run([sys.executable, "-c", probe], cwd=copy, check=True, capture_output=True, text=True)
    import json

    versions, pins, docs, ext = json.loads(out.stdout)
    assert versions == [new]
    assert all(req.endswith(f"=={new}") for reqs in pins.values() for req in reqs)
    assert all(found == [new] for found in docs.values())
    assert ext in (None, new)
