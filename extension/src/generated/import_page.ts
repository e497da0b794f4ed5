// Generated from import_page.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * Whether the run compiled anything (docs/SEMANTICS.md, "Runs that compiled nothing").
 *
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "CompiledState".
 */
export type CompiledState = "compiled" | "nothing_compiled" | "no_graph";
/**
 * Stable error codes. Tools and tests match on these, never on the message text.
 *
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "ErrorCode".
 */
export type ErrorCode =
  | "malformed_input"
  | "unreadable_input"
  | "unsupported_input"
  | "no_trace"
  | "unsafe_path"
  | "path_not_allowed"
  | "resource_limit"
  | "unknown_capture"
  | "ambiguous_prefix"
  | "label_taken"
  | "same_capture"
  | "name_too_long"
  | "unknown_evidence"
  | "unknown_function"
  | "missing_snapshot"
  | "corrupt_store"
  | "invalid_argument"
  | "invalid_document"
  | "stale_manifest"
  | "workload_failed"
  | "io_error"
  | "missing_extra"
  | "executor_failed";
/**
 * Every notice Dynamo Diff writes (docs/SEMANTICS.md, "Notices", says what each means and what to do).
 *
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "NoticeCode".
 */
export type NoticeCode =
  | "truncated"
  | "payload_md5_mismatch"
  | "missing_payload"
  | "malformed_records"
  | "noise_lines"
  | "non_utf8_payload"
  | "bad_id_fields"
  | "payload_unverifiable"
  | "mixed_rank_fields"
  | "rank_field_disagrees"
  | "no_compile_ids"
  | "uninterpreted_record_kinds"
  | "mixed_torch_versions"
  | "raw_trace_preferred"
  | "export_only"
  | "ignored_files"
  | "label_taken"
  | "same_capture"
  | "no_source_snapshots"
  | "run_incomplete"
  | "nothing_compiled"
  | "no_graph_compiled"
  | "ambiguous_rows"
  | "rank_count_differs";
/**
 * Every next step a notice or an error can point to (docs/SEMANTICS.md, "Notices", "Hints").
 *
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "HintAction".
 */
export type HintAction =
  | "list_captures"
  | "import_first"
  | "analyze_capture"
  | "evidence_of_kind"
  | "compare_ranks"
  | "record_with_capture"
  | "record_run"
  | "import_with_label"
  | "move_label"
  | "pair_with_source_map"
  | "name_the_change"
  | "whole_document";
export type Severity = "info" | "warning" | "error";
/**
 * How a recorded run ended, as far as the capture can tell.
 *
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "RunState".
 */
export type RunState = "completed" | "exited" | "killed" | "interrupted" | "trace_cut" | "partial" | "unknown";
/**
 * 'partial' when the trace was cut or evidence is missing: counts may be low.
 */
export type ArtifactStructure = "complete" | "partial";
/**
 * 'verified' when manifest hashes match the imported bytes.
 */
export type Provenance = "verified" | "unverified" | "rejected";
export type WorkloadCompletion = "declared_completed" | "declared_incomplete" | "unknown";
/**
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "ArtifactStructure".
 */
export type ArtifactStructure1 = "complete" | "partial";
/**
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "Provenance".
 */
export type Provenance1 = "verified" | "unverified" | "rejected";
/**
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "Severity".
 */
export type Severity1 = "info" | "warning" | "error";
/**
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "WorkloadCompletion".
 */
export type WorkloadCompletion1 = "declared_completed" | "declared_incomplete" | "unknown";

/**
 * `import_trace` (MCP): what `import_result` says, cut to fit one response. One run: its row, how it ended,
 * whether it compiled, its validity, its ranks' counts and its notices. A folder of runs: one row per run.
 */
