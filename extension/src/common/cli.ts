// The dynamo-diff command line tool: finding it, building its argument lists, running it, reading its JSON.
// Nothing here imports `vscode`, so all of it is unit-tested with plain Node.
import { execFile, ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

// ---------------------------------------------------------------------------------------------------------
// JSON shapes. The CLI's documents (a comparison, a capture, a run report, an error) have committed JSON Schemas;
// their types are generated from them into src/generated/ (`npm run gen:types`; a unit test fails when they
// differ from the schemas), so they cannot drift. Only the few outputs without a schema are written out here.

import type { Capture, Compilation as CaptureCompilation, Evidence } from "../generated/capture";
import type {
  Change as ComparisonChange,
  CompiledStatus as ComparisonCompiledStatus,
  Comparison as ComparisonDocument,
  Counts as ComparisonCounts,
  Difference,
  FunctionPiece as ComparisonPiece,
  FunctionRow as ComparisonRow,
  FunctionSide,
  RankDivergence as ComparisonDivergence,
  RankView as ComparisonRankView,
  RunStatus as ComparisonRunStatus,
  Side,
} from "../generated/comparison";
import type { ErrorInfo, Hint } from "../generated/error";
import type { CompilationLine, FunctionReport, RunReport as RunReportDocument } from "../generated/run_report";
import { withHint } from "./hints";

export type Comparison = ComparisonDocument;
export type Counts = ComparisonCounts;
export type RowSide = FunctionSide;
export type Change = ComparisonChange;
export type FunctionPiece = ComparisonPiece;
export type FunctionRow = ComparisonRow;
export type RunStatus = ComparisonRunStatus;
export type CompiledStatus = ComparisonCompiledStatus;
export type ComparedCapture = Side;
export type KeyDifference = Difference;
export type RankDivergence = ComparisonDivergence;
export type RankView = ComparisonRankView;
/** `dynamo-diff analyze ID --format json`: the whole capture document. */
export type Analysis = Capture;
export type Compilation = CaptureCompilation;
export type EvidenceItem = Evidence;
/** `dynamo-diff analyze ID --by-function --format json`. */
export type RunReport = RunReportDocument;
export type { CompilationLine, ErrorInfo, FunctionReport };

/** One row of `dynamo-diff list --format json` (no schema: the CLI's own summary of a stored capture). */
export interface CaptureSummary {
  id: string;
  label: string | null;
  imported_at: string;
  input_kind: string;
  torch_version: string | null;
  artifact_structure: string;
  ranks: number;
  counts: Record<string, number | string[]>;
  /** How the run ended (absent from CLIs before run states). */
  run?: string;
  /** compiled, nothing_compiled (no frame was compiled) or no_graph (no graph reached the backend); absent from
   * CLIs before it. */
  compiled?: string;
}

/** `dynamo-diff evidence ID EVIDENCE --format json` (no schema: an Evidence and a slice of its text). */
export interface EvidenceExcerpt {
  evidence: EvidenceItem;
  offset: number;
  next_offset: number | null;
  total_chars: number;
  text: string;
}

/** One place a function was found: its captured snapshot file, whole, and the function's lines in it. */
export interface SourceLocation {
  co_filename: string;
  /** The snapshot's name in the capture, e.g. `model.py`. */
  snapshot: string;
  first_line: number;
  last_line: number;
  co_firstlineno: number;
  sha256: string;
  /** The whole captured file: line N of this text is line N of the file as it was compiled. */
  text: string;
}

/** `dynamo-diff source CAPTURE FUNCTION --format json`. */
export interface SourceResult {
  capture: string;
  function: string;
  locations: SourceLocation[];
}

// ---------------------------------------------------------------------------------------------------------
// Errors

/** A failure with the CLI's own error code (or one of ours: cli_not_found, cli_version, cancelled, ...), and the
 * next step it points to (`hint`, worded by ./hints.ts). */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: unknown = undefined,
    readonly hint: Hint | null = null,
  ) {
    super(message);
    this.name = "CliError";
  }

  /** How the editor shows it: `[unknown_capture] no capture matches ... (the Dynamo Diff view lists ...)`. */
  display(): string {
    return `[${this.code}] ${withHint(this.message, this.hint)}`;
  }
}

function hintOf(value: unknown): Hint | null {
  if (typeof value !== "object" || value === null) return null;
  const { action, args } = value as { action?: unknown; args?: unknown };
  if (typeof action !== "string") return null;
  const strings =
    typeof args === "object" && args !== null
      ? Object.fromEntries(Object.entries(args).filter((e): e is [string, string] => typeof e[1] === "string"))
      : {};
  return { action, args: strings };
}

