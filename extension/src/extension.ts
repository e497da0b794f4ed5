// Dynamo Diff in VS Code: commands, the tree, the table and the read-only documents, all backed by the CLI.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import {
  Analysis,
  CaptureSummary,
  CliError,
  Comparison,
  EvidenceItem,
  args,
  checkVersion,
  discoverCli,
  globalArgs,
  installCommand,
  isExecutableFile,
  parseAnalysis,
  parseCaptureList,
  parseComparison,
  parseEvidenceExcerpt,
  parseImport,
  parseRanks,
  parseSource,
  resolveUserPath,
  runCli,
  sourceFunctionArg,
} from "./common/cli";
import {
  DynamoDiffDocuments,
  EVIDENCE_SCHEME,
  EvidenceRef,
  SOURCE_SCHEME,
  SourceRef,
  evidenceUri,
  parseEvidenceUri,
  renderEvidence,
  sourceUri,
} from "./views/documents";
import { SourceEditors } from "./views/source-editor";
import { SourceView, matchNote, renderSource, sourceView } from "./views/source-view";
import { ComparisonTable } from "./views/table";
import { DynamoDiffTree, captureName } from "./views/tree";

type Token = vscode.CancellationToken;

/** What `activate` returns; the extension-host tests read the state through it. */
export interface DynamoDiffApi {
  captures(): CaptureSummary[];
  comparison(): Comparison | undefined;
  lastError(): CliError | undefined;
  cliPath(): Promise<string>;
}

function toCliError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  if (err instanceof vscode.CancellationError) return new CliError("cancelled", "cancelled");
  return new CliError("internal", err instanceof Error ? err.message : String(err));
}

