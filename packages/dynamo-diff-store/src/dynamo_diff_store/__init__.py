"""Read torch.compile traces (TORCH_TRACE logs, tlparse exports, bundles), classify compilations, store captures."""

from importlib.metadata import version as _version

__version__ = _version("dynamo-diff-store")

__all__ = ["__version__"]
