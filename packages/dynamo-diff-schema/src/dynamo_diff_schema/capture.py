"""A capture: one recorded run, normalized. This is also the document `dynamo-diff analyze --format json` prints."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import Field, model_validator

from dynamo_diff_schema.base import Model
from dynamo_diff_schema.compilation import CodeLocation, Compilation
from dynamo_diff_schema.counts import Counts
from dynamo_diff_schema.evidence import Evidence, Notice
from dynamo_diff_schema.lists import head
from dynamo_diff_schema.manifest import CompileCall, Manifest, Producer, SourceFile
from dynamo_diff_schema.suggestions import Suggestion
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
    sources_found_beside: list[SourceFile] = Field(
        default_factory=list,
        description="A bare log imported from a folder: the Python files of that folder whose path is the tail of a "
        "file the trace names, kept as the capture's source snapshot (`path`: inside the folder; `snapshot`: inside "
        "the capture). Found beside the log at import, not recorded when it ran: they may differ from what ran. "
        "Empty for a bundle (its snapshots were taken when it ran) and for a log imported as a file.",
    )

    def sources_note(self) -> str | None:
        """What views say of snapshots found beside a bare log at import (None when there are none)."""
        n = len({f.snapshot for f in self.sources_found_beside})
        if not n:
            return None
        return (
            f"sources: {n} file{'s' if n != 1 else ''} found beside the log at import (not recorded with the run; "
            f"{'they' if n != 1 else 'it'} may differ from what ran)"
        )


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


class CompiledState(StrEnum):
    """Whether the run compiled anything (docs/SEMANTICS.md, "Runs that compiled nothing")."""

    COMPILED = "compiled"  # at least one frame was compiled, and not every one of them ended without a graph
    NOTHING_COMPILED = "nothing_compiled"  # no frame was compiled (torch writes no trace file for such a run)
    NO_GRAPH = "no_graph"  # frames were compiled, but every compilation ended without a graph (no_graph_observed)


class CompiledStatus(Model):
    """Said first in every view when it is not `compiled`: a run that compiled nothing has every count 0, which
    reads as a perfect run, and a CI gate fails on it."""

    state: CompiledState
    summary: str = Field(
        description="One line for people, e.g. 'torch.compile was called 2 times (Net at train.py:27) but no frame "
        "was compiled'."
    )
    compilations: int = Field(ge=0, description="Compilations (observed_compilation_identities) over all ranks.")
    torch_compile_calls: int | None = Field(
        None,
        description="How many times the observer saw torch.compile called (capture.manifest.observed.compile_calls "
        "has each call site); None: not observed (a bare trace, --no-observe, or no Python process seen).",
    )


def _call_site(call: CompileCall) -> str:
    """'Net at train.py:27' (the observer's target and the file name and line of the user code that called it)."""
    where = call.caller.replace("\\", "/").rsplit("/", 1)[-1] if call.caller else None
    target = call.target or "?"
    return f"{target} at {where}" if where else target


def compiled_status(counts: Counts, manifest: Manifest | None) -> CompiledStatus:
    """Whether a run compiled anything, from its counts and what capture's observer saw of torch.compile."""
    observed = manifest.observed if manifest is not None else None
    calls: int | None = None
    sites = ""
    if observed is not None and observed.processes:
        calls = sum(c.calls for c in observed.compile_calls)
        calls_shown, more = head(observed.compile_calls, 3)
        shown = [_call_site(c) for c in calls_shown]
        sites = "; ".join(shown) + (f"; {more} more call site(s)" if more > 0 else "")
    compilations = counts.observed_compilation_identities
    said = None if calls is None else "once" if calls == 1 else f"{calls} times"
    if compilations == 0:
        state = CompiledState.NOTHING_COMPILED
        if calls is None:
            summary = "no frame was compiled (whether torch.compile was called was not observed)"
        elif calls == 0:
            summary = "torch.compile was never called and no frame was compiled"
        else:
            summary = f"torch.compile was called {said} ({sites}) but no frame was compiled"
    elif counts.no_graph_observed == compilations:
        state = CompiledState.NO_GRAPH
        summary = (
            f"frames ran but no graph reached the backend: {compilations} compilation(s), every one without a graph"
        )
        if calls:
            summary += f" (torch.compile was called {said}: {sites})"
    else:
        state = CompiledState.COMPILED
        summary = f"{compilations} compilation(s)"
    return CompiledStatus(state=state, summary=summary, compilations=compilations, torch_compile_calls=calls)


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
    compiled: CompiledStatus = Field(
        description="Whether the run compiled anything; said first when it did not (captures of earlier readers: "
        "derived from their counts and manifest when read)."
    )
    validity: Validity
    manifest: Manifest | None = None
    observed_config: list[ObservedConfig] = Field(default_factory=list)
    entry_script: str | None = Field(
        None,
        description="The script the run started from, as the trace shows it: the file of the outermost frame "
        "(module-level code) of the first stack torch recorded when a compilation started (dynamo_start), on the "
        "lowest rank that has one; None when no stack starts at module-level code (a thread, `python -m`).",
    )
    record_kinds: dict[str, int] = Field(default_factory=dict, description="Record kind -> number of records.")
    noise_lines: int = Field(0, ge=0, description="Lines that were not trace lines.")


class Capture(Model):
    kind: Literal["capture"] = "capture"
    schema_version: str = SCHEMA_VERSION
    capture: CaptureInfo
    counts: Counts = Field(description="Summed over ranks.")
    ranks: list[Rank]
    notices: list[Notice] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    suggestions: list[Suggestion] = Field(
        default_factory=list,
        description="Next steps for the causes it shows, computed when it is shown (`dynamo-diff analyze`), never "
        "stored: the run's first, then each function's, then each compilation's (docs/SEMANTICS.md, "
        '"Suggestions").',
    )

    @model_validator(mode="before")
    @classmethod
    def _compiled_of_earlier_documents(cls, data: Any) -> Any:
        """A capture stored before captures said whether anything compiled: derived from what it holds."""
        info = data.get("capture") if isinstance(data, dict) else None
        if not isinstance(info, dict) or "compiled" in info:
            return data
        manifest = info.get("manifest")
        status = compiled_status(
            Counts.model_validate(data.get("counts", {})),
            Manifest.model_validate(manifest) if manifest is not None else None,
        )
        return {**data, "capture": {**info, "compiled": status}}
