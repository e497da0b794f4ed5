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
 * Every next step a notice or an error can point to (docs/SEMANTICS.md, "Notices", "Hints").
 *
 * This interface was referenced by `ErrorInfo`'s JSON-Schema
 * via the `definition` "HintAction".
 */
export type HintAction =
  | "list_captures"
  | "import_first"
  | "analyze_capture"
  | "evidence_of_kind"
  | "compare_ranks"
  | "record_with_capture"
  | "record_run"
  | "import_with_label"
  | "move_label"
  | "pair_with_source_map"
  | "name_the_change"
  | "whole_document";

/**
 * The serialisable form of an error, as the CLI prints it with `--format json` and MCP returns it.
 */
export interface ErrorInfo {
  code: ErrorCode;
  details?: {
    [k: string]: unknown;
  };
  /**
   * The next step, as a code with arguments: each front end words it (a command, a tool call).
   */
  hint?: Hint | null;
  kind: "error";
  /**
   * One human sentence saying what is wrong; what to do next is the hint.
   */
  message: string;
  schema_version?: string;
}
/**
 * A next step: what to do (`action`) and the values it needs (`args`, e.g. the capture's short id).
 *
 * This interface was referenced by `ErrorInfo`'s JSON-Schema
 * via the `definition` "Hint".
 */
export interface Hint {
  /**
   * A HintAction (a capture stored by an earlier version may carry one no longer written).
   */
  action: HintAction | string;
  /**
   * e.g. {'capture': '3f2a9c01b7de'}.
   */
  args?: {
    [k: string]: string;
  };
}
