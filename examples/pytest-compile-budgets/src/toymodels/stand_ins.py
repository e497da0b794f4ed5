"""Stand-ins for the models of three projects' compile tests (docs/PYTEST.md): small enough to compile in a
second on a CPU, shaped like what each project tests."""

import torch
from torch import nn


class TinyDenoiser(nn.Module):
    """A diffusion model's denoiser in miniature: a time embedding added to a small MLP over the latents."""

    def __init__(self, channels: int = 8) -> None:
        super().__init__()
        self.time = nn.Linear(1, channels)
        self.block = nn.Sequential(nn.Linear(channels, channels), nn.SiLU(), nn.Linear(channels, channels))

    def forward(self, latents, timestep):
        return self.block(latents + self.time(timestep))


class TinyTabularModel(nn.Module):
    """A tabular model in miniature: an encoder of the table's rows, then class probabilities drawn through
    torch.distributions (which breaks the graph inside torch, not in this package)."""

    def __init__(self, features: int = 4, classes: int = 3) -> None:
        super().__init__()
        self.encoder = nn.Linear(features, classes)

    def forward(self, rows):
        probs = self.encoder(rows).softmax(-1)
        return torch.distributions.Categorical(probs=probs, validate_args=True).probs


class TinyTableEncoder(nn.Module):
    """A table encoder in miniature, with graph breaks of its own: it reads a statistic back to Python (`.item()`)
    to choose a branch, as column encoders that normalise by a data-dependent value do."""

    def __init__(self, features: int = 4) -> None:
        super().__init__()
        self.proj = nn.Linear(features, features)

    def forward(self, table):
        scale = table.abs().max().item()  # a graph break: a tensor's value read back to Python
        x = self.proj(table / scale)
        if x.sum().item() > 0:  # another: a data-dependent branch
            return x.relu()
        return x
