"""Read torch.compile traces (TORCH_TRACE logs, tlparse exports, bundles), classify compilations, store captures."""

from importlib.metadata import version as _version

from dynamo_diff_store.analysis import READER_VERSION
from dynamo_diff_store.gc_pause import collector_paused
from dynamo_diff_store.limits import Limits
from dynamo_diff_store.paths import check_name_fits
from dynamo_diff_store.recording import (
    CaptureRequest,
    CaptureResult,
    SourcePolicy,
    default_bundle_path,
    parse_declarations,
    record,
)
from dynamo_diff_store.storage import CaptureRow, Damage, EvidenceExcerpt, ImportResult, Store, VerifyReport

__version__ = _version("dynamo-diff-store")

__all__ = [
    "READER_VERSION",
    "CaptureRequest",
    "CaptureResult",
    "CaptureRow",
    "Damage",
    "EvidenceExcerpt",
    "ImportResult",
    "Limits",
    "SourcePolicy",
    "Store",
    "VerifyReport",
    "__version__",
    "check_name_fits",
    "collector_paused",
    "default_bundle_path",
    "parse_declarations",
    "record",
]
