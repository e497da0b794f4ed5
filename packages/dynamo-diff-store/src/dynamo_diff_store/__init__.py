"""Reads torch.compile traces (TORCH_TRACE logs, tlparse exports, bundles), classifies compilations and keeps captures in a content-addressed store."""

from importlib.metadata import version as _version

__version__ = _version("dynamo-diff-store")

__all__ = ["__version__"]
