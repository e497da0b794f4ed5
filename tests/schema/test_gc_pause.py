"""The one way library code pauses the cyclic garbage collector."""

from __future__ import annotations

import gc
import re
from pathlib import Path

import pytest
from dynamo_diff_schema import collector_paused

ROOT = Path(__file__).resolve().parents[2]


def test_the_collector_is_paused_inside_and_resumed_after_also_on_an_error() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()


def test_no_other_library_code_switches_the_collector() -> None:
    own = ROOT / "packages/dynamo-diff-schema/src/dynamo_diff_schema/gc_pause.py"
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in (ROOT / "packages").rglob("src/**/*.py")
        if path != own
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bgc\.(disable|enable)\(", line)
    ]
    assert found == []
