"""A capture: one recorded run, normalized. This is also the document `dynamo-diff analyze --format json` prints."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field

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


class ObservedConfig(Model):
    """Compiler configuration as the trace shows it (compilation_metrics dynamo_config/inductor_config)."""

    rank: int | None = None
    values: dict[str, Any] = Field(default_factory=dict, description="'dynamo.<key>' / 'inductor.<key>' -> value.")


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
