// Generated from manifest.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

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
 * This interface was referenced by `Manifest`'s JSON-Schema
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
 * This interface was referenced by `Manifest`'s JSON-Schema
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
 * This interface was referenced by `Manifest`'s JSON-Schema
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
 * This interface was referenced by `Manifest`'s JSON-Schema
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
 * This interface was referenced by `Manifest`'s JSON-Schema
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
 * This interface was referenced by `Manifest`'s JSON-Schema
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
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "NamedValue".
 */
export interface NamedValue {
  name: string;
  value?: boolean | number | string | null;
}
/**
 * A random seed the program set (torch.manual_seed, random.seed, numpy.random.seed).
 *
 * This interface was referenced by `Manifest`'s JSON-Schema
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
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "Producer".
 */
export interface Producer {
  python?: string | null;
  tlparse?: ToolVersion | null;
  torch?: string | null;
  torch_git?: string | null;
}
/**
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "ToolVersion".
 */
export interface ToolVersion {
  exit_code?: number | null;
  version?: string | null;
}
/**
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "TraceFile".
 */
export interface TraceFile {
  path: string;
  sha256: string;
}
/**
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "Sources".
 */
export interface Sources {
  dirty?: boolean | null;
  files?: SourceFile[];
  revision?: string | null;
  root?: string | null;
}
/**
 * This interface was referenced by `Manifest`'s JSON-Schema
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
 * This interface was referenced by `Manifest`'s JSON-Schema
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