function workspaceDir(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

class Extension implements DynamoDiffApi {
  readonly output = vscode.window.createOutputChannel("Dynamo Diff");
  readonly tree: DynamoDiffTree;
  readonly table: ComparisonTable;
  readonly documents: DynamoDiffDocuments;
  readonly sourceEditors = new SourceEditors();
  private captureList: CaptureSummary[] = [];
  private current: Comparison | undefined;
  private currentRequest: { operands: string[]; ranks: boolean } | undefined;
  private problemText: string | undefined;
  private error: CliError | undefined;
  private resolved: Promise<string> | undefined;
  private analyses = new Map<string, Promise<Analysis>>();
  private indexes = new Map<string, Promise<Map<string, EvidenceItem>>>();
  private pages = new Map<string, { offset: number; next: number | null }>();

  constructor(private readonly context: vscode.ExtensionContext) {
    this.tree = new DynamoDiffTree({
      captures: () => this.captureList,
      comparison: () => this.current,
      problem: () => this.problemText,
      analysis: (id) => this.analysis(id),
      evidenceIndex: (id) => this.evidenceIndex(id),
    });
    this.table = new ComparisonTable((comparison, row, side) => {
      const r = comparison.functions[row];
      const rs = r?.[side];
      if (!rs) return;
      const fn = sourceFunctionArg(rs.file, rs.line, rs.qualified_name);
      const capture = side === "baseline" ? comparison.baseline.id : comparison.candidate.id;
      if (fn) void this.openSource(capture, fn, rs.line ?? undefined, rs.file ? path.basename(rs.file) : undefined);
    });
    this.documents = new DynamoDiffDocuments({
      // Captures are immutable, so a view read by openSource (or earlier) is still the document's text.
      source: async (ref, token, uri) => renderSource((this.sourceEditors.viewOf(uri) ?? (await this.loadSource(ref, uri, token))).location),
      evidence: async (ref, token) => {
        const excerpt = parseEvidenceExcerpt((await this.run(args.evidenceExcerpt(ref.capture, ref.evidence, ref.offset, this.pageChars()), token)).stdout);
        this.pages.set(evidenceUri(ref, this.nameOf(ref.capture)).toString(), { offset: excerpt.offset, next: excerpt.next_offset });
        return renderEvidence(excerpt);
      },
    });
  }

  // --- DynamoDiffApi -----------------------------------------------------------------------------------
  captures(): CaptureSummary[] {
    return this.captureList;
  }
  comparison(): Comparison | undefined {
    return this.current;
  }
  lastError(): CliError | undefined {
    return this.error;
  }
  cliPath(): Promise<string> {
    return this.resolveCli();
  }

  // --- settings and the CLI ------------------------------------------------------------------------------
  private config(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration("dynamoDiff");
  }

  private pageChars(): number {
    return Math.max(100, this.config().get<number>("evidencePageChars", 20000));
  }

  private pinnedVersion(): string {
    const pkg = this.context.extension.packageJSON as { dynamoDiff?: { cliVersion?: string }; version: string };
    return pkg.dynamoDiff?.cliVersion ?? pkg.version;
  }

  private storePath(): string | undefined {
    const configured = this.config().get<string>("storePath", "").trim();
    return configured ? resolveUserPath(configured, workspaceDir(), os.homedir()) : undefined;
  }

  /** `dynamoDiff.pythonPath`, else the Python extension's selected interpreter, else `python.defaultInterpreterPath`. */
  private async interpreter(): Promise<string | undefined> {
    const own = this.config().get<string>("pythonPath", "").trim();
    if (own) return own;
    const python = vscode.extensions.getExtension("ms-python.python");
    if (python) {
      try {
        const api = (python.isActive ? python.exports : await python.activate()) as {
          environments?: { getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } };
        };
        const selected = api?.environments?.getActiveEnvironmentPath(vscode.workspace.workspaceFolders?.[0]?.uri);
        if (selected?.path) return selected.path;
      } catch (err) {
        this.output.appendLine(`could not ask the Python extension for its interpreter: ${String(err)}`);
      }
    }
    const fallback = vscode.workspace.getConfiguration("python").get<string>("defaultInterpreterPath", "").trim();
    return fallback && fallback !== "python" ? fallback : undefined;
  }

  private resolveCli(): Promise<string> {
    if (!this.resolved) {
      this.resolved = (async () => {
        const found = discoverCli({
          cliPath: this.config().get<string>("cliPath", ""),
          pythonPath: await this.interpreter(),
          envPath: process.env.PATH,
          platform: process.platform,
          baseDir: workspaceDir(),
          isExecutable: isExecutableFile,
        });
        const { stdout } = await runCli(found.path, args.version(), { cwd: workspaceDir() ?? os.homedir() });
        const version = checkVersion(stdout, this.pinnedVersion(), found.path);
        this.output.appendLine(`using ${found.path} (${found.source}), dynamo-diff ${version}`);
        return found.path;
      })();
      this.resolved.catch(() => (this.resolved = undefined));
    }
    return this.resolved;
  }

  private requireTrust(): void {
    if (!vscode.workspace.isTrusted) {
      throw new CliError("untrusted_workspace", "Dynamo Diff runs the dynamo-diff CLI only in a trusted workspace");
    }
  }

  /** Runs the CLI with the store option; no shell, argument arrays only. */
  async run(argv: string[], token?: Token): Promise<{ stdout: string; stderr: string }> {
    this.requireTrust();
    const exe = await this.resolveCli();
    const full = [...globalArgs(this.storePath()), ...argv];
    this.output.appendLine(`$ ${[exe, ...full].map((a) => JSON.stringify(a)).join(" ")}`);
    return runCli(exe, full, { cwd: workspaceDir() ?? os.homedir(), token });
  }

  /** A CLI step behind a cancellable progress notification. */
  private withProgress<T>(title: string, work: (token: Token) => Promise<T>): Thenable<T> {
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Dynamo Diff: ${title}`, cancellable: true },
      (_progress, token) => work(token),
    );
  }

  /** Shows a failure with the CLI's error code; the install command is offered for a version mismatch. */
  report(err: unknown): void {
    const e = toCliError(err);
    this.error = e;
    this.output.appendLine(`error: ${e.display()}`);
    if (e.code === "cancelled") {
      void vscode.window.showInformationMessage(`Dynamo Diff: ${e.message}`);
      return;
    }
    if (e.code === "cli_version" || e.code === "cli_not_found") {
      const command = installCommand(this.pinnedVersion());
      void vscode.window.showErrorMessage(`Dynamo Diff: ${e.display()}`, "Copy Install Command", "Open Settings").then((choice) => {
        if (choice === "Copy Install Command") void vscode.env.clipboard.writeText(command);
        if (choice === "Open Settings") void vscode.commands.executeCommand("workbench.action.openSettings", "dynamoDiff");
      });
      return;
    }
    void vscode.window.showErrorMessage(`Dynamo Diff: ${e.display()}`);
  }

  private nameOf(captureId: string): string {
    const c = this.captureList.find((x) => x.id === captureId);
    if (c?.label) return c.label;
    if (this.current?.baseline.id === captureId && this.current.baseline.label) return this.current.baseline.label;
    if (this.current?.candidate.id === captureId && this.current.candidate.label) return this.current.candidate.label;
    return captureId.slice(0, 12);
  }

  // --- data ----------------------------------------------------------------------------------------------
  /** Runs `dynamo-diff source ... --format json` and keeps the chosen location for the document at `uri`. */
  private async loadSource(ref: SourceRef, uri: vscode.Uri, token?: Token): Promise<SourceView> {
    const found = parseSource((await this.run(args.source(ref.capture, ref.fn), token)).stdout);
    const view = sourceView(found, this.nameOf(ref.capture), ref.line);
    this.sourceEditors.remember(uri, view);
    return view;
  }

  private analysis(id: string): Promise<Analysis> {
    let p = this.analyses.get(id);
    if (!p) {
      p = this.run(args.analyze(id)).then((r) => parseAnalysis(r.stdout));
      p.catch(() => this.analyses.delete(id));
      this.analyses.set(id, p);
    }
    return p;
  }

  private evidenceIndex(id: string): Promise<Map<string, EvidenceItem>> {
    let p = this.indexes.get(id);
    if (!p) {
      p = (async () => {
        const out = new Map<string, EvidenceItem>();
        let offset: number | null = 0;
        for (let page = 0; offset !== null && page < 50; page++) {
          const r = JSON.parse((await this.run(args.evidenceIndex(id, offset, 1000))).stdout) as {
            items: EvidenceItem[];
            next_offset: number | null;
          };
          for (const item of r.items) out.set(item.id, item);
          offset = r.next_offset;
        }
        return out;
      })();
      p.catch(() => this.indexes.delete(id));
      this.indexes.set(id, p);
    }
    return p;
  }

  /** The store folder the CLI will use (the setting, DYNAMO_DIFF_STORE, else .dynamo-diff in its working folder). */
  private effectiveStore(): string {
    return this.storePath() ?? process.env.DYNAMO_DIFF_STORE ?? path.join(workspaceDir() ?? os.homedir(), ".dynamo-diff");
  }

  /**
   * On start-up: check the CLI (a problem shows in the tree, not as a pop-up) and list the captures, but only
   * when the store exists — opening a folder must not create a store in it.
   */
  async startup(): Promise<void> {
    try {
      await this.resolveCli();
      if (fs.existsSync(this.effectiveStore())) await this.refreshCaptures();
      else this.tree.refresh();
    } catch (err) {
      this.problemText = toCliError(err).display();
      this.output.appendLine(`start-up: ${this.problemText}`);
      this.tree.refresh();
    }
  }

  async refreshCaptures(token?: Token): Promise<CaptureSummary[]> {
    try {
      this.captureList = parseCaptureList((await this.run(args.list(), token)).stdout);
      this.problemText = undefined;
    } catch (err) {
      const e = toCliError(err);
      this.problemText = e.display();
      throw e;
    } finally {
      this.tree.refresh();
    }
    return this.captureList;
  }

  private async pickCapture(
    title: string,
    exclude?: string,
    onlyMultiRank = false,
    known?: CaptureSummary[],
  ): Promise<CaptureSummary | undefined> {
    const all = known ?? (await this.refreshCaptures());
    const list = all.filter((c) => c.id !== exclude && (!onlyMultiRank || c.ranks > 1));
    if (!list.length) {
      throw new CliError("no_captures", onlyMultiRank ? "no capture with more than one rank; import one first" : "no captures to choose from; import one first");
    }
    const picked = await vscode.window.showQuickPick(
      list.map((c) => ({
        label: c.label ?? c.id.slice(0, 12),
        description: c.imported_at,
        detail: `${c.id.slice(0, 12)} · ${c.input_kind} · torch ${c.torch_version ?? "?"} · ${c.ranks} rank(s)`,
        capture: c,
      })),
      { title, placeHolder: title, matchOnDescription: true, matchOnDetail: true, ignoreFocusOut: true },
    );
    return picked?.capture;
  }

  private setComparison(comparison: Comparison, request: { operands: string[]; ranks: boolean }): void {
    this.current = comparison;
    this.currentRequest = request;
    this.error = undefined;
    this.tree.refresh();
    this.table.show(comparison);
  }

  // --- commands ------------------------------------------------------------------------------------------
  async importCapture(target?: vscode.Uri | string, label?: string): Promise<CaptureSummary | undefined> {
    try {
      this.requireTrust();
      let where = typeof target === "string" ? target : target?.fsPath;
      if (!where) {
        const picked = await vscode.window.showOpenDialog({
          canSelectFolders: true,
          canSelectFiles: true,
          canSelectMany: false,
          openLabel: "Import",
          title: "Import a capture: a TORCH_TRACE directory or log, a tlparse export, or a bundle",
          defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
        });
        if (!picked?.length) return undefined;
        where = picked[0].fsPath;
        label = await vscode.window.showInputBox({
          title: "Label for this capture (optional)",
          prompt: "A name to pick it by later, e.g. before or after",
          value: path.basename(where),
          ignoreFocusOut: true,
        });
        if (label === undefined) return undefined;
      }
      const target_ = where;
      const imported = await this.withProgress(`importing ${path.basename(target_)}`, async (token) =>
        parseImport((await this.run(args.importCapture(target_, label?.trim() || undefined), token)).stdout),
      );
      const list = await this.refreshCaptures();
      const summary = list.find((c) => c.id === imported.id);
      void vscode.window.showInformationMessage(`Dynamo Diff: imported ${captureName(imported)}`);
      return summary;
    } catch (err) {
      this.report(err);
      return undefined;
    }
  }

  async compareCaptures(baseline?: string, candidate?: string): Promise<Comparison | undefined> {
    try {
      this.requireTrust();
      if (!baseline) baseline = (await this.pickCapture("Baseline capture (before)"))?.id;
      if (!baseline) return undefined;
      if (!candidate) candidate = (await this.pickCapture("Candidate capture (after)", baseline, false, this.captureList))?.id;
      if (!candidate) return undefined;
      const b = baseline;
      const c = candidate;
      const comparison = await this.withProgress("comparing", async (token) =>
        parseComparison((await this.run(args.compare(b, c), token)).stdout),
      );
      this.setComparison(comparison, { operands: [b, c], ranks: false });
      return comparison;
    } catch (err) {
      // The last good comparison stays in the tree and the table.
      this.report(err);
      return undefined;
    }
  }

  async compareRanks(capture?: string, ranks?: number[] | string): Promise<Comparison | undefined> {
    try {
      this.requireTrust();
      if (!capture) capture = (await this.pickCapture("Capture whose ranks to compare", undefined, true))?.id;
      if (!capture) return undefined;
      if (ranks === undefined) {
        const typed = await vscode.window.showInputBox({
          title: "Ranks to compare (optional)",
          prompt: "Reference rank first, e.g. 0 1 3. Empty: every rank against the lowest.",
          ignoreFocusOut: true,
          validateInput: (v) => {
            try {
              parseRanks(v);
              return undefined;
            } catch (e) {
              return toCliError(e).message;
            }
          },
        });
        if (typed === undefined) return undefined;
        ranks = typed;
      }
      const list = typeof ranks === "string" ? parseRanks(ranks) : ranks;
      const cap = capture;
      const comparison = await this.withProgress("comparing ranks", async (token) =>
        parseComparison((await this.run(args.compareRanks(cap, list), token)).stdout),
      );
      this.setComparison(comparison, { operands: [cap, ...list.map(String)], ranks: true });
      return comparison;
    } catch (err) {
      this.report(err);
      return undefined;
    }
  }

  showTable(): boolean {
    if (!this.current) {
      void vscode.window.showInformationMessage("Dynamo Diff: no comparison yet — run “Dynamo Diff: Compare Captures” first.");
      return false;
    }
    this.table.show(this.current);
    return true;
  }

  async openHtmlReport(): Promise<string | undefined> {
    try {
      this.requireTrust();
      if (!this.current || !this.currentRequest) {
        throw new CliError("no_comparison", "no comparison yet: run “Dynamo Diff: Compare Captures” first");
      }
      const request = this.currentRequest;
      const dir = vscode.Uri.joinPath(this.context.globalStorageUri, "reports").fsPath;
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `comparison-${this.current.id.slice(0, 16)}.html`);
      await this.withProgress("writing the HTML report", (token) => this.run(args.htmlReport(request.operands, request.ranks, file), token));
      const panel = vscode.window.createWebviewPanel("dynamoDiff.report", `Report: ${path.basename(file)}`, vscode.ViewColumn.Active, {
        enableScripts: false,
        localResourceRoots: [],
      });
      // The report carries its own strict Content-Security-Policy and runs no scripts.
      panel.webview.html = fs.readFileSync(file, "utf8");
      void vscode.window.showInformationMessage(`Dynamo Diff: report written to ${file}`, "Open in Browser").then((choice) => {
        if (choice) void vscode.env.openExternal(vscode.Uri.file(file));
      });
      return file;
    } catch (err) {
      this.report(err);
      return undefined;
    }
  }

  async refresh(): Promise<CaptureSummary[] | undefined> {
    this.analyses.clear();
    this.indexes.clear();
    this.resolved = undefined;
    try {
      return await this.refreshCaptures();
    } catch (err) {
      this.report(err);
      return undefined;
    }
  }

  /**
   * Opens the whole captured snapshot (document line N is captured line N) with the function's lines selected
   * and highlighted; when the name matched several functions, says how many and which one is shown.
   */
  async openSource(capture: string, fn: string, line?: number, fileName?: string): Promise<vscode.TextEditor | undefined> {
    try {
      this.requireTrust();
      const ref: SourceRef = { capture, fn, line };
      const uri = sourceUri(ref, this.nameOf(capture), fileName);
      // Read first, here, so a failure keeps the CLI's error code (the document provider's errors lose it).
      await this.loadSource(ref, uri);
      const doc = await vscode.workspace.openTextDocument(uri);
      const view = this.sourceEditors.viewOf(doc.uri);
      if (!view) {
        // Not rendered by this extension instance (cannot normally happen): fall back to the asked-for line.
        const at = new vscode.Position(Math.max(0, Math.min((line ?? 1) - 1, doc.lineCount - 1)), 0);
        return await vscode.window.showTextDocument(doc, { preview: true, selection: new vscode.Range(at, at) });
      }
      const editor = await vscode.window.showTextDocument(doc, { preview: true, selection: this.sourceEditors.selection(doc, view) });
      this.sourceEditors.reveal(editor);
      const note = matchNote(view);
      if (note) {
        this.output.appendLine(note);
        void vscode.window.showInformationMessage(`Dynamo Diff: ${note}`);
      }
      return editor;
    } catch (err) {
      this.report(err);
      return undefined;
    }
  }

  async openEvidence(capture: string, evidence: string, offset = 0): Promise<vscode.TextEditor | undefined> {
    try {
      this.requireTrust();
      const uri = evidenceUri({ capture, evidence, offset }, this.nameOf(capture));
      const doc = await vscode.workspace.openTextDocument(uri);
      return await vscode.window.showTextDocument(doc, { preview: true });
    } catch (err) {
      this.report(err);
      return undefined;
    }
  }

  async evidencePage(direction: 1 | -1, uri?: vscode.Uri): Promise<vscode.TextEditor | undefined> {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!target || target.scheme !== EVIDENCE_SCHEME) {
      void vscode.window.showInformationMessage("Dynamo Diff: open an evidence document first.");
      return undefined;
    }
    const ref: EvidenceRef = parseEvidenceUri(target);
    const page = this.pages.get(target.toString());
    let offset: number;
    if (direction > 0) {
      if (!page || page.next === null) {
        void vscode.window.showInformationMessage("Dynamo Diff: this is the last page of the evidence.");
        return undefined;
      }
      offset = page.next;
    } else {
      if (ref.offset === 0) {
        void vscode.window.showInformationMessage("Dynamo Diff: this is the first page of the evidence.");
        return undefined;
      }
      offset = Math.max(0, ref.offset - this.pageChars());
    }
    return this.openEvidence(ref.capture, ref.evidence, offset);
  }
}

export function activate(context: vscode.ExtensionContext): DynamoDiffApi {
  const ext = new Extension(context);
  const view = vscode.window.createTreeView("dynamoDiff.captures", { treeDataProvider: ext.tree, showCollapseAll: true });
  const reg = (id: string, fn: (...a: never[]) => unknown): void => {
    context.subscriptions.push(vscode.commands.registerCommand(id, fn as (...a: unknown[]) => unknown));
  };
  reg("dynamoDiff.importCapture", (target?: vscode.Uri | string, label?: string) => ext.importCapture(target, label));
  reg("dynamoDiff.compareCaptures", (b?: string, c?: string) => ext.compareCaptures(b, c));
  reg("dynamoDiff.compareRanks", (capture?: string, ranks?: number[] | string) => ext.compareRanks(capture, ranks));
  reg("dynamoDiff.showTable", () => ext.showTable());
  reg("dynamoDiff.openHtmlReport", () => ext.openHtmlReport());
  reg("dynamoDiff.refresh", () => ext.refresh());
  reg("dynamoDiff.openSource", (capture: string, fn: string, line?: number, fileName?: string) =>
    ext.openSource(capture, fn, line, fileName),
  );
  reg("dynamoDiff.openEvidence", (capture: string, evidence: string, offset?: number) => ext.openEvidence(capture, evidence, offset));
  reg("dynamoDiff.evidenceNextPage", (uri?: vscode.Uri) => ext.evidencePage(1, uri));
  reg("dynamoDiff.evidencePreviousPage", (uri?: vscode.Uri) => ext.evidencePage(-1, uri));
  context.subscriptions.push(
    view,
    ext.output,
    ext.table,
    ext.sourceEditors,
    vscode.workspace.registerTextDocumentContentProvider(SOURCE_SCHEME, ext.documents),
    vscode.workspace.registerTextDocumentContentProvider(EVIDENCE_SCHEME, ext.documents),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("dynamoDiff") || e.affectsConfiguration("python")) void ext.refresh();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void ext.refresh()),
  );
  if (vscode.workspace.isTrusted) void ext.startup();
  return ext;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions; running CLI calls end with their tokens.
}
