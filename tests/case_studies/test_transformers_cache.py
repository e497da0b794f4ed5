"""The Transformers case study verifies without torch: verify.py in a subprocess, also under python -O."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
VERIFY = REPO / "case_studies/transformers_cache/verify.py"


def test_the_environment_has_no_torch() -> None:
    assert importlib.util.find_spec("torch") is None and importlib.util.find_spec("transformers") is None


@pytest.mark.parametrize("flags", [[], ["-O"]])
def test_verify_passes(flags: list[str]) -> None:
    proc = subprocess.run(
        [sys.executable, *flags, str(VERIFY)], cwd=REPO, capture_output=True, text=True, timeout=300, check=False
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "verify: all checks passed" in proc.stdout
    assert "value guards: 3 -> 1" in proc.stdout
