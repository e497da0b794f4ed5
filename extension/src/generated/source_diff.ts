// Generated from source_diff.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * `dynamo-diff source BASE CAND [FUNCTION]` (or `--diff CAND`, `--file PATH`): the code change between two
 * runs, per compiled function, or of one function and the code around it, or of one file (empty when a run has
 * no source snapshots, e.g. a bare trace).
 */
export interface SourceDiff {
  /**
   * The baseline's capture id.
   */
  baseline: string;
  /**
   * The candidate's capture id.
   */
  candidate: string;
  /**
   * The file asked for: one entry, the whole file's diff.
   */
  file?: string | null;
  /**
   * The function asked for: its own diff, then those of the functions that called it and that it calls (its comparison row's pairing: a renamed or moved function too).
   */
  function?: string | null;
  functions?: FunctionSourceDiff[];
  kind: "source_diff";
  /**
   * MCP only (the CLI never sets it): set when this is the document's outline, a tool's default structured content: kind, ids (short ones, as the text writes them), run status, offsets and each item's identity and headline counts, without what the result's text says (a required text is written empty). It names the argument that returns the whole document (full=true).
   */
  outline?: string | null;
  schema_version?: string;
}
/**
 * A piece of code whose lines differ between the two runs' source snapshots: a compiled function, a function
 * that called it or that it calls, or a whole file.
 *
 * This interface was referenced by `SourceDiff`'s JSON-Schema
 * via the `definition` "FunctionSourceDiff".
 */
export interface FunctionSourceDiff {
  /**
   * path.py:first_line in the baseline (a whole file: path.py; None: not in it).
   */
  baseline?: string | null;
  /**
   * A caller: the baseline's dynamo_start records whose stacks name its call.
   */
  baseline_evidence?: string[];
  /**
   * path.py:first_line in the candidate (a whole file: path.py; None: not in it).
   */
  candidate?: string | null;
  /**
   * A caller: the candidate's dynamo_start records whose stacks name its call.
   */
  candidate_evidence?: string[];
  /**
   * The unified diff (hunk headers carry the file's line numbers).
   */
  lines: string[];
  /**
   * None for a whole file.
   */
  qualified_name?: string | null;
  /**
   * What the code is: 'function' (a compiled function), 'caller' (a function below it on the stack torch recorded when it compiled: the call site), 'callee' (a function of its file it calls), 'file' (the whole file).
   */
  role?: "function" | "caller" | "callee" | "file";
}
