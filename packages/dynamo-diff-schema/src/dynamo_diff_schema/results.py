"""The documents the operations return besides a capture, a comparison and a run report: the capture list, an
import, a check verdict, the evidence index, an excerpt, grep matches, a function's source, a source diff, a
store check, a removal and an export. Each carries `kind` (its committed schema is `<kind>.schema.json`) and
`schema_version`; the CLI prints them with `--format json` and the MCP server returns the same models."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from dynamo_diff_schema.base import Model
from dynamo_diff_schema.capture import Capture
from dynamo_diff_schema.counts import Counts
from dynamo_diff_schema.errors import ErrorCode
from dynamo_diff_schema.evidence import Evidence, EvidenceEntry, GrepMatch
from dynamo_diff_schema.suggestions import Suggestion
from dynamo_diff_schema.version import SCHEMA_VERSION

CheckLevel = Literal["ok", "fail", "warn", "info"]

OUTLINE = (
    "MCP only (the CLI never sets it): set when this is the document's outline, a tool's default structured "
    "content: kind, ids (short ones, as the text writes them), run status, offsets and each item's identity and "
    "headline counts, without what the result's text says (a required text is written empty). It names the "
    "argument that returns the whole document (full=true)."
)


class CaptureRow(Model):
    """One capture of the store, as the index holds it (no document is read)."""

    id: str = Field(pattern=r"^[0-9a-f]{64}$")
    label: str | None = None
    run_state: str = Field(description="How the run ended (RunState: completed, exited, killed, ..., unknown).")
    compiled_state: str = Field(description="CompiledState: compiled, nothing_compiled (no frame) or no_graph.")
    imported_at: str = Field(description="ISO 8601 UTC.")
    input_kind: str
    torch_version: str | None = None
    artifact_structure: str
    rank_count: int = Field(ge=0)
    counts: Counts = Field(description="The capture's counts, summed over ranks.")


class CaptureList(Model):
    """`dynamo-diff list`: every capture in the store, newest first."""

    kind: Literal["capture_list"] = "capture_list"
    schema_version: str = SCHEMA_VERSION
    captures: list[CaptureRow] = Field(default_factory=list)


class ImportedCapture(Model):
    """One run imported (or found already in the store, `created` false)."""

    id: str = Field(pattern=r"^[0-9a-f]{64}$")
    label: str | None = Field(None, description="The label the capture has after the import.")
    created: bool = Field(description="False: a capture of the same bytes was already in the store.")
    input: str = Field(description="The path imported, as given (for a folder of runs: the run's sub-folder).")
    summary: Capture = Field(
        description="The capture without its compilations and evidence (ids, counts, per-rank counts, notices); "
        "`analyze ID --format json` has the compilations."
    )


class FailedRun(Model):
    """A run of a folder of runs that could not be imported (the others were)."""

    input: str = Field(description="The run's folder, as given plus the sub-folder.")
    code: ErrorCode
    message: str


class ImportResult(Model):
    """`dynamo-diff import`: one run, or each run of a folder whose sub-folders (or their sub-folders: two levels)
    are runs (labelled by folder name, a label another capture has left off)."""

    kind: Literal["import_result"] = "import_result"
    schema_version: str = SCHEMA_VERSION
    folder_of_runs: bool = Field(False, description="The path was a folder of runs, each imported on its own.")
    captures: list[ImportedCapture] = Field(default_factory=list)
    failed: list[FailedRun] = Field(
        default_factory=list, description="A folder of runs: the runs found that could not be imported, and why."
    )


class CheckFinding(Model):
    """One line of the gate: a rule and what it found."""

    level: CheckLevel = Field(description="fail: the rule fired (the check fails); ok, warn or info otherwise.")
    rule: str = Field(
        description="compiled, run, same_capture, recompilations, graph_breaks, failures or comparability."
    )
    text: str = Field(description="The line as the CLI prints it.")
    functions: list[str] = Field(
        default_factory=list, description="For a failed count: the functions whose count grew, as printed."
    )
    suggestions: list[Suggestion] = Field(
        default_factory=list,
        description="For a failed count: the next steps for what grew, from the candidate's compilations of those "
        "functions (each also printed under its function).",
    )


class CheckBounds(Model):
    """What the gate was asked to check (None: a bound not given, not checked)."""

    max_new_recompiles: int | None = None
    max_new_graph_breaks: int | None = None
    fail_on_new_failures: bool = False
    fail_on_confounded: bool = False
    allow_incomplete: bool = False
    allow_empty: bool = False


class CheckVerdict(Model):
    """`dynamo-diff check`: the CI gate's verdict. Exit status 0 when it passed, 1 when a rule fired (the rules in
    `fired`); 2 is an error, printed as an error document instead."""

    kind: Literal["check"] = "check"
    schema_version: str = SCHEMA_VERSION
    passed: bool
    exit_code: Literal[0, 1] = Field(description="0: within bounds; 1: a rule fired.")
    baseline: str = Field(description="The baseline's capture id.")
    candidate: str = Field(description="The candidate's capture id.")
    comparison_id: str
    bounds: CheckBounds
    fired: list[str] = Field(default_factory=list, description="The rules that failed the check, in order.")
    findings: list[CheckFinding] = Field(default_factory=list)


class EvidenceIndex(Model):
    """`dynamo-diff evidence ID`: one page of a capture's evidence index."""

    kind: Literal["evidence_index"] = "evidence_index"
    schema_version: str = SCHEMA_VERSION
    outline: str | None = Field(None, description=OUTLINE)
    capture: str = Field(description="The capture id.")
    total: int = Field(ge=0, description="Entries that match the filters.")
    offset: int = Field(ge=0)
    next_offset: int | None = Field(None, description="The offset of the next page (None: this is the last).")
    items: list[EvidenceEntry] = Field(default_factory=list)


