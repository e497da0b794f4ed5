"""A comparison of two captures (or of ranks within one): comparability first, then per-function rows."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field

from dynamo_diff_schema.base import Model
from dynamo_diff_schema.counts import Counts
from dynamo_diff_schema.evidence import Notice
from dynamo_diff_schema.version import SCHEMA_VERSION


class Verdict(StrEnum):
    COMPARABLE = "comparable"
    CONFOUNDED = "confounded"
    UNKNOWN = "unknown"


class RowStatus(StrEnum):
    MATCHED = "matched"
    BASELINE_ONLY = "baseline_only"
    CANDIDATE_ONLY = "candidate_only"
    AMBIGUOUS = "ambiguous"


class MatchMethod(StrEnum):
    USER_MAP = "user_map"
    STRUCTURE = "structure"
    LINE_DIFF = "line_diff"
    SAME_LOCATION = "same_location"
    RESUME_PARENT = "resume_parent"
    NONE = "none"


class Difference(Model):
    key: str
    source: str = Field(description="'declared' (manifest) or 'observed' (trace configuration).")
    baseline: Any = None
    candidate: Any = None
    rank: int | None = None


class Comparability(Model):
    verdict: Verdict
    differences: list[Difference] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list, description="What could not be checked, and on which side.")


class Side(Model):
    id: str
    label: str | None = None
    torch: str | None = None
    imported_at: str | None = None


class Totals(Model):
    baseline: Counts
    candidate: Counts


class FunctionSide(Model):
    qualified_name: str | None = None
    file: str | None = None
    line: int | None = None
    rank: int | None = None
    compile_ids: list[str] = Field(default_factory=list)
    counts: Counts


class Change(Model):
    """One thing that changed on a row, with the evidence on each side."""

    kind: str = Field(description="e.g. 'graph_break_new', 'recompile_reason', 'op_count', 'cache', 'phase_time'.")
    summary: str
    baseline: Any = None
    candidate: Any = None
    baseline_evidence: list[str] = Field(default_factory=list)
    candidate_evidence: list[str] = Field(default_factory=list)


class FunctionRow(Model):
    status: RowStatus
    method: MatchMethod
    reason: str = Field("", description="Why the two sides were (or were not) matched, in one line.")
    alternatives: list[str] = Field(default_factory=list, description="Ambiguous rows: what fitted as well.")
    baseline: FunctionSide | None = None
    candidate: FunctionSide | None = None
    deltas: dict[str, int] = Field(default_factory=dict, description="candidate - baseline per count key.")
    changes: list[Change] = Field(default_factory=list)


class RankDivergence(Model):
    rank: int | None
    reference_rank: int | None
    index: int | None = Field(None, description="Position in the compile order where the ranks first differ.")
    compile_id: str | None = Field(None, description="The rank's compilation at that position (None: it has none).")
    reference_compile_id: str | None = Field(None, description="The reference rank's compilation there.")
    reason: str
    evidence_ids: list[str] = Field(default_factory=list)


class RankView(Model):
    reference_rank: int | None
    ranks: list[int | None]
    counts: dict[str, Counts] = Field(default_factory=dict, description="Rank (as text) -> counts.")
    divergences: list[RankDivergence] = Field(default_factory=list)


class Comparison(Model):
    schema_version: str = SCHEMA_VERSION
    id: str = Field(description="sha256 of the two capture ids, the user map and the compare version.")
    kind: str = Field("captures", description="'captures' (baseline vs candidate) or 'ranks' (within one).")
    baseline: Side
    candidate: Side
    comparability: Comparability
    totals: Totals
    functions: list[FunctionRow] = Field(default_factory=list)
    ranks: RankView | None = None
    notices: list[Notice] = Field(default_factory=list)
