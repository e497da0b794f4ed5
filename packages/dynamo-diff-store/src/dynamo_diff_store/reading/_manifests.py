"""Read and write bundle manifests and judge what they may claim: provenance (hashes of the imported bytes)
and declared workload completion. Declarations are never observations.

Manifests of the 0.1 tool (`schema_version` "1") are translated to the current model when read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dynamo_diff_schema.capture import Provenance, WorkloadCompletion
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_schema.manifest import Manifest
from dynamo_diff_schema.version import SCHEMA_MAJOR, SCHEMA_VERSION

from dynamo_diff_store.limits import Limits
from dynamo_diff_store.reading._jsonload import JSONRejected, JSONTooDeepError, loads_strict


def read_manifest(path: Path, limits: Limits) -> Manifest:
    try:
        data = loads_strict(path.read_bytes(), limits)
    except JSONTooDeepError as err:
        raise limits.exceeded("max_json_depth", err.depth, file=path.name) from None
    except JSONRejected as err:
        raise DynamoDiffError(ErrorCode.MALFORMED_INPUT, f"manifest {path.name} is not valid JSON: {err}") from err
    except OSError as err:
        raise DynamoDiffError(ErrorCode.UNREADABLE_INPUT, f"manifest {path.name} cannot be read: {err}") from err
    if not isinstance(data, dict):
        raise DynamoDiffError(ErrorCode.MALFORMED_INPUT, f"manifest {path.name} is not a JSON object")
    version = str(data.get("schema_version", ""))
    if version.split(".", maxsplit=1)[0] == "1":
        data = translate_v1(data, path.name)
        version = str(data["schema_version"])
    if version.split(".", maxsplit=1)[0] != str(SCHEMA_MAJOR):
        raise DynamoDiffError(
            ErrorCode.UNSUPPORTED_INPUT,
            f"manifest {path.name} has schema_version {version!r}; this reader understands {SCHEMA_MAJOR}.x",
        )
    from dynamo_diff_schema.documents import validate  # the JSON Schemas load with the first manifest read

    try:
        validate(data, "manifest")
    except DynamoDiffError as err:
        raise DynamoDiffError(ErrorCode.MALFORMED_INPUT, f"manifest {path.name}: {err.message}", **err.details) from err
    return Manifest.model_validate(data)


def _section(data: dict[str, Any], name: str, where: str) -> dict[str, Any]:
    value = data.get(name)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise DynamoDiffError(ErrorCode.MALFORMED_INPUT, f"manifest {where}: section {name!r} is not an object")
    return value


# What a 0.1 manifest holds (its template and every bundle the 0.1 tool wrote), section by section. A key that has
# no typed place in the current model is kept under `extra.v1` as "<section>.<key>": nothing is dropped.
_V1_SECTIONS = ("producer", "source", "workload", "capture")
_V1_CONSUMED = {
    "producer": {"python", "torch", "torch_git", "tlparse"},
    "source": {"revision", "files"},
    "workload": {
        "calls",
        "seed",
        "backend",
        "backend_options",
        "dynamic",
        "device",
        "warmup_calls",
        "measurement_calls",
        "environment",
    },
    "capture": {"workload_completed", "process_exit_code", "converter_exit_code", "raw_traces"},
}
_CACHE_POLICIES = ("fresh", "warm", "custom")


def _v1_declarations(workload: dict[str, Any], leftover: dict[str, Any]) -> dict[str, Any]:
    """0.1 declared the workload inside `workload`. A value whose shape the current model cannot hold is kept
    under extra.v1 rather than refused (a real 0.1 bundle always imports)."""
    declared: dict[str, Any] = {}

    def typed(key: str, ok: bool) -> None:
        value = workload.get(key)
        if value is None:
            return
        if ok:
            declared[key] = value
        else:
            leftover[f"workload.{key}"] = value

    def is_int(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    calls = workload.get("calls")
    # 0.1 wrote one description per call ({"shape": [4], "dtype": "float32", ...}); its template has [].
    if isinstance(calls, list) and not calls:
        pass
    else:
        typed("calls", is_int(calls) or (isinstance(calls, list) and all(isinstance(c, dict) for c in calls)))
    for key in ("seed", "warmup_calls", "measurement_calls"):
        typed(key, is_int(workload.get(key)))
    for key in ("backend", "device"):
        typed(key, isinstance(workload.get(key), str))
    typed("dynamic", isinstance(workload.get("dynamic"), bool) or workload.get("dynamic") == "auto")
    options = workload.get("backend_options")
    if options:
        typed("backend_options", isinstance(options, dict))
    policy = workload.get("cache_policy")
    if policy in _CACHE_POLICIES:
        declared["cache_policy"] = policy
    elif policy is not None:
        leftover["cache_policy"] = policy
    return declared


def translate_v1(data: dict[str, Any], where: str = "manifest.json") -> dict[str, Any]:
    """A schema_version "1" manifest (sections producer, source, workload, capture) as a current one.

    Nothing is invented: fields 0.1 did not have stay unset, and values the current model has no place for
    are kept under `extra.v1`. The result is validated like any other manifest."""
    producer = _section(data, "producer", where)
    source = _section(data, "source", where)
    workload = _section(data, "workload", where)
    capture = _section(data, "capture", where)
    leftover: dict[str, Any] = {}
    for name, section in zip(_V1_SECTIONS, (producer, source, workload, capture), strict=True):
        for key, value in section.items():
            if key not in _V1_CONSUMED[name] and key != "cache_policy" and value is not None and value != []:
                leftover[f"{name}.{key}"] = value
    for key, value in data.items():
        if key not in (*_V1_SECTIONS, "schema_version", "label"):
            leftover[key] = value
    declarations = _v1_declarations(workload, leftover)
    tlparse = producer.get("tlparse")
    converter_exit = capture.get("converter_exit_code")
    tool = None
    if tlparse is not None or converter_exit is not None:
        tool = {"version": None if tlparse is None else str(tlparse), "exit_code": converter_exit}
    files = source.get("files") or []
    if not isinstance(files, list):
        raise DynamoDiffError(ErrorCode.MALFORMED_INPUT, f"manifest {where}: source.files is not a list")
    translated_files = []
    for entry in files:
        if not isinstance(entry, dict):
            raise DynamoDiffError(ErrorCode.MALFORMED_INPUT, f"manifest {where}: a source.files entry is not an object")
        translated_files.append(
            {
                "path": entry.get("relative_path"),
                "captured_path": entry.get("captured_path"),
                "snapshot": entry.get("snapshot"),
                "sha256": entry.get("sha256"),
            }
        )
    exit_code = capture.get("process_exit_code")
    completed = capture.get("workload_completed")
    environment = workload.get("environment") or {}
    if not (isinstance(environment, dict) and all(isinstance(v, str) for v in environment.values())):
        leftover["workload.environment"] = environment
        environment = {}
    sources: dict[str, Any] = {"revision": source.get("revision"), "files": translated_files}
    if source.get("dirty_patch_sha256") is not None:
        sources["dirty"] = True  # 0.1 hashed the uncommitted changes; the hash itself is under extra.v1
    out: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "kind": "dynamo-diff-bundle",
        "producer": {
            "python": producer.get("python"),
            "torch": producer.get("torch"),
            "torch_git": producer.get("torch_git"),
            "tlparse": tool,
        },
        "declarations": declarations,
        "workload": {
            "exit_code": exit_code,
            "completed": completed,
            "environment": environment,
        },
        "sources": sources,
        "raw_traces": capture.get("raw_traces") or [],
        "report": tool,
        "extra": {"translated_from_schema_version": "1", **({"v1": leftover} if leftover else {})},
    }
    if data.get("label") is not None:
        out["label"] = data["label"]
    if completed is False and exit_code == 0:
        out["workload"]["incomplete_reason"] = "the 0.1 manifest declares the workload not completed"
    return out


def manifest_bytes(manifest: Manifest) -> bytes:
    """The bytes `capture` writes: validated against the committed schema, keys sorted, so a manifest is
    stable text that a copied bundle keeps unchanged."""
    from dynamo_diff_schema.documents import validate

    document = manifest.model_dump(mode="json")
    validate(document, "manifest")
    return (json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def judge(
    manifest: Manifest | None, files: dict[str, str], bundle_prefix: str, *, has_traces: bool = True
) -> tuple[Provenance, WorkloadCompletion, list[str]]:
    """Provenance and declared completion. `files` maps imported relative paths to sha256; manifest trace
    paths are relative to the bundle root, which sits at `bundle_prefix` inside the imported tree. `has_traces`:
    the input holds trace files (a bundle of a run that compiled no frame has none)."""
    if manifest is None:
        return Provenance.UNVERIFIED, WorkloadCompletion.UNKNOWN, ["no manifest: nothing is declared"]
    reasons: list[str] = []
    if not manifest.raw_traces and not has_traces:
        # Capture found no trace file and the bundle holds none: the manifest and the bundle agree.
        provenance = Provenance.VERIFIED
        reasons.append("the run wrote no trace file, and the manifest lists none")
    elif not manifest.raw_traces:
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
