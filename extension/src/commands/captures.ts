// Commands on the store: import a capture, and refresh (find the CLI again, read the captures again).
import * as path from "node:path";
import * as vscode from "vscode";
import { CaptureSummary, args, parseImport } from "../common/cli";
import { Command } from "../common/constants";
import { ErrorReporter } from "../common/errors";
import { CliRunner, requireTrust, withProgress } from "../common/runner";
import { Session } from "../common/session";
import { workspaceUri } from "../common/settings";
import { captureName } from "../views/tree";

export class CaptureCommands {
  constructor(
    private readonly cli: CliRunner,
    private readonly session: Session,
    private readonly errors: ErrorReporter,
  ) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand(Command.importCapture, (target?: vscode.Uri | string, label?: string) => this.importCapture(target, label)),
      vscode.commands.registerCommand(Command.refresh, () => this.refresh()),
    ];
  }

  async importCapture(target?: vscode.Uri | string, label?: string): Promise<CaptureSummary | undefined> {
    try {
      requireTrust();
      let where = typeof target === "string" ? target : target?.fsPath;
      if (!where) {
        const picked = await vscode.window.showOpenDialog({
          canSelectFolders: true,
          canSelectFiles: true,
          canSelectMany: false,
          openLabel: "Import",
          title: "Import a capture: a TORCH_TRACE directory or log, a tlparse export, or a bundle",
          defaultUri: workspaceUri(),
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
      const imported = await withProgress(`importing ${path.basename(target_)}`, async (token) =>
        parseImport((await this.cli.run(args.importCapture(target_, label?.trim() || undefined), token)).stdout),
      );
      const list = await this.session.refreshCaptures();
      const summary = list.find((c) => c.id === imported.id);
      void vscode.window.showInformationMessage(`Dynamo Diff: imported ${captureName(imported)}`);
      return summary;
    } catch (err) {
      this.errors.report(err);
      return undefined;
    }
  }

  /** Also run when the settings or the workspace trust change. */
  async refresh(): Promise<CaptureSummary[] | undefined> {
    this.session.forget();
    this.cli.forget();
    try {
      return await this.session.refreshCaptures();
    } catch (err) {
      this.errors.report(err);
      return undefined;
    }
  }
}