class EvidenceExcerpt(Model):
    """`dynamo-diff evidence ID EVIDENCE_ID`: a slice of one record's text, its sha256 checked on reading."""

    kind: Literal["evidence_excerpt"] = "evidence_excerpt"
    schema_version: str = SCHEMA_VERSION
    outline: str | None = Field(None, description=OUTLINE)
    capture: str = Field(description="The capture id.")
    evidence: Evidence
    offset: int = Field(ge=0, description="First character of `text` in the record's text.")
    next_offset: int | None = Field(None, description="Where the rest starts (None: `text` reaches the end).")
    total_chars: int = Field(ge=0, description="Characters of the text paged: the condensed text when `condensed`.")
    text: str
    condensed: bool = Field(
        False,
        description="Whether the text is the record condensed: each run of library stack frames (torch, the "
        "standard library, installed packages) one line `... N frames in torch/_dynamo ...`, the user's frames "
        "kept (a JSON stack's filenames resolved), the embedded configuration left out; everything else as "
        "written. False: the record's text as written (`--full`).",
    )
    collapsed_frames: int = Field(0, ge=0, description="Library stack frames the condensed text collapses.")
    config_chars: int = Field(0, ge=0, description="Characters of embedded configuration the condensed text omits.")
    compact: str | None = Field(
        None,
        description="When the payload (a graph's code, a guard tree, Inductor's module) is shown compact: what that "
        "left out or shortened (every node, guard leaf and kernel line is kept). None: the payload as written.",
    )
    record_chars: int | None = Field(
        None, ge=0, description="When `condensed`: the length of the record's text as written."
    )


class EvidenceExcerpts(Model):
    """`get_evidence` with several evidence ids and no grep: each record's excerpt in turn, each paged by its own
    characters (`max_chars` each)."""

    kind: Literal["evidence_excerpts"] = "evidence_excerpts"
    schema_version: str = SCHEMA_VERSION
    outline: str | None = Field(None, description=OUTLINE)
    capture: str = Field(description="The capture id.")
    excerpts: list[EvidenceExcerpt] = Field(
        default_factory=list, description="The records asked for, in the order asked, each as `evidence_excerpt`."
    )
    excerpts_omitted: int = Field(
        0, ge=0, description="Records asked for and left out to fit the response (read each alone)."
    )


class EvidenceDiff(Model):
    """`dynamo-diff evidence ID EVIDENCE_ID --diff [REF:]ID2`: a unified diff of two records as shown (compact unless
    `--full`), their first, envelope line left out (its time and ids always differ)."""

    kind: Literal["evidence_diff"] = "evidence_diff"
    schema_version: str = SCHEMA_VERSION
    outline: str | None = Field(None, description=OUTLINE)
    capture: str = Field(description="The capture id of the first record.")
    evidence: Evidence
    other_capture: str = Field(description="The capture id of the second record.")
    other: Evidence
    compact: bool = Field(False, description="Whether either record is shown compact (as `evidence_excerpt.compact`).")
    lines_differ: int = Field(ge=0, description="The diff's `-` and `+` lines: 0 when the two read the same.")
    lines: list[str] = Field(
        default_factory=list,
        description="The unified diff (`--- A`, `+++ B`, `@@` hunks with 2 lines of context); [] when the same.",
    )
    lines_omitted: int = Field(0, ge=0, description="Diff lines left out at the end to fit the response.")


