// Generated from evidence_index.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * `dynamo-diff evidence ID`: one page of a capture's evidence index.
 */
export interface EvidenceIndex {
  /**
   * The capture id.
   */
  capture: string;
  items?: EvidenceEntry[];
  kind: "evidence_index";
  /**
   * The offset of the next page (None: this is the last).
   */
  next_offset?: number | null;
  offset: number;
  /**
   * MCP only (the CLI never sets it): set when this is the document's outline, a tool's default structured content: kind, ids (short ones, as the text writes them), run status, offsets and each item's identity and headline counts, without what the result's text says (a required text is written empty). It names the argument that returns the whole document (full=true).
   */
  outline?: string | null;
  schema_version?: string;
  /**
   * Entries that match the filters.
   */
  total: number;
}
/**
 * An evidence index entry with what it is about: the source function and a one-line summary.
 *
 * This interface was referenced by `EvidenceIndex`'s JSON-Schema
 * via the `definition` "EvidenceEntry".
 */
export interface EvidenceEntry {
  /**
   * tlparse-style compile id, e.g. '0/1' or '!0/0/1'.
   */
  compile_id?: string | null;
  /**
   * Path of the stored input file, relative to the capture's input root.
   */
  file: string;
  /**
   * The source function of its compilation, when it has one.
   */
  function?: string | null;
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
  /**
   * What the record says, in one line (None: not interpreted).
   */
  summary?: string | null;
}
