// One capture's graph breaks and failures as diagnostics in the user's own workspace files, and per function its
// compile counts and first failing guard as a CodeLens on its definition. Which capture: the candidate of the
// comparison on screen (dynamoDiff.diagnosticsFollowComparison), or the one picked with "Show Capture Diagnostics";
// the status bar says which. Paths the trace recorded are mapped onto workspace files by their longest common
// path suffix; a file that differs from the capture's snapshot of it (or, without a snapshot, was modified after
// the run or lacks the line) gets its diagnostics marked "file changed since capture: line may have moved".
import * as fs from "node:fs";
import * as vscode from "vscode";
import { CliError, FunctionReport, RunReport, sourceFunctionArg } from "../common/cli";
import { Command } from "../common/constants";
import { Log } from "../common/log";
import { Token } from "../common/runner";
import { Session } from "../common/session";
import { codeLensEnabled } from "../common/settings";
import { evidenceUri, sourceUri } from "./documents";
import {
  Finding,
  FunctionSummary,
  PathMatch,
  STALE_NOTE,
  Staleness,
  baseNameOf,
  lensText,
  mapPath,
  readReport,
  staleness,
} from "./findings";

export const DIAGNOSTIC_SOURCE = "dynamo-diff";

/** Folders never searched for a recorded file's namesake. */
const EXCLUDE = "**/{node_modules,.git,.venv,venv,.tox,.dynamo-diff,site-packages,dist-packages,__pycache__}/**";

/** A recorded file the capture has a snapshot of: its path as recorded, its whole text, how to ask for it again. */
interface Recorded {
  capturePath: string;
  text: string;
  /** The FUNCTION argument of `dynamo-diff source` that gave it, and the snapshot's name. */
  fnArg: string;
  snapshotName: string;
}

interface MappedFile {
  uri: vscode.Uri;
  /** The recorded paths mapped onto this file, with how well each matched. */
  matches: Map<string, PathMatch>;
  snapshot?: Recorded;
  findings: Finding[];
  functions: FunctionSummary[];
  stale: Staleness;
}

/** What is shown now (returned by the commands; the extension-host tests read it). */
export interface FindingsState {
  capture: string;
  label: string;
  /** Why this capture: "candidate of v1 → v2" or "chosen with Show Capture Diagnostics". */
  why: string;
  files: { file: string; recordedAs: string[]; score: number; stale: boolean; reason: string; diagnostics: number; functions: number }[];
  /** Recorded paths no workspace file matched. */
  unmapped: string[];
}

