// Generated from evidence_excerpts.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * `get_evidence` with several evidence ids and no grep: each record's excerpt in turn, each paged by its own
 * characters (`max_chars` each).
 */
export interface EvidenceExcerpts {
  /**
   * The capture id.
   */
  capture: string;
  /**
   * The records asked for, in the order asked, each as `evidence_excerpt`.
   */
  excerpts?: EvidenceExcerpt[];
  /**
   * Records asked for and left out to fit the response (read each alone).
   */
  excerpts_omitted?: number;
  kind: "evidence_excerpts";
  /**
   * MCP only (the CLI never sets it): set when this is the document's outline, a tool's default structured content: kind, ids (short ones, as the text writes them), run status, offsets and each item's identity and headline counts, without what the result's text says (a required text is written empty). It names the argument that returns the whole document (full=true).
   */
  outline?: string | null;
  schema_version?: string;
}
/**
 * `dynamo-diff evidence ID EVIDENCE_ID`: a slice of one record's text, its sha256 checked on reading.
 *
 * This interface was referenced by `EvidenceExcerpts`'s JSON-Schema
 * via the `definition` "EvidenceExcerpt".
 */
export interface EvidenceExcerpt {
  /**
   * The capture id.
   */
  capture: string;
  /**
   * Library stack frames the condensed text collapses.
   */
  collapsed_frames?: number;
  /**
   * When the payload (a graph's code, a guard tree, Inductor's module) is shown compact: what that left out or shortened (every node, guard leaf and kernel line is kept). None: the payload as written.
   */
  compact?: string | null;
  /**
   * Whether the text is the record condensed: each run of library stack frames (torch, the standard library, installed packages) one line `... N frames in torch/_dynamo ...`, the user's frames kept (a JSON stack's filenames resolved), the embedded configuration left out; everything else as written. False: the record's text as written (`--full`).
   */
  condensed?: boolean;
  /**
   * Characters of embedded configuration the condensed text omits.
   */
  config_chars?: number;
  evidence: Evidence;
  kind?: "evidence_excerpt";
  /**
   * Where the rest starts (None: `text` reaches the end).
   */
  next_offset?: number | null;
  /**
   * First character of `text` in the record's text.
   */
  offset: number;
  /**
   * MCP only (the CLI never sets it): set when this is the document's outline, a tool's default structured content: kind, ids (short ones, as the text writes them), run status, offsets and each item's identity and headline counts, without what the result's text says (a required text is written empty). It names the argument that returns the whole document (full=true).
   */
  outline?: string | null;
  /**
   * When `condensed`: the length of the record's text as written.
   */
  record_chars?: number | null;
  schema_version?: string;
  text: string;
  /**
   * Characters of the text paged: the condensed text when `condensed`.
   */
  total_chars: number;
}
/**
 * A byte range of one stored input file. Its sha256 is checked on every read.
 *
 * This interface was referenced by `EvidenceExcerpts`'s JSON-Schema
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
