// What a capture says about the user's own files, as plain data: graph breaks and failures at their lines, and per
// function its compile counts and first failing guard (for diagnostics and CodeLens); how a path the trace
// recorded maps onto a workspace file (the longest common path suffix); and whether a workspace file still is the
// file that was compiled. Nothing here imports `vscode`, so all of it is unit-tested with plain Node.
import type { FunctionReport, RunReport } from "../common/cli";

/** `path:line` as the CLI writes a site (the path may hold colons, e.g. `C:\x\y.py:12`). */
export interface Site {
  path: string;
  line: number;
}

export function parseSite(site: string | null | undefined): Site | undefined {
  if (!site) return undefined;
  const m = /^(.*):(\d+)$/.exec(site.trim());
  if (!m || !m[1]) return undefined;
  const line = Number(m[2]);
  return line > 0 ? { path: m[1], line } : undefined;
}

export interface Finding {
  kind: "graph_break" | "failure";
  /** The file as the trace recorded it (the capture's path, not the workspace's). */
  capturePath: string;
  /** 1-based line in the captured file. */
  line: number;
  /** A failure torch gave no line for: shown at the function's definition. */
  atDefinition: boolean;
  fn: string;
  frame: string;
  compileId: string;
  /** The graph break's registry id (gb0059), or the failure's type. */
  code?: string;
  /** One line: what happened. */
  message: string;
  evidenceId?: string;
  /** The next steps for it (the CLI's suggestions for this compilation's break or failure), one line each. */
  suggestions: string[];
}

export interface FunctionSummary {
  fn: string;
  /** The file as the trace recorded it, and the line of the function's definition in it. */
  capturePath: string;
  line: number;
  compiles: number;
  recompiles: number;
  failed: number;
  graphBreaks: number;
  compileTimeS?: number;
  firstGuard?: { text: string; compileId: string; evidenceId?: string };
  /** What a click on the CodeLens opens: the first failing guard's record, else the first record behind a count. */
  evidenceId?: string;
  /** The next steps computed from all its compilations (a size that varied: mark_dynamic, ...), one line each. */
  suggestions: string[];
}

type SuggestionOf = NonNullable<FunctionReport["suggestions"]>[number];

/** One suggestion in one line: `suggestion (mark_dynamic): mark dim 0 of x dynamic ... [knob]`. */
export function suggestionLine(s: SuggestionOf): string {
  const knob = s.knob && !s.change.includes(s.knob) ? ` [${s.knob}]` : "";
  return `suggestion (${s.kind}): ${s.change}${knob}`;
}

/**
 * The graph breaks and failures of a run report, and one summary per function. `pathOf` gives a function's file as
 * the trace recorded it (the CLI's `source` knows it; the report has the snapshot's name); a function without
 * file or line has no summary. Failures without a site are placed at their function's definition.
 */

/** A graph break as the CLI's line says it: torch's type, the operator the record names when the type does not,
 * and torch's first hint that asks for a change (the run report's `hint`). */
function breakMessage(gb: { type: string; operator?: string | null; hint?: string | null }): string {
  const op = gb.operator && !gb.type.includes(gb.operator) ? ` \`${gb.operator}\`` : "";
  return `graph break: ${gb.type}${op}` + (gb.hint ? `; torch's hint: ${gb.hint}` : "");
}

