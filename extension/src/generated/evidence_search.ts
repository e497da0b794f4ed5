// Generated from evidence_search.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * `dynamo-diff evidence ID --grep PATTERN` (no evidence id): the capture's records whose text matches, each
 * with its matching windows; the embedded configuration searched only with `in_config`.
 */
export interface EvidenceSearch {
  /**
   * The capture id.
   */
  capture: string;
  /**
   * Matches inside embedded configuration (searched only with in_config).
   */
  config_matches?: number;
  /**
   * The configuration records embed was searched too.
   */
  in_config?: boolean;
  /**
   * aot_joint_graph records not searched: their compilation's aot_forward_graph and aot_backward_graph records hold the same nodes, partitioned (a kind filter of aot_joint_graph, or their evidence ids, searches them).
   */
  joint_graphs_skipped?: number;
  kind: "evidence_search";
  /**
   * MCP only (the CLI never sets it): set when this is the document's outline, a tool's default structured content: kind, ids (short ones, as the text writes them), run status, offsets and each item's identity and headline counts, without what the result's text says (a required text is written empty). It names the argument that returns the whole document (full=true).
   */
  outline?: string | null;
  /**
   * A regular expression, else plain text; matched in any case.
   */
  pattern: string;
  /**
   * Every record with a match, in trace order; past the first `max_matches` matches a record's `matches` is empty (its count says how many it has).
   */
  records?: EvidenceHit[];
  /**
   * Of them, those with a match.
   */
  records_matched?: number;
  /**
   * Records searched (those the kind/function/compile id filters keep).
   */
  records_searched: number;
  schema_version?: string;
  /**
   * Of them, those shown (at most `max_matches`).
   */
  shown_matches?: number;
  /**
   * Matches in all the records searched.
   */
  total_matches?: number;
}
/**
 * One record a capture-wide search matched: the record, its matches, the first of them shown.
 *
 * This interface was referenced by `EvidenceSearch`'s JSON-Schema
 * via the `definition` "EvidenceHit".
 */
export interface EvidenceHit {
  /**
   * Whether the lines searched and shown are the record shown compact (a graph's code, a guard tree, Inductor's module: `evidence_excerpt.compact`); a pattern found only in the record as written is searched there (then False).
   */
  compact?: boolean;
  evidence: EvidenceEntry;
  /**
   * The ones shown (overlapping merged).
   */
  matches?: GrepMatch[];
  /**
   * Of them, those `matches` show.
   */
  shown_matches?: number;
  /**
   * Matches in the record's text searched.
   */
  total_matches: number;
}
/**
 * An evidence index entry with what it is about: the source function and a one-line summary.
 *
 * This interface was referenced by `EvidenceSearch`'s JSON-Schema
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
/**
 * Lines of one record that match a pattern, with context.
 *
 * This interface was referenced by `EvidenceSearch`'s JSON-Schema
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
