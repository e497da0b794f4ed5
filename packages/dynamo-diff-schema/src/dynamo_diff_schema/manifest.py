"""The manifest of a capture bundle: what the user declared about a run and what `capture` recorded."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from dynamo_diff_schema.base import Model
from dynamo_diff_schema.version import SCHEMA_VERSION


class ToolVersion(Model):
    version: str | None = None
    exit_code: int | None = None


class Producer(Model):
    """Versions of what produced the trace. Torch's are read from the trace itself, never by importing torch."""

    python: str | None = None
    torch: str | None = None
    torch_git: str | None = None
    tlparse: ToolVersion | None = None


class Declarations(Model):
    """What the user says about the workload. Declared, not observed."""

    calls: int | None = None
    seed: int | None = None
    backend: str | None = None
    dynamic: bool | Literal["auto"] | None = Field(
        None, description="torch.compile(dynamic=...): true, false, or 'auto' for torch's default (None)."
    )
    device: str | None = None
    warmup_calls: int | None = None
    cache_policy: Literal["fresh", "warm", "custom"] | None = None
    extra: dict[str, str] = Field(default_factory=dict, description="Any other KEY=VALUE declared.")


class Workload(Model):
    command: list[str] = Field(default_factory=list)
    exit_code: int | None = None
    started_at: str | None = Field(None, description="ISO 8601 UTC.")
    wall_time_s: float | None = None
    completed: bool | None = Field(None, description="Declared completion: exit code 0 and no interruption.")
    incomplete_reason: str | None = None
    environment: dict[str, str] = Field(default_factory=dict, description="Only the variables the user named.")


class SourceFile(Model):
    path: str = Field(description="Path relative to the project root, as the trace's code locations map to it.")
    captured_path: str | None = Field(None, description="The absolute path the trace names.")
    snapshot: str = Field(description="Path of the snapshot inside the bundle, e.g. 'sources/model.py'.")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class Sources(Model):
    root: str | None = None
    revision: str | None = None
    dirty: bool | None = None
    files: list[SourceFile] = Field(default_factory=list)


class TraceFile(Model):
    path: str
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class Manifest(Model):
    schema_version: str = SCHEMA_VERSION
    kind: Literal["dynamo-diff-bundle"] = "dynamo-diff-bundle"
    label: str | None = None
    producer: Producer = Field(default_factory=Producer)
    declarations: Declarations = Field(default_factory=Declarations)
    workload: Workload = Field(default_factory=Workload)
    sources: Sources = Field(default_factory=Sources)
    raw_traces: list[TraceFile] = Field(default_factory=list)
    report: ToolVersion | None = Field(None, description="The tlparse conversion, when one was made.")
    extra: dict[str, Any] = Field(default_factory=dict)
