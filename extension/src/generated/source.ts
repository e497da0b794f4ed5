// Generated from source.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * `dynamo-diff source ID FUNCTION`: every compiled function the name names, with its captured lines.
 */
export interface SourceResult {
  /**
   * The capture id.
   */
  capture: string;
  /**
   * The name as given.
   */
  function: string;
  kind: "source";
  locations?: SourceLocation[];
  schema_version?: string;
}
/**
 * One compiled function's lines in the run's captured snapshot (never the working-tree file).
 *
 * This interface was referenced by `SourceResult`'s JSON-Schema
 * via the `definition` "SourceLocation".
 */
export interface SourceLocation {
  co_filename: string;
  co_firstlineno: number;
  first_line: number;
  last_line: number;
  /**
   * Of the whole snapshot text.
   */
  sha256: string;
  /**
   * The snapshot's path inside the capture.
   */
  snapshot: string;
  /**
   * The whole snapshot: line N of it is line N of the file as it was compiled.
   */
  text: string;
}
