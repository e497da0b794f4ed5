// Generated from rank_view_page.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * Whether the run compiled anything (docs/SEMANTICS.md, "Runs that compiled nothing").
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "CompiledState".
 */
export type CompiledState = "compiled" | "nothing_compiled" | "no_graph";
/**
 * How a recorded run ended, as far as the capture can tell.
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "RunState".
 */
export type RunState = "completed" | "exited" | "killed" | "interrupted" | "trace_cut" | "partial" | "unknown";
/**
 * What a count or a change is about. A comparability difference names the areas it can change, so the rows
 * and counts outside them stay readable (a cache-state difference does not explain a recompilation).
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "Area".
 */
export type Area =
  | "compilations"
  | "recompilations"
  | "graph_breaks"
  | "failures"
  | "limits"
  | "guards"
  | "graphs"
  | "cache"
  | "compile_time";
/**
 * 'comparable': everything checked is equal and nothing essential is unchecked; 'confounded': something differs (see `differences` and what each affects); 'unknown': something essential could not be checked (see `missing`).
 */
export type Verdict = "comparable" | "confounded" | "unknown";
/**
 * Every notice Dynamo Diff writes (docs/SEMANTICS.md, "Notices", says what each means and what to do).
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
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
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
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
 * 'compiled_autograd': a backward graph Compiled Autograd captured and Dynamo compiled; 'fx_graph': an FX GraphModule's generated code compiled on its own.
 */
export type GeneratedKind = "compiled_autograd" | "fx_graph";
/**
 * What a row's change is about (docs/COMPARING.md lists each with its meaning).
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "ChangeKind".
 */
export type ChangeKind =
  | "failure_new"
  | "failure_gone"
  | "limit"
  | "recompile_reason"
  | "graph_break_new"
  | "graph_break_gone"
  | "graph_break_moved"
  | "restarts"
  | "unfinished"
  | "backward"
  | "generated_code"
  | "op_count"
  | "op_histogram"
  | "guard_count"
  | "cache"
  | "phase_time"
  | "source";
/**
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "MatchMethod".
 */
export type MatchMethod =
  | "user_map"
  | "structure"
  | "line_diff"
  | "same_location"
  | "name"
  | "qualified_name"
  | "resume_parent"
  | "graph"
  | "order"
  | "none";
/**
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "RowStatus".
 */
export type RowStatus = "matched" | "baseline_only" | "candidate_only" | "ambiguous";
/**
 * What a suggestion is about (docs/SEMANTICS.md, "Suggestions").
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "SuggestionKind".
 */
export type SuggestionKind =
  | "mark_dynamic"
  | "dtype_device"
  | "grad_mode"
  | "dynamic_scalar"
  | "create_once"
  | "recompile_limit"
  | "graph_break"
  | "call_compiled"
  | "suppressed_failure";
/**
 * What a frame of generated code is (docs/COMPARING.md, "Generated code").
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "GeneratedKind".
 */
export type GeneratedKind1 = "compiled_autograd" | "fx_graph";
/**
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "Severity".
 */
export type Severity1 = "info" | "warning" | "error";
/**
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "Verdict".
 */
export type Verdict1 = "comparable" | "confounded" | "unknown";

/**
 * `compare_runs` and `compare_ranks` (MCP): a page of a `comparison` or a `rank_view`. What the whole
 * comparison says (comparability, totals, the rank view, notices, how each run ended) is on the first page
 * (offset 0) only: later pages name the sides by id, label and torch; `totals` lists the counts that are non-zero
 * on either side, without the compile-phase split. The page's comparability leaves out `checked` (the keys found
 * equal: the text lists them with their values) and `explained` (`comparability_line` sums it up); each cut is
 * in `comparability_truncated`.
 */
