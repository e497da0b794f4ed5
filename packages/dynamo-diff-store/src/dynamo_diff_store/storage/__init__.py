"""The content-addressed local store: staging an input, assembling a capture, the SQLite index, evidence reads.

`Store` is the only public entry: import (copy, analyse, assemble, index, all or nothing), look up by id, prefix,
label or path, read captures, evidence and source snapshots, verify and remove.
"""

from dynamo_diff_store.storage._staging import plan_jobs
from dynamo_diff_store.storage._store import CaptureRow, Damage, EvidenceExcerpt, ImportResult, Store, VerifyReport

__all__ = [
    "CaptureRow",
    "Damage",
    "EvidenceExcerpt",
    "ImportResult",
    "Store",
    "VerifyReport",
    "plan_jobs",
]
