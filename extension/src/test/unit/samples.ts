// Small documents in the shape the CLI prints (trimmed from `dynamo-diff compare edit_v1 edit_v2 --format json`);
// the CLI's own output, whole, is in cli-output/ (see cli-output.test.ts).
import type { Analysis, Change, ComparisonDocument, Counts, EvidenceItem, FunctionRow, SourceFound } from "../../common/cli";

/** A comparison whose lists are all there (the CLI always writes them; the schema's types leave them optional). */
export type SampleComparison = ComparisonDocument & {
  functions: (FunctionRow & { changes: Change[]; deltas: Record<string, number> })[];
  comparability: ComparisonDocument["comparability"] & { differences: NonNullable<ComparisonDocument["comparability"]["differences"]> };
};

export function counts(partial: Record<string, number>): Counts {
  return {
    observed_compilation_identities: 0,
    confirmed_recompilation_identities: 0,
    graph_break_records: 0,
    failed: 0,
    incomplete: [],
    ...partial,
  };
}

export const BASE = "1e62c0af55e8e4c5449d563cf35102fdc3fbd78a8acc382e96d2f071399181e9";
export const CAND = "7de77b9b97c91d88ed7c5af2f8153e1b5caf9778d2074012d2416b121b69f304";

export function comparison(): SampleComparison {
  return {
    schema_version: "2.4",
    id: "abf14c26a3f7",
    kind: "comparison",
    baseline: { id: BASE, label: "v1", torch: "2.13.0+cpu", imported_at: "2026-11-30T05:39:19+00:00" },
    candidate: { id: CAND, label: "v2", torch: "2.13.0+cpu", imported_at: "2026-11-30T05:39:21+00:00" },
    comparability: { verdict: "comparable", differences: [], missing: [] },
    totals: {
      baseline: counts({ observed_compilation_identities: 3, confirmed_recompilation_identities: 1 }),
      candidate: counts({ observed_compilation_identities: 3 }),
    },
    functions: [
      {
        status: "matched",
        method: "line_diff",
        reason: "lines 21-25 map to 21-24",
        baseline: {
          qualified_name: "gate",
          file: "model.py",
          line: 21,
          rank: null,
          compile_ids: ["0/0", "0/1"],
          counts: counts({ observed_compilation_identities: 2, confirmed_recompilation_identities: 1 }),
        },
        candidate: {
          qualified_name: "gate",
          file: "model.py",
          line: 21,
          rank: null,
          compile_ids: ["0/0"],
          counts: counts({ observed_compilation_identities: 1 }),
        },
        deltas: { observed_compilation_identities: -1, confirmed_recompilation_identities: -1 },
        changes: [
          {
            kind: "recompile_reason",
            summary: "value guards failing: 1 -> 0",
            baseline_evidence: ["u1-e10"],
            candidate_evidence: [],
          },
        ],
      },
      {
        status: "candidate_only",
        method: "none",
        baseline: null,
        candidate: {
          qualified_name: "postprocess",
          file: "model.py",
          line: 27,
          rank: null,
          compile_ids: ["2/0"],
          counts: counts({ observed_compilation_identities: 1 }),
        },
        deltas: { observed_compilation_identities: 1 },
        changes: [],
      },
    ],
    ranks: null,
    notices: [],
  };
}

export function analysis(id: string): Analysis {
  return {
    kind: "capture",
    schema_version: "2.4",
    capture: {
      id,
      label: null,
      input_kind: "bundle",
      reader_version: "8",
      run: { state: "completed", finished: true, summary: "completed (exit code 0)", source: "capture" },
      compiled: { state: "compiled", summary: "3 compilation(s)", compilations: 3 },
      validity: { artifact_structure: "complete" },
    },
    counts: counts({ observed_compilation_identities: 3 }),
    ranks: [
      {
        rank: null,
        counts: counts({ observed_compilation_identities: 3 }),
        compilations: [
          {
            compile_id: "0/0",
            identity: { rank: null },
            code: { co_filename: "/tmp/x/model.py", co_name: "gate", co_firstlineno: 21, qualified_name: null },
            outcome: "completed",
            outcome_reason: "metrics without failure",
            evidence_ids: ["u1-e2", "u1-e3"],
          },
          {
            compile_id: "0/1",
            identity: { rank: null },
            code: { co_filename: "/tmp/x/model.py", co_name: "gate", co_firstlineno: 21, qualified_name: null },
            outcome: "completed",
            evidence_ids: ["u1-e10"],
          },
          {
            compile_id: "1/0",
            identity: { rank: null },
            code: { co_filename: "/tmp/x/model.py", co_name: "encoder", co_firstlineno: 10, qualified_name: null },
            outcome: "failed",
            evidence_ids: [],
          },
        ],
      },
    ],
  };
}

export function evidenceItem(id: string, kind: string, compile_id: string | null = "0/0"): EvidenceItem {
  return { id, kind, rank: null, compile_id, file: "raw/trace.log", line: 12, offset: 0, length: 10, sha256: "ab".repeat(32) };
}

/** `dynamo-diff source <capture> gate --format json` in small: one snapshot found at two places. */
export const SNAPSHOT = ['"""a model."""', "", "def gate(x):", "    return x", "", "", "def gate(x):  # again", "    return -x", ""].join("\n");

export function sourceResult(): SourceFound {
  const at = (first: number, last: number, file = "/tmp/e/model.py") => ({
    co_filename: file,
    snapshot: "model.py",
    first_line: first,
    last_line: last,
    co_firstlineno: first,
    sha256: "3802d8d0e528c1446eec7edc32067d687e7fb490687bb25ab5b72cf91844b4f3",
    text: SNAPSHOT,
  });
  return { kind: "source", schema_version: "2.4", capture: BASE, function: "gate", locations: [at(3, 4), at(7, 8)] };
}
