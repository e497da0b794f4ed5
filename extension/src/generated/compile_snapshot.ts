// Generated from compile_snapshot.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * `compile_snapshot`: a run's compile behaviour per function, written sorted with one value per line.
 */
export interface CompileSnapshot {
  /**
   * Only in a snapshot built from a capture (never written): the capture's id.
   */
  capture?: string | null;
  /**
   * Sorted by qualified name, then file.
   */
  functions?: SnapshotFunction[];
  kind: "compile_snapshot";
  schema_version?: string;
  /**
   * The test the snapshot is of (a pytest node id), when one is.
   */
  test?: string | null;
  /**
   * The torch version the run used, as the trace says (e.g. '2.13.0').
   */
  torch?: string | null;
}
/**
 * One source function with everything compiled from it (its resume functions included).
 *
 * This interface was referenced by `CompileSnapshot`'s JSON-Schema
 * via the `definition` "SnapshotFunction".
 */
export interface SnapshotFunction {
  /**
   * Compilation identities (observed_compilation_identities).
   */
  compilations: number;
  /**
   * Only in a snapshot built from a capture (never written): entry (as in `evidence`) -> what the trace says of its first instance: the failing guard's text, the break's type and user file:line, the failure's reason.
   */
  details?: {
    [k: string]: string;
  };
  /**
   * Only in a snapshot built from a capture (never written): entry -> the capture's evidence ids behind it; entries 'recompile:<category>', 'graph_break:<gb>@<site>', 'failure:<type>'.
   */
  evidence?: {
    [k: string]: string[];
  };
  /**
   * Failure type (compilation_metrics fail_type) -> failed compilations.
   */
  failures?: {
    [k: string]: number;
  };
  /**
   * The function's file, relative to the project (the capture's source snapshot) or the library path; a file name alone when neither is known. Never an absolute path.
   */
  file?: string | null;
  /**
   * Sorted by key, then site.
   */
  graph_breaks?: SnapshotBreak[];
  /**
   * As the comparison names the function ('Net.forward').
   */
  qualified_name: string;
  /**
   * Confirmed recompilations (confirmed_recompilation_identities).
   */
  recompiles: number;
  /**
   * Guard category -> confirmed recompilations with a failing guard of that category (one recompilation counts once under each category among its failing guards; 'unknown' when torch wrote no guard text).
   */
  recompiles_by_category?: {
    [k: string]: number;
  };
  /**
   * The first 16 hex digits of the function's AST hash (positions and its own name left out), when the capture has its source: pairs a renamed function whose body is unchanged.
   */
  structure?: string | null;
}
/**
 * The graph breaks of one function at one site with one key.
 *
 * This interface was referenced by `CompileSnapshot`'s JSON-Schema
 * via the `definition` "SnapshotBreak".
 */
export interface SnapshotBreak {
  /**
   * Break records with this key at this site.
   */
  count: number;
  /**
   * The break's key: torch's 'gbNNNN' registry id, else its graph-break type, else the first line of its message.
   */
  gb: string;
  /**
   * Where in the function: '+N', the break's user line N lines after the function's first line (its decorators included), in the function's own file; else the file the break is in, without a line (relative to the project, or the library path, e.g. 'torch/nn/modules/module.py'); '?' when the trace names no user frame.
   */
  site: string;
}