/** Reads the error the CLI wrote to stderr: a JSON ErrorInfo (`--format json`) or `error[code]: message`. */
export function parseCliError(stderr: string, exitCode: number | null): CliError {
  const text = stderr.trim();
  for (const candidate of [text, ...text.split("\n").reverse()]) {
    const line = candidate.trim();
    if (!line.startsWith("{")) continue;
    try {
      const info = JSON.parse(line) as Partial<Record<keyof ErrorInfo, unknown>>;
      if (typeof info.code === "string" && typeof info.message === "string") {
        return new CliError(info.code, info.message, info.details, hintOf(info.hint));
      }
    } catch {
      // not JSON; try the plain form below
    }
  }
  const plain = /error\[([a-z_]+)\]:\s*([\s\S]*)/.exec(text);
  if (plain) return new CliError(plain[1], plain[2].trim());
  const last = text.split("\n").filter((l) => l.trim()).slice(-3).join("\n");
  return new CliError("cli_failed", `dynamo-diff exited with code ${exitCode ?? "?"}${last ? `: ${last}` : ""}`);
}

// ---------------------------------------------------------------------------------------------------------
// Finding the CLI: the setting, then the selected Python interpreter's environment, then PATH.

export interface DiscoveryInput {
  cliPath: string;
  /** The interpreter from `dynamoDiff.pythonPath`, else the one the Python extension selected. */
  pythonPath: string | undefined;
  envPath: string | undefined;
  platform: NodeJS.Platform;
  /** Resolves `~` and relative paths; the workspace folder for relative ones. */
  baseDir: string | undefined;
  isExecutable: (p: string) => boolean;
}

export interface Discovered {
  path: string;
  source: "setting" | "interpreter" | "PATH";
}

function exeNames(platform: NodeJS.Platform): string[] {
  return platform === "win32" ? ["dynamo-diff.exe", "dynamo-diff.cmd", "dynamo-diff"] : ["dynamo-diff"];
}

export function resolveUserPath(
  p: string,
  baseDir: string | undefined,
  home = process.env.HOME ?? "",
  paths: typeof path.posix = path,
): string {
  let out = p.trim();
  if (out === "~" || out.startsWith("~/")) out = paths.join(home, out.slice(1));
  if (!paths.isAbsolute(out) && baseDir) out = paths.join(baseDir, out);
  return out;
}

/** Returns the CLI to run, or throws `cli_not_found` listing where it looked. */
export function discoverCli(input: DiscoveryInput): Discovered {
  const looked: string[] = [];
  const paths = input.platform === "win32" ? path.win32 : path.posix;
  if (input.cliPath.trim()) {
    const p = resolveUserPath(input.cliPath, input.baseDir, undefined, paths);
    if (input.isExecutable(p)) return { path: p, source: "setting" };
    // An explicit setting that does not work is an error, not a reason to run something else.
    throw new CliError("cli_not_found", `dynamoDiff.cliPath is set to ${p}, which is not an executable file`);
  }
  if (input.pythonPath && input.pythonPath.trim()) {
    const python = resolveUserPath(input.pythonPath, input.baseDir, undefined, paths);
    const dir = paths.dirname(python);
    const dirs = input.platform === "win32" ? [dir, paths.join(dir, "Scripts")] : [dir];
    for (const d of dirs) {
      for (const name of exeNames(input.platform)) {
        const p = paths.join(d, name);
        looked.push(p);
        if (input.isExecutable(p)) return { path: p, source: "interpreter" };
      }
    }
  }
  const sep = input.platform === "win32" ? ";" : ":";
  for (const d of (input.envPath ?? "").split(sep)) {
    if (!d) continue;
    for (const name of exeNames(input.platform)) {
      const p = paths.join(d, name);
      if (input.isExecutable(p)) return { path: p, source: "PATH" };
    }
  }
  looked.push("PATH");
  throw new CliError(
    "cli_not_found",
    `dynamo-diff was not found (looked in ${looked.join(", ")}). Install it with: pip install dynamo-diff, ` +
      "or set dynamoDiff.cliPath",
  );
}