export interface ComparisonPage {
  baseline: Side;
  candidate: Side;
  /**
   * First page only.
   */
  comparability?: Comparability | null;
  /**
   * First page only: the verdict in one line from the whole comparison (how many differences come with each one, before `comparability` was cut to fit).
   */
  comparability_line?: string | null;
  comparability_truncated?: string[];
  /**
   * The comparison's id (its document's `id`).
   */
  comparison_id: string;
  /**
   * comparison_page: a page of a comparison of two captures; rank_view_page: of the ranks of one.
   */
  kind: "rank_view_page";
  /**
   * Calls that usually come next (MCP tool calls).
   */
  next_calls?: string[];
  /**
   * Pass as offset for the next page; None on the last page.
   */
  next_offset?: number | null;
  notices?: Notice[];
  notices_omitted?: number;
  offset: number;
  /**
   * MCP only (the CLI never sets it): set when this is the document's outline, a tool's default structured content: kind, ids (short ones, as the text writes them), run status, offsets and each item's identity and headline counts, without what the result's text says (a required text is written empty). It names the argument that returns the whole document (full=true).
   */
  outline?: string | null;
  /**
   * Why fewer rows than page_size are shown, when they are.
   */
  page_note?: string | null;
  /**
   * A rank view's groups and divergences (first page only).
   */
  ranks?: RankView | null;
  ranks_truncated?: string[];
  rows?: RowEntry[];
  /**
   * True when any row on this page was cut (see its notes).
   */
  rows_truncated?: boolean;
  schema_version?: string;
  /**
   * Rows of the whole comparison (its `functions`).
   */
  total_rows: number;
  /**
   * First page only.
   */
  totals?: Totals | null;
}
/**
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "Side".
 */
export interface Side {
  /**
   * Whether the run compiled anything (None: not known to this document).
   */
  compiled?: CompiledStatus | null;
  id: string;
  imported_at?: string | null;
  label?: string | null;
  /**
   * How the run ended (None: not known to this document).
   */
  run?: RunStatus | null;
  torch?: string | null;
}
/**
 * Said first in every view when it is not `compiled`: a run that compiled nothing has every count 0, which
 * reads as a perfect run, and a CI gate fails on it.
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
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
 * The first thing every view says about a capture: did the run finish? Counts of a run that stopped early
 * are low, so a run that did not finish must never look like an improvement.
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
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
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "Comparability".
 */
export interface Comparability {
  /**
   * Keys `compare` took as the change under test without `--change`, because every difference that confounded was a setting the user set: `intended` lists them and the verdict is the one `--change` would give. [] when nothing was assumed; `check` never assumes.
   */
  assumed?: string[];
  /**
   * The keys found equal.
   */
  checked?: Checked[];
  contradictions?: Contradiction[];
  differences?: Difference[];
  /**
   * Differences that confound nothing by themselves: what comes with another difference or with the change under test (`follows_from`: a torch version's own defaults and its build, settings torch derives from a torch.compile argument, the command naming another script), and differences that change nothing counted (a launcher's rendezvous options). Each says why.
   */
  explained?: Difference[];
  /**
   * Differences the user named as the change under test (`--change KEY`): they do not confound.
   */
  intended?: Difference[];
  /**
   * What could not be checked, and on which side.
   */
  missing?: string[];
  verdict: Verdict;
}
/**
 * A key found equal on both sides.
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "Checked".
 */
export interface Checked {
  key: string;
  source: string;
  /**
   * The shared value (a configuration family shows how many keys it holds).
   */
  value?: unknown;
}
/**
 * A declaration that an observation of the same run contradicts (the observation is what is compared).
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "Contradiction".
 */
export interface Contradiction {
  declared?: unknown;
  key: string;
  observed?: unknown;
  /**
   * 'baseline' or 'candidate'.
   */
  side: string;
}
/**
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "Difference".
 */
export interface Difference {
  /**
   * The counts and changes this difference can explain.
   */
  affects?: Area[];
  baseline?: unknown;
  candidate?: unknown;
  /**
   * What the key changes, in a short phrase of its family ('changes which guards dynamic shapes produce and when a new shape recompiles'); None in documents written before it was named.
   */
  effect?: string | null;
  /**
   * In `explained`: the key of the difference this one comes with ('torch_version', 'compile.dynamic', 'program'); None for a difference that changes nothing counted (a launcher's rendezvous port).
   */
  follows_from?: string | null;
  key: string;
  rank?: number | null;
  /**
   * 'observed' (the trace), 'observer' (seen inside the process by capture's observer), 'recorded' (recorded by capture: the command, named environment variables) or 'declared' (manifest).
   */
  source: string;
  /**
   * Why it is explained, or why it could not be (e.g. 'the default of each version (2.13.0: true, 2.14.1: false)', 'set in the candidate', 'could not tell default from user setting').
   */
  why?: string | null;
}
/**
 * Something the reader wants the user to know: partial evidence, unknown kinds, damaged payloads.
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
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
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
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
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "RankView".
 */
export interface RankView {
  /**
   * Rank (as text) -> counts.
   */
  counts?: {
    [k: string]: Counts;
  };
  /**
   * For each group but the reference group, where its representative first diverges from the reference rank (in the order of `groups`).
   */
  divergences?: RankDivergence[];
  /**
   * Ranks grouped by behaviour: the reference rank's group first, then the others by size (largest first), then lowest rank.
   */
  groups?: RankGroup[];
  ranks: (number | null)[];
  reference_rank: number | null;
}
/**
 * What was observed. A key listed in `incomplete` may be an undercount (evidence was missing).
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "Counts".
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
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "RankDivergence".
 */
