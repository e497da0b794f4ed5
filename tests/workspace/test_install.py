"""Installed from built wheels, outside the clone, `dynamo-diff demo` works: the demo's captures are package data.

The wheels are built as a release is (`uv build`: the sdist, then the wheel from it), installed into a fresh venv in
a temporary directory (third-party dependencies from the package index), and the command runs there with nothing
of the clone on its paths. Locally the test is skipped without uv; with CI set, a missing uv fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = json.loads((ROOT / "fixtures/expected.json").read_text(encoding="utf-8"))["fixtures"]
NEEDED = ["schema", "store", "match", "compare", "service", "cli"]


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"$ {' '.join(cmd)}\n{done.stdout}{done.stderr}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the venv's dynamo-diff, the built dynamo-diff-cli wheel)."""
    uv = shutil.which("uv")
    if uv is None:
        if os.environ.get("CI"):
            pytest.fail("uv is not installed: the wheels cannot be built")
        pytest.skip("uv is not installed")
    base = tmp_path_factory.mktemp("install")
    dist = base / "dist"
    for name in ["dynamo-diff", *(f"dynamo-diff-{d}" for d in NEEDED)]:
        _run([uv, "build", "--quiet", "--package", name, "-o", str(dist)], cwd=ROOT)
    venv = base / "venv"
    _run([uv, "venv", "--quiet", str(venv)], cwd=base)
    umbrella = next(dist.glob("dynamo_diff-*.whl"))
    _run(
        [
            uv,
            "pip",
            "install",
            "--quiet",
            "--python",
            str(venv / "bin/python"),
            "--find-links",
            str(dist),
            str(umbrella),
        ],
        cwd=base,
    )
    return venv / "bin/dynamo-diff", next(dist.glob("dynamo_diff_cli-*.whl"))


def _user_env(venv_bin: Path) -> dict[str, str]:
    """A user's shell with the venv's bin first: nothing of the clone or of the test run's venv."""
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "UV_", "DYNAMO_DIFF"))}
    return {**keep, "PATH": f"{venv_bin}{os.pathsep}{os.environ.get('PATH', '')}"}


@pytest.mark.slow
def test_the_wheel_carries_only_the_two_demo_captures(installed: tuple[Path, Path]) -> None:
    _, wheel = installed
    with zipfile.ZipFile(wheel) as archive:
        demo = {n.split("/")[2] for n in archive.namelist() if n.startswith("dynamo_diff_cli/demo/")}
    assert demo == {"edit_v1", "edit_v2"}
    assert wheel.stat().st_size < 400_000, f"{wheel.name} is {wheel.stat().st_size} bytes"


@pytest.mark.slow
def test_demo_from_installed_wheels_outside_the_clone(installed: tuple[Path, Path], tmp_path: Path) -> None:
    cli, _ = installed
    env = _user_env(cli.parent)
    text = _run([str(cli), "demo"], cwd=tmp_path, env=env)
    # The captures come from the installed package, not from a clone.
    assert "site-packages/dynamo_diff_cli/demo," in " ".join(text.stderr.split()), text.stderr
    assert str(ROOT) not in text.stderr + text.stdout
    assert any(line.startswith("comparability: COMPARABLE") for line in text.stdout.splitlines()), text.stdout
    doc = json.loads(_run([str(cli), "demo", "--format", "json"], cwd=tmp_path, env=env).stdout)
    assert doc["kind"] == "comparison" and doc["comparability"]["verdict"] == "comparable"
    # Counts established from the workloads' oracles and grep over the traces (fixtures/expected.json).
    for side, fixture in (("baseline", "edit_v1"), ("candidate", "edit_v2")):
        expected = EXPECTED[fixture]["total"]
        for key in ("observed_compilation_identities", "confirmed_recompilation_identities"):
            assert doc["totals"][side][key] == expected[key]["value"], (side, key)
    assert not list(tmp_path.iterdir()), "demo wrote into the directory it ran in"


@pytest.mark.slow
def test_the_readme_install_command_from_the_clone(tmp_path: Path) -> None:
    """`uv tool install ./packages/dynamo-diff-cli`, run in the clone (README "Install"), into a temporary tool
    directory: this version's command, whose demo runs outside the clone."""
    uv = shutil.which("uv")
    if uv is None:
        if os.environ.get("CI"):
            pytest.fail("uv is not installed")
        pytest.skip("uv is not installed")
    env = {**os.environ, "UV_TOOL_DIR": str(tmp_path / "tools"), "UV_TOOL_BIN_DIR": str(tmp_path / "bin")}
    env.pop("VIRTUAL_ENV", None)
    _run([uv, "tool", "install", "--quiet", "./packages/dynamo-diff-cli"], cwd=ROOT, env=env)
    cli = tmp_path / "bin" / "dynamo-diff"
    version = tomllib.loads((ROOT / "packages/dynamo-diff-cli/pyproject.toml").read_text(encoding="utf-8"))
    away = tmp_path / "elsewhere"
    away.mkdir()
    user = _user_env(cli.parent)
    assert (
        _run([str(cli), "--version"], cwd=away, env=user).stdout.strip()
        == f"dynamo-diff {version['project']['version']}"
    )
    doc = json.loads(_run([str(cli), "demo", "--format", "json"], cwd=away, env=user).stdout)
    assert doc["comparability"]["verdict"] == "comparable"
    assert (
        doc["totals"]["baseline"]["observed_compilation_identities"]
        == EXPECTED["edit_v1"]["total"]["observed_compilation_identities"]["value"]
    )
