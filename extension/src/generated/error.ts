// Generated from error.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * Stable error codes. Tools and tests match on these, never on the message text.
 *
 * This interface was referenced by `ErrorInfo`'s JSON-Schema
 * via the `definition` "ErrorCode".
 */
export type ErrorCode =
  | "malformed_input"
  | "unreadable_input"
  | "unsupported_input"
  | "no_trace"
  | "unsafe_path"
  | "path_not_allowed"
  | "resource_limit"
  | "unknown_capture"
  | "ambiguous_prefix"
  | "label_taken"
  | "same_capture"
  | "name_too_long"
  | "unknown_evidence"
  | "unknown_function"
  | "missing_snapshot"
  | "corrupt_store"
  | "invalid_argument"
  | "invalid_document"
  | "stale_manifest"
  | "workload_failed"
  | "io_error"
  | "missing_extra"
  | "executor_failed";

/**
 * The serialisable form of an error, as the CLI prints it with `--format json` and MCP returns it.
 */
export interface ErrorInfo {
  code: ErrorCode;
  details?: {
    [k: string]: unknown;
  };
  /**
   * One human sentence saying what is wrong and, where possible, what to do.
   */
  message: string;
}