export interface RankDivergence {
  /**
   * The rank's compilation at that position (None: it has none).
   */
  compile_id?: string | null;
  evidence_ids?: string[];
  /**
   * Position in the compile order where the ranks first differ.
   */
  index?: number | null;
  rank: number | null;
  reason: string;
  /**
   * The reference rank's compilation there.
   */
  reference_compile_id?: string | null;
  reference_rank: number | null;
}
/**
 * Ranks with identical behaviour: the same behaviour signature (docs/COMPARING.md, "The rank view").
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "RankGroup".
 */
export interface RankGroup {
  /**
   * Short sha256 of the behaviour signature the group's ranks share.
   */
  behaviour: string;
  counts: Counts1;
  /**
   * The same ranks written compactly, e.g. '0-3, 5, 7-4095'.
   */
  rank_ranges: string;
  /**
   * The ranks of the group, ascending (None: a rank not named).
   */
  ranks: (number | null)[];
  /**
   * The group of the reference rank (listed first).
   */
  reference?: boolean;
  /**
   * The rank that stands for the group: the reference rank in the reference group, else the lowest rank; divergences and rows name it.
   */
  representative: number | null;
  /**
   * How many ranks the group holds.
   */
  size: number;
}
/**
 * What was observed. A key listed in `incomplete` may be an undercount (evidence was missing).
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
 * A comparison's row on a page.
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "RowEntry".
 */
export interface RowEntry {
  /**
   * Position of the row in the whole comparison (changed rows first).
   */
  index: number;
  row: FunctionRow;
  /**
   * What was cut from this row to fit the response (empty: nothing).
   */
  truncated?: string[];
}
/**
 * The row; each side's `counts` lists its non-zero counts (a count not listed is 0), without compile times (analyze_capture has each compilation's time). A page leaves out what the text or the sides already say: `deltas` (the candidate's counts minus the baseline's) and `pieces` (the text names each frame with its counts); values left out at the default are their default.
 */
export interface FunctionRow {
  /**
   * Ambiguous rows: what fitted as well. Unmatched rows: likely counterparts on the other side (same name, or same file), to pair with a source map ('path::name@line' ids).
   */
  alternatives?: string[];
  baseline?: FunctionSide | null;
  candidate?: FunctionSide | null;
  changes?: Change[];
  /**
   * candidate - baseline per count key.
   */
  deltas?: {
    [k: string]: number;
  };
  method: MatchMethod;
  /**
   * The frames counted in this row when the function broke into several: its own and its resume functions, each with its counts (empty when it compiled as one frame on both sides).
   */
  pieces?: FunctionPiece[];
  /**
   * Why the two sides were (or were not) matched, in one line.
   */
  reason?: string;
  status: RowStatus;
  /**
   * Next steps for what is new or grew in the candidate (its recompilations, graph breaks, failures), computed from the candidate's compilations of this function (docs/SEMANTICS.md, "Suggestions").
   */
  suggestions?: Suggestion[];
}
/**
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "FunctionSide".
 */
export interface FunctionSide {
  /**
   * A library frame's piece: the line of the user's call it was compiled in place of.
   */
  called_at?: number | null;
  compile_ids?: string[];
  counts: Counts;
  file?: string | null;
  /**
   * Set when the frame is code torch generated (`file` is then its raw co_filename).
   */
  generated?: GeneratedCode | null;
  line?: number | null;
  /**
   * Where `qualified_name` comes from: 'source' (the definition in the run's source snapshot, e.g. 'Net.forward'), 'trace' (the code object's bare co_name, when there is no snapshot to read) or 'generated' (code torch generated, named for what it is: see `generated`) or 'compiled' (what the user compiled, when Dynamo compiled library code for a call from module-level code, from the function that compiled the model, or from a wrapper: 'LlamaForCausalLM.forward'; `file` and `line` are then the torch.compile call's, the line None when not known).
   */
  name_from?: string | null;
  /**
   * For each count whose value differs between the ranks summed: rank (as text) -> its value on that rank. A count not listed has the same value on every rank (counts / ranks_summed).
   */
  per_rank?: {
    [k: string]: {
      [k: string]: number;
    };
  };
  qualified_name?: string | null;
  rank?: number | null;
  /**
   * In a capture of several ranks: how many ranks `counts` sums over (every rank of the capture, 0 on a rank where the function did not compile). None: one rank.
   */
  ranks_summed?: number | null;
}
/**
 * A frame of code torch generated (an FX GraphModule's `forward`), not a function of the user's source.
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "GeneratedCode".
 */
