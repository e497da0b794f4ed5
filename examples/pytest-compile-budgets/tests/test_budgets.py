"""Budgets: two tests here fail on purpose, to show what a failure says (README.md)."""

import pytest
import torch
from toymodels import blocks


@pytest.mark.dynamo_budget(recompiles=0)
def test_new_size_recompiles():
    """Fails on purpose: the second input size makes Dynamo recompile; the failure names the failing guard."""
    f = torch.compile(blocks.scaled, backend="eager")
    f(torch.ones(3))
    f(torch.ones(4))


@pytest.mark.dynamo_budget(recompiles=0)
def test_same_size_within_budget():
    f = torch.compile(blocks.scaled, backend="eager")
    f(torch.ones(3))
    f(torch.zeros(3))


@pytest.mark.dynamo_budget(graph_breaks=0)
def test_print_breaks():
    """Fails on purpose: print() inside the compiled function is a graph break (torch's gb0059)."""
    torch.compile(blocks.noisy, backend="eager")(torch.ones(2))


@pytest.mark.dynamo_budget(graph_breaks=0, only="toymodels")
def test_break_inside_torch_is_not_ours():
    """torch.distributions breaks the graph inside torch; only="toymodels" counts the breaks of this package."""
    torch.compile(blocks.sample_probs, backend="eager")(torch.tensor([0.25, 0.75]))
