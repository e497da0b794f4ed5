"""Three projects' own compile tests, rewritten with the plugin (docs/PYTEST.md shows each one beside what the
project does today; a test of the repository checks the doc's snippets are this file's text)."""

import pytest
import torch
from toymodels.stand_ins import TinyDenoiser, TinyTableEncoder, TinyTabularModel


# diffusers: compile once, call again, no recompile and no graph break; a failure says which guard or break.
@pytest.mark.dynamo_budget(recompiles=0, graph_breaks=0)
def test_denoiser_compiles_once():
    model = torch.compile(TinyDenoiser(), backend="eager")
    latents, timestep = torch.randn(2, 8), torch.ones(2, 1)
    model(latents, timestep)
    model(latents, timestep * 2)


# TabPFN: only the graph breaks whose user frame is in our own package count, not those inside torch.
@pytest.mark.dynamo_budget(graph_breaks=0, only="toymodels")
def test_tabular_breaks_are_not_ours():
    model = torch.compile(TinyTabularModel(), backend="eager")
    model(torch.randn(5, 4))


# pytorch-frame: the graph breaks per model are a committed snapshot, not numbers in the test.
@pytest.mark.dynamo_snapshot
def test_table_encoder_breaks():
    model = torch.compile(TinyTableEncoder(), backend="eager")
    model(torch.randn(6, 4))
