"""A test's compile behaviour as a small committed document (`compile_snapshot`), and the verdict of a new run
against it (`snapshot_verdict`). The snapshot holds what survives unrelated edits and reruns: per source function
(by qualified name) its compilations, recompilations by guard category, graph breaks by key and site relative to
the function, and failures by type; no absolute paths, no absolute line numbers, no ids that change every run.
A snapshot built from a capture also carries the capture's id and the evidence ids behind each entry, which the
written file leaves out (docs/INTEGRATIONS.md, "Compile snapshots")."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from dynamo_diff_schema.base import Model
from dynamo_diff_schema.version import SCHEMA_VERSION


class SnapshotBreak(Model):
    """The graph breaks of one function at one site with one key."""

    gb: str = Field(
        description="The break's key: torch's 'gbNNNN' registry id, else its graph-break type, else the first line "
        "of its message."
    )
    site: str = Field(
        description="Where in the function: '+N', the break's user line N lines after the function's first line "
        "(its decorators included), in the function's own file; else the file the break is in, without a line "
        "(relative to the project, or the library path, e.g. 'torch/nn/modules/module.py'); '?' when the trace "
        "names no user frame."
    )
    count: int = Field(ge=1, description="Break records with this key at this site.")


class SnapshotFunction(Model):
    """One source function with everything compiled from it (its resume functions included)."""

    qualified_name: str = Field(description="As the comparison names the function ('Net.forward').")
    file: str | None = Field(
        None,
        description="The function's file, relative to the project (the capture's source snapshot) or the library "
        "path; a file name alone when neither is known. Never an absolute path.",
    )
    structure: str | None = Field(
        None,
        description="The first 16 hex digits of the function's AST hash (positions and its own name left out), "
        "when the capture has its source: pairs a renamed function whose body is unchanged.",
    )
    compilations: int = Field(ge=0, description="Compilation identities (observed_compilation_identities).")
    recompiles: int = Field(ge=0, description="Confirmed recompilations (confirmed_recompilation_identities).")
    recompiles_by_category: dict[str, int] = Field(
        default_factory=dict,
        description="Guard category -> confirmed recompilations with a failing guard of that category (one "
        "recompilation counts once under each category among its failing guards; 'unknown' when torch wrote no "
        "guard text).",
    )
    graph_breaks: list[SnapshotBreak] = Field(default_factory=list, description="Sorted by key, then site.")
    failures: dict[str, int] = Field(
        default_factory=dict, description="Failure type (compilation_metrics fail_type) -> failed compilations."
    )
    evidence: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Only in a snapshot built from a capture (never written): entry -> the capture's evidence ids "
        "behind it; entries 'recompile:<category>', 'graph_break:<gb>@<site>', 'failure:<type>'.",
    )
    details: dict[str, str] = Field(
        default_factory=dict,
        description="Only in a snapshot built from a capture (never written): entry (as in `evidence`) -> what the "
        "trace says of its first instance: the failing guard's text, the break's type and user file:line, the "
        "failure's reason.",
    )


class CompileSnapshot(Model):
    """`compile_snapshot`: a run's compile behaviour per function, written sorted with one value per line."""

    kind: Literal["compile_snapshot"] = "compile_snapshot"
    schema_version: str = SCHEMA_VERSION
    torch: str | None = Field(None, description="The torch version the run used, as the trace says (e.g. '2.13.0').")
    test: str | None = Field(None, description="The test the snapshot is of (a pytest node id), when one is.")
    capture: str | None = Field(
        None, description="Only in a snapshot built from a capture (never written): the capture's id."
    )
    functions: list[SnapshotFunction] = Field(default_factory=list, description="Sorted by qualified name, then file.")


SnapshotEffect = Literal["regression", "improvement", "info"]
SnapshotOutcome = Literal["unchanged", "improved", "regressed", "changed", "upgrade"]


class SnapshotChange(Model):
    """One difference between the committed snapshot and the run."""

    function: str = Field(description="The function's qualified name in the run (in the snapshot when it is gone).")
    effect: SnapshotEffect = Field(
        description="regression: a recompilation, graph break or failure the snapshot does not have; improvement: "
        "one it has that the run does not; info: compilations or functions that came or went."
    )
    what: Literal["recompile", "graph_break", "failure", "compilations", "function"]
    key: str | None = Field(
        None, description="The guard category, '<gb>@<site>' of a break, or the failure type; None for the rest."
    )
    snapshot: int = Field(ge=0, description="The count in the committed snapshot.")
    run: int = Field(ge=0, description="The count in the run.")
    text: str = Field(description="The line as a pytest failure prints it.")
    evidence_ids: list[str] = Field(
        default_factory=list, description="The run's evidence ids behind it (none for what the run does not have)."
    )


class SnapshotPairing(Model):
    """A function of the snapshot paired with one of the run under another name or in another file."""

    snapshot: str = Field(description="'qualified name (file)' in the snapshot.")
    run: str = Field(description="'qualified name (file)' in the run.")
    method: Literal["qualified_name", "identical_source"] = Field(
        description="qualified_name: the same name in another file; identical_source: the same AST hash."
    )


class SnapshotVerdict(Model):
    """`snapshot_verdict`: a run against a committed snapshot. Fails on a regression unless the torch versions
    differ: then the changes are those of the torch upgrade and the verdict passes, reporting them (outcome
    'upgrade'), unless the caller asked upgrades to fail."""

    kind: Literal["snapshot_verdict"] = "snapshot_verdict"
    schema_version: str = SCHEMA_VERSION
    test: str | None = Field(None, description="The test, when one is.")
    passed: bool
    outcome: SnapshotOutcome = Field(
        description="unchanged; improved (only improvements, or with info); regressed; changed (only info: "
        "compilations or functions that came or went); upgrade (another torch version, whatever changed)."
    )
    summary: str = Field(description="One line: the outcome and how many changes of each effect.")
    snapshot_torch: str | None = Field(None, description="The torch version the snapshot was taken on.")
    run_torch: str | None = Field(None, description="The torch version of the run.")
    upgrade: bool = Field(False, description="The two torch versions differ (local tags such as '+cpu' ignored).")
    capture: str | None = Field(None, description="The run's capture id, when known (its evidence ids resolve there).")
    changes: list[SnapshotChange] = Field(default_factory=list, description="Regressions first, then improvements.")
    paired: list[SnapshotPairing] = Field(
        default_factory=list, description="Functions paired under another name or in another file."
    )
