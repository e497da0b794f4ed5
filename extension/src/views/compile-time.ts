// Compile time (torch's entire_frame_compile_time_s summed) as the CLI shows it: a measurement, not a count, so a
// change under COMPILE_TIME_NOISE (relative) or COMPILE_TIME_FLOOR_S (absolute) reads "(noise)". The two numbers
// are dynamo_diff_compare.compile_time's (a unit test reads them from there). Nothing here imports `vscode`.
import type { Counts } from "../common/cli";

export const COMPILE_TIME_NOISE = 0.25;
export const COMPILE_TIME_FLOOR_S = 0.1;

/** `0.28 s`, with `+?` when a compilation never finished (its time is not in the sum); undefined when unknown. */
export function compileTimeText(counts: Counts | undefined): string | undefined {
  if (!counts || typeof counts.compile_time_s !== "number") return undefined;
  return `${counts.compile_time_s.toFixed(2)} s${counts.unknown_outcomes ? "+?" : ""}`;
}

export interface CompileTimeChange {
  text: string;
  /** Within the noise rule (or unchanged, or one side missing): not a change to act on. */
  noise: boolean;
  /** after − before in seconds, for sorting (0 when a side is missing). */
  delta: number;
}

function percent(fraction: number): string {
  const p = Math.round(fraction * 100);
  return `${p >= 0 ? "+" : "−"}${Math.abs(p)}%`;
}

/** `0.42 s → 0.31 s (−26%)`, or `... (noise)` within the noise rule; one value when unchanged. */
export function compileTimeChange(baseline: Counts | undefined, candidate: Counts | undefined): CompileTimeChange {
  const b = compileTimeText(baseline);
  const c = compileTimeText(candidate);
  if (b === undefined || c === undefined) return { text: `${b ?? "–"} → ${c ?? "–"}`, noise: true, delta: 0 };
  const before = baseline!.compile_time_s!;
  const after = candidate!.compile_time_s!;
  if (b === c) return { text: c, noise: true, delta: 0 };
  const delta = after - before;
  const noise = Math.abs(delta) < COMPILE_TIME_FLOOR_S || (before > 0 && Math.abs(delta) / before < COMPILE_TIME_NOISE);
  const text = `${b} → ${c}`;
  if (noise) return { text: `${text} (noise)`, noise, delta };
  return { text: before > 0 ? `${text} (${percent(delta / before)})` : text, noise, delta };
}