export interface ImportPage {
  /**
   * The runs: every run on a folder's first page, only the page's own on a later one (offset > 0).
   */
  captures?: ImportedRun[];
  /**
   * Runs left out to fit the response (see list_captures).
   */
  captures_omitted?: number;
  /**
   * One run: whether anything compiled (a run that compiled nothing has every count 0).
   */
  compiled?: CompiledStatus | null;
  /**
   * A folder of runs: the runs found that could not be imported, and why.
   */
  failed?: FailedRun[];
  /**
   * The path was a folder of runs, each imported on its own.
   */
  folder_of_runs?: boolean;
  kind: "import_page";
  /**
   * Calls that usually come next (MCP tool calls).
   */
  next_calls?: string[];
  /**
   * A folder of runs: the offset of the next run to say whole; None when the page reaches the end.
   */
  next_offset?: number | null;
  notices?: Notice[];
  notices_omitted?: number;
  /**
   * A folder of runs: the first run said whole on this page.
   */
  offset?: number;
  /**
   * MCP only (the CLI never sets it): set when this is the document's outline, a tool's default structured content: kind, ids (short ones, as the text writes them), run status, offsets and each item's identity and headline counts, without what the result's text says (a required text is written empty). It names the argument that returns the whole document (full=true).
   */
  outline?: string | null;
  /**
   * One run of several ranks: the counts of each rank (empty for one rank: its counts are the capture row's).
   */
  ranks?: RankCounts[];
  /**
   * Ranks left out to fit the response (see compare_ranks).
   */
  ranks_omitted?: number;
  /**
   * One run: how it ended; read it first (a run that did not finish has low counts).
   */
  run?: RunStatus | null;
  schema_version?: string;
  /**
   * Runs imported.
   */
  total: number;
  /**
   * One run: whether the trace is whole ('partial': counts may be low) and declared complete.
   */
  validity?: Validity | null;
}
/**
 * One run imported (or found already in the store, `created` false): its `capture_list` row.
 *
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "ImportedRun".
 */
export interface ImportedRun {
  capture: CaptureRow;
  /**
   * False: a capture of the same bytes was already in the store.
   */
  created: boolean;
  /**
   * The path imported, as given (for a folder of runs: the run's sub-folder).
   */
  input: string;
}
/**
 * One capture of the store, as the index holds it (no document is read).
 *
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "CaptureRow".
 */
export interface CaptureRow {
  artifact_structure: string;
  /**
   * CompiledState: compiled, nothing_compiled (no frame) or no_graph.
   */
  compiled_state: string;
  counts: Counts;
  id: string;
  /**
   * ISO 8601 UTC.
   */
  imported_at: string;
  input_kind: string;
  label?: string | null;
  rank_count: number;
  /**
   * How the run ended (RunState: completed, exited, killed, ..., unknown).
   */
  run_state: string;
  torch_version?: string | null;
}
/**
 * The capture's counts, summed over ranks.
 */
export interface Counts {
  /**
   * Later frame_compile_ids without recompile evidence.
   */
  additional_frame_compilations?: number;
  /**
   * Identities whose backward graph was compiled (a bwd_compilation_metrics record).
   */
  backward_compilations?: number;
  /**
   * FX graph and AOTAutograd cache hits.
   */
  cache_hits?: number;
  /**
   * FX graph and AOTAutograd cache misses.
   */
  cache_misses?: number;
  /**
   * Compile time in seconds: torch's entire_frame_compile_time_s summed over the compilations (a measurement, not a count: a change within COMPILE_TIME_NOISE is shown as noise; backward compiles are timed on their own, see a compilation's aot summary).
   */
  compile_time_s?: number;
  /**
   * Recompile/cache limit hits.
   */
  compiler_limit_events?: number;
  /**
   * Identities with success metrics, a graph record and ops > 0.
   */
  completed?: number;
  /**
   * Identities with explicit recompile evidence (recompile_reasons / recompile_reason).
   */
  confirmed_recompilation_identities?: number;
  /**
   * Confirmed recompilations that completed.
   */
  confirmed_successful_recompilations?: number;
  /**
   * Identities whose compilation failed (limit hits included).
   */
  failed?: number;
  /**
   * Graph-break records (one record = one break event).
   */
  graph_break_records?: number;
  /**
   * Failing-guard entries over all recompile reasons.
   */
  guard_reason_entries?: number;
  /**
   * Count keys that may be undercounted because evidence was missing.
   */
  incomplete?: string[];
  /**
   * Guarded code but no graph and no ops (skipped frame).
   */
  no_graph_observed?: number;
  /**
   * Attempts over all identities (restarts add attempts).
   */
  observed_attempts?: number;
  /**
   * Distinct compile identities, not attempts.
   */
  observed_compilation_identities?: number;
  /**
   * compile_time_s split into its phases (COMPILE_PHASES), derived from torch's nested timers of each compilation_metrics: dynamo = entire_frame - backend_compile, aot_backend = backend_compile - inductor_compile, inductor = inductor_compile - code_gen, code_gen = code_gen_time_s. Phases with no time are left out.
   */
  phase_times_s?: {
    [k: string]: number;
  };
  /**
   * Restarted analysis attempts.
   */
  restarts?: number;
  /**
   * Distinct user file:line of graph breaks.
   */
  unique_graph_break_sites?: number;
  /**
   * Identities without terminal evidence.
   */
  unknown_outcomes?: number;
  /**
   * Identities with conflicting terminal evidence.
   */
  unresolved_outcomes?: number;
}
/**
 * Said first in every view when it is not `compiled`: a run that compiled nothing has every count 0, which
 * reads as a perfect run, and a CI gate fails on it.
 *
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "CompiledStatus".
 */