export class WorkspaceFindings implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly status = vscode.window.createStatusBarItem("dynamoDiff.findings", vscode.StatusBarAlignment.Left, 10);
  private files = new Map<string, MappedFile>();
  private shown: { capture: string; label: string; why: string; unmapped: string[] } | undefined;
  /** Each load and clear takes the next number; a load finishing after a newer one started is dropped. */
  private generation = 0;
  private readonly lensCache = new Map<string, { key: string; lenses: vscode.CodeLens[] }>();
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly session: Session,
    private readonly log: Log,
  ) {
    this.status.name = "Dynamo Diff diagnostics";
    this.status.command = Command.showCaptureDiagnostics;
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.schedule(d)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("dynamoDiff.codeLens")) this.lensesChanged.fire();
      }),
    ];
  }

  state(): FindingsState | undefined {
    if (!this.shown) return undefined;
    return {
      ...this.shown,
      files: [...this.files.values()].map((f) => ({
        file: f.uri.fsPath,
        recordedAs: [...f.matches.keys()],
        score: Math.min(...[...f.matches.values()].map((m) => m.score)),
        stale: f.stale.stale,
        reason: f.stale.reason,
        diagnostics: f.findings.length,
        functions: f.functions.length,
      })),
    };
  }

  clear(): void {
    this.generation++;
    this.files = new Map();
    this.shown = undefined;
    this.collection.clear();
    this.lensCache.clear();
    this.status.hide();
    this.lensesChanged.fire();
  }

  /** Reads the capture's run report and shows its findings in the workspace files it maps onto. */
  async load(captureId: string, why: string, token?: Token): Promise<FindingsState | undefined> {
    const generation = ++this.generation;
    const report = await this.session.runReport(captureId, token);
    const label = report.label ?? captureId.slice(0, 12);
    const recorded = await this.snapshots(report, token);
    const pathOf = (fn: FunctionReport): string | undefined => (fn.file ? (recorded.get(fn.file)?.capturePath ?? fn.file) : undefined);
    const { findings, functions } = readReport(report, pathOf);
    const byPath = new Map([...recorded.values()].map((r) => [r.capturePath, r]));
    const paths = [...new Set([...findings.map((f) => f.capturePath), ...functions.map((f) => f.capturePath)])];
    const files = new Map<string, MappedFile>();
    const unmapped: string[] = [];
    const namesakes = new Map<string, vscode.Uri[]>();
    for (const p of paths) {
      const name = baseNameOf(p);
      if (!namesakes.has(name)) namesakes.set(name, await vscode.workspace.findFiles(`**/${globEscape(name)}`, EXCLUDE, 500));
      const candidates = namesakes.get(name)!;
      const match = mapPath(p, candidates.map((u) => u.fsPath));
      if (!match) {
        unmapped.push(p);
        continue;
      }
      const uri = candidates.find((u) => u.fsPath === match.file)!;
      const key = uri.toString();
      let file = files.get(key);
      if (!file) {
        file = { uri, matches: new Map(), findings: [], functions: [], stale: { stale: false, reason: "" } };
        files.set(key, file);
      }
      file.matches.set(p, match);
      file.snapshot ??= byPath.get(p);
      file.findings.push(...findings.filter((f) => f.capturePath === p));
      file.functions.push(...functions.filter((f) => f.capturePath === p));
    }
    let capturedAt: number | undefined;
    if ([...files.values()].some((f) => !f.snapshot)) capturedAt = await this.capturedAt(captureId);
    for (const file of files.values()) file.stale = this.check(file, capturedAt);
    if (generation !== this.generation) return undefined; // a newer load or a clear won
    this.files = files;
    this.capturedAtMs = capturedAt;
    this.shown = { capture: captureId, label, why, unmapped };
    this.collection.clear();
    for (const file of files.values()) this.publish(file);
    this.lensCache.clear();
    this.lensesChanged.fire();
    // Seen in code-server 4.139: an editor whose CodeLens request was in flight while this load ran sometimes did
    // not ask again after the first event; a second one a moment later makes it.
    setTimeout(() => {
      if (generation === this.generation) this.lensesChanged.fire();
    }, 750);
    this.updateStatus();
    const state = this.state()!;
    this.log.line(
      `diagnostics from ${label} (${why}): ${findings.length} finding(s); ` +
        (state.files.map((f) => `${f.recordedAs.join(", ")} -> ${f.file}${f.stale ? " (stale)" : ""}`).join("; ") || "no workspace file matched") +
        (unmapped.length ? `; not in the workspace: ${unmapped.join(", ")}` : ""),
    );
    return state;
  }

  private capturedAtMs: number | undefined;

  /** The capture's snapshot of each function's file, by the report's file name (one `source` call per file). */
  private async snapshots(report: RunReport, token?: Token): Promise<Map<string, Recorded>> {
    const firstOf = new Map<string, number>();
    for (const fn of report.functions ?? []) if (fn.file && fn.line && !firstOf.has(fn.file)) firstOf.set(fn.file, fn.line);
    const out = new Map<string, Recorded>();
    await Promise.all(
      [...firstOf].map(async ([file, line]) => {
        const fnArg = sourceFunctionArg(file, line, null)!;
        try {
          const found = await this.session.source(report.capture, fnArg, token);
          const loc =
            found.locations.find((l) => l.snapshot === file && l.co_firstlineno === line) ??
            found.locations.find((l) => l.snapshot === file) ??
            found.locations[0];
          out.set(file, { capturePath: loc.co_filename, text: loc.text, fnArg, snapshotName: loc.snapshot });
        } catch (err) {
          // No snapshot (a bare trace): the recorded path is the report's, and staleness falls back to mtime.
          this.log.line(`no snapshot of ${file} in ${report.capture.slice(0, 12)}: ${err instanceof CliError ? err.display() : String(err)}`);
        }
      }),
    );
    return out;
  }

  /** When the run was recorded (the workload's start), else when it was imported; undefined if unknown. */
  private async capturedAt(captureId: string): Promise<number | undefined> {
    try {
      const capture = (await this.session.analysis(captureId)).capture;
      const when = capture.manifest?.workload?.started_at ?? capture.imported_at;
      const ms = when ? Date.parse(when) : NaN;
      return Number.isNaN(ms) ? undefined : ms;
    } catch {
      return undefined;
    }
  }

  private textOf(uri: vscode.Uri): string {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open && !open.isClosed) return open.getText();
    try {
      return fs.readFileSync(uri.fsPath, "utf8");
    } catch {
      return "";
    }
  }

  private check(file: MappedFile, capturedAtMs: number | undefined): Staleness {
    let mtimeMs: number | undefined;
    try {
      mtimeMs = fs.statSync(file.uri.fsPath).mtimeMs;
    } catch {
      mtimeMs = undefined;
    }
    return staleness({
      text: this.textOf(file.uri),
      snapshot: file.snapshot?.text,
      lines: [...file.findings.map((f) => f.line), ...file.functions.map((f) => f.line)],
      mtimeMs,
      capturedAtMs,
    });
  }

  /** Re-checks a shown file a moment after it was edited (or closed): it may have become stale, or fresh again. */
  private schedule(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    if (!this.files.has(key)) return;
    clearTimeout(this.pending.get(key));
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        const file = this.files.get(key);
        if (!file) return;
        const before = file.stale;
        file.stale = this.check(file, this.capturedAtMs);
        if (before.stale !== file.stale.stale || before.reason !== file.stale.reason) {
          this.publish(file);
          this.lensCache.delete(key);
          this.lensesChanged.fire();
          this.updateStatus();
        }
      }, 200),
    );
  }

  private publish(file: MappedFile): void {
    const label = this.shown?.label ?? "";
    const capture = this.shown?.capture ?? "";
    const lines = this.textOf(file.uri).split(/\r\n|\r|\n/);
    const diagnostics = file.findings.map((f) => {
      const index = Math.min(Math.max(f.line - 1, 0), Math.max(lines.length - 1, 0));
      const text = lines[index] ?? "";
      const start = text.length - text.trimStart().length;
      const range = new vscode.Range(index, start, index, Math.max(text.length, start));
      const match = file.matches.get(f.capturePath)!;
      const where = `${f.fn}${f.frame !== f.fn ? ` (frame ${f.frame})` : ""}, compile ${f.compileId}`;
      const messageLines = [
        `${file.stale.stale ? `[${STALE_NOTE}] ` : ""}${f.message} — ${where}${f.evidenceId ? ` · evidence ${f.evidenceId}` : ""}`,
        `recorded at ${f.capturePath}:${f.line} in capture ${label}${f.atDefinition ? " (torch gave no line: shown at the function's definition)" : ""}; ` +
          `mapped onto this file by ${plural(match.score, "trailing path component")}` +
          (match.ties.length ? ` (as well as ${match.ties.length} other file(s), e.g. ${match.ties[0]}: the first by name was chosen)` : ""),
      ];
      if (file.stale.stale) messageLines.push(file.stale.reason);
      messageLines.push(...f.suggestions);
      const d = new vscode.Diagnostic(
        range,
        messageLines.join("\n"),
        f.kind === "failure" ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
      );
      d.source = DIAGNOSTIC_SOURCE;
      d.code = f.code ?? f.kind;
      const related: vscode.DiagnosticRelatedInformation[] = [];
      if (f.evidenceId) {
        related.push(
          new vscode.DiagnosticRelatedInformation(
            new vscode.Location(evidenceUri({ capture, evidence: f.evidenceId, offset: 0 }, label), new vscode.Position(0, 0)),
            `evidence ${f.evidenceId}: the trace record (${f.kind === "failure" ? "the failure" : "the graph break"}, compile ${f.compileId})`,
          ),
        );
      }
      if (file.snapshot) {
        const snap = file.snapshot;
        related.push(
          new vscode.DiagnosticRelatedInformation(
            new vscode.Location(sourceUri({ capture, fn: snap.fnArg }, label, baseNameOf(snap.snapshotName)), new vscode.Position(f.line - 1, 0)),
            `line ${f.line} of the captured snapshot ${snap.snapshotName}`,
          ),
        );
      }
      d.relatedInformation = related;
      return d;
    });
    this.collection.set(file.uri, diagnostics);
  }

  private updateStatus(): void {
    if (!this.shown) {
      this.status.hide();
      return;
    }
    const files = [...this.files.values()];
    const count = files.reduce((n, f) => n + f.findings.length, 0);
    const stale = files.filter((f) => f.stale.stale).length;
    this.status.text = `$(${count ? "warning" : "pass"}) Dynamo Diff: ${this.shown.label}${stale ? " (stale)" : ""}`;
    this.status.tooltip = [
      `Diagnostics and CodeLens from capture ${this.shown.label} (${this.shown.why}).`,
      `${plural(count, "graph break or failure", "graph breaks and failures")} in ${plural(files.length, "workspace file")}` +
        (stale ? `; ${stale} changed since capture` : ""),
      ...(this.shown.unmapped.length ? [`Recorded files not in this workspace: ${this.shown.unmapped.join(", ")}`] : []),
      "Click to show another capture's.",
    ].join("\n");
    this.status.show();
  }

  // CodeLens: one per function defined in a shown file, cached per document version.
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const key = document.uri.toString();
    const file = this.files.get(key);
    if (!file || !this.shown || !codeLensEnabled()) return [];
    const cacheKey = `${this.generation}:${document.version}:${file.stale.stale}`;
    const cached = this.lensCache.get(key);
    if (cached?.key === cacheKey) return cached.lenses;
    const shown = this.shown;
    const lenses = file.functions.map((fn) => {
      const line = this.definitionLine(document, fn, file.stale.stale);
      const range = new vscode.Range(line, 0, line, 0);
      const guard =
        (fn.firstGuard ? `\nfirst failing guard (compile ${fn.firstGuard.compileId}): ${fn.firstGuard.text}` : "") +
        fn.suggestions.map((line) => `\n${line}`).join("");
      return new vscode.CodeLens(range, {
        title: lensText(fn, file.stale.stale),
        command: fn.evidenceId ? Command.openEvidence : "",
        arguments: fn.evidenceId ? [shown.capture, fn.evidenceId] : [],
        tooltip: `${fn.fn} in capture ${shown.label} (${shown.why}), recorded at ${fn.capturePath}:${fn.line}${guard}${
          fn.evidenceId ? `\nClick to open evidence ${fn.evidenceId}.` : ""
        }`,
      });
    });
    this.lensCache.set(key, { key: cacheKey, lenses });
    return lenses;
  }

  /** The definition's 0-based line: the recorded one, or in a changed file the one `def NAME(` is now on (if one). */
  private definitionLine(document: vscode.TextDocument, fn: FunctionSummary, stale: boolean): number {
    const recorded = Math.min(Math.max(fn.line - 1, 0), Math.max(document.lineCount - 1, 0));
    if (!stale) return recorded;
    const name = fn.fn.split(".").pop()!;
    const def = new RegExp(`^\\s*(async\\s+)?def\\s+${name.replace(/[^\w]/g, "")}\\s*\\(`);
    if (def.test(document.lineAt(recorded).text)) return recorded;
    const found: number[] = [];
    for (let i = 0; i < document.lineCount && found.length < 2; i++) if (def.test(document.lineAt(i).text)) found.push(i);
    return found.length === 1 ? found[0] : recorded;
  }

  dispose(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
    this.lensesChanged.dispose();
    this.status.dispose();
  }
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A file name as a glob that matches only itself. */
function globEscape(name: string): string {
  return name.replace(/[[\]{}*?!]/g, (c) => `[${c}]`);
}
