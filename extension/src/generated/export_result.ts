// Generated from export_result.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * `dynamo-diff export`: the tables written.
 */
export interface ExportResult {
  /**
   * The capture ids exported.
   */
  captures?: string[];
  /**
   * With --compare: the id of the comparison of the two captures (the comparison table's).
   */
  comparison?: string | null;
  kind: "export_result";
  /**
   * The directory the tables are in.
   */
  out: string;
  /**
   * Table name -> rows written.
   */
  rows?: {
    [k: string]: number;
  };
  schema_version?: string;
  table_format?: "parquet";
}
