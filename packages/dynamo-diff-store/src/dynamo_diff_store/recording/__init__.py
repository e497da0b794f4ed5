"""Recording a run: `dynamo-diff capture` runs a command with TORCH_TRACE set and an observer loaded, snapshots
the source files the trace names and writes a bundle (manifest.json, raw/, sources/, report/).

It stays in this distribution (not one of its own): it needs the trace reader (`reading`) to find the files a
trace names and `analysis` for the run status, and the CLI is its only user; `_observer_site.py` is copied into
the recorded process as its `sitecustomize` and uses the standard library only.
"""

from dynamo_diff_store.recording._bundle import (
    CachePolicy,
    CaptureRequest,
    CaptureResult,
    default_bundle_path,
    find_tlparse,
    parse_declarations,
    record,
)
from dynamo_diff_store.recording._observe import collect, prepare
from dynamo_diff_store.recording._snapshots import SourcePolicy

__all__ = [
    "CachePolicy",
    "CaptureRequest",
    "CaptureResult",
    "SourcePolicy",
    "collect",
    "default_bundle_path",
    "find_tlparse",
    "parse_declarations",
    "prepare",
    "record",
]
