// Generated from capture_page.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * `list_captures` (MCP): a page of the store's captures, newest first; each row is a `capture_list` row.
 */
export interface CapturePage {
  captures?: CaptureRow[];
  kind: "capture_page";
  /**
   * Pass as offset for the next page; None on the last page.
   */
  next_offset?: number | null;
  offset: number;
  /**
   * MCP only (the CLI never sets it): set when this is the document's outline, a tool's default structured content: kind, ids (short ones, as the text writes them), run status, offsets and each item's identity and headline counts, without what the result's text says (a required text is written empty). It names the argument that returns the whole document (full=true).
   */
  outline?: string | null;
  schema_version?: string;
  /**
   * The store directory.
   */
  store: string;
  /**
   * Captures in the store.
   */
  total: number;
}
/**
 * One capture of the store, as the index holds it (no document is read).
 *
 * This interface was referenced by `CapturePage`'s JSON-Schema
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
 * What was observed. A key listed in `incomplete` may be an undercount (evidence was missing).
 *
 * This interface was referenced by `CapturePage`'s JSON-Schema
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
