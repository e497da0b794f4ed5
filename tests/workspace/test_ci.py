"""CI runs exactly the README's test command, and no lock file with download addresses is committed."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Quick start.*?```bash\n(.*?)```", text, re.S)
    assert block is not None, "README has no quick-start bash block"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_quick_start_is_two_commands_and_ci_runs_the_test_one() -> None:
    commands = readme_commands()
    assert len(commands) == 2
    test_command = commands[1]
    ci = (ROOT / ".ci/run").read_text(encoding="utf-8")
    assert re.search(rf"^{re.escape(test_command)}$", ci, re.M), f".ci/run must run {test_command!r}"


def test_no_tracked_lock_with_addresses() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    files = tracked.split()
    assert "uv.lock" not in files
    for name in files:
        if re.search(r"(^|/)(requirements[^/]*\.txt|package-lock\.json|[^/]*\.lock)$", name):
            text = (ROOT / name).read_text(encoding="utf-8")
            assert not re.search(r'"resolved": *"https?://|https?://[a-z0-9.-]+/', text), name


def test_no_tracked_link_points_outside_the_repository() -> None:
    """A tracked symbolic link to an absolute path or out of the tree dangles in a clone elsewhere (the CI cache
    was one: the scripts now make their caches outside the clone, .ci/cache-dir.sh)."""
    staged = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    links = [line.split("\t", 1)[1] for line in staged.splitlines() if line.startswith("120000 ")]
    outside = []
    for name in links:
        blob = subprocess.run(
            ["git", "cat-file", "-p", f":{name}"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        target = Path(blob)
        resolved = (ROOT / name).parent / target
        if target.is_absolute() or not resolved.resolve().is_relative_to(ROOT.resolve()):
            outside.append(f"{name} -> {blob}")
    assert not outside, f"tracked links pointing outside the repository: {outside}"