class EvidenceGrep(Model):
    """`dynamo-diff evidence ID EVIDENCE_ID --grep PATTERN`: the lines of one record that match."""

    kind: Literal["evidence_grep"] = "evidence_grep"
    schema_version: str = SCHEMA_VERSION
    outline: str | None = Field(None, description=OUTLINE)
    capture: str = Field(description="The capture id.")
    evidence: Evidence
    pattern: str = Field(description="A regular expression, else plain text; matched in any case.")
    total_matches: int = Field(
        ge=0, description="Matches in the text searched (a short line counts once, a long one per occurrence)."
    )
    shown_matches: int = Field(0, ge=0, description="Of them, those `matches` show (the first `max_matches`).")
    compact: bool = Field(
        False,
        description="Whether the lines searched and shown are the record shown compact (a graph's code, a guard "
        "tree, Inductor's module: `evidence_excerpt.compact`); a pattern found only in the record as written is "
        "searched there (then False).",
    )
    in_config: bool = Field(
        False,
        description="The configuration the record embeds (compilation_metrics' serialized dynamo_config, "
        "inductor_config, functorch_config, compiler_config) was searched too; by default only the record's own text.",
    )
    config_matches: int = Field(
        0, ge=0, description="Matches inside the embedded configuration (searched only with in_config)."
    )
    matches: list[GrepMatch] = Field(default_factory=list)


class EvidenceHit(Model):
    """One record a capture-wide search matched: the record, its matches, the first of them shown."""

    evidence: EvidenceEntry
    total_matches: int = Field(ge=0, description="Matches in the record's text searched.")
    shown_matches: int = Field(0, ge=0, description="Of them, those `matches` show.")
    matches: list[GrepMatch] = Field(default_factory=list, description="The ones shown (overlapping merged).")
    compact: bool = Field(
        False,
        description="Whether the lines searched and shown are the record shown compact (a graph's code, a guard "
        "tree, Inductor's module: `evidence_excerpt.compact`); a pattern found only in the record as written is "
        "searched there (then False).",
    )

    def heading(self) -> str:
        """`u1-e6 recompile_reasons 0/1 f: 2 match(es), 1 shown`: the record, what it is about, its matches."""
        e = self.evidence
        about = f" {e.function}" if e.function else ""
        of = "" if self.shown_matches == self.total_matches else f", {self.shown_matches} shown"
        compact = " (compact)" if self.compact else ""
        return f"{e.id} {e.kind} {e.compile_id or '-'}{about}{compact}: {self.total_matches} match(es){of}"


class EvidenceSearch(Model):
    """`dynamo-diff evidence ID --grep PATTERN` (no evidence id): the capture's records whose text matches, each
    with its matching windows; the embedded configuration searched only with `in_config`."""

    kind: Literal["evidence_search"] = "evidence_search"
    schema_version: str = SCHEMA_VERSION
    outline: str | None = Field(None, description=OUTLINE)
    capture: str = Field(description="The capture id.")
    pattern: str = Field(description="A regular expression, else plain text; matched in any case.")
    in_config: bool = Field(False, description="The configuration records embed was searched too.")
    records_searched: int = Field(
        ge=0, description="Records searched (those the kind/function/compile id filters keep)."
    )
    records_matched: int = Field(0, ge=0, description="Of them, those with a match.")
    total_matches: int = Field(0, ge=0, description="Matches in all the records searched.")
    shown_matches: int = Field(0, ge=0, description="Of them, those shown (at most `max_matches`).")
    config_matches: int = Field(
        0, ge=0, description="Matches inside embedded configuration (searched only with in_config)."
    )
    joint_graphs_skipped: int = Field(
        0,
        ge=0,
        description="aot_joint_graph records not searched: their compilation's aot_forward_graph and "
        "aot_backward_graph records hold the same nodes, partitioned (a kind filter of aot_joint_graph, or their "
        "evidence ids, searches them).",
    )
    records: list[EvidenceHit] = Field(
        default_factory=list,
        description="Every record with a match, in trace order; past the first `max_matches` matches a record's "
        "`matches` is empty (its count says how many it has).",
    )


class SourceLocation(Model):
    """One compiled function's lines in the run's captured snapshot (never the working-tree file)."""

    co_filename: str
    co_firstlineno: int
    snapshot: str = Field(description="The snapshot's path inside the capture.")
    first_line: int = Field(ge=1)
    last_line: int = Field(ge=1)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="Of the whole snapshot text.")
    text: str = Field(
        description="The snapshot from line `text_first_line` on: the whole snapshot in the CLI's document (line N "
        "of it is line N of the file as it was compiled); in an MCP result only the lines shown (the function "
        "with its context lines)."
    )
    text_first_line: int = Field(1, ge=1, description="The file's line number of the first line of `text`.")
    compiled: bool = Field(
        True, description="False: a function defined in a captured file that this run did not compile (found by name)."
    )
    line: int | None = Field(None, description="Asked for as FILE:LINE: that line (shown with `context` lines around).")
    name: str | None = Field(
        None, description="The function's qualified name in the snapshot; for a line, the function holding it."
    )


