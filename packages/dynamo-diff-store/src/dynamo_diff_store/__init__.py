"""Read torch.compile traces (TORCH_TRACE logs, tlparse exports, bundles), classify compilations, store captures.

Each name loads its module on first use: reading a trace does not load the recording of a run (`capture`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dynamo_diff_schema.lazy import lazy_names

if TYPE_CHECKING:
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

# The module of each exported name.
_LAZY = {
    "READER_VERSION": "analysis",
    "collector_paused": "gc_pause",
    "Limits": "limits",
    "check_name_fits": "paths",
    "CaptureRequest": "recording",
    "CaptureResult": "recording",
    "SourcePolicy": "recording",
    "default_bundle_path": "recording",
    "parse_declarations": "recording",
    "record": "recording",
    "CaptureRow": "storage",
    "Damage": "storage",
    "EvidenceExcerpt": "storage",
    "ImportResult": "storage",
    "Store": "storage",
    "VerifyReport": "storage",
}


__getattr__ = lazy_names(__name__, "dynamo-diff-store", _LAZY)


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
