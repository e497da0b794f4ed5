// Generated from source.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * `dynamo-diff source ID FUNCTION` (or `--file PATH`): every compiled function the name names, with its
 * captured lines, or one whole captured file.
 */
export interface SourceResult {
  /**
   * The capture id.
   */
  capture: string;
  /**
   * Lines shown before and after each function (the whole file: not used).
   */
  context?: number;
  /**
   * The file as given, when the whole captured file was asked for.
   */
  file?: string | null;
  /**
   * The name as given ('' for a whole file: see `file`).
   */
  function: string;
  kind: "source";
  locations?: SourceLocation[];
  /**
   * MCP only (the CLI never sets it): set when this is the document's outline, a tool's default structured content: kind, ids (short ones, as the text writes them), run status, offsets and each item's identity and headline counts, without what the result's text says (a required text is written empty). It names the argument that returns the whole document (full=true).
   */
  outline?: string | null;
  schema_version?: string;
  /**
   * Set when the snapshots were found beside a bare log at import, not recorded when it ran (they may differ from what ran): says so and how many files.
   */
  sources_note?: string | null;
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
  /**
   * False: a function defined in a captured file that this run did not compile (found by name).
   */
  compiled?: boolean;
  first_line: number;
  last_line: number;
  /**
   * Asked for as FILE:LINE: that line (shown with `context` lines around).
   */
  line?: number | null;
  /**
   * The function's qualified name in the snapshot; for a line, the function holding it.
   */
  name?: string | null;
  /**
   * Of the whole snapshot text.
   */
  sha256: string;
  /**
   * The snapshot's path inside the capture.
   */
  snapshot: string;
  /**
   * The snapshot from line `text_first_line` on: the whole snapshot in the CLI's document (line N of it is line N of the file as it was compiled); in an MCP result only the lines shown (the function with its context lines).
   */
  text: string;
  /**
   * The file's line number of the first line of `text`.
   */
  text_first_line?: number;
}
