// Generated from evidence_diff.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * `dynamo-diff evidence ID EVIDENCE_ID --diff [REF:]ID2`: a unified diff of two records as shown (compact unless
 * `--full`), their first, envelope line left out (its time and ids always differ).
 */
export interface EvidenceDiff {
  /**
   * The capture id of the first record.
   */
  capture: string;
  /**
   * Whether either record is shown compact (as `evidence_excerpt.compact`).
   */
  compact?: boolean;
  evidence: Evidence;
  kind: "evidence_diff";
  /**
   * The unified diff (`--- A`, `+++ B`, `@@` hunks with 2 lines of context); [] when the same.
   */
  lines?: string[];
  /**
   * The diff's `-` and `+` lines: 0 when the two read the same.
   */
  lines_differ: number;
  /**
   * Diff lines left out at the end to fit the response.
   */
  lines_omitted?: number;
  other: Evidence;
  /**
   * The capture id of the second record.
   */
  other_capture: string;
  /**
   * MCP only (the CLI never sets it): set when this is the document's outline, a tool's default structured content: kind, ids (short ones, as the text writes them), run status, offsets and each item's identity and headline counts, without what the result's text says (a required text is written empty). It names the argument that returns the whole document (full=true).
   */
  outline?: string | null;
  schema_version?: string;
}
/**
 * A byte range of one stored input file. Its sha256 is checked on every read.
 *
 * This interface was referenced by `EvidenceDiff`'s JSON-Schema
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
