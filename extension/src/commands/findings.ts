// Which capture's graph breaks and failures show in the workspace files: "Show Capture Diagnostics in Workspace
// Files" (a picked capture, the comparison's candidate listed first), "Clear Diagnostics", and — unless
// dynamoDiff.diagnosticsFollowComparison is off — the candidate of each new comparison.
import * as vscode from "vscode";
import { CliError } from "../common/cli";
import { Command } from "../common/constants";
import { ErrorReporter, toCliError } from "../common/errors";
import { Log } from "../common/log";
import { requireTrust, withProgress } from "../common/runner";
import { Session } from "../common/session";
import { diagnosticsFollowComparison } from "../common/settings";
import { rankViewCaptureName } from "../views/tree";
import { FindingsState, WorkspaceFindings } from "../views/workspace-findings";

export class FindingsCommands {
  private followed: string | undefined;

  constructor(
    private readonly session: Session,
    private readonly errors: ErrorReporter,
    private readonly log: Log,
    private readonly findings: WorkspaceFindings,
  ) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand(Command.showCaptureDiagnostics, (capture?: string) => this.show(capture)),
      vscode.commands.registerCommand(Command.clearDiagnostics, () => this.clear()),
      this.session.onDidChange(() => void this.followComparison()),
    ];
  }

  private comparisonName(): string | undefined {
    const c = this.session.comparison();
    if (!c) return undefined;
    const name = (s: { id: string; label?: string | null }) => s.label ?? s.id.slice(0, 12);
    return c.kind === "rank_view" ? `ranks of ${rankViewCaptureName(c)}` : `${name(c.baseline)} → ${name(c.candidate)}`;
  }

  /** A new comparison on screen: its candidate's findings, unless the setting is off. */
  private async followComparison(): Promise<void> {
    const c = this.session.comparison();
    if (!c || c.id === this.followed) return;
    this.followed = c.id;
    if (!diagnosticsFollowComparison() || !vscode.workspace.isTrusted) return;
    try {
      await this.findings.load(c.candidate.id, `candidate of the comparison ${this.comparisonName()}`);
    } catch (err) {
      // Not a pop-up: the comparison itself worked; the output channel says why there are no diagnostics.
      this.log.line(`diagnostics for the comparison's candidate: ${toCliError(err).display()}`);
    }
  }

  async show(capture?: string): Promise<FindingsState | undefined> {
    try {
      requireTrust();
      let why = "chosen with Show Capture Diagnostics";
      if (!capture) {
        const list = this.session.captures().length ? this.session.captures() : await this.session.refreshCaptures();
        if (!list.length) throw new CliError("no_captures", "no captures to choose from; import one first");
        const candidate = this.session.comparison()?.candidate.id;
        const ordered = [...list].sort((a, b) => Number(b.id === candidate) - Number(a.id === candidate));
        const picked = await vscode.window.showQuickPick(
          ordered.map((c) => ({
            label: c.label ?? c.id.slice(0, 12),
            description: c.id === candidate ? `candidate of the comparison ${this.comparisonName()}` : c.imported_at,
            detail: `${c.id.slice(0, 12)} · ${c.input_kind} · torch ${c.torch_version ?? "?"}`,
            capture: c,
          })),
          { title: "Capture whose graph breaks and failures to show in your files", ignoreFocusOut: true, matchOnDescription: true },
        );
        if (!picked) return undefined;
        capture = picked.capture.id;
        if (capture === candidate) why = `candidate of the comparison ${this.comparisonName()}`;
      }
      const id = capture;
      const state = await withProgress("reading the capture's graph breaks and failures", (token) => this.findings.load(id, why, token));
      if (state) {
        const n = state.files.reduce((sum, f) => sum + f.diagnostics, 0);
        const stale = state.files.filter((f) => f.stale).length;
        const text =
          `Dynamo Diff: ${state.label}: ${n} graph break(s) and failure(s) in ${state.files.length} workspace file(s)` +
          (stale ? `, ${stale} changed since capture` : "") +
          (state.unmapped.length ? `; ${state.unmapped.length} recorded file(s) not in this workspace` : "");
        void vscode.window.showInformationMessage(text);
      }
      return state;
    } catch (err) {
      this.errors.report(err);
      return undefined;
    }
  }

  clear(): void {
    this.findings.clear();
  }
}
