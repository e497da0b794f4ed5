// Generated from verify_report.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * `dynamo-diff verify`: every imported file and evidence range against its sha256, and the index. Exit status
 * 0 when intact, 1 when damage was found.
 */
export interface VerifyReport {
  captures: number;
  damage?: Damage[];
  damaged_captures?: string[];
  evidence: number;
  files: number;
  kind: "verify_report";
  schema_version?: string;
  /**
   * The store directory.
   */
  store: string;
}
/**
 * One problem the store check found.
 *
 * This interface was referenced by `VerifyReport`'s JSON-Schema
 * via the `definition` "Damage".
 */
export interface Damage {
  /**
   * The capture id (None: the store itself).
   */
  capture?: string | null;
  file: string;
  problem: string;
}
