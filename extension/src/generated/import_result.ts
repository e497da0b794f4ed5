// Generated from import_result.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * Whether the run compiled anything (docs/SEMANTICS.md, "Runs that compiled nothing").
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "CompiledState".
 */
export type CompiledState = "compiled" | "nothing_compiled" | "no_graph";
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "InputKind".
 */
export type InputKind = "raw_log" | "raw_directory" | "tlparse_export" | "bundle";
/**
 * How a recorded run ended, as far as the capture can tell.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
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
 * Every notice Dynamo Diff writes (docs/SEMANTICS.md, "Notices", says what each means and what to do).
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
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
 * This interface was referenced by `ImportResult`'s JSON-Schema
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
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "CacheName".
 */
export type CacheName = "fx_graph" | "aotautograd";
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "CacheDecision".
 */
export type CacheDecision = "hit" | "miss" | "bypass";
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "Outcome".
 */
export type Outcome = "completed" | "failed" | "no_graph_observed" | "unknown" | "unresolved";
/**
 * What kind of guard failed, read from the guard text (never evaluated).
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "GuardCategory".
 */
export type GuardCategory =
  | "shape"
  | "stride"
  | "dtype"
  | "device"
  | "value"
  | "identity"
  | "aliasing"
  | "type"
  | "requires_grad"
  | "grad_mode"
  | "global_state"
  | "symbol"
  | "other";
/**
 * What a suggestion is about (docs/SEMANTICS.md, "Suggestions").
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
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
 * Stable error codes. Tools and tests match on these, never on the message text.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
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
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "ArtifactStructure".
 */
export type ArtifactStructure1 = "complete" | "partial";
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "Provenance".
 */
export type Provenance1 = "verified" | "unverified" | "rejected";
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "Severity".
 */
export type Severity1 = "info" | "warning" | "error";
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "WorkloadCompletion".
 */
export type WorkloadCompletion1 = "declared_completed" | "declared_incomplete" | "unknown";

/**
 * `dynamo-diff import`: one run, or each run of a folder whose sub-folders (or their sub-folders: two levels)
 * are runs (labelled by folder name, a label another capture has left off).
 */
export interface ImportResult {
  captures?: ImportedCapture[];
  /**
   * A folder of runs: the runs found that could not be imported, and why.
   */
  failed?: FailedRun[];
  /**
   * The path was a folder of runs, each imported on its own.
   */
  folder_of_runs?: boolean;
  kind: "import_result";
  schema_version?: string;
}
/**
 * One run imported (or found already in the store, `created` false).
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "ImportedCapture".
 */
export interface ImportedCapture {
  /**
   * False: a capture of the same bytes was already in the store.
   */
  created: boolean;
  id: string;
  /**
   * The path imported, as given (for a folder of runs: the run's sub-folder).
   */
  input: string;
  /**
   * The label the capture has after the import.
   */
  label?: string | null;
  summary: Capture;
}
/**
 * The capture without its compilations and evidence (ids, counts, per-rank counts, notices); `analyze ID --format json` has the compilations.
 */