export function isExecutableFile(p: string): boolean {
  try {
    const st = fs.statSync(p);
    if (!st.isFile()) return false;
    if (process.platform === "win32") return true;
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------------
// The version pin

export function installCommand(pinned: string): string {
  return `pip install dynamo-diff==${pinned}`;
}

/** `dynamo-diff 0.2.0` -> "0.2.0"; anything else -> undefined. */
export function parseVersion(stdout: string): string | undefined {
  const m = /^dynamo-diff\s+(\S+)\s*$/m.exec(stdout.trim());
  return m ? m[1] : undefined;
}

/** Throws `cli_version` with the exact install command unless the CLI prints the pinned version. */
export function checkVersion(stdout: string, pinned: string, cliPath: string): string {
  const found = parseVersion(stdout);
  if (found === pinned) return found;
  const what = found ? `is version ${found}` : `did not print a version (${JSON.stringify(stdout.trim().slice(0, 80))})`;
  throw new CliError(
    "cli_version",
    `${cliPath} ${what}; this extension needs dynamo-diff ${pinned}. Install it with: ${installCommand(pinned)}`,
    { found, pinned },
  );
}

// ---------------------------------------------------------------------------------------------------------
// Argument lists (always arrays: the CLI is run with execFile, never through a shell)

/** Global options first: `--store PATH` when the store is configured. */
export function globalArgs(store: string | undefined): string[] {
  return store ? ["--store", store] : [];
}

export const args = {
  version: (): string[] => ["--version"],
  list: (): string[] => ["list", "--format", "json"],
  importCapture: (target: string, label?: string): string[] => [
    "import",
    target,
    ...(label ? ["--label", label] : []),
    "--format",
    "json",
  ],
  analyze: (capture: string): string[] => ["analyze", capture, "--format", "json"],
  runReport: (capture: string): string[] => ["analyze", capture, "--by-function", "--format", "json"],
  compare: (baseline: string, candidate: string): string[] => ["compare", baseline, candidate, "--format", "json"],
  compareRanks: (capture: string, ranks: number[] = []): string[] => [
    "compare",
    capture,
    "--ranks",
    ...ranks.map(String),
    "--format",
    "json",
  ],
  htmlReport: (operands: string[], ranks: boolean, output: string): string[] => [
    "compare",
    ...operands,
    ...(ranks ? ["--ranks"] : []),
    "--format",
    "html",
    "-o",
    output,
  ],
  evidenceIndex: (capture: string, offset = 0, limit = 50, kind?: string): string[] => [
    "evidence",
    capture,
    ...(kind ? ["--kind", kind] : []),
    "--offset",
    String(offset),
    "--limit",
    String(limit),
    "--format",
    "json",
  ],
  evidenceExcerpt: (capture: string, evidence: string, offset = 0, maxChars = 20000): string[] => [
    "evidence",
    capture,
    evidence,
    "--offset",
    String(offset),
    "--max-chars",
    String(maxChars),
    "--format",
    "json",
  ],
  source: (capture: string, fn: string): string[] => ["source", capture, fn, "--format", "json"],
};

/** Parses rank numbers typed by the user: "1 2", "1,2" or "" (all ranks). */
export function parseRanks(text: string): number[] {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  const out: number[] = [];
  for (const part of parts) {
    if (!/^\d+$/.test(part)) throw new CliError("invalid_ranks", `not a rank number: ${JSON.stringify(part)}`);
    out.push(Number(part));
  }
  return out;
}

/** The FUNCTION argument of `dynamo-diff source` for a row side: `file.py:LINE` when known, else the name. */
export function sourceFunctionArg(file: string | null, line: number | null, name: string | null): string | undefined {
  if (file && line) return `${path.posix.basename(file.replace(/\\/g, "/"))}:${line}`;
  return name ?? undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Parsing

function parseJson<T>(stdout: string, what: string): T {
  try {
    return JSON.parse(stdout) as T;
  } catch (err) {
    throw new CliError("bad_output", `dynamo-diff printed something that is not JSON for ${what}: ${String(err)}`);
  }
}

function expectObject(value: unknown, keys: string[], what: string): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new CliError("bad_output", `dynamo-diff ${what}: expected a JSON object`);
  }
  for (const key of keys) {
    if (!(key in value)) throw new CliError("bad_output", `dynamo-diff ${what}: missing "${key}"`);
  }
}

export function parseCaptureList(stdout: string): CaptureSummary[] {
  const value = parseJson<unknown>(stdout, "list");
  if (!Array.isArray(value)) throw new CliError("bad_output", "dynamo-diff list: expected a JSON array");
  for (const item of value) expectObject(item, ["id", "imported_at"], "list");
  return value as CaptureSummary[];
}

export function parseImport(stdout: string): { id: string; label: string | null } {
  const value = parseJson<{ capture?: { id?: string; label?: string | null } }>(stdout, "import");
  expectObject(value, ["capture"], "import");
  expectObject(value.capture, ["id"], "import");
  return { id: value.capture!.id!, label: value.capture!.label ?? null };
}

export function parseComparison(stdout: string): Comparison {
  const value = parseJson<Comparison>(stdout, "compare");
  expectObject(value, ["baseline", "candidate", "comparability", "totals", "functions"], "compare");
  if (!Array.isArray(value.functions)) throw new CliError("bad_output", "dynamo-diff compare: functions is not a list");
  return value;
}

export function parseAnalysis(stdout: string): Analysis {
  const value = parseJson<Analysis>(stdout, "analyze");
  expectObject(value, ["capture", "ranks"], "analyze");
  return value;
}

/** `dynamo-diff analyze ID --by-function --format json` (kind run_report). */
export function parseRunReport(stdout: string): RunReport {
  const value = parseJson<RunReport>(stdout, "analyze --by-function");
  expectObject(value, ["capture", "run", "counts"], "analyze --by-function");
  if (value.functions !== undefined && !Array.isArray(value.functions)) {
    throw new CliError("bad_output", "dynamo-diff analyze --by-function: functions is not a list");
  }
  return value;
}

export function parseEvidenceExcerpt(stdout: string): EvidenceExcerpt {
  const value = parseJson<EvidenceExcerpt>(stdout, "evidence");
  expectObject(value, ["evidence", "offset", "total_chars", "text"], "evidence");
  return value;
}

function isLineNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0;
}

