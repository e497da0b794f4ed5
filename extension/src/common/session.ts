// What the extension knows between commands: the captures in the store, the current comparison (and what it was
// asked for with, for the HTML report), a problem found at start-up, and the analyses and evidence indexes read
// so far (captures never change, so these are kept until a refresh). Views listen to `onDidChange`.
import * as fs from "node:fs";
import * as vscode from "vscode";
import {
  Analysis,
  CaptureRow,
  Comparison,
  EvidenceItem,
  RunReport,
  SourceFound,
  args,
  parseAnalysis,
  parseCaptureList,
  parseEvidenceIndex,
  parseRunReport,
  parseSource,
} from "./cli";
import { toCliError } from "./errors";
import { Log } from "./log";
import { CliRunner, Token } from "./runner";
import { effectiveStore } from "./settings";

/** The operands of the current comparison: two captures, or one capture and its ranks. */
export interface ComparisonRequest {
  operands: string[];
  ranks: boolean;
}

export class Session implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** The captures, the comparison or the start-up problem changed (or were read again). */
  readonly onDidChange = this.changed.event;
  private captureList: CaptureRow[] = [];
  private current: Comparison | undefined;
  private currentRequest: ComparisonRequest | undefined;
  private problemText: string | undefined;
  private analyses = new Map<string, Promise<Analysis>>();
  private indexes = new Map<string, Promise<Map<string, EvidenceItem>>>();
  private reports = new Map<string, Promise<RunReport>>();
  private sources = new Map<string, Promise<SourceFound>>();

  constructor(
    private readonly cli: CliRunner,
    private readonly log: Log,
  ) {}

  captures(): CaptureRow[] {
    return this.captureList;
  }

  comparison(): Comparison | undefined {
    return this.current;
  }

  request(): ComparisonRequest | undefined {
    return this.currentRequest;
  }

  /** A problem to show instead of the captures (e.g. the CLI was not found). */
  problem(): string | undefined {
    return this.problemText;
  }

  /** A capture's label, else the start of its id. */
  nameOf(captureId: string): string {
    const c = this.captureList.find((x) => x.id === captureId);
    if (c?.label) return c.label;
    if (this.current?.baseline.id === captureId && this.current.baseline.label) return this.current.baseline.label;
    if (this.current?.candidate.id === captureId && this.current.candidate.label) return this.current.candidate.label;
    return captureId.slice(0, 12);
  }

  analysis(id: string): Promise<Analysis> {
    let p = this.analyses.get(id);
    if (!p) {
      p = this.cli.run(args.analyze(id)).then((r) => parseAnalysis(r.stdout));
      p.catch(() => this.analyses.delete(id));
      this.analyses.set(id, p);
    }
    return p;
  }

  /** The capture per source function (`analyze --by-function`): what diagnostics and CodeLens show. */
  runReport(id: string, token?: Token): Promise<RunReport> {
    return this.cached(this.reports, id, () => this.cli.run(args.runReport(id), token).then((r) => parseRunReport(r.stdout)));
  }

  /** `dynamo-diff source ID FUNCTION`: where the function was and the whole snapshot of its file. */
  source(id: string, fn: string, token?: Token): Promise<SourceFound> {
    return this.cached(this.sources, `${id}\n${fn}`, () => this.cli.run(args.source(id, fn), token).then((r) => parseSource(r.stdout)));
  }

  private cached<T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
    let p = map.get(key);
    if (!p) {
      p = load();
      p.catch(() => map.delete(key));
      map.set(key, p);
    }
    return p;
  }

  evidenceIndex(id: string): Promise<Map<string, EvidenceItem>> {
    let p = this.indexes.get(id);
    if (!p) {
      p = (async () => {
        const out = new Map<string, EvidenceItem>();
        let offset: number | null = 0;
        for (let page = 0; offset !== null && page < 50; page++) {
          const r = parseEvidenceIndex((await this.cli.run(args.evidenceIndex(id, offset, 1000))).stdout);
          for (const item of r.items ?? []) out.set(item.id, item);
          offset = r.next_offset ?? null;
        }
        return out;
      })();
      p.catch(() => this.indexes.delete(id));
      this.indexes.set(id, p);
    }
    return p;
  }

  /** Drops the analyses and evidence indexes read so far. */
  forget(): void {
    this.analyses.clear();
    this.indexes.clear();
    this.reports.clear();
    this.sources.clear();
  }

  /**
   * On start-up: check the CLI (a problem shows in the tree, not as a pop-up) and list the captures, but only
   * when the store exists — opening a folder must not create a store in it.
   */
  async startup(): Promise<void> {
    try {
      await this.cli.resolve();
      if (fs.existsSync(effectiveStore())) await this.refreshCaptures();
      else this.changed.fire();
    } catch (err) {
      this.problemText = toCliError(err).display();
      this.log.line(`start-up: ${this.problemText}`);
      this.changed.fire();
    }
  }

  async refreshCaptures(token?: Token): Promise<CaptureRow[]> {
    try {
      this.captureList = parseCaptureList((await this.cli.run(args.list(), token)).stdout);
      this.problemText = undefined;
    } catch (err) {
      const e = toCliError(err);
      this.problemText = e.display();
      throw e;
    } finally {
      this.changed.fire();
    }
    return this.captureList;
  }

  setComparison(comparison: Comparison, request: ComparisonRequest): void {
    this.current = comparison;
    this.currentRequest = request;
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