export function readReport(
  report: RunReport,
  pathOf: (fn: FunctionReport) => string | undefined = (fn) => fn.file ?? undefined,
): { findings: Finding[]; functions: FunctionSummary[] } {
  const findings: Finding[] = [];
  const functions: FunctionSummary[] = [];
  for (const fn of report.functions ?? []) {
    const fnPath = pathOf(fn);
    const compilations = fn.compilations ?? [];
    for (const c of compilations) {
      for (const gb of c.graph_breaks ?? []) {
        const site = parseSite(gb.site);
        if (!site) continue;
        findings.push({
          kind: "graph_break",
          capturePath: site.path,
          line: site.line,
          atDefinition: false,
          fn: fn.name,
          frame: c.frame,
          compileId: c.compile_id,
          code: gb.gb_id ?? undefined,
          message: breakMessage(gb),
          evidenceId: gb.evidence_id ?? undefined,
          suggestions: (c.suggestions ?? [])
            .filter((s) => s.kind === "graph_break" && (!gb.gb_id || s.subject === gb.gb_id))
            .map(suggestionLine),
        });
      }
      const failure = c.failure;
      if (failure) {
        const site = parseSite(failure.site);
        const where = site ?? (fnPath && fn.line ? { path: fnPath, line: fn.line } : undefined);
        if (!where) continue;
        findings.push({
          kind: "failure",
          capturePath: where.path,
          line: where.line,
          atDefinition: !site,
          fn: fn.name,
          frame: c.frame,
          compileId: c.compile_id,
          code: failure.fail_type ?? undefined,
          message: `compilation failed${failure.fail_type ? ` (${failure.fail_type})` : ""}: ${failure.message} — then ${failure.then}`,
          evidenceId: (failure.evidence_ids ?? [])[0],
          suggestions: (c.suggestions ?? [])
            .filter((s) => s.kind === "suppressed_failure" || (s.kind === "graph_break" && (c.graph_breaks ?? []).length === 0))
            .map(suggestionLine),
        });
      }
    }
    if (!fnPath || !fn.line) continue;
    const counts = fn.counts ?? {};
    let firstGuard: FunctionSummary["firstGuard"];
    for (const c of compilations) {
      const guard = (c.recompile ?? [])[0];
      if (guard) {
        firstGuard = { text: guard.text, compileId: c.compile_id, evidenceId: guard.evidence_id ?? undefined };
        break;
      }
    }
    const countEvidence = Object.values(fn.count_evidence ?? {}).flat();
    functions.push({
      fn: fn.name,
      capturePath: fnPath,
      line: fn.line,
      compiles: counts.observed_compilation_identities ?? 0,
      recompiles: counts.confirmed_recompilation_identities ?? 0,
      failed: counts.failed ?? 0,
      graphBreaks: counts.graph_break_records ?? 0,
      compileTimeS: fn.compile_time_s,
      firstGuard,
      evidenceId: firstGuard?.evidenceId ?? countEvidence[0] ?? (compilations[0]?.evidence_ids ?? [])[0],
      suggestions: (fn.suggestions ?? []).map(suggestionLine),
    });
  }
  return { findings, functions };
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `dynamo-diff: 3 compiles, 2 recompiles, 1 failed · 0.09 s · first failing guard: 0/0: tensor 'x' ...`. */
export function lensText(f: FunctionSummary, stale: boolean, maxGuard = 100): string {
  const counts = [plural(f.compiles, "compile"), plural(f.recompiles, "recompile")];
  if (f.graphBreaks) counts.push(plural(f.graphBreaks, "graph break"));
  if (f.failed) counts.push(`${f.failed} failed`);
  const parts = [`dynamo-diff: ${counts.join(", ")}`];
  if (f.compileTimeS !== undefined) parts.push(`${f.compileTimeS.toFixed(2)} s`);
  if (f.firstGuard) {
    const g = f.firstGuard.text.length > maxGuard ? `${f.firstGuard.text.slice(0, maxGuard - 1)}…` : f.firstGuard.text;
    parts.push(`first failing guard: ${g}`);
  }
  return `${stale ? "(file changed since capture) " : ""}${parts.join(" · ")}`;
}

// ---------------------------------------------------------------------------------------------------------
// Mapping a recorded path onto the workspace

function components(p: string): string[] {
  return p.replace(/\\/g, "/").split("/").filter((c) => c && c !== ".");
}

/** How many trailing path components two paths share (`a/b/c.py` and `x/b/c.py`: 2). */
export function commonSuffix(a: string, b: string): number {
  const x = components(a);
  const y = components(b);
  let n = 0;
  while (n < x.length && n < y.length && x[x.length - 1 - n] === y[y.length - 1 - n]) n++;
  return n;
}

/** Library code a trace may name: never mapped onto a workspace file of the same name. */
export function isLibraryPath(p: string): boolean {
  return /(^|[\\/])(site-packages|dist-packages)([\\/]|$)/.test(p);
}

export interface PathMatch {
  /** The workspace file chosen. */
  file: string;
  /** Trailing path components it shares with the recorded path (1: the file name only). */
  score: number;
  /** Other workspace files sharing as many components (then the first by name was chosen). */
  ties: string[];
}

/** The workspace file sharing the longest path suffix with `capturePath` (at least its file name), else undefined. */
export function mapPath(capturePath: string, workspaceFiles: string[]): PathMatch | undefined {
  if (isLibraryPath(capturePath)) return undefined;
  let best: string[] = [];
  let score = 0;
  for (const file of workspaceFiles) {
    const s = commonSuffix(capturePath, file);
    if (s === 0 || s < score) continue;
    if (s > score) {
      score = s;
      best = [];
    }
    best.push(file);
  }
  if (!best.length) return undefined;
  best.sort();
  return { file: best[0], score, ties: best.slice(1) };
}

/** The last component of a path. */
export function baseNameOf(p: string): string {
  const parts = components(p);
  return parts[parts.length - 1] ?? p;
}

// ---------------------------------------------------------------------------------------------------------
// Is the workspace file the one that was compiled?

export interface StaleInput {
  /** The workspace file's text now (the editor's, when it is open). */
  text: string;
  /** The capture's snapshot of the file, when it has one. */
  snapshot?: string;
  /** Lines the diagnostics are on (1-based). */
  lines: number[];
  /** The workspace file's modification time, and when the run was recorded (ms since the epoch). */
  mtimeMs?: number;
  capturedAtMs?: number;
}

export interface Staleness {
  stale: boolean;
  /** Why, for the diagnostic, or how it was checked when not stale. */
  reason: string;
}

function normalise(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

export const STALE_NOTE = "file changed since capture: line may have moved";

export function staleness(input: StaleInput): Staleness {
  if (input.snapshot !== undefined) {
    return normalise(input.text) === normalise(input.snapshot)
      ? { stale: false, reason: "same text as the captured snapshot" }
      : { stale: true, reason: `${STALE_NOTE} (the workspace file differs from the capture's snapshot)` };
  }
  const lineCount = normalise(input.text).split("\n").length;
  const gone = input.lines.filter((l) => l > lineCount);
  if (gone.length) return { stale: true, reason: `${STALE_NOTE} (line ${gone[0]} no longer exists; no snapshot in the capture)` };
  if (input.mtimeMs !== undefined && input.capturedAtMs !== undefined && input.mtimeMs > input.capturedAtMs) {
    return { stale: true, reason: `${STALE_NOTE} (modified after the run was recorded; no snapshot in the capture)` };
  }
  return { stale: false, reason: "no snapshot in the capture; not modified since the run was recorded" };
}
