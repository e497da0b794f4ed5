// The dynamo-diff command line tool: finding it, building its argument lists, running it, reading its JSON.
// Nothing here imports `vscode`, so all of it is unit-tested with plain Node.
import { execFile, ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

// ---------------------------------------------------------------------------------------------------------
// JSON shapes. Every document the CLI prints with `--format json` says what it is (`{"kind": K,
// "schema_version": "MAJOR.MINOR", ...}`) and has a committed JSON Schema, K.schema.json; the types below are
// generated from those schemas into src/generated/ (`npm run gen:types`; a unit test fails when they differ from
// the schemas), so none is written out by hand here and none can drift from what the CLI writes.

import type { Capture, Compilation as CaptureCompilation, Evidence } from "../generated/capture";
import type { CaptureList, CaptureRow } from "../generated/capture_list";
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
import type { EvidenceExcerpt } from "../generated/evidence_excerpt";
import type { EvidenceEntry, EvidenceIndex } from "../generated/evidence_index";
import type { ImportedCapture, ImportResult } from "../generated/import_result";
import type { Comparison as RankViewDocument } from "../generated/rank_view";
import type { CompilationLine, FunctionReport, RunReport as RunReportDocument } from "../generated/run_report";
import type { SourceLocation, SourceResult } from "../generated/source";
import { withHint } from "./hints";

/** `dynamo-diff compare BASE CAND` (kind `comparison`) or `compare CAPTURE --ranks` (kind `rank_view`, `ranks`
 * set): one model, two kinds. */
export type Comparison = ComparisonDocument | RankViewDocument;
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
/** `dynamo-diff analyze ID --format json`: the whole capture document (kind `capture`). */
export type Analysis = Capture;
export type Compilation = CaptureCompilation;
export type EvidenceItem = Evidence;
/** `dynamo-diff analyze ID --by-function --format json` (kind `run_report`). */
export type RunReport = RunReportDocument;
export type {
  CaptureList,
  CaptureRow,
  CompilationLine,
  ComparisonDocument,
  ErrorInfo,
  EvidenceEntry,
  EvidenceExcerpt,
  EvidenceIndex,
  FunctionReport,
  ImportedCapture,
  ImportResult,
  RankViewDocument,
  SourceLocation,
  SourceResult,
};

/** A `source` document as parseSource returns it: at least one location. */
export type SourceFound = SourceResult & { locations: SourceLocation[] };

/** Each document kind the extension reads, and its generated type. */
export interface DocumentKinds {
  capture_list: CaptureList;
  import_result: ImportResult;
  capture: Capture;
  run_report: RunReportDocument;
  comparison: ComparisonDocument;
  rank_view: RankViewDocument;
  evidence_index: EvidenceIndex;
  evidence_excerpt: EvidenceExcerpt;
  source: SourceResult;
  error: ErrorInfo;
}
export type DocumentKind = keyof DocumentKinds;

/** The major `schema_version` this extension reads (the committed schemas' `2.4` is 2; a unit test checks the
 * two agree). A document of another major is refused: its fields may mean something else. */
export const SCHEMA_MAJOR = 2;

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

/** Reads the error the CLI wrote to stderr: its `error` document (`--format json`) or `error[code]: message`. */
export function parseCliError(stderr: string, exitCode: number | null): CliError {
  const text = stderr.trim();
  for (const candidate of [text, ...text.split("\n").reverse()]) {
    const line = candidate.trim();
    if (!line.startsWith("{")) continue;
    try {
      const info = JSON.parse(line) as Partial<Record<keyof ErrorInfo, unknown>>;
      // The error document (kind "error"); a line of another kind is not the error.
      if (info.kind !== undefined && info.kind !== "error") continue;
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
    `dynamo-diff was not found (looked in ${looked.join(", ")}). Install it from a clone of the repository, ` +
      `in the clone: ${installCommand()}, or set dynamoDiff.cliPath`,
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

/** The README's install command, run in a clone of the repository (the package index does not serve this version:
 * `pip install dynamo-diff` gives the earlier 0.1.1). */
export function installCommand(): string {
  return "uv tool install ./packages/dynamo-diff-cli";
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
    `${cliPath} ${what}; this extension needs dynamo-diff ${pinned}. Install it from a clone of dynamo-diff ${pinned}, ` +
      `in the clone: ${installCommand()}`,
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
// Parsing: each reader takes one document of the kind it reads, checks the kind and the schema's major version,
// and only then the few fields the extension cannot do without.

function parseJson(stdout: string, what: string): unknown {
  try {
    return JSON.parse(stdout) as unknown;
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

function expectList(value: unknown, field: string, what: string): void {
  if (value !== undefined && !Array.isArray(value)) throw new CliError("bad_output", `dynamo-diff ${what}: ${field} is not a list`);
}

/** `"2.4"` -> 2; undefined when it is not MAJOR.MINOR. */
export function schemaMajor(version: unknown): number | undefined {
  const m = typeof version === "string" ? /^(\d+)\.\d+$/.exec(version) : null;
  return m ? Number(m[1]) : undefined;
}

/**
 * Checks that `value` is a document of one of `kinds` in a schema version this extension reads: `bad_output`
 * when it is not a document or is another kind, `unsupported_schema` when its major version is not SCHEMA_MAJOR.
 */
export function checkDocument(value: unknown, kinds: readonly DocumentKind[], what: string): void {
  expectObject(value, [], what);
  const { kind, schema_version: version } = value as { kind?: unknown; schema_version?: unknown };
  const wanted = kinds.map((k) => `"${k}"`).join(" or ");
  if (typeof kind !== "string") {
    throw new CliError("bad_output", `dynamo-diff ${what} printed a document without a "kind" where the extension reads ${wanted}`, {
      expected: kinds,
    });
  }
  if (!(kinds as readonly string[]).includes(kind)) {
    throw new CliError("bad_output", `dynamo-diff ${what} printed a "${kind}" document where the extension reads ${wanted}`, {
      kind,
      expected: kinds,
    });
  }
  const major = schemaMajor(version);
  if (major !== SCHEMA_MAJOR) {
    throw new CliError(
      "unsupported_schema",
      `dynamo-diff ${what} printed a "${kind}" document of schema version ${JSON.stringify(version ?? null)}; ` +
        `this extension reads schema version ${SCHEMA_MAJOR}.x: install the dynamo-diff it was built for`,
      { kind, schema_version: version ?? null, supported_major: SCHEMA_MAJOR },
    );
  }
}

/** One document of `kind` from the CLI's stdout (see checkDocument). */
export function parseDocument<K extends DocumentKind>(stdout: string, kind: K, what: string): DocumentKinds[K] {
  const value = parseJson(stdout, what);
  checkDocument(value, [kind], what);
  return value as DocumentKinds[K];
}

/** `dynamo-diff list --format json` (kind capture_list): the store's captures, newest first. */
export function parseCaptureList(stdout: string): CaptureRow[] {
  const value = parseDocument(stdout, "capture_list", "list");
  expectList(value.captures, "captures", "list");
  const rows = value.captures ?? [];
  for (const row of rows) expectObject(row, ["id", "imported_at", "run_state", "compiled_state", "rank_count"], "list");
  return rows;
}

/** `dynamo-diff import PATH --format json` (kind import_result): one capture, or one per run of a folder of runs. */
export function parseImport(stdout: string): ImportResult & { captures: ImportedCapture[] } {
  const value = parseDocument(stdout, "import_result", "import");
  expectList(value.captures, "captures", "import");
  if (!value.captures?.length) throw new CliError("bad_output", "dynamo-diff import: no capture in its import_result");
  for (const c of value.captures) expectObject(c, ["id", "created"], "import");
  return value as ImportResult & { captures: ImportedCapture[] };
}

function checkComparison(value: Comparison, what: string): void {
  expectObject(value, ["baseline", "candidate", "comparability", "totals"], what);
  expectList(value.functions, "functions", what);
}

/** `dynamo-diff compare BASE CAND --format json` (kind comparison). */
export function parseComparison(stdout: string): ComparisonDocument {
  const value = parseDocument(stdout, "comparison", "compare");
  checkComparison(value, "compare");
  return value;
}

/** `dynamo-diff compare CAPTURE --ranks --format json` (kind rank_view, `ranks` set). */
export function parseRankView(stdout: string): RankViewDocument {
  const value = parseDocument(stdout, "rank_view", "compare --ranks");
  checkComparison(value, "compare --ranks");
  expectObject(value.ranks, ["ranks", "reference_rank"], "compare --ranks (ranks)");
  return value;
}

/** `dynamo-diff analyze ID --format json` (kind capture). */
export function parseAnalysis(stdout: string): Analysis {
  const value = parseDocument(stdout, "capture", "analyze");
  expectObject(value, ["capture", "ranks"], "analyze");
  expectList(value.ranks, "ranks", "analyze");
  return value;
}

/** `dynamo-diff analyze ID --by-function --format json` (kind run_report). */
export function parseRunReport(stdout: string): RunReport {
  const value = parseDocument(stdout, "run_report", "analyze --by-function");
  expectObject(value, ["capture", "run", "counts"], "analyze --by-function");
  expectList(value.functions, "functions", "analyze --by-function");
  return value;
}

/** `dynamo-diff evidence ID --format json` (kind evidence_index): one page of the capture's evidence index. */
export function parseEvidenceIndex(stdout: string): EvidenceIndex {
  const value = parseDocument(stdout, "evidence_index", "evidence");
  expectObject(value, ["capture", "total", "offset"], "evidence");
  expectList(value.items, "items", "evidence");
  return value;
}

/** `dynamo-diff evidence ID EVIDENCE --format json` (kind evidence_excerpt): a slice of one record's text. */
export function parseEvidenceExcerpt(stdout: string): EvidenceExcerpt {
  const value = parseDocument(stdout, "evidence_excerpt", "evidence");
  expectObject(value, ["evidence", "offset", "total_chars", "text"], "evidence");
  return value;
}

function isLineNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0;
}

/** `dynamo-diff source ... --format json` (kind source): at least one location, each with its whole snapshot. */
export function parseSource(stdout: string): SourceFound {
  const value = parseDocument(stdout, "source", "source");
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
  return value as SourceFound;
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