export interface Capture {
  capture: CaptureInfo;
  counts: Counts;
  evidence?: Evidence[];
  kind?: "capture";
  notices?: Notice[];
  ranks: Rank[];
  schema_version?: string;
  /**
   * Next steps for the causes it shows, computed when it is shown (`dynamo-diff analyze`), never stored: the run's first, then each function's, then each compilation's (docs/SEMANTICS.md, "Suggestions").
   */
  suggestions?: Suggestion[];
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "CaptureInfo".
 */
export interface CaptureInfo {
  compiled: CompiledStatus;
  /**
   * The script the run started from, as the trace shows it: the file of the outermost frame (module-level code) of the first stack torch recorded when a compilation started (dynamo_start), on the lowest rank that has one; None when no stack starts at module-level code (a thread, `python -m`).
   */
  entry_script?: string | null;
  id: string;
  /**
   * ISO 8601 UTC; not part of the id.
   */
  imported_at?: string | null;
  input_kind: InputKind;
  label?: string | null;
  manifest?: Manifest | null;
  /**
   * Lines that were not trace lines.
   */
  noise_lines?: number;
  observed_config?: ObservedConfig[];
  producer?: Producer;
  reader_version: string;
  /**
   * Record kind -> number of records.
   */
  record_kinds?: {
    [k: string]: number;
  };
  run: RunStatus;
  validity: Validity;
}
/**
 * Whether the run compiled anything; said first when it did not (captures of earlier readers: derived from their counts and manifest when read).
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
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "Manifest".
 */
export interface Manifest {
  declarations?: Declarations;
  extra?: {
    [k: string]: unknown;
  };
  kind?: "dynamo-diff-bundle";
  label?: string | null;
  /**
   * What the observer saw; None: not observed.
   */
  observed?: Observations | null;
  producer?: Producer;
  raw_traces?: TraceFile[];
  /**
   * The tlparse conversion, when one was made.
   */
  report?: ToolVersion | null;
  schema_version?: string;
  sources?: Sources;
  workload?: Workload;
}
/**
 * What the user says about the workload. Declared, not observed.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "Declarations".
 */
export interface Declarations {
  backend?: string | null;
  /**
   * Options declared for the backend.
   */
  backend_options?: {
    [k: string]: unknown;
  };
  cache_policy?: ("fresh" | "warm" | "custom") | null;
  /**
   * How many calls the workload makes, or (0.1 bundles) one description per call, e.g. {'shape': [4], 'dtype': 'float32'}; lists are compared canonically.
   */
  calls?:
    | number
    | {
        [k: string]: unknown;
      }[]
    | null;
  device?: string | null;
  /**
   * torch.compile(dynamic=...): true, false, or 'auto' for torch's default (None).
   */
  dynamic?: boolean | "auto" | null;
  /**
   * Any other KEY=VALUE declared.
   */
  extra?: {
    [k: string]: string;
  };
  measurement_calls?: number | null;
  seed?: number | null;
  warmup_calls?: number | null;
}
/**
 * What `dynamo-diff capture`'s observer saw inside the captured Python processes (never declared).
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "Observations".
 */
export interface Observations {
  compile_calls?: CompileCall[];
  /**
   * Version of the observer that wrote this.
   */
  observer: string;
  processes?: ObservedProcess[];
  seeds?: SeedCall[];
  /**
   * More was seen than is kept (bounded lists).
   */
  truncated?: boolean;
}
/**
 * The arguments of `torch.compile` calls, as the observer saw them (one entry per distinct call site and
 * arguments). Values that are not JSON are shown as their `repr`.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "CompileCall".
 */
export interface CompileCall {
  /**
   * A backend's name, or a callable backend's qualified name.
   */
  backend?: string | null;
  /**
   * 'file:line' of the user code that called torch.compile.
   */
  caller?: string | null;
  /**
   * How many times this call was made.
   */
  calls?: number;
  disable?: boolean;
  /**
   * None: torch's default (automatic dynamic shapes).
   */
  dynamic?: boolean | null;
  fullgraph?: boolean;
  mode?: string | null;
  options?: {
    [k: string]: unknown;
  };
  /**
   * What was compiled (function or module class), when known.
   */
  target?: string | null;
}
/**
 * One Python process of the run (a multi-process job has several).
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "ObservedProcess".
 */
export interface ObservedProcess {
  argv?: string[];
  /**
   * The start of each Dynamo compilation, in order (observer 4 and later, torch with torch._dynamo.callback_handler; at most 2,000 a process).
   */
  compile_starts?: CompileStart[];
  /**
   * Compilation starts past that bound, not kept.
   */
  compile_starts_dropped?: number;
  /**
   * Settings of those modules not at torch's default ('dynamo.<key>' / 'inductor.<key>' -> value), set in code or by an environment variable, as torch's config module tells; read at exit, or at the last torch.compile call of a process that did not exit. A key of a module read and not listed was at its default.
   */
  config_overrides?: {
    [k: string]: unknown;
  };
  /**
   * The compiler configuration modules the observer could read in this process ('dynamo', 'inductor'); empty: none (an earlier observer, or the process never imported them).
   */
  config_read?: string[];
  cwd?: string | null;
  /**
   * Accelerators initialised, e.g. 'cuda:0 NVIDIA A100'.
   */
  devices?: string[];
  /**
   * An uncaught exception that ended the process.
   */
  exception?: string | null;
  /**
   * The process ran its exit handlers (it was not killed).
   */
  exited?: boolean;
  parent_pid?: number | null;
  pid: number;
  /**
   * The RANK environment variable, when set (torchrun, ...).
   */
  rank?: number | null;
  /**
   * torch.__version__ in that process, when it imported torch.
   */
  torch?: string | null;
}
/**
 * What the observer saw when Dynamo started a compilation (torch's compile start callback).
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "CompileStart".
 */
export interface CompileStart {
  /**
   * torch's compile id as its callback gives it, e.g. '0/1' (no '#n').
   */
  compile_id: string;
  /**
   * The innermost 3 user frames of the stack, innermost first.
   */
  frames?: FrameValues[];
}
/**
 * One user frame of the stack when a compilation started (not torch, the standard library, an installed
 * package), with its small scalar locals as the observer read them.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "FrameValues".
 */
export interface FrameValues {
  file: string;
  function?: string | null;
  line?: number | null;
  /**
   * Its locals of type bool, int, float, str (cut to 40 characters) or None, names not starting with '_', at most 8, in the frame's order (a function's first bound in co_varnames order; a module's last bound in the order they were bound); other values are never read.
   */
  values?: NamedValue[];
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "NamedValue".
 */
export interface NamedValue {
  name: string;
  value?: boolean | number | string | null;
}
/**
 * A random seed the program set (torch.manual_seed, random.seed, numpy.random.seed).
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "SeedCall".
 */
export interface SeedCall {
  calls?: number;
  function: string;
  value?: number | string | null;
}
/**
 * Versions of what produced the trace. Torch's are read from the trace itself, never by importing torch.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "Producer".
 */
export interface Producer {
  python?: string | null;
  tlparse?: ToolVersion | null;
  torch?: string | null;
  torch_git?: string | null;
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "ToolVersion".
 */
export interface ToolVersion {
  exit_code?: number | null;
  version?: string | null;
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "TraceFile".
 */
export interface TraceFile {
  path: string;
  sha256: string;
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "Sources".
 */
export interface Sources {
  dirty?: boolean | null;
  files?: SourceFile[];
  revision?: string | null;
  root?: string | null;
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
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
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "Workload".
 */
export interface Workload {
  command?: string[];
  /**
   * Declared completion: exit code 0 and no interruption.
   */
  completed?: boolean | null;
  /**
   * The working directory the command ran in.
   */
  cwd?: string | null;
  /**
   * Only the variables the user named.
   */
  environment?: {
    [k: string]: string;
  };
  /**
   * Negative: killed by that signal number (as Python reports it).
   */
  exit_code?: number | null;
  incomplete_reason?: string | null;
  /**
   * Capture was interrupted (Ctrl-C, SIGTERM) while it ran.
   */
  interrupted?: boolean | null;
  /**
   * The signal that ended the command, e.g. 'SIGKILL'.
   */
  signal?: string | null;
  /**
   * ISO 8601 UTC.
   */
  started_at?: string | null;
  wall_time_s?: number | null;
}
/**
 * What the trace shows of a set-up: compiler configuration (compilation_metrics dynamo_config /
 * inductor_config) and the devices of the tensors Dynamo saw (describe_tensor records).
 *
 * One entry per distinct set-up, with every rank that observed it (schema 2.2; 2.1 wrote one entry per rank,
 * and reads back with `ranks` = [`rank`]): the ranks of one job usually share one configuration of a few hundred
 * settings, which a per-rank copy repeated thousands of times over.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "ObservedConfig".
 */
export interface ObservedConfig {
  /**
   * Device types of traced tensors, e.g. ['cpu'].
   */
  devices?: string[];
  /**
   * The first of `ranks` (what schema 2.1 readers look at).
   */
  rank?: number | null;
  /**
   * Every rank that observed these values and devices, in rank order.
   */
  ranks?: (number | null)[];
  /**
   * 'dynamo.<key>' / 'inductor.<key>' -> value.
   */
  values?: {
    [k: string]: unknown;
  };
}
/**
 * The first thing every view says about a capture: did the run finish? Counts of a run that stopped early
 * are low, so a run that did not finish must never look like an improvement.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
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
 * This interface was referenced by `ImportResult`'s JSON-Schema
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
 * Summed over ranks.
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
 * A byte range of one stored input file. Its sha256 is checked on every read.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "Evidence".
 */
export interface Evidence {
  /**
   * tlparse-style compile id, e.g. '0/1' or '!0/0/1'.
   */
  compile_id?: string | null;
  /**
   * Path of the stored input file, relative to the capture's input root.
   */
  file: string;
  /**
   * Stable within a capture, e.g. 'r1-e42'.
   */
  id: string;
  /**
   * Record kind or artifact name, e.g. 'compilation_metrics', 'recompile_reasons'.
   */
  kind: string;
  /**
   * Byte length of the range.
   */
  length: number;
  /**
   * 1-based line of the record in that file.
   */
  line: number;
  /**
   * Byte offset of the range in the file.
   */
  offset: number;
  rank?: number | null;
  sha256: string;
}
/**
 * Something the reader wants the user to know: partial evidence, unknown kinds, damaged payloads.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
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
 * This interface was referenced by `ImportResult`'s JSON-Schema
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
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "Rank".
 */
export interface Rank {
  compilations?: Compilation[];
  counts: Counts1;
  files?: string[];
  functions?: FunctionGroup[];
  /**
   * None when neither the file name nor the records say.
   */
  rank: number | null;
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "Compilation".
 */
export interface Compilation {
  additional_frame_compilation?: boolean;
  aot?: AotSummary | null;
  attempts?: Attempt[];
  cache_events?: CacheEvent[];
  code?: CodeLocation;
  /**
   * tlparse-style id: '[!ca/]frame/frame_compile_id', '#n' after a reset.
   */
  compile_id: string;
  evidence_ids?: string[];
  failure?: Failure | null;
  graph?: GraphSummary | null;
  graph_breaks?: GraphBreak[];
  guards?: GuardSummary | null;
  identity: CompileIdentity;
  /**
   * What Inductor generated, per graph in the order written: the forward's (or the inference graph's), then the backward's when it compiled.
   */
  inductor_code?: InductorCode[];
  limit_events?: LimitEvent[];
  outcome: Outcome;
  /**
   * Why this outcome was chosen, in one line.
   */
  outcome_reason?: string;
  /**
   * The compilation_metrics record the phase times are from.
   */
  phase_evidence_id?: string | null;
  /**
   * Metric name as torch writes it (unit in the name) -> value; a quantity torch writes twice (entire_frame_compile_time_s and dynamo_cumulative_compile_time_us) is kept once, in seconds.
   */
  phase_times?: {
    [k: string]: number;
  };
  /**
   * A compilation that started and never finished (no compilation_metrics: the process stopped while compiling, or the trace was cut): the last record it got to. None for every other compilation.
   */
  reached?: LastRecord | null;
  recompile?: RecompileEvidence | null;
  restarts?: Restart[];
  /**
   * The objects its compiled code changes outside the graph (replayed after it), in torch's order, at most 8.
   */
  side_effects?: SideEffect[];
  /**
   * Symbols torch made and fixed back to one value while tracing (symbolic_shape_specialization), in record order, one per symbol.
   */
  specializations?: Specialization[];
  /**
   * When the compilation started, in seconds since the epoch on the recording machine's clock (compilation_metrics start_time); None when the trace has no metrics for it.
   */
  start_time?: number | null;
  /**
   * Only in a capture recorded by `dynamo-diff capture` (observer 4+): the user's frames when Dynamo started this compilation, innermost first (at most 3), with their small scalar locals (the loop step, request, batch the program was at); [] when not observed.
   */
  started_with?: FrameValues[];
}
/**
 * What AOTAutograd made of the graph: forward and backward graphs (training) or one inference graph, and the
 * backward's own compilation (compiled lazily, at the first .backward()).
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "AotSummary".
 */
export interface AotSummary {
  /**
   * inductor_compile_time_s of the backward (bwd_compilation_metrics), when written.
   */
  backward_compile_time_s?: number | null;
  /**
   * A bwd_compilation_metrics record: the backward compiled.
   */
  backward_compiled?: boolean;
  /**
   * Ops of aot_backward_graph.
   */
  backward_op_count?: number | null;
  /**
   * aot_backward_graph's, the same way.
   */
  backward_ops?: {
    [k: string]: number;
  };
  evidence_ids?: string[];
  /**
   * Ops of aot_forward_graph.
   */
  forward_op_count?: number | null;
  /**
   * aot_forward_graph's ops by ATen op, overload left off ('native_dropout': 1, 'addmm': 2), most first, at most 24; {} when there is none (or in captures of older releases).
   */
  forward_ops?: {
    [k: string]: number;
  };
  /**
   * Ops of aot_inference_graph.
   */
  inference_op_count?: number | null;
  /**
   * aot_inference_graph's, the same way.
   */
  inference_ops?: {
    [k: string]: number;
  };
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "Attempt".
 */
export interface Attempt {
  attempt: number;
  evidence_ids?: string[];
  restart_reason?: string | null;
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "CacheEvent".
 */
export interface CacheEvent {
  cache: CacheName;
  decision: CacheDecision;
  evidence_id?: string | null;
  reason?: string | null;
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "CodeLocation".
 */
export interface CodeLocation {
  /**
   * When the compiled frame is library code (torch, the standard library, an installed package): the nearest user frame of the dynamo_start stack (the call in the user's function; `line` is the line of the call). Rows count the compilation in that function.
   */
  caller?: StackFrame | null;
  /**
   * The user's frames below the compiled one on the dynamo_start stack, innermost first (at most 4; not torch, the standard library or an installed package): the lines that called the compiled function (`line` is the line being run in each).
   */
  callers?: StackFrame[];
  /**
   * The dynamo_start record whose stack `callers` was read from.
   */
  callers_evidence?: string | null;
  co_filename?: string | null;
  co_firstlineno?: number | null;
  co_name?: string | null;
  /**
   * On the frame a compiled module's call entered first (nothing but torch's call machinery between it and the user's call): the module's class as torch's guards on this frame name it (the `fn` that torch's `inner` wrapper calls; else `self`, or `args[0]` for a decorator's wrapper of a method), e.g. 'transformers.models.llama.modeling_llama.LlamaForCausalLM'. None when the guards do not say.
   */
  compiled_module?: string | null;
  /**
   * When the compiled frame is library code: what the user's call went into, read from the dynamo_start stack between the user frame and the compiled one: 'module' (a module compiled with torch.compile: its __call__ in torch/_dynamo/eval_frame.py comes first), 'function' (a function compiled with torch.compile), None (no torch.compile entry on the stack).
   */
  entered?: ("module" | "function") | null;
  /**
   * Known when a source snapshot allows it.
   */
  qualified_name?: string | null;
  /**
   * Where the location was read: 'compilation_metrics', 'dynamo_start' or 'frame_id'.
   */
  source?: string | null;
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "StackFrame".
 */
export interface StackFrame {
  /**
   * The text of that line as torch's record gives it (stripped): the line under the frame of a graph break's user traceback; None when the record has none.
   */
  code?: string | null;
  filename: string;
  line?: number | null;
  name?: string | null;
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "Failure".
 */
export interface Failure {
  evidence_ids?: string[];
  fail_type?: string | null;
  reason?: string | null;
  /**
   * torch's suppress_errors when this compilation failed (config_suppress_errors of its compilation_metrics): True, torch ran the frame without compiling it and the program went on; False, suppress_errors was off: torch raised the exception into the program unless it was a recompile-limit hit or a soft failure (Unsupported, UserError), which torch runs eagerly by skipping the frame outside fullgraph (docs/SEMANTICS.md, 'After a failure'); None, not recorded.
   */
  suppressed?: boolean | null;
  user_file?: string | null;
  user_line?: number | null;
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "GraphSummary".
 */
export interface GraphSummary {
  /**
   * The Python floats the graph bakes in, by op, counted, in order: "mul_ 0.99 x6", "add_ alpha=0.01", "clamp max=0.5", "* 1.5" (a float literal in an op's arguments of its code); [] when none or more than 6 distinct.
   */
  constants?: string[];
  /**
   * The graph of the last attempt a restart replaced (None: the analysis did not restart).
   */
  discarded?: DiscardedGraph | null;
  /**
   * The graph reached the backend with no ops (e.g. fullgraph, `return x`).
   */
  empty?: boolean;
  evidence_ids?: string[];
  /**
   * The dynamo_output_graph record the graph is read from.
   */
  graph_evidence_id?: string | null;
  /**
   * The graph's inputs as its forward's signature prints them, the device left off: "L_x_: f32[16, 16][1, s89]" (sizes, then strides), "s89: Sym(s89)" (a symbolic size passed in), "L_scale_: f64[][]" (a Python float the graph takes as a 0-d tensor, not a constant); modules' parameters and buffers are not listed; at most 8.
   */
  inputs?: string[];
  /**
   * Inputs left out of `inputs` (parameters and buffers too).
   */
  inputs_omitted?: number;
  /**
   * Every literal argument of the graph's calls, in order: a positional one by its position, a keyword one by name, each as the code writes it (`round(decimals)=1`, `pixel_shuffle(arg 1)=4`, `conv1d(padding)='same'`, `getitem(index)=(slice(None, None, None), slice(0, 3, None))`); what a recompiled graph bakes in of the value whose guard failed. At most 120.
   */
  literals?: string[];
  op_count?: number | null;
  op_histogram?: {
    [k: string]: number;
  };
  /**
   * What the graph returns, in order, each as its value's annotation prints it, sizes only and the device left off: "linear: f32[4, 10]", "attn_output_weights: f32[4, 12, 12]"; at most 8.
   */
  outputs?: string[];
  /**
   * The symbols in the sizes of the graph's values (dynamo_output_graph): the graph is dynamic in them; [] for a graph of static sizes, or when the record prints no sizes.
   */
  symbolic_sizes?: SymbolicSize[];
}
/**
 * The graph of an attempt whose analysis restarted (AOTAutograd's TensorifyScalarRestartAnalysis: a float made a
 * graph input and pinned back to a constant): handed to the backend, then replaced by the next attempt's.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "DiscardedGraph".
 */
export interface DiscardedGraph {
  /**
   * Its attempt (0: the first).
   */
  attempt: number;
  /**
   * Its dynamo_output_graph record.
   */
  evidence_id?: string | null;
  /**
   * Its inputs as GraphSummary.inputs says them (`L_self_w: f64[][]`: a Python float it took as a 0-d tensor).
   */
  inputs?: string[];
  op_histogram?: {
    [k: string]: number;
  };
}
/**
 * A symbolic size of the compiled graph (the graph is dynamic in it): the symbol its `dynamo_output_graph`
 * sizes print, and, when this compilation's `create_symbol` record made it, the input and dimension it stands for
 * and the size it had then.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "SymbolicSize".
 */
export interface SymbolicSize {
  /**
   * The create_symbol record, when there is one.
   */
  evidence_id?: string | null;
  /**
   * What it stands for, as torch wrote it ('L['x'].size()[0]'); None when not recorded here.
   */
  source?: string | null;
  /**
   * The symbol as torch printed it, e.g. 's77'.
   */
  symbol: string;
  /**
   * The size when the symbol was created (torch's `val`).
   */
  value?: string | null;
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "GraphBreak".
 */
export interface GraphBreak {
  evidence_id?: string | null;
  /**
   * torch's 'Explanation:' of the break, verbatim; None when the record has none (older torch).
   */
  explanation?: string | null;
  /**
   * The 'gbNNNN' id of torch's graph-break registry, when linked.
   */
  gb_id?: string | null;
  /**
   * The graph-break type line of the message, when it has one.
   */
  gb_type?: string | null;
  /**
   * torch's 'Hint:' lines, verbatim and in torch's order (generic ones such as 'Please report an issue to PyTorch.' included); [] when the record has none.
   */
  hints?: string[];
  /**
   * The operator, function or method the break is about, when the explanation or the developer debug context names it: 'print' (builtin operator `print`), 'Tensor.item', 'Logger.set_runtime_stats_and_log'; None otherwise.
   */
  operator?: string | null;
  reason: string;
  /**
   * The page of the graph-break type that torch's record links ('please visit: ...'), verbatim.
   */
  url?: string | null;
  user_file?: string | null;
  user_line?: number | null;
  user_stack?: StackFrame[];
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "GuardSummary".
 */
export interface GuardSummary {
  categories?: {
    [k: string]: number;
  };
  count: number;
  evidence_ids?: string[];
  /**
   * What this entry guards on the frame's tensor arguments (frame locals L['name'], not attributes or module parameters), read from its guard tree (dynamo_cpp_guards_str), never evaluated: each argument's TENSOR_MATCH as "L['x']: torch.float32, size=[None, 3], stride=[3, 1]" (None = symbolic; device only when the tree names one), and each container argument in one item, its elements as the tree checks them ("L['frames']: list of 3 [f32[2, 12] x3]"), at most 6, then the symbolic shape guards naming their sizes or strides, whole ("2 <= L['x'].size()[0]"), at most 8; each at most 200 characters. [] when the trace has no tree.
   */
  inputs?: string[];
  /**
   * The guard tree record `inputs` is read from.
   */
  inputs_evidence_id?: string | null;
  /**
   * Arguments and shape guards left out of `inputs`.
   */
  inputs_omitted?: number;
  /**
   * For each size or stride (or int argument torch made symbolic) two or more of its symbolic shape guards name alone, the values from 0 (an int: -4096) to 4096 that pass all of them ("L['x'].size()[2] 9 and up", "L['k'] 2-20", "... 16, 24, 32, ... (step 8) and up"), the guards run as integer arithmetic and nothing else; an int bounded by tensors' sizes is tried with the sizes as made, and says them ("L['k'] 1-24 (L['x'].size()[1] = 24, as made)"); [] when none or the trace has no tree.
   */
  sizes_accepted?: string[];
  /**
   * Symbolic shape guards relating two or more sizes (not tried: `sizes_accepted` is of each alone).
   */
  sizes_related?: number;
  /**
   * Of `inputs_omitted`, the guards on what the arguments hold (attributes, items).
   */
  values_omitted?: number;
}
/**
 * Who a compilation is. `occurrence` separates ids that repeat after torch._dynamo.reset().
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "CompileIdentity".
 */
export interface CompileIdentity {
  compiled_autograd_id?: number | null;
  frame_compile_id?: number | null;
  frame_id?: number | null;
  /**
   * 0 for the first time this id appears, 1 after a reset, ...
   */
  occurrence?: number;
  rank?: number | null;
}
/**
 * What Inductor generated for one graph of the compilation (an `inductor_output_code` record: the Python module
 * it wrote), read from the module's text and never run.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "InductorCode".
 */
export interface InductorCode {
  /**
   * The inductor_output_code record.
   */
  evidence_id?: string | null;
  /**
   * The calls of `call` to library kernels (`extern_kernels.addmm`: 'addmm'), torch ops (`torch.ops.mkl._mkl_linear.default`: 'mkl._mkl_linear') and ATen fallbacks (`aten.sort.default`: 'sort'), with how many times it makes each; at most 12.
   */
  extern_calls?: {
    [k: string]: number;
  };
  /**
   * Module-level constants `_frozen_param*` (inductor.freezing: the weights folded into the code, no longer read from the module at each call).
   */
  frozen_params?: number;
  /**
   * The arguments its `call` takes (the names it unpacks from `args`); None when not found.
   */
  inputs?: number | null;
  /**
   * How many times `call` runs each kernel of `kernels` (a kernel Inductor reuses for repeated work, such as a loop over heads, runs several times); 0 where no run was found; {} in captures of older releases.
   */
  kernel_calls?: {
    [k: string]: number;
  };
  /**
   * The kernels it defines (cpp_fused_*, triton_*), in its order, at most 12.
   */
  kernels?: string[];
  /**
   * Every kernel it defines.
   */
  kernels_total?: number;
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "LimitEvent".
 */
export interface LimitEvent {
  evidence_id?: string | null;
  /**
   * e.g. 'recompile_limit'.
   */
  kind: string;
  message: string;
}
/**
 * How far a compilation that never finished (no compilation_metrics) got: the last record torch wrote for
 * its compile id, in file order (timing spans and tensor descriptions, which are not indexed, left out).
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "LastRecord".
 */
export interface LastRecord {
  evidence_id?: string | null;
  /**
   * Its record kind, an artifact by its name: 'dynamo_output_graph', 'aot_forward_graph'.
   */
  kind: string;
  /**
   * The stage of compiling that record is written in (docs/SEMANTICS.md, 'Unfinished compilations'): 'dynamo' (tracing the frame), 'backend' (Dynamo's graph handed to the backend), 'aot_autograd', 'inductor', 'guards' (the compiled graph's guards built), or 'unknown'.
   */
  stage: string;
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "RecompileEvidence".
 */
export interface RecompileEvidence {
  /**
   * True only with a recompile_reasons artifact or metrics recompile_reason.
   */
  confirmed: boolean;
  evidence_ids?: string[];
  reasons?: GuardReason[];
}
/**
 * One failing guard of a recompilation, as torch printed it.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "GuardReason".
 */
export interface GuardReason {
  /**
   * The other guards whose value differs between that older entry's guard tree and this compilation's, besides the failing guard torch reported (torch reports only the first), compared source by source (a source guarded in only one tree is left out): tensor dtype, device, requires_grad, size, stride; `==` values; global-state settings; type and object ids. Like ones grouped ("2 parameters of L['self']: requires_grad True -> False"), at most 6 texts; [] when nothing else differs or either tree is not in the trace.
   */
  also_differs?: string[];
  /**
   * How many guards differ in all (`also_differs` groups them).
   */
  also_differs_count?: number;
  /**
   * The older cache entry whose guard failed (the reason's `0/0:`), when its guard tree and this compilation's were compared for `also_differs`.
   */
  also_differs_from?: string | null;
  category: GuardCategory;
  evidence_id?: string | null;
  /**
   * What the new cache entry was made for: its own guard(s) on the failing guard's source, read from this compilation's guard tree (dynamo_cpp_guards_str), e.g. "G['MODE'] == 'cos'" or, for a tensor's guard, "L['x']: torch.float64, size=[5], stride=[1]"; [] when the tree has none on that source or is not in the trace.
   */
  made_for?: string[];
  text: string;
}
/**
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "Restart".
 */
export interface Restart {
  evidence_id?: string | null;
  /**
   * When torch wrote only the type of the exception that restarted the analysis ("<class 'torch._dynamo.exc.TensorifyScalarRestartAnalysis'>"): its class name, 'TensorifyScalarRestartAnalysis'; None otherwise.
   */
  exception?: string | null;
  /**
   * The reason is the message of a graph break this compilation records (its type line is the reason's first line): torch traced the frame again to compile it up to the break.
   */
  graph_break?: boolean;
  /**
   * The restart reason as torch's compilation_metrics lists it, verbatim.
   */
  reason: string;
}
/**
 * A Python object the compiled code changes outside its graph (a `dynamo_side_effects` record: torch replays
 * the change after the graph runs): what it is, how torch names it, and the user's line that changed it.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "SideEffect".
 */
export interface SideEffect {
  /**
   * That line's text, as torch printed it.
   */
  code?: string | null;
  /**
   * The dynamo_side_effects record.
   */
  evidence_id?: string | null;
  /**
   * The user's file of the innermost user frame that changed it.
   */
  file?: string | null;
  /**
   * The library line that made the change, when the innermost frame is not the user's: 'torch/optim/sgd.py:150: state["momentum_buffer"] = momentum_buffer'.
   */
  inside?: string | null;
  line?: number | null;
  /**
   * Distinct user lines that changed it.
   */
  sites?: number;
  /**
   * How torch names it: "L['self'].debug", "G['STATS']"; None when it has none.
   */
  source?: string | null;
  /**
   * The object's type as torch names it ('dict', 'list', 'Decoder').
   */
  type: string;
}
/**
 * A symbol torch made and then fixed to one value while tracing this compilation (its
 * `symbolic_shape_specialization` record): the code at `file`:`line` pinned it, so the graph is not dynamic in it
 * whatever dynamic=True or mark_dynamic ask.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "Specialization".
 */
export interface Specialization {
  /**
   * That line's text, as the record or the source snapshot gives it.
   */
  code?: string | null;
  /**
   * The symbolic_shape_specialization record.
   */
  evidence_id?: string | null;
  /**
   * The file of the line that fixed it: the innermost frame of the user's own code on the record's user stack (the innermost frame when none is the user's).
   */
  file?: string | null;
  /**
   * That line's number.
   */
  line?: number | null;
  /**
   * torch's reason, e.g. 'range_refined_to_singleton'.
   */
  reason?: string | null;
  /**
   * What it stands for, as torch wrote it (`L['pos']`).
   */
  source?: string | null;
  /**
   * The symbol as torch printed it, e.g. 's24'.
   */
  symbol: string;
  /**
   * The value it was fixed to.
   */
  value?: string | null;
  /**
   * The library frame under that line where torch fixed it ('normalization.py:228: return F.layer_norm('), when the user's line called into torch or a package; None when it is the line itself.
   */
  via?: string | null;
}
/**
 * What was observed. A key listed in `incomplete` may be an undercount (evidence was missing).
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
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
 * All compilations of one source function on one rank (resume functions are their own code objects).
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "FunctionGroup".
 */
export interface FunctionGroup {
  code: CodeLocation;
  compile_ids?: string[];
  counts: Counts1;
  /**
   * 'co_filename:co_firstlineno:co_name'.
   */
  key: string;
}
/**
 * One next step, for one cause.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
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
 * A run of a folder of runs that could not be imported (the others were).
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
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
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "Capture".
 */
export interface Capture1 {
  capture: CaptureInfo;
  counts: Counts;
  evidence?: Evidence[];
  kind?: "capture";
  notices?: Notice[];
  ranks: Rank[];
  schema_version?: string;
  /**
   * Next steps for the causes it shows, computed when it is shown (`dynamo-diff analyze`), never stored: the run's first, then each function's, then each compilation's (docs/SEMANTICS.md, "Suggestions").
   */
  suggestions?: Suggestion[];
}
/**
 * Said first in every view when it is not `compiled`: a run that compiled nothing has every count 0, which
 * reads as a perfect run, and a CI gate fails on it.
 *
 * This interface was referenced by `ImportResult`'s JSON-Schema
 * via the `definition` "CompiledStatus".
 */
export interface CompiledStatus1 {
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
