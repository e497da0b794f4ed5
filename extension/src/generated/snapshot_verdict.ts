// Generated from snapshot_verdict.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * `snapshot_verdict`: a run against a committed snapshot. Fails on a regression unless the torch versions
 * differ: then the changes are those of the torch upgrade and the verdict passes, reporting them (outcome
 * 'upgrade'), unless the caller asked upgrades to fail.
 */
export interface SnapshotVerdict {
  /**
   * The run's capture id, when known (its evidence ids resolve there).
   */
  capture?: string | null;
  /**
   * Regressions first, then improvements.
   */
  changes?: SnapshotChange[];
  kind: "snapshot_verdict";
  /**
   * unchanged; improved (only improvements, or with info); regressed; changed (only info: compilations or functions that came or went); upgrade (another torch version, whatever changed).
   */
  outcome: "unchanged" | "improved" | "regressed" | "changed" | "upgrade";
  /**
   * Functions paired under another name or in another file.
   */
  paired?: SnapshotPairing[];
  passed: boolean;
  /**
   * The torch version of the run.
   */
  run_torch?: string | null;
  schema_version?: string;
  /**
   * The torch version the snapshot was taken on.
   */
  snapshot_torch?: string | null;
  /**
   * One line: the outcome and how many changes of each effect.
   */
  summary: string;
  /**
   * The test, when one is.
   */
  test?: string | null;
  /**
   * The two torch versions differ (local tags such as '+cpu' ignored).
   */
  upgrade?: boolean;
}
/**
 * One difference between the committed snapshot and the run.
 *
 * This interface was referenced by `SnapshotVerdict`'s JSON-Schema
 * via the `definition` "SnapshotChange".
 */
export interface SnapshotChange {
  /**
   * regression: a recompilation, graph break or failure the snapshot does not have; improvement: one it has that the run does not; info: compilations or functions that came or went.
   */
  effect: "regression" | "improvement" | "info";
  /**
   * The run's evidence ids behind it (none for what the run does not have).
   */
  evidence_ids?: string[];
  /**
   * The function's qualified name in the run (in the snapshot when it is gone).
   */
  function: string;
  /**
   * The guard category, '<gb>@<site>' of a break, or the failure type; None for the rest.
   */
  key?: string | null;
  /**
   * The count in the run.
   */
  run: number;
  /**
   * The count in the committed snapshot.
   */
  snapshot: number;
  /**
   * The line as a pytest failure prints it.
   */
  text: string;
  what: "recompile" | "graph_break" | "failure" | "compilations" | "function";
}
/**
 * A function of the snapshot paired with one of the run under another name or in another file.
 *
 * This interface was referenced by `SnapshotVerdict`'s JSON-Schema
 * via the `definition` "SnapshotPairing".
 */
export interface SnapshotPairing {
  /**
   * qualified_name: the same name in another file; identical_source: the same AST hash.
   */
  method: "qualified_name" | "identical_source";
  /**
   * 'qualified name (file)' in the run.
   */
  run: string;
  /**
   * 'qualified name (file)' in the snapshot.
   */
  snapshot: string;
}
