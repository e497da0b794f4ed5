"""Read torch.compile traces (TORCH_TRACE logs, tlparse exports, bundles), classify compilations, store captures."""

from importlib.metadata import version as _version

from dynamo_diff_store.ingest import READER_VERSION
from dynamo_diff_store.limits import Limits
from dynamo_diff_store.store import CaptureRow, EvidenceExcerpt, ImportResult, Store

__version__ = _version("dynamo-diff-store")

__all__ = ["READER_VERSION", "CaptureRow", "EvidenceExcerpt", "ImportResult", "Limits", "Store", "__version__"]