export interface GeneratedCode {
  /**
   * The file names torch gave the code, as the trace records them (one per rank that names it differently): the N of '<eval_with_key>.N' is torch.fx's count of modules generated so far in the process, not part of what the code is.
   */
  co_filenames?: string[];
  co_name?: string | null;
  kind: GeneratedKind;
  /**
   * The compiled-autograd id (as in the compile id '!<id>/...'), or the FX graph's position among the run's FX graphs in compile order (from 0).
   */
  number: number;
}
/**
 * One thing that changed on a row, with the evidence on each side.
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "Change".
 */
export interface Change {
  baseline?: unknown;
  baseline_evidence?: string[];
  candidate?: unknown;
  candidate_evidence?: string[];
  kind: ChangeKind;
  summary: string;
}
/**
 * One compiled frame of a row's function, with its own counts: its own frame, a resume function Dynamo made
 * after a graph break (`torch_dynamo_resume_in_<fn>_at_<line>`), or a frame of library code it called that Dynamo
 * compiled in its place (`library_file`; each side's `called_at`).
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "FunctionPiece".
 */
export interface FunctionPiece {
  baseline?: FunctionSide | null;
  candidate?: FunctionSide | null;
  deltas?: {
    [k: string]: number;
  };
  /**
   * For a frame compiled in library code (torch, an installed package), counted in the user's function that called it: the frame's file from its package on, e.g. 'torch/_dynamo/external_utils.py'.
   */
  library_file?: string | null;
  method: MatchMethod;
  /**
   * The frame's name, e.g. 'forward' or 'torch_dynamo_resume_in_forward_at_40'.
   */
  name: string;
  reason?: string;
  status: RowStatus;
}
/**
 * One next step, for one cause.
 *
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "Suggestion".
 */
export interface Suggestion {
  /**
   * The cause in one line: what varied and the values seen.
   */
  cause: string;
  /**
   * The change to make.
   */
  change: string;
  /**
   * The compilations it is computed from.
   */
  compile_ids?: string[];
  /**
   * What it costs (a hint, never a claim that the program gets faster).
   */
  cost: string;
  /**
   * For a size guard: the dimension whose size varied.
   */
  dim?: number | null;
  /**
   * torch's page for a graph break's registry id.
   */
  docs?: string | null;
  /**
   * The records it is computed from.
   */
  evidence_ids?: string[];
  /**
   * The source function whose compilations it is computed from (None: the whole run).
   */
  function?: string | null;
  kind: SuggestionKind;
  /**
   * The call or setting to use, named exactly for the capture's torch version ('torch._dynamo.mark_dynamic(x, 0)', 'torch._dynamo.config.recompile_limit'); None when there is none.
   */
  knob?: string | null;
  /**
   * What varied, as torch's guard names it: 'x' (with `dim`), 'n', 'grad_mode', a gb id.
   */
  subject?: string | null;
  /**
   * torch's own explanation and hints, verbatim, where the record has them.
   */
  torch_hints?: string[];
  /**
   * The values seen, in the order the trace shows them (sizes, dtypes, ...).
   */
  values?: string[];
}
/**
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "Totals".
 */
export interface Totals {
  baseline: Counts;
  candidate: Counts;
}
/**
 * This interface was referenced by `ComparisonPage`'s JSON-Schema
 * via the `definition` "FunctionRow".
 */
export interface FunctionRow1 {
  /**
   * Ambiguous rows: what fitted as well. Unmatched rows: likely counterparts on the other side (same name, or same file), to pair with a source map ('path::name@line' ids).
   */
  alternatives?: string[];
  baseline?: FunctionSide | null;
  candidate?: FunctionSide | null;
  changes?: Change[];
  /**
   * candidate - baseline per count key.
   */
  deltas?: {
    [k: string]: number;
  };
  method: MatchMethod;
  /**
   * The frames counted in this row when the function broke into several: its own and its resume functions, each with its counts (empty when it compiled as one frame on both sides).
   */
  pieces?: FunctionPiece[];
  /**
   * Why the two sides were (or were not) matched, in one line.
   */
  reason?: string;
  status: RowStatus;
  /**
   * Next steps for what is new or grew in the candidate (its recompilations, graph breaks, failures), computed from the candidate's compilations of this function (docs/SEMANTICS.md, "Suggestions").
   */
  suggestions?: Suggestion[];
}
