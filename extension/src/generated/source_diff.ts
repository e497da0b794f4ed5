// Generated from source_diff.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * `dynamo-diff source BASE --diff CAND`: the code change between two runs, per compiled function (empty when
 * a run has no source snapshots, e.g. a bare trace).
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
  functions?: FunctionSourceDiff[];
  kind: "source_diff";
  schema_version?: string;
}
/**
 * One compiled function whose definition differs between the two runs' source snapshots.
 *
 * This interface was referenced by `SourceDiff`'s JSON-Schema
 * via the `definition` "FunctionSourceDiff".
 */
export interface FunctionSourceDiff {
  /**
   * path.py:first_line in the baseline (None: not in it).
   */
  baseline?: string | null;
  /**
   * path.py:first_line in the candidate (None: not in it).
   */
  candidate?: string | null;
  /**
   * The unified diff.
   */
  lines: string[];
  qualified_name: string;
}
