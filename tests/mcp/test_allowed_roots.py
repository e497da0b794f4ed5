"""Escape attempts: every path an agent sends must resolve inside an allowed root, or it is refused."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from dynamo_diff_mcp.roots import AllowedRoots
from dynamo_diff_schema import DynamoDiffError

from .conftest import CAPTURES, Session, error_code, text_of


@pytest.fixture
def sandbox(tmp_path: Path) -> tuple[Path, Path]:
    """(root, outside): a copy of one bundle inside the root and one outside it."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    shutil.copytree(CAPTURES / "stable", root / "stable")
    shutil.copytree(CAPTURES / "shape", outside / "shape")
    return root, outside


def _refused(s: Session, **arguments: str) -> None:
    result = s.call("import_trace", **arguments)
    assert error_code(result) == "path_not_allowed", text_of(result)


def test_dot_dot_absolute_and_symlinks_out_are_refused(
    connect: Callable[..., Session], sandbox: tuple[Path, Path]
) -> None:
    root, outside = sandbox
    (root / "link").symlink_to(outside / "shape", target_is_directory=True)
    (root / "stable" / "escape").symlink_to(outside)
    s = connect(root)
    _refused(s, path="../outside/shape")
    _refused(s, path=str(root / "stable" / ".." / ".." / "outside" / "shape"))
    _refused(s, path=str(outside / "shape"))
    _refused(s, path="/etc/passwd")
    _refused(s, path="link")  # a symlink inside the root that points out of it
    _refused(s, path="stable/escape/shape")
    _refused(s, path="stable", manifest_path=str(outside / "shape" / "manifest.json"))
    _refused(s, path="/nonexistent/elsewhere")  # refused before existence is checked: nothing leaks
    assert "empty" in text_of(s.call("list_captures"))  # nothing was imported
    # Comparing by path goes through the same check.
    result = s.call("compare_runs", baseline=str(outside / "shape"), candidate="./stable")
    assert error_code(result) == "path_not_allowed"
    result = s.call("compare_ranks", capture="../outside/shape")
    assert error_code(result) == "path_not_allowed"


def test_paths_inside_after_resolving_are_allowed(connect: Callable[..., Session], sandbox: tuple[Path, Path]) -> None:
    root, outside = sandbox
    (root / "alias").symlink_to(root / "stable", target_is_directory=True)
    s = connect(root)
    assert not s.call("import_trace", path="stable/../stable").is_error
    assert not s.call("import_trace", path=str(root / "alias")).is_error
    # A second root widens what is allowed.
    both = connect(root, outside, store=root.parent / "store2")
    assert not both.call("import_trace", path=str(outside / "shape")).is_error


def test_a_root_must_be_an_existing_directory(tmp_path: Path) -> None:
    file_root = tmp_path / "trace.log"
    file_root.write_text("not a directory\n")
    for bad in (file_root, tmp_path / "missing"):
        with pytest.raises(DynamoDiffError) as err:
            AllowedRoots([bad])
        assert err.value.code == "path_not_allowed"
    with pytest.raises(DynamoDiffError) as err:
        AllowedRoots([])
    assert err.value.code == "invalid_argument"
