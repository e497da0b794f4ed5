// Generated from check.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * What a suggestion is about (docs/SEMANTICS.md, "Suggestions").
 *
 * This interface was referenced by `CheckVerdict`'s JSON-Schema
 * via the `definition` "SuggestionKind".
 */
export type SuggestionKind =
  | "mark_dynamic"
  | "dtype_device"
  | "grad_mode"
  | "dynamic_scalar"
  | "create_once"
  | "recompile_limit"
  | "graph_break"
  | "call_compiled"
  | "suppressed_failure";

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
   * For a failed count: the next steps for what grew, from the candidate's compilations of those functions (each also printed under its function).
   */
  suggestions?: Suggestion[];
  /**
   * The line as the CLI prints it.
   */
  text: string;
}
/**
 * One next step, for one cause.
 *
 * This interface was referenced by `CheckVerdict`'s JSON-Schema
 * via the `definition` "Suggestion".
 */
export interface Suggestion {
  /**
   * The cause in one line: what varied and the values seen.
   */
  cause: string;
  /**
   * The change to make.
   */
  change: string;
  /**
   * The compilations it is computed from.
   */
  compile_ids?: string[];
  /**
   * What it costs (a hint, never a claim that the program gets faster).
   */
  cost: string;
  /**
   * For a size guard: the dimension whose size varied.
   */
  dim?: number | null;
  /**
   * torch's page for a graph break's registry id.
   */
  docs?: string | null;
  /**
   * The records it is computed from.
   */
  evidence_ids?: string[];
  /**
   * The source function whose compilations it is computed from (None: the whole run).
   */
  function?: string | null;
  kind: SuggestionKind;
  /**
   * The call or setting to use, named exactly for the capture's torch version ('torch._dynamo.mark_dynamic(x, 0)', 'torch._dynamo.config.recompile_limit'); None when there is none.
   */
  knob?: string | null;
  /**
   * What varied, as torch's guard names it: 'x' (with `dim`), 'n', 'grad_mode', a gb id.
   */
  subject?: string | null;
  /**
   * torch's own explanation and hints, verbatim, where the record has them.
   */
  torch_hints?: string[];
  /**
   * The values seen, in the order the trace shows them (sizes, dtypes, ...).
   */
  values?: string[];
}
