// Generated from check.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * `dynamo-diff check`: the CI gate's verdict. Exit status 0 when it passed, 1 when a rule fired (the rules in
 * `fired`); 2 is an error, printed as an error document instead.
 */
export interface CheckVerdict {
  /**
   * The baseline's capture id.
   */
  baseline: string;
  bounds: CheckBounds;
  /**
   * The candidate's capture id.
   */
  candidate: string;
  comparison_id: string;
  /**
   * 0: within bounds; 1: a rule fired.
   */
  exit_code: 0 | 1;
  findings?: CheckFinding[];
  /**
   * The rules that failed the check, in order.
   */
  fired?: string[];
  kind: "check";
  passed: boolean;
  schema_version?: string;
}
/**
 * What the gate was asked to check (None: a bound not given, not checked).
 *
 * This interface was referenced by `CheckVerdict`'s JSON-Schema
 * via the `definition` "CheckBounds".
 */
export interface CheckBounds {
  allow_empty?: boolean;
  allow_incomplete?: boolean;
  fail_on_confounded?: boolean;
  fail_on_new_failures?: boolean;
  max_new_graph_breaks?: number | null;
  max_new_recompiles?: number | null;
}
/**
 * One line of the gate: a rule and what it found.
 *
 * This interface was referenced by `CheckVerdict`'s JSON-Schema
 * via the `definition` "CheckFinding".
 */
export interface CheckFinding {
  /**
   * For a failed count: the functions whose count grew, as printed.
   */
  functions?: string[];
  /**
   * fail: the rule fired (the check fails); ok, warn or info otherwise.
   */
  level: "ok" | "fail" | "warn" | "info";
  /**
   * compiled, run, same_capture, recompilations, graph_breaks, failures or comparability.
   */
  rule: string;
  /**
   * The line as the CLI prints it.
   */
  text: string;
}
