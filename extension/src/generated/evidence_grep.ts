// Generated from evidence_grep.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * `dynamo-diff evidence ID EVIDENCE_ID --grep PATTERN`: the lines of one record that match.
 */
export interface EvidenceGrep {
  /**
   * The capture id.
   */
  capture: string;
  /**
   * Whether the lines searched and shown are the record shown compact (a graph's code, a guard tree, Inductor's module: `evidence_excerpt.compact`); a pattern found only in the record as written is searched there (then False).
   */
  compact?: boolean;
  /**
   * Matches inside the embedded configuration (searched only with in_config).
   */
  config_matches?: number;
  evidence: Evidence;
  /**
   * The configuration the record embeds (compilation_metrics' serialized dynamo_config, inductor_config, functorch_config, compiler_config) was searched too; by default only the record's own text.
   */
  in_config?: boolean;
  kind: "evidence_grep";
  matches?: GrepMatch[];
  /**
   * MCP only (the CLI never sets it): set when this is the document's outline, a tool's default structured content: kind, ids (short ones, as the text writes them), run status, offsets and each item's identity and headline counts, without what the result's text says (a required text is written empty). It names the argument that returns the whole document (full=true).
   */
  outline?: string | null;
  /**
   * A regular expression, else plain text; matched in any case.
   */
  pattern: string;
  schema_version?: string;
  /**
   * Of them, those `matches` show (the first `max_matches`).
   */
  shown_matches?: number;
  /**
   * Matches in the text searched (a short line counts once, a long one per occurrence).
   */
  total_matches: number;
}
/**
 * A byte range of one stored input file. Its sha256 is checked on every read.
 *
 * This interface was referenced by `EvidenceGrep`'s JSON-Schema
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
 * Lines of one record that match a pattern, with context.
 *
 * This interface was referenced by `EvidenceGrep`'s JSON-Schema
 * via the `definition` "GrepMatch".
 */
export interface GrepMatch {
  /**
   * Line of `lines[0]` (None: one window of `line`).
   */
  first_line?: number | null;
  /**
   * Line of the (first) match within the record's text (1-based).
   */
  line: number;
  /**
   * The matching line with up to `context` lines before and after (matches whose context lines overlap share one block); in a long line, the text around its matches (windows that overlap merged).
   */
  lines: string[];
  /**
   * Every matching line of a merged block (empty: only `line`).
   */
  matched_lines?: number[];
}
