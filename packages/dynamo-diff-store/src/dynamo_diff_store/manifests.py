"""Read a bundle manifest and judge what it may claim: provenance (hashes of the imported bytes) and
declared workload completion. Declarations are never observations."""

from __future__ import annotations

from pathlib import Path

from dynamo_diff_schema.capture import Provenance, WorkloadCompletion
from dynamo_diff_schema.documents import validate
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_schema.manifest import Manifest
from dynamo_diff_schema.version import SCHEMA_MAJOR

from dynamo_diff_store.jsonload import JSONRejected, loads_strict
from dynamo_diff_store.limits import Limits


def read_manifest(path: Path, limits: Limits) -> Manifest:
    try:
        data = loads_strict(path.read_bytes(), limits)
    except JSONRejected as err:
        raise DynamoDiffError(ErrorCode.MALFORMED_INPUT, f"manifest {path.name} is not valid JSON: {err}") from err
    except OSError as err:
        raise DynamoDiffError(ErrorCode.UNREADABLE_INPUT, f"manifest {path.name} cannot be read: {err}") from err
    if not isinstance(data, dict):
        raise DynamoDiffError(ErrorCode.MALFORMED_INPUT, f"manifest {path.name} is not a JSON object")
    version = str(data.get("schema_version", ""))
    if version.split(".", maxsplit=1)[0] != str(SCHEMA_MAJOR):
        raise DynamoDiffError(
            ErrorCode.UNSUPPORTED_INPUT,
            f"manifest {path.name} has schema_version {version!r}; this reader understands {SCHEMA_MAJOR}.x",
        )
    try:
        validate(data, "manifest")
    except DynamoDiffError as err:
        raise DynamoDiffError(ErrorCode.MALFORMED_INPUT, f"manifest {path.name}: {err.message}", **err.details) from err
    return Manifest.model_validate(data)


def judge(
    manifest: Manifest | None, files: dict[str, str], bundle_prefix: str
) -> tuple[Provenance, WorkloadCompletion, list[str]]:
    """Provenance and declared completion. `files` maps imported relative paths to sha256; manifest trace
    paths are relative to the bundle root, which sits at `bundle_prefix` inside the imported tree."""
    if manifest is None:
        return Provenance.UNVERIFIED, WorkloadCompletion.UNKNOWN, ["no manifest: nothing is declared"]
    reasons: list[str] = []
    if not manifest.raw_traces:
        provenance = Provenance.UNVERIFIED
        reasons.append("the manifest lists no trace hashes")
    else:
        stale = []
        for trace in manifest.raw_traces:
            actual = files.get(f"{bundle_prefix}{trace.path}")
            if actual != trace.sha256:
                stale.append(trace.path)
        if stale:
            raise DynamoDiffError(
                ErrorCode.STALE_MANIFEST,
                f"the manifest's hashes do not match the trace files {', '.join(stale[:5])}: the bundle was "
                "changed after capture; import the trace directory itself to read it without the manifest",
                files=stale,
            )
        provenance = Provenance.VERIFIED
    work = manifest.workload
    if work.completed is True and work.exit_code == 0 and provenance == Provenance.VERIFIED:
        completion = WorkloadCompletion.DECLARED_COMPLETED
    elif work.completed is False or (work.exit_code is not None and work.exit_code != 0):
        completion = WorkloadCompletion.DECLARED_INCOMPLETE
        reasons.append(work.incomplete_reason or f"workload exit code {work.exit_code}")
    else:
        completion = WorkloadCompletion.UNKNOWN
        reasons.append("completion is not declared with a zero exit code and verified hashes")
    return provenance, completion, reasons
