// Generated from removed.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * `dynamo-diff rm`: the capture removed.
 */
export interface RemoveResult {
  /**
   * The id of the capture removed.
   */
  capture: string;
  kind: "removed";
  schema_version?: string;
}
