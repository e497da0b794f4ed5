// Commands that make or show a comparison: compare two captures, compare a capture's ranks, show the table,
// write and open the HTML report. A failed comparison keeps the last good one in the tree and the table.
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { CaptureRow, CliError, Comparison, args, parseComparison, parseRanks, parseRankView } from "../common/cli";
import { Command } from "../common/constants";
import { ErrorReporter, toCliError } from "../common/errors";
import { CliRunner, requireTrust, withProgress } from "../common/runner";
import { ComparisonRequest, Session } from "../common/session";
import { showHtmlReport } from "../views/report";
import { ComparisonTable } from "../views/table";

export class ComparisonCommands {
  constructor(
    private readonly cli: CliRunner,
    private readonly session: Session,
    private readonly errors: ErrorReporter,
    private readonly table: ComparisonTable,
    /** Where the HTML reports are written (the extension's global storage). */
    private readonly storage: vscode.Uri,
  ) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand(Command.compareCaptures, (b?: string, c?: string) => this.compareCaptures(b, c)),
      vscode.commands.registerCommand(Command.compareRanks, (capture?: string, ranks?: number[] | string) => this.compareRanks(capture, ranks)),
      vscode.commands.registerCommand(Command.showTable, () => this.showTable()),
      vscode.commands.registerCommand(Command.openHtmlReport, () => this.openHtmlReport()),
    ];
  }

  private async pickCapture(
    title: string,
    exclude?: string,
    onlyMultiRank = false,
    known?: CaptureRow[],
  ): Promise<CaptureRow | undefined> {
    const all = known ?? (await this.session.refreshCaptures());
    const list = all.filter((c) => c.id !== exclude && (!onlyMultiRank || c.rank_count > 1));
    if (!list.length) {
      throw new CliError("no_captures", onlyMultiRank ? "no capture with more than one rank; import one first" : "no captures to choose from; import one first");
    }
    const picked = await vscode.window.showQuickPick(
      list.map((c) => ({
        label: c.label ?? c.id.slice(0, 12),
        description: c.imported_at,
        detail: `${c.id.slice(0, 12)} · ${c.input_kind} · torch ${c.torch_version ?? "?"} · ${c.rank_count} rank(s)`,
        capture: c,
      })),
      { title, placeHolder: title, matchOnDescription: true, matchOnDetail: true, ignoreFocusOut: true },
    );
    return picked?.capture;
  }

  private setComparison(comparison: Comparison, request: ComparisonRequest): void {
    this.session.setComparison(comparison, request);
    this.errors.clear();
    this.table.show(comparison);
  }

  async compareCaptures(baseline?: string, candidate?: string): Promise<Comparison | undefined> {
    try {
      requireTrust();
      if (!baseline) baseline = (await this.pickCapture("Baseline capture (before)"))?.id;
      if (!baseline) return undefined;
      if (!candidate) candidate = (await this.pickCapture("Candidate capture (after)", baseline, false, this.session.captures()))?.id;
      if (!candidate) return undefined;
      const b = baseline;
      const c = candidate;
      const comparison = await withProgress("comparing", async (token) => parseComparison((await this.cli.run(args.compare(b, c), token)).stdout));
      this.setComparison(comparison, { operands: [b, c], ranks: false });
      return comparison;
    } catch (err) {
      // The last good comparison stays in the tree and the table.
      this.errors.report(err);
      return undefined;
    }
  }

  async compareRanks(capture?: string, ranks?: number[] | string): Promise<Comparison | undefined> {
    try {
      requireTrust();
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
      const comparison = await withProgress("comparing ranks", async (token) =>
        parseRankView((await this.cli.run(args.compareRanks(cap, list), token)).stdout),
      );
      this.setComparison(comparison, { operands: [cap, ...list.map(String)], ranks: true });
      return comparison;
    } catch (err) {
      this.errors.report(err);
      return undefined;
    }
  }

  showTable(): boolean {
    const current = this.session.comparison();
    if (!current) {
      void vscode.window.showInformationMessage("Dynamo Diff: no comparison yet — run “Dynamo Diff: Compare Captures” first.");
      return false;
    }
    this.table.show(current);
    return true;
  }

  async openHtmlReport(): Promise<string | undefined> {
    try {
      requireTrust();
      const current = this.session.comparison();
      const request = this.session.request();
      if (!current || !request) {
        throw new CliError("no_comparison", "no comparison yet: run “Dynamo Diff: Compare Captures” first");
      }
      const dir = vscode.Uri.joinPath(this.storage, "reports").fsPath;
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `comparison-${current.id.slice(0, 16)}.html`);
      await withProgress("writing the HTML report", (token) => this.cli.run(args.htmlReport(request.operands, request.ranks, file), token));
      showHtmlReport(file);
      void vscode.window.showInformationMessage(`Dynamo Diff: report written to ${file}`, "Open in Browser").then((choice) => {
        if (choice) void vscode.env.openExternal(vscode.Uri.file(file));
      });
      return file;
    } catch (err) {
      this.errors.report(err);
      return undefined;
    }
  }
}
