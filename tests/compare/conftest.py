"""Captures for comparison tests: real torch 2.13 fixtures imported into a per-module store."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from dynamo_diff_compare import user_sources
from dynamo_diff_match import SnapshotSet
from dynamo_diff_schema import Capture
from dynamo_diff_store import Store

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"

Loaded = tuple[Capture, SnapshotSet]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store(tmp_path_factory.mktemp("compare") / "store")


@pytest.fixture(scope="module")
def load(store: Store, tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Loaded]:
    """Import fixtures/captures/<name> as a bundle (its trace and any source snapshots)."""
    root = tmp_path_factory.mktemp("bundles")

    def load(name: str, **declarations: object) -> Loaded:
        target = root / (name + "".join(f"-{k}{v}" for k, v in declarations.items()))
        if not target.exists():
            shutil.copytree(CAPTURES / name / "raw", target / "raw")
            if (CAPTURES / name / "sources").is_dir():
                shutil.copytree(CAPTURES / name / "sources", target / "sources")
            manifest = {"schema_version": "2.0", "label": name, "declarations": declarations}
            (target / "manifest.json").write_text(json.dumps(manifest))
        capture = store.import_path(target).capture
        return capture, user_sources(*store.source_files(capture.capture.id))

    return load
