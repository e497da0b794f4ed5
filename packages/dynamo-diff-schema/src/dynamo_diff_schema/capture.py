"""A capture: one recorded run, normalized. This is also the document `dynamo-diff analyze --format json` prints."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import Field, model_validator

from dynamo_diff_schema.base import Model
from dynamo_diff_schema.compilation import CodeLocation, Compilation
from dynamo_diff_schema.counts import Counts
from dynamo_diff_schema.evidence import Evidence, Notice
from dynamo_diff_schema.manifest import Manifest, Producer
from dynamo_diff_schema.version import SCHEMA_VERSION


class InputKind(StrEnum):
    RAW_LOG = "raw_log"
    RAW_DIRECTORY = "raw_directory"
    TLPARSE_EXPORT = "tlparse_export"
    BUNDLE = "bundle"


class ArtifactStructure(StrEnum):
    COMPLETE = "complete"
    PARTIAL = "partial"


class WorkloadCompletion(StrEnum):
    DECLARED_COMPLETED = "declared_completed"
    DECLARED_INCOMPLETE = "declared_incomplete"
    UNKNOWN = "unknown"


class Provenance(StrEnum):
    VERIFIED = "verified"
    UNVERIFIED = "unverified"
    REJECTED = "rejected"


class Validity(Model):
    artifact_structure: ArtifactStructure = Field(
        description="'partial' when the trace was cut or evidence is missing: counts may be low."
    )
    workload_completion: WorkloadCompletion = WorkloadCompletion.UNKNOWN
    provenance: Provenance = Field(
        Provenance.UNVERIFIED, description="'verified' when manifest hashes match the imported bytes."
    )
    reasons: list[str] = Field(default_factory=list)


class RunState(StrEnum):
    """How a recorded run ended, as far as the capture can tell."""

    COMPLETED = "completed"  # the command exited with 0 (recorded by `dynamo-diff capture`) and the trace is whole
    EXITED = "exited"  # the command exited with a non-zero code
    KILLED = "killed"  # the command was killed by a signal
    INTERRUPTED = "interrupted"  # capture was interrupted (Ctrl-C, SIGTERM) while the command ran
    TRACE_CUT = "trace_cut"  # the trace ends mid-record or inside a compilation
    PARTIAL = "partial"  # the trace is whole but evidence is missing (payload files, rejected records)
    UNKNOWN = "unknown"  # a bare trace: nothing records how the program ended


class RunStatus(Model):
    """The first thing every view says about a capture: did the run finish? Counts of a run that stopped early
    are low, so a run that did not finish must never look like an improvement."""

    state: RunState
    finished: bool | None = Field(
        description="True: completed with a whole trace. False: it did not finish (or evidence is missing), "
        "counts may be low. None: unknown (a bare trace)."
    )
    summary: str = Field(description="One line for people, e.g. 'killed by SIGKILL'.")
    exit_code: int | None = None
    signal: str | None = Field(None, description="The signal that ended the command, e.g. 'SIGKILL'.")
    exception: str | None = Field(None, description="The uncaught exception the observer saw, e.g. 'RuntimeError: x'.")
    trace_cut: bool = Field(False, description="A trace file ends mid-record, or a compilation never finished.")
    evidence_missing: bool = Field(False, description="Payload files are missing or records were rejected.")
    source: Literal["capture", "manifest", "none"] = Field(
        description="Where the workload's end is known from: recorded by `dynamo-diff capture` (hash-verified "
        "manifest), declared by a manifest that is not hash-verified, or nowhere (a bare trace)."
    )
    reasons: list[str] = Field(default_factory=list, description="The facts behind the state, one per line.")


class ObservedConfig(Model):
    """What the trace shows of a set-up: compiler configuration (compilation_metrics dynamo_config /
    inductor_config) and the devices of the tensors Dynamo saw (describe_tensor records).

    One entry per distinct set-up, with every rank that observed it (schema 2.2; 2.1 wrote one entry per rank,
    and reads back with `ranks` = [`rank`]): the ranks of one job usually share one configuration of a few hundred
    settings, which a per-rank copy repeated thousands of times over."""

    rank: int | None = Field(None, description="The first of `ranks` (what schema 2.1 readers look at).")
    ranks: list[int | None] = Field(
        default_factory=list, description="Every rank that observed these values and devices, in rank order."
    )
    values: dict[str, Any] = Field(default_factory=dict, description="'dynamo.<key>' / 'inductor.<key>' -> value.")
    devices: list[str] = Field(default_factory=list, description="Device types of traced tensors, e.g. ['cpu'].")

    @model_validator(mode="before")
    @classmethod
    def _ranks_of_earlier_documents(cls, data: Any) -> Any:
        if isinstance(data, dict) and "ranks" not in data:
            return {**data, "ranks": [data.get("rank")]}
        return data


class FunctionGroup(Model):
    """All compilations of one source function on one rank (resume functions are their own code objects)."""

    key: str = Field(description="'co_filename:co_firstlineno:co_name'.")
    code: CodeLocation
    compile_ids: list[str] = Field(default_factory=list)
    counts: Counts


class Rank(Model):
    rank: int | None = Field(description="None when neither the file name nor the records say.")
    files: list[str] = Field(default_factory=list)
    counts: Counts
    functions: list[FunctionGroup] = Field(default_factory=list)
    compilations: list[Compilation] = Field(default_factory=list)


class CaptureInfo(Model):
    id: str = Field(pattern=r"^[0-9a-f]{64}$")
    label: str | None = None
    imported_at: str | None = Field(None, description="ISO 8601 UTC; not part of the id.")
    input_kind: InputKind
    reader_version: str
    producer: Producer = Field(default_factory=Producer)
    run: RunStatus
    validity: Validity
    manifest: Manifest | None = None
    observed_config: list[ObservedConfig] = Field(default_factory=list)
    record_kinds: dict[str, int] = Field(default_factory=dict, description="Record kind -> number of records.")
    noise_lines: int = Field(0, ge=0, description="Lines that were not trace lines.")


class Capture(Model):
    schema_version: str = SCHEMA_VERSION
    capture: CaptureInfo
    counts: Counts = Field(description="Summed over ranks.")
    ranks: list[Rank]
    notices: list[Notice] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
