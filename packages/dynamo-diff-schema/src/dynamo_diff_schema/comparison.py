"""A comparison of two captures (or of ranks within one): comparability first, then per-function rows."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import Field

from dynamo_diff_schema.base import Model
from dynamo_diff_schema.capture import CompiledStatus, RunStatus
from dynamo_diff_schema.counts import Counts
from dynamo_diff_schema.evidence import Notice
from dynamo_diff_schema.suggestions import Suggestion
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
    NAME = "name"
    # The same qualified name, the only one on each side, in a file renamed or moved (neither file on the other side).
    QUALIFIED_NAME = "qualified_name"
    RESUME_PARENT = "resume_parent"
    # Generated code (docs/COMPARING.md, "Generated code"): identical graphs, then the position among the rest.
    GRAPH = "graph"
    ORDER = "order"
    NONE = "none"


class Area(StrEnum):
    """What a count or a change is about. A comparability difference names the areas it can change, so the rows
    and counts outside them stay readable (a cache-state difference does not explain a recompilation)."""

    COMPILATIONS = "compilations"
    RECOMPILATIONS = "recompilations"
    GRAPH_BREAKS = "graph_breaks"
    FAILURES = "failures"
    LIMITS = "limits"
    GUARDS = "guards"
    GRAPHS = "graphs"
    CACHE = "cache"
    COMPILE_TIME = "compile_time"


ALL_AREAS: tuple[Area, ...] = tuple(Area)
# The area of each count (Counts keys).
COUNT_AREAS: dict[str, Area] = {
    "observed_compilation_identities": Area.COMPILATIONS,
    "observed_attempts": Area.COMPILATIONS,
    "completed": Area.COMPILATIONS,
    "failed": Area.FAILURES,
    "no_graph_observed": Area.COMPILATIONS,
    "unknown_outcomes": Area.COMPILATIONS,
    "unresolved_outcomes": Area.COMPILATIONS,
    "confirmed_recompilation_identities": Area.RECOMPILATIONS,
    "confirmed_successful_recompilations": Area.RECOMPILATIONS,
    "additional_frame_compilations": Area.COMPILATIONS,
    "guard_reason_entries": Area.RECOMPILATIONS,
    "graph_break_records": Area.GRAPH_BREAKS,
    "unique_graph_break_sites": Area.GRAPH_BREAKS,
    "compiler_limit_events": Area.LIMITS,
    "restarts": Area.GRAPH_BREAKS,
    "cache_hits": Area.CACHE,
    "cache_misses": Area.CACHE,
    "backward_compilations": Area.COMPILATIONS,
}
# The area of each kind of row change.
CHANGE_AREAS: dict[str, Area] = {
    "recompile_reason": Area.RECOMPILATIONS,
    "graph_break_new": Area.GRAPH_BREAKS,
    "graph_break_gone": Area.GRAPH_BREAKS,
    "graph_break_moved": Area.GRAPH_BREAKS,
    "failure_new": Area.FAILURES,
    "failure_gone": Area.FAILURES,
    "limit": Area.LIMITS,
    "restarts": Area.GRAPH_BREAKS,
    "op_count": Area.GRAPHS,
    "op_histogram": Area.GRAPHS,
    "guard_count": Area.GUARDS,
    "backward": Area.GRAPHS,
    "generated_code": Area.GRAPHS,
    "cache": Area.CACHE,
    "phase_time": Area.COMPILE_TIME,
}


class Difference(Model):
    key: str
    source: str = Field(
        description="'observed' (the trace), 'observer' (seen inside the process by capture's observer), "
        "'recorded' (recorded by capture: the command, named environment variables) or 'declared' (manifest)."
    )
    baseline: Any = None
    candidate: Any = None
    rank: int | None = None
    affects: list[Area] = Field(
        default_factory=lambda: list(ALL_AREAS), description="The counts and changes this difference can explain."
    )
    effect: str | None = Field(
        None,
        description="What the key changes, in a short phrase of its family ('changes which guards dynamic shapes "
        "produce and when a new shape recompiles'); None in documents written before it was named.",
    )
    follows_from: str | None = Field(
        None,
        description="In `explained`: the key of the difference this one comes with ('torch_version', "
        "'compile.dynamic', 'program'); None for a difference that changes nothing counted (a launcher's "
        "rendezvous port).",
    )
    why: str | None = Field(
        None,
        description="Why it is explained, or why it could not be (e.g. 'the default of each version (2.13.0: true, "
        "2.14.1: false)', 'set in the candidate', 'could not tell default from user setting').",
    )


class Checked(Model):
    """A key found equal on both sides."""

    key: str
    source: str
    value: Any = Field(None, description="The shared value (a configuration family shows how many keys it holds).")


class Contradiction(Model):
    """A declaration that an observation of the same run contradicts (the observation is what is compared)."""

    side: str = Field(description="'baseline' or 'candidate'.")
    key: str
    declared: Any = None
    observed: Any = None


class Comparability(Model):
    verdict: Verdict = Field(
        description="'comparable': everything checked is equal and nothing essential is unchecked; 'confounded': "
        "something differs (see `differences` and what each affects); 'unknown': something essential could not "
        "be checked (see `missing`)."
    )
    differences: list[Difference] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list, description="What could not be checked, and on which side.")
    checked: list[Checked] = Field(default_factory=list, description="The keys found equal.")
    intended: list[Difference] = Field(
        default_factory=list,
        description="Differences the user named as the change under test (`--change KEY`): they do not confound.",
    )
    contradictions: list[Contradiction] = Field(default_factory=list)
    assumed: list[str] = Field(
        default_factory=list,
        description="Keys `compare` took as the change under test without `--change`, because every difference "
        "that confounded was a setting the user set: `intended` lists them and the verdict is the one `--change` "
        "would give. [] when nothing was assumed; `check` never assumes.",
    )
    explained: list[Difference] = Field(
        default_factory=list,
        description="Differences that confound nothing by themselves: what comes with another difference or with "
        "the change under test (`follows_from`: a torch version's own defaults and its build, settings torch derives "
        "from a torch.compile argument, the command naming another script), and differences that change nothing "
        "counted (a launcher's rendezvous options). Each says why.",
    )


class Side(Model):
    id: str
    label: str | None = None
    torch: str | None = None
    imported_at: str | None = None
    run: RunStatus | None = Field(None, description="How the run ended (None: not known to this document).")
    compiled: CompiledStatus | None = Field(
        None, description="Whether the run compiled anything (None: not known to this document)."
    )


class Totals(Model):
    baseline: Counts
    candidate: Counts


class GeneratedKind(StrEnum):
    """What a frame of generated code is (docs/COMPARING.md, "Generated code")."""

    COMPILED_AUTOGRAD = "compiled_autograd"
    FX_GRAPH = "fx_graph"


class GeneratedCode(Model):
    """A frame of code torch generated (an FX GraphModule's `forward`), not a function of the user's source."""

    kind: GeneratedKind = Field(
        description="'compiled_autograd': a backward graph Compiled Autograd captured and Dynamo compiled; "
        "'fx_graph': an FX GraphModule's generated code compiled on its own."
    )
    number: int = Field(
        ge=0,
        description="The compiled-autograd id (as in the compile id '!<id>/...'), or the FX graph's position among "
        "the run's FX graphs in compile order (from 0).",
    )
    co_filenames: list[str] = Field(
        default_factory=list,
        description="The file names torch gave the code, as the trace records them (one per rank that names it "
        "differently): the N of '<eval_with_key>.N' is torch.fx's count of modules generated so far in the process, "
        "not part of what the code is.",
    )
    co_name: str | None = None


class FunctionSide(Model):
    qualified_name: str | None = None
    name_from: str | None = Field(
        None,
        description="Where `qualified_name` comes from: 'source' (the definition in the run's source snapshot, "
        "e.g. 'Net.forward'), 'trace' (the code object's bare co_name, when there is no snapshot to read) or "
        "'generated' (code torch generated, named for what it is: see `generated`) or "
        "'compiled' (what the user compiled, when Dynamo compiled library code for a call from module-level code, "
        "from the function that compiled the model, or from a wrapper: 'LlamaForCausalLM.forward'; `file` and "
        "`line` are then the torch.compile call's, the line None when not known).",
    )
    generated: GeneratedCode | None = Field(
        None, description="Set when the frame is code torch generated (`file` is then its raw co_filename)."
    )
    file: str | None = None
    line: int | None = None
    called_at: int | None = Field(
        None, description="A library frame's piece: the line of the user's call it was compiled in place of."
    )
    rank: int | None = None
    compile_ids: list[str] = Field(default_factory=list)
    counts: Counts
    ranks_summed: int | None = Field(
        None,
        description="In a capture of several ranks: how many ranks `counts` sums over (every rank of the capture, "
        "0 on a rank where the function did not compile). None: one rank.",
    )
    per_rank: dict[str, dict[str, int]] = Field(
        default_factory=dict,
        description="For each count whose value differs between the ranks summed: rank (as text) -> its value on "
        "that rank. A count not listed has the same value on every rank (counts / ranks_summed).",
    )


class ChangeKind(StrEnum):
    """What a row's change is about (docs/COMPARING.md lists each with its meaning)."""

    FAILURE_NEW = "failure_new"
    FAILURE_GONE = "failure_gone"
    LIMIT = "limit"
    RECOMPILE_REASON = "recompile_reason"
    GRAPH_BREAK_NEW = "graph_break_new"
    GRAPH_BREAK_GONE = "graph_break_gone"
    GRAPH_BREAK_MOVED = "graph_break_moved"
    RESTARTS = "restarts"
    UNFINISHED = "unfinished"
    BACKWARD = "backward"
    GENERATED_CODE = "generated_code"
    OP_COUNT = "op_count"
    OP_HISTOGRAM = "op_histogram"
    GUARD_COUNT = "guard_count"
    CACHE = "cache"
    PHASE_TIME = "phase_time"
    SOURCE = "source"


class Change(Model):
    """One thing that changed on a row, with the evidence on each side."""

    kind: ChangeKind
    summary: str
    baseline: Any = None
    candidate: Any = None
    baseline_evidence: list[str] = Field(default_factory=list)
    candidate_evidence: list[str] = Field(default_factory=list)


class FunctionPiece(Model):
    """One compiled frame of a row's function, with its own counts: its own frame, a resume function Dynamo made
    after a graph break (`torch_dynamo_resume_in_<fn>_at_<line>`), or a frame of library code it called that Dynamo
    compiled in its place (`library_file`; each side's `called_at`)."""

    name: str = Field(description="The frame's name, e.g. 'forward' or 'torch_dynamo_resume_in_forward_at_40'.")
    library_file: str | None = Field(
        None,
        description="For a frame compiled in library code (torch, an installed package), counted in the user's "
        "function that called it: the frame's file from its package on, e.g. 'torch/_dynamo/external_utils.py'.",
    )
    status: RowStatus
    method: MatchMethod
    reason: str = ""
    baseline: FunctionSide | None = None
    candidate: FunctionSide | None = None
    deltas: dict[str, int] = Field(default_factory=dict)


class FunctionRow(Model):
    status: RowStatus
    method: MatchMethod
    reason: str = Field("", description="Why the two sides were (or were not) matched, in one line.")
    alternatives: list[str] = Field(
        default_factory=list,
        description="Ambiguous rows: what fitted as well. Unmatched rows: likely counterparts on the other side "
        "(same name, or same file), to pair with a source map ('path::name@line' ids).",
    )
    baseline: FunctionSide | None = None
    candidate: FunctionSide | None = None
    deltas: dict[str, int] = Field(default_factory=dict, description="candidate - baseline per count key.")
    changes: list[Change] = Field(default_factory=list)
    pieces: list[FunctionPiece] = Field(
        default_factory=list,
        description="The frames counted in this row when the function broke into several: its own and its resume "
        "functions, each with its counts (empty when it compiled as one frame on both sides).",
    )
    suggestions: list[Suggestion] = Field(
        default_factory=list,
        description="Next steps for what is new or grew in the candidate (its recompilations, graph breaks, "
        "failures), computed from the candidate's compilations of this function (docs/SEMANTICS.md, "
        '"Suggestions").',
    )


class RankDivergence(Model):
    rank: int | None
    reference_rank: int | None
    index: int | None = Field(None, description="Position in the compile order where the ranks first differ.")
    compile_id: str | None = Field(None, description="The rank's compilation at that position (None: it has none).")
    reference_compile_id: str | None = Field(None, description="The reference rank's compilation there.")
    reason: str
    evidence_ids: list[str] = Field(default_factory=list)


class RankGroup(Model):
    """Ranks with identical behaviour: the same behaviour signature (docs/COMPARING.md, "The rank view")."""

    behaviour: str = Field(description="Short sha256 of the behaviour signature the group's ranks share.")
    ranks: list[int | None] = Field(description="The ranks of the group, ascending (None: a rank not named).")
    rank_ranges: str = Field(description="The same ranks written compactly, e.g. '0-3, 5, 7-4095'.")
    size: int = Field(ge=1, description="How many ranks the group holds.")
    representative: int | None = Field(
        description="The rank that stands for the group: the reference rank in the reference group, else the "
        "lowest rank; divergences and rows name it."
    )
    reference: bool = Field(False, description="The group of the reference rank (listed first).")
    counts: Counts = Field(
        description="The representative's counts. Counts the signature fixes (compilations, recompilations, "
        "breaks, failures, limits) are equal across the group; cache counts and compile time may differ."
    )


class RankView(Model):
    reference_rank: int | None
    ranks: list[int | None]
    groups: list[RankGroup] = Field(
        default_factory=list,
        description="Ranks grouped by behaviour: the reference rank's group first, then the others by size "
        "(largest first), then lowest rank.",
    )
    counts: dict[str, Counts] = Field(default_factory=dict, description="Rank (as text) -> counts.")
    divergences: list[RankDivergence] = Field(
        default_factory=list,
        description="For each group but the reference group, where its representative first diverges from the "
        "reference rank (in the order of `groups`).",
    )


class Comparison(Model):
    schema_version: str = SCHEMA_VERSION
    id: str = Field(description="sha256 of the two capture ids, the user map and the compare version.")
    kind: Literal["comparison", "rank_view"] = Field(
        "comparison",
        description="'comparison' (a baseline against a candidate; comparison.schema.json) or 'rank_view' (the ranks "
        "of one capture, `ranks` set; rank_view.schema.json).",
    )
    baseline: Side
    candidate: Side
    comparability: Comparability
    totals: Totals
    functions: list[FunctionRow] = Field(default_factory=list)
    ranks: RankView | None = None
    notices: list[Notice] = Field(default_factory=list)