/** `dynamo-diff source ... --format json`: at least one location, each with its whole snapshot text. */
export function parseSource(stdout: string): SourceResult {
  const value = parseJson<SourceResult>(stdout, "source");
  expectObject(value, ["capture", "function", "locations"], "source");
  if (!Array.isArray(value.locations) || value.locations.length === 0) {
    throw new CliError("bad_output", "dynamo-diff source: no locations");
  }
  for (const loc of value.locations) {
    expectObject(loc, ["co_filename", "snapshot", "first_line", "last_line", "co_firstlineno", "sha256", "text"], "source");
    if (typeof loc.text !== "string") throw new CliError("bad_output", "dynamo-diff source: text is not a string");
    if (!isLineNumber(loc.first_line) || !isLineNumber(loc.last_line) || !isLineNumber(loc.co_firstlineno) || loc.last_line < loc.first_line) {
      throw new CliError(
        "bad_output",
        `dynamo-diff source: bad line numbers ${JSON.stringify([loc.first_line, loc.last_line, loc.co_firstlineno])}`,
      );
    }
  }
  return value;
}

// ---------------------------------------------------------------------------------------------------------
// Running

export interface Cancellation {
  isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  token?: Cancellation;
  /** Called with the child as soon as it is started (tests use it to see the process really ends). */
  onSpawn?: (child: ChildProcess) => void;
  maxBuffer?: number;
}

export interface RunResult {
  stdout: string;
  stderr: string;
}

/** Runs `exe args...` without a shell. Rejects with a CliError; cancelling kills the child (TERM, then KILL). */
export function runCli(exe: string, argv: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (options.token?.isCancellationRequested) {
      reject(new CliError("cancelled", "cancelled"));
      return;
    }
    let cancelled = false;
    let killTimer: NodeJS.Timeout | undefined;
    const child = execFile(
      exe,
      argv,
      {
        cwd: options.cwd,
        env: { ...(options.env ?? process.env), NO_COLOR: "1", PYTHONIOENCODING: "utf-8" },
        maxBuffer: options.maxBuffer ?? 256 * 1024 * 1024,
        windowsHide: true,
        encoding: "utf8",
      },
      (error, stdout, stderr) => {
        subscription?.dispose();
        if (killTimer) clearTimeout(killTimer);
        if (cancelled) {
          reject(new CliError("cancelled", `cancelled: dynamo-diff ${argv[0] ?? ""} was stopped`));
          return;
        }
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "ENOENT" || code === "EACCES") {
            reject(new CliError("cli_not_found", `cannot run ${exe}: ${error.message}`));
            return;
          }
          if (code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER") {
            reject(new CliError("resource_limit", `dynamo-diff printed more than the extension reads`));
            return;
          }
          const exitCode = typeof error.code === "number" ? error.code : (child.exitCode ?? null);
          reject(parseCliError(stderr, exitCode));
          return;
        }
        resolve({ stdout, stderr });
      },
    );
    const subscription = options.token?.onCancellationRequested(() => {
      cancelled = true;
      child.kill("SIGTERM");
      killTimer = setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      }, 2000);
    });
    options.onSpawn?.(child);
  });
}