export interface CompiledStatus {
  /**
   * Compilations (observed_compilation_identities) over all ranks.
   */
  compilations: number;
  state: CompiledState;
  /**
   * One line for people, e.g. 'torch.compile was called 2 times (Net at train.py:27) but no frame was compiled'.
   */
  summary: string;
  /**
   * How many times the observer saw torch.compile called (capture.manifest.observed.compile_calls has each call site); None: not observed (a bare trace, --no-observe, or no Python process seen).
   */
  torch_compile_calls?: number | null;
}
/**
 * A run of a folder of runs that could not be imported (the others were).
 *
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "FailedRun".
 */
export interface FailedRun {
  code: ErrorCode;
  /**
   * The run's folder, as given plus the sub-folder.
   */
  input: string;
  message: string;
}
/**
 * Something the reader wants the user to know: partial evidence, unknown kinds, damaged payloads.
 *
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "Notice".
 */
export interface Notice {
  /**
   * A NoticeCode (a capture stored by an earlier version may carry a code no longer written).
   */
  code: NoticeCode | string;
  details?: {
    [k: string]: unknown;
  };
  evidence_ids?: string[];
  /**
   * The next step, as a code with arguments (None: none to suggest).
   */
  hint?: Hint | null;
  /**
   * What is so, in one sentence; what to do next is the hint, worded by each front end.
   */
  message: string;
  rank?: number | null;
  severity?: Severity;
}
/**
 * A next step: what to do (`action`) and the values it needs (`args`, e.g. the capture's short id).
 *
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "Hint".
 */
export interface Hint {
  /**
   * A HintAction (a capture stored by an earlier version may carry one no longer written).
   */
  action: HintAction | string;
  /**
   * e.g. {'capture': '3f2a9c01b7de'}.
   */
  args?: {
    [k: string]: string;
  };
}
/**
 * One rank of an imported capture: its counts (a capture document's `ranks[].counts`).
 *
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "RankCounts".
 */
export interface RankCounts {
  counts: Counts1;
  /**
   * None when neither the file name nor the records say.
   */
  rank: number | null;
}
/**
 * What was observed. A key listed in `incomplete` may be an undercount (evidence was missing).
 *
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "Counts".
 */
