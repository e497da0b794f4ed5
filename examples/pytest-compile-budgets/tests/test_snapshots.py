"""A snapshot that passes as committed; TOYMODELS_EXTRA_SIZE=1 adds an input size, hence a recompile, and the
committed snapshot then fails naming it (README.md)."""

import os

import pytest
import torch
from toymodels import blocks

SIZES = [3, 5] if os.environ.get("TOYMODELS_EXTRA_SIZE") == "1" else [3]


@pytest.mark.dynamo_snapshot
def test_scaled_sizes():
    f = torch.compile(blocks.scaled, backend="eager")
    for n in SIZES:
        f(torch.ones(n))
