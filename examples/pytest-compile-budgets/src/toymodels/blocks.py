"""Small functions to compile: one that recompiles on a new input size, one that breaks on a print(), and one
whose only graph break is inside torch."""

import torch


def scaled(x):
    return x.sin() * 2


def noisy(x):
    print("noisy: inside the compiled function")
    return x.cos() + 1


def sample_probs(p):
    # validate_args makes torch.distributions break the graph inside torch's own code, not in this package.
    d = torch.distributions.Categorical(probs=p, validate_args=True)
    return d.probs * 2