export interface Counts1 {
  /**
   * Later frame_compile_ids without recompile evidence.
   */
  additional_frame_compilations?: number;
  /**
   * Identities whose backward graph was compiled (a bwd_compilation_metrics record).
   */
  backward_compilations?: number;
  /**
   * FX graph and AOTAutograd cache hits.
   */
  cache_hits?: number;
  /**
   * FX graph and AOTAutograd cache misses.
   */
  cache_misses?: number;
  /**
   * Compile time in seconds: torch's entire_frame_compile_time_s summed over the compilations (a measurement, not a count: a change within COMPILE_TIME_NOISE is shown as noise; backward compiles are timed on their own, see a compilation's aot summary).
   */
  compile_time_s?: number;
  /**
   * Recompile/cache limit hits.
   */
  compiler_limit_events?: number;
  /**
   * Identities with success metrics, a graph record and ops > 0.
   */
  completed?: number;
  /**
   * Identities with explicit recompile evidence (recompile_reasons / recompile_reason).
   */
  confirmed_recompilation_identities?: number;
  /**
   * Confirmed recompilations that completed.
   */
  confirmed_successful_recompilations?: number;
  /**
   * Identities whose compilation failed (limit hits included).
   */
  failed?: number;
  /**
   * Graph-break records (one record = one break event).
   */
  graph_break_records?: number;
  /**
   * Failing-guard entries over all recompile reasons.
   */
  guard_reason_entries?: number;
  /**
   * Count keys that may be undercounted because evidence was missing.
   */
  incomplete?: string[];
  /**
   * Guarded code but no graph and no ops (skipped frame).
   */
  no_graph_observed?: number;
  /**
   * Attempts over all identities (restarts add attempts).
   */
  observed_attempts?: number;
  /**
   * Distinct compile identities, not attempts.
   */
  observed_compilation_identities?: number;
  /**
   * compile_time_s split into its phases (COMPILE_PHASES), derived from torch's nested timers of each compilation_metrics: dynamo = entire_frame - backend_compile, aot_backend = backend_compile - inductor_compile, inductor = inductor_compile - code_gen, code_gen = code_gen_time_s. Phases with no time are left out.
   */
  phase_times_s?: {
    [k: string]: number;
  };
  /**
   * Restarted analysis attempts.
   */
  restarts?: number;
  /**
   * Distinct user file:line of graph breaks.
   */
  unique_graph_break_sites?: number;
  /**
   * Identities without terminal evidence.
   */
  unknown_outcomes?: number;
  /**
   * Identities with conflicting terminal evidence.
   */
  unresolved_outcomes?: number;
}
/**
 * The first thing every view says about a capture: did the run finish? Counts of a run that stopped early
 * are low, so a run that did not finish must never look like an improvement.
 *
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "RunStatus".
 */
export interface RunStatus {
  /**
   * Payload files are missing or records were rejected.
   */
  evidence_missing?: boolean;
  /**
   * The uncaught exception the observer saw, e.g. 'RuntimeError: x'.
   */
  exception?: string | null;
  exit_code?: number | null;
  /**
   * True: completed with a whole trace. False: it did not finish (or evidence is missing), counts may be low. None: unknown (a bare trace).
   */
  finished: boolean | null;
  /**
   * The facts behind the state, one per line.
   */
  reasons?: string[];
  /**
   * The signal that ended the command, e.g. 'SIGKILL'.
   */
  signal?: string | null;
  /**
   * Where the workload's end is known from: recorded by `dynamo-diff capture` (hash-verified manifest), declared by a manifest that is not hash-verified, or nowhere (a bare trace).
   */
  source: "capture" | "manifest" | "none";
  state: RunState;
  /**
   * One line for people, e.g. 'killed by SIGKILL'.
   */
  summary: string;
  /**
   * A trace file ends mid-record, or a compilation never finished.
   */
  trace_cut?: boolean;
}
/**
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "Validity".
 */
export interface Validity {
  artifact_structure: ArtifactStructure;
  provenance?: Provenance;
  reasons?: string[];
  /**
   * A bare log imported from a folder: the Python files of that folder whose path is the tail of a file the trace names, kept as the capture's source snapshot (`path`: inside the folder; `snapshot`: inside the capture). Found beside the log at import, not recorded when it ran: they may differ from what ran. Empty for a bundle (its snapshots were taken when it ran) and for a log imported as a file.
   */
  sources_found_beside?: SourceFile[];
  workload_completion?: WorkloadCompletion;
}
/**
 * This interface was referenced by `ImportPage`'s JSON-Schema
 * via the `definition` "SourceFile".
 */
export interface SourceFile {
  /**
   * The absolute path the trace names.
   */
  captured_path?: string | null;
  /**
   * Path relative to the project root, as the trace's code locations map to it.
   */
  path: string;
  sha256: string;
  /**
   * Path of the snapshot inside the bundle, e.g. 'sources/model.py'.
   */
  snapshot: string;
}
