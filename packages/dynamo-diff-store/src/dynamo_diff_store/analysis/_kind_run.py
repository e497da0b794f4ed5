"""What the records say about the run rather than a compilation: the `torch_version` artifact and the devices of
`describe_tensor` records (which are otherwise counted as not interpreted)."""

from __future__ import annotations

import re
from typing import Any

from dynamo_diff_store.analysis._facts import Fact
from dynamo_diff_store.analysis._folding import Folding, Identity, RecordKind, body
from dynamo_diff_store.reading import loads_payload

# describe_tensor's device, e.g. "device(type='cuda', index=0)" (torch 2.13) or a plain "cpu".
_DEVICE_TYPE = re.compile(r"type='([A-Za-z0-9_]+)'|^([A-Za-z0-9_]+)(?::\d+)?$")


def parse_torch_version(payload: str | None) -> tuple[str | None, str | None]:
    # torch 2.13: {"pytorch_version": "2.13.0+cpu", "commit": "<git sha>", "oss": true}
    if not payload or not payload.strip():
        return None, None
    try:
        parsed = loads_payload(payload)
    except ValueError:
        return payload.strip().splitlines()[0][:100], None
    if isinstance(parsed, dict):
        version, commit = parsed.get("pytorch_version"), parsed.get("commit")
        return (version[:100] if isinstance(version, str) else None, commit[:64] if isinstance(commit, str) else None)
    return (parsed[:100] if isinstance(parsed, str) else None), None


def device_type(value: Any) -> str | None:
    """'cpu', 'cuda', ... from a describe_tensor device field (the index is left out: ranks use their own)."""
    if not isinstance(value, str):
        return None
    match = _DEVICE_TYPE.search(value.strip())
    return (match[1] or match[2]) if match else None


def _fold_torch_version(folding: Folding, fact: Fact) -> None:
    folding.evidence(fact, "torch_version", None)
    version, commit = fact.data
    run = folding.run
    run.torch_version = version or run.torch_version
    run.torch_git = commit or run.torch_git


def _fold_describe_tensor(folding: Folding, fact: Fact, ident: Identity) -> None:
    if fact.data is not None:
        folding.run.devices.add(fact.data)
    folding.uninterpreted(fact, ident)


TORCH_VERSION = RecordKind(
    "artifact:torch_version", extract=lambda rec: parse_torch_version(rec.payload), fold_run=_fold_torch_version
)
DESCRIBE_TENSOR = RecordKind(
    "describe_tensor",
    extract=lambda rec: device_type(body(rec).get("device")),
    fold=_fold_describe_tensor,
    interpreted=False,
)