class SourceResult(Model):
    """`dynamo-diff source ID FUNCTION` (or `--file PATH`): every compiled function the name names, with its
    captured lines, or one whole captured file."""

    kind: Literal["source"] = "source"
    schema_version: str = SCHEMA_VERSION
    outline: str | None = Field(None, description=OUTLINE)
    capture: str = Field(description="The capture id.")
    function: str = Field(description="The name as given ('' for a whole file: see `file`).")
    file: str | None = Field(None, description="The file as given, when the whole captured file was asked for.")
    context: int = Field(0, ge=0, description="Lines shown before and after each function (the whole file: not used).")
    locations: list[SourceLocation] = Field(default_factory=list)
    sources_note: str | None = Field(
        None,
        description="Set when the snapshots were found beside a bare log at import, not recorded when it ran (they "
        "may differ from what ran): says so and how many files.",
    )


class FunctionSourceDiff(Model):
    """A piece of code whose lines differ between the two runs' source snapshots: a compiled function, a function
    that called it or that it calls, or a whole file."""

    qualified_name: str | None = Field(None, description="None for a whole file.")
    role: Literal["function", "caller", "callee", "file"] = Field(
        "function",
        description="What the code is: 'function' (a compiled function), 'caller' (a function below it on the "
        "stack torch recorded when it compiled: the call site), 'callee' (a function of its file it calls), 'file' "
        "(the whole file).",
    )
    baseline: str | None = Field(
        None, description="path.py:first_line in the baseline (a whole file: path.py; None: not in it)."
    )
    candidate: str | None = Field(
        None, description="path.py:first_line in the candidate (a whole file: path.py; None: not in it)."
    )
    lines: list[str] = Field(description="The unified diff (hunk headers carry the file's line numbers).")
    baseline_evidence: list[str] = Field(
        default_factory=list, description="A caller: the baseline's dynamo_start records whose stacks name its call."
    )
    candidate_evidence: list[str] = Field(
        default_factory=list, description="A caller: the candidate's dynamo_start records whose stacks name its call."
    )


class SourceDiff(Model):
    """`dynamo-diff source BASE CAND [FUNCTION]` (or `--diff CAND`, `--file PATH`): the code change between two
    runs, per compiled function, or of one function and the code around it, or of one file (empty when a run has
    no source snapshots, e.g. a bare trace)."""

    kind: Literal["source_diff"] = "source_diff"
    schema_version: str = SCHEMA_VERSION
    outline: str | None = Field(None, description=OUTLINE)
    baseline: str = Field(description="The baseline's capture id.")
    candidate: str = Field(description="The candidate's capture id.")
    function: str | None = Field(
        None,
        description="The function asked for: its own diff, then those of the functions that called it and that it "
        "calls (its comparison row's pairing: a renamed or moved function too).",
    )
    file: str | None = Field(None, description="The file asked for: one entry, the whole file's diff.")
    functions: list[FunctionSourceDiff] = Field(default_factory=list)


class Damage(Model):
    """One problem the store check found."""

    capture: str | None = Field(None, description="The capture id (None: the store itself).")
    file: str
    problem: str


class VerifyReport(Model):
    """`dynamo-diff verify`: every imported file and evidence range against its sha256, and the index. Exit status
    0 when intact, 1 when damage was found."""

    kind: Literal["verify_report"] = "verify_report"
    schema_version: str = SCHEMA_VERSION
    store: str = Field(description="The store directory.")
    captures: int = Field(ge=0)
    files: int = Field(ge=0)
    evidence: int = Field(ge=0)
    damaged_captures: list[str] = Field(default_factory=list)
    damage: list[Damage] = Field(default_factory=list)


class RemoveResult(Model):
    """`dynamo-diff rm`: the capture removed."""

    kind: Literal["removed"] = "removed"
    schema_version: str = SCHEMA_VERSION
    capture: str = Field(description="The id of the capture removed.")


class ExportResult(Model):
    """`dynamo-diff export`: the tables written."""

    kind: Literal["export_result"] = "export_result"
    schema_version: str = SCHEMA_VERSION
    out: str = Field(description="The directory the tables are in.")
    table_format: Literal["parquet"] = "parquet"
    captures: list[str] = Field(default_factory=list, description="The capture ids exported.")
    comparison: str | None = Field(
        None, description="With --compare: the id of the comparison of the two captures (the comparison table's)."
    )
    rows: dict[str, int] = Field(default_factory=dict, description="Table name -> rows written.")
